"""The simulated entitlement service (seed 002), driven over HTTP in process.

Every rule of the seed is exercised with a body that satisfies it and one
that breaks it; a broken rule must answer 4xx with `field` naming the field
by path. `BAD_ENTITLEMENTS` is shared with tests/api/test_entitlements.py,
which feeds the same bodies to the client models: the two sides must refuse
the same input, with the same field path except where `SIM_FIELD` says the
service names the field more precisely (each side keeps its own rules).
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from flextui.sim.app import SIM_BASE_URL, create_app, in_process_transport
from flextui.sim.entitlements import entitlement_store
from flextui.sim.products import catalogue
from flextui.sim.world import ADMIN, CUSTOMER, World

from ..beta_fixtures import _beta_only  # noqa: F401  (fixtures)
from ..conftest import FIXED_NOW_MS, sim_auth

BASE = "/entitlements-api/v1"
PRODUCT = {"productName": "Flex Designer", "productVersion": "2022.4"}


def line_item(**extra: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"product": [dict(PRODUCT)], "startDate": "2026-11-01", "expiryDate": "2027-10-31", "quantity": 5}
    item.update(extra)
    return item


def entitlement(**extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"lineItems": [line_item()], "attributes": [{"name": "Region", "value": "EMEA"}]}
    body.update(extra)
    return body


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change to a body: set `path` ("lineItems.0.quantity") to `value`, or delete it when value is DELETE."""

    def change(body: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = body
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        if value is DELETE:
            del target[int(last) if last.isdigit() else last]
        elif last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value

    return change


DELETE = object()

# (case id, change to a valid body, the field path both sides must name). Shared with the client tests.
BAD_ENTITLEMENTS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("id-too-long", _set("entitlementId", "E" * 256), "entitlementId"),
    ("id-only-whitespace", _set("entitlementId", "   "), "entitlementId"),
    ("id-with-autogenerate", lambda b: b.update(entitlementId="ENT-NEW-1", autoGenerate=True), "autoGenerate"),
    # "If you specify false, it means you need to pass the ID value" (SOAP createSimpleEntitlement, the same backend)
    ("autogenerate-false-without-id", lambda b: b.update(entitlementId="", autoGenerate=False), "entitlementId"),
    ("description-too-long", _set("description", "d" * 2001), "description"),
    ("ship-to-email-too-long", _set("shipToEmail", "e" * 1001), "shipToEmail"),
    ("ship-to-address-characters", _set("shipToAddress", "12 Main St. #4"), "shipToAddress"),
    ("ship-to-address-too-long", _set("shipToAddress", "a" * 1001), "shipToAddress"),
    ("template-only-whitespace", _set("emailTemplateVariation", "  "), "emailTemplateVariation"),
    ("status-unknown", _set("status", "active"), "status"),
    ("status-against-autodeploy", lambda b: b.update(status="draft", autoDeploy=True), "status"),
    ("no-line-items", _set("lineItems", []), "lineItems"),
    ("line-items-missing", _set("lineItems", DELETE), "lineItems"),
    ("mandatory-attribute-missing", _set("attributes", []), "attributes"),
    ("mandatory-attribute-blank", _set("attributes", [{"name": "Region", "value": " "}]), "attributes"),
    ("attribute-twice", _set("attributes", [{"name": "Region", "value": "A"}, {"name": "Region", "value": "B"}]), "attributes[1].name"),
    (
        "account-type-unknown",
        _set("accounts", [{"accountId": "101200004242", "accountType": "BOGUS", "partnerTierName": "END_CUSTOMER"}]),
        "accounts[0].accountType",
    ),
    (
        "account-tier-unknown",
        _set("accounts", [{"accountId": "101200004242", "accountType": "CUSTOMER", "partnerTierName": "GOLD"}]),
        "accounts[0].partnerTierName",
    ),
    ("activation-id-characters", _set("lineItems.0.activationId", "ACT<1>"), "lineItems[0].activationId"),
    (
        "activation-id-with-autogenerate",
        lambda b: b["lineItems"][0].update(activationId="ACT-NEW-1", autoGenerate=True),
        "lineItems[0].autoGenerate",
    ),
    (
        "activation-autogenerate-false-without-id",
        lambda b: b["lineItems"][0].update(autoGenerate=False),
        "lineItems[0].activationId",
    ),
    (
        "activation-id-twice",
        lambda b: b.update(lineItems=[line_item(activationId="ACT-X"), line_item(activationId="ACT-X")]),
        "lineItems[1].activationId",
    ),
    ("product-missing", _set("lineItems.0.product", DELETE), "lineItems[0].product"),
    ("product-empty", _set("lineItems.0.product", []), "lineItems[0].product"),
    ("same-product-twice", _set("lineItems.0.product", [dict(PRODUCT), dict(PRODUCT)]), "lineItems[0].product[1]"),
    (
        "license-model-without-its-name",  # licenseModelName is "(string, required)" when a licenseModel is given
        _set("lineItems.0.product.0.licenseModel", {"issuer": "FlexDemo"}),
        "lineItems[0].product[0].licenseModel.licenseModelName",
    ),
    (
        "attribute-value-an-object",
        _set("lineItems.0.attributes", [{"name": "Tier", "value": {"level": 2}}]),
        "lineItems[0].attributes[0].value",
    ),
    ("attribute-value-a-boolean", _set("attributes", [{"name": "Region", "value": True}]), "attributes[0].value"),
    ("product-name-missing", _set("lineItems.0.product.0.productName", DELETE), "lineItems[0].product[0].productName"),
    ("product-version-missing", _set("lineItems.0.product.0.productVersion", DELETE), "lineItems[0].product[0].productVersion"),
    ("quantity-negative", _set("lineItems.0.quantity", -1), "lineItems[0].quantity"),
    ("quantity-not-a-number", _set("lineItems.0.quantity", "many"), "lineItems[0].quantity"),
    ("quantity-over-int32", _set("lineItems.0.quantity", 2**31), "lineItems[0].quantity"),
    ("quantity-per-copy-zero", _set("lineItems.0.quantityPerCopy", 0), "lineItems[0].quantityPerCopy"),
    ("start-date-missing", _set("lineItems.0.startDate", DELETE), "lineItems[0].startDate"),
    ("start-date-format", _set("lineItems.0.startDate", "2026-1-05"), "lineItems[0].startDate"),
    ("start-date-us-format", _set("lineItems.0.startDate", "11/01/2026"), "lineItems[0].startDate"),
    ("start-date-not-in-calendar", _set("lineItems.0.startDate", "2026-02-30"), "lineItems[0].startDate"),
    ("expiry-date-format", _set("lineItems.0.expiryDate", "20271031"), "lineItems[0].expiryDate"),
    ("expiry-before-start", _set("lineItems.0.expiryDate", "2026-10-31"), "lineItems[0].expiryDate"),
    ("permanent-with-expiry", _set("lineItems.0.isPermanent", True), "lineItems[0].expiryDate"),
    ("not-permanent-without-expiry", _set("lineItems.0.expiryDate", DELETE), "lineItems[0].expiryDate"),
    ("order-type-unknown", _set("lineItems.0.orderType", "rush_order"), "lineItems[0].orderType"),
    ("line-item-status-unknown", _set("lineItems.0.lineItemStatus", "archived"), "lineItems[0].lineItemStatus"),
    (
        "line-item-attribute-twice",
        _set("lineItems.0.attributes", [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]),
        "lineItems[0].attributes[1].name",
    ),
]

