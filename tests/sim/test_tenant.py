"""What the world defines as the tenant: seeded access tokens, custom attributes, license technologies.

Plus the simulator's own rule functions where a unit test says more than an
HTTP round trip (lifetimes, secret strength, documented enums).
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from flextui.sim import rules
from flextui.sim.app import SIM_BASE_URL, in_process_transport
from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, CUSTOMER, PRODUCER, SEED_TOKEN_NAMES, World

from ..conftest import BETA_PREFIXES, FIXED_NOW_MS, sim_auth

TOKENS = "/flexnet/uar/v1"
ENTITLEMENTS = "/entitlements-api/v1"
PRODUCTS = "/products-api/v1"


async def call(
    app: Any, method: str, path: str, *, user: tuple[str, str] | None = ADMIN, bearer: str | None = None, **kwargs: Any
) -> httpx.Response:
    """A request as `user` the way a seeded user signs in (`sim_auth`: the seeded access token for the
    beta APIs, which take nothing else by default; Basic elsewhere), or with `bearer`.

    `sim_auth` issues the seeded token, so it is only built for a beta path: elsewhere the token
    stays unissued until a test asks for it (test_seed_token_is_listed_and_signs_in).
    """
    auth: httpx.Auth | None = None
    if user and not bearer:
        auth = sim_auth(app, user) if path.startswith(BETA_PREFIXES) else httpx.BasicAuth(*user)
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    async with httpx.AsyncClient(transport=in_process_transport(app), base_url=SIM_BASE_URL, auth=auth, headers=headers) as client:
        return await client.request(method, path, **kwargs)


def entitlement(attributes: list[dict[str, str]]) -> dict[str, Any]:
    item = {"product": [{"productName": "Flex Designer", "productVersion": "2022.4"}], "startDate": "2026-11-01", "isPermanent": True}
    return {"lineItems": [item], "attributes": attributes}


# -- seeded access tokens -----------------------------------------------------------------------------


def test_seed_tokens_are_derived_from_the_seed() -> None:
    one, same, other = World(seed=7), World(seed=7), World(seed=8)
    values = {user: one.seed_token(user) for user in (ADMIN[0], PRODUCER[0], CUSTOMER[0])}
    assert all(re.fullmatch(r"rna_[0-9a-f]{44}", v) for v in values.values())
    assert len(set(values.values())) == 3
    assert values[ADMIN[0]] == same.seed_token(ADMIN[0]) != other.seed_token(ADMIN[0])
    with pytest.raises(KeyError, match="no seeded access token"):
        one.seed_token("nobody@example.com")


async def test_seed_token_is_listed_and_signs_in(world: World, sim_app: Any) -> None:
    before = await call(sim_app, "GET", f"{TOKENS}/tokens", params={"username": ADMIN[0]})
    assert SEED_TOKEN_NAMES[ADMIN[0]] not in [t["tokenName"] for t in before.json()["responseObject"]], "issued when first asked for"
    value = world.seed_token(ADMIN[0])  # the token store is built already: the token joins it now
    listed = await call(sim_app, "GET", f"{TOKENS}/tokens", bearer=value, params={"username": ADMIN[0]})
    assert listed.status_code == 200
    mine = next(t for t in listed.json()["responseObject"] if t["tokenName"] == "flextui-demo-admin")
    assert (mine["tokenType"], mine["tokenCreator"], mine["expiryStr"]) == ("NORMAL", ADMIN[0], "1y")
    assert mine["tokenExpiryMillis"] > FIXED_NOW_MS + 300 * 86_400_000 and "tokenValue" not in mine
    verified = await call(sim_app, "POST", f"{TOKENS}/token/verification", json={"accessToken": value})
    assert verified.json()["responseObject"]["tokenName"] == "flextui-demo-admin"
    assert (await call(sim_app, "GET", f"{ENTITLEMENTS}/entitlements", bearer=value)).status_code == 200
    assert world.seed_token(ADMIN[0]) == value and list(token_store(world).by_name).count("flextui-demo-admin") == 1


def test_seed_token_asked_before_the_token_store_exists() -> None:
    world = World(seed=7)
    value = world.seed_token(CUSTOMER[0])
    store = token_store(world)
    token = store.by_name["flextui-demo-customer"]
    assert token.value == value and token.username == CUSTOMER[0]
    assert store.user_for_value(value) is world.users[CUSTOMER[0]]
    assert "flextui-demo-producer" not in store.by_name


# -- custom attributes --------------------------------------------------------------------------------


async def test_region_is_the_tenants_mandatory_attribute(world: World, sim_app: Any) -> None:
    mandatory = [d.name for d in world.attribute_definitions if d.mandatory]
    assert mandatory == ["REGION"]
    for spelling in ("REGION", "Region", "region"):
        response = await call(sim_app, "POST", f"{ENTITLEMENTS}/entitlement", json=entitlement([{"name": spelling, "value": "EMEA"}]))
        assert response.status_code == 201, response.text
        assert world.entitlements[response.json()["entitlementId"]].attributes == {spelling: "EMEA"}, "kept as given"
    missing = await call(sim_app, "POST", f"{ENTITLEMENTS}/entitlement", json=entitlement([{"name": "SalesOrder", "value": "SO-1"}]))
    body = missing.json()
    assert missing.status_code == 400 and body["field"] == "attributes[REGION]"
    assert "mandatory custom attribute REGION" in body["message"]


async def test_the_tenant_decides_which_attributes_are_mandatory(world: World, sim_app: Any) -> None:
    world.attribute_definitions = [rules.AttributeDefinition("COST_CENTRE", "entitlement", mandatory=True)]
    refused = await call(sim_app, "POST", f"{ENTITLEMENTS}/entitlement", json=entitlement([{"name": "REGION", "value": "EMEA"}]))
    assert refused.status_code == 400 and refused.json()["field"] == "attributes[COST_CENTRE]"
    accepted = await call(sim_app, "POST", f"{ENTITLEMENTS}/entitlement", json=entitlement([{"name": "cost_centre", "value": "CC-1"}]))
    assert accepted.status_code == 201, accepted.text
    world.attribute_definitions = []
    assert (await call(sim_app, "POST", f"{ENTITLEMENTS}/entitlement", json=entitlement([]))).status_code == 201


# -- license technologies -----------------------------------------------------------------------------


async def test_license_technologies_are_the_tenants(world: World, sim_app: Any) -> None:
    assert [t.name for t in world.license_technologies] == ["FlexNet Licensing", "FlexNet Embedded", "Custom Licensing"]
    world.license_technologies.append(rules.LicenseTechnology("Dongle Magic", ("Dongle Forge", "Dongle Lite")))
    product = {"productName": "Quartz Modeler", "version": "1.0", "licenseTechnology": "dongle magic", "usedOnDevice": True}
    created = await call(sim_app, "POST", f"{PRODUCTS}/products", json=product)
    assert created.status_code == 201, created.text
    shown = created.json()["product"]
    assert (shown["licenseTechnology"], shown["licenseGenerator"], shown["usedOnDevice"], shown["hostType"]) == (
        "Dongle Magic",
        "Dongle Forge",
        False,
        None,
    )
    lite = await call(sim_app, "POST", f"{PRODUCTS}/products", json={**product, "version": "2.0", "licenseGenerator": "Dongle Lite"})
    assert lite.json()["product"]["licenseGenerator"] == "Dongle Lite"
    wrong = await call(
        sim_app, "POST", f"{PRODUCTS}/products", json={**product, "version": "3.0", "licenseGenerator": "FlexNet Embedded Generator"}
    )
    assert wrong.status_code == 400 and wrong.json()["field"] == "licenseGenerator"
    unknown = await call(sim_app, "POST", f"{PRODUCTS}/products", json={**product, "version": "4.0", "licenseTechnology": "Sentinel Keys"})
    assert unknown.status_code == 400 and unknown.json()["field"] == "licenseTechnology"
    assert "Sentinel Keys" in unknown.json()["message"] and "Dongle Magic" in unknown.json()["message"]


# -- rule functions -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "end"),
    [("10m", FIXED_NOW_MS + 600_000), ("1d", FIXED_NOW_MS + 86_400_000), ("3y 4M 3d", None), ("1y2M3d4h5m", None)],
)
def test_lifetimes(text: str, end: int | None) -> None:
    life = rules.parse_lifetime(text)
    if end is not None:
        assert life.end_ms(FIXED_NOW_MS) == end


def test_lifetime_months_clamp_to_the_month_end() -> None:
    jan31 = 1_706_659_200_000  # 2024-01-31T00:00:00Z
    assert rules.parse_lifetime("1M").end_ms(jan31) == 1_709_164_800_000  # 2024-02-29


@pytest.mark.parametrize("text", ["", "3Y", "0d", "5", "1w", "1m1d", "1d1d", "99999y", "1234567890d", None, 30])
def test_lifetimes_refused(text: Any) -> None:
    with pytest.raises(ValueError):
        rules.parse_lifetime(text)


def test_secret_weaknesses() -> None:
    assert rules.secret_weaknesses("Sturdy-Secret-9") == []
    assert rules.secret_weaknesses("short") == ["at least 8 characters (it has 5)", "at least one uppercase letter", "at least one digit"]


def test_documented_enums_strict_and_lenient() -> None:
    assert rules.ORDER_TYPE.read("NEW_ORDER") == rules.ORDER_TYPE.read("new_order", strict=True) == "NEW_ORDER"
    with pytest.raises(ValueError, match="exactly as documented"):
        rules.ORDER_TYPE.read("NEW_ORDER", strict=True)
    assert rules.ENTITLEMENT_STATUS_FILTER.read("OBSOLETED") == "OBSOLETE"
    assert rules.USER_STATUS.read("active") == "Active"
    with pytest.raises(ValueError):
        rules.ACCOUNT_LIST_TYPE.read("UNKNOWN", strict=True)
