"""What a dream run leaves behind besides MEMORY.md: its diary entry and structured report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.dream.candidates import Status
from memclaw.dream.diary import DiaryEntry
from memclaw.dream.run.result import DreamResult, DreamStatus
from memclaw.dream.runlog import MEMORY
from memclaw.text.plural import plural
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent


def diary_entry(agent: Agent, result: DreamResult, old: str, focus: str | None) -> DiaryEntry:
    """The DREAMS.md entry of a finished run: what it promoted, dropped and held back."""
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


def write_report(scope: Scope, result: DreamResult, old: str) -> None:
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