# The simulator answers 400 to these, except: an ID used twice in one request is a uniqueness clash (409).
SIM_STATUS = {"activation-id-twice": 409}
# The service names a missing mandatory custom attribute by the tenant's definition (Spring's keyed-entry path).
SIM_FIELD = {"mandatory-attribute-missing": "attributes[REGION]", "mandatory-attribute-blank": "attributes[REGION]"}
# The characters an entitlement or activation ID must not contain: the vendor's pattern
# `^(?!\s*$)(?!.*['"&%^()#@!~/<>`{}=|]).*$`; the seed lists the same and then "; unique across…" (its rule separator).
ID_FORBIDDEN = "'\"&%^()#@!~/<>`{}=|"

# Bodies only the server can refuse (it knows the catalogue, the accounts and the IDs in use).
SERVER_ONLY: list[tuple[str, Callable[[dict[str, Any]], None], int, str]] = [
    ("unknown-product", _set("lineItems.0.product.0.productVersion", "1999.1"), 400, "lineItems[0].product[0].productName"),
    (
        "unknown-account",
        _set("accounts", [{"accountId": "NOPE", "accountType": "CUSTOMER", "partnerTierName": "END_CUSTOMER"}]),
        400,
        "accounts[0].accountId",
    ),
    (
        "account-type-missing",
        _set("accounts", [{"accountId": "101200004242", "partnerTierName": "END_CUSTOMER"}]),
        400,
        "accounts[0].accountType",
    ),
    ("entitlement-id-taken", _set("entitlementId", "ENT-100000"), 409, "entitlementId"),
    ("entitlement-id-is-an-activation-id", lambda b: None, 409, "entitlementId"),  # filled in by the test
    ("activation-id-taken", lambda b: None, 409, "lineItems[0].activationId"),  # filled in by the test
    (
        "activation-id-is-the-entitlement-id",
        lambda b: b.update(entitlementId="SAME-1", lineItems=[line_item(activationId="SAME-1")]),
        409,
        "lineItems[0].activationId",
    ),
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

    async def listing(self, **params: Any) -> dict[str, Any]:
        return await self.ok("GET", "/entitlements", params=params)

    async def ids(self, **params: Any) -> list[str]:
        return [e["entitlementId"] for e in (await self.listing(limit=500, **params))["entitlements"]]

    async def refused(self, method: str, path: str, status: int, field: str | None, **kwargs: Any) -> dict[str, Any]:
        response = await self.req(method, path, **kwargs)
        assert response.status_code == status, response.text
        body = response.json()
        assert body["status"] == "error" and body["message"]
        if field is not None:
            assert body.get("field") == field, body
        return body

    async def aclose(self) -> None:
        for client in self._clients:
            await client.aclose()


@pytest.fixture
async def api(sim_app: Any) -> AsyncIterator[Api]:
    a = Api(sim_app)
    yield a
    await a.aclose()


def first_activation(world: World) -> str:
    return world.entitlements["ENT-100000"].line_items[0].activation_id


# -- listing ----------------------------------------------------------------------------------------


async def test_list_envelope_and_one_based_pages(api: Api, world: World) -> None:
    body = await api.listing()
    assert body["status"] == "success"
    assert (body["page"], body["limit"], body["total"]) == (1, 20, len(world.entitlements))
    assert len(body["entitlements"]) == 20
    first = body["entitlements"][0]
    assert first["entitlementId"] == "ENT-100000"
    assert {
        "description",
        "status",
        "shipToEmail",
        "shipToAddress",
        "createdOn",
        "updatedOn",
        "accounts",
        "attributes",
        "lineItemCount",
    } <= set(first)
    assert "lineItems" not in first
    assert first["lineItemCount"] == len(world.entitlements["ENT-100000"].line_items)
    page2 = await api.listing(page=2, limit=20)
    assert page2["entitlements"][0]["entitlementId"] == "ENT-100020"
    last = await api.listing(page=3, limit=20)
    assert len(last["entitlements"]) == len(world.entitlements) - 40
    assert (await api.listing(page=9))["entitlements"] == []


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"page": 0}, "page"),
        ({"page": "x"}, "page"),
        ({"limit": 0}, "limit"),
        ({"limit": 501}, "limit"),
        ({"sort_by": "name"}, "sort_by"),
        ({"sort_order": "up"}, "sort_order"),
        ({"status": "lost"}, "status"),
    ],
)
async def test_bad_list_parameters(api: Api, params: dict[str, Any], field: str) -> None:
    await api.refused("GET", "/entitlements", 400, field, params=params)


async def test_sorting(api: Api, world: World) -> None:
    ids = sorted(world.entitlements)
    assert await api.ids(sort_order="desc") == ids[::-1]
    assert await api.ids(sort_by="entitlement_id", sort_order="asc") == ids
    by_created = sorted(world.entitlements.values(), key=lambda e: (e.created_ms, e.entitlement_id))
    assert await api.ids(sort_by="created_on") == [e.entitlement_id for e in by_created]
    assert await api.ids(sort_by="created_on", sort_order="desc") == [e.entitlement_id for e in reversed(by_created)]


