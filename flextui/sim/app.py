"""The simulator's ASGI app: every service mounted at its documented path.

`create_app(world)` mounts each service module listed in `SERVICE_MODULES`
at its `MOUNT` prefix (each module exposes `MOUNT` and `routes(world)`), turns
`SimError` into each service's documented error shape, and wraps the whole in
latency/fault injection. `in_process_transport(app)` gives httpx an ASGI
transport for the demo and tests: no port, and an app-side failure surfaces
as a network error, as it would over a socket.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Router

from flextui.sim.common import SimError
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


def error_body(path: str, status: int, message: str, field: str | None = None) -> dict[str, Any]:
    """The error body in the shape of the service that owns `path`."""
    if path.startswith("/flexnet/"):
        return {"statusMessage": message, "responseObject": None}
    if path.startswith("/registry/"):
        return {"message": message}
    if path.startswith("/data/"):
        return {"status": "error", "message": message}
    body: dict[str, Any] = {"status": "error", "message": message}
    if field:
        body["field"] = field
    return body


async def _sim_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SimError)
    return JSONResponse(error_body(request.url.path, exc.status, exc.message, exc.field), status_code=exc.status, headers=exc.headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {404: "no such endpoint", 405: "method not allowed"}.get(exc.status_code, str(exc.detail))
    return JSONResponse(error_body(request.url.path, exc.status_code, f"{message}: {request.method} {request.url.path}"), status_code=exc.status_code)


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


def create_app(world: World | None = None, *, latency_ms: float = 0.0, faults: FaultPlan | None = None) -> Any:
    """The simulator for `world` (a default world if none), as an ASGI app.

    The returned app has `.state.world` and `.state.faults` reachable through
    `app.starlette` for tests.
    """
    world = world or World()
    routes = [Mount(SERVICE_MOUNTS[name], app=LazyService(name, world)) for name in SERVICE_MODULES]
    starlette = Starlette(routes=routes, exception_handlers={SimError: _sim_error, HTTPException: _http_error})
    starlette.state.world = world
    starlette.state.faults = faults
    wrapped = FaultMiddleware(starlette, latency_ms=latency_ms, plan=faults)
    wrapped.starlette = starlette  # type: ignore[attr-defined]
    wrapped.state = starlette.state  # type: ignore[attr-defined]
    return wrapped


class _InProcessTransport(httpx.ASGITransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await super().handle_async_request(request)
        except Exception as exc:  # the app failing looks like the network failing
            raise httpx.ConnectError(f"simulator: {type(exc).__name__}: {exc}", request=request) from exc


def in_process_transport(app: Any) -> httpx.AsyncBaseTransport:
    """An httpx transport that calls the simulator in this process."""
    return _InProcessTransport(app=app)


SIM_BASE_URL = "http://sim.flextui.invalid"
