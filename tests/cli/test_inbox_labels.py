"""inbox --all says how each resolved contradiction stands; a mistyped --keep gets a suggestion."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.entries.memories import remember
from memclaw.workspace import Workspace
from memclaw.workspace.scope import Scope


def _run(root: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["--root", str(root), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _held(root: Path) -> list[str]:
    """Two newer values a model stated against the person's: both wait in the inbox."""
    _run(root, "init", "pal")
    scope = Scope(Workspace.open(root).agent("pal"))
    for old, new in (
        ("Maya lives in Oslo", "Maya lives in Bergen"),
        ("The standup is at 09:30", "The standup is at 10:00"),
    ):
        _run(root, "remember", "pal", old)
        remember(scope, new, source="tool", by_person=False)
    _code, stdout, _err = _run(root, "inbox", "pal", "--json")
    return [c["id"] for c in json.loads(stdout)["contradictions"]]


def test_resolved_items_are_labelled_by_what_was_kept(isolated_env: Path) -> None:
    moved, standup = _held(isolated_env)
    assert _run(isolated_env, "inbox", "resolve", "pal", moved, "--keep", "new")[0] == 0
    assert _run(isolated_env, "inbox", "resolve", "pal", standup, "--keep", "old")[0] == 0
    code, _out, shown = _run(isolated_env, "inbox", "pal", "--all")
    lines = shown.splitlines()
    assert code == 0
    assert "  replaced: Maya lives in Oslo  [entries/identity.md:4]" in lines
    assert any(line.startswith("  in force: Maya lives in Bergen") for line in lines)
    assert any(line.startswith("  in force: The standup is at 09:30") for line in lines)
    assert any(line.startswith("  dropped:  The standup is at 10:00") for line in lines)
    assert not any("held:" in line for line in lines)
    assert "resolve with" not in shown  # nothing is left to resolve


def test_a_mistyped_keep_gets_a_did_you_mean_and_changes_nothing(isolated_env: Path) -> None:
    moved, _standup = _held(isolated_env)
    code, _out, shown = _run(isolated_env, "inbox", "resolve", "pal", moved, "--keep", "neww")
    assert code != 0 and "did you mean 'new'?" in shown
    _code, stdout, _err = _run(isolated_env, "inbox", "pal", "--json")
    assert [c["status"] for c in json.loads(stdout)["contradictions"]] == ["open", "open"]
