"""The index schema, changed only through numbered migrations.

``PRAGMA user_version`` records the last migration applied. The index holds
nothing that cannot be rebuilt from the markdown files, so an index written
by a newer memclaw (a version we do not know) is simply rebuilt.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable

from memclaw.index.vectors import packed_layout

MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    # 1: files, blocks and the full-text index over pre-tokenised text.
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        scope TEXT NOT NULL,
        owner TEXT,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        checked_ns INTEGER NOT NULL,
        blocks INTEGER NOT NULL
    );
    CREATE TABLE blocks (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        kind TEXT NOT NULL,
        section TEXT NOT NULL,
        date TEXT,
        hash TEXT NOT NULL,
        text TEXT NOT NULL
    );
    CREATE INDEX blocks_file ON blocks(file_id);
    CREATE VIRTUAL TABLE blocks_fts USING fts5(
        body, context, tokenize = 'unicode61 remove_diacritics 0'
    );
    """,
    # 2: embedding vectors, cached by model and block content hash.
    """
    CREATE TABLE vectors (
        model TEXT NOT NULL,
        hash TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vec BLOB NOT NULL,
        PRIMARY KEY (model, hash)
    ) WITHOUT ROWID;
    CREATE INDEX blocks_hash ON blocks(hash);
    """,
    # 3: the text kept once. The full-text table is contentless (it held a second,
    # tokenised copy of every block); its rows are deleted by recomputing their column
    # values from the stored blocks (see ``fts.py``), and a block's extra context (a table's
    # header row; not the words its neighbours lend it, which ``fts.py`` recomputes) is
    # stored so that they can be. Blocks of a file have consecutive ids
    # (``files.first_block``), so no index on blocks.file_id or blocks.hash is kept: both
    # were as large as a fifth of the text. Everything is rebuilt from the files.
    """
    DROP TABLE blocks_fts;
    DROP TABLE blocks;
    DROP TABLE files;
    DELETE FROM meta WHERE key IN ('format', 'fingerprint');
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        scope TEXT NOT NULL,
        owner TEXT,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        checked_ns INTEGER NOT NULL,
        blocks INTEGER NOT NULL,
        first_block INTEGER NOT NULL
    );
    CREATE TABLE blocks (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL,
        line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        kind TEXT NOT NULL,
        section TEXT NOT NULL,
        date TEXT,
        hash TEXT NOT NULL,
        text TEXT NOT NULL,
        extra TEXT
    );
    CREATE VIRTUAL TABLE blocks_fts USING fts5(
        body, context, content = '', tokenize = 'unicode61 remove_diacritics 0'
    );
    """,
    # 4: no table of facts. It held every statement again, one row per place, with two
    # indexes: 2.2 times the text. The trust signal reads the places it needs from the
    # blocks and the full-text index instead (``index/facts/places.py``).
    """
    DROP TABLE IF EXISTS facts;
    DELETE FROM meta WHERE key = 'facts_format';
    """,
    # 5: a block's section path is stored once per file, not once per block: blocks of a
    # section share it (at 100k lines of notes it was a third of the text). ``blocks.section``
    # numbers it among its file's sections (``storage/rows.py``). Rebuilt from the files.
    """
    DELETE FROM blocks;
    DELETE FROM files;
    INSERT INTO blocks_fts(blocks_fts) VALUES ('delete-all');
    DELETE FROM meta WHERE key IN ('format', 'fingerprint');
    DROP TABLE blocks;
    CREATE TABLE blocks (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL,
        line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        kind TEXT NOT NULL,
        section INTEGER NOT NULL,
        date TEXT,
        hash TEXT NOT NULL,
        text TEXT NOT NULL,
        extra TEXT
    );
    CREATE TABLE sections (
        file_id INTEGER NOT NULL,
        n INTEGER NOT NULL,
        path TEXT NOT NULL,
        PRIMARY KEY (file_id, n)
    ) WITHOUT ROWID;
    """,
    # 6: a file's blocks, their section paths and extra context are stored compressed
    # together, in chunks (``storage/packs.py``), instead of a row per block: SQLite's
    # cost per row was as large as a short block's text. ``files_first`` finds the file
    # of a block id. Rebuilt from the files.
    """
    DELETE FROM files;
    INSERT INTO blocks_fts(blocks_fts) VALUES ('delete-all');
    DELETE FROM meta WHERE key IN ('format', 'fingerprint');
    DROP TABLE blocks;
    DROP TABLE sections;
    CREATE TABLE packs (id INTEGER PRIMARY KEY, data BLOB NOT NULL);
    CREATE INDEX files_first ON files(first_block, blocks);
    """,
    # 7: vectors kept as their direction in one signed byte a value, rows appended, the
    # model a number and the key 8 bytes (``vectors.py``): 625 KB of float32 vectors took
    # 1.9 MB, a page each. Converted, not embedded again.
    packed_layout,
)
# Migrations after which the file is VACUUMed once, to give back the pages they freed.
SHRINKING = frozenset({4, 5, 6, 7})

SCHEMA_VERSION = len(MIGRATIONS)


class NewerSchema(Exception):
    """The index was written by a newer memclaw; the caller rebuilds it."""


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration not yet applied, each in its own transaction."""
    current = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if current > SCHEMA_VERSION:
        raise NewerSchema(f"index schema {current} is newer than {SCHEMA_VERSION}")
    shrunk = False
    for number in range(current + 1, SCHEMA_VERSION + 1):
        script = MIGRATIONS[number - 1]
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-check under the write lock: another process may have migrated meanwhile.
            if int(conn.execute("PRAGMA user_version").fetchone()[0]) >= number:
                conn.execute("ROLLBACK")
                continue
            if callable(script):
                script(conn)
            else:
                for statement in script.split(";"):
                    if statement.strip():
                        conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        except BaseException:
            rollback(conn)
            raise
        shrunk = shrunk or (current > 0 and number in SHRINKING)
    if shrunk:
        # Once, on upgrade. A reader holding the file makes VACUUM fail: the freed pages
        # are then reused by later writes instead, and nothing is lost.
        with contextlib.suppress(sqlite3.OperationalError):
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # VACUUM wrote to the WAL
    return SCHEMA_VERSION


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the transaction still open: SQLite has rolled it back itself after some
    errors (a full disk), and a second ROLLBACK would fail and hide why."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")
