"""Time as an injectable dependency, so tests can travel."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The current local time, timezone-aware."""
    return datetime.now().astimezone()
