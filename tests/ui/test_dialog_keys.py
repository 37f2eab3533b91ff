"""`q` in a dialog (keys.py `FlexModal`): it closes every dialog as escape does, never confirms, and is a letter in a
text field; a value dialog at 80×24 shows its buttons and scrolls its text with the keys a reader tries first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.binding import Binding
from textual.widgets import Button, Input, TextArea

from flextui.kinds import Link
from flextui.ui.app import _binding_classes
from flextui.ui.help import HelpScreen
from flextui.ui.keys import CLOSE_ID, FlexModal
from flextui.ui.profiles import SecretPrompt
from flextui.ui.screens.entitlements.tree import EntitlementsScreen
from flextui.ui.screens.requestlog import RequestLogScreen
from flextui.ui.screens.tokens import TokenDetailScreen, TokensScreen
from flextui.ui.screens.users import UsersScreen
from flextui.ui.widgets.dialogs import ChoiceScreen, ConfirmScreen, MessageScreen, ValueScreen
from flextui.ui.widgets.forms import FormScreen
from flextui.ui.widgets.record import RecordScreen
from tests.ui.conftest import build_app, burst, command, settle, until

# -- every dialog has q, as its escape ---------------------------------------------------------------------


def dialog_classes() -> list[type]:
    return [cls for cls in _binding_classes() if isinstance(cls, type) and issubclass(cls, FlexModal)]


def test_every_dialog_binds_q_to_what_its_escape_does() -> None:
    """Only four dialogs bound `escape,q`; in the others q did nothing, silently. Now every one has it, from
    FlexModal, doing what its own escape does."""
    classes = dialog_classes()
    assert {"ConfirmScreen", "ValueScreen", "MessageScreen", "ChoiceScreen", "FormScreen", "TokenDetailScreen"} <= {
        c.__name__ for c in classes
    }
    for cls in classes:
        merged = cls._merge_bindings().key_to_bindings
        (q,) = merged["q"]
        assert (q.action, q.id) == ("close_dialog", CLOSE_ID), cls.__name__
        escapes = merged.get("escape", [])
        if escapes:
            assert cls.CLOSE_ACTION == escapes[0].action, cls.__name__
            assert q.description == escapes[0].description, f"{cls.__name__}: `?` names q as it names escape"
    assert ConfirmScreen.CLOSE_ACTION == "dismiss(False)", "q cancels a confirmation, never confirms it"
    assert FormScreen.CLOSE_ACTION == "cancel", "a form with something typed says so first, as escape"


def test_no_dialog_binds_q_by_itself() -> None:
    """One place: no dialog's own BINDINGS name q (FlexModal gives it, with the dialog's escape)."""
    for cls in dialog_classes():
        own = [b for b in cls.__dict__.get("BINDINGS", []) if isinstance(b, Binding) and "q" in b.key.split(",")]
        assert all(b.id == CLOSE_ID for b in own), (cls.__name__, own)


# -- q closes each kind of dialog ------------------------------------------------------------------------------


async def _raw_json(pilot: Any) -> None:
    await burst(pilot, "R")


async def _message(pilot: Any) -> None:
    await command(pilot, "no-such-area")
    await burst(pilot, "exclamation_mark")


async def _history(pilot: Any) -> None:
    pilot.app.jump(Link("user admin@flexdemo.example", "users", "user=admin@flexdemo.example"))
    await settle(pilot)
    await command(pilot, "history")


async def _profile(pilot: Any) -> None:
    await command(pilot, "profile")


async def _detail(pilot: Any) -> None:
    await burst(pilot, "enter")


async def _help(pilot: Any) -> None:
    await burst(pilot, "question_mark")


async def _request_log(pilot: Any) -> None:
    await burst(pilot, "L")


OPENERS: dict[str, tuple[Callable[[Any], Awaitable[None]], type]] = {
    "raw JSON": (_raw_json, ValueScreen),
    "! message": (_message, MessageScreen),
    ":history": (_history, ChoiceScreen),
    ":profile": (_profile, ChoiceScreen),
    "token detail": (_detail, TokenDetailScreen),
    "help": (_help, HelpScreen),
    "request log": (_request_log, RequestLogScreen),
}


@pytest.mark.parametrize("name", list(OPENERS))
async def test_q_closes_the_dialog_and_help_lists_it(name: str) -> None:
    opener, kind = OPENERS[name]
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await opener(pilot)
        dialog, under = app.screen, app.screen_stack[-2]
        assert isinstance(dialog, kind)
        if kind is not HelpScreen:  # `?` there closes it
            await burst(pilot, "question_mark")
            assert isinstance(app.screen, HelpScreen)
            rows = {ident: key for key, _, _, ident in app.screen.rows}
            assert rows.get(CLOSE_ID) == "q", f"? in the {name} lists q"
            await burst(pilot, "escape")
            assert app.screen is dialog
        await burst(pilot, "q")
        assert app.screen is under, f"q closed the {name}"
        assert app.is_running, "and did not quit"


async def test_q_on_a_record_closes_it() -> None:
    app = build_app(start=["users"])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "enter")
        assert isinstance(app.screen, RecordScreen)
        await burst(pilot, "q")
        assert isinstance(app.screen, UsersScreen)


async def test_q_cancels_a_confirmation_and_deletes_nothing() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        tokens = app.screen
        assert isinstance(tokens, TokensScreen)
        before = [t.name for t in tokens.tokens]
        await burst(pilot, "d")
        assert isinstance(app.screen, ConfirmScreen)
        sent = app.ctx.session.requests_sent
        await burst(pilot, "q")
        assert app.screen is tokens
        await settle(pilot)
        assert app.ctx.session.requests_sent == sent, "nothing was sent"
        assert [t.name for t in tokens.tokens] == before


async def test_q_on_a_confirmation_answers_false() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        answers: list[bool | None] = []
        app.push_screen(ConfirmScreen("Delete it?", "it"), answers.append)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and getattr(app.focused, "id", None) == "cancel")
        app.screen.query_one("#confirm", Button).focus()  # even with the focus on the verb's button
        await settle(pilot)
        await burst(pilot, "q")
        assert answers == [False]


async def test_q_on_a_value_shown_once_warns_first_as_escape_does() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.push_screen(ValueScreen("Token t created: its value", "rna_secretvalue", once=True))
        await until(pilot, lambda: isinstance(app.screen, ValueScreen))
        shown = app.screen
        await burst(pilot, "q")
        assert app.screen is shown and "Not copied" in str(shown.query_one("#value-warning").render())
        await burst(pilot, "q")
        assert isinstance(app.screen, TokensScreen)


# -- q is a letter in a text field -------------------------------------------------------------------------------


async def test_q_typed_in_a_dialogs_field_is_text() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.push_screen(SecretPrompt("Password for q"))
        await until(pilot, lambda: isinstance(app.screen, SecretPrompt) and isinstance(app.focused, Input))
        await burst(pilot, "q", "u", "q")
        assert isinstance(app.screen, SecretPrompt) and app.screen.query_one(Input).value == "quq"
        await burst(pilot, "escape")
        await burst(pilot, "n")  # a form: its first field has the keys
        assert isinstance(app.screen, FormScreen) and isinstance(app.focused, Input)
        field = app.focused
        await burst(pilot, "q")
        assert app.screen.is_current and isinstance(app.screen, FormScreen) and field.value.endswith("q")


async def test_q_in_a_form_off_its_fields_cancels_as_escape() -> None:
    """On the form's buttons q is not text: it does what escape does (a form with something typed says so first)."""
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "n")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#form-cancel", Button).focus()
        await settle(pilot)
        await burst(pilot, "q")
        assert isinstance(app.screen, TokensScreen)


