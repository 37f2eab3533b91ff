"""`/` and escape: escape clears an applied filter; on a paged list `/` says it covers "this page",
and enter searches every page with the same rule (every page read through the one bounded pager, with
progress, cancellable, and kept for the next search), on the registry lists, tokens and the tabbed lists."""

from __future__ import annotations

import re
from typing import Any

from textual.widgets import Input

from flextui.api.listing import freshest
from flextui.sim.registry import HELLO, registry_store
from flextui.ui.screens.products import ProductsScreen
from flextui.ui.screens.registry.downloads import DownloadsScreen
from flextui.ui.screens.registry.projects import ProjectScreen, ProjectsScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.screens.users import UsersScreen
from flextui.ui.widgets.commandbar import FilterBar
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.table import ResourceTable, matches
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
        assert f"'hello': 1 found in all {total:,} projects ({-(-total // 50):,} pages, every page)" in pager(app)
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
        assert f"found in the first {read:,} projects (stopped after {-(-read // 50)} pages)" in pager(app)
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
        assert names(app) == [wanted] and f"in all {len(everything)} tokens ({-(-len(everything) // 3)} pages, every page)" in pager(app)


async def every_matching(screen: Any, tab: str, text: str) -> list[tuple[str, ...]]:
    """The rows `/text` shows on each page of a tab, page by page (the screen's own pages, not its search), by row key."""
    spec = screen.list_tabs[tab]
    columns = screen.table(tab).spec
    key = screen.table(tab).row_key
    found: list[tuple[str, ...]] = []
    for number in range(1, (screen.pages_of(tab) or 1) + 1):
        page = await freshest(getattr(screen.service, spec.method)(None, number, screen.page_size))  # no toolbar filter
        found += [(str(row[key]), str(row.get("version") or "")) for row in map(spec.row, page.items) if matches(row, text, columns)]
    return found


def shown(screen: Any, tab: str) -> list[tuple[str, ...]]:
    key = screen.table(tab).row_key
    return [(str(r[key]), str(r.get("version") or "")) for r in screen.table(tab).visible_rows]


async def paged(pilot: Any, kind: type[Any], tab: str) -> tuple[Any, int, list[tuple[str, ...]]]:
    """The list in front, once settled: its screen, its number of pages (more than two), the first page's rows."""
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    pages = screen.pages_of(tab) or 1
    assert pages > 2
    return screen, pages, shown(screen, tab)


async def test_enter_searches_every_page_of_the_catalogue_as_slash_matches_and_escape_brings_the_page_back() -> None:
    """`/2024` matched 8 rows on version, on one page; enter then put `2024` in the Name field and asked the
    server for products *named* like it: "no products match these filters", and the field kept it."""
    app = build_app(start=["products"])
    app.ctx.settings.page_size = 10
    async with app.run_test(size=(120, 40)) as pilot:
        screen, pages, page_one = await paged(pilot, ProductsScreen, "products")
        assert f"page 1 of {pages}" in pager(app, "#products-pager")
        expected = await every_matching(screen, "products", "2024")
        assert len(expected) == len(set(expected)) and not set(expected) <= set(page_one), "matches on other pages than the first"
        assert all("2024" not in name for name, _ in expected), "a match on the version, not the name"
        name = screen.query_one("#products-name", Input)
        await type_filter(pilot, "2024")
        on_page = shown(screen, "products")
        hint = pager(app, "#products-pager")
        assert set(on_page) <= set(expected)
        await pilot.press("enter")
        await settle(pilot)
        assert sorted(shown(screen, "products")) == sorted(expected), "every match of every page, each once"
        assert set(on_page) <= set(shown(screen, "products")), "the rows that matched a moment ago stay"
        assert name.value == "", "the Name filter is left as it was"
        total = screen.states["products"].total or 0
        assert f"'2024': {len(expected)} found in all {total} products ({pages} pages, every page)" in pager(app, "#products-pager")
        assert not app.screen.status.error and "on this page · enter searches every page" in hint, hint
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and shown(screen, "products") == page_one and name.value == ""
        assert pager(app, "#products-pager").startswith(f"page 1 of {pages} · {total} products")


