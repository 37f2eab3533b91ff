"""UI fixtures: the app on the in-process simulator with a frozen clock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual.screen import ModalScreen
from textual.worker import WorkerState

from flextui.context import AppContext, demo_context
from flextui.ui.app import FlexApp
from flextui.ui.safety import original

from tests.conftest import FIXED_NOW_MS


def build_app(*, read_only: bool = False, as_user: str = "admin", start: list[str] | None = None, **kwargs: Any) -> FlexApp:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, read_only=read_only, as_user=as_user, **kwargs)
    ctx.start = start or ["tokens"]
    return FlexApp(ctx)


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


async def settle(pilot: Any, delay: float = 0.02, timeout: float = 5.0) -> None:
    """Wait until no worker is pending or running, or the only busy ones wait on an open dialog."""
    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        await pilot.pause(delay)
        busy = [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not busy or isinstance(app.screen, ModalScreen) or loop.time() > deadline:
            break
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.gather(*(w.wait() for w in busy), return_exceptions=True)), 0.25)
        except asyncio.TimeoutError:
            pass
    await pilot.pause()


def world_of(app: FlexApp) -> Any:
    ctx: AppContext = app.ctx
    return ctx.extras["world"]
