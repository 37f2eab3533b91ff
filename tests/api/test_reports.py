"""The data report service client: data model calls, the pager's two ways of paging, the cache.

The pager is driven against the simulator (counts in the body, links in the
Link header and the body) and against fake servers built with
`httpx.MockTransport` for the forms the simulator does not send: links only
in the body's header (relative, query-only, or on another host), links only
in a response header, and links that go round in a circle.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

import flextui.sim.app as sim_app_module
from flextui.api.cache import PageCache
from flextui.api.errors import ApiError, Invalid, Offline
from flextui.api.filters import Condition, FilterSet, OperatorList
from flextui.api.http import RequestEvent, RetryPolicy, Service, Session
from flextui.api.reports import ReportPage, ReportsService
from flextui.sim.app import create_app
from flextui.sim.world import World

from ..conftest import make_session

MONTH = FilterSet(past_days=30, limit_records=100)


@pytest.fixture(autouse=True)
def _reports_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mount the report service (and tokens, which authentication uses) only."""
    monkeypatch.setattr(sim_app_module, "SERVICE_MODULES", ("tokens", "reports"))


@pytest.fixture
def service(session: Session) -> ReportsService:
    return ReportsService(session)


def page_tasks() -> list[asyncio.Task[Any]]:
    return [t for t in asyncio.all_tasks() if t.get_name().startswith("report-page-") and not t.done()]


# -- data model ----------------------------------------------------------------------


async def test_data_model_calls(service: ReportsService) -> None:
    names = await service.report_names()
    assert "fulfillment" in names and "usage" in names
    types = {t.group: t for t in await service.report_types()}
    assert set(types) == set(names)
    ful = await service.report_type("fulfillment")
    assert ful == types["fulfillment"]
    assert len(ful.columns) >= 10 and ful.date_field == "fulfillDate"
    assert ful.column("quantity").type == "integer"  # type: ignore[union-attr]
    ent_filters = {f.name: f for f in await service.report_filters("entitlement")}
    assert ent_filters["accountID"].column == "CustomersAndPartners.EndCustomerAccountID"
    ops = await service.op_list()
    assert ops.names == ["$eq", "$ne", "$sw", "$ew", "$con", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$btw"] and not ops.get(
        "$sw"
    ).applies_to("integer")  # type: ignore[union-attr]
    assert not ops.notice
    globals_ = {g.name: g for g in await service.global_filters()}
    assert (globals_["limitRecords"].minimum, globals_["limitRecords"].maximum) == (1, 2500)


async def test_data_model_answers_are_cached(service: ReportsService, session: Session) -> None:
    await service.report_types()
    await service.op_list()
    sent = session.requests_sent
    await service.report_types()
    await service.op_list()
    assert session.requests_sent == sent
    await service.op_list(force=True)
    assert session.requests_sent == sent + 1


async def test_filters_checked_against_the_served_model(service: ReportsService) -> None:
    model, ops = await service.report_type("usage"), await service.op_list()
    fs = FilterSet.build(["meterQuantity $in 1,5", "isOverage = true"], past_days=30, report=model, operators=ops)
    rows = await service.fetch_all("usage", fs)
    assert rows and all(r["meterQuantity"] in (1, 5) and r["isOverage"] for r in rows)