async def test_filters(api: Api, world: World) -> None:
    ents = list(world.entitlements.values())
    acme = "101200004242"
    assert await api.ids(accountId=acme) == sorted(e.entitlement_id for e in ents if e.account_id == acme)
    assert await api.ids(accountName="acme rob") == await api.ids(accountId=acme)
    act = first_activation(world)
    assert await api.ids(activationId=act) == ["ENT-100000"]
    assert await api.ids(activationId="ACT-none") == []
    product = world.entitlements["ENT-100000"].line_items[0].product
    expected = sorted(
        e.entitlement_id
        for e in ents
        if any(li.product.name == product.name and li.product.version == product.version for li in e.line_items)
    )
    assert await api.ids(product=product.name.lower(), version=product.version) == expected
    assert await api.ids(partNumber=product.part_number) == expected
    assert await api.ids(product=product.name, partNumber="PN-NONE") == []
    for status in ("deployed", "draft", "obsolete", "inactive"):
        assert await api.ids(status=status) == sorted(e.entitlement_id for e in ents if e.status == status.upper())
    assert await api.ids(status="obsoleted") == await api.ids(status="obsolete")
    email = world.entitlements["ENT-100000"].ship_to_email
    assert "ENT-100000" in await api.ids(contactEmail=email.upper())
    assert (await api.listing(accountId=acme, status="deployed", limit=1))["total"] == sum(
        1 for e in ents if e.account_id == acme and e.status == "DEPLOYED"
    )


async def test_customer_sees_only_own_account(api: Api, world: World) -> None:
    acme = world.users[CUSTOMER[0]].account_id
    mine = sorted(e.entitlement_id for e in world.entitlements.values() if e.account_id == acme)
    response = await api.req("GET", "/entitlements", user=CUSTOMER, params={"limit": 500})
    assert [e["entitlementId"] for e in response.json()["entitlements"]] == mine
    other = next(e for e in world.entitlements.values() if e.account_id != acme)
    await api.refused("GET", f"/entitlement/{other.entitlement_id}/line-items", 404, None, user=CUSTOMER)
    assert (await api.req("GET", f"/entitlement/{mine[0]}/line-items", user=CUSTOMER)).status_code == 200


async def test_requires_authentication(sim_app: Any) -> None:
    async with httpx.AsyncClient(transport=in_process_transport(sim_app), base_url=SIM_BASE_URL) as client:
        response = await client.get(BASE + "/entitlements")
    assert response.status_code == 401


async def test_get_one_entitlement(api: Api, world: World) -> None:
    body = await api.ok("GET", "/entitlement/ENT-100001")
    assert body["entitlement"]["entitlementId"] == "ENT-100001"
    await api.refused("GET", "/entitlement/ENT-NONE", 404, None)


async def test_large_world_lists_answer_every_filter() -> None:
    """Every filter over 5,000+ entitlements answers (how fast: bench/bench_sim_scale.py)."""
    world = World(seed=7, scale=100)
    app = create_app(world)
    api = Api(app)
    store = entitlement_store(world)
    assert len(world.entitlements) >= 5000
    account = next(iter(store.by_account))
    product = world.products[0]
    for params in (
        {},
        {"accountId": account},
        {"product": product.name, "version": product.version},
        {"status": "deployed"},
        {"activationId": first_activation(world)},
        {"accountName": "a", "sort_by": "created_on", "page": 3},
    ):
        body = await api.listing(**params)
        assert body["total"] >= 1
    await api.aclose()


# -- line items ---------------------------------------------------------------------------------------


async def test_line_items_envelope_and_paging(api: Api, world: World) -> None:
    ent = max(world.entitlements.values(), key=lambda e: len(e.line_items))
    n = len(ent.line_items)
    body = await api.ok("GET", f"/entitlement/{ent.entitlement_id}/line-items", params={"limit": 500})
    assert (body["status"], body["entitlementId"], body["page"], body["total"]) == ("success", ent.entitlement_id, 1, n)
    assert [li["activationId"] for li in body["lineItems"]] == [li.activation_id for li in ent.line_items]
    item = body["lineItems"][0]
    assert {"lineItemState", "orderType", "permanent", "startDate", "expiryDate", "quantity", "products", "attributes", "policies"} <= set(
        item
    )
    assert item["products"][0]["productName"] == ent.line_items[0].product.name
    assert item["products"][0]["licenseModel"]["licenseModelName"] == ent.line_items[0].product.license_model
    second = await api.ok("GET", f"/entitlement/{ent.entitlement_id}/line-items", params={"limit": 2, "page": 2})
    assert [li["activationId"] for li in second["lineItems"]] == [li.activation_id for li in ent.line_items[2:4]]
    await api.refused("GET", "/entitlement/ENT-NONE/line-items", 404, None)
    await api.refused("GET", f"/entitlement/{ent.entitlement_id}/line-items", 400, "startDate", params={"startDate": "2026-13-01"})
    await api.refused("GET", f"/entitlement/{ent.entitlement_id}/line-items", 400, "status", params={"status": "gone"})


async def test_line_item_filters(api: Api, world: World) -> None:
    ent = max(world.entitlements.values(), key=lambda e: len(e.line_items))
    path = f"/entitlement/{ent.entitlement_id}/line-items"

    async def acts(**params: Any) -> list[str]:
        return [li["activationId"] for li in (await api.ok("GET", path, params={"limit": 500, **params}))["lineItems"]]

    li0 = ent.line_items[0]
    assert await acts(activationId=li0.activation_id) == [li0.activation_id]
    assert await acts(productName=li0.product.name.upper()[:6]) == [
        li.activation_id for li in ent.line_items if li0.product.name.upper()[:6] in li.product.name.upper()
    ]
    assert await acts(startDate=li0.start_date) == [li.activation_id for li in ent.line_items if li.start_date == li0.start_date]
    assert await acts(licenseModelName=li0.product.license_model.lower()) == [
        li.activation_id for li in ent.line_items if li.product.license_model == li0.product.license_model
    ]
    assert await acts(status=li0.state.lower()) == [li.activation_id for li in ent.line_items if li.state == li0.state]
    assert await acts(sort_by="activation_id", sort_order="desc") == sorted((li.activation_id for li in ent.line_items), reverse=True)


