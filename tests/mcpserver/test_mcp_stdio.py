"""`memclaw mcp` as a real subprocess, driven over stdio by the MCP SDK's own client."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import ClientSession
from mcp.shared.exceptions import MCPError

from mcpserver.mcpkit import connect, seed, text_of
from memclaw.entries.lookup import list_memories
from memclaw.mcp.catalogue import TOOLS
from memclaw.workspace.scope import Scope

SECRET = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5"


async def call(session: ClientSession, name: str, **arguments: Any) -> Any:
    result = await session.call_tool(name, arguments)
    assert isinstance(result, types.CallToolResult)
    assert not result.is_error, text_of(result)
    return json.loads(text_of(result))


async def error(session: ClientSession, name: str, **arguments: Any) -> str:
    result = await session.call_tool(name, arguments)
    assert isinstance(result, types.CallToolResult) and result.is_error
    text = text_of(result)
    assert text.startswith("error: ") and "\n" not in text
    return text


def tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): p.read_text(errors="replace")
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memclaw" not in p.parts
    }


def test_tools_resources_store_search_and_forget(isolated_env: Path) -> None:
    seed(isolated_env)

    async def main() -> None:
        async with connect(isolated_env, "home", "--owner", "user:alice") as session:
            assert [t.name for t in (await session.list_tools()).tools] == list(TOOLS)
            assert "memory_search" in (session.instructions or "")
            uris = [r.uri for r in (await session.list_resources()).resources]
            assert "memclaw://home/PROFILE.md" in uris and uris[-1] == "memclaw://home/prompt"
            profile = await session.read_resource("memclaw://home/PROFILE.md")
            assert isinstance(profile, types.ReadResourceResult)
            assert "home agent's profile" in str(profile.contents[0].text)  # type: ignore[union-attr]
            guide = await session.get_prompt("use_memory")
            assert "memory_search" in str(guide.messages[0].content.text)  # type: ignore[union-attr]

            stored = await call(session, "memory_store", text="Alice prefers green tea at 10")
            assert stored["action"] == "added"
            found = await call(session, "memory_search", query="green tea", limit=3)
            assert [m["id"] for m in found["memories"]] == [stored["id"]]
            assert (await call(session, "memory_get", id=stored["id"]))["scope"] == "personal"
            prompt = await session.read_resource("memclaw://home/prompt")
            assert "green tea" in str(prompt.contents[0].text)  # type: ignore[union-attr]
            gone = await call(session, "memory_forget", id=stored["id"])
            assert gone == {"forgotten": [stored["id"]]}
            assert (await call(session, "memory_search", query="green tea"))["memories"] == []

    anyio.run(main)


def test_bad_input_traversal_other_owners_and_secrets_are_refused(isolated_env: Path) -> None:
    ws = seed(isolated_env)
    before = tree(isolated_env)

    async def main() -> None:
        async with connect(isolated_env, "home", "--owner", "user:alice") as session:
            with pytest.raises(MCPError, match="there is no tool named 'rm_rf'"):
                await session.call_tool("rm_rf", {})
            assert "'limit' must be between 1 and 20" in await error(
                session, "memory_search", query="x", limit=1000
            )
            assert "has no argument 'owner'" in await error(
                session, "memory_list", owner="user:bob"
            )
            assert "required" in await error(session, "memory_store")
            for name in ("../work/PROFILE.md", "/etc/passwd", "owners/user%3Abob/MEMORY.md"):
                await error(session, "memory_files_read", filename=name, agentId="work")
                await error(
                    session,
                    "memory_files_edit",
                    filename=name,
                    old_text="Bob",
                    new_text="Eve",
                    agentId="work",
                )
            assert "agent id" in await error(session, "memory_list", agentId="work/owners/bob")
            assert "agent id" in await error(session, "memory_search", query="x", agentId="..")
            hazel = await call(session, "memory_search", query="hazelnuts", agentId="work")
            assert hazel["memories"] == []  # Bob's, and this is Alice
            listed = await call(session, "memory_files_list", agentId="work")
            assert not [f for f in listed["files"] if "bob" in f["name"]]
            with pytest.raises(MCPError, match="another person's memory"):
                await session.read_resource("memclaw://work/owners/user%3Abob/MEMORY.md")
            with pytest.raises(MCPError, match="not a memclaw resource"):
                await session.read_resource("file:///etc/passwd")
            assert "secret" in await error(session, "memory_store", text=f"token {SECRET}")
            assert len((await session.list_tools()).tools) == len(TOOLS)  # still serving

    anyio.run(main)
    assert tree(isolated_env) == before
    assert list_memories(Scope.resolve(ws.agent("home"), "user:alice")) == []


def test_two_clients_storing_at_once_on_one_agent_lose_no_write(isolated_env: Path) -> None:
    ws = seed(isolated_env)
    # Facts that share no content word, so none can be taken for a restatement of another.
    facts = {
        client: [f"Quokka{n} keeps ledger{n} beside lantern{n} near harbour{n}" for n in numbers]
        for client, numbers in (("north", range(8)), ("south", range(8, 16)))
    }

    ready = {client: anyio.Event() for client in facts}

    async def writer(client: str) -> None:
        async with connect(isolated_env, "home", "--owner", "user:alice") as session:
            ready[client].set()
            for event in ready.values():  # both servers up: their writes overlap
                await event.wait()
            for fact in facts[client]:
                stored = await call(session, "memory_store", text=fact)
                assert stored["action"] == "added", stored

    async def main() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(writer, "north")
            group.start_soon(writer, "south")

    anyio.run(main)
    kept = {e.text for e in list_memories(Scope.resolve(ws.agent("home"), "user:alice"))}
    assert kept == set(facts["north"]) | set(facts["south"])


def test_without_the_sdk_the_command_says_how_to_install_it(isolated_env: Path) -> None:
    seed(isolated_env)
    code = (
        "import sys; sys.modules['mcp'] = None; sys.modules['mcp_types'] = None; "
        "from memclaw.cli.fast import main; "
        f"sys.argv = ['memclaw', '--root', {str(isolated_env)!r}] + sys.argv[1:]; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "mcp", "home"], capture_output=True, text=True, check=False
    )
    assert done.returncode != 0 and done.stdout == ""
    assert (
        done.stderr.strip() == "error: memclaw mcp needs the MCP SDK, an optional extra: "
        "pip install 'memclaw[mcp]'"
    )
    listed = subprocess.run(
        [sys.executable, "-c", code, "--help"], capture_output=True, text=True, check=True
    )
    assert " mcp " in listed.stdout


def test_search_and_the_cli_never_import_the_sdk(demo_agent: Path) -> None:
    search = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memclaw", "search", "knee", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = {line.split("|")[-1].strip() for line in search.stderr.splitlines() if "|" in line}
    assert search.stdout.strip() and loaded
    assert not {name.split(".")[0] for name in loaded} & {"mcp", "mcp_types", "uvicorn"}
    code = (
        "import sys, memclaw.cli.app, memclaw.mcp.catalogue, memclaw.mcp.resources; "
        "print(sorted(m for m in ('mcp', 'mcp_types', 'uvicorn', 'starlette') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