async def test_the_newer_operators_select_what_they_say_on_the_simulator(service: ReportsService) -> None:
    """`$nin` went out as one string (every row came back), `$btw` and `$ne` were refused before sending."""
    model, ops = await service.report_type("usage"), await service.op_list()
    every = await service.fetch_all("usage", FilterSet(past_days=30, limit_records=2500))
    accounts = sorted({r["accountId"] for r in every})[:2]
    times = sorted({r["usageTime"] for r in every})
    lo, hi = times[5], times[25]
    fs = FilterSet.build(
        [f"accountId $nin {accounts[0]},{accounts[1]}", f"usageTime $btw {lo},{hi}", "meterType $ne named"],
        past_days=30,
        limit_records=2500,
        report=model,
        operators=ops,
    )
    assert fs.query_json()["accountId"] == {"$nin": accounts} and fs.query_json()["usageTime"] == {"$btw": [lo, hi]}
    rows = await service.fetch_all("usage", fs)
    want = [r for r in every if r["accountId"] not in accounts and lo <= r["usageTime"] <= hi and r["meterType"] != "named"]
    assert rows == want and rows
    assert {r["usageTime"] for r in await service.fetch_all("usage", fs.with_conditions(fs.conditions[1:2]))} == set(times[5:26])
    fulfillment = await service.report_type("fulfillment")
    sample = (await service.fetch_all("fulfillment", FilterSet(past_days=30, limit_records=2500)))[50]["fulfillDate"]
    spaced = f"{sample[:10]} {sample[11:19]}"
    at = FilterSet.build([f"fulfillDate $btw {spaced},{spaced}"], past_days=30, limit_records=2500, report=fulfillment, operators=ops)
    found = await service.fetch_all("fulfillment", at)
    assert found and {r["fulfillDate"] for r in found} == {sample}, "the vendor's date-time form, both bounds included"


@pytest.mark.parametrize("dialect", ["op-list-map", "op-list-notation"])
async def test_an_op_list_in_the_vendor_tables_shapes_reads_every_operator(world: World, dialect: str) -> None:
    session = make_session(create_app(world, dialects=(dialect,)))
    try:
        ops = await ReportsService(session).op_list()
    finally:
        await session.aclose()
    assert ops.names == ["$eq", "$ne", "$sw", "$ew", "$con", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$btw"]
    assert not ops.notice and ops.get("$nin").description == "Exclude multiple values"  # type: ignore[union-attr]
    assert not ops.get("$sw").applies_to("integer"), "no types given: the documented ones"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("fault", "said"),
    [({"status": 500}, "could not be had: the data reports service failed: 500"), ({"kind": "error", "status": 200}, "names no operator")],
)
async def test_an_op_list_that_fails_or_names_nothing_stands_the_defaults_in_with_a_notice(
    service: ReportsService, session: Session, faults: Any, fault: dict[str, Any], said: str
) -> None:
    faults.add(r"/op-list", **fault)
    ops = await service.op_list()
    assert ops.operators == OperatorList().operators and said in ops.notice, ops.notice
    assert "; conditions are checked against the documented operators instead ($eq $ne" in ops.notice
    faults.clear()
    fresh = await service.op_list()
    assert not fresh.notice, "an answer that could not be read was not kept: the next one is asked for"


# -- pages by number, concurrently ----------------------------------------------------


async def test_all_pages_in_order(service: ReportsService) -> None:
    seen: list[ReportPage] = []
    async with service.pager("fulfillment", MONTH) as pages:
        async for page in pages:
            seen.append(page)
    assert pages.concurrent and pages.total_pages == len(seen) >= 15
    assert [p.number for p in seen] == list(range(1, len(seen) + 1))
    number, rows, total = seen[-1]
    assert total == pages.total_records == sum(len(p.rows) for p in seen)
    ids = [r["fulfillmentID"] for p in seen for r in p.rows]
    assert len(ids) == len(set(ids)) == total
    stamps = [r["fulfillDate"] for p in seen for r in p.rows]
    assert stamps == sorted(stamps)


async def test_get_and_post_give_the_same_rows(service: ReportsService, sim_app: Any, cache: PageCache) -> None:
    fs = FilterSet.build(["productName $sw Flex"], past_days=14, limit_records=50)
    by_get = await service.fetch_all("usage", fs)
    read_only = make_session(sim_app, read_only=True)  # a report POST is a read: allowed here
    try:
        by_post = await ReportsService(read_only).fetch_all("usage", fs, method="POST")
    finally:
        await read_only.aclose()
    assert by_get == by_post and by_get and all(r["productName"].startswith("Flex") for r in by_get)


async def test_start_page_and_limits(service: ReportsService) -> None:
    every = await service.fetch_all("fulfillment", MONTH)
    assert len(await service.fetch_all("fulfillment", MONTH, max_records=250)) == 250
    async with service.pager("fulfillment", MONTH, start_page=3, max_pages=2) as pages:
        got = [p async for p in pages]
    assert [p.number for p in got] == [3, 4]
    assert [r for p in got for r in p.rows] == every[200:400]


