"""Pilot tests of the data report area: catalogue, filter builder, streaming results, tools, export."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Label, Select

from flextui.api.filters import FilterSet
from flextui.api.preview import request_preview
from flextui.api.reports import UNCHECKED_NOTE, ReportsService
from flextui.filtersets import FilterSetStore
from flextui.sim.dialects import speaking
from flextui.ui.screens.reports.builder import ConditionsTable, ReportBuilderScreen, SavedSetsScreen
from flextui.ui.screens.reports.catalogue import ReportsScreen
from flextui.ui.screens.reports.export import ExportScreen
from flextui.ui.screens.reports.results import KEEP, Part, ReportResultsScreen, final_state, fit_line, more_to_ask
from flextui.ui.screens.reports.tools import ChartScreen, ColumnChooserScreen, FrequencyScreen, RowDetailScreen, StatsScreen
from flextui.ui.widgets.bars import Hint
from flextui.ui.widgets.chart import BarChart
from flextui.ui.widgets.dialogs import ConfirmScreen
from flextui.ui.widgets.forms import FormScreen
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.table import ResourceTable
from tests.ui.conftest import build_app, settle, until

SIZE = (120, 40)


def report_requests(app: Any, group: str = "fulfillment") -> list[str]:
    """Paths of report data requests sent so far (recorded by the `watch` listener)."""
    return [p for p in app.sent if p.split("?")[0].endswith(f"/report/{group}")]


def watched(**kwargs: Any) -> Any:
    app = build_app(**kwargs)
    app.sent = []  # type: ignore[attr-defined]
    app.ctx.session.listeners.append(lambda event: app.sent.append(event.path) if event.phase == "start" else None)  # type: ignore[attr-defined]
    return app


def hint(app: Any, wid: str) -> Hint:
    return app.screen.query_one(wid, Hint)


def hint_text(app: Any, wid: str) -> str:
    return str(hint(app, wid).render())


async def set_value(pilot: Any, wid: str, value: Any) -> None:
    widget = pilot.app.screen.query_one(wid)
    widget.value = value
    await pilot.pause()


async def run_in_pages_of_100(pilot: Any) -> None:
    """From the builder, once settled: the last 30 days in pages of 100 (many pages), run."""
    await settle(pilot)
    await set_value(pilot, "#rb-past", "30")
    await set_value(pilot, "#rb-limit", "100")
    await pilot.press("ctrl+g")


async def add_condition(pilot: Any, field: str, op: str, value: str) -> None:
    await set_value(pilot, "#rb-field", field)
    await set_value(pilot, "#rb-op", op)
    pilot.app.screen.query_one("#rb-value", Input).focus()
    await set_value(pilot, "#rb-value", value)
    await pilot.press("enter")
    await pilot.pause()


async def wait_loaded(pilot: Any) -> ReportResultsScreen:
    await until(pilot, lambda: isinstance(pilot.app.screen, ReportResultsScreen) and pilot.app.screen.state != "loading")
    await pilot.pause()
    return pilot.app.screen


async def results(
    pilot: Any, *, days: str = "30", page: str = "500", conditions: tuple[tuple[str, str, str], ...] = ()
) -> ReportResultsScreen:
    await settle(pilot)
    assert isinstance(pilot.app.screen, ReportBuilderScreen)
    for cond in conditions:
        await add_condition(pilot, *cond)
    await set_value(pilot, "#rb-past", days)
    await set_value(pilot, "#rb-limit", page)
    await pilot.press("ctrl+g")
    return await wait_loaded(pilot)


def grid(app: Any) -> DataGrid:
    return app.screen.query_one("#rr-grid", DataGrid)


async def expected_rows(app: Any, group: str = "fulfillment", **kwargs: Any) -> list[dict[str, Any]]:
    service = ReportsService(app.ctx.session)
    rtype = await service.report_type(group)
    fs = FilterSet.build(kwargs.pop("conditions", ()), report=rtype, limit_records=2500, **kwargs)
    return await service.fetch_all(group, fs)


async def move_to_column(pilot: Any, name: str) -> None:
    g = grid(pilot.app)
    index = [c.name for c in g.columns].index(name)
    g.move_cursor(column=index)
    await pilot.pause()


# -- catalogue -------------------------------------------------------------------------------


async def test_catalogue_lists_groups_with_models_and_searches_columns() -> None:
    app = build_app(start=["reports"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ReportsScreen)
        table = app.screen.query_one(ResourceTable)
        assert [r["name"] for r in table.visible_rows][:3] == ["account", "user", "entitlement"]
        assert len(table.visible_rows) == 8
        detail = str(app.screen.query_one("#rc-model").render())
        assert "accountID" in detail and "$eq $ne $sw $ew $con $in $nin $gt $gte $lt $lte $btw" in detail
        assert "dated by lastModifiedDate" in str(app.screen.query_one("#rc-about").render())
        app.screen.apply_filter("hostEntityID")
        await pilot.pause()
        assert [r["name"] for r in table.visible_rows] == ["fulfillment"]
        assert "1 of 8 report groups match" in str(app.screen.query_one("#pager").render())
        assert "hostEntityID" in str(app.screen.query_one("#rc-model").render())
        app.screen.apply_filter("")
        await pilot.pause()
        table.move_cursor(row=6)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReportBuilderScreen) and app.screen.group == "fulfillment"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReportsScreen)


async def test_customer_without_data_permission_sees_the_error() -> None:
    app = build_app(start=["reports"], as_user="customer")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ReportsScreen)
        assert "403" in app.screen.status.error or "permission" in app.screen.status.error.lower()
        assert app.screen.check_action("quick_run", ()) is None, "Run is greyed: no report is listed to run"
        await pilot.press("ctrl+g")
        await until(pilot, lambda: any("No report is listed to run" in str(n.message) for n in app._notifications))
        assert isinstance(app.screen, ReportsScreen)


# -- builder ------------------------------------------------------------------------------------


async def test_operators_are_limited_by_the_field_type() -> None:
    app = build_app(start=["reports", "usage"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReportBuilderScreen) and screen.group == "usage"
        op = screen.query_one("#rb-op", Select)

        async def ops_for(field: str) -> list[str]:
            await set_value(pilot, "#rb-field", field)
            return [value for _, value in op._options]

        assert await ops_for("accountId") == ["$eq", "$ne", "$sw", "$ew", "$con", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$btw"]
        assert await ops_for("usageTime") == ["$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$btw"]
        assert await ops_for("used") == ["$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$btw"]
        assert await ops_for("isOverage") == ["$eq", "$ne"]
        assert "isOverage is boolean: true or false" in hint_text(app, "#rb-cond-hint")


async def test_the_builder_offers_btw_and_checks_its_two_bounds_before_anything_is_sent() -> None:
    """`$btw` ("Between (inclusive of both bounds)") and `$nin` were not offered; a `$btw` value is two bounds, lower
    first, in any documented date-time form, checked under the editor as it is typed."""
    app = watched(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        await set_value(pilot, "#rb-field", "fulfillDate")
        offered = [value for _, value in screen.query_one("#rb-op", Select)._options]
        assert {"$btw", "$nin", "$ne", "$gt", "$lte"} <= set(offered) and "$and" not in offered and "$or" not in offered
        await set_value(pilot, "#rb-op", "$btw")
        assert "two values, lower,upper (both bounds included)" in hint_text(app, "#rb-cond-hint")
        assert screen.query_one("#rb-value", Input).placeholder == "FROM,TO"
        cond_hint = hint(app, "#rb-cond-hint")
        for typed, said in (
            ("1734954861548", "needs exactly two values"),
            ("1734954874182,1734954861548", "takes the lower bound first"),
            ("2025-03-31,soon", "epoch milliseconds"),
        ):
            await set_value(pilot, "#rb-value", typed)
            await until(pilot, lambda said=said: said in hint_text(app, "#rb-cond-hint"))
            assert cond_hint.has_class("-error") and screen.query_one("#rb-value", Input).has_class("-invalid")
            await pilot.press("enter")  # not added
            await until(pilot, lambda: screen.conditions == [] and cond_hint.has_class("-error"))
        await set_value(pilot, "#rb-value", "1734954861548,1734954874182")
        await until(pilot, lambda: not cond_hint.has_class("-error"))
        assert "1734954861548 is 2024-12-23 11:54:21.548 UTC" in hint_text(app, "#rb-cond-hint"), "what the number stands for"
        screen.query_one("#rb-value", Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.conditions) == 1)
        await add_condition(pilot, "accountID", "$nin", "A1-0,A1-1")
        await until(pilot, lambda: len(screen.conditions) == 2)
        preview = str(screen.query_one("#rb-preview").render()).replace("\n", "")
        assert '"fulfillDate":{"$btw":[1734954861548,1734954874182]}' in preview
        assert '"accountID":{"$nin":["A1-0","A1-1"]}' in preview
        await set_value(pilot, "#rb-field", "fulfillDate")
        await set_value(pilot, "#rb-op", "$btw")
        await set_value(pilot, "#rb-value", "2025-03-31 08:50:54.783,2025-04-01 08:50:54.783")
        await until(pilot, lambda: not cond_hint.has_class("-error"))
        assert report_requests(app) == [], "all of it checked without a request"


async def test_an_op_list_in_an_unreadable_shape_leaves_the_documented_operators_and_a_warning() -> None:
    from flextui.sim.faults import FaultPlan

    plan = FaultPlan()
    plan.add("/op-list", kind="error", status=200)
    app = watched(start=["reports", "usage"], faults=plan)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        await until(pilot, lambda: any("names no operator" in str(n.message) for n in app._notifications))
        assert screen.rtype is not None and screen.operators.notice
        await set_value(pilot, "#rb-field", "usageTime")
        assert "$btw" in [value for _, value in screen.query_one("#rb-op", Select)._options]
        await pilot.press("ctrl+g")
        await wait_loaded(pilot)
        assert report_requests(app, "usage"), "the report ran"


async def test_a_one_day_range_is_sent_with_a_warning_of_what_each_reading_returns() -> None:
    app = watched(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await set_value(pilot, "#rb-window", "range")
        await set_value(pilot, "#rb-from", "2026-10-30")
        await set_value(pilot, "#rb-to", "2026-10-30")
        global_hint = hint(app, "#rb-global-hint")
        await until(pilot, lambda: "dateFrom and dateTo are both 2026-10-30" in hint_text(app, "#rb-global-hint"))
        assert not global_hint.has_class("-error") and "(the newer page) returns nothing" in hint_text(app, "#rb-global-hint")
        assert "dateFrom=2026-10-30&dateTo=2026-10-30" in str(app.screen.query_one("#rb-preview").render()).replace("\n", "")


async def test_add_edit_and_remove_conditions_with_live_preview() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        await add_condition(pilot, "accountID", "$sw", "10")
        await add_condition(pilot, "productName", "$in", 'Flex Gateway,"Nova, Beacon"')
        assert [str(c) for c in screen.conditions] == ["accountID $sw 10", 'productName $in Flex Gateway,"Nova, Beacon"']
        table = screen.query_one(ConditionsTable)
        assert table.row_count == 2 and table.display
        preview = str(screen.query_one("#rb-preview").render())
        assert '"productName":{"$in":["Flex Gateway","Nova, Beacon"]}' in preview.replace("\n", "")
        # the same field and operator again replaces the value
        await add_condition(pilot, "accountID", "$sw", "1012")
        assert [str(c) for c in screen.conditions][0] == "accountID $sw 1012"
        # edit takes a condition back into the editor
        table.focus()
        table.move_cursor(row=1)
        await pilot.press("e")
        await pilot.pause()
        assert len(screen.conditions) == 1
        assert screen.query_one("#rb-field", Select).value == "productName"
        assert screen.query_one("#rb-op", Select).value == "$in"
        assert screen.query_one("#rb-value", Input).value == 'Flex Gateway,"Nova, Beacon"'
        await set_value(pilot, "#rb-value", "")
        table.focus()
        await pilot.press("delete")
        await pilot.pause()
        assert screen.conditions == [] and not table.display
        assert "query" not in str(screen.query_one("#rb-preview").render())


async def test_invalid_value_is_shown_inline_and_not_added() -> None:
    app = watched(start=["reports", "usage"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        await set_value(pilot, "#rb-field", "usageTime")
        await set_value(pilot, "#rb-op", "$eq")
        await set_value(pilot, "#rb-value", "soon")
        assert hint(app, "#rb-cond-hint").has_class("-error")
        assert "whole number" in hint_text(app, "#rb-cond-hint")
        assert screen.query_one("#rb-value", Input).has_class("-invalid")
        await pilot.press("enter")  # not added
        await pilot.pause()
        assert screen.conditions == []
        assert app.screen is screen
        preview = str(screen.query_one("#rb-preview").render())
        assert "Not sent: usageTime $eq soon: not in the list" in preview and "GET" in preview, (
            "the preview shows what Run sends, without it"
        )
        await set_value(pilot, "#rb-op", "$in")
        await set_value(pilot, "#rb-value", "1794645969047, later")
        assert "whole number" in hint_text(app, "#rb-cond-hint")
        await set_value(pilot, "#rb-value", "1794645969047,1794646878476")
        assert not hint(app, "#rb-cond-hint").has_class("-error")
        assert report_requests(app, "usage") == []


async def test_date_range_over_30_days_is_refused_inline() -> None:
    app = watched(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        await set_value(pilot, "#rb-window", "range")
        assert screen.query_one("#rb-from", Input).value == "2026-10-27"  # last 7 days, today included
        assert screen.query_one("#rb-to", Input).value == "2026-11-03"
        await set_value(pilot, "#rb-from", "2026-09-01")
        await set_value(pilot, "#rb-to", "2026-10-15")
        assert hint(app, "#rb-global-hint").has_class("-error")
        assert "spans 44 days: the limit is 30" in hint_text(app, "#rb-global-hint")
        assert screen.query_one("#rb-to", Input).has_class("-invalid")
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert app.screen is screen and report_requests(app) == []
        await set_value(pilot, "#rb-to", "2026-10-01")
        assert not hint(app, "#rb-global-hint").has_class("-error")
        assert "older than 30 days" in hint_text(app, "#rb-global-hint")  # a warning, not a refusal
        await set_value(pilot, "#rb-window", "past")
        await set_value(pilot, "#rb-past", "31")
        assert "pastDays must be a whole number from 1 to 30" in hint_text(app, "#rb-global-hint")
        await set_value(pilot, "#rb-past", "7")
        await set_value(pilot, "#rb-limit", "3000")
        assert "limitRecords" in hint_text(app, "#rb-global-hint")


async def test_preview_shows_the_get_url_and_post_body() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        await add_condition(pilot, "accountID", "$sw", "1012")
        await set_value(pilot, "#rb-past", "14")
        await set_value(pilot, "#rb-limit", "1000")
        text = str(screen.query_one("#rb-preview").render()).replace("\n", "")
        fs = FilterSet.build(["accountID $sw 1012"], past_days=14, limit_records=1000)
        url, body = request_preview("http://sim.flextui.invalid/data", "/api/v1/report/fulfillment", fs)
        assert url.startswith("http://sim.flextui.invalid/data/api/v1/report/fulfillment?pastDays=14&limitRecords=1000&mode=INTERACTIVE")
        assert "query=%7B%22accountID%22%3A%7B%22%24sw%22%3A%221012%22%7D%7D" in url
        assert url in text.replace(" ", "")
        assert json.loads(body) == {
            "pastDays": 14,
            "limitRecords": 1000,
            "mode": "INTERACTIVE",
            "format": "json",
            "pageNumber": 1,
            "query": {"accountID": {"$sw": "1012"}},
        }
        assert body in text
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert app.clipboard == url


async def test_save_and_load_a_named_filter_set_with_overwrite_confirmation() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        store = FilterSetStore()

        async def save_as(name: str) -> None:
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, FormScreen))
            await set_value(pilot, "#field-name", name)
            await pilot.press("ctrl+s")
            await until(pilot, lambda: not isinstance(app.screen, FormScreen))

        await add_condition(pilot, "accountID", "$sw", "10")
        await set_value(pilot, "#rb-past", "14")
        await save_as("acme fortnight")
        await until(pilot, lambda: bool(store.list("demo", "fulfillment")))
        [saved] = store.list("demo", "fulfillment")
        assert saved.name == "acme fortnight" and saved.past_days == 14 and [str(c) for c in saved.conditions] == ["accountID $sw 10"]
        assert oct(store.path.stat().st_mode & 0o777) == "0o600"
        assert store.list("other-profile", "fulfillment") == []
        assert "acme fortnight" in str(screen.query_one("#rb-title").render())
        # the same name again asks first; cancelling keeps the old set
        await set_value(pilot, "#rb-past", "3")
        await save_as("acme fortnight")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert store.get("demo", "fulfillment", "acme fortnight").past_days == 14  # type: ignore[union-attr]
        await save_as("acme fortnight")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("right", "enter")  # the verb's button (no letter confirms)
        await until(pilot, lambda: store.get("demo", "fulfillment", "acme fortnight").past_days == 3)  # type: ignore[union-attr]
        # clear the builder, then load the set back
        screen.apply_set(FilterSet(past_days=1))
        assert screen.conditions == []
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, SavedSetsScreen))
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen)
        assert [str(c) for c in screen.conditions] == ["accountID $sw 10"]
        assert screen.query_one("#rb-past", Input).value == "3"


# -- results -------------------------------------------------------------------------------------


async def test_rows_stream_in_with_an_honest_count_and_cancel_keeps_them(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = asyncio.Event()
    fetch_page = ReportsService.fetch_page

    async def gated(self: ReportsService, group: str, filters: FilterSet, page: int = 1, **kwargs: Any) -> Any:
        if page > 2:  # pages after the second wait until the test lets them through
            await gate.wait()
        return await fetch_page(self, group, filters, page, **kwargs)

    monkeypatch.setattr(ReportsService, "fetch_page", gated)
    app = watched(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await run_in_pages_of_100(pilot)
        await until(pilot, lambda: isinstance(app.screen, ReportResultsScreen) and grid(app).total_count == 200)
        screen: ReportResultsScreen = app.screen  # type: ignore[assignment]
        assert screen.state == "loading"
        total = screen.total
        assert total is not None and total > 1000
        pages = -(-total // 100)
        assert screen.count_text().startswith(f"200 of {total:,} loaded · page 2 of {pages}")
        await until(pilot, lambda: str(screen.query_one("#rr-count").render()).startswith(f"200 of {total:,} loaded"))
        assert screen.query_one("#rr-progress").display
        await until(pilot, lambda: screen.query_one("#rr-bar").progress == 200)  # (the bar follows on its throttle's timer)
        assert screen.query_one("#rr-bar").total == total
        await pilot.press("down", "down")
        assert grid(app).cursor_row == 2  # browsable while loading
        await pilot.press("x")
        await pilot.pause()
        assert screen.state == "stopped"
        assert grid(app).total_count == 200
        assert screen.count_text().startswith(f"200 of {total:,} loaded · stopped: + loads the rest")
        assert not screen.query_one("#rr-progress").display
        await pilot.press("up")
        assert grid(app).cursor_row == 1  # what is loaded stays browsable
        gate.set()
        await pilot.press("plus")
        await wait_loaded(pilot)
        assert screen.state == "done" and grid(app).total_count == total
        assert screen.count_text().startswith(f"all {total:,} loaded")
        ids = [r[0] for r in grid(app).model.rows]
        assert len(set(ids)) == total  # resumed where it stopped: no page twice, none missing
        assert ids == [r["fulfillmentID"] for r in await expected_rows(app, past_days=30)]


async def test_stopping_while_a_page_is_packed_loses_none_of_its_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """`x` while a page was packed in the lane's thread: the thread went on and counted the page's records as
    seen, the page was never shown, and `+` resumed at it and dropped every record of it as a repeat."""
    import threading

    import flextui.ui.screens.reports.results as results_module

    packing, gate = threading.Event(), threading.Event()
    page_for_grid = results_module._page_for_grid
    calls = 0

    def held(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:  # the second page: the user stops the run while it is packed
            packing.set()
            gate.wait(30)
        return page_for_grid(*args)

    monkeypatch.setattr(results_module, "PACK_IN_THREAD", 1)  # every page is packed in the lane's thread
    monkeypatch.setattr(results_module, "_page_for_grid", held)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await run_in_pages_of_100(pilot)
        await until(pilot, packing.is_set)
        screen = app.screen
        assert isinstance(screen, ReportResultsScreen)
        await pilot.press("x")
        gate.set()
        await until(pilot, lambda: screen.state == "stopped" and grid(app).total_count == 200)  # the page packed meanwhile, shown
        await until(pilot, lambda: any(said.text.startswith("Stopped:") for said in app.said))
        stopped = [said.text for said in app.said if said.text.startswith("Stopped:")]
        assert stopped == ["Stopped: 200 fulfillment records loaded; + loads the rest"], "the count the grid holds, said once"
        await settle(pilot)
        await pilot.press("plus")
        await wait_loaded(pilot)
        ids = [r[0] for r in grid(app).model.rows]
        assert screen.state == "done" and screen._repeats.dropped == 0
        assert ids == [r["fulfillmentID"] for r in await expected_rows(app, past_days=30)], "every record, once"


async def test_the_page_number_keeps_step_with_the_rows_counted_while_a_page_is_packed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count line is drawn whenever its timer fires, also while a page is being made ready for the
    grid: the rows and the page they came in are counted together ("22,500 loaded · page 8" was off by one)."""
    packing, gate = asyncio.Event(), asyncio.Event()
    packed = ReportResultsScreen._packed
    calls = 0

    async def held(self: ReportResultsScreen, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:  # the second page waits, half counted, until the test has read the count line
            packing.set()
            await gate.wait()
        return await packed(self, *args, **kwargs)

    monkeypatch.setattr(ReportResultsScreen, "_packed", held)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await run_in_pages_of_100(pilot)
        await until(pilot, packing.is_set)
        screen: ReportResultsScreen = app.screen  # type: ignore[assignment]
        pages = -(-(screen.total or 0) // 100)
        assert screen.count_text().startswith(f"100 of {screen.total:,} loaded · page 1 of {pages}"), screen.count_text()
        gate.set()
        await wait_loaded(pilot)
        assert screen.count_text().startswith(f"all {screen.total:,} loaded")


async def test_sort_filter_and_column_tools_work_on_the_view() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await results(pilot)
        g = grid(app)
        total = g.total_count
        await move_to_column(pilot, "quantity")
        await pilot.press("right_curly_bracket")
        await pilot.pause()
        quantities = [g.model.row_dict(i)["quantity"] for i in range(g.row_count)]
        assert quantities == sorted(quantities, reverse=True)
        assert "by quantity ▼" in screen.count_text()
        fitted = screen.count_text(len("all 1,234 loaded · ▼quantity"))  # narrow: the sorted column is often out of view
        assert "▼quantity" in fitted and "row" not in fitted, f"the sort outlasts the row number: {fitted}"
        await pilot.press("slash")
        app.screen.query_one("#filterbar", Input).value = "status=ACTIV"
        await pilot.press("E", "enter")  # typed into the / bar
        await pilot.pause()
        assert 0 < g.row_count < total
        assert all(g.model.row_dict(i)["status"] == "ACTIVE" for i in range(g.row_count))
        assert f"showing {g.row_count:,} (filter)" in screen.count_text()
        # hide the cursor column with -, move one with >
        await move_to_column(pilot, "fulfillmentType")
        await pilot.press("minus")
        await pilot.pause()
        assert "fulfillmentType" not in [c.name for c in g.columns]
        assert "1 column hidden" in screen.count_text()
        await move_to_column(pilot, "fulfillDate")
        await pilot.press("shift+right")
        await pilot.pause()
        assert [c.name for c in g.columns][1:3] == ["fulfillmentSource", "fulfillDate"]
        assert g.current_column().name == "fulfillDate"  # type: ignore[union-attr]
        # the column chooser shows it again and hides another
        await pilot.press("C")
        await pilot.pause()
        chooser = app.screen
        assert isinstance(chooser, ColumnChooserScreen)
        listing = chooser.query_one("SelectionList")
        names = [c.name for c in chooser.ordered()]
        listing.highlighted = names.index("fulfillmentType")
        await pilot.press("space")
        listing.highlighted = names.index("userName")
        await pilot.press("space")
        await pilot.press("shift+up")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        shown = [c.name for c in g.columns]
        assert "fulfillmentType" in shown and "userName" not in shown


@pytest.mark.parametrize(
    ("keys", "all_key", "shown_as"), [({}, "asterisk", "*"), ({"report_columns.all": "A"}, "A", "A")], ids=["*", "remapped"]
)
async def test_column_chooser_names_its_own_keys_and_marks_hidden_columns_without_colour(
    keys: dict[str, str], all_key: str, shown_as: str
) -> None:
    """The chooser's hint said `a: show all` (`a` does nothing; the key is `*`, or wherever [keys] moved it), and a
    shown and a hidden column both drew `▐X▌`, told apart only by colour (not in a colourless terminal or a capture)."""
    app = build_app(start=["reports", "fulfillment"], keys=keys)
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot)
        g = grid(app)
        total = len(g.model.columns)
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, ColumnChooserScreen))
        chooser = app.screen
        notes = " ".join(str(label.render()) for label in chooser.query(".tool-note"))
        assert f"{shown_as}: show all" in notes and "a: show all" not in notes, notes
        assert "space: show/hide" in notes and "shift+↑/↓: move" in notes, notes
        listing = chooser.query_one("SelectionList")
        await pilot.press("space", "down", "space")
        await until(pilot, lambda: len(g.model.visible_columns) == total - 2)

        def box(row: int) -> str:
            return listing.render_line(row).text[:3]

        assert box(0) == box(1) != box(2), [box(0), box(1), box(2)]
        assert box(0).strip("▐▌") == " " and box(2) == "▐X▌"
        await pilot.press(all_key)
        await until(pilot, lambda: len(g.model.visible_columns) == total)
        assert f"{total} of {total} shown" in str(chooser.query_one("#cols-facts").render())
        assert box(0) == box(2) == "▐X▌"


