"""The simulator's ASGI app: every service mounted at its documented path.

`create_app(world)` mounts each service module listed in `SERVICE_MODULES`
at its `MOUNT` prefix (each module exposes `MOUNT` and `routes(world)`), turns
`SimError` into each service's documented error shape, and wraps the whole in
latency/fault injection. `in_process_transport(app)` gives httpx an ASGI
transport for the demo and tests: no port, and an app-side failure surfaces
as a network error, as it would over a socket.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount

from flextui.sim.common import SimError
from flextui.sim.faults import FaultMiddleware, FaultPlan
from flextui.sim.world import World

log = logging.getLogger("flextui.sim")

# Each names a module of flextui.sim with MOUNT and routes(world).
SERVICE_MODULES: tuple[str, ...] = ("tokens", "registry", "reports", "entitlements", "products", "users")


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


def available_services() -> list[Any]:
    """The service modules present in this build."""
    modules = []
    for name in SERVICE_MODULES:
        try:
            modules.append(importlib.import_module(f"flextui.sim.{name}"))
        except ModuleNotFoundError as exc:
            if exc.name != f"flextui.sim.{name}":
                raise
    return modules


def create_app(world: World | None = None, *, latency_ms: float = 0.0, faults: FaultPlan | None = None) -> Any:
    """The simulator for `world` (a default world if none), as an ASGI app.

    The returned app has `.state.world` and `.state.faults` reachable through
    `app.starlette` for tests.
    """
    world = world or World()
    routes = [Mount(module.MOUNT, routes=module.routes(world)) for module in available_services()]
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
