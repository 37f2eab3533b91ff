"""A 200 answer that holds an error (or nothing readable) and no list is an error, never an empty list.

The beta APIs document their answers only as `{"status"}` / `{"message", "status"}` placeholders (notes §4),
so a service may well say a failure in the body of a 200. Read as "no items", such an answer showed "no users"
and `flextui get users` printed no rows with exit 0. For every list of every service, against the simulator
(the bodies are its fault plan's: `status=200, body=…`, and its own `error` kind, each service's error shape
sent with 200), each bad body is `Unreadable`, naming the service and the request and quoting the server's
words; and nothing of it is stored, so the next read (the server well again) shows the list.

And the other way round: a list that is empty in any documented form (the envelope key holding `[]` or
`null`, a bare array, the registry's `null`, a worded success status) still reads as empty.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from flextui.api.cache import PageCache, cache_key
from flextui.api.entitlements import EntitlementsService
from flextui.api.errors import Offline, Unreadable
from flextui.api.filters import FilterSet
from flextui.api.http import Session
from flextui.api.listing import freshest
from flextui.api.products import ProductsService
from flextui.api.registry import RegistryService
from flextui.api.reports import ReportsService
from flextui.api.tokens import TokenSearch, TokensService
from flextui.api.users import UsersService
from flextui.sim.faults import FaultPlan
from flextui.sim.registry import HELLO
from flextui.sim.world import ADMIN, PRODUCER, World

from ..conftest import make_session

Read = Callable[[Session, World], Awaitable[list[Any]]]


async def _users(s: Session, w: World) -> list[Any]:
    return (await UsersService(s).users(limit=10)).items


async def _accounts(s: Session, w: World) -> list[Any]:
    return (await UsersService(s).accounts(limit=10)).items


async def _entitlements(s: Session, w: World) -> list[Any]:
    return (await EntitlementsService(s).list(limit=10)).items


async def _line_items(s: Session, w: World) -> list[Any]:
    return (await EntitlementsService(s).line_items("ENT-100000", limit=10)).items


async def _products(s: Session, w: World) -> list[Any]:
    return (await ProductsService(s).products(limit=10)).items


async def _suites(s: Session, w: World) -> list[Any]:
    return (await ProductsService(s).suites(limit=10)).items


async def _part_numbers(s: Session, w: World) -> list[Any]:
    return (await ProductsService(s).part_numbers(limit=10)).items


def _registry(s: Session, w: World) -> RegistryService:
    return RegistryService(s, *PRODUCER, tenant_id=w.tenant_id)


async def _projects(s: Session, w: World) -> list[Any]:
    return (await _registry(s, w).projects_page(1, 10, force=True)).items


async def _members(s: Session, w: World) -> list[Any]:
    return (await freshest(_registry(s, w).members_page(HELLO, 1, 10, force=True))).items


async def _artifacts(s: Session, w: World) -> list[Any]:
    return (await freshest(_registry(s, w).artifacts_page(HELLO, "hello-world-image", 1, 10, force=True))).items


async def _downloads(s: Session, w: World) -> list[Any]:
    return (await freshest(_registry(s, w).downloads_page(2026, 10, 1, 10, force=True))).items


async def _tokens(s: Session, w: World) -> list[Any]:
    return (await freshest(TokensService(s).list_page(ADMIN[0], None, 0, 10, force=True))).items


async def _token_list(s: Session, w: World) -> list[Any]:
    return await TokensService(s).list(ADMIN[0], None, 0, 10)


async def _report_page(s: Session, w: World) -> list[Any]:
    return (await ReportsService(s).fetch_page("fulfillment", FilterSet.build(past_days=30, limit_records=50), force=True)).rows


@dataclass(frozen=True)
class Lister:
    read: Read
    pattern: str  # the list's request (faults go there only: the registry's sign-in is not hit)
    service: str  # as a message names it
    named: bool = True  # the message names the service and the request (a read through the session's cache, `Session.cached`)
    bare: bool = False  # a bare array is the documented form: a top-level null is an empty list (null-collections)


LISTERS: dict[str, Lister] = {
    "users": Lister(_users, r"^GET /users-accounts-api/v1/users$", "the users and accounts API"),
    "accounts": Lister(_accounts, r"^GET /users-accounts-api/v1/accounts$", "the users and accounts API"),
    "entitlements": Lister(_entitlements, r"^GET /entitlements-api/v1/entitlements$", "the entitlements API"),
    "line-items": Lister(_line_items, r"/line-items$", "the entitlements API"),
    "products": Lister(_products, r"^GET /products-api/v1/products$", "the products API"),
    "suites": Lister(_suites, r"^GET /products-api/v1/suites$", "the products API"),
    "part-numbers": Lister(_part_numbers, r"^GET /products-api/v1/part-numbers$", "the products API"),
    "projects": Lister(_projects, r"^GET /registry/api/v1/projects$", "the registry", bare=True),
    "members": Lister(_members, r"/members$", "the registry", bare=True),
    "artifacts": Lister(_artifacts, r"/artifacts$", "the registry", bare=True),
    "downloads": Lister(_downloads, r"^GET /registry/api/v1/downloads$", "the registry", bare=True),
    "tokens": Lister(_tokens, r"^GET /flexnet/uar/v1/tokens$", "the token service"),
    "token-list": Lister(_token_list, r"^GET /flexnet/uar/v1/tokens$", "the token service", named=False),
    "report-page": Lister(_report_page, r"^GET /data/api/v1/report/fulfillment$", "the data reports service"),
}

BAD_BODIES: dict[str, tuple[bytes, str]] = {
    # body, what the message says of it
    "error-body": (b'{"status": "error", "message": "boom"}', 'says "error: boom"'),
    "spring-error": (b'{"status": 500, "error": "Internal Server Error", "message": "boom", "path": "/x"}', "Internal Server Error: boom"),
    "token-error": (b'{"statusMessage": "Failed to read: boom", "responseObject": null}', 'says "Failed to read: boom"'),
    "empty-object": (b"{}", "an empty object"),
    "text": (b'"hello"', 'the text "hello"'),
    "null": (b"null", "it is null"),
    "success-without-list": (b'{"status": "success"}', 'it says "success"'),
    "other-object": (b'{"foo": 1, "bar": [1]}', "an object with foo, bar"),
}


def _cases() -> list[Any]:
    cases = []
    for name, lister in LISTERS.items():
        for body_name in BAD_BODIES:
            if body_name == "null" and lister.bare:
                continue  # the registry's documented empty list under null-collections: see test_documented_empty_lists
            cases.append(pytest.param(name, body_name, id=f"{name}-{body_name}"))
    return cases


def _said(error: Unreadable) -> str:
    return str(error)


@pytest.mark.parametrize(("name", "body_name"), _cases())
async def test_a_200_without_a_list_is_an_error_not_an_empty_list(
    name: str, body_name: str, session: Session, world: World, faults: FaultPlan
) -> None:
    lister = LISTERS[name]
    body, words = BAD_BODIES[body_name]
    fault = faults.add(lister.pattern, status=200, body=body, times=1000)
    with pytest.raises(Unreadable) as info:
        await lister.read(session, world)
    said = _said(info.value)
    assert fault.hits >= 1
    assert words in said, said
    assert "\n" not in said and len(said) < 400
    if lister.named:
        assert said.startswith(f"{lister.service}'s answer to GET /"), said
        assert "(200 OK)" in said, said
    else:  # read outside the session's cache: named by `http.answered`, or where the token envelope says the failure
        assert said.startswith((f"{lister.service}'s answer to GET /", "the server's answer")), said
    # Nothing of it was stored: the server well again, the list is there.
    faults.clear()
    assert await lister.read(session, world), "the list reads once the server answers it"


@pytest.mark.parametrize("name", list(LISTERS))
async def test_the_simulators_error_fault_is_said_in_the_servers_words(
    name: str, session: Session, world: World, faults: FaultPlan
) -> None:
    """`Fault(kind="error")`: each service's own error shape (`sim.common.error_body`) sent with 200."""
    lister = LISTERS[name]
    faults.add(lister.pattern, kind="error", status=200, message="boom: the backend failed", times=1000)
    with pytest.raises(Unreadable) as info:
        await lister.read(session, world)
    said = str(info.value)
    assert "boom: the backend failed" in said, said
    if lister.named:
        assert said.startswith(f"{lister.service}'s answer to GET /"), said


