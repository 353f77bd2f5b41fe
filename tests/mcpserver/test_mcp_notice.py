"""A person who runs `memclaw mcp` at a terminal is told, on stderr, what it waits for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.mcpserver.mcpkit import seed, server_args, server_env


def test_stdio_says_on_stderr_that_it_waits_for_a_host(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    seed(root)
    done = subprocess.run(
        [sys.executable, *server_args(root, "work")],
        input="",
        capture_output=True,
        text=True,
        env=server_env(),
        timeout=60,
    )
    assert "waiting for an MCP host on stdin" in done.stderr
    # stdout is the protocol: the notice must never reach it.
    assert "waiting" not in done.stdout
