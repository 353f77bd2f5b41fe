"""Dreaming: consolidate the last days of daily notes into MEMORY.md.

One run for one scope (the agent's TEAM memory or one owner's PERSONAL memory):
score the candidates, ask the model for a new MEMORY.md (or merge the best
candidates offline), keep hand-edited sections, refuse rewrites that lose too
much, write with ceiling and backup, append a diary entry, log the run.

The result is :mod:`.result`, MEMORY.md is written by :mod:`.writeback`, the diary
entry and the structured report by :mod:`.records`.

Dreaming never goes through chat, so it can never trigger post-chat extraction:
its model calls are plain completions, and its runs are logged with their
trigger ("cron" when the crontab started it).
"""

from __future__ import annotations

import contextlib
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.dream import prompt as dream_prompt
from memclaw.dream.budget import Deadline, StoppedEarly
from memclaw.dream.candidates import build_candidates, daily_notes, note_window
from memclaw.dream.diary import append_entry
from memclaw.dream.factcheck import (
    apply_corrections,
    hold_contradictions,
    overruled,
    prune_low_trust,
    screen_rewrite,
)
from memclaw.dream.memory_md import diff_counts, restore_kept, unified_diff
from memclaw.dream.merge import merge_offline
from memclaw.dream.run.records import diary_entry, write_report
from memclaw.dream.run.result import DreamResult, DreamStatus
from memclaw.dream.run.writeback import count_corrections, refuse, write_memory
from memclaw.dream.runlog import LOG, MEMORY, log_run, record
from memclaw.errors import ContextTooLargeError, LockBusyError, ModelAnswerError, ModelError
from memclaw.extract.forgotten import forgotten_checker, redact_forgotten, without_forgotten
from memclaw.facts.ledger import established_lines
from memclaw.text.plural import plural
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.logs import append_log
from memclaw.workspace.safeguards import ceiling, guard, journal
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.llm import ChatModel


def lock_path(scope: Scope) -> Path:
    suffix = f".{scope.label}" if scope.personal else ""
    return scope.agent.meta_dir / f"dream{suffix}.lock"


def dream_agent(
    scope: Scope,
    *,
    days: int | None = None,
    focus: str | None = None,
    dry_run: bool = False,
    model: ChatModel | None = None,
    trigger: str = "manual",
) -> DreamResult:
    """Dream once over one scope's memory (TEAM, or one owner's PERSONAL memory).

    ``model`` defaults to the configured endpoint; with none configured the
    offline engine merges the best candidates. A run that finds another run of
    the same scope in progress returns SKIPPED at once. ``dry_run`` computes the
    diff and the candidates and writes nothing at all, not even a log line.
    """
    agent, owner = scope.agent, scope.owner
    if model is None:
        from memclaw.llm import open_model_if_configured

        model = open_model_if_configured(agent.settings)
    if not dry_run:
        from memclaw.extract.later import extract_pending

        # Conversations held back by the extraction cooldown are taken in first.
        extract_pending(agent, model)
    engine = f"model {model.name}" if model is not None else "offline"
    run_id = uuid.uuid4().hex[:12]
    base = DreamResult(agent.id, owner, DreamStatus.IDLE, engine, dry_run, run_id=run_id)
    base.trigger = trigger
    if not agent.settings.dream_enabled:
        base.status, base.reason = DreamStatus.DISABLED, "dreaming is off (dream_enabled=false)"
        return base
    if dry_run:
        try:
            return _dream(scope, base, days, focus, model)
        except StoppedEarly as stopped:
            return _stopped(base, stopped)
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(file_lock(lock_path(scope), wait=0))
        except LockBusyError:
            base.status = DreamStatus.SKIPPED
            base.reason = "another dream of this memory is still running"
            log_run(agent, base)
            return base
        try:
            # MEMORY.md, the overflow file and DREAMS.md: one change, one undo.
            with journal.change(agent, "dream", run=run_id, trigger=trigger):
                return _dream(scope, base, days, focus, model)
        except StoppedEarly as stopped:
            log_run(agent, _stopped(base, stopped))
            return base
        except ModelError as exc:
            append_log(agent, LOG, {**record(base), "status": "failed", "reason": str(exc)})
            raise


