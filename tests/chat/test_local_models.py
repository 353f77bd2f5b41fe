"""A chat turn against servers that cannot take the memory tools the usual way."""

from fake_openai import FakeOpenAI

from chat.chatkit import OpenChat, sent_messages
from memclaw.llm.openai_client import NO_STREAM_NOTE, NO_TOOLS_NOTE


def test_a_model_without_tool_support_still_answers_and_the_turn_says_why(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    fake_openai.queue_error(400, "registry.ollama.ai/library/gemma3:270m does not support tools")
    fake_openai.queue_text("Atlas ships in December.")
    result = conversation.turn("When does Atlas ship?")
    conversation.close(wait=5)
    assert result.text == "Atlas ships in December."
    assert result.notes.count(NO_TOOLS_NOTE) == 1
    assert conversation.session.messages[-1]["content"] == "Atlas ships in December."


def test_a_tool_call_that_only_comes_unstreamed_is_run_and_the_turn_goes_on(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat()
    fake_openai.queue_stream_garbage(b"")  # llama-cpp-python: no events for stream + tools
    fake_openai.queue_tool_call("memory_files_read", {"filename": "MEMORY.md"}, "call_1")
    fake_openai.queue_text("It ships in December.")
    shown: list[str] = []
    result = conversation.turn("Read your memory", on_text=shown.append)
    conversation.close(wait=5)
    assert [r.name for r in result.tool_calls] == ["memory_files_read"]
    assert result.text == "It ships in December." and "".join(shown) == result.text
    assert result.notes.count(NO_STREAM_NOTE) == 1


def test_the_tool_call_turn_is_sent_back_with_empty_text_not_null(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    # llama-cpp-python's server answers 500 to an assistant message whose content is null.
    conversation = open_chat()
    fake_openai.queue_tool_call("memory_files_read", {"filename": "MEMORY.md"}, "call_1")
    fake_openai.queue_text("It ships in December.")
    conversation.turn("Read your memory")
    fake_openai.queue_text("Yes.")
    conversation.turn("Sure?")  # the stored tool-call turn goes back as history
    conversation.close(wait=5)
    for index in (1, 2):
        calls = [m for m in sent_messages(fake_openai, index) if m.get("tool_calls")]
        assert len(calls) == 1 and calls[0]["content"] == ""


def test_an_empty_answer_is_said_in_one_line(open_chat: OpenChat, fake_openai: FakeOpenAI) -> None:
    # Gemma 3 270M under chatml-function-calling with tools: a message of nothing at all.
    conversation = open_chat()
    fake_openai.queue_text("")
    result = conversation.turn("Remember: Maya loves kanelbulle.")
    conversation.close(wait=5)
    assert result.text == ""
    assert result.notes == ["the model gave an empty answer (finish reason: stop)"]
