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


def realistic_100kb() -> str:
    """100 KB of notes, config and code as a dump holds them, with two real secrets."""
    prose = (
        "As of 2026-11-29, user moved the memclaw deploy to Fly.io and prefers uv over pip. "
        "The password policy requires 12 characters; fixed in commit "
        "3f9a2c1b4d5e6f708192a3b4c5d6e7f8091a2b3c. Request id "
        "550e8400-e29b-41d4-a716-446655440000 failed. Användaren föredrar svenska. "
        "我们明天下午三点开会。 See https://example.com/docs?page=2 and /home/u/notes.md.\n"
    )
    config = "database:\n  host: db.internal\n  port: 5432\n  max_tokens: 4096\n"
    code = "def login(username: str, password: str) -> Token:\n    return get_token()\n"
    block = prose * 6 + config + code
    text = (block * (100_000 // len(block) + 1))[:100_000]
    # A handful of real findings, as in a typical note dump.
    from gates.secret_cases import GHP  # (as the benchmark imports it, and the tests)

    return text + f"\npassword=hunter2\nexport GITHUB_TOKEN={GHP}\n"
