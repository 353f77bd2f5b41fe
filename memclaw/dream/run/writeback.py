"""Writing a dream's MEMORY.md through the loss guard, and saying what it refused.

A refusal names the guard's verdict once, and the model's own reason only when a model
wrote the rewrite; corrections applied before the dream read MEMORY.md count as part
of its change, so `dream undo` goes back to the file from before them.
"""

from __future__ import annotations

from memclaw.dream.memory_md import diff_counts, unified_diff
from memclaw.dream.run.result import DreamResult, DreamStatus
from memclaw.dream.runlog import MEMORY, content_sha
from memclaw.facts.ledger import established_lines
from memclaw.workspace.safeguards import ceiling, guard
from memclaw.workspace.scope import Scope


def write_memory(scope: Scope, result: DreamResult, old: str, new: str, reason: str) -> None:
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
    except guard.LossRefusedError as exc:
        refuse(result, exc.verdict, reason)
        result.diff, result.added, result.removed = "", 0, 0
        return
    result.ceiling = ceiling.warning(written.name, written.ceiling)
    result.overflowed = written.moved
    result.backup = written.backup
    result.created = written.created
    result.written_sha = content_sha(scope.read(MEMORY))


def refuse(result: DreamResult, verdict: guard.Verdict, reason: str) -> None:
    """Mark ``result`` refused by the loss guard's ``verdict``."""
    result.status = DreamStatus.REFUSED
    result.lost_entries = verdict.lost
    # The cause once: the guard's verdict; the model's own reason only when a model wrote it.
    said = reason.removeprefix("refused: ").strip()
    by_model = not result.engine.startswith("offline") and said
    result.reason = f"refused: {verdict.explain()}" + (
        f"; the model said: {said}" if by_model else ""
    )


def count_corrections(scope: Scope, result: DreamResult, before: str) -> None:
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
    result.backup = next(
        (v for v in history.versions(scope.agent, rel) if history.read(scope.agent, v) == kept),
        None,
    )