# -- creating -----------------------------------------------------------------------------------------


async def test_create_minimal_entitlement(api: Api, world: World) -> None:
    before = len(world.entitlements)
    body = await api.ok("POST", "/entitlement", 201, json=entitlement())
    assert body["status"] == "success"
    ent_id = body["entitlementId"]
    assert body["responseItems"][0]["status"] == "success"
    act = body["responseItems"][0]["activationId"]
    # The shared world data changed: reports and the registry see it too.
    assert len(world.entitlements) == before + 1
    ent = world.entitlements[ent_id]
    assert ent.status == "DRAFT" and ent.account_id == "UNKNOWN_ORG_UNIT"
    assert world.accounts["UNKNOWN_ORG_UNIT"].account_type == "UNKNOWN"
    li = ent.line_items[0]
    assert (li.activation_id, li.state, li.order_type, li.quantity, li.quantity_per_copy) == (act, "DRAFT", "NEW_ORDER", 5, 1)
    assert (li.start_date, li.expiry_date, li.product.name) == ("2026-11-01", "2027-10-31", "Flex Designer")
    listed = await api.listing(activationId=act)
    assert listed["entitlements"][0]["entitlementId"] == ent_id
    assert (await api.listing(accountId="UNKNOWN_ORG_UNIT"))["total"] == 1
    items = await api.ok("GET", f"/entitlement/{ent_id}/line-items")
    assert items["total"] == 1 and items["lineItems"][0]["activationId"] == act


async def test_create_with_everything(api: Api, world: World) -> None:
    body = entitlement(
        entitlementId="ENT-ACME-2026",
        description="d" * 2000,
        shipToEmail="ops@acme.example",
        shipToAddress="12 Main Street_West-2",
        allowPortalLogin=True,
        emailTemplateVariation="Renewals",
        status="deployed",
        accounts=[
            {"accountId": "101200004242", "accountType": "CUSTOMER", "partnerTierName": "END_CUSTOMER", "contactEmail": "x@acme.example"},
            {"accountId": "FLEXDEMO", "accountType": "PUBLISHER", "partnerTierName": "PARTNER_TIER_ONE", "isCurrentOwner": True},
        ],
        lineItems=[
            line_item(
                activationId="ACT-ACME-1",
                orderType="renewal_order",
                quantity=0,
                quantityPerCopy=3,
                lineItemStatus="draft",
                attributes=[{"name": "CostCenter", "value": "CC-1"}],
                isActivatable=True,
            ),
            line_item(
                isPermanent=True,
                expiryDate=None,
                autoGenerate=True,
                product=[{**PRODUCT, "licenseModel": {"licenseModelName": "Floating", "issuer": "FlexDemo"}}],
            ),
        ],
    )
    result = await api.ok("POST", "/entitlement", 201, json=body)
    assert result["entitlementId"] == "ENT-ACME-2026"
    ent = world.entitlements["ENT-ACME-2026"]
    assert ent.account_id == "FLEXDEMO" and ent.status == "DEPLOYED" and ent.allow_portal_login
    first, second = ent.line_items
    assert (first.activation_id, first.order_type, first.quantity, first.quantity_per_copy, first.state) == (
        "ACT-ACME-1",
        "RENEWAL_ORDER",
        0,
        3,
        "DRAFT",
    )
    assert second.expiry_date is None and second.state == "DEPLOYED" and second.activation_id.startswith("ACT-")
    shown = result["entitlement"]
    assert shown["emailTemplateVariation"] == "Renewals"
    assert [a["accountId"] for a in shown["accounts"]] == ["101200004242", "FLEXDEMO"]
    assert "ENT-ACME-2026" in await api.ids(accountId="101200004242")
    assert "ENT-ACME-2026" in await api.ids(contactEmail="x@acme")
    items = await api.ok("GET", "/entitlement/ENT-ACME-2026/line-items")
    assert items["lineItems"][1]["products"][0]["licenseModel"] == {"licenseModelName": "Floating", "issuer": "FlexDemo"}
    assert items["lineItems"][1]["permanent"] is True


# Enums in a spelling the docs do not give (upper case where they write lower, and the reverse):
# (case id, method, path, params or body, the field a strict service names).
UNDOCUMENTED_SPELLINGS: list[tuple[str, str, str, dict[str, Any], str]] = [
    ("sort-order-upper", "GET", "/entitlements", {"sort_order": "ASC"}, "sort_order"),
    ("status-filter-upper", "GET", "/entitlements", {"status": "DRAFT"}, "status"),
    ("status-filter-capitalised", "GET", "/entitlements", {"status": "Deployed"}, "status"),
    ("line-item-filter-upper", "GET", "/entitlement/ENT-100000/line-items", {"status": "DEPLOYED"}, "status"),
    ("status-capitalised", "POST", "/entitlement", entitlement(status="Deployed"), "status"),
    ("order-type-upper", "POST", "/entitlement", entitlement(lineItems=[line_item(orderType="RENEWAL_ORDER")]), "lineItems[0].orderType"),
    (
        "line-item-status-upper",
        "POST",
        "/entitlement",
        entitlement(lineItems=[line_item(lineItemStatus="DRAFT")]),
        "lineItems[0].lineItemStatus",
    ),
    (
        "account-type-lower",
        "POST",
        "/entitlement",
        entitlement(accounts=[{"accountId": "FLEXDEMO", "accountType": "publisher", "partnerTierName": "END_CUSTOMER"}]),
        "accounts[0].accountType",
    ),
    (
        "partner-tier-lower",
        "POST",
        "/entitlement",
        entitlement(accounts=[{"accountId": "FLEXDEMO", "accountType": "PUBLISHER", "partnerTierName": "partner_tier_one"}]),
        "accounts[0].partnerTierName",
    ),
]


