"""The rows of the contentless full-text table, computed from the stored blocks alone.

``blocks_fts`` keeps no copy of what it indexes (that copy was as large as the text).
FTS5 can only delete a row from such a table when it is told the row's values again,
exactly as they were inserted: so every column's value is a pure function of the
stored ``blocks`` rows of one file (``fts_rows``), used both to insert and to delete.
A new indexed column is one more entry in ``FTS_COLUMNS`` and in ``fts_rows``; as long
as it is computed from stored block rows, deletion stays exact.

The context column holds a block's section, its own context (``blocks.extra``: a
table's header row) and the words its neighbours lend it (``blocks.lent_words``).
Dates and times are left out of the section (``section_words``): a daily note's
heading is its date, and a session's its time, so they were the same few numbers
posted again for every block, a third of the full-text index, and a block's date
already answers for them (searches read dates as a range of days).
The lent words are not stored: they are recomputed from the stored rows around a
block (``BEFORE`` before it, ``AFTER`` after it, of the same file), so a row is
inserted and deleted from a window of rows (``_window``). A block whose neighbours
change must therefore be re-indexed with them (``rows.replace_blocks``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

from memclaw.index.blocks import AFTER, BEFORE, SECTION_SEP, lent_words
from memclaw.text.tokenize import index_text

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b")
FTS_COLUMNS = ("body", "context")
_NAMES = ", ".join(FTS_COLUMNS)
_MARKS = ", ".join("?" for _ in FTS_COLUMNS)
INSERT_SQL = f"INSERT INTO blocks_fts(rowid, {_NAMES}) VALUES (?, {_MARKS})"
DELETE_SQL = f"INSERT INTO blocks_fts(blocks_fts, rowid, {_NAMES}) VALUES ('delete', ?, {_MARKS})"
# The section path of block ``b``: stored once per file, numbered by ``blocks.section``.
SECTION_OF = "(SELECT s.path FROM sections AS s WHERE s.file_id = b.file_id AND s.n = b.section)"
# What ``fts_rows`` reads of a stored block ``b``, in this order.
STORED_COLUMNS = f"b.id, b.kind, {SECTION_OF}, b.text, b.extra"
# Stored rows of one file from ``BEFORE`` before a range to ``AFTER`` after it, in order.
_WINDOW = f"""
SELECT {STORED_COLUMNS} FROM blocks AS b WHERE b.id BETWEEN ? AND ?
AND b.file_id = (SELECT file_id FROM blocks WHERE id = ?) ORDER BY b.id
"""


class StoredBlock(NamedTuple):
    id: int
    kind: str
    section: str
    text: str
    extra: str | None  # the block's own context beyond the section, e.g. a table's header row


def fts_rows(blocks: Sequence[StoredBlock], first: int, last: int) -> list[tuple[object, ...]]:
    """(rowid, *column values) of blocks ``first``..``last`` of ``blocks``, in
    ``FTS_COLUMNS`` order; ``blocks`` are one file's stored rows in order, holding at
    least ``BEFORE`` rows before ``first`` and ``AFTER`` after ``last`` where the file has them."""
    contexts: dict[str, str] = {}  # many blocks share a section: tokenise it once
    rows: list[tuple[object, ...]] = []
    for block, lent in zip(blocks, lent_words(blocks), strict=True):
        if not first <= block.id <= last:
            continue
        extra = " ".join(filter(None, [block.extra, lent]))
        section = section_words(block.section)
        raw = f"{section}{SECTION_SEP}{extra}" if extra else section
        context = contexts.get(raw)
        if context is None:
            context = contexts[raw] = index_text(raw)
        rows.append((block.id, index_text(block.text), context))
    return rows


def section_words(section: str) -> str:
    """A section path without its dates and times (see the module): "2026-11-28 › 14:30
    Ana, Ben" is searched as "Ana, Ben"."""
    parts = (_CLOCK.sub("", part).strip() for part in section.split(SECTION_SEP))
    return SECTION_SEP.join(p for p in parts if p and not _DAY.fullmatch(p))


def _window(conn: sqlite3.Connection, first: int, last: int) -> list[StoredBlock]:
    rows = conn.execute(_WINDOW, (first - BEFORE, last + AFTER, first))
    return [StoredBlock(*row) for row in rows]


def insert_rows(conn: sqlite3.Connection, first: int, last: int) -> None:
    """Index blocks ``first``..``last`` of one file, already in ``blocks``."""
    conn.executemany(INSERT_SQL, fts_rows(_window(conn, first, last), first, last))


def delete_range(conn: sqlite3.Connection, first: int, last: int) -> None:
    """Remove blocks ``first``..``last`` (one file's) from the full-text table and ``blocks``."""
    conn.executemany(DELETE_SQL, fts_rows(_window(conn, first, last), first, last))
    conn.execute("DELETE FROM blocks WHERE id BETWEEN ? AND ?", (first, last))


def delete_all(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO blocks_fts(blocks_fts) VALUES ('delete-all')")
    conn.execute("DELETE FROM blocks")
    conn.execute("DELETE FROM sections")
