"""The users and accounts data layer: request models, UsersService lists, reads and creations.

The bodies of tests/sim/test_users.py's `BAD_ACCOUNTS` and `BAD_USERS` are
fed to the client models here: each must be refused before sending, naming
the same field as the simulator.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from flextui.api.errors import Conflict, Invalid, NotFound, ReadOnly
from flextui.api.http import Session
from flextui.api.users import AccountCreate, AccountFilter, User, UserCreate, UserFilter, UsersService
from flextui.sim.world import ADMIN, CUSTOMER, PUBLISHER_ACCOUNT, World

from ..beta_fixtures import _beta_only, read_only_session, refused  # noqa: F401  (fixtures)
from ..conftest import make_session
from ..received import Received
from ..sim.test_users import BAD_ACCOUNTS, BAD_USERS, ODD_ACCOUNT_ID_CASES, ODD_ACCOUNT_IDS, account, user


@pytest.fixture
def svc(session: Session) -> UsersService:
    return UsersService(session)


# -- request models -------------------------------------------------------------------------------


@pytest.mark.parametrize(("case", "change", "field"), BAD_ACCOUNTS, ids=[c[0] for c in BAD_ACCOUNTS])
def test_account_model_refuses_what_the_simulator_refuses(case: str, change: Callable[[dict[str, Any]], None], field: str) -> None:
    body = copy.deepcopy(account())
    change(body)
    assert field in refused(AccountCreate, body)


@pytest.mark.parametrize(("case", "change", "field"), BAD_USERS, ids=[c[0] for c in BAD_USERS])
def test_user_model_refuses_what_the_simulator_refuses(case: str, change: Callable[[dict[str, Any]], None], field: str) -> None:
    body = copy.deepcopy(user())
    change(body)
    assert field in refused(UserCreate, body)


@pytest.mark.parametrize("account_id", ODD_ACCOUNT_IDS, ids=ODD_ACCOUNT_ID_CASES)
def test_account_ids_are_checked_only_for_blankness(account_id: str) -> None:
    """No character rule and no length on accountId
    (https://fnoapi.redocly.app/apis/rest/user-accounts/user-account-service/account): not the entitlement IDs' rule."""
    assert AccountCreate.model_validate(account(accountId=account_id)).body()["accountId"] == account_id


def test_account_model_sends_the_type() -> None:
    body = AccountCreate(accountId="A-1", name="Alpha", country="de").body()
    assert body == {"accountId": "A-1", "name": "Alpha", "accountType": "CUSTOMER", "country": "DE", "visible": True, "attributes": []}
    assert AccountCreate.model_validate(account(accountType="publisher")).account_type == "PUBLISHER"


def test_user_model() -> None:
    spec = UserCreate.model_validate(
        user(
            userName="ROSA.WEBER@acme-robotics.example",
            portalLogin=True,
            status="inactive",
            timezone="GMT+5.5",
            accountRoles=[{"accountName": "Acme Robotics", "roles": ["Admin"], "expiryDate": "2027-01-31"}],
        )
    )
    body = spec.body()
    assert body["status"] == "Inactive" and body["userName"] == "ROSA.WEBER@acme-robotics.example"
    assert body["accountRoles"] == [{"accountName": "Acme Robotics", "roles": ["Admin"], "expiryDate": "2027-01-31"}]
    assert "password" not in UserCreate.model_fields
    assert UserCreate.model_validate(user(locale="", country="", timezone="")).body().get("locale") is None


def test_filters() -> None:
    assert AccountFilter(account_types=["customer", "PUBLISHER"], root_account_only=True).params() == [
        ("accountType", "CUSTOMER"),
        ("accountType", "PUBLISHER"),
        ("rootAccountOnly", "true"),
    ]
    assert UserFilter(status="INACTIVE", account_type="home", sort_by="email").params() == [
        ("accountType", "HOME"),
        ("status", "inactive"),
        ("sort_by", "email"),
    ]
    for model, kwargs in (
        (AccountFilter, {"account_types": ["ALIEN"]}),
        (AccountFilter, {"sort_by": "city"}),
        (UserFilter, {"status": "gone"}),
        (UserFilter, {"sort_by": "firstName"}),
        (UserFilter, {"sort_order": "up"}),
    ):
        with pytest.raises(ValidationError):
            model(**kwargs)


def test_user_response_tolerates_other_shapes() -> None:
    shown = User.model_validate({"username": "a@b.example", "email": "a@b.example", "status": "ACTIVE", "canLogin": True, "new": {}})
    assert shown.user_name == "a@b.example" and shown.active and shown.portal_login is True


# -- the service ------------------------------------------------------------------------------------


async def test_accounts(svc: UsersService, world: World) -> None:
    page = await svc.accounts()
    assert (page.number, page.size, page.total) == (1, 20, sum(1 for a in world.accounts.values() if a.account_type == "CUSTOMER"))
    assert page.items[0].created is not None
    publishers = await svc.accounts(AccountFilter(account_types=["PUBLISHER", "CHANNEL_PARTNER"]), limit=500)
    assert PUBLISHER_ACCOUNT in [a.account_id for a in publishers.items]
    assert {a.account_type for a in publishers.items} <= {"PUBLISHER", "CHANNEL_PARTNER"}
    acme = await svc.accounts(AccountFilter(account_name="acme"))
    assert [a.account_name for a in acme.items] == ["Acme Robotics"]
    with pytest.raises(ValueError):
        await svc.accounts(limit=0)


async def test_users_and_get(svc: UsersService, world: World) -> None:
    page = await svc.users(UserFilter(account_id="101200004242"), limit=500)
    assert {u.user_name for u in page.items} == {u.username for u in world.users.values() if u.account_id == "101200004242"}
    desc = await svc.users(UserFilter(sort_by="email", sort_order="desc"), limit=500)
    emails = [u.email_address or "" for u in desc.items]
    assert emails == sorted(emails, key=str.lower, reverse=True) and desc.total == len(world.users)
    admin = await svc.get_user(ADMIN[0])
    assert admin.display_name == "Avery Admin" and admin.accounts[0].account_id == PUBLISHER_ACCOUNT and admin.active
    with pytest.raises(NotFound):
        await svc.get_user("nobody@example.com")


async def test_cached_pages(svc: UsersService, session: Session) -> None:
    first = [p async for p in svc.users_page(UserFilter(status="active"), limit=5)]
    assert len(first) == 1 and first[0].age is None
    sent = session.requests_sent
    again = [p async for p in svc.users_page(UserFilter(status="active"), limit=5)]
    assert again[0].age is not None and session.requests_sent == sent
    accounts = [p async for p in svc.accounts_page(force=True)]
    assert accounts[-1].age is None and accounts[-1].items


async def test_create_account_and_user(svc: UsersService, world: World) -> None:
    made = await svc.create_account(AccountCreate.model_validate(account(country="us", city="Houston")))
    assert (made.account_id, made.account_name, made.country, made.city) == ("ORBIT-42", "Orbit Instruments", "US", "Houston")
    assert world.accounts["ORBIT-42"].name == "Orbit Instruments"
    spec = UserCreate.model_validate(
        user(emailAddress="kai@orbit.example", accountRoles=[{"accountName": "Orbit Instruments", "roles": ["Portal User"]}])
    )
    person = await svc.create_user(spec)
    assert (
        person.user_name == "kai@orbit.example"
        and person.accounts[0].account_id == "ORBIT-42"
        and person.accounts[0].roles == ["Portal User"]
    )
    assert (await svc.get_user("kai@orbit.example")).first_name == "Rosa"
    listed = await svc.users(UserFilter(account_id="ORBIT-42"))
    assert [u.user_name for u in listed.items] == ["kai@orbit.example"]
    with pytest.raises(Conflict) as duplicate:
        await svc.create_user(spec)
    assert duplicate.value.field == "emailAddress"
    with pytest.raises(Conflict) as taken:
        await svc.create_account(AccountCreate.model_validate(account()))
    assert taken.value.field == "accountId"
    with pytest.raises(Invalid) as unknown:
        await svc.create_user(UserCreate.model_validate(user(emailAddress="z@z.example", accountRoles=[{"accountName": "Nobody Inc"}])))
    assert unknown.value.field == "accountRoles[0].accountName"


async def test_an_account_id_with_any_characters_goes_out_whole(sim_app: Any, world: World) -> None:
    """Created, then filtered on (GET /accounts and GET /users ?accountId=): the query carries it encoded, and the
    server reads it back as typed (`&`, `#`, `/`, `%`, `;`, spaces and brackets included)."""
    received = Received(sim_app)
    session = make_session(received)
    odd = "R&D #1 / 50% (EU);x=y"
    try:
        svc = UsersService(session)
        made = await svc.create_account(AccountCreate.model_validate(account(accountId=odd, name="Odd Account")))
        assert made.account_id == odd and world.accounts[odd].name == "Odd Account"
        assert received.to("POST", "/v1/accounts")[-1].body["accountId"] == odd
        found = await svc.accounts(AccountFilter(account_id=odd))
        assert [a.account_id for a in found.items] == [odd]
        assert received.to("GET", "/v1/accounts")[-1].query["accountId"] == [odd]
        await svc.users(UserFilter(account_id=odd))
        assert received.to("GET", "/v1/users")[-1].query["accountId"] == [odd]
    finally:
        await session.aclose()


async def test_customer_profile_is_refused_by_the_server(sim_app: Any) -> None:
    session = make_session(sim_app, user=CUSTOMER)
    try:
        from flextui.api.errors import Forbidden

        with pytest.raises(Forbidden):
            await UsersService(session).create_account(AccountCreate.model_validate(account()))
    finally:
        await session.aclose()


async def test_read_only_profile_sends_nothing(read_only: Session) -> None:
    svc = UsersService(read_only)
    with pytest.raises(ReadOnly):
        await svc.create_account(AccountCreate.model_validate(account()))
    with pytest.raises(ReadOnly):
        await svc.create_user(UserCreate.model_validate(user()))
    assert read_only.requests_sent == 0


# -- pages as the server answers them -------------------------------------------------------------


@pytest.mark.parametrize(
    ("dialect", "asked", "size", "whole"),
    [
        ("page-size-ignored", 50, 20, False),  # fewer than asked: the server's own size, remembered
        ("page-size-ignored", 5, 20, False),  # more than asked but not all: the server's own size
        ("page-size-cap-100", 200, 200, False),  # one page holds them all: the size asked stands
        ("paging-ignored", 50, 94, True),  # everything on every page: one page
        ("", 50, 50, False),
    ],
)
async def test_pages_are_numbered_by_the_size_the_server_answers(world: World, dialect: str, asked: int, size: int, whole: bool) -> None:
    """Pages 1 to `Page.pages`, each asked at the size asked for, hold every user once (walk27-b items 2 and 7)."""
    from flextui.api.listing import freshest
    from flextui.sim.app import create_app
    from flextui.sim.dialects import speaking

    from ..conftest import make_session

    session = make_session(create_app(world, dialects=speaking(dialect)))
    try:
        svc = UsersService(session)
        first = await freshest(svc.users_page(page=1, limit=asked))
        assert (first.size, first.whole, first.total) == (size, whole, len(world.users))
        assert first.pages is not None
        seen = [u.user_name for u in first.items]
        for number in range(2, first.pages + 1):
            page = await freshest(svc.users_page(page=number, limit=asked))
            assert page.size == size and page.number == number
            seen += [u.user_name for u in page.items]
        assert sorted(seen) == sorted(world.users)
    finally:
        await session.aclose()
