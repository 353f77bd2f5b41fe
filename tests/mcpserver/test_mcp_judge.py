"""`memclaw mcp` with a model configured: its memory_store asks the model's judge."""

import json
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from facts.judgekit import NEW, configure, model_judge, seeded, texts
from fake_openai import FakeOpenAI

from mcpserver.mcpkit import connect, text_of
from memclaw.facts import inbox


def test_mcp_memory_store_holds_it(isolated_env: Path, fake_openai: FakeOpenAI) -> None:
    agent = seeded(isolated_env)
    configure(isolated_env, fake_openai)
    fake_openai.default_reply = model_judge()

    async def main() -> dict[str, Any]:
        async with connect(isolated_env, "pal") as session:
            found = await session.call_tool("memory_search", {"query": "peanuts"})
            assert isinstance(found, types.CallToolResult) and not found.is_error
            assert fake_openai.requests == []  # reading opens no model
            result = await session.call_tool("memory_store", {"text": NEW})
            assert isinstance(result, types.CallToolResult) and not result.is_error
            stored: dict[str, Any] = json.loads(text_of(result))
            return stored

    stored = anyio.run(main)
    assert stored["action"] == "held"
    assert NEW not in texts(agent)
    (item,) = inbox.open_items(agent, "")
    assert item.new == NEW and item.reason.startswith("model: ")
