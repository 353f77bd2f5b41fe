"""Index size and speed at 1k, 10k, 100k and 1M lines, against another tree in the same run.

For each size a synthetic workspace (``search_speed.build_workspace``: daily notes
of 100 lines) is built once; then each tree measured (this one, and ``--compare``,
e.g. a checkout of main) indexes it from nothing in its own process:

* build MB/s (``reindex``) and index size / text size;
* warm query with freshness: one ``Searcher`` kept open, every search checking the
  files first as a search does (p50, p95);
* one-file sync: append to the newest note, ``sync_agent``;
* cold CLI: ``memclaw search`` in a new process against a bare ``python -c pass``,
  with the tree's bytecode compiled first, as an installed package's is.

Targets (issue 15): index <= 2x text; warm query with freshness <= 5 ms p50 at
10k notes (1M lines); cold search <= 4x bare python at 1M lines.

Run: ``python benchmarks/bench_index_scale.py [--sizes 1k,10k,100k,1M] [--compare /work/main]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
LINES_PER_NOTE = 100
SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000, "1M": 1_000_000}


def _speed() -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_speed", HERE / "search_speed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _process_ms(cmd: list[str], repeat: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def measure(root: Path, queries: list[str], repeat: int, cold: int = 3) -> dict[str, float]:
    """Figures of the memclaw on sys.path for the workspace at ``root`` (agent "bench")."""
    from memclaw.index import Searcher, reindex, sync_agent
    from memclaw.workspace import Workspace

    agent_dir = root / "bench"
    shutil.rmtree(agent_dir / ".memclaw", ignore_errors=True)
    text = sum(p.stat().st_size for p in agent_dir.rglob("*.md"))
    ws = Workspace.open(root, env={})
    agent = ws.agent("bench")
    build = reindex(agent)
    index = sum(
        p.stat().st_size for p in (agent_dir / ".memclaw").glob("index.sqlite*") if p.is_file()
    )
    f: dict[str, float] = {
        "text_mb": text / 1e6,
        "build_s": build.seconds,
        "build_mb_s": text / 1e6 / build.seconds,
        "index_mb": index / 1e6,
        "index_x_text": index / text,
    }
    time.sleep(2.1)  # let the timestamps of the files just written settle
    sync_agent(agent)
    with Searcher(ws) as searcher:
        for q in queries:
            searcher.search(q, log=False)
        times = []
        for _ in range(repeat):
            for q in queries:
                started = time.perf_counter()
                searcher.search(q, log=False)  # freshness check included, as every search
                times.append(time.perf_counter() - started)
    f["warm_fresh_p50_ms"] = _pct(times, 0.5) * 1000
    f["warm_fresh_p95_ms"] = _pct(times, 0.95) * 1000
    newest = sorted((agent_dir / "memory").glob("*.md"))[-1]
    syncs = []
    for _ in range(5):
        with open(newest, "a", encoding="utf-8") as handle:
            handle.write("- one more line about the kayak permit\n")
        started = time.perf_counter()
        stats = sync_agent(agent)
        syncs.append(time.perf_counter() - started)
        assert stats.changed == [f"memory/{newest.name}"], stats.changed
    f["one_file_sync_ms"] = statistics.median(syncs) * 1000
    env = {**os.environ, "MEMCLAW_ROOT": str(root)}
    search = [sys.executable, "-m", "memclaw", "search", "kayak permit", "--agent", "bench"]
    bare = [sys.executable, "-c", "pass"]
    searches, plain = [], []
    for _ in range(cold):  # interleaved, so that both see the same machine load
        searches.append(_process_ms(search, 3, env))
        plain.append(_process_ms(bare, 3, env))
    f["cold_search_ms"] = statistics.median(searches)
    f["bare_python_ms"] = statistics.median(plain)
    f["cold_x_bare"] = f["cold_search_ms"] / f["bare_python_ms"]
    return f


def _run_tree(
    tree: Path, root: Path, queries: list[str], repeat: int, cold: int
) -> dict[str, float]:
    """``measure`` in a new process that imports memclaw from ``tree``."""
    # pip writes the .pyc files of what it installs. Without them (PYTHONDONTWRITEBYTECODE,
    # or a tree edited since its last run) a cold start times CPython compiling memclaw's
    # source, and the figure depends on that rather than on what the search loads.
    compiled = [sys.executable, "-m", "compileall", "-q", str(tree / "memclaw")]
    subprocess.run(compiled, capture_output=True, check=True)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, str(Path(__file__).resolve()), "--worker", str(root)]
    args += ["--repeat", str(repeat), "--cold", str(cold), "--queries", json.dumps(queries)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False, cwd=tree)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {tree} failed:\n{done.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def run(
    sizes: list[str],
    compare: Path | None,
    repeat: int = 5,
    base: Path | None = None,
    cold: int = 3,
) -> dict[str, dict[str, dict[str, float]]]:
    speed = _speed()
    results: dict[str, dict[str, dict[str, float]]] = {}
    tmp = Path(tempfile.mkdtemp(prefix="memclaw-scale-", dir=base))
    try:
        for size in sizes:
            root = tmp / size / "workspaces"
            notes = max(1, SIZES[size] // LINES_PER_NOTE)
            fills = speed.build_workspace(root, notes, LINES_PER_NOTE)
            queries = [q.format(**fills) for q in speed.QUERIES]
            trees = {"this": ROOT} | ({"compare": compare} if compare else {})
            results[size] = {
                name: _run_tree(tree, root, queries, repeat, cold) for name, tree in trees.items()
            }
            shutil.rmtree(tmp / size, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return results


def report(results: dict[str, dict[str, dict[str, float]]]) -> list[str]:
    head = (
        f"{'lines':>5} {'tree':<8} {'text MB':>8} {'build MB/s':>10} {'index/text':>10} "
        f"{'warm+fresh p50/p95 ms':>22} {'1-file sync ms':>14} {'cold search ms':>14} "
        f"{'bare ms':>8} {'cold/bare':>9}"
    )
    lines = [head]
    for size, trees in results.items():
        for name, f in trees.items():
            warm = f"{f['warm_fresh_p50_ms']:.2f} / {f['warm_fresh_p95_ms']:.2f}"
            lines.append(
                f"{size:>5} {name:<8} {f['text_mb']:>8.2f} {f['build_mb_s']:>10.2f} "
                f"{f['index_x_text']:>9.2f}x {warm:>22} {f['one_file_sync_ms']:>14.1f} "
                f"{f['cold_search_ms']:>14.0f} {f['bare_python_ms']:>8.0f} "
                f"{f['cold_x_bare']:>8.1f}x"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="1k,10k,100k", help="comma-separated: 1k,10k,100k,1M")
    parser.add_argument("--compare", type=Path, help="another source tree, e.g. main's checkout")
    parser.add_argument("--repeat", type=int, default=5, help="rounds of the query set")
    parser.add_argument("--cold", type=int, default=3, help="rounds of 3 cold processes each")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--queries", default="[]", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        figures = measure(args.worker, json.loads(args.queries), args.repeat, args.cold)
        print(json.dumps(figures))
        return
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    unknown = [s for s in sizes if s not in SIZES]
    if unknown:
        parser.error(f"unknown size {', '.join(unknown)}: choose from {', '.join(SIZES)}")
    results = run(sizes, args.compare, args.repeat, cold=args.cold)
    print("index size and speed")
    for line in report(results):
        print("  " + line)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "index_scale.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
