"""Which turns have reached Mem0: the record that makes syncing idempotent and resumable.

``<agent>/.memclaw/mem0-sync.json`` maps ``<owner folder>/<session id>`` to the
indexes of the session's turns Mem0 has accepted. The live worker and
``memclaw mem0 sync`` both add to it under one lock, so a turn is sent once,
and a turn that was not sent (Mem0 down, queue full, chat closed before the
queue drained) is found and sent by the next back-fill. Deleting the file only
means the next back-fill sends everything again.

``<agent>/.memclaw/uncaptured.json`` has the same shape and lists the turns
that must never leave the machine: those of ``--no-capture`` chats and of
scheduled (``--trigger cron``) or subagent runs, which a session id alone does
not always reveal. The chat marks each such turn as it is stored, whether or
not Mem0 is configured then, so a later back-fill skips it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from memclaw.text import jsonsafe
from memclaw.workspace.atomic import atomic_write, file_lock

if TYPE_CHECKING:
    from pathlib import Path

    from memclaw.workspace.scope import Scope

STATE_FILE = "mem0-sync.json"
UNCAPTURED_FILE = "uncaptured.json"


def _path(scope: Scope) -> Path:
    return scope.agent.meta_dir / STATE_FILE


def session_key(scope: Scope, session_id: str) -> str:
    return f"{scope.label}/{session_id}"


def _read(path: Path) -> dict[str, list[int]]:
    if not path.is_file():
        return {}
    try:
        data = jsonsafe.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a damaged record only costs a resend; Mem0 merges duplicates
    if not isinstance(data, dict):
        return {}
    return {
        str(k): [i for i in v if isinstance(i, int)] for k, v in data.items() if isinstance(v, list)
    }


def synced_turns(scope: Scope, session_id: str) -> set[int]:
    return set(_read(_path(scope)).get(session_key(scope, session_id), []))


def all_synced(scope: Scope) -> dict[str, list[int]]:
    return _read(_path(scope))


def mark_synced(scope: Scope, session_id: str, turn: int) -> None:
    _add(_path(scope), scope, session_id, turn)


def mark_uncaptured(scope: Scope, session_id: str, turn: int) -> None:
    """This turn keeps out of every memory, Mem0's included: no back-fill sends it."""
    _add(scope.agent.meta_dir / UNCAPTURED_FILE, scope, session_id, turn)


def uncaptured_turns(scope: Scope, session_id: str) -> set[int]:
    path = scope.agent.meta_dir / UNCAPTURED_FILE
    return set(_read(path).get(session_key(scope, session_id), []))


def _add(path: Path, scope: Scope, session_id: str, turn: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(path.with_suffix(".lock")):
        data = _read(path)
        key = session_key(scope, session_id)
        data[key] = sorted({*data.get(key, []), turn})
        atomic_write(path, json.dumps(data, indent=1, sort_keys=True) + "\n")
