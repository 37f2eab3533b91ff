"""The simulated users and accounts service (seed 002), driven over HTTP in process.

Filters, paging and sorting of both lists, and every creation rule with good
and bad input. `BAD_ACCOUNTS` and `BAD_USERS` are shared with
tests/api/test_users.py, which feeds the same bodies to the client models.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from flextui.sim.app import SIM_BASE_URL, in_process_transport
from flextui.sim.world import ADMIN, CUSTOMER, PUBLISHER_ACCOUNT, World

from ..beta_fixtures import Change, _beta_only, _with, _without  # noqa: F401  (fixtures)
from ..conftest import sim_auth

BASE = "/users-accounts-api/v1"


def account(**extra: Any) -> dict[str, Any]:
    return {"accountId": "ORBIT-42", "name": "Orbit Instruments", "accountType": "CUSTOMER", **extra}


def user(**extra: Any) -> dict[str, Any]:
    return {
        "firstName": "Rosa",
        "lastName": "Weber",
        "emailAddress": "rosa.weber@acme-robotics.example",
        "accountRoles": [{"accountName": "Acme Robotics", "roles": ["Portal Admin"]}],
        **extra,
    }


BAD_ACCOUNTS: list[tuple[str, Change, str]] = [
    ("id-missing", _without("accountId"), "accountId"),
    ("id-blank", _with(accountId="   "), "accountId"),
    ("id-empty", _with(accountId=""), "accountId"),
    ("name-missing", _without("name"), "name"),
    ("name-blank", _with(name=" "), "name"),
    ("type-self-registered", _with(accountType="SELF_REGISTERED"), "accountType"),
    ("type-unknown", _with(accountType="VENDOR"), "accountType"),
    ("country-three-letters", _with(country="USA"), "country"),
    ("country-digits", _with(country="U1"), "country"),
    ("description-too-long", _with(description="d" * 2001), "description"),
    ("city-too-long", _with(city="c" * 256), "city"),
    ("visible-not-bool", _with(visible="no"), "visible"),
    ("attribute-twice", _with(attributes=[{"name": "Tier", "value": "1"}, {"name": "Tier", "value": "2"}]), "attributes[1].name"),
    ("attribute-name-blank", _with(attributes=[{"name": " ", "value": "1"}]), "attributes[0].name"),
]

BAD_USERS: list[tuple[str, Change, str]] = [
    ("first-name-missing", _without("firstName"), "firstName"),
    ("last-name-blank", _with(lastName="  "), "lastName"),
    ("email-missing", _without("emailAddress"), "emailAddress"),
    ("email-malformed", _with(emailAddress="rosa.weber"), "emailAddress"),
    ("roles-missing", _without("accountRoles"), "accountRoles"),
    ("roles-empty", _with(accountRoles=[]), "accountRoles"),
    ("role-account-missing", _with(accountRoles=[{"roles": ["x"]}]), "accountRoles[0].accountName"),
    (
        "role-expiry-format",
        _with(accountRoles=[{"accountName": "Acme Robotics", "expiryDate": "31.12.2026"}]),
        "accountRoles[0].expiryDate",
    ),
    (
        "role-account-twice",
        _with(accountRoles=[{"accountName": "Acme Robotics"}, {"accountName": "Acme Robotics"}]),
        "accountRoles[1].accountName",
    ),
    ("user-name-not-email", _with(userName="rosa"), "userName"),
    ("portal-login-without-user-name", _with(portalLogin=True), "userName"),
    ("status-unknown", _with(status="Suspended"), "status"),
    ("timezone-format", _with(timezone="CET"), "timezone"),
    ("timezone-hours", _with(timezone="GMT+15.0"), "timezone"),
    ("locale-format", _with(locale="english"), "locale"),
    ("country-format", _with(country="Germany"), "country"),
    ("phone-characters", _with(phoneNumber="call me"), "phoneNumber"),
    ("attribute-twice", _with(attributes=[{"name": "Team", "value": "1"}, {"name": "Team", "value": "2"}]), "attributes[1].name"),
    ("attribute-name-missing", _with(attributes=[{"value": "1"}]), "attributes[0].name"),
]


class Api:
    def __init__(self, app: Any) -> None:
        self.app = app
        self._clients: list[httpx.AsyncClient] = []

    async def req(self, method: str, path: str, *, user: tuple[str, str] = ADMIN, **kwargs: Any) -> httpx.Response:
        client = httpx.AsyncClient(transport=in_process_transport(self.app), base_url=SIM_BASE_URL, auth=sim_auth(self.app, user))
        self._clients.append(client)
        return await client.request(method, BASE + path, **kwargs)

    async def ok(self, method: str, path: str, status: int = 200, **kwargs: Any) -> dict[str, Any]:
        response = await self.req(method, path, **kwargs)
        assert response.status_code == status, response.text
        return response.json()

    async def refused(self, method: str, path: str, status: int, field: str | None, **kwargs: Any) -> dict[str, Any]:
        response = await self.req(method, path, **kwargs)
        assert response.status_code == status, response.text
        body = response.json()
        assert body["status"] == "error"
        if field is not None:
            assert body.get("field") == field, body
        return body

    async def accounts(self, params: Any = None, **kwargs: Any) -> list[str]:
        query = params if params is not None else {}
        if isinstance(query, dict):
            query = {"limit": 500, **query}
        body = await self.ok("GET", "/accounts", params=query, **kwargs)
        return [a["accountId"] for a in body["accounts"]]

    async def users(self, **params: Any) -> list[str]:
        body = await self.ok("GET", "/users", params={"limit": 500, **params})
        return [u["userName"] for u in body["users"]]

    async def aclose(self) -> None:
        for client in self._clients:
            await client.aclose()


@pytest.fixture
async def api(sim_app: Any) -> AsyncIterator[Api]:
    a = Api(sim_app)
    yield a
    await a.aclose()


# -- accounts ---------------------------------------------------------------------------------------


async def test_accounts_default_to_customers(api: Api, world: World) -> None:
    body = await api.ok("GET", "/accounts")
    customers = [a for a in world.accounts.values() if a.account_type == "CUSTOMER"]
    assert (body["status"], body["page"], body["limit"], body["total"]) == ("success", 1, 20, len(customers))
    assert {"accountId", "accountName", "accountType", "country", "visible", "attributes", "createdOn"} <= set(body["accounts"][0])
    names = [a["accountName"] for a in (await api.ok("GET", "/accounts", params={"limit": 500}))["accounts"]]
    assert names == sorted(names, key=str.lower)


async def test_account_type_filter(api: Api, world: World) -> None:
    assert await api.accounts({"accountType": "PUBLISHER"}) == [PUBLISHER_ACCOUNT]
    both = await api.accounts([("accountType", "PUBLISHER"), ("accountType", "CHANNEL_PARTNER"), ("limit", 500)])
    assert set(both) == {a.account_id for a in world.accounts.values() if a.account_type in ("PUBLISHER", "CHANNEL_PARTNER")}
    assert set(await api.accounts({"accountType": "PUBLISHER,CHANNEL_PARTNER"})) == set(both)
    await api.refused("GET", "/accounts", 400, "accountType", params={"accountType": "ALIEN"})


async def test_account_filters_sorting_paging(api: Api, world: World) -> None:
    assert await api.accounts({"accountName": "ACME"}) == ["101200004242"]
    assert await api.accounts({"accountId": "4242"}) == ["101200004242"]
    ids = await api.accounts({"sort_by": "accountId", "sort_order": "desc"})
    assert ids == sorted(ids, reverse=True)
    created = await api.accounts({"sort_by": "createdOn"})
    assert [world.accounts[i].created_ms for i in created] == sorted(world.accounts[i].created_ms for i in created)
    page2 = await api.ok("GET", "/accounts", params={"limit": 5, "page": 2})
    assert [a["accountId"] for a in page2["accounts"]] == (await api.accounts())[5:10]
    for params, field in (
        ({"page": 0}, "page"),
        ({"limit": 501}, "limit"),
        ({"sort_by": "city"}, "sort_by"),
        ({"rootAccountOnly": "perhaps"}, "rootAccountOnly"),
    ):
        await api.refused("GET", "/accounts", 400, field, params=params)


async def test_create_account(api: Api, world: World) -> None:
    body = account(
        description="Space tools",
        address1="1 Orbit Way",
        city="Houston",
        state="TX",
        zipcode="77001",
        country="us",
        region="AMER",
        visible=False,
        attributes=[{"name": "Tier", "value": "Gold"}],
    )
    created = (await api.ok("POST", "/accounts", 201, json=body))["account"]
    assert (created["accountId"], created["accountName"], created["country"], created["visible"]) == (
        "ORBIT-42",
        "Orbit Instruments",
        "US",
        False,
    )
    assert created["attributes"] == [{"name": "Tier", "value": "Gold"}]
    assert world.accounts["ORBIT-42"].name == "Orbit Instruments"
    assert "ORBIT-42" in await api.accounts({"accountName": "orbit"})
    await api.refused("POST", "/accounts", 409, "accountId", json=account(name="Other Name"))
    await api.refused("POST", "/accounts", 409, "name", json=account(accountId="ORBIT-43", name="orbit instruments"))


# Account IDs the entitlement IDs' rule would refuse: the account page gives accountId no character rule and no length
# ("Unique identifier of the account (short account name)",
# https://fnoapi.redocly.app/apis/rest/user-accounts/user-account-service/account).
ODD_ACCOUNT_IDS = ["AT&T-EMEA", "ACME (EU)", "R&D #1 / 50% ~ {x}=y|z;'\"", "A" * 300]
ODD_ACCOUNT_ID_CASES = ["ampersand", "parentheses", "every-entitlement-forbidden", "300-long"]


@pytest.mark.parametrize("account_id", ODD_ACCOUNT_IDS, ids=ODD_ACCOUNT_ID_CASES)
async def test_account_ids_have_no_character_rule(api: Api, world: World, account_id: str) -> None:
    created = (await api.ok("POST", "/accounts", 201, json=account(accountId=account_id)))["account"]
    assert created["accountId"] == account_id and world.accounts[account_id].name == "Orbit Instruments"
    assert await api.accounts({"accountId": account_id}) == [account_id]


async def test_create_account_alias_path_and_defaults(api: Api, world: World) -> None:
    created = (await api.ok("POST", "/account", 201, json={"accountId": "P-1", "accountName": "Partner One"}))["account"]
    assert created["accountType"] == "CUSTOMER" and world.accounts["P-1"].name == "Partner One"
    partner = (await api.ok("POST", "/accounts", 201, json=account(accountId="P-2", name="Partner Two", accountType="CHANNEL_PARTNER")))[
        "account"
    ]
    assert partner["accountType"] == "CHANNEL_PARTNER"


async def test_child_accounts_and_root_only(api: Api) -> None:
    await api.ok("POST", "/accounts", 201, json=account(parentAccountId="101200004242"))
    assert "ORBIT-42" in await api.accounts()
    assert "ORBIT-42" not in await api.accounts({"rootAccountOnly": "true"})
    await api.refused("POST", "/accounts", 400, "parentAccountId", json=account(accountId="X-1", name="X", parentAccountId="NOPE"))


@pytest.mark.parametrize(("case", "change", "field"), BAD_ACCOUNTS, ids=[c[0] for c in BAD_ACCOUNTS])
async def test_account_rule_refused(api: Api, world: World, case: str, change: Change, field: str) -> None:
    body = copy.deepcopy(account())
    change(body)
    before = len(world.accounts)
    await api.refused("POST", "/accounts", 400, field, json=body)
    assert len(world.accounts) == before


async def test_customer_sees_own_account_and_cannot_create(api: Api, world: World) -> None:
    assert await api.accounts(user=CUSTOMER) == [world.users[CUSTOMER[0]].account_id]
    await api.refused("POST", "/accounts", 403, None, user=CUSTOMER, json=account())


async def test_created_account_can_own_an_entitlement(api: Api, world: World) -> None:
    await api.ok("POST", "/accounts", 201, json=account())
    body = {
        "accounts": [{"accountId": "ORBIT-42", "accountType": "CUSTOMER", "partnerTierName": "END_CUSTOMER"}],
        "lineItems": [
            {"product": [{"productName": "Flex Designer", "productVersion": "2022.4"}], "startDate": "2026-01-01", "isPermanent": True}
        ],
        "attributes": [{"name": "Region", "value": "AMER"}],
    }
    client = httpx.AsyncClient(transport=in_process_transport(api.app), base_url=SIM_BASE_URL, auth=sim_auth(api.app, ADMIN))
    async with client:
        response = await client.post("/entitlements-api/v1/entitlement", json=body)
    assert response.status_code == 201, response.text
    assert world.entitlements[response.json()["entitlementId"]].account_id == "ORBIT-42"


# -- users ------------------------------------------------------------------------------------------


async def test_users_list_shape_and_no_passwords(api: Api, world: World) -> None:
    body = await api.ok("GET", "/users", params={"limit": 500})
    assert body["total"] == len(world.users) and len(body["users"]) == len(world.users)
    text = json.dumps(body)
    assert "password" not in text.lower()
    assert not any(u.password in text for u in world.users.values())
    shown = next(u for u in body["users"] if u["userName"] == ADMIN[0])
    assert shown["displayName"] == "Avery Admin" and shown["status"] == "Active"
    assert shown["accounts"][0]["accountId"] == PUBLISHER_ACCOUNT and shown["accounts"][0]["roles"]


async def test_user_filters_and_sorting(api: Api, world: World) -> None:
    users = list(world.users.values())
    names = [u["displayName"] for u in (await api.ok("GET", "/users", params={"limit": 500}))["users"]]
    assert names == sorted(names, key=str.lower)
    emails = [
        u["emailAddress"] for u in (await api.ok("GET", "/users", params={"limit": 500, "sort_by": "email", "sort_order": "desc"}))["users"]
    ]
    assert emails == sorted(emails, key=str.lower, reverse=True)
    statuses = [u["status"] for u in (await api.ok("GET", "/users", params={"limit": 500, "sort_by": "status"}))["users"]]
    assert statuses == sorted(statuses)
    assert set(await api.users(status="inactive")) == {u.username for u in users if u.status == "inactive"}
    assert set(await api.users(accountId="101200004242")) == {u.username for u in users if u.account_id == "101200004242"}
    assert set(await api.users(accountName="acme")) == {u.username for u in users if u.account_id == "101200004242"}
    producers = {u.username for u in users if u.account_id == PUBLISHER_ACCOUNT}
    assert set(await api.users(accountType="PUBLISHER")) == producers
    assert set(await api.users(accountType="HOME")) == producers
    assert await api.users(email="CUSTOMER@acme") == [CUSTOMER[0]]
    assert await api.users(userName="admin@") == [ADMIN[0]]
    assert await api.users(displayName="avery adm") == [ADMIN[0]]
    for params, field in (
        ({"sort_by": "firstName"}, "sort_by"),
        ({"status": "gone"}, "status"),
        ({"accountType": "ROBOT"}, "accountType"),
        ({"limit": -1}, "limit"),
    ):
        await api.refused("GET", "/users", 400, field, params=params)


async def test_bearer_access_token_works(api: Api, world: World) -> None:
    from flextui.sim.tokens import token_store

    now = world.now_ms()
    token = next(t for t in token_store(world).by_name.values() if t.username == ADMIN[0] and t.expiry_ms > now)
    async with httpx.AsyncClient(
        transport=in_process_transport(api.app), base_url=SIM_BASE_URL, headers={"Authorization": f"Bearer {token.value}"}
    ) as client:
        response = await client.get(BASE + "/users", params={"limit": 1})
    assert response.status_code == 200 and response.json()["total"] == len(world.users)


async def test_get_user(api: Api) -> None:
    body = await api.ok("GET", f"/users/{ADMIN[0]}")
    assert body["user"]["userName"] == ADMIN[0] and "password" not in json.dumps(body).lower()
    assert (await api.ok("GET", f"/users/{ADMIN[0].upper()}"))["user"]["userName"] == ADMIN[0]
    await api.refused("GET", "/users/nobody@example.com", 404, None)


async def test_customer_sees_own_account_users(api: Api, world: World) -> None:
    response = await api.req("GET", "/users", user=CUSTOMER, params={"limit": 500})
    acme = world.users[CUSTOMER[0]].account_id
    assert {u["userName"] for u in response.json()["users"]} == {u.username for u in world.users.values() if u.account_id == acme}
    await api.refused("GET", f"/users/{ADMIN[0]}", 404, None, user=CUSTOMER)


async def test_create_user(api: Api, world: World) -> None:
    body = user(
        userName="Rosa.Weber@acme-robotics.example",
        portalLogin=True,
        status="Inactive",
        timezone="GMT-6.0DST0",
        locale="de_DE",
        country="de",
        phoneNumber="+49 (30) 1234-5",
        displayName="Rosa W.",
        shared=True,
        accountRoles=[
            {"accountName": "acme robotics", "roles": ["Portal Admin"], "expiryDate": "2027-12-31"},
            {"accountName": "FlexDemo Software"},
        ],
        attributes=[{"name": "Team", "value": "Ops"}],
    )
    created = (await api.ok("POST", "/users", 201, json=body))["user"]
    assert created["userName"] == "Rosa.Weber@acme-robotics.example" and created["status"] == "Inactive"
    assert created["country"] == "DE" and created["displayName"] == "Rosa W." and created["timezone"] == "GMT-6.0DST0"
    assert [a["accountId"] for a in created["accounts"]] == ["101200004242", PUBLISHER_ACCOUNT]
    assert created["accounts"][0]["expiryDate"] == "2027-12-31"
    new = world.users["Rosa.Weber@acme-robotics.example"]
    assert new.account_id == "101200004242" and new.status == "inactive"
    assert world.authenticate(new.username, "") is None  # nobody knows the password
    assert "Rosa.Weber@acme-robotics.example" in await api.users(accountType="PUBLISHER")
    assert (await api.ok("GET", "/users/rosa.weber@acme-robotics.example"))["user"]["displayName"] == "Rosa W."
    await api.refused("POST", "/users", 409, "emailAddress", json=user(emailAddress="ROSA.weber@acme-robotics.example"))
    await api.refused("POST", "/users", 409, "emailAddress", json=user(emailAddress=ADMIN[0]))


async def test_create_user_defaults(api: Api, world: World) -> None:
    created = (await api.ok("POST", "/users", 201, json=user()))["user"]
    assert created["userName"] == "rosa.weber@acme-robotics.example" and created["status"] == "Active" and created["locale"] == "en_US"
    assert world.users["rosa.weber@acme-robotics.example"].kind == "customer"


async def test_create_user_unknown_account(api: Api) -> None:
    await api.refused("POST", "/users", 400, "accountRoles[0].accountName", json=user(accountRoles=[{"accountName": "No Such Org"}]))


# Rules only the client keeps: the docs give phone numbers no pattern, so the service takes free text.
SIM_ACCEPTS = {"phone-characters"}


@pytest.mark.parametrize(("case", "change", "field"), BAD_USERS, ids=[c[0] for c in BAD_USERS])
async def test_user_rule_refused(api: Api, world: World, case: str, change: Change, field: str) -> None:
    body = copy.deepcopy(user())
    change(body)
    before = len(world.users)
    if case in SIM_ACCEPTS:
        await api.ok("POST", "/users", 201, json=body)
        return
    await api.refused("POST", "/users", 400, field, json=body)
    assert len(world.users) == before


async def test_customer_cannot_create_users(api: Api) -> None:
    await api.refused("POST", "/users", 403, None, user=CUSTOMER, json=user())


# -- enum spellings -----------------------------------------------------------------------------------

# Enums in a spelling the docs do not give (lower case where they write upper, and the reverse):
# (case id, method, path, params or body, the field a strict service names).
UNDOCUMENTED_SPELLINGS: list[tuple[str, str, str, Any, str]] = [
    ("account-type-filter-lower", "GET", "/accounts", [("accountType", "publisher"), ("accountType", "CHANNEL_PARTNER")], "accountType"),
    ("account-type-filter-unknown", "GET", "/accounts", {"accountType": "UNKNOWN"}, "accountType"),
    ("account-type-lower", "POST", "/accounts", account(accountType="channel_partner"), "accountType"),
    ("user-status-filter-upper", "GET", "/users", {"status": "INACTIVE"}, "status"),
    ("user-account-type-filter-lower", "GET", "/users", {"accountType": "home"}, "accountType"),
    ("sort-order-upper", "GET", "/users", {"sort_order": "DESC"}, "sort_order"),
    ("user-status-lower", "POST", "/users", user(status="inactive"), "status"),
]


@pytest.mark.parametrize(("case", "method", "path", "given", "field"), UNDOCUMENTED_SPELLINGS, ids=[c[0] for c in UNDOCUMENTED_SPELLINGS])
async def test_strict_default_takes_enums_only_as_documented(
    api: Api, world: World, case: str, method: str, path: str, given: Any, field: str
) -> None:
    before = (len(world.accounts), len(world.users))
    where = {"json": given} if method == "POST" else {"params": given}
    refusal = await api.refused(method, path, 400, field, **where)
    assert "exactly as documented" in refusal["message"]
    assert (len(world.accounts), len(world.users)) == before


@pytest.mark.parametrize(("case", "method", "path", "given", "field"), UNDOCUMENTED_SPELLINGS, ids=[c[0] for c in UNDOCUMENTED_SPELLINGS])
async def test_lenient_dialect_takes_enums_in_any_case(lenient_app: Any, case: str, method: str, path: str, given: Any, field: str) -> None:
    api = Api(lenient_app)
    try:
        await api.ok(method, path, 201 if method == "POST" else 200, **({"json": given} if method == "POST" else {"params": given}))
    finally:
        await api.aclose()


async def test_lenient_dialect_reads_any_case_as_the_documented_spelling(lenient_app: Any, world: World) -> None:
    """The lenient dialect (no dialect): what test_account_type_filter, test_create_account_alias_path_and_defaults,
    test_user_filters_and_sorting and test_create_user sent before the default became STRICT, with the answers
    they expected."""
    api = Api(lenient_app)
    try:
        both = await api.accounts([("accountType", "publisher"), ("accountType", "CHANNEL_PARTNER"), ("limit", 500)])
        assert set(both) == {a.account_id for a in world.accounts.values() if a.account_type in ("PUBLISHER", "CHANNEL_PARTNER")}
        partner = (
            await api.ok("POST", "/accounts", 201, json=account(accountId="P-2", name="Partner Two", accountType="channel_partner"))
        )["account"]
        assert partner["accountType"] == "CHANNEL_PARTNER"
        users = list(world.users.values())
        assert set(await api.users(status="INACTIVE")) == {u.username for u in users if u.status == "inactive"}
        assert set(await api.users(accountType="home")) == {u.username for u in users if u.account_id == PUBLISHER_ACCOUNT}
        created = (await api.ok("POST", "/users", 201, json=user(status="inactive")))["user"]
        assert created["status"] == "Inactive" and world.users[created["userName"]].status == "inactive"
    finally:
        await api.aclose()
