"""What an extraction writes: its plan applied to PROFILE.md, MEMORY.md and the daily note.

A dry run writes nothing and shows the diffs instead. Rewrites go through the
loss guard and the ceilings, as every machine rewrite does; facts that matter
to one conversation only go to that session's entries.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from memclaw.extract.result import ExtractionResult, Plan
from memclaw.facts.ledger import established_lines
from memclaw.text.plural import plural
from memclaw.workspace.agent import DAILY_DIR
from memclaw.workspace.safeguards import ceiling, guard
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.extract.timeline import Moment


def _daily_preview(current: str, text: str, heading: str, day: str) -> str:
    block = f"\n## {heading}\n" + text.strip("\n") + "\n"
    if not current:
        return f"# {day}\n" + block
    return current + ("" if current.endswith("\n") else "\n") + block


def _diff(rel: str, old: str, new: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{rel}", f"b/{rel}"
    )
    return "".join(lines)


def keep_for_session(
    scope: Scope, session_id: str | None, facts: list[tuple[str, str]], result: ExtractionResult
) -> None:
    """Facts that only matter to this conversation: the session's entries, not long-term files."""
    import hashlib

    from memclaw.workspace.entries import Entry, parse_entries, splice_entries

    if session_id is None:
        result.notes.append(
            f"{plural(len(facts), 'fact')} only for that conversation not kept: it has no session"
        )
        return
    sid = session_id.replace(":", "-")  # as memory entries spell session ids
    rel = f"entries/session-{sid}.md"
    today = scope.agent.now().date()
    # "by": the facts layer reads a model's entry from it; without, it is the person's word.
    extra = {"scope": str(scope.visibility), "session": sid, "source": "extract", "by": "model"}
    added: list[str] = []

    def transform(current: str) -> str:
        entries = parse_entries(current, f"session-{sid}")
        known = {" ".join(e.text.split()) for e in entries}
        for category, text in facts:
            if text not in known:
                eid = "m-" + hashlib.sha256(f"{sid}\0{text}".encode()).hexdigest()[:8]
                entries.append(Entry(eid, text, category, today, today, dict(extra)))
                known.add(text)
                added.append(text)
        return splice_entries(current, entries, f"Session memories: {sid}", f"session-{sid}")

    written = scope.update(rel, transform, introduced="\n".join(t for _, t in facts))
    if written.changed:
        result.files_changed.append(written.name)
    from memclaw.facts.settle import record_written

    for text in dict.fromkeys(added):  # as long-term facts: inferred, in this session
        record_written(scope, text, source="extract", by_person=False, session=session_id)


def apply_plan(
    scope: Scope, plan: Plan, ctx: dict[str, str], result: ExtractionResult, moment: Moment
) -> None:
    agent = scope.agent
    prefix = scope.prefix
    # The daily note is the conversation's day, under the time it ended: a note is
    # "what happened that day", and an old session extracted late belongs to its day.
    day = moment.day.isoformat()
    heading = moment.when.strftime("%H:%M")
    for name, new, old in (
        ("PROFILE.md", plan.profile, ctx["profile"]),
        ("MEMORY.md", plan.memory, ctx["memory"]),
    ):
        if new is None:
            continue
        # Over the ceiling, what is established moves after the newest machine guesses.
        settled = established_lines(scope, name, new)
        if result.dry_run:
            verdict = guard.preview(scope, name, old, new, frozenset(plan.released))
            if not verdict.allowed:
                _refused(result, verdict)
                continue
            fitted = ceiling.preview(agent, prefix + name, old, new, Author.MODEL, settled)
            diff = _diff(prefix + name, old, fitted)
            if diff:
                result.diffs[prefix + name] = diff
            continue
        try:
            written = guard.rewrite(
                scope,
                name,
                expected=old,
                new=new,
                established=settled,
                released=frozenset(plan.released),  # what a model deleted, by id and reason
            )
        except guard.LossRefusedError as exc:
            # A truncated or careless answer would have dropped what a person wrote.
            _refused(result, exc.verdict)
            continue
        if written.changed:
            result.files_changed.append(written.name)
        note = ceiling.warning(written.name, written.ceiling)
        if note:
            result.notes.append(note)
    if plan.daily:
        rel = f"{prefix}{DAILY_DIR}/{day}.md"
        if result.dry_run:
            preview = _daily_preview(ctx["today_note"], plan.daily, heading, day)
            result.diffs[rel] = _diff(rel, ctx["today_note"], preview)
        else:
            written = scope.append_daily(plan.daily, day=moment.day, heading=heading)
            result.files_changed.append(written.name)


def _refused(result: ExtractionResult, verdict: guard.Verdict) -> None:
    result.refused[verdict.rel] = verdict.lost
    result.notes.append(f"{verdict.rel}: refused, left as it is: {verdict.explain()}")
