"""Bring an index up to date at a cost in proportion to what changed.

Every search:

* trusts a running ``memclaw watch`` (``marker``) and checks nothing;
* otherwise stats each folder seen at the last sweep: a folder whose time moved
  had a name added, removed or renamed inside (including an editor's
  save-by-rename), and only that folder is listed again;
* stats the hot set: core files, the newest daily notes, the most recently
  modified files (``state.hot_set``);
* and once ``sweep_seconds`` have passed since the last full sweep (by the
  workspace clock), checks every file as before.

So an edit is seen by the next search when it adds, removes or renames a file or
touches a hot file, and any other edit (in place, to an old note) within
``sweep_seconds``: that is the bound the README states and the tests prove.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from memclaw.index.fresh.marker import watched
from memclaw.index.fresh.state import UNSETTLED, FreshState, load, save
from memclaw.index.layout import FileState, file_state, folder_mtime, list_folder, scan
from memclaw.index.store import INDEX_FORMAT, SyncStats, meta_value, rebuild, sync, sync_paths


def sweep(
    conn: sqlite3.Connection,
    base: Path,
    *,
    is_global: bool,
    now: datetime,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> SyncStats:
    """Check every file (``force``: rebuild from nothing) and record what was seen."""
    dirs: dict[str, int] = {}
    stamp = now.isoformat(timespec="seconds")
    if force:
        stats = rebuild(conn, base, is_global=is_global, now=stamp, progress=progress, dirs=dirs)
    else:
        stats = sync(conn, base, is_global=is_global, now=stamp, dirs=dirs)
    save(conn, FreshState(now, dirs))
    return stats


def bring_up_to_date(
    conn: sqlite3.Connection,
    base: Path,
    *,
    is_global: bool,
    now: datetime,
    sweep_seconds: float,
) -> SyncStats:
    """What a search runs first; see the module docstring."""
    if watched(base, now):
        return SyncStats()
    state = load(conn)
    if (
        state is None
        or sweep_seconds <= 0
        or meta_value(conn, "format") != INDEX_FORMAT
        or not timedelta(0) <= now - state.swept < timedelta(seconds=sweep_seconds)
    ):
        return sweep(conn, base, is_global=is_global, now=now)
    disk: dict[str, FileState] = {}
    listed: set[str] = set()
    dirs = dict(state.dirs)
    for prefix, seen in state.dirs.items():
        mtime = folder_mtime(base, prefix)
        if mtime == seen and seen != UNSETTLED:
            continue
        listed.add(prefix)
        if mtime is None:  # gone: every file that was directly inside is gone too
            dirs.pop(prefix)
            continue
        dirs[prefix] = mtime
        files, subfolders = list_folder(base, prefix)
        disk.update(files)
        for sub in subfolders:
            if sub not in state.dirs:  # new: everything under it is new
                found: dict[str, int] = {}
                disk.update(scan(base, found, sub))
                listed.update(found)
                dirs.update(found)
    root = str(base)  # (a Path per hot file cost as much as its stat)
    for rel in state.hot:
        if rel not in disk:
            st = file_state(f"{root}/{rel}")
            if st is not None:
                disk[rel] = st
            else:  # gone: its folder's listing (taken above or now) says so
                folder = rel.rpartition("/")[0]
                prefix = f"{folder}/" if folder else ""
                if prefix not in listed:
                    listed.add(prefix)
                    disk.update(list_folder(base, prefix)[0])
    stats = sync_paths(
        conn, base, disk, listed, is_global=is_global, now=now.isoformat(timespec="seconds")
    )
    if listed or stats.dirty:
        save(conn, FreshState(state.swept, dirs))
    return stats
