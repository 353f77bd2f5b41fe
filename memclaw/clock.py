"""Time as an injectable dependency, so tests can travel."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The current local time, timezone-aware."""
    return datetime.now().astimezone()


_AGO = re.compile(r"(\d+)\s*(?:d|days?)(?:\s+ago)?")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def parse_day(value: str, today: date) -> date | None:
    """A day as a person types it for --since/--until; None when it is not one.

    YYYY-MM-DD, "today", "yesterday", "3d" or "3 days ago", and a weekday name
    ("monday": the most recent one, today included).
    """
    text = " ".join(value.strip().casefold().split())
    try:
        return date.fromisoformat(text)
    except ValueError:
        pass
    if text in ("today", "yesterday"):
        return today - timedelta(days=text == "yesterday")
    if ago := _AGO.fullmatch(text):
        return today - timedelta(days=int(ago[1]))
    if text in _WEEKDAYS:
        return today - timedelta(days=(today.weekday() - _WEEKDAYS.index(text)) % 7)
    return None
