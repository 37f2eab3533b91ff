"""`/` and escape: escape clears an applied filter; on a paged list `/` says it covers "this page",
and enter searches every page (the server's name filter where the API has one, else every page read
through the one bounded pager, with progress, cancellable, and kept for the next search)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from flextui.sim.registry import HELLO, registry_store
from flextui.ui.screens.products import ProductsScreen
from flextui.ui.screens.registry.downloads import DownloadsScreen
from flextui.ui.screens.registry.projects import ProjectScreen, ProjectsScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.commandbar import FilterBar
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.table import ResourceTable
from tests.ui.conftest import build_app, settle, until, world_of


def pager(app: Any, selector: str = "#pager") -> str:
    return str(app.screen.query_one(selector).render())


def names(app: Any) -> list[str]:
    return [r["name"] for r in app.screen.query_one(ResourceTable).visible_rows]


async def type_filter(pilot: Any, text: str) -> None:
    await pilot.press("slash", *text)
    await pilot.pause()


async def test_escape_on_the_table_clears_an_applied_filter_then_goes_back() -> None:
    app = build_app(start=["charts", HELLO])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProjectScreen)
        await pilot.press("1")
        await settle(pilot)
        everything = len(screen.current_table().visible_rows)
        await type_filter(pilot, "zzz-nothing")
        await pilot.press("enter")  # keeps the filter; the focus goes back to the table
        await pilot.pause()
        assert screen.current_table().has_focus and screen.current_table().visible_rows == []
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen, "the first escape clears the filter, it does not leave"
        assert len(screen.current_table().visible_rows) == everything and screen.query_one(FilterBar).value == ""
        assert not screen.query_one(FilterBar).has_class("-open") and screen.current_table().has_focus
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ProjectsScreen), "with no filter, escape goes back as before"


async def test_escape_on_the_download_grid_clears_its_filter() -> None:
    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DownloadsScreen)
        grid = screen.query_one(DataGrid)
        total = grid.total_count
        await type_filter(pilot, "/charts/")
        await pilot.press("enter")
        await pilot.pause()
        assert grid.has_focus and grid.row_count < total
        await pilot.press("escape")
        await pilot.pause()
        assert grid.row_count == total and screen.query_text == "" and app.screen is screen


async def test_slash_says_on_this_page_and_enter_searches_every_page_through_the_pager() -> None:
    app = build_app(start=["projects"], scale=100)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProjectsScreen)
        total = len(registry_store(world_of(app)).projects)
        assert total > 2000 and f"page 1 of {-(-total // 50)}" in pager(app)
        await type_filter(pilot, "hello")
        assert names(app) == [] and "0 of 50 on this page · enter searches every page" in pager(app)
        sent = app.ctx.session.requests_sent
        await pilot.press("enter")
        await settle(pilot)
        assert screen.every_mode and not screen.every_running
        assert names(app) == [HELLO]
        assert f"'hello': 1 found in all {total:,} projects (every page)" in pager(app)
        assert app.ctx.session.requests_sent - sent == -(-total // 100), "every page once, at the largest page size"
        # another search: what was read is kept (no request at all)
        sent = app.ctx.session.requests_sent
        bar = screen.query_one(FilterBar)
        bar.focus()
        bar.value = "analyzer"
        await pilot.press("enter")
        await settle(pilot)
        expected = sorted(p for p in registry_store(world_of(app)).projects if "analyzer" in p)
        assert app.ctx.session.requests_sent == sent and len(expected) > 50 and sorted(names(app)) == expected
        # escape clears it: back to the page, as it was
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.every_mode and len(names(app)) == 50 and pager(app).startswith(f"page 1 of {-(-total // 50)}")


async def test_a_search_of_every_page_shows_progress_and_escape_stops_it() -> None:
    app = build_app(start=["projects"], scale=100, latency_ms=40)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, timeout=30)
        screen = app.screen
        assert isinstance(screen, ProjectsScreen)
        await type_filter(pilot, "a")
        screen.table.focus()  # as enter leaves it (pressing it here would wait for the whole search to end)
        screen.search_all("a")
        await until(pilot, lambda: screen.every_running and len(screen.every_read or []) >= 200)
        assert pager(app).startswith("searching every page for 'a':") and "escape stops" in pager(app)
        await pilot.press("escape")
        await until(pilot, lambda: not screen.every_running)
        read = len(screen.every_read or [])
        assert screen.every_stopped and 0 < read < 2001 and screen.every is None, "a stopped search is not kept as everything"
        assert f"found in the first {read:,} projects (stopped)" in pager(app)
        assert 0 < len(names(app)) <= read
        await settle(pilot, timeout=30)
        assert app.screen is screen


async def test_tokens_enter_searches_every_page_of_the_user_s_tokens() -> None:
    app = build_app()
    app.ctx.settings.page_size = 3
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TokensScreen)
        everything: list[str] = []
        async for batch in await screen.service.iterate(app.ctx.user, None):
            everything += [t.name for t in batch]
        assert len(everything) > 3
        wanted = everything[-1]  # on the last page, not the first
        assert wanted not in names(app)
        await type_filter(pilot, wanted)
        assert names(app) == [] and "on this page · enter searches every page" in pager(app)
        await pilot.press("enter")
        await settle(pilot)
        assert names(app) == [wanted] and f"in all {len(everything)} tokens (every page)" in pager(app)


async def test_tabbed_lists_ask_the_server_to_search_every_page_by_name() -> None:
    app = build_app(start=["products"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProductsScreen)
        assert "page 1 of 2" in pager(app, "#products-pager")
        on_first = {r["name"] for r in screen.table().visible_rows}
        await pilot.press("right_square_bracket")
        await settle(pilot)
        target = next(r["name"] for r in screen.table().visible_rows if r["name"] not in on_first)
        await pilot.press("left_square_bracket")
        await settle(pilot)
        await type_filter(pilot, target.lower())
        assert "on this page · enter asks the server for every page by name" in pager(app, "#products-pager")
        assert target not in {r["name"] for r in screen.table().visible_rows}
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one("#products-name", Input).value == target.lower()
        assert target in {r["name"] for r in screen.table().visible_rows}
        assert "page 1 of 1" in pager(app, "#products-pager")


async def test_leaving_a_search_of_every_page_shows_every_product_again_and_x_clears_the_fields() -> None:
    """Escape cleared the `/` filter but the name the search had put in the Name field stayed, with its few
    products; and `x` ("clear the filters") did nothing on the catalogue, users or accounts."""
    app = build_app(start=["products"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProductsScreen)
        name = screen.query_one("#products-name", Input)
        await type_filter(pilot, "vault")
        await pilot.press("enter")
        await settle(pilot)
        assert name.value == "vault" and "page 1 of 1" in pager(app, "#products-pager")
        screen.table().focus()
        await pilot.press("escape")
        await settle(pilot)
        assert name.value == "" and "page 1 of 2" in pager(app, "#products-pager"), pager(app, "#products-pager")
        screen.query_one("#products-more", Input).value = "state=DEPLOYED"
        name.focus()
        name.value = "vault"
        await pilot.press("enter")
        await settle(pilot)
        assert "page 1 of 1" in pager(app, "#products-pager")
        await pilot.press("x")
        await settle(pilot)
        assert name.value == "" and screen.query_one("#products-more", Input).value == ""
        assert "page 1 of 2" in pager(app, "#products-pager") and not screen.status.error
