"""A small evaluator of 5-field crontab expressions: when does the job run next?

Fields: minute hour day-of-month month day-of-week, each ``*``, a number, a
range ``a-b``, a step ``*/n`` or ``a-b/n`` or ``a/n``, or a comma list of those.
Months and weekdays also take names (jan, mon). Weekday 0 and 7 are Sunday.
As in cron, when both day fields are restricted a day matching either runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from memclaw.errors import ConfigError

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
_FIELDS: tuple[tuple[str, int, int, dict[str, int]], ...] = (
    ("minute", 0, 59, {}),
    ("hour", 0, 23, {}),
    ("day of month", 1, 31, {}),
    ("month", 1, 12, {name: i + 1 for i, name in enumerate(_MONTHS)}),
    ("day of week", 0, 7, {name: i for i, name in enumerate(_DAYS)}),
)
# Far enough for any valid expression (Feb 29 on a given weekday recurs within 28 years).
_HORIZON_DAYS = 366 * 29


@dataclass(frozen=True)
class CronExpr:
    text: str
    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]
    months: frozenset[int]
    weekdays: frozenset[int]  # 0 = Sunday
    any_day: bool
    any_weekday: bool

    def matches_day(self, day: date) -> bool:
        if day.month not in self.months:
            return False
        dom = day.day in self.days
        dow = (day.isoweekday() % 7) in self.weekdays
        if self.any_day and self.any_weekday:
            return True
        if self.any_day:
            return dow
        if self.any_weekday:
            return dom
        return dom or dow

    def matches(self, moment: datetime) -> bool:
        return (
            moment.minute in self.minutes
            and moment.hour in self.hours
            and self.matches_day(moment.date())
        )


def _number(token: str, names: dict[str, int], where: str) -> int:
    key = token.strip().lower()
    if key in names:
        return names[key]
    if not key.isdigit():
        raise ConfigError(f"{where}: {token!r} is not a number")
    return int(key)


def _field(text: str, index: int) -> tuple[frozenset[int], bool]:
    label, low, high, names = _FIELDS[index]
    values: set[int] = set()
    for part in text.split(","):
        where = f"cron {label} {part!r}"
        spec, slash, step_text = part.partition("/")
        step = _number(step_text, {}, where) if slash else 1
        if step < 1:
            raise ConfigError(f"{where}: the step must be at least 1")
        if spec == "*":
            start, end = low, high
        elif "-" in spec:
            first, _, last = spec.partition("-")
            start, end = _number(first, names, where), _number(last, names, where)
        else:
            start = _number(spec, names, where)
            end = high if slash else start
        if not low <= start <= high or not low <= end <= high or start > end:
            raise ConfigError(f"{where}: must be within {low}-{high}")
        values.update(range(start, end + 1, step))
    if index == 4 and 7 in values:
        values.discard(7)
        values.add(0)
    return frozenset(values), text.startswith("*")


def parse_cron(text: str) -> CronExpr:
    """Parse ``text``; raises ConfigError naming the bad field."""
    parts = text.split()
    if len(parts) != 5:
        raise ConfigError(
            f"cron expression {text!r} must have 5 fields: minute hour day month weekday"
        )
    minutes, _ = _field(parts[0], 0)
    hours, _ = _field(parts[1], 1)
    days, any_day = _field(parts[2], 2)
    months, _ = _field(parts[3], 3)
    weekdays, any_weekday = _field(parts[4], 4)
    return CronExpr(text, minutes, hours, days, months, weekdays, any_day, any_weekday)


def next_run(expr: str | CronExpr, after: datetime) -> datetime:
    """The first minute strictly after ``after`` at which ``expr`` fires (same tzinfo)."""
    cron = parse_cron(expr) if isinstance(expr, str) else expr
    start = after.replace(second=0, microsecond=0) + timedelta(minutes=1)
    day = start.date()
    for offset in range(_HORIZON_DAYS):
        current = day + timedelta(days=offset)
        if not cron.matches_day(current):
            continue
        for hour in sorted(cron.hours):
            for minute in sorted(cron.minutes):
                moment = datetime.combine(current, time(hour, minute), tzinfo=after.tzinfo)
                if moment >= start:
                    return moment
    raise ConfigError(f"cron expression {cron.text!r} never fires (check day and month)")
