"""What bounds one dream: how many note lines it weighs, and for how long.

A dream compares every mention with the clusters that share its terms, so its
work grows faster than the notes. A normal week of notes is a few hundred
mentions; a pasted log of a million lines must not hold the agent's dream lock
for hours. Past ``dream_max_mentions`` the most salient mentions are kept;
past ``dream_time_limit_seconds`` the dream stops before writing anything.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memclaw.dream.clusters import Mention
    from memclaw.dream.salience import Salience
    from memclaw.index.recall_log import RecallIndex

# Copies of one statement beyond this many add nothing to its score (MENTIONS_CAP).
USEFUL_COPIES = 5


class StoppedEarly(Exception):
    """The dream ran past its time limit; nothing was written."""

    def __init__(self, limit: float) -> None:
        super().__init__(f"took longer than {limit:g} s")
        self.limit = limit


class Deadline:
    """``check()`` raises ``StoppedEarly`` once ``limit`` seconds have passed (0: never)."""

    def __init__(self, limit: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._clock = clock
        self._end = clock() + limit if limit > 0 else None

    def check(self) -> None:
        if self._end is not None and self._clock() >= self._end:
            raise StoppedEarly(self.limit)


def most_salient(
    mentions: Sequence[Mention],
    salience: Salience,
    recall: RecallIndex,
    cap: int,
    check: Callable[[], None] | None = None,
) -> list[Mention]:
    """At most ``cap`` mentions (0: all), the ones most likely to be promoted.

    First the mentions search recalled, then those whose terms recur on other
    days (by the weight of those terms), newest first among equals; a statement
    repeated verbatim gives up its place after ``USEFUL_COPIES`` copies so one
    pasted line cannot crowd out every other fact.
    """
    if cap <= 0 or len(mentions) <= cap:
        return list(mentions)

    keys: dict[int, tuple[int, float]] = {}
    for done, m in enumerate(mentions, start=1):
        if check is not None and done % 4096 == 0:
            check()
        recalled = len(recall.queries_for(m.file, m.line))
        recurring = sum(salience.weight(t) for t in m.fp.tokens if t in salience.recurring)
        keys[id(m)] = (recalled, recurring)
    ranked = sorted(mentions, key=lambda m: (keys[id(m)], m.order), reverse=True)
    copies: dict[frozenset[str], int] = {}
    first: list[Mention] = []
    spare: list[Mention] = []
    for mention in ranked:
        seen = copies.get(mention.fp.tokens, 0)
        copies[mention.fp.tokens] = seen + 1
        (first if seen < USEFUL_COPIES else spare).append(mention)
    kept = {id(m) for m in (first + spare)[:cap]}
    return [m for m in mentions if id(m) in kept]  # in note order, as if never capped
