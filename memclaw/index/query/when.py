"""Dates and periods in a search query, read as a range of days.

"What film did Ravi see on 3 June, 2023?" is answered by the note of that
day, whose lines never say "3 June": the date is when it was said, not what.
So the date words are taken out of the query and become a range of days;
search ranks the blocks dated inside it first (see ``search``), and the
whole query, date words included, after them. Understood, in English,
Swedish, German and Spanish (the languages of the offline extraction
engine): a day ("3 June 2023", "June 3rd", "2023-06-03", "den 3 juni",
"am 3. Juni", "el 3 de junio de 2023"), a month ("in March 2023", "i
januari", "im Januar", "en enero"), a year ("in 2023"), today, yesterday,
this/last week or month, "N days ago", and weekday names ("on Tuesday",
"last Tuesday", "i tisdags": the latest such day up to today).

Notes are often written a day or two after what they tell ("saw it
yesterday"), so a range reaches ``AFTER`` days past its end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from memclaw.clock import MONTH_NUMBER, WEEKDAYS
from memclaw.gates.lazy_re import LazyPattern

I_ = re.IGNORECASE
AFTER = 2  # days a note may trail what it tells

MONTH = MONTH_NUMBER
WEEKDAY = {name: i for names in WEEKDAYS.values() for i, name in enumerate(names)}
_M = "|".join(sorted(MONTH, key=len, reverse=True))
_W = "|".join(sorted(WEEKDAY, key=len, reverse=True))
_ON = r"(?:(?:on|den|am|el|the)\s+)?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th|e|:e|\.)?"
_YEAR = r"(?:,?\s+(?:de\s+)?(\d{4}))?"
_OF = r"\s+(?:of\s+|de\s+)?"
# Compiled on first use: every search reads its query here, and compiling them all cost
# a cold search about 5 ms; a query without a digit (most) needs none of ``_NEED_DIGIT``.
_PATTERNS: tuple[tuple[str, LazyPattern], ...] = (
    ("ago", LazyPattern(r"\b(\d+|a|one|two|three|four|five|six)\s+(days?|weeks?)\s+ago\b", I_)),
    ("iso", LazyPattern(r"\b(?:on\s+)?(\d{4})-(\d{2})-(\d{2})\b")),
    ("day month", LazyPattern(rf"\b{_ON}{_DAY}{_OF}({_M})\.?{_YEAR}\b", I_)),
    ("month day", LazyPattern(rf"\b(?:on\s+)?({_M})\.?\s+{_DAY}(?:,?\s+(\d{{4}}))?\b", I_)),
    (
        "month",
        LazyPattern(
            rf"\b(?:(?:in|during|i|im|en|de)\s+)?({_M})(?:\s+(?:of\s+|de\s+)?(\d{{4}}))?\b", I_
        ),
    ),
    (
        "season",
        LazyPattern(
            r"\b(?:(in|during|this|last|past)\s+(?:the\s+)?)?(spring|summer|autumn|fall|winter)"
            r"(?:\s+(?:of\s+)?(\d{4}))?\b",
            I_,
        ),
    ),
    ("year", LazyPattern(r"\b(?:in|during|i|im|en)\s+(\d{4})\b", I_)),
    (
        "period",
        LazyPattern(
            r"\b(?:(?:this|last|past)\s+(week|month|weekend)|(förra|den här)\s+(veckan|månaden)"
            r"|(letzte|diese)n?\s+(woche|monat)|(?:la|el)\s+(semana|mes)\s+(pasad[ao])"
            r"|(?:i\s+)?(förra)\s+(veckan))\b",
            I_,
        ),
    ),
    (
        "day word",
        LazyPattern(
            r"\b(the day before yesterday|yesterday|today|tonight|i\s?går|i\s?dag|gestern|heute"
            r"|vorgestern|ayer|hoy|anteayer|i\s?förrgår)\b",
            I_,
        ),
    ),
    ("weekday", LazyPattern(rf"\b(?:(?:on|last|past|am|el|på|förra)\s+)?({_W})\b", I_)),
    ("sv weekday", LazyPattern(r"\bi\s+(mån|tis|ons|tors|fre|lör|sön)dags\b", I_)),
)
# These cannot match without a digit (``\d`` is exactly what ``str.isdecimal`` accepts),
# so a query without one skips them and they are never compiled.
_NEED_DIGIT = frozenset({"iso", "day month", "month day", "year"})
# The others cannot match without one of these whole words: a query holding none skips
# them uncompiled (compiling them was 5 ms of every cold search, most of which name no day).
_CUES = {
    "ago": frozenset({"ago"}),
    "month": frozenset(MONTH),
    "season": frozenset({"spring", "summer", "autumn", "fall", "winter"}),
    "period": frozenset(
        {"week", "month", "weekend", "veckan", "månaden", "woche", "monat", "semana", "mes"}
    ),
    "day word": frozenset(
        {"yesterday", "today", "tonight", "igår", "går", "idag", "dag", "gestern", "heute"}
        | {"vorgestern", "ayer", "hoy", "anteayer", "iförrgår", "förrgår"}
    ),
    "weekday": frozenset(WEEKDAY),
    "sv weekday": frozenset(
        f"{day}dags" for day in ("mån", "tis", "ons", "tors", "fre", "lör", "sön")
    ),
}
_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_DAY_WORDS = {
    "the day before yesterday": -2,
    "vorgestern": -2,
    "anteayer": -2,
    "iförrgår": -2,
    "yesterday": -1,
    "igår": -1,
    "gestern": -1,
    "ayer": -1,
    "today": 0,
    "tonight": 0,
    "idag": 0,
    "heute": 0,
    "hoy": 0,
}
_WORDS = re.compile(r"\w+")
_SV_SHORT = {"mån": 0, "tis": 1, "ons": 2, "tors": 3, "fre": 4, "lör": 5, "sön": 6}


@dataclass(frozen=True)
class When:
    """The days a query names (inclusive) and the query without the words that named them."""

    since: date
    until: date
    rest: str

    def window(self) -> tuple[str, str]:
        """The dates of blocks that may tell of these days: notes trail events a little."""
        return self.since.isoformat(), (self.until + timedelta(days=AFTER)).isoformat()


def _month_range(year: int, month: int) -> tuple[date, date]:
    import calendar  # here: it loads locale, and most searches name no month

    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _latest_month(month: int, today: date) -> int:
    """The year of the latest ``month`` up to today: "in March" asked in June is this March."""
    return today.year if month <= today.month else today.year - 1


_SEASONS = {
    "spring": (3, 5),
    "summer": (6, 8),
    "autumn": (9, 11),
    "fall": (9, 11),
    "winter": (12, 2),
}


def _season(
    prefix: str | None, name: str, year: int | None, today: date
) -> tuple[date, date] | None:
    """Northern seasons by whole months; winter YEAR is December YEAR-1 to February YEAR.

    Without a year, the latest such season begun by today ("last summer" in
    July: the one before).
    """
    if prefix is None and year is None:
        return None  # "spring" and "fall" alone are as often a noun or a verb
    first, last = _SEASONS[name]

    def bounds(y: int) -> tuple[date, date]:
        return date(y - 1 if first == 12 else y, first, 1), _month_range(y, last)[1]

    if year is not None:
        return bounds(year)
    year = today.year + 1
    while bounds(year)[0] > today:
        year -= 1
    if prefix in ("last", "past") and bounds(year)[1] >= today:
        year -= 1
    return bounds(year)


def _day(year: int | None, month: int, day: int, today: date) -> tuple[date, date] | None:
    if year is None:
        year = today.year if (month, day) <= (today.month, today.day) else today.year - 1
    try:
        found = date(year, month, day)
    except ValueError:
        return None
    return found, found


def _read(kind: str, m: re.Match[str], today: date) -> tuple[date, date] | None:
    g = [x.lower() if x else None for x in m.groups()]
    if kind == "iso":
        return _day(int(m.group(1)), int(m.group(2)), int(m.group(3)), today)
    if kind == "day month":
        return _day(int(g[2]) if g[2] else None, MONTH[g[1] or ""], int(g[0] or 0), today)
    if kind == "month day":
        return _day(int(g[2]) if g[2] else None, MONTH[g[0] or ""], int(g[1] or 0), today)
    if kind == "month":
        word = m.group(0).split()[0].lower()
        month = MONTH[g[0] or ""]
        prefixes = ("in", "during") if g[0] == "may" else ("in", "during", "i", "im", "en")
        if g[1] is None and word not in prefixes and g[0] in ("may", "march", "mars"):
            return None  # "I may", "march on": a month only after "in" or before a year
        year = int(g[1]) if g[1] else _latest_month(month, today)
        return _month_range(year, month)
    if kind == "season":
        return _season(g[0], g[1] or "", int(g[2]) if g[2] else None, today)
    if kind == "year":
        year = int(g[0] or 0)
        return (date(year, 1, 1), date(year, 12, 31)) if 1900 < year < 2200 else None
    if kind == "ago":
        count = _NUMBERS.get(g[0] or "") or int(g[0] or 0)
        day = today - timedelta(days=count * (7 if (g[1] or "").startswith("week") else 1))
        return day - timedelta(days=1), day + timedelta(days=1)
    if kind == "period":
        words = m.group(0).lower()
        last = any(w in words for w in ("last", "past", "förra", "letzte", "pasad"))
        unit = "weekend" if "weekend" in words else "week"
        if not any(w in words for w in ("week", "veckan", "woche", "semana")):
            unit = "month"
        monday = today - timedelta(days=today.weekday())
        if unit == "week":
            return (monday - timedelta(days=7), today) if last else (monday, today)
        if unit == "weekend":
            saturday = monday - timedelta(days=2)
            return saturday, saturday + timedelta(days=1)
        first = today.replace(day=1)
        if last:
            prev = first - timedelta(days=1)
            return _month_range(prev.year, prev.month)
        return first, today
    if kind == "day word":
        day = today + timedelta(days=_DAY_WORDS[re.sub(r"\s", "", g[0] or "")])
        return day, day
    index = WEEKDAY[g[0] or ""] if kind == "weekday" else _SV_SHORT[g[0] or ""]
    back = (today.weekday() - index) % 7 or 7  # the latest one before today
    day = today - timedelta(days=back)
    return day, day


def read_when(query: str, today: date) -> When | None:
    """The range of days ``query`` names, or None when it names none."""
    digits = any(ch.isdecimal() for ch in query)
    words = frozenset(_WORDS.findall(query.casefold()))
    for kind, pattern in _PATTERNS:
        if kind in _NEED_DIGIT and not digits:
            continue
        if kind in _CUES and words.isdisjoint(_CUES[kind]):
            continue
        m = pattern.search(query)
        if m is None:
            continue
        found = _read(kind, m, today)
        if found is None:
            continue
        rest = " ".join((query[: m.start()] + " " + query[m.end() :]).split())
        since, until = found
        if since > today:  # a past-only reading: memory tells of what was said
            continue
        return When(since, min(until, today), rest)
    return None
