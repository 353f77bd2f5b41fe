"""Stored chat sessions of a scope: list them, read one, delete one.

A session is ``sessions/<id>.jsonl`` in the scope's folder (see
:mod:`memclaw.chat.session`). Listing reads each file once to count its
messages; the first and last times are the file's own (the transcript holds no
timestamps): when it was first written is not kept by every file system, so
"first" is the id's start time when the id is memclaw's ``YYYYMMDD-HHMMSS-xxxx``,
else the file's modification time like "last".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from memclaw.chat.session import (
    Message,
    read_transcript,
    sessions_dir,
    validate_session_id,
)
from memclaw.errors import LockBusyError, UsageError
from memclaw.extract.transcripts import chat_lock
from memclaw.workspace.atomic import file_lock

if TYPE_CHECKING:
    from pathlib import Path

    from memclaw.workspace.scope import Scope


@dataclass(frozen=True)
class SessionInfo:
    id: str
    messages: int
    first: datetime
    last: datetime
    size: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "messages": self.messages,
            "first": self.first.isoformat(timespec="seconds"),
            "last": self.last.isoformat(timespec="seconds"),
            "size": self.size,
        }


def _started(session_id: str, fallback: datetime) -> datetime:
    try:
        return datetime.strptime(session_id[:15], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return fallback


def _path(scope: Scope, session_id: str) -> Path:
    path = sessions_dir(scope) / f"{validate_session_id(session_id)}.jsonl"
    if not path.is_file():
        who = f" and owner {scope.owner}" if scope.owner else ""
        raise UsageError(
            f"no session {session_id!r} for {scope.agent.id}{who}; "
            f"see `memclaw sessions {scope.agent.id}`"
        )
    return path


def list_sessions(scope: Scope) -> list[SessionInfo]:
    """Every session of the scope, the most recently written first."""
    folder = sessions_dir(scope)
    if not folder.is_dir():
        return []
    found = []
    for path in folder.glob("*.jsonl"):
        try:
            sid = validate_session_id(path.stem)
        except UsageError:
            continue  # not a session memclaw could have written or could open
        if not path.is_file():
            continue
        stat = path.stat()
        last = datetime.fromtimestamp(stat.st_mtime, UTC)
        messages, _ = read_transcript(path)
        found.append(
            (
                stat.st_mtime_ns,
                SessionInfo(sid, len(messages), _started(sid, last), last, stat.st_size),
            )
        )
    found.sort(key=lambda item: (item[0], item[1].id), reverse=True)
    return [info for _, info in found]


def session_messages(scope: Scope, session_id: str) -> list[Message]:
    """The messages of one session, as a resumed chat would see them."""
    messages, _ = read_transcript(_path(scope, session_id))
    return messages


def delete_session(scope: Scope, session_id: str) -> Path:
    """Remove one session's transcript; refused while a chat has it open."""
    path = _path(scope, session_id)
    try:
        with file_lock(chat_lock(scope.agent, session_id), wait=0):
            path.unlink()
    except LockBusyError:
        raise LockBusyError(
            f"session {session_id} is open in a memclaw chat; close that chat first"
        ) from None
    # The lock file stays: removing it could split a chat that opens the id right now.
    return path
