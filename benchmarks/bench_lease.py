"""Lease-lock torture: processes acting as distinct hosts contend on 10 agents.

Each worker process has its own ``host_id`` and runs with ``lock_mode: lease``.
In a loop it picks an agent, and under one hold of its lock reads
``count.md`` (a counter and a journal of every increment), waits a moment,
and writes the counter plus one with a journal line naming itself. An
increment counts once the write returned; the worker then records it. Meanwhile
the controller SIGSTOPs a random worker for two to four leases (so its lease
is taken over while it may be in the middle of a hold) and resumes it.

At the end, for every agent: the journal must hold 1..N once each and N must
be the counter (no two holders wrote at once: two would both write the same
number), and every increment a worker recorded must be in it (no write lost).

Run: ``python benchmarks/bench_lease.py [--seconds 60] [--workers 4] [--lease 0.5]``.
"""

from __future__ import annotations

import argparse
import json
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

AGENTS = [f"agent{n:02d}" for n in range(10)]


def seed(root: Path) -> None:
    from memclaw.workspace import Workspace

    ws = Workspace.open(root, env={})
    for agent_id in AGENTS:
        agent, _ = ws.init_agent(agent_id)
        agent.write("count.md", "0\n")


def worker(root: Path, host: str, out: Path, stop: Path, lease: float) -> None:
    from memclaw.errors import LockBusyError
    from memclaw.workspace import Workspace

    overrides = {"lock_mode": "lease", "lease_seconds": lease, "host_id": host}
    ws = Workspace.open(root, env={}, overrides=overrides)
    rnd = random.Random(host)
    with open(out, "a", encoding="utf-8") as record:
        while not stop.exists():
            agent = ws.agent(rnd.choice(AGENTS))
            try:
                with agent.editing() as edit:
                    lines = edit.read("count.md").splitlines()
                    value = int(lines[0]) + 1
                    time.sleep(rnd.random() * 0.004)  # a hold of a few ms: pauses land inside
                    lines[0] = str(value)
                    lines.append(f"{value} {host}")
                    edit.write("count.md", "\n".join(lines) + "\n", introduced="")
            except LockBusyError as exc:  # LeaseLostError included: not counted
                record.write(json.dumps({"error": type(exc).__name__}) + "\n")
                continue
            record.write(json.dumps({"agent": agent.id, "value": value, "host": host}) + "\n")
            record.flush()


def run(
    *, workers: int = 4, seconds: float = 60.0, lease: float = 0.5, base: Path | None = None
) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="memclaw-lease-", dir=base))
    root, stop = tmp / "root", tmp / "stop"
    root.mkdir()
    seed(root)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    procs = []
    for n in range(workers):
        cmd = [sys.executable, __file__, "--worker", str(root), f"host-{n}", str(tmp / f"{n}.out")]
        procs.append(subprocess.Popen([*cmd, str(stop), str(lease)], env=env))
    rnd = random.Random(7)
    pauses = 0
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            time.sleep(rnd.uniform(0.05, 0.3))
            victim = rnd.choice(procs)
            victim.send_signal(signal.SIGSTOP)
            time.sleep(lease * rnd.uniform(2, 4))  # past its lease: others take over
            victim.send_signal(signal.SIGCONT)
            pauses += 1
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGCONT)
        stop.touch()
        for proc in procs:
            proc.wait(timeout=60)
    figures = check(root, [tmp / f"{n}.out" for n in range(workers)])
    figures.update(workers=workers, seconds=seconds, lease=lease, pauses=pauses)
    figures["exit_codes"] = [p.returncode for p in procs]
    shutil.rmtree(tmp, ignore_errors=True)
    return figures


def check(root: Path, outs: list[Path]) -> dict[str, Any]:
    recorded: dict[str, list[tuple[int, str]]] = {a: [] for a in AGENTS}
    lost_leases = busy = 0
    for out in outs:
        for line in out.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if "error" in item:
                lost_leases += item["error"] == "LeaseLostError"
                busy += item["error"] == "LockBusyError"
            else:
                recorded[item["agent"]].append((item["value"], item["host"]))
    problems = []
    writes = 0
    for agent_id in AGENTS:
        lines = (root / agent_id / "count.md").read_text(encoding="utf-8").splitlines()
        count = int(lines[0])
        journal = [(int(v), h) for v, h in (line.split() for line in lines[1:])]
        writes += count
        if [v for v, _ in journal] != list(range(1, count + 1)):
            problems.append(f"{agent_id}: journal is not 1..{count}: two holders wrote at once")
        missing = set(recorded[agent_id]) - set(journal)
        if missing:
            problems.append(
                f"{agent_id}: {len(missing)} recorded writes lost: {sorted(missing)[:3]}"
            )
        if len(recorded[agent_id]) != len(set(recorded[agent_id])):
            problems.append(f"{agent_id}: one number written twice")
    return {"writes": writes, "lost_leases": lost_leases, "busy": busy, "problems": problems}


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        root, host, out, stop, lease = sys.argv[2:7]
        worker(Path(root), host, Path(out), Path(stop), float(lease))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--lease", type=float, default=0.5)
    args = parser.parse_args()
    figures = run(workers=args.workers, seconds=args.seconds, lease=args.lease)
    print(
        f"lease torture: {figures['workers']} hosts, 10 agents, {figures['seconds']:.0f} s, "
        f"lease {figures['lease']} s, {figures['pauses']} SIGSTOP pauses: "
        f"{figures['writes']} writes, {figures['lost_leases']} writes refused after a lost lease, "
        f"{figures['busy']} busy waits, problems: {figures['problems'] or 'none'}"
    )
    return 1 if figures["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
