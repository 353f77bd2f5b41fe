"""config get/set/unset/path/edit, and what config show says it read."""

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_set_keeps_comments_and_other_keys(isolated_env: Path) -> None:
    yaml_file = isolated_env / "memclaw.yaml"
    yaml_file.write_text("# team settings\nmodel: gpt-4o  # old\nmemory_max_chars: 9000\n", "utf-8")
    assert _cli("config", "set", "model", "llama3.1").exit_code == 0
    assert yaml_file.read_text("utf-8") == (
        "# team settings\nmodel: llama3.1\nmemory_max_chars: 9000\n"
    )
    assert _cli("config", "set", "profile-max-chars", "5000").exit_code == 0
    assert yaml_file.read_text("utf-8").endswith("profile_max_chars: 5000\n")
    assert _cli("config", "get", "profile_max_chars").stdout == "5000\n"
    row = json.loads(_cli("config", "get", "model", "--json").stdout)
    assert row["value"] == "llama3.1" and row["source"].endswith("memclaw.yaml:2")


def test_unset_removes_the_key_only(isolated_env: Path) -> None:
    yaml_file = isolated_env / "memclaw.yaml"
    yaml_file.write_text("# keep me\nmodel: x\nmemory_max_chars: 9000\n", "utf-8")
    assert _cli("config", "unset", "model").exit_code == 0
    assert yaml_file.read_text("utf-8") == "# keep me\nmemory_max_chars: 9000\n"
    again = _cli("config", "unset", "model")
    assert again.exit_code == 0 and "nothing changed" in again.stderr


def test_user_flag_writes_the_user_config(isolated_env: Path, tmp_path: Path) -> None:
    assert _cli("config", "set", "model", "m1", "--user").exit_code == 0
    user_file = tmp_path / "home" / ".config" / "memclaw" / "config.yaml"
    assert user_file.read_text("utf-8") == "model: m1\n"
    assert not (isolated_env / "memclaw.yaml").exists()
    assert _cli("config", "path", "--user").stdout == f"{user_file}\n"
    assert _cli("config", "path").stdout == f"{isolated_env / 'memclaw.yaml'}\n"


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["config", "set", "memory_max_char", "1"], 2, "did you mean 'memory_max_chars'?"),
        (["config", "get", "modle"], 2, "did you mean 'model'?"),
        (["config", "unset", "modle"], 2, "did you mean 'model'?"),
        (["config", "set", "memory_max_chars", "lots"], 1, "memory_max_chars"),
        (["config", "set", "base_url", "localhost:11434/v1"], 1, "has no scheme"),
    ],
)
def test_bad_keys_and_values_write_nothing(
    isolated_env: Path, args: list[str], code: int, needle: str
) -> None:
    result = _cli(*args)
    assert result.exit_code == code
    assert len(result.stderr.splitlines()) == 1 and needle in result.stderr
    assert not (isolated_env / "memclaw.yaml").exists()


def test_a_base_url_without_scheme_is_named_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMCLAW_BASE_URL", "localhost:8080")
    result = _cli("status")
    assert result.exit_code == 1 and "has no scheme" in result.stderr


def test_show_lists_the_files_it_read(isolated_env: Path, tmp_path: Path) -> None:
    assert "no settings file" in _cli("config", "show").stderr
    (isolated_env / "memclaw.yaml").write_text("model: a\n", "utf-8")
    data = json.loads(_cli("config", "show", "--json").stdout)
    assert data["files"] == [str(isolated_env / "memclaw.yaml")]
    assert str(isolated_env / "memclaw.yaml") in _cli("config", "show").stderr


def test_a_missing_memclaw_config_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMCLAW_CONFIG", str(tmp_path / "nope.yaml"))
    result = _cli("config", "show")
    assert result.exit_code == 1 and "$MEMCLAW_CONFIG" in result.stderr


def test_edit_opens_the_editor_then_checks_the_file(
    isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\nopen(sys.argv[1], 'a').write('memory_max_chars: 7000\\n')\n", "utf-8"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    result = _cli("config", "edit")
    assert result.exit_code == 0 and "valid" in result.stderr
    assert _cli("config", "get", "memory_max_chars").stdout == "7000\n"
    editor.write_text("import sys\nopen(sys.argv[1], 'a').write('bogus: 1\\n')\n", "utf-8")
    bad = _cli("config", "edit")
    assert bad.exit_code == 1 and "bogus" in bad.stderr
