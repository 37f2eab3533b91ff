"""The simulator's faults: each kind looks on the wire as it does in production, in process and over HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from flextui.sim.app import SIM_BASE_URL, create_app, in_process_transport
from flextui.sim.faults import Fault, FaultPlan
from flextui.sim.world import ADMIN, World

COUNT = "/flexnet/uar/v1/tokens/count"
LIST = "/flexnet/uar/v1/tokens"
PARAMS = {"username": ADMIN[0]}


def client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=in_process_transport(app), base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN))


async def normal_body(app: Any, path: str = LIST) -> bytes:
    async with client(app) as c:
        return (await c.get(path, params=PARAMS)).content


def test_the_old_api_still_works() -> None:
    fault = Fault("GET", drop=True)
    assert fault.kind == "drop" and fault.status == 503 and fault.times == 1
    assert Fault("GET", kind="drop").drop
    with pytest.raises(ValueError, match="unknown fault kind"):
        Fault("GET", kind="gremlins")  # type: ignore[arg-type]


async def test_status_faults_answer_json_with_retry_after(sim_app: Any, faults: FaultPlan) -> None:
    faults.add(COUNT, status=429, retry_after=1.5)
    faults.add(COUNT, status=502)
    async with client(sim_app) as c:
        first = await c.get(COUNT, params=PARAMS)
        second = await c.get(COUNT, params=PARAMS)
        third = await c.get(COUNT, params=PARAMS)
    assert first.status_code == 429 and first.headers["retry-after"] == "1.5" and first.json()["message"] == "fault injected"
    assert second.status_code == 502 and "retry-after" not in second.headers
    assert third.status_code == 200, "each fault hits `times` requests, then the server is well"


async def test_html_and_empty_answers(sim_app: Any, faults: FaultPlan) -> None:
    faults.add(COUNT, kind="html", status=502)
    faults.add(COUNT, kind="html", status=200)
    faults.add(COUNT, kind="empty", status=200)
    async with client(sim_app) as c:
        gateway, login, empty = [await c.get(COUNT, params=PARAMS) for _ in range(3)]
    assert (
        gateway.status_code == 502 and gateway.headers["content-type"] == "text/html" and "<title>502 Bad Gateway</title>" in gateway.text
    )
    assert login.status_code == 200 and login.text.startswith("<html>")
    assert empty.status_code == 200 and empty.content == b"" and empty.headers["content-length"] == "0"


async def test_error_answers_are_each_services_error_sent_with_200(sim_app: Any, faults: FaultPlan) -> None:
    """The `error` kind: the service's own error shape (`common.error_body`) with `status` (200), `message` its text."""
    faults.add(".*", kind="error", status=200, times=10)
    paths = {
        LIST: {"statusMessage": "internal error (fault injected)", "responseObject": None},
        "/registry/api/v1/projects": {"message": "internal error (fault injected)"},
        "/data/api/v1/report/fulfillment": {"status": "error", "message": "internal error (fault injected)"},
        "/users-accounts-api/v1/users": {"status": "error", "message": "internal error (fault injected)"},
    }
    async with client(sim_app) as c:
        for path, body in paths.items():
            answer = await c.get(path, params=PARAMS)
            assert answer.status_code == 200 and answer.headers["content-type"] == "application/json", path
            assert answer.json() == body, path
    faults.clear()
    faults.add(COUNT, kind="error", status=200, message="Failed: the backend is down")
    faults.add(COUNT, kind="error", status=503)
    async with client(sim_app) as c:
        worded, gateway = [await c.get(COUNT, params=PARAMS) for _ in range(2)]
    assert worded.json() == {"statusMessage": "Failed: the backend is down", "responseObject": None}
    assert gateway.status_code == 503 and gateway.json()["statusMessage"] == "internal error (fault injected)"


