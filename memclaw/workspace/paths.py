"""Where things live, and the checks that keep every path inside the workspace."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from memclaw.errors import UnsafePathError

GLOBAL_DIR = "_global"
META_DIR = ".memclaw"
# Letters, digits, dot, dash and underscore; must start with a letter or digit,
# which also rules out hidden names and reserved ones such as "_global".
_AGENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# Filesystems cap one name at 255 bytes; an atomic write adds ".", "." and an 8-character
# random part with ".tmp" for its temporary file, so a name is kept well under that.
MAX_NAME_BYTES = 200
# The whole relative name, so that root + agent + name stays far below PATH_MAX (4096).
MAX_PATH_BYTES = 1024


def resolve_root(root: str | os.PathLike[str] | None, env: Mapping[str, str]) -> Path:
    """The workspaces root: explicit flag, else $MEMCLAW_ROOT, else ./workspaces."""
    chosen = root if root is not None else env.get("MEMCLAW_ROOT") or "workspaces"
    return Path(chosen).expanduser().absolute()


def validate_agent_id(agent_id: str) -> str:
    """Return ``agent_id`` unchanged if it is a safe folder name, else raise."""
    if not agent_id:
        raise UnsafePathError("agent id is empty: name the agent, e.g. `memclaw init demo`")
    if _CONTROL.search(agent_id):
        raise UnsafePathError("agent id contains control characters: use letters and digits")
    if ".." in agent_id or "/" in agent_id or "\\" in agent_id:
        raise UnsafePathError(f"agent id {agent_id!r} may not contain '..', '/' or '\\'")
    if not _AGENT_ID.fullmatch(agent_id):
        raise UnsafePathError(
            f"agent id {agent_id!r} is not allowed: use 1-64 letters, digits, '.', '-' or '_', "
            "starting with a letter or digit"
        )
    return agent_id


def validate_relpath(name: str, *, md_only: bool = True) -> PurePosixPath:
    """Check a file name given relative to an agent folder, e.g. ``memory/2026-11-29.md``."""
    if not name or not name.strip():
        raise UnsafePathError("file name is empty: give a path such as MEMORY.md")
    if _CONTROL.search(name):
        raise UnsafePathError(f"file name {name!r} contains control characters")
    if "\\" in name:
        raise UnsafePathError(f"file name {name!r} contains a backslash: use '/'")
    if name.startswith("/") or re.match(r"[A-Za-z]:", name):
        raise UnsafePathError(f"file name {name!r} is absolute: give it relative to the agent")
    path = PurePosixPath(name)
    if not path.parts:  # "." or "./": the agent folder itself, not a file in it
        raise UnsafePathError(f"file name {name!r} names no file: give a path such as MEMORY.md")
    if any(part == ".." for part in path.parts):
        raise UnsafePathError(f"file name {name!r} contains '..': stay inside the agent folder")
    if any(part.startswith(".") for part in path.parts):
        raise UnsafePathError(f"file name {name!r} names a hidden file or folder")
    if md_only and path.suffix != ".md":
        raise UnsafePathError(f"file name {name!r} is not a markdown file: only .md is allowed")
    _check_length(name, path)
    return path


def _check_length(name: str, path: PurePosixPath) -> None:
    """Refuse names the filesystem would reject, before anything is created for them."""
    shown = name if len(name) <= 60 else name[:59] + "…"
    if len(name.encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES:
        raise UnsafePathError(
            f"file name {shown!r} is longer than {MAX_PATH_BYTES} bytes: use a shorter path"
        )
    for part in path.parts:
        if len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            raise UnsafePathError(
                f"file name {shown!r} has a part longer than {MAX_NAME_BYTES} bytes: "
                "use a shorter name"
            )


def resolve_inside(base: Path, name: str, *, md_only: bool = True) -> Path:
    """Resolve ``name`` under ``base``; refuse anything, symlinks included, that escapes."""
    rel = validate_relpath(name, md_only=md_only)
    candidate = base.joinpath(*rel.parts)
    real_base = base.resolve()
    real = candidate.resolve()
    if not real.is_relative_to(real_base):
        raise UnsafePathError(f"file name {name!r} resolves outside the agent folder")
    return candidate
