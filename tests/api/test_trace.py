"""The request log and copy as curl: every exchange kept without secrets, and a command that asks the same thing.

Copy-as-curl commands are run for real against `flextui sim` over HTTP with
the credentials in environment variables, and must return the same data as
the client got, while holding no secret themselves.
"""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import httpx
import pytest

from flextui.api.auth import Credentials
from flextui.api.curl import curl_for, environment_note
from flextui.api.entitlements import EntitlementsService
from flextui.api.errors import Unreachable
from flextui.api.http import RetryPolicy, Service, Session
from flextui.api.registry import RegistryService
from flextui.api.tokens import TokenCreate, TokensService
from flextui.api.trace import Exchange, redact_headers
from flextui.sim.world import ADMIN, World


def _session(url: str, world: World) -> Session:
    return Session(
        url,
        credentials=Credentials(ADMIN[0], ADMIN[1], world.seed_token(ADMIN[0])),
        registry_tenant=world.tenant_id,
        retry=RetryPolicy(attempts=1),
    )


def _run(command: str, world: World, **more: str) -> Any:
    env = {**os.environ, "FNO_USER": ADMIN[0], "FNO_PASSWORD": ADMIN[1], "FNO_TOKEN": world.seed_token(ADMIN[0]), **more}
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_copy_as_curl_returns_the_same_data_and_holds_no_secret(live_server: str, world: World) -> None:
    import asyncio

    async def fetch() -> dict[str, tuple[Exchange, Any]]:
        s = _session(live_server, world)
        got: dict[str, tuple[Exchange, Any]] = {}
        async with s:
            raw = await s.get_json(Service.TOKENS, "/uar/v1/tokens", params={"username": ADMIN[0], "page": 0, "pageSize": 5})
            got["tokens"] = (s.trace.latest(lambda e: "/uar/v1/tokens" in e.url), raw)
            await EntitlementsService(s).list(limit=5)
            raw = await s.get_json(Service.ENTITLEMENTS, "/v1/entitlements", params={"page": 1, "limit": 5})
            got["entitlements"] = (s.trace.latest(lambda e: "/entitlements" in e.url), raw)
            reg = RegistryService(s)
            await reg.projects_page(1, 5)
            raw = await s.get_json(Service.REGISTRY, "/api/v1/projects", params={"page": 1, "pageSize": 5})
            got["registry"] = (s.trace.latest(lambda e: e.url.endswith("pageSize=5") and "/projects" in e.url), raw)
        return got

    got = asyncio.run(fetch())
    secrets = (ADMIN[1], world.seed_token(ADMIN[0]))
    for name, (exchange, raw) in got.items():
        command = curl_for(exchange)
        assert not any(secret in command for secret in secrets), name
        assert _run(command, world) == raw, name
    assert "$FNO_TOKEN" in curl_for(got["entitlements"][0]) and "JWT=$(curl" in curl_for(got["registry"][0])


def test_a_secret_in_the_body_is_asked_of_the_environment_by_curl(live_server: str, world: World) -> None:
    """The verification call's body was logged as `{}` (its one field is the secret), and copied as curl it asked the
    server about nothing: the log now says `[removed]`, and the command takes the value from $FNO_ACCESS_TOKEN."""
    import asyncio

    value = world.seed_token(ADMIN[0])

    async def verify() -> Exchange:
        s = _session(live_server, world)
        async with s:
            answer = await TokensService(s).verify(value)
            assert answer.valid
            got = s.trace.latest(lambda e: e.url.endswith("/token/verification"))
            assert got is not None
            return got

    exchange = asyncio.run(verify())
    assert exchange.request_body == {"accessToken": "[removed]"}
    command = curl_for(exchange)
    assert value not in command and value not in exchange.as_json()
    assert environment_note(command).startswith("set FNO_ACCESS_TOKEN, "), environment_note(command)
    answer = _run(command, world, FNO_ACCESS_TOKEN=value)
    assert answer["responseObject"]["username"] == ADMIN[0], "the copy verifies the same token"
    unset = {k: v for k, v in os.environ.items() if k != "FNO_ACCESS_TOKEN"}
    unset |= {"FNO_USER": ADMIN[0], "FNO_PASSWORD": ADMIN[1], "FNO_TOKEN": value}
    status = subprocess.run(
        ["bash", "-c", f"{command} -o /dev/null -w '%{{http_code}}'"], capture_output=True, text=True, env=unset, timeout=60
    )
    assert status.stdout == "400", "without the variable the server is asked about an empty value, and says no"


async def test_the_log_keeps_no_secret(sim_app: Any, world: World) -> None:
    from tests.conftest import make_session

    s = make_session(sim_app, registry_tenant=world.tenant_id)
    async with s:
        created = await TokensService(s).create(TokenCreate.model_validate({"tokenName": "trace-secret", "expiryStr": "1d"}))
        reg = RegistryService(s)
        secret = await reg.get_secret()
        await reg.projects_page(1, 3)
    logged = "\n".join(e.as_json() for e in s.trace.exchanges)
    for value in (created.value, secret, ADMIN[1], world.seed_token(ADMIN[0])):
        assert value not in logged
    assert "Basic ***" in logged and "withheld" in logged
    statuses = [e.status for e in s.trace.exchanges]
    assert 201 in statuses and 200 in statuses


