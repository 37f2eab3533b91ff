"""Keys typed land where the user meant them, whatever the timing.

Each key goes on only once the previous one has had its effect (FlexApp.on_event), and
nothing moves the focus except the user: a load that finishes leaves it alone. The keys are
sent as SSH delivers them (`burst`: all at once, nothing waited for in between), which is
what `pilot.press` (it waits for the app to go idle after every key) never shows.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import ModalScreen
from textual.widgets import Input

from flextui.ui.screens.entitlements.tree import EntitlementsScreen
from flextui.ui.screens.products import ProductsScreen
from flextui.ui.screens.registry.projects import ProjectScreen, ProjectsScreen
from flextui.ui.screens.reports.builder import ReportBuilderScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.screens.users import UsersScreen
from flextui.ui.widgets.commandbar import CommandBar
from flextui.ui.widgets.forms import FormScreen, SectionedForm
from tests.ui.conftest import build_app, burst, settle


def field(app: Any, key: str) -> str:
    return app.screen.query_one(f"#field-{key}", Input).value


async def test_new_token_form_typed_in_one_burst() -> None:
    """`n`, a name, Tab, Tab, a description: each part in its own field (was `nc-fast-01desc-fast` in the name)."""
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "n", *"nc-fast-01", "tab", "tab", *"desc-fast")
        assert isinstance(app.screen, FormScreen)
        assert field(app, "tokenName") == "nc-fast-01"
        assert field(app, "tokenDescription") == "desc-fast"


async def test_entitlement_form_typed_in_one_burst() -> None:
    """The quantity, Tab, a start date over the prefilled one (was `2026-11-2352026-11-01` in one field)."""
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await burst(pilot, "n")
        form = app.screen
        assert isinstance(form, SectionedForm)
        form.query_one("#field-li0-quantity", Input).focus()
        await settle(pilot)
        await burst(pilot, "end", "backspace", "5", "tab", *"2026-11-01", "tab")
        assert field(app, "li0-quantity") == "5"
        assert field(app, "li0-startDate") == "2026-11-01"


async def test_command_typed_in_one_burst_on_the_tokens_screen() -> None:
    """`:entitlements` and enter in one burst opens the entitlements (was lost entirely, or ran `e` on a token)."""
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "colon", *"entitlements", "enter")
        assert isinstance(app.screen, EntitlementsScreen)
        assert not any(isinstance(s, ModalScreen) for s in app.screen_stack)


async def test_commands_typed_while_an_area_loads() -> None:
    """`:products` then `:tokens` at once, as the products load: the tokens, no New-entitlement form on the way."""
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "colon", *"products", "enter", "colon", *"tokens", "enter")
        assert isinstance(app.screen, TokensScreen)
        assert not any(isinstance(s, ModalScreen) for s in app.screen_stack)
        assert app.screen.focused is app.screen.query_one("#tokens-table")


AREAS = [
    (["products"], ProductsScreen),
    (["accounts"], UsersScreen),
    (["projects"], ProjectsScreen),
    (["members", "hello-world-dp"], ProjectScreen),
    (["entitlements"], EntitlementsScreen),
    (["report", "fulfillment"], ReportBuilderScreen),
]


@pytest.mark.parametrize(("start", "screen"), AREAS, ids=[a[0][0] for a in AREAS])
async def test_typing_in_the_bar_as_the_area_opens(start: list[str], screen: type) -> None:
    """`:` typed the moment the area opens (still being built): the keys stay in the bar."""
    app = build_app(start=start)
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "colon", *"tokens")
        assert isinstance(app.screen, screen)
        _assert_in_the_bar(app, "tokens")


@pytest.mark.parametrize(("start", "screen"), AREAS, ids=[a[0][0] for a in AREAS])
async def test_a_load_that_finishes_leaves_the_focus_alone(start: list[str], screen: type) -> None:
    """`:` typed while a slow server answers: when the rows arrive, the keys stay in the bar."""
    app = build_app(start=start, latency_ms=400)
    async with app.run_test(size=(100, 30)) as pilot:
        while not (isinstance(app.screen, screen) and app.screen.is_mounted):
            await pilot.pause()
        await burst(pilot, "colon", *"tok")  # burst settles: the load has finished after this
        assert not any(w.is_running for w in app.workers)
        _assert_in_the_bar(app, "tok")


def _assert_in_the_bar(app: Any, typed: str) -> None:
    bar = app.screen.query_one(CommandBar)
    assert app.screen.focused is bar, f"focus moved to {app.screen.focused!r}"
    assert bar.value == typed
    assert not any(isinstance(s, ModalScreen) for s in app.screen_stack)


async def test_a_paste_goes_where_the_keys_before_it_left_the_focus() -> None:
    from textual import events

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app._driver.send_message(events.Key("colon", ":"))
        app._driver.send_message(events.Paste("entitlements"))
        await settle(pilot)
        bar = app.screen.query_one(CommandBar)
        assert app.screen.focused is bar and bar.value == "entitlements"
