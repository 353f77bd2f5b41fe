"""A fake crontab(1) for the doctor's tests, as tests/jobs/test_cron.py fakes it."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

FAKE = """#!/bin/sh
if [ "$1" = "-l" ]; then
    if [ -f "$FAKE_CRONTAB_FILE" ]; then cat "$FAKE_CRONTAB_FILE"; exit 0; fi
    echo "no crontab for tester" >&2; exit 1
fi
if [ "$1" = "-" ]; then cat > "$FAKE_CRONTAB_FILE"; exit 0; fi
exit 2
"""


@pytest.fixture
def fake_crontab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    script = tmp_path / "fake-crontab"
    script.write_text(FAKE)
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    table = tmp_path / "crontab.txt"
    monkeypatch.setenv("FAKE_CRONTAB_FILE", str(table))
    monkeypatch.setenv("MEMCLAW_CRONTAB_CMD", str(script))
    return table
