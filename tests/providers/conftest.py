"""Provider fixtures: a fake Mem0 server and a chat wired to it."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chat.chatkit import OpenChat, fixed_clock, model_settings, small_agent
from fake_openai import FakeOpenAI

from memclaw.chat import Conversation
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope
from providers.fake_mem0 import FakeMem0, start_fake_mem0


@pytest.fixture
def mem0() -> Iterator[FakeMem0]:
    fake = start_fake_mem0()
    yield fake
    fake.close()


@pytest.fixture
def mem0_ws(isolated_env: Path, fake_openai: FakeOpenAI, mem0: FakeMem0) -> Any:
    def make(**overrides: Any) -> Workspace:
        settings = {
            "mem0_mode": "self-hosted",
            "mem0_base_url": mem0.base_url,
            "mem0_api_key": "m0-test-key",
            **overrides,
        }
        return Workspace.open(
            isolated_env, overrides=model_settings(fake_openai, **settings), clock=fixed_clock
        )

    return make


@pytest.fixture
def mem0_chat(mem0_ws: Any) -> OpenChat:
    def make(settings: dict[str, Any] | None = None, **options: Any) -> Conversation:
        ws = mem0_ws(**(settings or {}))
        found = ws.agent("pal") if (ws.root / "pal").is_dir() else small_agent(ws)
        owner = options.pop("owner", None)
        return Conversation.open(Scope.resolve(found, owner), **options)

    return make
