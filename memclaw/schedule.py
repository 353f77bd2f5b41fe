"""When does a crontab expression fire next? croniter does the evaluating.

memclaw writes these expressions into the user's real crontab, so it accepts
only what cron itself accepts: 5 fields (minute hour day-of-month month
day-of-week), each ``*``, a number or name (jan, mon), a range ``a-b``, a step
``*/n``, ``a-b/n`` or ``a/n``, or a comma list of those. croniter's own
extensions (``L``, ``W``, ``#``, ``?``, hashed ``H``, seconds and year fields)
and its wrap-around ranges (``5-1``) are refused here, because cron would reject
the installed line or read it differently; ``@daily`` and friends are refused
because the settings take 5 fields. croniter reads ``5-5`` as every minute, so
equal ranges are handed to it as the single value cron means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from croniter import CroniterError, croniter

from memclaw.errors import ConfigError

# label, what the field takes (for the error message)
_FIELDS = (
    ("minute", "0-59"),
    ("hour", "0-23"),
    ("day of month", "1-31"),
    ("month", "1-12 or jan-dec"),
    ("day of week", "0-7 or sun-sat (0 and 7 are Sunday)"),
)
_VALUE = r"(?:\d+|[a-z]{3})"
_TOKEN = re.compile(rf"(?:\*|(?P<low>{_VALUE})(?:-(?P<high>{_VALUE}))?)(?:/\d+)?", re.I | re.A)
_SHAPE = "minute hour day month weekday, e.g. '0 3 * * *'"


@dataclass(frozen=True)
class CronExpr:
    """A crontab expression that cron accepts, and how croniter must be told it."""

    text: str
    for_croniter: str  # equal ranges ``5-5`` spelled ``5``: croniter reads them as ``*``


def _alone(index: int, value: str) -> list[int | str]:
    """croniter's values for ``value`` as field ``index`` (raises CroniterError if bad)."""
    probe = ["*"] * 5
    probe[index] = value
    return [item for item in croniter.expand(" ".join(probe))[0][index]]


def _number(value: str, index: int) -> int:
    if value.isdigit():
        return int(value)  # not through croniter: it folds weekday 7 into 0
    return int(_alone(index, value)[0])


def _field(index: int, text: str) -> str:
    """``text`` checked as field ``index``, spelled the way croniter reads it as cron does."""
    label, allowed = _FIELDS[index]
    bad = ConfigError(
        f"cron {label} {text!r} is not valid: use {allowed}, '*', a range a-b, "
        "a step */n or a comma list"
    )
    parts = []
    try:
        _alone(index, text)
        for part in text.split(","):
            token = _TOKEN.fullmatch(part)
            if token is None:
                raise bad
            low, high = token["low"], token["high"]
            if high is not None:
                start, end = _number(low, index), _number(high, index)
                if start > end:
                    raise bad  # croniter would wrap around; cron refuses it
                if start == end:
                    part = low
            parts.append(part)
    except CroniterError as exc:
        raise bad from exc
    return ",".join(parts)


def parse_cron(text: str) -> CronExpr:
    """Check ``text``; raises ConfigError naming the bad field and what it takes."""
    fields = text.split()
    if len(fields) != 5:
        raise ConfigError(f"cron expression {text!r} must have 5 fields: {_SHAPE}")
    return CronExpr(text, " ".join(_field(index, field) for index, field in enumerate(fields)))


def next_run(expr: str | CronExpr, after: datetime) -> datetime:
    """The first minute strictly after ``after`` at which ``expr`` fires (same tzinfo).

    Times are wall-clock times in ``after``'s timezone, as cron reads them.
    """
    cron = parse_cron(expr) if isinstance(expr, str) else expr
    # implement_cron_bug: like cron, a day field starting with '*' narrows the other
    # day field (AND) instead of adding to it (OR).
    schedule = croniter(cron.for_croniter, after, implement_cron_bug=True)
    try:
        return schedule.get_next(datetime)
    except CroniterError as exc:
        raise ConfigError(
            f"cron expression {cron.text!r} never fires: check that its day exists in its month"
        ) from exc
