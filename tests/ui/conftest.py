"""UI fixtures: the app on the in-process simulator with a frozen clock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from textual.worker import WorkerCancelled

from flextui.context import AppContext, demo_context
from flextui.ui.app import FlexApp

from tests.conftest import FIXED_NOW_MS


def build_app(*, read_only: bool = False, as_user: str = "admin", start: list[str] | None = None, **kwargs: Any) -> FlexApp:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, read_only=read_only, as_user=as_user, **kwargs)
    ctx.start = start or ["tokens"]
    return FlexApp(ctx)


@pytest.fixture
def make_app() -> Callable[..., FlexApp]:
    return build_app


async def settle(pilot: Any, delay: float = 0.05) -> None:
    """Wait until workers finish (or wait on a dialog) and the screen has refreshed."""
    app = pilot.app
    for _ in range(3):
        try:
            await asyncio.wait_for(asyncio.shield(app.workers.wait_for_complete()), 2.0)
        except (asyncio.TimeoutError, WorkerCancelled):
            pass  # a worker is waiting on a modal screen
        await pilot.pause(delay)


def world_of(app: FlexApp) -> Any:
    ctx: AppContext = app.ctx
    return ctx.extras["world"]