# -- the value dialog at 80×24 ------------------------------------------------------------------------------------


def shown_whole(screen: Any, widget: Any) -> bool:
    """Whether `widget` is drawn whole: not cut by its dialog's box, nor by the terminal's edge."""
    geometry = screen.find_widget(widget)
    region = geometry.region
    return region.intersection(geometry.clip) == region and region.bottom <= screen.app.size.height


async def test_raw_json_at_80x24_shows_its_buttons_and_scrolls_with_the_keys() -> None:
    """`:ent 101200004242`, an entitlement, `R`: the dialog ended after its note (Copy and Done cut off, the focus on
    Copy out of view), Down, PageDown and q did nothing, and two Tabs were needed before PageDown scrolled."""
    app = build_app(start=["entitlements", "101200004242"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen)
        await burst(pilot, "down")
        await burst(pilot, "R")
        dialog = app.screen
        assert isinstance(dialog, ValueScreen)
        await settle(pilot)
        area = dialog.query_one("#value-text", TextArea)
        for button in dialog.query(Button):
            assert shown_whole(dialog, button), f"{button.label} is on screen"
        assert shown_whole(dialog, area)
        assert area.max_scroll_y > 0, "the JSON is longer than the dialog (else this proves nothing)"
        assert app.focused is area
        await burst(pilot, "pagedown")
        assert area.scroll_y > 0, "pagedown scrolls the JSON"
        paged = area.scroll_y
        await burst(pilot, "down")
        assert area.scroll_y == paged + 1, "down scrolls a line"
        await burst(pilot, "pageup", "pageup")
        assert area.scroll_y == 0
        await burst(pilot, "tab")
        assert app.focused is dialog.query_one("#copy", Button), "tab reaches the buttons"
        await burst(pilot, "q")
        assert isinstance(app.screen, EntitlementsScreen)


@pytest.mark.parametrize("size", [(80, 24), (80, 20), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_every_shrinking_dialog_shows_its_last_line(size: tuple[int, int]) -> None:
    """A long value, a long confirmation, a long list of choices, a long message: each box keeps what is under its
    scrolling part (buttons, a note) on screen, and the part is shown whole (no row of it hidden under the box's edge)."""
    app = build_app()
    lines = "\n".join(f"line {i}" for i in range(80))
    dialogs: list[tuple[Any, str, str]] = [
        (ValueScreen("A value", lines), "#value-text", "#done"),
        (ValueScreen("A value", lines, once=True), "#value-text", "#done"),
        (ConfirmScreen("Delete all this?", lines), "#confirm-scroll", "#confirm"),
        (ChoiceScreen("Open…", [f"choice {i}" for i in range(60)], note="enter opens"), "#choice-list", "#choice-note"),
        (MessageScreen("Error", lines), "#message-scroll", "#message-close"),
    ]
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for dialog, part, last in dialogs:
            app.push_screen(dialog)
            await until(pilot, lambda dialog=dialog: app.screen is dialog)
            await settle(pilot)
            assert shown_whole(dialog, dialog.query_one(part)), f"{type(dialog).__name__}: {part}"
            assert shown_whole(dialog, dialog.query_one(last)), f"{type(dialog).__name__}: {last}"
            await burst(pilot, "escape")
            if app.screen is dialog:  # a value shown once: its longer warning ("Not copied: …") takes a row more
                assert "Not copied" in str(dialog.query_one("#value-warning").render())
                assert shown_whole(dialog, dialog.query_one(part)) and shown_whole(dialog, dialog.query_one(last))
                await burst(pilot, "escape")
            assert isinstance(app.screen, TokensScreen)


async def test_a_long_record_shows_its_keys_line() -> None:
    """A product's record at 80×24 ran under the box's edge: its last lines and its keys line were never seen."""
    app = build_app(start=["products"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await burst(pilot, "enter")
        record = app.screen
        assert isinstance(record, RecordScreen)
        await settle(pilot)
        scroll = record.query_one("#record-scroll")
        assert shown_whole(record, scroll) and shown_whole(record, record.query_one("#record-hint"))
        await burst(pilot, "end")
        assert scroll.scroll_y == scroll.max_scroll_y > 0, "its last line can be scrolled to"


async def test_a_long_error_never_pushes_a_forms_buttons_off() -> None:
    """The token search at 80×24 with a three-line error under its fields: Cancel and Search were below the box."""
    from rich.text import Text
    from textual.widgets import Label

    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await burst(pilot, "s")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#form-error", Label).update(Text("The server refused it: " + "a long reason " * 12))
        await settle(pilot)
        assert form.query_one("#form-error").outer_size.height >= 3
        for button in ("#form-cancel", "#form-submit"):
            assert shown_whole(form, form.query_one(button)), button
        assert shown_whole(form, form.query_one("#form-scroll")), "the fields scroll in what is left"


async def test_a_token_with_a_long_description_shows_its_keys_line() -> None:
    """A token's detail at 80×24 with a long description ran under the box's edge: its keys line (rotate, edit,
    delete) was never seen. The fields scroll; the keys line stays."""
    from flextui.api.tokens import Token

    app = build_app()
    token = Token.model_validate(
        {"tokenName": "long-notes", "username": "me@x.example", "tokenDescription": "why this token exists. " * 120}
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        dialog = TokenDetailScreen(token, 0)
        app.push_screen(dialog)
        await until(pilot, lambda: app.screen is dialog)
        await settle(pilot)
        assert shown_whole(dialog, dialog.query_one("#detail-scroll")) and shown_whole(dialog, dialog.query_one("#detail-hint"))
