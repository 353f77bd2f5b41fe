"""Fixtures for workspace tests: a workspace on a fixed clock and a freshly seeded agent."""

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from memclaw.workspace import Agent, Workspace

NOW = datetime(2026, 11, 29, 9, 30, tzinfo=timezone(timedelta(hours=1)))


def fixed_clock() -> datetime:
    return NOW


@pytest.fixture
def ws(isolated_env: Path) -> Workspace:
    return Workspace.open(isolated_env, clock=fixed_clock)


@pytest.fixture
def agent(ws: Workspace) -> Agent:
    created, _ = ws.init_agent("alpha")
    return created
