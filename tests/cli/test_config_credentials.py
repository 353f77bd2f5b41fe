"""A credential is written only into the person's own config file, outside any git work tree.

A root's memclaw.yaml is shared by every agent under it, and the checkout's own is
tracked by git: `config set api_key sk-...` there once put a key in a tracked file.
"""

import subprocess
from pathlib import Path

from click.testing import Result
from secretkit import OPENAI
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.doctor.checks import check_config
from memclaw.doctor.report import Status
from memclaw.workspace.config_file import edit_checked

KEY = OPENAI


def _cli(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_a_key_never_goes_into_the_roots_settings_file(isolated_env: Path) -> None:
    _cli("init", "a")
    shared = isolated_env / "memclaw.yaml"
    shared.write_text("# our settings\nmodel: llama3.2\n", encoding="utf-8")
    result = _cli("config", "set", "api_key", KEY)
    assert result.exit_code == 1
    said = result.output
    assert len(said.strip().splitlines()) == 1
    assert "shared by every agent" in said and "MEMCLAW_API_KEY" in said and "--user" in said
    assert shared.read_text(encoding="utf-8") == "# our settings\nmodel: llama3.2\n"
    assert KEY not in said  # the refusal does not repeat the key either


def test_a_password_inside_a_providers_settings_is_a_credential_too(isolated_env: Path) -> None:
    _cli("init", "a")
    value = '{"provider": "qdrant", "config": {"api_key": "' + KEY + '"}}'
    result = _cli("config", "set", "mem0_oss_vector_store", value)
    assert result.exit_code == 1
    assert not (isolated_env / "memclaw.yaml").exists()


def test_the_users_own_file_takes_it_unless_git_tracks_its_folder(
    isolated_env: Path, tmp_path: Path
) -> None:
    _cli("init", "a")
    assert _cli("config", "set", "api_key", KEY, "--user").exit_code == 0
    user = tmp_path / "home" / ".config" / "memclaw" / "config.yaml"
    assert KEY in user.read_text(encoding="utf-8")
    # A home folder kept in git (dotfiles): the key would be committed with it.
    subprocess.run(["git", "init", "-q", str(tmp_path / "home")], check=True)
    result = _cli("config", "set", "embedding_api_key", KEY, "--user")
    assert result.exit_code == 1
    assert "git work tree" in result.output and "MEMCLAW_EMBEDDING_API_KEY" in result.output
    assert "embedding_api_key" not in user.read_text(encoding="utf-8")


def test_an_edit_that_adds_a_key_to_the_roots_file_is_refused(isolated_env: Path) -> None:
    path = isolated_env / "memclaw.yaml"
    path.write_text("model: llama3.2\n", encoding="utf-8")

    def editor(copy: Path) -> None:
        copy.write_text(f"model: llama3.2\napi_key: {KEY}\n", encoding="utf-8")

    outcome = edit_checked(path, editor, lambda why: False)
    assert not outcome.saved and "MEMCLAW_API_KEY" in outcome.refused
    assert path.read_text(encoding="utf-8") == "model: llama3.2\n"


def test_doctor_fails_on_a_key_in_a_shared_file(isolated_env: Path, tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "home/.config")}
    (isolated_env / "memclaw.yaml").write_text(f"api_key: {KEY}\n", encoding="utf-8")
    _, check = check_config(isolated_env, env, {})
    assert check.status is Status.FAIL and "api_key" in check.found and KEY not in check.found
    (isolated_env / "memclaw.yaml").write_text("model: llama3.2\n", encoding="utf-8")
    assert check_config(isolated_env, env, {})[1].status is Status.OK
