"""What the scripted weeks share: a clock that travels, and the CLI run in-process."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta
from fnmatch import fnmatch
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


# Every file memclaw keeps under a .memclaw/ folder (an agent's, an owner's, the root's),
# by what it may hold. Forget and scan reach every store that may hold what a person
# said; the others hold hashes, ids, times and settings, or nothing (locks). A new store
# fails `known_stores` until it is placed here, and, if it holds text, taught to forget.
NO_TEXT = (
    "*.lock",
    "lease",
    "agent.yaml",
)
MAY_HOLD_TEXT = (
    "ledger.sqlite*",  # every record beside the files: the journal, logs, facts, versions
    "summaries/*",
    "index.sqlite*",
)


def known_stores(root: Path, said: Iterable[str]) -> None:
    """Every file under every .memclaw/ of ``root`` is a known store; those that hold no
    text hold none of the words the person ``said``."""
    words = {w.lower() for line in said for w in re.findall(r"[^\W\d_]{7,}", line)}
    for meta in root.rglob(".memclaw"):
        for path in (p for p in meta.rglob("*") if p.is_file()):
            rel = path.relative_to(meta).as_posix()
            if any(fnmatch(rel, pattern) for pattern in NO_TEXT):
                text = path.read_text(encoding="utf-8", errors="replace").lower()
                held = sorted(w for w in words if w in text)
                assert not held, f"{path} should hold no text but holds {held}"
                continue
            assert any(fnmatch(rel, p) for p in MAY_HOLD_TEXT), f"{path}: a store no one knows"
