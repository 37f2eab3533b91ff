"""No unexpected error ends the app (ui/safety.py): switching areas, failing workers, callbacks, timers, handlers."""

from __future__ import annotations

import ast
import asyncio
import inspect
import logging
from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen
from textual.widget import Widget

import flextui
import flextui.ui.app as app_module
from flextui import kinds
from flextui.ui.app import FlexApp, _binding_classes
from flextui.ui.safety import SafeDispatch
from flextui.ui.screens.products import ProductsScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.screens.users import UsersScreen
from flextui.ui.widgets.commandbar import CommandBar
from flextui.ui.widgets.dialogs import MessageScreen
from tests.ui.conftest import build_app, burst, screen_of, settle

# The reported crash: a tab's table focused before the tab was built (NoMatches '#features-table').
SEQUENCES = [
    (["products", "features"], ProductsScreen, "features-table"),
    (["suites", "products"], ProductsScreen, "products-table"),
    (["users", "accounts"], UsersScreen, "accounts-table"),
    (["products", "tokens", "features"], ProductsScreen, "features-table"),
]


async def wait_for(pilot: Any, condition: Any, what: str) -> None:
    """Let the app work until `condition()` holds (never a fixed pause; settle's own limit applies)."""
    for _ in range(50):
        if condition():
            return
        await settle(pilot)
    raise AssertionError(f"never: {what}")


@pytest.mark.parametrize(("commands", "screen", "table"), SEQUENCES, ids=["-".join(c) for c, _, _ in SEQUENCES])
async def test_switching_areas_and_tabs_by_command_keeps_the_app(commands: list[str], screen: type, table: str) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for command in commands:
            await pilot.press("colon", *command, "enter")
            await settle(pilot)
        assert app.is_running and isinstance(app.screen, screen)
        await wait_for(pilot, lambda: app.screen.focused is not None and app.screen.focused.id == table, f"focus in #{table}")


@pytest.mark.parametrize(("commands", "screen", "table"), SEQUENCES, ids=["-".join(c) for c, _, _ in SEQUENCES])
async def test_switching_in_one_burst_keeps_the_app(commands: list[str], screen: type, table: str) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        keys = [k for command in commands for k in ("colon", *command, "enter")]
        await burst(pilot, *keys)
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, screen)
        await wait_for(pilot, lambda: app.screen.focused is not None and app.screen.focused.id == table, f"focus in #{table}")


async def test_a_loaded_host_does_not_hurry_the_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys wait for the app however long it takes while the host lends it no CPU (ui/cpu_wait.py).

    Under two busy loops the catalogue took longer than the keys' wall-clock limit to be built, and
    `:features`, handed on meanwhile, never showed its tab. The limit is made tiny here and every
    second of the wait is said to be spent waiting for a CPU: the keys must still wait."""
    monkeypatch.setattr(app_module, "KEY_WAIT_LIMIT", 0.001)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        loop = asyncio.get_running_loop()
        app.waited_for_cpu = loop.time  # all of the wall clock spent runnable, not running
        await burst(pilot, *(k for command in ("products", "features") for k in ("colon", *command, "enter")))
        assert isinstance(app.screen, ProductsScreen)
        await wait_for(
            pilot, lambda: app.screen.focused is not None and app.screen.focused.id == "features-table", "focus in #features-table"
        )


async def test_keys_go_on_when_the_app_never_settles(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Something that never settles holds a key for `KEY_WAIT_LIMIT` seconds of the app's own time, then lets it go."""
    monkeypatch.setattr(app_module, "KEY_WAIT_LIMIT", 0.05)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.waited_for_cpu = lambda: 0.0  # a quiet host: the wall clock is the app's
        monkeypatch.setattr(app, "_settled", lambda: False)
        with caplog.at_level(logging.WARNING, logger="flextui.ui"):
            await burst(pilot, "colon")
            await wait_for(pilot, lambda: isinstance(app.screen.focused, CommandBar), "the command bar opened")
        assert "did not settle" in caplog.text


async def test_a_tab_shown_after_the_command_bar_opened_leaves_the_keys_in_the_bar() -> None:
    """The area's tab (asked for by a command, shown a refresh later) took the keys from the `:` bar opened since."""
    app = build_app(start=["products"])
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await screen_of(pilot, ProductsScreen)
        await pilot.press("colon")
        bar = screen.query_one(CommandBar)
        assert screen.focused is bar
        screen.show_kind(kinds.get("features"))  # as `:features`, typed a moment before, does once the screen has refreshed
        await wait_for(pilot, lambda: screen.tab_id == "features" and screen.query("#features-table"), "the features tab built")
        assert screen.focused is bar
        await pilot.press("escape")  # closing the bar gives the keys to the tab shown meanwhile, not the one left
        await wait_for(pilot, lambda: screen.focused is screen.query_one("#features-table"), "focus in the features table")
        assert screen.tab_id == "features"
        await pilot.press("colon")
        await pilot.press(*"tokens", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TokensScreen), "the command typed in the bar ran")


