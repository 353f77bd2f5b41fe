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
