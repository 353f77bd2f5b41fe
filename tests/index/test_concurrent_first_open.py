"""Many processes opening a fresh agent's index at once: every one ends cleanly.

The first open of a new index switches it to WAL, which needs the file to itself;
SQLite answers "database is locked" at once to the others instead of waiting.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from memclaw.index.store import open_index
from memclaw.workspace import Workspace

REPO = Path(__file__).resolve().parents[2]
PROCESSES = 10


def _open_together(base: str, barrier: Barrier, said: multiprocessing.Queue[str]) -> None:
    barrier.wait()
    try:
        open_index(Path(base)).close()
        said.put("ok")
    except Exception as exc:  # reported to the test, which fails on it
        said.put(repr(exc))


@pytest.mark.slow
def test_processes_opening_one_new_index_at_the_same_moment(tmp_path: Path) -> None:
    fork = multiprocessing.get_context("fork")
    for round_ in range(80):  # each round a new file; before the fix ~1 round in 13 failed
        base = tmp_path / f"agent{round_}"
        barrier, said = fork.Barrier(PROCESSES), fork.Queue()
        started = [
            fork.Process(target=_open_together, args=(str(base), barrier, said))
            for _ in range(PROCESSES)
        ]
        for process in started:
            process.start()
        for process in started:
            process.join(timeout=120)
        assert [said.get(timeout=10) for _ in started] == ["ok"] * PROCESSES


def _memclaw(root: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "MEMCLAW_ROOT": str(root)}
    return subprocess.Popen(
        [sys.executable, "-m", "memclaw", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_first_searches_and_a_reindex_of_a_fresh_agent_at_once(isolated_env: Path) -> None:
    agent, _ = Workspace.open(isolated_env).init_agent("fresh")
    for n in range(20):
        agent.append_daily(f"- Maya met Kenji about the cutover, item {n}")
    searches = [_memclaw(isolated_env, "search", "cutover", "--agent", "fresh") for _ in range(6)]
    reindex = _memclaw(isolated_env, "reindex", "fresh")
    for process in [*searches, reindex]:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0 and "Traceback" not in err, err
        assert process is reindex or "cutover" in out
