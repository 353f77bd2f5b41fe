"""The cooldown never holds a dry run, and its hint fits how the conversation was given."""

import json
from pathlib import Path

from typer.testing import CliRunner

from extract.extractkit import CHAT, Clock, make_agent
from memclaw.cli.app import app
from memclaw.extract.pipeline import extract_conversation
from memclaw.extract.result import Status
from memclaw.workspace.scope import Scope


def test_a_dry_run_is_never_held_by_the_cooldown(tmp_path: Path) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    assert extract_conversation(Scope(agent), CHAT).status is Status.WRITTEN
    clock.advance(minutes=1)
    other = [{**m, "content": m["content"].replace("Sarah", "Priya")} for m in CHAT]
    dry = extract_conversation(Scope(agent), other, dry_run=True)
    assert dry.status is not Status.SKIPPED and "cooldown" not in dry.reason


def test_the_cooldown_hint_names_no_session_for_a_transcript(tmp_path: Path) -> None:
    clock = Clock()
    agent = make_agent(tmp_path, clock)
    extract_conversation(Scope(agent), CHAT)
    clock.advance(minutes=1)
    held = extract_conversation(Scope(agent), CHAT)  # from a file or stdin: no session id
    assert held.status is Status.SKIPPED and "cooldown" in held.reason
    assert "--session" not in held.reason and "--force" in held.reason
    by_session = extract_conversation(Scope(agent), CHAT, session_id="s-9")
    assert "--session s-9 --force" in by_session.reason


def test_extract_model_without_an_endpoint_is_one_line_and_exit_2(isolated_env: Path) -> None:
    CliRunner().invoke(app, ["init", "demo"], catch_exceptions=False)
    chat = isolated_env / "chat.json"
    chat.write_text(json.dumps(CHAT), encoding="utf-8")
    result = CliRunner().invoke(
        app, ["extract", "demo", "--transcript", str(chat), "--model", "qwen3"]
    )
    assert result.exit_code == 2 and "--model qwen3 needs an endpoint" in result.stderr
