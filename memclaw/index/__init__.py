"""Recall: a full-text index over every memory file, kept in step with the files.

The index is derived data: ``reindex`` rebuilds it from the markdown alone, and
every search first brings it up to date incrementally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memclaw.index.store import SyncStats, open_index, sync

if TYPE_CHECKING:
    from memclaw.workspace import Agent, Workspace

__all__ = ["SyncStats", "reindex", "sync_agent", "sync_global"]


def sync_agent(agent: Agent) -> SyncStats:
    """Re-index the agent's changed markdown files (call after writing or importing).

    Cheap when nothing changed: one stat per file. Safe to call while holding
    the agent's write lock; index writers are serialised by SQLite itself.
    """
    conn = open_index(agent.path)
    try:
        return sync(conn, agent.path, is_global=False, now=_now(agent.workspace))
    finally:
        conn.close()


def sync_global(workspace: Workspace) -> SyncStats:
    """Re-index the changed files of ``<root>/_global`` (GLOBAL scope)."""
    if not workspace.global_dir.is_dir():
        return SyncStats()
    conn = open_index(workspace.global_dir)
    try:
        return sync(conn, workspace.global_dir, is_global=True, now=_now(workspace))
    finally:
        conn.close()


def reindex(agent: Agent) -> SyncStats:
    """Rebuild the agent's index from its files alone (cached embeddings are kept)."""
    conn = open_index(agent.path)
    try:
        return sync(conn, agent.path, is_global=False, now=_now(agent.workspace), force=True)
    finally:
        conn.close()


def _now(workspace: Workspace) -> str:
    return workspace.clock().isoformat(timespec="seconds")
