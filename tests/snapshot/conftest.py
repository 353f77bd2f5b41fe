from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memclaw.workspace import Workspace

FIXED = datetime(2026, 11, 29, 9, 30, tzinfo=UTC)


@pytest.fixture
def ws() -> Workspace:
    """The isolated workspaces root, with a fixed clock."""
    return Workspace.open(clock=lambda: FIXED)
