"""Where the markdown files are and what each one is: scope, owner and kind.

The kind of a file (MEMORY.md, a daily note, PROFILE.md ...) selects its
ranking weight; block ids carry the kind in their high bits (see ``kind_range``).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from stat import S_ISDIR as stat_is_dir
from stat import S_ISREG as stat_is_file
from typing import NamedTuple

from memclaw.index.blocks import file_date
from memclaw.workspace.owners import OwnerKey, Visibility, owner_from_dirname

OWNERS_DIR = "owners"
# Block ids carry their file kind in the high bits, so the daily notes (most of any big
# workspace) and everything else (one contiguous id range) can each be ranked alone
# with a cheap rowid range on the full-text index.
KINDS = ("daily", "memory", "entries", "profile", "agents", "other")
_KIND_SHIFT = 40


def kind_range(kind: str) -> tuple[int, int]:
    """First and last block id of ``kind``."""
    base = (KINDS.index(kind) + 1) << _KIND_SHIFT
    return base, base + (1 << _KIND_SHIFT) - 1


class Group(NamedTuple):
    """Kinds ranked together: their id range, and whether it holds at most ``cap`` blocks."""

    kinds: tuple[str, ...]
    lo: int
    hi: int
    small: bool


def groups(conn: sqlite3.Connection, cap: int) -> list[Group]:
    """The non-empty groups of an index: daily notes, and every other file."""
    found = []
    for kinds in (KINDS[:1], KINDS[1:]):
        lo, hi = kind_range(kinds[0])[0], kind_range(kinds[-1])[1]
        # (every file counted holds a block: ``cap + 1`` files are more than ``cap`` blocks)
        count = conn.execute(
            "SELECT coalesce(sum(blocks), 0) FROM (SELECT blocks FROM files"
            " WHERE first_block BETWEEN ? AND ? AND blocks > 0 LIMIT ?)",
            (lo, hi, cap + 1),
        ).fetchone()[0]
        if count:
            found.append(Group(kinds, lo, hi, count <= cap))
    return found


class FileState(NamedTuple):
    size: int
    mtime_ns: int


def scan(base: Path, dirs: dict[str, int] | None = None, prefix: str = "") -> dict[str, FileState]:
    """Every visible markdown file under ``base`` (or its folder ``prefix``, such as
    "memory/"): no hidden names, no symlinks. ``dirs`` receives the modification time
    of each folder listed, taken before it is listed, keyed by prefix.

    A full sweep is one stat per file, so it stays lean.
    """
    found: dict[str, FileState] = {}
    stack = [(str(base / prefix) if prefix else str(base), prefix)]
    if dirs is not None:
        mtime = folder_mtime(base, prefix)
        if mtime is None:
            return found
        dirs[prefix] = mtime
    while stack:
        folder, prefix = stack.pop()
        try:
            entries = os.scandir(folder)
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            continue
        with entries:
            for entry in entries:
                name = entry.name
                if name[0] == ".":
                    continue
                # follow_symlinks=False: a symlink is neither a file nor a folder here.
                if name.endswith(".md") and entry.is_file(follow_symlinks=False):
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except FileNotFoundError:
                        continue
                    found[prefix + name] = FileState(st.st_size, st.st_mtime_ns)
                elif entry.is_dir(follow_symlinks=False):
                    sub = f"{prefix}{name}/"
                    if dirs is not None:
                        try:
                            dirs[sub] = entry.stat(follow_symlinks=False).st_mtime_ns
                        except FileNotFoundError:
                            continue
                    stack.append((entry.path, sub))
    return found


def list_folder(base: Path, prefix: str) -> tuple[dict[str, FileState], dict[str, int]]:
    """The markdown files directly inside one folder, and its sub-folders' mtimes."""
    files: dict[str, FileState] = {}
    folders: dict[str, int] = {}
    try:
        entries = os.scandir(base / prefix if prefix else base)
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return files, folders
    with entries:
        for entry in entries:
            name = entry.name
            if name[0] == ".":
                continue
            try:
                if name.endswith(".md") and entry.is_file(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                    files[prefix + name] = FileState(st.st_size, st.st_mtime_ns)
                elif entry.is_dir(follow_symlinks=False):
                    folders[f"{prefix}{name}/"] = entry.stat(follow_symlinks=False).st_mtime_ns
            except FileNotFoundError:
                continue
    return files, folders


def folder_mtime(base: Path, prefix: str) -> int | None:
    """A folder's modification time (it changes when a name inside is added, removed
    or renamed, not when a file's content changes), or None when it is gone."""
    try:
        st = os.stat(base / prefix if prefix else base, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return None
    return st.st_mtime_ns if stat_is_dir(st.st_mode) else None


def file_state(path: str | Path) -> FileState | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return None
    return FileState(st.st_size, st.st_mtime_ns) if stat_is_file(st.st_mode) else None


def classify(rel: str, is_global: bool) -> tuple[str, Visibility, OwnerKey | None]:
    """(kind, scope, owner) of a file; kind selects the ranking weight."""
    scope, owner, inner = (Visibility.GLOBAL if is_global else Visibility.TEAM), None, rel
    parts = rel.split("/")
    if not is_global and len(parts) >= 3 and parts[0] == OWNERS_DIR:
        scope, owner, inner = Visibility.PERSONAL, owner_from_dirname(parts[1]), "/".join(parts[2:])
    if inner == "MEMORY.md":
        kind = "memory"
    elif inner.startswith("entries/"):
        kind = "entries"
    elif inner.startswith("memory/") and file_date(inner):
        kind = "daily"
    elif inner == "PROFILE.md":
        kind = "profile"
    elif inner == "AGENTS.md":
        kind = "agents"
    else:
        kind = "other"
    return kind, scope, owner
