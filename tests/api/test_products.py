"""The products data layer: request models with the seed's rules, ProductsService lists and creations.

The bodies of tests/sim/test_products.py's `BAD_PRODUCTS` and
`BAD_FEATURES` are fed to the client models here: each must be refused
before sending, naming the same field as the simulator, except what only
the tenant knows (its license technologies and generators: the seed says
technologies can be custom), which is left to the server's answer.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from flextui.api.errors import Conflict, Invalid, NotFound, ReadOnly
from flextui.api.http import Session
from flextui.api.products import (
    FeatureBundleCreate,
    FeatureBundleFilter,
    FeatureCreate,
    FeatureFilter,
    MaintenanceCreate,
    PartNumberCreate,
    PartNumberFilter,
    ProductCreate,
    ProductFilter,
    ProductsService,
    Suite,
    SuiteCreate,
    SuiteFilter,
)
from flextui.api.tolerant import unreadable
from flextui.sim.products import catalogue
from flextui.sim.world import World

from ..beta_fixtures import _beta_only, read_only_session, refused  # noqa: F401  (fixtures)
from ..conftest import make_session
from ..received import Received
from ..sim.test_products import BAD_FEATURES, BAD_PRODUCTS, feature, product


@pytest.fixture
def svc(session: Session) -> ProductsService:
    return ProductsService(session)


# -- request models -------------------------------------------------------------------------------


TENANT_FACTS = {"technology-unknown", "generator-wrong"}
CLIENT_CHECKED = [c for c in BAD_PRODUCTS if c[0] not in TENANT_FACTS]


@pytest.mark.parametrize(("case", "change", "field"), CLIENT_CHECKED, ids=[c[0] for c in CLIENT_CHECKED])
def test_product_model_refuses_what_the_simulator_refuses(case: str, change: Callable[[dict[str, Any]], None], field: str) -> None:
    body = copy.deepcopy(product())
    change(body)
    errors = refused(ProductCreate, body)
    assert field in errors, errors


@pytest.mark.parametrize(("case", "change", "field"), BAD_FEATURES, ids=[c[0] for c in BAD_FEATURES])
def test_feature_model_refuses_what_the_simulator_refuses(case: str, change: Callable[[dict[str, Any]], None], field: str) -> None:
    body = feature()
    change(body)
    errors = refused(FeatureCreate, body)
    assert field in errors, errors


def test_product_model_defaults_and_effective_values() -> None:
    spec = ProductCreate.model_validate(product())
    assert spec.body() == {
        "productName": "Quartz Modeler",
        "version": "1.0",
        "features": [],
        "featureBundles": [],
        "licenseModels": [],
        "partNumbers": [],
        "autoDeploy": False,
    }
    assert spec.effective() == {
        "licenseTechnology": "FlexNet Licensing",
        "licenseGenerator": "the server's default for FlexNet Licensing",
        "usedOnDevice": False,
        "hostType": "Certificate or Trusted Host",
    }
    device = ProductCreate.model_validate(product(usedOnDevice=True))
    assert device.effective()["hostType"] is None
    # Technologies and generators are the tenant's own: free text, sent as written, checked by the server.
    custom = ProductCreate.model_validate(product(licenseTechnology="Dongle Magic", usedOnDevice=True))
    assert custom.license_technology == "Dongle Magic" and custom.body()["licenseTechnology"] == "Dongle Magic"
    assert custom.effective() == {
        "licenseTechnology": "Dongle Magic",
        "licenseGenerator": "the server's default for Dongle Magic",
        "usedOnDevice": False,
        "hostType": None,
    }
    full = ProductCreate.model_validate(
        product(
            startDate="2026-01-01",
            endDate="2026-01-01",
            upgradeEmailTemplate="NONE",
            partNumbers=["PN 1.a_b-c"],
            features=[{"name": "A_B-1"}],
            licenseGenerator="My Generator",
        )
    )
    assert full.upgrade_email_template == "none" and full.license_generator == "My Generator"


def test_other_create_models() -> None:
    assert MaintenanceCreate.model_validate({"productName": "Bronze", "version": "1"}).body()["productName"] == "Bronze"
    assert "partNumbers[1]" in refused(MaintenanceCreate, {"productName": "B", "version": "1", "partNumbers": ["X", "X"]})
    assert "version" in refused(MaintenanceCreate, {"productName": "B"})
    assert PartNumberCreate.model_validate({"partNumber": "PN-1", "productName": "", "productVersion": ""}).body() == {"partNumber": "PN-1"}
    assert "productVersion" in refused(PartNumberCreate, {"partNumber": "PN-1", "productName": "Flex"})
    assert "productName" in refused(PartNumberCreate, {"partNumber": "PN-1", "productVersion": "1"})
    assert "partNumber" in refused(PartNumberCreate, {"partNumber": "PN;1"})
    assert "features" in refused(FeatureBundleCreate, {"featureBundleName": "B", "features": []})
    assert "features[0].quantity" in refused(
        FeatureBundleCreate, {"featureBundleName": "B", "features": [{"featureName": "F", "quantity": 0}]}
    )
    assert "featureBundleName" in refused(FeatureBundleCreate, {"featureBundleName": " ", "features": [{"featureName": "F"}]})
    suite = {"suiteName": "S", "version": "1", "products": [{"productName": "P", "version": "1"}]}
    assert SuiteCreate.model_validate(suite).effective()["hostType"] == "Certificate or Trusted Host"
    assert "products" in refused(SuiteCreate, {**suite, "products": []})
    assert "products[0].quantity" in refused(SuiteCreate, {**suite, "products": [{"productName": "P", "version": "1", "quantity": 0}]})
    assert (
        SuiteCreate.model_validate(
            {**suite, "licenseTechnology": "FlexNet Embedded", "licenseGenerator": "Custom Key Generator"}
        ).license_generator
        == "Custom Key Generator"
    )


def test_filters() -> None:
    assert PartNumberFilter(unmapped_with_product=True, part_number=" ").params() == {"unmappedWithProduct": "true"}
    assert ProductFilter(product_name="flex", sort_by="creationDate", sort_order="DESC").params() == {
        "productName": "flex",
        "sort_by": "creationDate",
        "sort_order": "desc",
    }
    assert FeatureFilter(version_format="datebased").params() == {"versionFormat": "DATEBASED"}
    assert SuiteFilter(creation_date="2026-01-01T00:00:00Z").params() == {"creationDate": "2026-01-01T00:00:00Z"}
    for model, kwargs in (
        (ProductFilter, {"sort_by": "price"}),
        (ProductFilter, {"state": "shiny"}),
        (FeatureFilter, {"version_format": "ROMAN"}),
        (PartNumberFilter, {"creation_date": "yesterday"}),
        (SuiteFilter, {"sort_by": "name"}),
    ):
        with pytest.raises(ValidationError):
            model(**kwargs)


def test_response_models_tolerate_other_shapes() -> None:
    suite = Suite.model_validate(
        {"name": "S", "partNumbers": [{"partNumber": "P1"}, "P2"], "products": [{"name": "A", "version": "1"}], "new": 1}
    )
    assert suite.suite_name == "S" and suite.part_numbers == ["P1", "P2"] and suite.products[0].product_name == "A"


# -- the service ------------------------------------------------------------------------------------


async def test_lists(svc: ProductsService, world: World) -> None:
    cat = catalogue(world)
    products = await svc.products(limit=5)
    assert (products.number, products.size, products.total) == (1, 5, len(cat.products))
    assert products.items[0].product_name and products.items[0].part_numbers and products.items[0].created is not None
    p = world.products[0]
    found = await svc.products(ProductFilter(part_number=p.part_number))
    assert [(x.product_name, x.version) for x in found.items] == [(p.name, p.version)]
    assert (await svc.maintenance()).total == len(cat.maintenance)
    unmapped = await svc.part_numbers(PartNumberFilter(unmapped_with_product=True), limit=500)
    assert unmapped.items and not any(x.mapped for x in unmapped.items)
    mapped = await svc.part_numbers(PartNumberFilter(part_number=p.part_number))
    assert mapped.items[0].mapped and mapped.items[0].product.name == p.name  # type: ignore[union-attr]
    features = await svc.features(FeatureFilter(name="designer_core"))
    assert sorted(f.version or "" for f in features.items) == ["1.0", "2.0"]
    bundles = await svc.feature_bundles()
    assert bundles.total == len(cat.bundles) and bundles.items[0].features
    suites = await svc.suites(limit=500)
    assert suites.total == len(cat.suites)
    one = await svc.get_suite(suites.items[0].suite_name, suites.items[0].version or "")
    assert one.products == suites.items[0].products
    with pytest.raises(NotFound):
        await svc.get_suite("No Suite", "1")
    with pytest.raises(ValueError):
        await svc.products(page=0)


async def test_cached_pages(svc: ProductsService, session: Session) -> None:
    first = [p async for p in svc.products_page(limit=3)]
    assert len(first) == 1 and first[0].age is None
    sent = session.requests_sent
    again = [p async for p in svc.products_page(limit=3)]
    assert again[0].age is not None and session.requests_sent == sent
    assert [x.product_name for x in again[0].items] == [x.product_name for x in first[0].items]
    for pages in (svc.maintenance_page(), svc.part_numbers_page(), svc.features_page(), svc.feature_bundles_page(), svc.suites_page()):
        got = [p async for p in pages]
        assert got[-1].items and got[-1].total


async def test_create_flows(svc: ProductsService, world: World) -> None:
    feature_made = await svc.create_feature(FeatureCreate.model_validate(feature()))
    assert feature_made.feature_name == "MODELER_CORE" and feature_made.state == "DRAFT"
    bundle = await svc.create_feature_bundle(
        FeatureBundleCreate.model_validate({"featureBundleName": "MODELER_BUNDLE", "features": [{"featureName": "MODELER_CORE"}]})
    )
    assert bundle.features[0].feature_name == "MODELER_CORE"
    made = await svc.create_product(
        ProductCreate.model_validate(
            product(
                features=[{"name": "MODELER_CORE"}],
                featureBundles=[{"name": "MODELER_BUNDLE"}],
                partNumbers=["PN-QM-1"],
                autoDeploy=True,
            )
        )
    )
    assert (made.product_name, made.state, made.product_category, made.host_type) == (
        "Quartz Modeler",
        "DEPLOYED",
        "Uncategorized Products",
        "Certificate or Trusted Host",
    )
    assert made.part_numbers == ["PN-QM-1"] and made.bundle_names == ["MODELER_BUNDLE"]
    assert catalogue(world).features[("MODELER_CORE", "1.0")].state == "DEPLOYED"
    maintenance = await svc.create_maintenance(MaintenanceCreate(productName="Bronze Support", version="1.0", partNumbers=["MNT-BR-1"]))
    assert maintenance.part_numbers == ["MNT-BR-1"]
    created = await svc.create_part_numbers(
        [
            PartNumberCreate(partNumber="PN-QM-2", productName="Quartz Modeler", productVersion="1.0"),
            PartNumberCreate(partNumber="PN-FREE-1"),
        ]
    )
    assert [x.part_number for x in created.part_numbers] == ["PN-QM-2", "PN-FREE-1"] and created.part_numbers[0].mapped
    suite = await svc.create_suite(
        SuiteCreate.model_validate(
            {"suiteName": "Modeler Suite", "version": "1", "products": [{"productName": "Quartz Modeler", "version": "1.0", "quantity": 2}]}
        )
    )
    assert suite.products[0].quantity == 2 and suite.products[0].state == "DEPLOYED"
    listed = await svc.products(ProductFilter(product_name="quartz"))
    assert [x.product_name for x in listed.items] == ["Quartz Modeler"]


async def test_server_side_errors(svc: ProductsService) -> None:
    with pytest.raises(Invalid) as ambiguous:
        await svc.create_product(ProductCreate.model_validate(product(features=[{"name": "DESIGNER_CORE"}])))
    assert ambiguous.value.field == "features[0].name" and "version" in ambiguous.value.message
    with pytest.raises(Conflict) as taken:
        await svc.create_product(ProductCreate.model_validate(product(partNumbers=["PN-DES-0000"])))
    assert taken.value.field == "partNumbers[0]"
    with pytest.raises(Conflict) as duplicate:
        await svc.create_product(ProductCreate.model_validate(product(productName="Flex Designer", version="2022.4")))
    assert duplicate.value.field == "productName"
    with pytest.raises(Conflict):
        await svc.create_part_numbers([PartNumberCreate(partNumber="PN-SPARE-0001")])


async def test_read_only_profile_sends_nothing(read_only: Session) -> None:
    svc = ProductsService(read_only)
    calls = [
        svc.create_product(ProductCreate.model_validate(product())),
        svc.create_feature(FeatureCreate.model_validate(feature())),
        svc.create_feature_bundle(FeatureBundleCreate.model_validate({"featureBundleName": "B", "features": [{"featureName": "F"}]})),
        svc.create_maintenance(MaintenanceCreate(productName="M", version="1")),
        svc.create_part_numbers([PartNumberCreate(partNumber="P")]),
        svc.create_suite(
            SuiteCreate.model_validate({"suiteName": "S", "version": "1", "products": [{"productName": "P", "version": "1"}]})
        ),
    ]
    for call in calls:
        with pytest.raises(ReadOnly):
            await call
    assert read_only.requests_sent == 0


# -- the documented answer forms of products, bundles and features ------------------------------------------------


def _answering(answers: dict[str, Any]) -> Session:
    """A session whose server answers each GET path ending in a key of `answers` with that JSON."""
    import httpx

    from flextui.api.auth import Credentials
    from flextui.api.http import RetryPolicy

    def handler(request: httpx.Request) -> httpx.Response:
        for ending, body in answers.items():
            if request.url.path.endswith(ending):
                return httpx.Response(200, json=body)
        return httpx.Response(404, json={"status": "error", "message": "no such path"})

    return Session(
        "https://fno.example",
        credentials=Credentials("me@x", "pw", "rna_test"),
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(attempts=1),
    )


async def test_a_product_s_bundles_and_features_are_read_in_every_documented_form() -> None:
    """FeatureBundle "in a product context" is `{count, name}`, Feature `{count, name, version}`
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/FeatureBundleFeatureResponseDTO); a bundle named
    `featureBundleName`, or only by its name, is read too."""
    page = {
        "pagination": {"page": 1, "limit": 20, "total": 1},
        "productList": [
            {
                "productName": "Quartz Modeler",
                "version": "1.0",
                "features": [{"name": "MODELER_CORE", "version": "1.0", "count": 2}, {"featureName": "MODELER_PRO"}],
                "featureBundles": [{"name": "Gold", "count": 3}, {"featureBundleName": "Silver"}, "Bronze", None],
            }
        ],
    }
    async with _answering({"/v1/products": page}) as session:
        got = (await ProductsService(session).products()).items
    assert len(got) == 1 and unreadable(got[0]) is None, unreadable(got[0])
    product_read = got[0]
    assert [(b.feature_bundle_name, b.count) for b in product_read.feature_bundles] == [("Gold", 3), ("Silver", None), ("Bronze", None)]
    assert [(f.feature_name, f.version, f.count) for f in product_read.features] == [
        ("MODELER_CORE", "1.0", 2),
        ("MODELER_PRO", None, None),
    ]
    from flextui.render.products import product_row

    assert product_row(product_read)["feature_bundles"] == "Gold, Silver, Bronze"


async def test_a_bundle_s_features_are_read_from_features_and_from_feature_list() -> None:
    """The bundle list's FeatureBundleResponseDTO holds `features: [{name, quantity, state, version}]`, one bundle's
    FeatureBundleGet `featureList: [{featureName, quantity, state, version}]` (same page); `count` is read too."""
    page = {
        "pagination": {"page": 1, "limit": 20, "total": 3},
        "featureBundles": [
            {"featureBundleName": "Listed", "features": [{"name": "F1", "version": "1.0", "quantity": 2, "state": "deployed"}]},
            {"featureBundleName": "Got", "featureList": [{"featureName": "F2", "version": "2.0", "quantity": 4, "state": "draft"}]},
            {"featureBundleName": "Old", "features": [{"featureName": "F3", "count": 5}]},
        ],
    }
    async with _answering({"/v1/feature-bundles": page}) as session:
        got = (await ProductsService(session).feature_bundles()).items
    assert not any(unreadable(b) for b in got)
    read = {b.feature_bundle_name: [(f.feature_name, f.version, f.quantity, f.state) for f in b.features] for b in got}
    assert read == {
        "Listed": [("F1", "1.0", 2, "deployed")],
        "Got": [("F2", "2.0", 4, "draft")],
        "Old": [("F3", None, 5, None)],
    }


async def test_a_feature_s_vendor_string_is_read_at_the_top_or_under_its_override_params() -> None:
    page = {
        "pagination": {"page": 1, "limit": 20, "total": 2},
        "features": [
            {"featureName": "NESTED", "featureOverrideParams": {"vendorString": "VS-1", "notice": "N"}},
            {"featureName": "TOP", "vendorString": "VS-2"},
        ],
    }
    async with _answering({"/v1/features": page}) as session:
        got = (await ProductsService(session).features()).items
    assert [(f.feature_name, f.vendor_string) for f in got] == [("NESTED", "VS-1"), ("TOP", "VS-2")]


async def test_the_simulator_s_bundles_are_read_with_their_counts(svc: ProductsService, world: World) -> None:
    """The simulator answers in the documented forms: a product's bundles `{name, count}`, the bundle list's features
    `{name, quantity, state, version}`, a created bundle's `featureList`."""
    made = await svc.create_feature_bundle(
        FeatureBundleCreate.model_validate(
            {"featureBundleName": "COUNTED_BUNDLE", "features": [{"featureName": "DESIGNER_PRO", "quantity": 3}]}
        )
    )
    assert [(f.feature_name, f.quantity) for f in made.features] == [("DESIGNER_PRO", 3)]
    listed = await svc.feature_bundles(FeatureBundleFilter(name="COUNTED_BUNDLE"))
    assert [(f.feature_name, f.quantity, f.state) for f in listed.items[0].features] == [("DESIGNER_PRO", 3, "DEPLOYED")]
    await svc.create_product(ProductCreate.model_validate(product(featureBundles=[{"name": "COUNTED_BUNDLE"}])))
    found = (await svc.products(ProductFilter(product_name="Quartz Modeler"))).items
    assert len(found) == 1 and unreadable(found[0]) is None
    assert [(b.feature_bundle_name, b.count) for b in found[0].feature_bundles] == [("COUNTED_BUNDLE", 1)]


