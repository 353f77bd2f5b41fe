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


@pytest.fixture
def env(isolated_env: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A root whose one small agent talks to the fake server (as `memclaw chat` would)."""
    monkeypatch.setenv("MEMCLAW_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("MEMCLAW_API_KEY", "test")
    monkeypatch.setenv("MEMCLAW_MAX_RETRIES", "0")
    small_agent(Workspace.open(isolated_env))
    return isolated_env
