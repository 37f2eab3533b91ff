"""Epoch-millisecond columns (the usage report's `usageTime`): shown as UTC times, kept as the numbers sent.

A support engineer read `1793221152496` in the grid and `1.795e+12` as the
statistics' mean. A column is read as times on the data model's word first
(a Date/DateTime type, the report's `dateField`, a description saying epoch
milliseconds) and, failing that, on its name (`…Time`, `…Date`, `…Millis`,
`…Timestamp`) with every first value a whole number of milliseconds between
2000 and 2100; sort, filter and statistics stay on the numbers, exports and
copies keep them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from flextui.api.filters import ReportType
from flextui.render.reports import epoch_hint, grid_columns
from flextui.render.table import Column, GridModel, format_value
from flextui.sim.reports import REPORTS, documented_filters

T0 = 1_793_314_752_496  # 2026-10-29 22:59:12.496Z
DAY = 86_400_000


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() * 1000)


def usage_type(documented: bool = False) -> ReportType:
    """The usage report's model as the simulator answers report-types/usage (or as the vendor documents it)."""
    report = REPORTS["usage"]
    if documented:
        return ReportType.from_json({"name": "usage", "filters": documented_filters(report)})
    return ReportType.from_json(report.describe())


def model_of(values: list[Any], hint: str, ctype: str = "int", name: str = "usageTime") -> GridModel:
    return GridModel([Column("id", "str"), Column(name, ctype, epoch_hint=hint)], [(f"r{i}", v) for i, v in enumerate(values)])  # type: ignore[arg-type]


def test_the_data_model_says_first_and_the_name_only_failing_it() -> None:
    usage = usage_type()
    assert usage.date_field == "usageTime" and usage.column("usageTime").type == "integer"  # type: ignore[union-attr]
    assert epoch_hint("usageTime", usage) == "stated", "the report's date column"
    assert epoch_hint("usageDate", usage) == "stated", "a Date (its values, text, will keep it text)"
    assert epoch_hint("meterQuantity", usage) == "" and epoch_hint("usageId", usage) == ""
    documented = usage_type(documented=True)  # filters only, with Java types: usageTime is an Integer
    assert not documented.columns and epoch_hint("usageTime", documented) == "named"
    assert epoch_hint("accountId", documented) == ""
    said = ReportType.from_json({"name": "x", "fields": [{"name": "seen", "type": "integer", "description": "epoch milliseconds"}]})
    assert epoch_hint("seen", said) == "stated"
    dated = ReportType.from_json({"name": "x", "fields": [{"name": "when", "dataType": "DateTime"}]})
    assert epoch_hint("when", dated) == "stated"
    text = ReportType.from_json({"name": "x", "fields": [{"name": "lastSyncTime", "type": "string"}]})
    assert epoch_hint("lastSyncTime", text) == "", "the model calls it text: never a number of milliseconds"
    for name in ("createdMillis", "lastLoginTimestamp", "event_time", "time", "expiryDate"):
        assert epoch_hint(name, None) == "named", name
    for name in ("runtime", "uptimeSeconds", "timeout", "dated", "quantity"):
        assert epoch_hint(name, None) == "", name
    assert [c.epoch_hint for c in grid_columns(["usageId", "usageTime"], usage)] == ["", "stated"]


def test_an_epoch_ms_column_shows_times_and_keeps_its_numbers() -> None:
    values = [T0 + i * 3_600_000 for i in range(48)] + [None]
    m = model_of(values, "named")
    col = m.column("usageTime")
    assert col.type == "epochms" and col.epoch_hint == ""
    assert m.display_cells(0) == ["r0", "2026-10-29 22:59:12Z"]
    assert m.display_cells(48) == ["r48", ""]
    assert m.cell(0, "usageTime") == T0 and next(m.iter_view_dicts())["usageTime"] == T0, "exports take the number sent"
    m.sort_by("usageTime", descending=True)
    assert [m.cell(i, "usageTime") for i in range(3)] == [values[47], values[46], values[45]] and m.cell(48, "usageTime") is None
    m.sort_by(None)
    m.set_filter("usageTime>=2026-10-31")  # a day: its midnight, UTC
    assert m.row_count == sum(1 for v in values if v is not None and v >= ms("2026-10-31T00:00:00"))
    m.set_filter("usageTime<2026-10-30T00:00:00+01:00")  # a zone named is taken
    assert m.row_count == sum(1 for v in values if v is not None and v < ms("2026-10-29T23:00:00"))
    m.set_filter(f"usageTime={T0}")  # the number as sent (what F's enter and a copied cell give)
    assert m.row_count == 1
    m.set_filter('usageTime="2026-10-30 01:59:12Z"')  # the time as shown
    assert [m.cell(i, "usageTime") for i in range(m.row_count)] == [T0 + 3 * 3_600_000]
    m.set_filter("usageTime~^2026-10-30")
    assert m.row_count == sum(1 for v in values if v is not None and ms("2026-10-30T00:00:00") <= v < ms("2026-10-31T00:00:00"))
    m.set_filter("30 01:59")  # free text searches what is shown
    assert m.row_count == 1
    m.set_filter("")
    stats = m.column_stats("usageTime")
    assert (stats.min, stats.max, stats.mean, stats.sum, stats.nulls, stats.distinct) == (T0, values[47], None, None, 1, 48)
    assert format_value(stats.min, col.type) == "2026-10-29 22:59:12Z"
    assert [r.value for r in m.frequency("usageTime", limit=2)] == [T0, T0 + 3_600_000]
    assert [d.isoformat() for d, _ in m.per_day_counts("usageTime")] == ["2026-10-29", "2026-10-30", "2026-10-31"]


def test_statistics_of_a_pooled_time_column_are_its_first_and_last() -> None:
    values = [T0, T0, T0 + DAY, T0 + DAY, None]  # few distinct values: the column stays pooled
    stats = model_of(values, "stated").column_stats("usageTime")
    assert (stats.min, stats.max, stats.mean, stats.sum) == (T0, T0 + DAY, None, None)


@pytest.mark.parametrize(
    ("values", "hint", "ctype", "why"),
    [
        ([3_600_000, 7_200_000], "named", "int", "durations in ms: not a time of day (before 2000)"),
        ([T0, 5_000_000_000_000], "named", "int", "one value past 2100"),
        ([T0 // 1000, T0 // 1000 + 60], "stated", "int", "seconds, not milliseconds"),
        ([float(T0), float(T0 + 1)], "named", "float", "not whole numbers"),
        ([True, False], "named", "auto", "booleans"),
        (["2026-10-29", "2026-10-30"], "stated", "str", "a date sent as text stays as sent"),
        ([T0, T0 + 1], "", "int", "no evidence: a number"),
    ],
)
def test_only_plausible_whole_milliseconds_become_times(values: list[Any], hint: str, ctype: str, why: str) -> None:
    m = model_of(values, hint, ctype)
    assert m.column("usageTime").type != "epochms", why
    assert m.display_cells(0)[1] == format_value(values[0]), why


def test_the_first_values_decide_once_and_empty_pages_wait() -> None:
    m = model_of([None, None], "named", "auto")
    assert m.column("usageTime").epoch_hint == "named", "nothing to judge by yet"
    m.append_rows([("r2", T0)])
    assert m.column("usageTime").type == "epochms"
    m.append_rows([("r3", 12)])  # a later stray value is shown as the number it is
    assert m.display_cells(3)[1] == "12"