@pytest.mark.parametrize(("case", "method", "path", "given", "field"), UNDOCUMENTED_SPELLINGS, ids=[c[0] for c in UNDOCUMENTED_SPELLINGS])
async def test_strict_default_takes_enums_only_as_documented(
    api: Api, world: World, case: str, method: str, path: str, given: dict[str, Any], field: str
) -> None:
    before = len(world.entitlements)
    where = {"json": given} if method == "POST" else {"params": given}
    refusal = await api.refused(method, path, 400, field, **where)
    assert "exactly as documented" in refusal["message"]
    assert len(world.entitlements) == before


@pytest.mark.parametrize(("case", "method", "path", "given", "field"), UNDOCUMENTED_SPELLINGS, ids=[c[0] for c in UNDOCUMENTED_SPELLINGS])
async def test_lenient_dialect_takes_enums_in_any_case(
    lenient_app: Any, case: str, method: str, path: str, given: dict[str, Any], field: str
) -> None:
    api = Api(lenient_app)
    try:
        await api.ok(method, path, 201 if method == "POST" else 200, **({"json": given} if method == "POST" else {"params": given}))
    finally:
        await api.aclose()


async def test_lenient_dialect_reads_any_case_as_the_documented_spelling(lenient_app: Any, world: World) -> None:
    """The lenient dialect (no dialect): what test_sorting, test_filters and test_create_with_everything
    sent before the default became STRICT, with the answers they expected."""
    api = Api(lenient_app)
    try:
        ents = list(world.entitlements.values())
        assert await api.ids(sort_by="entitlement_id", sort_order="ASC") == sorted(world.entitlements)
        assert await api.ids(status="DRAFT") == sorted(e.entitlement_id for e in ents if e.status == "DRAFT")
        body = entitlement(
            entitlementId="ENT-ACME-ANYCASE",
            status="Deployed",
            accounts=[
                {"accountId": "101200004242", "accountType": "CUSTOMER", "partnerTierName": "END_CUSTOMER"},
                {"accountId": "FLEXDEMO", "accountType": "publisher", "partnerTierName": "partner_tier_one", "isCurrentOwner": True},
            ],
            lineItems=[line_item(orderType="Renewal_Order", lineItemStatus="DRAFT")],
        )
        await api.ok("POST", "/entitlement", 201, json=body)
        ent = world.entitlements["ENT-ACME-ANYCASE"]
        assert ent.account_id == "FLEXDEMO" and ent.status == "DEPLOYED"
        assert (ent.line_items[0].order_type, ent.line_items[0].state) == ("RENEWAL_ORDER", "DRAFT")
    finally:
        await api.aclose()


async def test_auto_deploy_deploys_entitlement_and_items(api: Api, world: World) -> None:
    result = await api.ok("POST", "/entitlement", 201, json=entitlement(autoDeploy=True, lineItems=[line_item(), line_item()]))
    ent = world.entitlements[result["entitlementId"]]
    assert ent.status == "DEPLOYED" and {li.state for li in ent.line_items} == {"DEPLOYED"}
    item_deploy = await api.ok("POST", "/entitlement", 201, json=entitlement(lineItems=[line_item(autoDeploy=True), line_item()]))
    states = [li.state for li in world.entitlements[item_deploy["entitlementId"]].line_items]
    assert states == ["DEPLOYED", "DRAFT"]


async def test_auto_generate_and_empty_ids_generate(api: Api, world: World) -> None:
    a = await api.ok("POST", "/entitlement", 201, json=entitlement(autoGenerate=True))
    b = await api.ok("POST", "/entitlement", 201, json=entitlement(entitlementId="", lineItems=[line_item(activationId="")]))
    assert a["entitlementId"] != b["entitlementId"]
    assert all(x not in ("", None) for x in (a["entitlementId"], b["entitlementId"], *b["activationIds"]))


@pytest.mark.parametrize("good", ["E" * 255, "ent id with spaces", "ENT_1-2.3:4*5+6$7?8[9],a", "x", "ENT;1"])
async def test_good_ids(api: Api, good: str) -> None:
    result = await api.ok(
        "POST", "/entitlement", 201, json=entitlement(entitlementId=good, lineItems=[line_item(activationId=f"A-{good[:250]}")])
    )
    assert result["entitlementId"] == good
    assert result["activationIds"] == [f"A-{good[:250]}"]


@pytest.mark.parametrize("char", list(ID_FORBIDDEN))
async def test_every_forbidden_id_character(api: Api, char: str) -> None:
    await api.refused("POST", "/entitlement", 400, "entitlementId", json=entitlement(entitlementId=f"ENT{char}1"))
    await api.refused(
        "POST", "/entitlement", 400, "lineItems[0].activationId", json=entitlement(lineItems=[line_item(activationId=f"A{char}")])
    )


@pytest.mark.parametrize(("case", "change", "field"), BAD_ENTITLEMENTS, ids=[c[0] for c in BAD_ENTITLEMENTS])
async def test_rule_refused_naming_the_field(
    api: Api, world: World, case: str, change: Callable[[dict[str, Any]], None], field: str
) -> None:
    body = copy.deepcopy(entitlement(entitlementId="ENT-RULES-1"))
    change(body)
    before = len(world.entitlements)
    refusal = await api.refused("POST", "/entitlement", SIM_STATUS.get(case, 400), SIM_FIELD.get(case, field), json=body)
    if case in SIM_FIELD:
        assert "REGION" in refusal["message"]
    assert len(world.entitlements) == before


@pytest.mark.parametrize(("case", "change", "status", "field"), SERVER_ONLY, ids=[c[0] for c in SERVER_ONLY])
async def test_server_only_rules(
    api: Api, world: World, case: str, change: Callable[[dict[str, Any]], None], status: int, field: str
) -> None:
    body = copy.deepcopy(entitlement())
    change(body)
    if case == "entitlement-id-is-an-activation-id":
        body["entitlementId"] = first_activation(world)
    if case == "activation-id-taken":
        body["lineItems"][0]["activationId"] = first_activation(world)
    before = len(world.entitlements)
    await api.refused("POST", "/entitlement", status, field, json=body)
    assert len(world.entitlements) == before


async def test_body_must_be_json_object(api: Api) -> None:
    await api.refused("POST", "/entitlement", 400, None, content=b"not json", headers={"content-type": "application/json"})
    await api.refused("POST", "/entitlement", 400, None, json=[entitlement()])


