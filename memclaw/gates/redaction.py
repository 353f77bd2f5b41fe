"""Secrets taken out of structured data (log records, chat messages) before it is stored.

The secret gate works on strings; logs and transcripts are JSON, so the gate is
applied to every string inside them. Keys are left alone: they are field names
that memclaw chose, and the readers depend on them.
"""

from __future__ import annotations

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
