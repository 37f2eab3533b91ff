"""The simulated products and packaging service (seed 002), driven over HTTP in process.

The ten product-creation rules of the seed and the feature and part-number
rules of the notes, each with good and bad input. `BAD_PRODUCTS` and
`BAD_FEATURES` are shared with tests/api/test_products.py, which feeds the
same bodies to the client models and expects the same field paths.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from flextui.sim.app import SIM_BASE_URL, in_process_transport
from flextui.sim.products import catalogue
from flextui.sim.world import ADMIN, CUSTOMER, World

from ..beta_fixtures import Change, _beta_only, _with, _without  # noqa: F401  (fixtures)
from ..conftest import sim_auth

BASE = "/products-api/v1"


def product(**extra: Any) -> dict[str, Any]:
    return {"productName": "Quartz Modeler", "version": "1.0", **extra}


def feature(**extra: Any) -> dict[str, Any]:
    return {"featureName": "MODELER_CORE", "versionFormat": "FIXED", "version": "1.0", **extra}


# (case id, change to a valid product body, field path). Shared with the client tests.
BAD_PRODUCTS: list[tuple[str, Change, str]] = [
    ("name-missing", _without("productName"), "productName"),
    ("name-blank", _with(productName="  "), "productName"),
    ("name-too-long", _with(productName="P" * 129), "productName"),  # "Maximum length: 128 characters"
    ("version-missing", _without("version"), "version"),
    ("version-too-long", _with(version="1" * 65), "version"),
    ("description-too-long", _with(description="d" * 2001), "description"),
    ("technology-unknown", _with(licenseTechnology="Dongle Magic"), "licenseTechnology"),
    ("generator-wrong", _with(licenseGenerator="Custom Key Generator"), "licenseGenerator"),
    ("start-date-format", _with(startDate="2026/01/01"), "startDate"),
    ("end-date-not-in-calendar", _with(endDate="2026-04-31"), "endDate"),
    ("end-before-start", _with(startDate="2026-05-01", endDate="2026-04-30"), "endDate"),
    ("upgrade-template-unknown", _with(upgradeEmailTemplate="weekly"), "upgradeEmailTemplate"),
    ("feature-name-characters", _with(features=[{"name": "BAD NAME"}]), "features[0].name"),
    ("feature-name-too-long", _with(features=[{"name": "F" * 31}]), "features[0].name"),
    ("feature-name-missing", _with(features=[{"version": "1.0"}]), "features[0].name"),
    ("feature-count-zero", _with(features=[{"name": "DESIGNER_PRO", "count": 0}]), "features[0].count"),
    ("bundle-name-missing", _with(featureBundles=[{"count": 1}]), "featureBundles[0].name"),
    ("bundle-count-zero", _with(featureBundles=[{"name": "DESIGNER_BUNDLE", "count": 0}]), "featureBundles[0].count"),
    ("host-type-blank", _with(hostTypes=["  "]), "hostTypes[0]"),
    ("host-type-twice", _with(hostTypes=["Server", "Server"]), "hostTypes[1]"),
    ("part-number-characters", _with(partNumbers=["PN#1"]), "partNumbers[0]"),
    ("part-number-only-spaces", _with(partNumbers=["   "]), "partNumbers[0]"),
    ("part-number-too-long", _with(partNumbers=["P" * 201]), "partNumbers[0]"),
    ("part-number-twice", _with(partNumbers=["PN-NEW-1", "PN-NEW-1"]), "partNumbers[1]"),
    ("quantity-per-copy-zero", _with(quantityPerCopy=0), "quantityPerCopy"),
    ("used-on-device-not-bool", _with(usedOnDevice="yes"), "usedOnDevice"),
]

BAD_FEATURES: list[tuple[str, Change, str]] = [
    ("name-missing", _without("featureName"), "featureName"),
    ("name-empty", _with(featureName=""), "featureName"),
    ("name-too-long", _with(featureName="F" * 31), "featureName"),
    ("name-characters", _with(featureName="MY.FEATURE"), "featureName"),
    ("format-missing", _without("versionFormat"), "versionFormat"),
    ("format-unknown", _with(versionFormat="SEMVER"), "versionFormat"),
    ("version-too-long", _with(version="9" * 65), "version"),
    ("max-version-pattern", _with(maxVersion="2023-10-15"), "maxVersion"),
    ("max-version-short", _with(maxVersion="23.10"), "maxVersion"),
    ("aggregation-unknown", _with(aggregationType="AVG"), "aggregationType"),
    ("description-too-long", _with(description="d" * 2001), "description"),
    ("vendor-string-too-long", _with(featureOverrideParams={"vendorString": "v" * 256}), "featureOverrideParams.vendorString"),
    ("counted-unknown", _with(featureOverrideParams={"counted": "Maybe"}), "featureOverrideParams.counted"),
]

# Names the pages do not give, which the client used to send: the simulator refuses them, naming the field
# (its docstring says why). (case id, path, body, field path).
UNDOCUMENTED_NAMES: list[tuple[str, str, dict[str, Any], str]] = [
    ("product-feature-featureName", "/products", product(features=[{"featureName": "DESIGNER_PRO"}]), "features[0].featureName"),
    (
        "product-bundle-featureBundleName",
        "/products",
        product(featureBundles=[{"featureBundleName": "DESIGNER_BUNDLE"}]),
        "featureBundles[0].featureBundleName",
    ),
    (
        "bundle-feature-count",
        "/feature-bundles",
        {"featureBundleName": "B", "features": [{"featureName": "DESIGNER_PRO", "count": 2}]},
        "features[0].count",
    ),
    ("feature-vendorString-at-the-top", "/features", feature(vendorString="VS"), "vendorString"),
]


class Api:
    def __init__(self, app: Any) -> None:
        self.app = app
        self._clients: list[httpx.AsyncClient] = []

    async def req(self, method: str, path: str, *, user: tuple[str, str] = ADMIN, **kwargs: Any) -> httpx.Response:
        client = httpx.AsyncClient(transport=in_process_transport(self.app), base_url=SIM_BASE_URL, auth=sim_auth(self.app, user))
        self._clients.append(client)
        return await client.request(method, path if path.startswith("/entitlements") else BASE + path, **kwargs)

    async def ok(self, method: str, path: str, status: int = 200, **kwargs: Any) -> dict[str, Any]:
        response = await self.req(method, path, **kwargs)
        assert response.status_code == status, response.text
        return response.json()

    async def names(self, path: str, key: str, field: str, **params: Any) -> list[Any]:
        body = await self.ok("GET", path, params={"limit": 500, **params})
        return [item[field] for item in body[key]]

    async def refused(self, method: str, path: str, status: int, field: str | None, **kwargs: Any) -> dict[str, Any]:
        response = await self.req(method, path, **kwargs)
        assert response.status_code == status, response.text
        body = response.json()
        assert body["status"] == "error"
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


# -- lists ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "key", "size"),
    [
        ("/products", "productList", lambda c: len(c.products)),
        ("/maintenance", "maintenanceList", lambda c: len(c.maintenance)),
        ("/part-numbers", "partNumbers", lambda c: len(c.part_numbers)),
        ("/features", "features", lambda c: len(c.features)),
        ("/feature-bundles", "featureBundles", lambda c: len(c.bundles)),
        ("/suites", "suiteList", lambda c: len(c.suites)),
    ],
)
async def test_list_envelopes_and_paging(api: Api, world: World, path: str, key: str, size: Callable[[Any], int]) -> None:
    total = size(catalogue(world))
    first = await api.ok("GET", path, params={"limit": 2})
    assert first["status"] == "success" and first["message"]
    assert first["pagination"]["page"] == 1 and first["pagination"]["limit"] == 2 and first["pagination"]["total"] == total
    assert len(first[key]) == min(2, total)
    everything = (await api.ok("GET", path, params={"limit": 500}))[key]
    assert len(everything) == total
    second = await api.ok("GET", path, params={"limit": 2, "page": 2})
    assert second[key] == everything[2:4]
    await api.refused("GET", path, 400, "page", params={"page": 0})
    await api.refused("GET", path, 400, "limit", params={"limit": 1000})
    await api.refused("GET", path, 400, "sort_by", params={"sort_by": "colour"})
    await api.refused("GET", path, 400, "sort_order", params={"sort_order": "sideways"})


async def test_product_list_filters_and_sorting(api: Api, world: World) -> None:
    names = await api.names("/products", "productList", "productName")
    assert names == sorted(names, key=str.lower)
    assert await api.names("/products", "productList", "productName", sort_order="desc") == sorted(names, key=str.lower, reverse=True)
    p = world.products[0]
    assert set(await api.names("/products", "productList", "productName", productName=p.name.lower())) == {p.name}
    assert await api.names("/products", "productList", "version", productName=p.name, version=p.version) == [p.version]
    assert await api.names("/products", "productList", "productName", partNumber=p.part_number) == [p.name]
    with_feature = await api.names("/products", "productList", "productName", featureName=p.features[0][0].lower())
    assert p.name in with_feature
    cat = catalogue(world)
    for state in ("deployed", "DRAFT"):
        assert len(await api.names("/products", "productList", "productName", state=state)) == sum(
            1 for x in cat.products.values() if x.state == state.upper()
        )
    embedded = await api.ok("GET", "/products", params={"licenseTechnology": "flexnet embedded", "limit": 500})
    assert all(x["licenseTechnology"] == "FlexNet Embedded" for x in embedded["productList"])
    created = await api.names("/products", "productList", "creationDate", sort_by="creationDate")
    assert created == sorted(created)
    await api.refused("GET", "/products", 400, "state", params={"state": "shiny"})
    await api.refused("GET", "/products", 400, "creationDate", params={"creationDate": "yesterday"})


async def test_part_number_filters(api: Api, world: World) -> None:
    cat = catalogue(world)
    unmapped = await api.names("/part-numbers", "partNumbers", "partNumber", unmappedWithProduct="true")
    assert unmapped == sorted(pn for pn, x in cat.part_numbers.items() if x.owner is None)
    mapped = await api.names("/part-numbers", "partNumbers", "partNumber", unmappedWithProduct="FALSE")
    assert len(mapped) + len(unmapped) == len(cat.part_numbers)
    no_model = await api.names("/part-numbers", "partNumbers", "partNumber", unmappedWithLicenseModel="true")
    assert no_model == sorted(pn for pn, x in cat.part_numbers.items() if x.license_model is None)
    assert await api.names("/part-numbers", "partNumbers", "partNumber", partNumber="spare-000") == sorted(
        pn for pn in cat.part_numbers if "SPARE-000" in pn
    )
    p = world.products[0]
    assert p.part_number in await api.names("/part-numbers", "partNumbers", "partNumber", productName=p.name)
    trials = await api.ok("GET", "/part-numbers", params={"licenseModel": "trial", "limit": 500})
    assert trials["partNumbers"] and all(x["licenseModel"] == "Trial" for x in trials["partNumbers"])
    assert await api.names("/part-numbers", "partNumbers", "partNumber", creationDate="2099-01-01") == []
    assert len(await api.names("/part-numbers", "partNumbers", "partNumber", creationDate="2000-01-01T00:00:00Z")) == len(cat.part_numbers)
    by_model = await api.names("/part-numbers", "partNumbers", "licenseModel", sort_by="licenseModel", sort_order="desc")
    assert by_model == sorted(by_model, key=lambda m: m or "", reverse=True)
    await api.refused("GET", "/part-numbers", 400, "unmappedWithProduct", params={"unmappedWithProduct": "maybe"})


async def test_feature_bundle_maintenance_suite_filters(api: Api, world: World) -> None:
    cat = catalogue(world)
    dated = await api.ok("GET", "/features", params={"versionFormat": "DATEBASED", "limit": 500})
    assert dated["features"] and all(f["versionFormat"] == "DATEBASED" for f in dated["features"])
    drafts = await api.names("/features", "features", "state", state="DRAFT")
    assert set(drafts) == {"DRAFT"}
    assert set(await api.names("/features", "features", "version", name="designer_core")) == {"1.0", "2.0"}
    assert await api.names("/features", "features", "version", name="DESIGNER_CORE", version="2.0") == ["2.0"]
    await api.refused("GET", "/features", 400, "versionFormat", params={"versionFormat": "ROMAN"})
    bundle = next(iter(cat.bundles.values()))
    assert bundle.name in await api.names("/feature-bundles", "featureBundles", "featureBundleName", featureName=bundle.features[0][0])
    assert await api.names("/maintenance", "maintenanceList", "productName", productName="gold") == ["Gold Support"]
    assert await api.names("/maintenance", "maintenanceList", "productName", partNumber="MNT-PLAT-002") == ["Platinum Support"]
    suite = next(iter(cat.suites.values()))
    assert await api.names("/suites", "suiteList", "suiteName", partNumber=suite.part_numbers[0]) == [suite.name]
    assert suite.name in await api.names("/suites", "suiteList", "suiteName", suiteName=suite.name.lower(), usedOnDevice="false")
    assert await api.names("/suites", "suiteList", "suiteName", usedOnDevice="true") == []
    assert set(await api.names("/suites", "suiteList", "state", state="draft")) <= {"DRAFT"}
    created = await api.names("/suites", "suiteList", "creationDate", sort_by="createdOn", sort_order="desc")
    assert created == sorted(created, reverse=True)


async def test_get_suite(api: Api, world: World) -> None:
    suite = next(iter(catalogue(world).suites.values()))
    body = await api.ok("GET", f"/suites/{suite.name}/{suite.version}")
    assert body["suite"]["suiteName"] == suite.name
    assert [p["productName"] for p in body["suite"]["products"]] == [p[0] for p in suite.products]
    await api.refused("GET", "/suites/No Such Suite/1.0", 404, None)


# -- creating products ------------------------------------------------------------------------------


async def test_create_product_defaults(api: Api, world: World) -> None:
    body = await api.ok("POST", "/products", 201, json=product())
    created = body["product"]
    assert body["status"] == "success"
    assert created["licenseTechnology"] == "FlexNet Licensing"  # rule 2
    assert created["licenseGenerator"] == "FlexNet Licensing Generator"  # rule 3
    assert created["productCategory"] == "Uncategorized Products"  # rule 4
    assert created["hostType"] == "Certificate or Trusted Host"  # rule 6
    assert created["state"] == "DRAFT" and created["upgradeEmailTemplate"] == "default"
    listed = await api.names("/products", "productList", "productName", productName="quartz modeler")
    assert listed == ["Quartz Modeler"]
    assert world.products[-1].name != "Quartz Modeler"  # the world's list is not changed


async def test_create_product_with_everything(api: Api, world: World) -> None:
    spare = "PN-SPARE-0000"
    bundle = next(iter(catalogue(world).bundles))
    body = product(
        description="Modeling",
        licenseTechnology="flexnet licensing",
        licenseGenerator="FlexNet Licensing Generator",
        productCategory="Design Tools",
        features=[{"name": "DESIGNER_PRO"}, {"name": "DESIGNER_CORE", "version": "2.0", "count": 2}],
        featureBundles=[{"name": bundle, "count": 3}],
        licenseModels=["subscription", "Trial"],
        partNumbers=["PN-QM-1", spare],
        startDate="2026-01-01",
        endDate="2026-01-01",
        upgradeEmailTemplate="none",
        quantityPerCopy=2,
        hostTypes=["Server", "FlexNet Server"],
    )
    created = (await api.ok("POST", "/products", 201, json=body))["product"]
    assert created["features"] == [
        {"name": "DESIGNER_PRO", "version": "1.0", "count": 1},
        {"name": "DESIGNER_CORE", "version": "2.0", "count": 2},
    ]
    assert created["featureBundles"] == [{"name": bundle, "count": 3}]
    assert created["licenseModels"] == ["Subscription", "Trial"] and created["hostTypes"] == ["Server", "FlexNet Server"]
    assert created["upgradeEmailTemplate"] == "none" and created["partNumbers"] == ["PN-QM-1", spare]
    cat = catalogue(world)
    assert cat.part_numbers["PN-QM-1"].owner == ("Quartz Modeler", "1.0")
    assert cat.part_numbers[spare].owner == ("Quartz Modeler", "1.0")  # an unmapped part number gets mapped
    assert "PN-QM-1" not in await api.names("/part-numbers", "partNumbers", "partNumber", unmappedWithProduct="true")


async def test_used_on_device_rules(api: Api) -> None:
    device = (await api.ok("POST", "/products", 201, json=product(usedOnDevice=True)))["product"]
    assert device["usedOnDevice"] is True and device["hostType"] is None  # rule 6 needs usedOnDevice false
    custom = (await api.ok("POST", "/products", 201, json=product(version="2.0", licenseTechnology="Custom Licensing", usedOnDevice=True)))[
        "product"
    ]
    assert custom["usedOnDevice"] is False  # rule 9: ignored for custom technologies
    assert custom["licenseGenerator"] == "Custom Key Generator" and custom["hostType"] is None


async def test_auto_deploy_deploys_draft_features(api: Api, world: World) -> None:
    await api.ok("POST", "/features", 201, json=feature())
    cat = catalogue(world)
    assert cat.features[("MODELER_CORE", "1.0")].state == "DRAFT"
    created = (await api.ok("POST", "/products", 201, json=product(autoDeploy=True, features=[{"name": "MODELER_CORE"}])))["product"]
    assert created["state"] == "DEPLOYED"
    assert cat.features[("MODELER_CORE", "1.0")].state == "DEPLOYED"


@pytest.mark.parametrize(("case", "change", "field"), BAD_PRODUCTS, ids=[c[0] for c in BAD_PRODUCTS])
async def test_product_rule_refused(api: Api, world: World, case: str, change: Change, field: str) -> None:
    body = copy.deepcopy(product())
    change(body)
    await api.refused("POST", "/products", 400, field, json=body)
    assert ("Quartz Modeler", "1.0") not in catalogue(world).products


@pytest.mark.parametrize(
    ("change", "status", "field"),
    [
        (_with(features=[{"name": "DESIGNER_CORE"}]), 400, "features[0].name"),  # rule 5: two versions exist
        (_with(features=[{"name": "NO_SUCH_FEATURE"}]), 400, "features[0].name"),
        (_with(features=[{"name": "DESIGNER_CORE", "version": "9.9"}]), 400, "features[0].name"),
        (_with(featureBundles=[{"name": "NO_BUNDLE"}]), 400, "featureBundles[0].name"),
        (_with(licenseModels=["Pay per glance"]), 400, "licenseModels[0]"),
        (_with(productName="Flex Designer", version="2022.4"), 409, "productName"),
        (_with(partNumbers=["PN-DES-0000"]), 409, "partNumbers[0]"),  # rule 7: owned by another product
    ],
)
async def test_product_rules_only_the_server_knows(api: Api, change: Change, status: int, field: str) -> None:
    body = product()
    change(body)
    await api.refused("POST", "/products", status, field, json=body)


@pytest.mark.parametrize(("case", "path", "body", "field"), UNDOCUMENTED_NAMES, ids=[c[0] for c in UNDOCUMENTED_NAMES])
async def test_undocumented_names_are_refused_naming_the_documented_one(
    api: Api, world: World, case: str, path: str, body: dict[str, Any], field: str
) -> None:
    """A service that ignores what it does not know would create the thing without it and answer success."""
    cat = catalogue(world)
    before = (len(cat.products), len(cat.bundles), len(cat.features))
    refusal = await api.refused("POST", path, 400, field, json=body)
    assert "documented name is" in refusal["message"]
    assert (len(cat.products), len(cat.bundles), len(cat.features)) == before


async def test_product_documented_names_are_taken(api: Api, world: World) -> None:
    """The GraphQL product input (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/FeatureBundleInput):
    a name of up to 128 characters, features `{name, version, count}`, bundles `{name, count}`, `hostTypes`; the
    seed's single `hostType` is taken as well."""
    long_name = "P" * 128
    body = product(
        productName=long_name,
        features=[{"name": "DESIGNER_PRO", "count": 4}],
        featureBundles=[{"name": "DESIGNER_BUNDLE", "count": 2}],
        hostTypes=["FlexNet Server"],
        hostType="Server",
    )
    created = (await api.ok("POST", "/products", 201, json=body))["product"]
    assert created["productName"] == long_name
    assert created["features"] == [{"name": "DESIGNER_PRO", "version": "1.0", "count": 4}]
    assert created["featureBundles"] == [{"name": "DESIGNER_BUNDLE", "count": 2}]
    assert created["hostTypes"] == ["FlexNet Server", "Server"]
    kept = catalogue(world).products[(long_name, "1.0")]
    assert kept.feature_bundles == [("DESIGNER_BUNDLE", 2)] and kept.host_types == ["FlexNet Server", "Server"]
    seed_form = (await api.ok("POST", "/products", 201, json=product(version="2.0", hostType="Server")))["product"]
    assert seed_form["hostTypes"] == ["Server"]


