"""Precision, recall and F1 of the offline extractor on labelled conversation turns.

Three sets, from least to most honest:

- tuned: tests/extract/extraction_cases.py without ``chat-*``: written with the rules.
- old untuned: the ``chat-*`` cases of that file, written after the first rules. Their
  misses were later named when the rules were generalised, so they are no longer blind.
- held-out: the odd-indexed half of tests/extract/extraction_heldout.py, written before
  the rules were generalised and never tuned against. This is the figure to trust.

The even-indexed (dev) half of the held-out file guided the changes; it is shown for
reference only.

Whole conversations (tests/extract/conversations*.py): 60 to 200 messages run end to
end through extract_conversation (windows, dates, names, secrets), in two halves:
tuning (conversations_tuning.py, tuned on) and held-out (conversations_heldout.py,
written and committed before the code changed, run once at the end). Each half
prints precision/recall/F1 per kind, dates right, secrets written and a sentence
check: no sentence without a verb, no doubled word, no "user" once the name is
known, no sentence that starts lower-case or with "because".

Scale: one conversation telling thirty new facts, extracted offline into an agent whose
memory holds a hundred facts of the same shapes; every new fact is weighed against
what memory holds (the fact layer's index keeps that linear), and the run is timed.

Run: ``python benchmarks/bench_extraction.py [--mistakes]``.
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
    print(_scale())
    conversations = _conversations()
    if args.mistakes:
        for label, result in sets.items():
            print("\n".join(["", f"mistakes, {label}:", *result.mistakes]))
        for label, conv in conversations.items():
            print("\n".join(["", f"mistakes, conversations {label}:", *conv.mistakes]))
            quality = conv.quality
            bad = quality.no_verb + quality.doubled + quality.user_named + quality.fragment
            print("\n".join(f"sentence: {text}" for text in bad))


def _scale(new: int = 30, old: int = 100) -> str:
    """Thirty new facts against a hundred remembered ones, extracted offline and timed."""
    import tempfile

    from memclaw.extract.pipeline import extract_conversation
    from memclaw.facts.ledger import facts_of
    from memclaw.workspace import Workspace
    from memclaw.workspace.scope import Scope

    tools = ["Grafana", "Sentry", "Terraform", "Ansible", "Jenkins", "Helm", "Vault", "Kafka"]
    with tempfile.TemporaryDirectory() as tmp:
        agent, _ = Workspace.open(Path(tmp), env={}).init_agent("b")
        held = "".join(
            f"- The team uses {tools[n % 8]} for service s{n} in region r{n % 5}.\n"
            for n in range(old)
        )
        agent.write("MEMORY.md", "# Memory\n\n## Technical\n\n" + held)
        messages = []
        for n in range(new):
            said = f"We deployed service q{n} to region r{n % 5} with {tools[n % 8]} today."
            messages += [{"role": "user", "content": said}, {"role": "assistant", "content": "Ok."}]
        scope = Scope(agent)
        before = len(facts_of(scope, durable_only=True))
        started = time.perf_counter()
        done = extract_conversation(scope, messages, session_id="scale", force=True)
        seconds = time.perf_counter() - started
        after = len(facts_of(scope, durable_only=True))
        # The file's ceiling moves its oldest model-written lines to the overflow file.
        kept = "".join(agent.read(name) for name in ("MEMORY.md", "MEMORY.overflow.md"))
        found = sum(f"service q{n} " in kept for n in range(new))
    return (
        f"scale: {new} new facts told against {old} remembered, extracted offline in "
        f"{seconds:.2f} s ({done.status}; {found} of {new} kept, {after - before} in "
        f"MEMORY.md and the rest in its overflow; memory {before} -> {after})"
    )


def _conversations() -> dict[str, Any]:
    from extract.conversations import measure_conversations
    from extract.conversations_heldout import CONVERSATIONS_HELDOUT
    from extract.conversations_tuning import CONVERSATIONS_TUNING

    halves = {"tuning": CONVERSATIONS_TUNING, "held-out": CONVERSATIONS_HELDOUT}
    out: dict[str, Any] = {}
    for label, cases in halves.items():
        sizes = [len(case.messages) for case in cases]
        started = time.perf_counter()
        result = measure_conversations(cases)
        elapsed = time.perf_counter() - started
        out[label] = result
        print(
            f"\nwhole conversations, {label}: {len(cases)} conversations of "
            f"{min(sizes)}-{max(sizes)} messages ({sum(sizes)} in all) in {elapsed * 1000:.0f} ms"
        )
        print(_HEADER)
        print(_row("all kinds", result.overall))
        for kind in sorted(result.per_kind):
            print(_row(f"  {kind}", result.per_kind[kind]))
        quality = result.quality
        print(
            f"dates right {result.dates_right}/{result.dates_wanted}; dates from today instead "
            f"of the conversation: {result.forbidden_written}; secrets or their context "
            f"written: {result.secrets_written}"
        )
        print(
            f"sentences {quality.sentences}: without a verb {len(quality.no_verb)}, doubled "
            f"word {len(quality.doubled)}, 'user' where the name is known "
            f"{len(quality.user_named)}, fragment {len(quality.fragment)}"
        )
    return out


if __name__ == "__main__":
    main()
