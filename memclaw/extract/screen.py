"""Extraction meets the fact layer: what a conversation brings in is weighed first.

Every line an extraction adds to PROFILE.md or MEMORY.md is weighed by the one
judgement (:func:`memclaw.facts.settle.settle`) before the rewrite is written:

* one that restates a fact memory holds is left out (the fact's own line stays);
* a newer value or a richer statement takes the place of the fact it replaces, as
  one line of both; the fact's lines in other files follow once the rewrite is
  written (``after``);
* one that would reword a line a person wrote waits in the inbox, the person's line
  staying in force;
* anything else is written.

Every line that is written is evidence of its fact, with the session it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memclaw.facts import inbox, store
from memclaw.facts.candidates import Candidates
from memclaw.facts.ledger import group
from memclaw.facts.model import Event, EventKind, Fact
from memclaw.facts.project import project_scope, project_text
from memclaw.facts.settle import Outcome, record_written, replace_fact, settle

if TYPE_CHECKING:
    from memclaw.extract.result import ExtractionResult, Plan
    from memclaw.facts.judge import Judge
    from memclaw.llm import ChatModel
    from memclaw.workspace.scope import Scope

SOURCE = "extract"


@dataclass
class Screened:
    written: list[str] = field(default_factory=list)
    # Facts a merged line replaced, whose lines in other files follow once it is written.
    replaced: list[tuple[str, Fact]] = field(default_factory=list)
    deleted: list[Fact] = field(default_factory=list)  # by a model's operation


def _screen(
    scope: Scope,
    name: str,
    old: str,
    new: str,
    found: Screened,
    result: ExtractionResult,
    session: str | None,
    judge: Judge | None,
    facts: Candidates,
    plan: Plan,
) -> str:
    rel = scope.rel(name)
    before = {p.fact for p in project_text(rel, old)}
    after = {p.fact for p in project_text(rel, new)}
    drop = _deleted(facts, before, plan, found, result)
    lines = old.splitlines()
    plan.released |= {lines[p.line - 1] for p in project_text(rel, old) if p.fact in drop}
    kept: list[str] = []
    pending: dict[str, int] = {}  # fact id of a line this rewrite brings in -> its index in kept
    keep: set[str] = set()  # facts a model's update named but did not replace
    for line in new.splitlines(keepends=True):
        places = project_text(rel, line)
        if not places or places[0].fact in before:
            kept.append(line)
            continue
        statement = places[0].statement
        claimed = plan.claims.get(statement, "")  # the fact a model's update names
        settled = settle(
            scope, statement, source=SOURCE, by_person=False, session=session,
            apply=False, model=judge, facts=facts, claimed=claimed,
        )  # fmt: skip
        replaced = settled.outcome is Outcome.REPLACED and settled.against[0].id == claimed
        if claimed and not replaced:
            keep.add(claimed)  # another fact, or held: the named one stays as it was
        if settled.outcome is Outcome.HELD:
            held = "would be held in the inbox" if result.dry_run else "held in the inbox"
            for item in settled.items:
                if not result.dry_run:
                    inbox.add(scope.agent, item)
                result.notes.append(f"{held} as {item.id}: {statement}")
            continue
        if settled.outcome is Outcome.RESTATED and any(f.id in after for f in settled.against):
            continue  # the rewrite keeps the fact's own line: this one would be a copy
        if settled.outcome is Outcome.REPLACED:
            # The merged line takes the place of the fact it replaces: here if this rewrite
            # brought that fact in, else the fact's line here goes and its other files follow.
            target = settled.against[0]
            merged_line = line.replace(statement, settled.merged, 1)
            if target.id in pending:
                index = pending.pop(target.id)
                kept[index] = merged_line
                found.written.remove(target.statement)
                found.written.append(settled.merged)
                facts.discard(target.id)
                facts.add(_pending_fact(scope, rel, settled.merged))
                pending[_id(scope, settled.merged)] = index
                continue
            drop.add(target.id)
            found.replaced.append((settled.merged, target))
            line, statement = merged_line, settled.merged
        found.written.append(statement)
        pending[_id(scope, statement)] = len(kept)
        kept.append(line)
        facts.add(_pending_fact(scope, rel, statement))
    kept = [line for line in kept if not any(p.fact in drop for p in project_text(rel, line))]
    return "".join(_restored(rel, old, kept, drop, keep))


def _deleted(
    facts: Candidates, here: set[str], plan: Plan, found: Screened, result: ExtractionResult
) -> set[str]:
    """The facts of this file a model's operation deletes: its own lines, and only those.
    A person's line stays (the receipt says so, and how to forget it)."""
    gone = set()
    for fid in plan.deletes.keys() & here:
        fact = facts.get(fid)
        if fact is None:
            continue
        reason = plan.deletes[fid]
        if fact.by_person:
            result.notes.append(
                f"kept {fid}, a person's line, though the model says it no longer holds "
                f"({reason}): `memclaw forget` takes it out"
            )
            continue
        gone.add(fid)
        found.deleted.append(fact)
        result.notes.append(f"removed {fid} ({reason}): {fact.statement}")
    return gone


