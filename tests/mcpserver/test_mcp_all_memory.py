"""An MCP host sees all of memory: lines in MEMORY.md and the notes, and the facts with trust."""

from pathlib import Path

import anyio

from mcpserver.mcpkit import connect, seed
from mcpserver.test_mcp_stdio import call


def test_memory_search_finds_the_files_lines_as_the_cli_does(demo_agent: Path) -> None:
    root = demo_agent.parent

    async def main() -> None:
        async with connect(root, "demo") as session:
            found = await call(session, "memory_search", query="cutover", limit=10)
            assert found["hits"], found  # entries alone found nothing here
            files = {hit["file"] for hit in found["hits"]}
            assert "MEMORY.md" in files and any(f.startswith("memory/") for f in files)
            for hit in found["hits"]:
                assert "cutover" in hit["snippet"].casefold()
            with_ids = [hit["fact"] for hit in found["hits"] if hit["fact"]]
            facts = await call(session, "memory_facts", query="cutover window")
            assert facts["facts"] and set(with_ids) & {f["id"] for f in facts["facts"]}
            assert all(0 <= f["trust"] <= 1 and f["where"] for f in facts["facts"])
            trusted = await call(session, "memory_facts", minTrust=0.6, limit=5)
            assert all(f["trust"] >= 0.6 for f in trusted["facts"])

    anyio.run(main)


def test_an_owner_sees_their_own_facts_and_never_anothers(isolated_env: Path) -> None:
    seed(isolated_env)

    async def main() -> None:
        async with connect(isolated_env, "work", "--owner", "user:bob") as session:
            mine = await call(session, "memory_facts", query="hazelnuts")
            assert [f["scope"] for f in mine["facts"]] != []
        async with connect(isolated_env, "work", "--owner", "user:alice") as session:
            theirs = await call(session, "memory_facts", query="hazelnuts")
            assert theirs["facts"] == []
            found = await call(session, "memory_search", query="locker binder")
            assert found["hits"] == [] and found["memories"] == []

    anyio.run(main)
