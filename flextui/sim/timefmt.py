"""How the simulated services write and read times, each in its own documented form.

The real services disagree (notes §5): tokens answer epoch milliseconds, the
registry Java `Date.toString()` ("Fri Mar 11 09:50:06 UTC 2022"), Java's
MEDIUM date-time ("Aug 4, 2021, 7:00:00 AM") and ISO 8601 with a Z, the beta
APIs ISO 8601 and `YYYY-MM-DD` dates. The simulator formats them itself, as a
JVM in UTC with the en_US locale would, so it never leans on the client's
parser: a client that misreads one of these forms is caught here.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_YMD = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)  # ASCII: other scripts' digits are not dates


def utc(ms: int) -> datetime:
    """Epoch milliseconds as an aware UTC datetime."""
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def iso(ms: int) -> str:
    """ISO 8601 in UTC to the second, with a Z: "2021-08-05T11:51:04Z"."""
    return utc(ms).strftime("%Y-%m-%dT%H:%M:%SZ")


def java_date(ms: int) -> str:
    """`java.util.Date.toString()` on a UTC JVM: "Fri Mar 11 09:50:06 UTC 2022"."""
    d = utc(ms)
    return f"{DAY_NAMES[d.weekday()]} {MONTH_NAMES[d.month - 1]} {d.day:02d} {d:%H:%M:%S} UTC {d.year}"


def java_medium(ms: int) -> str:
    """`DateFormat.MEDIUM` date and time, en_US, UTC: "Aug 4, 2021, 7:00:00 AM"."""
    d = utc(ms)
    hour = d.hour % 12 or 12
    return f"{MONTH_NAMES[d.month - 1]} {d.day}, {d.year}, {hour}:{d:%M:%S} {'AM' if d.hour < 12 else 'PM'}"


def ymd(ms: int) -> str:
    """The UTC day of epoch milliseconds, YYYY-MM-DD."""
    return utc(ms).strftime("%Y-%m-%d")


def parse_ymd(text: str) -> date:
    """A YYYY-MM-DD day that exists in the calendar; ValueError says which of the two it is not."""
    if not isinstance(text, str) or not _YMD.fullmatch(text):
        raise ValueError(f"must be a date YYYY-MM-DD (got {text!r})")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text} is not a calendar date") from None


def day_start_ms(day: date) -> int:
    """Midnight UTC of `day`, in epoch milliseconds."""
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


def parse_moment_ms(text: str) -> int:
    """Epoch ms of a YYYY-MM-DD day (its midnight, UTC) or an ISO 8601 time (no zone = UTC); ValueError otherwise."""
    if _YMD.fullmatch(text):
        return day_start_ms(parse_ymd(text))
    moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)
