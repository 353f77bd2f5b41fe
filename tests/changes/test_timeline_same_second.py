"""The timeline is newest first even for events of one second (a script, a fast hand)."""

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import Workspace

NOW = datetime.fromisoformat("2026-12-07T09:00:00+00:00")


def ok(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_events_of_one_second_are_newest_first(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = Workspace.open.__func__  # type: ignore[attr-defined]

    def frozen(cls: type[Workspace], *args: Any, **kwargs: Any) -> Workspace:
        kwargs.setdefault("clock", lambda: NOW)
        return opened(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Workspace, "open", classmethod(frozen))
    ok("init", "pal")
    ok("remember", "pal", "Maya lives in Oslo")
    ok("remember", "pal", "Maya prefers tea over coffee")
    ok("undo", "pal")
    events = json.loads(ok("timeline", "pal", "--json"))
    kinds = [e["kind"] for e in events if e["kind"] in ("remember", "undo")]
    assert kinds == ["undo", "remember", "remember"], kinds
    undone = next(e for e in events if e["kind"] == "remember")
    assert undone["change"]["undone"] == NOW.isoformat()  # the one the undo took back
