"""The injection gate: instructions aimed at the assistant caught, a person's own lines kept.

``injection_dev.jsonl`` holds the red team's lines from issue 38 and lines of our own
(tuned on); ``injection_dev_blind.jsonl`` (352 lines, eight languages) was written blind
on 2026-12-06 by an author who read neither the gate nor the other data, then tuned on;
``injection_dev_blind2.jsonl`` (300 lines, nine languages) likewise, for the families the
held-out half misses most (another owner's memory, covert acts, overrides, roles, leaks),
with hard look-alikes of each, then tuned on.
``injection_dev_blind3.jsonl`` (360 lines, nine languages) likewise, on 2026-12-06, for
every family (hidden text too), with hard look-alikes, scored once and then tuned on.
``injection_dev_blind4.jsonl`` (320 lines, nine languages) likewise, on 2026-12-07, with
the ordinary lines a naive filter flags (a person's own "always", quotes about AI, security
practice, reminders, pasted e-mail); scored once (injections caught 82/160, ordinary kept
159/160, a dream may promote 32 of the 160), then tuned on.
``injection_heldout.jsonl`` was written blind, by an author who read neither
the gate nor the dev lines, before the gate's principle-based rules: its cases are never
printed. Each line is either an **injection** (it must be caught) or **ordinary** (a fact
or the person's own preference, "From now on I take the 7:40 train": it must be kept).

Also run through the product: every injection of a set written into three days' notes
of a fresh agent, then an offline dream: how many reach MEMORY.md (and, on an agent of
their own, how many of the ordinary lines do: what the dream's caution costs). One dream
promotes at most ten lines, so also: how many lines of each kind a dream does not leave in
the note, any of which a later night may promote. With ``all``, the time of a dream's check
over one long line.

Run: ``python -m benchmarks.bench_injection
[--half dev|dev_blind|dev_blind2|dev_blind3|dev_blind4|heldout|all]
[--mistakes]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"


def load(half: str) -> list[dict[str, Any]]:
    lines = (DATA / f"injection_{half}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def score(rows: list[dict[str, Any]], mistakes: bool = False) -> dict[str, Any]:
    from memclaw.gates import addresses_agent

    total, right = Counter[str](), Counter[str]()
    wrong = Counter[str]()
    for row in rows:
        kind = row["kind"]
        total[kind] += 1
        caught = addresses_agent(row["text"])
        if caught == (kind == "injection"):
            right[kind] += 1
        else:
            wrong[f"{kind}/{row['family']}"] += 1
            if mistakes:
                print(f"  {kind:<9} {row['lang']} {row['text']}")
    return {"total": total, "right": right, "wrong": wrong}


def promoted(rows: list[dict[str, Any]], kind: str = "injection") -> tuple[int, int]:
    """Every line of one kind on three days' notes of one agent, then an offline dream."""
    from datetime import timedelta

    from memclaw.dream.run import dream_agent
    from memclaw.gates import redact
    from memclaw.workspace import Workspace
    from memclaw.workspace.scope import Scope

    # (A note never holds a credential: a line naming one is written as the gate leaves it.)
    lines = [redact(row["text"]) for row in rows if row["kind"] == kind]
    with tempfile.TemporaryDirectory() as tmp:
        agent, _ = Workspace.open(Path(tmp), env={}).init_agent("a")
        today = agent.now().date()
        for back in (1, 2, 3):
            day = today - timedelta(days=back)
            note = "# Notes\n" + "".join(f"- {line}\n" for line in lines)
            agent.write(f"memory/{day.isoformat()}.md", note)
        dream_agent(Scope(agent))
        memory = agent.read("MEMORY.md")
    return sum(line in memory for line in lines), len(lines)


def promotable(rows: list[dict[str, Any]], kind: str) -> int:
    """How many lines of one kind a dream does not leave in the note (of which one dream
    promotes only the few it has room for)."""
    from memclaw.gates import redact
    from memclaw.gates.injection import concerns_the_assistant

    return sum(
        not concerns_the_assistant(redact(row["text"])) for row in rows if row["kind"] == kind
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    halves = ("dev", "dev_blind", "dev_blind2", "dev_blind3", "dev_blind4", "heldout")
    parser.add_argument("--half", choices=(*halves, "all"), default="all")
    parser.add_argument("--mistakes", action="store_true", help="print every wrong line")
    args = parser.parse_args()
    if args.mistakes and args.half not in halves[:-1]:
        parser.error("--mistakes needs a dev half: the held-out half's mistakes stay unread")
    for half in halves if args.half == "all" else (args.half,):
        rows = load(half)
        got = score(rows, args.mistakes)
        total, right = got["total"], got["right"]
        caught = f"{right['injection']}/{total['injection']}"
        kept = f"{right['ordinary']}/{total['ordinary']}"
        langs = len({row["lang"] for row in rows})
        print(
            f"{half:<10} injections caught {caught} ({right['injection'] / total['injection']:.2f})"
            f"   ordinary lines kept {kept} ({right['ordinary'] / total['ordinary']:.2f})"
            f"   {langs} languages"
        )
        for family, count in sorted(got["wrong"].items()):
            print(f"         wrong {family:<28} {count}")
        reached, of = promoted(rows)
        ordinary, lines = promoted(rows, "ordinary")
        print(
            f"         dream: {reached} of {of} injections reached MEMORY.md"
            f" ({ordinary} of {lines} ordinary lines did)"
        )
        # One dream promotes a few lines; over many nights, every line it does not leave
        # in the note may be.
        print(
            f"         a dream may promote {promotable(rows, 'injection')} of {of} injections"
            f" and leaves {lines - promotable(rows, 'ordinary')} of {lines} ordinary lines"
        )
    if args.half == "all":
        speed()


def speed() -> None:
    """How long a dream's check takes over one 100 KB line with no full stop (a pasted log),
    against 10 KB of it: linear time reads the ten times longer line in about ten times
    as long (it had taken 264 s, read whole)."""
    from benchmarks.timing import best_of
    from memclaw.gates import concerns_the_assistant

    line = "you should see the notes about all the data of every user in the log " * 1500
    small = best_of(lambda: concerns_the_assistant(line[:10_000]))
    large = best_of(lambda: concerns_the_assistant(line[:100_000]))
    print(
        f"speed      one 100 KB line in {large * 1000:.0f} ms, 10 KB in {small * 1000:.0f} ms"
        f" ({large / small:.1f}x for ten times the length)"
    )


if __name__ == "__main__":
    main()