async def test_created_product_can_be_entitled(api: Api) -> None:
    # deployed: "There must be deployed products" to entitle (SOAP createSimpleEntitlement; a draft one fails its line item)
    await api.ok("POST", "/products", 201, json=product(autoDeploy=True))
    body = {
        "lineItems": [
            {"product": [{"productName": "Quartz Modeler", "productVersion": "1.0"}], "startDate": "2026-01-01", "isPermanent": True}
        ],
        "attributes": [{"name": "Region", "value": "APAC"}],
    }
    result = await api.ok("POST", "/entitlements-api/v1/entitlement", 201, json=body)
    assert result["status"] == "success"


async def test_customer_cannot_create(api: Api) -> None:
    for path, body in (("/products", product()), ("/features", feature()), ("/part-numbers", {"partNumbers": [{"partNumber": "X"}]})):
        await api.refused("POST", path, 403, None, user=CUSTOMER, json=body)
    assert (await api.req("GET", "/products", user=CUSTOMER)).status_code == 200


# -- maintenance, part numbers, features, bundles, suites ---------------------------------------------


async def test_create_maintenance(api: Api, world: World) -> None:
    created = (
        await api.ok(
            "POST",
            "/maintenance",
            201,
            json={"productName": "Bronze Support", "version": "1.0", "partNumbers": ["MNT-BRONZE-1"], "autoDeploy": True},
        )
    )["maintenance"]
    assert created["state"] == "DEPLOYED" and created["partNumbers"] == ["MNT-BRONZE-1"]
    assert "Bronze Support" in await api.names("/maintenance", "maintenanceList", "productName")
    await api.refused("POST", "/maintenance", 409, "productName", json={"productName": "Bronze Support", "version": "1.0"})
    await api.refused("POST", "/maintenance", 400, "version", json={"productName": "Tin Support"})
    await api.refused(
        "POST", "/maintenance", 409, "partNumbers[0]", json={"productName": "Tin Support", "version": "1", "partNumbers": ["MNT-GOLD-001"]}
    )
    # It can be used for maintenance line items right away.
    ent = next(iter(world.entitlements))
    bronze = {"maintenanceProductName": "Bronze Support", "maintenanceProductVersion": "1.0", "partNumber": "MNT-BRONZE-1"}
    item = {"maintenanceProduct": bronze, "startDate": "2026-11-01", "isPermanent": True}
    await api.ok("POST", f"/entitlements-api/v1/entitlement/{ent}/maintenance-line-items", 201, json={"maintenanceLineItems": [item]})


