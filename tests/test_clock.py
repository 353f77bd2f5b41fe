"""The one relative-day resolver (memclaw.clock.parse_day), as people say days."""

from datetime import date

import pytest

from memclaw.clock import parse_day

MONDAY = date(2026, 10, 5)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("yesterday", date(2026, 10, 4)),
        ("tomorrow", date(2026, 10, 6)),
        ("the day before yesterday", date(2026, 10, 3)),
        ("the day after tomorrow", date(2026, 10, 7)),
        ("last Friday", date(2026, 10, 2)),
        ("next Friday", date(2026, 10, 16)),
        ("this Friday", date(2026, 10, 9)),
        ("coming monday", date(2026, 10, 12)),
        ("in two days", date(2026, 10, 7)),
        ("in 3 weeks", date(2026, 10, 26)),
        ("3 days from now", date(2026, 10, 8)),
        ("two weeks ago", date(2026, 9, 21)),
        ("a couple of days ago", date(2026, 10, 3)),
        ("igår", date(2026, 10, 4)),
        ("i övermorgon", date(2026, 10, 7)),
        ("gestern", date(2026, 10, 4)),
        ("ayer", date(2026, 10, 4)),
        ("fredag", date(2026, 10, 2)),
    ],
)
def test_spoken_days_resolve_from_the_day_they_were_said(said: str, day: date) -> None:
    assert parse_day(said, MONDAY) == day


def test_a_bare_weekday_looks_back_for_since_and_ahead_for_plans() -> None:
    assert parse_day("friday", MONDAY) == date(2026, 10, 2)
    assert parse_day("friday", MONDAY, ahead=True) == date(2026, 10, 9)
    assert parse_day("monday", MONDAY) == MONDAY
    assert parse_day("monday", MONDAY, ahead=True) == date(2026, 10, 12)


@pytest.mark.parametrize("said", ["soon", "ad", "last", "next week", "in days", "friday-ish"])
def test_what_is_not_a_day_is_none(said: str) -> None:
    assert parse_day(said, MONDAY) is None
