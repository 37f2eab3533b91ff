"""The token interval grammar ("1y2M3d4h5m"), parsed and formatted in one place.

Used for `expiryStr` at creation/update and for the search criteria
`expiresBefore`, `expiresLaterThan` and `issuedBefore`. Unit letters are case
sensitive (M = months, m = minutes); spaces between parts are accepted as the
vendor's UI writes them. What a user types may also use the UI example's
capital Y ("3Y 4M 3d 9h 6m",
https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/TokenBasedAuthTokenAttributes.htm):
`documented` reads it and writes the Redocly pattern's lower-case y
(`*y *M *d *h *m`), which is what is sent. Each unit appears at most once and in
descending order, as the documented pattern `*y *M *d *h *m` shows.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

_PART = re.compile(r"\s*([0-9]+)\s*([yMdhm])\s*")  # ASCII digits only (\d would take "٣")
_ORDER = "yMdhm"
_NAMES = {"y": "years", "M": "months", "d": "days", "h": "hours", "m": "minutes"}
# The longest interval accepted: beyond it calendar arithmetic overflows (datetime stops at 9999).
MAX_YEARS = 1000
_APPROX_DAYS = {"years": 366, "months": 30.5, "days": 1, "hours": 1 / 24, "minutes": 1 / 1440}


class IntervalError(ValueError):
    """The text is not a valid interval; the message says why."""


@dataclass(frozen=True, slots=True)
class Interval:
    """A calendar-aware duration: months and years are calendar units."""

    years: int = 0
    months: int = 0
    days: int = 0
    hours: int = 0
    minutes: int = 0

    @property
    def is_zero(self) -> bool:
        return not (self.years or self.months or self.days or self.hours or self.minutes)

    def after(self, start: datetime) -> datetime:
        """The moment this interval after `start` (month ends clamp, as calendars do)."""
        total_months = start.month - 1 + self.months + 12 * self.years
        year = start.year + total_months // 12
        month = total_months % 12 + 1
        try:
            day = min(start.day, calendar.monthrange(year, month)[1])
            moved = start.replace(year=year, month=month, day=day)
            return moved + timedelta(days=self.days, hours=self.hours, minutes=self.minutes)
        except (ValueError, OverflowError):
            raise IntervalError(f"{format_interval(self)} after {start:%Y-%m-%d} is beyond the calendar") from None

    def after_ms(self, start_ms: int) -> int:
        """`after` for epoch milliseconds (UTC), exact to the millisecond."""

        epoch = datetime(1970, 1, 1, tzinfo=UTC)
        whole, rest = divmod(int(start_ms), 1000)  # integer arithmetic: floats lose a millisecond
        moved = self.after(epoch + timedelta(seconds=whole))
        return (moved - epoch) // timedelta(milliseconds=1) + rest

    def __str__(self) -> str:
        return format_interval(self)


def parse_interval(text: str) -> Interval:
    """Parse "1y2M3d4h5m" (spaces allowed between parts); raise IntervalError."""
    if text is None or not str(text).strip():
        raise IntervalError("an interval is required, e.g. 30d or 1y2M")
    text = str(text)
    pos = 0
    seen: list[str] = []
    values: dict[str, int] = {}
    while pos < len(text):
        match = _PART.match(text, pos)
        if not match or match.end() == pos:
            bad = text[pos:].strip()[:10]
            raise IntervalError(
                f"cannot read {bad!r}: use numbers with the units y M d h m (case sensitive; M is months, m is minutes), e.g. 1y2M3d"
            )
        number, unit = match.groups()
        if unit in seen:
            raise IntervalError(f"the unit {unit!r} ({_NAMES[unit]}) appears twice")
        if seen and _ORDER.index(unit) < _ORDER.index(seen[-1]):
            raise IntervalError("units must run from largest to smallest: y M d h m")
        if len(number) > 9:  # int() refuses thousands of digits; nothing sensible is this long
            raise IntervalError(f"the interval must be at most {MAX_YEARS} years")
        seen.append(unit)
        values[_NAMES[unit]] = int(number)
        pos = match.end()
    interval = Interval(**values)
    if interval.is_zero:
        raise IntervalError("the interval must be at least 1 minute")
    if sum(_APPROX_DAYS[k] * v for k, v in values.items()) > MAX_YEARS * 366:
        raise IntervalError(f"the interval must be at most {MAX_YEARS} years")
    return interval


def format_interval(interval: Interval) -> str:
    """The compact form, e.g. Interval(days=30) -> "30d"."""
    parts = [f"{getattr(interval, _NAMES[unit])}{unit}" for unit in _ORDER if getattr(interval, _NAMES[unit])]
    return "".join(parts) or "0m"


def documented(text: str) -> str:
    """An interval as typed, in the documented spelling (a capital Y written y); raises IntervalError."""
    written = re.sub(r"(?<=[0-9\s])Y", "y", str(text or "").strip())
    parse_interval(written)
    return written


def is_valid_interval(text: str) -> bool:
    try:
        parse_interval(text)
    except IntervalError:
        return False
    return True