async def test_create_part_numbers(api: Api, world: World) -> None:
    p = world.products[0]
    body = {
        "partNumbers": [
            {
                "partNumber": "PN NEW.1_a-b",
                "description": "New",
                "productName": p.name,
                "productVersion": p.version,
                "licenseModel": "perpetual",
            },
            {"partNumber": "PN-NEW-2", "trialAvailability": True},
        ]
    }
    result = await api.ok("POST", "/part-numbers", 201, json=body)
    assert [r["index"] for r in result["results"]] == [0, 1]
    assert result["partNumbers"][0]["product"]["name"] == p.name and result["partNumbers"][0]["licenseModel"] == "Perpetual"
    cat = catalogue(world)
    assert "PN NEW.1_a-b" in cat.products[(p.name, p.version)].part_numbers
    assert cat.part_numbers["PN-NEW-2"].owner is None and cat.part_numbers["PN-NEW-2"].trial


@pytest.mark.parametrize(
    ("items", "status", "field"),
    [
        ([], 400, "partNumbers"),
        ([{"description": "no number"}], 400, "partNumbers[0].partNumber"),
        ([{"partNumber": "PN/1"}], 400, "partNumbers[0].partNumber"),
        ([{"partNumber": "P" * 201}], 400, "partNumbers[0].partNumber"),
        ([{"partNumber": "PN-A", "description": "d" * 2001}], 400, "partNumbers[0].description"),
        ([{"partNumber": "PN-A", "productName": "Flex Designer"}], 400, "partNumbers[0].productVersion"),
        ([{"partNumber": "PN-A", "productName": "Nope", "productVersion": "1"}], 400, "partNumbers[0].productName"),
        ([{"partNumber": "PN-A", "licenseModel": "Rental"}], 400, "partNumbers[0].licenseModel"),
        ([{"partNumber": "PN-A"}, {"partNumber": "PN-A"}], 409, "partNumbers[1].partNumber"),
        ([{"partNumber": "PN-A"}, {"partNumber": "PN-SPARE-0001"}], 409, "partNumbers[1].partNumber"),
    ],
)
async def test_bad_part_numbers_create_nothing(api: Api, world: World, items: list[dict[str, Any]], status: int, field: str) -> None:
    before = len(catalogue(world).part_numbers)
    await api.refused("POST", "/part-numbers", status, field, json={"partNumbers": items})
    assert len(catalogue(world).part_numbers) == before