async def test_concurrent_paging_is_faster_and_bounded(world: World) -> None:
    app = create_app(world, latency_ms=50)
    session = make_session(app)
    peak = 0

    def watch(event: RequestEvent) -> None:
        nonlocal peak
        peak = max(peak, event.in_flight)

    session.listeners.append(watch)
    service = ReportsService(session)
    # small pages: the 50 ms latency, not CPU (shared with other processes), sets the pace
    small = FilterSet(past_days=30, limit_records=15)
    try:
        started = time.perf_counter()
        sequential = await service.fetch_all("served-device", small, concurrency=1)
        t_seq = time.perf_counter() - started
        assert peak == 1
        started = time.perf_counter()
        async with service.pager("served-device", small, concurrency=6) as pages:
            concurrent = [r async for r in pages.rows()]
        t_conc = time.perf_counter() - started
    finally:
        await session.aclose()
    assert pages.total_pages is not None and 18 <= pages.total_pages <= 22
    assert concurrent == sequential
    assert 3 <= peak <= 6
    # ~1.0 s against ~0.2 s here; asserted loosely for busy machines
    assert t_seq >= 2 * t_conc, f"sequential {t_seq:.2f} s, concurrent {t_conc:.2f} s"


# -- cancellation ----------------------------------------------------------------------


async def test_breaking_early_leaves_nothing_running(world: World) -> None:
    session = make_session(create_app(world, latency_ms=50))
    try:
        service = ReportsService(session)
        async with service.pager("fulfillment", MONTH, concurrency=6) as pages:
            async for page in pages:
                if page.number == 2:
                    assert page_tasks(), "later pages are being fetched meanwhile"
                    break
        assert page_tasks() == []
        assert session.in_flight == 0
        # without `async with`: aclose does the same
        pages = service.pager("usage", MONTH, concurrency=6)
        first = await pages.__anext__()
        second = await pages.__anext__()
        assert (first.number, second.number) == (1, 2)
        await pages.aclose()
        assert page_tasks() == [] and session.in_flight == 0
        with pytest.raises(StopAsyncIteration):
            await pages.__anext__()
    finally:
        await session.aclose()


async def test_cancelling_the_reader_cancels_the_requests(world: World) -> None:
    session = make_session(create_app(world, latency_ms=100))
    service = ReportsService(session)
    got: list[int] = []

    async def read() -> None:
        async for page in service.pager("usage", MONTH, concurrency=4):
            got.append(page.number)

    try:
        reader = asyncio.create_task(read())
        while not got:
            await asyncio.sleep(0.01)
        while not page_tasks():  # until pages 2.. are in flight
            await asyncio.sleep(0.01)
        reader.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reader
        assert page_tasks() == []
        assert session.in_flight == 0
        assert got == [1]
    finally:
        await session.aclose()


# -- errors ------------------------------------------------------------------------------


async def test_server_refusals_become_invalid(service: ReportsService) -> None:
    unchecked = FilterSet((Condition("fulfilmentID", "$eq", "x"),), past_days=1)
    with pytest.raises(Invalid) as info:
        await service.fetch_all("fulfillment", unchecked)
    assert "fulfilmentID" in str(info.value) and info.value.status == 400


# -- cache and offline ---------------------------------------------------------------


async def test_pages_are_cached_and_read_offline(sim_app: Any, cache: PageCache) -> None:
    online = make_session(sim_app, cache=cache)
    try:
        service = ReportsService(online)
        first = await service.fetch_all("device", MONTH)
        sent = online.requests_sent
        assert await service.fetch_all("device", MONTH) == first
        assert online.requests_sent == sent, "the second reading came from the cache"
        other = FilterSet(past_days=29, limit_records=100)
        await service.fetch_all("device", other)
        assert online.requests_sent > sent, "other filters are other cache entries"
    finally:
        await online.aclose()
    offline = make_session(sim_app, cache=cache, offline=True)
    try:
        service = ReportsService(offline)
        assert await service.fetch_all("device", MONTH) == first
        assert offline.requests_sent == 0
        with pytest.raises(Offline):
            await service.fetch_all("usage", MONTH)
    finally:
        await offline.aclose()


