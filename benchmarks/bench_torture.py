"""Kill -9 torture: CLI writers SIGKILLed at random moments lose nothing already committed.

Each round starts one real ``memclaw`` process (``remember``, ``files edit`` or
``dream``) on one agent and SIGKILLs it at a random moment, often in the middle
of its write. After every round: every memory file is UTF-8, every entries file
parses, no temp file is taken for a memory file, the lock is free, and every
line written by an earlier run that finished (exit 0) is still there.

Run: ``python benchmarks/bench_torture.py [--rounds N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_concurrency import AGENT, ENTRIES, MARKER, seed

KINDS = ("remember", "edit", "dream")


def command(root: Path, kind: str, tag: str) -> list[str]:
    base = [sys.executable, "-m", "memclaw", "--root", str(root), "--set", "memory_max_chars=0"]
    if kind == "remember":
        return [*base, "remember", AGENT, f"Crate {tag} holds kiwi{tag}", "-c", "other"]
    if kind == "edit":
        return [
            *base,
            "files",
            "edit",
            AGENT,
            ENTRIES,
            "--old",
            MARKER,
            "--new",
            f"edit {tag}\n{MARKER}",
        ]
    return [*base, "dream", AGENT]


def line_of(kind: str, tag: str) -> str | None:
    if kind == "remember":
        return f"Crate {tag} holds kiwi{tag}"
    if kind == "edit":
        return f"edit {tag}"
    return None  # a dream may rewrite MEMORY.md as it likes; it is checked for shape only


def check(root: Path, committed: list[str]) -> tuple[list[str], int]:
    """Problems found, and the number of (hidden) temp files left behind."""
    from memclaw.workspace import Workspace
    from memclaw.workspace.atomic import file_lock
    from memclaw.workspace.entries import parse_entries

    agent = Workspace.open(root, env={}).agent(AGENT)
    problems = []
    temps = 0
    for path in agent.path.rglob("*"):
        if ".memclaw" in path.relative_to(agent.path).parts or not path.is_file():
            continue
        if path.name.endswith(".tmp"):
            temps += 1
            if not path.name.startswith("."):
                problems.append(f"a visible temp file: {path.name}")
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            problems.append(f"{path.name} is not UTF-8")
            continue
        if path.parent.name == "entries":
            parse_entries(text)
    listed = {info.name for info in agent.list_files()}
    problems += [f"a temp file is listed: {name}" for name in listed if name.endswith(".tmp")]
    lines = set(agent.read(ENTRIES).splitlines())
    problems += [f"lost: {line}" for line in committed if line not in lines]
    try:
        with file_lock(agent.meta_dir / "write.lock", wait=0):
            pass
    except Exception as exc:  # a lock held by a dead process would show here
        problems.append(f"the lock is still held: {exc}")
    return problems, temps


def run(rounds: int, seed_value: int = 20261129, base: Path | None = None) -> dict[str, Any]:
    rng = random.Random(seed_value)
    parent = base or (Path("/dev/shm") if Path("/dev/shm").is_dir() else None)
    root = Path(tempfile.mkdtemp(prefix="memclaw-torture-", dir=parent))
    committed: list[str] = []
    killed = finished = losses = 0
    problems: list[str] = []
    temps = 0
    try:
        seed(root)
        for n in range(rounds):
            kind = KINDS[n % len(KINDS)]
            tag = f"r{n}"
            proc = subprocess.Popen(
                command(root, kind, tag), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
            # Most of a CLI run is starting Python; the write comes near the end.
            time.sleep(rng.uniform(0.2, 0.7))
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
            _, err = proc.communicate(timeout=60)
            if proc.returncode == -signal.SIGKILL:
                killed += 1
            elif proc.returncode == 0:
                finished += 1
                line = line_of(kind, tag)
                if line is not None:
                    committed.append(line)
            else:
                problems.append(f"round {n} ({kind}) failed: {err.decode()[-300:]}")
            found, temps = check(root, committed)
            losses += sum(1 for p in found if p.startswith("lost: "))
            problems += found
            if found:
                break  # what is lost stays lost: one report is enough
        return {
            "rounds": n + 1,
            "killed": killed,
            "finished": finished,
            "losses": losses,
            "temps": temps,
            "problems": problems,
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args()
    started = time.perf_counter()
    figures = run(args.rounds, args.seed)
    print(
        f"{figures['killed']} killed mid-run, {figures['finished']} finished, "
        f"{figures['temps']} hidden temp files left, "
        f"{time.perf_counter() - started:.0f} s"
    )
    for problem in figures["problems"]:
        print(f"  problem: {problem}")
    print(f"rounds: {figures['rounds']}, losses: {figures['losses']}")
    return 1 if figures["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
