"""Settling a new statement against what is remembered: new, restated, corrected or held.

Every way a fact arrives (``remember``, extraction, a chat tool, a dream) asks
:func:`settle` first. A statement that conflicts with a remembered fact (same
subject and attribute, another value: see ``conflict``) is never written over
it silently:

* an explicit correction ("actually ...", "correction: ...", "moved to ...")
  wins: the new wording replaces the old in every file it lives in, and the
  old fact is recorded as superseded. Whoever writes it down (``remember``, a
  model's tool, extraction, a daily note a dream reads) is relaying the
  person's words: a correction cue is only ever the person's;
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
from memclaw.facts.ledger import group
from memclaw.facts.model import Event, EventKind, Fact
from memclaw.facts.project import project_scope, subject_of
from memclaw.facts.rewrite import restate

if TYPE_CHECKING:
    from memclaw.facts.judge import Judge
    from memclaw.llm import ChatModel
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
    model: ChatModel | Judge | None = None,
) -> Settled:
    """Weigh ``statement`` against the scope's remembered facts (see the module).

    ``apply`` False only judges: nothing is written and nothing filed (the
    items returned carry the judge's reasons, for the caller to file). With
    ``model``, pairs the offline judge is unsure of get its opinion. The
    caller must not hold the agent lock.
    """
    from memclaw.facts.conflict import is_correction
    from memclaw.facts.judge import judge_pairs

    statement = " ".join(statement.split())
    correction = is_correction(statement)
    cleaned = strip_cue(statement) if correction else statement
    prefix = scope.prefix
    new_id = fact_id(cleaned, prefix)
    conflicts: list[tuple[Fact, str]] = []
    # Only what memory holds is weighed (not the notes), so the notes need not be read.
    olds = [f for f in group(scope, project_scope(scope, notes=False)) if not f.superseded]
    restated = [f for f in olds if f.id == new_id]
    others = [f for f in olds if f.id != new_id]
    verdicts = judge_pairs([(old.statement, statement) for old in others], model)
    for old, verdict in zip(others, verdicts, strict=True):
        if verdict.kind == "restated":
            restated.append(old)
        elif verdict.disagrees:
            conflicts.append((old, verdict.reason))
            correction = correction or verdict.kind == "correction"
    if not conflicts:
        return Settled(Outcome.RESTATED if restated else Outcome.NEW, cleaned, restated)
    olds = [old for old, _ in conflicts]
    if correction:
        changed: list[str] = []
        if apply:
            for old in olds:
                changed += restate(scope, old, cleaned)
            now = scope.agent.now().isoformat(timespec="seconds")
            store.record(
                scope.agent, [o.id for o in olds], Event(EventKind.SUPERSEDED, now, source)
            )
            store.record(scope.agent, [new_id], Event(EventKind.STATED, now, source, session))
            # What the inbox held against the old fact is settled by the correction too.
            inbox.close_about(scope.agent, {o.id for o in olds}, now, f"correction ({source})")
        return Settled(Outcome.CORRECTED, cleaned, olds, changed=changed)
    items = [
        hold(
            scope,
            old,
            cleaned,
            reason,
            source=source,
            session=session,
            category=category,
            apply=apply,
        )
        for old, reason in conflicts
    ]
    return Settled(Outcome.HELD, cleaned, olds, items)


def hold(
    scope: Scope,
    old: Fact,
    new: str,
    reason: str,
    *,
    source: str,
    session: str | None = None,
    category: str = "",
    apply: bool = True,
) -> inbox.Item:
    """File ``new`` in the inbox against ``old`` (which stays in force); the open item."""
    new_id = fact_id(new, scope.prefix)
    item = inbox.Item(
        inbox.item_id(old.id, new_id),
        scope.prefix,
        old.id,
        old.statement,
        old.where(),
        new_id,
        new,
        category or old.category,
        source,
        session,
        reason or f"both say something different about {subject_of(old.statement)}",
        scope.agent.now().isoformat(timespec="seconds"),
    )
    return inbox.add(scope.agent, item) if apply else item


def record_written(
    scope: Scope, statement: str, *, source: str, by_person: bool, session: str | None = None
) -> None:
    """Evidence that ``statement`` was just written (stated by the person, or inferred)."""
    kind = EventKind.STATED if by_person else EventKind.INFERRED
    now = scope.agent.now().isoformat(timespec="seconds")
    store.record(scope.agent, [fact_id(statement, scope.prefix)], Event(kind, now, source, session))
