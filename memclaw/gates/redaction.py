"""Secrets taken out of structured data (log records, chat messages) before it is stored.

The secret gate works on strings; logs and transcripts are JSON, so the gate is
applied to every string inside them. Keys are left alone: they are field names
that memclaw chose, and the readers depend on them.
"""

from __future__ import annotations

import re
from typing import Any


def redact_data(value: Any) -> Any:
    """``value`` with every string in it (at any depth) passed through the secret gate.

    Values JSON cannot hold become their ``str()``, gated like any other string.
    """
    from memclaw.gates import redact

    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list | tuple):
        return [redact_data(item) for item in value]
    if isinstance(value, dict):
        return {key: redact_data(item) for key, item in value.items()}
    if value is None or isinstance(value, bool | int | float):
        return value
    # Anything else would be written as str(value) (a path, an exception): gate that text.
    return redact(str(value))


def redact_lines(lines: list[str]) -> list[str]:
    """Line-oriented text (an input history) without its secrets.

    A secret found within one line is redacted in place; every line touched by a
    secret that spans several lines (a pasted private key) is dropped, since a
    part of a key is still part of the key.
    """
    from memclaw.gates import find_secrets, redact

    text = "\n".join(lines)
    drop: set[int] = set()
    for finding in find_secrets(text):
        first = text.count("\n", 0, finding.start)
        last = first + text.count("\n", finding.start, finding.end)
        if last > first:
            drop.update(range(first, last + 1))
    return [redact(line) for number, line in enumerate(lines) if number not in drop]


def secret_values(value: Any) -> dict[str, str]:
    """Every secret in the strings of ``value`` (at any depth), as {secret: kind}."""
    from memclaw.gates import find_secrets

    if isinstance(value, str):
        return {value[f.start : f.end]: f.kind for f in find_secrets(value)}
    if isinstance(value, dict):
        value = list(value.values())
    found: dict[str, str] = {}
    for item in value if isinstance(value, list | tuple) else ():
        found.update(secret_values(item))
    return found


def redact_known(value: Any, known: dict[str, str]) -> Any:
    """``value`` with each ``known`` secret replaced wherever it stands as a whole word.

    A secret is found by what announces it ("my door code is 4711"); once found, its value
    is one wherever it comes back in the same conversation ("Got it: 4711").
    """
    from memclaw.gates.secrets import REDACTION_PREFIX

    wanted = [s for s in known if len(s) >= _KNOWN_MIN_CHARS]
    if not wanted:
        return value
    pattern = re.compile(
        r"(?<!\w)(" + "|".join(map(re.escape, sorted(wanted, key=len, reverse=True))) + r")(?!\w)"
    )

    def scrub(item: Any) -> Any:
        if isinstance(item, str):
            return pattern.sub(lambda m: f"{REDACTION_PREFIX}{known[m.group(1)]}]", item)
        if isinstance(item, list | tuple):
            return [scrub(x) for x in item]
        if isinstance(item, dict):
            return {key: scrub(x) for key, x in item.items()}
        return item

    return scrub(value)


# A value this short ("12") is too common to take out wherever it stands.
_KNOWN_MIN_CHARS = 3
