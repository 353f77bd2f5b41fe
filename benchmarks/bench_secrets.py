"""Recall and false-positive rate of the secret gate, tuning set and held-out set.

- tuning: tests/gates/secret_cases.py (the rules were fitted to it).
- held-out: tests/gates/secret_heldout.py, written before the capture-issue changes and
  never tuned against. This is the figure to trust.
- slips: tests/gates/secret_heldout_slips.py, a second held-out set written before the
  issue-27 changes (passwords without a verb or of plain words, credentials in URLs,
  "login is user / pass", in every language the gate claims). Never tuned against either.
- env: tests/gates/secret_heldout_env.py, a third held-out set written before the
  env-variable changes (``PGPASSWORD=...``, ``$env:API_KEY = ...``, ``mysql -p'...'``,
  ``Authorization: Basic ...``, in code blocks, prose and other languages). Never tuned on.
- env-blind: tests/gates/secret_heldout_env_blind.py, the same families written after the
  fix without running the gate on them (env's misses were seen while fixing). Never tuned on.
- env-tune: tests/gates/secret_env_tuning.py, the same families, fitted against.
- principles: tests/gates/secret_heldout_principles.py, written blind (its author saw
  neither the gate nor the other sets) before the principle-based rules of issue 38:
  credential words of every kind in nine languages, checksummed numbers, seed phrases,
  credentials in addresses, answers to questions. Never tuned on.
- dev-blind: tests/gates/secret_dev_blind.py, written blind (its author saw neither the
  gate nor the other sets) on 2026-12-06 for the families the principles set misses most,
  then tuned on: a dev set, so that the principles set stays held out.
- dev-blind2: tests/gates/secret_dev_blind2.py, written blind on 2026-12-06 like dev-blind
  (324 secrets, 47 splits, 248 look-alikes, twelve languages), scored once, then tuned on.
- fresh: tests/gates/secret_heldout_fresh.py, written blind on 2026-12-06 (its author saw
  neither the gate nor the other sets) while that day's rules were being fitted to
  dev-blind, and scored once they were; never tuned on, its cases never printed.
- red-team: tests/gates/secret_red_team.py, the red team's strings from issue 38 (seen
  while building those rules: a dev set).

Misses and false positives are listed by family. Run:
``python benchmarks/bench_secrets.py [SET|all] [--cases] [--detect-secrets]``.

``--detect-secrets`` also scores Yelp's ``detect-secrets`` (every plugin, default
settings; ``pip install detect-secrets``) on the same cases, line by line, to see
whether a well-kept detector would do as well as our own rules: a secret counts as
caught when every listed value is inside what it reports.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any

# Each set: the name it is asked by and printed as, its module under tests/gates, and the
# names of its secrets, its split secrets ("" when it has none) and its look-alikes. The
# cases of a held-out set are never printed, even with --cases.
SETS: dict[str, tuple[str, str, str, str, str]] = {
    "tuning": (
        "tuning", "secret_cases", "LABELLED_SECRET_CASES", "SPLIT_CASES",
        "LABELLED_NON_SECRET_CASES",
    ),
    "heldout": (
        "held-out", "secret_heldout", "HELDOUT_SECRETS", "HELDOUT_SPLIT", "HELDOUT_LOOKALIKES",
    ),
    "slips": ("slips", "secret_heldout_slips", "SLIP_SECRETS", "", "SLIP_LOOKALIKES"),
    "env": ("env", "secret_heldout_env", "ENV_SECRETS", "", "ENV_LOOKALIKES"),
    "env-blind": (
        "env-blind", "secret_heldout_env_blind", "BLIND_SECRETS", "", "BLIND_LOOKALIKES",
    ),
    "env-tune": (
        "env-tune", "secret_env_tuning", "ENV_TUNING_SECRETS", "", "ENV_TUNING_LOOKALIKES",
    ),
    "principles": (
        "principles", "secret_heldout_principles", "PRINCIPLE_SECRETS", "PRINCIPLE_SPLIT",
        "PRINCIPLE_LOOKALIKES",
    ),
    "red-team": ("red-team", "secret_red_team", "RED_SECRETS", "RED_SPLIT", "RED_LOOKALIKES"),
    "dev-blind": ("dev-blind", "secret_dev_blind", "SECRETS", "SPLITS", "LOOKALIKES"),
    "dev-blind2": ("dev-blind2", "secret_dev_blind2", "SECRETS", "SPLITS", "LOOKALIKES"),
    "fresh": ("fresh", "secret_heldout_fresh", "SECRETS", "SPLITS", "LOOKALIKES"),
}  # fmt: skip
HELD_OUT = frozenset({"principles", "fresh"})


def _report(name: str, result: Any, show_cases: bool) -> None:
    print(
        f"{name:<9} recall {result.recall:.3f} ({result.caught}/{result.secrets})   "
        f"precision {result.precision:.3f}   "
        f"FPR {result.fpr:.3f} ({result.flagged}/{result.lookalikes})"
    )
    for family in sorted(result.missed_by_family):
        missed, total = result.missed_by_family[family], result.total_by_family[family]
        print(f"  missed  {family:<18} {missed}/{total}")
    for family in sorted(result.flagged_by_family):
        print(f"  flagged {family:<18} {result.flagged_by_family[family]}")
    if show_cases:
        for line in result.missed:
            print(f"    miss  {line}")
        for line in result.false_positives:
            print(f"    FP    {line}")


def _speed() -> None:
    """How long the gate takes over 100 KB of notes, against splitting them into words."""
    import re

    from gates.secret_score import realistic_100kb

    from benchmarks.timing import best_of
    from memclaw.gates import find_secrets

    text = realistic_100kb()
    find_secrets(text)  # warm: the lazy patterns compiled, the word lists loaded

    gate = best_of(lambda: find_secrets(text), runs=5)
    words = best_of(lambda: re.findall(r"\w+", text), runs=5)
    print(f"speed     100 KB in {gate * 1000:.0f} ms, {gate / words:.1f}x splitting it into words")


def _detect_secrets(name: str, secrets: Any, lookalikes: Any) -> None:
    """How ``detect-secrets`` does on one set's one-message secrets and look-alikes."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    plugins = [plugin() for plugin in get_mapping_from_secret_type_to_class().values()]

    def reported(text: str) -> list[str]:
        return [
            found.secret_value or ""
            for plugin in plugins
            for line in text.splitlines()
            for found in plugin.analyze_line(filename="note.md", line=line, line_number=0)
        ]

    caught = sum(
        all(any(value in found for found in reported(text)) for value in values)
        for _family, text, values in secrets
    )
    flagged = sum(bool(reported(text)) for _family, text in lookalikes)
    print(
        f"  detect-secrets on {name}: recall {caught / len(secrets):.3f} "
        f"({caught}/{len(secrets)})   FPR {flagged / len(lookalikes):.3f} "
        f"({flagged}/{len(lookalikes)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "half",
        nargs="?",
        default="all",
        choices=[*SETS, "all"],
    )
    parser.add_argument("--cases", action="store_true", help="list every missed/flagged case")
    parser.add_argument(
        "--detect-secrets",
        action="store_true",
        help="also score the detect-secrets package on each set (pip install detect-secrets)",
    )
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent  # (run as a script: benchmarks.timing too)
    sys.path[:0] = [str(root / "tests"), str(root)]
    from gates.secret_score import score

    for key, (shown, module, secrets, splits, lookalikes) in SETS.items():
        if args.half not in (key, "all"):
            continue
        cases = importlib.import_module(f"gates.{module}")
        said, looks = getattr(cases, secrets), getattr(cases, lookalikes)
        result = score(said, getattr(cases, splits) if splits else [], looks)
        _report(shown, result, args.cases and key not in HELD_OUT)
        if args.detect_secrets:
            _detect_secrets(shown, said, looks)
        if key == "principles" and args.half == "all":
            _speed()


if __name__ == "__main__":
    main()