async def test_create_feature(api: Api, world: World) -> None:
    overrides = {"vendorString": "VS", "notice": "N", "serialNumber": "SN1", "borrowable": True, "counted": "Yes", "reusable": "No"}
    created = (
        await api.ok(
            "POST", "/features", 201, json=feature(description="Core modeling", aggregationType="SUM", featureOverrideParams=overrides)
        )
    )["feature"]
    assert created["featureOverrideParams"] == overrides and "vendorString" not in created
    assert (created["featureName"], created["version"], created["state"], created["aggregationType"]) == (
        "MODELER_CORE",
        "1.0",
        "DRAFT",
        "SUM",
    )
    dated = (
        await api.ok(
            "POST",
            "/features",
            201,
            json={"featureName": "MODELER-X_2", "versionFormat": "DATEBASED", "version": "2026.01", "maxVersion": "2026.12.31"},
        )
    )["feature"]
    assert dated["versionFormat"] == "DATEBASED"
    for good in ("2023.10", "2023.1015"):
        await api.ok("POST", "/features", 201, json=feature(featureName=f"MV_{good.replace('.', '_')}", maxVersion=good))
    default_version = (await api.ok("POST", "/features", 201, json={"featureName": "F" * 30, "versionFormat": "FIXED"}))["feature"]
    assert default_version["version"] == "1.0"
    await api.refused("POST", "/features", 409, "featureName", json=feature())
    # A second version makes the name ambiguous for products (rule 5).
    await api.ok("POST", "/features", 201, json=feature(version="2.0"))
    await api.refused("POST", "/products", 400, "features[0].name", json=product(features=[{"name": "MODELER_CORE"}]))


