"""Owners and visibility scopes.

Any identity (a web user, a chat sender on a channel, an API end user, the
system itself) is normalised to one owner key such as ``user:42`` or
``telegram:alice``. PERSONAL memory is visible to its owner only, TEAM memory to
everyone using the agent, GLOBAL memory to every agent.
"""

from __future__ import annotations

import os
import re
import string
import unicodedata
from enum import StrEnum
from typing import TYPE_CHECKING, NewType
from urllib.parse import quote, unquote

from memclaw.errors import UsageError

if TYPE_CHECKING:
    from pathlib import Path

    from memclaw.workspace.folder import Folder

SYSTEM_OWNER = "system"
OWNERS_DIR = "owners"  # <agent>/owners/<owner folder>/ holds one owner's PERSONAL memory
_CHANNEL = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# Most filesystems cap one path component at 255 bytes; quoting can triple the length.
_MAX_DIRNAME = 255


# A normalised owner key: only normalise_owner makes one, so a raw identity cannot slip inward.
OwnerKey = NewType("OwnerKey", str)


class Visibility(StrEnum):
    PERSONAL = "personal"
    TEAM = "team"
    GLOBAL = "global"


def normalise_owner(identity: str) -> OwnerKey:
    """Turn ``alice``, ``User:alice``, ``telegram:123`` or ``api:u-9`` into an owner key.

    A bare id means a user of this installation (``user:<id>``); the channel
    part is lower-cased, the id keeps its case because ids are case-sensitive.
    Both are NFKC-normalised first: a full-width or composed spelling of a
    name is the same owner as its plain spelling, never a second folder.
    """
    raw = unicodedata.normalize("NFKC", identity).strip()
    if not raw:
        raise UsageError("owner is empty: pass an identity such as user:alice")
    if _CONTROL.search(raw) or len(raw) > 200:
        raise UsageError("owner must be at most 200 printable characters")
    if raw.lower() == SYSTEM_OWNER:
        return OwnerKey(SYSTEM_OWNER)
    channel, sep, ident = raw.partition(":")
    if not sep:
        channel, ident = "user", raw
    channel, ident = channel.strip().lower(), ident.strip()
    if not _CHANNEL.fullmatch(channel) or not ident:
        raise UsageError(
            f"owner {identity!r} is not valid: use user:<id>, <channel>:<sender>, "
            "api:<endUserId> or system"
        )
    key = f"{channel}:{ident}"
    if len(owner_dirname(key)) > _MAX_DIRNAME:
        raise UsageError(f"owner {identity!r} is too long to be stored: use a shorter id")
    return OwnerKey(key)


_SAFE = "@+-_."


def owner_dirname(owner_key: str) -> str:
    """A reversible, filesystem-safe folder name for an owner key.

    The name is plain ASCII in which every upper-case letter is escaped too
    (``user:Maya`` -> ``user%3A%4Daya``): ids are case-sensitive, but macOS and
    Windows folders are not, so two keys that differ only in case must never
    get names that differ only in case. Escapes are the only upper-case letters
    left, so lower-casing a name stays reversible: no two keys collide.
    """
    return "".join(
        f"%{ord(ch):02X}" if ch in string.ascii_uppercase else quote(ch, safe=_SAFE)
        for ch in owner_key
    )


def legacy_owner_dirname(owner_key: str) -> str:
    """The folder name before upper-case letters were escaped (still read, then migrated)."""
    return quote(owner_key, safe=_SAFE)


def owner_from_dirname(name: str) -> OwnerKey:
    """The owner key of a folder name, in either the current or the legacy spelling."""
    return OwnerKey(unquote(name))


def fold_path_part(part: str) -> str:
    """How a case- and normalisation-insensitive filesystem may see one path component.

    Compare folded parts to decide whether two spellings could reach the same
    folder (``OWNERS``, ``ｏｗｎｅｒｓ`` and ``owners`` all fold alike).
    """
    return unicodedata.normalize("NFKC", part).casefold()


# Move personal folders named by an older owner encoding to their current name.
#
# Folder names used to keep an id's upper-case letters as they were
# (``user%3AMaya``). On a case-insensitive filesystem that is the folder of
# ``user:maya`` too, so one owner could read another's memory. Current names
# escape upper-case letters (``user%3A%4Daya``) and keys are NFKC-normalised;
# this renames old folders once, when an agent is opened, before any owner's
# folder is looked up. A folder whose new name is already taken is left where it
# is: two folders are never merged blindly, and nothing is deleted.


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


def migrate_owner_folders(agent: Folder) -> list[tuple[str, str]]:
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
