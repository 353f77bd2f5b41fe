"""Start `memclaw mcp` as a real subprocess and talk to it with the SDK's own client."""

import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

from memclaw.entries.memories import remember
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


def seed(root: Path) -> Workspace:
    """Agents home and work; Bob has his own memory in work."""
    ws = Workspace.open(root)
    for name in ("home", "work"):
        agent, _ = ws.init_agent(name)
        agent.write("PROFILE.md", f"# Profile\n- The {name} agent's profile.\n")
    bob = Scope.resolve(ws.agent("work"), "user:bob")
    bob.write("MEMORY.md", "# Memory\n- Bob's locker code is kept in the blue binder.\n")
    remember(bob, "Bob is allergic to hazelnuts")
    return ws


def server_env() -> dict[str, str]:
    keep = ("HOME", "XDG_CONFIG_HOME", "NO_COLOR", "PATH", "MEMCLAW_MCP_TOKEN")
    return {name: os.environ[name] for name in keep if name in os.environ}


def server_args(root: Path, *args: str) -> list[str]:
    return ["-m", "memclaw", "--root", str(root), "mcp", *args]


@asynccontextmanager
async def connect(root: Path, *args: str) -> AsyncIterator[ClientSession]:
    """An initialised client session with `memclaw --root ROOT mcp ARGS...`."""
    params = StdioServerParameters(
        command=sys.executable, args=server_args(root, *args), env=server_env()
    )
    with open(root.parent / "server-stderr.log", "a", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def text_of(result: object) -> str:
    content = getattr(result, "content")  # noqa: B009 - CallToolResult, untyped here
    return str(content[0].text)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def http_server(root: Path, *args: str) -> Iterator[str]:
    """`memclaw --root ROOT mcp ARGS... --http PORT` running; its URL while the block lasts."""
    port = free_port()
    command = [sys.executable, *server_args(root, *args, "--http", str(port))]
    process = subprocess.Popen(command, env=server_env())
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=20)
