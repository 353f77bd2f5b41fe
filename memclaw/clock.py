"""Time as an injectable dependency, so tests can travel."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The current local time, timezone-aware."""
    return datetime.now().astimezone()


# The one resolver of relative days: the CLI's --since/--until and the offline
# extractor's "I moved to Lisbon yesterday" both come here. Word tables cover the
# languages the offline engines read dates in (en, sv, de, es); search's dated lines
# and the judgement's dates read the same names.
MONTHS = {
    "en": "january february march april may june july august september october november december",
    "sv": "januari februari mars april maj juni juli augusti september oktober november december",
    "de": "januar februar märz april mai juni juli august september oktober november dezember",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre "
    "diciembre",
}
# Short forms that are no other word ("mar" is the sea in Spanish, "may" an English verb).
MONTH_SHORT = {"jan": 1, "feb": 2, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
               "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
# Every month name of every language, and its number.
MONTH_NUMBER = {
    name: number for names in MONTHS.values() for number, name in enumerate(names.split(), 1)
} | MONTH_SHORT
WEEKDAYS = {
    "en": ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    "sv": ("måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag"),
    "de": ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
}
# (words, days from the day they were said); longer phrases first, so a text scan
# finds "the day after tomorrow" before "tomorrow".
DAY_WORDS = {
    "en": (
        ("the day after tomorrow", 2),
        ("the day before yesterday", -2),
        ("tonight", 0),
        ("today", 0),
        ("tomorrow", 1),
        ("yesterday", -1),
    ),
    "sv": (
        ("i övermorgon", 2),
        ("i förrgår", -2),
        ("i morgon", 1),
        ("imorgon", 1),
        ("i kväll", 0),
        ("ikväll", 0),
        ("i dag", 0),
        ("idag", 0),
        ("i går", -1),
        ("igår", -1),
    ),
    "de": (("übermorgen", 2), ("vorgestern", -2), ("morgen", 1), ("heute", 0), ("gestern", -1)),
    "es": (("pasado mañana", 2), ("anteayer", -2), ("mañana", 1), ("hoy", 0), ("ayer", -1)),
}
NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3,
}  # fmt: skip
_COUNT = rf"(\d+|(?:{'|'.join(NUMBERS)})(?=\s))\s*(d|days?|w|weeks?)"
_AGO = re.compile(rf"{_COUNT}(?:\s+ago)?")
_AHEAD = re.compile(rf"in\s+{_COUNT}|{_COUNT}\s+from\s+(?:now|today)")
_SHIFTED = re.compile(r"(?:(last|this|next|coming)\s+)?(\w+)")
_ON_DAY = {word: offset for table in DAY_WORDS.values() for word, offset in table}


def count_days(number: str, unit: str) -> int:
    """ "two" "weeks" -> 14."""
    count = NUMBERS.get(number.lower()) or int(number)
    return count * (7 if unit.lower().startswith("w") else 1)


def weekday_index(name: str) -> int | None:
    for names in WEEKDAYS.values():
        if name in names:
            return names.index(name)
    return None


def parse_day(value: str, today: date, *, ahead: bool = False) -> date | None:
    """A day as a person types or says it, counted from ``today``; None when it is not one.

    YYYY-MM-DD; "today", "yesterday", "tomorrow" and the day before/after them (also in
    Swedish, German and Spanish); "3d", "3 days ago", "two weeks ago"; "in 2 days",
    "in two weeks", "3 days from now"; a weekday name, alone or after "last", "this",
    "next" or "coming". "last friday" is the most recent Friday before today, "next
    friday" the Friday of next week, "this"/"coming friday" the next one after today.
    A bare weekday is the most recent one, today included (what ``--since monday``
    means); with ``ahead`` it is the next one after today ("the demo is on Friday").
    """
    text = " ".join(value.strip().casefold().split())
    try:
        return date.fromisoformat(text)
    except ValueError:
        pass
    if text in _ON_DAY:
        return today + timedelta(days=_ON_DAY[text])
    if ago := _AGO.fullmatch(text):
        return today - timedelta(days=count_days(ago[1], ago[2]))
    if later := _AHEAD.fullmatch(text):
        number, unit = (later[1], later[2]) if later[1] else (later[3], later[4])
        return today + timedelta(days=count_days(number, unit))
    shifted = _SHIFTED.fullmatch(text)
    index = weekday_index(shifted[2]) if shifted else None
    if shifted is None or index is None:
        return None
    shift = shifted[1] or ("coming" if ahead else "")
    if shift == "next":
        return today - timedelta(days=today.weekday()) + timedelta(days=7 + index)
    if shift == "last":
        return today - timedelta(days=(today.weekday() - index) % 7 or 7)
    if shift in ("this", "coming"):
        return today + timedelta(days=(index - today.weekday()) % 7 or 7)
    return today - timedelta(days=(today.weekday() - index) % 7)
