"""memory_store takes a batch of facts, each with its category, as the skill's memory_add does."""

import json
from typing import Any

from chat.chatkit import OpenWorkspace, small_agent
from memclaw.chat.schemas import tool_schemas
from memclaw.chat.tools import ToolBox
from memclaw.entries.lookup import list_memories
from memclaw.llm import ToolCall
from memclaw.mcp.catalogue import tool_definitions
from memclaw.workspace.scope import Scope

FACTS = [
    {"text": "User is Sarah, a platform engineer at Cloudflare in Lisbon", "category": "identity"},
    {"text": "User decided to move monitoring from Datadog to Grafana", "category": "decision"},
]


def _run(box: ToolBox, **arguments: Any) -> Any:
    return box.run(ToolCall("c1", "memory_store", arguments, json.dumps(arguments)))


def test_a_batch_is_stored_each_fact_in_its_category(open_ws: OpenWorkspace) -> None:
    agent = small_agent(open_ws())
    box = ToolBox(Scope(agent), "s1")
    record = _run(box, facts=FACTS)
    assert record.ok
    results = json.loads(record.result)["results"]
    assert [r["action"] for r in results] == ["added", "added"]
    stored = {m.text: m.category for m in list_memories(Scope(agent))}
    assert stored == {f["text"]: f["category"] for f in FACTS}
    assert record.operation is not None
    assert [op["category"] for op in record.operation["facts"]] == ["identity", "decision"]


def test_a_batch_with_a_secret_stores_nothing_of_it_and_says_so(open_ws: OpenWorkspace) -> None:
    agent = small_agent(open_ws())
    box = ToolBox(Scope(agent), "s1")
    leaked = {"text": "The deploy token is ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}
    record = _run(box, facts=[FACTS[0], leaked])
    assert not record.ok and "secret" in str(record.result)
    assert list_memories(Scope(agent)) == []  # checked before anything is written


def test_the_batch_form_is_offered_in_chat_and_over_mcp(open_ws: OpenWorkspace) -> None:
    agent = small_agent(open_ws())
    chat = next(t for t in tool_schemas(Scope(agent)) if t["function"]["name"] == "memory_store")
    params = chat["function"]["parameters"]
    assert params["properties"]["facts"]["items"]["required"] == ["text"]
    assert "category" in params["properties"]["facts"]["items"]["properties"]
    mcp = next(t for t in tool_definitions(Scope(agent)) if t["name"] == "memory_store")
    assert "facts" in mcp["inputSchema"]["properties"]
    assert _run(ToolBox(Scope(agent), "s1"), text="x", facts=FACTS).ok is False
    assert _run(ToolBox(Scope(agent), "s1"), facts=[]).ok is False


def test_a_batch_is_one_change_to_undo(open_ws: OpenWorkspace) -> None:
    from memclaw.changes.undo import undo_last

    agent = small_agent(open_ws())
    box = ToolBox(Scope(agent), "s1")
    assert _run(box, facts=FACTS).ok
    undo_last(Scope(agent))
    assert list_memories(Scope(agent)) == []
    unknown = _run(box, facts=[FACTS[0], {"text": "Likes tea", "category": "nope"}])
    assert not unknown.ok and list_memories(Scope(agent)) == []
