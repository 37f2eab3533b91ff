"""The simulator app: lazy mounting at the documented prefixes, error shapes, unknown paths."""

from __future__ import annotations

import asyncio
import importlib
import sys
import threading
from typing import Any

import httpx

from flextui.sim.app import SERVICE_MOUNTS, SIM_BASE_URL, create_app, error_body, in_process_transport
from flextui.sim.world import ADMIN, World


def test_each_module_mounts_where_the_app_says() -> None:
    for name, prefix in SERVICE_MOUNTS.items():
        assert importlib.import_module(f"flextui.sim.{name}").MOUNT == prefix


async def test_services_load_on_first_use_only(world: World) -> None:
    for name in ("registry", "reports"):
        sys.modules.pop(f"flextui.sim.{name}", None)
    app = create_app(world)
    assert "flextui.sim.registry" not in sys.modules
    async with httpx.AsyncClient(transport=in_process_transport(app), base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN)) as client:
        response = await client.get("/flexnet/uar/v1/tokens/count", params={"username": ADMIN[0]})
        assert response.status_code == 200
        assert "flextui.sim.registry" not in sys.modules
        response = await client.get("/nowhere")
        assert response.status_code == 404 and "no such endpoint" in response.json()["message"]


def test_error_shapes_follow_the_service() -> None:
    assert error_body("/flexnet/uar/v1/token", 400, "m") == {"statusMessage": "m", "responseObject": None}
    assert error_body("/registry/api/v1/projects", 404, "m") == {"message": "m"}
    body: dict[str, Any] = error_body("/entitlements-api/v1/entitlement", 400, "m", "lineItems[0].startDate")
    assert body["field"] == "lineItems[0].startDate"


def test_large_scale_has_at_least_20000_tokens_with_every_kind() -> None:
    from flextui.sim.tokens import token_store
    from flextui.sim.world import parse_scale

    world = World(seed=7, scale=parse_scale("large"))
    tokens = list(token_store(world).by_name.values())
    now = world.now_ms()
    assert len(tokens) >= 20_000
    assert {t.token_type for t in tokens} == {"NORMAL", "IMPERSONATED"}
    assert any(t.expiry_ms <= now for t in tokens), "some expired"
    assert any(now < t.expiry_ms <= now + 7 * 86_400_000 for t in tokens), "some expiring within days"
    privileged = [u for u in world.users.values() if u.may_impersonate]
    ordinary = [u for u in world.users.values() if u.kind == "producer" and not u.may_impersonate]
    customers = [u for u in world.users.values() if u.kind == "customer"]
    assert privileged and ordinary and customers


async def _until(condition: Any) -> None:
    """Let the loop run until `condition()` holds (the bound only catches a hang)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while not condition():
        assert loop.time() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


class _Held:
    """An ASGI app in front of the simulator that holds each request until released, noting where it ran."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.threads: list[int] = []
        self.entered = threading.Event()
        self.released = threading.Event()
        self.cancelled = threading.Event()
        self.block_thread = True

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.threads.append(threading.get_ident())
        self.entered.set()
        try:
            if self.block_thread:  # what a CPU-bound handler does to the loop it runs on
                self.released.wait(timeout=20)
            else:
                while not self.released.is_set():
                    await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        await self.app(scope, receive, send)


async def test_a_threaded_simulator_works_while_the_callers_loop_goes_on(world: World) -> None:
    held = _Held(create_app(world))
    transport = in_process_transport(held, threaded=True)
    async with httpx.AsyncClient(transport=transport, base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN)) as client:
        answer = asyncio.create_task(client.get("/flexnet/uar/v1/tokens/count", params={"username": ADMIN[0]}))
        await _until(held.entered.is_set)
        ticks = 0
        while ticks < 5:  # this loop runs while the simulator is busy: it is not this loop
            await asyncio.sleep(0)
            ticks += 1
        assert not answer.done()
        held.released.set()
        response = await answer
        assert response.status_code == 200 and response.json()["responseObject"] >= 1
        assert held.threads[0] != threading.get_ident()
        created = await client.post(  # a body crosses over whole
            "/flexnet/uar/v1/token", json={"tokenName": "threaded-ok", "expiryStr": "30d", "username": ADMIN[0]}
        )
        assert created.status_code == 201, created.text
        assert created.json()["responseObject"]["tokenName"] == "threaded-ok"


async def test_cancelling_a_request_cancels_the_threaded_simulators_work(world: World) -> None:
    held = _Held(create_app(world))
    held.block_thread = False
    async with httpx.AsyncClient(
        transport=in_process_transport(held, threaded=True), base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN)
    ) as client:
        answer = asyncio.create_task(client.get("/flexnet/uar/v1/tokens/count", params={"username": ADMIN[0]}))
        await _until(held.entered.is_set)
        answer.cancel()
        await _until(held.cancelled.is_set)
        assert answer.cancelled()


async def test_a_threaded_simulator_failing_looks_like_the_network_failing() -> None:
    async def broken(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("simulator bug")

    async with httpx.AsyncClient(transport=in_process_transport(broken, threaded=True), base_url=SIM_BASE_URL) as client:
        try:
            await client.get("/flexnet/uar/v1/tokens/count")
        except httpx.ConnectError as exc:
            assert "RuntimeError: simulator bug" in str(exc)
        else:
            raise AssertionError("no error")
