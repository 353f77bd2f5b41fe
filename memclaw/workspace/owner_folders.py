"""Move personal folders named by an older owner encoding to their current name.

Folder names used to keep an id's upper-case letters as they were
(``user%3AMaya``). On a case-insensitive filesystem that is the folder of
``user:maya`` too, so one owner could read another's memory. Current names
escape upper-case letters (``user%3A%4Daya``) and keys are NFKC-normalised;
this renames old folders once, when an agent is opened, before any owner's
folder is looked up. A folder whose new name is already taken is left where it
is: two folders are never merged blindly, and nothing is deleted.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memclaw.errors import UsageError
from memclaw.workspace.owners import (
    OWNERS_DIR,
    legacy_owner_dirname,
    normalise_owner,
    owner_dirname,
    owner_from_dirname,
)

if TYPE_CHECKING:
    from pathlib import Path

    from memclaw.workspace.agent import Agent


def _renames(folder: Path) -> list[tuple[str, str]]:
    """(old name, new name) of every folder written by the legacy encoding."""
    found = []
    for path in sorted(folder.iterdir()):
        if not path.is_dir() or path.is_symlink():
            continue
        raw = owner_from_dirname(path.name)
        channel = raw.partition(":")[0]
        if path.name != legacy_owner_dirname(raw) or channel != channel.lower():
            continue  # not a name memclaw wrote (it lower-cased channels): leave it alone
        try:
            new = owner_dirname(normalise_owner(raw))
        except UsageError:
            continue
        if new != path.name:
            found.append((path.name, new))
    return found


def migrate_owner_folders(agent: Agent) -> list[tuple[str, str]]:
    """Rename legacy owner folders of ``agent``; returns what moved (usually nothing)."""
    folder = agent.path / OWNERS_DIR
    if not folder.is_dir() or not _renames(folder):
        return []
    moved = []
    with agent.lock():
        for old, new in _renames(folder):
            if (folder / new).exists():
                continue  # taken (or the same folder on a case-insensitive disk)
            try:
                os.rename(folder / old, folder / new)
            except FileNotFoundError:
                continue  # another process moved it first
            moved.append((old, new))
    return moved
