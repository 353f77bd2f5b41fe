"""A person who runs `memclaw mcp` at a terminal is told, on stderr, what it waits for."""

from __future__ import annotations

import select
import socket
import subprocess
import sys
from pathlib import Path

from mcpserver.mcpkit import seed, server_args, server_env


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


def test_http_says_on_stderr_where_it_listens(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    seed(root)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, *server_args(root, "work", "--http", str(port))],
        stderr=subprocess.PIPE,
        text=True,
        env=server_env(),
    )
    assert process.stderr is not None
    try:
        # A server that never says where it listens must fail the test, not hang it.
        ready, _, _ = select.select([process.stderr], [], [], 60)
        line = process.stderr.readline() if ready else ""
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert f"listening on http://127.0.0.1:{port}/mcp" in line


def test_a_busy_port_is_one_line_and_exit_1(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    seed(root)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run(
            [sys.executable, *server_args(root, "work", "--http", str(port))],
            capture_output=True,
            text=True,
            env=server_env(),
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"error: cannot listen on 127.0.0.1:{port}: address already in use; "
        "pick another port with --http PORT"
    ]
