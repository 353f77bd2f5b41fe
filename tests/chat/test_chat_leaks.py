"""A chat keeps no secret on disk, and never sends memory text holding one to the model.

The person's own message of the current turn goes to the model they chose as it
is; everything memclaw adds (memory files, recalled lines, tool results, earlier
turns read back from the transcript) is redacted.
"""

from pathlib import Path

from fake_openai import FakeOpenAI
from secretkit import GITHUB, OPENAI, leaks

from chat.chatkit import EXTRACTION, OpenChat, sent_messages
from memclaw.chat.session import read_transcript
from memclaw.workspace.atomic import atomic_write


def test_a_token_in_a_chat_is_kept_nowhere(
    open_chat: OpenChat, fake_openai: FakeOpenAI, isolated_env: Path
) -> None:
    conversation = open_chat(owner="user:maya")
    agent = conversation.engine.agent
    # A hand edit the gate never saw; it is injected into every system prompt.
    memory = agent.path / "MEMORY.md"
    atomic_write(memory, memory.read_text() + f"- mailer key {OPENAI}\n")
    fake_openai.queue_tool_call("memory_files_read", {"filename": "MEMORY.md"}, "c1")
    fake_openai.queue_text(f"Stored {GITHUB} for you.")
    conversation.turn(f"my deploy token is {GITHUB}, Atlas ships in December")
    fake_openai.queue_text("Noted.")
    fake_openai.queue_json(EXTRACTION)
    conversation.turn("and remember that Atlas ships in December please")
    conversation.close(wait=5)

    first, second = sent_messages(fake_openai, 0), sent_messages(fake_openai, 2)
    assert OPENAI not in str(first) and OPENAI not in str(second)
    assert GITHUB in first[-1]["content"]  # the person's own message, this turn
    assert GITHUB not in str(second)  # read back from the transcript: redacted
    assert all(OPENAI not in str(r.body) for r in fake_openai.chat_requests())
    messages, _ = read_transcript(conversation.session.path)
    assert "owners/" in conversation.session.path.as_posix()
    assert "[REDACTED:" in messages[0]["content"]
    # Only the hand edit itself, and the index that mirrors it (`memclaw scan --redact`).
    assert leaks(isolated_env) == ["pal/.memclaw/index.sqlite", "pal/MEMORY.md"]


def test_a_secret_the_model_repeats_is_kept_nowhere_and_not_sent_again(
    open_chat: OpenChat, fake_openai: FakeOpenAI
) -> None:
    conversation = open_chat(capture=False)
    fake_openai.queue_text("Got it: 4711. I will remember 4711 for the door.")
    conversation.turn("My door code is 4711")
    fake_openai.queue_text("Sure.")
    conversation.turn("thanks, and the gate is number 4711b")
    conversation.close(wait=5)
    messages, _ = read_transcript(conversation.session.path)
    assert "4711" not in str(messages[:2])  # told and repeated: redacted both times
    assert messages[1]["content"] == (
        "Got it: [REDACTED:password]. I will remember [REDACTED:password] for the door."
    )
    assert "4711" not in str(sent_messages(fake_openai)[:-1])  # the transcript, sent back
    assert "4711b" in messages[2]["content"]  # another word that holds it is no secret


def test_transcripts_can_be_turned_off(open_chat: OpenChat, fake_openai: FakeOpenAI) -> None:
    conversation = open_chat({"chat_transcripts": False}, capture=False)
    fake_openai.queue_text("Hello.")
    conversation.turn("hello there")
    conversation.turn("and again")
    conversation.close(wait=5)
    assert not conversation.session.path.exists()
    assert len(sent_messages(fake_openai)) == 4  # system, the first turn, the new message
