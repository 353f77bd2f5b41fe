"""`export --help` says what a snapshot carries: the sessions its extractions quote travel."""

import zipfile
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app


def ok(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_the_help_tells_what_the_zip_holds(isolated_env: Path, tmp_path: Path) -> None:
    ok("init", "pal")
    sessions = isolated_env / "pal" / "sessions"
    sessions.mkdir()
    (sessions / "s1.jsonl").write_text('{"role": "user", "content": "I use Neovim daily."}\n')
    ok("extract", "pal", "--session", "s1", "--force")
    ok("export", "pal", "-o", str(tmp_path / "pal.zip"))
    names = zipfile.ZipFile(tmp_path / "pal.zip").namelist()
    assert "state/sessions/s1.jsonl" in names and "state/changes.jsonl" in names
    told = " ".join(ok("export", "--help").split())
    assert "sessions stay behind" not in told
    assert "state/" in told and "sessions its extractions quote" in told