class _Harbor:
    """The simulator behind a gateway that serves the registry API at `/harbor` (a `[profiles.X.urls] registry`
    override with no `/registry` in it)."""

    def __init__(self, app: Any) -> None:
        self.app, self.state = app, app.state

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/harbor/"):
            path = "/registry/" + scope["path"].removeprefix("/harbor/")
            scope = {**scope, "path": path, "raw_path": path.encode()}
        await self.app(scope, receive, send)


async def test_a_registry_at_another_address_keeps_its_jwt_and_secret_out_of_the_log(sim_app: Any, world: World) -> None:
    from tests.conftest import SIM_BASE_URL, make_session

    s = make_session(_Harbor(sim_app), registry_tenant=world.tenant_id, overrides={"registry": f"{SIM_BASE_URL}/harbor"})
    async with s:
        reg = RegistryService(s)
        secret = await reg.get_secret()
        await reg.projects_page(1, 3)
        assert reg.auth is not None
        jwt = reg.auth._jwt
    paths = [httpx.URL(e.url).path for e in s.trace.exchanges]
    assert "/harbor/api/v1/authenticate" in paths and "/harbor/api/v1/projects" in paths, paths
    assert jwt and secret
    logged = "\n".join(e.as_json() for e in s.trace.exchanges)
    assert jwt not in logged and secret not in logged
    withheld = [e for e in s.trace.exchanges if "/api/v1/authenticate" in e.url or "/api/v1/secret" in e.url]
    assert withheld and all(str(e.response_body).startswith("[withheld:") for e in withheld if e.status == 200)
    command = curl_for(next(e for e in s.trace.exchanges if e.url.endswith("/projects") or "/projects?" in e.url))
    assert f"{SIM_BASE_URL}/harbor/api/v1/authenticate" in command, "the copy signs in where flextui did"


def test_headers_are_redacted_by_name() -> None:
    headers = redact_headers([("Authorization", "Bearer abc.def.ghi"), ("x-publisherid", "1107"), ("X-Auth-Token", "t"), ("Cookie", "s=1")])
    assert headers == {"Authorization": "Bearer ***", "x-publisherid": "1107", "X-Auth-Token": "***", "Cookie": "***"}


async def test_a_failed_request_is_logged_with_its_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    s = Session(
        "https://fno.example",
        auth=httpx.BasicAuth("u", "p"),
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(attempts=2, backoff=0.001),
    )
    async with s:
        with pytest.raises(Unreachable):
            await s.get_json(Service.TOKENS, "/uar/v1/tokens")
    decisions = [(e.decision, e.status) for e in s.trace.exchanges]
    assert decisions == [("network", None), ("retry 2/2", None)] and all(e.error for e in s.trace.exchanges)


def test_a_large_body_is_not_kept_nor_parsed_again() -> None:
    from flextui.api.trace import KEEP_LIMIT, redact_body

    big = json.dumps({"data": [{"userName": "a", "password": "hunter2"}] * 20_000}).encode()
    assert len(big) > KEEP_LIMIT
    kept = redact_body(big, "http://x/data/api/v1/report/user")
    assert isinstance(kept, str) and kept.startswith("[not kept:") and f"{len(big):,} bytes" in kept and "hunter2" not in kept
    small = json.dumps({"data": [{"userName": "a", "password": "hunter2"}]}).encode()
    assert "hunter2" not in json.dumps(redact_body(small, "http://x/data/api/v1/report/user")), "a small one is kept, scrubbed"


async def test_a_request_given_up_is_logged_as_cancelled_not_as_a_failure() -> None:
    """Escape during a report load showed in the request log as "1 failure", its line with no status and no error."""
    import asyncio

    from flextui.ui.screens.requestlog import failed

    started = asyncio.Event()

    async def handler(request: httpx.Request) -> httpx.Response:
        started.set()
        await asyncio.Event().wait()  # no answer, ever
        raise AssertionError

    s = Session(
        "https://fno.example", auth=httpx.BasicAuth("u", "p"), transport=httpx.MockTransport(handler), retry=RetryPolicy(attempts=1)
    )
    async with s:
        task = asyncio.create_task(s.get_json(Service.TOKENS, "/uar/v1/tokens"))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    (exchange,) = s.trace.exchanges
    assert exchange.decision == "cancelled" and exchange.error and "no longer wanted" in exchange.error
    assert not failed(exchange)


