"""Reading (and, for the simulator, writing) the timestamp forms FlexNet services use.

The services disagree on how to write a time (notes §2): the registry's
project list and download log use Java `Date.toString()` ("Fri Mar 11
09:50:06 UTC 2022"), its project detail Java's MEDIUM date-time ("Aug 4, 2021,
7:00:00 AM", which newer JDKs write with a narrow no-break space before AM),
charts and artifacts ISO 8601, and the token service epoch milliseconds.
`parse_timestamp` accepts all of them and always returns an aware UTC
datetime, so models and screens never care which form a field arrived in.

Forms without a zone (MEDIUM, naive ISO) are taken as UTC: the samples in the
vendor docs are UTC, and guessing the viewer's local zone would make the same
record show different times on different machines.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

# Zone abbreviations Java's Date.toString() can print (the JVM's default zone).
# Ambiguous ones (IST, CST) take their most common meaning in FlexNet deployments.
ZONE_OFFSETS: dict[str, float] = {
    "UTC": 0,
    "GMT": 0,
    "Z": 0,
    "UT": 0,
    "WET": 0,
    "WEST": 1,
    "BST": 1,
    "CET": 1,
    "CEST": 2,
    "MET": 1,
    "MEST": 2,
    "EET": 2,
    "EEST": 3,
    "MSK": 3,
    "IST": 5.5,
    "SGT": 8,
    "HKT": 8,
    "CST": -6,
    "CDT": -5,
    "JST": 9,
    "KST": 9,
    "AEST": 10,
    "AEDT": 11,
    "ACST": 9.5,
    "AWST": 8,
    "NZST": 12,
    "NZDT": 13,
    "EST": -5,
    "EDT": -4,
    "MST": -7,
    "MDT": -6,
    "PST": -8,
    "PDT": -7,
    "AKST": -9,
    "AKDT": -8,
    "HST": -10,
    "BRT": -3,
    "ART": -3,
}

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_NUMBER = {m.lower(): i + 1 for i, m in enumerate(MONTHS)}

# "Fri Mar 11 09:50:06 UTC 2022" (zone may also be "GMT+01:00" or "+0100")
_JAVA_TOSTRING = re.compile(
    r"^(?:[A-Za-z]{3},?\s+)?(?P<mon>[A-Za-z]{3})\s+(?P<day>\d{1,2})\s+(?P<h>\d{1,2}):(?P<m>\d{2}):(?P<s>\d{2})"
    r"\s+(?P<zone>[A-Za-z]{1,5}(?:[+-]\d{1,2}(?::?\d{2})?)?|[+-]\d{2}:?\d{2})\s+(?P<year>\d{4})$"
)
# "Aug 4, 2021, 7:00:00 AM" (JDK 9+), "Aug 4, 2021 7:00:00 AM" (JDK 8), seconds optional.
_JAVA_MEDIUM = re.compile(
    r"^(?P<mon>[A-Za-z]{3})[a-z]*\.?\s+(?P<day>\d{1,2}),\s*(?P<year>\d{4}),?\s+(?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2}))?"
    r"\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?$"
)
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")

# Numbers at or above this are milliseconds (1e11 s is the year 5138).
_MS_THRESHOLD = 100_000_000_000


class TimestampError(ValueError):
    """A value that is none of the known timestamp forms."""


def _zone(text: str) -> timezone:
    upper = text.upper()
    if upper in ZONE_OFFSETS:
        return timezone(timedelta(hours=ZONE_OFFSETS[upper]))
    match = re.match(r"^(?:(?:GMT|UTC))?([+-])(\d{1,2}):?(\d{2})?$", upper)
    if match:
        sign = -1 if match.group(1) == "-" else 1
        return timezone(sign * timedelta(hours=int(match.group(2)), minutes=int(match.group(3) or 0)))
    raise TimestampError(f"unknown time zone {text!r}")


def _from_number(value: float) -> datetime:
    seconds = value / 1000 if abs(value) >= _MS_THRESHOLD else value
    return datetime.fromtimestamp(seconds, tz=UTC)


def parse_timestamp(value: Any) -> datetime | None:
    """An aware UTC datetime from any documented form; None for null or empty.

    Accepts epoch milliseconds (or seconds, when small) as numbers or digit
    strings, Java `Date.toString()`, Java MEDIUM ("Aug 4, 2021, 7:00:00 AM"),
    ISO 8601 (with or without zone, fraction or time), and datetime/date
    objects. Raises `TimestampError` (a ValueError) for anything else.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise TimestampError(f"not a timestamp: {value!r}")
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if isinstance(value, (int, float)):
        return _from_number(float(value))
    if not isinstance(value, str):
        raise TimestampError(f"not a timestamp: {value!r}")
    text = " ".join(value.replace("\u202f", " ").replace("\u00a0", " ").split())
    if not text:
        return None
    if _NUMBER.match(text):
        return _from_number(float(text))
    match = _JAVA_TOSTRING.match(text)
    if match:
        mon = _MONTH_NUMBER.get(match["mon"].lower())
        if mon is None:
            raise TimestampError(f"unknown month in {value!r}")
        local = datetime(
            int(match["year"]), mon, int(match["day"]), int(match["h"]), int(match["m"]), int(match["s"]), tzinfo=_zone(match["zone"])
        )
        return local.astimezone(UTC)
    match = _JAVA_MEDIUM.match(text)
    if match:
        mon = _MONTH_NUMBER.get(match["mon"][:3].lower())
        if mon is None:
            raise TimestampError(f"unknown month in {value!r}")
        hour = int(match["h"])
        ampm = (match["ampm"] or "").replace(".", "").upper()
        if ampm:
            if not 1 <= hour <= 12:
                raise TimestampError(f"hour {hour} with {ampm} in {value!r}")
            hour = hour % 12 + (12 if ampm == "PM" else 0)
        return datetime(int(match["year"]), mon, int(match["day"]), hour, int(match["m"]), int(match["s"] or 0), tzinfo=UTC)
    iso = text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text
    try:
        parsed = datetime.fromisoformat(iso)
    except ValueError:
        raise TimestampError(f"not a known timestamp form: {value!r}") from None
    return parse_timestamp(parsed)


