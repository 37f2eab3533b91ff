"""UI fixtures: the app on the in-process simulator with a frozen clock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from textual.screen import ModalScreen
from textual.worker import WorkerState

from flextui.context import AppContext, demo_context
from flextui.ui.app import FlexApp

from tests.conftest import FIXED_NOW_MS


def build_app(*, read_only: bool = False, as_user: str = "admin", start: list[str] | None = None, **kwargs: Any) -> FlexApp:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, read_only=read_only, as_user=as_user, **kwargs)
    ctx.start = start or ["tokens"]
    app = FlexApp(ctx)
    app.animation_level = "none"  # scrolling lands at once: a snapshot taken at any moment after it shows the same
    return app


@pytest.fixture
def make_app() -> Callable[..., FlexApp]:
    return build_app


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