def _restored(rel: str, old: str, kept: list[str], drop: set[str], keep: set[str]) -> list[str]:
    """``kept`` with the facts of ``old`` that a whole-file answer left out put back where
    they were: a rewrite adds and replaces, it never deletes what nobody judged outdated
    (so a small file is never refused wholesale for a line the model skipped)."""
    from memclaw.workspace.safeguards.guard import measure_loss

    present = {p.fact for line in kept for p in project_text(rel, line)}
    now = "".join(kept)
    out = list(kept)
    after = 0  # where the next restored line goes: after its old neighbour, if still there
    heading = ""  # the old heading a restored line stood under
    for line in old.splitlines(keepends=True):
        line = line if line.endswith("\n") else line + "\n"
        if line.startswith("#"):
            heading = line
        facts = {p.fact for p in project_text(rel, line)}
        # Not reworded, merged or left out for a secret: lost (what the loss guard counts).
        lost = (
            facts
            and not facts & (present | drop)
            and (facts & keep or measure_loss(line, now).lost)
        )
        if lost:
            if heading and heading not in out:
                out[after:after] = (
                    ["\n", heading] if after and out[after - 1].strip() else [heading]
                )
                after = out.index(heading) + 1
            out.insert(after, line)
            present |= facts
            after += 1
        elif line.strip() and line in out:
            after = out.index(line) + 1
    return out


def _id(scope: Scope, statement: str) -> str:
    from memclaw.facts.ids import fact_id

    return fact_id(statement, scope.prefix)


def _pending_fact(scope: Scope, rel: str, statement: str) -> Fact:
    """A line this extraction brings in, as a fact the next lines are weighed against."""
    from memclaw.facts.model import Fact, Kind, Place
    from memclaw.facts.project import kind_of, subject_of

    fid = _id(scope, statement)
    place = Place(fid, statement, rel, 0, kind_of(rel) or Kind.MEMORY, "", None, "model")
    return Fact(fid, statement, subject_of(statement), "", scope.label, (place,))


def screen_plan(
    scope: Scope,
    plan: Plan,
    ctx: dict[str, str],
    result: ExtractionResult,
    *,
    session: str | None,
    model: ChatModel | None,
) -> Screened:
    """Weigh ``plan``'s rewrites (in place); what to do after writing.

    With a model, the pairs the offline judge is unsure of go to it in one request for
    the whole extraction, before any line is weighed."""
    found = Screened()
    facts = Candidates(group(scope, project_scope(scope, notes=False)))
    rewrites = [
        (name, ctx[key], getattr(plan, key))
        for name, key in (("PROFILE.md", "profile"), ("MEMORY.md", "memory"))
        if getattr(plan, key) is not None
    ]
    judge = _asked(scope, rewrites, facts, model) if model is not None else None
    for name, old, new in rewrites:
        screened = _screen(scope, name, old, new, found, result, session, judge, facts, plan)
        setattr(plan, "profile" if name == "PROFILE.md" else "memory", screened)
    return found


def _asked(
    scope: Scope, rewrites: list[tuple[str, str, str]], facts: Candidates, model: ChatModel
) -> Judge:
    """A judge that has asked ``model``, once, about every unsure pair the new lines make;
    it asks nothing more (what it did not say, the offline verdict settles)."""
    from memclaw.facts.judge import MAX_PAIRS, Judge
    from memclaw.judgement import judge

    pairs: list[tuple[str, str]] = []
    for name, old, new in rewrites:
        rel = scope.rel(name)
        before = {p.fact for p in project_text(rel, old)}
        for place in project_text(rel, new):
            if place.fact in before:
                continue
            for fact in facts.near(place.statement):
                pair = (fact.statement, place.statement)
                if not judge(*pair).sure and pair not in pairs:
                    pairs.append(pair)
    asked = Judge.of(model)
    if pairs:
        asked.ask(pairs[:MAX_PAIRS])
    asked.close()
    return asked


def after(scope: Scope, found: Screened, *, session: str | None) -> None:
    """Once written: what a merged line replaced follows in its other files, what a model
    deleted is superseded, and the new lines count as evidence."""
    for merged, fact in found.replaced:
        replace_fact(scope, fact, merged, source=SOURCE, by_person=False, session=session)
    for fact in found.deleted:
        now = scope.agent.now().isoformat(timespec="seconds")
        store.record(scope.agent, [fact.id], Event(EventKind.SUPERSEDED, now, SOURCE, session))
    for statement in found.written:
        record_written(scope, statement, source=SOURCE, by_person=False, session=session)