async def test_frequency_table_counts_the_view_and_enter_filters_to_a_value() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot)
        g = grid(app)
        app.screen.apply_filter("status=ACTIVE")
        await move_to_column(pilot, "productName")
        await pilot.press("F")
        await pilot.pause()
        freq = app.screen
        assert isinstance(freq, FrequencyScreen)
        view = [g.model.row_dict(i)["productName"] for i in range(g.row_count)]
        counts = Counter(view).most_common()
        assert [(r.value, r.count) for r in freq.rows][:3] == counts[:3]
        assert abs(sum(r.percent for r in freq.rows) - 100) < 0.01
        assert f"{len(view):,} rows in view" in str(freq.query_one("#freq-facts").render())
        fgrid = freq.query_one(DataGrid)
        assert fgrid.model.row_dict(0)["count"] == counts[0][1]
        fgrid.move_cursor(row=1)
        await pilot.press("enter")
        await pilot.pause()
        value = counts[1][0]
        assert app.screen.query_one("#filterbar", Input).value == f'status=ACTIVE productName="{value}"'
        assert g.row_count == counts[1][1]
        assert all(g.model.row_dict(i)["productName"] == value for i in range(g.row_count))


async def test_column_statistics() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot)
        g = grid(app)
        await move_to_column(pilot, "quantity")
        await pilot.press("I")
        await settle(pilot)
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        sgrid = stats.query_one(DataGrid)
        assert sgrid.row_count == len(g.columns)
        row = sgrid.model.row_dict(sgrid.cursor_row)
        assert row["column"] == "quantity"
        values = [g.model.row_dict(i)["quantity"] for i in range(g.row_count)]
        assert row["rows"] == len(values) and row["nulls"] == 0 and row["distinct"] == len(set(values))
        assert row["min"] == str(min(values)) and row["max"] == str(max(values))
        assert float(row["mean"]) == pytest.approx(sum(values) / len(values), abs=1e-3)
        expiry = next(sgrid.model.row_dict(i) for i in range(sgrid.row_count) if sgrid.model.row_dict(i)["column"] == "expirationDate")
        assert expiry["nulls"] > 0 and expiry["type"] == "date"


