"""The simulator's ASGI app: every service mounted at its documented path.

`create_app(world)` mounts each service module listed in `SERVICE_MODULES`
at its `MOUNT` prefix (each module exposes `MOUNT` and `routes(world)`), turns
`SimError` into each service's documented error shape, and wraps the whole in
latency/fault injection. `in_process_transport(app)` gives httpx an ASGI
transport for the demo and tests: no port, and an app-side failure surfaces
as a network error, as it would over a socket (so does a body shorter than
its content-length: a connection cut mid-answer). The TUI demo asks for it
`threaded`: the simulator then answers from a loop of its own, so its work
never holds the app's event loop.

`create_app(world, dialects=…)` chooses the variants of the real services
the app speaks (dialects.py); the set is `app.state.dialects`. Two of them
act before any handler, so they live here as ASGI middleware:
- `reject-encoded-slash`: Spring Security's StrictHttpFirewall rejects a URL
  whose raw path holds an encoded slash (`%2F`, `%2f`) or an encoded percent
  (`%25`) with 400 before routing; the registry is a Spring Boot service
  (it publishes swagger-ui.html, notes §6, RESTSWContDelivRetrieveArt.htm).
  The raw path (`scope["raw_path"]`) is read, since the decoded one has lost
  the difference. The message is Spring's.
- `null-collections`: Jackson writes an empty collection as `null` when a
  service is configured so; every JSON answer has each empty array (also a
  top-level one) replaced by `null` (notes §6: "Empty collections may arrive
  as JSON null").
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import threading
from collections.abc import Iterable
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Router

from flextui.sim.common import SimError, error_body
from flextui.sim.dialects import DEFAULT, parse_dialects
from flextui.sim.faults import FaultMiddleware, FaultPlan
from flextui.sim.world import World

log = logging.getLogger("flextui.sim")

# Each service module of flextui.sim and where it is mounted (the module's MOUNT says the same;
# a test keeps them equal). Mounting needs no import, so start-up pays only for what is called.
SERVICE_MOUNTS: dict[str, str] = {
    "tokens": "/flexnet/uar/v1",
    "registry": "/registry/api/v1",
    "reports": "/data/api/{version}/report",
    "entitlements": "/entitlements-api/v1",
    "products": "/products-api/v1",
    "users": "/users-accounts-api/v1",
}
SERVICE_MODULES: tuple[str, ...] = tuple(SERVICE_MOUNTS)


async def _sim_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SimError)
    return JSONResponse(error_body(request.url.path, exc.status, exc.message, exc.field), status_code=exc.status, headers=exc.headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {404: "no such endpoint", 405: "method not allowed"}.get(exc.status_code, str(exc.detail))
    return JSONResponse(
        error_body(request.url.path, exc.status_code, f"{message}: {request.method} {request.url.path}"), status_code=exc.status_code
    )


class LazyService:
    """An ASGI app that imports a service module and builds its routes on the first request."""

    def __init__(self, name: str, world: World) -> None:
        self.name = name
        self.world = world
        self._router: Router | None = None
        self._lock = asyncio.Lock()

    async def router(self) -> Router:
        if self._router is None:
            async with self._lock:
                if self._router is None:
                    module = importlib.import_module(f"flextui.sim.{self.name}")
                    self._router = Router(routes=module.routes(self.world))
        return self._router

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await (await self.router())(scope, receive, send)


ENCODED_SEPARATORS = (b"%2f", b"%25")  # compared ignoring case


class EncodedSlashGuard:
    """`reject-encoded-slash`: a 400 for a raw path holding `%2F`/`%2f` or `%25`, before routing."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        found = encoded_separator(scope) if scope["type"] == "http" else None
        if found is None:
            await self.app(scope, receive, send)
            return
        message = f'The request was rejected because the URL contained a potentially malicious String "{found}"'
        await JSONResponse(error_body(scope.get("path", ""), 400, message), status_code=400)(scope, receive, send)


def encoded_separator(scope: dict[str, Any]) -> str | None:
    """The first `%2F`/`%2f`/`%25` in the request's raw path (as written), or None."""
    raw = (scope.get("raw_path") or scope.get("path", "").encode()).split(b"?", 1)[0]
    lowered = raw.lower()
    hits = [i for i in (lowered.find(token) for token in ENCODED_SEPARATORS) if i >= 0]
    return raw[min(hits) : min(hits) + 3].decode("ascii", "replace") if hits else None


def nulled(value: Any) -> Any:
    """`value` with every empty list (at any depth, the top included) replaced by None."""
    if isinstance(value, list):
        return [nulled(v) for v in value] if value else None
    if isinstance(value, dict):
        return {k: nulled(v) for k, v in value.items()}
    return value


