"""Counts in English: "1 hit", "2 hits", "1 memory", "3 memories"."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless the count is exactly one."""
    if count == 1:
        return f"{count} {word}"
    if many is None:
        many = (
            word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
        )
    return f"{count} {many}"