async def test_customer_cannot_create(api: Api) -> None:
    await api.refused("POST", "/entitlement", 403, None, user=CUSTOMER, json=entitlement())


# -- adding line items --------------------------------------------------------------------------------


async def test_add_line_items(api: Api, world: World) -> None:
    ent = world.entitlements["ENT-100001"]
    n = len(ent.line_items)
    result = await api.ok(
        "POST",
        "/entitlement/ENT-100001/line-items",
        201,
        json={"lineItems": [line_item(activationId="ACT-ADDED-1"), line_item(autoDeploy=True)]},
    )
    assert result["activationIds"][0] == "ACT-ADDED-1" and len(result["responseItems"]) == 2
    assert len(ent.line_items) == n + 2
    assert [li.state for li in ent.line_items[-2:]] == ["DRAFT", "DEPLOYED"]
    assert await api.ids(activationId="ACT-ADDED-1") == ["ENT-100001"]
    await api.refused(
        "POST",
        "/entitlement/ENT-100001/line-items",
        409,
        "lineItems[0].activationId",
        json={"lineItems": [line_item(activationId="ACT-ADDED-1")]},
    )
    await api.refused("POST", "/entitlement/ENT-100001/line-items", 400, "lineItems", json={"lineItems": []})
    await api.refused(
        "POST", "/entitlement/ENT-100001/line-items", 400, "lineItems[0].startDate", json={"lineItems": [line_item(startDate="2026-02-29")]}
    )
    await api.refused("POST", "/entitlement/ENT-NONE/line-items", 404, None, json={"lineItems": [line_item()]})
    assert len(ent.line_items) == n + 2


async def test_obsolete_entitlement_takes_no_line_items(api: Api, world: World) -> None:
    obsolete = next(e for e in world.entitlements.values() if e.status == "OBSOLETE")
    await api.refused("POST", f"/entitlement/{obsolete.entitlement_id}/line-items", 400, None, json={"lineItems": [line_item()]})


# -- policies -----------------------------------------------------------------------------------------


async def test_policies(api: Api, world: World) -> None:
    act = first_activation(world)
    path = f"/entitlement/ENT-100000/line-items/{act}/policies"
    body = {
        "rehosts": {"allowedCount": 3, "policyTermDuration": 1, "policyTermUnit": "Years"},  # PolicyInput's spelling
        "extraActivations": 2,
        "cancelLicense": True,
    }
    result = await api.ok("PATCH", path, json=body)
    assert result["status"] == "success" and result["responseItems"][0]["activationId"] == act
    li = world.entitlements["ENT-100000"].line_items[0]
    assert li.policies == {
        "rehosts": {"allowedCount": 3, "policyTermDuration": 1, "policyTermUnit": "Years"},
        "extraActivations": 2,
        "cancelLicense": True,
    }
    await api.ok("PATCH", path, json={"rehosts": {"allowedCount": 0}, "returns": {"allowedCount": 1}})
    assert li.policies["rehosts"] == {"allowedCount": 0, "policyTermDuration": 1, "policyTermUnit": "Years"}
    shown = await api.ok("GET", "/entitlement/ENT-100000/line-items", params={"activationId": act})
    assert shown["lineItems"][0]["policies"]["returns"] == {"allowedCount": 1}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rehosts": {"allowedCount": -1}}, "rehosts.allowedCount"),
        ({"returns": {"allowedCount": "two"}}, "returns.allowedCount"),
        ({"repairs": {"policyTermDuration": 2, "policyTermUnit": "fortnights"}}, "repairs.policyTermUnit"),
        ({"repairs": {"policyTermDuration": 2}}, "repairs.policyTermUnit"),
        ({"repairs": {"policyTermUnit": "Days"}}, "repairs.policyTermDuration"),
        ({"repairs": {"policyTermDuration": 2, "policyTermUnit": "DAYS"}}, "repairs.policyTermUnit"),  # strict: as documented
        ({"rehosts": {"policyTermDuration": -1, "policyTermUnit": "Days"}}, "rehosts.policyTermDuration"),
        ({"extraActivations": -2}, "extraActivations"),
        ({"virtualLicense": "yes"}, "virtualLicense"),
        ({"rehosts": 3}, "rehosts"),
    ],
)
async def test_bad_policies(api: Api, world: World, body: dict[str, Any], field: str) -> None:
    act = first_activation(world)
    await api.refused("PATCH", f"/entitlement/ENT-100000/line-items/{act}/policies", 400, field, json=body)
    assert world.entitlements["ENT-100000"].line_items[0].policies == {}


async def test_policies_need_something_and_the_right_line_item(api: Api, world: World) -> None:
    act = first_activation(world)
    await api.refused("PATCH", f"/entitlement/ENT-100000/line-items/{act}/policies", 400, None, json={})
    await api.refused("PATCH", f"/entitlement/ENT-100001/line-items/{act}/policies", 404, None, json={"extraActivations": 1})
    await api.refused("PATCH", "/entitlement/ENT-100000/line-items/ACT-NONE/policies", 404, None, json={"extraActivations": 1})


# -- additional properties ----------------------------------------------------------------------------


async def test_additional_properties(api: Api, world: World) -> None:
    ent = world.entitlements["ENT-100000"]
    a, b = ent.line_items[0], ent.line_items[1]
    target = next(p for p in world.products if p.name != a.product.name)
    body = {
        "lineItems": [
            {
                "activationId": a.activation_id,
                "orderType": "upsell_order",
                "deploy": True,
                "product": {
                    "partNumber": target.part_number,
                    "licenseModel": {"name": "Floating", "overdraft": 2, "autoProvision": True, "gracePeriodDays": 7},
                },
                "attributes": [{"name": "Tier", "value": {"level": 2}, "type": "line_item"}, {"name": "CostCenter", "value": "CC-9"}],
            },
            {"activationId": b.activation_id, "parentActivationId": a.activation_id},
        ]
    }
    result = await api.ok("PATCH", "/entitlement/ENT-100000/additional-properties", json=body)
    assert result["activationIds"] == [a.activation_id, b.activation_id]
    assert result["response"][a.activation_id]["status"] == "success"
    assert (a.order_type, a.state, a.product) == ("UPSELL_ORDER", "DEPLOYED", target)
    assert a.attributes["CostCenter"] == "CC-9" and a.attributes["Tier"] == '{"level": 2}'
    assert b.parent_activation_id == a.activation_id
    assert "ENT-100000" in await api.ids(partNumber=target.part_number)
    shown = await api.ok("GET", "/entitlement/ENT-100000/line-items", params={"activationId": a.activation_id})
    model = shown["lineItems"][0]["products"][0]["licenseModel"]
    assert model["licenseModelName"] == "Floating" and model["overdraft"] == 2 and model["gracePeriodDays"] == 7


