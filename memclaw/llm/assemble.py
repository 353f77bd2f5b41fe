"""Turning wire objects (whole completions or streamed chunks) into a ChatResult.

The objects come from the ``openai`` package but are read by attribute only, so this
module never imports it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memclaw.errors import ModelAnswerError
from memclaw.llm.base import ChatResult, ToolCall, Usage
from memclaw.llm.jsonanswer import parse_json_answer


def decode_arguments(name: str, raw: str) -> dict[str, Any]:
    """The arguments of a tool call as a dict.

    Strict JSON first; then the lenient reading used for JSON answers, because small local
    models sometimes fence their arguments. Anything that is not an object is refused: a
    tool must never run on arguments we only guessed at.
    """
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        try:
            value = parse_json_answer(raw)
        except ModelAnswerError:
            raise ModelAnswerError(
                f"the model called tool {name!r} with arguments that are not valid JSON: "
                f"{raw[:80]!r}"
            ) from None
    if not isinstance(value, dict):
        raise ModelAnswerError(
            f"the model called tool {name!r} with a JSON {type(value).__name__}, not an object"
        )
    return value


def make_tool_call(call_id: str | None, name: str | None, raw: str | None) -> ToolCall:
    tool = name or ""
    if not tool:
        raise ModelAnswerError("the model requested a tool call without a tool name")
    text = raw or ""
    return ToolCall(
        id=call_id or "", name=tool, arguments=decode_arguments(tool, text), raw_arguments=text
    )


def usage_of(raw: Any) -> Usage:
    if raw is None:
        return Usage()
    return Usage(
        prompt_tokens=int(getattr(raw, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(raw, "completion_tokens", 0) or 0),
    )


def result_from_completion(completion: Any, model: str) -> ChatResult:
    """A ChatResult from a non-streamed ``ChatCompletion``."""
    choices = getattr(completion, "choices", None) or []
    if not choices:
        raise ModelAnswerError(
            "the endpoint answered without a chat completion; "
            "is MEMCLAW_BASE_URL an OpenAI-compatible API?"
        )
    choice = choices[0]
    message = choice.message
    calls = [
        make_tool_call(call.id, call.function.name, call.function.arguments)
        for call in (getattr(message, "tool_calls", None) or [])
        if getattr(call, "function", None) is not None
    ]
    return ChatResult(
        text=message.content or "",
        tool_calls=calls,
        finish_reason=choice.finish_reason or ("tool_calls" if calls else "stop"),
        usage=usage_of(getattr(completion, "usage", None)),
        model=getattr(completion, "model", None) or model,
    )


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass
class StreamAssembler:
    """Accumulates ``ChatCompletionChunk`` objects into one ChatResult."""

    model: str
    on_text: Callable[[str], None]
    text: list[str] = field(default_factory=list)
    calls: dict[int, _PartialCall] = field(default_factory=dict)
    finish_reason: str = ""
    usage: Usage = field(default_factory=Usage)
    served_by: str = ""

    def feed(self, chunk: Any) -> None:
        if getattr(chunk, "usage", None) is not None:
            self.usage = usage_of(chunk.usage)
        self.served_by = getattr(chunk, "model", None) or self.served_by
        for choice in getattr(chunk, "choices", None) or []:
            if getattr(choice, "index", 0) != 0:
                continue
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason
            delta = choice.delta
            if delta is None:
                continue
            if delta.content:
                self.text.append(delta.content)
                self.on_text(delta.content)
            for fragment in getattr(delta, "tool_calls", None) or []:
                self._feed_call(fragment)

    def _feed_call(self, fragment: Any) -> None:
        # Servers that omit the index send one call per stream; treat them as index 0.
        index = fragment.index if fragment.index is not None else 0
        partial = self.calls.setdefault(index, _PartialCall())
        if fragment.id:
            partial.id = fragment.id
        function = getattr(fragment, "function", None)
        if function is not None:
            if function.name:
                partial.name = function.name
            if function.arguments:
                partial.arguments.append(function.arguments)

    def result(self) -> ChatResult:
        calls = [
            make_tool_call(p.id, p.name, "".join(p.arguments))
            for _, p in sorted(self.calls.items())
        ]
        return ChatResult(
            text="".join(self.text),
            tool_calls=calls,
            finish_reason=self.finish_reason or ("tool_calls" if calls else "stop"),
            usage=self.usage,
            model=self.served_by or self.model,
        )
