"""Terminal helpers: multi-line input and the input history file."""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from memclaw.cli.talk.term import CONTINUATION, PROMPT, InputHistory, read_message
from memclaw.workspace import ledger


def reader(lines: list[str]) -> tuple[list[str], Callable[[str], str]]:
    prompts: list[str] = []
    feed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return prompts, read


def test_a_plain_line() -> None:
    prompts, read = reader(["hello"])
    assert read_message(read) == "hello"
    assert prompts == [PROMPT]


def test_a_trailing_backslash_continues_the_message() -> None:
    prompts, read = reader(["first \\", "second\\", "third"])
    assert read_message(read) == "first \nsecond\nthird"
    assert prompts == [PROMPT, CONTINUATION, CONTINUATION]


def test_a_triple_quote_block() -> None:
    _, read = reader(['"""', "line one", "", "  indented", '"""'])
    assert read_message(read) == "line one\n\n  indented"


def test_ctrl_d_inside_a_block_reaches_the_caller() -> None:
    _, read = reader(['"""', "unfinished"])
    with pytest.raises(EOFError):
        read_message(read)


def _kept(meta: Path) -> str:
    """The input history as the ledger keeps it, a line each."""
    return "\n".join(ledger.load(meta, "chat-history/_team")[0])


def test_history_keeps_lines_but_never_secrets(tmp_path: Path) -> None:
    readline = pytest.importorskip("readline")
    readline.clear_history()
    history = InputHistory(tmp_path, "chat-history/_team", 1000)
    history.load()
    readline.add_history("what is the cutover date?")
    history.scrub()  # after every message, as the chat loop does
    readline.add_history("my token is ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
    history.scrub()
    history.save()
    text = _kept(tmp_path)
    assert "cutover date" in text and "ghp_" not in text
    assert "my token is [REDACTED:" in text  # the line stays useful, without the token
    assert (tmp_path / "ledger.sqlite").stat().st_mode & 0o777 == 0o600
    readline.clear_history()


def test_no_history_when_the_limit_is_zero(tmp_path: Path) -> None:
    pytest.importorskip("readline")
    history = InputHistory(tmp_path / "a" / ".memclaw", "chat-history/_team", 0)
    history.load()
    history.save()
    assert not (tmp_path / "a").exists()


def _private_key() -> list[str]:
    import base64
    import random

    rng = random.Random(7)
    body = base64.b64encode(bytes(rng.randrange(256) for _ in range(300))).decode()
    middle = [body[i : i + 64] for i in range(0, len(body), 64)]
    return ["-----BEGIN " + "RSA PRIVATE KEY-----", *middle, "-----END " + "RSA PRIVATE KEY-----"]


def test_no_line_of_a_pasted_private_key_is_kept(tmp_path: Path) -> None:
    readline = pytest.importorskip("readline")
    readline.clear_history()
    history = InputHistory(tmp_path, "chat-history/_team", 1000)
    history.load()
    readline.add_history("what is the cutover date?")
    history.scrub()
    key = _private_key()
    for line in ['"""', "here is the deploy key:", *key, '"""']:
        readline.add_history(line)
    history.scrub()
    readline.add_history("thanks")
    history.scrub()
    history.save()
    text = _kept(tmp_path)
    assert "cutover date" in text and "thanks" in text
    assert not any(line in text for line in key[1:-1]) and "deploy key" not in text
    readline.clear_history()


def test_a_history_holding_a_key_is_cleaned_when_loaded(tmp_path: Path) -> None:
    from secretkit import GITHUB

    readline = pytest.importorskip("readline")
    readline.clear_history()
    key = _private_key()
    ledger.save(tmp_path, "chat-history/_team", ["hello", *key, f"token {GITHUB}", "bye"])
    history = InputHistory(tmp_path, "chat-history/_team", 1000)
    history.load()
    history.save()
    lines = _kept(tmp_path).splitlines()
    assert lines[0] == "hello" and lines[-1] == "bye" and GITHUB not in _kept(tmp_path)
    assert not any(line in lines for line in key) and lines[1].startswith("token [REDACTED:")
    readline.clear_history()


def test_a_chat_started_with_ctrl_c_ignored_hears_it_again() -> None:
    # `memclaw chat &` from a script starts with SIGINT ignored; a person's Ctrl-C must count.
    import signal

    from memclaw.cli.talk.chat import _hear_ctrl_c

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _hear_ctrl_c()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)
