"""A confirmation is never confirmed by typing, and `:` works in a dialog.

A first-day walkthrough (80×24, keys in bursts as SSH delivers them): `d` on a token, then `:profile demo-read-only`
and enter, typed at once. `:` did nothing in the confirmation, the `y` of "only" confirmed it (`Binding("y", "confirm")`),
the token was deleted and the enter opened the next token's detail. A stray `d` and the habit `:history` did the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Label

from flextui.sim.tokens import token_store
from flextui.ui.help import HelpScreen
from flextui.ui.screens.tokens import TokenDetailScreen, TokensScreen
from flextui.ui.widgets.dialogs import ConfirmScreen, ValueScreen
from tests.ui.conftest import build_app, burst, settle, until, world_of


def keys_of(text: str) -> list[str]:
    """The key names a terminal sends for `text` typed."""
    return ["space" if char == " " else char for char in text]


def selected(app: Any) -> str:
    screen = app.screen
    assert isinstance(screen, TokensScreen)
    token = screen.selected()
    assert token is not None
    return token.name


def value_of(app: Any, name: str) -> str:
    return token_store(world_of(app)).by_name[name].value


def bar(app: Any) -> Input:
    return app.screen.query_one("#commandbar", Input)


# -- typed ahead into a confirmation ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["d", "r"], ids=["delete", "rotate"])
async def test_a_command_typed_at_once_after_d_or_r_cancels_and_runs_the_command(key: str) -> None:
    """The walkthrough's burst, as SSH delivers it (every key at once, right after `d` or `r`): nothing is deleted or
    rotated, the confirmation is cancelled by the `:`, and what follows is typed in the command bar and runs there."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        name = selected(app)
        value = value_of(app, name)
        session = app.ctx.session
        sent = session.requests_sent
        await burst(pilot, key, "colon", *keys_of("profile demo-read-only"), "enter")
        await until(pilot, lambda: app.ctx.profile_name == "demo-read-only" and isinstance(app.screen, TokensScreen))
        await settle(pilot)
        assert name in token_store(world_of(app)).by_name, "the token was not deleted"
        assert value_of(app, name) == value, "nor rotated"
        assert session.requests_sent == sent, "nothing was sent on the profile left"
        assert not any(isinstance(s, (ConfirmScreen, ValueScreen, TokenDetailScreen)) for s in app.screen_stack)
        assert not any("deleted" in said.text or "rotated" in said.text for said in app.said)


async def test_d_then_history_typed_at_once_deletes_nothing_and_shows_the_history() -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tokens = app.screen
        name = selected(app)
        await pilot.press("d", *":history", "enter")  # each key once the one before has had its effect
        await settle(pilot)
        assert app.screen is tokens and name in token_store(world_of(app)).by_name
        assert any("Nothing on the trail" in said.text for said in app.said), ":history ran (the trail is empty)"
        assert not bar(app).has_class("-open") and bar(app).value == ""


async def test_colon_closes_every_dialog_on_the_way_to_the_command_bar() -> None:
    """`:` in a raw JSON opened over a token's detail: both close as escape closes them, and the command runs."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await burst(pilot, "enter")
        assert isinstance(app.screen, TokenDetailScreen)
        await burst(pilot, "R")
        assert isinstance(app.screen, ValueScreen)
        await burst(pilot, "colon", *"users", "enter")
        await until(pilot, lambda: type(app.screen).__name__ == "UsersScreen")
        assert not any(s.is_modal for s in app.screen_stack)


async def test_colon_alone_opens_the_command_bar_on_the_screen_under_the_confirmation() -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tokens = app.screen
        await burst(pilot, "d", "colon")
        assert app.screen is tokens and app.focused is bar(app) and bar(app).has_class("-open")
        await burst(pilot, "escape")
        assert app.screen is tokens and not bar(app).has_class("-open")


async def test_letters_typed_in_a_confirmation_do_nothing_there_or_under_it() -> None:
    """No letter confirms (`y` only says how to), none reaches the list under the dialog (`e` edit, `n` new, `s`
    search), and the enter after them presses the focused Cancel: the token stays and no detail opens."""
    app = build_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        tokens = app.screen
        name = selected(app)
        await burst(pilot, "d", *keys_of("yes send it now Y"))
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen) and app.screen_stack[-2] is tokens, "the dialog is still up, alone"
        assert getattr(app.focused, "id", None) == "cancel"
        assert [said.text for said in app.said if "does not confirm" in said.text] == ["y does not confirm: → then enter: Delete"], (
            "said once"
        )
        await burst(pilot, "enter")
        assert app.screen is tokens
        assert name in token_store(world_of(app)).by_name


async def test_the_verbs_button_confirms_with_right_then_enter_and_left_goes_back_to_cancel() -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        name = selected(app)
        await burst(pilot, "d", "right", "left", "enter")
        assert isinstance(app.screen, TokensScreen) and name in token_store(world_of(app)).by_name
        await burst(pilot, "d", "right")
        assert isinstance(app.screen, ConfirmScreen) and getattr(app.focused, "id", None) == "confirm"
        await burst(pilot, "enter")
        await until(pilot, lambda: name not in token_store(world_of(app)).by_name)


async def test_colon_on_a_value_shown_once_and_not_copied_warns_as_escape_does() -> None:
    """A dialog that asks before it closes asks on `:` too, and stays: the value is not lost to a command."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(ValueScreen("Token t created: its value", "rna_" + "0" * 44, once=True))
        await until(pilot, lambda: isinstance(app.screen, ValueScreen))
        shown = app.screen
        await burst(pilot, "colon", *"history")
        assert app.screen is shown and "Not copied" in str(shown.query_one("#value-warning", Label).render())


async def test_help_in_a_dialog_lists_the_colon() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await burst(pilot, "d")
        await burst(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = {ident: key for key, _, _, ident in app.screen.rows}
        assert rows.get("dialog.command") == ":" and "confirm.yes" not in rows
