"""Precision and recall of the offline contradiction detector on labelled fact pairs.

Two halves of hand-labelled pairs (English, Swedish, German, Spanish), each an old
remembered statement and a new one, labelled conflict, correction, restated or
compatible:

- dev (benchmarks/data/contradictions_dev.jsonl): the detector was tuned on it.
- held-out (benchmarks/data/contradictions_heldout.jsonl): written and committed
  before the detector existed, never tuned against. This is the figure to trust.

"Disagree" is conflict or correction: precision and recall of disagree are what
decide whether the inbox fills with noise or misses a real contradiction. The
correction column is how often a disagreement was also classed right as a
correction (newest wins) rather than a conflict (goes to the inbox). Kind accuracy
is over all four labels.

Run: ``python benchmarks/bench_contradictions.py [--mistakes]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memclaw.facts.conflict import judge  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"


def load(name: str) -> list[dict[str, str]]:
    lines = (DATA / f"contradictions_{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def score(pairs: list[dict[str, str]]) -> dict[str, float]:
    tp = fp = fn = right = corrections = corrections_right = 0
    for pair in pairs:
        verdict = judge(pair["old"], pair["new"])
        truth = pair["label"] in ("conflict", "correction")
        tp += verdict.disagrees and truth
        fp += verdict.disagrees and not truth
        fn += truth and not verdict.disagrees
        right += verdict.kind == pair["label"]
        if pair["label"] == "correction":
            corrections += 1
            corrections_right += verdict.kind == "correction"
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return {
        "pairs": len(pairs),
        "precision": precision,
        "recall": recall,
        "f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "kind_accuracy": right / len(pairs),
        "corrections_right": corrections_right / corrections if corrections else 0.0,
    }


def mistakes(pairs: list[dict[str, str]]) -> list[str]:
    out = []
    for pair in pairs:
        verdict = judge(pair["old"], pair["new"])
        if verdict.kind != pair["label"]:
            out.append(
                f"  [{pair['lang']}] want {pair['label']:<10} got {verdict.kind:<10} "
                f"({verdict.reason}): {pair['old']!r} -> {pair['new']!r}"
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mistakes", action="store_true", help="list every wrong verdict")
    args = parser.parse_args()
    print(
        f"{'half':<10} {'pairs':>5} {'precision':>9} {'recall':>7} {'F1':>6} "
        f"{'TP':>3} {'FP':>3} {'FN':>3} {'kind acc':>8} {'corrections':>11}"
    )
    for name in ("dev", "heldout"):
        pairs = load(name)
        s = score(pairs)
        print(
            f"{name:<10} {s['pairs']:>5} {s['precision']:>9.3f} {s['recall']:>7.3f} "
            f"{s['f1']:>6.3f} {s['tp']:>3} {s['fp']:>3} {s['fn']:>3} "
            f"{s['kind_accuracy']:>8.3f} {s['corrections_right']:>11.3f}"
        )
        if args.mistakes:
            print("\n".join(mistakes(pairs)))


if __name__ == "__main__":
    main()
