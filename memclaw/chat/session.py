"""A chat session: who is talking to which agent, and the transcript on disk.

The transcript is ``sessions/<id>.jsonl`` (under the owner's folder when the
chat has an owner and owner isolation is on, so one person's conversations
are never listed for another). One OpenAI-format message per line; a turn's
messages are appended together once the turn completes, so a crash loses at
most the turn in flight. A torn last line, left by a crash mid-append, is
dropped when the session is opened again.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memclaw.errors import LockBusyError, UsageError, WorkspaceError
from memclaw.extract.transcripts import chat_lock
from memclaw.gates.credentials.split import answered_secrets
from memclaw.gates.redaction import redact_data, redact_known, secret_values
from memclaw.gates.session_key import parse_session_key
from memclaw.text import jsonsafe
from memclaw.workspace.atomic import file_lock
from memclaw.workspace.owners import OwnerKey
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from collections.abc import Iterator

    from memclaw.workspace.agent import Agent

Message = dict[str, Any]
SESSIONS_DIR = "sessions"
# ':' is allowed so that scheduler keys such as "cron:nightly" keep their meaning.
_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
_ROLES = ("system", "user", "assistant", "tool")


def validate_session_id(session_id: str) -> str:
    if not _SESSION_ID.fullmatch(session_id) or ".." in session_id:
        raise UsageError(
            f"session id {session_id!r} is not valid: use letters, digits, '.', '_', ':' and '-'"
        )
    return session_id


def new_session_id(agent: Agent) -> str:
    """``YYYYMMDD-HHMMSS-xxxx``: sorts by start time, unique enough for one person."""
    return f"{agent.now():%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def sessions_dir(scope: Scope) -> Path:
    return scope.folder / SESSIONS_DIR


def latest_session(scope: Scope) -> str | None:
    """The most recently written session of this owner (or of the team), if any."""
    folder = sessions_dir(scope)
    if not folder.is_dir():
        return None
    found = [p for p in folder.glob("*.jsonl") if p.is_file() and _SESSION_ID.fullmatch(p.stem)]
    if not found:
        return None
    return max(found, key=lambda p: (p.stat().st_mtime_ns, p.name)).stem


def _clean(item: Any) -> Message | None:
    """One stored message reduced to the OpenAI fields, or None when it is not one."""
    if not isinstance(item, dict) or item.get("role") not in _ROLES:
        return None
    keep = ("role", "content", "tool_calls", "tool_call_id", "name")
    return {k: item[k] for k in keep if k in item}


def redact_message(message: Message) -> Message:
    """``message`` with every credential in it replaced by ``[REDACTED:<kind>]``.

    Tool-call arguments are a JSON document inside a string: they are redacted
    as data, so they stay valid JSON for the endpoint that reads them back.
    """
    kept: Message = redact_data(message)
    calls = message.get("tool_calls")
    if not isinstance(calls, list):
        return kept
    for original, call in zip(calls, kept["tool_calls"], strict=True):
        function = original.get("function") if isinstance(original, dict) else None
        raw = function.get("arguments") if isinstance(function, dict) else None
        if not isinstance(raw, str):
            continue
        try:
            parsed = jsonsafe.loads(raw)
        except ValueError:
            continue  # not JSON: the plain redaction above is all there is to do
        call["function"]["arguments"] = json.dumps(redact_data(parsed), ensure_ascii=False)
    return kept


def _complete_tool_groups(messages: list[Message]) -> list[Message]:
    """Drop tool calls whose results are missing and results whose call is missing.

    Endpoints refuse a conversation with an unanswered tool call, and a transcript
    written by an older or interrupted run could hold one.
    """
    kept: list[Message] = []
    i = 0
    while i < len(messages):
        message = messages[i]
        if message["role"] == "tool":
            i += 1
            continue
        calls = message.get("tool_calls") if message["role"] == "assistant" else None
        if not calls:
            kept.append(message)
            i += 1
            continue
        wanted = {c.get("id") for c in calls if isinstance(c, dict)}
        j = i + 1
        results = []
        while j < len(messages) and messages[j]["role"] == "tool":
            results.append(messages[j])
            j += 1
        if wanted and wanted <= {r.get("tool_call_id") for r in results}:
            kept.append(message)
            kept.extend(r for r in results if r.get("tool_call_id") in wanted)
        elif message.get("content"):
            kept.append({"role": "assistant", "content": message["content"]})
        i = j
    return kept


def read_transcript(path: Path) -> tuple[list[Message], int | None]:
    """Messages of a session file, and the byte offset of a torn last line (or None)."""
    data = path.read_bytes()
    messages: list[Message] = []
    torn_at: int | None = None
    offset = 0
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        last = number == len(lines)
        start, offset = offset, offset + len(raw) + 1
        if not raw.strip():
            continue
        try:
            item = jsonsafe.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            # A crash in the middle of an append: the turn in flight is lost. A complete
            # line that is merely too deep was written whole and must not be cut away.
            if last and not isinstance(exc, jsonsafe.JSONTooDeepError):
                torn_at = start
                break
            raise WorkspaceError(
                f"{path}:{number}: not a JSON message ({exc}); fix or remove that line"
            ) from exc
        message = _clean(item)
        if message is not None:
            messages.append(message)
    return _complete_tool_groups(messages), torn_at


@dataclass
class ChatSession:
    """One conversation with one agent, as one owner, stored in one JSON-lines file."""

    scope: Scope
    id: str
    path: Path
    subagent: bool = False
    trigger: str | None = None
    messages: list[Message] = field(default_factory=list)
    resumed: bool = False
    _lock: contextlib.ExitStack = field(default_factory=contextlib.ExitStack, repr=False)
    # The secrets told in this conversation: a value redacted where it was told is taken
    # out wherever it comes back (the model repeating the door code it was just given).
    _told: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def agent(self) -> Agent:
        return self.scope.agent

    @property
    def owner(self) -> OwnerKey | None:
        return self.scope.owner

    @classmethod
    def open(
        cls,
        scope: Scope,
        *,
        session_id: str | None = None,
        resume: bool = False,
        subagent: bool = False,
        trigger: str | None = None,
    ) -> ChatSession:
        """A new session, the named one (continued if it exists), or the latest (``resume``).

        The session is locked for as long as it is open, so two chats never
        interleave their turns in one file; call :meth:`close` when done.
        """
        if session_id is not None and resume:
            raise UsageError("give either --session ID or --resume, not both")
        # A host's key decides the agent and the role: agent:<id>:… and agent:<parent>:subagent:…
        key = parse_session_key(session_id, trigger)
        scope = scope.for_session(session_id)
        subagent = subagent or key.subagent
        agent, owner = scope.agent, scope.owner
        if resume:
            session_id = latest_session(scope)
            if session_id is None:
                raise UsageError(
                    f"no session to resume for {agent.id}"
                    + (f" and owner {owner}" if owner else "")
                    + "; start one with `memclaw chat "
                    + agent.id
                    + "`"
                )
        sid = validate_session_id(session_id) if session_id else new_session_id(agent)
        path = sessions_dir(scope) / f"{sid}.jsonl"
        session = cls(scope, sid, path, subagent, trigger)
        session._acquire()
        try:
            if path.is_file():
                session.messages, torn_at = read_transcript(path)
                session.resumed = True
                if torn_at is not None:
                    os.truncate(path, torn_at)
        except BaseException:
            session.close()
            raise
        return session

    def _acquire(self) -> None:
        try:
            self._lock.enter_context(file_lock(chat_lock(self.agent, self.id), wait=0))
        except LockBusyError:
            raise LockBusyError(
                f"session {self.id} is open in another memclaw chat; "
                "close it there or start a new session"
            ) from None

    def close(self) -> None:
        self._lock.close()

    def __enter__(self) -> ChatSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def append(self, messages: list[Message]) -> None:
        """Add one completed turn to memory and to disk (one fsync for the whole turn).

        What is kept is the redacted turn, in memory as on disk: later turns (and a
        resumed session) send the model exactly what the transcript holds. With
        ``chat_transcripts`` off nothing is written at all.
        """
        if not messages:
            return
        before = self.messages[-1:]
        for message in messages:
            self._told.update(secret_values(message))
            asked, said = before[-1:], message.get("content")
            if asked and message["role"] == "user" and isinstance(said, str):
                # "What's the door code?" then "2580": the answer is the secret.
                self._told.update(answered_secrets(str(asked[0].get("content") or ""), said))
            before = [message]
        kept = [redact_known(redact_message(m), self._told) for m in messages]
        if self.agent.settings.chat_transcripts:
            text = "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in kept)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
        self.messages.extend(kept)

    @property
    def captures(self) -> bool:
        """Whether this session may add to long-term memory at all."""
        from memclaw.gates import is_automated_session

        return not self.subagent and not is_automated_session(self.trigger, self.id)

    def text_messages(self) -> list[dict[str, str]]:
        """User and assistant messages with text: what extraction reads."""
        return [
            {"role": m["role"], "content": m["content"]}
            for m in self.messages
            if m["role"] in ("user", "assistant") and isinstance(m.get("content"), str)
            if m["content"].strip()
        ]


def iter_turns(messages: list[Message]) -> Iterator[list[Message]]:
    """Split messages into turns: each starts at a user message (a leading rest is one turn)."""
    turn: list[Message] = []
    for message in messages:
        if message["role"] == "user" and turn:
            yield turn
            turn = []
        turn.append(message)
    if turn:
        yield turn


def entry_session_id(session_id: str) -> str:
    """The session id as memory entries spell it (they allow no ':')."""
    return session_id.replace(":", "-")
