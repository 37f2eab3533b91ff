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
from flextui.sim.world import PRODUCER

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


# -- a run's grid kept beside its pages (ReportsService.keep_view / stored_view) -------------------


async def kept_run(sim_app: Any, cache: PageCache, **session_options: Any) -> tuple[Any, ReportsService, int]:
    """A session that has fetched the month's fulfillment pages and kept a body made of them; its page count."""
    session = make_session(sim_app, cache=cache, **session_options)
    service = ReportsService(session)
    pages = 0
    async with service.pager("fulfillment", MONTH, concurrency=1) as pager:
        async for page in pager:
            pages = page.number
    assert pages > 1, "several pages"
    assert await keep(service, pages, [b"the ", b"grid"])
    return session, service, pages


async def keep(service: ReportsService, pages: int, parts: Any, names: tuple[str, ...] = ("a", "b")) -> bool:
    """`parts` kept as made of the month's pages 1 to `pages` as they are stored now."""
    sources = await service.view_sources("fulfillment", MONTH, pages)
    if sources is None:
        return False
    return await service.keep_view("fulfillment", MONTH, max_records=None, sources=sources, names=list(names), parts=parts)


async def test_a_kept_view_comes_back_with_its_pages_age_and_without_a_request(sim_app: Any, cache: PageCache) -> None:
    session, service, _ = await kept_run(sim_app, cache)
    sent = session.requests_sent
    parts, age = await service.stored_view("fulfillment", MONTH, max_records=None)
    assert parts == [b"the ", b"grid"] and 0.0 <= age < 3600 and session.requests_sent == sent
    with pytest.raises(NotStored):  # another run: other filters, another limit
        await service.stored_view("fulfillment", FilterSet(past_days=7, limit_records=100), max_records=None)
    with pytest.raises(NotStored):
        await service.stored_view("fulfillment", MONTH, max_records=500)
    await session.aclose()


async def test_a_kept_view_is_a_miss_once_one_of_its_pages_is_stored_again_or_gone(sim_app: Any, cache: PageCache) -> None:
    session, service, pages = await kept_run(sim_app, cache)
    await service.fetch_page("fulfillment", MONTH, pages, force=True)  # the last page asked for again: stored anew
    with pytest.raises(NotStored):
        await service.stored_view("fulfillment", MONTH, max_records=None)
    assert await keep(service, pages, iter([b"again"]))
    assert (await service.stored_view("fulfillment", MONTH, max_records=None))[0] == [b"again"]
    assert cache._db is not None
    cache._db.execute("DELETE FROM pages WHERE rowid = (SELECT min(rowid) FROM pages WHERE op = 'reports.page')")
    with pytest.raises(NotStored):
        await service.stored_view("fulfillment", MONTH, max_records=None)
    assert not await keep(service, pages, [b"x"]), "a page not stored: nothing kept"
    assert cache._db.execute("SELECT count(*) FROM derived_sets").fetchone()[0] == 0, "a miss that can never be valid again is dropped"
    await session.aclose()


async def test_rows_taken_before_a_page_was_stored_again_are_not_kept(sim_app: Any, cache: PageCache) -> None:
    """The stamps are read when the rows are taken: a page stored again (a refresh behind, another instance)
    before or while the parts are written makes the keep fail rather than bless old rows with new stamps."""
    session, service, pages = await kept_run(sim_app, cache)
    sources = await service.view_sources("fulfillment", MONTH, pages)  # the rows are taken now
    assert sources is not None
    await service.fetch_page("fulfillment", MONTH, 1, force=True)  # then page 1 is stored again
    assert not await service.keep_view("fulfillment", MONTH, max_records=None, sources=sources, names=["a"], parts=[b"old rows"])

    sources = await service.view_sources("fulfillment", MONTH, pages)
    assert sources is not None
    page_key = next(iter(sources))

    def parts() -> Any:  # the page is stored again while the parts are being made
        yield b"old "
        assert cache._db is not None
        cache._db.execute("UPDATE pages SET stored_at = stored_at + 1 WHERE key = ?", (page_key,))
        yield b"rows"

    assert not await service.keep_view("fulfillment", MONTH, max_records=None, sources=sources, names=["a"], parts=parts())
    with pytest.raises(NotStored):
        await service.stored_view("fulfillment", MONTH, max_records=None)
    assert cache._db.execute("SELECT count(*) FROM derived_parts").fetchone()[0] == 0, "no part left behind"
    await session.aclose()


async def test_a_view_is_not_kept_for_a_secret_column_another_identity_or_before_sign_in(sim_app: Any, cache: PageCache) -> None:
    session, service, pages = await kept_run(sim_app, cache)
    assert not await keep(service, pages, [b"x"], names=("a", "licensePassword"))
    await session.aclose()
    other = make_session(sim_app, cache=cache, user=PRODUCER)
    await ReportsService(other).report_names()
    with pytest.raises(NotStored):
        await ReportsService(other).stored_view("fulfillment", MONTH, max_records=None)
    await other.aclose()
    later = make_session(sim_app, cache=cache)  # the same identity, not yet signed in to the service
    with pytest.raises(NotStored):
        await ReportsService(later).stored_view("fulfillment", MONTH, max_records=None)
    await ReportsService(later).report_names()
    assert (await ReportsService(later).stored_view("fulfillment", MONTH, max_records=None))[0] == [b"the ", b"grid"]
    await later.aclose()
    assert cache.clear() > 0
    assert cache.get_derived("anything") is None
    for table in ("derived_sets", "derived_parts"):
        assert cache._db is not None and cache._db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, "cleared with the pages"


def test_repeats_forget_their_keys_and_keep_their_count() -> None:
    from flextui.api.reports import Repeats

    repeats = Repeats("fulfillment")
    rows = [{"fulfillmentID": f"F{i}"} for i in range(5)]
    assert repeats.fresh(rows) == rows and repeats.fresh(rows[:2]) == [] and repeats.dropped == 2
    repeats.forget()
    assert repeats.fresh(rows[:2]) == rows[:2] and repeats.dropped == 2, "the keys are gone, the count stays"
    repeats.remember([("F9",), (None,)], dropped=3)
    assert repeats.fresh([{"fulfillmentID": "F9"}, {"fulfillmentID": None}]) == [{"fulfillmentID": None}] and repeats.dropped == 6
