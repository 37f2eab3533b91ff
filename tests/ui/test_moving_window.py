"""Paging a moving "past N days" window by offset can hand a record over twice; it is shown once, and said.

The simulator's window is fixed by its frozen clock, so the shift that a new record causes on a live
service is made here: page 2 starts with the last three records of page 1 again.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from flextui.api.reports import PageResult, ReportsService, record_key
from flextui.sim.dialects import speaking
from flextui.ui.screens.reports.export import ExportScreen
from flextui.ui.screens.reports.results import ReportResultsScreen
from flextui.ui.widgets.bars import StatusLine
from tests.ui.conftest import build_app, burst, settle, until


def test_records_are_named_by_their_groups_key() -> None:
    assert record_key("fulfillment", {"fulfillmentID": "FID-1", "x": 1}) == ("FID-1",)
    assert record_key("entitlement", {"entitlementID": "E1", "activationID": "A1"}) == ("E1", "A1"), "a row per line item"
    assert record_key("entitlement", {"entitlementID": "E1"}) is None, "no key, no de-duplication"
    assert record_key("product-feature", {"productName": "p"}) is None


async def run_past_30_days(pilot: Any, page_size: int) -> ReportResultsScreen:
    """From the fulfillment builder: the past 30 days in pages of `page_size`, run until it stops loading."""
    app = pilot.app
    await settle(pilot)
    app.screen.query_one("#rb-past", Input).value = "30"
    app.screen.query_one("#rb-limit", Input).value = str(page_size)
    await burst(pilot, "ctrl+g")
    await until(pilot, lambda: isinstance(app.screen, ReportResultsScreen) and app.screen.state != "loading")
    screen = app.screen
    assert isinstance(screen, ReportResultsScreen)
    return screen


async def test_a_record_handed_over_twice_is_shown_once_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ReportsService.fetch_page
    first_page: list[dict[str, Any]] = []

    async def shifted(self: ReportsService, group: str, filters: Any, page: int = 1, **kwargs: Any) -> PageResult:
        result = await real(self, group, filters, page, **kwargs)
        if page == 1:
            first_page[:] = result.rows
        elif page == 2:
            result.rows = first_page[-3:] + result.rows[:-3]  # a new record pushed three along
        return result

    monkeypatch.setattr(ReportsService, "fetch_page", shifted)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await run_past_30_days(pilot, 100)
        assert screen.pages > 2
        ids = [screen.grid.model.row_dict(i)["fulfillmentID"] for i in range(screen.grid.row_count)]
        assert len(ids) == len(set(ids)), "every record once"
        assert screen.repeated == 3 and "3 repeated rows dropped" in screen.count_text()


async def test_a_count_that_changes_while_paging_is_said_on_the_count_line() -> None:
    app = build_app(start=["reports", "fulfillment"], dialects=speaking("window-moves"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await run_past_30_days(pilot, 200)
        assert screen.moved is not None
        first, latest = screen.moved
        assert latest < first, "records left the old end of the window"
        assert f"the count changed while paging ({first:,} → {latest:,})" in screen.count_text()
        assert not screen.count_text().startswith("all "), "a moved window never claims every record"
        assert "records may be missing" in screen.query_one(StatusLine).info, "the whole note: on the status line (`!`)"
        screen.grid.set_filter("a")
        line = screen.count_text()
        assert line.index("(filter)") < line.index("row ") < line.index("the count changed"), (
            "what the user set and the cursor's row first: the line is cut at its end"
        )


async def test_a_count_that_changed_while_paging_is_said_alike_everywhere_and_the_export_is_partial(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """walk-d #9: the count line said "186,958 loaded, 186,958 counted now · the count changed while paging" while `!`
    said "Listing cut short: showing 186,958 of at least 186,960" (the first count, which was no longer the count).
    Both measure against the latest count now; and as records may be missing, the export is offered as `-partial`."""
    monkeypatch.chdir(tmp_path)
    app = build_app(start=["reports", "fulfillment"], dialects=speaking("window-moves"))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await run_past_30_days(pilot, 200)
        await settle(pilot)
        assert screen.moved is not None
        first, latest = screen.moved
        assert screen.total == latest and screen.loaded >= latest and screen.state == "done", (screen.loaded, screen.moved)
        assert f"{screen.loaded:,} loaded, {latest:,} counted now" in screen.count_text()
        said = [s.line() for s in app.said]
        assert not [s for s in said if "cut short" in s], "the latest count was reached: nothing says otherwise"
        assert not [s for s in said if f"at least {first:,}" in s], said
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        assert dialog.query_one("#export-path", Input).value == "./fulfillment-20261102-1000-partial.csv"
        assert f"records may be missing: the count changed while paging ({first:,} → {latest:,})" in dialog.note