# -- what goes over the wire: the documented names ------------------------------------------------------------


@pytest.fixture
async def wire(sim_app: Any) -> Any:
    """The simulator (strict, its default) noting every request it received, and a service on it."""
    received = Received(sim_app)
    session = make_session(received)
    yield received, ProductsService(session)
    await session.aclose()


def test_create_models_send_the_documented_names_whatever_they_were_given() -> None:
    """A product's features `{name, version, count}`, bundles `{name, count}`, `hostTypes`; a bundle's features
    `{featureName, quantity, version}` (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/GroupMaskDataTypeInput);
    a feature's vendor string in `featureOverrideParams` (…/rest/product/product-service/feature/postfeature.md).
    The names the client sent before are taken, and sent as documented."""
    old = ProductCreate.model_validate(
        product(features=[{"featureName": "F1", "count": 2}], featureBundles=[{"featureBundleName": "Gold"}], hostType="Server")
    )
    assert {k: old.body()[k] for k in ("features", "featureBundles", "hostTypes")} == {
        "features": [{"name": "F1", "count": 2}],
        "featureBundles": [{"name": "Gold"}],
        "hostTypes": ["Server"],
    }
    assert "hostType" not in old.body() and "hostTypes" not in ProductCreate.model_validate(product()).body()
    bundle = FeatureBundleCreate.model_validate({"featureBundleName": "B", "features": [{"featureName": "F", "count": 2}]})
    assert bundle.body()["features"] == [{"featureName": "F", "quantity": 2}]
    made = FeatureCreate.model_validate(feature(vendorString="VS"))
    assert made.body()["featureOverrideParams"] == {"vendorString": "VS"} and "vendorString" not in made.body()
    assert made.vendor_string == "VS"
    assert "vendorString" in refused(FeatureCreate, feature(vendorString="A", featureOverrideParams={"vendorString": "B"}))


