"""Cooldown and lock of post-chat extraction, shared by every process on the machine.

The time of the last run per owner is the ledger's ``extract-state`` document;
the lock is a non-blocking flock, so a second extraction while one runs is
skipped instead of queued.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memclaw.errors import LockBusyError
from memclaw.workspace import ledger
from memclaw.workspace.atomic import file_lock

if TYPE_CHECKING:
    from memclaw.workspace.scope import Scope

STATE = "extract-state"
TEAM_KEY = "(team)"


def owner_key(scope: Scope) -> str:
    """The state's key: the owner who spoke (even without isolation), else the team."""
    return scope.owner or TEAM_KEY


def _runs(data: Any) -> dict[str, str]:
    if not isinstance(data, dict):
        return {}  # none yet, or damaged: that only means one extra extraction
    return {str(k): str(v) for k, v in data.items()}


def last_run(scope: Scope) -> datetime | None:
    stamp = _runs(ledger.load(scope.agent.meta_dir, STATE)[0]).get(owner_key(scope))
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
    now = scope.agent.now().isoformat()
    ledger.update(scope.agent.meta_dir, STATE, lambda data: {**_runs(data), owner_key(scope): now})


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