# Enums in a spelling the docs do not give (lower case where they write upper, and the reverse):
# (case id, method, path, params or body, the field a strict service names).
UNDOCUMENTED_SPELLINGS: list[tuple[str, str, str, dict[str, Any], str]] = [
    ("feature-format-filter-lower", "GET", "/features", {"versionFormat": "datebased"}, "versionFormat"),
    ("feature-state-filter-lower", "GET", "/features", {"state": "draft"}, "state"),
    ("suite-state-filter-upper", "GET", "/suites", {"state": "DRAFT"}, "state"),
    ("sort-order-upper", "GET", "/products", {"sort_order": "DESC"}, "sort_order"),
    ("feature-format-lower", "POST", "/features", feature(versionFormat="datebased", version="2026.01"), "versionFormat"),
    ("aggregation-lower", "POST", "/features", feature(aggregationType="sum"), "aggregationType"),
    ("upgrade-template-capitalised", "POST", "/products", product(upgradeEmailTemplate="None"), "upgradeEmailTemplate"),
]


@pytest.mark.parametrize(("case", "method", "path", "given", "field"), UNDOCUMENTED_SPELLINGS, ids=[c[0] for c in UNDOCUMENTED_SPELLINGS])
async def test_strict_default_takes_enums_only_as_documented(
    api: Api, world: World, case: str, method: str, path: str, given: dict[str, Any], field: str
) -> None:
    cat = catalogue(world)
    before = (len(cat.features), len(cat.products))
    where = {"json": given} if method == "POST" else {"params": given}
    refusal = await api.refused(method, path, 400, field, **where)
    assert "exactly as documented" in refusal["message"]
    assert (len(cat.features), len(cat.products)) == before


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
    """The lenient dialect (no dialect): what test_feature_bundle_maintenance_suite_filters,
    test_create_product_with_everything and test_create_feature sent before the default became
    STRICT, with the answers they expected."""
    api = Api(lenient_app)
    try:
        dated = await api.ok("GET", "/features", params={"versionFormat": "datebased", "limit": 500})
        assert dated["features"] and all(f["versionFormat"] == "DATEBASED" for f in dated["features"])
        assert set(await api.names("/features", "features", "state", state="draft")) == {"DRAFT"}
        created = (await api.ok("POST", "/features", 201, json=feature(aggregationType="sum", versionFormat="fixed")))["feature"]
        assert (created["aggregationType"], created["versionFormat"]) == ("SUM", "FIXED")
        made = (await api.ok("POST", "/products", 201, json=product(upgradeEmailTemplate="None")))["product"]
        assert made["upgradeEmailTemplate"] == "none"
    finally:
        await api.aclose()


