"""A report revisited after its freshness window shows the stored rows at once, with their age, and the fresh ones behind.

Before, the stored pages were read, thrown away and the network awaited (slower than a cold run).
"""

from __future__ import annotations

import threading
from typing import Any

from textual.widgets import Input

from flextui.api.http import Session
from flextui.render.columns_file import read_columns
from flextui.sim.faults import FaultPlan
from flextui.ui.screens.reports.builder import ReportBuilderScreen
from flextui.ui.screens.reports.results import ReportResultsScreen
from tests.ui.conftest import build_app, burst, settle, until


def results(app: Any) -> ReportResultsScreen | None:
    screen = app.screen
    return screen if isinstance(screen, ReportResultsScreen) else None


async def run_once(pilot: Any) -> ReportResultsScreen:
    """From the builder: Run, until every row is in."""
    app = pilot.app
    await settle(pilot)
    await burst(pilot, "ctrl+g")
    await until(pilot, lambda: (s := results(app)) is not None and s.state == "done")
    first = results(app)
    assert first is not None
    return first


async def test_a_stale_report_shows_its_stored_rows_at_once_then_the_fresh_ones_in_place() -> None:
    plan = FaultPlan()
    app = build_app(start=["reports", "fulfillment"], faults=plan)
    async with app.run_test(size=(120, 40)) as pilot:
        first = await run_once(pilot)
        count = first.grid.row_count
        assert count > 0 and first.data_age is None
        await burst(pilot, "escape")
        await until(pilot, lambda: isinstance(app.screen, ReportBuilderScreen))
        app.ctx.session.fresh_seconds = 0.0  # what was stored is now past its freshness window
        answer = threading.Event()
        slow = plan.add(r"/report/fulfillment", kind="slow", hold=answer, times=1000)  # the server takes its time
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: (s := results(app)) is not None and s.state == "done" and s.grid.row_count == count)
        again = results(app)
        assert again is not None and again is not first
        assert again.refreshing and again.data_age is not None, "the stored rows, said to be stored, while the fresh ones load"
        assert "refreshing from the server" in again.count_text()
        again.grid.move_cursor(row=5)
        answer.set()
        await until(pilot, lambda: not again.refreshing, timeout=60)
        assert slow.hits >= 1 and again.data_age is None, "then the fresh rows, said to be fresh"
        assert again.grid.row_count == count and again.grid.cursor_row == 5, "in place: the cursor stays"
        assert "refreshing" not in again.count_text()


def kept_views(app: Any) -> list[list[bytes]]:
    """The grids kept beside the stored pages (`PageCache.put_derived`), each as its parts."""
    db = app.ctx.session.cache._db
    keys = [row[0] for row in db.execute("SELECT key FROM derived_sets")]
    return [[row[0] for row in db.execute("SELECT body FROM derived_parts WHERE key = ? ORDER BY n", (key,))] for key in keys]


async def test_a_revisit_shows_the_kept_grid_without_reading_a_page_and_the_pages_when_it_is_damaged(monkeypatch: Any) -> None:
    pages_read: list[str] = []
    real_stored = Session.stored

    async def counting(self: Session, op: str, *args: Any, **kwargs: Any) -> Any:
        pages_read.append(op)
        return await real_stored(self, op, *args, **kwargs)

    monkeypatch.setattr(Session, "stored", counting)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.query_one("#rb-past", Input).value = "30"
        app.screen.query_one("#rb-limit", Input).value = "100"  # pages of 100: several of them
        await settle(pilot)
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: (s := results(app)) is not None and s.state == "done")
        first = results(app)
        assert first is not None and first.pages > 3
        await until(pilot, lambda: len(kept_views(app)) == 1, timeout=30)
        shown = [(type(v), v) for row in first.grid.model.rows for v in row]
        count, total = first.grid.row_count, first.total
        wanted = first.grid.model.rows[7][0]  # a fulfillment id: the filter finds it in the kept columns

        async def revisit() -> ReportResultsScreen:
            await burst(pilot, "escape")
            await until(pilot, lambda: isinstance(app.screen, ReportBuilderScreen))
            await burst(pilot, "ctrl+g")
            await until(pilot, lambda: (s := results(app)) is not None and s.state == "done" and s.grid.row_count == count)
            again = results(app)
            assert again is not None
            return again

        pages_read.clear()
        again = await revisit()
        assert pages_read == [], "the kept grid, not a page decoded"
        assert [(type(v), v) for row in again.grid.model.rows for v in row] == shown, "the same rows, values and types"
        assert again.data_age is not None and again.total == total and again.pages == first.pages
        model = again.grid.model
        model.sort_by("productName")
        model.set_filter(wanted)
        assert model.row_count == 1 and model.row(0)[0] == wanted

        app.ctx.session.cache._db.execute("UPDATE derived_parts SET body = substr(body, 1, length(body) - 7) WHERE n = 3")  # damaged
        pages_read.clear()
        third = await revisit()
        assert pages_read and set(pages_read) == {"reports.page"}, "a damaged grid is a miss: the pages are read"
        assert [(type(v), v) for row in third.grid.model.rows for v in row] == shown
        await until(pilot, lambda: readable(kept_views(app)), timeout=30)  # and kept again, whole


