"""`memclaw why`: the chain that produced one remembered line.

For a fact (its id, or its text) it gathers, oldest first: every journalled
change that wrote a line stating it (the extraction, with its session and the
user's turn that said it, quoted; a remember; an edit), the dreams whose
reports promoted, dropped or questioned it, and the person's confirmations
and rejections (the fact layer's evidence). Where it lives now comes from the
files themselves; its trust now and after each piece of evidence comes from the
trust formula (:mod:`memclaw.facts.trust`) at the agent's clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memclaw.changes.records import ChangeRecord, all_changes
from memclaw.errors import UsageError
from memclaw.facts.ids import FACT_ID, fact_id, is_meta
from memclaw.text.tokenize import tokens
from memclaw.workspace.logs import read_log

if TYPE_CHECKING:
    from memclaw.facts.model import Event
    from memclaw.workspace.scope import Scope

# "MEMORY.md:6", "memory/2026-11-28.md:3", "owners/user-maya/PROFILE.md:2".
_FILE_LINE = re.compile(r"(?P<file>[^\s:]+\.md):(?P<line>\d+)")
# The evidence ``why`` tells as steps; stated and inferred are the journal's changes already.
_SHOWN_EVIDENCE = {
    "confirmed": "confirmed by the person",
    "rejected": "rejected by the person",
    "superseded": "superseded by a correction",
}


@dataclass(frozen=True)
class Step:
    time: str
    kind: str
    text: str
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"time": self.time, "kind": self.kind, "text": self.text, **self.detail}


@dataclass(frozen=True)
class Why:
    fact: str
    statement: str
    places: list[tuple[str, int, str]]
    steps: list[Step]
    trust: float | None = None  # now; None: no place and no evidence left to judge
    trust_history: list[tuple[str, str, float]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "fact": self.fact,
            "statement": self.statement,
            "places": [{"file": f, "line": n, "text": t} for f, n, t in self.places],
            "chain": [s.to_dict() for s in self.steps],
            "trust": None if self.trust is None else round(self.trust, 3),
            "trust_history": [
                {"time": t, "event": e, "trust": round(v, 3)} for t, e, v in self.trust_history
            ],
        }


def _memory_files(scope: Scope) -> list[str]:
    """Every markdown file of the scope, memory first: what search finds, why can explain."""
    names = ["PROFILE.md", "MEMORY.md"]
    names += [info.name for info in scope.list_files("entries/")]
    names += sorted((info.name for info in scope.list_files("memory/")), reverse=True)
    first = set(names)
    return names + [info.name for info in scope.list_files() if info.name not in first]


def places_of(scope: Scope, fid: str) -> list[tuple[str, int, str]]:
    found = []
    for name in _memory_files(scope):
        for number, line in enumerate(scope.read(name).splitlines(), 1):
            if _is_memory(line) and fact_id(line, scope.prefix) == fid:
                found.append((scope.rel(name), number, line.strip()))
    return found


def _states(change: ChangeRecord, fid: str) -> tuple[str, str] | None:
    """(file, line) of the first line ``change`` added or changed that states ``fid``."""
    for delta in change.files:
        for line in [*delta.added, *delta.changed]:
            if line.fact == fid and not is_meta(line.text):
                return delta.rel, line.text
    return None


def _turn(scope: Scope, session: str, statement: str) -> tuple[int, str] | None:
    """The user's turn of ``session`` that shares the most words with ``statement``."""
    from memclaw.extract.transcripts import load_session

    try:
        messages = load_session(scope, session)
    except Exception:
        return None
    wanted = set(tokens(statement))
    best: tuple[int, int, str] | None = None
    turn = 0
    for message in messages:
        if message.get("role") != "user":
            continue
        turn += 1
        content = str(message.get("content", ""))
        shared = len(wanted & set(tokens(content)))
        if shared and (best is None or shared > best[0]):
            best = (shared, turn, content)
    return (best[1], " ".join(best[2].split())) if best else None


class SeveralMatchError(UsageError):
    """The words name more than one remembered line; the person picks one by its id."""

    def __init__(self, message: str, matches: list[tuple[str, str, int, str]]) -> None:
        super().__init__(message)
        self.matches = matches  # (fact id, file, line number, text)


def named_fact(scope: Scope, wanted: str) -> str:
    """The fact id ``wanted`` names: an id, FILE:LINE, a whole line, or words it holds.

    Words are matched as forget matches them (every word, whole words, plural and
    verb endings), so what a person can forget by they can also ask about. Raises
    :class:`SeveralMatchError` listing them when the words fit several lines.
    """
    wanted = wanted.strip()
    if not wanted:
        raise UsageError("name a remembered line: its fact id (f1a2b3c4d), FILE:LINE or words")
    if FACT_ID.fullmatch(wanted):
        return wanted
    if at := _FILE_LINE.fullmatch(wanted):
        return _fact_at(scope, at["file"], int(at["line"]))
    exact = fact_id(wanted, scope.prefix)
    if places_of(scope, exact):
        return exact
    from memclaw.erasure.match import Matcher, query_words

    matcher = Matcher(scope.prefix, query_words(wanted))
    found: dict[str, tuple[str, int, str]] = {}
    for name in _memory_files(scope):
        for number, line in enumerate(scope.read(name).splitlines(), 1):
            if _is_memory(line) and matcher.has_words(line):
                found.setdefault(fact_id(line, scope.prefix), (scope.rel(name), number, line))
    if len(found) > 1:
        matches = [(fid, rel, n, line.strip()) for fid, (rel, n, line) in found.items()]
        raise SeveralMatchError(
            f"{len(found)} remembered lines hold {wanted!r}; name one by its id", matches
        )
    # No line holds the words now: the text may still name a line the journal saw go.
    return next(iter(found), exact)


