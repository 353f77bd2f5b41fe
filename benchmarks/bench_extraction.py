"""Precision, recall and F1 of the offline extractor on labelled conversation turns.

Three sets, from least to most honest:

- tuned: tests/extract/extraction_cases.py without ``chat-*``: written with the rules.
- old untuned: the ``chat-*`` cases of that file, written after the first rules. Their
  misses were later named when the rules were generalised, so they are no longer blind.
- held-out: the odd-indexed half of tests/extract/extraction_heldout.py, written before
  the rules were generalised and never tuned against. This is the figure to trust.

The even-indexed (dev) half of the held-out file guided the changes; it is shown for
reference only. Run: ``python benchmarks/bench_extraction.py [--mistakes]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

_HEADER = f"{'':<26} {'precision':>9} {'recall':>7} {'F1':>6} {'TP':>4} {'FP':>4} {'FN':>4}"


def _row(label: str, score: Any) -> str:
    p, r, f = score.precision, score.recall, score.f1
    return f"{label:<26} {p:>9.3f} {r:>7.3f} {f:>6.3f} {score.tp:>4} {score.fp:>4} {score.fn:>4}"


def _pr(score: Any) -> str:
    return f"{score.precision:>5.2f} {score.recall:>5.2f} {score.tp:>3} {score.fp:>3} {score.fn:>3}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mistakes", action="store_true", help="list every wrong case")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from extract.extraction_cases import CASES, measure
    from extract.extraction_heldout import DEV_CASES, HELDOUT

    tuned = [c for c in CASES if not c.name.startswith("chat-")]
    untuned = [c for c in CASES if c.name.startswith("chat-")]
    started = time.perf_counter()
    sets = {
        f"tuned ({len(tuned)})": measure(tuned),
        f"old untuned chat-* ({len(untuned)})": measure(untuned),
        f"held-out half ({len(HELDOUT)})": measure(HELDOUT),
        f"dev half, tuned on ({len(DEV_CASES)})": measure(DEV_CASES),
    }
    elapsed = time.perf_counter() - started
    turns = len(CASES) + len(HELDOUT) + len(DEV_CASES)
    print(f"offline extraction: {turns} labelled turns in {elapsed * 1000:.0f} ms")
    print(_HEADER)
    for label, result in sets.items():
        print(_row(label, result.overall))
    results = list(sets.values())
    tuned_result, heldout_result = results[0], results[2]
    print()
    print(
        f"{'category':<14} {'tuned: P     R  TP  FP  FN':>27}   {'held-out: P   R  TP  FP  FN':>28}"
    )
    categories = sorted(set(tuned_result.per_category) | set(heldout_result.per_category))
    for category in categories:
        cells = [
            _pr(result.per_category[category]) if category in result.per_category else "-"
            for result in (tuned_result, heldout_result)
        ]
        print(f"{category:<14} {cells[0]:>27}   {cells[1]:>28}")
    print(f"\nsecrets written: {sum(result.secrets_written for result in results)}")
    if args.mistakes:
        for label, result in sets.items():
            print("\n".join(["", f"mistakes, {label}:", *result.mistakes]))


if __name__ == "__main__":
    main()
