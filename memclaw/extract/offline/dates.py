"""Relative days in a fact become ISO dates, counted from the conversation's date.

A memory is read weeks later, when "Monday" or "tomorrow" no longer means
anything. Words that name a recurring day ("every Monday", "on Mondays") stay
as they are: they are habits, not dates.

This module finds the phrases in running text and words the result; which day a
phrase means is decided by the one resolver, :func:`memclaw.clock.parse_day`.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from memclaw.clock import DAY_WORDS, MONTH_NUMBER, NUMBERS, WEEKDAYS, parse_day

I_ = re.IGNORECASE
_ON = {"en": "on", "sv": "den", "de": "am", "es": "el"}
_COUNT = rf"(?:\d+|{'|'.join(NUMBERS)})\s+(?:days?|weeks?)"
_IN_COUNT = re.compile(rf"\bin\s+{_COUNT}\b|\b{_COUNT}\s+from\s+(?:now|today)\b", I_)
_AGO = re.compile(rf"\b{_COUNT}\s+ago\b", I_)
# A weekday that names the date written after it ("Friday 2026-12-11", "fredag den 11
# december") is no relative day: the date says which.
_MONTH = rf"(?:{'|'.join(MONTH_NUMBER)})\b"
_DATED = (
    r"(?!,?\s+(?:den\s+|der\s+|el\s+|the\s+)?(?:\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th)\b|"
    rf"\d{{1,2}}\.?(?:\s+de)?\s+{_MONTH}|{_MONTH}))"
)
_EN_WEEKDAY = re.compile(
    r"(?<!every )(?<!each )\b(?:(starting|from|until|till|by|before|after)\s+)?(?:on\s+)?"
    rf"(?:(this|next|last|coming)\s+)?\b({'|'.join(WEEKDAYS['en'])})\b(?!s\b|'s\b){_DATED}",
    I_,
)
# "moved to Friday", "postponed until Monday": where a change goes, a day to come.
_TARGET = re.compile(r"\b(?:to|until|till|for)\s*$", I_)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _resolved(phrase: str, day: date, ahead: bool = False) -> date:
    # Every phrase handed here was matched by a pattern built from the resolver's own words.
    found = parse_day(phrase, day, ahead=ahead)
    if found is None:
        raise ValueError(f"the day resolver does not read {phrase!r}")
    return found


def _weekday(day: date, name: str, shift: str) -> date:
    """The named weekday after ``day``; "next" means the one in next week, "last" the past one."""
    return _resolved(f"{shift} {name}", day, ahead=True)


def _on(phrase: str, day: date) -> str:
    return f"on {_resolved(phrase, day).isoformat()}"


def _month(day: date, shift: int) -> str:
    index = day.year * 12 + day.month - 1 + shift
    return f"in {index // 12:04d}-{index % 12 + 1:02d}"


# A past verb earlier in the clause: "sprained my wrist on Saturday" is the Saturday gone by.
_PAST = re.compile(
    r"\b(?:\w{3,}ed|was|were|got|had|did|went|came|left|made|took|met|saw|told|said|began|"
    r"broke|fell|felt|gave|lost|found|sent|spent|won|wrote|ran|sold|bought|hurt|caught)\b",
    I_,
)
_FUTURE = re.compile(r"\b(?:will|'ll|going to|gonna|starts?|begins?|is|are|'s|'re)\b", I_)
_PREPOSITION = re.compile(
    r"\b(?:starting|from|until|till|by|before|after|in|of|during|to|for|on)\s*$", I_
)


def _clause_before(text: str, at: int) -> str:
    return re.split(r"[,.;:!?]", text[:at])[-1]


def _english(text: str, day: date) -> str:
    def weekday(match: re.Match[str]) -> str:
        shift = (match.group(2) or "").lower()
        before = _clause_before(text, match.start())
        past = _PAST.search(before) and not _FUTURE.search(before) and not _TARGET.search(before)
        if not shift and past:
            shift = "last"
        when = _weekday(day, match.group(3).lower(), shift).isoformat()
        if match.group(1):
            return f"{match.group(1)} {when}"
        return when if _TARGET.search(before) else f"on {when}"  # "moved to 2026-12-10"

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
            lead = "on " if "weekend" in replacement else "in "
            return lead + replacement if bare else replacement

        text = re.sub(rf"\b{words}\b", span, text, flags=I_)
    text = _IN_COUNT.sub(lambda m: _on(m.group(0), day), text)
    return _AGO.sub(lambda m: _on(m.group(0), day), text)


def _foreign(text: str, day: date, lang: str) -> str:
    names = WEEKDAYS[lang]
    return re.sub(
        rf"\b(?:(?:på|am|el)\s+)?({'|'.join(names)})\b(?!ar\b|s\b|e\b){_DATED}",
        lambda m: f"{_ON[lang]} {_weekday(day, m.group(1).lower(), '').isoformat()}",
        text,
        flags=I_,
    )


# "cada mañana", "por la mañana": the morning, every day, not tomorrow.
_NOT_A_DAY = r"(?<!cada )(?<!la )"


def resolve_relative(text: str, day: str, lang: str = "en") -> str:
    """``text`` with relative days ("tomorrow", "next Thursday") as ISO dates from ``day``."""
    today = date.fromisoformat(day)
    if lang == "en":
        text = _english(text, today)
    elif lang in WEEKDAYS:
        text = _foreign(text, today, lang)
    for words, _offset in DAY_WORDS.get(lang, ()):
        when = _resolved(words, today).isoformat()
        text = re.sub(rf"{_NOT_A_DAY}\b{words}\b", f"{_ON[lang]} {when}", text, flags=I_)
    # "starts on Monday" became "starts on on 2026-..."; "on on" -> "on".
    return re.sub(r"\b(on|den|am|el)\s+\1\b", r"\1", text)


# How resolve_relative writes a day or a span: "on 2026-10-04", "in the week of 2026-10-12".
_WRITTEN_WHEN = re.compile(
    r"\b(?:on|in|den|am|el)\s+(?:the\s+(?:week|weekend)\s+of\s+)?\d{4}-\d{2}(?:-\d{2})?\b"
)


def event_when(sentence: str, day: str, lang: str = "en") -> str | None:
    """When the event a sentence tells happened, as a fact says it ("on 2026-10-04").

    "I moved to Lisbon yesterday", said on 2026-10-05, gives "on 2026-10-04"; a sentence
    that already names its day ("on 2026-10-04") gives that. None when it names no day.
    """
    found = _WRITTEN_WHEN.search(resolve_relative(sentence, day, lang))
    return found.group(0) if found else None