def _fact_at(scope: Scope, name: str, number: int) -> str:
    rel = name.removeprefix(scope.prefix)
    if not scope.file(rel).is_file():
        raise UsageError(f"{name} is not a file of {scope.agent.id}'s memory")
    lines = scope.read(rel).splitlines()
    if not 1 <= number <= len(lines) or not _is_memory(lines[number - 1]):
        raise UsageError(
            f"{name}:{number} is not a remembered line (blank, a heading or past the end)"
        )
    return fact_id(lines[number - 1], scope.prefix)


def _is_memory(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#") and not is_meta(line)


def why(scope: Scope, wanted: str) -> Why:
    """The chain behind the fact ``wanted`` names (see :func:`named_fact`)."""
    fid = named_fact(scope, wanted)
    wanted = wanted.strip()
    places = places_of(scope, fid)
    steps: list[Step] = []
    statement = places[0][2] if places else ("" if FACT_ID.match(wanted) else wanted)
    runs = {str(r.get("change")): r for r in read_log(scope.agent, "extract") if r.get("change")}
    changes = all_changes(scope)
    # A dream taken back (undo, dream undo) no longer stands behind what its report says.
    undone = {
        str(c.detail["run"]): c.undone_by for c in changes if c.undone_by and "run" in c.detail
    }
    for change in changes:
        hit = _states(change, fid)
        removed = any(
            line.fact == fid and not is_meta(line.text) for d in change.files for line in d.removed
        )
        if hit is None and not removed:
            continue
        detail: dict[str, Any] = {"change": change.id}
        if hit is None:
            steps.append(Step(change.time, change.kind, "removed it", detail))
            continue
        rel, text = hit
        statement = statement or text
        said = f"wrote it to {rel}"
        if change.kind == "extract":
            run = runs.get(change.id, {})
            detail["engine"] = run.get("engine")
            session = change.detail.get("session") or run.get("session")
            if session:
                detail["session"] = session
                found = _turn(scope, str(session), text)
                if found:
                    detail["turn"], detail["quote"] = found
                    said += f" from session {session}, turn {found[0]}: \u201c{found[1]}\u201d"
                else:
                    said += f" from session {session}"
        if change.undone_by:
            said += f" (undone {change.undone_by})"
        steps.append(Step(change.time, change.kind, said, detail))
    steps += _dream_steps(scope, fid, undone)
    evidence, trust, history = _trust(scope, fid)
    for event in evidence:
        if str(event.kind) in _SHOWN_EVIDENCE:
            said = f"{_SHOWN_EVIDENCE[str(event.kind)]} ({event.source})"
            steps.append(Step(event.time, str(event.kind), said, {"source": event.source}))
    if not places and not steps:
        raise UsageError(
            f"{scope.agent.id} has no remembered line {wanted!r}; `memclaw search` finds lines"
        )
    steps.sort(key=lambda s: s.time)
    return Why(fid, statement, places, steps, trust, history)


def _trust(scope: Scope, fid: str) -> tuple[tuple[Event, ...], float | None, list[Any]]:
    """The fact's evidence, its trust now (None when nothing is left to judge), and over time."""
    from memclaw.facts.ledger import facts_of
    from memclaw.facts.store import load_events
    from memclaw.facts.trust import history

    agent = scope.agent
    events = load_events(agent).get(fid, ())
    found = [p for f in facts_of(scope) if f.id == fid for p in f.places]
    if not found and not events:
        return events, None, []
    points = history(found, events, agent.now(), agent.settings.trust_half_life_days)
    return events, points[-1][2], points


def _dream_steps(scope: Scope, fid: str, undone: dict[str, str]) -> list[Step]:
    from memclaw.dream import report

    steps = []
    every = [*(d for _p, d in report.recent(scope)), *report.archived(scope)]
    for data in every:
        for key, verb in (
            ("promoted", "promoted it into MEMORY.md"),
            ("dropped", "dropped it"),
            ("contradictions", "found it contradicted"),
        ):
            for item in data.get(key, []):
                if isinstance(item, dict) and item.get("fact") == fid:
                    why = f" ({item['why']})" if item.get("why") else ""
                    detail = {"run": data.get("run")}
                    if str(data.get("run")) in undone:
                        detail["undone"] = undone[str(data.get("run"))]
                        why += f" (undone {detail['undone']})"
                    steps.append(
                        Step(
                            str(data.get("time", "")),
                            "dream",
                            f"dream {data.get('run')} {verb}{why}",
                            detail,
                        )
                    )
    return steps
