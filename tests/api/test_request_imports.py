"""The request path imports nothing: a module searched for on every request costs the event loop.

httpcore imports sniffio on every request; when it was not installed, each import searched sys.path, a run of
stat calls that give the interpreter's lock up to the page-work thread (≈ 200 a 100k report: p95 loop stalls
58 → 42 ms, bench/RESULTS.md).
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import Any

from flextui.api.auth import Credentials
from flextui.api.filters import FilterSet
from flextui.api.http import Session
from flextui.api.reports import ReportsService
from flextui.api.tokens import TokensService
from flextui.config import Profile, Settings
from flextui.context import profile_context
from flextui.sim.world import ADMIN, World


class _ImportSpy:
    """A meta path finder that finds nothing and notes what the main thread looked for (an import not yet done)."""

    def __init__(self) -> None:
        self.searched: list[str] = []

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if threading.current_thread() is threading.main_thread():
            self.searched.append(name)


def test_a_request_searches_for_no_module(live_server: str, world: World) -> None:
    """After the first requests (what they import, once), a token list and a report page import nothing."""

    async def requests(session: Session) -> None:
        async for _ in TokensService(session).list_page(ADMIN[0], None, 0, 10, force=True):
            pass
        await ReportsService(session).fetch_page("fulfillment", FilterSet.build(past_days=3, limit_records=50), force=True)

    async def run() -> list[str]:
        profile = Profile(name="spy", url=live_server, user=ADMIN[0])
        ctx = profile_context(profile, Credentials(ADMIN[0], ADMIN[1], world.seed_token(ADMIN[0])), Settings())
        spy = _ImportSpy()
        try:
            await requests(ctx.session)  # what the first requests import, once
            sys.meta_path.insert(0, spy)
            try:
                for _ in range(3):
                    await requests(ctx.session)
            finally:
                sys.meta_path.remove(spy)
        finally:
            await ctx.aclose()
        return spy.searched

    assert asyncio.run(run()) == []
