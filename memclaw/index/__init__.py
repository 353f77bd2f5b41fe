"""Recall: a full-text index over every memory file, kept in step with the files.

The index is derived data: ``reindex`` rebuilds it from the markdown alone, and
every search first brings it up to date incrementally.

May import: workspace, llm, text, gates, config, errors.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from memclaw.errors import storage_refusal
from memclaw.index.fresh.check import sweep
from memclaw.index.rank import Hit
from memclaw.index.recall_log import RECALL_LOG
from memclaw.index.search import Searcher, search
from memclaw.index.stats import IndexStats, index_stats
from memclaw.index.store import SyncStats, with_index
from memclaw.workspace.logs import read_log

if TYPE_CHECKING:
    from collections.abc import Callable

    from memclaw.workspace import Agent, Workspace

    Progress = Callable[[int, int], None]

__all__ = [
    "Hit",
    "IndexStats",
    "Searcher",
    "SyncStats",
    "catch_up",
    "embed_index",
    "global_stats",
    "reindex",
    "reindex_global",
    "search",
    "stats",
    "sync_agent",
    "sync_global",
]


def sync_agent(agent: Agent) -> SyncStats:
    """Re-index the agent's changed markdown files (call after writing or importing).

    Cheap when nothing changed: one stat per file. Safe to call while holding
    the agent's write lock; index writers are serialised by SQLite itself. A
    damaged index is moved aside and rebuilt.
    """
    now = agent.workspace.clock()
    return with_index(agent.path, lambda conn: sweep(conn, agent.path, is_global=False, now=now))


def catch_up(agent: Agent) -> None:
    """``sync_agent`` after a write that has landed: the files are the truth and the index
    is derived, so a machine that refuses the index's write (a full disk) fails nothing;
    it says so once, and the next search catches the index up."""
    try:
        sync_agent(agent)
    except (OSError, sqlite3.Error) as exc:
        refusal = storage_refusal(exc)
        if refusal is None:
            raise
        import logging

        logging.getLogger("memclaw.index").warning(
            "the search index was not updated (%s); the next search catches it up",
            refusal.refused,
        )


def sync_global(workspace: Workspace) -> SyncStats:
    """Re-index the changed files of ``<root>/_global`` (GLOBAL scope)."""
    base = workspace.global_dir
    if not base.is_dir():
        return SyncStats()
    now = workspace.clock()
    return with_index(base, lambda conn: sweep(conn, base, is_global=True, now=now))


def reindex(agent: Agent, progress: Progress | None = None) -> SyncStats:
    """Rebuild the agent's index from its files alone (cached embeddings are kept).

    ``progress(done, total)`` is called after each file. The index is checked
    (``PRAGMA quick_check``) first: a damaged one is moved aside, not reused.
    """
    base, now = agent.path, agent.workspace.clock()
    return with_index(
        base,
        lambda conn: sweep(conn, base, is_global=False, now=now, force=True, progress=progress),
        check=True,
    )


def reindex_global(workspace: Workspace, progress: Progress | None = None) -> SyncStats:
    """Rebuild the GLOBAL index from ``<root>/_global`` alone (checked first, like ``reindex``)."""
    base = workspace.global_dir
    if not base.is_dir():
        return SyncStats()
    now = workspace.clock()
    return with_index(
        base,
        lambda conn: sweep(conn, base, is_global=True, now=now, force=True, progress=progress),
        check=True,
    )


def embed_index(agent: Agent, progress: Progress | None = None) -> int:
    """Embed every block of the agent's index that has no vector for the configured
    embedding model (none without one); returns how many texts were embedded.

    ``progress(done, total)`` is called after each batch. Each batch is kept as it
    lands, so an interrupted run loses nothing and the next embeds only the rest.
    """
    from memclaw.index.semantic import embed_missing, open_embedder, passages
    from memclaw.index.storage.packs import visible_blocks

    settings = agent.workspace.settings
    embedder = open_embedder(settings)
    if embedder is None:
        return 0
    sync_agent(agent)  # the blocks as the files are now
    return with_index(
        agent.path,
        lambda conn: embed_missing(
            conn,
            embedder,
            passages(visible_blocks(conn)),
            batch_size=settings.embedding_batch_size,
            progress=progress,
        ),
    )


# The submodule memclaw.index.stats is imported above, before this function takes its
# name: importing it lazily here would rebind ``memclaw.index.stats`` to the module.
def stats(agent: Agent) -> IndexStats:
    """Files, blocks, size, last sync and recall counts of the agent's index."""
    return index_stats(agent.id, agent.path, list(read_log(agent, RECALL_LOG)))


def global_stats(workspace: Workspace) -> IndexStats:
    """The same for the GLOBAL index (recall of GLOBAL files is logged under _global/)."""
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.paths import GLOBAL_DIR

    holder = Agent(workspace, GLOBAL_DIR, workspace.global_dir)
    return index_stats(GLOBAL_DIR, workspace.global_dir, list(read_log(holder, RECALL_LOG)))
