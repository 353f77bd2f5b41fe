"""Chat fixtures: a workspace whose model is the fake server, and a small agent."""

from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from chat.chatkit import OpenChat, OpenWorkspace, fixed_clock, model_settings, small_agent
from memclaw.chat import Conversation
from memclaw.workspace import Workspace
from memclaw.workspace.agent import Agent
from memclaw.workspace.scope import Scope


@pytest.fixture
def open_ws(isolated_env: Path, fake_openai: FakeOpenAI) -> OpenWorkspace:
    """A workspace pointing at the fake server; keyword arguments override settings."""

    def make(**overrides: Any) -> Workspace:
        return Workspace.open(
            isolated_env, overrides=model_settings(fake_openai, **overrides), clock=fixed_clock
        )

    return make


@pytest.fixture
def agent(open_ws: OpenWorkspace) -> Agent:
    return small_agent(open_ws())


@pytest.fixture
def open_chat(open_ws: OpenWorkspace) -> OpenChat:
    """Open a conversation with the small agent "pal"; ``settings`` overrides settings."""

    def make(settings: dict[str, Any] | None = None, **options: Any) -> Conversation:
        ws = open_ws(**(settings or {}))
        found = ws.agent("pal") if (ws.root / "pal").is_dir() else small_agent(ws)
        owner = options.pop("owner", None)
        return Conversation.open(Scope.resolve(found, owner), **options)

    return make
