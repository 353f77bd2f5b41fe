"""openai is imported while the person types the first message, not after."""

import sys
from pathlib import Path
from typing import Any

from chat.test_terminal import CONTROLLING_TTY, Terminal
from fake_openai import FakeOpenAI

# Stands in for the person at the prompt: looks whether openai is loaded by the
# time they would have typed a message, then ends the chat.
SCRIPT = """
import sys, threading
import memclaw.cli.talk.term as term

def typing(read=None):
    for thread in threading.enumerate():
        if thread.name == "memclaw-preload":
            thread.join(30)
    print("openai loaded:", "openai" in sys.modules, flush=True)
    raise EOFError

term.read_message = typing
from memclaw.cli.fast import main
main()
"""


def test_openai_is_imported_while_the_first_message_is_typed(
    demo_agent: Path, fake_openai: FakeOpenAI, tmp_path: Path, monkeypatch: Any
) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "MEMCLAW_ROOT": str(demo_agent.parent),
        "MEMCLAW_BASE_URL": fake_openai.base_url,
        "MEMCLAW_API_KEY": "test",
        "TERM": "xterm",
    }
    command = [sys.executable, "-c", CONTROLLING_TTY, "-c", SCRIPT, "chat", "demo", "--no-capture"]
    term = Terminal(command, env, tmp_path)
    try:
        term.expect(r"openai loaded: True")
        assert term.wait() == 0
    finally:
        term.close()
