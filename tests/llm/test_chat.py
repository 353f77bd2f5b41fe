"""Chat, streaming, tool calls and JSON answers against the fake server, real openai client."""

import json
import re
from collections.abc import Callable
from typing import Any

import openai
import pytest
from fake_openai import FakeOpenAI

from memclaw.config import Settings
from memclaw.errors import ContextTooLargeError, ModelAnswerError
from memclaw.llm import ChatResult, ToolCall, Usage, open_model
from memclaw.llm.openai_client import STREAMED_NOTHING_NOTE

MakeSettings = Callable[..., Settings]
USER: list[dict[str, Any]] = [{"role": "user", "content": "hello there"}]
TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "search memory",
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
        },
    }
]
REQUIRED = {"should_update": bool, "reason": str}


def completion_with_arguments(arguments: str) -> bytes:
    """A raw chat completion whose single tool call carries ``arguments`` verbatim."""
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "search", "arguments": arguments},
    }
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    body = {
        "id": "chatcmpl-raw",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
    }
    return json.dumps(body).encode()


def sse_with_arguments(pieces: list[str]) -> bytes:
    """A raw SSE stream carrying one tool call whose arguments arrive in ``pieces``."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        event = {
            "id": "chatcmpl-raw",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(event)}\n\n"

    head = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "search"}}
    events = [chunk({"role": "assistant", "tool_calls": [head]})]
    events += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in pieces]
    events.append(chunk({}, "tool_calls"))
    return ("".join(events) + "data: [DONE]\n\n").encode()


# --------------------------------------------------------------------------- plain chat


def test_plain_chat(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_text("Hello, human.")
    model = open_model(make_settings())
    result = model.chat(USER, max_tokens=50, temperature=0.2)
    assert result == ChatResult(
        text="Hello, human.",
        tool_calls=[],
        finish_reason="stop",
        usage=Usage(prompt_tokens=len("hello there") // 4 + 1, completion_tokens=4),
        model="gpt-4o-mini",
    )
    body = fake_openai.last_request().body
    assert body["messages"] == USER
    assert body["max_tokens"] == 50
    assert body["temperature"] == 0.2
    assert "tools" not in body and "response_format" not in body


def test_model_name_and_override(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    model = open_model(make_settings(model="llama3.1:8b"))
    assert model.name == "llama3.1:8b"
    model.chat(USER)
    assert fake_openai.last_request().body["model"] == "llama3.1:8b"
    assert open_model(make_settings(), model="gpt-4o").name == "gpt-4o"


def test_local_server_gets_a_placeholder_key(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    open_model(make_settings(api_key="")).chat(USER)
    assert fake_openai.last_request().headers["authorization"] == "Bearer not-needed"


def test_garbage_body_is_an_answer_error(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_raw(200, b"{}")
    with pytest.raises(ModelAnswerError, match="without a chat completion"):
        open_model(make_settings()).chat(USER)


# --------------------------------------------------------------------------- tool calls


def test_tool_calls_non_streamed(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_tool_calls(
        [("search", {"q": "tea"}, "call_a"), ("search", {"q": "Lyon", "k": 3}, "call_b")],
        content="Let me look.",
    )
    result = open_model(make_settings()).chat(USER, tools=TOOLS)
    assert fake_openai.last_request().body["tools"] == TOOLS
    assert result.finish_reason == "tool_calls"
    assert result.text == "Let me look."
    assert result.tool_calls == [
        ToolCall("call_a", "search", {"q": "tea"}, '{"q": "tea"}'),
        ToolCall("call_b", "search", {"q": "Lyon", "k": 3}, '{"q": "Lyon", "k": 3}'),
    ]


def test_tool_calls_streamed_are_reassembled(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    args_a = {"q": "a long query that spans many chunks", "filters": {"owner": "alice"}}
    fake_openai.queue_tool_calls([("search", args_a, "call_a"), ("remember", {"text": "x"})])
    texts: list[str] = []
    result = open_model(make_settings()).stream(USER, tools=TOOLS, on_text=texts.append)
    assert texts == []
    assert [c.name for c in result.tool_calls] == ["search", "remember"]
    assert result.tool_calls[0].id == "call_a"
    assert result.tool_calls[0].arguments == args_a
    assert result.tool_calls[0].raw_arguments == json.dumps(args_a)
    assert result.tool_calls[1].arguments == {"text": "x"}
    assert result.finish_reason == "tool_calls"


def test_empty_arguments_mean_no_arguments(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_raw(200, completion_with_arguments(""))
    (call,) = open_model(make_settings()).chat(USER, tools=TOOLS).tool_calls
    assert call.arguments == {}


def test_fenced_arguments_are_accepted(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_raw(200, completion_with_arguments('```json\n{"q": "tea"}\n```'))
    (call,) = open_model(make_settings()).chat(USER, tools=TOOLS).tool_calls
    assert call.arguments == {"q": "tea"}
    assert call.raw_arguments.startswith("```json")


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [('{"q": "tea"', "not valid JSON"), ("[1, 2]", "JSON list, not an object")],
)
def test_malformed_arguments_are_rejected(
    fake_openai: FakeOpenAI, make_settings: MakeSettings, arguments: str, needle: str
) -> None:
    fake_openai.queue_raw(200, completion_with_arguments(arguments))
    (call,) = open_model(make_settings()).chat(USER, tools=TOOLS).tool_calls
    assert call.arguments == {} and call.raw_arguments == arguments
    assert call.error is not None and re.search(f"tool 'search' .*{needle}", call.error)


def test_malformed_streamed_arguments_are_rejected(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_raw(200, sse_with_arguments(['{"q": ', '"tea"']), "text/event-stream")
    result = open_model(make_settings()).stream(USER, tools=TOOLS, on_text=lambda _t: None)
    (call,) = result.tool_calls
    assert call.arguments == {} and call.error is not None and "tool 'search'" in call.error


def test_arguments_nested_too_deep_are_an_error_not_a_crash(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    deep = '{"q": ' + "[" * 5000 + "]" * 5000 + "}"
    fake_openai.queue_raw(200, completion_with_arguments(deep))
    (call,) = open_model(make_settings()).chat(USER, tools=TOOLS).tool_calls
    assert call.arguments == {} and call.error is not None
    assert "nested deeper than 64 levels" in call.error


def test_streamed_arguments_in_pieces(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_raw(200, sse_with_arguments(['{"q"', ': "te', 'a"}']), "text/event-stream")
    result = open_model(make_settings()).stream(USER, tools=TOOLS, on_text=lambda _t: None)
    assert result.tool_calls == [ToolCall("call_1", "search", {"q": "tea"}, '{"q": "tea"}')]


# --------------------------------------------------------------------------- streaming


def test_stream_calls_on_text_with_each_delta(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_text("The quick brown fox jumps.")
    deltas: list[str] = []
    result = open_model(make_settings()).stream(USER, max_tokens=20, on_text=deltas.append)
    assert len(deltas) > 1
    assert "".join(deltas) == result.text == "The quick brown fox jumps."
    assert result.finish_reason == "stop"
    assert result.usage.completion_tokens > 0  # stream_options.include_usage was honoured
    body = fake_openai.last_request().body
    assert body["stream"] is True and body["max_tokens"] == 20


def test_stream_interrupt_closes_the_http_stream(
    fake_openai: FakeOpenAI, make_settings: MakeSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[object] = []
    original = openai.Stream.close

    def spy(self: openai.Stream[Any]) -> None:
        closed.append(self)
        original(self)

    monkeypatch.setattr(openai.Stream, "close", spy)
    fake_openai.queue_text("a long answer that the user interrupts halfway through")
    seen: list[str] = []

    def on_text(delta: str) -> None:
        seen.append(delta)
        if len(seen) == 2:
            raise KeyboardInterrupt

    model = open_model(make_settings())
    with pytest.raises(KeyboardInterrupt):
        model.stream(USER, on_text=on_text)
    assert len(seen) == 2
    assert len(closed) == 1
    assert closed[0].response.is_closed  # type: ignore[attr-defined]
    # The model is still usable afterwards.
    fake_openai.queue_text("again")
    assert model.stream(USER, on_text=lambda _t: None).text == "again"


def test_stream_falls_back_without_stream_options(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_error(400, "Unrecognized request argument supplied: stream_options")
    fake_openai.queue_text("hi")
    model = open_model(make_settings())
    assert model.stream(USER, on_text=lambda _t: None).text == "hi"
    first, second = (r.body for r in fake_openai.chat_requests())
    assert "stream_options" in first and "stream_options" not in second
    model.stream(USER, on_text=lambda _t: None)
    assert "stream_options" not in fake_openai.last_request().body
    assert len(fake_openai.chat_requests()) == 3


# --------------------------------------------------------------------------- chat_json


@pytest.mark.parametrize(
    "answer",
    [
        '{"should_update": true, "reason": "new fact"}',
        '```json\n{"should_update": true, "reason": "new fact"}\n```',
        'Here you go:\n{"should_update": true, "reason": "new fact"}\nDone.',
    ],
)
def test_chat_json_accepts(
    fake_openai: FakeOpenAI, make_settings: MakeSettings, answer: str
) -> None:
    fake_openai.queue_text(answer)
    value = open_model(make_settings()).chat_json(USER, required=REQUIRED, max_tokens=300)
    assert value == {"should_update": True, "reason": "new fact"}
    body = fake_openai.last_request().body
    assert body["response_format"] == {"type": "json_object"}
    assert body["max_tokens"] == 300


@pytest.mark.parametrize(
    ("answer", "needle"),
    [
        ("I would rather not.", "not valid JSON"),
        ('{"should_update": true}', "lacks 'reason'"),
        ('{"should_update": "yes", "reason": "r"}', "'should_update' should be bool, got str"),
        ('[{"should_update": true, "reason": "r"}]', "JSON list"),
    ],
)
def test_chat_json_rejects(
    fake_openai: FakeOpenAI, make_settings: MakeSettings, answer: str, needle: str
) -> None:
    fake_openai.queue_text(answer)
    with pytest.raises(ModelAnswerError, match=needle):
        open_model(make_settings()).chat_json(USER, required=REQUIRED)


def test_chat_json_cut_off_says_so(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_text('{"should_update": true, "reason": "a long', finish_reason="length")
    with pytest.raises(ModelAnswerError, match="cut off at 10 tokens"):
        open_model(make_settings()).chat_json(USER, required=REQUIRED, max_tokens=10)


def test_chat_json_cut_off_long_before_its_budget_names_the_full_context_window(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    # A small local server stops when prompt and answer fill its window, not at the budget.
    fake_openai.queue_text('{"should_update": true, "reason": "a long', finish_reason="length")
    with pytest.raises(ModelAnswerError, match="context window was full") as caught:
        open_model(make_settings()).chat_json(USER, required=REQUIRED, max_tokens=3000)
    assert "raise the token budget" not in str(caught.value)


def test_chat_json_adds_a_json_hint_only_when_missing(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    model = open_model(make_settings())
    fake_openai.queue_json({"should_update": False, "reason": ""})
    model.chat_json(USER, required=REQUIRED)
    messages = fake_openai.last_request().body["messages"]
    assert messages[:-1] == USER and "JSON" in messages[-1]["content"]
    asked = [{"role": "user", "content": "Answer in json please"}]
    fake_openai.queue_json({"should_update": False, "reason": ""})
    model.chat_json(asked, required=REQUIRED)
    assert fake_openai.last_request().body["messages"] == asked


def test_chat_json_falls_back_when_response_format_is_rejected(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_error(400, "response_format is not supported by this server")
    fake_openai.queue_text('Sure: {"should_update": true, "reason": "r"}')
    model = open_model(make_settings())
    assert model.chat_json(USER, required=REQUIRED)["should_update"] is True
    first, second = (r.body for r in fake_openai.chat_requests())
    assert "response_format" in first and "response_format" not in second
    # Remembered: the next call does not try again.
    fake_openai.queue_json({"should_update": False, "reason": ""})
    model.chat_json(USER, required=REQUIRED)
    assert "response_format" not in fake_openai.last_request().body
    assert len(fake_openai.chat_requests()) == 3


def test_vague_400_also_drops_response_format(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_error(400, "invalid request")
    fake_openai.queue_json({"should_update": True, "reason": "r"})
    assert open_model(make_settings()).chat_json(USER, required=REQUIRED)["reason"] == "r"


def test_max_completion_tokens_rename(fake_openai: FakeOpenAI, make_settings: MakeSettings) -> None:
    fake_openai.queue_error(
        400,
        "Unsupported parameter: 'max_tokens' is not supported with this model. "
        "Use 'max_completion_tokens' instead.",
        param="max_tokens",
    )
    model = open_model(make_settings())
    assert model.chat(USER, max_tokens=64).text == "ok"
    body = fake_openai.last_request().body
    assert body["max_completion_tokens"] == 64 and "max_tokens" not in body
    model.chat(USER, max_tokens=32)
    assert fake_openai.last_request().body["max_completion_tokens"] == 32


def test_rejected_temperature_is_dropped(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    fake_openai.queue_error(
        400, "Unsupported value: 'temperature' does not support 0.2", param="temperature"
    )
    assert open_model(make_settings()).chat(USER, temperature=0.2).text == "ok"
    assert "temperature" not in fake_openai.last_request().body


GARBAGE = [
    b"\x89PNG\r\n\x1a\n\x00\xff",  # not even UTF-8
    b"<html><body>It works!</body></html>\n",  # text, but no events
    b"data: {not json}\n\n",  # events that are not JSON
    b'data: [1, 2]\n\ndata: "chunk"\n\n',  # JSON that is no chunk
    b'data: {"choices": 5}\n\n',
    b'data: {"choices": [{"index": 0, "delta": {"content": 7}}]}\n\n',
    b"data: [DONE]\n\n",  # a stream with nothing in it
]


@pytest.mark.parametrize("body", GARBAGE)
def test_a_garbage_stream_is_a_model_error(
    fake_openai: FakeOpenAI, make_settings: MakeSettings, body: bytes
) -> None:
    # Streamed, and asked once more unstreamed when no chunk came: garbage both times.
    fake_openai.queue_stream_garbage(body)
    fake_openai.queue_stream_garbage(body)
    with pytest.raises(ModelAnswerError, match="OpenAI-compatible") as caught:
        open_model(make_settings()).stream(USER, on_text=lambda _t: None)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "body",
    [
        b"\x00\xff garbage",
        b"{bad",
        b'{"choices": 5}',
        b'{"choices": [5]}',
        b'{"choices": [{"message": 5}]}',
    ],
)
def test_a_garbage_completion_is_a_model_error(
    fake_openai: FakeOpenAI, make_settings: MakeSettings, body: bytes
) -> None:
    fake_openai.queue_stream_garbage(body)
    with pytest.raises(ModelAnswerError, match="OpenAI-compatible"):
        open_model(make_settings()).chat(USER)


def test_a_stream_that_ends_before_any_answer_is_asked_for_whole(
    fake_openai: FakeOpenAI, make_settings: MakeSettings
) -> None:
    # What llama-cpp-python's server does with a prompt longer than its context: 200, then
    # nothing; asked unstreamed, it says so in a 400 (and chat then cuts the conversation).
    fake_openai.queue_stream_garbage(b"")
    fake_openai.queue_error(400, "Requested tokens (2065) exceed context window of 2048",
                            code="context_length_exceeded")  # fmt: skip
    with pytest.raises(ContextTooLargeError, match="context window"):
        open_model(make_settings()).stream(USER, on_text=lambda _t: None)
    # A stream that failed once and an answer whole: the answer, with a note.
    fake_openai.queue_stream_garbage(b"")
    fake_openai.queue_text("Hello.")
    heard: list[str] = []
    answer = open_model(make_settings()).stream(USER, on_text=heard.append)
    assert answer.text == "Hello." and heard == ["Hello."]
    assert answer.notes == (STREAMED_NOTHING_NOTE,)
