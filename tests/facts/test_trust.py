"""Trust: evidence raises it, rejection lowers it, time halves it every half-life."""

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from extract.extractkit import Clock, make_agent

from memclaw.entries.memories import remember
from memclaw.facts.ledger import facts_of, find_fact
from memclaw.facts.model import Event, EventKind, Kind, Place
from memclaw.facts.trust import INFERRED_START, PERSON_START, assess
from memclaw.workspace.scope import Scope

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


def place(day: date | None, author: str = "model", kind: Kind = Kind.MEMORY) -> Place:
    return Place("f00000001", "Maya lives in Oslo", "MEMORY.md", 3, kind, "", day, author)


def event(kind: EventKind, days_ago: float = 0, session: str | None = None) -> Event:
    return Event(kind, (NOW - timedelta(days=days_ago)).isoformat(), "test", session)


def test_a_person_is_believed_more_than_an_inference() -> None:
    said = assess([place(NOW.date(), "person")], [], NOW, 60)
    inferred = assess([place(NOW.date())], [], NOW, 60)
    assert said.trust == pytest.approx(PERSON_START)
    assert inferred.trust == pytest.approx(INFERRED_START)
    assert said.source == "hand edit" and inferred.source == "model write"


def test_restatement_on_more_days_and_sessions_raises_trust() -> None:
    once = assess([place(NOW.date(), kind=Kind.DAILY)], [], NOW, 60).trust
    days = [place(NOW.date() - timedelta(days=n), kind=Kind.DAILY) for n in range(3)]
    three_days = assess(days, [], NOW, 60).trust
    sessions = [event(EventKind.INFERRED, 0, "s1"), event(EventKind.INFERRED, 0, "s2")]
    with_sessions = assess(days, sessions, NOW, 60).trust
    assert once < three_days < with_sessions < 1


def test_confirm_raises_reject_lowers_superseded_is_zero() -> None:
    base = assess([place(NOW.date())], [], NOW, 60).trust
    up = assess([place(NOW.date())], [event(EventKind.CONFIRMED)], NOW, 60).trust
    down = assess([place(NOW.date())], [event(EventKind.REJECTED)], NOW, 60).trust
    gone = assess([place(NOW.date())], [event(EventKind.SUPERSEDED)], NOW, 60).trust
    assert down < 0.2 < base < up and gone == 0.0


def test_trust_halves_every_half_life_since_last_restated_or_confirmed() -> None:
    old = [place(NOW.date() - timedelta(days=60), "person")]
    assert assess(old, [], NOW, 60).trust == pytest.approx(PERSON_START / 2)
    assert assess(old, [], NOW, 30).trust == pytest.approx(PERSON_START / 4)
    assert assess(old, [], NOW, 0).trust == pytest.approx(PERSON_START)  # 0: no decay
    confirmed = assess(old, [event(EventKind.CONFIRMED, 0)], NOW, 60)
    assert confirmed.age_days == 0 and confirmed.trust > PERSON_START


def test_decay_follows_the_injected_clock(tmp_path: Path) -> None:
    clock = Clock(NOW)
    agent = make_agent(tmp_path, clock)
    remember(Scope(agent), "Maya lives in Oslo")
    fact = find_fact(Scope(agent), "Maya lives in Oslo")
    assert fact.trust == pytest.approx(PERSON_START) and fact.source == "remember"
    clock.advance(days=120)
    (later,) = [f for f in facts_of(Scope(agent)) if f.id == fact.id]
    assert later.age_days == 120 and later.trust == pytest.approx(PERSON_START / 4)


def test_trust_history_replays_the_formula_at_each_event() -> None:
    from memclaw.facts.trust import history

    events = (
        Event(EventKind.INFERRED, "2026-11-01T09:00:00+00:00", "extract"),
        Event(EventKind.CONFIRMED, "2026-11-02T09:00:00+00:00", "card"),
        Event(EventKind.REJECTED, "2026-11-03T09:00:00+00:00", "cli"),
    )
    now = datetime.fromisoformat("2026-12-03T09:00:00+00:00")
    points = history([], events, now, 30.0)
    assert [p[1] for p in points] == [
        "inferred (extract)",
        "confirmed (card)",
        "rejected (cli)",
        "now",
    ]
    trusts = [round(p[2], 4) for p in points]
    # 0.5 inferred; a confirmation closes half the gap; a rejection keeps a quarter, and
    # each point decays from the last support (the confirmation's day, 2026-11-02).
    assert trusts[:2] == [0.5, 0.75]
    assert trusts[2] == round(0.1875 * 0.5 ** (1 / 30), 4)
    assert trusts[3] == round(0.1875 * 0.5 ** (31 / 30), 4)
