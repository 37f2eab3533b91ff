"""`:sort COLUMN [desc]` on any list: a page of a list sorts the rows loaded (and says so), a grid sorts all its rows."""

from __future__ import annotations

from flextui.ui.screens.products import ProductsScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.table import ResourceTable, natural_key
from tests.ui.conftest import build_app, burst, settle


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