@pytest.mark.parametrize(
    ("item", "status", "field"),
    [
        ({"activationId": "ACT-NONE"}, 404, "lineItems[1].activationId"),
        ({"orderType": "bogus"}, 400, "lineItems[1].orderType"),
        ({"parentActivationId": "SELF"}, 400, "lineItems[1].parentActivationId"),
        ({"parentActivationId": "ACT-NONE"}, 400, "lineItems[1].parentActivationId"),
        ({"product": {"productName": "Flex Designer"}}, 400, "lineItems[1].product.productVersion"),
        ({"product": {"productName": "Nope", "productVersion": "1"}}, 400, "lineItems[1].product.productName"),
        ({"product": {"partNumber": "PN-NONE-1"}}, 400, "lineItems[1].product.partNumber"),
        ({"product": {"licenseModel": {"overdraft": -1}}}, 400, "lineItems[1].product.licenseModel.overdraft"),
        ({"product": {"licenseModel": {"gracePeriodDays": "x"}}}, 400, "lineItems[1].product.licenseModel.gracePeriodDays"),
        ({"attributes": [{"value": 1}]}, 400, "lineItems[1].attributes[0].name"),
        ({"deploy": "yes"}, 400, "lineItems[1].deploy"),
    ],
)
async def test_bad_additional_properties_change_nothing(api: Api, world: World, item: dict[str, Any], status: int, field: str) -> None:
    ent = world.entitlements["ENT-100000"]
    a, b = ent.line_items[0], ent.line_items[1]
    second = {"activationId": b.activation_id, **item}
    if second.get("parentActivationId") == "SELF":
        second["parentActivationId"] = b.activation_id
    before = (a.order_type, b.order_type, b.product, a.state)
    body = {"lineItems": [{"activationId": a.activation_id, "orderType": "renewal_order", "deploy": True}, second]}
    await api.refused("PATCH", "/entitlement/ENT-100000/additional-properties", status, field, json=body)
    assert (a.order_type, b.order_type, b.product, a.state) == before


async def test_additional_properties_need_line_items(api: Api) -> None:
    await api.refused("PATCH", "/entitlement/ENT-100000/additional-properties", 400, "lineItems", json={"lineItems": []})
    await api.refused("PATCH", "/entitlement/ENT-NONE/additional-properties", 404, None, json={"lineItems": [{"activationId": "x"}]})


# -- maintenance line items ---------------------------------------------------------------------------


async def test_maintenance_line_items(api: Api, world: World) -> None:
    ent = world.entitlements["ENT-100002"]
    parent = ent.line_items[0].activation_id
    body = {
        "maintenanceLineItems": [
            {
                "maintenanceProduct": {"maintenanceProductName": "Gold Support", "maintenanceProductVersion": "1.0"},
                "parentActivationId": parent,
                "startDate": "2026-11-01",
                "expiryDate": "2027-11-01",
                "activationId": "MNT-ACT-1",
            },
            {  # the page's sample names it by name, version and part number
                "maintenanceProduct": {
                    "maintenanceProductName": "Silver Support",
                    "maintenanceProductVersion": "1.0",
                    "partNumber": "MNT-SILVER-001",
                },
                "startDate": "2026-11-01",
                "isPermanent": True,
                "autoDeploy": True,
            },
        ]
    }
    result = await api.ok("POST", "/entitlement/ENT-100002/maintenance-line-items", 201, json=body)
    assert result["activationIds"][0] == "MNT-ACT-1"
    gold, silver = ent.line_items[-2:]
    assert gold.maintenance and gold.product.name == "Gold Support" and gold.parent_activation_id == parent and gold.state == "DRAFT"
    assert silver.product.name == "Silver Support" and silver.expiry_date is None and silver.state == "DEPLOYED"
    shown = await api.ok("GET", "/entitlement/ENT-100002/line-items", params={"activationId": "MNT-ACT-1"})
    assert shown["lineItems"][0]["maintenance"] is True


@pytest.mark.parametrize(
    ("item", "status", "field"),
    [
        (
            {"maintenanceProduct": {"maintenanceProductName": "Bronze Support", "maintenanceProductVersion": "1.0"}},
            400,
            "maintenanceLineItems[0].maintenanceProduct.maintenanceProductName",
        ),
        (  # name and version are "(string, required)": a part number alone names neither
            {"maintenanceProduct": {"partNumber": "MNT-GOLD-001"}},
            400,
            "maintenanceLineItems[0].maintenanceProduct.maintenanceProductName",
        ),
        (
            {"maintenanceProduct": {"maintenanceProductName": "Gold Support", "partNumber": "MNT-GOLD-001"}},
            400,
            "maintenanceLineItems[0].maintenanceProduct.maintenanceProductVersion",
        ),
        (  # a part number that is not the product's (or no one's): refused, not dropped
            {"maintenanceProduct": {"maintenanceProductName": "Gold Support", "maintenanceProductVersion": "1.0", "partNumber": "PN-GOLD"}},
            400,
            "maintenanceLineItems[0].maintenanceProduct.partNumber",
        ),
        (
            {
                "maintenanceProduct": {
                    "maintenanceProductName": "Gold Support",
                    "maintenanceProductVersion": "1.0",
                    "partNumber": "MNT-SILVER-001",
                }
            },
            400,
            "maintenanceLineItems[0].maintenanceProduct.partNumber",
        ),
        (
            {"maintenanceProduct": {"maintenanceProductVersion": "1.0", "partNumber": "MNT-GOLD-001"}},
            400,
            "maintenanceLineItems[0].maintenanceProduct.maintenanceProductName",
        ),
        ({"maintenanceProduct": None}, 400, "maintenanceLineItems[0].maintenanceProduct"),
        ({"parentActivationId": "ACT-NONE"}, 400, "maintenanceLineItems[0].parentActivationId"),
        ({"startDate": "2026-11-31"}, 400, "maintenanceLineItems[0].startDate"),
        ({"expiryDate": "2025-01-01"}, 400, "maintenanceLineItems[0].expiryDate"),
        ({"activationId": "A|B"}, 400, "maintenanceLineItems[0].activationId"),
        ({"activationId": "ENT-100000"}, 409, "maintenanceLineItems[0].activationId"),
    ],
)
async def test_bad_maintenance_line_items(api: Api, world: World, item: dict[str, Any], status: int, field: str) -> None:
    good = {
        "maintenanceProduct": {"maintenanceProductName": "Gold Support", "maintenanceProductVersion": "1.0"},
        "startDate": "2026-11-01",
        "expiryDate": "2027-11-01",
    }
    n = len(world.entitlements["ENT-100002"].line_items)
    await api.refused(
        "POST", "/entitlement/ENT-100002/maintenance-line-items", status, field, json={"maintenanceLineItems": [{**good, **item}]}
    )
    assert len(world.entitlements["ENT-100002"].line_items) == n


