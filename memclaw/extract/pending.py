"""Conversations waiting to be extracted: held back by the cooldown, cut off at the end of
a chat that could not wait for its extraction, or failed by the model.

A queued session is a row of the ledger's ``pending-extract`` document (its id, its
owner, why it waits, how often the model failed it); the next chat or dream of the
agent extracts it, and ``memclaw doctor`` shows what still waits. Each change to the
queue is one transaction, so a chat queueing while a dream takes a row out loses
neither. Losing it would lose no memory, only a deferred extraction that
``memclaw extract AGENT --session ID`` can still do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memclaw.workspace import ledger

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope

PENDING = "pending-extract"
Row = dict[str, Any]


def _rows(document: Any) -> list[Row]:
    rows = document if isinstance(document, list) else []
    return [r for r in rows if isinstance(r, dict) and isinstance(r.get("session"), str)]


def read_rows(agent: Agent) -> list[Row]:
    return _rows(ledger.load(agent.meta_dir, PENDING)[0])


def _change(agent: Agent, change: Callable[[list[Row]], list[Row]]) -> list[Row]:
    rows: list[Row] = ledger.update(agent.meta_dir, PENDING, lambda d: change(_rows(d)))
    return rows


def _same(a: Row, b: Row) -> bool:
    return a["session"] == b["session"] and a.get("owner") == b.get("owner")


def queue_session(scope: Scope, session_id: str, why: str = "cooldown") -> None:
    """Remember that ``session_id`` of this scope waits to be extracted, and why."""
    row: Row = {"session": session_id, "owner": scope.owner, "why": why}

    def queued(rows: list[Row]) -> list[Row]:
        for known in (r for r in rows if _same(r, row)):
            known["why"] = why  # the latest reason is the one `doctor` tells
            return rows
        return [*rows, row]

    _change(scope.agent, queued)


def note_failure(agent: Agent, row: Row, error: str) -> int:
    """One more failed try of a queued conversation; how many there have been."""

    def failed(rows: list[Row]) -> list[Row]:
        for r in rows:
            if _same(r, row):
                r["tries"] = int(r.get("tries") or 0) + 1
                r["error"] = error[:300]
        return rows

    rows = _change(agent, failed)
    return max((int(r["tries"]) for r in rows if _same(r, row)), default=1)


def remove_row(agent: Agent, row: Row) -> None:
    """Drop one queued conversation; rows queued meanwhile by others stay."""
    _change(agent, lambda rows: [r for r in rows if not _same(r, row)])


def pending_sessions(agent: Agent) -> list[tuple[str | None, str]]:
    """(owner, session id) of every queued conversation."""
    return [(row.get("owner"), str(row["session"])) for row in read_rows(agent)]
