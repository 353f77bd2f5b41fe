"""Dream 1000 small agents against the fake OpenAI server with 1, 2, 4 and 8 workers.

Each model answer is held back by a fixed delay (20 ms by default) to stand in
for a real endpoint's latency. The fake server runs in its own process, as a real
endpoint would, and the workspaces live on tmpfs when there is one (the figure
is about overlapping model calls, not about fsync). Prints agents per second and
the speed-up over one worker.
Run: ``python benchmarks/bench_dream.py [--agents N] [--delay S]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing
import shutil
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

from memclaw.jobs.batch import Target, dream_many
from memclaw.workspace import Workspace
from memclaw.workspace.templates import MEMORY_MD

FACTS = [
    "prefers uv over Poetry for every Python project.",
    "reviews pull requests every morning before the standup.",
    "keeps the staging database on PostgreSQL 16.",
    "plans releases on the first Monday of each month.",
]
TODAY = date(2026, 11, 28)


def load_fake_server() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "tests" / "fake_openai.py"
    spec = importlib.util.spec_from_file_location("fake_openai", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fake_openai"] = module
    spec.loader.exec_module(module)
    return module


def make_agents(root: Path, count: int) -> None:
    """Small synthetic workspaces: four days of notes with recurring facts, written raw."""
    for index in range(count):
        folder = root / f"agent-{index:04d}"
        (folder / "memory").mkdir(parents=True)
        (folder / "MEMORY.md").write_text(MEMORY_MD, encoding="utf-8")
        name = f"Person{index}"
        for offset in range(1, 5):
            day = TODAY - timedelta(days=offset)
            lines = [f"# {day}", "", "## 10:00", ""]
            lines += [f"- {name} {fact}" for fact in FACTS[: 2 + offset % 3]]
            lines.append(f"- {name} had a one-off chat about lunch on day {offset}.")
            (folder / "memory" / f"{day}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def answer(_request: dict[str, Any], delay: float) -> str:
    time.sleep(delay)
    content = MEMORY_MD.replace("## Decisions\n", f"## Decisions\n\n- {FACTS[0]}\n")
    return json.dumps(
        {"should_update": True, "reason": "recurring facts", "memory_content": content}
    )


def serve(delay: float, ready: Any, stop: Any) -> None:
    """The fake endpoint, in a child process: sends its URL, serves until told to stop."""
    fake = load_fake_server()
    with fake.FakeOpenAI(default_reply=lambda req: answer(req, delay)) as server:
        ready.send(server.base_url)
        stop.wait()


def warm_up(base_url: str) -> None:
    """Import openai and make one call before any timing starts."""
    from memclaw.config import load_settings
    from memclaw.llm import open_model

    settings = load_settings(Path("."), {}, {"base_url": base_url, "api_key": "bench"})
    open_model(settings).chat_json(
        [{"role": "user", "content": "hi"}], required={"should_update": bool}
    )


def run(template: Path, scratch: Path, base_url: str, workers: int) -> tuple[float, int]:
    root = scratch / f"w{workers}"
    shutil.copytree(template, root)
    clock = datetime(2026, 11, 28, 3, 0).astimezone
    overrides = {"base_url": base_url, "api_key": "bench", "max_retries": 0}
    ws = Workspace.open(root, env={}, overrides=overrides, clock=lambda: clock())
    targets = [Target(agent_id) for agent_id in ws.agent_ids()]
    started = time.perf_counter()
    outcomes = dream_many(ws, targets, workers=workers, trigger="cron")
    elapsed = time.perf_counter() - started
    failed = [o for o in outcomes if o.error is not None]
    if failed:
        raise SystemExit(f"{len(failed)} agents failed, first: {failed[0].error}")
    updated = sum(1 for o in outcomes if o.result is not None and o.result.status == "updated")
    shutil.rmtree(root)
    return elapsed, updated


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--delay", type=float, default=0.02, help="seconds per model answer")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8])
    args = parser.parse_args(argv)

    shm = Path("/dev/shm")
    where = str(shm) if shm.is_dir() else None
    receive, send = multiprocessing.Pipe(duplex=False)
    stop = multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(args.delay, send, stop), daemon=True)
    server.start()
    try:
        base_url = receive.recv()
        warm_up(base_url)
        with tempfile.TemporaryDirectory(prefix="memclaw-bench-", dir=where) as tmp:
            scratch = Path(tmp)
            template = scratch / "template"
            made = time.perf_counter()
            make_agents(template, args.agents)
            print(
                f"{args.agents} agents, model delay {args.delay * 1000:.0f} ms, "
                f"workspaces on {where or 'the default temp dir'} "
                f"(made in {time.perf_counter() - made:.1f} s)"
            )
            base = None
            print(f"{'workers':>7}  {'seconds':>8}  {'agents/s':>9}  {'speed-up':>8}  updated")
            for workers in args.workers:
                elapsed, updated = run(template, scratch, base_url, workers)
                rate = args.agents / elapsed
                base = base or rate
                print(
                    f"{workers:>7}  {elapsed:>8.2f}  {rate:>9.1f}  {rate / base:>7.2f}x  {updated}",
                    flush=True,
                )
    finally:
        stop.set()
        server.join(timeout=5)


if __name__ == "__main__":
    main()
