"""What memory knows about itself, carried beside the files (snapshot format 2).

Without it a clone re-learns what was forgotten, loses the person's
confirmations and rejections, and sees every machine-written line as the
person's. The zip holds it under ``state/``:

* ``state/forgotten.jsonl``: forgotten fingerprints, hashes and ids only;
* ``state/evidence.json`` and ``state/inbox.json``: the fact layer's records;
* ``state/changes.jsonl``, ``state/extract.jsonl`` and ``state/forget.jsonl``: the
  change journal, the extraction runs and the forget runs ``why`` and ``timeline`` read;
* ``state/provenance/<file>.json``: who wrote each line of a carried file, and
  ``state/guard/<file>.json``: the loss guard's baseline (what a person last saw),
  so a dream in the clone may drop exactly what it could drop in the original;
* ``state/sessions/<id>.jsonl``: the chat sessions a carried extraction came from,
  so ``why`` quotes the same turn (only into a new agent, like the journal);
* ``state/agent.yaml``: which files are injected, in which order, and the day the
  agent lives on (only into a new agent: an existing one keeps its own).

Only what belongs to the carried scopes travels: an owner not exported leaves
no inbox item, journal line or forgotten fingerprint behind in the zip.

Merging into an agent that already exists (decided here, not in the issue):
forgetting is never undone by an import, so forgotten fingerprints are a union
and a relearn record never travels into an existing agent; evidence is a
union per fact; open inbox items are added beside the agent's own; each file
the import writes takes the snapshot's provenance. The source's journal only
seeds a new agent: an existing one has its own history, and the import is one
change in it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from memclaw.errors import SnapshotError
from memclaw.text import jsonsafe

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent

STATE_DIR = "state"
FORGOTTEN = "state/forgotten.jsonl"
EVIDENCE = "state/evidence.json"
INBOX = "state/inbox.json"
CHANGES = "state/changes.jsonl"
EXTRACT = "state/extract.jsonl"
FORGETS = "state/forget.jsonl"
PROVENANCE = "state/provenance/"
# The loss guard's record of a carried PROFILE.md or MEMORY.md: the baseline a person saw.
GUARD = "state/guard/"
# The chat sessions a carried extraction quotes (``why`` shows the user's turn), by their
# path in the agent folder: ``state/sessions/<id>.jsonl``, ``state/owners/<o>/sessions/...``.
SESSION = re.compile(r"state/((?:owners/[^/]+/)?sessions/[A-Za-z0-9._:-]+\.jsonl)")
AGENT_META = "state/agent.yaml"
_SINGLE = (FORGOTTEN, EVIDENCE, INBOX, CHANGES, EXTRACT, FORGETS, AGENT_META)
# Where the import puts each entry under the agent's .memclaw folder: the logs and the
# fact layer's documents are files the ledger then takes in (``workspace.ledger``).
_TARGETS = {
    FORGOTTEN: "logs/forgotten.jsonl",
    EVIDENCE: "facts/evidence.json",
    INBOX: "facts/inbox.json",
    CHANGES: "logs/changes.jsonl",
    EXTRACT: "logs/extract.jsonl",
    FORGETS: "logs/forget.jsonl",
    AGENT_META: "agent.yaml",
}
STATE_TARGETS = frozenset(_TARGETS.values())
_HASH = re.compile(r"[0-9a-f]{10}")
FORGET_KEYS = ("time", "action", "kind", "id", "scope", "fingerprint")
# A forget run's record (timeline tells it): ids and file names, never the text.
RUN_KEYS = ("time", "owner", "scope", "facts", "places", "files")


def is_state(name: str) -> bool:
    """Whether a zip entry is carried state (``state/...``), not a memory file."""
    return name.startswith(STATE_DIR + "/")


def state_reason(name: str, carried: Iterable[str]) -> str | None:
    """None when ``name`` is a state entry memclaw knows; otherwise why it is refused."""
    if name in _SINGLE:
        return None
    for folder in (PROVENANCE, GUARD):
        if name.startswith(folder) and name.endswith(".json"):
            if name[len(folder) : -len(".json")] in set(carried):
                return None
            return "a record of a file the snapshot does not carry"
    match = SESSION.fullmatch(name)
    if match and ".." not in name:
        owner = match[1].split("/")[1] if match[1].startswith("owners/") else None
        if owner is None or any(rel.startswith(f"owners/{owner}/") for rel in carried):
            return None
        return "a session of an owner the snapshot does not carry"
    return "not a kind of state memclaw carries"


def prefix_of(rel: str) -> str:
    """The scope folder of a carried file: 'owners/<owner>/', or '' for the shared one."""
    parts = rel.split("/")
    return f"{parts[0]}/{parts[1]}/" if parts[0] == "owners" and len(parts) > 2 else ""


def scope_label(rel: str) -> str:
    # The forgotten and forget logs name a scope by its folder, 'team' for the shared one.
    return prefix_of(rel) or "team"


def as_json(doc: Any) -> bytes:
    return (json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")


def as_jsonl(records: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")


def owner_prefix(owner: Any) -> str | None:
    """The scope folder of a record's owner ('' for the shared scope; None if unreadable)."""
    from memclaw.errors import UsageError
    from memclaw.workspace.owners import OWNERS_DIR, normalise_owner, owner_dirname

    if owner is None:
        return ""
    try:
        return f"{OWNERS_DIR}/{owner_dirname(normalise_owner(str(owner)))}/"
    except UsageError:
        return None


