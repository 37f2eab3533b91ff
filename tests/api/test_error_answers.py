"""A 200 answer that holds an error (or nothing readable) and no list is an error, never an empty list.

The beta APIs document their answers only as `{"status"}` / `{"message", "status"}` placeholders (notes §4),
so a service may well say a failure in the body of a 200. Read as "no items", such an answer showed "no users"
and `flextui get users` printed no rows with exit 0. For every list of every service, against the simulator
(the bodies are its fault plan's: `status=200, body=…`, and its own `error` kind, each service's error shape
sent with 200), each bad body is `Unreadable`, naming the service and the request and quoting the server's
words; and nothing of it is stored, so the next read (the server well again) shows the list.

And the other way round: a list that is empty in any documented form (the envelope key holding `[]` or
`null`, a bare array, the registry's `null`, a worded success status) still reads as empty.

The same for the reads of one record (a token's details and a verification, an entitlement, a user, a suite, a
project, a chart, an event status): a 200 that holds no record gave one "‹unreadable›" with no fields (a
verification said the value was valid), or "the project answer is not an object (NoneType)". Each bad body is
`Unreadable` in the same words as a list's (`tolerant.not_held`), naming the service and the request; every
documented form of each record still reads, as does a record whose own `status` says something.
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

Read = Callable[[Session, World], Awaitable[Any]]  # a list's items, or one record


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
class Reader:
    """A read of a list or of one record, and what a message about its answer says."""

    read: Read
    pattern: str  # its request (faults go there only: the registry's sign-in, a list read before a record, are not hit)
    service: str  # as a message names it
    request: str = "GET /"  # as a message names it (its start)
    noun: str | None = None  # one record's read: what a message says the answer holds none of
    named: bool = True  # the message names the service and the request
    documented: frozenset[str] = frozenset()  # bad bodies (`BAD_BODIES`) that are a documented answer of this read


NULL_IS_EMPTY = frozenset({"null"})
"""A bare array is the documented form: a top-level null is an empty list (null-collections; test_documented_empty_lists)."""

LISTERS: dict[str, Reader] = {
    "users": Reader(_users, r"^GET /users-accounts-api/v1/users$", "the users and accounts API"),
    "accounts": Reader(_accounts, r"^GET /users-accounts-api/v1/accounts$", "the users and accounts API"),
    "entitlements": Reader(_entitlements, r"^GET /entitlements-api/v1/entitlements$", "the entitlements API"),
    "line-items": Reader(_line_items, r"/line-items$", "the entitlements API"),
    "products": Reader(_products, r"^GET /products-api/v1/products$", "the products API"),
    "suites": Reader(_suites, r"^GET /products-api/v1/suites$", "the products API"),
    "part-numbers": Reader(_part_numbers, r"^GET /products-api/v1/part-numbers$", "the products API"),
    "projects": Reader(_projects, r"^GET /registry/api/v1/projects$", "the registry", documented=NULL_IS_EMPTY),
    "members": Reader(_members, r"/members$", "the registry", documented=NULL_IS_EMPTY),
    "artifacts": Reader(_artifacts, r"/artifacts$", "the registry", documented=NULL_IS_EMPTY),
    "downloads": Reader(_downloads, r"^GET /registry/api/v1/downloads$", "the registry", documented=NULL_IS_EMPTY),
    "tokens": Reader(_tokens, r"^GET /flexnet/uar/v1/tokens$", "the token service"),
    "token-list": Reader(_token_list, r"^GET /flexnet/uar/v1/tokens$", "the token service", named=False),
    "report-page": Reader(_report_page, r"^GET /data/api/v1/report/fulfillment$", "the data reports service"),
}

# One record's reads.

SEEDED_TOKEN = "flextui-demo-admin"  # the admin's seeded token (sim/world.py)


async def _token(s: Session, w: World) -> Any:
    return await TokensService(s).get(SEEDED_TOKEN)


async def _verify(s: Session, w: World) -> Any:
    return (await TokensService(s).verify(w.seed_token(ADMIN[0]))).token


async def _entitlement(s: Session, w: World) -> Any:
    return await EntitlementsService(s).get("ENT-100003")


async def _user(s: Session, w: World) -> Any:
    return await UsersService(s).get_user(ADMIN[0])


async def _suite(s: Session, w: World) -> Any:
    suites = await ProductsService(s).suites(limit=1)
    return await ProductsService(s).get_suite(suites.items[0].suite_name, suites.items[0].version or "")


async def _project(s: Session, w: World) -> Any:
    return await _registry(s, w).get_project(HELLO, force=True)


async def _chart(s: Session, w: World) -> Any:
    return await _registry(s, w).get_chart(HELLO, "hello-world-chart", force=True)


async def _event_status(s: Session, w: World) -> Any:
    return await _registry(s, w).event_status(ADMIN[0])


async def _secret(s: Session, w: World) -> Any:
    return await _registry(s, w).get_secret()


READERS: dict[str, Reader] = {
    "token": Reader(
        _token, rf"^GET /flexnet/uar/v1/token/{SEEDED_TOKEN}$", "the token service", f"GET /flexnet/uar/v1/token/{SEEDED_TOKEN}", "token"
    ),
    "verify": Reader(
        _verify,
        r"^POST /flexnet/uar/v1/token/verification$",
        "the token service",
        "POST /flexnet/uar/v1/token/verification",
        "token",
    ),
    "entitlement": Reader(
        _entitlement,
        r"^GET /entitlements-api/v1/entitlement/ENT-100003$",
        "the entitlements API",
        "GET /entitlements-api/v1/entitlement/ENT-100003",
        "entitlement",
    ),
    "user": Reader(
        _user,
        r"^GET /users-accounts-api/v1/users/[^/]+$",
        "the users and accounts API",
        f"GET /users-accounts-api/v1/users/{ADMIN[0]}",
        "user",
    ),
    "suite": Reader(_suite, r"^GET /products-api/v1/suites/[^/]+/[^/]+$", "the products API", "GET /products-api/v1/suites/", "suite"),
    "project": Reader(
        _project, rf"^GET /registry/api/v1/projects/{HELLO}$", "the registry", f"GET /registry/api/v1/projects/{HELLO}", "project"
    ),
    "chart": Reader(
        _chart,
        r"/charts/hello-world-chart$",
        "the registry",
        f"GET /registry/api/v1/projects/{HELLO}/charts/hello-world-chart",
        "chart",
    ),
    # Documented as {"status": "Processed"} and, in the OpenAPI, as a bare string: "hello" and a status alone are statuses.
    "event-status": Reader(
        _event_status,
        r"/event/[^/]+/status$",
        "the registry",
        f"GET /registry/api/v1/event/{ADMIN[0]}/status",
        "event status",
        documented=frozenset({"text", "success-only"}),
    ),
    # Documented as bare text (a Base64 string): "hello" is a secret that is not Base64, an error of its own.
    "secret": Reader(
        _secret, r"^GET /registry/api/v1/secret$", "the registry", "GET /registry/api/v1/secret", "secret", documented=frozenset({"text"})
    ),
}

READS = {**LISTERS, **READERS}

BAD_BODIES: dict[str, tuple[bytes, str]] = {
    # body, what the message says of it
    "error-body": (b'{"status": "error", "message": "boom"}', 'says "error: boom"'),
    "spring-error": (b'{"status": 500, "error": "Internal Server Error", "message": "boom", "path": "/x"}', "Internal Server Error: boom"),
    "token-error": (b'{"statusMessage": "Failed to read: boom", "responseObject": null}', 'says "Failed to read: boom"'),
    "empty-object": (b"{}", "an empty object"),
    "text": (b'"hello"', 'the text "hello"'),
    "null": (b"null", "it is null"),
    "worded-error": (b'{"message": "No record found!"}', 'it says "No record found!"'),  # the registry's error (notes §2.3)
    "success-only": (b'{"status": "success"}', 'it says "success"'),
    "other-object": (b'{"foo": 1, "bar": [1]}', "an object with foo, bar"),
}


def _cases() -> list[Any]:
    return [
        pytest.param(name, body_name, id=f"{name}-{body_name}")
        for name, reader in READS.items()
        for body_name in BAD_BODIES
        if body_name not in reader.documented
    ]


async def _refused(read: Read, pattern: str, s: Session, w: World, faults: FaultPlan, **fault: Any) -> str:
    """What `read` says of the answer `fault` gives its request (`pattern`): it must be `Unreadable`, in one short
    line. And nothing of it was stored: the server well again, `read` gives its list or record."""
    added = faults.add(pattern, times=1000, **fault)
    with pytest.raises(Unreadable) as info:
        await read(s, w)
    said = str(info.value)
    assert added.hits >= 1
    assert "\n" not in said and len(said) < 400, said
    faults.clear()
    assert await read(s, w), "it reads once the server answers it"
    return said


def _names_the_answer(reader: Reader, said: str) -> None:
    if reader.noun is not None:
        assert f"holds no {reader.noun}" in said, said
    if reader.named:
        assert said.startswith(f"{reader.service}'s answer to {reader.request}") and "(200 OK)" in said, said
    else:  # read outside the session's cache: named by `http.answered`, or where the token envelope says the failure
        assert said.startswith((f"{reader.service}'s answer to {reader.request}", "the server's answer")), said


@pytest.mark.parametrize(("name", "body_name"), _cases())
async def test_a_200_without_its_list_or_record_is_an_error_not_an_empty_one(
    name: str, body_name: str, session: Session, world: World, faults: FaultPlan
) -> None:
    reader = READS[name]
    body, words = BAD_BODIES[body_name]
    said = await _refused(reader.read, reader.pattern, session, world, faults, status=200, body=body)
    assert words in said, said
    _names_the_answer(reader, said)


@pytest.mark.parametrize("name", list(READS))
async def test_the_simulators_error_fault_is_said_in_the_servers_words(
    name: str, session: Session, world: World, faults: FaultPlan
) -> None:
    """`Fault(kind="error")`: each service's own error shape (`sim.common.error_body`) sent with 200."""
    reader = READS[name]
    said = await _refused(reader.read, reader.pattern, session, world, faults, kind="error", status=200, message="boom: the backend failed")
    assert "boom: the backend failed" in said, said
    _names_the_answer(reader, said)


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


