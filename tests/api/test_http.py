"""Session: retries for reads only, Retry-After, dropped connections, error mapping, listeners, offline."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

import flextui.sim.app as sim_app_module
from flextui.api.errors import (
    ApiError,
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Offline,
    RateLimited,
    ServerError,
    Unauthorized,
    Unreachable,
    Unreadable,
    from_status,
)
from flextui.api.http import BearerAuth, RequestEvent, RetryPolicy, Service, Session, _retry_after, decode_json, envelope, error_message
from flextui.api.tokens import TokenCreate, TokenSearch, TokensService, TokenUpdate
from flextui.sim.faults import FaultPlan
from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, World

from ..conftest import _free_port, make_session

LIST = "/uar/v1/tokens"
LIST_FAULT = r"GET /flexnet/uar/v1/tokens$"
CREATE_FAULT = r"POST /flexnet/uar/v1/token$"


@pytest.fixture(autouse=True)
def _tokens_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mount only the token service: other simulator modules may be unfinished."""
    monkeypatch.setattr(sim_app_module, "SERVICE_MODULES", ("tokens",))


@pytest.fixture
async def plain(sim_app: Any) -> AsyncIterator[Session]:
    """A session without a cache (fast retries; a clock that stands still, so no message says a time it took)."""
    session = make_session(sim_app)
    session.clock = lambda: 0.0
    yield session
    await session.aclose()


async def list_admin(session: Session) -> Any:
    return envelope(await session.get_json(Service.TOKENS, LIST, params={"username": ADMIN[0]}))


# -- retries ----------------------------------------------------------------------------------


async def test_get_retried_after_503(plain: Session, faults: FaultPlan) -> None:
    faults.add(LIST_FAULT, status=503, times=1)
    rows = await list_admin(plain)
    assert isinstance(rows, list) and rows
    assert plain.requests_sent == 2
    assert faults.seen == ["GET /flexnet/uar/v1/tokens"] * 2


@pytest.mark.parametrize("status", [502, 503, 504])
async def test_get_gives_up_after_attempts(plain: Session, faults: FaultPlan, status: int) -> None:
    faults.add(LIST_FAULT, status=status, times=10)
    with pytest.raises(ServerError) as info:
        await list_admin(plain)
    assert info.value.status == status
    assert "fault injected" in info.value.message
    assert plain.requests_sent == 3


async def test_a_request_given_up_says_how_long_it_took_not_how_long_it_waited(sim_app: Any, faults: FaultPlan) -> None:
    """Two timeouts of 30 s said "tried 2 times over 0.19 s": the waits between the tries, not the minute it took.

    The answer is slower than the deadline (a slow fault); the session's clock is faked so that each request
    takes 31 s of it, as two 30 s timeouts and their waits do: the message says the time from the first send
    to giving up, whatever the machine's speed."""
    session = make_session(sim_app, timeout=0.05, retry=RetryPolicy(attempts=2, backoff=0.001, budget_seconds=600.0))
    session.clock = lambda: 31.0 * len(faults.seen)  # (each request arriving at the simulator: 31 s more)
    faults.add(LIST_FAULT, kind="slow", delay=30.0, times=10)
    try:
        with pytest.raises(Unreachable) as info:
            await list_admin(session)
    finally:
        await session.aclose()
    assert faults.seen == ["GET /flexnet/uar/v1/tokens"] * 2
    assert str(info.value) == (
        "GET /flexnet/uar/v1/tokens timed out: the token service sent no complete answer within 0.05 s; tried 2 times over 62 s;"
        " try again later, or give the profile a longer timeout (now 0.05 s)"
    )


async def test_a_request_given_up_quickly_says_how_often_it_was_tried(plain: Session, faults: FaultPlan) -> None:
    """Under a second in all, the time is not worth saying (and the test does not depend on the machine's speed)."""
    plain.clock = lambda: 0.25 * len(faults.seen)
    faults.add(LIST_FAULT, status=503, times=10)
    with pytest.raises(ServerError) as info:
        await list_admin(plain)
    assert "; tried 3 times; try again later" in str(info.value), str(info.value)


async def test_500_is_not_retried(plain: Session, faults: FaultPlan) -> None:
    faults.add(LIST_FAULT, status=500, times=1)
    with pytest.raises(ServerError):
        await list_admin(plain)
    assert plain.requests_sent == 1


