"""What an index holds and how recall has been used; reading it changes nothing."""

from __future__ import annotations

import hashlib
import sqlite3
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memclaw.index.layout import scan
from memclaw.index.storage.packs import visible_blocks
from memclaw.index.store import (
    INDEX_FORMAT,
    index_path,
    indexed_digest,
    known_files,
    meta_value,
    stale_files,
)


@dataclass
class IndexStats:
    name: str  # agent id, or "_global"
    index: str
    exists: bool
    files: int = 0
    blocks: int = 0
    personal_files: int = 0
    owners: int = 0
    dated_blocks: int = 0
    vectors: int = 0
    index_bytes: int = 0
    last_sync: str | None = None
    pending: int = 0  # files a search would re-index first
    searches: int = 0
    recalled: int = 0
    last_search: str | None = None
    top_files: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _size(path: Path) -> int:
    total = 0
    for suffix in ("", "-wal", "-shm"):
        extra = Path(f"{path}{suffix}")
        if extra.exists():
            total += extra.stat().st_size
    return total


def index_stats(name: str, base: Path, recall: list[dict[str, Any]]) -> IndexStats:
    """Counts of the index of ``base`` (opened read-only) plus a summary of ``recall``."""
    path = index_path(base)
    stats = IndexStats(name, str(path), path.exists())
    _recall_summary(stats, recall)
    if not path.exists():
        stats.pending = len(scan(base))
        return stats
    stats.index_bytes = _size(path)
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=30.0)
    try:
        one = conn.execute
        stats.files = one("SELECT count(*) FROM files").fetchone()[0]
        stats.blocks = one("SELECT coalesce(sum(blocks), 0) FROM files").fetchone()[0]
        # Every block of a daily note has the note's date: only the other files are read.
        daily = one("SELECT coalesce(sum(blocks), 0) FROM files WHERE kind = 'daily'")
        others = visible_blocks(conn, "f.kind != 'daily'")
        stats.dated_blocks = daily.fetchone()[0] + sum(b.date is not None for _, b in others)
        stats.personal_files, stats.owners = one(
            "SELECT count(*), count(DISTINCT owner) FROM files WHERE scope = 'personal'"
        ).fetchone()
        stats.vectors = one("SELECT count(*) FROM vectors").fetchone()[0]
        stats.last_sync = meta_value(conn, "synced_at")
        disk = scan(base)
        if meta_value(conn, "format") != INDEX_FORMAT:
            stats.pending = len(disk)
        else:
            known = known_files(conn)
            changed = [
                rel
                for rel in stale_files(disk, known)
                if _differs(base / rel, known.get(rel), conn)
            ]
            stats.pending = len(changed) + len(known.keys() - disk.keys())
    except sqlite3.DatabaseError:
        stats.pending = len(scan(base))  # unreadable: the next search rebuilds it
    finally:
        conn.close()
    return stats


def _differs(path: Path, row: tuple[int, int, int, int] | None, conn: sqlite3.Connection) -> bool:
    """True unless the file still has the content the index holds (by hash)."""
    if row is None:
        return True
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() != indexed_digest(conn, row[0])
    except OSError:
        return True


def _recall_summary(stats: IndexStats, records: list[dict[str, Any]], top: int = 5) -> None:
    counts: Counter[str] = Counter()
    for record in records:
        hits = record.get("hits") or []
        stats.searches += 1
        stats.recalled += len(hits)
        stats.last_search = record.get("time", stats.last_search)
        for hit in hits:
            if isinstance(hit, dict) and "file" in hit:
                counts[str(hit["file"])] += 1
    stats.top_files = [{"file": f, "hits": n} for f, n in counts.most_common(top)]
