"""An entry a model stored (memory_store) is the model's in the facts layer, not the person's."""

import json
from typing import Any

from chat.chatkit import OpenWorkspace, small_agent
from memclaw.chat.tools import ToolBox
from memclaw.entries.memories import remember
from memclaw.facts.ledger import facts_of
from memclaw.llm import ToolCall
from memclaw.workspace.scope import Scope


def _store(box: ToolBox, **arguments: Any) -> None:
    assert box.run(ToolCall("c1", "memory_store", arguments, json.dumps(arguments))).ok


def test_a_models_entry_is_authored_by_the_model_and_trusted_less(open_ws: OpenWorkspace) -> None:
    agent = small_agent(open_ws())
    scope = Scope(agent)
    remember(scope, "Maya prefers uv for Python projects")
    _store(ToolBox(scope, "s1"), facts=[{"text": "The billing service runs on Postgres 16"}])
    found = {f.statement: f for f in facts_of(scope)}
    said = found["Maya prefers uv for Python projects"]
    inferred = found["The billing service runs on Postgres 16"]
    assert {p.author for p in said.places} == {"person"}
    assert {p.author for p in inferred.places} == {"model"}
    assert inferred.trust < said.trust
