"""`mcp --http --owner-tokens`: each end user's token reaches their own memory and no one else's."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from mcpserver.mcpkit import http_server, seed, text_of
from memclaw.cli.app import app

ALICE, BOB, OPERATOR = "alice-" + "a" * 20, "bob-" + "b" * 20, "operator-" + "c" * 20


@pytest.fixture
def server(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    seed(isolated_env)  # Bob already has personal memory in "work"
    owners = tmp_path / "owners.txt"
    owners.write_text(f"# who may read what\nuser:alice {ALICE}\nbob {BOB}\n")
    monkeypatch.setenv("MEMCLAW_MCP_TOKEN", OPERATOR)
    with http_server(isolated_env, "work", "--owner-tokens", str(owners)) as url:
        yield url


async def ask(url: str, token: str, tool: str, **arguments: Any) -> tuple[bool, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool(tool, arguments)
        assert isinstance(result, types.CallToolResult)
        text = text_of(result)
        return not result.is_error, (text if result.is_error else json.loads(text))


def test_each_token_reaches_only_its_owners_memory(server: str) -> None:
    async def main() -> None:
        ok, bobs = await ask(server, BOB, "memory_facts", query="hazelnuts")
        assert ok and [f["statement"] for f in bobs["facts"]] == ["Bob is allergic to hazelnuts"]
        ok, alices = await ask(server, ALICE, "memory_facts", query="hazelnuts")
        assert ok and alices["facts"] == []
        # Naming Bob in the body does not make Alice's token his.
        ok, said = await ask(server, ALICE, "memory_facts", query="hazelnuts", endUserId="bob")
        assert not ok and "only with that user's own token" in said
        ok, said = await ask(server, OPERATOR, "memory_search", query="locker", endUserId="bob")
        assert not ok
        # With his own token, naming himself is fine.
        ok, found = await ask(server, BOB, "memory_search", query="locker", endUserId="user:bob")
        assert ok and found["hits"]
        ok, _stored = await ask(server, ALICE, "memory_store", text="Alice rows on Sundays")
        assert ok
        ok, bob_view = await ask(server, BOB, "memory_facts", query="rows Sundays")
        assert ok and bob_view["facts"] == []

    anyio.run(main)


def test_bad_owner_token_files_are_one_line(isolated_env: Path, tmp_path: Path) -> None:
    seed(isolated_env)
    bad = tmp_path / "owners.txt"
    for text, said in [
        ("user:alice short\n", "too short"),
        ("user:alice\n", "one 'OWNER TOKEN' pair per line"),
        (f"alice {ALICE}\nbob {ALICE}\n", "same token"),
        ("# nobody\n", "names no owner"),
    ]:
        bad.write_text(text)
        result = CliRunner().invoke(
            app, ["mcp", "work", "--http", "8765", "--owner-tokens", str(bad)]
        )
        assert result.exit_code == 2 and said in result.output, result.output
    result = CliRunner().invoke(app, ["mcp", "work", "--owner-tokens", str(bad)])
    assert result.exit_code == 2 and "--owner-tokens is for --http" in result.output
