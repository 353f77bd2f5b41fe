"""Where things live, and the checks that keep every path inside the workspace."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from memclaw.errors import UnsafePathError, WorkspaceError

GLOBAL_DIR = "_global"
META_DIR = ".memclaw"
ENTRIES_DIR = "entries"  # memory entries, one file per category (``entries``)
# An import in progress (``snapshot.apply``); doctor tells of one a crash left.
IMPORT_JOURNAL = "import-journal.json"
# Letters, digits, dot, dash and underscore; must start with a letter or digit,
# which also rules out hidden names and reserved ones such as "_global".
_AGENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# Filesystems cap one name at 255 bytes; an atomic write adds ".", "." and an 8-character
# random part with ".tmp" for its temporary file, so a name is kept well under that.
MAX_NAME_BYTES = 200
# The whole relative name, so that root + agent + name stays far below PATH_MAX (4096).
MAX_PATH_BYTES = 1024


ROOT_MARKER = "memclaw.yaml"


@dataclass(frozen=True)
class RootChoice:
    """Which workspaces root memclaw uses, and why (``memclaw status`` says both)."""

    path: Path
    reason: str
    explicit: bool  # named by --root or $MEMCLAW_ROOT: a missing folder is then an error

    def told(self) -> str:
        """The root and why it was chosen, for messages: ``/x (--root)``."""
        return f"{self.path} ({self.reason})"


def locate_root(
    root: str | os.PathLike[str] | None,
    env: Mapping[str, str],
    cwd: Path | None = None,
    platform: str | None = None,
) -> RootChoice:
    """The workspaces root: --root, else $MEMCLAW_ROOT, else a ``workspaces/`` holding a
    ``memclaw.yaml`` in the current folder or a parent (as git finds ``.git``), else the
    per-user data folder. Nothing is created here: only ``memclaw init`` makes a root."""
    if root is not None:
        return RootChoice(_absolute(root), "--root", True)
    if env.get("MEMCLAW_ROOT"):
        return RootChoice(_absolute(env["MEMCLAW_ROOT"]), "$MEMCLAW_ROOT", True)
    here = (cwd or Path.cwd()).absolute()
    for folder in (here, *here.parents):
        if (folder / "workspaces" / ROOT_MARKER).is_file():
            where = "the current folder" if folder == here else str(folder)
            return RootChoice(
                folder / "workspaces", f"found workspaces/{ROOT_MARKER} in {where}", False
            )
    return RootChoice(
        user_data_root(env, platform),
        f"per-user data folder: no workspaces/{ROOT_MARKER} in {here} or a parent",
        False,
    )


def user_data_root(env: Mapping[str, str], platform: str | None = None) -> Path:
    """Where an agent lives when no project folder names a root."""
    home = Path(env.get("HOME") or Path.home())
    if (platform or sys.platform) == "darwin":
        return home / "Library" / "Application Support" / "memclaw"
    base = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else home / ".local" / "share"
    return _absolute(base / "memclaw" / "workspaces")


def check_root(choice: RootChoice, *, creating: bool = False) -> None:
    """Refuse a root named by --root or $MEMCLAW_ROOT that does not exist: a typo would
    otherwise read as an empty root. Only ``init`` (``creating``) may make one."""
    if creating or not choice.explicit or choice.path.is_dir():
        return
    if choice.path.exists():
        raise WorkspaceError(f"the root {choice.path} ({choice.reason}) is not a folder")
    raise WorkspaceError(
        f"the root {choice.path} ({choice.reason}) does not exist: check the path, "
        "or create it with `memclaw init AGENT`"
    )


def resolve_root(root: str | os.PathLike[str] | None, env: Mapping[str, str]) -> Path:
    """The workspaces root as a path (see ``locate_root`` for the order)."""
    return locate_root(root, env).path


def _absolute(path: str | os.PathLike[str]) -> Path:
    return Path(path).expanduser().absolute()


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
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # bytes of another encoding, as the shell passed them
        raise UnsafePathError(f"file name {name!r} is not UTF-8: rename it in UTF-8") from None
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


def check_state_inside(agent_path: Path) -> None:
    """Refuse an agent whose ``.memclaw/`` (or a folder in it) is a symlink: what memclaw
    keeps beside the files (facts, logs, the index) stays inside the agent's folder,
    like the memory files do, never wherever a link points."""
    meta = agent_path / META_DIR
    try:
        inside = [] if meta.is_symlink() else list(os.scandir(meta))
    except (FileNotFoundError, NotADirectoryError):
        return
    for link in [meta, *(Path(entry.path) for entry in inside)]:
        if link.is_symlink():
            raise UnsafePathError(
                f"{link} is a link to {os.readlink(link)}: memclaw keeps an agent's records "
                "inside its folder; replace the link with a folder holding its files"
            )
