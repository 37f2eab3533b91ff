"""One profile, every service: each service gets the scheme the vendor documents for it.

Tokens and reports take the access token (or the password), the beta APIs the
access token, the registry the password traded for a JWT; a missing
credential is named with the line that adds it, before anything is sent.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest

from flextui.api.auth import Credentials, MissingCredential
from flextui.api.entitlements import EntitlementsService
from flextui.api.http import Service, Session
from flextui.api.registry import RegistryService
from flextui.api.tokens import TokensService
from flextui.sim.app import SIM_BASE_URL, in_process_transport
from flextui.sim.world import ADMIN, World


class Recording(httpx.AsyncBaseTransport):
    """The simulator, with every request's method, path and auth scheme noted."""

    def __init__(self, app: Any) -> None:
        self.inner = in_process_transport(app)
        self.seen: list[tuple[str, str, str]] = []
        self.bodies: list[tuple[str, str, bytes]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        scheme = request.headers.get("authorization", "").split(" ")[0]
        self.seen.append((request.method, request.url.path, scheme))
        self.bodies.append((request.method, request.url.path, await request.aread()))
        return await self.inner.handle_async_request(request)

    def schemes(self, prefix: str) -> set[str]:
        return {scheme for _, path, scheme in self.seen if path.startswith(prefix)}


async def _token_of(sim_app: Any) -> str:
    """A live access token of the admin, created through the simulator."""
    async with Session(SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN), user=ADMIN[0], transport=in_process_transport(sim_app)) as s:
        from flextui.api.tokens import TokenCreate

        created = await TokensService(s).create(TokenCreate.model_validate({"tokenName": "auth-test", "expiryStr": "1d"}))
        return created.value


@pytest.fixture
async def token(sim_app: Any) -> str:
    return await _token_of(sim_app)


def session(sim_app: Any, creds: Credentials, **kwargs: Any) -> tuple[Session, Recording]:
    transport = Recording(sim_app)
    return Session(SIM_BASE_URL, credentials=creds, transport=transport, **kwargs), transport


async def test_each_service_gets_its_scheme(sim_app: Any, world: World, token: str) -> None:
    s, seen = session(sim_app, Credentials(ADMIN[0], ADMIN[1], token), registry_tenant=world.tenant_id)
    async with s:
        await TokensService(s).count(username=ADMIN[0])
        await EntitlementsService(s).list()
        await RegistryService(s).projects_page(1, 5)
    assert seen.schemes("/flexnet/") == {"Basic"}, "the token API and reports take the password where there is one"
    assert seen.schemes("/entitlements-api/") == {"Bearer"}, "the beta APIs take only the access token"
    registry = [(m, p, sch) for m, p, sch in seen.seen if p.startswith("/registry/")]
    assert registry[0] == ("GET", "/registry/api/v1/authenticate", "Basic") and {sch for *_, sch in registry[1:]} == {"Bearer"}


async def test_a_password_only_profile_uses_basic_and_the_registry(sim_app: Any, world: World) -> None:
    s, seen = session(sim_app, Credentials(*ADMIN), registry_tenant=world.tenant_id)
    async with s:
        await TokensService(s).count(username=ADMIN[0])
        assert (await RegistryService(s).projects_page(1, 5)).items
    assert seen.schemes("/flexnet/") == {"Basic"}


async def test_a_token_only_profile_is_told_what_the_registry_needs_before_sending(sim_app: Any, world: World, token: str) -> None:
    s, seen = session(
        sim_app,
        Credentials(ADMIN[0], None, token),
        registry_tenant=world.tenant_id,
        credential_hint=lambda what: f'add {what} = {{ env = "FNO_PASSWORD" }} to [profiles.prod]',
    )
    async with s:
        with pytest.raises(MissingCredential) as info:
            RegistryService(s)
        assert "JWT" in info.value.message and 'add password = { env = "FNO_PASSWORD" } to [profiles.prod]' in info.value.message
        with pytest.raises(MissingCredential):
            await s.get_json(Service.REGISTRY, "/api/v1/projects")
        assert (await TokensService(s).count(username=ADMIN[0])) >= 1  # the rest works
    assert seen.seen == [("GET", "/flexnet/uar/v1/tokens/count", "Bearer")]
    assert info.value.exit_code == 3


async def test_a_beta_api_refusing_the_password_says_it_wants_an_access_token() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.headers["authorization"].startswith("Basic ")
        return httpx.Response(401, json={"status": "error", "message": "an access token is required"})

    s = Session(
        "https://fno.example",
        credentials=Credentials("me@x", "pw"),
        transport=httpx.MockTransport(handler),
        credential_hint=lambda what: f"add {what} = …",
    )
    async with s:
        with pytest.raises(MissingCredential) as info:
            await EntitlementsService(s).list()
    # one sentence and the line to add: no server text in nested parentheses, no "refused … requires" twice (walk27-a 13)
    assert info.value.message == "the entitlements API takes an access token, not a password: add token = …"


async def test_a_minted_token_is_created_once_used_as_bearer_and_deleted_on_close(sim_app: Any, world: World) -> None:
    from flextui.sim.tokens import token_store

    s, seen = session(sim_app, Credentials(*ADMIN), mint_token=True)
    async with s:
        await EntitlementsService(s).list()
        await EntitlementsService(s).list(page=2)
        assert len(s.notices) == 1 and "minted a one-hour access token" in s.notices[0]
        minted = s.notices[0].split("'")[1]
        assert minted in token_store(world).by_name
    posts = [x for x in seen.seen if x[:2] == ("POST", "/flexnet/uar/v1/token")]
    assert posts == [("POST", "/flexnet/uar/v1/token", "Basic")]
    (mint,) = [json.loads(body) for method, path, body in seen.bodies if (method, path) == ("POST", "/flexnet/uar/v1/token")]
    assert mint["username"] == ADMIN[0] and mint["tokenType"] == "NORMAL", "the OpenAPI's required field: the profile's user"
    assert seen.schemes("/entitlements-api/") == {"Bearer"}
    assert ("DELETE", f"/flexnet/uar/v1/token/{minted}", "Basic") in seen.seen
    assert minted not in token_store(world).by_name


async def test_a_read_only_profile_never_mints(sim_app: Any) -> None:
    s, seen = session(sim_app, Credentials(*ADMIN), mint_token=True, read_only=True, credential_hint=lambda what: f"add {what} = …")
    async with s:
        with pytest.raises(MissingCredential, match="takes an access token, not a password: add token = …"):
            await EntitlementsService(s).list()
    assert not [x for x in seen.seen if x[0] != "GET"] and seen.schemes("/entitlements-api/") == {"Basic"}, "nothing minted"


async def test_a_token_only_profile_reaches_tokens_and_reports_with_the_token(sim_app: Any, token: str) -> None:
    s, seen = session(sim_app, Credentials(ADMIN[0], None, token))
    async with s:
        assert await TokensService(s).count(username=ADMIN[0]) >= 1
    assert seen.schemes("/flexnet/") == {"Bearer"}


def test_credentials_never_show_their_secrets() -> None:
    creds = Credentials("me", "hunter2", "rna_" + "a" * 44)
    assert "hunter2" not in repr(creds) and "rna_" not in repr(creds)
    assert base64.b64encode(b"me:hunter2").decode() not in repr(creds)
