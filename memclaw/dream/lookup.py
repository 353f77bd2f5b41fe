"""Lookups that keep a dream near-linear: which lines could match, found by shared terms.

Checking every candidate against every correction and every memory line grows
with the square of the notes. Each check below needs a shared term to say yes,
so only the lines sharing one are checked, in their original order: the answer
is the one the full scan gives.
"""

from __future__ import annotations

from collections.abc import Sequence

from memclaw.dream.clusters import Mention, corrects
from memclaw.text.likeness import Fingerprint


class MemoryLines:
    """MEMORY.md and PROFILE.md lines, found by the terms they hold."""

    def __init__(self, lines: list[tuple[str, Fingerprint]]) -> None:
        self.lines = lines
        self.by_term: dict[str, list[int]] = {}
        for index, (_, fp) in enumerate(lines):
            for term in fp.tokens:
                self.by_term.setdefault(term, []).append(index)

    def sharing(self, terms: frozenset[str]) -> list[tuple[str, Fingerprint]]:
        """The lines holding one of ``terms``, in file order."""
        found = {i for term in terms for i in self.by_term.get(term, ())}
        return [self.lines[i] for i in sorted(found)]


class Corrections:
    """Mentions that may correct another (a correction word, or values), by subject term.

    ``corrects`` needs a shared subject term: two of them, unless the newer
    mention is marked as a correction.
    """

    def __init__(self, mentions: Sequence[Mention]) -> None:
        self.mentions = [m for m in mentions if m.correction or m.fp.values]
        self.by_term: dict[str, list[int]] = {}
        for index, mention in enumerate(self.mentions):
            for term in mention.fp.subject:
                self.by_term.setdefault(term, []).append(index)

    def first_correcting(self, old: Mention, members: Sequence[Mention]) -> Mention | None:
        """The first mention (in note order) outside ``members`` that corrects ``old``."""
        shared: dict[int, int] = {}
        for term in old.fp.subject:
            for index in self.by_term.get(term, ()):
                shared[index] = shared.get(index, 0) + 1
        inside = set(members)
        for index in sorted(shared):
            new = self.mentions[index]
            if shared[index] < 2 and not new.correction:
                continue
            if new.order > old.order and new not in inside and corrects(new, old):
                return new
        return None