def _alive(app: FlexApp) -> bool:
    return app.is_running and app._exception is None


async def _still_answers_keys(pilot: Any) -> None:
    """The app takes keys: `:` opens the command bar, escape closes it."""
    app = pilot.app
    await pilot.press("colon")
    await settle(pilot)
    assert isinstance(app.screen.focused, CommandBar)
    await pilot.press("escape")
    await settle(pilot)


def _toasts(app: FlexApp) -> list[str]:
    return [str(n.message) for n in app._notifications if n.title == "Unexpected error"]


@pytest.mark.unexpected_errors
async def test_an_unexpected_error_anywhere_is_logged_shown_and_survived(
    caplog: pytest.LogCaptureFixture, unexpected_errors: list[BaseException], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = build_app()
    caplog.set_level(logging.ERROR, logger="flextui")

    def boom(where: str) -> None:
        raise RuntimeError(f"boom in a {where}")

    async def failing_worker() -> None:
        await asyncio.sleep(0)
        boom("worker")

    monkeypatch.setattr(TokensScreen, "action_copy_name", lambda self: boom("key's action"))

    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TokensScreen)

        # A worker with Textual's default exit_on_error=True.
        screen.run_worker(failing_worker(), group="test-boom")
        await settle(pilot)
        # A callback after a refresh, a callback on the next message, a timer.
        screen.call_after_refresh(boom, "refresh callback")
        await settle(pilot)
        screen.call_later(boom, "later callback")
        await settle(pilot)
        screen.set_timer(0.01, lambda: boom("timer"))
        await wait_for(pilot, lambda: len(unexpected_errors) >= 4, "the timer's error")
        # An action run from a key (in the app's message handler), and a dialog's result callback.
        await pilot.press("c")
        await settle(pilot)
        app.push_screen(MessageScreen("Hello", "a dialog"), lambda _: boom("dialog callback"))
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)

        wanted = ["worker", "refresh callback", "later callback", "timer", "key's action", "dialog callback"]
        assert [str(e) for e in unexpected_errors] == [f"boom in a {w}" for w in wanted]
        assert _alive(app)
        toasts = _toasts(app)
        assert len(toasts) == len(wanted), toasts
        assert all("RuntimeError: boom in a" in t and "carries on" in t for t in toasts)
        logged = [r for r in caplog.records if r.exc_info and "unexpected RuntimeError" in r.getMessage()]
        assert len(logged) == len(wanted), "each one logged, with its traceback"
        assert isinstance(app.screen, TokensScreen)
        await _still_answers_keys(pilot)


@pytest.mark.unexpected_errors
async def test_the_same_error_again_is_logged_not_shown_again(unexpected_errors: list[BaseException]) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for _ in range(3):
            app.report_unexpected(ValueError("same"), doing="testing")
        await settle(pilot)
        assert len(unexpected_errors) == 3
        assert len(_toasts(app)) == 1


# Not yet: the status line is being reworked on another branch (its handlers only start a clock).
NOT_YET = {"flextui.ui.widgets.bars.StatusLine"}


def test_every_flextui_screen_and_message_handler_class_is_guarded() -> None:
    """A screen or widget whose handler fails must keep its message loop (Textual ends it): SafeDispatch."""
    for cls in _binding_classes():
        if f"{cls.__module__}.{cls.__qualname__}" in NOT_YET:
            continue
        if issubclass(cls, (Screen, FlexApp)) or (issubclass(cls, Widget) and _handles_messages(cls)):
            assert issubclass(cls, SafeDispatch), f"{cls.__module__}.{cls.__qualname__} is not SafeDispatch"


def _handles_messages(cls: type) -> bool:
    return any(
        name.startswith(("on_", "_on_", "action_")) or hasattr(member, "_textual_on")
        for name, member in vars(cls).items()
        if callable(member)
    )


def test_no_worker_hides_its_failure() -> None:
    """Workers keep exit_on_error=True, so a failure reaches FlexApp's handler (reported, not fatal).

    The one exception is the download log's loader, whose job catches and reports every failure itself.
    """
    root = Path(inspect.getfile(flextui)).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "exit_on_error":
                found.append((path.relative_to(root).as_posix(), node.lineno))
    assert [f for f, _ in found] == ["ui/screens/registry/downloads.py"], found


async def test_a_tab_asked_for_while_the_screen_is_built_is_the_one_shown() -> None:
    """`:users` then `:accounts` in one burst on a loaded machine: the accounts tab was asked for before the
    tab strip made its own first activation (of the users tab), which then won. The tab asked for is shown."""
    from textual.widgets import TabbedContent

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("colon", *"users", "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, UsersScreen) and screen.tab_id == "users"
        tabs = screen.query_one(TabbedContent)
        screen.action_show_tab("accounts")
        tabs.active = "users"  # the strip's late first activation, before the accounts one is handled
        await wait_for(
            pilot,
            lambda: screen.tab_id == "accounts" and screen.focused is not None and screen.focused.id == "accounts-table",
            "the accounts tab",
        )
