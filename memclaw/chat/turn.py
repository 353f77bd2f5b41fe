"""What one chat turn produced, and the messages a turn adds to the transcript.

A turn's messages must stay a conversation every server accepts: a tool call the
model asked for is echoed back with arguments a server can parse, and a turn cut
short by Ctrl-C answers its open tool calls before the partial answer is kept.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memclaw.chat.recall import Recalled
from memclaw.chat.tools import ToolRecord
from memclaw.llm import ChatResult, Usage

if TYPE_CHECKING:
    from memclaw.chat.session import Message

INTERRUPTED = "[answer interrupted by the person]"
UNANSWERED = "[no answer: the model failed]"
OnText = Callable[[str], None]
OnTool = Callable[[ToolRecord], None]


@dataclass
class TurnResult:
    """What one turn produced, for display and for ``--json``."""

    text: str
    session: str
    tool_calls: list[ToolRecord] = field(default_factory=list)
    memory_operations: list[dict[str, Any]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    changed_files: list[str] = field(default_factory=list)
    recalled: Recalled = field(default_factory=Recalled)
    compressed: bool = False
    context_tokens: int = 0
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)

    def add_usage(self, usage: Usage) -> None:
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        return {
            "answer": self.text,
            "session": self.session,
            "memory_operations": self.memory_operations,
            "tool_calls": [record.to_dict() for record in self.tool_calls],
            "usage": {
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "total_tokens": self.prompt_tokens + self.completion_tokens,
            },
            "recalled": [
                {"file": h.file, "line": h.line, "score": round(h.score, 6)}
                for h in self.recalled.hits
            ],
            "compressed": self.compressed,
            "interrupted": self.interrupted,
            "notes": self.notes,
        }


def tool_call_message(answer: ChatResult) -> Message:
    """The assistant message asking for ``answer``'s tool calls, as the transcript keeps it."""
    return {
        "role": "assistant",
        "content": answer.text or None,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                # Undecodable arguments are not echoed back: some servers
                # parse the history's arguments and would refuse the request.
                "function": {
                    "name": call.name,
                    "arguments": "{}" if call.error else call.raw_arguments,
                },
            }
            for call in answer.tool_calls
        ],
    }


# What a model writes when it means to call a tool but the server did not parse the call:
# "functions.memory_get:\n{...}", "<tool_call>{...}</tool_call>", "[TOOL_CALLS] [...]", or a
# bare {"name": "memory_search", "arguments": {...}}. Quotes may come HTML-escaped (&#34;).
_TOOL_MARKUP = re.compile(
    r"(?:functions\.)?\b(?:memory|memclaw)_\w+\s*:?\s*\{.*?\}(?=\s*(?:$|\n\S))"
    r"|<\|?tool_call\|?>.*?(?:</tool_call>|<\|/?tool_call\|>|$)"
    r"|\[TOOL_CALLS\].*?(?:\n\n|$)"
    r"|\{\s*\"name\"\s*:\s*\"(?:memory|memclaw)_\w+\"\s*,\s*\"(?:arguments|parameters)\"\s*:.*?\}\s*\}",
    re.DOTALL,
)
TOOL_MARKUP_NOTE = (
    "the model wrote a tool call as text instead of making it: left out of what is kept"
)


def without_tool_markup(text: str) -> tuple[str, bool]:
    """``text`` without the tool calls a model wrote as text (see ``_TOOL_MARKUP``), and
    whether it had any: shown once to the person, they are not kept as what was said."""
    plain = html.unescape(text) if "&#" in text or "&quot;" in text else text
    cleaned = _TOOL_MARKUP.sub("", plain)
    if cleaned == plain:
        return text, False
    return "\n".join(line for line in cleaned.splitlines() if line.strip()).strip(), True


def close_unanswered(current: list[Message]) -> None:
    """End the turn ``current`` that the model failed to answer, so the person's words
    are kept (and extracted) all the same."""
    close_interrupted(current, "", UNANSWERED)


def close_interrupted(current: list[Message], partial: str, marker: str = INTERRUPTED) -> str:
    """Make the partial turn ``current`` a valid conversation: answer its open tool calls,
    then end it with what was said so far (``partial``), marked; that text is returned."""
    last_calls = next(
        (m for m in reversed(current) if m["role"] == "assistant" and m.get("tool_calls")),
        None,
    )
    if last_calls is not None:
        answered = {m.get("tool_call_id") for m in current if m["role"] == "tool"}
        for call in last_calls["tool_calls"]:
            if call["id"] not in answered:
                missing = {"role": "tool", "tool_call_id": call["id"]}
                current.append({**missing, "content": "error: interrupted"})
    partial = partial.strip()
    text = f"{partial}\n\n{marker}" if partial else marker
    current.append({"role": "assistant", "content": text})
    return text
