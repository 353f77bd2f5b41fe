"""A damaged index is moved aside and rebuilt: it holds nothing the files do not.

Damage shows up as SQLite's "file is not a database" or "database disk image is
malformed", when the index is opened or only when a query reaches a bad page.
``PRAGMA quick_check`` finds it up front, but reads the whole file (over a
second for a million-line workspace, twenty searches' worth), so searches do
not run it: they catch the error where it happens, move the file aside and
retry on a fresh index. ``reindex``, which reads everything anyway, runs it.

The damaged file is kept beside the new one as ``index.sqlite.corrupt-<UTC
time>`` (the newest ``KEEP_CORRUPT`` of them) for whoever wants to look at it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from memclaw.errors import WorkspaceError

# Primary result codes (the low byte of an extended code such as SQLITE_CORRUPT_VTAB).
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26
KEEP_CORRUPT = 2
CORRUPT_INFIX = ".corrupt-"

FileId = tuple[int, int]  # (st_dev, st_ino): which file a connection opened


class IndexDamaged(Exception):
    """An index failed a check or a query with a corruption error; the caller heals it."""

    def __init__(self, key: str, detail: str) -> None:
        super().__init__(f"{key}: {detail}")
        self.key = key
        self.detail = detail


def is_damage(exc: BaseException) -> bool:
    """True for SQLite's corruption errors, False for the rest (a busy lock, a bad query)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    text = str(exc)
    return "malformed" in text or "not a database" in text


def file_id(path: Path) -> FileId | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_dev, st.st_ino)


def quick_check(conn: sqlite3.Connection) -> str | None:
    """What is wrong with the open index (SQLite's first complaint), or None when sound."""
    try:
        row = conn.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            return str(exc)
        raise
    result = "" if row is None else str(row[0])
    return None if result == "ok" else result or "quick_check gave no answer"


def set_aside(path: Path, detail: str, opened: FileId | None = None) -> Path | None:
    """Move the damaged index at ``path`` aside (and log one line); the caller reopens it.

    ``opened`` is the file the caller found damaged: when another connection has
    already replaced it with a fresh index, that one is left alone (None returned).
    """
    if opened is not None and file_id(path) != opened:
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}{CORRUPT_INFIX}{stamp}")
    for n in range(2, 100):  # a second heal within the same second keeps the first copy
        if not target.exists():
            break
        target = path.with_name(f"{path.name}{CORRUPT_INFIX}{stamp}-{n}")
    try:
        os.replace(path, target)
    except FileNotFoundError:
        return None  # another process moved it first
    for suffix in ("-wal", "-shm"):
        # The log belongs to the damaged file; left in place it would be replayed into the new one.
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()
    _prune(path)
    import logging  # only here: loading it costs every search a few ms, and damage is rare

    detail = " ".join(detail.split())  # quick_check answers in several lines: status is one
    logging.getLogger("memclaw.index").warning(
        "the search index %s was damaged (%s): moved it to %s and rebuilt it from the files",
        path,
        detail if len(detail) <= 100 else detail[:99] + "…",
        target.name,
    )
    return target


def damaged_again(path: Path, detail: str) -> WorkspaceError:
    """The error when a freshly rebuilt index is damaged too: the disk, not the index, is sick."""
    return WorkspaceError(
        f"the search index {path} is damaged again right after a rebuild ({detail}); "
        f"check the disk (free space, errors), then delete {path.name} and run `memclaw reindex`"
    )


def _prune(path: Path) -> None:
    kept = sorted(path.parent.glob(f"{path.name}{CORRUPT_INFIX}*"), reverse=True)
    for old in kept[KEEP_CORRUPT:]:
        with contextlib.suppress(FileNotFoundError):
            old.unlink()
