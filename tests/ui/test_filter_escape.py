"""Escape in a list's filter field (AreaScreen `leave_filter_field`): the field goes back to what the list is listed
by and the keys go back where the user was, before any "back"; enter with a filter the screen refuses keeps the
field, and the focus, to fix it."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Select

from flextui.kinds import Link
from flextui.ui.screens.entitlements.tree import EntitlementsScreen
from flextui.ui.screens.registry.downloads import DownloadsScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.forms import FormScreen
from flextui.ui.widgets.table import ResourceTable
from tests.ui.conftest import build_app, burst, settle

ADMIN = "admin@flexdemo.example"


def field(app: Any, wid: str) -> Input:
    return app.screen.query_one(wid, Input)


async def test_escape_typed_with_a_command_in_one_burst_leaves_the_field_first() -> None:
    """On users: `f`, `lara`, then `escape : t o k e n s enter n` in one burst made the field `lara:tokens`, said no
    users match, and opened a New user form instead of going to the tokens."""
    app = build_app(start=["users"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        users = app.screen
        shown = [row["user_name"] for row in users.table().visible_rows]
        await burst(pilot, "f", *"lara")
        assert app.focused is field(app, "#users-name") and field(app, "#users-name").value == "lara"
        await burst(pilot, "escape", "colon", *"tokens", "enter", "n")
        assert isinstance(app.screen, FormScreen) and app.screen._title == "New access token"
        assert isinstance(app.screen_stack[-2], TokensScreen)
        name = users.query_one("#users-name", Input)
        assert name.value == "", "the field shows what the list is listed by"
        assert [row["user_name"] for row in users.table().visible_rows] == shown, "the users listed as before"


async def test_escape_puts_back_what_is_in_force_and_tab_escape_leaves_nothing_typed() -> None:
    """On tokens, `f qq escape tab escape` left `User qq` in the field, over the admin's tokens."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResourceTable)
        await burst(pilot, "f", "q", "q")
        assert field(app, "#q-user").value == "qq"
        await burst(pilot, "escape")
        assert field(app, "#q-user").value == ADMIN and app.focused is table, "back to the table, the field as applied"
        await burst(pilot, "tab", "escape")
        assert field(app, "#q-user").value == ADMIN and isinstance(app.screen, TokensScreen)


async def test_escape_puts_back_every_field_of_the_bar_typed_in_since() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await burst(pilot, "f", *"someone", "tab", *"other")
        assert app.focused is field(app, "#q-creator")
        await burst(pilot, "escape")
        assert (field(app, "#q-user").value, field(app, "#q-creator").value) == (ADMIN, "")
        assert isinstance(app.focused, ResourceTable)


async def test_what_enter_applied_is_what_escape_puts_back() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await burst(pilot, "f", *"someone@flexdemo.example", "enter")
        assert isinstance(app.focused, ResourceTable)
        await burst(pilot, "f", *"else", "escape")
        assert field(app, "#q-user").value == "someone@flexdemo.example"


async def test_a_value_the_screen_set_is_what_escape_puts_back() -> None:
    """`u` (the tokens of the user under the cursor) fills the fields itself: that is what the list is listed by."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TokensScreen)
        await burst(pilot, "u")  # the cursor's user is the one listed: the tokens that user created
        user, creator = field(app, "#q-user").value, field(app, "#q-creator").value
        assert (user, creator) == ("", ADMIN)
        await burst(pilot, "f", *"typed", "escape")
        assert (field(app, "#q-user").value, field(app, "#q-creator").value) == (user, creator)


async def test_on_a_screen_a_jump_opened_escape_leaves_the_field_not_the_screen() -> None:
    """Reached by a jump, the same escape went back along the trail (`app.action_back`), leaving the screen."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.jump(Link(f"user {ADMIN}", "users", f"user={ADMIN}"))
        await settle(pilot)
        users = app.screen
        assert users.KIND == "users" and users.query_one("#users-name", Input).value == ADMIN
        await burst(pilot, "f", *"x", "escape")
        assert app.screen is users, "still on the users a jump opened"
        assert users.query_one("#users-name", Input).value == ADMIN and isinstance(app.focused, ResourceTable)
        await burst(pilot, "escape")
        assert isinstance(app.screen, TokensScreen), "a second escape goes back, as escape does there"


async def test_escape_leaves_the_field_before_it_clears_the_slash_filter() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResourceTable)
        await burst(pilot, "slash", *"audit", "enter")
        assert table.filter_text == "audit" and app.focused is table
        await burst(pilot, "f", "z", "escape")
        assert app.focused is table and table.filter_text == "audit", "the first escape leaves the field"
        await burst(pilot, "escape")
        assert table.filter_text == "", "the next one clears the filter"


async def test_enter_with_a_filter_the_screen_refuses_keeps_the_field() -> None:
    """A users "More" of `bogus=1`: the list refused it, yet the focus went to the table (the field out of sight of
    the error); then escape puts back what is in force and goes to the table."""
    app = build_app(start=["users"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        more = field(app, "#users-more")
        more.focus()
        await settle(pilot)
        await burst(pilot, *"bogus=1", "enter")
        assert app.focused is more and more.value == "bogus=1" and more.has_class("-bad-filter")
        assert "unknown filter 'bogus'" in app.screen.status.error
        await burst(pilot, "escape")
        assert more.value == "" and not more.has_class("-bad-filter") and isinstance(app.focused, ResourceTable)
        more.focus()
        await settle(pilot)
        await burst(pilot, *"status=active", "enter")
        assert isinstance(app.focused, ResourceTable), "one it takes: applied, to the table"
        await burst(pilot, "f", "escape")
        assert more.value == "status=active"


async def test_the_entitlement_trees_bad_date_keeps_the_field_and_escape_reverts_it() -> None:
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen)
        start = field(app, "#f-from")
        start.focus()
        await settle(pilot)
        await burst(pilot, *"2026-13-45", "enter")
        assert app.focused is start and start.has_class("-bad-filter")
        await burst(pilot, "escape")
        assert start.value == "" and not start.has_class("-bad-filter")
        assert app.focused is app.screen.tree


async def test_the_download_logs_fields_are_left_by_escape() -> None:
    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, DownloadsScreen)
        before = app.focused
        project = field(app, "#dl-project")
        project.focus()
        await settle(pilot)
        await burst(pilot, *"nothing", "escape")
        assert project.value == "" and app.focused is before
        assert isinstance(app.screen, DownloadsScreen)


async def test_escape_on_a_filter_choice_closes_its_list_then_leaves_it() -> None:
    app = build_app(start=["users"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        users = app.screen
        table = users.table()
        choice = users.query_one("#users-choice", Select)
        choice.focus()
        await settle(pilot)
        await burst(pilot, "enter")
        assert choice.expanded
        await burst(pilot, "escape")
        assert not choice.expanded and app.focused is choice, "the first escape closes the list"
        await burst(pilot, "escape")
        assert app.focused is table and app.screen is users
