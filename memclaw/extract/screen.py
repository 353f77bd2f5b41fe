"""Extraction meets the fact layer: what a conversation brings in is weighed first.

A line extraction adds to PROFILE.md or MEMORY.md that contradicts a remembered
fact is taken out of the rewrite and waits in the inbox, the old fact staying
in force. One that explicitly corrects a fact ("moved to", "actually") replaces
it: the old line leaves the same rewrite, and the other files it lives in
follow once the rewrite is written (``after``). Every line that is written is
evidence of its fact, with the session it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memclaw.facts import store
from memclaw.facts.model import Event, EventKind
from memclaw.facts.project import project_text
from memclaw.facts.settle import Outcome, hold, record_written, settle

if TYPE_CHECKING:
    from memclaw.extract.result import ExtractionResult, Plan
    from memclaw.llm import ChatModel
    from memclaw.workspace.scope import Scope

SOURCE = "extract"


@dataclass
class Screened:
    corrections: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    # The facts each correction replaces, known before the rewrite takes their lines away.
    replaced: dict[str, list[str]] = field(default_factory=dict)


def _screen(
    scope: Scope,
    name: str,
    old: str,
    new: str,
    found: Screened,
    result: ExtractionResult,
    session: str | None,
    model: ChatModel | None,
) -> str:
    rel = scope.rel(name)
    before = {p.fact for p in project_text(rel, old)}
    drop: set[str] = set()
    lines = new.splitlines(keepends=True)
    kept = []
    for line in lines:
        places = project_text(rel, line)
        if not places or places[0].fact in before:
            kept.append(line)
            continue
        statement = places[0].statement
        settled = settle(scope, statement, source=SOURCE, by_person=False, apply=False, model=model)
        if settled.outcome is Outcome.HELD:
            if not result.dry_run:
                for old_fact in settled.against:
                    item = hold(scope, old_fact, statement, "", source=SOURCE, session=session)
                    result.notes.append(f"held in the inbox as {item.id}: {statement}")
            continue
        if settled.outcome is Outcome.CORRECTED:
            drop |= {f.id for f in settled.against}
            found.corrections.append(statement)
            found.replaced.setdefault(statement, []).extend(f.id for f in settled.against)
        found.written.append(statement)
        kept.append(line)
    # The facts a correction replaced leave this very rewrite.
    return "".join(
        line for line in kept if not any(p.fact in drop for p in project_text(rel, line))
    )


def screen_plan(
    scope: Scope,
    plan: Plan,
    ctx: dict[str, str],
    result: ExtractionResult,
    *,
    session: str | None,
    model: ChatModel | None,
) -> Screened:
    """Take contradictions out of ``plan``'s rewrites (in place); what to do after writing."""
    found = Screened()
    if plan.profile is not None:
        plan.profile = _screen(
            scope, "PROFILE.md", ctx["profile"], plan.profile, found, result, session, model
        )
    if plan.memory is not None:
        plan.memory = _screen(
            scope, "MEMORY.md", ctx["memory"], plan.memory, found, result, session, model
        )
    return found


def after(scope: Scope, found: Screened, *, session: str | None, model: ChatModel | None) -> None:
    """Once written: corrections reach the other files, and the new lines count as evidence."""
    for statement in found.corrections:
        settled = settle(
            scope, statement, source=SOURCE, by_person=True, session=session, model=model
        )
        # A fact whose only line the rewrite replaced is no longer there for settle to find:
        # it is superseded all the same, or the facts layer keeps both versions in force.
        done = {f.id for f in settled.against} if settled.outcome is Outcome.CORRECTED else set()
        left = [fid for fid in found.replaced.get(statement, []) if fid not in done]
        if left:
            now = scope.agent.now().isoformat(timespec="seconds")
            store.record(scope.agent, left, Event(EventKind.SUPERSEDED, now, SOURCE, session))
    for statement in found.written:
        record_written(scope, statement, source=SOURCE, by_person=False, session=session)
