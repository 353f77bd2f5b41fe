"""What the real-model lane saw local servers do with tools, replayed on the fake server.

llama-cpp-python's server (``--chat_format chatml-function-calling``) ignores tools unless
``tool_choice`` is sent, and answers a streamed request with tools by closing the stream
without a single event. Ollama answers 400 "does not support tools" for models without
tool support. Reasoning models open their answers with a ``<think>`` block. memclaw must
still answer, take the answer and not the draft, and say in one line what it changed.
"""

from collections.abc import Callable
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from memclaw.config import Settings
from memclaw.errors import ContextTooLargeError
from memclaw.llm import open_model
from memclaw.llm.openai_client import NO_STREAM_NOTE, NO_TOOLS_NOTE

MakeSettings = Callable[..., Settings]
USER: list[dict[str, Any]] = [{"role": "user", "content": "when is the cutover?"}]
TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "memory_search",
            "description": "search memory",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
        },
    }
]


def bodies(server: FakeOpenAI) -> list[dict[str, Any]]:
    found = [r.body for r in server.chat_requests()]
    assert all(isinstance(b, dict) for b in found)
    return found  # type: ignore[return-value]


def test_tools_go_with_tool_choice_auto_and_without_tools_it_is_not_sent(
    make_settings: MakeSettings, fake_openai: FakeOpenAI
) -> None:
    model = open_model(make_settings())
    fake_openai.queue_text("one")
    fake_openai.queue_text("two")
    model.stream(USER, tools=TOOLS, on_text=lambda _: None)
    model.chat(USER)
    with_tools, without = bodies(fake_openai)
    assert with_tools["tools"] == TOOLS and with_tools["tool_choice"] == "auto"
    assert "tool_choice" not in without and "tools" not in without


def test_a_server_that_rejects_tool_choice_still_gets_the_tools(
    make_settings: MakeSettings, fake_openai: FakeOpenAI
) -> None:
    model = open_model(make_settings())
    fake_openai.queue_error(400, "Unrecognized request argument: tool_choice", param="tool_choice")
    fake_openai.queue_tool_call("memory_search", {"query": "cutover"})
    result = model.chat(USER, tools=TOOLS)
    assert [c.name for c in result.tool_calls] == ["memory_search"]
    assert result.notes == ()
    retried = bodies(fake_openai)[1]
    assert retried["tools"] == TOOLS and "tool_choice" not in retried


def test_a_model_without_tool_support_answers_without_tools_and_says_so(
    make_settings: MakeSettings, fake_openai: FakeOpenAI
) -> None:
    model = open_model(make_settings(model="gemma3:270m"))
    fake_openai.queue_error(400, "registry.ollama.ai/library/gemma3:270m does not support tools")
    fake_openai.queue_text("Saturday the 12th.")
    fake_openai.queue_text("Still the 12th.")
    seen: list[str] = []
    first = model.stream(USER, tools=TOOLS, on_text=seen.append)
    second = model.stream(USER, tools=TOOLS, on_text=seen.append)
    assert first.text == "Saturday the 12th." and "".join(seen).startswith(first.text)
    assert first.notes == (NO_TOOLS_NOTE,) and second.notes == (NO_TOOLS_NOTE,)
    sent = bodies(fake_openai)
    assert len(sent) == 3  # the refusal is remembered: no second refused request
    assert all("tools" not in b and "tool_choice" not in b for b in sent[1:])


def test_an_empty_stream_with_tools_is_asked_again_whole_and_then_never_streamed(
    make_settings: MakeSettings, fake_openai: FakeOpenAI
) -> None:
    model = open_model(make_settings())
    fake_openai.queue_stream_garbage(b"")  # 200 and not one event, as llama-cpp-python does
    fake_openai.queue_tool_call("memory_search", {"query": "cutover"})
    fake_openai.queue_text("It is on the 12th.")
    seen: list[str] = []
    first = model.stream(USER, tools=TOOLS, on_text=seen.append)
    assert [c.arguments for c in first.tool_calls] == [{"query": "cutover"}]
    assert first.notes == (NO_STREAM_NOTE,)
    second = model.stream(USER, tools=TOOLS, on_text=seen.append)
    assert second.text == "It is on the 12th." and seen == ["It is on the 12th."]
    assert [b.get("stream") for b in bodies(fake_openai)] == [True, None, None]


def test_an_empty_stream_without_tools_is_asked_whole_which_names_a_full_window(
    make_settings: MakeSettings, fake_openai: FakeOpenAI
) -> None:
    model = open_model(make_settings())
    fake_openai.queue_stream_garbage(b"")
    fake_openai.queue_error(400, "Requested tokens (2065) exceed context window of 2048",
                            code="context_length_exceeded")  # fmt: skip
    with pytest.raises(ContextTooLargeError, match="context window"):
        model.stream(USER, on_text=lambda _: None)
    assert [b.get("stream") for b in bodies(fake_openai)] == [True, None]


REQUIRED = {"should_update": bool, "reason": str}


@pytest.mark.parametrize(
    "answer",
    [
        '<think>A draft: {"should_update": false, "reason": "draft"}. No.</think>\n'
        '{"should_update": true, "reason": "final"}',
        # The template opened the block itself (DeepSeek-R1 distills): only its end shows.
        'Maybe {"should_update": false, "reason": "draft"}?\n</think>\n\n'
        'Sure: {"should_update": true, "reason": "final"}',
    ],
)
def test_a_json_answer_after_thinking_is_the_one_taken(
    make_settings: MakeSettings, fake_openai: FakeOpenAI, answer: str
) -> None:
    fake_openai.queue_text(answer)
    value = open_model(make_settings()).chat_json(USER, required=REQUIRED)
    assert value == {"should_update": True, "reason": "final"}


def test_thinking_is_shown_as_it_streams_but_is_not_what_the_model_said(
    make_settings: MakeSettings, fake_openai: FakeOpenAI
) -> None:
    model = open_model(make_settings())
    fake_openai.queue_text("<think>The note says the 12th.</think>\n\nOn Saturday the 12th.")
    fake_openai.queue_text("<think>The 12th again.</think>The 12th.")
    seen: list[str] = []
    streamed = model.stream(USER, on_text=seen.append)
    assert "".join(seen).startswith("<think>The note says")
    assert streamed.text == "On Saturday the 12th."
    assert model.chat(USER).text == "The 12th."
