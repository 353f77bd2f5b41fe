"""Which root the CLI uses: named roots must exist, otherwise it is found or falls back."""

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.cli.fast import main as fast_main


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_a_missing_root_flag_is_one_line_error_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "typo"
    for args in (["status"], ["files", "list", "demo"], ["config", "show"]):
        result = _cli("--root", str(missing), *args)
        assert result.exit_code == 1, args
        assert "does not exist" in result.stderr and "--root" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert not missing.exists()


def test_a_missing_env_root_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMCLAW_ROOT", str(tmp_path / "gone"))
    result = _cli("status")
    assert result.exit_code == 1
    assert "$MEMCLAW_ROOT" in result.stderr


def test_the_fast_search_lane_refuses_a_missing_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.argv", ["memclaw", "--root", str(tmp_path / "gone"), "search", "x"])
    with pytest.raises(SystemExit) as exc:
        fast_main()
    assert exc.value.code == 1
    assert "does not exist" in capsys.readouterr().err


def test_init_may_create_a_named_root(tmp_path: Path) -> None:
    assert _cli("--root", str(tmp_path / "fresh"), "init", "demo").exit_code == 0
    assert (tmp_path / "fresh" / "demo" / "MEMORY.md").is_file()


def test_status_names_the_root_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_env: Path
) -> None:
    result = _cli("status", "--json")
    data = json.loads(result.stdout)
    assert data["root_reason"] == "$MEMCLAW_ROOT"
    assert "$MEMCLAW_ROOT" in _cli("status").stderr

    monkeypatch.delenv("MEMCLAW_ROOT")
    project = tmp_path / "project"
    (project / "workspaces").mkdir(parents=True)
    (project / "workspaces" / "memclaw.yaml").write_text("", encoding="utf-8")
    (project / "notes").mkdir()
    monkeypatch.chdir(project / "notes")
    data = json.loads(_cli("status", "--json").stdout)
    assert data["root"] == str(project / "workspaces")
    assert "found workspaces/memclaw.yaml" in data["root_reason"]


def test_without_a_project_root_the_user_data_folder_is_used_and_not_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMCLAW_ROOT")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    result = _cli("status")
    assert result.exit_code == 0
    expected = tmp_path / "data" / "memclaw" / "workspaces"
    assert str(expected) in result.stderr and "per-user data folder" in result.stderr
    assert not expected.exists()
    assert _cli("init", "demo").exit_code == 0
    assert (expected / "demo" / "MEMORY.md").is_file()
