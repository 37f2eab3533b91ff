"""The entitlement data layer: request models, EntitlementsService calls, caching, read-only profiles.

The bodies of tests/sim/test_entitlements.py's `BAD_ENTITLEMENTS` are fed
to the client models here: each must be refused before sending, with the
same field path the simulator names.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import date
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from flextui.api.auth import Credentials
from flextui.api.entitlements import (
    AdditionalProperties,
    EntitlementCreate,
    EntitlementFilter,
    EntitlementsService,
    ItemsFailed,
    LineItem,
    LineItemCreate,
    LineItemFilter,
    LineItemPolicies,
    LineItemProperties,
    MaintenanceLineItemCreate,
    MutationResult,
    PolicyTerm,
)
from flextui.api.errors import ApiError, Conflict, Invalid, NotFound, ReadOnly
from flextui.api.http import RetryPolicy, Service, Session
from flextui.api.tolerant import unreadable
from flextui.render.entitlements import line_item_row
from flextui.sim.app import create_app
from flextui.sim.dialects import speaking
from flextui.sim.products import catalogue
from flextui.sim.world import World

from ..beta_fixtures import _beta_only, read_only_session, refused  # noqa: F401  (fixtures)
from ..conftest import make_session
from ..received import Received
from ..sim.test_entitlements import BAD_ENTITLEMENTS, entitlement, line_item


@pytest.fixture
def svc(session: Session) -> EntitlementsService:
    return EntitlementsService(session)


# -- request models -----------------------------------------------------------------------------------


def test_valid_entitlement_body() -> None:
    spec = EntitlementCreate.model_validate(
        entitlement(description="Annual", lineItems=[line_item(orderType="renewal_order", activationId="", lineItemStatus="")])
    )
    body = spec.body()
    assert body["lineItems"][0]["orderType"] == "renewal_order"
    assert "activationId" not in body["lineItems"][0] and "lineItemStatus" not in body["lineItems"][0]
    assert body["lineItems"][0]["product"] == [{"productName": "Flex Designer", "productVersion": "2022.4"}]
    assert body["attributes"] == [{"name": "Region", "value": "EMEA"}] and "entitlementId" not in body
    default = LineItemCreate.model_validate(line_item())
    assert (default.order_type, default.quantity_per_copy, default.is_permanent) == ("NEW_ORDER", 1, False)


# Which custom attributes are mandatory is the tenant's choice: only the server knows, and names the missing one.
TENANT_FACTS = {"mandatory-attribute-missing", "mandatory-attribute-blank"}
CLIENT_CHECKED = [c for c in BAD_ENTITLEMENTS if c[0] not in TENANT_FACTS]


@pytest.mark.parametrize(("case", "change", "field"), CLIENT_CHECKED, ids=[c[0] for c in CLIENT_CHECKED])
def test_client_refuses_what_the_simulator_refuses(case: str, change: Callable[[dict[str, Any]], None], field: str) -> None:
    body = copy.deepcopy(entitlement(entitlementId="ENT-RULES-1"))
    change(body)
    errors = refused(EntitlementCreate, body)
    assert field in errors, errors
    assert errors[field]


@pytest.mark.parametrize(
    "good",
    [
        {"entitlementId": "E" * 255},
        {"entitlementId": "ENT;1", "lineItems": [line_item(activationId="ACT;1")]},  # the vendor's pattern has no `;`
        {"shipToAddress": ""},
        {"status": "Obsolete"},
        {"status": "deployed", "autoDeploy": True},
        {"autoGenerate": True},
        {"emailTemplateVariation": "Renewals"},
        {
            "accounts": [
                {"accountId": "101200004242", "accountType": "customer", "partnerTierName": "partner_tier_one", "isCurrentOwner": True}
            ]
        },
        {"lineItems": [line_item(quantity=0, quantityPerCopy=1, isPermanent=True, expiryDate=None, orderType="UPSELL_ORDER")]},
        {"lineItems": [line_item(expiryDate="2026-11-01")]},  # expiry on the start day
        {"lineItems": [line_item(activationId="A-1"), line_item(activationId="A-2", autoGenerate=False)]},
    ],
)
def test_good_variants_pass(good: dict[str, Any]) -> None:
    EntitlementCreate.model_validate(entitlement(**good))


def test_ship_to_and_contact_e_mails_are_e_mail_addresses() -> None:
    """Seed 002: shipToEmail is the "e-mail of the ship-to contact" (and an account's contactEmail an e-mail); either may be empty."""
    assert "shipToEmail" in refused(EntitlementCreate, entitlement(shipToEmail="not-an-email"))
    account = {"accountId": "101200004242", "accountType": "customer", "partnerTierName": "end_customer", "contactEmail": "ops"}
    assert "accounts[0].contactEmail" in refused(EntitlementCreate, entitlement(accounts=[account]))
    assert EntitlementCreate.model_validate(entitlement(shipToEmail="")).ship_to_email == ""
    assert EntitlementCreate.model_validate(entitlement(shipToEmail=" ops@acme.example ")).body()["shipToEmail"] == "ops@acme.example"


def test_ids_unique_within_the_request() -> None:
    errors = refused(EntitlementCreate, entitlement(entitlementId="SAME", lineItems=[line_item(activationId="SAME")]))
    assert "lineItems[0].activationId" in errors


def test_unknown_fields_are_refused() -> None:
    assert "colour" in refused(EntitlementCreate, entitlement(colour="red"))


def test_policies_model() -> None:
    spec = LineItemPolicies.model_validate(
        {"rehosts": {"allowedCount": 2, "policyTermDuration": 1, "policyTermUnit": "years"}, "cancelLicense": False}
    )
    assert spec.body() == {"rehosts": {"allowedCount": 2, "policyTermDuration": 1, "policyTermUnit": "Years"}, "cancelLicense": False}
    assert refused(LineItemPolicies, {}) == {"": "give at least one policy: rehosts, returns, repairs, extraActivations or a flag"}
    assert "rehosts.allowedCount" in refused(LineItemPolicies, {"rehosts": {"allowedCount": -1}})
    assert "repairs.policyTermUnit" in refused(LineItemPolicies, {"repairs": {"policyTermDuration": 2}})
    assert "repairs.policyTermDuration" in refused(LineItemPolicies, {"repairs": {"policyTermUnit": "DAYS"}})
    assert "returns.policyTermUnit" in refused(LineItemPolicies, {"returns": {"policyTermDuration": 1, "policyTermUnit": "fortnights"}})
    assert "extraActivations" in refused(LineItemPolicies, {"extraActivations": -1})


def test_properties_model() -> None:
    good = AdditionalProperties.model_validate(
        {
            "lineItems": [
                {
                    "activationId": "A-1",
                    "orderType": "renewal_order",
                    "deploy": True,
                    "product": {"partNumber": "PN-1", "licenseModel": {"name": "Floating", "overdraft": 0}},
                    "attributes": [{"name": "Tier", "value": {"level": 2}, "type": "line_item"}],
                },
            ]
        }
    )
    assert good.body()["lineItems"][0]["orderType"] == "renewal_order"
    cases = [
        ({"lineItems": []}, "lineItems"),
        ({"lineItems": [{"activationId": " "}]}, "lineItems[0].activationId"),
        ({"lineItems": [{"activationId": "A", "parentActivationId": "A"}]}, "lineItems[0].parentActivationId"),
        ({"lineItems": [{"activationId": "A", "orderType": "x"}]}, "lineItems[0].orderType"),
        ({"lineItems": [{"activationId": "A", "product": {"productName": "P"}}]}, "lineItems[0].product.productVersion"),
        ({"lineItems": [{"activationId": "A", "product": {"partNumber": "PN/1"}}]}, "lineItems[0].product.partNumber"),
        (
            {"lineItems": [{"activationId": "A", "product": {"licenseModel": {"gracePeriodDays": -1}}}]},
            "lineItems[0].product.licenseModel.gracePeriodDays",
        ),
        ({"lineItems": [{"activationId": "A"}, {"activationId": "A"}]}, "lineItems[1].activationId"),
        ({"lineItems": [{"activationId": "A", "attributes": [{"name": "x"}, {"name": "x"}]}]}, "lineItems[0].attributes[1].name"),
    ]
    for body, field in cases:
        assert field in refused(AdditionalProperties, body), (body, field)


GOLD = {"maintenanceProductName": "Gold Support", "maintenanceProductVersion": "1.0"}


def test_maintenance_model() -> None:
    """maintenanceProductName and maintenanceProductVersion are "(string, required)", partNumber optional, and the
    page's sample sends all three (…/maintenancelineitem/postmaintenancelineitems.md): that sample was refused ("a
    part number instead of the name and version, not both") and a part number alone was accepted."""
    good = {"maintenanceProduct": dict(GOLD), "startDate": "2026-01-01", "isPermanent": True}
    MaintenanceLineItemCreate.model_validate(good)
    sample = MaintenanceLineItemCreate.model_validate({**good, "maintenanceProduct": {**GOLD, "partNumber": "MNT-GOLD-001"}})
    assert sample.body()["maintenanceProduct"] == {**GOLD, "partNumber": "MNT-GOLD-001"}
    cases = [
        ({**good, "maintenanceProduct": {"maintenanceProductName": "Gold Support"}}, "maintenanceProduct.maintenanceProductVersion"),
        ({**good, "maintenanceProduct": {"partNumber": "MNT-GOLD-001"}}, "maintenanceProduct.maintenanceProductName"),
        ({**good, "maintenanceProduct": {**GOLD, "maintenanceProductName": " "}}, "maintenanceProduct.maintenanceProductName"),
        ({**good, "maintenanceProduct": {**GOLD, "partNumber": "PN/1"}}, "maintenanceProduct.partNumber"),
        ({**good, "startDate": "2026-02-30"}, "startDate"),
        ({**good, "isPermanent": False}, "expiryDate"),
        ({**good, "activationId": "A@1"}, "activationId"),
        ({**good, "activationId": "A-1", "autoGenerate": True}, "autoGenerate"),
        ({**good, "quantity": -3}, "quantity"),
    ]
    for body, field in cases:
        assert field in refused(MaintenanceLineItemCreate, body), (body, field)
    assert "maintenanceProduct.maintenanceProductVersion" in refused(
        MaintenanceLineItemCreate, {**good, "maintenanceProduct": {"partNumber": "MNT-GOLD-001"}}
    ), "a part number alone names neither"


def test_filters() -> None:
    assert EntitlementFilter(status="obsoleted", account_name=" acme ", product="").params() == {
        "status": "obsoleted",
        "accountName": "acme",
    }
    assert EntitlementFilter(status="OBSOLETE").params() == {"status": "obsolete"}, "each word as it is named"
    assert LineItemFilter(status="Obsoleted").params() == {"status": "obsoleted"}
    assert EntitlementFilter(sort_by="created_on", sort_order="DESC").params() == {"sort_by": "created_on", "sort_order": "desc"}
    with pytest.raises(ValidationError):
        EntitlementFilter(sort_by="name")
    with pytest.raises(ValidationError):
        EntitlementFilter(status="lost")
    assert LineItemFilter(start_date="2026-01-01").params() == {"startDate": "2026-01-01"}
    with pytest.raises(ValidationError):
        LineItemFilter(start_date="2026-1-1")


def test_response_models_tolerate_other_shapes() -> None:
    item = LineItem.model_validate(
        {
            "activationId": "A",
            "lineItemStatus": "DEPLOYED",
            "isPermanent": True,
            "product": {"productName": "P", "version": "1", "licenseModel": "Perpetual"},
            "policies": None,
            "somethingNew": [1, 2],
        }
    )
    assert item.state == "DEPLOYED" and item.permanent is True
    assert item.product is not None and item.product.product_version == "1" and item.product.license_model.license_model_name == "Perpetual"  # type: ignore[union-attr]
    result = MutationResult.model_validate(
        {"status": "success", "responseItems": [{"activationId": "A", "status": "failed", "errorMsg": "no"}]}
    )
    assert [r.activation_id for r in result.failed] == ["A"]


@pytest.mark.parametrize(
    ("start", "expiry"),
    [
        ("2025-01-01", "2026-01-01"),
        ("2025-01-01T00:00:00.000+00:00", "2026-01-01T00:00:00.000+00:00"),  # Spring's Jackson date-time
        ("2025-01-01T23:30:00-05:00", "2026-01-01T00:00:00Z"),  # the day as written, not the day in UTC
        (1735689600000, 1767225600000),  # epoch milliseconds, UTC midnight
        ("1735689600000", "1767225600000"),
    ],
)
def test_line_item_dates_in_any_form_are_their_day(start: Any, expiry: Any) -> None:
    """Notes §5/§6: the beta APIs use YYYY-MM-DD, ISO 8601 and epoch milliseconds. A date-time did not parse on 3.11
    (no expiry warning), and epoch milliseconds made the whole line item unreadable, losing both dates."""
    item = LineItem.model_validate({"activationId": "A", "startDate": start, "expiryDate": expiry})
    assert unreadable(item) is None
    assert (item.start_date, item.expiry_date) == ("2025-01-01", "2026-01-01")
    assert (item.starts, item.expires) == (date(2025, 1, 1), date(2026, 1, 1))


def test_a_line_item_date_that_is_no_date_is_kept_as_text() -> None:
    item = LineItem.model_validate({"activationId": "A", "startDate": "soon", "expiryDate": "2026-02-30"})
    assert unreadable(item) is None and (item.start_date, item.expiry_date) == ("soon", "2026-02-30")
    assert item.starts is None and item.expires is None


@pytest.mark.parametrize("dialect", ["line-item-dates-datetime", "line-item-dates-epoch"])
async def test_line_item_dates_read_from_every_dialect(world: World, dialect: str) -> None:
    session = make_session(create_app(world, dialects=speaking(dialect)))
    try:
        page = await EntitlementsService(session).line_items("ENT-100000")
    finally:
        await session.aclose()
    held = world.entitlements["ENT-100000"].line_items
    assert [(li.start_date, li.expiry_date) for li in page.items] == [(li.start_date, li.expiry_date) for li in held]
    assert all(unreadable(li) is None for li in page.items)


# -- the service ----------------------------------------------------------------------------------------


async def test_list_pages(svc: EntitlementsService, world: World) -> None:
    first = await svc.list()
    assert (first.number, first.size, first.total, first.pages) == (1, 20, len(world.entitlements), 3)
    assert first.items[0].entitlement_id == "ENT-100000" and first.items[0].created is not None
    assert first.items[0].owner is not None and first.items[0].owner.account_id == "101200004242"
    assert first.items[0].attribute("Region") in ("AMER", "EMEA", "APAC")
    third = await svc.list(page=3)
    assert len(third.items) == len(world.entitlements) - 40
    acme = await svc.list(EntitlementFilter(account_id="101200004242", sort_by="created_on", sort_order="desc"), limit=500)
    assert {e.entitlement_id for e in acme.items} == {
        e.entitlement_id for e in world.entitlements.values() if e.account_id == "101200004242"
    }
    created = [e.created for e in acme.items]
    assert created == sorted(created, reverse=True)  # type: ignore[type-var]
    with pytest.raises(ValueError):
        await svc.list(page=0)
    with pytest.raises(ValueError):
        await svc.list(limit=501)


async def test_iterate_everything(svc: EntitlementsService, world: World) -> None:
    seen = [e.entitlement_id async for page in svc.iterate(limit=20) for e in page]
    assert seen == sorted(world.entitlements)
    limited = [e async for page in svc.iterate(limit=20, max_items=25) for e in page]
    assert len(limited) == 25


async def test_list_page_is_cached(svc: EntitlementsService, session: Session) -> None:
    fresh = [p async for p in svc.list_page(page=2)]
    assert len(fresh) == 1 and fresh[0].age is None and fresh[0].number == 2
    sent = session.requests_sent
    again = [p async for p in svc.list_page(page=2)]
    assert len(again) == 1 and again[0].age is not None and session.requests_sent == sent
    assert [e.entitlement_id for e in again[0].items] == [e.entitlement_id for e in fresh[0].items]
    forced = [p async for p in svc.list_page(page=2, force=True)]
    assert [p.age is None for p in forced] == [False, True] and session.requests_sent == sent + 1


async def test_get(svc: EntitlementsService) -> None:
    ent = await svc.get("ENT-100003")
    assert ent.entitlement_id == "ENT-100003" and ent.line_item_count
    with pytest.raises(NotFound):
        await svc.get("ENT-NONE")


async def test_line_items_in_one_request(svc: EntitlementsService, session: Session, world: World) -> None:
    ent = max(world.entitlements.values(), key=lambda e: len(e.line_items))
    await svc.list()  # the first listing learns where the service's pages start; after it, one request per read
    sent = session.requests_sent
    page = await svc.line_items(ent.entitlement_id)
    assert session.requests_sent == sent + 1
    assert page.total == len(ent.line_items) == len(page.items)
    assert [li.activation_id for li in page.items] == [li.activation_id for li in ent.line_items]
    first = page.items[0]
    assert first.product is not None and first.product.product_name == ent.line_items[0].product.name
    assert first.state == ent.line_items[0].state and first.start_date == ent.line_items[0].start_date
    pages = [p async for p in svc.line_items_page(ent.entitlement_id)]
    assert len(pages) == 1 and session.requests_sent == sent + 1  # the fresh read was cached: no second request
    filtered = await svc.line_items(ent.entitlement_id, LineItemFilter(activation_id=first.activation_id))
    assert [li.activation_id for li in filtered.items] == [first.activation_id]
    with pytest.raises(NotFound):
        await svc.line_items("ENT-NONE")


async def test_create_flow(svc: EntitlementsService, world: World) -> None:
    spec = EntitlementCreate.model_validate(
        entitlement(entitlementId="ENT-FLOW-1", autoDeploy=True, lineItems=[line_item(activationId="ACT-FLOW-1")])
    )
    result = await svc.create(spec)
    assert result.status == "success" and result.entitlement_id == "ENT-FLOW-1" and result.activation_ids == ["ACT-FLOW-1"]
    assert result.entitlement is not None and result.entitlement.status == "DEPLOYED"
    assert world.entitlements["ENT-FLOW-1"].line_items[0].state == "DEPLOYED"
    listed = await svc.list(EntitlementFilter(activation_id="ACT-FLOW-1"))
    assert [e.entitlement_id for e in listed.items] == ["ENT-FLOW-1"]

    added = await svc.add_line_items(
        "ENT-FLOW-1", [LineItemCreate.model_validate(line_item(activationId="ACT-FLOW-2", isPermanent=True, expiryDate=None))]
    )
    assert added.activation_ids == ["ACT-FLOW-2"]
    policies = LineItemPolicies.model_validate({"returns": {"allowedCount": 1, "policyTermDuration": 30, "policyTermUnit": "days"}})
    configured = await svc.set_policies("ENT-FLOW-1", "ACT-FLOW-2", policies)
    assert configured.policies == {"returns": {"allowedCount": 1, "policyTermDuration": 30, "policyTermUnit": "Days"}}
    update = AdditionalProperties(
        lineItems=[LineItemProperties(activationId="ACT-FLOW-2", orderType="upgrade_order", parentActivationId="ACT-FLOW-1")]
    )
    updated = await svc.update_properties("ENT-FLOW-1", update)
    assert updated.activation_ids == ["ACT-FLOW-2"] and updated.response and updated.response["ACT-FLOW-2"]["status"] == "success"
    maintenance = MaintenanceLineItemCreate.model_validate(
        {
            "maintenanceProduct": {**GOLD, "partNumber": "MNT-GOLD-001"},
            "parentActivationId": "ACT-FLOW-1",
            "startDate": "2026-11-01",
            "expiryDate": "2027-11-01",
        }
    )
    added_m = await svc.add_maintenance_line_items("ENT-FLOW-1", [maintenance])
    assert len(added_m.activation_ids) == 1
    items = await svc.line_items("ENT-FLOW-1")
    assert [li.activation_id for li in items.items][:2] == ["ACT-FLOW-1", "ACT-FLOW-2"]
    assert items.items[1].order_type == "UPGRADE_ORDER" and items.items[1].parent_activation_id == "ACT-FLOW-1"
    assert items.items[1].policies["returns"]["policyTermUnit"] == "Days"
    assert items.items[2].maintenance and items.items[2].product.product_name == "Gold Support"  # type: ignore[union-attr]


async def test_several_products_and_typed_attribute_values_go_out_and_come_back(wire: Any) -> None:
    """A line item's `product` is a list and an attribute's value is "(object)" (text, a number, a list of texts):
    `Attribute.value: str` refused 12345 and ["a", "b"], and a second product was refused."""
    received, svc = wire
    two = [line_item()["product"][0], {"productName": "Nova Gateway", "productVersion": "2022.4"}]
    values = [{"name": "Seats", "value": 12345}, {"name": "Sites", "value": ["Berlin", "Paris"]}]
    item = LineItemCreate.model_validate(line_item(activationId="ACT-TWO-2", product=two, attributes=values))
    await svc.add_line_items("ENT-100001", [item])
    sent = received.to("POST", "/line-items")[-1].body["lineItems"][0]
    assert [p["productName"] for p in sent["product"]] == ["Flex Designer", "Nova Gateway"] and sent["attributes"] == values
    (read,) = (await svc.line_items("ENT-100001", LineItemFilter(activation_id="ACT-TWO-2"))).items
    assert unreadable(read) is None and [p.product_name for p in read.products] == ["Flex Designer", "Nova Gateway"]
    assert [(a.name, a.value) for a in read.attributes] == [("Seats", 12345), ("Sites", ["Berlin", "Paris"])]
    row = line_item_row(read)
    assert (row["product"], row["version"]) == ("Flex Designer; Nova Gateway", "2022.4; 2022.4")
    assert row["attributes"] == "Seats=12345; Sites=Berlin, Paris"
    # a licenseModel given needs its name ("licenseModelName (string, required)", …/lineitem/postlineitems.md)
    nameless = line_item(product=[{**two[0], "licenseModel": {"issuer": "FlexDemo"}}])
    assert "product[0].licenseModel.licenseModelName" in refused(LineItemCreate, nameless)


async def test_the_documented_maintenance_sample_goes_out_and_is_made(wire: Any, world: World) -> None:
    """The page's sample names the maintenance product by name, version and part number: all three go out as given."""
    received, svc = wire
    item = {"maintenanceProduct": {**GOLD, "partNumber": "MNT-GOLD-001"}, "startDate": "2026-11-01", "expiryDate": "2027-11-01"}
    result = await svc.add_maintenance_line_items("ENT-100002", [MaintenanceLineItemCreate.model_validate(item)])
    sent = received.to("POST", "/maintenance-line-items")[-1].body["maintenanceLineItems"][0]
    assert sent["maintenanceProduct"] == {**GOLD, "partNumber": "MNT-GOLD-001"}
    made = world.entitlements["ENT-100002"].line_items[-1]
    assert [made.activation_id] == result.activation_ids and made.product.name == "Gold Support" and made.maintenance


# -- the words on the wire ------------------------------------------------------------------------------


@pytest.fixture
async def wire(sim_app: Any) -> Any:
    """The simulator (strict, its default) noting every request it received, and a service on it."""
    received = Received(sim_app)
    session = make_session(received)
    yield received, EntitlementsService(session)
    await session.aclose()


async def test_policy_term_units_go_out_in_the_documented_spelling(wire: Any, world: World) -> None:
    """PolicyInput: "Valid types are Days, Weeks, Months, Years", sample "Days"
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/PolicyInput.md): any case typed, that spelling sent."""
    received, svc = wire
    assert LineItemPolicies(rehosts=PolicyTerm(allowedCount=2, policyTermDuration=30, policyTermUnit="Days")).body() == {
        "rehosts": {"allowedCount": 2, "policyTermDuration": 30, "policyTermUnit": "Days"}
    }
    ent = world.entitlements["ENT-100000"]
    activation = ent.line_items[0].activation_id
    for typed, sent in (("days", "Days"), ("DAYS", "Days"), ("Weeks", "Weeks"), ("MONTHS", "Months"), ("years", "Years")):
        policies = LineItemPolicies(returns=PolicyTerm(allowedCount=1, policyTermDuration=2, policyTermUnit=typed))
        answer = await svc.set_policies(ent.entitlement_id, activation, policies)
        arrived = received.to("PATCH", f"/line-items/{activation}/policies")[-1]
        assert arrived.body == {"returns": {"allowedCount": 1, "policyTermDuration": 2, "policyTermUnit": sent}}, typed
        assert answer.policies is not None and answer.policies["returns"]["policyTermUnit"] == sent


async def test_auto_generate_goes_out_true_without_an_id_and_false_with_one(wire: Any, world: World) -> None:
    """A blank ID went out with `"autoGenerate": false` and no ID: "If you specify false, it means you need to pass the
    ID value" (https://docs.revenera.com/fno_CURRENT/soapapi/ME-EntitlementOrderService-createSimpleEntitlement.htm).
    Now autoGenerate is `not id` on the entitlement and on every (maintenance) line item, and the simulator refuses
    false without an ID."""
    received, svc = wire
    await svc.create(EntitlementCreate.model_validate(entitlement(lineItems=[line_item(), line_item(activationId="ACT-AG-1")])))
    body = received.to("POST", "/v1/entitlement")[-1].body
    assert body["autoGenerate"] is True and "entitlementId" not in body
    assert [(li.get("activationId"), li["autoGenerate"]) for li in body["lineItems"]] == [(None, True), ("ACT-AG-1", False)]
    await svc.create(EntitlementCreate.model_validate(entitlement(entitlementId="ENT-AG-1")))
    assert received.to("POST", "/v1/entitlement")[-1].body["autoGenerate"] is False
    await svc.add_line_items("ENT-AG-1", [LineItemCreate.model_validate(line_item())])
    assert received.to("POST", "/ENT-AG-1/line-items")[-1].body["lineItems"][0]["autoGenerate"] is True
    maintenance = {
        "maintenanceProduct": {"maintenanceProductName": "Gold Support", "maintenanceProductVersion": "1.0"},
        "startDate": "2026-11-01",
        "isPermanent": True,
    }
    await svc.add_maintenance_line_items("ENT-AG-1", [MaintenanceLineItemCreate.model_validate(maintenance)])
    assert received.to("POST", "/maintenance-line-items")[-1].body["maintenanceLineItems"][0]["autoGenerate"] is True
    assert len(world.entitlements["ENT-AG-1"].line_items) == 3
    # false with no ID: refused before sending, on the ID's field, as the simulator refuses it
    assert "lineItems[0].activationId" in refused(EntitlementCreate, entitlement(lineItems=[line_item(autoGenerate=False)]))
    assert "entitlementId" in refused(EntitlementCreate, entitlement(autoGenerate=False))
    assert "activationId" in refused(MaintenanceLineItemCreate, {**maintenance, "autoGenerate": False})


async def test_status_filters_go_out_as_the_words_documented(wire: Any, world: World) -> None:
    """Seed 002 §3: the entitlement list filter names draft, deployed, obsolete "and also … active, inactive and
    obsoleted" (the GraphQL State enum has OBSOLETED, no OBSOLETE): each goes out as the word it is, in lower case."""
    received, svc = wire
    for typed, sent in (("obsoleted", "obsoleted"), ("OBSOLETED", "obsoleted"), ("Obsolete", "obsolete"), ("ACTIVE", "active")):
        await svc.list(EntitlementFilter(status=typed))
        assert received.to("GET", "/entitlements")[-1].query["status"] == [sent], typed
    obsolete = {e.entitlement_id for e in world.entitlements.values() if e.status == "OBSOLETE"}
    assert obsolete and {e.entitlement_id for e in (await svc.list(EntitlementFilter(status="obsoleted"), limit=500)).items} == obsolete
    ent = next(e for e in world.entitlements.values() if any(li.state == "OBSOLETE" for li in e.line_items))
    items = await svc.line_items(ent.entitlement_id, LineItemFilter(status="Obsolete"))
    assert received.to("GET", "/line-items")[-1].query["status"] == ["obsolete"] and items.items
    # the line-item filter's documented words are draft, deployed, obsolete: the strict server refuses obsoleted itself
    with pytest.raises(Invalid) as refusal:
        await svc.line_items(ent.entitlement_id, LineItemFilter(status="obsoleted"))
    assert received.to("GET", "/line-items")[-1].query["status"] == ["obsoleted"] and refusal.value.field == "status"


async def test_server_side_errors_name_the_field(svc: EntitlementsService, world: World) -> None:
    unknown = EntitlementCreate.model_validate(
        entitlement(lineItems=[line_item(product=[{"productName": "Flex Designer", "productVersion": "1999.1"}])])
    )
    with pytest.raises(Invalid) as invalid:
        await svc.create(unknown)
    assert invalid.value.field == "lineItems[0].product[0].productName" and "1999.1" in invalid.value.message
    taken = EntitlementCreate.model_validate(entitlement(entitlementId="ENT-100000"))
    with pytest.raises(Conflict) as conflict:
        await svc.create(taken)
    assert conflict.value.field == "entitlementId"
    with pytest.raises(NotFound):
        await svc.set_policies("ENT-100000", "ACT-NONE", LineItemPolicies(extraActivations=1))


async def test_read_only_profile_sends_nothing(read_only: Session) -> None:
    svc = EntitlementsService(read_only)
    spec = EntitlementCreate.model_validate(entitlement())
    calls = [
        svc.create(spec),
        svc.add_line_items("ENT-100000", [LineItemCreate.model_validate(line_item())]),
        svc.set_policies("ENT-100000", "A", LineItemPolicies(extraActivations=1)),
        svc.update_properties("ENT-100000", AdditionalProperties(lineItems=[LineItemProperties(activationId="A", deploy=True)])),
        svc.add_maintenance_line_items(
            "ENT-100000",
            [MaintenanceLineItemCreate.model_validate({"maintenanceProduct": GOLD, "startDate": "2026-01-01", "isPermanent": True})],
        ),
    ]
    for call in calls:
        with pytest.raises(ReadOnly):
            await call
    assert read_only.requests_sent == 0
    read_only.page_bases.learn(Service.ENTITLEMENTS, 1)  # known; detecting it is tested with the dialects
    page = await svc.list()  # reads still work
    assert page.items and read_only.requests_sent == 1


# -- per-item results: every documented form, every failure said ------------------------------------------


def answering(body: Any, status: int = 201) -> EntitlementsService:
    """The service on a fake transport that answers every request with `body` (JSON) and `status`."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json=body)

    session = Session(
        "https://fno.example",
        credentials=Credentials("ops@acme.example", "pw", "rna_fake_token_0123456789"),
        user="ops@acme.example",
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(attempts=1),
    )
    return EntitlementsService(session)


NOT_DEPLOYED = "Product P version 1 is not deployed"


async def test_a_failed_response_item_is_a_failure_naming_it() -> None:
    """LineItemResponse `{"responseItems": [{activationId, errorMsg, status}]}`
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/LineItemResponseItem): an item whose status says
    FAILURE was returned as success ("0 line items added to ENT-1")."""
    svc = answering({"responseItems": [{"activationId": "ACT-1", "status": "FAILURE", "errorMsg": NOT_DEPLOYED}]})
    with pytest.raises(ItemsFailed) as failed:
        await svc.add_line_items("ENT-1", [LineItemCreate.model_validate(line_item(activationId="ACT-1"))])
    assert not failed.value.partial, "nothing was done: the form keeps what was typed"
    assert failed.value.failures == [f"ACT-1: {NOT_DEPLOYED}"]
    assert NOT_DEPLOYED in str(failed.value) and "1 of 1 failed" in str(failed.value)


async def test_a_partial_failure_is_never_a_success() -> None:
    svc = answering(
        {
            "status": "PARTIAL_FAILURE",
            "responseItems": [
                {"activationId": "ACT-9", "status": "SUCCESS"},
                {"activationId": None, "status": "FAILURE", "errorMsg": NOT_DEPLOYED},
            ],
        }
    )
    items = [LineItemCreate.model_validate(line_item()), LineItemCreate.model_validate(line_item())]
    with pytest.raises(ItemsFailed) as failed:
        await svc.add_line_items("ENT-1", items)
    assert failed.value.partial, "ACT-9 was made: sending the same items again would make it twice"
    result = failed.value.result
    assert result.activation_ids == ["ACT-9"], "the IDs made, from responseItems (no activationIds in the answer)"
    assert result.failures == [f"line item 2 (Flex Designer 2022.4): {NOT_DEPLOYED}"], "named by its place: it has no ID"
    assert "(done: ACT-9)" in str(failed.value)


async def test_the_response_list_of_index_and_result_is_read() -> None:
    """LineItemGraphQLResponse `{"response": [LineItemResultEntry]}` (the same page): a list in `response`, typed as a
    map, made the whole answer unreadable and the failure was lost."""
    svc = answering(
        {
            "response": [
                {"index": 1, "result": {"activationId": "ACT-B", "status": "SUCCESS", "errorMsg": None}},
                {"index": 0, "result": {"activationId": None, "status": "FAILURE", "errorMsg": NOT_DEPLOYED}},
            ]
        }
    )
    spec = EntitlementCreate.model_validate(entitlement(lineItems=[line_item(), line_item(activationId="ACT-B")]))
    with pytest.raises(ItemsFailed) as failed:
        await svc.create(spec)
    result = failed.value.result
    assert unreadable(result) is None and result.activation_ids == ["ACT-B"]
    assert result.failures == [f"line item 1 (Flex Designer 2022.4): {NOT_DEPLOYED}"], "named by the index the answer gives"
    # every item done, in that form: a success with its IDs
    done = await answering({"response": [{"index": 0, "result": {"activationId": "ACT-C", "status": "SUCCESS"}}]}).add_line_items(
        "ENT-1", [LineItemCreate.model_validate(line_item())]
    )
    assert done.activation_ids == ["ACT-C"] and not done.failed


async def test_a_partial_failure_status_without_items_is_not_a_success() -> None:
    svc = answering({"status": "PARTIAL_FAILURE"})
    with pytest.raises(ItemsFailed) as failed:
        await svc.add_line_items("ENT-1", [LineItemCreate.model_validate(line_item())])
    assert failed.value.partial and "PARTIAL_FAILURE" in str(failed.value)
    with pytest.raises(ApiError) as refused_all:
        await answering({"status": "FAILURE", "message": "nope"}).add_line_items("ENT-1", [LineItemCreate.model_validate(line_item())])
    assert "FAILURE: nope" in str(refused_all.value) and not isinstance(refused_all.value, ItemsFailed)
    ok = await answering({"status": "SUCCESS"}).add_line_items("ENT-1", [LineItemCreate.model_validate(line_item())])
    assert ok.status == "SUCCESS" and not ok.failed, "the documented {status} answer is still a success"


async def test_the_simulator_fails_an_item_whose_product_is_not_deployed(wire: Any, world: World) -> None:
    """ "There must be deployed products and license models" (SOAP createSimpleEntitlement): the simulator fails that
    item on its own, makes the others, and says PARTIAL_FAILURE; with none made, FAILURE and nothing created."""
    received, svc = wire
    draft = next(p for p in catalogue(world).products.values() if p.state != "DEPLOYED").sim
    bad = line_item(product=[{"productName": draft.name, "productVersion": draft.version}])
    ent = world.entitlements["ENT-100001"]
    before = len(ent.line_items)
    items = [LineItemCreate.model_validate(line_item(activationId="ACT-PF-1")), LineItemCreate.model_validate(bad)]
    with pytest.raises(ItemsFailed) as failed:
        await svc.add_line_items("ENT-100001", items)
    assert failed.value.partial and failed.value.result.activation_ids == ["ACT-PF-1"]
    assert [li.activation_id for li in ent.line_items[before:]] == ["ACT-PF-1"]
    (failure,) = failed.value.failures
    assert failure.startswith(f"line item 2 ({draft.name} {draft.version}): Product {draft.name} version {draft.version} is not deployed")
    count = len(world.entitlements)
    with pytest.raises(ItemsFailed) as none_made:
        await svc.create(EntitlementCreate.model_validate(entitlement(lineItems=[bad])))
    assert not none_made.value.partial and len(world.entitlements) == count, "no entitlement without its line items"
    made = EntitlementCreate.model_validate(entitlement(lineItems=[line_item(), bad]))
    with pytest.raises(ItemsFailed) as partly:
        await svc.create(made)
    assert partly.value.partial and len(world.entitlements) == count + 1
    assert len(world.entitlements[partly.value.result.entitlement_id or ""].line_items) == 1
