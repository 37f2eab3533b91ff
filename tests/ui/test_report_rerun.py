"""Run again (ctrl+r) on report results keeps the view: the `/` filter, the sort, the columns, the cursor's record.

Before, the run again emptied the grid with its sort and filter while the filter bar still
showed the filter: the count line said "all 478 loaded", the rows included every type, and
an export offered all 478 rows "filtered and sorted as shown". `/⏎` on the same text did not
apply it again (the bar filters as its text changes).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.widgets import Input

from flextui.api.filters import FilterSet
from flextui.api.reports import ReportsService
from flextui.ui.screens.reports.export import ExportScreen
from tests.ui.conftest import build_app, until
from tests.ui.test_reports_screen import grid, move_to_column, results

SIZE = (120, 40)


def shown(app: Any, column: str) -> list[Any]:
    """The grid's rows as shown (filtered, sorted): one column's values."""
    g = grid(app)
    return [g.model.row_dict(i)[column] for i in range(g.row_count)]


def every(app: Any, column: str) -> list[Any]:
    """Every row loaded, whatever the filter: one column's values."""
    g = grid(app)
    index = g.model.column(column).index
    return [row[index] for row in g.model.rows]


def assert_the_view_is_kept(app: Any) -> None:
    """The grid holds REHOST rows only, by fulfillDate descending, status hidden, and says so: count line and bar."""
    screen, g = app.screen, grid(app)
    assert g.model.filter_text == "REHOST" == screen.query_one("#filterbar", Input).value
    assert g.row_count == every(app, "fulfillmentType").count("REHOST") < g.total_count
    assert set(shown(app, "fulfillmentType")) == {"REHOST"}
    dates = shown(app, "fulfillDate")
    assert dates == sorted(dates, reverse=True)
    assert "status" not in [c.name for c in g.columns]
    text = screen.count_text()
    assert f"showing {g.row_count:,} (filter)" in text and "by fulfillDate ▼" in text and "1 column hidden" in text, text


async def export_offers(pilot: Any) -> ExportScreen:
    """ctrl+s: the export dialog, as it opens (closed again with escape by the caller)."""
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(pilot.app.screen, ExportScreen))
    dialog = pilot.app.screen
    assert isinstance(dialog, ExportScreen)
    return dialog


async def test_run_again_keeps_the_filter_sort_columns_and_cursor_while_and_after_the_rows_come(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    held = asyncio.Event()
    hold = {"on": False}
    fetch_page = ReportsService.fetch_page

    async def holding(self: ReportsService, group: str, filters: FilterSet, page: int = 1, **kwargs: Any) -> Any:
        if hold["on"] and page >= 3:  # the run again stops after two pages, until the test has looked
            await held.wait()
        return await fetch_page(self, group, filters, page, **kwargs)

    monkeypatch.setattr(ReportsService, "fetch_page", holding)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await results(pilot, page="100")  # pages of 100: a run that streams in
        g = grid(app)
        assert screen.state == "done" and screen.pages > 3
        await pilot.press("slash", *"REHOST", "enter")
        await until(pilot, lambda: g.model.filter_text == "REHOST")
        await move_to_column(pilot, "status")
        await pilot.press("minus")
        await move_to_column(pilot, "fulfillDate")
        await pilot.press("right_curly_bracket")
        g.focus()
        await pilot.press("home", "down", "down", "down")
        await until(pilot, lambda: g.cursor_row == 3)
        assert_the_view_is_kept(app)
        before = shown(app, "fulfillmentID")
        record = g.current_row()["fulfillmentID"]  # type: ignore[index]

        hold["on"] = True
        runs = screen._load_id
        await pilot.press("ctrl+r")
        await until(pilot, lambda: screen._load_id == runs + 1 and screen.pages == 2)
        assert screen.state == "loading" and g.total_count == 200
        assert_the_view_is_kept(app)  # while the rows come in, too
        dialog = await export_offers(pilot)
        assert (dialog.rows, dialog.columns) == (g.row_count, len(g.columns))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)

        held.set()
        await until(pilot, lambda: screen.state != "loading")
        assert screen.state == "done" and g.total_count == screen.total
        assert_the_view_is_kept(app)
        assert shown(app, "fulfillmentID") == before
        assert g.current_row()["fulfillmentID"] == record and g.cursor_row == 3, "the cursor is on its record again"
        assert screen.count_text().endswith("row 4")
        dialog = await export_offers(pilot)
        assert (dialog.rows, dialog.columns) == (g.row_count, len(g.model.columns) - 1)


async def test_enter_in_the_filter_bar_applies_the_same_text_again() -> None:
    """The bar filters as its text changes; enter on unchanged text applies it too, so a user can always force it."""
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot)
        g = grid(app)
        await pilot.press("slash", *"REHOST", "enter")
        await until(pilot, lambda: g.model.filter_text == "REHOST")
        filtered = g.row_count
        g.set_filter("")  # the grid's filter set apart from the bar's (as a run again did)
        assert g.row_count == g.total_count > filtered
        await pilot.press("slash", "enter")
        await until(pilot, lambda: g.model.filter_text == "REHOST")
        assert g.row_count == filtered and set(shown(app, "fulfillmentType")) == {"REHOST"}
