"""Recall and false-positive rate of the secret gate on a labelled set, by family.

Shared by ``benchmarks/bench_secrets.py`` (prints the figures) and ``test_secrets.py``
(asserts them). A secret case counts as caught when every listed value is gone after
redaction; a split case when every listed value is gone from every message after the
adjacent-message redaction; a look-alike is a false positive when anything is flagged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from memclaw.gates import contains_secret, redact, redact_adjacent

SecretCase = tuple[str, str, tuple[str, ...]]
SplitCase = tuple[str, list[str], tuple[str, ...]]
LookAlike = tuple[str, str]


@dataclass
class GateScore:
    secrets: int = 0
    caught: int = 0
    lookalikes: int = 0
    flagged: int = 0
    missed_by_family: Counter[str] = field(default_factory=Counter)
    total_by_family: Counter[str] = field(default_factory=Counter)
    flagged_by_family: Counter[str] = field(default_factory=Counter)
    missed: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.caught / self.secrets if self.secrets else 1.0

    @property
    def precision(self) -> float:
        """Of the cases flagged, the share that held a secret (a caught secret case or a
        flagged look-alike each count once)."""
        flagged = self.caught + self.flagged
        return self.caught / flagged if flagged else 1.0

    @property
    def fpr(self) -> float:
        return self.flagged / self.lookalikes if self.lookalikes else 0.0


def score(
    secrets: Sequence[SecretCase], splits: Sequence[SplitCase], lookalikes: Sequence[LookAlike]
) -> GateScore:
    out = GateScore()
    for family, text, values in secrets:
        out.secrets += 1
        out.total_by_family[family] += 1
        redacted = redact(text)
        if any(v in redacted for v in values):
            out.missed_by_family[family] += 1
            out.missed.append(f"{family}: {text[:70]!r}")
        else:
            out.caught += 1
    for family, messages, values in splits:
        out.secrets += 1
        out.total_by_family[family] += 1
        redacted_msgs = redact_adjacent(messages)
        if any(v in m for v in values for m in redacted_msgs):
            out.missed_by_family[family] += 1
            out.missed.append(f"{family}: {messages!r}"[:90])
        else:
            out.caught += 1
    for family, text in lookalikes:
        out.lookalikes += 1
        if contains_secret(text):
            out.flagged += 1
            out.flagged_by_family[family] += 1
            out.false_positives.append(f"{family}: {text[:70]!r}")
    return out
