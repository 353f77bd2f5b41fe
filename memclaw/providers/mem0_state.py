"""Which turns have reached Mem0: the record that makes syncing idempotent and resumable.

The ledger's ``mem0-sync`` document maps ``<owner folder>/<session id>`` to the
indexes of the session's turns Mem0 has accepted. The live worker and
``memclaw mem0 sync`` both add to it in one transaction each, so a turn is sent
once, and a turn that was not sent (Mem0 down, queue full, chat closed before
the queue drained) is found and sent by the next back-fill. ``mem0 sync
--again`` forgets it, and so sends everything again.

The ``uncaptured`` document has the same shape and lists the turns that must
never leave the machine: those of ``--no-capture`` chats and of scheduled
(``--trigger cron``) or subagent runs, which a session id alone does not always
reveal. The chat marks each such turn as it is stored, whether or not Mem0 is
configured then, so a later back-fill skips it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memclaw.workspace import ledger

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope

SYNCED = "mem0-sync"
UNCAPTURED = "uncaptured"


def session_key(scope: Scope, session_id: str) -> str:
    return f"{scope.label}/{session_id}"


def _turns(data: Any) -> dict[str, list[int]]:
    """The document as turns per session; a damaged one only costs a resend (Mem0 merges
    duplicates)."""
    if not isinstance(data, dict):
        return {}
    return {
        str(k): [i for i in v if isinstance(i, int)] for k, v in data.items() if isinstance(v, list)
    }


def _read(scope: Scope, name: str) -> dict[str, list[int]]:
    return _turns(ledger.load(scope.agent.meta_dir, name)[0])


def synced_turns(scope: Scope, session_id: str) -> set[int]:
    return set(_read(scope, SYNCED).get(session_key(scope, session_id), []))


def all_synced(scope: Scope) -> dict[str, list[int]]:
    return _read(scope, SYNCED)


def mark_synced(scope: Scope, session_id: str, turn: int) -> None:
    _add(scope, SYNCED, session_id, turn)


def unmark_synced(agent: Agent, label: str | None = None) -> None:
    """Take back that any turn (of the owner folder ``label``, or of all) reached Mem0."""
    ledger.update(
        agent.meta_dir,
        SYNCED,
        lambda data: {
            k: v
            for k, v in _turns(data).items()
            if label is not None and not k.startswith(label + "/")
        },
    )


def mark_uncaptured(scope: Scope, session_id: str, turn: int) -> None:
    """This turn keeps out of every memory, Mem0's included: no back-fill sends it."""
    _add(scope, UNCAPTURED, session_id, turn)


def uncaptured_turns(scope: Scope, session_id: str) -> set[int]:
    return set(_read(scope, UNCAPTURED).get(session_key(scope, session_id), []))


def _add(scope: Scope, name: str, session_id: str, turn: int) -> None:
    key = session_key(scope, session_id)

    def added(data: Any) -> dict[str, list[int]]:
        turns = _turns(data)
        turns[key] = sorted({*turns.get(key, []), turn})
        return turns

    ledger.update(scope.agent.meta_dir, name, added)
