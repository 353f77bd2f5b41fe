"""memclaw chat from scripts: -m, stdin, --json, slash commands, the no-model message."""

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from chat.chatkit import small_agent
from memclaw.cli.app import app
from memclaw.workspace import Workspace


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_one_shot_prints_the_answer(env: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_text("Atlas ships in **December**.")
    code, stdout, _ = run("chat", "pal", "-m", "When does Atlas ship?")
    assert code == 0
    assert stdout == "Atlas ships in **December**.\n"
    sessions = list((env / "pal" / "sessions").glob("*.jsonl"))
    assert len(sessions) == 1


def test_one_shot_json_has_answer_session_operations_tools_and_usage(
    env: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.queue_tool_call("memory_store", {"text": "Maya's dog is called Knut"})
    # (the judge is sure it is another fact than "Name: Maya": no question for the model)
    fake_openai.queue_text("Noted: Knut.")
    code, stdout, stderr = run("chat", "pal", "-m", "Remember my dog Knut", "--json")
    assert code == 0, stderr
    data = json.loads(stdout)
    assert data["answer"] == "Noted: Knut."
    assert (env / "pal" / "sessions" / f"{data['session']}.jsonl").is_file()
    assert [op["op"] for op in data["memory_operations"]] == ["store"]
    assert data["tool_calls"][0]["name"] == "memory_store" and data["tool_calls"][0]["ok"]
    assert data["usage"]["prompt_tokens"] > 0 and data["usage"]["total_tokens"] > 0
    assert data["extraction"] is None


def test_the_message_can_come_on_stdin(env: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_text("Hello from stdin.")
    code, stdout, _ = run("chat", "pal", "--json", input="Hi, are you there?\n")
    assert code == 0
    assert json.loads(stdout)["answer"] == "Hello from stdin."
    assert fake_openai.chat_requests()[0].body["messages"][-1]["content"] == "Hi, are you there?"


def test_resume_continues_the_last_session(env: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.queue_text("first")
    _, first, _ = run("chat", "pal", "-m", "one", "--json")
    fake_openai.queue_text("second")
    _, second, _ = run("chat", "pal", "-m", "two", "--resume", "--json")
    assert json.loads(first)["session"] == json.loads(second)["session"]
    sent = fake_openai.chat_requests()[-1].body["messages"]
    assert [m["content"] for m in sent[1:]] == ["one", "first", "two"]


def test_without_a_model_chat_says_how_to_configure_one(isolated_env: Path) -> None:
    small_agent(Workspace.open(isolated_env))
    code, stdout, stderr = run("chat", "pal", "-m", "hello")
    assert code == 1
    assert stdout == ""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1
    assert "OPENAI_API_KEY" in lines[0] and "MEMCLAW_BASE_URL" in lines[0]
    assert "11434" in lines[0]
    assert not (isolated_env / "pal" / "sessions").exists()


def test_json_needs_a_message(env: Path) -> None:
    # CliRunner's stdin is not a terminal, so an empty stdin is "no message".
    code, _, stderr = run("chat", "pal", "--json", input="")
    assert code == 2
    assert "no message" in stderr


def test_remember_and_search_slash_commands(env: Path, fake_openai: FakeOpenAI) -> None:
    code, stdout, _ = run("chat", "pal", "-m", "/remember Maya's cat is called Mochi")
    assert code == 0
    assert stdout.startswith("added m-")
    assert any("Mochi" in p.read_text() for p in (env / "pal" / "entries").glob("*.md"))
    code, stdout, _ = run("chat", "pal", "-m", "/search Mochi", "--json")
    assert code == 0
    data = json.loads(stdout)
    assert any("Mochi" in right for _left, right in data["rows"])
    # No chat turn, and nothing the judge was unsure of ("Name: Maya" is another fact).
    assert fake_openai.chat_requests() == []


def test_unknown_slash_command_is_an_error(env: Path) -> None:
    code, _, stderr = run("chat", "pal", "-m", "/frobnicate")
    assert code == 1
    assert "unknown command /frobnicate" in stderr


def test_chat_help_has_examples() -> None:
    result = CliRunner().invoke(app, ["chat", "--help"])
    assert result.exit_code == 0
    assert "Examples" in result.stdout and "memclaw chat demo" in result.stdout


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("memory_files_write", json.dumps({"filename": "a" * 300 + ".md", "content": "x"})),
        ("memory_files_read", '{"filename": ' + "[" * 5000 + "]" * 5000 + "}"),
    ],
)
def test_a_tool_call_with_bad_arguments_does_not_end_the_chat(
    env: Path, fake_openai: FakeOpenAI, name: str, arguments: str
) -> None:
    before = sorted(p.name for p in (env / "pal").iterdir())
    fake_openai.queue_tool_call(name, arguments, "call_1")
    fake_openai.queue_text("Sorry, that name was too long.")
    code, stdout, stderr = run("chat", "pal", "-m", "Save a note", "--json")
    assert code == 0, stderr
    data = json.loads(stdout)
    assert data["answer"] == "Sorry, that name was too long."
    assert data["tool_calls"][0]["ok"] is False
    *_, asked, tool = fake_openai.chat_requests()[1].body["messages"]
    echoed = asked["tool_calls"][0]["function"]["arguments"]
    assert echoed == (arguments if name == "memory_files_write" else "{}")  # never undecodable
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_1"
    assert tool["content"].startswith("error: ")
    assert "200 bytes" in tool["content"] or "nested deeper than 64 levels" in tool["content"]
    assert sorted(p.name for p in (env / "pal").iterdir()) == [*before, "sessions"]


def test_a_garbage_stream_is_a_model_error_not_an_empty_answer(
    env: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.queue_stream_garbage(b"\x89PNG\r\n\x1a\n this is not an event stream\n\n")
    code, stdout, stderr = run("chat", "pal", "-m", "Hello?")
    assert code == 1 and stdout == ""
    assert len(stderr.splitlines()) == 1 and stderr.startswith("error: ")
    assert "OpenAI-compatible" in stderr
    assert not list((env / "pal").glob("sessions/*.jsonl"))
