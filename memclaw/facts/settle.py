"""Settling a new statement against what is remembered: new, restated, corrected or held.

Every way a fact arrives (``remember``, extraction, a chat tool, a dream) asks
:func:`settle` first. A statement that conflicts with a remembered fact (same
subject and attribute, another value: see ``conflict``) is never written over
it silently:

* an explicit correction by the person ("actually ...", "correction: ...",
  "moved to ...") wins: the new wording replaces the old in every file it
  lives in, and the old fact is recorded as superseded;
* anything else goes to the inbox, and the old fact stays in force until the
  person resolves it; the caller must not write the new statement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from memclaw.facts import inbox, store
from memclaw.facts.ids import fact_id
from memclaw.facts.ledger import facts_of
from memclaw.facts.model import Event, EventKind, Fact
from memclaw.facts.project import subject_of
from memclaw.facts.rewrite import restate

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

# The correction word itself is not part of the fact ("Correction: the cutover moved ...").
_CUE = re.compile(
    r"^\s*(?:actually|correction|update|in fact|eigentlich|korrektur|en fait)\s*[:,-]?\s*",
    re.IGNORECASE,
)


class Outcome(StrEnum):
    NEW = "new"  # nothing remembered disagrees: write it
    RESTATED = "restated"  # it says what a fact already says: write it (it is evidence)
    CORRECTED = "corrected"  # the person corrected a fact: already written where it lived
    HELD = "held"  # it conflicts: in the inbox, not to be written


@dataclass(frozen=True)
class Settled:
    outcome: Outcome
    statement: str  # as it should be stored (a correction cue removed)
    against: list[Fact] = field(default_factory=list)
    items: list[inbox.Item] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # files a correction rewrote

    @property
    def write(self) -> bool:
        return self.outcome is not Outcome.HELD


def strip_cue(text: str) -> str:
    stripped = _CUE.sub("", text, count=1).strip()
    return stripped[:1].upper() + stripped[1:] if stripped and stripped != text.strip() else text


def settle(
    scope: Scope,
    statement: str,
    *,
    source: str,
    by_person: bool,
    session: str | None = None,
    category: str = "",
    apply: bool = True,
) -> Settled:
    """Weigh ``statement`` against the scope's remembered facts (see the module).

    ``apply`` False only judges: nothing is written and nothing filed. The
    caller must not hold the agent lock.
    """
    from memclaw.facts.conflict import is_correction, judge

    statement = " ".join(statement.split())
    correction = is_correction(statement)
    cleaned = strip_cue(statement) if correction else statement
    prefix = scope.prefix
    new_id = fact_id(cleaned, prefix)
    conflicts: list[tuple[Fact, str]] = []
    restated: list[Fact] = []
    for old in facts_of(scope, durable_only=True):
        if old.superseded:
            continue
        if old.id == new_id:
            restated.append(old)
            continue
        verdict = judge(old.statement, statement)
        kind = str(getattr(verdict.kind, "value", verdict.kind))
        if kind == "restated":
            restated.append(old)
        elif kind in ("conflict", "correction"):
            conflicts.append((old, str(verdict.reason)))
            correction = correction or kind == "correction"
    if not conflicts:
        return Settled(Outcome.RESTATED if restated else Outcome.NEW, cleaned, restated)
    olds = [old for old, _ in conflicts]
    if correction and by_person:
        changed: list[str] = []
        if apply:
            for old in olds:
                changed += restate(scope, old, cleaned)
            now = scope.agent.now().isoformat(timespec="seconds")
            store.record(
                scope.agent, [o.id for o in olds], Event(EventKind.SUPERSEDED, now, source)
            )
            store.record(scope.agent, [new_id], Event(EventKind.STATED, now, source, session))
        return Settled(Outcome.CORRECTED, cleaned, olds, changed=changed)
    items = []
    now = scope.agent.now().isoformat(timespec="seconds")
    for old, reason in conflicts:
        item = inbox.Item(
            inbox.item_id(old.id, new_id),
            prefix,
            old.id,
            old.statement,
            old.where(),
            new_id,
            cleaned,
            category or old.category,
            source,
            session,
            reason or f"both say something different about {subject_of(old.statement)}",
            now,
        )
        items.append(inbox.add(scope.agent, item) if apply else item)
    return Settled(Outcome.HELD, cleaned, olds, items)


def record_written(
    scope: Scope, statement: str, *, source: str, by_person: bool, session: str | None = None
) -> None:
    """Evidence that ``statement`` was just written (stated by the person, or inferred)."""
    kind = EventKind.STATED if by_person else EventKind.INFERRED
    now = scope.agent.now().isoformat(timespec="seconds")
    store.record(scope.agent, [fact_id(statement, scope.prefix)], Event(kind, now, source, session))
