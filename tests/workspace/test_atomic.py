"""Atomic writes, locks and append-only logs."""

import os
import stat
import threading
from pathlib import Path

import pytest

from memclaw.errors import LockBusyError
from memclaw.workspace import Agent
from memclaw.workspace.atomic import append_text, atomic_write, file_lock
from memclaw.workspace.logs import append_log, last_record, read_log


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_atomic_write_replaces_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "MEMORY.md"
    atomic_write(target, "one ✓\n")
    atomic_write(target, "two\n")
    assert target.read_text(encoding="utf-8") == "two\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["MEMORY.md"]


def test_new_files_are_not_private_and_rewrites_keep_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "alpha" / "MEMORY.md"
    atomic_write(target, "x")
    assert _mode(target) == 0o644
    os.chmod(target, 0o640)
    atomic_write(target, "y")
    assert _mode(target) == 0o640


def test_a_failed_write_removes_its_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "alpha" / "MEMORY.md"
    atomic_write(target, "old\n")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk on fire"):
        atomic_write(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in target.parent.iterdir()] == ["MEMORY.md"]


def test_append_text(tmp_path: Path) -> None:
    target = tmp_path / "a" / "log.md"
    append_text(target, "one\n")
    append_text(target, "two\n")
    assert target.read_text(encoding="utf-8") == "one\ntwo\n"


def test_lock_is_exclusive_and_reports_busy(agent: Agent) -> None:
    with agent.lock():
        with pytest.raises(LockBusyError, match="alpha"), agent.lock(wait=0):
            pass
        with pytest.raises(LockBusyError), agent.lock(wait=0.05):
            pass
    with agent.lock(wait=0):
        pass


def test_lock_serialises_threads(tmp_path: Path) -> None:
    lock = tmp_path / ".memclaw" / "write.lock"
    inside = 0
    overlaps = 0
    guard = threading.Lock()

    def work() -> None:
        nonlocal inside, overlaps
        for _ in range(50):
            with file_lock(lock, wait=None):
                with guard:
                    inside += 1
                    overlaps += inside > 1
                with guard:
                    inside -= 1

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == 0


def test_logs_append_and_read_back_oldest_first(agent: Agent) -> None:
    assert last_record(agent, "extract") is None
    append_log(agent, "extract", {"session": "s1", "facts": 2})
    append_log(agent, "extract", {"session": "s2", "facts": 0, "status": "failed"})
    records = list(read_log(agent, "extract"))
    assert [r["session"] for r in records] == ["s1", "s2"]
    assert records[0]["time"] == "2026-11-29T09:30:00+01:00"
    assert last_record(agent, "extract") == records[1]
    assert last_record(agent, "extract", skip_status=frozenset({"failed"})) == records[0]
    assert list(read_log(agent, "dream")) == []
