"""The cron log: a nightly run's summary line carries its time, and doctor reads the newest."""

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from memclaw.cli.app import app
from memclaw.doctor import diagnose
from memclaw.jobs.cronlog import cron_log_path

STAMP = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}"


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def _last_run(root: Path, now: datetime) -> str:
    checks = diagnose(str(root), {}, clock=lambda: now).checks
    return next(c.found for c in checks if c.name == "last-run")


def test_a_cron_runs_summary_starts_with_its_time(isolated_env: Path) -> None:
    _cli("init", "demo")
    for job in (("dream", "--all", "--all-owners"), ("consolidate", "--all")):
        line = _cli(*job, "--trigger", "cron").splitlines()[-1]
        assert re.fullmatch(rf"{STAMP} {job[0]}: 1 run: .+", line), line
    assert not re.match(STAMP, _cli("dream", "demo").splitlines()[-1])  # by hand: no stamp


def test_doctor_reads_how_the_last_nightly_run_went(isolated_env: Path) -> None:
    _cli("init", "demo")
    log = cron_log_path(isolated_env)
    log.parent.mkdir(exist_ok=True)
    log.write_text(_cli("dream", "--all", "--trigger", "cron"), encoding="utf-8")
    stamp = datetime.fromisoformat(log.read_text().split()[0])
    said = _last_run(isolated_env, stamp)
    assert said == f"last nightly run {stamp:%H:%M} today: ok (dream: 1 run: 1 idle)"


def test_a_run_that_stopped_before_its_summary_failed(isolated_env: Path) -> None:
    _cli("init", "demo")
    log = cron_log_path(isolated_env)
    log.parent.mkdir(exist_ok=True)
    log.write_text(
        "2026-12-01T03:00:04+00:00 dream: 1 run: 1 updated\n"
        "2026-12-02T03:00:04+00:00 dream: 2 runs: 1 updated, 1 failed\n",
        encoding="utf-8",
    )
    now = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    said = _last_run(isolated_env, now)
    assert said == "last nightly run 03:00 yesterday: failed: dream: 2 runs: 1 updated, 1 failed"
    with log.open("a", encoding="utf-8") as handle:
        handle.write("error: memclaw.yaml: unknown key 'modle': did you mean 'model'?\n")
    # A line without a time (cron's own error) is dated by the log's modification time: on
    # the clock that stamps files, which need not be the wall clock (a file server's).
    written = datetime.fromtimestamp(log.stat().st_mtime).astimezone()
    said = _last_run(isolated_env, written + timedelta(seconds=1))
    assert re.fullmatch(r"last nightly run \d\d:\d\d today: failed: error: .*'modle'.*", said)
