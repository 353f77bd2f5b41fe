"""The recursion guard: what dreaming does can never start an extraction."""

from __future__ import annotations

from pathlib import Path

import pytest

from dream.dreamkit import day, note, workspace
from memclaw.dream.run import dream_agent
from memclaw.workspace.logs import read_log
from memclaw.workspace.scope import Scope


def test_extraction_treats_a_cron_trigger_as_automated() -> None:
    from memclaw.gates import is_automated_session

    assert is_automated_session("cron", None)


def test_extraction_refuses_a_conversation_started_by_cron(tmp_path: Path) -> None:
    extract = pytest.importorskip("memclaw.extract.pipeline")
    agent, _ = workspace(tmp_path / "ws").init_agent("demo")
    messages = [
        {"role": "user", "content": "Remember that Maya moved the cutover to 2026-12-12."},
        {"role": "assistant", "content": "Noted: the cutover is now on 2026-12-12."},
    ] * 2
    result = extract.extract_conversation(Scope(agent), messages, trigger="cron", force=True)
    assert "never extracted" in str(result.to_dict() if hasattr(result, "to_dict") else result)
    assert agent.read("MEMORY.md").count("2026-12-12") == 0


def test_a_scheduled_dream_is_logged_as_cron_and_leaves_no_conversation(tmp_path: Path) -> None:
    agent, _ = workspace(tmp_path / "ws").init_agent("demo")
    for offset in (3, 2, 1):
        note(agent, day(offset), "Maya prefers uv over Poetry for every Python project.")
    dream_agent(Scope(agent), trigger="cron")
    assert [r["trigger"] for r in read_log(agent, "dream")] == ["cron"]
    assert list(read_log(agent, "extract")) == []
    assert not (agent.path / "sessions").exists()
