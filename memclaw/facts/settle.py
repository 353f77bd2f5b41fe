"""Settling a new statement against what is remembered: one judgement for every writer.

Every way a fact arrives (``remember``, extraction, a chat tool, MCP, a dream) asks
:func:`settle` first. The facts that could be about the same thing come from an
index on their subjects (``facts.candidates``), and each is weighed by the one judge
(:mod:`memclaw.judgement`):

* **the same** fact: nothing new is written; the statement is evidence of it;
* **a new value** (the newer value of a single-valued attribute) or **a richer**
  statement: the fact's lines are rewritten, everywhere it lives, as one line of
  both (``judgement.combine``): the newer value, and what only the older line said;
* **another fact**: it is written beside the others, without a word.

A machine never rewords a line a person wrote: when a model's statement (extraction,
a tool, a dream's promotion) would change a person's line, it waits in the inbox
instead, and the old fact stays in force until the person chooses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from memclaw.facts import inbox, store
from memclaw.facts.candidates import Candidates
from memclaw.facts.ids import fact_id
from memclaw.facts.ledger import group
from memclaw.facts.model import Event, EventKind, Fact
from memclaw.facts.project import project_scope, subject_of
from memclaw.facts.rewrite import restate
from memclaw.judgement import Judgement, Relation, is_correction, merged
from memclaw.judgement.claims import without_cue

if TYPE_CHECKING:
    from memclaw.facts.judge import Judge
    from memclaw.llm import ChatModel
    from memclaw.workspace.scope import Scope


class Outcome(StrEnum):
    NEW = "new"  # another fact: write it
    RESTATED = "restated"  # the same fact: nothing to write (it is evidence)
    REPLACED = "replaced"  # a new value or more detail: the old lines now say ``merged``
    HELD = "held"  # it would reword a person's line: in the inbox, not to be written


@dataclass(frozen=True)
class Settled:
    outcome: Outcome
    statement: str  # as it should be stored (a correction cue removed)
    against: list[Fact] = field(default_factory=list)
    items: list[inbox.Item] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # files a replacement rewrote
    merged: str = ""  # what the replaced fact's lines now say
    reason: str = ""  # the judge's words for the outcome

    @property
    def write(self) -> bool:
        """Whether the caller still has the statement to write (it is a new fact)."""
        return self.outcome is Outcome.NEW


def strip_cue(text: str) -> str:
    """The fact a correction states, without its correction word (it is not part of it)."""
    return without_cue(text.strip())


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
    facts: Candidates | None = None,
    claimed: str = "",
) -> Settled:
    """Weigh ``statement`` against the scope's remembered facts (see the module).

    ``apply`` False only judges: nothing is written and nothing filed (a held item
    returned carries the reason, for the caller to file). With ``model``, the pairs
    the offline judge is unsure of get its opinion, in one request. ``facts`` is an
    index the caller keeps across many statements (extraction weighs thirty at once).
    ``claimed`` is the id of the fact a model's operation says this statement updates:
    it is weighed first, and taken as updated unless the words show surely that it is
    another fact or the same one. The caller must not hold the agent lock.
    """
    from memclaw.facts.judge import judge_pairs
    from memclaw.facts.paraphrase import paraphrases_for

    statement = " ".join(statement.split())
    correction = is_correction(statement)
    cleaned = strip_cue(statement) if correction else statement
    new_id = fact_id(cleaned, scope.prefix)
    if facts is None:
        # Only what memory holds is weighed (not the notes), so the notes need not be read.
        facts = Candidates(f for f in group(scope, project_scope(scope, notes=False)))
    near = [f for f in facts.near(cleaned) if not f.superseded]
    target = facts.get(claimed) if claimed else None
    if target is not None:
        near = [target, *(f for f in near if f.id != target.id)]
    if any(f.id == new_id for f in near):
        return Settled(Outcome.RESTATED, cleaned, [f for f in near if f.id == new_id])
    # Weighed as said: "Correction:" or "Actually," is what makes a new date a change.
    pairs = [(f.statement, statement) for f in near]
    verdicts = judge_pairs(pairs, model, paraphrases_for(scope.agent.settings) if near else None)
    # The words leave it open: the model that wrote the operation read the conversation,
    # and its text is the fact as it is now (no merge: that would guess again).
    as_said = target is not None and not verdicts[0].sure
    if as_said:
        verdicts[0] = Judgement(Relation.UPDATE, f"the model updates {claimed}")
    same = [f for f, v in zip(near, verdicts, strict=True) if v.relation is Relation.SAME]
    if same:
        return Settled(Outcome.RESTATED, cleaned, same, reason=f"already known as {same[0].id}")
    # A category kept word for word (retention: immutable) is never reworded or merged:
    # a newer statement stands beside it.
    fixed = scope.agent.settings.immutable
    replaced = [
        (f, v) for f, v in zip(near, verdicts, strict=True) if v.replaces and not fixed(f.category)
    ]
    if not replaced:
        return Settled(Outcome.NEW, cleaned)
    old, verdict = replaced[0]  # the first place in file order: one fact takes the change
    if not by_person and old.by_person and verdict.relation is Relation.RICHER:
        # More about a fact a person wrote: it stands beside their line, unmerged.
        return Settled(Outcome.NEW, cleaned, reason=f"beside {old.id}, a person's line")
    # Held for a person: a conflict the model could not settle, or a machine's new value
    # of a line a person wrote.
    conflict = verdict.relation is Relation.UPDATE and not verdict.sure
    if conflict or (not by_person and old.by_person):
        item = hold(scope, old, cleaned, _held_reason(old, verdict), source=source,
                    session=session, category=category, apply=apply)  # fmt: skip
        return Settled(Outcome.HELD, cleaned, [old], [item], reason=item.reason)
    joined = merged(old.statement, cleaned, verdict)
    if joined.dropped and not (as_said and old is target):
        # One line of both would be too long and leave details of the old one out: both
        # stay in force until a person chooses, rather than a detail be lost unseen.
        left_out = "; ".join(joined.dropped)
        reason = f"{verdict.reason}, but one line of both would leave out: {left_out}"
        item = hold(scope, old, cleaned, reason, source=source, session=session,
                    category=category, apply=apply)  # fmt: skip
        return Settled(Outcome.HELD, cleaned, [old], [item], reason=item.reason)
    line = cleaned if as_said and old is target else joined.text
    changed: list[str] = []
    if apply:
        changed = replace_fact(
            scope, old, line, source=source, by_person=by_person, session=session
        )
    return Settled(
        Outcome.REPLACED, cleaned, [old], changed=changed, merged=line, reason=verdict.reason
    )


def _held_reason(old: Fact, verdict: Judgement) -> str:
    if verdict.relation is Relation.UPDATE and not verdict.sure:
        return verdict.reason  # the model's: which of the two holds now is the person's call
    return f"{verdict.reason}: {old.id} is in a person's words, which a machine does not reword"


def replace_fact(
    scope: Scope,
    old: Fact,
    line: str,
    *,
    source: str,
    by_person: bool,
    session: str | None = None,
) -> list[str]:
    """``old``'s lines say ``line`` now; the evidence and the inbox follow."""
    changed = restate(scope, old, line)
    now = scope.agent.now().isoformat(timespec="seconds")
    new_id = fact_id(line, scope.prefix)
    if new_id != old.id:
        store.record(scope.agent, [old.id], Event(EventKind.SUPERSEDED, now, source))
    kind = EventKind.STATED if by_person else EventKind.INFERRED
    store.record(scope.agent, [new_id], Event(kind, now, source, session))
    # What the inbox held against the old fact is settled by the newer statement too.
    inbox.close_about(scope.agent, {old.id}, now, f"replaced ({source})")
    return changed


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
