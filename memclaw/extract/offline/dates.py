"""Relative days in a fact become ISO dates, counted from the conversation's date.

A memory is read weeks later, when "Monday" or "tomorrow" no longer means
anything. Words that name a recurring day ("every Monday", "on Mondays") stay
as they are: they are habits, not dates.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

I_ = re.IGNORECASE
_WEEKDAYS = {
    "en": ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    "sv": ("måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag"),
    "de": ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
}
# (words, days from the conversation date); longer phrases first.
_DAYS = {
    "en": (
        ("the day after tomorrow", 2),
        ("tonight", 0),
        ("today", 0),
        ("tomorrow", 1),
        ("yesterday", -1),
    ),
    "sv": (
        ("i övermorgon", 2),
        ("i morgon", 1),
        ("imorgon", 1),
        ("i kväll", 0),
        ("ikväll", 0),
        ("i dag", 0),
        ("idag", 0),
        ("i går", -1),
        ("igår", -1),
    ),
    "de": (("übermorgen", 2), ("morgen", 1), ("heute", 0), ("gestern", -1)),
    "es": (("pasado mañana", 2), ("mañana", 1), ("hoy", 0), ("ayer", -1)),
}
_ON = {"en": "on", "sv": "den", "de": "am", "es": "el"}
_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNT = rf"(\d+|{'|'.join(_NUMBERS)})\s+(days?|weeks?)"
_IN_COUNT = re.compile(rf"\bin\s+{_COUNT}\b", I_)
_AGO = re.compile(rf"\b{_COUNT}\s+ago\b", I_)
_EN_WEEKDAY = re.compile(
    r"(?<!every )(?<!each )\b(?:(starting|from|until|till|by|before|after)\s+)?(?:on\s+)?"
    rf"(?:(this|next|last|coming)\s+)?\b({'|'.join(_WEEKDAYS['en'])})\b(?!s\b|'s\b)",
    I_,
)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _weekday(day: date, index: int, shift: str) -> date:
    """The named weekday after ``day``; "next" means the one in next week, "last" the past one."""
    if shift == "next":
        return _monday(day) + timedelta(days=7 + index)
    if shift == "last":
        return day - timedelta(days=(day.weekday() - index) % 7 or 7)
    return day + timedelta(days=(index - day.weekday()) % 7 or 7)


def _month(day: date, shift: int) -> str:
    index = day.year * 12 + day.month - 1 + shift
    return f"in {index // 12:04d}-{index % 12 + 1:02d}"


def _days(number: str, unit: str) -> int:
    count = _NUMBERS.get(number.lower()) or int(number)
    return count * (7 if unit.lower().startswith("week") else 1)


# A past verb earlier in the clause: "sprained my wrist on Saturday" is the Saturday gone by.
_PAST = re.compile(
    r"\b(?:\w{3,}ed|was|were|got|had|did|went|came|left|made|took|met|saw|told|said|began|"
    r"broke|fell|felt|gave|lost|found|sent|spent|won|wrote|ran|sold|bought|hurt|caught)\b",
    I_,
)
_FUTURE = re.compile(r"\b(?:will|'ll|going to|gonna|starts?|begins?|is|are|'s|'re)\b", I_)
_PREPOSITION = re.compile(r"\b(?:starting|from|until|till|by|before|after|in|of|during)\s*$", I_)


def _clause_before(text: str, at: int) -> str:
    return re.split(r"[,.;:!?]", text[:at])[-1]


def _english(text: str, day: date) -> str:
    def weekday(match: re.Match[str]) -> str:
        index = _WEEKDAYS["en"].index(match.group(3).lower())
        shift = (match.group(2) or "").lower()
        before = _clause_before(text, match.start())
        if not shift and _PAST.search(before) and not _FUTURE.search(before):
            shift = "last"
        when = _weekday(day, index, shift).isoformat()
        return f"{match.group(1)} {when}" if match.group(1) else f"on {when}"

    text = _EN_WEEKDAY.sub(weekday, text)
    week = _monday(day)
    spans = {
        "next week": f"the week of {(week + timedelta(days=7)).isoformat()}",
        "this week": f"the week of {week.isoformat()}",
        "last week": f"the week of {(week - timedelta(days=7)).isoformat()}",
        "next weekend": f"the weekend of {(week + timedelta(days=12)).isoformat()}",
        "this weekend": f"the weekend of {(week + timedelta(days=5)).isoformat()}",
        "last weekend": f"the weekend of {(week - timedelta(days=2)).isoformat()}",
        "next month": _month(day, 1),
        "this month": _month(day, 0),
        "last month": _month(day, -1),
    }
    for words, replacement in spans.items():

        def span(match: re.Match[str], replacement: str = replacement) -> str:
            before = match.string[: match.start()]
            bare = replacement.startswith("the ") and not _PREPOSITION.search(before)
            return "in " + replacement if bare else replacement

        text = re.sub(rf"\b{words}\b", span, text, flags=I_)
    text = _IN_COUNT.sub(
        lambda m: f"on {(day + timedelta(days=_days(m.group(1), m.group(2)))).isoformat()}", text
    )
    return _AGO.sub(
        lambda m: f"on {(day - timedelta(days=_days(m.group(1), m.group(2)))).isoformat()}", text
    )


def _foreign(text: str, day: date, lang: str) -> str:
    names = _WEEKDAYS[lang]
    return re.sub(
        rf"\b(?:(?:på|am|el)\s+)?({'|'.join(names)})\b(?!ar\b|s\b|e\b)",
        lambda m: f"{_ON[lang]} {_weekday(day, names.index(m.group(1).lower()), '').isoformat()}",
        text,
        flags=I_,
    )


def resolve_relative(text: str, day: str, lang: str = "en") -> str:
    """``text`` with relative days ("tomorrow", "next Thursday") as ISO dates from ``day``."""
    today = date.fromisoformat(day)
    if lang == "en":
        text = _english(text, today)
    elif lang in _WEEKDAYS:
        text = _foreign(text, today, lang)
    for words, offset in _DAYS.get(lang, ()):
        when = (today + timedelta(days=offset)).isoformat()
        text = re.sub(rf"\b{words}\b", f"{_ON[lang]} {when}", text, flags=I_)
    # "starts on Monday" became "starts on on 2026-..."; "on on" -> "on".
    return re.sub(r"\b(on|den|am|el)\s+\1\b", r"\1", text)
