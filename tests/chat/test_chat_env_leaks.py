"""A password set in an environment variable, said in a chat, is kept nowhere on disk.

The model repeats it, tries to store it with ``memory_store`` and puts it in its extraction;
the transcript, the memory files, the logs and the search index must still not hold it.
"""

from pathlib import Path

from fake_openai import FakeOpenAI
from secretkit import everything_under

from chat.chatkit import EXTRACTION, OpenChat
from memclaw.chat.session import read_transcript

SAID = "PGPASSWORD=Wint3r-is-here psql -h db -U app is how I restore staging"


def test_an_env_password_in_a_chat_is_kept_nowhere(
    open_chat: OpenChat, fake_openai: FakeOpenAI, isolated_env: Path
) -> None:
    conversation = open_chat(owner="user:maya")
    fake_openai.queue_tool_call("memory_store", {"text": SAID}, "c1")
    fake_openai.queue_text("Stored: PGPASSWORD=Wint3r-is-here.")
    conversation.turn(SAID)
    fake_openai.queue_text("Noted.")
    fake_openai.queue_json({**EXTRACTION, "daily_entry": f"- Maya restores staging with {SAID}"})
    conversation.turn("thanks, remember how I restore staging")
    conversation.close(wait=5)

    messages, _ = read_transcript(conversation.session.path)
    assert "[REDACTED:" in messages[0]["content"]
    assert "wint3r" not in everything_under(isolated_env).lower()