async def test_a_list_with_items_is_read_whatever_its_status_says(session: Session, world: World, faults: FaultPlan) -> None:
    """Items are the stronger word: a status that reads as failure beside a list that holds records does not hide them."""
    body = b'{"status": "PARTIAL_FAILURE", "message": "2 records could not be read", "users": [{"userName": "a@b.example"}]}'
    faults.add(LISTERS["users"].pattern, status=200, body=body, times=1000)
    assert [u.user_name for u in await _users(session, world)] == ["a@b.example"]


# -- documented empty lists still read as empty -------------------------------------------------------------

EMPTY: dict[str, list[bytes]] = {
    "users": [
        b'{"status": "success", "page": 1, "limit": 10, "total": 0, "users": []}',  # the simulator's envelope
        b'{"users": null}',  # Jackson's empty collection (null-collections)
        b'{"status": "200 OK", "users": []}',  # a status in a Spring service's words (create-status-worded)
        b'{"data": []}',
        b'{"content": [], "totalElements": 0, "last": true}',  # Spring's page
        b"[]",
    ],
    "accounts": [b'{"accounts": []}', b'{"accounts": null}'],
    "entitlements": [
        b'{"entitlements": []}',
        b'{"entitlements": null}',
        b"[]",  # entitlements-bare-array
        b'{"data": []}',  # entitlements-data-envelope
        b'{"data": null}',
    ],
    "line-items": [b'{"page": 1, "limit": 10, "lineItems": []}', b'{"lineItems": null}'],  # notes §4.1 (GraphQL)
    "products": [b'{"pagination": {"total": 0}, "productList": []}', b'{"productList": null}'],
    "suites": [b'{"pagination": {}, "suiteList": []}', b'{"suiteList": null}'],
    "part-numbers": [
        b'{"status": "SUCCESS", "message": "Part numbers retrieved successfully", "partNumbers": []}',  # notes §4.2
        b'{"partNumbers": null}',
    ],
    "projects": [b"[]", b"null"],  # a bare array (notes §2.4); null-collections nulls it
    "members": [b"[]", b"null"],
    "artifacts": [
        b"[]",
        b"null",
        b'{"id": 369, "downloadPackageId": "hello-world-dp", "tenantId": "1107", "artifacts": []}',  # artifacts-docs-envelope
        b'{"id": 369, "downloadPackageId": "hello-world-dp", "tenantId": "1107", "artifacts": null}',
    ],
    "downloads": [b"[]", b"null"],  # a bare array (notes §2.2)
    "tokens": [
        b'{"statusMessage": "Successful", "responseObject": []}',  # notes §1.3
        b'{"responseObject": [], "statusMessage": "Successful"}',  # the Redocly sample's order
        b'{"statusMessage": "Successful", "responseObject": null}',
    ],
    "token-list": [b'{"statusMessage": "Successful", "responseObject": []}', b'{"statusMessage": "Successful", "responseObject": null}'],
    "report-page": [
        b'{"header": {"pageNumber": 1}, "data": []}',
        b'{"header": {"pageNumber": 1}, "data": null}',  # null-collections (sim/reports.py)
        b'{"data": []}',  # links-none
    ],
}


