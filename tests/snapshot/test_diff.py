"""import --dry-run --diff: what an update would replace, and local edits it would lose."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.workspace import Workspace

from .helpers import make_agent, snapshot_zip, tree

OLD = {"MEMORY.md": "# Memory\n- launch Dec 5\n", "memory/2026-11-15.md": "# 2026-11-15\n"}
NEW = {"MEMORY.md": "# Memory\n- launch Dec 12\n", "memory/2026-11-15.md": "# 2026-11-15\n"}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _zip(tmp_path: Path, name: str, files: dict[str, str]) -> str:
    path = tmp_path / name
    path.write_bytes(snapshot_zip({k: v.encode() for k, v in files.items()}))
    return str(path)


def _edit_by_hand(path: Path, text: str) -> None:
    path.write_text(text, "utf-8")


def test_diff_shows_what_an_update_replaces(ws: Workspace, tmp_path: Path) -> None:
    agent = make_agent(ws, "a", OLD)
    before = tree(agent)
    code, out, err = run("import", "a", _zip(tmp_path, "new.zip", NEW), "--dry-run", "--diff")
    assert code == 0, err
    assert "--- a/MEMORY.md (local)\n+++ b/MEMORY.md (snapshot)\n" in out
    assert "-- launch Dec 5\n+- launch Dec 12\n" in out
    assert "2026-11-15.md (local)" not in out  # unchanged: nothing to show
    assert "was edited since" not in err  # never imported nor rewritten by memclaw: no verdict
    assert tree(agent) == before


def test_warns_about_files_edited_since_the_last_import(ws: Workspace, tmp_path: Path) -> None:
    make_agent(ws, "a", {})
    assert run("import", "a", _zip(tmp_path, "old.zip", OLD))[0] == 0
    newer = _zip(tmp_path, "new.zip", {**NEW, "memory/2026-11-15.md": "# 2026-11-15\n- x\n"})
    code, _, err = run("import", "a", newer, "--dry-run", "--diff")
    assert code == 0 and "was edited since" not in err  # as imported: nothing is lost
    _edit_by_hand(ws.root / "a" / "MEMORY.md", "# Memory\n- launch Dec 5\n- my own note\n")
    code, out, err = run("import", "a", newer, "--dry-run", "--diff")
    assert code == 0
    warnings = [line for line in err.splitlines() if "was edited since" in line]
    assert len(warnings) == 1 and "a/MEMORY.md was edited since memclaw" in warnings[0]
    assert "-- my own note\n" in out


def test_a_rewrite_by_memclaw_is_not_a_hand_edit(ws: Workspace, tmp_path: Path) -> None:
    make_agent(ws, "a", {})
    assert run("import", "a", _zip(tmp_path, "old.zip", OLD))[0] == 0
    edit = ("files", "edit", "a", "MEMORY.md", "--old", "Dec 5", "--new", "Dec 6")
    assert run(*edit)[0] == 0
    code, out, err = run("import", "a", _zip(tmp_path, "new.zip", NEW), "--dry-run", "--diff")
    assert code == 0 and "-- launch Dec 6\n" in out
    assert "was edited since" not in err


def test_diff_in_json(ws: Workspace, tmp_path: Path) -> None:
    make_agent(ws, "a", {})
    run("import", "a", _zip(tmp_path, "old.zip", OLD))
    _edit_by_hand(ws.root / "a" / "MEMORY.md", "# Memory\n- mine\n")
    code, out, _ = run("import", "a", _zip(tmp_path, "n.zip", NEW), "--dry-run", "--diff", "--json")
    assert code == 0
    [found] = json.loads(out)["diffs"]
    assert found["path"] == "MEMORY.md" and found["edited_locally"] is True
    assert "+- launch Dec 12\n" in found["diff"]


def test_diff_needs_dry_run(ws: Workspace, tmp_path: Path) -> None:
    agent = make_agent(ws, "a", OLD)
    before = tree(agent)
    code, _, err = run("import", "a", _zip(tmp_path, "new.zip", NEW), "--diff")
    assert code != 0 and "--dry-run" in err and len(err.strip().splitlines()) == 1
    assert tree(agent) == before
