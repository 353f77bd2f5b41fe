"""The rows of one file in the index: its pack of blocks and their full-text rows.

A file's blocks have consecutive ids from ``files.first_block`` (``files.blocks`` of
them), in the id range of the file's kind (``layout.kind_range``); the blocks
themselves are stored compressed together, one pack per file (``packs.py``).
"""

from __future__ import annotations

import sqlite3

from memclaw.index.blocks import AFTER, Block
from memclaw.index.layout import kind_range
from memclaw.index.storage import packs
from memclaw.index.storage.fts import delete_all, delete_rows, insert_rows

Row = tuple[int, int, int, int]  # id, size, mtime_ns, checked_ns (see store.known_files)
# The end of the highest id range in use among ``?``..``?`` (the file with the highest start).
_TOP = (
    "SELECT first_block + blocks FROM files WHERE first_block BETWEEN ? AND ? AND blocks > 0"
    " ORDER BY first_block DESC LIMIT 1"
)


def _range(conn: sqlite3.Connection, file_id: int) -> tuple[int, int]:
    row = conn.execute("SELECT first_block, blocks FROM files WHERE id = ?", (file_id,)).fetchone()
    return (0, 0) if row is None else (int(row[0]), int(row[1]))


def drop_file(conn: sqlite3.Connection, file_id: int) -> None:
    """Remove a file's blocks from the index (its ``files`` row stays, with no blocks)."""
    first, count = _range(conn, file_id)
    old = packs.read(conn, file_id, first) if count else None
    if old is not None:
        delete_rows(conn, old.blocks(), first, first + count - 1)
    packs.delete(conn, file_id)
    conn.execute("UPDATE files SET blocks = 0 WHERE id = ?", (file_id,))


def _top(conn: sqlite3.Connection, kind: str) -> int:
    """The highest block id in use in ``kind``'s range (one below the range when empty)."""
    lo, hi = kind_range(kind)
    row = conn.execute(_TOP, (lo, hi)).fetchone()
    return (int(row[0]) if row else lo) - 1


def insert_blocks(conn: sqlite3.Connection, file_id: int, kind: str, blocks: list[Block]) -> int:
    """Store ``blocks`` under consecutive new ids (returned: the first) and index them."""
    first = _top(conn, kind) + 1
    new = packs.stored(blocks, first)
    if new:
        packs.write(conn, file_id, new)
        insert_rows(conn, new, first, first + len(new) - 1)
    return first


def replace_blocks(conn: sqlite3.Connection, file_id: int, kind: str, blocks: list[Block]) -> int:
    """Replace an indexed file's blocks by ``blocks``; returns the first id.

    The leading blocks that did not change keep their full-text rows: appending a
    line to a note re-indexes that line, not the note (removing a row from the
    contentless full-text table means tokenising it again). That needs the ids after
    them free: true when the file shrinks or its blocks are the last of their kind;
    otherwise every block moves to new ids at the top.
    """
    first, count = _range(conn, file_id)
    last = first + count - 1
    moves = not count or (len(blocks) > count and _top(conn, kind) != last)
    old = None if moves else packs.read(conn, file_id, first)
    if old is None:  # (drop_file reads the old pack itself)
        drop_file(conn, file_id)
        return insert_blocks(conn, file_id, kind, blocks)
    was = old.blocks()
    new = packs.stored(blocks, first)
    kept = 0
    for before, now in zip(was, new, strict=False):
        if not before.same_content(now):
            break
        kept += 1
    if kept < count or kept < len(new):
        # The last kept blocks borrow words from the first changed one (``fts.py``):
        # their full-text rows change with it.
        kept = max(kept - AFTER, 0)
    if kept < count:
        delete_rows(conn, was, first + kept, last)
    if new:
        packs.write(conn, file_id, new)
        insert_rows(conn, new, first + kept, first + len(new) - 1)
    else:
        packs.delete(conn, file_id)
    return first


def clear(conn: sqlite3.Connection) -> None:
    delete_all(conn)
    conn.execute("DELETE FROM packs")
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
