"""Dreaming: consolidate the last days of daily notes into MEMORY.md.

One run for one scope (the agent's TEAM memory or one owner's PERSONAL memory):
score the candidates, ask the model for a new MEMORY.md (or merge the best
candidates offline), keep hand-edited sections, refuse rewrites that lose too
much, write with ceiling and backup, append a diary entry, log the run.

Dreaming never goes through chat, so it can never trigger post-chat extraction:
its model calls are plain completions, and its runs are logged with their
trigger ("cron" when the crontab started it).
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.dream import prompt as dream_prompt
from memclaw.dream.budget import Deadline, StoppedEarly
from memclaw.dream.candidates import (
    CandidateReport,
    Status,
    build_candidates,
    daily_notes,
    note_window,
)
from memclaw.dream.diary import DiaryEntry, append_entry
from memclaw.dream.factcheck import (
    FactCheck,
    apply_corrections,
    hold_contradictions,
    overruled,
    prune_low_trust,
    screen_rewrite,
)
from memclaw.dream.memory_md import (
    KEEP_MARKER,
    KEEP_SUFFIX,
    diff_counts,
    restore_kept,
    unified_diff,
)
from memclaw.dream.merge import merge_offline
from memclaw.dream.runlog import LOG, MEMORY, content_sha, log_run, record
from memclaw.errors import ContextTooLargeError, LockBusyError, ModelError
from memclaw.extract.forgotten import forgotten_checker, redact_forgotten, without_forgotten
from memclaw.facts.ledger import established_lines
from memclaw.text.plural import plural
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.logs import append_log
from memclaw.workspace.owners import OwnerKey
from memclaw.workspace.safeguards import ceiling, guard, journal
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.llm import ChatModel
    from memclaw.workspace.agent import Agent

HAND_EDITED = f"a '{KEEP_MARKER}' line in a '## ' section, or a heading ending '{KEEP_SUFFIX}'"


class DreamStatus(StrEnum):
    UPDATED = "updated"  # MEMORY.md was (or, in a dry run, would be) rewritten
    UNCHANGED = "unchanged"
    REFUSED = "refused"  # the rewrite broke a safety rule; nothing written
    SKIPPED = "skipped"  # another dream of the same scope was running
    STOPPED = "stopped"  # ran past dream_time_limit_seconds; nothing written
    IDLE = "idle"  # no daily notes in the window
    DISABLED = "disabled"


@dataclass
class DreamResult:
    agent: str
    owner: OwnerKey | None
    status: DreamStatus
    engine: str
    dry_run: bool = False
    reason: str = ""
    diff: str = ""
    added: int = 0
    removed: int = 0
    report: CandidateReport | None = None
    backup: str | None = None
    restored_sections: list[str] = field(default_factory=list)
    lost_entries: list[str] = field(default_factory=list)
    archived_to: list[str] = field(default_factory=list)
    run_id: str = ""
    trigger: str = "manual"
    written_sha: str = ""
    ceiling: str | None = None  # what the ceiling did to MEMORY.md, when it did anything
    overflowed: int = 0  # entries the ceiling moved to the overflow file
    created: bool = False  # MEMORY.md did not exist before this run wrote it
    facts: FactCheck = field(default_factory=FactCheck)  # corrections, inbox, low trust
    report_path: str | None = None  # the structured report (dreams/<day>-<run>.json)

    @property
    def change(self) -> str:
        return f"+{self.added} −{self.removed} lines"

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "owner": self.owner,
            "status": str(self.status),
            "engine": self.engine,
            "dry_run": self.dry_run,
            "trigger": self.trigger,
            "run_id": self.run_id,
            "reason": self.reason,
            "added": self.added,
            "removed": self.removed,
            "backup": self.backup,
            "restored_sections": self.restored_sections,
            "lost_entries": self.lost_entries,
            "archived_to": self.archived_to,
            "ceiling": self.ceiling,
            "report": self.report_path,
            "hand_edited_marker": HAND_EDITED,
            "diff": self.diff,
            "facts": self.facts.to_dict(),
            **(self.report.to_dict() if self.report else {"notes": [], "candidates": []}),
        }


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
    if not result.dry_run:
        # Corrections first: what they replace is then neither promoted nor kept.
        start, end = note_window(agent.now().date(), window)
        notes = [rel for rel, _ in daily_notes(scope, start, end)]
        apply_corrections(scope, notes, result.facts, source=source, model=model)
    old = scope.read(MEMORY)
    report = build_candidates(scope, days=days, focus=focus, memory_text=old, deadline=deadline)
    forgotten = forgotten_checker(scope)  # what the person asked never to keep again
    report.candidates = [c for c in report.candidates if not forgotten(c.text)]
    result.report = report
    overruled(report)
    hold_contradictions(
        scope, report, result.facts, source=source, apply=not result.dry_run, model=model
    )
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
        reason += f"; applied {plural(len(result.facts.corrected), 'correction')} from the notes"
    if result.facts.held:
        reason += f"; {plural(len(result.facts.held), 'contradiction')} sent to memclaw inbox"
    reason = redact_forgotten(redact(reason), forgotten)
    result.reason = reason

    if new is None or new.strip() == old.strip():
        result.status = DreamStatus.UNCHANGED
    else:
        verdict = guard.preview(scope, MEMORY, old, new, frozenset(result.facts.dropped))
        if not verdict.allowed:
            _refuse(result, verdict, reason)
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
        _write(scope, result, old, new, reason)
    if old != before and result.status in (DreamStatus.UNCHANGED, DreamStatus.UPDATED):
        _corrected(scope, result, before)
    # Logged before the diary is written: whatever happens to the diary, `dream undo`
    # knows every run that changed MEMORY.md.
    log_run(agent, result)
    result.archived_to = append_entry(scope, _diary_entry(agent, result, old, focus))
    _report(scope, result, before)
    return result


def _corrected(scope: Scope, result: DreamResult, before: str) -> None:
    """The notes' corrections rewrote MEMORY.md before the dream read it: a change of this
    dream too, so it is reported, and `dream undo` goes back to the file from before them."""
    from memclaw.gates import redact
    from memclaw.workspace.safeguards import history

    rel, now = scope.rel(MEMORY), scope.read(MEMORY)
    result.status = DreamStatus.UPDATED
    result.diff = unified_diff(before, now, rel)
    result.added, result.removed = diff_counts(before, now)
    result.written_sha = content_sha(now)
    kept = redact(before)  # history stores versions through the secret gate
    backup = next(
        (p for p in history.versions(scope.agent, rel) if p.read_text(encoding="utf-8") == kept),
        None,
    )
    result.backup = backup.relative_to(scope.agent.path).as_posix() if backup else None


def _report(scope: Scope, result: DreamResult, old: str) -> None:
    """The structured report beside the diary entry, for the morning card and the timeline."""
    from memclaw.dream import report

    data = report.build(
        scope,
        run=result.run_id,
        status=str(result.status),
        engine=result.engine,
        reason=result.reason,
        old=old,
        new=scope.read(MEMORY) if result.status is DreamStatus.UPDATED else old,
        report=result.report,
    )
    result.report_path = report.write(scope, data).relative_to(scope.agent.path).as_posix()
    report.roll(scope)


def _stopped(result: DreamResult, stopped: StoppedEarly) -> DreamResult:
    """The result of a dream that ran out of time before writing anything."""
    result.status = DreamStatus.STOPPED
    result.report = None  # half-built: none of it was acted on
    result.reason = (
        f"stopped early: the dream {stopped} (dream_time_limit_seconds) and wrote nothing; "
        "raise that limit or lower dream_max_mentions"
    )
    return result


def _write(scope: Scope, result: DreamResult, old: str, new: str, reason: str) -> None:
    """Rewrite MEMORY.md through the loss guard: one lock hold checks and writes."""
    try:
        settled = established_lines(scope, MEMORY, new)
        written = guard.rewrite(
            scope,
            MEMORY,
            expected=old,
            new=new,
            established=settled,
            released=frozenset(result.facts.dropped),  # past their ttl or under the floor
        )
    except guard.EditedMeanwhileError:
        # Someone (an extraction, an editor) wrote MEMORY.md while we thought.
        result.status = DreamStatus.SKIPPED
        result.reason = "MEMORY.md changed during the dream; it will be dreamed again"
        result.diff, result.added, result.removed = "", 0, 0
        return
    except guard.LossRefusedError as exc:
        _refuse(result, exc.verdict, reason)
        result.diff, result.added, result.removed = "", 0, 0
        return
    result.ceiling = ceiling.warning(written.name, written.ceiling)
    result.overflowed = written.moved
    if written.backup is not None:
        result.backup = written.backup.relative_to(scope.agent.path).as_posix()
    result.created = written.created
    result.written_sha = content_sha(scope.read(MEMORY))


def _refuse(result: DreamResult, verdict: guard.Verdict, reason: str) -> None:
    result.status = DreamStatus.REFUSED
    result.lost_entries = verdict.lost
    # The cause once: the guard's verdict; the model's own reason only when a model wrote it.
    said = reason.removeprefix("refused: ").strip()
    by_model = not result.engine.startswith("offline") and said
    result.reason = f"refused: {verdict.explain()}" + (
        f"; the model said: {said}" if by_model else ""
    )


def _diary_entry(agent: Agent, result: DreamResult, old: str, focus: str | None) -> DiaryEntry:
    report = result.report
    assert report is not None
    from memclaw.gates import redact

    patterns = []
    for cand in report.promoted:
        when = ", ".join(d.strftime("%m-%d") for d in cand.days)
        recall = f", recalled {cand.recalls}x" if cand.recalls else ""
        patterns.append(
            redact(f"{cand.text} — on {plural(len(cand.days), 'day')} ({when}){recall}")
        )
    dropped = {
        "said only once": report.count(Status.ONE_OFF),
        "corrected or contradicted": report.count(Status.CORRECTED),
        "below the trust floor": len(result.facts.dropped),
        "flagged by the secret gate": report.count(Status.SECRET),
    }
    held = {
        "below the score threshold": report.count(Status.LOW),
        "over the per-run limit": report.count(Status.OVER_LIMIT),
        "already in MEMORY.md or PROFILE.md": report.count(Status.KNOWN),
        "contradicting a remembered fact (memclaw inbox)": report.count(Status.CONTRADICTS),
        "low trust, written by a person (kept)": len(result.facts.flagged),
        "off the focus topic": report.count(Status.OFF_FOCUS),
    }
    if result.status is DreamStatus.UPDATED:
        change = result.change
        if result.overflowed:  # no '.' here: the diary's archive summary reads up to one
            change += f", {result.overflowed} moved to the overflow file"
    elif result.status is DreamStatus.REFUSED:
        change = "nothing (rewrite refused)"
    elif result.status is DreamStatus.SKIPPED:
        change = "nothing (skipped)"
    else:
        change = "nothing"
    return DiaryEntry(
        when=agent.now(),
        notes=report.notes,
        memory_chars=len(old),
        candidates=len(report.candidates),
        engine=result.engine,
        patterns=patterns,
        dropped=dropped,
        held_back=held,
        change=change,
        why=redact(result.reason),
        focus=redact(focus) if focus else focus,
    )
