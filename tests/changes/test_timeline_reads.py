"""The timeline as a person reads it: which files each event touched, feedback, --since words."""

import json
from datetime import date, timedelta
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.clock import parse_day


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_each_event_names_its_files_and_feedback_is_an_event(isolated_env: Path) -> None:
    assert run("init", "pal")[0] == 0
    assert run("remember", "pal", "Maya lives in Oslo")[0] == 0
    code, stdout, _ = run("facts", "list", "pal", "--json")
    fid = json.loads(stdout)["facts"][0]["id"]
    assert run("facts", "reject", "pal", fid)[0] == 0

    code, stdout, _ = run("timeline", "pal")

    assert code == 0
    lines = stdout.splitlines()
    remember = next(i for i, line in enumerate(lines) if " remember " in line)
    assert "entries/identity.md" in lines[remember + 1]  # without --diff
    assert any(f"rejected {fid} (cli)" in line for line in lines)
    code, stdout, _ = run("timeline", "pal", "--json")
    assert "rejected" in [e["kind"] for e in json.loads(stdout)]


def test_since_takes_the_words_a_person_types(isolated_env: Path) -> None:
    today = date(2026, 12, 4)  # a Friday
    assert parse_day("yesterday", today) == date(2026, 12, 3)
    assert parse_day("today", today) == today
    assert parse_day("3d", today) == date(2026, 12, 1)
    assert parse_day("2 days ago", today) == date(2026, 12, 2)
    assert parse_day("monday", today) == date(2026, 11, 30)
    assert parse_day("friday", today) == today
    assert parse_day("2026-11-01", today) == date(2026, 11, 1)
    assert parse_day("soon", today) is None
    assert run("init", "pal")[0] == 0
    run("remember", "pal", "Maya lives in Oslo")
    code, stdout, _ = run("timeline", "pal", "--since", "yesterday")
    assert code == 0 and "remember" in stdout
    code, _, stderr = run("timeline", "pal", "--since", "soon")
    assert code == 2 and "not a day" in stderr
    code, _, stderr = run("search", "Oslo", "--agent", "pal", "--since", "yesterday")
    assert code == 0, stderr
    tomorrow = (date.today() + timedelta(days=1)).isoformat()
    assert "remember" not in run("timeline", "pal", "--since", tomorrow)[1]
