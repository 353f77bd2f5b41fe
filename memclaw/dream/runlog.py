"""The log of dream runs, and putting MEMORY.md back as it was before the last one.

Every run is logged (the ledger's ``dream`` stream) with what it read, what it
did and the backup it left, so ``memclaw dream undo`` restores exactly the file
the last changing run replaced, and ``memclaw status`` can tell when it ran.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from memclaw.errors import WorkspaceError
from memclaw.workspace.logs import append_log, read_log
from memclaw.workspace.safeguards import history, journal
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.dream.run.result import DreamResult
    from memclaw.workspace.agent import Agent

LOG = "dream"
MEMORY = "MEMORY.md"


def record(result: DreamResult) -> dict[str, Any]:
    """What the log keeps of one run."""
    report = result.report
    return {
        "run": result.run_id,
        "owner": result.owner,
        "trigger": result.trigger,
        "engine": result.engine,
        "status": str(result.status),
        "reason": result.reason,
        "notes": len(report.notes) if report else 0,
        "candidates": len(report.candidates) if report else 0,
        "promoted": len(report.promoted) if report else 0,
        "added": result.added,
        "removed": result.removed,
        "backup": result.backup,
        "written_sha": result.written_sha,
        "restored_sections": result.restored_sections,
        "lost_entries": len(result.lost_entries),
        "ceiling": result.ceiling,
        # What a refused rewrite would have dropped; redacted by the guard.
        "dropped": result.lost_entries,
        "created": result.created,
    }


def content_sha(text: str) -> str:
    """What a run wrote, to tell later whether MEMORY.md was edited since."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def log_run(agent: Agent, result: DreamResult) -> None:
    append_log(agent, LOG, record(result))


def runs(scope: Scope) -> list[dict[str, Any]]:
    """Logged dream runs of one scope, oldest first."""
    return [r for r in read_log(scope.agent, LOG) if r.get("owner") == scope.owner]


def dream_undo(scope: Scope) -> dict[str, Any]:
    """Put MEMORY.md back exactly as it was before the last dream that changed it.

    Uses the backup recorded by that run, not merely the newest history file,
    so a later extraction's backup is never mistaken for the dream's.
    """
    from memclaw.workspace.agent import WriteStrategy

    agent, owner = scope.agent, scope.owner
    records = runs(scope)
    undone = {r.get("undoes") for r in records if r.get("status") == "undone"}
    last = next((r for r in reversed(records) if r.get("status") == "updated"), None)
    if last is None:
        raise WorkspaceError(f"{agent.id}: no dream has changed MEMORY.md yet; nothing to undo")
    if last.get("run") in undone:
        raise WorkspaceError(f"{agent.id}: the last dream ({last.get('time')}) was already undone")
    backup = last.get("backup")
    kept = history.read_text(agent, backup) if isinstance(backup, str) else None
    if last.get("created") is True and backup is None:
        before = ""  # the dream wrote the first MEMORY.md: undoing it empties the file
    elif kept is None:
        raise WorkspaceError(
            f"{agent.id}: the backup of the last dream is gone; pick a version from "
            f"`memclaw files versions {agent.id} {scope.rel(MEMORY)}` instead"
        )
    else:
        before = kept[0]
    current = scope.read(MEMORY)
    written_sha = last.get("written_sha")
    edited_since = bool(written_sha) and content_sha(current) != written_sha
    with journal.change(agent, "dream-undo", run=last.get("run")):
        written = scope.write(MEMORY, before, WriteStrategy.OVERWRITE)
        _take_back_beliefs(agent, str(last.get("run", "")))
    append_log(
        agent,
        LOG,
        {"owner": owner, "status": "undone", "undoes": last.get("run"), "trigger": "manual"},
    )
    return {
        "agent": agent.id,
        "owner": owner,
        "restored_from": backup,
        "undid_run_of": last.get("time"),
        "edited_since": edited_since,
        "current_saved_as": written.backup,
    }


def _take_back_beliefs(agent: Agent, run: str) -> None:
    """Revert what the dream ``run`` changed beside MEMORY.md (evidence, inbox, authors).

    Without this the file says the old line again while the facts layer still holds it
    superseded, and no later dream would correct it. The same stores as ``memclaw undo``
    (changes.state, a layer above), newest delta first.
    """
    from memclaw.facts import inbox, store
    from memclaw.workspace.safeguards import provenance

    stores = {
        store.STORE: store.undo_delta,
        inbox.STORE: inbox.undo_delta,
        provenance.STORE: provenance.undo_delta,
    }
    record = next(
        (
            r
            for r in reversed(list(read_log(agent, journal.LOG)))
            if r.get("kind") == "dream" and r.get("run") == run
        ),
        None,
    )
    deltas = record.get("state", []) if record else []
    with agent.lock():
        for delta in reversed(deltas):
            undo = stores.get(str(delta.get("store", "")))
            if undo is not None:
                undo(agent, delta)
