"""The token data layer: TokensService calls, typed errors, client-side rules, read-only profiles.

Runs in process and, for the main paths, over real HTTP on loopback.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

import flextui.sim.app as sim_app_module
from flextui.api.auth import Credentials
from flextui.api.errors import Conflict, Invalid, NotFound, ReadOnly, Unauthorized, Unreadable
from flextui.api.http import RetryPolicy, Service, Session
from flextui.api.tokens import (
    CreatedToken,
    Token,
    TokenCreate,
    TokenSearch,
    TokensService,
    TokenType,
    TokenUpdate,
    check_token_name,
    field_from_message,
)
from flextui.api.validation import errors_by_field
from flextui.sim.app import SIM_BASE_URL, in_process_transport
from flextui.sim.dialects import speaking
from flextui.sim.faults import FaultPlan
from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, CUSTOMER, DAY_MS, PRODUCER, World

from ..conftest import FIXED_NOW_MS, make_session


@pytest.fixture(autouse=True)
def _tokens_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mount only the token service: other simulator modules may be unfinished."""
    monkeypatch.setattr(sim_app_module, "SERVICE_MODULES", ("tokens",))


def live_session(url: str, user: tuple[str, str] = ADMIN, **kwargs: Any) -> Session:
    kwargs.setdefault("retry", RetryPolicy(attempts=3, backoff=0.001))
    return Session(url, auth=httpx.BasicAuth(*user), user=user[0], timeout=10, **kwargs)


@pytest.fixture(params=["in-process", "loopback"])
async def any_session(request: pytest.FixtureRequest, sim_app: Any) -> AsyncIterator[Session]:
    """A session on the in-process simulator, or on the same world served over real HTTP."""
    if request.param == "in-process":
        session = make_session(sim_app)
    else:
        session = live_session(request.getfixturevalue("live_server"), now_ms=request.getfixturevalue("world").now_ms)
    yield session
    await session.aclose()


@pytest.fixture
async def svc(sim_app: Any) -> AsyncIterator[TokensService]:
    session = make_session(sim_app)
    yield TokensService(session)
    await session.aclose()


# -- every call -----------------------------------------------------------------------------


async def test_full_lifecycle(any_session: Session, world: World) -> None:
    svc = TokensService(any_session)
    created = await svc.create(TokenCreate(tokenName="life-cycle-1", expiryStr="30d", tokenDescription="[/] \x1b[2J"))
    assert isinstance(created, CreatedToken)
    assert created.value.startswith("rna_") and len(created.value) == 48
    assert created.value not in repr(created)
    assert created.creator == ADMIN[0] and created.token_type == "NORMAL"
    assert created.issued_ms == FIXED_NOW_MS and created.expires_ms == FIXED_NOW_MS + 30 * DAY_MS

    got = await svc.get("life-cycle-1")
    assert type(got) is Token
    assert got.description == "[/] \x1b[2J"  # server strings come back literally
    assert not hasattr(got, "value")

    listed = await svc.list(username=ADMIN[0])
    assert "life-cycle-1" in {t.name for t in listed}
    assert await svc.count(username=ADMIN[0]) == len(listed)
    assert await svc.count(creator=ADMIN[0]) == len(await svc.list(creator=ADMIN[0]))
    paged = await svc.list(creator=ADMIN[0], page=0, page_size=2)
    assert len(paged) == 2

    found = await svc.search(TokenSearch(tokenName="life-*"))
    assert [t.name for t in found] == ["life-cycle-1"]

    verification = await svc.verify(created.value)
    assert verification.valid and verification.token is not None
    assert verification.token.name == "life-cycle-1"

    await svc.update("life-cycle-1", TokenUpdate(tokenName="life-cycle-2", tokenDescription="renamed"))
    with pytest.raises(NotFound):
        await svc.get("life-cycle-1")
    assert (await svc.get("life-cycle-2")).description == "renamed"

    rotated = await svc.rotate("life-cycle-2")
    assert rotated.value != created.value and rotated.name == "life-cycle-2"
    assert not (await svc.verify(created.value)).valid
    assert (await svc.verify(rotated.value)).valid

    await svc.delete("life-cycle-2")
    with pytest.raises(NotFound):
        await svc.get("life-cycle-2")
    assert "life-cycle-2" not in token_store(world).by_name
    dead = await svc.verify(rotated.value)
    assert not dead.valid and dead.reason


