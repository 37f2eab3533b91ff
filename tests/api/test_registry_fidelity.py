"""The registry against the real variants the docs allow (walk-c items 2, 3, 5, 9, 10), each through its sim dialect.

- `members-filter-fuzzy`: Harbor's member filter is a substring match; only an exact name is that user.
- `secret-history`: the documented secret body refused for its value; the user sees that refusal, and no second PUT goes out.
- `jwt-expired-403`: 403 "Authentication failed" for a stale JWT signs in again once; a second 403 is a real refusal.
- `shared-registry-prefix`: listed names carry the tenant prefix; paths omit it (RESTSWContDelivRetrieveArt.htm).
- `dedicated-registry-tenant-name`: a dedicated registry's `1107-hello-world-dp` is that project, never `hello-world-dp`.
- `artifacts-docs-envelope`: the docs' camelCase artifacts without a digest are read, none dropped as repeats.
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from flextui.api.auth import Credentials
from flextui.api.errors import ApiError, Forbidden, Invalid
from flextui.api.http import Session
from flextui.api.paging import collect
from flextui.api.registry import RegistryService, refused_for_shape
from flextui.api.tolerant import unreadable
from flextui.render.registry import artifact_row
from flextui.sim.app import create_app
from flextui.sim.dialects import speaking
from flextui.sim.registry import HELLO, registry_store, set_jwt_lifetime
from flextui.sim.world import PRODUCER, World

from ..conftest import make_session


def registry_on(world: World, dialect: str) -> tuple[RegistryService, Session]:
    session = make_session(create_app(world, dialects=speaking(dialect)), user=PRODUCER)
    return RegistryService(session, *PRODUCER, tenant_id=world.tenant_id), session


# -- members: an exact name only ----------------------------------------------------------------------


async def test_member_is_only_an_exact_name_on_a_fuzzy_filtering_server(world: World) -> None:
    reg, _ = registry_on(world, "members-filter-fuzzy")
    store = registry_store(world)
    names = [m["entityName"] for m in store.members(store.project(HELLO))]
    name = names[-1]
    partial = name[1:]  # "oann@…" of "joann@…": the server's substring filter answers joann for it
    assert partial not in names
    assert await reg.member(HELLO, partial) is None, "someone else's membership is not this user's"
    domain = name.split("@")[1]
    assert await reg.member(HELLO, domain) is None
    found = await reg.member(HELLO, name.upper())
    assert found is not None and found.entity_name == name


# -- secret reset: the documented refusal is the one the user sees --------------------------------------------


async def test_secret_reset_refused_for_its_value_says_so_and_sends_one_put(world: World) -> None:
    reg, session = registry_on(world, "secret-history")
    current = await reg.get_secret()
    sent = session.requests_sent
    with pytest.raises(Invalid) as caught:
        await reg.reset_secret(current)
    assert "new-secret" in str(caught.value) and "last 5" in str(caught.value), str(caught.value)
    assert "new-password" not in str(caught.value)
    assert session.requests_sent == sent + 2, "GET /secret and the documented PUT: no second PUT"
    assert await reg.get_secret() == current


def _secret_server(first: httpx.Response, second: httpx.Response, puts: list[dict[str, Any]]) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/authenticate"):
            return httpx.Response(200, text="aaa.bbb.ccc")
        if path.endswith("/secret") and request.method == "GET":
            return httpx.Response(200, text=base64.b64encode(b"OldSecr3t").decode())
        if path.endswith("/secret") and request.method == "PUT":
            puts.append(json.loads(request.content))
            return first if len(puts) == 1 else second
        return httpx.Response(404)

    return httpx.MockTransport(handler)


def _service(transport: httpx.MockTransport) -> RegistryService:
    session = Session(
        "https://x.flexnetoperations.com", transport=transport, credentials=Credentials("u@x.com", "pw"), registry_tenant="1107"
    )
    return RegistryService(session)


async def _reset_refused(first: str, second: str) -> tuple[str, list[dict[str, Any]]]:
    """A reset against a server refusing the docs' body with `first` and the seed's with `second`: the error said, the PUTs sent."""
    puts: list[dict[str, Any]] = []
    transport = _secret_server(httpx.Response(400, json={"message": first}), httpx.Response(400, json={"message": second}), puts)
    with pytest.raises(Invalid) as caught:
        await _service(transport).reset_secret("NewSecr3t99")
    return str(caught.value), puts


async def test_secret_reset_policy_refusal_is_not_hidden_by_the_seed_body() -> None:
    text, puts = await _reset_refused("new-secret must not reuse the last 5 secrets", "existing-secret is required")
    assert "must not reuse the last 5 secrets" in text and "existing-secret is required" not in text
    assert [list(p) for p in puts] == [["existing-secret", "new-secret"]]


async def test_secret_reset_both_bodies_refused_says_both_the_docs_first() -> None:
    text, puts = await _reset_refused("Bad request format. Unknown field 'existing-secret'", "the password is too short")
    assert text.index("Unknown field 'existing-secret'") < text.index("too short"), text
    assert len(puts) == 2 and "new-password" in puts[1]


def test_refused_for_shape_reads_status_field_and_words() -> None:
    assert refused_for_shape(Invalid("Bad request format. 'new-password' is required", status=400))
    assert refused_for_shape(Invalid('Unrecognized field "existing-secret"', status=400))
    assert refused_for_shape(Invalid("Not Found", status=404))
    assert not refused_for_shape(Invalid("existing-secret does not match your current registry secret", status=400))
    assert not refused_for_shape(Invalid("the new secret is too weak: it must have at least one digit", status=400, field="new-secret"))
    assert not refused_for_shape(Invalid("Bad Request", status=400)), "a bare 400 is the documented answer to a refused value"


# -- 403 "Authentication failed": sign in again once ------------------------------------------------------


async def test_403_authentication_failed_signs_in_again_once(world: World, clock: Any) -> None:
    reg, session = registry_on(world, "jwt-expired-403")
    set_jwt_lifetime(world, 60)
    assert (await reg.projects_page(1, 5)).items
    clock.advance(61_000)
    assert (await reg.projects_page(2, 5)).items
    assert reg.auth is not None and reg.auth.authentications == 2


async def test_a_second_403_is_a_permission_refusal_and_never_loops(world: World, clock: Any) -> None:
    reg, session = registry_on(world, "jwt-expired-403")
    set_jwt_lifetime(world, 60)
    await reg.projects_page(1, 5)
    assert reg.auth is not None
    reg.auth.tenant_id = "9999"  # the repeat is refused for the tenant, after a fresh sign-in
    clock.advance(61_000)
    sent = session.requests_sent
    with pytest.raises(Forbidden) as caught:
        await reg.projects_page(2, 5, force=True)
    assert reg.auth.authentications == 2 and session.requests_sent == sent + 1
    assert "x-publisherid" in str(caught.value) and "signing in again does not help" in str(caught.value)


async def test_a_403_to_a_jwt_got_just_before_is_not_repeated(world: World) -> None:
    reg, _ = registry_on(world, "jwt-expired-403")
    reg.auth.tenant_id = "9999"  # type: ignore[union-attr]
    with pytest.raises(Forbidden) as caught:
        await reg.projects_page(1, 5)
    assert reg.auth is not None and reg.auth.authentications == 1
    assert "signing in again does not help" in str(caught.value)


# -- shared registry: the tenant prefix is omitted in paths ----------------------------------------------------


async def test_prefixed_project_names_are_listed_as_listed_and_addressed_without_the_prefix(world: World) -> None:
    reg, _ = registry_on(world, "shared-registry-prefix")
    listed = [p.name for p in await collect(reg.iter_projects(100))]
    prefixed = f"{world.tenant_id}-{HELLO}"
    assert prefixed in listed and all(n.startswith(f"{world.tenant_id}-") for n in listed)
    assert reg.path_name(prefixed) == HELLO and reg.path_name(HELLO) == HELLO
    detail = await reg.get_project(prefixed)
    assert detail.name == HELLO and [r.name for r in detail.repositories] == [f"{HELLO}/hello-world-image"]
    assert await collect(reg.iter_members(prefixed)), "members of the listed name"
    artifacts = await collect(reg.iter_artifacts(prefixed, f"{HELLO}/hello-world-image"))
    assert len(artifacts) == 1 and artifacts == await collect(reg.iter_artifacts(prefixed, "hello-world-image"))
    chart = await reg.get_chart(prefixed, f"{HELLO}/hello-world-chart")
    assert chart.latest_version == "0.1.0"


# -- artifacts in the docs' form ----------------------------------------------------------------------------------


def _repo_with_artifacts(world: World, at_least: int) -> tuple[str, str, int]:
    store = registry_store(world)
    for project in store.sorted_projects():
        for repo in store.repositories(project).values():
            if repo.artifact_count >= at_least:
                return project.name, repo.name, repo.artifact_count
    raise AssertionError("no repository with enough artifacts")


async def test_docs_envelope_artifacts_without_digest_are_all_listed(world: World) -> None:
    project, repo, count = _repo_with_artifacts(world, 5)
    reg, session = registry_on(world, "artifacts-docs-envelope")
    artifacts = await collect(reg.iter_artifacts(project, repo, 3))
    assert len(artifacts) == count, "no artifact dropped as a repeat of another"
    assert not any(unreadable(a) for a in artifacts) and all(a.digest is None for a in artifacts)
    assert all(a.push_time is not None and a.media_type for a in artifacts)
    assert len({a.identity for a in artifacts}) == count
    assert not session.shortfalls


async def test_unreadable_artifacts_are_never_taken_for_repeats_and_say_so() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/authenticate"):
            return httpx.Response(200, text="aaa.bbb.ccc")
        if request.url.params.get("page") in ("0", "1"):
            return httpx.Response(200, json=[{"size": "huge"}, {"size": "huger"}, {"digest": "sha256:aa", "size": 1}])
        return httpx.Response(200, json=[])

    reg = _service(httpx.MockTransport(handler))
    artifacts = await collect(reg.iter_artifacts("p", "r", 10))
    assert len(artifacts) == 3
    rows = [artifact_row(a) for a in artifacts]
    assert [bool(r.get("unreadable")) for r in rows] == [True, True, False]


# -- a dedicated registry: a project may be named with the tenant ID in front -------------------------------------


def _named_in_paths(session: Session) -> set[str]:
    """The projects the session's requests named in their paths (`/projects/{name}/…`)."""
    names = set()
    for exchange in session.trace.exchanges:
        parts = httpx.URL(exchange.url).path.split("/")  # ['', 'registry', 'api', 'v1', 'projects', NAME, …]
        if len(parts) > 5 and parts[4] == "projects":
            names.add(unquote(parts[5]))
    return names


