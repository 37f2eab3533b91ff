"""`:sort COLUMN [desc]` on any list: a page of a list sorts the rows loaded (and says so), a grid sorts all its rows."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Label

from flextui.ui.screens.products import ProductsScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.screens.users import UsersScreen
from flextui.ui.widgets.table import ResourceTable, natural_key
from tests.ui.conftest import build_app, burst, command, screen_of, settle, until


def test_natural_order() -> None:
    assert sorted(["v10", "v2", "V3", "1,200", "300"], key=natural_key) == ["300", "1,200", "v2", "V3", "v10"]


async def test_tokens_sort_by_expiry_as_a_moment_and_back_to_the_servers_order() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TokensScreen)
        table = app.screen.query_one(ResourceTable)
        server_order = [r["name"] for r in table.visible_rows]
        await burst(pilot, "colon", *"sort expires desc", "enter")
        moments = [r["token"].expires_ms for r in table.visible_rows]
        assert moments == sorted(moments, reverse=True), "by the moment, not by the 'in 2d' shown"
        assert any("Sorted the" in n.message and "other pages keep the server's order" in n.message for n in app._notifications)
        titles = {str(column.key.value): column.label.plain for column in table.columns.values()}
        assert titles["expires"] == "Expires ▼" and titles["name"] == "Name", "the sorted column says so"
        await burst(pilot, "colon", *"sort", "enter")
        assert [r["name"] for r in table.visible_rows] == server_order
        assert "▼" not in " ".join(column.label.plain for column in table.columns.values())


async def test_a_catalogue_tab_sorts_by_a_titles_prefix_and_an_unknown_column_is_named() -> None:
    app = build_app(start=["products"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProductsScreen)
        await burst(pilot, "colon", *"sort categ", "enter")
        table = app.screen.table()
        categories = [r["category"] for r in table.visible_rows]
        assert categories == sorted(categories, key=lambda c: natural_key(c or ""))
        await burst(pilot, "colon", *"sort colour", "enter")
        assert any("No column 'colour'" in n.message for n in app._notifications)


async def test_u_on_a_token_lists_that_users_tokens_then_the_ones_they_created() -> None:
    from textual.widgets import Input

    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TokensScreen)
        me = screen.selected().username
        await burst(pilot, "f", "end", "ctrl+u", "tab", *me, "enter")  # the tokens I created: no user applied
        assert (screen.applied_user, screen.applied_creator) == (None, me)
        person = screen.selected().username
        await burst(pilot, "u")
        assert screen.query_one("#q-user", Input).value == person and screen.query_one("#q-creator", Input).value == ""
        assert all(r["token"].username == person for r in screen.query_one(ResourceTable).visible_rows)
        await burst(pilot, "u")
        assert screen.query_one("#q-user", Input).value == "" and screen.query_one("#q-creator", Input).value == person
        rows = screen.query_one(ResourceTable).visible_rows
        assert rows and all(r["token"].creator == person for r in rows)


def pager_text(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Label).render())


def one_line(app: Any, selector: str) -> bool:
    """Whether the pager line's words fit its one line (a longer text wraps: the line grows, up to three)."""
    pager = app.screen.query_one(selector, Label)
    return pager.size.height == 1 and Text(str(pager.render())).cell_len <= pager.content_region.width


async def test_a_sort_of_one_page_of_users_says_so_on_the_pager_line_at_80_columns() -> None:
    """`:sort name desc` sorted the 50 users loaded, page 1 read "Dara Patel, Chiara Weber…" and `]` "Nadia Quinn…",
    while the pager said only "page 1 of 2 · 94 users" (a toast said it, then went)."""
    app = build_app(start=["users"])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await screen_of(pilot, UsersScreen)
        assert "sorted" not in pager_text(app, "#users-pager")
        await command(pilot, "sort name desc")
        await until(pilot, lambda: "sorted" in pager_text(app, "#users-pager"))
        text = pager_text(app, "#users-pager")
        assert text.startswith("page 1 of 2 · 94 users · on this page: sorted, ") and "inactive" in text, text
        assert one_line(app, "#users-pager"), text
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: pager_text(app, "#users-pager").startswith("page 2 of 2"))
        names = [r["display_name"] for r in screen.table().visible_rows]
        assert names == sorted(names, key=lambda n: natural_key(n or ""), reverse=True)
        assert "sorted" in pager_text(app, "#users-pager") and one_line(app, "#users-pager"), pager_text(app, "#users-pager")
        await command(pilot, "sort")
        await until(pilot, lambda: "sorted" not in pager_text(app, "#users-pager"))


async def test_a_catalogue_tab_of_several_pages_says_its_sort_is_of_the_page() -> None:
    app = build_app(start=["products"])
    async with app.run_test(size=(80, 24)) as pilot:
        await screen_of(pilot, ProductsScreen)
        await command(pilot, "sort version desc")
        await until(pilot, lambda: "sorted on this page" in pager_text(app, "#products-pager"))
        assert one_line(app, "#products-pager"), pager_text(app, "#products-pager")


async def test_tokens_say_a_sort_of_one_page_of_several_and_not_of_the_only_page() -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await screen_of(pilot, TokensScreen)
        await command(pilot, "sort expires desc")
        assert screen.query_one(ResourceTable).sort_spec == ("expires", True)
        assert "sorted" not in pager_text(app, "#pager"), "the only page: every token is sorted"
        app.ctx.settings.page_size = 4
        await pilot.press("ctrl+r")
        await until(pilot, lambda: "sorted" in pager_text(app, "#pager"))
        text = pager_text(app, "#pager")
        assert "on this page" in text and "sorted" in text.partition("on this page")[2] + text.partition("on this page")[0]
        assert one_line(app, "#pager"), text
        await command(pilot, "sort")
        await until(pilot, lambda: "sorted" not in pager_text(app, "#pager"))


async def test_a_registry_list_of_several_pages_says_its_sort_is_of_the_page() -> None:
    app = build_app(start=["projects"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await command(pilot, "sort repos desc")
        await until(pilot, lambda: "sorted by Repos, descending" in pager_text(app, "#pager"))
        assert "on this page" not in pager_text(app, "#pager"), "one page: every project is sorted"
    app = build_app(start=["projects"])
    app.ctx.settings.page_size = 10
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await command(pilot, "sort repos desc")
        await until(pilot, lambda: "sorted by Repos, descending on this page" in pager_text(app, "#pager"))
        assert one_line(app, "#pager"), pager_text(app, "#pager")


async def test_a_projects_members_of_several_pages_say_their_sort_is_of_the_page() -> None:
    from flextui.sim.registry import HELLO

    app = build_app(start=["members", HELLO])
    app.ctx.settings.page_size = 4
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.query_one("#members-table", ResourceTable).focus()
        await command(pilot, "sort member desc")
        await until(pilot, lambda: "sorted on this page" in pager_text(app, "#members-pager"))
        await command(pilot, "sort")
        await until(pilot, lambda: "sorted" not in pager_text(app, "#members-pager"))