async def test_list_page_has_total_from_count(svc: TokensService) -> None:
    pages = [p async for p in svc.list_page(ADMIN[0], None, 0, 3)]
    assert len(pages) == 1  # no cache on this session: only the fresh page
    page = pages[0]
    assert page.age is None
    assert len(page.items) == 3
    assert page.total == await svc.count(username=ADMIN[0])
    assert page.pages == -(-page.total // 3)


async def test_search_page_and_search_all(svc: TokensService) -> None:
    for i in range(5):
        await svc.create(TokenCreate(tokenName=f"all-pages-{i}", expiryStr="30d"))
    criteria = TokenSearch(tokenName="all-pages-*")
    chunks = [chunk async for chunk in svc.search_all(criteria, page_size=2)]
    assert [len(c) for c in chunks] == [2, 2, 1]
    assert [t.name for c in chunks for t in c] == [f"all-pages-{i}" for i in range(5)]
    pages = [p async for p in svc.search_page(criteria, 1, 2)]
    assert [t.name for t in pages[-1].items] == ["all-pages-2", "all-pages-3"]


async def test_search_all_stops_on_exact_multiple(svc: TokensService) -> None:
    for i in range(4):
        await svc.create(TokenCreate(tokenName=f"even-page-{i}", expiryStr="30d"))
    chunks = [chunk async for chunk in svc.search_all(TokenSearch(tokenName="even-page-*"), page_size=2)]
    assert [len(c) for c in chunks] == [2, 2]
    assert svc.session.requests_sent == 4 + 3  # creates, then pages 0, 1 and the empty page 2


async def test_impersonated_create_and_masked_view(sim_app: Any) -> None:
    admin = make_session(sim_app)
    customer = make_session(sim_app, user=CUSTOMER)
    try:
        spec = TokenCreate(
            tokenName="imp-client-1", expiryStr="7d", tokenType=TokenType.IMPERSONATED, tokenDescription="Case 7", username=CUSTOMER[0]
        )
        created = await TokensService(admin).create(spec)
        assert created.token_type == "IMPERSONATED" and created.username == CUSTOMER[0]
        rows = {t.name: t for t in await TokensService(customer).list(username=CUSTOMER[0])}
        assert rows["imp-client-1"].masked
        assert rows["imp-client-1"].description == "****"
        assert not [t for t in rows.values() if t.token_type == "NORMAL" and t.masked]
        assert not (await TokensService(admin).get("imp-client-1")).masked
    finally:
        await admin.aclose()
        await customer.aclose()


def test_normal_create_body_names_the_user() -> None:
    """The OpenAPI marks `username` required (createtokenusingpost_1.md); a NORMAL token's was dropped even when typed."""
    typed = TokenCreate(tokenName="mytoken1", expiryStr="30d", username="me@x.com")
    assert typed.body() == {
        "tokenName": "mytoken1",
        "expiryStr": "30d",
        "tokenType": "NORMAL",
        "tokenDescription": "",
        "username": "me@x.com",
    }
    assert typed.body("session@x.com")["username"] == "me@x.com", "the value given wins over the session's user"
    untyped = TokenCreate(tokenName="mytoken1", expiryStr="30d")
    assert untyped.body("session@x.com")["username"] == "session@x.com", "else the caller's own"
    assert "username" not in untyped.body() and "username" not in untyped.body("  "), "no user known: left out, not guessed"
    imp = TokenCreate(tokenName="body-check", expiryStr="1d", tokenType="IMPERSONATED", tokenDescription="r", username=CUSTOMER[0])
    assert imp.body("session@x.com")["username"] == CUSTOMER[0]


@pytest.mark.parametrize("dialect", ["create-username-required", "lenient"])
async def test_normal_create_sends_the_sessions_user(world: World, faults: FaultPlan, dialect: str) -> None:
    """Against the strict reading (the simulator's default) a create without `username` is a 400 naming it; the
    client sends the session's user, so a NORMAL token is created under either reading, and is the caller's."""
    app = sim_app_module.create_app(world, faults=faults, dialects=speaking(dialect))
    session = make_session(app, user=PRODUCER)
    try:
        created = await TokensService(session).create(TokenCreate(tokenName="named-by-session", expiryStr="1d"))
        assert created.username == PRODUCER[0] and created.creator == PRODUCER[0]
        sent = [x.request_body for x in session.trace.exchanges if (x.method, httpx.URL(x.url).path) == ("POST", "/flexnet/uar/v1/token")]
        assert sent and sent[-1]["username"] == PRODUCER[0], sent
    finally:
        await session.aclose()


async def test_a_create_without_a_user_is_refused_by_the_strict_reading_naming_the_field(world: World) -> None:
    """A token-only profile that names no user sends no `username` (there is none to send): the strict reading
    refuses it in the server's words, on the form's field for the user; the lenient reading creates the token."""
    strict = sim_app_module.create_app(world)
    session = Session(SIM_BASE_URL, credentials=Credentials(None, None, world.seed_token(ADMIN[0])), transport=in_process_transport(strict))
    try:
        with pytest.raises(Invalid) as info:
            await TokensService(session).create(TokenCreate(tokenName="no-user-known", expiryStr="1d"))
        assert info.value.status == 400 and info.value.field == "username" and "username is required" in info.value.message
        assert "no-user-known" not in token_store(world).by_name
    finally:
        await session.aclose()
    lenient = sim_app_module.create_app(world, dialects=frozenset())
    session = Session(
        SIM_BASE_URL, credentials=Credentials(None, None, world.seed_token(ADMIN[0])), transport=in_process_transport(lenient)
    )
    try:
        created = await TokensService(session).create(TokenCreate(tokenName="no-user-known", expiryStr="1d"))
        assert created.username == ADMIN[0], "the caller (the token's user) is the NORMAL token's user"
    finally:
        await session.aclose()


def test_token_model_times() -> None:
    token = Token.model_validate(
        {"tokenName": "times-tok", "tokenIssueMillis": FIXED_NOW_MS, "tokenExpiryMillis": FIXED_NOW_MS + DAY_MS, "extra": 1}
    )
    assert token.issued is not None and token.issued.year == 2026
    assert not token.expired(FIXED_NOW_MS)
    assert token.expired(FIXED_NOW_MS + DAY_MS)
    assert token.expires_within(FIXED_NOW_MS, 2)
    assert not token.expires_within(FIXED_NOW_MS, 0.5)
    assert not Token.model_validate({"tokenName": "no-times"}).expired(FIXED_NOW_MS)


def test_search_expression() -> None:
    search = TokenSearch.parse_expression("name=api*, type=NORMAL, expiresBefore=30d")
    assert search.body(0, 10) == {"tokenName": "api*", "tokenType": "NORMAL", "expiresBefore": "30d", "page": 0, "pageSize": 10}
    with pytest.raises(ValueError, match="write KEY=VALUE"):
        TokenSearch.parse_expression("colour=blue")
    with pytest.raises(ValueError):
        TokenSearch.parse_expression("type=NORMAL")  # no criterion
    assert TokenSearch.parse_expression("type=NORMAL", username="me@x.example").username == "me@x.example"
    with pytest.raises(ValidationError) as refused:  # a form's field shows the same words the CLI prints
        TokenSearch.model_validate({"tokenName": "api*", "tokenType": "WEIRD"})
    assert errors_by_field(refused.value) == {"tokenType": "the type is NORMAL or IMPERSONATED"}


# -- typed errors ------------------------------------------------------------------------------


async def test_invalid_name_from_server_names_the_field(any_session: Session, world: World) -> None:
    svc = TokensService(any_session)
    unchecked = TokenCreate.model_construct(name="abc", expiry="1d", token_type=TokenType.NORMAL, description="", username=None)
    with pytest.raises(Invalid) as info:
        await svc.create(unchecked)
    assert info.value.status == 400
    assert info.value.field == "tokenName"
    assert "5 to 25" in info.value.message
    assert "abc" not in token_store(world).by_name


async def test_invalid_expiry_from_server_names_the_field(svc: TokensService) -> None:
    unchecked = TokenCreate.model_construct(name="bad-expiry", expiry="3Y", token_type=TokenType.NORMAL, description="", username=None)
    with pytest.raises(Invalid) as info:
        await svc.create(unchecked)
    assert info.value.field == "expiryStr"


async def test_not_found_conflict_and_permission(any_session: Session) -> None:
    svc = TokensService(any_session)
    for call in (
        svc.get("no-such-tok"),
        svc.delete("no-such-tok"),
        svc.rotate("no-such-tok"),
        svc.update("no-such-tok", TokenUpdate(tokenDescription="x")),
    ):
        with pytest.raises(NotFound) as info:
            await call
        assert info.value.status == 404
    await svc.create(TokenCreate(tokenName="dup-client", expiryStr="1d"))
    with pytest.raises(Conflict) as conflict:
        await svc.create(TokenCreate(tokenName="dup-client", expiryStr="1d"))
    assert conflict.value.status == 409 and conflict.value.field == "tokenName"


async def test_permission_problem_is_invalid_400(sim_app: Any) -> None:
    producer = make_session(sim_app, user=PRODUCER)
    try:
        with pytest.raises(Invalid, match="other users") as info:
            await TokensService(producer).list(username=ADMIN[0])
        assert info.value.status == 400
        assert producer.requests_sent == 1  # a 400 is not retried
    finally:
        await producer.aclose()


async def test_unauthorized(sim_app: Any, live_server: str) -> None:
    for session in (make_session(sim_app, user=(ADMIN[0], "wrong")), live_session(live_server, user=(ADMIN[0], "wrong"))):
        try:
            with pytest.raises(Unauthorized) as info:
                await TokensService(session).count(username=ADMIN[0])
            assert info.value.status == 401
            assert "wrong" not in str(info.value)
            assert session.requests_sent == 1
        finally:
            await session.aclose()


def test_field_from_message() -> None:
    assert field_from_message("tokenName must be 5 to 25 characters (got 3)") == "tokenName"
    assert field_from_message("expiryStr: cannot read '3Y'") == "expiryStr"
    assert field_from_message("pageSize is required") == "pageSize"
    assert field_from_message("page is required") == "page"
    assert field_from_message("a token named 'x' already exists", 409) == "tokenName"
    assert field_from_message("only the token creator can delete this token") is None
    assert field_from_message("tokenNames are odd") is None


# -- client-side rules: nothing is sent -----------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"tokenName": "abcd", "expiryStr": "1d"},
        {"tokenName": "a" * 26, "expiryStr": "1d"},
        {"tokenName": "bad.name", "expiryStr": "1d"},
        {"tokenName": "bad*name", "expiryStr": "1d"},
        {"tokenName": "bad]name", "expiryStr": "1d"},
        {"tokenName": "x&amp;yz", "expiryStr": "1d"},
        {"tokenName": "ab\\\\\\\\cd", "expiryStr": "1d"},
        {"tokenName": "tab\tname", "expiryStr": "1d"},
        {"tokenName": "good-name", "expiryStr": "3X"},
        {"tokenName": "good-name", "expiryStr": "0d"},
        {"tokenName": "good-name", "expiryStr": "1m1d"},
        {"tokenName": "good-name", "expiryStr": ""},
        {"tokenName": "good-name", "expiryStr": "1d", "tokenType": "IMPERSONATED", "username": CUSTOMER[0]},
        {"tokenName": "good-name", "expiryStr": "1d", "tokenType": "IMPERSONATED", "username": CUSTOMER[0], "tokenDescription": "  "},
        {"tokenName": "good-name", "expiryStr": "1d", "tokenType": "IMPERSONATED", "tokenDescription": "why"},
        {"tokenName": "good-name", "expiryStr": "1d", "tokenType": "ADMIN"},
        {"tokenName": "good-name", "expiryStr": "1d", "tokenDescription": "x" * 2001},
    ],
)
async def test_create_model_rejects_before_any_request(svc: TokensService, faults: FaultPlan, fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        await svc.create(TokenCreate(**fields))
    assert svc.session.requests_sent == 0
    assert faults.seen == []


@pytest.mark.parametrize(
    "fields",
    [{}, {"tokenName": "abc"}, {"expiryStr": "1w"}, {"tokenName": "ok-name", "expiryStr": "10"}, {"tokenDescription": "x" * 2001}],
)
async def test_update_model_rejects_before_any_request(svc: TokensService, faults: FaultPlan, fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        await svc.update("whatever-name", TokenUpdate(**fields))
    assert svc.session.requests_sent == 0
    assert faults.seen == []


def test_the_ui_examples_capital_y_is_read_and_sent_as_documented() -> None:
    """The docs' UI example writes "3Y 4M 3d 9h 6m"; the Redocly pattern is `*y *M …`: accept the one, send the other."""
    spec = TokenCreate.model_validate({"tokenName": "good-name", "expiryStr": "3Y 4M 3d 9h 6m"})
    assert spec.body()["expiryStr"] == "3y 4M 3d 9h 6m"
    assert TokenSearch.model_validate({"expiresBefore": "1Y"}).body(0, 10)["expiresBefore"] == "1y"


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"tokenType": "NORMAL"},
        {"tokenName": "   "},
        {"expiresBefore": "3X"},
        {"issuedBefore": "1w"},
        {"expiresBefore": "5d", "expiresLaterThan": "30d"},
        {"expiresBefore": "5d", "expiresLaterThan": "5d"},
        {"tokenType": "NORMAL", "username": ADMIN[0], "tokenCreator": CUSTOMER[0]},
    ],
)
def test_search_model_rules(fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        TokenSearch(**fields)


def test_search_model_accepts_valid_criteria() -> None:
    assert TokenSearch(expiresBefore="30d", expiresLaterThan="5d").body(0, 5)["pageSize"] == 5
    assert TokenSearch(tokenType="IMPERSONATED", username=CUSTOMER[0], tokenCreator=ADMIN[0]).creator == ADMIN[0]
    assert TokenSearch(tokenName="  x* ").name == "x*"


async def test_list_and_count_need_who_before_any_request(svc: TokensService) -> None:
    with pytest.raises(ValueError):
        await svc.list()
    with pytest.raises(ValueError):
        await svc.count()
    with pytest.raises(ValueError):
        async for _ in svc.list_page(None, None, 0, 10):
            pass
    assert svc.session.requests_sent == 0


@pytest.mark.parametrize("value", ["", "   ", "abc", "rna_", "Bearer rna_abc"])
async def test_verify_rejects_non_tokens_without_a_request(svc: TokensService, value: str) -> None:
    result = await svc.verify(value)
    assert not result.valid and "rna_" in (result.reason or "")
    assert svc.session.requests_sent == 0


async def test_verify_unknown_value_is_not_valid(svc: TokensService) -> None:
    result = await svc.verify("rna_" + "0" * 44)
    assert not result.valid and result.token is None
    assert "not valid" in (result.reason or "")


@pytest.mark.parametrize("dialect", ["", "verify-invalid-404"])
async def test_verify_says_not_valid_whichever_4xx_the_server_refuses_with(world: World, dialect: str) -> None:
    """Unknown and expired values are "not valid" with the server's words, on a 400 or a 404 alike."""
    svc = TokensService(make_session(sim_app_module.create_app(world, dialects=speaking(dialect))))
    expired = next(t for t in token_store(world).by_name.values() if t.expiry_ms <= world.now_ms())
    for value, words in (("rna_" + "0" * 44, "unknown or deleted"), (expired.value, "expired")):
        result = await svc.verify(value)
        assert not result.valid and result.token is None
        assert words in (result.reason or "")
    live = next(t for t in token_store(world).by_name.values() if t.creator == ADMIN[0] and t.expiry_ms > world.now_ms())
    assert (await svc.verify(live.value)).valid


@pytest.mark.parametrize("name", ["abcde", "a" * 25, "with [bracket", "abc\\\\\\def", "Mixed Case"])
def test_check_token_name_accepts(name: str) -> None:
    assert check_token_name(name) == name


# -- read-only profiles ------------------------------------------------------------------------


async def test_read_only_refuses_changes_before_sending(sim_app: Any, faults: FaultPlan, world: World) -> None:
    session = make_session(sim_app, read_only=True)
    svc = TokensService(session)
    existing = next(t for t in token_store(world).by_name.values() if t.creator == ADMIN[0] and t.expiry_ms > world.now_ms())
    value_before = existing.value
    try:
        calls = [
            svc.create(TokenCreate(tokenName="ro-create", expiryStr="1d")),
            svc.update(existing.name, TokenUpdate(tokenDescription="changed")),
            svc.delete(existing.name),
            svc.rotate(existing.name),
            session.request(Service.TOKENS, "DELETE", f"/uar/v1/token/{existing.name}"),
            session.request(Service.TOKENS, "GET", "/uar/v1/tokens", mutating=True),
        ]
        for call in calls:
            with pytest.raises(ReadOnly, match="read-only"):
                await call
        assert session.requests_sent == 0
        assert faults.seen == []
        assert "ro-create" not in token_store(world).by_name
        assert existing.value == value_before and existing.description != "changed"
        assert existing.name in token_store(world).by_name

        # Reads, including the POST reads, still work.
        rows = await svc.list(username=ADMIN[0])
        assert rows
        assert await svc.count(username=ADMIN[0]) == len(rows)
        assert (await svc.get(existing.name)).name == existing.name
        assert await svc.search(TokenSearch(tokenCreator=ADMIN[0]))
        assert (await svc.verify(existing.value)).valid
        assert [s.split()[0] for s in faults.seen] == ["GET", "GET", "GET", "POST", "POST"]
    finally:
        await session.aclose()


def test_a_search_window_the_wrong_way_round_names_the_fields_as_the_form_does() -> None:
    """The form said "expiresBefore must be greater than expiresLaterThan", in the API's names, not its labels."""
    import pydantic

    from flextui.api.tokens import TokenSearch

    with pytest.raises(pydantic.ValidationError) as err:
        TokenSearch.model_validate({"expiresBefore": "1d", "expiresLaterThan": "30d"})
    said = str(err.value)
    assert "“expires before” (expiresBefore) must be later than “expires after” (expiresLaterThan)" in said, said


@pytest.mark.parametrize("description", ["Hidden", "masked", "Redacted", "obfuscated", "hidden)"])
def test_a_description_in_a_mask_word_is_the_owners_text_not_a_mask(description: str) -> None:
    """A token its owner described as "Hidden" was dimmed and refused edit, rotate and delete as not theirs."""
    token = Token.model_validate(
        {"tokenName": "t-1", "username": "me@x.example", "tokenCreator": "me@x.example", "tokenDescription": description}
    )
    assert not token.masked


@pytest.mark.parametrize("description", ["<masked>", "[REDACTED]", "(hidden)", "****"])
def test_a_description_that_is_a_placeholder_is_masked(description: str) -> None:
    token = Token.model_validate({"tokenName": "t-1", "username": "me@x.example", "tokenDescription": description})
    assert token.masked


@pytest.mark.parametrize("username", ["Hidden", "<masked>", "cus***@acme.example", "****"])
def test_a_user_name_in_a_mask_word_is_masked(username: str) -> None:
    assert Token.model_validate({"tokenName": "t-1", "username": username}).masked


# -- what a verification's 200 says ----------------------------------------------------------------------


def _answering(body: Any, now_ms: int = FIXED_NOW_MS) -> TokensService:
    """A token service whose verification answers 200 with `body` (a fake transport), its clock at `now_ms`."""

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/flexnet/uar/v1/token/verification"
        return httpx.Response(200, json=body)

    session = Session(
        "https://fno.example", auth=httpx.BasicAuth(*ADMIN), user=ADMIN[0], transport=httpx.MockTransport(handler), now_ms=lambda: now_ms
    )
    return TokensService(session)


def _details(expires_ms: int, **extra: Any) -> dict[str, Any]:
    return {"tokenName": "ci-deploy", "tokenType": "NORMAL", "username": ADMIN[0], "tokenExpiryMillis": expires_ms, **extra}


VALUE = "rna_" + "a" * 44
PAST = FIXED_NOW_MS - DAY_MS  # 2026-11-01 10:00 UTC
FUTURE = FIXED_NOW_MS + DAY_MS


async def test_a_200_whose_token_has_expired_is_not_valid() -> None:
    """The documented 200 carries no verdict (TokenBasedAuthManTokensVerify.htm): its details with an expiry already
    past read as "✓ valid"; it is not valid, and says since when."""
    result = await _answering({"statusMessage": "Successful", "responseObject": _details(PAST)}).verify(VALUE)
    assert result.valid is False and result.token is not None and result.token.name == "ci-deploy"
    assert (result.reason or "").startswith("not valid (expired 2026-11-01 10:00 UTC)"), result.reason
    live = await _answering({"statusMessage": "Successful", "responseObject": _details(FUTURE)}).verify(VALUE)
    assert live.valid is True and live.reason is None


@pytest.mark.parametrize("name", ["valid", "isValid", "active"])
@pytest.mark.parametrize("false", [False, "false", " FALSE "])
@pytest.mark.parametrize("where", ["record", "envelope"])
async def test_a_validity_flag_that_says_false_decides(name: str, false: Any, where: str) -> None:
    """A 200 whose flag says false (beside the token's details, or beside statusMessage) read as valid."""
    record = _details(FUTURE, **({name: false} if where == "record" else {}))
    body = {"statusMessage": "Successful", "responseObject": record, **({name: false} if where == "envelope" else {})}
    result = await _answering(body).verify(VALUE)
    assert result.valid is False and result.token is not None, result
    assert (result.reason or "").startswith("not valid: the answer says " + name), result.reason


async def test_a_flag_that_says_true_is_valid_and_one_without_the_token_says_why_not() -> None:
    assert (await _answering({"responseObject": _details(FUTURE, valid="true")}).verify(VALUE)).valid is True
    nested = await _answering({"responseObject": {"isValid": True, "token": _details(FUTURE)}}).verify(VALUE)
    assert nested.valid is True and nested.token is not None and nested.token.name == "ci-deploy"
    refused = await _answering({"statusMessage": "the token is revoked", "responseObject": {"valid": False}}).verify(VALUE)
    assert refused.valid is False and refused.token is None
    assert refused.reason == 'not valid: the answer says valid: false ("the token is revoked")'
    with pytest.raises(Unreadable, match="holds no token"):  # never "valid" without the token the value names
        await _answering({"statusMessage": "Successful", "responseObject": {"valid": True}}).verify(VALUE)
    with pytest.raises(Unreadable, match='says "error: boom" and holds no token'):  # (kept: an error body sent with 200)
        await _answering({"status": "error", "message": "boom"}).verify(VALUE)


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (_details(PAST, valid=True), "the answer says valid: true, but the token expired 2026-11-01 10:00 UTC"),
        (_details(FUTURE, valid=True, active=False), "the answer contradicts itself (valid: true, active: false)"),
        (_details(FUTURE, valid="yes"), 'the answer says valid: "yes", neither true nor false'),
        (_details(FUTURE, isValid=1), "the answer says isValid: 1, neither true nor false"),
    ],
)
async def test_an_answer_that_contradicts_itself_says_so(record: dict[str, Any], words: str) -> None:
    """A flag and the expiry (or two flags) that disagree: neither valid nor not valid, the answer's words said."""
    result = await _answering({"statusMessage": "Successful", "responseObject": record}).verify(VALUE)
    assert result.valid is None and result.token is not None
    assert (result.reason or "").startswith(words) and "not known" in (result.reason or ""), result.reason


async def test_verify_against_a_server_that_answers_with_a_validity_flag(world: World) -> None:
    """`verify-valid-flag`: every verification is a 200 with `valid`; expired and unknown values are not valid."""
    svc = TokensService(make_session(sim_app_module.create_app(world, dialects=speaking("verify-valid-flag"))))
    now = world.now_ms()
    expired = next(t for t in token_store(world).by_name.values() if t.creator == ADMIN[0] and t.expiry_ms <= now)
    live = next(t for t in token_store(world).by_name.values() if t.creator == ADMIN[0] and t.expiry_ms > now)
    assert (await svc.verify(live.value)).valid is True
    result = await svc.verify(expired.value)
    assert result.valid is False and result.token is not None and result.token.name == expired.name
    assert "expired" in (result.reason or "") and "valid: false" in (result.reason or "")
    unknown = await svc.verify("rna_" + "0" * 44)
    assert unknown.valid is False and unknown.token is None and "unknown or deleted" in (unknown.reason or "")
    await svc.session.aclose()