async def test_records_per_day_chart() -> None:
    app = build_app(start=["reports", "usage"])
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot, days="10")
        g = grid(app)
        await pilot.press("g")
        await pilot.pause()
        chart_screen = app.screen
        assert isinstance(chart_screen, ChartScreen)
        assert chart_screen.column == "usageTime"  # the report's date column, epoch ms
        chart = chart_screen.query_one(BarChart)
        per_day = Counter(g.model.row_dict(i)["usageDate"] for i in range(g.row_count))
        assert sum(v for _, v in chart.series) == g.row_count
        assert [v for _, v in chart.series] == [per_day[d] for d in sorted(per_day)]
        assert [label for label, _ in chart.series][0] == sorted(per_day)[0][5:]
        await pilot.press("right")
        assert chart_screen.column == "usageDate"
        assert [v for _, v in chart.series] == [per_day[d] for d in sorted(per_day)]


async def test_row_detail_and_copy_cell_and_row() -> None:
    app = build_app(start=["reports", "usage"])
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot, days="3")
        g = grid(app)
        await move_to_column(pilot, "accountName")
        await pilot.press("c")
        await pilot.pause()
        record = g.current_row()
        assert record is not None
        assert app.clipboard == record["accountName"]
        await pilot.press("Y")
        await pilot.pause()
        assert json.loads(app.clipboard) == {c.name: record[c.name] for c in g.columns}
        await pilot.press("enter")
        await pilot.pause()
        detail = app.screen
        assert isinstance(detail, RowDetailScreen)
        table = detail.query_one("DataTable")
        assert table.row_count == len(g.model.columns)
        assert detail.current()[0] == "accountName"  # the cursor column is picked
        texts = [str(table.get_row_at(i)[2]) for i in range(table.row_count)]
        assert texts[1].endswith("Z")  # usageTime read out as a date
        note = str(detail.query_one(".tool-note", Label).render())
        assert "Y: copy the record as JSON" in note and "y:" not in note, note  # the hint said y, which does nothing
        await pilot.press("Y")
        await pilot.pause()
        assert json.loads(app.clipboard) == record


