"""Settings: layered sources, their reported origin, and errors that point at the problem."""

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.config import Settings, describe, load_settings, parse_assignment, user_config_path
from memclaw.errors import ConfigError


def _env(**extra: str) -> dict[str, str]:
    return {"HOME": os.environ["HOME"], "XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"], **extra}


def _user_config(text: str | bytes) -> Path:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "memclaw" / "config.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_defaults_when_nothing_is_configured(isolated_env: Path) -> None:
    settings = load_settings(isolated_env, _env())
    assert settings == Settings()
    assert settings.profile_max_chars == 4000
    assert settings.memory_max_chars == 8000
    assert settings.inject_max_chars == 4000
    assert settings.inject_max_entries_per_type == 40
    assert settings.owner_isolation is True
    assert settings.source("memory_max_chars") == "default"
    assert not settings.model_configured


def test_precedence_defaults_root_user_env_flags(isolated_env: Path) -> None:
    root_file = isolated_env / "memclaw.yaml"
    root_file.write_text(
        "# root settings\nmodel: from-root\nmemory_max_chars: 9000\nprofile_max_chars: 3000\n"
        "dream_days: 3\n",
        encoding="utf-8",
    )
    user_file = _user_config("model: from-user\nmemory_max_chars: 10000\ndream_days: 4\n")
    env = _env(MEMCLAW_MEMORY_MAX_CHARS="11000", MEMCLAW_DREAM_DAYS="5")
    settings = load_settings(isolated_env, env, {"dream-days": "6"})

    assert settings.profile_max_chars == 3000
    assert settings.source("profile_max_chars") == f"{root_file}:4"
    assert settings.model == "from-user"
    assert settings.source("model") == f"{user_file}:1"
    assert settings.memory_max_chars == 11000
    assert settings.source("memory_max_chars") == "env MEMCLAW_MEMORY_MAX_CHARS"
    assert settings.dream_days == 6
    assert settings.source("dream_days") == "flag"
    assert settings.inject_max_chars == 4000
    assert settings.source("inject_max_chars") == "default"


def test_memclaw_config_variable_replaces_the_xdg_file(isolated_env: Path, tmp_path: Path) -> None:
    _user_config("model: from-xdg\n")
    chosen = tmp_path / "elsewhere.yaml"
    chosen.write_text("model: from-env-path\n", encoding="utf-8")
    env = _env(MEMCLAW_CONFIG=str(chosen))
    assert user_config_path(env) == chosen
    settings = load_settings(isolated_env, env)
    assert settings.model == "from-env-path"
    assert settings.source("model") == f"{chosen}:1"


def test_xdg_falls_back_to_home_dot_config(tmp_path: Path) -> None:
    assert user_config_path({"HOME": str(tmp_path)}) == tmp_path / ".config/memclaw/config.yaml"


def test_dash_and_underscore_keys_are_the_same(isolated_env: Path) -> None:
    (isolated_env / "memclaw.yaml").write_text(
        "memory-max-chars: 0\nOwner-Isolation: off\n", encoding="utf-8"
    )
    settings = load_settings(isolated_env, _env(), {"profile-max-chars": "0"})
    assert settings.memory_max_chars == 0
    assert settings.owner_isolation is False
    assert settings.profile_max_chars == 0
    assert parse_assignment("inject-max-chars=12") == ("inject_max_chars", "12")


def test_env_values_are_coerced(isolated_env: Path) -> None:
    env = _env(
        MEMCLAW_OWNER_ISOLATION="no",
        MEMCLAW_DREAM_MIN_SCORE="0.5",
        MEMCLAW_BASE_URL="http://127.0.0.1:9/v1",
    )
    settings = load_settings(isolated_env, env)
    assert settings.owner_isolation is False
    assert settings.dream_min_score == 0.5
    assert settings.model_configured


def test_openai_api_key_is_read_and_masked(isolated_env: Path) -> None:
    settings = load_settings(isolated_env, _env(OPENAI_API_KEY="abcdefghijkl"))
    assert settings.api_key == "abcdefghijkl"
    assert settings.source("api_key") == "env OPENAI_API_KEY"
    row = next(r for r in describe(settings) if r["key"] == "api_key")
    assert "abcdefghijkl" not in str(row["value"])


def test_set_flag_splits_on_the_first_equals_sign() -> None:
    assert parse_assignment("base_url=http://h/v1?a=b") == ("base_url", "http://h/v1?a=b")
    with pytest.raises(ConfigError, match="KEY=VALUE"):
        parse_assignment("memory_max_chars")


# --- errors name the file, the line and the key ------------------------------------------


