"""Recall when memory holds a stale fact beside the current one, and feedback says which is which.

A case where trust should matter, built on purpose (it measures the signal,
not how often the situation arises): MEMORY.md holds, for each of 30 people,
two statements of the same attribute that match a question equally well,
the stale one and the current one, in random order ("Ingrid coaches the
Bergen under-12 team" / "... the Oslo under-12 team"). Then feedback is given
as `memclaw facts confirm|reject` and chat's /good and /bad give it: for a
third of the people the stale statement was rejected, for a third the
current one was confirmed, for a third both. Around them are the daily notes
of ``search_quality`` (180 days of small talk and facts), whose own 113
questions are asked too as a control: no feedback touches them.

Reported per trust_weight: recall@1 and MRR of the current statement (the
stale one does not count), and recall@5 / MRR of the control questions.

Run: ``python benchmarks/trust_recall.py [--weights 0,0.2,0.5]``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
AGENT = "chat"
NOW = datetime(2026, 7, 31, 12, 0, tzinfo=UTC)
ATTRIBUTES = [
    ("{p} coaches the {c} under-12 football team.", "Which team does {p} coach?"),
    ("{p} keeps the spare house key with a neighbour in {c}.", "Where is {p}'s spare key?"),
    ("{p}'s book club meets at the library in {c}.", "Where does {p}'s book club meet?"),
]


def build(root: Path, seed: int) -> list[tuple[str, int, str]]:
    """Write the workspace, give the feedback; returns (question, current line, feedback)."""
    from search_quality import CITIES, PEOPLE

    from memclaw.facts.feedback import give
    from memclaw.workspace import Workspace
    from memclaw.workspace.scope import Scope

    rng = random.Random(seed)
    lines = ["# Memory", ""]
    cases = []
    for i, person in enumerate(PEOPLE + [f"{p}sson" for p in PEOPLE[:10]]):
        template, question = ATTRIBUTES[i % len(ATTRIBUTES)]
        old_city, new_city = rng.sample(CITIES, 2)
        stale, current = (template.format(p=person, c=c) for c in (old_city, new_city))
        lines += [f"## {person}", ""]
        pair = [(stale, False), (current, True)]
        rng.shuffle(pair)
        for text, is_current in pair:
            lines.append(f"- {text}")
            if is_current:
                where = len(lines)
        lines.append("")
        feedback = ("reject stale", "confirm current", "both")[i % 3]
        cases.append((question.format(p=person), where, feedback, stale, current))
    (root / AGENT / "MEMORY.md").write_text("\n".join(lines), encoding="utf-8")
    ws = Workspace.open(root, env={}, clock=lambda: NOW)
    scope = Scope(ws.agent(AGENT))
    for _, _, feedback, stale, current in cases:
        if feedback != "confirm current":
            give(scope, stale, good=False)
        if feedback != "reject stale":
            give(scope, current, good=True)
    return [(q, where, feedback) for q, where, feedback, _, _ in cases]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default="0,0.2,0.5")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    from search_quality import _rank_of_first, generate, score

    from memclaw.index import search
    from memclaw.workspace import Workspace

    tmp = Path(tempfile.mkdtemp(prefix="memclaw-trust-"))
    try:
        control = generate(tmp, args.seed, 180)
        cases = build(tmp, args.seed)
        print(
            f"trust recall: {len(cases)} stale/current pairs with feedback, "
            f"{len(control)} control questions without"
        )
        print(f"  {'trust_weight':<13} {'R@1':>6} {'MRR':>6}   control R@5 R@10   MRR")
        for weight in (float(w) for w in args.weights.split(",")):
            ws = Workspace.open(tmp, env={}, overrides={"trust_weight": weight}, clock=lambda: NOW)
            ranks = []
            for question, where, _ in cases:
                hits = search(ws, question, agents=[AGENT], limit=10, log=False)
                spans = [[(h.file, n) for n in range(h.line, h.end_line + 1)] for h in hits]
                ranks.append(_rank_of_first(spans, {("MEMORY.md", where)}))
            first = sum(1 for r in ranks if r == 1) / len(ranks)
            mrr = sum(1 / r for r in ranks if r) / len(ranks)
            base = []
            for q in control:
                hits = search(ws, q.text, agents=[AGENT], limit=10, log=False)
                spans = [[(h.file, n) for n in range(h.line, h.end_line + 1)] for h in hits]
                base.append(_rank_of_first(spans, q.evidence))
            c = score(base)
            print(
                f"  {weight:<13g} {first:>6.3f} {mrr:>6.3f}   "
                f"{c['recall@5']:>11.3f} {c['recall@10']:.3f} {c['mrr']:.3f}"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
