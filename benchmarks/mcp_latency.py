"""Tool-call latency of `memclaw mcp` over stdio, on a workspace of 10,000 daily notes.

The workspace is search_speed's synthetic one (10,000 daily notes, Zipf-distributed
words in six languages) plus memory entries stored with the library, indexed once.
Then `memclaw mcp bench` runs as a subprocess and the MCP SDK's own client times
each call from request to answer: memory_search with varied queries, and
memory_store of new facts (each goes through the secret gate, the agent lock, an
atomic rewrite of the entries file and an index sync). Also timed: start-up (spawn
to initialised session) and memory_files_read. Figures go to stdout and
benchmarks/out/mcp_latency.json.

Run: ``python benchmarks/mcp_latency.py [--notes 10000] [--lines 30] [--entries 300]
[--calls 200]``.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from search_speed import NAMES, NOUNS, VERBS, build_workspace

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
PLACES = ["Lund", "Malmö", "Kiruna", "Visby", "Umeå", "Bergen", "Tromsø", "Aarhus", "Oulu"]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _fact(rng: random.Random, i: int) -> str:
    return (
        f"{rng.choice(NAMES)} {rng.choice(VERBS)} the {rng.choice(NOUNS)} "
        f"in {rng.choice(PLACES)} with {rng.choice(NOUNS)} number {i}"
    )


def build(root: Path, notes: int, lines: int, entries: int) -> dict[str, float]:
    """The notes, then ``entries`` memory entries (stored in a small agent, copied over)."""
    from memclaw.entries.memories import remember
    from memclaw.index import reindex
    from memclaw.workspace import Workspace
    from memclaw.workspace.entries import ENTRIES_DIR
    from memclaw.workspace.scope import Scope

    figures: dict[str, float] = {}
    started = time.perf_counter()
    build_workspace(root, notes, lines)
    ws = Workspace.open(root, env={})
    scratch, _ = ws.init_agent("scratch")  # storing into a small agent keeps each sync cheap
    rng = random.Random(11)
    for i in range(entries):
        remember(Scope(scratch), _fact(rng, i))
    shutil.copytree(scratch.path / ENTRIES_DIR, root / "bench" / ENTRIES_DIR)
    shutil.rmtree(scratch.path)
    figures["generate_s"] = time.perf_counter() - started
    figures["index_build_s"] = reindex(ws.agent("bench")).seconds
    time.sleep(2.1)  # let every file's timestamp settle (see index.store._RACY_NS)
    return figures


async def _timed(session: ClientSession, name: str, arguments: dict[str, Any]) -> float:
    started = time.perf_counter()
    result = await session.call_tool(name, arguments)
    elapsed = (time.perf_counter() - started) * 1000
    if getattr(result, "is_error", False):
        raise SystemExit(f"{name} failed: {result.content[0].text}")  # type: ignore[union-attr]
    return elapsed


async def measure(root: Path, calls: int) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memclaw", "--root", str(root), "mcp", "bench"],
        env={"HOME": str(root.parent), "NO_COLOR": "1"},
        cwd=str(ROOT),
    )
    rng = random.Random(5)
    timings: dict[str, list[float]] = {"search": [], "store": [], "files_read": []}
    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        startup_ms = (time.perf_counter() - started) * 1000
        for _ in range(5):  # warm: the first search opens the index and checks its freshness
            await _timed(session, "memory_search", {"query": "parkrun pace"})
        for _ in range(calls):
            query = f"{rng.choice(NOUNS)} {rng.choice(PLACES)}"
            timings["search"].append(await _timed(session, "memory_search", {"query": query}))
        for i in range(calls // 2):
            text = f"Benchmark fact {i}: " + _fact(rng, 100_000 + i)
            timings["store"].append(await _timed(session, "memory_store", {"text": text}))
        for _ in range(20):
            args = {"filename": "MEMORY.md"}
            timings["files_read"].append(await _timed(session, "memory_files_read", args))
    figures: dict[str, Any] = {"startup_ms": startup_ms}
    for name, values in timings.items():
        figures[name] = {
            "calls": len(values),
            "p50_ms": statistics.median(values),
            "p95_ms": _pct(values, 0.95),
            "max_ms": max(values),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--lines", type=int, default=30)
    parser.add_argument("--entries", type=int, default=300)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument(
        "--keep", type=Path, help="Build the workspace here, or reuse the one built there."
    )
    args = parser.parse_args()
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="memclaw-mcp-bench-"))
    root = tmp / "workspaces"
    figures: dict[str, Any] = {
        "notes": args.notes,
        "lines_per_note": args.lines,
        "entries": args.entries,
        "generate_s": 0.0,
        "index_build_s": 0.0,
    }
    try:
        if not (root / "bench").is_dir():
            figures.update(build(root, args.notes, args.lines, args.entries))
        figures.update(anyio.run(measure, root, args.calls))
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    made = (
        f"generated in {figures['generate_s']:.1f} s, indexed in {figures['index_build_s']:.1f} s"
        if figures["generate_s"]
        else f"reused from {args.keep}"
    )
    print(
        f"workspace: {args.notes:,} daily notes x {args.lines} lines, {args.entries} memory "
        f"entries ({made})"
    )
    print(f"start-up (spawn to initialised session): {figures['startup_ms']:.0f} ms")
    print(f"{'tool call over stdio':<24} {'calls':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, label in (
        ("search", "memory_search"),
        ("store", "memory_store"),
        ("files_read", "memory_files_read"),
    ):
        row = figures[name]
        print(
            f"{label:<24} {row['calls']:>6} {row['p50_ms']:>8.1f} {row['p95_ms']:>8.1f} "
            f"{row['max_ms']:>8.1f}"
        )
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "mcp_latency.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
