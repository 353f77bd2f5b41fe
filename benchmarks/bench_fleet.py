"""Nightly dreams of a fleet: agents per second, local runner and Ray, at 20 ms and 1 s latency.

The fake OpenAI server runs in its own process and holds every answer back by
the model latency. For each latency the benchmark dreams a root of small
agents (bench_dream's generator) with: a sequential run (one job, one call in
flight), the local runner at 8, 32 and 128 concurrent model calls (threads
sharing one client whose gate admits that many calls), and the Ray executor on
a local Ray cluster of 1 and 2 worker processes (each running its chunk with
32 threads). Prints agents/s and the ratio to the sequential run.

At 1 s latency a sequential run of 1,000 agents would take over 16 minutes,
so that case dreams fewer agents (``--slow-agents``, sequential on
``--slow-sequential``); the rate is per agent either way.

Run: ``python benchmarks/bench_fleet.py [--agents 1000] [--latencies 0.02 1.0]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import shutil
import tempfile
import time
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from bench_dream import answer, load_fake_server, make_agents, warm_up

from memclaw.jobs.batch import Target
from memclaw.jobs.runner import dream_work, run_jobs
from memclaw.workspace import Workspace

CLOCK = partial(datetime.fromisoformat, "2026-11-28T03:00:00+01:00")  # Ray ships it by name
RAY_THREADS = 32
OUT = Path(__file__).resolve().parent / "out" / "fleet.json"


def serve(latency: float, ready: Any, stop: Any) -> None:
    fake = load_fake_server()
    with fake.FakeOpenAI(default_reply=lambda req: answer(req, 0.0), latency=latency) as server:
        server._server.request_queue_size = 1024  # type: ignore[union-attr]
        ready.send(server.base_url)
        stop.wait()


def run(
    template: Path, scratch: Path, base_url: str, *, agents: int, calls: int, executor: str
) -> tuple[float, int]:
    root = scratch / "run"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(template, root)
    overrides = {
        "base_url": base_url,
        "api_key": "bench",
        "max_retries": 0,
        "max_concurrent_requests": calls,
    }
    ws = Workspace.open(root, env={}, overrides=overrides, clock=CLOCK)
    targets = [Target(a) for a in ws.agent_ids()[:agents]]
    work = partial(dream_work, trigger="cron")
    started = time.perf_counter()
    summary = run_jobs(ws, "dream", targets, work, workers=calls, executor=executor)
    elapsed = time.perf_counter() - started
    if summary.failed:
        raise SystemExit(f"{len(summary.failed)} agents failed: {summary.failed[0].error}")
    updated = sum(1 for o in summary.outcomes if o.result.status == "updated")
    return elapsed, updated


def bench(latency: float, agents: int, sequential: int, scratch: Path) -> list[dict[str, Any]]:
    receive, send = multiprocessing.Pipe(duplex=False)
    stop = multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(latency, send, stop), daemon=True)
    server.start()
    rows: list[dict[str, Any]] = []
    try:
        base_url = receive.recv()
        warm_up(base_url)
        template = scratch / f"template-{latency}"
        make_agents(template, agents)
        plan = [("sequential", "local", 1, sequential, 0)]
        plan += [(f"local, {n} calls", "local", n, agents, 0) for n in (8, 32, 128)]
        plan += [(f"ray, {k} worker{'s' * (k > 1)}", "ray", RAY_THREADS, agents, k) for k in (1, 2)]
        base = None
        print(f"model latency {latency * 1000:.0f} ms")
        print(f"  {'runner':<18} {'agents':>6} {'seconds':>8} {'agents/s':>9} {'× seq':>7}")
        for label, executor, calls, count, cpus in plan:
            if cpus:
                import ray

                ray.init(num_cpus=cpus, include_dashboard=False, logging_level=logging.WARNING)
            try:
                elapsed, updated = run(
                    template, scratch, base_url, agents=count, calls=calls, executor=executor
                )
            finally:
                if cpus:
                    ray.shutdown()
            rate = count / elapsed
            base = base or rate
            row = {"latency": latency, "runner": label, "agents": count, "seconds": elapsed}
            row.update(per_second=rate, ratio=rate / base, updated=updated)
            rows.append(row)
            print(
                f"  {label:<18} {count:>6} {elapsed:>8.2f} {rate:>9.1f} {rate / base:>6.1f}x",
                flush=True,
            )
    finally:
        stop.set()
        server.join(timeout=5)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--latencies", type=float, nargs="+", default=[0.02, 1.0])
    parser.add_argument("--slow-agents", type=int, default=300, help="agents at 1 s latency")
    parser.add_argument("--slow-sequential", type=int, default=20)
    args = parser.parse_args()
    shm = Path("/dev/shm")
    rows = []
    with tempfile.TemporaryDirectory(
        prefix="memclaw-fleet-", dir=str(shm) if shm.is_dir() else None
    ) as tmp:
        for latency in args.latencies:
            slow = latency >= 0.5
            agents = args.slow_agents if slow else args.agents
            sequential = args.slow_sequential if slow else agents
            rows += bench(latency, agents, sequential, Path(tmp))
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