def facts_at_home(files: Iterable[tuple[str, str]]) -> set[str]:
    """The fact ids of the lines of ``files`` ((path in the agent folder, text)): the
    facts of memory that does not travel, whose evidence must not travel either."""
    from memclaw.facts.ids import fact_id

    return {
        fact_id(line, prefix_of(rel))
        for rel, text in files
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    }


# --- import ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CarriedState:
    """State read from a snapshot and checked for shape; empty for a format 1 zip."""

    forgotten: list[dict[str, Any]] = field(default_factory=list)
    evidence: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    inbox: list[dict[str, Any]] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    extract: list[dict[str, Any]] = field(default_factory=list)
    forgets: list[dict[str, Any]] = field(default_factory=list)
    sessions: dict[str, bytes] = field(default_factory=dict)  # agent-folder path: bytes
    provenance: dict[str, dict[str, Any]] = field(default_factory=dict)
    guard: dict[str, dict[str, Any]] = field(default_factory=dict)
    agent_meta: bytes = b""  # the agent's agent.yaml, checked


def within(state: CarriedState, carried: Sequence[str], left_out: dict[str, bytes]) -> CarriedState:
    """The state of the scopes whose files an import writes (``carried``): an owner whose
    memory is ``left_out`` leaves no inbox item, journal line, forgotten fingerprint,
    evidence or session behind, as an export of that owner's memory would not have."""
    labels = {scope_label(rel) for rel in carried}
    prefixes = {prefix_of(rel) for rel in carried}
    rels = set(carried)
    changes = []
    for record in state.changes:
        files = [f for f in record.get("files", []) if isinstance(f, dict) and f.get("rel") in rels]
        if files:
            changes.append({**record, "files": files})
    kept = {str(c.get("id")) for c in changes}
    home = facts_at_home(
        (rel, data.decode("utf-8", errors="replace")) for rel, data in left_out.items()
    )
    return replace(
        state,
        forgotten=[r for r in state.forgotten if r.get("scope") in labels],
        evidence={fid: ev for fid, ev in state.evidence.items() if fid not in home},
        inbox=[i for i in state.inbox if i.get("prefix", "") in prefixes],
        changes=changes,
        extract=[r for r in state.extract if str(r.get("change")) in kept],
        forgets=[r for r in state.forgets if owner_prefix(r.get("owner")) in prefixes],
        sessions={
            rel: data
            for rel, data in state.sessions.items()
            if state_reason(f"{STATE_DIR}/{rel}", rels) is None
        },
        provenance={rel: doc for rel, doc in state.provenance.items() if rel in rels},
        guard={rel: doc for rel, doc in state.guard.items() if rel in rels},
    )