async def test_export_the_view_in_each_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = build_app(start=["reports", "fulfillment"], read_only=True)  # exporting is a local write: allowed
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot)
        g = grid(app)
        await move_to_column(pilot, "accountName")
        await pilot.press("left_curly_bracket")
        app.screen.apply_filter("status=ACTIVE")
        await move_to_column(pilot, "userName")
        await pilot.press("minus")
        await pilot.pause()
        expected = list(g.model.iter_view_dicts())
        assert [r["accountName"] for r in expected] == sorted((r["accountName"] for r in expected), key=str.casefold)
        columns = [c.name for c in g.columns]
        texts = {}
        last = "csv"
        for fmt in ("csv", "json", "jsonl"):
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, ExportScreen))
            dialog = app.screen
            assert dialog.query_one("#export-path", Input).value == f"./fulfillment-20261102-1000.{last}", "the format last used"
            last = fmt
            await set_value(pilot, "#export-format", fmt)
            assert dialog.query_one("#export-path", Input).value == f"./fulfillment-20261102-1000.{fmt}"
            await pilot.press("enter")
            path = tmp_path / f"fulfillment-20261102-1000.{fmt}"
            await until(pilot, lambda fmt=fmt: "Exported" in app.screen.status.info and f".{fmt} " in app.screen.status.info)
            assert f"Exported {len(expected):,} rows to ./fulfillment-20261102-1000.{fmt} ({fmt.upper()})" == app.screen.status.info
            texts[fmt] = text = path.read_text(encoding="utf-8")
            assert "userName" not in text
        rows = list(csv.DictReader(io.StringIO(texts["csv"], newline="")))
        assert list(rows[0]) == columns
        assert [r["fulfillmentID"] for r in rows] == [r["fulfillmentID"] for r in expected]
        assert rows[0]["quantity"] == str(expected[0]["quantity"])
        assert json.loads(texts["json"]) == expected
        assert [json.loads(line) for line in texts["jsonl"].splitlines()] == expected
        # exporting again to the same file asks before replacing it
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")
        await pilot.pause()
        assert (tmp_path / "fulfillment-20261102-1000.jsonl").read_text(encoding="utf-8") == texts["jsonl"]
        assert sorted(p.name for p in tmp_path.iterdir()) == [f"fulfillment-20261102-1000.{f}" for f in ("csv", "json", "jsonl")]


