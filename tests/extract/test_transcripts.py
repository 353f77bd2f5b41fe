"""Transcripts in every accepted shape, and one clear error for each bad input."""

import io
import json
from pathlib import Path

import pytest

from extract.extractkit import make_agent
from memclaw.errors import UsageError
from memclaw.extract.transcripts import (
    MAX_BYTES,
    load_session,
    load_transcript,
    parse_transcript,
)
from memclaw.workspace.scope import Scope

EXPECTED = [
    {"role": "user", "content": "I prefer uv."},
    {"role": "assistant", "content": "Noted."},
]


def test_json_array() -> None:
    assert parse_transcript(json.dumps(EXPECTED)) == EXPECTED


def test_json_object_with_messages_and_content_parts() -> None:
    data = {
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": [{"type": "text", "text": "I prefer uv."}]},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "x"}]},
            {"role": "assistant", "content": "Noted."},
        ]
    }
    assert parse_transcript(json.dumps(data)) == [
        {"role": "system", "content": "be brief"},
        *EXPECTED,
    ]


def test_jsonl() -> None:
    text = "\n".join(json.dumps(m) for m in EXPECTED) + "\n\n"
    assert parse_transcript(text) == EXPECTED


@pytest.mark.parametrize(
    "text",
    [
        "User: I prefer uv.\nAssistant: Noted.",
        "human: I prefer uv.\nAI: Noted.\n",
        "USER:I prefer uv.\n\nASSISTANT: Noted.",
    ],
)
def test_plain_text_speakers(text: str) -> None:
    assert parse_transcript(text) == EXPECTED


def test_plain_text_multi_line_turns() -> None:
    text = "User: first line\nsecond line\n\nAssistant: ok\nUser: more"
    assert parse_transcript(text) == [
        {"role": "user", "content": "first line\nsecond line"},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "more"},
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ('[{"role": "user", ', "invalid JSON"),
        ('{"role": "user", "content": "a"}\n{oops', "not a JSON message"),
        ('[{"role": "wizard", "content": "a"}]', "unknown role"),
        ("[1, 2]", "must be an object"),
        ("just some words", "speaker line"),
        ('"a string"', "speaker line"),
    ],
)
def test_malformed_input_is_one_clear_error(text: str, words: str) -> None:
    with pytest.raises(UsageError, match=words):
        parse_transcript(text)


def test_file_non_utf8_and_missing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"User: caf\xe9")
    with pytest.raises(UsageError, match="not UTF-8"):
        load_transcript(bad)
    with pytest.raises(UsageError, match="does not exist"):
        load_transcript(tmp_path / "nope.json")
    with pytest.raises(UsageError, match="folder"):
        load_transcript(tmp_path)


def test_huge_input_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with open(big, "wb") as handle:
        handle.write(b"User: ")
        handle.seek(MAX_BYTES + 10)
        handle.write(b"x")
    with pytest.raises(UsageError, match="MB"):
        load_transcript(big)


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    class Stdin:
        buffer = io.BytesIO(b"User: I prefer uv.\nAssistant: Noted.\n")

    monkeypatch.setattr("sys.stdin", Stdin())
    assert load_transcript("-") == EXPECTED


def test_session_of_an_agent(tmp_path: Path) -> None:
    agent = make_agent(tmp_path / "ws")
    folder = agent.path / "sessions"
    folder.mkdir()
    (folder / "s-1.jsonl").write_text("\n".join(json.dumps(m) for m in EXPECTED))
    assert load_session(Scope(agent), "s-1") == EXPECTED
    with pytest.raises(UsageError, match="no session"):
        load_session(Scope(agent), "s-2")
    with pytest.raises(UsageError, match="not valid"):
        load_session(Scope(agent), "../etc/passwd")