def state_counts(state: CarriedState) -> dict[str, int]:
    """How much of each kind of state a snapshot carries, for the import preview."""
    return {
        "forgotten": sum(1 for r in state.forgotten if r.get("action") == "forget"),
        "evidence": len(state.evidence),
        "inbox": len(state.inbox),
        "changes": len(state.changes),
        "provenance": len(state.provenance),
        "sessions": len(state.sessions),
        "guard": len(state.guard),
    }


def _bad(name: str, what: str) -> SnapshotError:
    return SnapshotError(f"snapshot rejected: {name} is malformed ({what}); export it again")


def _load(name: str, data: bytes) -> Any:
    try:
        return jsonsafe.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise _bad(name, "not valid JSON") from None


def _lines(name: str, data: bytes) -> list[dict[str, Any]]:
    records = []
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = jsonsafe.loads(line)
        except ValueError:
            raise _bad(name, f"line {number} is not JSON") from None
        if not isinstance(record, dict):
            raise _bad(name, f"line {number} is not an object")
        records.append(record)
    return records


def parse_state(entries: dict[str, bytes]) -> CarriedState:
    """Check every carried state entry's shape; a malformed one rejects the whole zip."""
    from memclaw.facts import inbox as inbox_store
    from memclaw.facts.model import EventKind

    state = CarriedState()
    for name, data in sorted(entries.items()):
        if name == FORGOTTEN:
            for record in _lines(name, data):
                prints = record.get("fingerprint")
                if not isinstance(prints, list) or not all(
                    isinstance(p, str) and _HASH.fullmatch(p) for p in prints
                ):
                    raise _bad(name, "a fingerprint is not a list of hashes")
                if record.get("action") not in ("forget", "relearn"):
                    raise _bad(name, "an action is neither forget nor relearn")
                state.forgotten.append({k: record[k] for k in FORGET_KEYS if k in record})
        elif name == EVIDENCE:
            doc = _load(name, data)
            facts = doc.get("facts") if isinstance(doc, dict) else None
            if not isinstance(facts, dict):
                raise _bad(name, "no 'facts' object")
            for fid, events in facts.items():
                if not isinstance(events, list) or not all(
                    isinstance(e, dict) and e.get("kind") in set(EventKind) for e in events
                ):
                    raise _bad(name, f"the events of {fid} are not a list of known events")
                state.evidence[str(fid)] = events
        elif name == INBOX:
            doc = _load(name, data)
            items = doc.get("items") if isinstance(doc, dict) else None
            if not isinstance(items, list):
                raise _bad(name, "no 'items' list")
            for raw in items:
                try:
                    inbox_store.Item(**raw)
                except TypeError:
                    raise _bad(name, "an item has unknown or missing fields") from None
            state.inbox.extend(items)
        elif name == CHANGES:
            for record in _lines(name, data):
                if not isinstance(record.get("id"), str) or not isinstance(
                    record.get("files"), list
                ):
                    raise _bad(name, "a change has no id or no file list")
                state.changes.append(record)
        elif name == EXTRACT:
            state.extract.extend(_lines(name, data))
        elif name == AGENT_META:
            _check_meta(name, data)
            state = replace(state, agent_meta=data)
        elif name == FORGETS:
            for record in _lines(name, data):
                if not isinstance(record.get("facts"), list):
                    raise _bad(name, "a forget run lists no facts")
                state.forgets.append({k: record[k] for k in RUN_KEYS if k in record})
        elif name.startswith(PROVENANCE):
            doc = _load(name, data)
            if not (
                isinstance(doc, dict)
                and isinstance(doc.get("seq"), int)
                and isinstance(doc.get("lines"), dict)
                and all(isinstance(v, int) for v in doc["lines"].values())
            ):
                raise _bad(name, "not a provenance record")
            state.provenance[name[len(PROVENANCE) : -len(".json")]] = doc
        elif name.startswith(GUARD):
            doc = _load(name, data)
            if not (
                isinstance(doc, dict)
                and all(
                    isinstance(doc.get(key), list) and all(isinstance(v, str) for v in doc[key])
                    for key in ("baseline", "written")
                )
            ):
                raise _bad(name, "not a loss-guard record")
            state.guard[name[len(GUARD) : -len(".json")]] = doc
        else:
            _lines(name, data)  # a session: JSON lines, as chat writes them
            state.sessions[name[len(STATE_DIR) + 1 :]] = data
    return state


