"""Writing the facts table: one row per place a fact lives, replaced with its file's blocks."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memclaw.facts.model import Kind
from memclaw.facts.project import kind_of, project_text
from memclaw.workspace.paths import META_DIR
from memclaw.workspace.safeguards import provenance

# Created outside the numbered migrations (derived rows, dropped with their file by the
# foreign key): the version says when the projection changed and every file is redone.
FORMAT = "facts-1"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    fact TEXT NOT NULL,
    line INTEGER NOT NULL,
    kind TEXT NOT NULL,
    category TEXT NOT NULL,
    statement TEXT NOT NULL,
    day TEXT,
    author TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS facts_fact ON facts(fact);
CREATE INDEX IF NOT EXISTS facts_file ON facts(file_id, line)
"""


def ensure(conn: sqlite3.Connection) -> None:
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


def replace_file(
    conn: sqlite3.Connection, base: Path, file_id: int, rel: str, text: str, mtime_ns: int
) -> int:
    """Re-project one file's facts (inside the sync's transaction); returns how many."""
    conn.execute("DELETE FROM facts WHERE file_id = ?", (file_id,))
    kind = kind_of(rel)
    if kind is None:
        return 0
    keys: frozenset[str] = frozenset()
    day = None
    if kind in (Kind.PROFILE, Kind.MEMORY):
        keys = frozenset(provenance.load_from(base / META_DIR, rel).lines)
        from datetime import datetime

        day = datetime.fromtimestamp(mtime_ns / 1e9).date().isoformat()
    rows = [
        (
            file_id,
            p.fact,
            p.line,
            str(p.kind),
            p.category,
            p.statement,
            p.day.isoformat() if p.day else day,
            p.author,
        )
        for p in project_text(rel, text, model_lines=keys)
    ]
    conn.executemany("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    return len(rows)


def project_missing(conn: sqlite3.Connection, base: Path) -> None:
    """Fill the table for an index built before it existed (or by an older projection)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'facts_format'").fetchone()
    if row is not None and row[0] == FORMAT:
        return
    conn.execute("DELETE FROM facts")
    for file_id, rel, mtime_ns in conn.execute("SELECT id, path, mtime_ns FROM files").fetchall():
        if kind_of(rel) is None:
            continue
        try:
            text = (base / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        replace_file(conn, base, file_id, rel, text, mtime_ns)
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('facts_format', ?)", (FORMAT,))
