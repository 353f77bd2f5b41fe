"""A closed pipe (`memclaw search x | head -1`) is silent and exits 141, as grep's does."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app


def _run_into_closed_pipe(*args: str, root: Path) -> tuple[int, str]:
    """Run memclaw with a stdout nobody reads: the reader is closed before memclaw writes."""
    env = {**os.environ, "MEMCLAW_ROOT": str(root)}
    with subprocess.Popen(
        [sys.executable, "-m", "memclaw", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # long before the interpreter has even imported memclaw
        error = proc.stderr.read().decode()
        return proc.wait(), error


@pytest.mark.parametrize(
    "args",
    [("search", "garden"), ("files", "list", "demo"), ("status",), ("search", "garden", "--json")],
)
def test_a_closed_pipe_is_silent_and_exits_141(isolated_env: Path, args: tuple[str, ...]) -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["init", "demo"], catch_exceptions=False).exit_code == 0
    said = runner.invoke(app, ["remember", "demo", "the garden needs water"])
    assert said.exit_code == 0, said.output
    code, error = _run_into_closed_pipe(*args, root=isolated_env)
    assert "Traceback" not in error and "BrokenPipe" not in error, error
    assert code == 141