@pytest.mark.parametrize(("case", "change", "field"), BAD_FEATURES, ids=[c[0] for c in BAD_FEATURES])
async def test_feature_rule_refused(api: Api, world: World, case: str, change: Change, field: str) -> None:
    body = feature()
    change(body)
    before = len(catalogue(world).features)
    await api.refused("POST", "/features", 400, field, json=body)
    assert len(catalogue(world).features) == before


async def test_create_feature_bundle(api: Api, world: World) -> None:
    body = {
        "featureBundleName": "Modeler Bundle",
        "features": [{"featureName": "DESIGNER_PRO"}, {"featureName": "DESIGNER_CORE", "version": "1.0", "quantity": 3}],
        "autoDeploy": True,
    }
    created = (await api.ok("POST", "/feature-bundles", 201, json=body))["featureBundle"]
    # One bundle is FeatureBundleGet, `featureList: [{featureName, quantity, state, version}]`
    # (https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/FeatureBundleFeatureResponseDTO).
    assert created["featureList"][1] == {"featureName": "DESIGNER_CORE", "version": "1.0", "quantity": 3, "state": "DEPLOYED"}
    assert created["state"] == "DEPLOYED"
    listed = await api.ok("GET", "/feature-bundles", params={"name": "Modeler Bundle"})
    assert listed["featureBundles"][0]["features"][1] == {"name": "DESIGNER_CORE", "version": "1.0", "quantity": 3, "state": "DEPLOYED"}
    await api.refused("POST", "/feature-bundles", 409, "featureBundleName", json=body)
    await api.refused("POST", "/feature-bundles", 400, "features", json={"featureBundleName": "Empty", "features": []})
    await api.refused(
        "POST",
        "/feature-bundles",
        400,
        "features[0].featureName",
        json={"featureBundleName": "B2", "features": [{"featureName": "DESIGNER_CORE"}]},
    )
    await api.refused(
        "POST",
        "/feature-bundles",
        400,
        "features[0].quantity",
        json={"featureBundleName": "B2", "features": [{"featureName": "DESIGNER_PRO", "quantity": 0}]},
    )
    await api.refused("POST", "/feature-bundles", 400, "featureBundleName", json={"features": [{"featureName": "DESIGNER_PRO"}]})