@pytest.mark.parametrize("seen", ["nothing", "a listing", "a prefixed page"])
async def test_dedicated_registry_reads_and_deletes_the_tenant_named_project_never_the_other(world: World, seen: str) -> None:
    """`1107-hello-world-dp` beside `hello-world-dp` on a dedicated registry: every read and delete of the first
    addresses it, whatever was listed before (nothing: `o NAME`; a first page holding only prefixed names proves nothing)."""
    reg, session = registry_on(world, "dedicated-registry-tenant-name")
    store = registry_store(world)
    named = f"{world.tenant_id}-{HELLO}"
    own = store.tenant_named()
    if seen == "a listing":
        assert named in [p.name for p in (await reg.projects_page(1, 50)).items] and reg.shared is False
    elif seen == "a prefixed page":
        assert [p.name for p in (await reg.projects_page(1, 1)).items] == [named]
        assert reg.shared is None, "one page of prefixed names is not the whole listing"
    detail = await reg.get_project(named)
    assert detail.name == named and detail.id == own.record_id and detail.package_name == own.package_name
    assert [r.name for r in detail.repositories] == [f"{named}/hello-world-image"]
    assert reg.path_name(named) == named and reg.shared is False
    artifacts = await collect(reg.iter_artifacts(named, f"{named}/hello-world-image"))
    assert len(artifacts) == store.repositories(own)["hello-world-image"].artifact_count != 1, "its own, not hello-world-dp's one"
    assert await collect(reg.iter_members(named))
    chart = await reg.get_chart(named, f"{named}/hello-world-chart")
    assert chart.latest_version == store.charts(own)["hello-world-chart"].versions[-1].version
    await reg.delete_repository(named, f"{named}/hello-world-image")
    await reg.delete_chart(named, "hello-world-chart")
    assert own.image_names == [] and own.chart_names == []
    hello = store.project(HELLO)
    assert hello.image_names == ["hello-world-image"] and hello.chart_names == ["hello-world-chart"], "hello-world-dp untouched"
    assert _named_in_paths(session) == {named}, "no request named hello-world-dp"


