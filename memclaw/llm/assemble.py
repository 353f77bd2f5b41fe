"""Turning wire objects (whole completions or streamed chunks) into a ChatResult.

The objects come from the ``openai`` package but are read by attribute only, so this
module never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memclaw.errors import ModelAnswerError
from memclaw.llm.base import ChatResult, ToolCall, Usage
from memclaw.llm.jsonanswer import parse_json_answer, without_thinking
from memclaw.text import jsonsafe


def decode_arguments(name: str, raw: str) -> dict[str, Any]:
    """The arguments of a tool call as a dict.

    Strict JSON first; then the lenient reading used for JSON answers, because small local
    models sometimes fence their arguments. Anything that is not an object is refused: a
    tool must never run on arguments we only guessed at.
    """
    if not raw.strip():
        return {}
    try:
        value = jsonsafe.loads(raw)
    except ValueError:
        try:
            value = parse_json_answer(raw)
        except ModelAnswerError:
            deep = jsonsafe.too_deep_at(raw)
            reason = (
                f"nested deeper than {jsonsafe.MAX_DEPTH} levels"
                if deep is not None
                else f"not valid JSON: {raw[:80]!r}"
            )
            raise ModelAnswerError(
                f"the model called tool {name!r} with arguments that are {reason}"
            ) from None
    if not isinstance(value, dict):
        raise ModelAnswerError(
            f"the model called tool {name!r} with a JSON {type(value).__name__}, not an object"
        )
    return value


def make_tool_call(call_id: str | None, name: str | None, raw: str | None) -> ToolCall:
    """A ToolCall; arguments that cannot be decoded become its ``error``, never an exception,
    so one bad call does not throw away the rest of the answer (and the chat with it)."""
    tool = name or ""
    if not tool:
        raise ModelAnswerError("the model requested a tool call without a tool name")
    text = raw or ""
    try:
        arguments = decode_arguments(tool, text)
    except ModelAnswerError as exc:
        return ToolCall(call_id or "", tool, {}, text, error=str(exc))
    return ToolCall(id=call_id or "", name=tool, arguments=arguments, raw_arguments=text)


# Wire objects are built by the openai package without validation, so a garbled answer
# arrives with ints where objects belong; these read a field or refuse the whole answer.
_NOT_AN_OBJECT = (str, bytes, int, float, bool, list, tuple, dict)
_NOT_OPENAI = "is MEMCLAW_BASE_URL an OpenAI-compatible API?"


def _malformed(what: str) -> ModelAnswerError:
    return ModelAnswerError(f"the endpoint sent a malformed {what}; {_NOT_OPENAI}")


def _field(obj: Any, name: str, kind: type | tuple[type, ...], what: str) -> Any:
    """``obj.name`` when it is None or a ``kind``; otherwise the answer is refused."""
    value = getattr(obj, name, None)
    if value is not None and not isinstance(value, kind):
        raise _malformed(what)
    return value


def _object(obj: Any, name: str, what: str) -> Any:
    """``obj.name`` when it is None or a wire object (something with attributes)."""
    value = getattr(obj, name, None)
    if isinstance(value, _NOT_AN_OBJECT):
        raise _malformed(what)
    return value


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def usage_of(raw: Any) -> Usage:
    if raw is None or isinstance(raw, _NOT_AN_OBJECT):
        return Usage()  # token counts are informative only: never fail an answer on them
    return Usage(
        prompt_tokens=_count(getattr(raw, "prompt_tokens", 0)),
        completion_tokens=_count(getattr(raw, "completion_tokens", 0)),
    )


def _calls(container: Any, what: str) -> list[Any]:
    calls = _field(container, "tool_calls", list, what) or []
    if any(isinstance(call, _NOT_AN_OBJECT) for call in calls):
        raise _malformed(what)
    return calls


def result_from_completion(completion: Any, model: str) -> ChatResult:
    """A ChatResult from a non-streamed ``ChatCompletion``."""
    what = "chat completion"
    choices = _field(completion, "choices", list, what) or []
    if not choices:
        raise ModelAnswerError(f"the endpoint answered without a chat completion; {_NOT_OPENAI}")
    choice = choices[0]
    if isinstance(choice, _NOT_AN_OBJECT):
        raise _malformed(what)
    message = _object(choice, "message", what)
    if message is None:
        raise _malformed(what)
    calls = []
    for call in _calls(message, what):
        function = _object(call, "function", what)
        if function is not None:
            calls.append(
                make_tool_call(
                    _field(call, "id", str, what),
                    _field(function, "name", str, what),
                    _field(function, "arguments", str, what),
                )
            )
    finish = _field(choice, "finish_reason", str, what)
    return ChatResult(
        # A reasoning model's thoughts are not what it said: kept out of transcripts.
        text=without_thinking(_field(message, "content", str, what) or ""),
        tool_calls=calls,
        finish_reason=finish or ("tool_calls" if calls else "stop"),
        usage=usage_of(getattr(completion, "usage", None)),
        model=_field(completion, "model", str, what) or model,
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
    chunks: int = 0

    def feed(self, chunk: Any) -> None:
        what = "stream chunk"
        if isinstance(chunk, _NOT_AN_OBJECT):
            raise _malformed(what)
        if getattr(chunk, "usage", None) is not None:
            self.usage = usage_of(chunk.usage)
        choices = _field(chunk, "choices", list, what)
        if choices is None:
            if getattr(chunk, "usage", None) is None:
                raise _malformed(what)  # neither choices nor usage: not a completion chunk
            return
        self.chunks += 1
        self.served_by = _field(chunk, "model", str, what) or self.served_by
        for choice in choices:
            if isinstance(choice, _NOT_AN_OBJECT):
                raise _malformed(what)
            if _field(choice, "index", int, what) not in (0, None):
                continue
            finish = _field(choice, "finish_reason", str, what)
            if finish:
                self.finish_reason = finish
            delta = _object(choice, "delta", what)
            if delta is None:
                continue
            content = _field(delta, "content", str, what)
            if content:
                self.text.append(content)
                self.on_text(content)
            for fragment in _calls(delta, what):
                self._feed_call(fragment)

    def _feed_call(self, fragment: Any) -> None:
        what = "stream chunk"
        # Servers that omit the index send one call per stream; treat them as index 0.
        index = _field(fragment, "index", int, what)
        partial = self.calls.setdefault(index if index is not None else 0, _PartialCall())
        call_id = _field(fragment, "id", str, what)
        if call_id:
            partial.id = call_id
        function = _object(fragment, "function", what)
        if function is not None:
            name = _field(function, "name", str, what)
            if name:
                partial.name = name
            arguments = _field(function, "arguments", str, what)
            if arguments:
                partial.arguments.append(arguments)

    def result(self) -> ChatResult:
        if not self.chunks:
            # A stream of non-SSE bytes, or of events that are no completion chunks, is not
            # an empty answer: it is no answer at all. A local server that fails after it has
            # said 200 (llama.cpp on a prompt longer than its context) ends the stream so too.
            raise ModelAnswerError(
                "the endpoint ended its stream before any answer: a local server does this "
                "when the prompt exceeds its context window (set context_window_tokens to its "
                f"n_ctx, and see its log); otherwise, {_NOT_OPENAI}"
            )
        calls = [
            make_tool_call(p.id, p.name, "".join(p.arguments))
            for _, p in sorted(self.calls.items())
        ]
        return ChatResult(
            text=without_thinking("".join(self.text)),
            tool_calls=calls,
            finish_reason=self.finish_reason or ("tool_calls" if calls else "stop"),
            usage=self.usage,
            model=self.served_by or self.model,
        )
