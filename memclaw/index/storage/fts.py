"""The rows of the contentless full-text table, computed from the stored blocks alone.

``blocks_fts`` keeps no copy of what it indexes (that copy was as large as the text).
FTS5 can only delete a row from such a table when it is told the row's values again,
exactly as they were inserted: so every column's value is a pure function of the
stored ``blocks`` rows of one file (``fts_rows``), used both to insert and to delete.
A new indexed column is one more entry in ``FTS_COLUMNS`` and in ``fts_rows``; as long
as it is computed from stored block rows, deletion stays exact.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

from memclaw.index.blocks import SECTION_SEP
from memclaw.text.tokenize import index_text

FTS_COLUMNS = ("body", "context")
_NAMES = ", ".join(FTS_COLUMNS)
_MARKS = ", ".join("?" for _ in FTS_COLUMNS)
INSERT_SQL = f"INSERT INTO blocks_fts(rowid, {_NAMES}) VALUES (?, {_MARKS})"
DELETE_SQL = f"INSERT INTO blocks_fts(blocks_fts, rowid, {_NAMES}) VALUES ('delete', ?, {_MARKS})"
# What ``fts_rows`` reads of a stored block, in this order.
STORED_COLUMNS = "id, section, text, extra"


class StoredBlock(NamedTuple):
    id: int
    section: str
    text: str
    extra: str | None  # searchable context beyond the section, e.g. a table's header row


def fts_rows(blocks: Sequence[StoredBlock]) -> list[tuple[object, ...]]:
    """(rowid, *column values) of each block of one file, in ``FTS_COLUMNS`` order."""
    contexts: dict[str, str] = {}  # many blocks share a section: tokenise it once
    rows: list[tuple[object, ...]] = []
    for block in blocks:
        raw = f"{block.section}{SECTION_SEP}{block.extra}" if block.extra else block.section
        context = contexts.get(raw)
        if context is None:
            context = contexts[raw] = index_text(raw)
        rows.append((block.id, index_text(block.text), context))
    return rows


def insert_rows(conn: sqlite3.Connection, blocks: Sequence[StoredBlock]) -> None:
    conn.executemany(INSERT_SQL, fts_rows(blocks))


def delete_range(conn: sqlite3.Connection, first: int, last: int) -> None:
    """Remove blocks ``first``..``last`` (one file's) from the full-text table and ``blocks``."""
    stored = [
        StoredBlock(*row)
        for row in conn.execute(
            f"SELECT {STORED_COLUMNS} FROM blocks WHERE id BETWEEN ? AND ?", (first, last)
        )
    ]
    conn.executemany(DELETE_SQL, fts_rows(stored))
    conn.execute("DELETE FROM blocks WHERE id BETWEEN ? AND ?", (first, last))


def delete_all(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO blocks_fts(blocks_fts) VALUES ('delete-all')")
    conn.execute("DELETE FROM blocks")
