"""What the last sweep saw, kept in the index's meta table: when it ran, each folder's
modification time, and the files worth a stat on every search (the hot set)."""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from memclaw.index.schema import rollback
from memclaw.index.store import file_clock, meta_value, set_meta

STATE_KEY = "freshness"
# A folder modified this close to the moment its time was read may change again within
# one timestamp tick unseen: such a time is not recorded, so the folder is listed again.
RACY_NS = 2_000_000_000
UNSETTLED = -1
NEWEST_DAILY = 8  # the latest daily notes by date: where today's edits go
RECENT = 32  # the most recently modified files, whatever they are
MAX_CORE = 64


@dataclass
class FreshState:
    swept: datetime  # when every file was last checked (the workspace clock)
    dirs: dict[str, int] = field(default_factory=dict)  # folder prefix -> mtime_ns
    hot: list[str] = field(default_factory=list)  # files checked on every search


def load(conn: sqlite3.Connection) -> FreshState | None:
    raw = meta_value(conn, STATE_KEY)
    if not raw:
        return None
    try:
        data = json.loads(raw)
        swept = datetime.fromisoformat(data["swept"])
        dirs = {str(k): int(v) for k, v in data["dirs"].items()}
        hot = [str(p) for p in data["hot"]]
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # unreadable: the caller sweeps and writes a new one
    return FreshState(swept, dirs, hot)


def save(conn: sqlite3.Connection, state: FreshState) -> None:
    """Record ``state`` (one short write transaction), with a fresh hot set."""
    database = conn.execute("PRAGMA database_list").fetchone()[2]
    now = file_clock(Path(database)) if database else time.time_ns()
    dirs = {k: (UNSETTLED if now - v < RACY_NS else v) for k, v in state.dirs.items()}
    conn.execute("BEGIN IMMEDIATE")
    try:
        hot = hot_set(conn)
        payload = {"swept": state.swept.isoformat(), "dirs": dirs, "hot": hot}
        set_meta(conn, STATE_KEY, json.dumps(payload, separators=(",", ":")))
    except BaseException:
        rollback(conn)
        raise
    conn.execute("COMMIT")
    state.dirs, state.hot = dirs, hot


def hot_set(conn: sqlite3.Connection) -> list[str]:
    """Core files (any markdown file at the top of the agent or of an owner's folder),
    the newest daily notes by date and the most recently modified files. Sorted in
    SQL: this runs after every sync that changed something."""
    others = conn.execute("SELECT path, mtime_ns FROM files WHERE kind != 'daily'").fetchall()
    core = sorted((r for r in others if "/" not in _inner(r[0])), key=lambda r: -r[1])
    daily = conn.execute(
        "SELECT path FROM files WHERE kind = 'daily' ORDER BY substr(path, -13) DESC LIMIT ?",
        (NEWEST_DAILY,),
    ).fetchall()
    recent = conn.execute(
        "SELECT path FROM files ORDER BY mtime_ns DESC LIMIT ?", (RECENT,)
    ).fetchall()
    chosen = [r[0] for r in core[:MAX_CORE]] + [r[0] for r in daily] + [r[0] for r in recent]
    return list(dict.fromkeys(chosen))


def _inner(rel: str) -> str:
    """A path inside an owner's folder without ``owners/<owner>/``."""
    parts = rel.split("/", 2)
    return parts[2] if len(parts) == 3 and parts[0] == "owners" else rel
