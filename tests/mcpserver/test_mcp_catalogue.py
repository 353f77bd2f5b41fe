"""The MCP tool catalogue in-process: schemas, argument checks, the fence, size bounds."""

import json
import os
from pathlib import Path
from typing import Any

import pytest

from memclaw.entries.lookup import list_memories
from memclaw.entries.memories import remember
from memclaw.errors import UsageError
from memclaw.mcp.catalogue import (
    MAX_RESULT_CHARS,
    TOOLS,
    WRITE_TOOLS,
    MemoryTools,
    bound,
    check_arguments,
)
from memclaw.mcp.resources import list_resources, read_resource
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope

SECRET = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"


@pytest.fixture
def ws(isolated_env: Path) -> Workspace:
    ws = Workspace.open(isolated_env)
    for name in ("home", "work"):
        agent, _ = ws.init_agent(name)
        agent.write("PROFILE.md", f"# Profile\n- The {name} agent's profile.\n")
    bob = Scope.resolve(ws.agent("work"), "user:bob")
    bob.write("MEMORY.md", "# Memory\n- Bob's locker code is kept in the blue binder.\n")
    remember(bob, "Bob is allergic to hazelnuts")
    return ws


def tools(ws: Workspace, owner: str | None = "user:alice", **kw: Any) -> MemoryTools:
    return MemoryTools(Scope.resolve(ws.agent("home"), owner), "mcp-test", **kw)


def ok(box: MemoryTools, name: str, **arguments: Any) -> Any:
    outcome = box.call(name, arguments)
    assert outcome.ok, outcome.text
    assert json.loads(outcome.text) == outcome.data
    return outcome.data


def refused(box: MemoryTools, name: str, arguments: Any) -> str:
    outcome = box.call(name, arguments)
    assert not outcome.ok and outcome.data is None
    assert outcome.text.startswith("error: ") and "\n" not in outcome.text
    return outcome.text


def test_every_tool_has_a_closed_schema_with_agent_id(ws: Workspace) -> None:
    box = tools(ws)
    assert [t["name"] for t in box.definitions] == list(TOOLS)
    for tool in box.definitions:
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert "agentId" in schema["properties"] and tool["description"]
    read_only = tools(ws, read_only=True)
    assert {t["name"] for t in read_only.definitions} == set(TOOLS) - WRITE_TOOLS
    assert "there is no tool" in refused(read_only, "memory_store", {"text": "x"})


@pytest.mark.parametrize(
    ("name", "arguments", "says"),
    [
        ("memory_search", {}, "argument 'query' is required"),
        ("memory_search", {"query": 3}, "'query' must be a string"),
        ("memory_search", {"query": "x", "limit": "5"}, "'limit' must be a whole number"),
        ("memory_search", {"query": "x", "limit": True}, "'limit' must be a whole number"),
        ("memory_search", {"query": "x", "limit": 0}, "'limit' must be between 1 and 20"),
        ("memory_search", {"query": "x", "scope": "team"}, "'scope' must be one of"),
        ("memory_search", {"query": "x", "owner": "user:bob"}, "has no argument 'owner'"),
        ("memory_store", {"text": "x", "longTerm": "yes"}, "'longTerm' must be true or false"),
        ("memory_store", {"text": "tea", "category": "gossip"}, "'category' must be one of"),
        ("memory_extract", {"messages": [{"role": "user"}]}, "needs 'content'"),
        ("memory_extract", {"messages": "hi"}, "'messages' must be a list"),
        ("memory_extract", {}, "messages or as a transcript"),
        ("memory_list", [1, 2], "takes a JSON object"),
        ("memory_nothing", {}, "there is no tool named 'memory_nothing'"),
    ],
)
def test_bad_arguments_get_one_line(ws: Workspace, name: str, arguments: Any, says: str) -> None:
    assert says in refused(tools(ws), name, arguments)


def test_whole_floats_pass_as_integers() -> None:
    tool = {
        "name": "t",
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}},
    }
    assert check_arguments(tool, {"n": 5.0}) == {"n": 5}
    with pytest.raises(UsageError, match="whole number"):
        check_arguments(tool, {"n": 5.5})


def test_agent_id_reaches_the_same_owner_in_another_agent_never_another_owner(
    ws: Workspace,
) -> None:
    box = tools(ws)
    ok(box, "memory_store", text="Alice rides a green bicycle", agentId="work")
    found = ok(box, "memory_list", agentId="work")["memories"]
    assert [m["text"] for m in found] == ["Alice rides a green bicycle"]  # not Bob's
    assert ok(box, "memory_search", query="hazelnuts", agentId="work")["memories"] == []
    for agent_id in ("work/owners/user%3Abob", "../work", "user:bob", "_global", ".."):
        assert "agent id" in refused(box, "memory_list", {"agentId": agent_id})
    assert "no agent 'nobody'" in refused(box, "memory_list", {"agentId": "nobody"})
    stored = list_memories(Scope.resolve(ws.agent("work"), "user:alice"))
    assert [e.text for e in stored] == ["Alice rides a green bicycle"]