async def test_dedicated_registry_delete_before_any_listing_removes_the_named_projects_repository(world: World) -> None:
    reg, session = registry_on(world, "dedicated-registry-tenant-name")
    store = registry_store(world)
    named = f"{world.tenant_id}-{HELLO}"
    await reg.delete_repository(named, "hello-world-image")
    assert store.tenant_named().image_names == [] and store.project(HELLO).image_names == ["hello-world-image"]
    assert _named_in_paths(session) == {named}


async def test_a_name_without_the_prefix_is_asked_as_given_without_a_listing(world: World) -> None:
    reg, session = registry_on(world, "dedicated-registry-tenant-name")
    detail = await reg.get_project(HELLO)
    assert detail.name == HELLO and detail.id == 369
    paths = [httpx.URL(e.url).path for e in session.trace.exchanges]
    assert not any(p.endswith("/projects") for p in paths), "no listing for a name both kinds take as given"
    assert reg.shared is None


async def test_shared_registry_opens_and_deletes_a_listed_name_before_any_listing(world: World) -> None:
    reg, session = registry_on(world, "shared-registry-prefix")
    store = registry_store(world)
    prefixed = f"{world.tenant_id}-{HELLO}"
    assert reg.shared is None
    detail = await reg.get_project(prefixed)
    assert detail.name == HELLO and reg.shared is True, "learned from the listing: every name prefixed"
    assert len(await collect(reg.iter_artifacts(prefixed, "hello-world-image"))) == 1
    await reg.delete_repository(prefixed, f"{HELLO}/hello-world-image")
    assert store.project(HELLO).image_names == []
    assert _named_in_paths(session) == {HELLO}