# -- fake servers: the other link forms ----------------------------------------------------

FAKE = "http://fno.example"


class FakeReports:
    """A report server of four pages of three rows whose links come in a chosen form."""

    def __init__(self, style: str, pages: int = 4) -> None:
        self.style = style
        self.pages = pages
        self.requests: list[httpx.Request] = []

    def link(self, number: int) -> str:
        query = f"pageNumber={number}&pastDays=30&limitRecords=3&mode=BATCH"
        if self.style == "body-mixed":
            return {
                2: f"/data/api/v1/report/usage?{query}",
                3: f"?{query}",
                4: f"https://internal.example:8443/data/api/v1/report/usage?{query}",
            }[number]
        return f"{FAKE}/data/api/v1/report/usage?{query}"

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        number = int(parse_qs(urlsplit(str(request.url)).query).get("pageNumber", ["1"])[0])
        rows = [{"usageId": f"U{number}-{i}", "used": i * 1.5} for i in range(3)]
        nxt = self.link(number + 1) if number < self.pages else None
        if self.style == "circle":
            nxt = self.link(1)
        headers: dict[str, str] = {}
        if self.style.startswith("body") or self.style == "circle":
            body: Any = {"header": {"pageNumber": number, "nextPageURL": nxt, "previousPageURL": None}, "data": rows}
        elif self.style == "link-header":
            body = {"data": rows}
            if nxt:
                headers["Link"] = f'<{nxt}>; rel="next"'
        else:  # x-header, and a bare list as the body
            body = rows
            if nxt:
                headers["X-Next-Page"] = nxt
        return httpx.Response(200, content=json.dumps(body).encode(), headers={"content-type": "application/json", **headers})


def fake_session(fake: FakeReports) -> Session:
    return Session(FAKE, auth=httpx.BasicAuth("u", "p"), transport=httpx.MockTransport(fake.handler), retry=RetryPolicy(attempts=1))


@pytest.mark.parametrize("style", ["body-absolute", "body-mixed", "link-header", "x-header"])
async def test_pager_follows_links_in_every_form(style: str) -> None:
    fake = FakeReports(style)
    session = fake_session(fake)
    try:
        fs = FilterSet(past_days=30, limit_records=3, mode="BATCH")
        async with ReportsService(session).pager("usage", fs) as pages:
            got = [p async for p in pages]
    finally:
        await session.aclose()
    assert not pages.concurrent and pages.total_records is None
    assert [p.number for p in got] == [1, 2, 3, 4]
    assert [r["usageId"] for p in got for r in p.rows] == [f"U{n}-{i}" for n in range(1, 5) for i in range(3)]
    # every request went to the profile's own host and data service, with its credentials
    assert {(r.url.host, r.url.path) for r in fake.requests} == {("fno.example", "/data/api/v1/report/usage")}
    assert all(r.headers["authorization"].startswith("Basic ") for r in fake.requests)


async def test_pager_stops_on_links_in_a_circle() -> None:
    fake = FakeReports("circle")
    session = fake_session(fake)
    try:
        rows = await ReportsService(session).fetch_all("usage", FilterSet(past_days=30, limit_records=3, mode="BATCH"))
    finally:
        await session.aclose()
    assert len(fake.requests) <= 2
    assert [r["usageId"] for r in rows][:3] == ["U1-0", "U1-1", "U1-2"]


async def test_link_resolution(service: ReportsService) -> None:
    base = service.session.base(Service.DATA)
    here = f"{base}/api/v1/report/usage?pageNumber=1"
    assert service.resolve_link("?pageNumber=2", here) == "/api/v1/report/usage?pageNumber=2"
    assert service.resolve_link(f"{base}/api/v1/report/usage?pageNumber=3") == "/api/v1/report/usage?pageNumber=3"
    assert service.resolve_link("https://elsewhere.example/prefix/data/api/v1/report/usage?x=1") == "/api/v1/report/usage?x=1"
    with pytest.raises(ApiError, match="does not point into the data report service"):
        service.resolve_link("https://elsewhere.example/steal?x=1")
