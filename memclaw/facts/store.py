"""The evidence kept beside the files: who stated, confirmed or rejected each fact, and when.

The ledger's ``evidence`` document maps a fact id to its events. It holds
ids, sources and times, never the statement itself, so the record is not a
second copy of the memory (forgetting a fact leaves no text here). Saved in
one transaction under the agent's lock; every event passes the secret gate as it
comes in (the events already kept passed it then, so a save costs the same
however many facts the record holds).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from memclaw.facts import EVIDENCE
from memclaw.facts.model import Event, EventKind
from memclaw.gates import redact
from memclaw.workspace import ledger
from memclaw.workspace.safeguards import journal

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent

STORE = EVIDENCE  # the name its deltas carry in the change journal
# Events kept per fact: enough for any trust the score can tell apart.
KEEP_EVENTS = 40


def load_events(agent: Agent) -> dict[str, tuple[Event, ...]]:
    """Every fact's events, oldest first; an unreadable record counts as none."""
    return parse_events(ledger.load(agent.meta_dir, EVIDENCE)[0])


def parse_events(data: Any) -> dict[str, tuple[Event, ...]]:
    """The evidence document as events per fact."""
    found: dict[str, tuple[Event, ...]] = {}
    if not isinstance(data, dict):
        return found
    for fid, events in data.get("facts", {}).items():
        parsed = []
        for raw in events if isinstance(events, list) else []:
            event = _parse(raw)
            if event is not None:
                parsed.append(event)
        found[str(fid)] = tuple(parsed)
    return found


def _parse(raw: Any) -> Event | None:
    try:
        return Event(
            EventKind(raw["kind"]), str(raw["time"]), str(raw["source"]), raw.get("session")
        )
    except (KeyError, ValueError, TypeError):
        return None


def record(agent: Agent, facts: Iterable[str], event: Event, *, locked: bool = False) -> None:
    """Add ``event`` to each fact of ``facts``; takes the agent lock unless ``locked``."""
    ids = list(dict.fromkeys(facts))
    if not ids:
        return
    if locked:
        _record(agent, ids, event)
        return
    with agent.lock():
        _record(agent, ids, event)


def _gated(event: Event) -> Event:
    session = redact(event.session) if event.session else event.session
    return Event(event.kind, redact(event.time), redact(event.source), session)


def _record(agent: Agent, ids: list[str], event: Event) -> None:
    event = _gated(event)
    current = load_events(agent)
    for fid in ids:
        current[fid] = (*current.get(fid, ()), event)[-KEEP_EVENTS:]
    _save(agent, current)
    journal.note_state(agent, {"store": STORE, "added": [[fid, event.to_dict()] for fid in ids]})


def record_verdict(agent: Agent, facts: Iterable[str], event: Event) -> None:
    """Add a confirmation or rejection that replaces the same session's earlier one."""
    verdicts = {EventKind.CONFIRMED, EventKind.REJECTED}
    ids = list(dict.fromkeys(facts))
    event = _gated(event)
    with agent.lock():
        current = load_events(agent)
        replaced = []
        for fid in ids:
            kept = []
            for e in current.get(fid, ()):
                if e.kind in verdicts and e.session == event.session:
                    replaced.append([fid, e.to_dict()])
                else:
                    kept.append(e)
            current[fid] = (*kept, event)[-KEEP_EVENTS:]
        _save(agent, current)
        added = [[fid, event.to_dict()] for fid in ids]
        journal.note_state(agent, {"store": STORE, "added": added, "removed": replaced})


def drop(agent: Agent, facts: Iterable[str]) -> None:
    """Forget the evidence of ``facts`` (for ``forget``: nothing of it may remain)."""
    with agent.lock():
        remove(agent, facts)


def remove(agent: Agent, facts: Iterable[str]) -> None:
    """``drop`` for a caller that holds the agent lock already (``forget`` does)."""
    ids = set(facts)
    current = load_events(agent)
    if ids & current.keys():
        _save(agent, {k: v for k, v in current.items() if k not in ids})
        removed = [[fid, e.to_dict()] for fid in sorted(ids & current.keys()) for e in current[fid]]
        journal.note_state(agent, {"store": STORE, "removed": removed})


def undo_delta(agent: Agent, delta: dict[str, Any]) -> None:
    """Take back one noted write: drop the events it added, restore those it removed.

    Events recorded since (a confirmation after the change) stay: only the very
    events this write made are taken out. The caller holds the agent lock.
    """
    current = {fid: list(evs) for fid, evs in load_events(agent).items()}
    for fid, raw in delta.get("added", []):
        events = current.get(fid, [])
        for index in range(len(events) - 1, -1, -1):
            if events[index].to_dict() == raw:
                del events[index]
                break
        if fid in current and not events:
            del current[fid]
    for fid, raw in delta.get("removed", []):
        event = _parse(raw)
        if event is not None:
            current.setdefault(fid, []).append(event)
    _save(agent, {fid: tuple(sorted(evs, key=lambda e: e.time)) for fid, evs in current.items()})


def _save(agent: Agent, events: dict[str, tuple[Event, ...]]) -> None:
    data = {"facts": {fid: [e.to_dict() for e in evs] for fid, evs in sorted(events.items())}}
    ledger.save(agent.meta_dir, EVIDENCE, data)


def stated_by_person(agent: Agent, fact_ids: Iterable[str]) -> set[str]:
    """Those of ``fact_ids`` a person stated (remember, a correction): their words stay theirs."""
    events = load_events(agent)
    return {fid for fid in fact_ids if any(e.kind is EventKind.STATED for e in events.get(fid, ()))}