async def test_the_registry_sign_in_is_logged_before_the_call_it_opened_without_the_jwt(
    live_server: str, world: World, tmp_path: Any
) -> None:
    """A successful `GET /registry/api/v1/authenticate` was made inside the auth flow and never reached the log nor
    `--trace FILE` (a refused one did): now it shows, before the call it signed in for, with the JWT withheld, and
    copied as curl it asks for the password from the environment like the others."""
    from flextui.api.trace import file_writer

    s = _session(live_server, world)
    s.trace.writers.append(file_writer(str(tmp_path / "t.jsonl")))
    async with s:
        reg = RegistryService(s)
        await reg.projects_page(1, 3)
        assert reg.auth is not None
        jwt = reg.auth._jwt
    assert jwt and len(jwt) > 20
    paths = [(e.method, httpx.URL(e.url).path) for e in s.trace.exchanges]
    assert paths[:2] == [("GET", "/registry/api/v1/authenticate"), ("GET", "/registry/api/v1/projects")], paths
    authenticate = s.trace.exchanges[0]
    assert authenticate.status == 200
    assert authenticate.decision == "sign-in" and authenticate.service == "registry"
    assert authenticate.request_headers.get("authorization") == "Basic ***"
    assert isinstance(authenticate.response_body, str) and authenticate.response_body.startswith("[withheld:")
    written = (tmp_path / "t.jsonl").read_text()
    logged = "\n".join(e.as_json() for e in s.trace.exchanges)
    assert [json.loads(line)["url"] for line in written.splitlines()] == [e.url for e in s.trace.exchanges]
    command = curl_for(authenticate)
    for text in (written, logged, command, authenticate.line()):
        assert jwt not in text and ADMIN[1] not in text
    assert '-u "$FNO_USER:$FNO_PASSWORD"' in command and "x-publisherid: " in command
    assert _jwt_shape(_run_text(command, world)), "the copy signs in as flextui did"


def _jwt_shape(text: str) -> bool:
    return text.count(".") == 2 and len(text) > 20


def _run_text(command: str, world: World) -> str:
    env = {**os.environ, "FNO_USER": ADMIN[0], "FNO_PASSWORD": ADMIN[1], "FNO_TOKEN": world.seed_token(ADMIN[0])}
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().strip('"')


async def test_a_minted_token_and_its_deletion_are_logged_without_its_value(sim_app: Any, world: World) -> None:
    """`mint_token = true`: the POST that minted the token and the DELETE on exit were made outside the logged calls."""
    from tests.conftest import make_session

    s = make_session(sim_app, mint_token=True, user=ADMIN)
    s.credentials = Credentials(ADMIN[0], ADMIN[1])  # a password only: the beta APIs need a minted token
    async with s:
        await EntitlementsService(s).list(limit=5)
        assert s._minting is not None
        value = s._minting._token
    assert value and len(value) > 10
    seen = [(e.method, httpx.URL(e.url).path, e.decision) for e in s.trace.exchanges]
    assert seen[0][:2] == ("POST", "/flexnet/uar/v1/token") and seen[0][2] == "sign-in", seen
    assert seen[1][1].startswith("/entitlements-api/"), seen
    assert seen[-1][0] == "DELETE" and seen[-1][1].startswith("/flexnet/uar/v1/token/flextui-"), seen
    minted = s.trace.exchanges[0]
    assert minted.service == "tokens" and minted.status in (200, 201)
    logged = "\n".join(e.as_json() for e in s.trace.exchanges)
    texts = [logged, *(curl_for(e) for e in s.trace.exchanges), *(e.line() for e in s.trace.exchanges)]
    assert not any(value in text or ADMIN[1] in text for text in texts)
    assert '"tokenValue": "[removed]"' in json.dumps(minted.response_body)


async def test_a_stale_jwt_its_new_sign_in_and_the_repeat_are_all_logged() -> None:
    """On a 401 the registry flow signs in again and repeats the request: all three exchanges show, in order, and a
    sign-in whose call then broke is still logged."""
    jwts = (f"aaa.bbb.ccc{n}" for n in range(1, 10))
    refuse = {"first": True}

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/authenticate"):
            return httpx.Response(200, text=next(jwts))
        if request.url.path.endswith("/broken"):
            raise httpx.ConnectError("reset", request=request)
        if refuse.pop("first", False):
            return httpx.Response(401, json={"message": "expired"})
        return httpx.Response(200, json=[])

    s = Session(
        "https://fno.example",
        credentials=Credentials("u", "p"),
        registry_tenant="1107",
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(attempts=1),
    )
    async with s:
        reg = RegistryService(s)
        await s.request(Service.REGISTRY, "GET", "/api/v1/projects")
        assert reg.auth is not None
        reg.auth.forget()
        with pytest.raises(Unreachable):
            await s.request(Service.REGISTRY, "GET", "/api/v1/broken")
    seen = [(httpx.URL(e.url).path.rsplit("/", 1)[-1], e.status, e.decision) for e in s.trace.exchanges]
    assert seen == [
        ("authenticate", 200, "sign-in"),
        ("projects", 401, "network"),
        ("authenticate", 200, "sign-in"),
        ("projects", 200, "network"),
        ("authenticate", 200, "sign-in"),
        ("broken", None, "network"),
    ], seen
    logged = "\n".join(e.as_json() for e in s.trace.exchanges)
    assert not any(f"ccc{n}" in logged for n in range(1, 4))