def _dream(
    scope: Scope,
    result: DreamResult,
    days: int | None,
    focus: str | None,
    model: ChatModel | None,
) -> DreamResult:
    from memclaw.gates import contains_secret, redact

    agent = scope.agent
    settings = agent.settings
    deadline = Deadline(settings.dream_time_limit_seconds)
    window = settings.dream_days if days is None else days
    source = f"dream {result.run_id}"
    before = scope.read(MEMORY)  # the corrections below may write it: this is what undo restores
    # Corrections first: what they replace is then neither promoted nor kept.
    start, end = note_window(agent.now().date(), window)
    notes = [rel for rel, _ in daily_notes(scope, start, end)]
    apply_corrections(
        scope, notes, result.facts, source=source, model=model, apply=not result.dry_run
    )
    old = scope.read(MEMORY)
    report = build_candidates(scope, days=days, focus=focus, memory_text=old, deadline=deadline)
    forgotten = forgotten_checker(scope)  # what the person asked never to keep again
    report.candidates = [c for c in report.candidates if not forgotten(c.text)]
    result.report = report
    overruled(report)
    hold_contradictions(
        scope, report, result.facts, source=source, apply=not result.dry_run, model=model
    )
    old = scope.read(MEMORY)  # a candidate's correction may have rewritten a line in place
    if not report.notes:
        result.reason = f"no daily notes in the last {plural(window, 'day')}"
        if not result.dry_run:
            log_run(agent, result)
        return result

    if model is not None:
        try:
            new, reason = dream_prompt.ask(scope, model, report, old, focus)
        except ContextTooLargeError:
            # A small local model cannot read MEMORY.md and the notes at once: dream offline.
            model, result.engine = None, "offline (the prompt did not fit the model's context)"
        except ModelAnswerError:
            # Nor can it always answer in the shape asked for (what it said is not repeated).
            model, result.engine = None, "offline (the model's answer was not the JSON asked for)"
    if model is not None:
        if new is not None:
            new = screen_rewrite(
                scope,
                old,
                new,
                report,
                result.facts,
                source=source,
                apply=not result.dry_run,
                model=model,
            )
    else:
        new, added = merge_offline(old, report.promoted)
        reason = (
            f"merged {plural(len(added), 'recurring fact')} into MEMORY.md"
            if added
            else "no candidate was both new and above the promotion threshold"
        )
    deadline.check()  # the last chance to stop: from here on, files are written
    if new is not None:
        new, result.restored_sections = restore_kept(old, new)
        new = without_forgotten(new, forgotten, keep=old)[0]
        new = prune_low_trust(scope, new, result.facts)
    # The reason goes to the diary and the log: cleaned before MEMORY.md is touched, so
    # a diary refused for a secret can never follow a rewrite nobody can find to undo.
    if result.facts.corrected:
        applied = "would apply" if result.dry_run else "applied"
        reason += f"; {applied} {plural(len(result.facts.corrected), 'correction')} from the notes"
        if result.facts.rewritten:
            reason += f" to {', '.join(result.facts.rewritten)}"
    if result.facts.held:
        sent = "would be sent" if result.dry_run else "sent"
        reason += f"; {plural(len(result.facts.held), 'contradiction')} {sent} to memclaw inbox"
    reason = redact_forgotten(redact(reason), forgotten)
    result.reason = reason

    if new is None or new.strip() == old.strip():
        result.status = DreamStatus.UNCHANGED
    else:
        verdict = guard.preview(scope, MEMORY, old, new, frozenset(result.facts.dropped))
        if not verdict.allowed:
            refuse(result, verdict, reason)
        elif contains_secret(new):
            result.status = DreamStatus.REFUSED
            result.reason = "refused: the new MEMORY.md contained something like a credential"
        else:
            # Loss is judged before the ceiling: what the ceiling moves to the overflow
            # file is kept, not dropped. The diff shows what MEMORY.md will hold.
            rel = scope.rel(MEMORY)
            settled = established_lines(scope, MEMORY, new)
            shown = ceiling.preview(agent, rel, old, new, Author.MODEL, settled)
            result.status = DreamStatus.UPDATED
            result.diff = unified_diff(old, shown, rel)
            result.added, result.removed = diff_counts(old, shown)

    if result.dry_run:
        return result
    if result.status is DreamStatus.UPDATED:
        assert new is not None
        write_memory(scope, result, old, new, reason)
    if old != before and result.status in (DreamStatus.UNCHANGED, DreamStatus.UPDATED):
        count_corrections(scope, result, before)
    # Logged before the diary is written: whatever happens to the diary, `dream undo`
    # knows every run that changed MEMORY.md.
    log_run(agent, result)
    result.archived_to = append_entry(scope, diary_entry(agent, result, old, focus))
    write_report(scope, result, before)
    return result


def _stopped(result: DreamResult, stopped: StoppedEarly) -> DreamResult:
    """The result of a dream that ran out of time before writing anything."""
    result.status = DreamStatus.STOPPED
    result.report = None  # half-built: none of it was acted on
    result.reason = (
        f"stopped early: the dream {stopped} (dream_time_limit_seconds) and wrote nothing; "
        "raise that limit or lower dream_max_mentions"
    )
    return result
