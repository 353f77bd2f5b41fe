"""End to end in a real terminal: a pty running `python -m memclaw chat demo`.

The fake model server runs in the test process; the chat subprocess finds it
through MEMCLAW_BASE_URL. Every wait polls with a deadline; nothing sleeps a
fixed time and nothing asserts on how long anything took.
"""

import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from memclaw.workspace import ledger

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|[\x0e\x0f]")
TIMEOUT = 30.0
ANSWER = "Helix is a fine editor, Maya."
# The child becomes a session leader (start_new_session) and takes the pty as its
# controlling terminal, so Ctrl-C typed into the pty reaches it as SIGINT.
CONTROLLING_TTY = (
    "import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
)


class Terminal:
    """A child process on a pseudo-terminal, read with deadlines."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path, columns: int = 100) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        self.proc = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        os.close(slave)
        self.fd = master
        self.raw = b""
        self.seen = 0  # position in the cleaned text up to which expect() has matched

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", errors="replace")).replace("\r", "")

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal
                chunk = b""
            self.raw += chunk

    def expect(self, pattern: str, timeout: float = TIMEOUT) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.text, self.seen)
            if found:
                self.seen = found.end()
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {pattern!r}; screen:\n{self.text}")
            if self.proc.poll() is not None:
                self._read(0.05)
                if not regex.search(self.text, self.seen):
                    raise AssertionError(f"exited before {pattern!r}; screen:\n{self.text}")
            self._read(0.1)

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def interrupt_at_prompt(self) -> int:
        """Press Ctrl-C at the prompt and return the exit code.

        CPython's readline only looks for a pending SIGINT when select() is
        interrupted, so a Ctrl-C that lands after the prompt is drawn but before
        select() starts waits for the next key. A person would press it again;
        so does this, once, if the chat has not exited after a moment.
        """
        self.send(b"\x03")
        deadline = time.monotonic() + 3
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        if self.proc.poll() is None:
            self.send(b"\x03")
        return self.wait()

    def wait(self, timeout: float = TIMEOUT) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the chat did not exit; screen:\n{self.text}")
            self._read(0.1)
        self._read(0.05)
        return self.proc.returncode

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        os.close(self.fd)


@pytest.fixture
def terminal(demo_agent: Path, fake_openai: FakeOpenAI, tmp_path: Path) -> Iterator[Any]:
    profile = (demo_agent / "PROFILE.md").read_text()
    extraction = {
        "should_update": True,
        "reason": "Maya named her new editor",
        "daily_entry": "- Maya switched her editor to Helix.",
        "memory_update": "",
        "profile_update": profile.rstrip() + "\n- Editor: Helix (as of today)\n",
    }

    def reply(request: dict[str, Any]) -> str:
        return json.dumps(extraction) if "response_format" in request else ANSWER

    fake_openai.default_reply = reply
    env = {
        **os.environ,
        "MEMCLAW_BASE_URL": fake_openai.base_url,
        "MEMCLAW_API_KEY": "test",
        "MEMCLAW_MAX_RETRIES": "0",
        "TERM": "xterm-256color",
        "COLUMNS": "100",
        "LINES": "40",
        "PYTHONUNBUFFERED": "1",
    }
    started: list[Terminal] = []

    def start(*args: str) -> Terminal:
        command = [sys.executable, "-c", CONTROLLING_TTY, "-m", "memclaw", "chat", "demo", *args]
        term = Terminal(command, env, tmp_path)
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


def test_a_conversation_in_a_real_terminal(
    terminal: Any, demo_agent: Path, fake_openai: FakeOpenAI
) -> None:
    term = terminal()
    term.expect(r"memclaw chat · demo")
    term.expect(r"› ")
    term.type("Hi! I switched my editor to Helix this week.")
    term.expect(re.escape(ANSWER))
    term.expect(r"› ")
    term.type("Helix is my editor from now on, keep that in mind.")
    term.expect(re.escape(ANSWER))
    term.expect(r"› ")
    term.type("/remember Maya's standing desk is by the window")
    term.expect(r"added m-[0-9a-f]+")
    term.expect(r"› ")
    term.type("/exit")
    assert term.wait() == 0
    assert "memory receipt" in term.text

    sessions = list((demo_agent / "sessions").glob("2*-*-*.jsonl"))
    sessions = [p for p in sessions if p.name != "2026-11-28-demo.jsonl"]
    assert len(sessions) == 1
    rows = [json.loads(line) for line in sessions[0].read_text().splitlines()]
    assert [r["role"] for r in rows] == ["user", "assistant", "user", "assistant"]
    assert rows[1]["content"] == ANSWER
    assert "Editor: Helix" in (demo_agent / "PROFILE.md").read_text()
    notes = "".join(p.read_text() for p in (demo_agent / "memory").glob("*.md"))
    assert "switched her editor to Helix" in notes
    entries = "".join(p.read_text() for p in (demo_agent / "entries").glob("*.md"))
    assert "standing desk" in entries
    # The streamed request carried the demo's memory files in its system message.
    first = fake_openai.chat_requests()[0].body
    assert first["stream"] is True
    assert "--- MEMORY.md ---" in first["messages"][0]["content"]


def test_ctrl_c_stops_an_answer_and_ctrl_d_ends_the_chat(
    terminal: Any, demo_agent: Path, fake_openai: FakeOpenAI
) -> None:
    long_answer = "word " * 400
    fake_openai.queue_text(long_answer)
    fake_openai.stream_chunk_delay = 0.02
    term = terminal("--no-capture")
    term.expect(r"› ")
    term.type("Tell me something long")
    term.expect(r"word word word")
    term.send(b"\x03")
    term.expect(r"interrupted")
    term.expect(r"› ")
    fake_openai.stream_chunk_delay = 0.0
    term.type("Short one now, please")
    term.expect(re.escape(ANSWER))
    term.expect(r"› ")
    term.send(b"\x04")
    assert term.wait() == 0
    session = next(p for p in (demo_agent / "sessions").glob("*.jsonl") if "-demo" not in p.name)
    rows = [json.loads(line) for line in session.read_text().splitlines()]
    assert [r["role"] for r in rows] == ["user", "assistant", "user", "assistant"]
    assert rows[1]["content"].endswith("[answer interrupted by the person]")
    assert rows[3]["content"] == ANSWER


def test_watch_announces_edits_and_ctrl_c_at_the_prompt_exits(
    terminal: Any, demo_agent: Path, fake_openai: FakeOpenAI
) -> None:
    term = terminal("--watch", "--no-capture")
    term.expect(r"› ")
    with (demo_agent / "MEMORY.md").open("a", encoding="utf-8") as handle:
        handle.write("\n- Maya's new standing desk arrived.\n")
    term.expect(r"MEMORY\.md changed on disk; the next turn will use it")
    term.type("What arrived?")
    term.expect(re.escape(ANSWER))
    assert "standing desk arrived" in fake_openai.chat_requests()[0].body["messages"][0]["content"]
    term.expect(r"› ")
    assert term.interrupt_at_prompt() == 0
    assert "What arrived?" in ledger.load(demo_agent / ".memclaw", "chat-history/_team")[0]


def test_the_first_chat_of_a_day_opens_with_the_morning_card(
    terminal: Any, demo_agent: Path, fake_openai: FakeOpenAI
) -> None:
    from datetime import datetime

    from memclaw.dream.run import dream_agent
    from memclaw.workspace import Scope, Workspace

    # An offline dream on the demo's notes, dated when they were written.
    ws = Workspace.open(
        demo_agent.parent, overrides={"dream_days": 30}, clock=lambda: datetime(2026, 11, 28, 3)
    )
    assert str(dream_agent(Scope(ws.agent("demo")), model=None).status) == "updated"
    term = terminal()
    term.expect(r"morning card · dream [0-9a-f]+")
    term.expect(r"promoted into memory:")
    term.expect(r"/morning skip")
    term.expect(r"› ")
    term.type("How slow was the staging backfill dry run?")
    term.expect(r"↳ .*backfill.*\(memory/2026-11-\d\d\.md:\d+\)")  # recalled, before the answer
    term.expect(re.escape(ANSWER))
    term.expect(r"› ")
    term.type("/exit")
    assert term.wait() == 0
    shown = term.text
    assert shown.index("↳ ") < shown.index(ANSWER)
    # The same day: the card is not shown twice; chat_show_recalled: false hides recall.
    (demo_agent.parent / "memclaw.yaml").write_text("chat_show_recalled: false\n")
    again = terminal()
    again.expect(r"› ")
    again.type("How slow was the staging backfill dry run?")
    again.expect(re.escape(ANSWER))
    again.expect(r"› ")
    again.type("/exit")
    assert again.wait() == 0
    assert "morning card" not in again.text and "↳" not in again.text