async def test_export_path_is_checked_before_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = build_app(start=["reports", "account"])
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        dialog = app.screen
        await set_value(pilot, "#export-path", str(tmp_path / "missing" / "x.csv"))
        assert "does not exist" in str(dialog.query_one("#export-hint").render())
        await set_value(pilot, "#export-path", "x.json")
        assert "format is csv" in str(dialog.query_one("#export-hint").render())
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and list(tmp_path.iterdir()) == []


async def test_the_export_dialog_proposes_the_folder_and_format_last_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """walk-d #3: after exporting to a folder of one's choosing, ctrl+s and enter wrote into the current directory (a git
    worktree) as CSV again. The session's last folder and format are proposed now, under a fresh name; enter still
    exports (to where the last export went); a folder gone since falls back to the current directory."""
    here, out = tmp_path / "here", tmp_path / "out"
    here.mkdir()
    out.mkdir()
    monkeypatch.chdir(here)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await results(pilot)
        rows = screen.grid.row_count
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        assert app.screen.query_one("#export-path", Input).value == "./fulfillment-20261102-1000.csv", "at first: here, CSV"
        await set_value(pilot, "#export-format", "jsonl")
        await set_value(pilot, "#export-path", str(out / "f1.jsonl"))
        await pilot.press("enter")
        await until(pilot, lambda: screen.status.info == f"Exported {rows:,} rows to {out / 'f1.jsonl'} (JSONL)")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        dialog = app.screen
        assert dialog.query_one("#export-path", Input).value == str(out / "fulfillment-20261102-1000.jsonl")
        assert dialog.query_one("#export-format", Select).value == "jsonl"
        await pilot.press("enter")
        await until(pilot, lambda: "fulfillment-20261102-1000.jsonl (JSONL)" in screen.status.info)
        assert sorted(p.name for p in out.iterdir()) == ["f1.jsonl", "fulfillment-20261102-1000.jsonl"]
        assert list(here.iterdir()) == [], "nothing in the current directory"
        for path in out.iterdir():
            path.unlink()
        out.rmdir()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        assert app.screen.query_one("#export-path", Input).value == "./fulfillment-20261102-1000.jsonl", "the folder is gone"
        await pilot.press("escape")
    app = build_app(start=["reports", "fulfillment"])  # another session: nothing remembered (nothing on disk)
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        assert app.screen.query_one("#export-path", Input).value == "./fulfillment-20261102-1000.csv"


