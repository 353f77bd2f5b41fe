"""Precision and recall of the offline contradiction detector on labelled fact pairs.

Two halves of hand-labelled pairs (English, Swedish, German, Spanish), each an old
remembered statement and a new one, labelled conflict, correction, restated or
compatible:

- dev (benchmarks/data/contradictions_dev.jsonl): the detector was tuned on it.
- held-out (benchmarks/data/contradictions_heldout.jsonl): written and committed
  before the detector existed, never tuned against.
- hard (benchmarks/data/contradictions_hard.jsonl): written after the detector, to
  find its limits: paraphrases and implicit changes no word rule sees ("is
  teetotal" / "brought a bottle of Rioja", "lives alone" / "her flatmate").
  Never tuned against either. This is the figure a model's second opinion is for.

"Disagree" is conflict or correction: precision and recall of disagree are what
decide whether the inbox fills with noise or misses a real contradiction. The
correction column is how often a disagreement was also classed right as a
correction (newest wins) rather than a conflict (goes to the inbox). Kind accuracy
is over all four labels.

A third line judges every pair of remembered lines in the bundled demo agent
(MEMORY.md, PROFILE.md and its daily notes: real, messy, several people) and
counts what it flags: it holds exactly one real contradiction (the cutover date
corrected on 2026-11-24), so every other flag there is noise in the inbox.
"To model" is how many pairs the offline judge was unsure of: with a model
configured, only those are sent to it (``memclaw.facts.judge``). "Ceiling" is the
recall a perfect model could reach by answering just those pairs: what a second
opinion can add at this cost, not a measured model.

Run: ``python benchmarks/bench_contradictions.py [--mistakes]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
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
        "unsure": sum(not judge(p["old"], p["new"]).sure for p in pairs),
        "ceiling": _ceiling(pairs),
    }


def _ceiling(pairs: list[dict[str, str]]) -> float:
    truths = [p for p in pairs if p["label"] in ("conflict", "correction")]
    reached = [p for p in truths if (v := judge(p["old"], p["new"])).disagrees or not v.sure]
    return len(reached) / len(truths) if truths else 0.0


def demo_noise() -> tuple[int, int, int]:
    """(lines, pairs, pairs flagged) over the demo agent's remembered lines."""
    demo = ROOT / "workspaces" / "demo"
    files = [demo / "MEMORY.md", demo / "PROFILE.md", *sorted((demo / "memory").glob("*.md"))]
    lines = [
        line
        for path in files
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*[-*] ", line)
    ]
    pairs = list(itertools.combinations(lines, 2))
    return len(lines), len(pairs), sum(judge(a, b).disagrees for a, b in pairs)


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
        f"{'TP':>3} {'FP':>3} {'FN':>3} {'kind acc':>8} {'corrections':>11} "
        f"{'to model':>8} {'ceiling':>7}"
    )
    for name in ("dev", "heldout", "hard"):
        pairs = load(name)
        s = score(pairs)
        print(
            f"{name:<10} {s['pairs']:>5} {s['precision']:>9.3f} {s['recall']:>7.3f} "
            f"{s['f1']:>6.3f} {s['tp']:>3} {s['fp']:>3} {s['fn']:>3} "
            f"{s['kind_accuracy']:>8.3f} {s['corrections_right']:>11.3f} "
            f"{s['unsure']:>8} {s['ceiling']:>7.3f}"
        )
        if args.mistakes:
            print("\n".join(mistakes(pairs)))
    lines, pairs_judged, flagged = demo_noise()
    print(f"demo agent: {lines} remembered lines, {pairs_judged} pairs judged, {flagged} flagged")


if __name__ == "__main__":
    main()
