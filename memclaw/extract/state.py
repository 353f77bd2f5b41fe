"""Cooldown and lock of post-chat extraction, shared by every process on the machine.

The time of the last run per owner lives in ``.memclaw/extract-state.json``
(written atomically); the lock is a non-blocking flock, so a second
extraction while one runs is skipped instead of queued.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.errors import LockBusyError
from memclaw.workspace.atomic import atomic_write, file_lock

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope

STATE_FILE = "extract-state.json"
TEAM_KEY = "(team)"


def owner_key(scope: Scope) -> str:
    """The state file's key: the owner who spoke (even without isolation), else the team."""
    return scope.owner or TEAM_KEY


def _state_path(agent: Agent) -> Path:
    return agent.meta_dir / STATE_FILE


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return {}  # a lost or torn state file only means one extra extraction
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items()}


def last_run(scope: Scope) -> datetime | None:
    stamp = _read(_state_path(scope.agent)).get(owner_key(scope))
    if not stamp:
        return None
    try:
        return datetime.fromisoformat(stamp)
    except ValueError:
        return None


def cooldown_left(scope: Scope) -> float:
    """Seconds until this scope may be extracted again (0 when free)."""
    agent = scope.agent
    minutes = agent.settings.extract_cooldown_minutes
    previous = last_run(scope)
    if previous is None or minutes <= 0:
        return 0.0
    now = agent.now()
    if (previous.tzinfo is None) != (now.tzinfo is None):
        previous = previous.replace(tzinfo=now.tzinfo)
    elapsed = (now - previous).total_seconds()
    if elapsed < 0:
        return 0.0  # the clock went backwards: do not block for ever
    return max(0.0, minutes * 60 - elapsed)


def mark_run(scope: Scope) -> None:
    agent = scope.agent
    path = _state_path(agent)
    with file_lock(path.with_suffix(".lock"), wait=10):
        state = _read(path)
        state[owner_key(scope)] = agent.now().isoformat()
        atomic_write(path, json.dumps(state, indent=2, sort_keys=True) + "\n")


@contextlib.contextmanager
def extraction_lock(scope: Scope) -> Iterator[bool]:
    """Yield True when this process holds the lock of the scope, False when it is busy."""
    digest = hashlib.sha256(scope.label.encode()).hexdigest()[:12]
    path = scope.agent.meta_dir / "locks" / f"extract-{digest}.lock"
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(file_lock(path, wait=0))
        except LockBusyError:
            held = False
        else:
            held = True
        yield held
