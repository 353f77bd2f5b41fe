"""The rows of the contentless full-text table, computed from a file's stored blocks.

``blocks_fts`` keeps no copy of what it indexes (that copy was as large as the text).
FTS5 can only delete a row from such a table when it is told the row's values again,
exactly as they were inserted: so every column's value is a pure function of one
file's stored blocks (``fts_rows``, over its pack: ``packs.py``), used both to
insert and to delete. A new indexed column is one more entry in ``FTS_COLUMNS`` and
in ``fts_rows``; as long as it is computed from stored blocks, deletion stays exact.

The context column holds a block's section, its own context (``extra``: a table's
header row) and the words its neighbours lend it (``blocks.lent_words``, recomputed
from the stored blocks around it, never stored). Dates and times are left out of
the section (``section_words``): a daily note's heading is its date, and a session's
its time, so they were the same few numbers posted again for every block, a third of
the full-text index, and a block's date already answers for them (searches read
dates as a range of days). A block whose neighbours change must be re-indexed with
them (``rows.replace_blocks``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

from memclaw.index.blocks import AFTER, BEFORE, SECTION_SEP, lent_words
from memclaw.index.storage.packs import StoredBlock
from memclaw.text.tokenize import index_text

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b")
FTS_COLUMNS = ("body", "context")
_NAMES = ", ".join(FTS_COLUMNS)
_MARKS = ", ".join("?" for _ in FTS_COLUMNS)
_INSERT = f"INSERT INTO blocks_fts(rowid, {_NAMES}) VALUES (?, {_MARKS})"
_DELETE = f"INSERT INTO blocks_fts(blocks_fts, rowid, {_NAMES}) VALUES ('delete', ?, {_MARKS})"


def fts_rows(blocks: Sequence[StoredBlock], first: int, last: int) -> list[tuple[object, ...]]:
    """(rowid, *column values) of blocks ``first``..``last`` of ``blocks`` (one file's
    stored blocks, all of them, in order), in ``FTS_COLUMNS`` order."""
    if not blocks:
        return []
    # A block's lent words depend on the BEFORE blocks before it and the AFTER after it
    # only: an append to a long note reads a few blocks, not the note.
    start = max(first - blocks[0].id - BEFORE, 0)
    window = blocks[start : max(last - blocks[0].id + AFTER + 1, 0)]
    contexts: dict[str, str] = {}  # many blocks share a section: tokenise it once
    rows: list[tuple[object, ...]] = []
    for block, lent in zip(window, lent_words(window), strict=True):
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


def insert_rows(
    conn: sqlite3.Connection, blocks: Sequence[StoredBlock], first: int, last: int
) -> None:
    """Index blocks ``first``..``last`` of one file's stored ``blocks``."""
    conn.executemany(_INSERT, fts_rows(blocks, first, last))


def delete_rows(
    conn: sqlite3.Connection, blocks: Sequence[StoredBlock], first: int, last: int
) -> None:
    """Remove blocks ``first``..``last`` of one file's stored ``blocks`` from the index."""
    conn.executemany(_DELETE, fts_rows(blocks, first, last))


def delete_all(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO blocks_fts(blocks_fts) VALUES ('delete-all')")