async def test_shared_registry_delete_before_any_listing(world: World) -> None:
    reg, session = registry_on(world, "shared-registry-prefix")
    await reg.delete_chart(f"{world.tenant_id}-{HELLO}", "hello-world-chart")
    assert registry_store(world).project(HELLO).chart_names == [] and reg.shared is True
    assert _named_in_paths(session) == {HELLO}


async def test_a_listing_stopped_early_does_not_tell_a_shared_registry(world: World) -> None:
    reg, _ = registry_on(world, "shared-registry-prefix")
    async for batch in reg.iter_projects(5):
        assert batch and all(p.name.startswith(f"{world.tenant_id}-") for p in batch)
        break
    assert reg.shared is None, "the rest was not seen"
    await collect(reg.iter_projects(5))
    assert reg.shared is True


def _listing_server(projects: list[dict[str, Any]], sent: list[tuple[str, str]]) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        sent.append((request.method, request.url.path))
        if request.url.path.endswith("/authenticate"):
            return httpx.Response(200, text="aaa.bbb.ccc")
        if request.url.path.endswith("/projects"):
            return httpx.Response(200, json=projects if request.url.params.get("page") in ("1", None) else [])
        return httpx.Response(200, json={"downloadPackageId": request.url.path.split("/")[-1]})

    return httpx.MockTransport(handler)


async def test_a_delete_is_refused_while_the_kind_of_registry_is_unknown() -> None:
    """An empty listing tells neither kind: a prefixed name is read as given, and a delete of it is not sent."""
    sent: list[tuple[str, str]] = []
    reg = _service(_listing_server([], sent))
    assert (await reg.get_project("1107-x")).name == "1107-x"
    assert ("GET", "/registry/api/v1/projects/1107-x") in sent and reg.shared is None
    with pytest.raises(ApiError) as caught:
        await reg.delete_repository("1107-x", "img")
    assert "not deleting repository 'img' of project '1107-x'" in str(caught.value)
    assert not [s for s in sent if s[0] == "DELETE"], "nothing deleted, under either name"