def readable(views: list[list[bytes]]) -> bool:
    try:
        return len(views) == 1 and read_columns(views[0])[1] > 0
    except ValueError:
        return False


async def test_loading_the_rest_of_a_revisited_limited_run_resumes_where_it_stopped(monkeypatch: Any) -> None:
    """A record limit cuts a page short: loading the rest asks for that page again, past the rows taken,
    whether the revisit came from the kept grid or from the stored pages (it asked for the next page, and
    lost the rest of that one)."""
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.query_one("#rb-past", Input).value = "30"
        app.screen.query_one("#rb-limit", Input).value = "100"
        app.screen.query_one("#rb-max", Input).value = "250"  # pages 1, 2 and half of 3
        await settle(pilot)
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: (s := results(app)) is not None and s.state == "limited")
        first = results(app)
        assert first is not None and first.loaded == 250 and first.resume_at == (3, 50)
        total = first.total
        assert total is not None and total > 300
        await until(pilot, lambda: readable(kept_views(app)), timeout=30)

        for damaged in (False, True):  # from the kept grid, then from the pages
            if damaged:
                app.ctx.session.cache._db.execute("UPDATE derived_parts SET body = substr(body, 2)")
            await burst(pilot, "escape")
            await until(pilot, lambda: isinstance(app.screen, ReportBuilderScreen))
            await burst(pilot, "ctrl+g")
            await until(pilot, lambda shown=first: (s := results(app)) is not None and s is not shown and s.state == "limited")
            again = results(app)
            assert again is not None and again.loaded == 250 and again.resume_at == (3, 50), damaged
            await burst(pilot, "plus")
            await until(pilot, lambda screen=again: screen.state != "loading", timeout=60)
            assert again.state == "done" and again.loaded == total and again.grid.row_count == total, damaged
            ids = [row[0] for row in again.grid.model.rows]
            assert len(set(ids)) == len(ids) == total, "every record once"
            first = again


async def test_a_surprise_in_what_the_cache_holds_makes_a_revisit_a_plain_load(monkeypatch: Any) -> None:
    """Not stuck "loading" with no rows (as when the kept grid raised something other than ValueError): the run
    loads as when nothing is stored (its pages, fresh, answered from the cache)."""
    import flextui.ui.screens.reports.results as results_module

    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        first = await run_once(pilot)
        count = first.grid.row_count
        await until(pilot, lambda: readable(kept_views(app)), timeout=30)

        def broken(*args: Any) -> Any:
            raise RuntimeError("a kept grid no reader expected")

        monkeypatch.setattr(results_module.KeptRun, "read", broken)
        shown = [row[0] for row in first.grid.model.rows]
        await burst(pilot, "escape")
        await until(pilot, lambda: isinstance(app.screen, ReportBuilderScreen))
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: (s := results(app)) is not None and s is not first and s.state not in ("loading",))
        again = results(app)
        assert again is not None and again.state == "done" and again.grid.row_count == count, "not stuck loading"
        assert [row[0] for row in again.grid.model.rows] == shown


async def test_a_refresh_whose_pages_end_short_of_the_count_says_so_and_offers_no_empty_plus(monkeypatch: Any) -> None:
    """A refresh behind stored rows whose pages end before the server's count (a rolling window moved) was
    "stopped: + loads the rest", though nobody stopped it and `+` found nothing: it says what happened."""
    from flextui.api.reports import ReportsService

    fetch_page = ReportsService.fetch_page
    short = {"on": False}

    async def last_page_short(self: ReportsService, *args: Any, **kwargs: Any) -> Any:
        page = await fetch_page(self, *args, **kwargs)
        if short["on"] and page.total_pages and page.number == page.total_pages:
            page.rows = page.rows[:-1]  # a record left the window's old end between the count and the last page
        return page

    monkeypatch.setattr(ReportsService, "fetch_page", last_page_short)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.query_one("#rb-past", Input).value = "30"
        app.screen.query_one("#rb-limit", Input).value = "100"
        first = await run_once(pilot)
        total = first.total
        assert total is not None and first.loaded == total
        await burst(pilot, "escape")
        await until(pilot, lambda: isinstance(app.screen, ReportBuilderScreen))
        app.ctx.session.fresh_seconds = 0.0  # what was stored is past its freshness: a revisit refreshes it
        short["on"] = True
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: (s := results(app)) is not None and s is not first and s.state not in ("loading", "done"), timeout=60)
        again = results(app)
        assert again is not None and not again.refreshing
        text = again.count_text()
        assert text.startswith(f"{total - 1:,} of {total:,} loaded · the window moved: the server's pages ended 1 short of its count"), text
        assert "stopped" not in text and "+" not in text, "nobody stopped it, and the count leaves no page to ask for"
        assert not again.check_action("resume", ())
        sent = app.ctx.session.requests_sent
        await burst(pilot, "plus")
        await settle(pilot)
        assert app.ctx.session.requests_sent == sent and again.state == "short"
        said = [n.message for n in app._notifications]
        assert any(m.startswith("Nothing more to ask for: the window moved") for m in said), said
