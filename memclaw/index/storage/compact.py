"""Leave no dead pages behind a rebuild.

A rebuild deletes every row and writes them again: without this the file keeps
the free pages of the old rows (and the WAL a copy of the new ones), so each
``reindex`` made it larger. VACUUM rewrites the file from its live pages; the
checkpoint then empties the WAL.
"""

from __future__ import annotations

import contextlib
import sqlite3

from memclaw.index.schema import rollback


def compact(conn: sqlite3.Connection) -> None:
    """Merge the full-text segments, VACUUM and truncate the WAL (no transaction open)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("INSERT INTO blocks_fts(blocks_fts) VALUES ('optimize')")
    except BaseException:
        rollback(conn)
        raise
    conn.execute("COMMIT")
    conn.execute("VACUUM")
    with contextlib.suppress(sqlite3.OperationalError):  # a reader keeps the WAL busy
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
