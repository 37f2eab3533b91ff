"""A revisit from the cache: every stored page of a report, of any age, without a request; nothing before sign-in.

The results screen shows these at once (with their age) and fetches the
fresh pages behind them (tests/ui/test_revisit_ui.py).
"""

from __future__ import annotations

from typing import Any

import pytest

import flextui.sim.app as sim_app_module
from flextui.api.cache import PageCache
from flextui.api.errors import NotStored
from flextui.api.filters import FilterSet
from flextui.api.reports import ReportsService

from ..conftest import make_session

MONTH = FilterSet(past_days=30, limit_records=100)


@pytest.fixture(autouse=True)
def _reports_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim_app_module, "SERVICE_MODULES", ("tokens", "reports"))


async def stored_rows(service: ReportsService) -> tuple[list[dict[str, Any]], float | None]:
    rows: list[dict[str, Any]] = []
    async with service.pager("fulfillment", MONTH, stored_only=True, concurrency=1) as pages:
        async for page in pages:
            rows.extend(page.rows)
        return rows, pages.oldest_age


async def test_stored_pages_of_any_age_come_back_without_a_request(sim_app: Any, cache: PageCache) -> None:
    session = make_session(sim_app, cache=cache, fresh_seconds=0.0)  # every stored page is "stale" at once
    service = ReportsService(session)
    fetched = await service.fetch_all("fulfillment", MONTH)
    assert len(fetched) > 100, "several pages"
    sent = session.requests_sent
    rows, age = await stored_rows(service)
    assert rows == fetched and age is not None and session.requests_sent == sent
    await session.aclose()


async def test_nothing_stored_or_not_yet_signed_in_is_not_stored(sim_app: Any, cache: PageCache) -> None:
    first = make_session(sim_app, cache=cache)
    with pytest.raises(NotStored):
        await stored_rows(ReportsService(first))
    assert first.requests_sent == 0
    await ReportsService(first).fetch_all("fulfillment", MONTH)
    await first.aclose()
    # a new session of the same identity has not signed in yet: the cache is not shown before it has
    second = make_session(sim_app, cache=cache)
    with pytest.raises(NotStored):
        await stored_rows(ReportsService(second))
    await ReportsService(second).report_names()
    rows, _ = await stored_rows(ReportsService(second))
    assert rows
    await second.aclose()
