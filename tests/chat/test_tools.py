"""The chat tools on their own: safety rules, the owner fence, memory entries."""

import json
from typing import Any

import pytest

from chat.chatkit import OpenWorkspace, small_agent
from memclaw.chat.schemas import tool_schemas
from memclaw.chat.tools import ToolBox
from memclaw.entries.memories import remember
from memclaw.llm import ToolCall
from memclaw.workspace.agent import Agent
from memclaw.workspace.scope import Scope


def call(box: ToolBox, name: str, **arguments: Any) -> Any:
    record = box.run(ToolCall("c1", name, arguments, json.dumps(arguments)))
    if not record.ok:
        return record.result
    return json.loads(record.result)


@pytest.fixture
def shared(open_ws: OpenWorkspace) -> Agent:
    agent = small_agent(open_ws())
    Scope.resolve(agent, "user:alice").write(
        "MEMORY.md", "# Alice\n- Alice's diary code is Bluebird.\n"
    )
    Scope.resolve(agent, "user:bob").write("MEMORY.md", "# Bob\n- Bob likes tea.\n")
    return agent


def test_schemas_are_openai_functions_and_read_only_leaves_out_writers(shared: Agent) -> None:
    full = {t["function"]["name"] for t in tool_schemas(Scope(shared))}
    assert full == {
        "memory_files_list",
        "memory_files_read",
        "memory_files_write",
        "memory_files_edit",
        "memory_files_search",
        "memory_search",
        "memory_list",
        "memory_store",
        "memory_get",
        "memory_forget",
        "memory_facts",
    }
    read_only = {t["function"]["name"] for t in tool_schemas(Scope(shared), read_only=True)}
    assert read_only == full - {
        "memory_files_write",
        "memory_files_edit",
        "memory_store",
        "memory_forget",
    }


def test_an_owner_sees_their_own_files_and_never_another_owners(shared: Agent) -> None:
    box = ToolBox(Scope.resolve(shared, "user:bob"), "s1")
    names = [f["name"] for f in call(box, "memory_files_list")["files"]]
    assert "MEMORY.md" in names
    assert any(n.startswith("owners/") and n.endswith("/MEMORY.md") for n in names)
    assert not any("alice" in n for n in names)
    own = next(n for n in names if n.startswith("owners/"))
    assert "Bob likes tea" in call(box, "memory_files_read", filename=own)["content"]
    alice = own.replace("bob", "alice")
    assert call(box, "memory_files_read", filename=alice).startswith("error:")
    written = call(box, "memory_files_write", filename=alice, content="# hacked\n")
    assert "another person's memory" in written
    assert "Bluebird" in Scope.resolve(shared, "user:alice").read("MEMORY.md")
    search = call(box, "memory_files_search", query="Bluebird diary")
    assert search["hits"] == []


def test_without_an_owner_no_personal_folder_is_reachable(shared: Agent) -> None:
    box = ToolBox(Scope(shared), "s1")
    names = [f["name"] for f in call(box, "memory_files_list")["files"]]
    assert not any(n.startswith("owners/") for n in names)
    result = call(box, "memory_files_read", filename="owners/user%3Aalice/MEMORY.md")
    assert result.startswith("error:")


@pytest.mark.parametrize(
    "filename", ["/etc/passwd", "../other/MEMORY.md", "notes.txt", ".memclaw/agent.yaml"]
)
def test_the_cli_path_rules_hold(shared: Agent, filename: str) -> None:
    box = ToolBox(Scope(shared), "s1")
    assert call(box, "memory_files_read", filename=filename).startswith("error:")
    assert call(box, "memory_files_write", filename=filename, content="x").startswith("error:")


def test_edit_write_and_missing_arguments(shared: Agent) -> None:
    box = ToolBox(Scope(shared), "s1")
    assert call(box, "memory_files_edit", filename="MEMORY.md", old_text="Atlas", new_text="Orion")
    assert "Project Orion" in shared.read("MEMORY.md")
    assert call(box, "memory_files_read").startswith("error: argument 'filename' is required")
    created = call(box, "memory_files_write", filename="notes/ideas.md", content="# Ideas\n")
    assert created["created"] is True
    ambiguous = call(box, "memory_files_edit", filename="MEMORY.md", old_text="e", new_text="E")
    assert isinstance(ambiguous, str) and "occurs" in ambiguous


