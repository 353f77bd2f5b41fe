"""A query that names a person ranks the blocks by or about that person first.

"What is Elena's book about?" in a chat with three friends: Elena's own
turns, and the turns that mention her or sit in a conversation with her,
answer it; a line of another conversation that happens to say "book" does
not. A person is known when some ranked block is spoken by them (a turn
opening with "Name:"); a query word naming a known person makes the
candidates fall in two groups, related first, each in its ranked order.
Within the related group a person's own turns rank above mentions of them
at the same coverage level.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memclaw.index.blocks import speaker_of
from memclaw.index.rank import Candidate

_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def _names(text: str) -> set[str]:
    """Query words as possible names: "Elena's" is Elena."""
    out = set()
    for word in _WORD.findall(text):
        word = re.sub(r"['’]s?$", "", word).casefold()
        if len(word) > 1:
            out.add(word)
    return out


def named_people(query: str, candidates: Sequence[Candidate]) -> set[str]:
    """The people (case-folded) the query names among the speakers of ``candidates``."""
    speakers = {s.casefold() for c in candidates if (s := speaker_of(c.text))}
    return _names(query) & speakers


def by_person(query: str, candidates: list[Candidate]) -> list[Candidate]:
    """``candidates`` (best first) with those by or about a person the query names first."""
    named = named_people(query, candidates)
    if not named:
        return candidates

    def spoken(cand: Candidate) -> bool:
        return (speaker_of(cand.text) or "").casefold() in named

    def related(cand: Candidate) -> bool:
        return spoken(cand) or bool(_names(f"{cand.section} {cand.text}") & named)

    order = {id(c): i for i, c in enumerate(candidates)}
    return sorted(
        candidates,
        key=lambda c: (not related(c), c.tier, not spoken(c), order[id(c)]),
    )
