"""Where the person said a fact: the chat exchange whose tool call stored it.

A fact stored by a chat's tool ("Maya is pregnant, due in May") was said in
other words in the turn that led to it ("Big news: I'm pregnant! The baby is
due in May. Also, hi."), and that turn is in the transcript and in the input
history too. The stored text does not find the person's words, but the
transcript links them: the user turn and the answers up to the next user turn
are the fact's *exchange* when one of its tool calls stored the fact. Forget
takes the fact's sentences out of the exchange (see ``Matcher.redact``) and the
typed line out of the input history.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from memclaw.erasure.places import SESSIONS, read
from memclaw.text import jsonsafe

if TYPE_CHECKING:
    from collections.abc import Iterator

    from memclaw.erasure.match import Matcher
    from memclaw.workspace.scope import Scope


def exchanges(scope: Scope, matcher: Matcher) -> set[str]:
    """The texts (whitespace folded) of every exchange of the scope's chats that stored it."""
    folder = scope.folder / SESSIONS
    found: set[str] = set()
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else ():
        text = read(path)
        exchange: list[str] = []
        stored = False
        for message in _messages(text or ""):
            if message.get("role") == "user":
                if stored:
                    found.update(exchange)
                exchange, stored = [], False
            content = message.get("content")
            if isinstance(content, str) and message.get("role") in ("user", "assistant"):
                exchange.append(" ".join(content.split()))
            stored = stored or any(matcher.says(said) for said in _tool_texts(message))
        if stored:
            found.update(exchange)
    found.discard("")
    return found


def _messages(text: str) -> Iterator[dict[str, Any]]:
    for line in text.splitlines():
        try:
            message = jsonsafe.loads(line)
        except (json.JSONDecodeError, ValueError):
            continue
        if isinstance(message, dict):
            yield message


def _tool_texts(message: dict[str, Any]) -> Iterator[str]:
    """Every string a message's tool calls passed (the text a memory tool stored)."""
    for call in message.get("tool_calls") or ():
        function = call.get("function") if isinstance(call, dict) else None
        raw = function.get("arguments") if isinstance(function, dict) else None
        try:
            arguments = jsonsafe.loads(raw) if isinstance(raw, str) else None
        except (json.JSONDecodeError, ValueError):
            continue
        yield from _strings(arguments)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
