"""The tokens list is listed by its User and Creator fields as applied (enter, `u`), never as typed since: text typed
without enter reached ctrl+r, a watch's tick, the refresh after a change and the search of every page ("User zz"
over the admin's tokens, then "0 tokens" on the next refresh). And `u` on a search's row comes back to the search."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.widgets import Input

from flextui.api.tokens import TokensService
from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, CUSTOMER
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.dialogs import ConfirmScreen, ValueScreen
from flextui.ui.widgets.forms import FormScreen
from flextui.ui.widgets.table import ResourceTable
from tests.ui.conftest import build_app, burst, command, screen_of, settle, until, world_of

Asked = list[tuple[str, str | None, str | None]]


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Iterator[Asked]:
    """Every listing the screen asks the data layer for: ("page" | "every", user, creator), cache or network alike."""
    seen: Asked = []
    list_page, iterate = TokensService.list_page, TokensService.iterate

    def spy_page(self: TokensService, username: str | None, creator: str | None, *args: Any, **kwargs: Any) -> Any:
        seen.append(("page", username, creator))
        return list_page(self, username, creator, *args, **kwargs)

    async def spy_every(self: TokensService, username: str | None, creator: str | None, *args: Any, **kwargs: Any) -> Any:
        seen.append(("every", username, creator))
        return await iterate(self, username, creator, *args, **kwargs)

    monkeypatch.setattr(TokensService, "list_page", spy_page)
    monkeypatch.setattr(TokensService, "iterate", spy_every)
    yield seen


def fields(screen: TokensScreen) -> tuple[str, str]:
    return screen.query_one("#q-user", Input).value, screen.query_one("#q-creator", Input).value


def pager(screen: TokensScreen) -> str:
    return str(screen.query_one("#pager").render())


def names(screen: TokensScreen) -> list[str]:
    return [row["name"] for row in screen.table.visible_rows]


def users(asked: Asked) -> set[str | None]:
    return {user for _, user, _ in asked}


async def type_without_enter(pilot: Any, text: str) -> None:
    """`f`, End, ctrl+u, then `text` typed in the User field, and no enter (the reviewer's keys)."""
    await burst(pilot, "f", "end", "ctrl+u", *text)
    screen = pilot.app.screen
    assert screen.focused is screen.query_one("#q-user", Input) and fields(screen)[0] == text


async def tokens_screen(pilot: Any) -> TokensScreen:
    screen = await screen_of(pilot, TokensScreen)
    await until(pilot, lambda: screen.total is not None)
    await settle(pilot)
    return screen


async def test_ctrl_r_in_the_field_lists_by_what_is_applied_and_tab_away_puts_it_back(asked: Asked) -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await tokens_screen(pilot)
        mine = names(screen)
        assert mine and "10 tokens" in pager(screen)
        await type_without_enter(pilot, "zz")
        asked.clear()
        await burst(pilot, "ctrl+r")
        assert asked and users(asked) == {ADMIN[0]}, asked
        assert names(screen) == mine and "10 tokens" in pager(screen)
        assert fields(screen) == ("zz", ""), "being typed in: the field keeps what is typed"
        await burst(pilot, "tab", "tab")
        assert isinstance(screen.focused, ResourceTable)
        assert fields(screen) == (ADMIN[0], ""), "the keys left the fields without enter: they show what is listed"
        asked.clear()
        await burst(pilot, "ctrl+r")
        assert asked and users(asked) == {ADMIN[0]}, asked
        assert names(screen) == mine and "page 1 of 1 · 10 tokens" in pager(screen)


async def test_what_enter_applies_is_what_every_refresh_lists(asked: Asked) -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await tokens_screen(pilot)
        await type_without_enter(pilot, CUSTOMER[0])
        await burst(pilot, "tab", *"someone@else.example", "enter")
        assert isinstance(screen.focused, ResourceTable)
        assert (screen.applied_user, screen.applied_creator) == (CUSTOMER[0], "someone@else.example")
        assert asked[-1] == ("page", CUSTOMER[0], "someone@else.example")
        await burst(pilot, "f", "end", "ctrl+u", "enter")  # the User field emptied, and applied
        assert asked[-1] == ("page", None, "someone@else.example")
        await burst(pilot, "f", "end", "ctrl+u", *CUSTOMER[0], "tab", "end", "ctrl+u", "enter")
        assert asked[-1] == ("page", CUSTOMER[0], None)
        customers = names(screen)
        assert customers and all(row["token"].username == CUSTOMER[0] for row in screen.table.visible_rows)
        asked.clear()
        await burst(pilot, "ctrl+r")
        assert set(asked) == {("page", CUSTOMER[0], None)}, asked
        await command(pilot, "watch 600")
        assert screen.watcher is not None
        asked.clear()
        screen.watcher.tick()
        await settle(pilot)
        assert set(asked) == {("page", CUSTOMER[0], None)} and names(screen) == customers, asked


async def test_a_watch_tick_lists_by_what_is_applied(asked: Asked) -> None:
    """`:watch 5`: the tick after `f … zz tab tab` switched the list to "User zz … 0 tokens", with no key pressed."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await tokens_screen(pilot)
        mine = names(screen)
        await command(pilot, "watch 600")
        assert screen.watcher is not None
        await type_without_enter(pilot, "zz")
        await burst(pilot, "tab", "tab")
        asked.clear()
        refreshes = screen.watcher.refreshes
        screen.watcher.tick()  # (the watch's timer, without waiting for it)
        await settle(pilot)
        assert screen.watcher.refreshes == refreshes + 1, "the tick refreshed the list"
        assert asked and users(asked) == {ADMIN[0]}, asked
        assert names(screen) == mine and "10 tokens" in pager(screen) and fields(screen)[0] == ADMIN[0]


async def test_the_refresh_after_a_create_and_a_delete_lists_by_what_is_applied(asked: Asked) -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await tokens_screen(pilot)
        await type_without_enter(pilot, "zz")
        await burst(pilot, "tab", "tab")
        asked.clear()
        await burst(pilot, "n")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#field-tokenName", Input).value = "applied-only-1"
        await pilot.click("#form-submit")
        await settle(pilot)
        assert isinstance(app.screen, ValueScreen)
        assert asked and users(asked) == {ADMIN[0]}, asked
        assert "applied-only-1" in names(screen)
        await pilot.press("c")  # copied: the value's dialog closes without a warning
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        await type_without_enter(pilot, "zz")
        await burst(pilot, "tab", "tab")
        screen.table.move_cursor(row=names(screen).index("applied-only-1"))
        await settle(pilot)
        asked.clear()
        await burst(pilot, "d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.click("#confirm")
        await settle(pilot)
        assert "applied-only-1" not in token_store(world_of(app)).by_name
        assert asked and users(asked) == {ADMIN[0]}, asked
        assert names(screen) and "applied-only-1" not in names(screen)


async def test_the_search_of_every_page_reads_the_applied_users_pages(asked: Asked) -> None:
    app = build_app()
    app.ctx.settings.page_size = 3
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await tokens_screen(pilot)
        assert screen.many_pages()
        await type_without_enter(pilot, "zz")
        await burst(pilot, "tab", "tab")
        asked.clear()
        await burst(pilot, "slash", *"grafana", "enter")
        await settle(pilot)
        everyone = [a for a in asked if a[0] == "every"]
        assert everyone == [("every", ADMIN[0], None)], asked
        assert "every page" in pager(screen) and names(screen) and all("grafana" in n for n in names(screen))


async def test_u_on_a_search_row_and_escape_come_back_to_the_search_as_it_was() -> None:
    """`u` on a search's row replaced the search with that user's tokens, and escape did nothing: the search was lost."""
    app = build_app()
    app.ctx.settings.page_size = 4
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        search = await tokens_screen(pilot)
        await burst(pilot, "s")
        assert isinstance(app.screen, FormScreen)
        app.screen.query_one("#field-tokenName", Input).value = "g*"
        await pilot.click("#form-submit")
        await settle(pilot)
        assert app.screen is search and search.search is not None
        await until(pilot, lambda: search.ahead.more is not None)
        assert search.ahead.more, "the search has a second page"
        await burst(pilot, "right_square_bracket")
        await until(pilot, lambda: search.search_shown == 1 and search.ahead.more is not None)
        await settle(pilot)
        await burst(pilot, "down", "down")
        criteria, page, rows, cursor, said = search.search, search.page, names(search), search.table.cursor_row, pager(search)
        assert page == 1 and cursor == 2 and "search: tokenName=g*" in said
        person = search.selected().username
        assert person

        await burst(pilot, "u")
        theirs = app.screen
        assert isinstance(theirs, TokensScreen) and theirs is not search
        await until(pilot, lambda: theirs.total is not None)
        await settle(pilot)
        assert theirs.search is None and (theirs.applied_user, theirs.applied_creator) == (person, None)
        assert fields(theirs) == (person, "") and names(theirs)
        assert theirs.query_one("#q-user", Input).scroll_offset.x == 0, "the user's e-mail shown from its start"
        assert all(row["token"].username == person for row in theirs.table.visible_rows)
        assert any("escape: back to the search" in str(n.message) for n in app._notifications)

        await burst(pilot, "escape")
        assert app.screen is search, "escape comes back to the search"
        assert search.search == criteria and search.page == page and names(search) == rows
        assert search.table.cursor_row == cursor and pager(search) == said

        await burst(pilot, "ctrl+f")  # forward again: the user's tokens
        again = app.screen
        assert isinstance(again, TokensScreen) and again is not search and again.applied_user == person
        await burst(pilot, "escape")
        assert app.screen is search and names(search) == rows


async def test_u_on_a_list_still_lists_in_place_and_toggles_by_what_is_applied() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await tokens_screen(pilot)
        await type_without_enter(pilot, "zz")
        await burst(pilot, "tab", "tab", "u")  # the cursor's user is the one applied (admin): the tokens admin created
        assert app.screen is screen and fields(screen) == ("", ADMIN[0])
        assert (screen.applied_user, screen.applied_creator) == (None, ADMIN[0])
        await burst(pilot, "u")
        assert fields(screen) == (ADMIN[0], "") and (screen.applied_user, screen.applied_creator) == (ADMIN[0], None)


def test_tokens_user_or_creator_opens_that_listing() -> None:
    assert TokensScreen.for_kind(None, "user=a@b.example").opened_on == ("a@b.example", None)
    assert TokensScreen.for_kind(None, "creator=a@b.example").opened_on == (None, "a@b.example")
    assert TokensScreen.for_kind(None, "something").opened_on is None
    assert TokensScreen.for_kind(None, None).opened_on is None