def _empty_cases() -> list[Any]:
    return [pytest.param(name, body, id=f"{name}-{i}") for name, bodies in EMPTY.items() for i, body in enumerate(bodies)]


def test_every_lister_has_its_empty_forms() -> None:
    assert set(EMPTY) == set(LISTERS)


@pytest.mark.parametrize(("name", "body"), _empty_cases())
async def test_documented_empty_lists(name: str, body: bytes, session: Session, world: World, faults: FaultPlan) -> None:
    faults.add(LISTERS[name].pattern, status=200, body=body, times=1000)
    assert await LISTERS[name].read(session, world) == []


async def test_a_count_that_says_it_failed_is_an_error_named_after_its_own_request(
    session: Session, world: World, faults: FaultPlan
) -> None:
    """The token count's error envelope read as a count of 0 (or no total); its message names the count's request,
    not the answer this task was given before it."""
    tokens = TokensService(session)
    assert await tokens.list(ADMIN[0], None, 0, 5), "this task's last answer: the list"
    body = b'{"statusMessage": "Failed to count the tokens", "responseObject": null}'
    faults.add(r"^GET /flexnet/uar/v1/tokens/count$", status=200, body=body, times=10)
    whose = "the token service's answer to GET /flexnet/uar/v1/tokens/count (200 OK)"
    with pytest.raises(Unreadable) as info:
        await tokens.iterate(ADMIN[0], None)
    assert str(info.value) == f'{whose} says "Failed to count the tokens" and holds no responseObject'
    with pytest.raises(Unreadable) as info:
        await tokens.count(ADMIN[0], None)
    assert str(info.value).startswith(whose), str(info.value)


