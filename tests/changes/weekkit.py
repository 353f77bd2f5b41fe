"""What the scripted weeks share: a clock that travels, and the CLI run in-process."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import Workspace


class Travel:
    """The clock every command of the week reads; a day passes when the script says so."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def next_day(self) -> None:
        self.now += timedelta(days=1)


def travelling(monkeypatch: pytest.MonkeyPatch, start: datetime) -> Travel:
    """A clock from ``start`` that every workspace opened from now on reads."""
    clock = Travel(start)
    opened = Workspace.open.__func__  # type: ignore[attr-defined]

    def open_at(cls: type[Workspace], *args: Any, **kwargs: Any) -> Workspace:
        kwargs.setdefault("clock", clock)
        return opened(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Workspace, "open", classmethod(open_at))
    return clock


def run(*args: str, root: Path | None = None, stdin: str | None = None) -> tuple[int, str, str]:
    prefix = ["--root", str(root)] if root is not None else []
    result = CliRunner().invoke(app, [*prefix, *args], input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str, root: Path | None = None, stdin: str | None = None) -> str:
    code, stdout, stderr = run(*args, root=root, stdin=stdin)
    assert code == 0, f"memclaw {' '.join(args)}: {stderr}"
    return stdout
