"""The SQLite index of one folder of markdown files, and its incremental sync.

Each agent has ``<agent>/.memclaw/index.sqlite``; the GLOBAL files have their
own at ``<root>/_global/.memclaw/index.sqlite``. A sync skips files whose size
and modification time are unchanged, hashes the others, and re-indexes only
files whose content changed; files gone from disk leave the index.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from memclaw.index.blocks import bookkeeping, parse_blocks
from memclaw.index.damage import damaged_again, file_id, is_damage, quick_check, set_aside
from memclaw.index.layout import FileState, classify, scan
from memclaw.index.schema import NewerSchema, migrate
from memclaw.index.storage.compact import compact
from memclaw.index.storage.rows import (
    clear,
    drop_file,
    insert_blocks,
    known_under,
    replace_blocks,
)
from memclaw.text.tokenize import TOKENIZER_VERSION, nfc
from memclaw.workspace.ledger import transaction, use_wal
from memclaw.workspace.paths import META_DIR

INDEX_NAME = "index.sqlite"
# How blocks are laid out in the index; when it or the tokenizer changes, indexes are rebuilt.
INDEX_FORMAT = f"tokens-{TOKENIZER_VERSION}/ids-3/contentless-4/packs-1/entries-1"
# A file modified this close to the moment it was indexed may change again
# within the file system's timestamp granularity: hash it again next time.
_RACY_NS = 2_000_000_000
OPTIMIZE_AFTER = 20_000  # blocks written by one sync
_T = TypeVar("_T")


@dataclass
class SyncStats:
    """What one sync did. ``changed`` lists files (re)indexed, ``removed`` files dropped."""

    files: int = 0
    unchanged: int = 0
    added: int = 0
    updated: int = 0
    touched: int = 0  # same content, new size/mtime: nothing re-indexed
    blocks: int = 0
    bytes: int = 0
    seconds: float = 0.0
    rebuilt: bool = False
    embedded: int = 0  # texts given a vector (``reindex`` with an embedding model)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def dirty(self) -> bool:
        return bool(self.changed or self.removed)

    def merge(self, other: SyncStats) -> None:
        names = ("files", "unchanged", "added", "updated", "touched", "blocks", "bytes", "embedded")
        for name in names:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.seconds += other.seconds
        self.rebuilt = self.rebuilt or other.rebuilt
        self.changed.extend(other.changed)
        self.removed.extend(other.removed)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def index_path(base: Path) -> Path:
    return base / META_DIR / INDEX_NAME


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA busy_timeout = 30000")
        if int(conn.execute("PRAGMA user_version").fetchone()[0]) == 0:
            # WAL (readers never wait for the writer) is stored in the file: set it once.
            use_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn)
    except BaseException:
        conn.close()  # before the file is moved aside or removed
        raise
    return conn


def remove_index(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()


def open_index(base: Path) -> sqlite3.Connection:
    """Open (creating or upgrading) the index of ``base``; an unreadable one is rebuilt.

    A damaged file is moved aside (see ``damage``); one from a newer memclaw is removed.
    A busy or read-only file is an error: only damage makes starting over right.
    """
    path = index_path(base)
    try:
        return _connect(path)
    except NewerSchema:
        # Only derived data lives here, so starting over loses nothing.
        remove_index(path)
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):
            raise
        set_aside(path, str(exc))
    return _connect(path)


def with_index(base: Path, work: Callable[[sqlite3.Connection], _T], *, check: bool = False) -> _T:
    """``work`` on the open index of ``base``; when damage shows (or ``check``'s
    ``PRAGMA quick_check`` finds some), the file is moved aside and ``work`` runs
    again on a new one, which it fills from the files."""
    path = index_path(base)
    for attempt in range(2):
        conn = open_index(base)
        opened = file_id(path)
        try:
            problem = quick_check(conn) if check else None
            if problem is None:
                return work(conn)
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc):
                raise
            problem = str(exc)
        finally:
            conn.close()
        if attempt:
            raise damaged_again(path, problem)
        set_aside(path, problem, opened)
    raise AssertionError("unreachable")


_Row = tuple[int, int, int, int]  # id, size, mtime_ns, checked_ns


def known_files(conn: sqlite3.Connection) -> dict[str, _Row]:
    rows = conn.execute("SELECT path, id, size, mtime_ns, checked_ns FROM files")
    return {r[0]: r[1:] for r in rows}


def indexed_digest(conn: sqlite3.Connection, file_id: int) -> str:
    row = conn.execute("SELECT sha256 FROM files WHERE id = ?", (file_id,)).fetchone()
    return "" if row is None else str(row[0])


def stale_files(disk: dict[str, FileState], known: dict[str, _Row]) -> list[str]:
    todo = []
    for rel, st in disk.items():
        row = known.get(rel)
        if (
            row is None
            or row[1] != st.size
            or row[2] != st.mtime_ns
            or row[3] - st.mtime_ns < _RACY_NS
        ):
            todo.append(rel)
    return todo


def _read(path: Path) -> tuple[bytes, FileState] | None:
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            data = handle.read()
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        return None
    return data, FileState(st.st_size, st.st_mtime_ns)


def meta_value(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))


def file_clock(path: Path) -> int:
    """Now, on the clock that stamps the files (nanoseconds), read by touching the index
    file at ``path``.

    Whether a file's time can be trusted is a comparison with *now*; made with the wall
    clock, it goes wrong wherever that clock and the one stamping files disagree (a file
    server's, a clock set ahead). The index's own modification time is stamped by the
    same filesystem as the files it indexes.
    """
    try:
        os.utime(path)
        return path.stat().st_mtime_ns
    except OSError:  # a read-only index: the wall clock is the best left
        return time.time_ns()


def _needs_work(
    conn: sqlite3.Connection, base: Path, disk: dict[str, FileState], known: dict[str, _Row]
) -> list[str]:
    """Files to (re)index or to re-stamp; a just-written file with unchanged content is left
    alone (no write at all) until its timestamp is old enough to be trusted."""
    now = file_clock(index_path(base)) if stale_files(disk, known) else 0
    work = []
    for rel in stale_files(disk, known):
        row, st = known.get(rel), disk[rel]
        if row is None or row[1] != st.size:
            work.append(rel)
            continue
        got = _read(base / rel)
        if got is None:
            continue
        same = hashlib.sha256(got[0]).hexdigest() == indexed_digest(conn, row[0])
        if not same or row[2] != st.mtime_ns or now - st.mtime_ns >= _RACY_NS:
            work.append(rel)
    return work


def _fingerprint(disk: dict[str, FileState]) -> str:
    """A digest of every file's name, size and modification time, in scan order (a new
    order after a change only costs one ordinary check)."""
    listing = "\n".join(f"{rel}\0{st.size}\0{st.mtime_ns}" for rel, st in disk.items())
    return hashlib.blake2b(listing.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def _settled(disk: dict[str, FileState], now: int) -> bool:
    """No file is recent enough that it might change again within one timestamp tick."""
    return all(now - st.mtime_ns >= _RACY_NS for st in disk.values())


def sync(
    conn: sqlite3.Connection,
    base: Path,
    *,
    is_global: bool,
    now: str,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
    dirs: dict[str, int] | None = None,
) -> SyncStats:
    """Bring the index of ``base`` up to date with its files; ``force`` rebuilds it.

    Only writes when something changed, so concurrent searches of an unchanged
    workspace never wait for each other. ``progress(done, total)`` follows big syncs.
    ``dirs`` receives the modification time of every folder scanned (see ``fresh``).
    """
    started = time.perf_counter()
    stats = SyncStats()
    disk = scan(base, dirs)
    stats.files = len(disk)
    fresh = meta_value(conn, "format") == INDEX_FORMAT and not force
    # Same names, sizes and times as at the last settled sync: nothing to even look at.
    print_ = _fingerprint(disk)
    if fresh and meta_value(conn, "fingerprint") == print_:
        stats.unchanged = len(disk)
        stats.seconds = time.perf_counter() - started
        return stats
    known = known_files(conn) if fresh else {}
    if fresh and not _needs_work(conn, base, disk, known) and not (known.keys() - disk.keys()):
        stats.unchanged = len(disk)
        if _settled(disk, file_clock(index_path(base))):
            with transaction(conn):
                set_meta(conn, "fingerprint", print_)
        stats.seconds = time.perf_counter() - started
        return stats
    with transaction(conn):
        if not fresh or meta_value(conn, "format") != INDEX_FORMAT:
            clear(conn)
            stats.rebuilt = True
        known = known_files(conn)  # again, under the write lock
        todo = sorted(_needs_work(conn, base, disk, known))
        stats.unchanged = len(disk) - len(todo)
        checked = file_clock(index_path(base))
        for done, rel in enumerate(todo, start=1):
            _sync_file(conn, base, rel, known.get(rel), is_global, checked, stats)
            if progress is not None:
                progress(done, len(todo))
        for rel in sorted(known.keys() - disk.keys()):
            drop_file(conn, known[rel][0])
            conn.execute("DELETE FROM files WHERE id = ?", (known[rel][0],))
            stats.removed.append(rel)
        set_meta(conn, "format", INDEX_FORMAT)
        settled = _settled(disk, file_clock(index_path(base)))
        set_meta(conn, "fingerprint", print_ if settled else "")
        if stats.dirty or stats.rebuilt:
            set_meta(conn, "synced_at", now)
    if stats.blocks >= OPTIMIZE_AFTER:
        # Bulk inserts leave the full-text index in many small segments; merging them
        # once makes every later query several times faster.
        with transaction(conn):
            conn.execute("INSERT INTO blocks_fts(blocks_fts) VALUES ('optimize')")
    stats.seconds = time.perf_counter() - started
    return stats


def sync_paths(
    conn: sqlite3.Connection,
    base: Path,
    disk: dict[str, FileState],
    folders: set[str],
    *,
    is_global: bool,
    now: str,
) -> SyncStats:
    """Bring part of the index up to date: the files in ``disk`` (as just stat-ed), and
    every indexed file directly inside ``folders`` (fully listed in ``disk``: one that
    is not there is gone). A file named in neither is not looked at."""
    started = time.perf_counter()
    stats = SyncStats(files=len(disk))

    def plan() -> tuple[dict[str, _Row], list[str], list[str]]:
        known = known_under(conn, list(disk), folders)
        gone = [rel for rel in known if rel not in disk]
        return known, _needs_work(conn, base, disk, known), gone

    known, todo, gone = plan()
    if todo or gone:
        with transaction(conn):
            known, todo, gone = plan()  # again, under the write lock
            checked = file_clock(index_path(base))
            for rel in sorted(todo):
                _sync_file(conn, base, rel, known.get(rel), is_global, checked, stats)
            for rel in sorted(gone):
                drop_file(conn, known[rel][0])
                conn.execute("DELETE FROM files WHERE id = ?", (known[rel][0],))
                stats.removed.append(rel)
            set_meta(conn, "fingerprint", "")  # the next full sweep checks every file
            if stats.dirty:
                set_meta(conn, "synced_at", now)
    stats.unchanged = len(disk) - len(todo)
    stats.seconds = time.perf_counter() - started
    return stats


def rebuild(
    conn: sqlite3.Connection,
    base: Path,
    *,
    is_global: bool,
    now: str,
    progress: Callable[[int, int], None] | None = None,
    dirs: dict[str, int] | None = None,
) -> SyncStats:
    """Rebuild the index of ``base`` from its files and leave the file without dead pages:
    vectors no block is embedded as any more (an edited or deleted line's) go too."""
    import memclaw.index.vectors as vectors
    from memclaw.index.semantic import unused_vectors

    started = time.perf_counter()
    stats = sync(conn, base, is_global=is_global, now=now, force=True, progress=progress, dirs=dirs)
    unused = unused_vectors(conn)
    if unused:
        with transaction(conn):
            vectors.delete(conn, unused)
    compact(conn)
    stats.seconds = time.perf_counter() - started
    return stats


def _sync_file(
    conn: sqlite3.Connection,
    base: Path,
    rel: str,
    row: _Row | None,
    is_global: bool,
    checked: int,
    stats: SyncStats,
) -> None:
    got = _read(base / rel)
    if got is None:  # vanished between scan and read; the next sync drops it
        return
    data, st = got
    digest = hashlib.sha256(data).hexdigest()
    if row is not None and indexed_digest(conn, row[0]) == digest:
        conn.execute(
            "UPDATE files SET size = ?, mtime_ns = ?, checked_ns = ? WHERE id = ?",
            (st.size, st.mtime_ns, checked, row[0]),
        )
        stats.touched += 1
        return
    text = nfc(data.decode("utf-8", errors="replace").removeprefix("\ufeff"))
    blocks = [b for b in parse_blocks(text, rel) if not bookkeeping(rel, b)]
    kind, scope, owner = classify(rel, is_global)
    if row is None:
        file_id = conn.execute(
            "INSERT INTO files(path, kind, scope, owner, size, mtime_ns, sha256, checked_ns,"
            " blocks, first_block) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            (rel, kind, str(scope), owner, st.size, st.mtime_ns, digest, checked, len(blocks)),
        ).lastrowid
        assert file_id is not None
        stats.added += 1
        first = insert_blocks(conn, file_id, kind, blocks)
    else:
        file_id = row[0]
        first = replace_blocks(conn, file_id, kind, blocks)
        conn.execute(
            "UPDATE files SET kind = ?, scope = ?, owner = ?, size = ?, mtime_ns = ?,"
            " sha256 = ?, checked_ns = ?, blocks = ? WHERE id = ?",
            (kind, str(scope), owner, st.size, st.mtime_ns, digest, checked, len(blocks), file_id),
        )
        stats.updated += 1
    conn.execute("UPDATE files SET first_block = ? WHERE id = ?", (first, file_id))
    stats.blocks += len(blocks)
    stats.bytes += len(data)
    stats.changed.append(rel)
