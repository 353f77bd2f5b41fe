"""`memclaw mcp --http`: loopback by default, a token anywhere else, the token enforced."""

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from mcpserver.mcpkit import http_server as serving
from mcpserver.mcpkit import seed, text_of
from memclaw.cli.app import app
from memclaw.entries.lookup import list_memories
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_other_interfaces_need_a_token(isolated_env: Path) -> None:
    seed(isolated_env)
    code, output = cli("mcp", "home", "--http", "8765", "--host", "0.0.0.0")
    assert code == 2
    assert "refusing to serve memory on 0.0.0.0 without a token" in output
    code, output = cli("mcp", "home", "--host", "192.168.1.5")
    assert code == 2 and "--host is for --http PORT" in output
    code, output = cli("mcp", "--owner", "user:alice")
    assert (
        code == 2
        and "name the agent to serve: memclaw mcp AGENT (agents here: home, work)" in output
    )


@pytest.fixture
def http_server(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    seed(isolated_env)
    monkeypatch.setenv("MEMCLAW_MCP_TOKEN", "open-sesame")
    with serving(isolated_env, "home", "--owner", "user:alice") as url:
        yield url


def test_http_serves_with_the_token_and_refuses_without(
    http_server: str, isolated_env: Path
) -> None:
    request = urllib.request.Request(http_server, data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 401
    request.add_header("Authorization", "Bearer wrong")
    with pytest.raises(urllib.error.HTTPError) as wrong:
        urllib.request.urlopen(request, timeout=10)
    assert wrong.value.code == 401

    async def main() -> None:
        headers = {"Authorization": "Bearer open-sesame"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as client,
            streamable_http_client(http_server, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            result = await session.call_tool("memory_store", {"text": "Alice rows on Sundays"})
            assert isinstance(result, types.CallToolResult)
            assert not result.is_error, text_of(result)

    anyio.run(main)
    alice = Scope.resolve(Workspace.open(isolated_env).agent("home"), "user:alice")
    assert [e.text for e in list_memories(alice)] == ["Alice rows on Sundays"]


def test_the_only_agent_of_a_root_is_served_by_default(isolated_env: Path) -> None:
    from memclaw.cli.connect.mcp import _only_agent

    ws = Workspace.open(isolated_env)
    ws.init_agent("solo")
    assert _only_agent(ws) == "solo"
