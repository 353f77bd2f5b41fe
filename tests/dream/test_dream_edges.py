"""What a dry run says it would do, and a --model that has no endpoint to go to."""

from datetime import date, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import Workspace


def _make(root: Path) -> None:
    agent, _ = Workspace.open(root).init_agent("demo")
    for offset in (3, 2, 1):
        agent.append_daily("- Maya's sister lives in Lisbon", day=date.today() - timedelta(offset))


def test_a_dry_run_says_would_update(isolated_env: Path) -> None:
    _make(isolated_env)
    result = CliRunner().invoke(app, ["dream", "demo", "--dry-run"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "dream: 1 run: 1 would update"
    assert "Lisbon" not in (isolated_env / "demo" / "MEMORY.md").read_text()


@pytest.mark.parametrize("command", [["dream", "demo"], ["consolidate", "demo"]])
def test_model_without_an_endpoint_is_one_line_and_exit_2(
    isolated_env: Path, command: list[str]
) -> None:
    _make(isolated_env)
    result = CliRunner().invoke(app, [*command, "--model", "qwen3"], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "--model qwen3 needs an endpoint" in result.stderr
    assert not list((isolated_env / "demo" / ".memclaw").glob("*dream*.jsonl"))
