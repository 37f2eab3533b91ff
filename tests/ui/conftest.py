"""UI fixtures: the app on the in-process simulator with a frozen clock."""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from textual import events
from textual.app import App
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.screen import ModalScreen
from textual.widgets import Input
from textual.worker import WorkerState

from flextui.context import AppContext, demo_context
from flextui.ui.app import FlexApp
from flextui.ui.safety import original
from flextui.ui.widgets.bars import StatusLine
from tests.conftest import FIXED_NOW_MS

S = TypeVar("S")


def build_app(*, read_only: bool = False, as_user: str = "admin", start: list[str] | None = None, **kwargs: Any) -> FlexApp:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, read_only=read_only, as_user=as_user, **kwargs)
    ctx.start = start or ["tokens"]
    app = FlexApp(ctx)
    app.animation_level = "none"  # scrolling lands at once: a snapshot taken at any moment after it shows the same
    return app


@pytest.fixture
def make_app() -> Callable[..., FlexApp]:
    return build_app


@pytest.fixture(autouse=True)
def unexpected_errors(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[BaseException]]:
    """Every error the app reported as unexpected during the test (`FlexApp.report_unexpected`).

    The app survives them (ui/safety.py), so a test would not notice one: any report fails the
    test, unless it is marked `unexpected_errors` (it causes them on purpose).
    """
    seen: list[BaseException] = []
    report = FlexApp.report_unexpected

    def recording(self: FlexApp, error: BaseException, **kwargs: Any) -> None:
        seen.append(original(error))
        report(self, error, **kwargs)

    monkeypatch.setattr(FlexApp, "report_unexpected", recording)
    yield seen
    if seen and request.node.get_closest_marker("unexpected_errors") is None:
        pytest.fail("the app reported unexpected errors: " + "; ".join(f"{type(e).__name__}: {e}" for e in seen))


async def settle(pilot: Any, delay: float = 0.02, timeout: float = 20.0) -> None:
    """Wait until every key typed has been handed on, no worker is pending or running (with a dialog
    open: none of the dialog's own; the work behind it may be waiting for the dialog's answer), and
    the status line shows the requests as they are."""
    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        await pilot.pause(delay)
        if keys_pending(app) and loop.time() <= deadline:
            continue
        busy = [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if isinstance(app.screen, ModalScreen):  # a dialog's own work is waited for; work behind it may wait on the dialog
            busy = [w for w in busy if _screen_of(w.node) is app.screen]
        if not busy and any(status.settling for status in app.screen.query(StatusLine)) and loop.time() <= deadline:
            continue  # the status line is about to say what the requests now are (idle, most often)
        if not busy and not _underlines_placed(app) and loop.time() <= deadline:
            continue  # a tab relabelled ("Repositories (6)") moves its underline after a refresh: on a loaded machine, later
        if not busy or loop.time() > deadline:
            break
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.gather(*(w.wait() for w in busy), return_exceptions=True)), 0.25)
        except TimeoutError:
            pass
    await pilot.pause()


def _underlines_placed(app: Any) -> bool:
    """Whether every tab strip's underline is under its active tab, not on its way there."""
    from textual.widgets import Tabs
    from textual.widgets._tabs import Underline

    for tabs in app.screen.query(Tabs):
        active = tabs.active_tab
        if active is None or not tabs.display:
            continue
        underline = tabs.query_one(Underline)
        span = active.virtual_region.shrink(active.styles.gutter).column_span
        if (underline.highlight_start, underline.highlight_end) != span or app.animator.is_being_animated(underline, "highlight_end"):
            return False
    return True


async def until(pilot: Any, predicate: Callable[[], Any], timeout: float = 20.0) -> None:
    """Let the app work until `predicate()` holds (a state, never a fixed time); the bound only catches a hang."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.02)


def _screen_of(node: Any) -> Any:
    if isinstance(node, App):  # (App.screen is the screen in front: an app's worker, such as a sign-in, is of no screen)
        return None
    try:
        return node.screen
    except Exception:  # detached, or the app itself
        return None


def keys_pending(app: FlexApp) -> bool:
    """Keys received that the app has not handed on yet (it hands each on once the previous one has had its effect)."""
    feeder = app._key_feeder
    return bool(app._typed) or (feeder is not None and not feeder.done())


def key_event(key: str) -> events.Key:
    """The Key event a terminal sends for `key` (a character or a key name), as Pilot builds it."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def burst(pilot: Any, *keys: str) -> None:
    """Send keys as SSH delivers a fast typist's (or a paste's) bytes: all at once, nothing waited for in between.

    `pilot.press` waits for the app to go idle after every key, which hides every race a real
    terminal has; this posts them all to the app's queue in one go, then lets the app work.
    """
    app = pilot.app
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app._driver.send_message(event)
    await settle(pilot)


async def screen_of(pilot: Any, kind: type[S]) -> S:
    """The screen in front once the app has settled, checked to be a `kind`."""
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, kind), f"{type(screen).__name__} in front, not {kind.__name__}"
    return screen


async def command(pilot: Any, text: str) -> None:
    """Type a `:` command (the text is set at once: typing it key by key only costs time) and let it work."""
    await pilot.press("colon")
    pilot.app.screen.query_one("#commandbar", Input).value = text
    await pilot.press("enter")
    await settle(pilot)


def world_of(app: FlexApp) -> Any:
    ctx: AppContext = app.ctx
    return ctx.extras["world"]


async def raw_json_over(pilot: Any, detail: type) -> Any:
    """`R` on a detail dialog (of type `detail`): the record's raw JSON as shown, parsed; escape comes back to the dialog."""
    import json

    from textual.widgets import TextArea

    from flextui.ui.widgets.dialogs import ValueScreen

    app = pilot.app
    assert isinstance(app.screen, detail)
    await pilot.press("R")
    await until(pilot, lambda: isinstance(app.screen, ValueScreen))
    shown = json.loads(app.screen.query_one("#value-text", TextArea).text)
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, detail))
    return shown
