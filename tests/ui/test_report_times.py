"""The usage report's `usageTime` (epoch milliseconds) as a support engineer reads it: a UTC time in the grid, the
first and last times in the statistics (not a mean of 1.8e12), the number as sent in the row detail and the export."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.widgets import DataTable

from flextui.ui.screens.reports.export import ExportScreen
from flextui.ui.screens.reports.tools import RowDetailScreen, StatsScreen
from flextui.ui.widgets.grid import DataGrid
from tests.ui.conftest import build_app, settle, until
from tests.ui.test_reports_screen import grid, move_to_column, results


def utc(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M:%SZ")


async def test_usage_time_reads_as_a_utc_time_and_is_kept_as_sent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = build_app(start=["report", "usage"])
    async with app.run_test(size=(120, 40)) as pilot:
        await results(pilot, page="2500")
        g = grid(app)
        model = g.model
        index = model.column("usageTime").index
        sent = [row[index] for row in model.rows]
        assert all(type(v) is int for v in sent), "the server sends epoch milliseconds"
        shown = model.display_cells(0)[[c.name for c in model.visible_columns].index("usageTime")]
        assert shown == utc(model.cell(0, "usageTime")), shown

        # statistics: the first and the last time, no mean or sum of instants
        await move_to_column(pilot, "usageTime")
        await pilot.press("I")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.done == len(app.screen.columns))
        sgrid = app.screen.query_one(DataGrid)
        row = sgrid.model.row_dict(sgrid.cursor_row)
        assert row["column"] == "usageTime"
        assert (row["min"], row["max"], row["mean"], row["sum"]) == (utc(min(sent)), utc(max(sent)), "", "")
        assert row["type"] == "epoch ms (UTC)"
        await pilot.press("escape")
        await settle(pilot)

        # the row detail: the number as sent, its time beside it
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RowDetailScreen))
        table = app.screen.query_one(DataTable)
        cells = [str(c) for c in table.get_row_at(table.cursor_row)]
        assert cells == ["usageTime", str(model.cell(0, "usageTime")), utc(model.cell(0, "usageTime"))], cells
        await pilot.press("escape")
        await settle(pilot)

        # the export: exactly as sent
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        await pilot.press("enter")
        await until(pilot, lambda: "Exported" in app.screen.status.info)
        (path,) = tmp_path.glob("usage-*.csv")
        rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
        assert [r["usageTime"] for r in rows] == [str(model.cell(i, "usageTime")) for i in range(g.row_count)]
