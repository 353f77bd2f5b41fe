"""Precision, recall and F1 of the offline extractor on the labelled conversation turns.

The cases live in tests/lifecycle/extraction_cases.py. Cases named ``chat-*`` were
written after the rules and not tuned against, so they are also scored on their
own: their figures are the better guess of behaviour on real chats.
Run: ``python benchmarks/bench_extraction.py [--mistakes]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType


def _cases_module() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "tests" / "lifecycle" / "extraction_cases.py"
    spec = importlib.util.spec_from_file_location("extraction_cases", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["extraction_cases"] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


def _row(label: str, score: object) -> str:
    tp, fp, fn = (getattr(score, k) for k in ("tp", "fp", "fn"))
    p, r, f = (getattr(score, k) for k in ("precision", "recall", "f1"))
    return f"{label:<16} {p:>9.3f} {r:>7.3f} {f:>6.3f} {tp:>4} {fp:>4} {fn:>4}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mistakes", action="store_true", help="list every wrong case")
    args = parser.parse_args()
    cases = _cases_module()
    started = time.perf_counter()
    result = cases.measure()
    elapsed = time.perf_counter() - started
    untuned = [c for c in cases.CASES if c.name.startswith("chat-")]
    fresh = cases.measure(untuned)
    print(f"offline extraction: {len(cases.CASES)} labelled turns in {elapsed * 1000:.0f} ms")
    print(
        f"{'category':<16} {'precision':>9} {'recall':>7} {'F1':>6} {'TP':>4} {'FP':>4} {'FN':>4}"
    )
    for category, score in sorted(result.per_category.items()):
        print(_row(category, score))
    print(_row("overall", result.overall))
    print(_row(f"untuned ({len(untuned)})", fresh.overall))
    print(f"secrets written: {result.secrets_written}")
    if args.mistakes:
        print("\n".join(["", "mistakes:", *result.mistakes]))


if __name__ == "__main__":
    main()
