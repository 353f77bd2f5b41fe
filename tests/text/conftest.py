"""A workspace holding one day's note, for the tests that search what the tokeniser folds."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memclaw.workspace import Workspace


@pytest.fixture
def note_workspace(isolated_env: Path) -> Callable[[str], Workspace]:
    """Write ``text`` as agent ``a``'s note of 2023-05-06 and open the workspace a day later."""

    def make(text: str) -> Workspace:
        folder = isolated_env / "a" / "memory"
        folder.mkdir(parents=True)
        (folder / "2023-05-06.md").write_text(text, encoding="utf-8")
        now = datetime(2023, 5, 7, tzinfo=UTC)
        return Workspace.open(isolated_env, clock=lambda: now)

    return make