def test_create_models_check_the_documented_limits() -> None:
    assert ProductCreate.model_validate(product(productName="P" * 128)).product_name == "P" * 128
    assert "productName" in refused(ProductCreate, product(productName="P" * 129))
    assert "featureOverrideParams.vendorString" in refused(FeatureCreate, feature(featureOverrideParams={"vendorString": "v" * 256}))
    assert "featureOverrideParams.vendorString" in refused(FeatureCreate, feature(vendorString="v" * 256))
    assert FeatureCreate.model_validate(feature(featureOverrideParams={"counted": "do_not_override"})).body()["featureOverrideParams"] == {
        "counted": "Do_Not_Override"
    }


async def test_created_things_arrive_in_the_documented_names_and_are_kept_whole(wire: Any, world: World) -> None:
    """What the simulator received for each create, and what it made of it: nothing is lost on the way."""
    received, svc = wire
    await svc.create_feature(FeatureCreate.model_validate(feature(vendorString="VS-42")))
    assert received.to("POST", "/v1/features")[-1].body == {
        "featureName": "MODELER_CORE",
        "versionFormat": "FIXED",
        "version": "1.0",
        "featureOverrideParams": {"vendorString": "VS-42"},
        "autoDeploy": False,
    }
    cat = catalogue(world)
    assert cat.features[("MODELER_CORE", "1.0")].vendor_string == "VS-42"
    listed = await svc.features(FeatureFilter(name="MODELER_CORE"))
    assert [f.vendor_string for f in listed.items] == ["VS-42"]

    bundle = await svc.create_feature_bundle(
        FeatureBundleCreate.model_validate(
            {"featureBundleName": "MODELER_BUNDLE", "features": [{"featureName": "MODELER_CORE", "quantity": 2}]}
        )
    )
    assert received.to("POST", "/v1/feature-bundles")[-1].body["features"] == [{"featureName": "MODELER_CORE", "quantity": 2}]
    assert cat.bundles["MODELER_BUNDLE"].features == [("MODELER_CORE", "1.0", 2)]
    assert [(f.feature_name, f.quantity) for f in bundle.features] == [("MODELER_CORE", 2)]

    made = await svc.create_product(
        ProductCreate.model_validate(
            product(
                features=[{"name": "MODELER_CORE", "count": 3}],
                featureBundles=[{"name": "MODELER_BUNDLE", "count": 2}],
                hostTypes=["FlexNet Server"],
            )
        )
    )
    sent = received.to("POST", "/v1/products")[-1].body
    assert (sent["features"], sent["featureBundles"], sent["hostTypes"]) == (
        [{"name": "MODELER_CORE", "count": 3}],
        [{"name": "MODELER_BUNDLE", "count": 2}],
        ["FlexNet Server"],
    )
    kept = cat.products[("Quartz Modeler", "1.0")]
    assert kept.sim.features == [("MODELER_CORE", "1.0")] and kept.feature_counts == {("MODELER_CORE", "1.0"): 3}
    assert kept.feature_bundles == [("MODELER_BUNDLE", 2)] and kept.host_types == ["FlexNet Server"]
    assert [(b.feature_bundle_name, b.count) for b in made.feature_bundles] == [("MODELER_BUNDLE", 2)]
    assert made.host_types == ["FlexNet Server"] and [(f.feature_name, f.count) for f in made.features] == [("MODELER_CORE", 3)]


