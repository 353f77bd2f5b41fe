"""Extraction after the conversation: when it runs, what it writes, when it never runs."""

import json
import threading
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from chat.chatkit import EXTRACTION, OpenChat
from memclaw.extract.later import extract_pending
from memclaw.extract.pending import read_rows
from memclaw.llm import open_model
from memclaw.workspace.logs import read_log


def is_extraction(request: dict[str, Any]) -> bool:
    return "response_format" in request


@pytest.fixture
def answers(fake_openai: FakeOpenAI) -> FakeOpenAI:
    """Chat turns get a short answer, extraction requests the scripted JSON."""
    fake_openai.default_reply = lambda request: (
        json.dumps(EXTRACTION) if is_extraction(request) else "Sure, noted."
    )
    return fake_openai


def extraction_requests(server: FakeOpenAI) -> list[dict[str, Any]]:
    return [r.body for r in server.chat_requests() if is_extraction(r.body)]


def test_extraction_runs_after_the_conversation_and_updates_memory(
    open_chat: OpenChat, answers: FakeOpenAI
) -> None:
    conversation = open_chat()
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    result = conversation.close(wait=10)
    assert result is not None and str(result.status) == "written"
    agent = conversation.engine.agent
    assert "Helix" in agent.read("PROFILE.md")
    assert "Editor: Helix" in agent.read("MEMORY.md")
    assert "switched to Helix" in agent.read("memory/2026-11-29.md")
    assert len(extraction_requests(answers)) == 1
    assert any(line.startswith("memory receipt") for line in conversation.drain())
    record = list(read_log(agent, "extract"))[-1]
    assert record["session"] == conversation.session.id and record["trigger"] == "chat"
    assert read_rows(agent) == []  # queued while open, done at its end: nothing waits


def test_a_chat_killed_mid_way_is_extracted_by_the_next_chat_or_dream(
    open_chat: OpenChat, answers: FakeOpenAI
) -> None:
    # One request at a time: nothing is extracted mid-chat, all of it waits for the end.
    conversation = open_chat({"extract_cooldown_minutes": 0, "model_slots": 1})
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    agent, session = conversation.engine.agent, conversation.session.id
    assert [row["session"] for row in read_rows(agent)] == [session]
    # While the chat is open, a dream leaves the conversation to the chat's own end.
    assert extract_pending(agent, open_model(agent.settings)) == []
    assert extraction_requests(answers) == []
    conversation.session._lock.close()  # killed: the system frees its lock, and no more
    (result,) = extract_pending(agent, open_model(agent.settings))
    assert str(result.status) == "written", result.reason
    assert read_rows(agent) == [] and "Helix" in agent.read("PROFILE.md")


def test_the_end_of_the_conversation_extracts_what_came_after_a_mid_run(
    open_chat: OpenChat, answers: FakeOpenAI
) -> None:
    conversation = open_chat()
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    assert conversation.extractor.running or conversation.extractor.results
    conversation.extractor.join(10)
    conversation.turn("Also, I moved to Gothenburg in October.")
    conversation.close(wait=10)
    requests = extraction_requests(answers)
    assert len(requests) == 2
    assert "Gothenburg" in requests[1]["messages"][-1]["content"]