@pytest.mark.parametrize(
    "filename",
    [
        "../work/PROFILE.md",
        "/etc/passwd",
        "owners/user%3Abob/MEMORY.md",
        "OWNERS/user%3Abob/MEMORY.md",
        "notes.txt",
    ],
)
def test_file_paths_stay_inside_the_fence(ws: Workspace, filename: str) -> None:
    box = tools(ws)
    before = _tree(ws.root)
    refused(box, "memory_files_read", {"filename": filename, "agentId": "work"})
    refused(
        box,
        "memory_files_edit",
        {"filename": filename, "old_text": "Bob", "new_text": "Eve", "agentId": "work"},
    )
    assert _tree(ws.root) == before


def test_a_symlink_out_of_the_agent_is_refused(ws: Workspace, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n- untouched\n")
    os.symlink(outside, ws.agent("home").path / "link.md")
    box = tools(ws)
    refused(box, "memory_files_read", {"filename": "link.md"})
    refused(
        box, "memory_files_edit", {"filename": "link.md", "old_text": "untouched", "new_text": "x"}
    )
    assert outside.read_text() == "# Outside\n- untouched\n"


def test_a_secret_is_refused_everywhere_and_nothing_is_written(ws: Workspace) -> None:
    box = tools(ws)
    ok(box, "memory_files_read", filename="MEMORY.md")
    before = _tree(ws.root)
    assert "secret" in refused(box, "memory_store", {"text": f"the key is {SECRET}"})
    refused(
        box,
        "memory_files_edit",
        {"filename": "MEMORY.md", "old_text": "# Memory", "new_text": f"# Memory {SECRET}"},
    )
    assert _tree(ws.root) == before


def test_extract_keeps_what_the_gates_let_through(ws: Workspace) -> None:
    box = tools(ws)
    short = ok(box, "memory_extract", messages=[{"role": "user", "content": "hi"}])
    assert short["status"] == "skipped"
    transcript = (
        "User: I moved to Gothenburg last month and I work at Volvo as a data engineer.\n"
        "Assistant: Congratulations on the move!\n"
        f"User: My dog Knut is three years old. My token is {SECRET}\n"
        "Assistant: Noted."
    )
    done = ok(box, "memory_extract", transcript=transcript)
    assert done["status"] == "written" and "diffs" not in done
    alice = Scope.resolve(ws.agent("home"), "user:alice")
    written = alice.read("PROFILE.md") + alice.read("MEMORY.md")
    assert "Gothenburg" in written and SECRET not in json.dumps(_tree(ws.root))


def test_resources_are_the_injected_files_and_the_prompt_within_the_fence(
    ws: Workspace,
) -> None:
    box = tools(ws)
    ok(box, "memory_store", text="Alice drinks green tea")
    alice = Scope.resolve(ws.agent("home"), "user:alice")
    alice.write("PROFILE.md", "# Profile\n- Alice lives in Lund.\n")
    uris = [r.uri for r in list_resources(alice)]
    assert uris == [
        "memclaw://home/AGENTS.md",
        "memclaw://home/SOUL.md",
        "memclaw://home/PROFILE.md",
        "memclaw://home/MEMORY.md",
        "memclaw://home/owners/user%3Aalice/PROFILE.md",
        "memclaw://home/prompt",
    ]
    assert "Alice lives in Lund" in read_resource(box, uris[4])
    prompt = read_resource(box, "memclaw://home/prompt")
    assert "Alice drinks green tea" in prompt and "Lund" in prompt
    assert "hazelnuts" not in read_resource(box, "memclaw://work/prompt")
    for address in (
        "memclaw://work/owners/user%3Abob/MEMORY.md",
        "memclaw://home/../work/PROFILE.md",
        "file:///etc/passwd",
        "memclaw://home",
    ):
        with pytest.raises(UsageError):
            read_resource(box, address)


def test_answers_are_bounded(ws: Workspace) -> None:
    agent = ws.agent("home")
    for i in range(600):
        agent.write(f"memory/2026-01-{i:04d}.md", "- note\n")
    listing = ok(tools(ws), "memory_files_list")
    assert len(json.dumps(listing)) <= MAX_RESULT_CHARS
    assert listing["count"] == 604 and len(listing["files"]) < 604 and "narrow" in listing["note"]
    assert bound({"a": "x" * 100}, 50_000) == {"a": "x" * 100}
    cut = bound({"text": "y" * 5000, "rows": list(range(3000))}, 1000)
    assert len(json.dumps(cut)) <= 1000 + len(cut["note"]) + 20


def _tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): p.read_text(errors="replace")
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memclaw" not in p.parts
    }