async def test_an_item_whose_product_is_not_deployed_fails_on_its_own(api: Api, world: World) -> None:
    """ "There must be deployed products and license models" (SOAP createSimpleEntitlement): such an item's response item
    says FAILURE with an errorMsg, the others are made, the status is PARTIAL_FAILURE (FAILURE when none are)."""
    draft = next(p for p in catalogue(world).products.values() if p.state != "DEPLOYED").sim
    bad = line_item(product=[{"productName": draft.name, "productVersion": draft.version}])
    ent = world.entitlements["ENT-100001"]
    before = len(ent.line_items)
    body = await api.ok("POST", "/entitlement/ENT-100001/line-items", 201, json={"lineItems": [line_item(activationId="ACT-D-1"), bad]})
    assert body["status"] == "PARTIAL_FAILURE" and body["activationIds"] == ["ACT-D-1"]
    ok, failed = body["responseItems"]
    assert ok == {"activationId": "ACT-D-1", "status": "success", "errorMsg": None}
    assert failed["status"] == "FAILURE" and failed["activationId"] is None
    assert f"Product {draft.name} version {draft.version} is not deployed" in failed["errorMsg"]
    assert [li.activation_id for li in ent.line_items[before:]] == ["ACT-D-1"]
    count = len(world.entitlements)
    none = await api.ok("POST", "/entitlement", 200, json=entitlement(lineItems=[bad]))
    assert none["status"] == "FAILURE" and none["responseItems"][0]["status"] == "FAILURE" and "entitlementId" not in none
    assert len(world.entitlements) == count, "no entitlement is made without a line item"
    gold = catalogue(world).maintenance[("Gold Support", "1.0")]
    gold.state = "DRAFT"
    item = {
        "maintenanceProduct": {"maintenanceProductName": "Gold Support", "maintenanceProductVersion": "1.0"},
        "startDate": "2026-11-01",
        "isPermanent": True,
        "activationId": "MNT-D-1",
    }
    refused = await api.ok("POST", "/entitlement/ENT-100001/maintenance-line-items", 200, json={"maintenanceLineItems": [item]})
    assert refused["status"] == "FAILURE" and refused["responseItems"][0]["activationId"] == "MNT-D-1"
    assert "Maintenance product Gold Support version 1.0 is not deployed" in refused["responseItems"][0]["errorMsg"]


async def test_a_partial_failure_is_said_under_create_status_only(world: World) -> None:
    """The documented `{status}` answer: never SUCCESS when an item failed."""
    app = create_app(world, dialects=["create-status-only"])
    api = Api(app)
    try:
        draft = next(p for p in catalogue(world).products.values() if p.state != "DEPLOYED").sim
        bad = line_item(product=[{"productName": draft.name, "productVersion": draft.version}])
        assert await api.ok("POST", "/entitlement/ENT-100001/line-items", 201, json={"lineItems": [line_item(), bad]}) == {
            "status": "PARTIAL_FAILURE"
        }
        assert await api.ok("POST", "/entitlement/ENT-100001/line-items", 200, json={"lineItems": [bad]}) == {"status": "FAILURE"}
        assert await api.ok("POST", "/entitlement/ENT-100001/line-items", 201, json={"lineItems": [line_item()]}) == {"status": "SUCCESS"}
    finally:
        await api.aclose()


async def test_a_line_item_of_several_products_and_attribute_values_of_every_type(api: Api, world: World) -> None:
    """`product` is a list ("Use the entitledProducts element to specify one or more products", WSEntOderSpecifyProd.htm)
    and an attribute's value is text, a number or a list of texts ("value (object)"): each kept and answered as given."""
    two = [dict(PRODUCT), {"productName": "Nova Gateway", "productVersion": "2022.4", "licenseModel": {"licenseModelName": "Floating"}}]
    values = [{"name": "Seats", "value": 12345}, {"name": "Sites", "value": ["Berlin", "Paris"]}, {"name": "Until", "value": "2027/12/31"}]
    body = {"lineItems": [line_item(activationId="ACT-TWO-1", product=two, attributes=values)]}
    await api.ok("POST", "/entitlement/ENT-100001/line-items", 201, json=body)
    shown = (await api.ok("GET", "/entitlement/ENT-100001/line-items", params={"activationId": "ACT-TWO-1"}))["lineItems"][0]
    assert [(p["productName"], p["licenseModel"]["licenseModelName"]) for p in shown["products"]] == [
        ("Flex Designer", world.entitlements["ENT-100001"].line_items[-1].product.license_model),
        ("Nova Gateway", "Floating"),
    ]
    assert shown["attributes"] == values
    assert "ENT-100001" in await api.ids(product="Nova Gateway", version="2022.4"), "found by either product"


async def test_fixed_clock_dates(api: Api, world: World) -> None:
    result = await api.ok("POST", "/entitlement", 201, json=entitlement())
    assert world.entitlements[result["entitlementId"]].created_ms == FIXED_NOW_MS
    assert result["entitlement"]["createdOn"] == "2026-11-02T10:00:00Z"
