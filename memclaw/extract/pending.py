"""Conversations waiting to be extracted: held back by the cooldown, cut off at the end of
a chat that could not wait for its extraction, or failed by the model.

A queued session is a row of ``.memclaw/pending-extract.jsonl`` (its id, its owner, why it
waits, how often the model failed it); the next chat or dream of the agent extracts it,
and ``memclaw doctor`` shows what still waits. The file is small and rebuildable in the
sense that matters: losing it loses no memory, only a deferred extraction that
``memclaw extract AGENT --session ID`` can still do.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.text import jsonsafe
from memclaw.workspace.atomic import atomic_write, file_lock

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope

PENDING_FILE = "pending-extract.jsonl"
Row = dict[str, Any]


def pending_path(agent: Agent) -> Path:
    return agent.meta_dir / PENDING_FILE


def read_rows(agent: Agent) -> list[Row]:
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


def write_rows(agent: Agent, rows: list[Row]) -> None:
    path = pending_path(agent)
    if not rows:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, "".join(json.dumps(row) + "\n" for row in rows))


def _queue_lock(agent: Agent) -> contextlib.AbstractContextManager[None]:
    # Its own short lock: a chat queues while an extraction may hold the agent lock.
    return file_lock(pending_path(agent).with_suffix(".lock"), wait=10)


def _same(a: Row, b: Row) -> bool:
    return a["session"] == b["session"] and a.get("owner") == b.get("owner")


def queue_session(scope: Scope, session_id: str, why: str = "cooldown") -> None:
    """Remember that ``session_id`` of this scope waits to be extracted, and why."""
    row: Row = {"session": session_id, "owner": scope.owner, "why": why}
    with _queue_lock(scope.agent):
        rows = read_rows(scope.agent)
        for known in (r for r in rows if _same(r, row)):
            known["why"] = why  # the latest reason is the one `doctor` tells
            break
        else:
            rows.append(row)
        write_rows(scope.agent, rows)


def note_failure(agent: Agent, row: Row, error: str) -> int:
    """One more failed try of a queued conversation; how many there have been."""
    with _queue_lock(agent):
        rows = read_rows(agent)
        tries = 1
        for r in rows:
            if _same(r, row):
                tries = r["tries"] = int(r.get("tries") or 0) + 1
                r["error"] = error[:300]
        write_rows(agent, rows)
    return tries


def remove_row(agent: Agent, row: Row) -> None:
    """Drop one queued conversation; rows queued meanwhile by others stay."""
    with _queue_lock(agent):
        write_rows(agent, [r for r in read_rows(agent) if not _same(r, row)])


def pending_sessions(agent: Agent) -> list[tuple[str | None, str]]:
    """(owner, session id) of every queued conversation."""
    return [(row.get("owner"), str(row["session"])) for row in read_rows(agent)]