def test_the_next_turn_is_not_blocked_by_a_running_extraction(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    release = threading.Event()

    def reply(request: dict[str, Any]) -> str:
        if is_extraction(request):
            release.wait(10)  # the extraction is slow until the test lets it finish
            return json.dumps(EXTRACTION)
        return "Sure, noted."

    fake_openai.default_reply = reply
    conversation = open_chat()
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    assert conversation.extractor.running
    following = conversation.turn("And what else?")
    assert following.text == "Sure, noted."
    assert conversation.extractor.running
    release.set()
    conversation.close(wait=10)
    assert "Helix" in conversation.engine.agent.read("PROFILE.md")


@pytest.mark.parametrize(
    "options",
    [{"trigger": "cron"}, {"trigger": "heartbeat"}, {"subagent": True}, {"capture": False}],
)
def test_scheduled_subagent_and_no_capture_chats_are_never_extracted(
    open_chat: OpenChat, answers: FakeOpenAI, options: dict[str, Any]
) -> None:
    conversation = open_chat(**options)
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    assert conversation.close(wait=10) is None
    assert extraction_requests(answers) == []
    agent = conversation.engine.agent
    assert "Helix" not in agent.read("PROFILE.md")
    assert list(read_log(agent, "extract")) == []


def test_short_conversations_are_not_extracted(open_chat: OpenChat, answers: FakeOpenAI) -> None:
    conversation = open_chat()
    conversation.turn("I switched my editor to Helix last week.")
    assert conversation.close(wait=10) is None
    assert extraction_requests(answers) == []


def test_a_failed_extraction_is_logged_and_reported_quietly(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    # The server fails (an answer that is not JSON would be extracted offline instead).
    def reply(request: dict[str, Any]) -> str:
        if is_extraction(request):
            raise RuntimeError("out of memory")
        return "Sure."

    fake_openai.default_reply = reply
    conversation = open_chat()
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    assert conversation.close(wait=10) is None
    notices = conversation.drain()
    agent = conversation.engine.agent
    assert notices == [
        "memory not updated: extraction failed; queued to try again "
        f"(see memclaw log {agent.id} chat)"
    ]
    records = list(read_log(agent, "chat"))
    assert records[-1]["event"] == "extract-failed"
    assert records[-1]["session"] == conversation.session.id
    # Kept for later: the next chat or dream tries the model again, and after three
    # failures the offline engine extracts it, saying so.
    (row,) = read_rows(agent)
    assert row["session"] == conversation.session.id and row["tries"] == 1
    assert "out of memory" in row["error"]
    model = open_model(agent.settings)
    for tries in (2, 3):
        (failed,) = extract_pending(agent, model)
        assert str(failed.status) == "failed" and "out of memory" in failed.reason
        assert read_rows(agent)[0]["tries"] == tries
    assert "Helix" not in agent.read("PROFILE.md") + agent.read("MEMORY.md")
    (offline,) = extract_pending(agent, model)
    assert str(offline.status) == "written" and offline.engine == "offline"
    assert any("failed it 3 times" in note and "offline" in note for note in offline.notes)
    assert "Helix" in agent.read("PROFILE.md") + agent.read("MEMORY.md")
    assert read_rows(agent) == []


def test_a_chat_that_cannot_wait_for_its_extraction_queues_it(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    release = threading.Event()

    def reply(request: dict[str, Any]) -> str:
        if is_extraction(request):
            release.wait(10)  # a slow local model, still thinking when the chat ends
            return json.dumps(EXTRACTION)
        return "Sure, noted."

    fake_openai.default_reply = reply
    conversation = open_chat({"extract_cooldown_minutes": 0})
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    assert conversation.close(wait=0.2) is None
    agent, session = conversation.engine.agent, conversation.session.id
    (notice,) = conversation.drain()
    assert "queued for the next chat or dream" in notice
    assert f"memclaw extract {agent.id} --session {session}" in notice
    assert [row["session"] for row in read_rows(agent)] == [session]
    # Here the process lives on and the extraction ends: the queued turns are read
    # already, so the next chat or dream drops the row without a word.
    release.set()
    conversation.extractor.join(10)
    assert extract_pending(agent, open_model(agent.settings)) == []
    assert read_rows(agent) == []
    assert "Helix" in agent.read("PROFILE.md")


def test_the_end_of_the_conversation_never_extracts_a_turn_the_mid_run_read(
    open_chat: OpenChat, answers: FakeOpenAI
) -> None:
    conversation = open_chat()
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    conversation.extractor.join(10)
    conversation.turn("Also, I moved to Gothenburg in October.")
    conversation.close(wait=10)
    first, last = (
        r["messages"][-1]["content"].split("=== Conversation ===")[-1]
        for r in extraction_requests(answers)
    )
    assert "Helix" in first
    assert "Gothenburg" in last and "Helix" not in last
    agent = conversation.engine.agent
    memory = agent.read("MEMORY.md")
    assert memory.count("Editor: Helix") == 1


def test_a_session_the_chat_extracted_is_not_extracted_again_from_its_file(
    open_chat: OpenChat, answers: FakeOpenAI
) -> None:
    from memclaw.extract.pipeline import extract_conversation
    from memclaw.extract.transcripts import load_session

    conversation = open_chat()
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    conversation.close(wait=10)
    scope, session_id = conversation.session.scope, conversation.session.id
    daily = scope.agent.read("memory/2026-11-29.md")
    before = len(extraction_requests(answers))
    messages = load_session(scope, session_id)
    result = extract_conversation(scope, messages, session_id=session_id, force=True)
    assert str(result.status) == "skipped" and "extracted already" in result.reason
    assert len(extraction_requests(answers)) == before
    assert scope.agent.read("memory/2026-11-29.md") == daily
    again = extract_conversation(scope, messages, session_id=session_id, force=True, again=True)
    assert str(again.status) != "skipped"
    read = extraction_requests(answers)[-1]["messages"][-1]["content"]
    assert "Helix" in read.split("=== Conversation ===")[-1]


def test_a_server_that_answers_one_request_at_a_time_extracts_when_the_chat_ends(
    open_chat: OpenChat, answers: FakeOpenAI
) -> None:
    # model_slots 0: a server on this machine (as the fake is) is taken to have one slot.
    conversation = open_chat({"model_slots": 0})
    conversation.turn("I switched my editor to Helix last week.")
    conversation.turn("Helix is my editor now, please keep that in mind.")
    conversation.turn("And my terminal is Ghostty.")
    assert not conversation.extractor.running and extraction_requests(answers) == []
    result = conversation.close(wait=10)
    assert result is not None and str(result.status) == "written"
    assert len(extraction_requests(answers)) == 1
    assert "Helix" in conversation.engine.agent.read("PROFILE.md")


@pytest.mark.parametrize(
    ("base_url", "slots", "one"),
    [
        ("http://localhost:11434/v1", 0, True),
        ("http://127.0.0.1:8080/v1", 0, True),
        ("http://[::1]:8080/v1", 0, True),
        ("http://127.0.0.1:8080/v1", 4, False),
        ("https://api.openai.com/v1", 0, False),
        ("http://10.0.0.5:8000/v1", 0, False),
        ("https://api.openai.com/v1", 1, True),
    ],
)
def test_which_endpoints_answer_one_request_at_a_time(base_url: str, slots: int, one: bool) -> None:
    from memclaw.config import Settings
    from memclaw.llm.gate import one_at_a_time

    assert one_at_a_time(Settings(base_url=base_url, model_slots=slots)) is one
