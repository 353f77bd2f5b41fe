"""Secrets in an agent's SQLite index, and cleaning it so none survives in the file.

The index copies block text from the markdown files (each file's pack of blocks, and the
full-text index's own content and token segments), and caches an embedding
per block. Rewriting a file and syncing is not enough: SQLite keeps deleted rows
in free pages, FTS5 keeps deleted tokens in old segments until they are merged,
and the vector of the old text stays cached. :func:`clean_index` takes care of
all three.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from memclaw.index.storage.packs import visible_blocks
from memclaw.index.store import index_path


@dataclass(frozen=True)
class IndexFinding:
    source: str  # the indexed file, relative to the index's folder
    line: int
    kind: str


def index_findings(base: Path) -> list[IndexFinding] | None:
    """Secrets in the block text of the index of ``base``; None when it cannot be read."""
    from memclaw.gates import find_secrets

    path = index_path(base)
    if not path.is_file() or path.is_symlink():
        return []
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=30.0)
    except sqlite3.Error:
        return None
    found = []
    try:
        rows = sorted((f.path, b.line, b.text) for f, b in visible_blocks(conn))
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    for source, line, text in rows:
        for finding in find_secrets(text):
            found.append(IndexFinding(str(source), int(line) + finding.line - 1, finding.kind))
    return found


def clean_index(base: Path, *, is_global: bool, now: str) -> None:
    """Bring the index of ``base`` up to date, then leave no trace of replaced text.

    The files must already be clean: the sync replaces the blocks of every
    rewritten file; merging the FTS5 segments drops the old tokens; vectors no
    block is embedded as any more are deleted; VACUUM rewrites the file without its
    free pages, and the WAL is truncated so the old pages are not kept there.
    """
    import memclaw.index.vectors as vectors
    from memclaw.index.semantic import unused_vectors
    from memclaw.index.storage.compact import compact
    from memclaw.index.store import open_index, sync

    if not index_path(base).is_file():
        return
    conn = open_index(base)
    try:
        conn.execute("PRAGMA secure_delete = ON")
        sync(conn, base, is_global=is_global, now=now)
        # (a turn's vector is keyed by its text with the turn before: ``semantic.passages``)
        vectors.delete(conn, unused_vectors(conn))
        compact(conn)  # merge the segments (old tokens gone), VACUUM, truncate the WAL
    finally:
        conn.close()
