"""Load a conversation from a session file, a transcript file or stdin.

Accepted shapes, detected from the text itself:

* an OpenAI-style JSON array of ``{"role", "content"}`` messages;
* a JSON object with a ``"messages"`` array;
* JSON lines, one message per line (how chat sessions are stored);
* plain text with ``User:`` / ``Assistant:`` turns (also ``Human:`` / ``AI:``,
  any case); a turn runs until the next speaker line.

Every failure is one :class:`~memclaw.errors.UsageError` that names the input.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.errors import UsageError
from memclaw.text import jsonsafe

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent
    from memclaw.workspace.scope import Scope

Message = dict[str, str]
MAX_BYTES = 20 * 1024 * 1024
ROLES = ("system", "user", "assistant", "tool")
_SPEAKERS = {
    "user": "user",
    "human": "user",
    "me": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "system": "system",
}
_SPEAKER_LINE = re.compile(r"^[ \t]*(user|human|assistant|ai|bot|system)[ \t]*:[ \t]?", re.I)
_TIME_KEYS = ("timestamp", "created_at", "time", "date")
_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")


def parse_transcript(text: str, source: str = "transcript") -> list[Message]:
    """Turn transcript text into ``[{"role": ..., "content": ...}]``."""
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise UsageError(f"{source} is empty: give a conversation with at least one message")
    if stripped[0] in "[{":
        messages = _parse_json(stripped, source)
    else:
        messages = _parse_plain(stripped, source)
    if not messages:
        raise UsageError(f"{source} holds no messages with text")
    return messages


def _parse_json(text: str, source: str) -> list[Message]:
    try:
        data: Any = jsonsafe.loads(text)
    except json.JSONDecodeError as whole_error:
        if text[0] != "{":
            raise UsageError(
                f"{source}: invalid JSON at line {whole_error.lineno} ({whole_error.msg})"
            ) from whole_error
        return _parse_jsonl(text, source)
    if isinstance(data, dict) and "messages" in data:
        # A transcript's own date stands for every message that has no time of its own.
        when = next((data[k] for k in ("date", "created_at", "timestamp") if k in data), None)
        data = data["messages"]
        if isinstance(when, str | int | float) and isinstance(data, list):
            data = [
                {**item, "timestamp": when}
                if isinstance(item, dict) and not any(k in item for k in _TIME_KEYS)
                else item
                for item in data
            ]
    elif isinstance(data, dict):
        data = [data]  # a single-message JSONL file parses as one object
    if not isinstance(data, list):
        raise UsageError(f"{source}: expected a list of messages or an object with 'messages'")
    return [m for i, item in enumerate(data) if (m := _message(item, f"{source}[{i}]"))]


def _parse_jsonl(text: str, source: str) -> list[Message]:
    messages = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = jsonsafe.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{source}:{number}: not a JSON message ({exc.msg})") from exc
        message = _message(item, f"{source}:{number}")
        if message:
            messages.append(message)
    return messages


def _message(item: Any, where: str) -> Message | None:
    """One message, or None for a message without text (e.g. a bare tool call)."""
    if not isinstance(item, dict):
        raise UsageError(f"{where}: a message must be an object with 'role' and 'content'")
    role = str(item.get("role", "")).strip().lower()
    role = {"human": "user", "ai": "assistant", "function": "tool", "developer": "system"}.get(
        role, role
    )
    if role not in ROLES:
        raise UsageError(f"{where}: unknown role {item.get('role')!r} (use user or assistant)")
    content = _text_of(item.get("content"))
    if not content.strip():
        return None
    message = {"role": role, "content": content}
    # When it was said dates the facts in it ("starts Monday"); see extract/timeline.py.
    for key in _TIME_KEYS:
        if isinstance(item.get(key), str | int | float) and not isinstance(item.get(key), bool):
            message["timestamp"] = str(item[key])
            break
    return message


def _text_of(content: Any) -> str:
    # OpenAI content may be a list of parts; only the text parts matter to memory.
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    return str(content)


def _parse_plain(text: str, source: str) -> list[Message]:
    messages: list[Message] = []
    role: str | None = None
    lines: list[str] = []
    for line in text.splitlines():
        match = _SPEAKER_LINE.match(line)
        if match:
            if role is not None:
                messages.append({"role": role, "content": "\n".join(lines).strip()})
            role = _SPEAKERS[match.group(1).lower()]
            lines = [line[match.end() :]]
        elif role is None:
            if line.strip():
                raise UsageError(
                    f"{source}: plain text must start with a speaker line such as 'User: ...' "
                    "(or give JSON messages)"
                )
        else:
            lines.append(line)
    if role is not None:
        messages.append({"role": role, "content": "\n".join(lines).strip()})
    return [m for m in messages if m["content"]]


def _decode(data: bytes, source: str) -> str:
    if len(data) > MAX_BYTES:
        raise UsageError(
            f"{source} is {len(data) // (1024 * 1024)} MB; transcripts are limited to "
            f"{MAX_BYTES // (1024 * 1024)} MB (extract only the recent part)"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{source} is not UTF-8 text (byte {exc.start}); convert it first"
        ) from exc


def _read_capped(handle: Any, source: str) -> bytes:
    data: bytes = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise UsageError(
            f"{source} is larger than {MAX_BYTES // (1024 * 1024)} MB; "
            "extract only the recent part of the conversation"
        )
    return data


def load_transcript(source: str | Path) -> list[Message]:
    """Messages from a transcript file, or from stdin when ``source`` is ``-``."""
    if str(source) == "-":
        if sys.stdin is None:
            raise UsageError("no stdin to read the transcript from")
        return parse_transcript(_decode(_read_capped(sys.stdin.buffer, "stdin"), "stdin"), "stdin")
    path = Path(source).expanduser()
    try:
        with open(path, "rb") as handle:
            data = _read_capped(handle, str(path))
    except FileNotFoundError:
        raise UsageError(f"transcript {path} does not exist") from None
    except IsADirectoryError:
        raise UsageError(f"transcript {path} is a folder, not a file") from None
    except PermissionError:
        raise UsageError(f"transcript {path} cannot be read (permission denied)") from None
    return parse_transcript(_decode(data, str(path)), str(path))


def chat_lock(agent: Agent, session_id: str) -> Path:
    """The lock an open chat holds on its session: while it is held, nothing else may
    rewrite, delete or extract that session."""
    return agent.meta_dir / "sessions" / f"{session_id}.lock"


def session_path(scope: Scope, session_id: str) -> Path:
    """Where a chat session is stored: the owner's scope first, then the agent's."""
    if not _SESSION_ID.fullmatch(session_id) or ".." in session_id:
        raise UsageError(
            f"session id {session_id!r} is not valid: letters, digits, '.', '_', ':' and '-'"
        )
    agent = scope.agent
    candidates = []
    if scope.personal:
        candidates.append(scope.folder / "sessions" / f"{session_id}.jsonl")
    candidates.append(agent.path / "sessions" / f"{session_id}.jsonl")
    for path in candidates:
        if path.is_file():
            return path
    raise UsageError(
        f"no session {session_id!r} for agent {agent.id} (looked for sessions/{session_id}.jsonl)"
    )


def load_session(scope: Scope, session_id: str) -> list[Message]:
    """Messages of ``sessions/<id>.jsonl`` of a scope (the owner's first, then the agent's)."""
    return load_transcript(session_path(scope, session_id))
