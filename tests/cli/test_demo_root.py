"""The repo's workspaces/ is a root memclaw finds; "no agent" says which root it searched."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pristine
import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app

REPO = Path(__file__).resolve().parents[2]


def _memclaw(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMCLAW_", "XDG_"))}
    env.update(HOME=str(home), PYTHONPATH=str(REPO), NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "memclaw", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _copy_of_the_repo(tmp_path: Path) -> Path:
    """The repo's layout as a fresh clone has it: workspaces/ with what git tracks in it."""
    clone = tmp_path / "clone"
    shutil.copytree(pristine.workspaces(), clone / "workspaces")
    return clone


def test_in_a_checkout_the_demo_agent_is_found_without_root(tmp_path: Path) -> None:
    clone, home = _copy_of_the_repo(tmp_path), tmp_path / "home"
    (clone / "docs").mkdir()  # from a subfolder too, as git finds .git
    for cwd in (clone, clone / "docs"):
        listed = _memclaw(cwd, home, "files", "list", "demo")
        assert listed.returncode == 0, listed.stderr
        assert "MEMORY.md" in listed.stdout
    prompt = _memclaw(clone, home, "prompt", "demo")
    assert prompt.returncode == 0, prompt.stderr
    status = json.loads(_memclaw(clone, home, "status", "--json").stdout)
    assert status["root"] == str(clone / "workspaces")
    assert "found workspaces/memclaw.yaml" in status["root_reason"]
    assert not (home / ".local").exists()  # nothing fell back to the per-user folder


def test_the_shipped_root_settings_file_sets_nothing(tmp_path: Path) -> None:
    clone = _copy_of_the_repo(tmp_path)
    shown = _memclaw(clone, tmp_path / "home", "config", "show", "--json")
    assert shown.returncode == 0, shown.stderr
    sources = {row["source"] for row in json.loads(shown.stdout)["settings"]}
    assert sources == {"default"}  # the file only marks the root; every value is a default


def _no_agent(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "files", "list", "nobody"], catch_exceptions=False)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    return result.stderr


def test_no_agent_names_the_root_searched_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_env: Path
) -> None:
    assert f"under {isolated_env} ($MEMCLAW_ROOT)" in _no_agent()
    assert f"under {isolated_env} (--root)" in _no_agent("--root", str(isolated_env))

    monkeypatch.delenv("MEMCLAW_ROOT")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    said = _no_agent()
    assert str(tmp_path / "data" / "memclaw" / "workspaces") in said
    assert f"per-user data folder: no workspaces/memclaw.yaml in {tmp_path}" in said
    assert "--root" in said  # the way to name another root
