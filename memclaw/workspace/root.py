"""The workspaces root: its settings, the agents in it, and making a new one."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memclaw.clock import Clock, system_clock
from memclaw.config import Settings, load_settings
from memclaw.errors import (
    AgentNotFoundError,
    UnsafePathError,
    WorkspaceError,
)
from memclaw.workspace.agent import DAILY_DIR, Agent
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.meta import load_meta, save_meta
from memclaw.workspace.owner_folders import migrate_owner_folders
from memclaw.workspace.owners import OWNERS_DIR
from memclaw.workspace.paths import (
    GLOBAL_DIR,
    META_DIR,
    RootChoice,
    check_state_inside,
    locate_root,
    validate_agent_id,
)
from memclaw.workspace.templates import SEED_FILES

# Folders of the agent layout; any one of them (or a core file) marks a folder as an agent.
_AGENT_DIRS = (META_DIR, DAILY_DIR, OWNERS_DIR, "entries", "sessions")


class Workspace:
    """A workspaces root holding one folder per agent plus ``_global/``."""

    def __init__(
        self,
        root: Path,
        settings: Settings,
        clock: Clock = system_clock,
        root_choice: RootChoice | None = None,
    ) -> None:
        self.root = root
        self.settings = settings
        self.clock = clock
        self.root_choice = root_choice or RootChoice(root, "named by the caller", True)

    @classmethod
    def open(
        cls,
        root: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        overrides: Mapping[str, Any] | None = None,
        clock: Clock = system_clock,
    ) -> Workspace:
        env = os.environ if env is None else env
        choice = locate_root(root, env)
        return cls(choice.path, load_settings(choice.path, env, overrides), clock, choice)

    @property
    def global_dir(self) -> Path:
        return self.root / GLOBAL_DIR

    def agent_ids(self) -> list[str]:
        if not self.root.is_dir():
            return []
        ids = []
        for child in sorted(self.root.iterdir()):
            if not child.name.startswith(("_", ".")) and looks_like_agent(child):
                with contextlib.suppress(UnsafePathError):
                    ids.append(validate_agent_id(child.name))
        return ids

    def agent(self, agent_id: str) -> Agent:
        path = self.root / validate_agent_id(agent_id)
        if not looks_like_agent(path):
            # An unrelated folder (a root of ``~`` holds ``Documents/``) is not an agent:
            # opening it would create ``.memclaw/`` inside it.
            from difflib import get_close_matches  # only for this message: not on every open

            close = get_close_matches(agent_id, self.agent_ids(), n=1)
            hint = f"did you mean {close[0]!r}? Or " if close else ""
            # Say which root was searched and why: an agent "missing" because discovery
            # picked another root than the person expected is the common case.
            elsewhere = "" if self.root_choice.explicit else ", or name the root with --root"
            raise AgentNotFoundError(
                f"no agent {agent_id!r} under {self.root_choice.told()}: "
                f"{hint}create it with `memclaw init {agent_id}`{elsewhere}"
            )
        check_state_inside(path)
        agent = Agent(self, agent_id, path)
        migrate_owner_folders(agent)  # before any owner's folder is looked up
        return agent

    def init_agent(self, agent_id: str) -> tuple[Agent, list[str]]:
        """Create an agent with its four seeded core files; existing files are kept."""
        path = self.root / validate_agent_id(agent_id)
        if self.root.exists() and not self.root.is_dir():
            raise WorkspaceError(f"the root {self.root} is not a folder: pass --root a folder")
        if path.exists() and not path.is_dir():
            raise WorkspaceError(f"{path} exists and is not a folder: choose another agent id")
        agent = Agent(self, agent_id, path)
        created = []
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a parent is a file, read-only, or otherwise unusable
            raise WorkspaceError(
                f"cannot create {path} ({exc.strerror}): pass --root a folder you can write to"
            ) from exc
        with agent.lock():
            for name, content in SEED_FILES.items():
                if not (path / name).exists():
                    atomic_write(path / name, content)
                    created.append(name)
            if not agent.meta_path.exists():
                save_meta(agent.meta_path, load_meta(agent.meta_path))
        return agent, created


def looks_like_agent(path: Path) -> bool:
    """An agent folder holds a core file, or a folder only memclaw's layout has."""
    if not path.is_dir():
        return False
    return any((path / name).is_file() for name in (*SEED_FILES, "DREAMS.md")) or any(
        (path / name).is_dir() for name in _AGENT_DIRS
    )
