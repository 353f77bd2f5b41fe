"""`memclaw doctor`, `doctor --fix`, and what `cron install` and `dream status` say about cron."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.index import reindex
from memclaw.workspace import Workspace


def invoke(*args: str, stdin: str | None = None) -> object:
    return CliRunner().invoke(app, list(args), input=stdin, catch_exceptions=False)


@pytest.fixture
def agent_root(isolated_env: Path) -> Path:
    Workspace.open(isolated_env).init_agent("demo")
    return isolated_env


def test_one_line_per_check_and_exit_zero_without_failures(
    agent_root: Path, fake_crontab: Path
) -> None:
    result = invoke("doctor")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ok    root ")
    assert any(
        line.startswith("warn  crontab ") and "memclaw cron install" in line for line in lines
    )
    assert "doctor --fix" in result.stderr
    # It ends as a test run ends: the counts, which add up to the lines above.
    ok, warn = (
        sum(ln.startswith("ok ") for ln in lines),
        sum(ln.startswith("warn ") for ln in lines),
    )
    assert lines[-1] == f"{ok} ok, {warn} warning{'s' if warn != 1 else ''}, 0 failed"


def test_json_and_exit_one_on_a_failure(tmp_path: Path) -> None:
    result = invoke("--root", str(tmp_path / "nowhere"), "doctor", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False
    assert data["checks"][0] == {
        "name": "root",
        "status": "fail",
        "found": f"{tmp_path / 'nowhere'} (from --root) does not exist",
        "todo": (
            "create an agent there with `memclaw init NAME`, or point --root/MEMCLAW_ROOT at it"
        ),
        "fix": None,
    }


def test_fix_yes_fixes_what_it_says(
    agent_root: Path,
    fake_crontab: Path,
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("MEMCLAW_BASE_URL", fake_openai.base_url)
    reindex(Workspace.open(agent_root).agent("demo"))
    index = agent_root / "demo" / ".memclaw" / "index.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(b"garbage" * 1000)

    before = invoke("doctor", "--json")
    assert before.exit_code == 1
    fixes = {c["name"]: c["fix"] for c in json.loads(before.stdout)["checks"] if c["fix"]}
    assert fixes == {
        "crontab": "install-crontab",
        "cron-env": "write-model-settings",
        "index demo": "rebuild-index",
    }

    fixed = invoke("doctor", "--fix", "--yes", "--json")
    assert fixed.exit_code == 0, fixed.output
    data = json.loads(fixed.stdout)
    assert len(data["fixed"]) == 3
    statuses = {c["name"]: c["status"] for c in data["checks"]}
    assert statuses["crontab"] == statuses["cron-env"] == statuses["index demo"] == "ok"
    assert "# memclaw:dream" in fake_crontab.read_text()
    config = tmp_path / "home" / ".config" / "memclaw" / "config.yaml"
    assert config.read_text() == f'base_url: "{fake_openai.base_url}"\n'


def test_fix_asks_first_and_a_no_changes_nothing(agent_root: Path, fake_crontab: Path) -> None:
    result = invoke("doctor", "--fix", stdin="n\n")
    assert "fix crontab: run `memclaw cron install`?" in result.stderr
    assert not fake_crontab.exists()
    result = invoke("doctor", "--fix", stdin="y\n")
    assert "fixed: installed 2 crontab line(s)" in result.stderr
    assert fake_crontab.read_text().count("# memclaw:") == 2


def test_dream_status_promises_a_next_run_only_when_installed(
    agent_root: Path, fake_crontab: Path
) -> None:
    shown = invoke("dream", "status", "demo")
    assert "next run:  none: no crontab line for this root" in shown.stdout
    assert json.loads(invoke("dream", "status", "demo", "--json").stdout)["next_run"] is None
    invoke("--set", "dream_cron=15 2 * * *", "cron", "install")
    data = json.loads(invoke("dream", "status", "demo", "--json").stdout)
    assert "T02:15" in data["next_run"]  # the installed line's time, not the setting's
    assert data["scheduled"]["dream"] == "15 2 * * *"
    assert "(15 2 * * *)" in invoke("dream", "status", "demo").stdout


def test_cron_install_and_dream_status_warn_about_shell_only_settings(
    agent_root: Path, fake_crontab: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet = invoke("cron", "install")
    assert "warning" not in quiet.stderr
    monkeypatch.setenv("OPENAI_API_KEY", "sk-shell-only-1234567")
    installed = invoke("cron", "install")
    assert "warning: api_key (from OPENAI_API_KEY) only in this shell's environment" in (
        installed.stderr
    )
    assert "sk-shell" not in installed.stderr
    status = invoke("dream", "status", "demo")
    assert "cron jobs will not see it" in status.stderr