class NullCollections:
    """`null-collections`: rewrite each JSON answer with empty arrays as `null`."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def capture(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                if not _is_json(message):
                    await send(message)
                return
            if not _is_json(start):
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                await _send_rewritten(send, start, b"".join(chunks))

        await self.app(scope, receive, capture)


def _is_json(start: dict[str, Any]) -> bool:
    return any(k.lower() == b"content-type" and v.startswith(b"application/json") for k, v in start.get("headers", []))


async def _send_rewritten(send: Any, start: dict[str, Any], body: bytes) -> None:
    try:
        body = json.dumps(nulled(json.loads(body)), ensure_ascii=False, separators=(",", ":")).encode()
    except ValueError:
        pass  # not JSON after all: pass it on untouched
    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
    headers.append((b"content-length", str(len(body)).encode()))
    await send({**start, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def create_app(
    world: World | None = None,
    *,
    latency_ms: float = 0.0,
    faults: FaultPlan | None = None,
    dialects: Iterable[str] = DEFAULT,
) -> Any:
    """The simulator for `world` (a default world if none), as an ASGI app speaking `dialects`.

    The returned app has `.state.world`, `.state.faults` and `.state.dialects`
    (also reachable through `app.starlette`) for tests. An unknown dialect
    name is a ValueError.
    """
    world = world or World()
    chosen = parse_dialects(dialects)
    routes = [Mount(SERVICE_MOUNTS[name], app=LazyService(name, world)) for name in SERVICE_MODULES]
    starlette = Starlette(routes=routes, exception_handlers={SimError: _sim_error, HTTPException: _http_error})
    starlette.state.world = world
    starlette.state.faults = faults
    starlette.state.dialects = chosen
    inner: Any = starlette
    if "null-collections" in chosen:
        inner = NullCollections(inner)
    if "reject-encoded-slash" in chosen:
        inner = EncodedSlashGuard(inner)
    wrapped = FaultMiddleware(inner, latency_ms=latency_ms, plan=faults)
    wrapped.starlette = starlette  # type: ignore[attr-defined]
    wrapped.state = starlette.state  # type: ignore[attr-defined]
    return wrapped


class _InProcessTransport(httpx.ASGITransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            response = await super().handle_async_request(request)
        except Exception as exc:  # the app failing looks like the network failing
            raise httpx.ConnectError(f"simulator: {type(exc).__name__}: {exc}", request=request) from exc
        declared = response.headers.get("content-length")
        if declared is not None and declared.isdigit() and request.method != "HEAD":
            body = await response.aread()
            if len(body) < int(declared):  # what httpcore says when a socket closes mid-body
                raise httpx.RemoteProtocolError(
                    f"peer closed connection without sending complete message body (received {len(body)} bytes, expected {declared})",
                    request=request,
                )
        return response


def in_process_transport(app: Any, *, threaded: bool = False) -> httpx.AsyncBaseTransport:
    """An httpx transport that calls the simulator in this process; `threaded`: on a thread of its own."""
    return _ThreadedTransport(app=app) if threaded else _InProcessTransport(app=app)


class _ThreadedTransport(_InProcessTransport):
    """The simulator answering from its own event loop, on a thread, as a server apart would.

    In the caller's loop the simulator's work is the app's work: the first data report of a
    scaled world builds 200,000 records (3 s at `--scale 100`) and every page scans them, and
    the TUI froze for as long (no key, no repaint, a status line that never said "loading").
    On its own loop the app waits for an answer as it does for a real server; the interpreter
    lets each thread run in turn (every 5 ms by default), so the app's stalls stay short while
    the simulator computes. The request's body is read before it crosses over, the answer is
    whole when it comes back (ASGI transports collect the body), and cancelling the caller
    cancels the simulator's task.
    """

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        answer = asyncio.run_coroutine_threadsafe(super().handle_async_request(request), _sim_loop())
        return await asyncio.wrap_future(answer)


_SIM_LOOP: asyncio.AbstractEventLoop | None = None
_SIM_LOOP_LOCK = threading.Lock()


def _sim_loop() -> asyncio.AbstractEventLoop:
    """The process's one simulator loop, started on first use (a daemon thread: it ends with the process)."""
    global _SIM_LOOP
    with _SIM_LOOP_LOCK:
        if _SIM_LOOP is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="flextui-simulator", daemon=True).start()
            _SIM_LOOP = loop
        return _SIM_LOOP


SIM_BASE_URL = "http://sim.flextui.invalid"