async def test_a_failed_page_keeps_what_is_loaded_and_plus_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.api.errors import ApiError

    failures = {"left": 1}
    fetch_page = ReportsService.fetch_page

    async def flaky(self: ReportsService, group: str, filters: FilterSet, page: int = 1, **kwargs: Any) -> Any:
        if page == 3 and failures["left"]:
            failures["left"] -= 1
            raise ApiError("503 the warehouse is busy", status=503)
        return await fetch_page(self, group, filters, page, **kwargs)

    monkeypatch.setattr(ReportsService, "fetch_page", flaky)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await results(pilot, page="200")
        assert screen.state == "failed"
        assert grid(app).total_count == 400  # pages 1 and 2 stay
        assert "warehouse is busy" in screen.status.error
        assert screen.count_text().startswith(f"400 of {screen.total:,} loaded · failed: + retries")
        await pilot.press("plus")
        await wait_loaded(pilot)
        assert screen.state == "done" and grid(app).total_count == screen.total
        assert len({r[0] for r in grid(app).model.rows}) == screen.total
        # run again from the start, fresh
        runs = screen._load_id
        await pilot.press("ctrl+r")
        await until(pilot, lambda: screen._load_id == runs + 1 and screen.state != "loading")
        assert screen.state == "done" and grid(app).total_count == screen.total