def test_memory_entries_store_search_get_list_and_forget(shared: Agent) -> None:
    box = ToolBox(Scope.resolve(shared, "user:alice"), "20261129-103000-abcd")
    stored = box.run(ToolCall("c", "memory_store", {"text": "Alice drinks oat milk"}, "{}"))
    assert stored.ok and stored.operation is not None
    memory_id = stored.operation["id"]
    session = call(box, "memory_store", text="Alice is tired today", longTerm=False)
    assert session["action"] == "added"
    found = call(box, "memory_search", query="oat milk")["memories"]
    assert [m["id"] for m in found] == [memory_id]
    assert found[0]["scope"] == "personal"
    assert call(box, "memory_get", id=memory_id)["text"] == "Alice drinks oat milk"
    long_term = call(box, "memory_list", scope="long-term")["memories"]
    assert [m["id"] for m in long_term] == [memory_id]
    assert len(call(box, "memory_list", scope="session")["memories"]) == 1
    # Another session of the same owner does not see this session's short-term memory.
    other = ToolBox(Scope.resolve(shared, "user:alice"), "another")
    assert call(other, "memory_list", scope="session")["memories"] == []
    # Bob sees none of Alice's entries and cannot forget them.
    bob = ToolBox(Scope.resolve(shared, "user:bob"), "s2")
    assert call(bob, "memory_get", id=memory_id).startswith("error:")
    assert call(bob, "memory_forget", query="oat milk")["forgotten"] == []
    forgot = box.run(ToolCall("c", "memory_forget", {"id": memory_id}, "{}"))
    assert forgot.operation == {"op": "forget", "ids": [memory_id]}
    assert call(box, "memory_search", query="oat milk")["memories"] == []


def test_storing_a_secret_is_an_error_result(shared: Agent) -> None:
    box = ToolBox(Scope(shared), "s1")
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    result = call(box, "memory_store", text=f"the token is {secret}")
    assert isinstance(result, str) and result.startswith("error:")


def test_a_tool_write_over_the_ceiling_moves_model_lines_and_keeps_the_persons(
    shared: Agent,
) -> None:
    mine = [f"- mine {i:03d} " + "m" * 88 for i in range(40)]
    shared.write("MEMORY.md", "# Memory\n\n## Notes\n\n" + "\n".join(mine) + "\n")
    box = ToolBox(Scope(shared), "s1")
    theirs = [f"- tool {i:03d} " + "t" * 88 for i in range(50)]
    current = shared.read("MEMORY.md")
    result = call(
        box, "memory_files_write", filename="MEMORY.md", content=current + "\n".join(theirs)
    )
    assert result["moved_to_overflow"] > 0 and "MEMORY.overflow.md" in result["warning"]
    memory = shared.read("MEMORY.md")
    assert len(memory) <= shared.settings.memory_max_chars
    assert all(line in memory for line in mine)
    overflow = (shared.path / "MEMORY.overflow.md").read_text(encoding="utf-8")
    assert all((line in memory) != (line in overflow) for line in theirs)
    # an edit by the tool is the model's too; a person's whole file is never cut
    model_line = next(line for line in theirs if line in memory)
    edited = call(
        box, "memory_files_edit", filename="MEMORY.md", old_text=model_line[2:10], new_text="x"
    )
    assert edited["replacements"] == 1
    assert all(line in shared.read("MEMORY.md") for line in mine)
    # a person's line is not the tool's to reword (issue 25)
    kept = call(box, "memory_files_edit", filename="MEMORY.md", old_text="mine 000", new_text="x")
    assert kept["kept_person_lines"] == [mine[0][2:]]
    assert mine[0] in shared.read("MEMORY.md")


def test_a_models_new_value_of_a_persons_fact_waits_and_of_its_own_replaces_it(
    shared: Agent,
) -> None:
    from memclaw.facts import inbox
    from memclaw.facts.ids import fact_id
    from memclaw.facts.store import load_events

    scope = Scope.resolve(shared, "user:alice")
    box = ToolBox(scope, "20261129-103000-abcd")
    remember(scope, "Alice lives in Oslo")  # the person's own words
    held = box.run(ToolCall("c", "memory_store", {"text": "Alice lives in Bergen"}, "{}"))
    assert held.ok and held.operation is None and "held" in held.summary
    (item,) = inbox.open_items(shared, scope.prefix)
    assert (item.old, item.new, item.source) == (
        "Alice lives in Oslo",
        "Alice lives in Bergen",
        "tool",
    )
    events = load_events(shared)[fact_id("Alice lives in Oslo", scope.prefix)]
    assert [(e.kind, e.source) for e in events] == [("stated", "remember")]  # nothing added
    # The model's own line: its newer value replaces it, and counts as inferred.
    assert call(box, "memory_store", text="Alice's cat is called Miso")["action"] == "added"
    updated = call(box, "memory_store", text="Alice's cat is called Mochi")
    assert updated["action"] == "updated"
    events = load_events(shared)[fact_id("Alice's cat is called Mochi", scope.prefix)]
    assert [(e.kind, e.source) for e in events][-1] == ("inferred", "tool")
