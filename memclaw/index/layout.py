"""Where the markdown files are and what each one is: scope, owner and kind.

The kind of a file (MEMORY.md, a daily note, PROFILE.md ...) selects its
ranking weight; block ids carry the kind in their high bits (see ``kind_range``).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
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
        count = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM blocks WHERE id BETWEEN ? AND ? LIMIT ?)",
            (lo, hi, cap + 1),
        ).fetchone()[0]
        if count:
            found.append(Group(kinds, lo, hi, count <= cap))
    return found


class FileState(NamedTuple):
    size: int
    mtime_ns: int


def scan(base: Path) -> dict[str, FileState]:
    """Every visible markdown file under ``base``: no hidden names, no symlinks.

    This runs before every search (one stat per file), so it stays lean.
    """
    found: dict[str, FileState] = {}
    stack = [(str(base), "")]
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
                    stack.append((entry.path, f"{prefix}{name}/"))
    return found


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
