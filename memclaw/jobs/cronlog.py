"""The cron log: each nightly run ends with one stamped summary line, and the newest one
tells `memclaw doctor` how last night went.

The installed crontab lines send a run's stdout and stderr to ``.memclaw/cron.log`` under
the root. A run started with ``--trigger cron`` ends with ``TIME JOB: SUMMARY``, the time
first so the log reads as a timeline and ``sort`` or ``grep 2026-12-04`` work on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from memclaw.jobs.crontab import LOG_NAME

# The end of a long log is enough to find the last run; the log is never read whole.
_TAIL_BYTES = 64 * 1024
_STAMPED = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}) (\w+): (.*)$")
_FAILED = re.compile(r"\b([1-9]\d*) failed\b")


def cron_log_path(root: Path) -> Path:
    return root / ".memclaw" / LOG_NAME


def stamped(line: str, when: datetime) -> str:
    """A summary line as the cron log keeps it: ``2026-12-04T03:00:05+01:00 dream: …``."""
    return f"{when.isoformat(timespec='seconds')} {line}"


@dataclass(frozen=True)
class LastRun:
    """The newest run the cron log tells of."""

    when: datetime
    ok: bool
    said: str  # the summary (``dream: 3 runs: 3 updated``), or the line a failed run left

    def describe(self, today: date) -> str:
        """``last nightly run 03:00 today: ok (dream: 1 run: 1 unchanged)``."""
        day = self.when.date()
        if day == today:
            at = f"{self.when:%H:%M} today"
        elif (today - day).days == 1:
            at = f"{self.when:%H:%M} yesterday"
        else:
            at = f"{self.when:%Y-%m-%d %H:%M}"
        verdict = f"ok ({self.said})" if self.ok else f"failed: {self.said}"
        return f"last nightly run {at}: {verdict}"


def last_run(root: Path) -> LastRun | None:
    """The newest run in the root's cron log, or None when nothing was logged yet.

    A run that ended with its summary line is read from that line. A run that stopped
    before it (a refused config file, a crash) left an error as the last line instead:
    that run failed, and the log's modification time says when."""
    path = cron_log_path(root)
    try:
        with path.open("rb") as handle:
            size = handle.seek(0, 2)
            handle.seek(max(0, size - _TAIL_BYTES))
            tail = handle.read().decode("utf-8", errors="replace")
        mtime = path.stat().st_mtime
    except FileNotFoundError:
        return None
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    if not lines:
        return None
    last = lines[-1]
    found = _STAMPED.match(last)
    if found:
        said = f"{found[2]}: {found[3]}"
        return LastRun(datetime.fromisoformat(found[1]), not _FAILED.search(found[3]), said)
    return LastRun(datetime.fromtimestamp(mtime).astimezone(), False, last)
