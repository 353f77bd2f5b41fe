"""Conversations held back by the extraction cooldown, extracted once it ends.

A chat that ends inside the cooldown is not dropped: its session id goes into
``.memclaw/pending-extract.jsonl`` and the next chat or dream of the agent
extracts it when the cooldown is over. The file is small and rebuildable in
the sense that matters: losing it loses no memory, only a deferred extraction
that ``memclaw extract AGENT --session ID`` can still do.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from memclaw.text import jsonsafe
from memclaw.workspace.atomic import atomic_write, file_lock

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope

PENDING_FILE = "pending-extract.jsonl"


def pending_path(agent: Agent) -> Path:
    return agent.meta_dir / PENDING_FILE


def read_rows(agent: Agent) -> list[dict[str, str | None]]:
    path = pending_path(agent)
    if not path.is_file():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = jsonsafe.loads(line)
        except json.JSONDecodeError:
            continue  # a torn line; the others still count
        if isinstance(row, dict) and isinstance(row.get("session"), str):
            rows.append(row)
    return rows


def write_rows(agent: Agent, rows: list[dict[str, str | None]]) -> None:
    path = pending_path(agent)
    if not rows:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, "".join(json.dumps(row) + "\n" for row in rows))


def _queue_lock(agent: Agent) -> contextlib.AbstractContextManager[None]:
    # Its own short lock: a chat queues while an extraction may hold the agent lock.
    return file_lock(pending_path(agent).with_suffix(".lock"), wait=10)


def queue_session(scope: Scope, session_id: str) -> None:
    """Remember that ``session_id`` of this scope waits for the cooldown to end."""
    row: dict[str, str | None] = {"session": session_id, "owner": scope.owner}
    with _queue_lock(scope.agent):
        rows = read_rows(scope.agent)
        if row not in rows:
            write_rows(scope.agent, [*rows, row])


def remove_row(agent: Agent, row: dict[str, str | None]) -> None:
    """Drop one queued conversation; rows queued meanwhile by others stay."""
    with _queue_lock(agent):
        write_rows(agent, [r for r in read_rows(agent) if r != row])


def pending_sessions(agent: Agent) -> list[tuple[str | None, str]]:
    """(owner, session id) of every queued conversation."""
    return [(row.get("owner"), str(row["session"])) for row in read_rows(agent)]
