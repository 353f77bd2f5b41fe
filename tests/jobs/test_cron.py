"""The cron expression evaluator and memclaw's crontab lines, against a fake crontab."""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.errors import ConfigError
from memclaw.jobs.crontab import cron_lines, install, remove
from memclaw.schedule import next_run, parse_cron


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    ("expr", "after", "expected"),
    [
        ("0 3 * * *", "2026-11-28 02:59", "2026-11-28 03:00"),
        ("0 3 * * *", "2026-11-28 03:00", "2026-11-29 03:00"),
        ("30 3 * * *", "2026-12-31 04:00", "2027-01-01 03:30"),
        ("*/15 9-17 * * 1-5", "2026-11-28 10:00", "2026-11-30 09:00"),  # Saturday -> Monday
        ("*/15 9-17 * * 1-5", "2026-11-30 09:07", "2026-11-30 09:15"),
        ("0 12 1 * *", "2026-11-28 00:00", "2026-12-01 12:00"),
        ("0 0 29 2 *", "2026-03-01 00:00", "2028-02-29 00:00"),
        ("0 0 13 * 5", "2026-11-01 00:00", "2026-11-06 00:00"),  # day 13 OR Friday
        ("0 8 * jan,jul mon", "2026-11-28 00:00", "2027-01-04 08:00"),
        ("5,10 1 * * 7", "2026-11-28 00:00", "2026-11-29 01:05"),  # 7 is Sunday
        ("0 22-23/1 * * *", "2026-11-28 22:30", "2026-11-28 23:00"),
        ("15 2/6 * * *", "2026-11-28 03:00", "2026-11-28 08:15"),
    ],
)
def test_next_run(expr: str, after: str, expected: str) -> None:
    assert next_run(expr, at(after)) == at(expected)


def test_next_run_keeps_the_timezone() -> None:
    result = next_run("0 3 * * *", at("2026-11-28 10:00"))
    assert result.tzinfo is UTC


@pytest.mark.parametrize(
    "expr", ["0 3 * *", "60 3 * * *", "0 24 * * *", "0 3 0 * *", "*/0 * * * *", "0 3 * * funday",
             "5-1 * * * *", "0 0 31 2 *"]
)  # fmt: skip
def test_bad_expressions_are_refused(expr: str) -> None:
    with pytest.raises(ConfigError):
        next_run(expr, at("2026-11-28 00:00"))


def test_next_run_reads_wall_clock_time_in_the_given_timezone() -> None:
    oslo = timezone(timedelta(hours=1))
    after = datetime(2026, 11, 28, 10, 0, tzinfo=oslo)
    assert next_run("0 3 * * *", after) == datetime(2026, 11, 29, 3, 0, tzinfo=oslo)
    assert next_run("0 3 * * *", after).tzinfo is oslo


@pytest.mark.parametrize(
    ("expr", "after", "expected"),
    [
        ("5-5 3 * * *", "2026-11-28 03:00", "2026-11-28 03:05"),  # croniter alone: every minute
        ("0 3 * * 7-7", "2026-11-28 00:00", "2026-11-29 03:00"),  # croniter alone: every day
        ("0 3 * * sun-sun/2", "2026-11-28 00:00", "2026-11-29 03:00"),
        ("0 3 */2 * 1", "2026-11-28 00:00", "2026-12-07 03:00"),  # '*' day field: AND, as cron
    ],
)
def test_cron_readings_where_croniter_differs(expr: str, after: str, expected: str) -> None:
    assert next_run(expr, at(after)) == at(expected)


@pytest.mark.parametrize(
    "expr", ["0 3 L * *", "0 3 15W * *", "0 3 * * 1#2", "0 3 ? * *", "H 3 * * *", "@daily",
             "0 0 3 * * *", "0 3 * * sat-sun", "0 3 * dec-jan *"]
)  # fmt: skip
def test_croniter_extensions_cron_would_reject_are_refused(expr: str) -> None:
    with pytest.raises(ConfigError):
        parse_cron(expr)


def test_a_bad_field_is_named_with_what_it_takes() -> None:
    with pytest.raises(ConfigError, match=r"cron hour '24' is not valid: use 0-23"):
        parse_cron("0 24 * * *")
    with pytest.raises(ConfigError, match="must have 5 fields: minute hour day month weekday"):
        parse_cron("0 3 * *")
    with pytest.raises(ConfigError, match="never fires"):
        next_run("0 0 30 2 *", at("2026-11-28 00:00"))


