"""memclaw forget (and its alias memories forget) from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forget.forgetkit import planted, snapshot_of, traces
from typer.testing import CliRunner

from memclaw.cli.app import app


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_piped_without_yes_refuses_in_one_line_and_writes_nothing(isolated_env: Path) -> None:
    agent = planted(isolated_env)
    before = snapshot_of(agent.path)
    code, stdout, stderr = run("forget", "max", "pregnant", input="y\n")
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and "--yes" in stderr and "not a terminal" in stderr
    assert snapshot_of(agent.path) == before


def test_dry_run_shows_every_place_and_yes_forgets_them(isolated_env: Path) -> None:
    agent = planted(isolated_env)
    code, stdout, _ = run("search", "pregnant", "--agent", "max", "--json")
    assert len(stdout.splitlines()) >= 5
    before = snapshot_of(agent.path)
    code, stdout, _ = run("forget", "max", "pregnant", "--dry-run", "--json")
    plan = json.loads(stdout)
    assert code == 0 and plan["forgotten"] is False and len(plan["facts"]) == 4
    stores = {p["store"] for p in plan["places"]}
    assert stores == {"memory", "sessions", "history", "logs", "chat-history"}
    assert plan["index"]["blocks"] >= 5
    assert snapshot_of(agent.path) == before

    code, stdout, _ = run("forget", "max", "pregnant", "--yes", "--json")
    done = json.loads(stdout)
    assert code == 0 and done["forgotten"] is True and done["left"] == []
    assert traces(agent.path) == []
    code, stdout, _ = run("search", "pregnant", "--agent", "max", "--json")
    assert code == 0 and stdout == ""  # one JSON line per hit: none


def test_a_person_at_a_terminal_is_asked_first(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = planted(isolated_env)
    monkeypatch.setattr("memclaw.cli.memory.memories.interactive", lambda: True)
    before = snapshot_of(agent.path)
    code, _, stderr = run("forget", "max", "pregnant", input="n\n")
    assert code == 1 and "4 facts in max match 'pregnant'" in stderr
    assert "sessions/s-1.jsonl" in stderr and ".memclaw/index.sqlite" in stderr
    assert "nothing forgotten" in stderr and snapshot_of(agent.path) == before
    code, _, stderr = run("forget", "max", "pregnant", input="y\n")
    assert code == 0 and "forgot 4 facts from" in stderr
    assert traces(agent.path) == []


def test_words_matching_nothing_exit_non_zero_and_write_nothing(isolated_env: Path) -> None:
    agent = planted(isolated_env)
    before = snapshot_of(agent.path)
    code, stdout, stderr = run("forget", "max", "twins", "--yes")
    assert code != 0 and stdout == ""
    assert "nothing in max matches 'twins'; nothing forgotten" in stderr
    assert snapshot_of(agent.path) == before


def test_memories_forget_is_the_same_command(isolated_env: Path) -> None:
    agent = planted(isolated_env)
    code, stdout, _ = run("memories", "forget", "max", "--query", "pregnant", "--yes", "--json")
    assert code == 0 and json.loads(stdout)["forgotten"] is True
    assert traces(agent.path) == []