async def test_post_create_hit_by_503_is_not_retried(plain: Session, faults: FaultPlan, world: World) -> None:
    faults.add(CREATE_FAULT, status=503, times=1)
    with pytest.raises(ServerError) as info:
        await TokensService(plain).create(TokenCreate(tokenName="no-retry-1", expiryStr="1d"))
    assert info.value.status == 503
    assert plain.requests_sent == 1
    assert faults.seen == ["POST /flexnet/uar/v1/token"]
    assert "no-retry-1" not in token_store(world).by_name


@pytest.mark.parametrize("method", ["PUT", "DELETE", "POST"])
async def test_other_writes_are_not_retried(plain: Session, faults: FaultPlan, world: World, method: str) -> None:
    name = next(t.name for t in token_store(world).by_name.values() if t.creator == ADMIN[0] and t.expiry_ms > world.now_ms())
    faults.add(rf"{method} /flexnet/uar/v1/token/", status=503, times=1)
    svc = TokensService(plain)
    call = {
        "PUT": lambda: svc.update(name, TokenUpdate(tokenDescription="x")),
        "DELETE": lambda: svc.delete(name),
        "POST": lambda: svc.rotate(name),
    }[method]
    with pytest.raises(ServerError):
        await call()
    assert plain.requests_sent == 1
    assert name in token_store(world).by_name


async def test_post_reads_are_retried(plain: Session, faults: FaultPlan) -> None:
    faults.add(r"POST /flexnet/uar/v1/tokens/search", status=503, times=1)
    faults.add(r"POST /flexnet/uar/v1/token/verification", status=503, times=1)
    svc = TokensService(plain)
    assert await svc.search(TokenSearch(tokenCreator=ADMIN[0]))
    assert not (await svc.verify("rna_" + "0" * 44)).valid
    assert plain.requests_sent == 4


async def test_429_retry_after_is_honoured(plain: Session, faults: FaultPlan) -> None:
    faults.add(LIST_FAULT, status=429, times=1, retry_after=0.3)
    events: list[RequestEvent] = []
    plain.listeners.append(events.append)
    rows = await list_admin(plain)
    assert rows
    assert [e.elapsed for e in events if e.phase == "wait"] == [0.3], "the server's wait, not the backoff (about a millisecond)"
    assert plain.requests_sent == 2


async def test_503_retry_after_is_honoured_too(plain: Session, faults: FaultPlan) -> None:
    faults.add(LIST_FAULT, status=503, times=1, retry_after=0.3)
    events: list[RequestEvent] = []
    plain.listeners.append(events.append)
    assert await list_admin(plain)
    assert [e.elapsed for e in events if e.phase == "wait"] == [0.3]
    assert plain.requests_sent == 2


async def _waits_with_a_cap_of_50_ms(sim_app: Any, faults: FaultPlan, **fault: Any) -> list[float | None]:
    """The pauses before each retry of a listing whose first answer is a 429 (`fault`), the wait capped at 0.05 s."""
    session = make_session(sim_app, retry=RetryPolicy(attempts=2, backoff=0.001, max_retry_after=0.05))
    faults.add(LIST_FAULT, status=429, times=1, **fault)
    events: list[RequestEvent] = []
    session.listeners.append(events.append)
    try:
        assert await list_admin(session)
    finally:
        await session.aclose()
    return [e.elapsed for e in events if e.phase == "wait"]


async def test_429_retry_after_is_capped(sim_app: Any, faults: FaultPlan) -> None:
    waits = await _waits_with_a_cap_of_50_ms(sim_app, faults, retry_after=30)
    assert waits and all(w is not None and w <= 0.05 for w in waits), f"the 30 s Retry-After was capped: {waits}"


async def test_429_retry_after_as_an_http_date_is_honoured(sim_app: Any, faults: FaultPlan) -> None:
    """RFC 9110's other form: a date 30 s after the answer's Date header is a 30 s wait (capped here)."""
    assert await _waits_with_a_cap_of_50_ms(sim_app, faults, retry_after=30, retry_date=True) == [0.05], (
        "the date's 30 s, capped: not the backoff"
    )


@pytest.mark.parametrize(
    ("headers", "wait"),
    [
        ({"Retry-After": "Wed, 21 Oct 2026 07:28:30 GMT", "Date": "Wed, 21 Oct 2026 07:28:00 GMT"}, 30.0),
        ({"Retry-After": "Wed, 21 Oct 2026 07:27:00 GMT", "Date": "Wed, 21 Oct 2026 07:28:00 GMT"}, 0.0),
        ({"Retry-After": " 12 "}, 12.0),
        ({"Retry-After": "soon"}, None),
        ({"Retry-After": ""}, None),
    ],
)
def test_retry_after_reads_seconds_and_http_dates(headers: dict[str, str], wait: float | None) -> None:
    assert _retry_after(httpx.Response(429, headers=headers)) == wait