def lenient_timestamp(value: Any) -> datetime | None:
    """`parse_timestamp`, but None for an unreadable value (one bad field must not lose a page)."""
    try:
        return parse_timestamp(value)
    except (TimestampError, ValueError, OverflowError, OSError):
        return None


# "2025-01-01", "2025/01/01" (the attributes' yyyy/MM/dd), or the day of an ISO date-time as written.
_DAY_FIRST = re.compile(r"^(?P<y>\d{4})(?P<sep>[-/])(?P<m>\d{2})(?P=sep)(?P<d>\d{2})(?P<rest>[T ].*)?$", re.ASCII)


def parse_day(value: Any) -> date | None:
    """The calendar day a date field holds, in any form a service writes one; None for null or empty.

    The beta APIs document their dates as YYYY-MM-DD, and also use ISO 8601 and epoch milliseconds (notes §5, §6): a
    Spring service writes a `Date` as `2025-01-01T00:00:00.000+00:00` (Jackson's default) or as epoch milliseconds.
    A date-time written with its offset is the day as written (the server's own calendar day, not the day in UTC);
    epoch milliseconds, Java's forms and other numbers are the day in UTC (`parse_timestamp`). Raises
    `TimestampError` (a ValueError) for anything else.
    """
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        match = _DAY_FIRST.match(text)
        if match:
            if match["rest"] and (match["sep"] != "-" or parse_timestamp(text) is None):
                raise TimestampError(f"not a known date form: {value!r}")
            try:
                return date(int(match["y"]), int(match["m"]), int(match["d"]))
            except ValueError:
                raise TimestampError(f"not a calendar date: {value!r}") from None
    moment = parse_timestamp(value)
    return moment.date() if moment is not None else None


def lenient_day(value: Any) -> date | None:
    """`parse_day`, but None for an unreadable value (one bad field must not lose a record)."""
    try:
        return parse_day(value)
    except (TimestampError, ValueError, OverflowError, OSError):
        return None


# -- writing (the simulator speaks these forms) -------------------------------------


def _utc(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def java_date_string(ms: int) -> str:
    """Java `Date.toString()` in a UTC JVM: "Fri Mar 11 09:50:06 UTC 2022"."""
    d = _utc(ms)
    return f"{DAYS[d.weekday()]} {MONTHS[d.month - 1]} {d.day:02d} {d:%H:%M:%S} UTC {d.year}"


def java_medium_string(ms: int) -> str:
    """Java's MEDIUM date-time (en_US, UTC): "Aug 4, 2021, 7:00:00 AM"."""
    d = _utc(ms)
    hour = d.hour % 12 or 12
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}, {hour}:{d:%M:%S} {'AM' if d.hour < 12 else 'PM'}"


def iso_string(ms: int) -> str:
    """ISO 8601 in UTC with a Z, to the second: "2021-08-05T11:51:04Z"."""
    return _utc(ms).strftime("%Y-%m-%dT%H:%M:%SZ")
