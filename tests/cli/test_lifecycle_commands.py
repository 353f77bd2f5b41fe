"""memclaw extract, remember, memories and scan from the command line."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app

CHAT = (
    "User: Hi, one thing first.\nAssistant: Sure.\n"
    "User: I'm Sarah, I work at Cloudflare. We decided to switch our monitoring from Datadog "
    "to Grafana because of cost.\nAssistant: Noted.\n"
)


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_extract_from_a_file_stdin_and_session(isolated_env: Path, tmp_path: Path) -> None:
    assert run("init", "bot")[0] == 0
    chat = tmp_path / "chat.txt"
    chat.write_text(CHAT)
    code, stdout, stderr = run("extract", "bot", "--transcript", str(chat), "--dry-run")
    assert code == 0 and "offline" in stderr and "+- Sarah works at Cloudflare" in stdout
    assert "Sarah" not in (isolated_env / "bot" / "PROFILE.md").read_text()
    code, stdout, _ = run("extract", "bot", "-", "--json", input=CHAT)
    data = json.loads(stdout)
    assert data["status"] == "written" and "PROFILE.md" in data["files_changed"]
    sessions = isolated_env / "bot" / "sessions"
    sessions.mkdir()
    (sessions / "s-1.jsonl").write_text('{"role": "user", "content": "hi"}\n')
    code, _, stderr = run("extract", "bot", "--session", "s-1")
    assert code == 0 and "skipped" in stderr


def test_extract_usage_errors(isolated_env: Path) -> None:
    run("init", "bot")
    assert run("extract", "bot")[0] == 2
    assert run("extract", "bot", "--session", "a", "--transcript", "b")[0] == 2
    code, _, stderr = run("extract", "bot", "--transcript", "/nope/chat.json")
    assert code == 2 and "does not exist" in stderr


def test_remember_list_get_forget(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run("init", "bot")
    code, stdout, _ = run("remember", "bot", "Maya prefers uv for Python projects", "--json")
    entry = json.loads(stdout)["entry"]
    assert code == 0 and entry["category"] == "preference"
    code, _, stderr = run("remember", "bot", "Maya prefers Poetry for Python projects")
    assert code == 0 and f"updated {entry['id']}" in stderr and "now: Maya prefers Poetry" in stderr
    code, _, stderr = run("remember", "bot", "Actually, Maya prefers Poetry for Python projects")
    assert code == 0 and f"already known as {entry['id']}" in stderr
    code, stdout, _ = run("memories", "list", "bot", "--json")
    (current,) = json.loads(stdout)["memories"]
    assert "Poetry" in current["text"]
    code, stdout, _ = run("memories", "get", "bot", current["id"])
    assert stdout.strip() == "Maya prefers Poetry for Python projects"
    # `memories forget` is `memclaw forget`: piped without --yes it refuses, writing nothing.
    code, _, stderr = run("memories", "forget", "bot", "--query", "poetry python", input="y\n")
    assert code == 2 and "--yes" in stderr and "not a terminal" in stderr
    monkeypatch.setattr("memclaw.cli.memory.memories.interactive", lambda: True)
    code, _, stderr = run("memories", "forget", "bot", "--query", "poetry python", input="n\n")
    assert code == 1 and "1 fact in bot matches" in stderr and "nothing forgotten" in stderr
    code, _, stderr = run("memories", "forget", "bot", current["id"], input="y\n")
    assert code == 0 and "forgot 1 fact" in stderr
    _, stdout, _ = run("memories", "list", "bot", "--json")
    assert json.loads(stdout)["memories"] == []
    code, _, stderr = run("remember", "bot", "Maya prefers Poetry for Python projects")
    assert "forgotten" in stderr
    code, _, stderr = run("remember", "bot", "the db password is hunter22x")
    assert code == 1 and "refusing" in stderr


def test_scan_and_redact(isolated_env: Path) -> None:
    run("init", "bot")
    key = "ghp_" + "R8kq2Lx7Vw4Nz1Tb6Yc9Pm3Hd5Js0Ga8Fe2Ku"
    memory = isolated_env / "bot" / "MEMORY.md"
    memory.write_text(memory.read_text() + f"\n- token {key}\n")
    code, stdout, stderr = run("scan", "bot")
    assert code == 1 and stdout.startswith("bot/MEMORY.md:") and key not in stdout + stderr
    code, stdout, stderr = run("scan", "--all", "--redact", "--json")
    data = json.loads(stdout)
    assert code == 0 and data["redacted"] == ["bot/MEMORY.md"] and key not in stdout
    assert key not in memory.read_text()
    assert run("scan", "bot")[0] == 0