async def test_create_suite(api: Api, world: World) -> None:
    a, b = world.products[0], world.products[1]
    body = {
        "suiteName": "Design Suite",
        "version": "2026",
        "products": [{"productName": a.name, "version": a.version}, {"productName": b.name, "version": b.version, "quantity": 3}],
        "partNumbers": ["SUITE-DS-1"],
        "packageName": "DS",
    }
    created = (await api.ok("POST", "/suites", 201, json=body))["suite"]
    assert created["products"][1]["quantity"] == 3 and created["hostType"] == "Certificate or Trusted Host" and created["state"] == "DRAFT"
    assert (await api.ok("GET", "/suites/Design Suite/2026"))["suite"]["partNumbers"] == ["SUITE-DS-1"]
    await api.refused("POST", "/suites", 409, "suiteName", json=body)
    await api.refused("POST", "/suites", 400, "products", json={**body, "suiteName": "S2", "products": []})
    await api.refused(
        "POST",
        "/suites",
        400,
        "products[0].productName",
        json={**body, "suiteName": "S2", "products": [{"productName": "Nope", "version": "1"}]},
    )
    await api.refused(
        "POST",
        "/suites",
        400,
        "products[0].quantity",
        json={**body, "suiteName": "S2", "products": [{"productName": a.name, "version": a.version, "quantity": 0}]},
    )
    await api.refused("POST", "/suites", 409, "partNumbers[0]", json={**body, "suiteName": "S2"})
    await api.refused(
        "POST", "/suites", 400, "licenseTechnology", json={**body, "suiteName": "S2", "partNumbers": [], "licenseTechnology": "Nope"}
    )
