"""When a conversation happened, and how it is cut into windows an engine can read.

Facts are dated from the conversation, not from the day extraction runs: "Hanna
starts Monday" said on a Saturday session means the Monday after that Saturday,
even when the session is extracted a week later. The time comes from, in order:
each message's own ``timestamp`` / ``created_at``, the session id
(``YYYYMMDD-HHMMSS-xxxx`` or a leading ``YYYY-MM-DD``), and only then the clock.

A long conversation is read whole, in overlapping windows of at most
``extract_max_messages`` messages, so a name said at the start is not lost to the
end of a long chat. The number of windows is capped (``extract_max_windows``):
past the cap, windows grow instead, so the whole conversation is still read with a
bounded number of model calls.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

TIME_KEYS = ("timestamp", "created_at", "time", "date")
_SESSION_TIME = re.compile(r"^(\d{8})-(\d{6})\b")
_SESSION_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})(?![\d])")
# Unix times in milliseconds are larger than any plausible time in seconds.
_MILLIS = 10**11


@dataclass(frozen=True)
class Moment:
    """The conversation's time and where it came from (said in the extract log)."""

    when: datetime
    source: str

    @property
    def day(self) -> date:
        return self.when.date()


def parse_time(value: object) -> datetime | None:
    """An ISO string, an ISO date or a Unix time (s or ms) as an aware datetime; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        seconds = value / 1000 if abs(value) >= _MILLIS else value
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str) or not value.strip():
        return None
    if value.strip().isdigit():
        return parse_time(int(value.strip()))
    text = value.strip().replace("Z", "+00:00")
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        return None
    return found if found.tzinfo else found.replace(tzinfo=UTC)


def message_time(message: Mapping[str, object]) -> datetime | None:
    for key in TIME_KEYS:
        if (found := parse_time(message.get(key))) is not None:
            return found
    return None


def session_time(session_id: str | None) -> datetime | None:
    """The start of a chat session, from its id."""
    if not session_id:
        return None
    if match := _SESSION_TIME.match(session_id):
        try:
            return datetime.strptime("".join(match.groups()), "%Y%m%d%H%M%S").replace(tzinfo=UTC)
        except ValueError:
            return None
    if match := _SESSION_DAY.match(session_id):
        return parse_time(match.group(1))
    return None


def conversation_moment(
    messages: Sequence[Mapping[str, object]], session_id: str | None, now: datetime
) -> Moment:
    """When the conversation ended, as well as it can be told; the clock only as a last resort."""
    times = [t for m in messages if (t := message_time(m)) is not None]
    if times:
        return Moment(max(times), "message timestamps")
    if (start := session_time(session_id)) is not None:
        return Moment(start, "session id")
    return Moment(now, "today (the conversation carries no time)")


def message_days(messages: Sequence[Mapping[str, object]], moment: Moment) -> list[str]:
    """Each message's own day; a message without a time takes the last time seen before it."""
    days: list[str] = []
    current: date | None = None
    for message in messages:
        found = message_time(message)
        if found is not None:
            current = found.date()
        days.append((current or moment.day).isoformat())
    return days


@dataclass(frozen=True)
class Windows:
    spans: list[tuple[int, int]]  # [start, end) of each window
    size: int
    overlap: int


def windows(count: int, size: int, overlap: int, most: int) -> Windows:
    """Overlapping windows covering ``count`` messages, at most ``most`` of them."""
    size = max(size, 1)
    overlap = min(max(overlap, 0), size - 1) if size > 1 else 0
    if count <= size:
        return Windows([(0, count)], size, overlap)
    needed = math.ceil((count - overlap) / (size - overlap))
    if needed > most:
        # Too many calls: make each window larger so ``most`` of them still cover everything.
        size = math.ceil((count - overlap) / max(most, 1)) + overlap
    step = size - overlap
    spans = []
    start = 0
    while True:
        end = min(start + size, count)
        spans.append((start, end))
        if end >= count:
            break
        start += step
    return Windows(spans, size, overlap)