async def test_429_exhausted_raises_rate_limited(plain: Session, faults: FaultPlan) -> None:
    faults.add(LIST_FAULT, status=429, times=10, retry_after=0.01)
    with pytest.raises(RateLimited) as info:
        await list_admin(plain)
    assert info.value.retry_after == pytest.approx(0.01)
    assert info.value.status == 429
    assert plain.requests_sent == 3


async def test_429_on_create_not_retried(plain: Session, faults: FaultPlan) -> None:
    faults.add(CREATE_FAULT, status=429, times=1, retry_after=0.01)
    with pytest.raises(RateLimited):
        await TokensService(plain).create(TokenCreate(tokenName="rate-limited", expiryStr="1d"))
    assert plain.requests_sent == 1


async def test_dropped_connection_then_success(plain: Session, faults: FaultPlan) -> None:
    faults.add(LIST_FAULT, drop=True, times=2)
    assert await list_admin(plain)
    assert plain.requests_sent == 3


async def test_dropped_connection_becomes_unreachable(plain: Session, faults: FaultPlan) -> None:
    faults.add(LIST_FAULT, drop=True, times=10)
    with pytest.raises(Unreachable) as info:
        await list_admin(plain)
    assert "cannot reach" in info.value.message
    assert plain.requests_sent == 3


async def test_dropped_connection_on_create_is_unreachable_once(plain: Session, faults: FaultPlan) -> None:
    faults.add(CREATE_FAULT, drop=True, times=10)
    with pytest.raises(Unreachable):
        await TokensService(plain).create(TokenCreate(tokenName="dropped-1", expiryStr="1d"))
    assert plain.requests_sent == 1


async def test_unreachable_port() -> None:
    session = Session(
        f"http://127.0.0.1:{_free_port()}", auth=httpx.BasicAuth(*ADMIN), retry=RetryPolicy(attempts=2, backoff=0.001), timeout=5
    )
    try:
        with pytest.raises(Unreachable) as info:
            await TokensService(session).list(username=ADMIN[0])
        assert "cannot reach" in str(info.value)
        assert session.requests_sent == 2
        with pytest.raises(Unreachable):
            await TokensService(session).create(TokenCreate(tokenName="nowhere-1", expiryStr="1d"))
        assert session.requests_sent == 3
    finally:
        await session.aclose()


async def test_undecodable_body_is_an_api_error_not_a_crash() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-encoding": "gzip", "content-type": "application/json"}, content=b"not gzip at all")

    session = Session("http://fno.example", transport=httpx.MockTransport(handler), retry=RetryPolicy(attempts=2, backoff=0.001))
    try:
        with pytest.raises(ApiError, match="could not be decoded"):
            await session.get_json(Service.TOKENS, LIST)
        assert session.requests_sent == 2
    finally:
        await session.aclose()


async def test_timeout_is_unreachable() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    session = Session("http://fno.example", transport=httpx.MockTransport(handler), retry=RetryPolicy(attempts=1))
    try:
        with pytest.raises(Unreachable, match="timed out"):
            await session.get_json(Service.TOKENS, LIST)
    finally:
        await session.aclose()


