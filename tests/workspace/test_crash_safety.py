"""Crash safety: a writer SIGKILLed at random moments leaves the old or the new file, never half.

The writer is a forked child rewriting MEMORY.md in a tight loop, alternating two large,
distinct versions; the parent kills it at a random moment, many times over.
"""

import multiprocessing
import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memclaw.workspace import Agent, Workspace, WriteStrategy
from memclaw.workspace.atomic import atomic_write
from memclaw.workspace.meta import CORE_FILES
from memclaw.workspace.safeguards.history import read, versions

CTX = multiprocessing.get_context("fork")
VERSION_A = "# Memory\n\n" + "".join(f"## A{i}\n\n{'a' * 500}\n\n" for i in range(2000))
VERSION_B = "# Memory\n\n" + "".join(f"## B{i}\n\n{'b' * 700}\n\n" for i in range(1500))
SMALL_A = "# Memory\n\n## Side A\n\n" + "- alpha fact\n" * 400
SMALL_B = "# Memory\n\n## Side B\n\n" + "- beta fact\n" * 500


def _rewrite_with_atomic_write(path: str, ready: Any) -> None:
    target = Path(path)
    flip = False
    while True:
        atomic_write(target, VERSION_B if flip else VERSION_A)
        flip = not flip
        ready.set()


def _rewrite_with_agent_write(root: str, ready: Any) -> None:
    agent = Workspace.open(root, overrides={"memory_max_chars": 0}).agent("alpha")
    flip = False
    while True:
        agent.write("MEMORY.md", SMALL_B if flip else SMALL_A, WriteStrategy.OVERWRITE)
        flip = not flip
        ready.set()


def _kill_many_times(
    target: Callable[..., None], arg: str, rounds: int, check: Callable[[], None]
) -> None:
    rng = random.Random(20261129)
    for _ in range(rounds):
        ready = CTX.Event()
        child = CTX.Process(target=target, args=(arg, ready), daemon=True)
        child.start()
        try:
            assert ready.wait(30), "the writer never completed a first write"
            # A random moment inside the loop: during the temp write, fsync, rename...
            time.sleep(rng.uniform(0, 0.04))
        finally:
            assert child.pid is not None
            os.kill(child.pid, signal.SIGKILL)
            child.join(10)
        assert child.exitcode == -signal.SIGKILL
        check()


def _check_folder(agent: Agent) -> None:
    # Leftover temp files (a write's, or the sweep's clock probe) are hidden, never taken
    # for memory files, and swept once old.
    assert [f.name for f in agent.list_files()] == list(CORE_FILES)
    for path in agent.path.iterdir():
        if path.name not in CORE_FILES and path.name != ".memclaw":
            assert path.name.startswith((".MEMORY.md.", ".memclaw-clock."))
            assert path.name.endswith(".tmp")


def test_atomic_write_survives_sigkill(ws: Workspace) -> None:
    agent, _ = ws.init_agent("alpha")
    path = agent.path / "MEMORY.md"
    atomic_write(path, VERSION_A)

    def check() -> None:
        text = path.read_text(encoding="utf-8")
        assert text in (VERSION_A, VERSION_B), f"partial file of {len(text)} chars"
        _check_folder(agent)

    _kill_many_times(_rewrite_with_atomic_write, str(path), 30, check)


def test_agent_write_survives_sigkill(ws: Workspace) -> None:
    agent, _ = ws.init_agent("alpha")
    seeded = agent.read("MEMORY.md")

    def check() -> None:
        text = agent.read("MEMORY.md")
        assert text in (seeded, SMALL_A, SMALL_B), f"partial file of {len(text)} chars"
        for old in versions(agent, "MEMORY.md"):
            assert read(agent, old) in (seeded, SMALL_A, SMALL_B)
        assert set(agent.meta()) == set(CORE_FILES)  # metadata intact
        _check_folder(agent)

    _kill_many_times(_rewrite_with_agent_write, str(ws.root), 15, check)
    # The lock died with its holder: a normal write goes through at once.
    with agent.lock(wait=0):
        pass
    result = agent.write("MEMORY.md", "# Memory\n\nafter the storm\n")
    assert result.changed