# -- one record ------------------------------------------------------------------------------------------------


async def test_a_verification_that_holds_no_token_never_says_valid(session: Session, world: World, faults: FaultPlan) -> None:
    """It said "✓ The token is valid" with a token named "‹unreadable›": a 200 without the token is no verdict."""
    faults.add(r"/token/verification$", status=200, body=b'{"statusMessage": "Successful", "responseObject": null}', times=10)
    with pytest.raises(Unreadable, match='holds no token; it says "Successful"'):
        await TokensService(session).verify(world.seed_token(ADMIN[0]))


# -- documented records still read --------------------------------------------------------------------------

TOKEN = b'"expiryStr": "10m", "tokenExpiryMillis": 1716900570355, "tokenIssueMillis": 1716899970355, "tokenName": "demo", '
GOOD: dict[str, list[tuple[bytes, str]]] = {
    # body, the record's identifying value as read
    "token": [
        # TokenBasedAuthManTokensGetDetails.htm's sample, and the Redocly sample's key order
        (
            b'{"statusMessage": "Successful", "responseObject": {' + TOKEN + b'"tokenCreator": "a@b.example", "tokenType": "NORMAL"}}',
            "demo",
        ),
        (b'{"responseObject": {' + TOKEN + b'"tokenType": "NORMAL", "username": "a@b.example"}, "statusMessage": "Successful"}', "demo"),
        (b'{"tokenName": "bare-token", "tokenType": "NORMAL"}', "bare-token"),  # no envelope
        (b'{"statusMessage": "Successful", "responseObject": {"tokenName": "****", "username": "****"}}', "****"),  # masked
    ],
    "verify": [
        # TokenBasedAuthManTokensVerify.htm's sample
        (
            b'{"statusMessage": "Successful", "responseObject": {' + TOKEN + b'"tokenType": "IMPERSONATED", "username": "u@b.example"}}',
            "demo",
        ),
    ],
    "entitlement": [
        (b'{"status": "success", "entitlement": {"entitlementId": "ENT-1", "status": "DEPLOYED"}}', "ENT-1"),  # the simulator's
        (b'{"entitlementId": "ENT-2", "status": "ACTIVE", "description": "bare"}', "ENT-2"),  # bare, its own status a field
        (b'{"entitlementId": "ENT-3", "status": "FAILED"}', "ENT-3"),  # a record's status is its own, whatever it says
    ],
    "user": [
        (b'{"status": "success", "user": {"userName": "a@b.example", "status": "Active"}}', "a@b.example"),
        (b'{"emailAddress": "c@d.example", "status": "Inactive"}', "c@d.example"),  # users-no-username, bare
    ],
    "suite": [(b'{"suite": {"suiteName": "Office", "version": "1.0"}}', "Office"), (b'{"suiteName": "Bare", "state": "DEPLOYED"}', "Bare")],
    "event-status": [
        (b'{"status": "Processed"}', "Processed"),  # RESTSWContDelivEntityStatusGet.htm
        (b'"In-Progress"', "In-Progress"),  # the OpenAPI's bare string
        (b"Cancelled", "Cancelled"),  # as text
        (b'{"status": "Failed"}', "Failed"),  # a status alone is the status, whatever it says
    ],
}


def _identity(record: Any) -> str:
    for attribute in ("name", "entitlement_id", "user_name", "suite_name"):
        if isinstance(value := getattr(record, attribute, None), str):
            return value
    return str(record)


@pytest.mark.parametrize(
    ("name", "body", "seen"), [pytest.param(n, b, s, id=f"{n}-{i}") for n, forms in GOOD.items() for i, (b, s) in enumerate(forms)]
)
async def test_documented_records_still_read(name: str, body: bytes, seen: str, session: Session, world: World, faults: FaultPlan) -> None:
    faults.add(READERS[name].pattern, status=200, body=body, times=10)
    assert _identity(await READERS[name].read(session, world)) == seen


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
