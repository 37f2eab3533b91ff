"""The token interval grammar ("1y2M3d4h5m"): parsing, formatting and calendar arithmetic."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from flextui.api.intervals import Interval, IntervalError, format_interval, is_valid_interval, parse_interval

UTC = UTC


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1y2M3d4h5m", Interval(years=1, months=2, days=3, hours=4, minutes=5)),
        ("3y 4M 3d", Interval(years=3, months=4, days=3)),
        ("3y 4M 3d 9h 6m", Interval(years=3, months=4, days=3, hours=9, minutes=6)),
        ("  30d  ", Interval(days=30)),
        ("10m", Interval(minutes=10)),
        ("10M", Interval(months=10)),
        ("1d0h", Interval(days=1)),
        ("0d5m", Interval(minutes=5)),
        ("010d", Interval(days=10)),
        ("1000y", Interval(years=1000)),
    ],
)
def test_parse_good_forms(text: str, expected: Interval) -> None:
    assert parse_interval(text) == expected
    assert is_valid_interval(text)


def test_unit_letters_are_case_sensitive() -> None:
    assert parse_interval("10m") != parse_interval("10M")
    assert parse_interval("10m").minutes == 10 and parse_interval("10m").months == 0
    assert parse_interval("10M").months == 10 and parse_interval("10M").minutes == 0


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "required"),
        ("   ", "required"),
        ("5", "cannot read"),
        ("d", "cannot read"),
        ("3Y", "cannot read"),
        ("3D", "cannot read"),
        ("1w", "cannot read"),
        ("1.5d", "cannot read"),
        ("-1d", "cannot read"),
        ("1d1d", "twice"),
        ("1m1d", "largest to smallest"),
        ("1d1M", "largest to smallest"),
        ("0d", "at least 1 minute"),
        ("0y0M0d0h0m", "at least 1 minute"),
        ("1d x", "cannot read"),
        ("\u0663d", "cannot read"),  # Arabic-Indic digit three: not an ASCII number
        ("1001y", "at most"),
        ("99999y", "at most"),
        ("999999999d", "at most"),
        pytest.param("9" * 5000 + "d", "at most", id="5000-digits"),
    ],
)
def test_parse_bad_forms(text: str, why: str) -> None:
    with pytest.raises(IntervalError, match=why):
        parse_interval(text)
    assert not is_valid_interval(text)


def test_none_is_rejected_as_interval_error() -> None:
    with pytest.raises(IntervalError):
        parse_interval(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["1y2M3d4h5m", "30d", "10m", "10M", "2y", "12h", "1M1m"])
def test_format_round_trip(text: str) -> None:
    interval = parse_interval(text)
    assert format_interval(interval) == text
    assert str(interval) == text
    assert parse_interval(format_interval(interval)) == interval


def test_format_drops_spaces_and_zero_parts() -> None:
    assert format_interval(parse_interval("3y 4M 3d")) == "3y4M3d"
    assert format_interval(parse_interval("0y1d0m")) == "1d"
    assert format_interval(Interval()) == "0m"


@pytest.mark.parametrize(
    ("start", "text", "expected"),
    [
        (datetime(2026, 1, 31, 12, 0, tzinfo=UTC), "1M", datetime(2026, 2, 28, 12, 0, tzinfo=UTC)),
        (datetime(2028, 1, 31, 12, 0, tzinfo=UTC), "1M", datetime(2028, 2, 29, 12, 0, tzinfo=UTC)),  # leap year
        (datetime(2026, 3, 31, tzinfo=UTC), "1M", datetime(2026, 4, 30, tzinfo=UTC)),
        (datetime(2028, 2, 29, tzinfo=UTC), "1y", datetime(2029, 2, 28, tzinfo=UTC)),
        (datetime(2026, 11, 15, tzinfo=UTC), "2M", datetime(2027, 1, 15, tzinfo=UTC)),  # over the year end
        (datetime(2026, 12, 31, tzinfo=UTC), "1y2M", datetime(2028, 2, 29, tzinfo=UTC)),
        (datetime(2026, 1, 31, tzinfo=UTC), "1M1d", datetime(2026, 3, 1, tzinfo=UTC)),  # months first, then days
        (datetime(2026, 1, 1, 23, 50, tzinfo=UTC), "10m", datetime(2026, 1, 2, 0, 0, tzinfo=UTC)),
        (datetime(2026, 1, 1, tzinfo=UTC), "1d4h5m", datetime(2026, 1, 2, 4, 5, tzinfo=UTC)),
    ],
)
def test_calendar_math(start: datetime, text: str, expected: datetime) -> None:
    assert parse_interval(text).after(start) == expected


def test_after_ms_matches_after_in_utc() -> None:
    start = datetime(2026, 1, 31, 10, 0, tzinfo=UTC)
    start_ms = int(start.timestamp() * 1000)
    got = parse_interval("1M").after_ms(start_ms)
    assert got == int(datetime(2026, 2, 28, 10, 0, tzinfo=UTC).timestamp() * 1000)
    assert parse_interval("30d").after_ms(start_ms) == start_ms + 30 * 86_400_000
    assert parse_interval("10m").after_ms(start_ms) == start_ms + 600_000


@pytest.mark.parametrize("start_ms", [1_793_613_600_123, 1_078_625_331_860, 1_078_625_300_001, 1_092_748_005_452, -1_500])
def test_after_ms_is_exact_to_the_millisecond(start_ms: int) -> None:
    # Floating point seconds lose a millisecond now and then; the result must keep them all.
    assert parse_interval("1d").after_ms(start_ms) == start_ms + 86_400_000
    assert parse_interval("1h").after_ms(start_ms) == start_ms + 3_600_000


def test_after_ms_many_values_exact() -> None:
    day = parse_interval("1d")
    wrong = [ms for ms in range(1_078_625_300_000, 1_078_625_302_000) if day.after_ms(ms) != ms + 86_400_000]
    assert wrong == []


def test_after_beyond_the_calendar_is_an_interval_error() -> None:
    with pytest.raises(IntervalError):
        parse_interval("1000y").after(datetime(9500, 1, 1, tzinfo=UTC))


def test_after_keeps_timezone_and_time_of_day() -> None:
    tz = timezone(timedelta(hours=2))
    start = datetime(2026, 5, 31, 8, 30, tzinfo=tz)
    assert parse_interval("1M").after(start) == datetime(2026, 6, 30, 8, 30, tzinfo=tz)
