"""The lane of page work: one thread, in order, for decoding, storing and packing pages (`api/lane.py`)."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time

import pytest

from flextui.api import http, reports
from flextui.api.cache import PageCache
from flextui.api.filters import FilterSet
from flextui.api.http import Session
from flextui.api.lane import NAME, WRITER_NAME, in_lane
from flextui.api.reports import ReportsService

WHO = contextvars.ContextVar("who", default="nobody")


async def test_work_in_the_lane_runs_on_one_thread_one_at_a_time_with_the_callers_context() -> None:
    running = 0
    most = 0
    names: set[str] = set()

    def work(n: int) -> tuple[int, str]:
        nonlocal running, most
        running += 1
        most = max(most, running)
        names.add(threading.current_thread().name)
        time.sleep(0.01)  # a stretch in which a second thread would overlap
        running -= 1
        return n * 2, WHO.get()

    WHO.set("caller")
    got = await asyncio.gather(*(in_lane(work, n) for n in range(6)))
    assert got == [(n * 2, "caller") for n in range(6)], "answers in order, with the caller's context"
    assert most == 1, "never two at once: the event loop competes with one thread, not six"
    assert len(names) == 1 and next(iter(names)).startswith(NAME)
    assert threading.current_thread().name not in names


async def test_a_large_report_page_is_decoded_and_stored_in_the_lane_and_the_cache_read_elsewhere(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(http, "LARGE_BODY", 0)  # every page counts as large here
    where: dict[str, set[str]] = {"parse": set(), "pack": set(), "put": set(), "get": set()}

    def noted(what: str, fn: object) -> object:
        def call(*args: object, **kwargs: object) -> object:
            where[what].add(threading.current_thread().name)
            return fn(*args, **kwargs)  # type: ignore[operator]

        return call

    monkeypatch.setattr(reports, "_page_result", noted("parse", reports._page_result))
    monkeypatch.setattr(PageCache, "pack", noted("pack", PageCache.pack))
    monkeypatch.setattr(PageCache, "put_packed", noted("put", PageCache.put_packed))
    monkeypatch.setattr(PageCache, "get", noted("get", PageCache.get))
    page = await ReportsService(session).fetch_page("fulfillment", FilterSet.build(past_days=7, limit_records=50))
    assert page.rows, "the page is read"
    assert where["parse"] and all(name.startswith(NAME) for name in where["parse"]), where
    assert where["pack"] and all(name.startswith(NAME) for name in where["pack"]), where
    assert where["put"] and all(name.startswith(WRITER_NAME) for name in where["put"]), "SQLite's write beside the lane"
    assert where["get"] and not any(name.startswith(NAME) for name in where["get"]), "a lookup does not queue behind page work"
    loop_thread = threading.current_thread().name
    assert loop_thread not in where["parse"] | where["pack"] | where["put"] | where["get"]


async def test_a_report_page_is_decoded_once_for_the_cache_and_the_grid(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache's secret check and the page's parse share one decode (two were ≈ 4 ms a 1.5 MB page)."""
    from flextui.api import trace, wire

    assert session.cache is not None
    decoded: list[int] = []
    real = wire._fast_loads

    def counting(data: bytes | str) -> object:
        decoded.append(len(data))
        return real(data)

    monkeypatch.setattr(wire, "_fast_loads", counting)
    monkeypatch.setattr(trace, "KEEP_LIMIT", 0)  # the request log decodes small answers for itself: not this page's path
    page = await ReportsService(session).fetch_page("fulfillment", FilterSet.build(past_days=7, limit_records=200), force=True)
    assert len(page.rows) == 200
    page_bodies = [size for size in decoded if size > 20_000]  # the page, not the data model or a sign-in
    assert len(page_bodies) == 1, decoded
