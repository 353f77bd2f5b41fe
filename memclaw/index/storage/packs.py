"""Each file's blocks, stored compressed together (``packs``).

A row per block cost more than the text it held: SQLite spends twenty-odd bytes on
any row, and a note's blocks are short (a bullet each), so ids, line numbers, kind,
date and hash came to as much again as the text. One compressed pack per file holds
the same for a fraction: the block ids of a file are consecutive
(``files.first_block``), so a block is found as a file and a position in it.

A pack is zlib over UTF-8 records separated by ``RS``, stored in rows of ``CHUNK``
bytes (``write``). The first record is the file's section paths (a JSON list);
each next one is a block, ``[line, end_line - line, kind, section number, date,
text]`` in JSON, with its extra context last when it has one. JSON escapes every
control character, so ``RS`` never occurs inside a record, and a block is read
without parsing the others. A block's hash is computed from its text when asked for.

The contentless full-text table is deleted from with the values it was given
(``fts.py``): those are computed from a file's pack.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from memclaw.index.blocks import Block

RS = "\x1e"
# A pack is stored in rows of at most ``CHUNK`` bytes: eight fill a 4 KiB page. (One row
# per file left most pages a third empty: two packs of 2.7 KB do not fit in one page.)
CHUNK = 500
CHUNK_BITS = 24
# The file holding block ``{0}`` (``files_first`` covers the lookup; an empty file is skipped).
FILE_OF = (
    "(SELECT id FROM files WHERE first_block <= {0} AND {0} < first_block + blocks"
    " ORDER BY first_block DESC LIMIT 1)"
)
# What a reader needs of a file to read its blocks and rank them: ``FileRow``'s order.
FILE_COLUMNS = "f.id, f.first_block, f.path, f.scope, f.owner, f.kind"


class FileRow(NamedTuple):
    id: int
    first_block: int
    path: str
    scope: str
    owner: str | None
    kind: str


class StoredBlock(NamedTuple):
    """A block as the index holds it; ``section`` is the heading path as one string."""

    id: int
    line: int
    end_line: int
    kind: str
    section: str
    date: str | None
    text: str
    extra: str | None  # the block's own context beyond the section, e.g. a table's header row

    @property
    def hash(self) -> str:
        """Content hash (as ``Block.hash``): the same text anywhere is the same block."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:16]

    def same_content(self, other: StoredBlock) -> bool:
        """Equal but for the id."""
        return self[1:] == other[1:]


def stored(blocks: Sequence[Block], first: int) -> list[StoredBlock]:
    """``blocks`` of one file as the index holds them, under ids from ``first``."""
    return [
        StoredBlock(
            first + n,
            b.line,
            b.end_line,
            b.kind,
            b.section_path,
            b.date,
            b.text,
            b.own_context or None,
        )
        for n, b in enumerate(blocks)
    ]


def pack(blocks: Sequence[StoredBlock]) -> bytes:
    sections: dict[str, int] = {}
    records = []
    for b in blocks:
        number = sections.setdefault(b.section, len(sections))
        record = [b.line, b.end_line - b.line, b.kind, number, b.date, b.text]
        if b.extra is not None:
            record.append(b.extra)
        records.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    head = json.dumps(list(sections), ensure_ascii=False, separators=(",", ":"))
    return zlib.compress(RS.join([head, *records]).encode("utf-8"), 9)


class FilePack:
    """One file's pack, decompressed; its blocks are parsed as they are asked for."""

    __slots__ = ("_records", "_sections", "first")

    def __init__(self, data: bytes, first: int) -> None:
        self.first = first
        try:
            self._records = zlib.decompress(data).decode("utf-8").split(RS)
            self._sections: list[str] = json.loads(self._records[0])
        except (zlib.error, ValueError) as exc:
            raise _damaged(exc) from exc

    def __len__(self) -> int:
        return len(self._records) - 1

    def block(self, block_id: int) -> StoredBlock:
        n = block_id - self.first
        if not 0 <= n < len(self):
            raise KeyError(block_id)
        try:
            line, lines, kind, section, day, text, *extra = json.loads(self._records[n + 1])
            path = self._sections[section]
            return StoredBlock(
                block_id, line, line + lines, kind, path, day, text, *extra or [None]
            )
        except (ValueError, TypeError, IndexError) as exc:
            raise _damaged(exc) from exc

    def blocks(self) -> list[StoredBlock]:
        return [self.block(self.first + n) for n in range(len(self))]


def _damaged(exc: Exception) -> sqlite3.DatabaseError:
    """A pack that does not unpack is a damaged index: searches heal it (``damage.py``)."""
    return sqlite3.DatabaseError(
        f"database disk image is malformed: a pack does not unpack ({exc})"
    )


def _ids(file_id: int) -> tuple[int, int]:
    """The row ids of a file's chunks: ``file_id`` in the high bits, the chunk's number below."""
    return file_id << CHUNK_BITS, ((file_id + 1) << CHUNK_BITS) - 1


def write(conn: sqlite3.Connection, file_id: int, blocks: Sequence[StoredBlock]) -> None:
    delete(conn, file_id)
    data = pack(blocks)
    lo = _ids(file_id)[0]
    chunks = [(lo + n, data[at : at + CHUNK]) for n, at in enumerate(range(0, len(data), CHUNK))]
    conn.executemany("INSERT INTO packs VALUES (?, ?)", chunks)


def delete(conn: sqlite3.Connection, file_id: int) -> None:
    conn.execute("DELETE FROM packs WHERE id BETWEEN ? AND ?", _ids(file_id))


def read(conn: sqlite3.Connection, file_id: int, first: int) -> FilePack | None:
    rows = conn.execute(
        "SELECT data FROM packs WHERE id BETWEEN ? AND ? ORDER BY id", _ids(file_id)
    )
    data = b"".join(row[0] for row in rows)
    return FilePack(data, first) if data else None


class Reader:
    """Blocks of one index, read through a connection. The ``KEEP`` packs used last stay
    unpacked (a long-lived searcher keeps its reader while the index does not change,
    as SQLite keeps the pages it read: ``sources.Source.reader``)."""

    KEEP = 512

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._packs: OrderedDict[int, FilePack | None] = OrderedDict()

    def file(self, file_id: int, first: int) -> FilePack | None:
        if file_id in self._packs:
            self._packs.move_to_end(file_id)
            return self._packs[file_id]
        found = self._packs[file_id] = read(self.conn, file_id, first)
        if len(self._packs) > self.KEEP:
            self._packs.popitem(last=False)
        return found

    def block(self, file: FileRow, block_id: int) -> StoredBlock | None:
        got = self.file(file.id, file.first_block)
        if got is None or got.first != file.first_block:
            return None
        try:
            return got.block(block_id)
        except KeyError:
            return None


def visible_blocks(
    conn: sqlite3.Connection, clause: str = "1", params: Sequence[Any] = ()
) -> Iterator[tuple[FileRow, StoredBlock]]:
    """Every block of the files matching ``clause`` (over ``f``, files), file by file."""
    sql = f"SELECT {FILE_COLUMNS} FROM files f WHERE f.blocks > 0 AND {clause} ORDER BY f.id"
    files = [FileRow(*row) for row in conn.execute(sql, list(params))]
    for file in files:
        found = read(conn, file.id, file.first_block)
        for block in found.blocks() if found else []:
            yield file, block