def _check_meta(name: str, data: bytes) -> None:
    import tempfile
    from pathlib import Path

    from memclaw.errors import WorkspaceError
    from memclaw.workspace.meta import load_meta, load_today

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "agent.yaml"
        path.write_bytes(data)
        try:
            load_meta(path)
            load_today(path)
        except WorkspaceError as exc:
            raise _bad(name, str(exc).split(": ", 1)[-1]) from None


def state_writes(
    agent: Agent | None, state: CarriedState, written: Sequence[str]
) -> list[tuple[str, bytes]]:
    """(path under .memclaw, bytes) the import writes; ``agent`` None for a new agent."""
    out: list[tuple[str, bytes]] = []
    if agent is None:
        if state.forgotten:
            out.append((_TARGETS[FORGOTTEN], as_jsonl(state.forgotten)))
        if state.changes:
            out.append((_TARGETS[CHANGES], as_jsonl(state.changes)))
        if state.extract:
            out.append((_TARGETS[EXTRACT], as_jsonl(state.extract)))
        if state.forgets:
            out.append((_TARGETS[FORGETS], as_jsonl(state.forgets)))
        if state.agent_meta:
            out.append((_TARGETS[AGENT_META], state.agent_meta))
        evidence: dict[str, list[dict[str, Any]]] = dict(state.evidence)
        items = list(state.inbox)
    else:
        forgotten = _new_forgets(agent, state.forgotten)
        if forgotten:  # a file in logs/ is added to its stream of the ledger (``ledger``)
            out.append((_TARGETS[FORGOTTEN], as_jsonl(forgotten)))
        evidence = _merged_evidence(agent, state.evidence)
        items = _merged_inbox(agent, state.inbox)
    if evidence:
        out.append((_TARGETS[EVIDENCE], as_json({"facts": evidence})))
    if items:
        out.append((_TARGETS[INBOX], as_json({"items": items})))
    for rel in written:
        if rel in state.provenance:
            out.append((f"provenance/{rel}.json", as_json(state.provenance[rel])))
        if rel in state.guard:
            out.append((f"guard/{rel}.json", as_json(state.guard[rel])))
    return out


def _new_forgets(agent: Agent, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The snapshot's forgotten fingerprints still in force there and not known here."""
    from memclaw.workspace.logs import read_log

    active: list[dict[str, Any]] = []
    for record in records:
        if record.get("action") == "relearn":
            # Lifted in the source; an import never lifts anything here, so it just does not travel.
            active = [r for r in active if r.get("fingerprint") != record.get("fingerprint")]
        else:
            active.append(record)
    known = {
        (r.get("scope"), r.get("kind"), tuple(r.get("fingerprint") or ()))
        for r in read_log(agent, "forgotten")
        if r.get("action") == "forget"
    }
    return [
        r for r in active if (r.get("scope"), r.get("kind"), tuple(r["fingerprint"])) not in known
    ]


def _merged_evidence(
    agent: Agent, carried: dict[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    from memclaw.facts.store import KEEP_EVENTS, load_events

    if not carried:
        return {}
    merged = {fid: [e.to_dict() for e in evs] for fid, evs in load_events(agent).items()}
    for fid, events in carried.items():
        seen = {json.dumps(e, sort_keys=True) for e in merged.get(fid, [])}
        fresh = [e for e in events if json.dumps(e, sort_keys=True) not in seen]
        both = merged.get(fid, []) + fresh
        both.sort(key=lambda e: str(e.get("time", "")))
        merged[fid] = both[-KEEP_EVENTS:]
    return dict(sorted(merged.items()))


def _merged_inbox(agent: Agent, carried: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from memclaw.facts import inbox as inbox_store

    if not carried:
        return []
    mine = [i.to_dict() for i in inbox_store.load(agent)]
    ids = {i["id"] for i in mine}
    return mine + [i for i in carried if i.get("id") not in ids]
