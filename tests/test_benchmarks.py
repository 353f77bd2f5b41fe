"""Small, quick runs of the concurrency and kill -9 benchmarks: they must lose nothing."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))  # bench_torture imports bench_concurrency
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_mixed_writers_on_one_agent_lose_no_line(tmp_path: Path) -> None:
    bench = load("bench_concurrency")
    for slow_ms in (0.0, 2.0):
        figures = bench.run(workers=3, ops=10, slow_ms=slow_ms, base=tmp_path)
        assert figures["failed"] == 0, figures["errors"]
        assert figures["operations"] == 30
        assert figures["lines_written"] >= 18  # every remember, edit and import wrote a line
        assert figures["lines_lost"] == 0, figures["lost"]


def test_writers_killed_at_random_moments_lose_nothing_committed(tmp_path: Path) -> None:
    figures = load("bench_torture").run(rounds=6, base=tmp_path)
    assert figures["problems"] == []
    assert figures["rounds"] == 6 and figures["losses"] == 0
    assert figures["killed"] + figures["finished"] == 6


def test_hosts_paused_past_their_lease_never_write_at_once_nor_lose_a_write(
    tmp_path: Path,
) -> None:
    figures = load("bench_lease").run(workers=3, seconds=3.0, lease=0.2, base=tmp_path)
    assert figures["problems"] == []
    assert figures["exit_codes"] == [0, 0, 0]
    assert figures["pauses"] >= 3 and figures["writes"] > 0


def test_index_scale_benchmark_measures_this_tree_at_the_smallest_size(tmp_path: Path) -> None:
    bench = load("bench_index_scale")
    results = bench.run(["1k"], compare=None, repeat=1, base=tmp_path, cold=1)
    figures = results["1k"]["this"]
    assert 0.03 < figures["text_mb"] < 0.1  # 10 notes of 100 lines
    for name in ("build_mb_s", "warm_fresh_p50_ms", "one_file_sync_ms", "cold_search_ms"):
        assert figures[name] > 0, name
    assert 1.0 < figures["index_x_text"] < 8.0  # main's index was 8x the text at this size
    assert any("index/text" in line for line in bench.report(results))
