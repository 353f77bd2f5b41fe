"""SOUL.md learns once confirmations pass the interval: from `facts confirm` too."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.entries.memories import remember
from memclaw.morning import soul
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

RULE = "Never schedule meetings on Fridays for Maya"


def test_facts_confirm_past_the_interval_revises_soul(isolated_env: Path) -> None:
    (isolated_env / "memclaw.yaml").write_text("soul_update_interval: 1\n")
    agent, _ = Workspace.open(isolated_env).init_agent("pal")
    remember(Scope(agent), RULE, category="rule")
    result = CliRunner().invoke(app, ["facts", "confirm", "pal", RULE], catch_exceptions=False)
    assert result.exit_code == 0
    assert f"- {RULE}" in agent.read("SOUL.md") and "## Learned" in agent.read("SOUL.md")
    assert "SOUL.md: learned from 1 preference and rule facts" in result.stderr
    assert soul.pending_diff(Scope(agent))  # the card still shows the diff