async def test_unknown_group_is_explained_in_the_builder() -> None:
    app = watched(start=["reports", "fulfilment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReportBuilderScreen)
        assert "No report group 'fulfilment'" in str(screen.query_one("#rb-title").render())
        assert "fulfillment" in screen.status.error
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert app.screen is screen and report_requests(app, "fulfilment") == []


def test_a_cancelled_export_leaves_no_file(tmp_path: Path) -> None:
    from flextui.render.table import GridModel
    from flextui.ui.screens.reports.export import CHUNK, ExportCancelled, ViewSnapshot, write_snapshot

    model = GridModel(["id", "n"], [(f"r{i}", i) for i in range(CHUNK * 3)])
    model.hide_column("n")
    seen: list[int] = []
    with pytest.raises(ExportCancelled):
        write_snapshot(ViewSnapshot.of(model), tmp_path / "x.csv", "csv", progress=seen.append, cancelled=lambda: bool(seen))
    assert seen == [CHUNK] and list(tmp_path.iterdir()) == []
    assert write_snapshot(ViewSnapshot.of(model), tmp_path / "x.jsonl", "jsonl") == CHUNK * 3
    assert (tmp_path / "x.jsonl").read_text().splitlines()[0] == '{"id": "r0"}'


async def test_quick_run_from_the_catalogue() -> None:
    app = build_app(start=["reports"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(ResourceTable).move_cursor(row=0)
        await pilot.press("ctrl+g")
        screen = await wait_loaded(pilot)
        assert screen.group == "account" and screen.filters.past_days == 7
        assert screen.count_text().startswith(f"all {screen.total:,} loaded")
        await pilot.press("f")  # back to the builder to refine
        await pilot.pause()
        assert isinstance(app.screen, ReportBuilderScreen) and app.screen.group == "account"


def test_row_packer_orders_columns_and_fills_missing_ones() -> None:
    from flextui.render.reports import RowPacker

    packer = RowPacker(["id", "status", "qty"])
    rows = [{"status": "ACTIVE", "id": f"r{i}", "qty": i, "extra": "x"} for i in range(3)]
    assert packer.pack(rows) == [("r0", "ACTIVE", 0), ("r1", "ACTIVE", 1), ("r2", "ACTIVE", 2)]
    rows[1] = {"id": "r1", "qty": None}  # a record without a column
    assert packer.pack(rows) == [("r0", "ACTIVE", 0), ("r1", None, None), ("r2", "ACTIVE", 2)]
    assert RowPacker(["id"]).pack([{"id": 1}, {"id": 2}]) == [(1,), (2,)]


async def test_batch_mode_follows_links_and_the_record_limit_is_honest() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await set_value(pilot, "#rb-mode", "BATCH")
        await set_value(pilot, "#rb-max", "700")
        screen = await results(pilot, page="300")
        assert screen.state == "limited" and screen.total is None
        assert grid(app).total_count == 700
        assert screen.count_text().startswith("700 loaded · total unknown (BATCH mode) · limit of 700 reached: + loads the rest")
        await pilot.press("plus")
        await wait_loaded(pilot)
        expected = await expected_rows(app, past_days=30)
        assert screen.state == "done" and grid(app).total_count == len(expected)
        assert [r[0] for r in grid(app).model.rows] == [r["fulfillmentID"] for r in expected]
        text = screen.count_text()  # BATCH answers carry no count: a "past 30 days" window read in pages is not checked
        assert text.startswith(f"{len(expected):,} loaded · total unknown (BATCH mode)"), text
        assert text.endswith("no count from the server to check a moving window against"), text


async def test_hostile_server_strings_are_never_markup_or_escapes(monkeypatch: pytest.MonkeyPatch) -> None:
    hostile = "Acme [/] \x1b[2J [bold]x\nline"
    fetch_page = ReportsService.fetch_page

    async def poisoned(self: ReportsService, group: str, filters: FilterSet, page: int = 1, **kwargs: Any) -> Any:
        result = await fetch_page(self, group, filters, page, **kwargs)
        for row in result.rows:
            row["accountName"] = hostile
        return result

    monkeypatch.setattr(ReportsService, "fetch_page", poisoned)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await results(pilot, days="2")
        g = grid(app)
        await move_to_column(pilot, "accountName")
        line = g.render_line(1).text
        assert "Acme [/] ␛[2J [bold]x⏎line"[: len("Acme [/] ␛[2J")] in line and "\x1b" not in line
        await pilot.press("F")
        await pilot.pause()
        assert "␛[2J" in app.screen.query_one(DataGrid).render_line(1).text
        await pilot.press("escape", "enter")
        await pilot.pause()
        assert isinstance(app.screen, RowDetailScreen)
        await pilot.press("v")
        await pilot.pause()
        assert "␛[2J [bold]x\nline" in app.screen.query_one("TextArea").text
        await pilot.press("escape", "escape", "c")
        await pilot.pause()
        # copying gives the value as the grid shows it: markup as typed, on one line (the break as ⏎: pasted into a
        # shell, a real one ran the rest), the escape made visible (tests/ui/test_hostile_ui.py checks every copy)
        assert app.clipboard == "Acme [/] ␛[2J [bold]x⏎line"


async def test_conditions_on_the_command_line() -> None:
    app = build_app(start=["reports", "fulfillment", "accountID", "$sw", "10;", "quantity", "$eq", "x;", "productName", "$in", "A,B"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        assert [str(c) for c in screen.conditions] == ["accountID $sw 10", "quantity $eq x", "productName $in A,B"]
        cell = str(screen.query_one(ConditionsTable).get_row_at(1)[3])
        assert "quantity is not a filter of the fulfillment report" in cell  # marked, and Run refuses
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert app.screen is screen


# -- the builder keeps its query; a half-typed condition never blocks Run -------------------------------------------


async def open_group(pilot: Any, group: str) -> ReportBuilderScreen:
    """Enter on a group in the catalogue (the screen shown must be the catalogue)."""
    screen = pilot.app.screen
    assert isinstance(screen, ReportsScreen)
    table = screen.query_one(ResourceTable)
    table.move_cursor(row=[r["name"] for r in table.visible_rows].index(group))
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(pilot.app.screen, ReportBuilderScreen) and pilot.app.screen.group == group
    return pilot.app.screen


async def test_a_stray_character_in_the_editor_does_not_block_run() -> None:
    app = watched(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        await add_condition(pilot, "accountID", "$sw", "10")
        await set_value(pilot, "#rb-value", "x")  # a stray key in the new-condition box (same field and operator)
        assert "given twice" not in str(screen.query_one("#rb-preview").render())
        app.clear_notifications()
        await pilot.press("ctrl+g")
        results_screen = await wait_loaded(pilot)
        assert [str(c) for c in results_screen.filters.conditions] == ["accountID $sw 10"], "the listed condition, not the stray one"
        notes = [str(n.message) for n in app._notifications]
        assert any("without the condition still in the editor" in n and "accountID $sw x" in n for n in notes), notes


async def test_a_half_typed_invalid_condition_is_left_out_of_run_with_a_note() -> None:
    app = watched(start=["reports", "usage"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await set_value(pilot, "#rb-field", "usageTime")
        await set_value(pilot, "#rb-op", "$eq")
        await set_value(pilot, "#rb-value", "soo")
        app.clear_notifications()
        await pilot.press("ctrl+g")
        results_screen = await wait_loaded(pilot)
        assert results_screen.filters.conditions == () and report_requests(app, "usage")
        assert any("usageTime $eq soo: not in the list" in str(n.message) and "whole number" in str(n.message) for n in app._notifications)


async def test_escape_keeps_the_query_per_group_until_clear() -> None:
    app = build_app(start=["reports"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        builder = await open_group(pilot, "fulfillment")
        await add_condition(pilot, "accountID", "$sw", "1012")
        await set_value(pilot, "#rb-past", "3")
        await set_value(pilot, "#rb-field", "productName")
        builder.query_one("#rb-value", Input).focus()
        await set_value(pilot, "#rb-value", "Flex Gate")  # half-typed: kept as typed
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ReportsScreen)
        other = await open_group(pilot, "account")  # another group: its own (empty) query
        assert other.conditions == [] and other.query_one("#rb-past", Input).value == "7"
        await pilot.press("escape")
        await settle(pilot)
        again = await open_group(pilot, "fulfillment")
        assert again is not builder
        assert [str(c) for c in again.conditions] == ["accountID $sw 1012"]
        assert again.query_one("#rb-past", Input).value == "3"
        assert again.query_one("#rb-field", Select).value == "productName" and again.query_one("#rb-value", Input).value == "Flex Gate"
        assert "accountID" in str(again.query_one("#rb-preview").render())
        # a quick run of the group does not replace what was built
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ReportsScreen)
        await pilot.press("ctrl+g")
        await wait_loaded(pilot)
        await pilot.press("escape", "escape")
        await settle(pilot)
        again = await open_group(pilot, "fulfillment")
        assert [str(c) for c in again.conditions] == ["accountID $sw 1012"]
        # Clear empties it, and it stays empty
        again.query_one("#rb-clear").press()
        await pilot.pause()
        assert (
            again.conditions == [] and again.query_one("#rb-past", Input).value == "7" and again.query_one("#rb-value", Input).value == ""
        )
        await pilot.press("escape")
        await settle(pilot)
        again = await open_group(pilot, "fulfillment")
        assert again.conditions == [] and again.query_one("#rb-value", Input).value == ""


async def test_the_kept_query_belongs_to_one_identity() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: ReportBuilderScreen = app.screen  # type: ignore[assignment]
        await add_condition(pilot, "accountID", "$sw", "1012")
        screen.remember()
        memory = app.report_queries  # the app's, across profile switches (test_profile_switch)
        assert list(memory) == [(app.ctx.session.identity, "fulfillment")]
        identity = app.ctx.session.identity
        assert app.ctx.user and app.ctx.user.lower() in identity


async def test_a_report_with_no_records_says_no_rows_once_it_is_done() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE) as pilot:
        screen = await results(pilot, conditions=(("accountID", "$sw", "no-account-starts-so"),))
        await wait_loaded(pilot)
        assert screen.loaded == 0 and screen.state == "done"
        assert "No rows" in screen.grid.render_line(1).text


@pytest.mark.parametrize(("values", "size"), [(3, (80, 24)), (1, (80, 24)), (0, (80, 24)), (3, (120, 40)), (60, (80, 24))])
async def test_the_frequency_dialog_shows_every_value_it_has_room_for(values: int, size: tuple[int, int]) -> None:
    """Sized to few values, it hid one behind the scrollbar of a column wider than the box (long IDs at 80 columns)."""
    from flextui.render.table import GridModel

    long_ids = [(f"ACT-{n:04d}-" + "x" * 40,) for n in range(values)]
    model = GridModel([("activationID", "str")], long_ids)
    app = build_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.push_screen(FrequencyScreen(model, "activationID"))
        await until(pilot, lambda: isinstance(app.screen, FrequencyScreen))
        await settle(pilot)
        grid = app.screen.query_one(DataGrid)
        box = app.screen.query_one("Vertical")
        assert box.region.height <= int(size[1] * 0.92) + 1 and box.region.width <= size[0]
        lines = grid.scrollable_content_region.height
        assert lines >= min(max(values, 1) + 1, 8), f"{lines} lines shown for {values} values and the header"


async def test_with_no_rows_the_greyed_keys_say_why() -> None:
    """A run that found nothing greyed F, I, g and ctrl+s in the footer, and pressed they did nothing and said nothing."""
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await results(pilot, conditions=(("accountID", "$eq", "no-such-account"),))
        assert screen.grid.row_count == 0
        for key in ("F", "ctrl+s"):
            before = len(app._notifications)
            await pilot.press(key)
            await until(pilot, lambda before=before: len(app._notifications) > before)
            said = str(list(app._notifications)[-1].message)
            assert said.startswith("No rows here") and "nothing to" in said, said
            assert app.screen is screen


def test_a_run_whose_pages_end_short_of_the_count_offers_more_only_when_the_count_leaves_a_page() -> None:
    assert final_state(186_949, 186_950, None) == "short", 'nobody stopped it: not "stopped"'
    assert final_state(186_950, 186_950, None) == "done" and final_state(700, None, 700) == "limited"
    assert not more_to_ask((76, 0), 186_950, 2500), "75 pages read: a 76th starts past the count"
    assert more_to_ask((76, 0), 187_501, 2500), "the count grew while paging: one more page"
    assert more_to_ask((3, 50), 300, 100) and not more_to_ask((3, 50), 250, 100)
    assert not more_to_ask((2, 0), None, 100), "no count: nothing to measure against"


async def test_a_moving_window_read_without_counts_is_not_said_to_be_all_loaded() -> None:
    """A server that gives no counts and a "past N days" window that moves while it is read page by page:
    records shifted past a page boundary are skipped unseen, so the rows are never "all N loaded"."""
    app = build_app(start=["reports", "fulfillment"], dialects=speaking("links-none,window-moves"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await results(pilot, page="37")
        assert screen.state == "done" and screen.total is None and screen.pages > 1
        text = screen.count_text()
        assert text.startswith(f"{screen.loaded:,} loaded · "), text
        assert "all " not in text and "no count from the server to check a moving window against" in text, text
        assert screen.status.info == UNCHECKED_NOTE, "the whole of it, with the way out, on the status line"
        await pilot.press("ctrl+s")
        await pilot.pause()
        export = app.screen
        assert isinstance(export, ExportScreen) and "records may be missing" in export.note


async def test_at_80_columns_the_count_line_keeps_the_row_when_a_column_is_hidden() -> None:
    """walk27-a: at 80x24 "all 478 loaded · showing 52 (filter) · by fulfillDate ▼ · 1 column hidden ·" lost the
    row it is on off the edge; shorter words now come first, and the sort (its arrow is in the grid) goes first."""
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await results(pilot)
        g = grid(app)
        await move_to_column(pilot, "fulfillDate")
        await pilot.press("right_curly_bracket")
        await pilot.press("slash")
        app.screen.query_one("#filterbar", Input).value = "status=ACTIVE"
        await pilot.press("enter")
        await move_to_column(pilot, "fulfillmentType")
        await pilot.press("minus", "end")
        await settle(pilot)
        assert 0 < g.row_count < g.total_count and g.cursor_row == g.row_count - 1
        shown = str(screen.query_one("#rr-count", Label).render())
        full = screen.count_text()
        assert "showing" in full and "by fulfillDate ▼" in full and "1 column hidden" in full, full
        assert len(full) > 78, "the line as it was does not fit in 80 columns"
        assert len(shown) <= 78 and shown.endswith(f"row {g.row_count:,}"), shown
        assert f"showing {g.row_count:,} · " in shown and "1 col hidden" in shown, "every fact kept, in fewer words"
        await pilot.resize_terminal(140, 30)
        await settle(pilot)
        assert str(screen.query_one("#rr-count", Label).render()) == full, "with room, every part in full"


def test_a_line_too_long_takes_shorter_words_then_leaves_out_the_least_useful_parts() -> None:
    parts = [Part("all 478 loaded", rank=KEEP), Part("by fulfillDate ▼", rank=0), Part("1 column hidden", "1 col hidden", rank=5)]
    parts.append(Part("row 52", rank=9))
    assert fit_line(parts, None) == fit_line(parts, 80) == "all 478 loaded · by fulfillDate ▼ · 1 column hidden · row 52"
    assert fit_line(parts, 57) == "all 478 loaded · by fulfillDate ▼ · 1 col hidden · row 52"
    assert fit_line(parts, 40) == "all 478 loaded · 1 col hidden · row 52"
    assert fit_line(parts, 10) == "all 478 loaded", "what is kept is kept; the row cuts it"