async def test_enter_searches_every_page_of_the_users_as_slash_matches() -> None:
    app = build_app(start=["users"])
    app.ctx.settings.page_size = 10
    async with app.run_test(size=(120, 40)) as pilot:
        screen, pages, page_one = await paged(pilot, UsersScreen, "users")
        text = "acme"  # an account of theirs, not their names
        expected = await every_matching(screen, "users", text)
        assert len(expected) == len(set(expected)) and not set(expected) <= set(page_one)
        name = screen.query_one("#users-name", Input)
        await type_filter(pilot, text)
        await pilot.press("enter")
        await settle(pilot)
        assert sorted(shown(screen, "users")) == sorted(expected) and name.value == ""
        assert f"found in all {screen.states['users'].total} users ({pages} pages, every page)" in pager(app, "#users-pager")
        await pilot.press("escape")
        await settle(pilot)
        assert shown(screen, "users") == page_one and name.value == "" and f"page 1 of {pages}" in pager(app, "#users-pager")


async def test_a_search_of_every_page_of_a_tab_stops_at_escape_then_escape_brings_the_page_back() -> None:
    app = build_app(start=["users"], scale=100, latency_ms=40)
    app.ctx.settings.page_size = 10
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, timeout=30)
        screen = app.screen
        assert isinstance(screen, UsersScreen)
        page_one = shown(screen, "users")
        await type_filter(pilot, "a")
        screen.table("users").focus()  # as enter leaves it (pressing it here would wait for the whole search to end)
        screen.search_all("a")

        def read() -> int:
            said = re.match(r"searching every page for 'a': ([\d,]+) users read · [\d,]+ found · escape stops", pager(app, "#users-pager"))
            return int(said.group(1).replace(",", "")) if said else 0

        await until(pilot, lambda: read() >= 500)
        await pilot.press("escape")
        await until(pilot, lambda: "(stopped after" in pager(app, "#users-pager"))
        search = screen.searches["users"]
        got = len(search.read or [])
        assert not search.running and search.every is None and got < (screen.states["users"].total or 0)
        assert f"found in the first {got:,} users (stopped after {-(-got // 10)} pages)" in pager(app, "#users-pager")
        assert app.screen is screen
        await pilot.press("escape")
        await settle(pilot, timeout=30)
        assert app.screen is screen and shown(screen, "users") == page_one and screen.query_one(FilterBar).value == ""


async def test_changing_the_toolbar_s_filters_leaves_a_search_of_every_page_and_x_clears_the_fields() -> None:
    """`x` ("clear the filters") did nothing on the catalogue, users or accounts; a search of every page read
    under the old filters must not be shown, or kept, under new ones."""
    app = build_app(start=["products"])
    app.ctx.settings.page_size = 10
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProductsScreen)
        search = screen.searches["products"]
        name = screen.query_one("#products-name", Input)
        await type_filter(pilot, "2024")
        await pilot.press("enter")
        await settle(pilot)
        assert search.mode and search.every is not None
        screen.query_one("#products-more", Input).value = "state=DEPLOYED"
        name.focus()
        name.value = "vault"
        await pilot.press("enter")
        await settle(pilot)
        assert not search.mode and search.every is None, "another listing: what every page said is forgotten"
        assert "page 1 of 1" in pager(app, "#products-pager")
        await pilot.press("x")
        await settle(pilot)
        assert name.value == "" and screen.query_one("#products-more", Input).value == ""
        assert "page 1 of 8" in pager(app, "#products-pager") and not screen.status.error


async def test_each_tab_keeps_its_own_slash_filter_and_the_bar_shows_the_tab_shown() -> None:
    """`/lyon` on Accounts, then Users: the bar still said "lyon" over an unfiltered list; escape there cleared the
    bar, and back on Accounts the filtered rows showed under an empty bar, so the next escape left the screen."""
    from flextui.ui.widgets.commandbar import FilterBar

    app = build_app(start=["accounts"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, UsersScreen) and screen.tab_id == "accounts"
        bar = screen.query_one(FilterBar)
        every = len(screen.table("accounts").visible_rows)
        await type_filter(pilot, "lyon")
        await pilot.press("enter")
        await settle(pilot)
        filtered = len(screen.table("accounts").visible_rows)
        assert 0 < filtered < every and bar.applied == "lyon"
        await pilot.press("1")  # the Users tab
        await until(pilot, lambda: screen.tab_id == "users" and bool(screen.table("users").visible_rows))
        await settle(pilot)
        assert bar.applied == "" and not screen.table("users").filter_text, "the users tab has no filter: the bar says none"
        await pilot.press("2")  # back to Accounts
        await until(pilot, lambda: screen.tab_id == "accounts")
        await settle(pilot)
        assert bar.applied == "lyon" and len(screen.table("accounts").visible_rows) == filtered, "its own filter, shown"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and bar.applied == "" and len(screen.table("accounts").visible_rows) == every
