"""How sure memclaw is of a fact: a score in [0, 1] from its evidence, decaying with time.

Computed when read, from the places a fact lives and its events, so the decay
is always current and nothing stale is ever stored:

* a start: 0.7 when the person said it (``remember``, a hand edit, an explicit
  correction), 0.5 when it was inferred (extraction, a dream, a model's tool);
* each further day and each further session that restate it close 30% of the
  remaining gap to 1;
* each confirmation closes half the gap; each rejection keeps a quarter;
* a superseded fact (a correction or an inbox choice replaced it) has trust 0;
* the whole decays by half every ``half_life`` days since the fact was last
  stated, restated or confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from memclaw.facts.model import Event, EventKind, Kind, Place

PERSON_START = 0.7
INFERRED_START = 0.5
RESTATED_KEEPS = 0.7  # share of the gap to 1 left after each restatement
CONFIRMED_KEEPS = 0.5
REJECTED_KEEPS = 0.25  # one rejection takes any fact under the default floor
_SUPPORT = (EventKind.STATED, EventKind.INFERRED, EventKind.CONFIRMED)


@dataclass(frozen=True)
class Assessment:
    trust: float
    age_days: float  # since last stated, restated or confirmed
    source: str
    since: str


def _day(stamp: str) -> date | None:
    try:
        return datetime.fromisoformat(stamp).date()
    except ValueError:
        return None


def assess(
    places: Sequence[Place], events: Sequence[Event], now: datetime, half_life_days: float
) -> Assessment:
    """The trust of one fact at ``now`` (see the module's description)."""
    said = any(e.kind is EventKind.STATED for e in events) or any(
        p.author == "person" for p in places
    )
    score = PERSON_START if said else INFERRED_START
    days = {p.day for p in places if p.day is not None}
    days |= {d for e in events if e.kind in _SUPPORT[:2] and (d := _day(e.time)) is not None}
    sessions = {e.session for e in events if e.session}
    extra = max(len(days) - 1, 0) + max(len(sessions) - 1, 0)
    score = 1 - (1 - score) * RESTATED_KEEPS**extra
    for event in events:
        if event.kind is EventKind.CONFIRMED:
            score = 1 - (1 - score) * CONFIRMED_KEEPS
        elif event.kind is EventKind.REJECTED:
            score *= REJECTED_KEEPS
        elif event.kind is EventKind.SUPERSEDED:
            score = 0.0
        elif event.kind in _SUPPORT[:2] and score == 0.0:
            score = INFERRED_START  # stated again after being superseded: alive again
    support = {d for e in events if e.kind in _SUPPORT and (d := _day(e.time)) is not None}
    last = max(days | support, default=now.date())
    age = max((now.date() - last).days, 0)
    decay = 0.5 ** (age / half_life_days) if half_life_days > 0 else 1.0
    source, since = _origin(places, events)
    return Assessment(min(max(score * decay, 0.0), 1.0), float(age), source, since)


def _origin(places: Sequence[Place], events: Sequence[Event]) -> tuple[str, str]:
    """What first produced the fact, and when: its first event, else the oldest place."""
    first = next((e for e in events if e.kind in (EventKind.STATED, EventKind.INFERRED)), None)
    if first is not None:
        where = f"{first.source} (session {first.session})" if first.session else first.source
        return where, first.time[:10]
    dated = sorted((p for p in places), key=lambda p: (p.day or date.max, p.path))
    if not dated:
        return "", ""
    oldest = dated[0]
    if oldest.kind == "daily":
        how = "daily note"
    elif oldest.author == "model":
        how = "model write"
    else:
        how = "hand edit"
    return how, oldest.day.isoformat() if oldest.day else ""


def history(
    places: Sequence[Place], events: Sequence[Event], now: datetime, half_life_days: float
) -> list[tuple[str, str, float]]:
    """(time, what happened, trust just after) at each event, then ``("now", now)``.

    Each point is :func:`assess` at that event's time over the evidence up to it
    and the places already dated by then (an undated place, MEMORY.md's, counts
    throughout): the same formula, never a stored score. Events whose time does
    not parse are skipped.
    """
    points = []
    for number, event in enumerate(events, 1):
        try:
            at = datetime.fromisoformat(event.time)
        except ValueError:
            continue
        known = [p for p in places if p.day is None or p.day <= at.date()]
        judged = assess(known, events[:number], at, half_life_days)
        points.append((event.time, f"{event.kind} ({event.source})", judged.trust))
    final = assess(places, events, now, half_life_days).trust
    points.append((now.isoformat(timespec="seconds"), "now", final))
    return points


def established(places: Sequence[Place], events: Sequence[Event]) -> bool:
    """A fact that is more than one machine's guess: the person said or confirmed it, or it
    was restated on several days or in several sessions. Ceilings move these last."""
    if any(e.kind is EventKind.SUPERSEDED for e in events):
        return False
    if any(e.kind in (EventKind.STATED, EventKind.CONFIRMED) for e in events):
        return True
    # A person's line in an injected file (entries and notes carry no provenance record).
    if any(p.author == "person" and p.kind in (Kind.PROFILE, Kind.MEMORY) for p in places):
        return True
    # Days it was said on: notes and events (a memory file's date is only its last write).
    days = {p.day for p in places if p.day is not None and p.kind is Kind.DAILY}
    days |= {d for e in events if e.kind in _SUPPORT[:2] and (d := _day(e.time)) is not None}
    sessions = {e.session for e in events if e.session}
    return len(days) > 1 or len(sessions) > 1


# Section headings of PROFILE.md and MEMORY.md that name an entry category in other words.
_HEADINGS = {"people": "relationship", "tech stack": "technical", "stack": "technical"}


def category_of(label: str, known: Sequence[str]) -> str:
    """The entry category a fact's label (its entry category or section heading) names."""
    label = label.strip().lower()
    if label in known:
        return label
    if label in _HEADINGS:
        return _HEADINGS[label]
    for word in reversed(label.split()):  # "active projects": project
        for name in known:
            if word in (name, name + "s") or (len(name) > 4 and word.startswith(name)):
                return name
    return label


def expired(age_days: float, ttl_days: int) -> bool:
    """A fact last stated ``age_days`` ago has outlived its category's ``ttl_days``."""
    return ttl_days > 0 and age_days > ttl_days
