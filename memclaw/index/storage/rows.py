"""The rows of one file in the index: its blocks, their sections, their full-text rows.

A file's section paths are stored once each (``sections``), numbered in the order
they first occur among its blocks; ``blocks.section`` holds that number. The
numbering of an unchanged leading run of blocks is thus the same before and after
an edit, which is what lets ``replace_blocks`` keep their rows.
"""

from __future__ import annotations

import sqlite3

from memclaw.index.blocks import AFTER, Block
from memclaw.index.layout import kind_range
from memclaw.index.storage.fts import SECTION_OF, delete_all, delete_range, insert_rows

Row = tuple[int, int, int, int]  # id, size, mtime_ns, checked_ns (see store.known_files)


def drop_file(conn: sqlite3.Connection, file_id: int) -> None:
    row = conn.execute("SELECT first_block, blocks FROM files WHERE id = ?", (file_id,)).fetchone()
    if row is not None and row[1]:
        delete_range(conn, int(row[0]), int(row[0]) + int(row[1]) - 1)
    conn.execute("DELETE FROM sections WHERE file_id = ?", (file_id,))


def _top(conn: sqlite3.Connection, kind: str) -> int:
    """The highest block id in use in ``kind``'s range (one below the range when empty)."""
    lo, hi = kind_range(kind)
    last = conn.execute("SELECT max(id) FROM blocks WHERE id BETWEEN ? AND ?", (lo, hi))
    return int(last.fetchone()[0] or lo - 1)


def insert_blocks(conn: sqlite3.Connection, file_id: int, kind: str, blocks: list[Block]) -> int:
    """Store ``blocks`` under consecutive new ids (returned: the first) and index them."""
    first = _top(conn, kind) + 1
    _insert_at(conn, file_id, blocks, first, _write_sections(conn, file_id, blocks))
    return first


def replace_blocks(conn: sqlite3.Connection, file_id: int, kind: str, blocks: list[Block]) -> int:
    """Replace an indexed file's blocks by ``blocks``; returns the first id.

    The leading blocks that did not change keep their rows: appending a line to a
    note re-indexes that line, not the note (removing a row from the contentless
    full-text table means tokenising it again). That needs the ids after them free:
    true when the file shrinks or its blocks are the last of their kind; otherwise
    every block moves to new ids at the top.
    """
    row = conn.execute("SELECT first_block, blocks FROM files WHERE id = ?", (file_id,)).fetchone()
    first, count = int(row[0]), int(row[1])
    last = first + count - 1
    if not count or (len(blocks) > count and _top(conn, kind) != last):
        drop_file(conn, file_id)
        return insert_blocks(conn, file_id, kind, blocks)
    old = conn.execute(
        f"SELECT b.line, b.end_line, b.kind, {SECTION_OF}, b.date, b.text, b.extra"
        " FROM blocks AS b WHERE b.id BETWEEN ? AND ? ORDER BY b.id",
        (first, last),
    ).fetchall()
    kept = 0
    for was, block in zip(old, blocks, strict=False):
        now = (block.line, block.end_line, block.kind, block.section_path, block.date)
        if tuple(was[:5]) != now or was[5] != block.text or was[6] != (block.own_context or None):
            break
        kept += 1
    if kept < count or kept < len(blocks):
        # The last kept blocks borrow words from the first changed one (``fts.py``):
        # their full-text rows change with it.
        kept = max(kept - AFTER, 0)
    if kept < count:
        delete_range(conn, first + kept, last)  # (reads the old sections: before they go)
    numbers = _write_sections(conn, file_id, blocks)
    _insert_at(conn, file_id, blocks[kept:], first + kept, numbers)
    return first


def _write_sections(conn: sqlite3.Connection, file_id: int, blocks: list[Block]) -> dict[str, int]:
    """Store the section paths of a file's blocks (all of them); returns their numbers."""
    numbers: dict[str, int] = {}
    for block in blocks:
        numbers.setdefault(block.section_path, len(numbers))
    conn.execute("DELETE FROM sections WHERE file_id = ?", (file_id,))
    conn.executemany(
        "INSERT INTO sections VALUES (?, ?, ?)",
        [(file_id, n, path) for path, n in numbers.items()],
    )
    return numbers


def _insert_at(
    conn: sqlite3.Connection,
    file_id: int,
    blocks: list[Block],
    first: int,
    numbers: dict[str, int],
) -> None:
    rows = []
    for offset, block in enumerate(blocks):
        block_id = first + offset
        section, extra = numbers[block.section_path], block.own_context or None
        rows.append(
            (
                block_id,
                file_id,
                block.line,
                block.end_line,
                block.kind,
                section,
                block.date,
                block.hash,
                block.text,
                extra,
            )
        )
    conn.executemany("INSERT INTO blocks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    if rows:
        insert_rows(conn, first, first + len(rows) - 1)


def clear(conn: sqlite3.Connection) -> None:
    delete_all(conn)
    conn.execute("DELETE FROM files")


def known_under(conn: sqlite3.Connection, paths: list[str], folders: set[str]) -> dict[str, Row]:
    """The rows of ``paths`` and of every file directly inside one of ``folders``
    (prefixes such as "" or "memory/"), read through the index on ``files.path``."""
    found: dict[str, Row] = {}
    sql = "SELECT path, id, size, mtime_ns, checked_ns FROM files WHERE path IN ({})"
    for start in range(0, len(paths), 500):
        chunk = paths[start : start + 500]
        for r in conn.execute(sql.format(",".join("?" * len(chunk))), chunk):
            found[r[0]] = r[1:]
    for prefix in folders:
        rows = conn.execute(
            "SELECT path, id, size, mtime_ns, checked_ns FROM files WHERE path > ? AND path < ?",
            (prefix, prefix[:-1] + "0" if prefix else "\U0010ffff"),
        )
        for r in rows:
            if "/" not in r[0][len(prefix) :]:
                found[r[0]] = r[1:]
    return found