def _error_for(root: Path, text: str | bytes) -> str:
    path = root / "memclaw.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(root, _env())
    return str(caught.value)


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ("model: x\nmemory_max_charz: 5\n", 2, "memory_max_charz"),  # unknown key
        ("model: x\n\nmemory_max_chars: lots\n", 3, "memory_max_chars"),  # wrong type
        ("owner_isolation: maybe\n", 1, "owner_isolation"),  # wrong type (bool)
        ("memory_max_chars: 12.5\n", 1, "memory_max_chars"),  # float for an int
        ("model: [a, b]\n", 1, "model"),  # not a single value
        ("memory_max_chars: -1\n", 1, "memory_max_chars"),  # below the minimum
        ("dream_max_loss_ratio: 5\n", 1, "dream_max_loss_ratio"),  # above the maximum
        ("model: a\nmodel: b\n", 2, "model"),  # duplicate key
        ("memory_max_chars: 1\nmemory-max-chars: 2\n", 2, "memory_max_chars"),  # duplicate
        ("model: ok\nbase_url: 'open\n", 2, "base_url"),  # invalid YAML: unterminated
        ("model: a: b\n", 1, "model"),  # invalid YAML: nested colon
        ("model: ok\nsearch_limit: 3\n\tdream_days: 2\n", 3, "dream_days"),  # tab indent
        ("model: !!python/object:os.system x\n", 1, "model"),  # unsafe tag
        ("memory_max_chars: !!int abc\n", 1, "memory_max_chars"),  # tag that cannot convert
        ("model: 2026-11-29\n", 1, "model"),  # a date is not a string
    ],
)
def test_bad_root_file_names_file_line_and_key(
    isolated_env: Path, text: str, line: int, key: str
) -> None:
    message = _error_for(isolated_env, text)
    assert f"{isolated_env / 'memclaw.yaml'}:{line}" in message
    assert key in message


def test_non_utf8_file_names_file_line_and_key(isolated_env: Path) -> None:
    message = _error_for(isolated_env, b"model: ok\nsearch_limit: 3\nbase_url: caf\xe9\n")
    assert f"{isolated_env / 'memclaw.yaml'}:3" in message
    assert "base_url" in message
    assert "UTF-8" in message


def test_bad_user_file_is_named(isolated_env: Path) -> None:
    path = _user_config("search_limit: many\n")
    with pytest.raises(ConfigError) as caught:
        load_settings(isolated_env, _env())
    assert f"{path}:1" in str(caught.value)
    assert "search_limit" in str(caught.value)


def test_top_level_must_be_a_mapping(isolated_env: Path) -> None:
    message = _error_for(isolated_env, "- model\n- x\n")
    assert f"{isolated_env / 'memclaw.yaml'}:1" in message


def test_empty_file_is_fine(isolated_env: Path) -> None:
    (isolated_env / "memclaw.yaml").write_text("# nothing yet\n", encoding="utf-8")
    assert load_settings(isolated_env, _env()) == Settings()


def test_bad_env_and_flag_values_are_named(isolated_env: Path) -> None:
    with pytest.raises(ConfigError, match=r"MEMCLAW_SEARCH_LIMIT.*search_limit"):
        load_settings(isolated_env, _env(MEMCLAW_SEARCH_LIMIT="ten"))
    with pytest.raises(ConfigError, match=r"flag.*search_limit"):
        load_settings(isolated_env, _env(), {"search_limit": "ten"})
    with pytest.raises(ConfigError, match="unknown key 'no_such_key'"):
        load_settings(isolated_env, _env(), {"no_such_key": "1"})


# --- memclaw config show ---------------------------------------------------------------------


def test_config_show_json_reports_value_and_source(isolated_env: Path) -> None:
    (isolated_env / "memclaw.yaml").write_text("memory_max_chars: 9000\n", encoding="utf-8")
    result = CliRunner(env={"MEMCLAW_DREAM_DAYS": "3"}).invoke(
        app, ["--set", "search-limit=7", "config", "show", "--json"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["root"] == str(isolated_env)
    rows = {row["key"]: row for row in data["settings"]}
    assert len(rows) == len(describe(Settings()))
    assert rows["memory_max_chars"]["value"] == 9000
    assert rows["memory_max_chars"]["source"] == f"{isolated_env / 'memclaw.yaml'}:1"
    assert rows["dream_days"]["value"] == 3
    assert rows["dream_days"]["source"] == "env MEMCLAW_DREAM_DAYS"
    assert rows["search_limit"]["value"] == 7
    assert rows["search_limit"]["source"] == "flag"
    assert rows["profile_max_chars"]["source"] == "default"
    assert all(row["help"] for row in rows.values())


def test_config_show_table_lists_every_key(isolated_env: Path) -> None:
    result = CliRunner().invoke(
        app, ["--set", "memory_max_chars=5", "config", "show"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    for row in describe(Settings()):
        assert row["key"] in result.stdout
    line = next(ln for ln in result.stdout.splitlines() if "memory_max_chars" in ln)
    assert "5" in line and "flag" in line


def test_config_show_with_invalid_root_file_fails_cleanly(isolated_env: Path) -> None:
    (isolated_env / "memclaw.yaml").write_text("memory_max_chars: [\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["config", "show"], catch_exceptions=False)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "memclaw.yaml:" in result.stderr