async def test_an_empty_answer_to_a_read_is_unreadable_but_a_write_may_be_empty() -> None:
    """An empty 200 taken as "no items" would end a listing early and look complete (tokens search, registry pages)."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"")

    session = Session("http://fno.example", transport=httpx.MockTransport(handler), retry=RetryPolicy(attempts=1))
    try:
        with pytest.raises(Unreadable, match="the token service answered POST /flexnet/uar/v1/tokens/search with 200 OK and an empty body"):
            await session.send_json(Service.TOKENS, "POST", "/uar/v1/tokens/search", json_body={}, mutating=False)
        with pytest.raises(Unreadable, match="empty body"):
            await session.get_json(Service.TOKENS, LIST)
        with pytest.raises(Unreadable, match="empty body"):
            decode_json(await session.request(Service.REGISTRY, "GET", "/api/v1/projects"))
        assert await session.send_json(Service.TOKENS, "PUT", "/uar/v1/token/x", json_body={}) is None
        assert decode_json(httpx.Response(200, content=b""), allow_empty=True) is None
    finally:
        await session.aclose()


async def test_a_connection_cut_mid_answer_says_so(plain: Session, faults: FaultPlan) -> None:
    faults.add(LIST_FAULT, kind="truncate", times=10)
    with pytest.raises(Unreachable) as info:
        await list_admin(plain)
    assert "the connection to the token service broke before the whole answer to GET /flexnet/uar/v1/tokens came" in str(info.value)
    assert "cannot reach" not in str(info.value)
    assert plain.requests_sent == 3, "a read cut short is retried"


async def test_an_html_page_instead_of_json_is_named(plain: Session, faults: FaultPlan) -> None:
    faults.add(LIST_FAULT, kind="html", status=200)
    with pytest.raises(Unreadable) as info:
        await list_admin(plain)
    assert "the token service's answer to GET /flexnet/uar/v1/tokens (200 OK) is an HTML page, not JSON" in str(info.value)
    faults.add(LIST_FAULT, kind="html", status=502, times=10)
    with pytest.raises(ServerError) as error:
        await list_admin(plain)
    assert str(error.value) == (
        "the token service is not answering behind its gateway: 502 Bad Gateway to GET /flexnet/uar/v1/tokens,"
        " an HTML page from a proxy or gateway; tried 3 times; try again later"
    )


def test_the_debug_dump_of_an_unreadable_answer_holds_no_secret(caplog: pytest.LogCaptureFixture) -> None:
    """The raw body of an answer that is not JSON goes to the log for support; a token value, JWT or secret in it must not."""
    value = "rna_" + "ab12" * 11
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
    body = (
        '{"responseObject": {"tokenName": "ci", "tokenValue": "' + value + '", "jwt": "' + jwt + '", "registrySecret": "Hunter2-Secret", '
        '"password": "pw-Secret-9"}} trailing junk from a proxy'
    ).encode()
    with caplog.at_level(logging.DEBUG, logger="flextui.http"):
        with pytest.raises(Unreadable):
            decode_json(httpx.Response(200, content=body, headers={"content-type": "application/json"}))
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "unreadable answer" in logged and "tokenName" in logged and "trailing junk" in logged, "the dump is still useful"
    for secret in (value, jwt, "Hunter2-Secret", "pw-Secret-9", "ab12ab12"):
        assert secret not in logged, secret


# -- error mapping ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, Invalid),
        (422, Invalid),
        (401, Unauthorized),
        (403, Forbidden),
        (404, NotFound),
        (409, Conflict),
        (429, RateLimited),
        (500, ServerError),
        (503, ServerError),
    ],
)
async def test_statuses_map_to_typed_errors(status: int, cls: type[ApiError]) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json={"statusMessage": f"status {status}", "responseObject": None, "field": "tokenName"})

    session = Session("http://fno.example", transport=httpx.MockTransport(handler), retry=RetryPolicy(attempts=1))
    try:
        with pytest.raises(cls) as info:
            await session.get_json(Service.TOKENS, LIST)
    finally:
        await session.aclose()
    assert info.value.status == status
    if status < 429:
        assert info.value.message == f"status {status}"
    else:  # a server error or rate limit is said in words, the server's message in them
        assert f'to GET /flexnet/uar/v1/tokens, saying "status {status}"' in info.value.message
    if cls in (Invalid, Conflict):
        assert info.value.field == "tokenName"
    assert type(from_status(status, "m")) is cls


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"json": {"statusMessage": "bad \x1b[2J thing\n"}}, "bad \x1b[2J thing"),  # ESC kept for the display to show as ␛
        ({"json": {"message": "registry says no"}}, "registry says no"),
        ({"json": {"status": "error", "message": "beta says no"}}, "beta says no"),
        ({"json": "a bare string"}, "a bare string"),
        ({"text": "<html>Bad Gateway</html>"}, "Bad Gateway (an HTML page from a proxy or gateway, not the service)"),
        (
            {
                "text": "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>",
                "headers": {"content-type": "text/html"},
            },
            "502 Bad Gateway (an HTML page from a proxy or gateway, not the service)",
        ),
        ({"content": b""}, "Bad Request"),
        ({"json": {"statusMessage": "x" * 1000}}, "x" * 300),
    ],
)
def test_error_message_shapes(kwargs: dict[str, Any], expected: str) -> None:
    message, field = error_message(httpx.Response(400, **kwargs))
    assert message.strip() == expected.strip()
    assert field is None
    assert "\n" not in message and "\r" not in message, "one line"


def test_decode_json() -> None:
    assert decode_json(httpx.Response(204)) is None
    assert decode_json(httpx.Response(200, json={"a": 1})) == {"a": 1}
    with pytest.raises(ApiError, match="not JSON"):
        decode_json(httpx.Response(200, text="<html>login page</html>", headers={"content-type": "text/html"}))


async def test_retry_after_header_forms() -> None:
    # A Retry-After that is neither seconds nor an HTTP-date falls back to the backoff (and does not crash).
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": "Wed, 21 Octember"}, json={"statusMessage": "slow down"})

    session = Session("http://fno.example", transport=httpx.MockTransport(handler), retry=RetryPolicy(attempts=2, backoff=0.001))
    try:
        with pytest.raises(RateLimited) as info:
            await session.get_json(Service.TOKENS, LIST)
        assert info.value.retry_after is None
        assert session.requests_sent == 2
    finally:
        await session.aclose()


# -- listeners, logs, urls ---------------------------------------------------------------------------


async def test_listeners_get_start_and_end_events(plain: Session, faults: FaultPlan) -> None:
    events: list[RequestEvent] = []
    plain.listeners.append(events.append)
    await list_admin(plain)
    assert [e.phase for e in events] == ["start", "end"]
    start, end = events
    assert start.method == end.method == "GET" and start.path == end.path == LIST
    assert start.in_flight == 1 and end.in_flight == 0
    assert end.status == 200 and end.error is None and isinstance(end.elapsed, float)  # reported (how long: bench/)
    assert plain.in_flight == 0

    events.clear()
    faults.add(LIST_FAULT, status=503, times=1)
    await list_admin(plain)
    assert [(e.phase, e.status) for e in events] == [("start", None), ("end", 503), ("wait", 503), ("start", None), ("end", 200)]
    assert events[1].error and "503" in events[1].error
    assert isinstance(events[2].elapsed, float), "the wait before a retry is told, with its length"


async def test_listener_sees_failures_and_broken_listener_is_harmless(plain: Session, faults: FaultPlan) -> None:
    events: list[RequestEvent] = []

    def broken(event: RequestEvent) -> None:
        raise RuntimeError("listener bug")

    plain.listeners.extend([broken, events.append])
    faults.add(LIST_FAULT, drop=True, times=10)
    with pytest.raises(Unreachable):
        await list_admin(plain)
    ends = [e for e in events if e.phase == "end"]
    assert len(ends) == 3 and all(e.status is None and e.error for e in ends)
    assert plain.in_flight == 0


async def test_logs_never_carry_credentials_or_token_values(plain: Session, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    created = await TokensService(plain).create(TokenCreate(tokenName="log-check-1", expiryStr="1d"))
    await TokensService(plain).verify(created.value)
    text = caplog.text
    assert "POST /uar/v1/token" in text
    assert ADMIN[1] not in text and created.value not in text


async def test_bearer_auth_session(sim_app: Any, plain: Session) -> None:
    created = await TokensService(plain).create(TokenCreate(tokenName="bearer-sess", expiryStr="1d"))
    auth = BearerAuth(created.value)
    assert created.value not in repr(auth)
    session = Session(
        sim_app_module.SIM_BASE_URL, auth=auth, transport=sim_app_module.in_process_transport(sim_app), retry=RetryPolicy(attempts=1)
    )
    try:
        assert await TokensService(session).count(username=ADMIN[0]) > 0
        await TokensService(plain).delete("bearer-sess")
        with pytest.raises(Unauthorized):
            await TokensService(session).count(username=ADMIN[0])
    finally:
        await session.aclose()


def test_service_urls_and_overrides() -> None:
    session = Session("https://flex1107.flexnetoperations.com/", overrides={"registry": "https://reg.example/api/"})
    assert session.url(Service.TOKENS, "/uar/v1/tokens") == "https://flex1107.flexnetoperations.com/flexnet/uar/v1/tokens"
    assert session.url(Service.TOKENS, "uar/v1/token") == "https://flex1107.flexnetoperations.com/flexnet/uar/v1/token"
    assert session.url(Service.REGISTRY, "/projects") == "https://reg.example/api/projects"


async def test_offline_session_sends_nothing(sim_app: Any) -> None:
    session = make_session(sim_app, offline=True)
    try:
        with pytest.raises(Offline):
            await list_admin(session)
        with pytest.raises(Offline):
            await TokensService(session).search(TokenSearch(tokenName="*"))
        assert session.requests_sent == 0
        assert isinstance(Offline("x"), Unreachable)
    finally:
        await session.aclose()


async def test_none_params_are_not_sent() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json={"statusMessage": "Successful", "responseObject": []})

    session = Session("http://fno.example", transport=httpx.MockTransport(handler))
    try:
        await TokensService(session).list(username=ADMIN[0])
    finally:
        await session.aclose()
    assert seen == ["http://fno.example/flexnet/uar/v1/tokens?username=admin%40flexdemo.example"]


async def test_a_trickling_answer_is_given_up_at_the_total_deadline() -> None:
    """httpx's read timeout restarts on every byte; the session's deadline covers the whole answer."""
    import asyncio

    class Trickle(httpx.AsyncByteStream):
        async def __aiter__(self):  # type: ignore[override]
            for _ in range(1000):
                await asyncio.sleep(0.05)
                yield b" "

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=Trickle(), headers={"content-type": "application/json"})

    s = Session(
        "https://fno.example",
        auth=httpx.BasicAuth("u", "p"),
        transport=httpx.MockTransport(handler),
        timeout=0.3,
        retry=RetryPolicy(attempts=3, backoff=0.01, budget_seconds=0.5),
    )
    async with s:
        with pytest.raises(Unreachable, match="no complete answer within 0.3 s"):
            await s.get_json(Service.TOKENS, "/uar/v1/tokens")
    assert s.requests_sent <= 2, "the retry budget bounds the attempts"


async def test_the_token_api_is_found_at_either_documented_address() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if request.url.path.startswith("/flexnet/"):
            return httpx.Response(404, json={"timestamp": "…", "status": 404, "error": "Not Found"})
        return httpx.Response(200, json={"statusMessage": "Successful", "responseObject": 3})

    s = Session("https://fno.example", auth=httpx.BasicAuth("u", "p"), transport=httpx.MockTransport(handler))
    async with s:
        assert envelope(await s.get_json(Service.TOKENS, "/uar/v1/tokens/count")) == 3
        assert envelope(await s.get_json(Service.TOKENS, "/uar/v1/tokens/count")) == 3
    assert seen == ["/flexnet/uar/v1/tokens/count", "/uar/v1/tokens/count", "/uar/v1/tokens/count"]


async def test_the_token_services_own_not_found_is_not_a_wrong_address() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"statusMessage": "no token named x", "responseObject": None})

    s = Session("https://fno.example", auth=httpx.BasicAuth("u", "p"), transport=httpx.MockTransport(handler))
    async with s:
        with pytest.raises(NotFound, match="no token named x"):
            await s.get_json(Service.TOKENS, "/uar/v1/token/x")
    assert s.requests_sent == 1


async def test_a_huge_page_is_decoded_and_parsed_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """100,000 items in one answer: decoding, scrubbing and parsing run off the event loop (`api/lane.py`), so keys keep flowing."""
    import json as jsonlib

    from flextui.api.paging import collect
    from flextui.api.tokens import TokensService

    items = [{"tokenName": f"t-{i:06d}", "tokenType": "NORMAL", "username": "u@x"} for i in range(100_000)]
    body = jsonlib.dumps({"statusMessage": "Successful", "responseObject": items}).encode()
    count = jsonlib.dumps({"statusMessage": "Successful", "responseObject": 100_000}).encode()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, content=count if request.url.path.endswith("/count") else body, headers={"content-type": "application/json"}
        )

    from flextui.api import http

    offloaded: list[str] = []
    real = http.in_lane

    async def recording(fn: Any, *args: Any, **kwargs: Any) -> Any:
        offloaded.append(getattr(fn, "__name__", "?"))
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(http, "in_lane", recording)
    from flextui.api.cache import PageCache

    s = Session("https://fno.example", auth=httpx.BasicAuth("u", "p"), transport=httpx.MockTransport(handler), cache=PageCache(":memory:"))
    async with s:
        tokens = await collect(await TokensService(s).iterate("u@x", None, page_size=100_000))
    assert len(tokens) == 100_000
    assert {"decode_json", "pack"} <= set(offloaded) and len(offloaded) >= 3, (
        offloaded
    )  # decode, pack for the cache (the secret check), parse: in the lane of page work (SQLite's write beside it)