async def test_a_status_only_answer_gives_back_what_was_sent_in_its_documented_names(world: World) -> None:
    """Under `create-status-only` (`{message, status}`, the REST pages' answer) the created record is the body
    sent, read back by the response models: the documented names are read."""
    from flextui.sim.app import create_app
    from flextui.sim.dialects import speaking

    session = make_session(create_app(world, dialects=speaking("create-status-only")))
    try:
        svc = ProductsService(session)
        made = await svc.create_feature(FeatureCreate.model_validate(feature(vendorString="VS-7")))
        assert made.vendor_string == "VS-7"
        bundle = await svc.create_feature_bundle(
            FeatureBundleCreate.model_validate({"featureBundleName": "B7", "features": [{"featureName": "DESIGNER_PRO", "quantity": 2}]})
        )
        assert [(f.feature_name, f.quantity) for f in bundle.features] == [("DESIGNER_PRO", 2)]
        product_made = await svc.create_product(
            ProductCreate.model_validate(product(featureBundles=[{"name": "B7", "count": 2}], hostTypes=["FlexNet Server"]))
        )
        assert [(b.feature_bundle_name, b.count) for b in product_made.feature_bundles] == [("B7", 2)]
        assert product_made.host_types == ["FlexNet Server"]
    finally:
        await session.aclose()
