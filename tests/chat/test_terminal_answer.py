"""Long answers in a real 60-column terminal: every word reaches the screen and scrollback.

The chat runs on a pty; its output is replayed through pyte, a VT100 emulator,
so "on screen" means what a terminal would show (cropping and all), and the
scrollback is pyte's history. Waits poll with deadlines; nothing is timed.
"""

import fcntl
import os
import re
import signal
import struct
import sys
import termios
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyte
import pytest
from fake_openai import FakeOpenAI

from chat.test_terminal import CONTROLLING_TTY, Terminal

COLUMNS = 60
PARAGRAPH = " ".join(f"word{n:03d}" for n in range(1, 51))  # 50 words, 399 characters
CODE_LINE = "x = " + "".join(f"{n % 10}" for n in range(116))  # 120 characters
BULLETS = (
    "- apples from the market\n- pears\n"
    "- a third item that runs on well past the right edge of this narrow screen"
)
LONG_ANSWER = f"{PARAGRAPH}\n\n```python\n{CODE_LINE}\n```\n\n{BULLETS}"


@pytest.fixture
def chat60(demo_agent: Path, fake_openai: FakeOpenAI, tmp_path: Path) -> Iterator[Any]:
    env = {
        **os.environ,
        "MEMCLAW_BASE_URL": fake_openai.base_url,
        "MEMCLAW_API_KEY": "test",
        "MEMCLAW_MAX_RETRIES": "0",
        "TERM": "xterm-256color",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    started: list[Terminal] = []

    def start(*args: str, **extra_env: str) -> Terminal:
        command = [sys.executable, "-c", CONTROLLING_TTY, "-m", "memclaw", "chat", "demo", *args]
        term = Terminal(command, {**env, **extra_env}, tmp_path, columns=COLUMNS)
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


def screen_lines(raw: bytes, columns: int = COLUMNS) -> list[str]:
    """Scrollback and screen of a terminal that was sent ``raw``."""
    screen = pyte.HistoryScreen(columns, 24, history=5000)
    stream = pyte.ByteStream(screen)
    stream.feed(raw)
    rows = ["".join(line[x].data for x in range(columns)) for line in screen.history.top]
    rows += list(screen.display)
    return [row.rstrip() for row in rows]


def answer_of(term: Terminal, first: str, last: str) -> str:
    start = term.expect(re.escape(first)).start()
    end = term.expect(re.escape(last)).end()
    return term.text[start:end]


def test_every_word_of_a_long_answer_reaches_the_screen(
    chat60: Any, fake_openai: FakeOpenAI
) -> None:
    fake_openai.queue_text(LONG_ANSWER)
    term = chat60("--no-capture")
    term.expect(r"› ")
    term.type("Tell me a lot")
    term.expect(r"narrow screen")
    term.expect(r"› ")
    term.send(b"\x04")
    assert term.wait() == 0

    rows = screen_lines(term.raw)
    start = next(i for i, row in enumerate(rows) if row.startswith("word001"))
    prose = []
    for row in rows[start:]:
        if not row:
            break
        prose.append(row)
    assert " ".join(prose) == PARAGRAPH  # wrapped at word boundaries, nothing lost
    assert len(prose) > 1
    # The code line is passed through whole (the terminal folds it, memclaw does not).
    assert CODE_LINE in term.text
    assert CODE_LINE in "".join(rows)
    # The model's single line breaks are kept; a long item continues under its text.
    at = rows.index("- apples from the market")
    assert rows[at + 1] == "- pears"
    assert rows[at + 2].startswith("- a third item")
    assert rows[at + 3].startswith("  ") and rows[at + 3].endswith("narrow screen")
    assert " ".join(r.strip() for r in rows[at + 2 : at + 4]) == BULLETS.splitlines()[2]
    assert all(len(row) <= COLUMNS for row in rows)


def test_plain_streams_the_raw_text(chat60: Any, fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_text(PARAGRAPH)
    term = chat60("--no-capture", "--plain")
    term.expect(r"› ")
    term.type("Tell me a lot")
    assert PARAGRAPH in answer_of(term, "word001", "word050")
    term.expect(r"› ")
    term.send(b"\x04")
    assert term.wait() == 0


def test_a_resize_mid_answer_keeps_every_word_whole(chat60: Any, fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_text(PARAGRAPH)
    fake_openai.stream_chunk_delay = 0.03
    term = chat60("--no-capture")
    term.expect(r"› ")
    term.type("Tell me a lot")
    term.expect(r"word005")
    fcntl.ioctl(term.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 40, 0, 0))
    os.killpg(term.proc.pid, signal.SIGWINCH)
    text = answer_of(term, "word006", "word050")
    term.expect(r"› ")
    term.send(b"\x04")
    assert term.wait() == 0
    assert "".join(term.text.split()).count("word") == 50
    words = term.text[term.text.index("word001") :].split()[:50]
    assert words == PARAGRAPH.split()
    tail = text.splitlines()[-3:]  # rows drawn after the resize fit the new width
    assert tail and all(len(row) <= 40 for row in tail)


def test_ctrl_c_draws_the_partial_line_once(chat60: Any, fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_text(PARAGRAPH)
    fake_openai.stream_chunk_delay = 0.05
    term = chat60("--no-capture")
    term.expect(r"› ")
    term.type("Tell me a lot")
    term.expect(r"word012")
    term.send(b"\x03")
    term.expect(r"interrupted")
    term.expect(r"› ")
    term.send(b"\x04")
    assert term.wait() == 0
    shown = re.findall(r"word\d{3}", term.text)
    assert shown[:12] == PARAGRAPH.split()[:12]
    assert len(shown) == len(set(shown))  # no word drawn twice


def test_keys_typed_while_streaming_are_not_echoed_into_the_answer(
    chat60: Any, fake_openai: FakeOpenAI
) -> None:
    fake_openai.queue_text(PARAGRAPH)
    fake_openai.stream_chunk_delay = 0.03
    term = chat60("--no-capture")
    term.expect(r"› ")
    term.type("Tell me a lot")
    term.expect(r"word003")
    term.send(b"zqzq")
    answer = answer_of(term, "word004", "word050")
    assert "zqzq" not in answer
    term.expect(r"› zqzq")  # the keys are kept for the next prompt
    term.send(b"\x15\x04")
    assert term.wait() == 0


def test_spinner_and_retry_notices_while_waiting(chat60: Any, fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_delay(3.0, then="too late")
    fake_openai.queue_delay(0.5, then="Done now.")
    term = chat60("--no-capture", MEMCLAW_MAX_RETRIES="2", MEMCLAW_REQUEST_TIMEOUT="1")
    term.expect(r"› ")
    term.type("Are you there?")
    term.expect(r"waiting for the model · \d+ s")
    term.expect(r"retrying \(2/3\) after timeout")
    term.expect(r"waiting for the model · \d+ s")
    term.expect(r"Done now\.")
    term.expect(r"› ")
    term.send(b"\x04")
    assert term.wait() == 0
    rows = screen_lines(term.raw)
    assert "Done now." in rows  # the spinner was erased, not left in front of the answer
    assert not any("waiting for the model" in row for row in rows)


def test_the_spinner_shows_below_the_recalled_memories(
    chat60: Any, fake_openai: FakeOpenAI
) -> None:
    fake_openai.queue_delay(2.5, then="Rv 40 roadworks.")
    term = chat60("--no-capture")
    term.expect(r"› ")
    term.type("Why do drivers reach Borås after the ETA?")
    term.expect(r"↳ ")  # recalled memories are printed first...
    term.expect(r"waiting for the model · \d+ s")  # ...and the wait is still shown
    term.expect(r"Rv 40 roadworks\.")
    term.expect(r"› ")
    term.send(b"\x04")
    assert term.wait() == 0
    rows = screen_lines(term.raw)
    assert any(row.startswith("↳ ") for row in rows)  # the recalled lines stay above
    assert not any("waiting for the model" in row for row in rows)  # the spinner is erased
    # A recalled line longer than the screen wraps at a word and goes on under its text,
    # never folded mid-word onto column 0.
    first = next(i for i, row in enumerate(rows) if row.startswith("↳ "))
    answer = next(i for i, row in enumerate(rows) if "Rv 40 roadworks." in row)
    recalled = [row for row in rows[first:answer] if row]
    assert any(row.startswith("  ") for row in recalled), recalled  # some did wrap
    assert all(row.startswith(("↳ ", "  ")) for row in recalled), recalled