async def test_error_answers_reach_single_record_reads_too(sim_app: Any, faults: FaultPlan) -> None:
    """The `error` kind on the read of one record (a detail, a token verification sent as a POST): the service's own
    error shape with 200, as on its lists, so a client can be shown answering it as the error it is."""
    faults.add(r"/token/|/entitlement/|/users/|/suites/|/projects/", kind="error", status=200, message="boom", times=10)
    reads = {
        ("GET", "/flexnet/uar/v1/token/flextui-demo-admin"): {"statusMessage": "boom", "responseObject": None},
        ("POST", "/flexnet/uar/v1/token/verification"): {"statusMessage": "boom", "responseObject": None},
        ("GET", "/entitlements-api/v1/entitlement/ENT-100003"): {"status": "error", "message": "boom"},
        ("GET", f"/users-accounts-api/v1/users/{ADMIN[0]}"): {"status": "error", "message": "boom"},
        ("GET", "/products-api/v1/suites/Office/1.0"): {"status": "error", "message": "boom"},
        ("GET", "/registry/api/v1/projects/hello-world-dp"): {"message": "boom"},
    }
    async with client(sim_app) as c:
        for (method, path), body in reads.items():
            answer = await c.request(method, path, json={"accessToken": "rna_x"} if method == "POST" else None)
            assert answer.status_code == 200 and answer.json() == body, (method, path, answer.text)


async def test_a_dropped_connection_is_a_network_error(sim_app: Any, faults: FaultPlan) -> None:
    faults.add(COUNT, kind="drop")
    async with client(sim_app) as c:
        with pytest.raises(httpx.ConnectError, match="DroppedConnection"):
            await c.get(COUNT, params=PARAMS)


async def test_a_truncated_body_is_cut_as_on_a_socket(sim_app: Any, faults: FaultPlan) -> None:
    faults.add(LIST, kind="truncate")
    async with client(sim_app) as c:
        with pytest.raises(httpx.RemoteProtocolError, match="without sending complete message body"):
            await c.get(LIST, params=PARAMS)


async def test_slow_and_trickling_answers_outlast_a_deadline_then_arrive_whole(sim_app: Any, faults: FaultPlan) -> None:
    whole = await normal_body(sim_app)
    faults.add(LIST, kind="slow", delay=30)
    faults.add(LIST, kind="trickle", delay=30, chunk=4)
    async with client(sim_app) as c:
        for _ in range(2):
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.2):
                    await c.get(LIST, params=PARAMS)
        assert [f.hits for f in faults.faults] == [1, 1]
        faults.add(LIST, kind="slow", delay=0.01)
        faults.add(LIST, kind="trickle", delay=0.01, chunk=4)
        assert (await c.get(LIST, params=PARAMS)).content == whole
        assert (await c.get(LIST, params=PARAMS)).content == whole


async def test_skip_times_and_clear(sim_app: Any, faults: FaultPlan) -> None:
    faults.add(COUNT, status=503, skip=2, times=2)
    async with client(sim_app) as c:
        statuses = [(await c.get(COUNT, params=PARAMS)).status_code for _ in range(5)]
        assert statuses == [200, 200, 503, 503, 200]
        faults.add(COUNT, status=500, times=100)
        assert (await c.get(COUNT, params=PARAMS)).status_code == 500
        faults.clear()
        assert (await c.get(COUNT, params=PARAMS)).status_code == 200
    assert faults.seen.count(f"GET {COUNT}") == 7


def test_truncated_and_trickling_answers_over_real_http(world: World) -> None:
    """Over a socket (uvicorn), a cut body is the client's RemoteProtocolError, and a trickle is many small reads."""
    import threading
    import time

    import uvicorn

    from tests.conftest import _free_port

    plan = FaultPlan()
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(world, faults=plan), host="127.0.0.1", port=port, log_level="critical", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", auth=httpx.BasicAuth(*ADMIN), timeout=10) as c:
            whole = c.get(LIST, params=PARAMS).content
            plan.add(LIST, kind="truncate")
            with pytest.raises(httpx.RemoteProtocolError):
                c.get(LIST, params=PARAMS)
            plan.add(LIST, kind="trickle", delay=0.2, chunk=64)
            with c.stream("GET", LIST, params=PARAMS) as response:
                parts = list(response.iter_raw())
            assert b"".join(parts) == whole and len(parts) > 1
    finally:
        server.should_exit = True
        thread.join(timeout=5)
