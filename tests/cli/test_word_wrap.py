"""On a terminal, long lines of receipts, the timeline, doctor and the chat's recalled
memories wrap at words, as chat answers do; a pipe still gets whole lines."""

import os
import sys
from pathlib import Path

import pyte
from chat.test_terminal import CONTROLLING_TTY, Terminal
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.cli.talk.answer import wrap_words

COLUMNS = 60
# Column 60 of its receipt line ("    - Maya's…") falls inside "Lisbon".
FACT = (
    "Maya's sister Ingrid moved from Gothenburg to sunny Lisbon where she teaches "
    "oceanography at the university"
)


def _rows(raw: bytes) -> list[str]:
    screen = pyte.HistoryScreen(COLUMNS, 40, history=2000)
    pyte.ByteStream(screen).feed(raw)
    rows = ["".join(line[x].data for x in range(COLUMNS)) for line in screen.history.top]
    return [row.rstrip() for row in rows + list(screen.display)]


def _on_a_terminal(root: Path, *args: str) -> list[str]:
    env = {**os.environ, "MEMCLAW_ROOT": str(root), "TERM": "xterm-256color"}
    env.pop("COLUMNS", None)
    command = [sys.executable, "-c", CONTROLLING_TTY, "-m", "memclaw", *args]
    term = Terminal(command, env, root, columns=COLUMNS)
    try:
        assert term.wait() == 0, term.text
        return _rows(term.raw)
    finally:
        term.close()


def _whole(words: str, rows: list[str]) -> list[str]:
    """The words of ``words`` that no row shows whole (a word folded mid-way); a word
    wider than a text column (a long temporary path) has to fold, and is left out."""
    shown = {token for row in rows for token in row.split()}
    return [word for word in words.split() if word not in shown and len(word) < COLUMNS - 20]


def test_receipts_wrap_at_words_on_a_terminal(isolated_env: Path) -> None:
    CliRunner().invoke(app, ["init", "demo"], catch_exceptions=False)
    CliRunner().invoke(app, ["remember", "demo", FACT], catch_exceptions=False)
    rows = _on_a_terminal(isolated_env, "undo", "demo")  # its receipt: the line it took out
    assert any("Lisbon" in row for row in rows), rows
    assert not _whole(FACT, rows), rows
    assert all(len(row) <= COLUMNS for row in rows)


def test_timeline_and_doctor_wrap_at_words_on_a_terminal(isolated_env: Path) -> None:
    CliRunner().invoke(app, ["init", "demo"], catch_exceptions=False)
    CliRunner().invoke(app, ["remember", "demo", FACT], catch_exceptions=False)
    CliRunner().invoke(app, ["forget", "demo", "Ingrid", "--yes"], catch_exceptions=False)
    piped = CliRunner().invoke(app, ["timeline", "demo"], catch_exceptions=False).stdout
    rows = _on_a_terminal(isolated_env, "timeline", "demo")
    for line in piped.splitlines():  # each event's whole line, as a pipe gets it
        assert not _whole(line, rows), (line, rows)
    doctor = CliRunner().invoke(app, ["doctor"], catch_exceptions=False).stdout
    rows = _on_a_terminal(isolated_env, "doctor")
    for line in doctor.splitlines():
        assert not _whole(line.replace("→", ""), rows), (line, rows)


def test_a_pipe_gets_whole_lines(isolated_env: Path) -> None:
    CliRunner().invoke(app, ["init", "demo"], catch_exceptions=False)
    CliRunner().invoke(app, ["remember", "demo", FACT], catch_exceptions=False)
    undone = CliRunner().invoke(app, ["undo", "demo"], catch_exceptions=False).stdout
    assert any(FACT in line for line in undone.splitlines())


@given(
    st.lists(st.text("abcdefghij", min_size=1, max_size=12), min_size=1, max_size=40),
    st.integers(min_value=14, max_value=60),
    st.integers(min_value=0, max_value=8),
)
def test_wrap_words_never_splits_a_word(words: list[str], width: int, hang: int) -> None:
    text = " ".join(words)
    rows = wrap_words(text, width, hang).split("\n")
    assert [w for row in rows for w in row.split()] == words
    # Only a word wider than the row is left longer than it, whole, on a row of its own.
    assert all(len(row) <= width or len(row.split()) == 1 for row in rows)
    assert all(row.startswith(" " * hang) for row in rows[1:])