# -- token pages stored by earlier versions ----------------------------------------------------------------

# What an earlier version stored for the token listings, under the key it used (no "stored" part): the count and
# the list's `responseObject` unwrapped (`tokens.list`), the search's unwrapped (`tokens.search`), the list answer
# whole (`tokens.items`). A top-level null (an error) and an empty list were both stored as null there.
OLD_TOKEN_PAGES: dict[str, tuple[dict[str, Any], Any]] = {
    "tokens.list": ({"username": ADMIN[0], "creator": None, "wire": 0, "size": 5}, {"total": 9, "items": None}),
    "tokens.search": ({"criteria": {"tokenName": "*"}, "wire": 0, "size": 5}, None),
    "tokens.items": ({"username": ADMIN[0], "creator": None, "wire": 0, "size": 200}, None),
}


async def _token_pages(op: str, tokens: TokensService) -> list[tuple[float | None, list[str]]]:
    """What a screen or `flextui get tokens` is given for the listing `op` stored: (age, token names) per answer."""
    if op == "tokens.list":
        return [(p.age, [t.name for t in p.items]) async for p in tokens.list_page(ADMIN[0], None, 0, 5)]
    if op == "tokens.search":
        return [(p.age, [t.name for t in p.items]) async for p in tokens.search_page(TokenSearch(tokenName="*"), 0, 5)]
    return [(None, [t.name async for batch in await tokens.iterate(ADMIN[0], None, 200) for t in batch])]


@pytest.mark.parametrize("op", list(OLD_TOKEN_PAGES))
async def test_token_pages_stored_by_earlier_versions_are_never_misread(op: str, sim_app: Any, session: Session, cache: PageCache) -> None:
    """The token listings now store each answer whole and read it strictly (a top-level null is an error), under
    keys of their own (`tokens.STORED_FORM`). A page an earlier version stored is not looked up: read with the strict
    reader its null would be an error standing in for every later answer (a stored page is shown first), read as
    before it would be "no tokens". Online the list is asked and shown; offline nothing is found."""
    params, stored = OLD_TOKEN_PAGES[op]
    whose = session.identity_for(op)
    cache.put(cache_key(whose, op, params), whose, op, stored)
    if op != "tokens.items":  # (offline, that walk stops at the count, which nothing stored)
        offline = make_session(sim_app, cache=cache, offline=True)
        try:
            with pytest.raises(Offline):
                await _token_pages(op, TokensService(offline))
        finally:
            await offline.aclose()
    tokens = TokensService(session)
    assert await tokens.count(ADMIN[0]), "signed in: from here, a page stored is shown before the server is asked"
    pages = await _token_pages(op, tokens)
    assert pages and all(age is None for age, _ in pages), f"only fresh answers: {pages}"
    assert pages[-1][1], "the tokens, as the server answers them"
