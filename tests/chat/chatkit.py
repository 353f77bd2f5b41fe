"""Helpers shared by the chat tests."""

from collections.abc import Callable
from datetime import datetime
from typing import Any

from fake_openai import FakeOpenAI

from memclaw.chat import Conversation
from memclaw.workspace import Workspace
from memclaw.workspace.agent import Agent

OpenChat = Callable[..., Conversation]
OpenWorkspace = Callable[..., Workspace]
FIXED = datetime.fromisoformat("2026-11-29T10:30:00+01:00")
EXTRACTION = {
    "should_update": True,
    "reason": "the person named their editor",
    "daily_entry": "- Maya switched to Helix as her editor.",
    "memory_update": "# Memory\n- Project Atlas ships in December.\n- Editor: Helix.\n",
    "profile_update": "# Profile\n- Name: Maya\n- Editor: Helix (since 2026-11-29)\n",
}


def fixed_clock() -> datetime:
    return FIXED


def small_agent(ws: Workspace, agent_id: str = "pal") -> Agent:
    """An agent with short core files, so token budgets in tests stay small."""
    agent, _ = ws.init_agent(agent_id)
    agent.write("AGENTS.md", "# Agents\nBe brief.\n")
    agent.write("SOUL.md", "# Soul\nFriendly.\n")
    agent.write("PROFILE.md", "# Profile\n- Name: Maya\n")
    agent.write("MEMORY.md", "# Memory\n- Project Atlas ships in December.\n")
    return agent


def sent_messages(server: FakeOpenAI, index: int = -1) -> list[dict[str, Any]]:
    """The messages of one recorded chat request (the last by default)."""
    body = server.chat_requests()[index].body
    assert isinstance(body, dict)
    messages: list[dict[str, Any]] = body["messages"]
    return messages


def model_settings(server: FakeOpenAI, **overrides: Any) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "base_url": server.base_url,
        "api_key": "test",
        "max_retries": 0,
        "request_timeout": 10.0,
        # The fake server answers many requests at once, though it is on this machine.
        "model_slots": 8,
    }
    settings.update(overrides)
    return settings
