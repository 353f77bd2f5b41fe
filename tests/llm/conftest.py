"""Helpers for model-layer tests: settings pointing at the fake server."""

from collections.abc import Callable
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from memclaw.config import Settings

MakeSettings = Callable[..., Settings]


@pytest.fixture
def make_settings(fake_openai: FakeOpenAI) -> MakeSettings:
    """Settings for the fake server; no retries and a short timeout unless overridden."""

    def make(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "base_url": fake_openai.base_url,
            "max_retries": 0,
            "request_timeout": 5.0,
            "embedding_model": "text-embedding-3-small",
        }
        values.update(overrides)
        return Settings(**values)

    return make
