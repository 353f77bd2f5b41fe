"""Trust as one ranking signal: a candidate's score moved by what feedback said of its facts.

With ``trust_weight`` w > 0 and, for each fact on a block's lines, its trust
t (``facts.trust.assess``, now) and the trust t₀ its places alone would give
it (the same evidence without any confirmation, rejection or supersession),
the block's mean r = t / (2·t₀), capped at 1, moves its score::

    score' = score × (1 + w × (2r − 1))

A fact no one gave feedback on has r = ½ and keeps its score; a confirmed
one (r up to 1) gains up to w; a rejected one (r = ⅛) loses ¾ w; a
superseded one (r = 0) loses w. Blocks stating no fact keep their score.

Why relative to t₀ and not trust itself: trust also grows with restatement
and decays with age, and ranking by those measured badly (the quality
benchmark fell from recall@5 0.956 to 0.726 at w = 0.2: small talk said on
many days rose above facts said once, and old facts sank as with a recency
half-life). Repetition already counts in BM25 over the restated lines, and
age has its own setting (``recency_half_life_days``); what only trust knows
is what the person said of a fact, so that is what ranks.

The factor multiplies the score inside a coverage level (``keyword``): trust
reorders blocks matching equally much of the query and never lifts one that
matches less of it above one that matches more. w = 0 changes nothing and
costs nothing.

Cost: one search builds one ``TrustSignal``. For each index it reads the
agent's fact events once; only when some fact has feedback does it project the
candidates' lines, and look up every place of the facts with feedback among
them (``places``). It caches each block's factor, so the dated and semantic
rankings of the same search only ask about blocks not seen yet. (Loading every
place of every candidate fact cost about 15 ms a search at 10,000 notes, where a
line restated on many days lives in many places.)
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from memclaw.facts import EVIDENCE

if TYPE_CHECKING:
    from memclaw.facts.model import Event, EventKind, Place
    from memclaw.index.rank import Candidate
    from memclaw.workspace.agent import Agent


@functools.cache
def _feedback() -> tuple[EventKind, ...]:
    """What feedback is; the fact layer's model is loaded only once evidence exists."""
    from memclaw.facts.model import EventKind

    return (EventKind.CONFIRMED, EventKind.REJECTED, EventKind.SUPERSEDED)


# Parsed evidence per agent, while its version in the ledger is the same: parsing it
# took 8 ms of a 25 ms search at 10,000 notes.
_EVIDENCE: dict[str, tuple[int, dict[str, tuple[Event, ...]]]] = {}


def _events(agent: Agent) -> dict[str, tuple[Event, ...]]:
    from memclaw.workspace import ledger

    key = str(agent.meta_dir)
    cached = _EVIDENCE.get(key)
    # A cold cache (a one-off search) reads the document at once: one opening, not two.
    if cached is not None and ledger.version(agent.meta_dir, EVIDENCE) == cached[0]:
        return cached[1]
    document, version = ledger.load(agent.meta_dir, EVIDENCE)
    if version == 0:
        return {}
    from memclaw.facts.store import parse_events

    events = parse_events(document)
    _EVIDENCE[key] = (version, events)
    return events


def factor(relative: float | None, weight: float) -> float:
    """The score multiplier of a block whose facts have mean ``relative`` trust (None: none)."""
    if relative is None or weight <= 0:
        return 1.0
    return 1.0 + weight * (2.0 * relative - 1.0)


def relative_trust(
    places: Sequence[Place], events: Sequence[Event], now: datetime, half_life: float
) -> float:
    """A fact's trust over twice what its places alone give it, capped at 1 (½: no feedback)."""
    said = [e for e in events if e.kind not in _feedback()]
    if len(said) == len(events):
        return 0.5
    from memclaw.facts.trust import assess  # (only with feedback: a search rarely needs it)

    alone = assess(places, said, now, half_life).trust
    if alone <= 0:
        return 0.5  # decayed to nothing either way: feedback cannot be told apart
    return min(assess(places, events, now, half_life).trust / (2 * alone), 1.0)


class TrustSignal:
    """Per-search trust factors of candidate blocks, looked up once per index."""

    def __init__(self, weight: float) -> None:
        self.weight = weight
        self._factors: dict[tuple[str, int], float] = {}
        self._events: dict[str, dict[str, tuple[Event, ...]]] = {}

    def adjust(
        self, key: str, conn: sqlite3.Connection, agent: Agent | None, found: list[Candidate]
    ) -> list[Candidate]:
        """``found`` (one index's candidates) with their scores multiplied by ``factor``."""
        if self.weight <= 0 or agent is None or not found:
            return found  # GLOBAL files have no agent, hence no fact events: unchanged
        missing = [c for c in found if (key, c.block_id) not in self._factors]
        if missing:
            self._look_up(key, conn, agent, missing)
        out = []
        for cand in found:
            scale = self._factors.get((key, cand.block_id), 1.0)
            out.append(cand if scale == 1.0 else replace(cand, score=cand.score * scale))
        return out

    def _look_up(
        self, key: str, conn: sqlite3.Connection, agent: Agent, found: Sequence[Candidate]
    ) -> None:
        if key not in self._events:
            self._events[key] = _events(agent)
        events = self._events[key]
        # Only facts someone gave feedback on move (the others are at ½): with none, no work.
        judged = {fid for fid, said in events.items() if any(e.kind in _feedback() for e in said)}
        on_block: dict[int, list[str]] = {}
        trust: dict[str, float] = {}
        if judged:
            from memclaw.index.facts.places import Places  # (only with feedback, as above)

            places = Places(conn, agent)
            now, half_life = agent.now(), agent.settings.trust_half_life_days
            for cand in found:
                stated = places.on_block(cand.file, cand.line, cand.end_line, cand.text)
                on_block[cand.block_id] = [p.fact for p in stated]
                for place in stated:
                    if place.fact in judged and place.fact not in trust:
                        everywhere = places.everywhere(place)
                        trust[place.fact] = relative_trust(
                            everywhere, events[place.fact], now, half_life
                        )
        for cand in found:
            named = on_block.get(cand.block_id, ())
            mean = sum(trust.get(f, 0.5) for f in named) / len(named) if named else None
            self._factors[(key, cand.block_id)] = factor(mean, self.weight)
