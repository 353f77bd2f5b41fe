"""Turns against the fake server: streaming, tools, the three context stages, fresh files."""

import json
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from chat.chatkit import OpenChat, sent_messages
from memclaw.chat.context import SUMMARY_HEADER
from memclaw.chat.session import read_transcript
from memclaw.chat.turn import TOOL_MARKUP_NOTE, UNANSWERED
from memclaw.errors import ContextTooLargeError

SECRET = "sk-" + "abcdefghijklmnopqrstuvwxyz123456"


def test_streaming_delivers_deltas_and_writes_the_transcript(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    fake_openai.queue_text("Atlas ships in December, as planned.")
    deltas: list[str] = []
    result = conversation.turn("When does Atlas ship?", on_text=deltas.append)
    conversation.close(wait=5)
    assert len(deltas) > 1 and "".join(deltas) == result.text
    assert result.text == "Atlas ships in December, as planned."
    assert fake_openai.chat_requests()[0].body["stream"] is True
    messages, _ = read_transcript(conversation.session.path)
    assert messages == [
        {"role": "user", "content": "When does Atlas ship?"},
        {"role": "assistant", "content": "Atlas ships in December, as planned."},
    ]


def test_the_system_prompt_carries_the_injected_files_and_comes_first(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    conversation.turn("hello there")
    conversation.close(wait=5)
    messages = sent_messages(fake_openai)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "Project Atlas ships in December" in messages[0]["content"]
    assert "--- PROFILE.md ---" in messages[0]["content"]


def test_tool_calls_are_executed_and_their_results_fed_back(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    fake_openai.queue_tool_call("memory_files_read", {"filename": "MEMORY.md"}, "call_1")
    fake_openai.queue_text("It ships in December.")
    shown: list[str] = []
    result = conversation.turn("Read your memory file", on_tool=lambda r: shown.append(r.summary))
    conversation.close(wait=5)
    assert result.text == "It ships in December."
    second = sent_messages(fake_openai, 1)
    assert second[-2]["tool_calls"][0]["function"]["name"] == "memory_files_read"
    tool = second[-1]
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_1"
    assert "Project Atlas ships in December" in json.loads(tool["content"])["content"]
    assert shown == ["memory_files_read MEMORY.md → 44 chars"]
    roles = [m["role"] for m in conversation.session.messages]
    assert roles == ["user", "assistant", "tool", "assistant"]


def test_a_failing_tool_returns_an_error_to_the_model_and_the_chat_goes_on(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    fake_openai.queue_tool_calls(
        [
            ("memory_files_read", {"filename": "../../etc/passwd"}, "c1"),
            ("memory_files_write", {"filename": "NOTE.md", "content": f"key {SECRET}"}, "c2"),
            ("no_such_tool", {}, "c3"),
        ]
    )
    fake_openai.queue_text("Sorry, I could not do that.")
    result = conversation.turn("try some things")
    conversation.close(wait=5)
    results = [m for m in sent_messages(fake_openai) if m["role"] == "tool"]
    assert [r["content"].startswith("error:") for r in results] == [True, True, True]
    assert "secret" in results[1]["content"] or "credential" in results[1]["content"]
    assert not (conversation.engine.agent.path / "NOTE.md").exists()
    assert [r.ok for r in result.tool_calls] == [False, False, False]
    assert result.text == "Sorry, I could not do that."


def test_memory_operations_are_recorded(open_chat: OpenChat, fake_openai: FakeOpenAI) -> None:
    conversation = open_chat()
    fake_openai.queue_tool_call("memory_store", {"text": "Maya's dog is called Knut"})
    fake_openai.queue_text("Noted.")
    result = conversation.turn("My dog is called Knut, remember that")
    conversation.close(wait=5)
    assert len(result.memory_operations) == 1
    op = result.memory_operations[0]
    assert op["op"] == "store" and op["action"] == "added" and op["id"].startswith("m-")
    assert (
        "Knut"
        in (conversation.engine.agent.path / "entries").joinpath(f"{op['category']}.md").read_text()
    )


def test_tool_rounds_are_bounded(open_chat: OpenChat, fake_openai: FakeOpenAI) -> None:
    conversation = open_chat()
    conversation.engine.max_rounds = 3
    for _ in range(3):
        fake_openai.queue_tool_call("memory_list", {})
    fake_openai.queue_text("Here is what I found.")
    result = conversation.turn("loop forever")
    conversation.close(wait=5)
    requests = fake_openai.chat_requests()
    assert len(requests) == 4
    assert result.notes == ["stopped after 3 rounds of tool calls; answered without tools"]
    # The last request offers no tools, so the person gets an answer, not silence.
    assert all("tools" in r.body for r in requests[:3]) and "tools" not in requests[3].body
    assert result.text == "Here is what I found."
    roles = [m["role"] for m in conversation.session.messages]
    assert roles[-2:] == ["tool", "assistant"]


def long_history(conversation: Any, turns: int, words: int = 60) -> None:
    """Put earlier turns into the session without calling the model."""
    rows = []
    for i in range(turns):
        rows.append({"role": "user", "content": f"question {i} " + "alpha " * words})
        rows.append({"role": "assistant", "content": f"answer {i} " + "beta " * words})
    conversation.session.append(rows)


def test_compression_at_the_threshold_sends_the_summary_as_a_user_message(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    settings = {"context_window_tokens": 8000, "min_recent_messages": 4, "recall_enabled": False}
    conversation = open_chat(settings)
    long_history(conversation, 20, words=200)  # ~8k tokens: well past 6000
    fake_openai.queue_text("They talked about alpha and beta at length.")
    fake_openai.queue_text("Here is my answer.")
    result = conversation.turn("and now?")
    conversation.close(wait=5)
    assert result.compressed
    summary_request, answer_request = fake_openai.chat_requests()
    assert summary_request.body.get("stream") is not True
    assert summary_request.body["max_tokens"] == 300
    messages = answer_request.body["messages"]
    assert [m["role"] for m in messages].count("system") == 1
    assert messages[0]["role"] == "system"
    assert messages[1] == {
        "role": "user",
        "content": f"{SUMMARY_HEADER}\nThey talked about alpha and beta at length.",
    }
    assert messages[2]["role"] == "user" and messages[2]["content"].startswith("question")
    assert messages[-1] == {"role": "user", "content": "and now?"}
    assert 4 <= len(messages) - 3 < 40
    assert result.context_tokens <= 6000


def test_below_the_threshold_nothing_is_summarised(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat({"context_window_tokens": 100000, "recall_enabled": False})
    long_history(conversation, 20)
    result = conversation.turn("and now?")
    conversation.close(wait=5)
    assert not result.compressed
    assert len(fake_openai.chat_requests()) == 1
    assert len(sent_messages(fake_openai)) == 42


def context_error(server: FakeOpenAI) -> None:
    server.queue_error(
        400, "This model's maximum context length is 8192 tokens.", code="context_length_exceeded"
    )


def test_context_too_large_keeps_the_last_two_turns_and_retries_once(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat({"recall_enabled": False})
    long_history(conversation, 6, words=5)
    context_error(fake_openai)
    fake_openai.queue_text("Short answer.")
    result = conversation.turn("and now?")
    conversation.close(wait=5)
    assert result.text == "Short answer."
    first, retry = fake_openai.chat_requests()
    assert len(first.body["messages"]) == 14
    messages = retry.body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[1]["content"].startswith("question 5")
    assert any("last 2 turns" in note for note in result.notes)
    # The transcript keeps everything: trimming only shapes the request.
    assert len(conversation.session.messages) == 14


def test_still_too_large_drops_from_the_front_keeping_the_last_two(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat({"recall_enabled": False})
    long_history(conversation, 6, words=5)
    context_error(fake_openai)
    context_error(fake_openai)
    fake_openai.queue_text("Tiny answer.")
    result = conversation.turn("and now?")
    conversation.close(wait=5)
    assert result.text == "Tiny answer."
    last = fake_openai.chat_requests()[-1].body["messages"]
    assert [m["role"] for m in last] == ["system", "assistant", "user"]
    assert last[-1]["content"] == "and now?"
    assert len(fake_openai.chat_requests()) == 3


def test_three_refusals_reach_the_caller(open_chat: OpenChat, fake_openai: FakeOpenAI) -> None:
    conversation = open_chat({"recall_enabled": False})
    for _ in range(3):
        context_error(fake_openai)
    with pytest.raises(ContextTooLargeError):
        conversation.turn("My sister Lina lives in Utrecht.")
    conversation.close(wait=5)
    # The person's words are kept for extraction, the turn marked as never answered.
    assert conversation.session.messages == [
        {"role": "user", "content": "My sister Lina lives in Utrecht."},
        {"role": "assistant", "content": UNANSWERED},
    ]


def test_a_turn_the_model_fails_is_still_extracted_offline(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    """A small model's window overflowed on the second turn: the chat goes on, and the
    words of that turn reach memory all the same."""
    from memclaw.extract.pipeline import extract_conversation

    conversation = open_chat({"recall_enabled": False, "extract_min_messages": 100})
    fake_openai.queue_text("Nice to meet you.")
    conversation.turn("Hi, I'm Noor and I work as a nurse.")
    for _ in range(3):
        context_error(fake_openai)
    with pytest.raises(ContextTooLargeError):
        conversation.turn("My daughter Lina turns seven in March.")
    fake_openai.queue_text("Lovely.")
    conversation.turn("On Tuesdays I play the cello.")
    scope, session = conversation.engine.scope, conversation.session
    conversation.close(wait=5)
    messages, _ = read_transcript(session.path)
    said = [m["content"] for m in messages if m["role"] == "user"]
    assert said[1] == "My daughter Lina turns seven in March."
    result = extract_conversation(scope, messages, force=True, offline=True)
    kept = (scope.agent.path / "MEMORY.md").read_text(encoding="utf-8")
    assert result.status == "written" and "Lina" in kept, kept


def test_files_edited_on_disk_reach_the_next_turn(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    conversation.turn("first")
    path = conversation.engine.agent.path / "MEMORY.md"
    path.write_text("# Memory\n- Atlas moved to January.\n")
    result = conversation.turn("second")
    conversation.close(wait=5)
    assert result.changed_files == ["MEMORY.md"]
    assert "Atlas moved to January" in sent_messages(fake_openai)[0]["content"]


def test_own_tool_writes_are_not_reported_as_changed_on_disk(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    fake_openai.queue_tool_call(
        "memory_files_edit",
        {"filename": "MEMORY.md", "old_text": "December", "new_text": "January"},
    )
    fake_openai.queue_text("Updated.")
    conversation.turn("Atlas moved to January")
    result = conversation.turn("thanks")
    conversation.close(wait=5)
    assert result.changed_files == []
    assert "Atlas ships in January" in sent_messages(fake_openai)[0]["content"]


def test_keyboard_interrupt_keeps_the_partial_answer_marked(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    fake_openai.queue_text("This answer is long and will be cut off by the person.")
    seen: list[str] = []

    def stop_after_three(delta: str) -> None:
        seen.append(delta)
        if len(seen) == 3:
            raise KeyboardInterrupt

    result = conversation.turn("tell me a story", on_text=stop_after_three)
    assert result.interrupted
    assert result.text.startswith("".join(seen).strip())
    assert result.text.endswith("interrupted by the person]")
    fake_openai.queue_text("Next answer.")
    after = conversation.turn("go on")
    conversation.close(wait=5)
    assert after.text == "Next answer."
    roles = [m["role"] for m in conversation.session.messages]
    assert roles == ["user", "assistant", "user", "assistant"]


def test_a_tool_call_written_as_text_is_not_kept(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat({"recall_enabled": False})
    fake_openai.queue_text("Let me look.\nfunctions.memory_get:\n{&#34;id&#34;: &#34;m-1&#34;}")
    result = conversation.turn("what do you know about my tea?")
    conversation.close(wait=5)
    assert result.text == "Let me look." and TOOL_MARKUP_NOTE in result.notes
    kept = [m["content"] for m in conversation.session.messages if m["role"] == "assistant"]
    assert kept == ["Let me look."]
