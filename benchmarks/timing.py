"""The one way the benchmarks time a piece of work: the best of a few runs (the least
disturbed by whatever else the machine is doing)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(work: Callable[[], object], runs: int = 3) -> float:
    """The fewest seconds ``work`` took in ``runs`` runs."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)