def test_cli_refuses_a_croniter_only_schedule(fake_crontab: Path) -> None:
    result = CliRunner().invoke(app, ["--set", "dream_cron=0 3 L * *", "cron", "install"])
    assert result.exit_code == 1
    assert "cron day of month 'L' is not valid" in result.stderr
    assert not fake_crontab.exists()


# --- crontab -----------------------------------------------------------------------------------


def test_lines_use_absolute_paths_the_schedules_and_a_tag(tmp_path: Path) -> None:
    lines = cron_lines(
        tmp_path / "ws", dream_cron="0 3 * * *", consolidate_cron="30 3 * * *",
        executable=["/opt/bin/memclaw"],
    )  # fmt: skip
    dream, consolidate = (line.text for line in lines)
    root = (tmp_path / "ws").absolute()
    assert dream.startswith(f"0 3 * * * /opt/bin/memclaw --root {root} dream --all --all-owners")
    assert f">> {root}/.memclaw/cron.log 2>&1" in dream
    assert dream.endswith(f"# memclaw:dream root={root}")
    assert consolidate.startswith("30 3 * * * /opt/bin/memclaw")
    assert " consolidate --all --trigger cron " in consolidate
    assert " dream --all --all-owners --trigger cron " in dream  # a cron run says so itself


def test_lines_default_to_this_python(tmp_path: Path) -> None:
    (line, _) = cron_lines(tmp_path, dream_cron="0 3 * * *", consolidate_cron="30 3 * * *")
    assert f"{sys.executable} -m memclaw --root" in line.text or "/memclaw --root" in line.text


def test_install_is_idempotent_and_remove_removes_only_ours(
    tmp_path: Path, fake_crontab: Path
) -> None:
    other = "15 * * * * /usr/bin/backup # not memclaw"
    fake_crontab.write_text(other + "\n")
    cmd = [os.environ["MEMCLAW_CRONTAB_CMD"]]
    lines = cron_lines(tmp_path / "ws", dream_cron="0 3 * * *", consolidate_cron="30 3 * * *")

    assert install(cmd, tmp_path / "ws", lines)["changed"] is True
    first = fake_crontab.read_text()
    assert install(cmd, tmp_path / "ws", lines)["changed"] is False
    assert fake_crontab.read_text() == first
    assert first.splitlines() == [other, *(line.text for line in lines)]

    # Another root keeps its own lines.
    elsewhere = cron_lines(tmp_path / "other", dream_cron="0 4 * * *", consolidate_cron="0 5 * * *")
    install(cmd, tmp_path / "other", elsewhere)
    assert remove(cmd, tmp_path / "ws")["changed"] is True
    assert fake_crontab.read_text().splitlines() == [other, *(line.text for line in elsewhere)]
    assert remove(cmd, tmp_path / "ws")["changed"] is False


def test_cli_install_show_remove(tmp_path: Path, fake_crontab: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["cron", "install"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "installed 2 crontab lines" in result.stderr
    again = runner.invoke(app, ["cron", "install"], catch_exceptions=False)
    assert "already up to date" in again.stderr

    shown = runner.invoke(app, ["cron", "show", "--json"], catch_exceptions=False)
    assert '"up_to_date": true' in shown.stdout

    gone = runner.invoke(app, ["cron", "remove"], catch_exceptions=False)
    assert "removed 2 crontab lines" in gone.stderr
    assert fake_crontab.read_text() == ""


def test_cli_changed_schedule_updates_the_line(tmp_path: Path, fake_crontab: Path) -> None:
    runner = CliRunner()
    runner.invoke(app, ["cron", "install"], catch_exceptions=False)
    runner.invoke(
        app, ["--set", "dream_cron=15 2 * * *", "cron", "install"], catch_exceptions=False
    )
    lines = fake_crontab.read_text().splitlines()
    assert len(lines) == 2 and lines[0].startswith("15 2 * * * ")


def test_without_crontab_show_prints_and_install_explains(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMCLAW_CRONTAB_CMD", str(tmp_path / "no-such-crontab"))
    runner = CliRunner()
    shown = runner.invoke(app, ["cron", "show"], catch_exceptions=False)
    assert shown.exit_code == 0
    assert "dream --all --all-owners" in shown.stdout
    assert "not installed" in shown.stderr
    failed = runner.invoke(app, ["cron", "install"], catch_exceptions=False)
    assert failed.exit_code == 1
    assert "install cron first" in failed.stderr
    assert len(failed.stderr.strip().splitlines()) == 1
