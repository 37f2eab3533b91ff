"""Simulated products and packaging service (`{base}/products-api/v1/…`), per seed 002.

The catalogue starts from the world's products (`world.products`, shared with
entitlements, the registry and reports) and adds what only this service
shows: features, feature bundles, maintenance products, suites and part
numbers. The entitlement simulator looks products up here, so a product
created through POST /products can be entitled at once.

Choices where the seed and the notes are silent, so a client must cope:
- Pages are 1-based (`page` defaults to 1, `limit` to 20, at most 500);
  a bad page, limit, sort_by or sort_order is a 400 naming the parameter.
  Unknown query parameters are ignored.
- List envelopes: `{"status": "success", "message": …, "pagination":
  {"page", "limit", "total", "totalPages"}, <key>: […]}` with key
  productList, partNumbers, features, featureBundles, maintenanceList or
  suiteList. GET /suites/{name}/{version} answers `{"status", "suite"}`.
- Creation answers 201 `{"status": "success", "message": …, <thing>: {…}}`;
  POST /part-numbers answers `{"status", "message", "results": [{"index",
  "result"}], "partNumbers": […]}` and is all-or-nothing.
- Text filters: names and descriptions match case-insensitive substrings;
  versions, states, technologies, part numbers (in product and suite
  lists) match exactly (states and technologies ignoring case);
  creationDate and lastModifiedDate mean "on or after" and take YYYY-MM-DD
  or an ISO 8601 time.
- Products: rules 1-10 of the seed. License technologies are the tenant's
  (`World.license_technologies`: by default the standard "FlexNet
  Licensing", "FlexNet Embedded" and "Custom Licensing", each with its
  generators); a technology the tenant does not have is a 400 naming it, and
  a given licenseGenerator must be one of the technology's. Host types default to ["Certificate or Trusted
  Host"] per rule 6 and are absent otherwise. licenseModels must name known models.
  A part number unknown to the catalogue is created; one that exists
  unmapped is mapped to the new product; one mapped elsewhere → 409.
  autoDeploy deploys the product and any of its features and bundles still
  in DRAFT; otherwise the product is DRAFT. The body takes the documented
  input's names (the GraphQL product input,
  https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/FeatureBundleInput and
  …/GroupMaskDataTypeInput; no REST page shows a product body): productName
  (≤ 128), `features: [{name, version?, count ≥ 1}]`, `featureBundles:
  [{name, count ≥ 1}]`, `hostTypes: [...]` (the seed's single `hostType`
  is taken too: both are documented), part numbers as strings and the
  upgrade template as `upgradeEmailTemplate` (none | default).
- Maintenance products use the product body's productName/version (plus
  description, partNumbers, autoDeploy). Suites: suiteName, version,
  products[{productName, version, quantity ≥ 1}] (at least one, existing),
  partNumbers, licenseTechnology/licenseGenerator/hostType/usedOnDevice with
  the product rules. Features: featureName (≤ 30, [A-Za-z0-9_-]),
  versionFormat FIXED | DATEBASED, version (default "1.0" when FIXED),
  maxVersion pattern, aggregationType NONE | SUM | MAX, override
  parameters under `featureOverrideParams` (vendorString, notice,
  serialNumber ≤ 255; borrowable; counted, reusable Yes | No |
  Do_Not_Override; dupGroup), as POST /features documents them
  (https://fnoapi.redocly.app/apis/rest/product/product-service/feature/postfeature.md); (name,
  version) is unique. Bundles: featureBundleName (unique), features
  `[{featureName, version?, quantity ≥ 1}]` (≥ 1, matched as in products).
  Created things are DRAFT unless autoDeploy is true.
- Names the pages do not give, which a client has been seen to send, are
  refused with a 400 naming the documented field: `featureName` in a
  product's feature (`name`), `featureBundleName` in a product's bundle
  (`name`), `count` in a bundle's feature (`quantity`), a top-level
  `vendorString` on a feature (`featureOverrideParams.vendorString`). A
  service that ignores unknown fields (Jackson's default in Spring) would
  create the thing without them and answer success; refusing is at least as
  strict, and makes the loss visible. Other unknown fields are ignored: the
  pages capture no full product body, so refusing every field not seen
  could refuse a documented one.
- Answers use the documented record forms
  (https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/FeatureBundleFeatureResponseDTO): a
  product's features `{name, version, count}` and bundles `{name, count}`; the bundle list's features
  `{name, quantity, state, version}` (FeatureBundleResponseDTO); a created bundle's `featureList`
  `[{featureName, quantity, state, version}]` (FeatureBundleGet). A feature's vendor string is under
  `featureOverrideParams`, where POST /features takes it (no page shows a feature's answer).
- Created products live in this catalogue, not in `world.products`, so
  other services' lazily built data does not depend on what a user created.
- Every endpoint needs an authenticated caller (Basic or Bearer rna_…);
  creating needs a producer (publisher-side) user, else 403.

Dialects (beta.py has what the three beta services share)
- `create-status-only`: every POST answers `{"message": …, "status":
  "SUCCESS"}`, the Products REST pages' documented response
  (https://fnoapi.redocly.app/apis/rest/… "Introduction to the Products and
  Packaging REST API (1.0.0_Beta)").
- `strict-enums`: versionFormat FIXED | DATEBASED, aggregationType NONE | SUM
  | MAX and the features' state filter DRAFT | DEPLOYED in upper case; the
  suites' state filter draft | deployed | obsolete | inactive in lower case
  (…/suite/getsuites_1, …/feature/getfeaturebundles, …/feature/postfeature);
  upgradeEmailTemplate none | default (seed rule 10); sort_order asc | desc.
  The products' own state filter is not documented and stays any case.
- `null-collections` (app.py): empty features, featureBundles, partNumbers,
  hostTypes, licenseModels and list arrays are `null`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from flextui.sim import rules as r
from flextui.sim.beta import ListQuery, beta_errors, caller_of, created, list_query, pagination, producer_of, read_body, strict_enums
from flextui.sim.common import SimError, json_response, world_of
from flextui.sim.rules import Body, FieldProblem, LicenseTechnology
from flextui.sim.timefmt import iso as iso_string
from flextui.sim.world import DAY_MS, STANDARD_TECHNOLOGY, SimProduct, World

MOUNT = "/products-api/v1"
LICENSE_MODELS = ("Perpetual", "Subscription", "Trial", "Concurrent", "Metered", "Maintenance")
CATEGORIES = ("Design Tools", "Analytics", "Infrastructure", r.DEFAULT_PRODUCT_CATEGORY)
STANDARD_GENERATOR = "FlexNet Licensing Generator"
# sort_by keys: part numbers and suites as documented (notes §4.2); products and features the simulator's.
PART_NUMBER_SORT_KEYS = ("partNumber", "productName", "licenseModel", "creationDate", "lastModifiedDate")
PRODUCT_SORT_KEYS = ("productName", "version", "creationDate", "lastModifiedDate")
SUITE_SORT_KEYS = ("suiteName", "createdOn")
FEATURE_SORT_KEYS = ("name", "version", "creationDate", "lastModifiedDate")


def _contains(haystack: str | None, needle: str) -> bool:
    return needle.lower() in (haystack or "").lower()


def _same(a: str | None, b: str) -> bool:
    return (a or "").lower() == b.lower()


# -- the catalogue ------------------------------------------------------------------------------


@dataclass
class CatalogueProduct:
    """A product or maintenance product as this service shows it (`sim` is shared with the world)."""

    sim: SimProduct
    description: str = ""
    state: str = "DEPLOYED"
    license_technology: str = STANDARD_TECHNOLOGY
    license_generator: str = STANDARD_GENERATOR
    category: str = r.DEFAULT_PRODUCT_CATEGORY
    host_types: list[str] = field(default_factory=lambda: [r.DEFAULT_HOST_TYPE])
    used_on_device: bool = False
    part_numbers: list[str] = field(default_factory=list)
    feature_bundles: list[tuple[str, int]] = field(default_factory=list)  # (name, count)
    feature_counts: dict[tuple[str, str], int] = field(default_factory=dict)  # (name, version) → count; 1 when absent
    license_models: list[str] = field(default_factory=list)
    start_date: str | None = None
    end_date: str | None = None
    upgrade_email_template: str = "default"
    quantity_per_copy: int = 1
    modified_ms: int = 0

    @property
    def key(self) -> tuple[str, str]:
        return (self.sim.name, self.sim.version)


@dataclass
class Feature:
    name: str
    version: str
    version_format: str
    created_ms: int
    modified_ms: int
    state: str = "DEPLOYED"
    description: str = ""
    max_version: str | None = None
    aggregation_type: str = "NONE"
    overrides: dict[str, Any] = field(default_factory=dict)  # featureOverrideParams as given (postfeature.md)

    @property
    def vendor_string(self) -> str:
        return str(self.overrides.get("vendorString") or "")


@dataclass
class FeatureBundle:
    name: str
    features: list[tuple[str, str, int]]
    created_ms: int
    modified_ms: int
    state: str = "DEPLOYED"
    description: str = ""


@dataclass
class PartNumber:
    part_number: str
    created_ms: int
    modified_ms: int
    description: str = ""
    owner: tuple[str, str] | None = None  # (name, version) of a product, maintenance product or suite
    owner_kind: str | None = None  # product | maintenance | suite
    license_model: str | None = None
    trial: bool = False


@dataclass
class Suite:
    name: str
    version: str
    products: list[tuple[str, str, int]]
    created_ms: int
    modified_ms: int
    state: str = "DEPLOYED"
    description: str = ""
    part_numbers: list[str] = field(default_factory=list)
    license_technology: str = STANDARD_TECHNOLOGY
    license_generator: str = STANDARD_GENERATOR
    host_type: str | None = r.DEFAULT_HOST_TYPE
    used_on_device: bool = False
    package_name: str | None = None
    package_version: str | None = None


class Catalogue:
    """Products, maintenance products, features, bundles, suites and part numbers, indexed."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.products: dict[tuple[str, str], CatalogueProduct] = {}
        self.maintenance: dict[tuple[str, str], CatalogueProduct] = {}
        self.features: dict[tuple[str, str], Feature] = {}
        self.features_by_name: dict[str, list[Feature]] = {}
        self.bundles: dict[str, FeatureBundle] = {}
        self.suites: dict[tuple[str, str], Suite] = {}
        self.part_numbers: dict[str, PartNumber] = {}
        self._build()

    # -- lookups used by the entitlement simulator --

    def product(self, name: str, version: str) -> SimProduct | None:
        found = self.products.get((name, version))
        return found.sim if found else None

    def versions_of(self, name: str) -> list[str]:
        return sorted(version for (n, version) in self.products if n == name)

    def maintenance_product(self, name: str | None, version: str | None, part_number: str | None = None) -> SimProduct | None:
        if name and version:
            found = self.maintenance.get((name, version))
            return found.sim if found else None
        if part_number:
            pn = self.part_numbers.get(part_number)
            if pn and pn.owner_kind == "maintenance" and pn.owner:
                return self.maintenance[pn.owner].sim
        return None

    def product_by_part_number(self, part_number: str) -> SimProduct | None:
        pn = self.part_numbers.get(part_number)
        if pn and pn.owner_kind == "product" and pn.owner:
            return self.products[pn.owner].sim
        return None

    # -- changes --

    def add_feature(self, feature: Feature) -> None:
        self.features[(feature.name, feature.version)] = feature
        self.features_by_name.setdefault(feature.name, []).append(feature)

    def add_part_number(self, pn: PartNumber) -> None:
        self.part_numbers[pn.part_number] = pn

    def find_feature(self, name: str, version: str | None) -> Feature:
        """Rule 5: by name and version, or by name alone when exactly one feature has it (ValueError otherwise)."""
        if version:
            found = self.features.get((name, version))
            if found is None:
                raise ValueError(f"no feature {name} version {version}")
            return found
        matches = self.features_by_name.get(name, [])
        if not matches:
            raise ValueError(f"no feature named {name}")
        if len(matches) > 1:
            versions = ", ".join(sorted(f.version for f in matches))
            raise ValueError(f"{len(matches)} features are named {name} (versions {versions}): give the version")
        return matches[0]

    # -- generation --

    def _build(self) -> None:
        world = self.world
        rng = world.rng("products")
        now = world.created_ms
        standard = world.standard_technology
        technologies = [standard] * 8 + [t for t in world.license_technologies if t is not standard]
        for index, sim in enumerate(world.products):
            for name, version in sim.features:
                if (name, version) not in self.features:
                    created = sim.created_ms - rng.randrange(1, 60) * DAY_MS
                    self.add_feature(Feature(name, version, "FIXED", created, created + rng.randrange(0, 30) * DAY_MS))
            tech = rng.choice(technologies)
            used_on_device = tech.name == "FlexNet Embedded" or (tech.standard and rng.random() < 0.1)
            host = r.host_type_for(tech, used_on_device, None) or ("Embedded Device" if used_on_device else None)
            product = CatalogueProduct(
                sim=sim,
                description=f"{sim.name} {sim.version} ({sim.license_model.lower()} licensing)",
                state="DEPLOYED" if rng.random() < 0.9 else "DRAFT",
                license_technology=tech.name,
                license_generator=tech.generators[0],
                category=CATEGORIES[index % len(CATEGORIES)],
                host_types=[host] if host else [],
                used_on_device=r.used_on_device_for(tech, used_on_device),
                part_numbers=[sim.part_number],
                license_models=[sim.license_model],
                start_date=_ymd(sim.created_ms),
                upgrade_email_template="default" if rng.random() < 0.7 else "none",
                modified_ms=min(now, sim.created_ms + rng.randrange(0, 90) * DAY_MS),
            )
            self.products[product.key] = product
            self.add_part_number(
                PartNumber(
                    sim.part_number,
                    sim.created_ms,
                    product.modified_ms,
                    f"{sim.name} {sim.version}",
                    product.key,
                    "product",
                    sim.license_model,
                )
            )
        # A second version of some features, so "feature by name only" can be ambiguous.
        for feature in list(self.features.values())[::5]:
            if feature.name.endswith("_CORE"):
                created = feature.created_ms + 200 * DAY_MS
                self.add_feature(Feature(feature.name, "2.0", "FIXED", created, created, description="Second generation"))
        for i in range(world.count(6, 4)):
            created = now - rng.randrange(5, 300) * DAY_MS
            self.add_feature(
                Feature(
                    f"PREVIEW_{i:02d}",
                    f"{2025 + i % 2}.{1 + i % 9:02d}",
                    "DATEBASED",
                    created,
                    created,
                    state="DRAFT",
                    description="Preview capability",
                    max_version=f"{2026 + i % 2}.12",
                    aggregation_type=rng.choice(r.AGGREGATION_TYPE.documented),
                )
            )
        words = sorted({name.split("_")[0] for name in self.features_by_name if not name.startswith("PREVIEW")})
        for word in words[: max(4, len(words) // 3)]:
            members = [
                (f.name, f.version, 1) for name, feats in self.features_by_name.items() if name.startswith(word + "_") for f in feats[:1]
            ]
            created = now - rng.randrange(30, 500) * DAY_MS
            self.bundles[f"{word}_BUNDLE"] = FeatureBundle(
                f"{word}_BUNDLE", members, created, created, description=f"All {word.title()} features"
            )
        for name, version, pn in (
            ("Gold Support", "1.0", "MNT-GOLD-001"),
            ("Silver Support", "1.0", "MNT-SILVER-001"),
            ("Platinum Support", "2.0", "MNT-PLAT-002"),
            ("Standard Maintenance", "1.0", "MNT-STD-001"),
        ):
            created = now - rng.randrange(300, 1000) * DAY_MS
            sim = SimProduct(name, version, pn, "Maintenance", [], created)
            self.maintenance[(name, version)] = CatalogueProduct(
                sim=sim,
                description=f"{name} (maintenance)",
                license_models=["Maintenance"],
                part_numbers=[pn],
                category="Maintenance",
                host_types=[],
                modified_ms=created,
            )
            self.add_part_number(PartNumber(pn, created, created, f"{name} {version}", (name, version), "maintenance", "Maintenance"))
        products = list(self.products.values())
        for i in range(world.count(4, 3)):
            members = rng.sample(products, k=min(len(products), rng.randint(2, 4)))
            created = now - rng.randrange(20, 600) * DAY_MS
            name = f"{members[0].sim.name.split()[0]} Suite {i + 1}"
            pn = f"SUITE-{i + 1:03d}"
            suite = Suite(
                name,
                "2025.1",
                [(m.sim.name, m.sim.version, rng.choice([1, 1, 2, 5])) for m in members],
                created,
                created,
                state="DEPLOYED" if i % 4 else "DRAFT",
                description=f"Bundle of {len(members)} products",
                part_numbers=[pn],
                package_name=f"{name} Package",
                package_version="1",
            )
            self.suites[(name, suite.version)] = suite
            self.add_part_number(PartNumber(pn, created, created, f"{name} {suite.version}", (name, suite.version), "suite"))
        for i in range(world.count(10, 6)):
            created = now - rng.randrange(1, 400) * DAY_MS
            model = rng.choice([None, "Trial", "Subscription"])
            self.add_part_number(
                PartNumber(f"PN-SPARE-{i:04d}", created, created, "Unassigned part number", None, None, model, trial=model == "Trial")
            )


def catalogue(world: World) -> Catalogue:
    return world.part("products", Catalogue)


def _ymd(ms: int) -> str:
    from flextui.sim.world import ymd

    return ymd(ms)


# -- rendering ----------------------------------------------------------------------------------


def render_product(p: CatalogueProduct) -> dict[str, Any]:
    sim = p.sim
    return {
        "productName": sim.name,
        "version": sim.version,
        "description": p.description,
        "state": p.state,
        "licenseTechnology": p.license_technology,
        "licenseGenerator": p.license_generator,
        "productCategory": p.category,
        "hostType": p.host_types[0] if p.host_types else None,
        "hostTypes": list(p.host_types),
        "usedOnDevice": p.used_on_device,
        "licenseModel": p.license_models[0] if p.license_models else None,
        "licenseModels": list(p.license_models),
        "features": [{"name": n, "version": ver, "count": p.feature_counts.get((n, ver), 1)} for n, ver in sim.features],
        "featureBundles": [{"name": b, "count": count} for b, count in p.feature_bundles],
        "partNumbers": list(p.part_numbers),
        "startDate": p.start_date,
        "endDate": p.end_date,
        "upgradeEmailTemplate": p.upgrade_email_template,
        "quantityPerCopy": p.quantity_per_copy,
        "creationDate": iso_string(sim.created_ms),
        "lastModifiedDate": iso_string(p.modified_ms or sim.created_ms),
    }


def render_maintenance(p: CatalogueProduct) -> dict[str, Any]:
    return {
        "productName": p.sim.name,
        "version": p.sim.version,
        "description": p.description,
        "state": p.state,
        "partNumbers": list(p.part_numbers),
        "creationDate": iso_string(p.sim.created_ms),
        "lastModifiedDate": iso_string(p.modified_ms or p.sim.created_ms),
    }


def render_part_number(pn: PartNumber) -> dict[str, Any]:
    product = None
    if pn.owner:
        product = {"name": pn.owner[0], "version": pn.owner[1], "licenseModel": pn.license_model, "type": pn.owner_kind}
    return {
        "partNumber": pn.part_number,
        "description": pn.description,
        "product": product,
        "licenseModel": pn.license_model,
        "trialAvailability": pn.trial,
        "creationDate": iso_string(pn.created_ms),
        "lastModifiedDate": iso_string(pn.modified_ms),
    }


def render_feature(f: Feature) -> dict[str, Any]:
    """A feature; its override parameters (a vendor string) where POST /features takes them, `featureOverrideParams`
    (https://fnoapi.redocly.app/apis/rest/product/product-service/feature/postfeature.md): no page shows a feature's answer."""
    shown: dict[str, Any] = {
        "featureName": f.name,
        "version": f.version,
        "versionFormat": f.version_format,
        "maxVersion": f.max_version,
        "description": f.description,
        "aggregationType": f.aggregation_type,
        "state": f.state,
        "creationDate": iso_string(f.created_ms),
        "lastModifiedDate": iso_string(f.modified_ms),
    }
    if f.overrides:
        shown["featureOverrideParams"] = dict(f.overrides)
    return shown


def render_bundle(b: FeatureBundle, cat: Catalogue | None = None) -> dict[str, Any]:
    """A bundle as the list gives it: FeatureBundleResponseDTO, `features: [{name, quantity, state, version}]`
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/FeatureBundleFeatureResponseDTO)."""
    return {
        "featureBundleName": b.name,
        "description": b.description,
        "state": b.state,
        "features": [{"name": n, "version": ver, "quantity": q, "state": _feature_state(cat, n, ver)} for n, ver, q in b.features],
        "creationDate": iso_string(b.created_ms),
        "lastModifiedDate": iso_string(b.modified_ms),
    }


def render_one_bundle(b: FeatureBundle, cat: Catalogue | None = None) -> dict[str, Any]:
    """One bundle (the create answer): FeatureBundleGet, `featureList: [{featureName, quantity, state, version}]` (same page)."""
    return {
        "featureBundleName": b.name,
        "description": b.description,
        "state": b.state,
        "featureList": [
            {"featureName": n, "version": ver, "quantity": q, "state": _feature_state(cat, n, ver)} for n, ver, q in b.features
        ],
        "creationDate": iso_string(b.created_ms),
        "lastModifiedDate": iso_string(b.modified_ms),
    }


def _feature_state(cat: Catalogue | None, name: str, version: str) -> str | None:
    found = cat.features.get((name, version)) if cat else None
    return found.state if found else None


def render_suite(s: Suite, cat: Catalogue | None = None) -> dict[str, Any]:
    def state_of(name: str, version: str) -> str | None:
        found = cat.products.get((name, version)) if cat else None
        return found.state if found else None

    return {
        "suiteName": s.name,
        "version": s.version,
        "description": s.description,
        "state": s.state,
        "partNumbers": list(s.part_numbers),
        "products": [{"productName": n, "version": ver, "quantity": q, "state": state_of(n, ver)} for n, ver, q in s.products],
        "packageName": s.package_name,
        "packageVersion": s.package_version,
        "hostType": s.host_type,
        "licenseTechnology": s.license_technology,
        "licenseGenerator": s.license_generator,
        "usedOnDevice": s.used_on_device,
        "creationDate": iso_string(s.created_ms),
        "lastModifiedDate": iso_string(s.modified_ms),
    }


# -- listing ------------------------------------------------------------------------------------


def _text_filters(query: Any, records: Iterable[Any], spec: dict[str, Callable[[Any, str], bool]]) -> list[Any]:
    active = [(test, query.get(name)) for name, test in spec.items() if query.get(name)]
    return [rec for rec in records if all(test(rec, value) for test, value in active)]


def _since(query: Any, records: list[Any], name: str, stamp: Callable[[Any], int]) -> list[Any]:
    since = r.query_since(query, name)
    return records if since is None else [rec for rec in records if stamp(rec) >= since]


def _sorted(records: list[Any], lq: ListQuery, keys: dict[str, Callable[[Any], Any]]) -> list[Any]:
    return sorted(records, key=keys[lq.sort_by], reverse=lq.descending)


def _created_modified_since(query: Any, records: list[Any], created: Callable[[Any], int], modified: Callable[[Any], int]) -> list[Any]:
    """Apply the creationDate and lastModifiedDate ("on or after") filters in turn."""
    return _since(query, _since(query, records, "creationDate", created), "lastModifiedDate", modified)


def _catalogue_query(request: Request, sort_keys: tuple[str, ...], default_sort: str) -> tuple[Catalogue, Any, ListQuery]:
    """Authenticate a list request; its catalogue, query parameters, page and sort order."""
    caller_of(request)
    return catalogue(world_of(request)), request.query_params, list_query(request, sort_keys, default_sort)


def _page(lq: ListQuery, items: list[Any], key: str, render: Callable[[Any], dict[str, Any]], message: str) -> Response:
    """The products service's list envelope for one page of `items` (already filtered and sorted)."""
    return json_response(
        {
            "status": "success",
            "message": message,
            "pagination": pagination(lq, len(items)),
            key: [render(x) for x in lq.take(items)],
        }
    )


@beta_errors
async def list_products(request: Request) -> Response:
    cat, q, lq = _catalogue_query(request, PRODUCT_SORT_KEYS, "productName")
    state = r.query_choice(q, "state", r.PRODUCT_STATE_FILTER.rule())
    items = _text_filters(
        q,
        cat.products.values(),
        {
            "productName": lambda p, x: _contains(p.sim.name, x),
            "version": lambda p, x: p.sim.version == x,
            "licenseTechnology": lambda p, x: _same(p.license_technology, x),
            "productCategory": lambda p, x: _contains(p.category, x),
            "partNumber": lambda p, x: x in p.part_numbers,
            "featureName": lambda p, x: any(_same(n, x) for n, _ in p.sim.features),
            "licenseModel": lambda p, x: any(_same(m, x) for m in p.license_models),
        },
    )
    if state:
        items = [p for p in items if p.state == state]
    items = _created_modified_since(q, items, lambda p: p.sim.created_ms, lambda p: p.modified_ms)
    items = _sorted(
        items,
        lq,
        {
            "productName": lambda p: (p.sim.name.lower(), p.sim.version),
            "version": lambda p: (p.sim.version, p.sim.name.lower()),
            "creationDate": lambda p: p.sim.created_ms,
            "lastModifiedDate": lambda p: p.modified_ms,
        },
    )
    return _page(lq, items, "productList", render_product, "Products retrieved successfully")


@beta_errors
async def list_maintenance(request: Request) -> Response:
    cat, q, lq = _catalogue_query(request, ("productName", "version", "creationDate"), "productName")
    items = _text_filters(
        q,
        cat.maintenance.values(),
        {
            "productName": lambda p, x: _contains(p.sim.name, x),
            "version": lambda p, x: p.sim.version == x,
            "state": lambda p, x: _same(p.state, x),
            "partNumber": lambda p, x: x in p.part_numbers,
        },
    )
    items = _sorted(
        items,
        lq,
        {
            "productName": lambda p: (p.sim.name.lower(), p.sim.version),
            "version": lambda p: (p.sim.version, p.sim.name.lower()),
            "creationDate": lambda p: p.sim.created_ms,
        },
    )
    return _page(lq, items, "maintenanceList", render_maintenance, "Maintenance products retrieved successfully")


@beta_errors
async def list_part_numbers(request: Request) -> Response:
    cat, q, lq = _catalogue_query(request, PART_NUMBER_SORT_KEYS, "partNumber")
    items = _text_filters(
        q,
        cat.part_numbers.values(),
        {
            "partNumber": lambda p, x: _contains(p.part_number, x),
            "productName": lambda p, x: p.owner is not None and _contains(p.owner[0], x),
            "licenseModel": lambda p, x: _same(p.license_model, x),
        },
    )
    unmapped_product = r.query_bool(q, "unmappedWithProduct")
    if unmapped_product is not None:
        items = [p for p in items if (p.owner is None) == unmapped_product]
    unmapped_model = r.query_bool(q, "unmappedWithLicenseModel")
    if unmapped_model is not None:
        items = [p for p in items if (p.license_model is None) == unmapped_model]
    items = _created_modified_since(q, items, lambda p: p.created_ms, lambda p: p.modified_ms)
    items = _sorted(
        items,
        lq,
        {
            "partNumber": lambda p: p.part_number,
            "productName": lambda p: ((p.owner or ("",))[0].lower(), p.part_number),
            "licenseModel": lambda p: (p.license_model or "", p.part_number),
            "creationDate": lambda p: (p.created_ms, p.part_number),
            "lastModifiedDate": lambda p: (p.modified_ms, p.part_number),
        },
    )
    return _page(lq, items, "partNumbers", render_part_number, "Part numbers retrieved successfully")


@beta_errors
async def list_features(request: Request) -> Response:
    cat, q, lq = _catalogue_query(request, FEATURE_SORT_KEYS, "name")
    strict = strict_enums(request)
    version_format = r.query_choice(q, "versionFormat", r.VERSION_FORMAT.rule(strict))
    state = r.query_choice(q, "state", r.FEATURE_STATE_FILTER.rule(strict))
    items = _text_filters(
        q,
        cat.features.values(),
        {
            "name": lambda f, x: _contains(f.name, x),
            "version": lambda f, x: f.version == x,
            "vendorAuthString": lambda f, x: _contains(f.vendor_string, x),
        },
    )
    if version_format:
        items = [f for f in items if f.version_format == version_format]
    if state:
        items = [f for f in items if f.state == state]
    items = _created_modified_since(q, items, lambda f: f.created_ms, lambda f: f.modified_ms)
    items = _sorted(
        items,
        lq,
        {
            "name": lambda f: (f.name.lower(), f.version),
            "version": lambda f: (f.version, f.name.lower()),
            "creationDate": lambda f: f.created_ms,
            "lastModifiedDate": lambda f: f.modified_ms,
        },
    )
    return _page(lq, items, "features", render_feature, "Features retrieved successfully")


@beta_errors
async def list_bundles(request: Request) -> Response:
    cat, q, lq = _catalogue_query(request, ("name", "creationDate"), "name")
    items = _text_filters(
        q,
        cat.bundles.values(),
        {
            "name": lambda b, x: _contains(b.name, x),
            "state": lambda b, x: _same(b.state, x),
            "featureName": lambda b, x: any(_same(n, x) for n, _, _ in b.features),
        },
    )
    items = _sorted(items, lq, {"name": lambda b: b.name.lower(), "creationDate": lambda b: b.created_ms})
    return _page(lq, items, "featureBundles", lambda b: render_bundle(b, cat), "Feature bundles retrieved successfully")


@beta_errors
async def list_suites(request: Request) -> Response:
    cat, q, lq = _catalogue_query(request, SUITE_SORT_KEYS, "suiteName")
    used = r.query_bool(q, "usedOnDevice")
    if strict_enums(request):  # by default any spelling filters (an unknown state matches nothing)
        r.query_choice(q, "state", r.SUITE_STATE_FILTER.rule(True))
    items = _text_filters(
        q,
        cat.suites.values(),
        {
            "suiteName": lambda s, x: _contains(s.name, x),
            "version": lambda s, x: s.version == x,
            "description": lambda s, x: _contains(s.description, x),
            "partNumber": lambda s, x: x in s.part_numbers,
            "state": lambda s, x: _same(s.state, x),
            "packageName": lambda s, x: _contains(s.package_name, x),
            "packageVersion": lambda s, x: s.package_version == x,
            "hostType": lambda s, x: _same(s.host_type, x),
            "licenseTechnology": lambda s, x: _same(s.license_technology, x),
            "licenseGenerator": lambda s, x: _same(s.license_generator, x),
        },
    )
    if used is not None:
        items = [s for s in items if s.used_on_device == used]
    items = _created_modified_since(q, items, lambda s: s.created_ms, lambda s: s.modified_ms)
    items = _sorted(items, lq, {"suiteName": lambda s: (s.name.lower(), s.version), "createdOn": lambda s: s.created_ms})
    return _page(lq, items, "suiteList", lambda s: render_suite(s, cat), "Suites retrieved successfully")


async def get_suite(request: Request) -> Response:
    caller_of(request)
    cat = catalogue(world_of(request))
    name, version = request.path_params["name"], request.path_params["version"]
    suite = cat.suites.get((name, version))
    if suite is None:
        raise SimError(404, f"no suite {name!r} version {version!r}")
    return json_response({"status": "success", "suite": render_suite(suite, cat)})


# -- creating -----------------------------------------------------------------------------------


LICENSE_MODEL = r.Choice(LICENSE_MODELS, store=str)
# "Name of the product. Maximum length: 128 characters" (the GraphQL product input,
# https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/FeatureBundleInput); other catalogue names keep rules.NAME_MAX.
PRODUCT_NAME_MAX = 128


def product_name(value: str) -> str:
    r.not_blank(value)
    return r.at_most(PRODUCT_NAME_MAX)(value)


async def _producer_body(request: Request, what: str) -> tuple[World, Catalogue, Body]:
    """Authenticate a create request as a producer doing `what`; its world, catalogue and body."""
    producer_of(request, what)
    world = world_of(request)
    return world, catalogue(world), await read_body(request)


def _technology(world: World, body: Body) -> tuple[LicenseTechnology, str, bool]:
    """licenseTechnology, licenseGenerator and usedOnDevice by rules 2, 3 and 9, from the tenant's technologies."""
    given = body.text("licenseTechnology", blank_is_none=True)
    tech: LicenseTechnology = (
        body.apply("licenseTechnology", given, lambda t: r.license_technology(t, world.license_technologies))
        if given
        else world.standard_technology
    )
    generator = body.text("licenseGenerator", blank_is_none=True)
    generator = body.apply("licenseGenerator", generator, lambda g: r.license_generator(g, tech)) if generator else tech.generators[0]
    used = r.used_on_device_for(tech, body.flag("usedOnDevice"))
    return tech, generator, used


def _suite_host(body: Body, tech: LicenseTechnology, used: bool) -> str | None:
    """A suite's hostType, or the default of rule 6."""
    host = body.text("hostType", blank_is_none=True)
    if host is not None:
        body.apply("hostType", host, r.catalogue_name)
    return r.host_type_for(tech, used, host)


def _product_hosts(body: Body, tech: LicenseTechnology, used: bool) -> list[str]:
    """A product's host types: `hostTypes`, "List of host types" (the GraphQL product input,
    https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/FeatureBundleInput), and the seed's single `hostType`
    (seed 002 names it among the product's fields): both are documented, so both are taken. None given: rule 6."""
    hosts = body.strings("hostTypes", rule=r.catalogue_name)
    single = body.text("hostType", blank_is_none=True)
    if single is not None:
        body.apply("hostType", single, r.catalogue_name)
        hosts = hosts if single in hosts else [*hosts, single]
    body.apply("hostTypes", hosts, lambda hs: r.no_repeats(hs, "host type"))
    if hosts:
        return hosts
    default = r.host_type_for(tech, used, None)
    return [default] if default else []


def _undocumented(item: Body, key: str, documented: str, where: str) -> None:
    """Refuse `key`, a name the pages do not give `where` (the simulator's choice, see the module's docstring)."""
    if key in item.obj:
        raise item.problem(key, f"is not a field of {where}: the documented name is {documented}")


def _new_part_numbers(cat: Catalogue, body: Body, owner: tuple[str, str], kind: str) -> list[str]:
    """Check the body's partNumbers (strings): valid, not repeated, not owned elsewhere (409)."""
    numbers = body.strings("partNumbers", rule=r.part_number)
    body.apply("partNumbers", numbers, lambda ns: r.no_repeats(ns, "part number"))
    for i, number in enumerate(numbers):
        existing = cat.part_numbers.get(number)
        if existing and existing.owner is not None and existing.owner != owner:
            raise SimError(
                409,
                f"partNumbers[{i}]: part number {number!r} already belongs to {existing.owner_kind} {existing.owner[0]} {existing.owner[1]}",
                f"partNumbers[{i}]",
            )
    return numbers


def _map_part_numbers(cat: Catalogue, numbers: list[str], owner: tuple[str, str], kind: str, license_model: str | None, now: int) -> None:
    for number in numbers:
        existing = cat.part_numbers.get(number)
        if existing is None:
            cat.add_part_number(PartNumber(number, now, now, f"{owner[0]} {owner[1]}", owner, kind, license_model))
        else:
            existing.owner, existing.owner_kind, existing.modified_ms = owner, kind, now
            existing.license_model = existing.license_model or license_model


def _feature_refs(cat: Catalogue, items: list[Body], name_key: str, count_key: str) -> list[tuple[Feature, int]]:
    """Features by name (and version, rule 5) with a count of at least 1, named `name_key` and `count_key`."""
    refs = []
    for item in items:
        name = item.text(name_key, required=True, rule=r.feature_name)
        version = item.text("version", blank_is_none=True)
        count = item.number(count_key, default=1, rule=r.int32(1))
        try:
            refs.append((cat.find_feature(name, version), count))
        except ValueError as exc:
            raise FieldProblem(item.at(name_key), str(exc)) from None
    return refs


def _product_features(cat: Catalogue, body: Body) -> list[tuple[Feature, int]]:
    """A product's features, `{name, version, count}` ("Feature information for product creation",
    https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/GroupMaskDataTypeInput)."""
    items = body.objects("features")
    for item in items:
        _undocumented(item, "featureName", "name", "a product's feature")
    return _feature_refs(cat, items, "name", "count")


def _product_bundles(cat: Catalogue, body: Body) -> list[tuple[FeatureBundle, int]]:
    """A product's feature bundles, `{name, count}` ("Feature bundle information for product creation", same page)."""
    bundles = []
    for item in body.objects("featureBundles"):
        _undocumented(item, "featureBundleName", "name", "a product's feature bundle")
        name = item.text("name", required=True, rule=r.catalogue_name)
        count = item.number("count", default=1, rule=r.int32(1))
        if name not in cat.bundles:
            raise item.problem("name", f"no feature bundle named {name}")
        bundles.append((cat.bundles[name], count))
    return bundles


def _bundle_features(cat: Catalogue, body: Body) -> list[tuple[Feature, int]]:
    """A new bundle's features, `{featureName, quantity, version}` ("Feature within a feature bundle", same page)."""
    items = body.objects("features", required=True, min_items=1)
    for item in items:
        _undocumented(item, "count", "quantity", "a bundle's feature")
    return _feature_refs(cat, items, "featureName", "quantity")


OVERRIDE_TEXT_MAX = 255  # vendorString, notice, serialNumber: "Maximum length: 255 characters" (FeatureOverrideParamsInput)
OVERRIDE_CHOICE = r.Choice(("Yes", "No", "Do_Not_Override"), store=lambda x: x)  # counted, reusable
DUP_GROUP_OPTION = r.Choice(("NO_OVERRIDE", "GROUPMASK", "NONE"))
GROUP_MASK_OPTION = r.Choice(("USER", "HOST", "DISPLAY", "VENDOR"))


def _feature_overrides(body: Body, strict: bool) -> dict[str, Any]:
    """featureOverrideParams of POST /features (https://fnoapi.redocly.app/apis/rest/product/product-service/feature/postfeature.md),
    its limits and values as FeatureOverrideParamsInput gives them (…/fno-schema/inputs/GroupMaskDataTypeInput)."""
    params = body.object("featureOverrideParams")
    if params is None:
        return {}
    out: dict[str, Any] = {}
    for key in ("vendorString", "notice", "serialNumber"):
        text = params.text(key, rule=r.at_most(OVERRIDE_TEXT_MAX))
        if text is not None:
            out[key] = text
    if params.has("borrowable"):
        out["borrowable"] = params.flag("borrowable")
    for key in ("counted", "reusable"):
        choice = params.text(key, rule=OVERRIDE_CHOICE.rule(strict), blank_is_none=True)
        if choice is not None:
            out[key] = choice
    dup = params.object("dupGroup")
    if dup is not None:
        group: dict[str, Any] = {}
        option = dup.text("dupGroupOption", rule=DUP_GROUP_OPTION.rule(strict), blank_is_none=True)
        if option is not None:
            group["dupGroupOption"] = option
        mask = dup.object("groupMask")
        if mask is not None:
            group["groupMask"] = {"option": mask.strings("option", rule=GROUP_MASK_OPTION.rule(strict))}
        out["dupGroup"] = group
    return out


@beta_errors
async def create_product(request: Request) -> Response:
    world, cat, body = await _producer_body(request, "creating a product")
    strict = strict_enums(request)
    name = body.text("productName", required=True, rule=product_name)
    version = body.text("version", required=True, rule=r.catalogue_version)
    description = body.text("description", rule=r.at_most(r.DESCRIPTION_MAX)) or ""
    tech, generator, used = _technology(world, body)
    hosts = _product_hosts(body, tech, used)
    category = body.text("productCategory", rule=r.catalogue_name, blank_is_none=True) or r.DEFAULT_PRODUCT_CATEGORY
    features = _product_features(cat, body)
    bundles = _product_bundles(cat, body)
    models = body.strings("licenseModels", rule=LICENSE_MODEL.rule())
    start = body.text("startDate", rule=r.ymd_date, blank_is_none=True)
    end = body.text("endDate", rule=r.ymd_date, blank_is_none=True)
    body.apply("endDate", end, lambda e: r.not_before(start)(e))
    template = body.text("upgradeEmailTemplate", rule=r.UPGRADE_EMAIL_TEMPLATE.rule(strict), blank_is_none=True) or "default"
    per_copy = body.number("quantityPerCopy", default=1, rule=r.int32(1))
    deploy = body.flag("autoDeploy")
    if (name, version) in cat.products:
        raise SimError(409, f"productName: a product {name} version {version} already exists", "productName")
    numbers = _new_part_numbers(cat, body, (name, version), "product")
    now = world.now_ms()
    sim = SimProduct(
        name, version, numbers[0] if numbers else "", models[0] if models else "Perpetual", [(f.name, f.version) for f, _ in features], now
    )
    product = CatalogueProduct(
        sim=sim,
        description=description,
        state="DEPLOYED" if deploy else "DRAFT",
        license_technology=tech.name,
        license_generator=generator,
        category=category,
        host_types=hosts,
        used_on_device=used,
        part_numbers=numbers,
        feature_bundles=[(b.name, count) for b, count in bundles],
        feature_counts={(f.name, f.version): count for f, count in features},
        license_models=models or ["Perpetual"],
        start_date=start,
        end_date=end,
        upgrade_email_template=template,
        quantity_per_copy=per_copy,
        modified_ms=now,
    )
    if deploy:
        for feature, _ in features:
            feature.state = "DEPLOYED"
        for bundle, _ in bundles:
            bundle.state = "DEPLOYED"
            for fname, fversion, _ in bundle.features:
                if (fname, fversion) in cat.features:
                    cat.features[(fname, fversion)].state = "DEPLOYED"
    cat.products[product.key] = product
    _map_part_numbers(cat, numbers, product.key, "product", sim.license_model, now)
    return created(
        request,
        {"status": "success", "message": "Product created successfully", "product": render_product(product)},
        message="Product created successfully",
    )


@beta_errors
async def create_maintenance(request: Request) -> Response:
    world, cat, body = await _producer_body(request, "creating a maintenance product")
    name = body.text("productName", required=True, rule=r.catalogue_name)
    version = body.text("version", required=True, rule=r.catalogue_version)
    description = body.text("description", rule=r.at_most(r.DESCRIPTION_MAX)) or ""
    deploy = body.flag("autoDeploy")
    if (name, version) in cat.maintenance:
        raise SimError(409, f"productName: a maintenance product {name} version {version} already exists", "productName")
    numbers = _new_part_numbers(cat, body, (name, version), "maintenance")
    now = world.now_ms()
    product = CatalogueProduct(
        sim=SimProduct(name, version, numbers[0] if numbers else "", "Maintenance", [], now),
        description=description,
        state="DEPLOYED" if deploy else "DRAFT",
        category="Maintenance",
        host_types=[],
        part_numbers=numbers,
        license_models=["Maintenance"],
        modified_ms=now,
    )
    cat.maintenance[product.key] = product
    _map_part_numbers(cat, numbers, product.key, "maintenance", "Maintenance", now)
    return created(
        request,
        {"status": "success", "message": "Maintenance product created successfully", "maintenance": render_maintenance(product)},
        message="Maintenance product created successfully",
    )


@beta_errors
async def create_part_numbers(request: Request) -> Response:
    world, cat, body = await _producer_body(request, "creating part numbers")
    planned: list[PartNumber] = []
    seen: set[str] = set()
    now = world.now_ms()
    for i, item in enumerate(body.objects("partNumbers", required=True, min_items=1)):
        number = item.text("partNumber", required=True, rule=r.part_number)
        description = item.text("description", rule=r.at_most(r.DESCRIPTION_MAX)) or ""
        product_name = item.text("productName", blank_is_none=True)
        product_version = item.text("productVersion", blank_is_none=True)
        if bool(product_name) != bool(product_version):
            missing = "productVersion" if product_name else "productName"
            raise item.problem(missing, "give productName and productVersion together")
        owner = None
        if product_name and product_version:
            if (product_name, product_version) not in cat.products:
                raise item.problem("productName", f"no product {product_name} version {product_version}")
            owner = (product_name, product_version)
        model = item.text("licenseModel", blank_is_none=True, rule=LICENSE_MODEL.rule())
        if number in seen or number in cat.part_numbers:
            raise SimError(409, f"partNumbers[{i}].partNumber: part number {number!r} already exists", f"partNumbers[{i}].partNumber")
        seen.add(number)
        planned.append(
            PartNumber(number, now, now, description, owner, "product" if owner else None, model, item.flag("trialAvailability"))
        )
    for pn in planned:
        cat.add_part_number(pn)
        if pn.owner:
            cat.products[pn.owner].part_numbers.append(pn.part_number)
    return created(
        request,
        {
            "status": "success",
            "message": "Part numbers created successfully",
            "results": [{"index": i, "result": {"status": "success", "partNumber": pn.part_number}} for i, pn in enumerate(planned)],
            "partNumbers": [render_part_number(pn) for pn in planned],
        },
        message="Part numbers created successfully",
    )


@beta_errors
async def create_feature(request: Request) -> Response:
    world, cat, body = await _producer_body(request, "creating a feature")
    strict = strict_enums(request)
    name = body.text("featureName", required=True, rule=r.feature_name)
    version_format = body.text("versionFormat", required=True, rule=r.VERSION_FORMAT.rule(strict))
    version = body.text("version", rule=r.catalogue_version, blank_is_none=True) or "1.0"
    max_version = body.text("maxVersion", rule=r.max_version, blank_is_none=True)
    description = body.text("description", rule=r.at_most(r.DESCRIPTION_MAX)) or ""
    aggregation = body.text("aggregationType", rule=r.AGGREGATION_TYPE.rule(strict), blank_is_none=True) or "NONE"
    _undocumented(body, "vendorString", "featureOverrideParams.vendorString", "POST /features")
    overrides = _feature_overrides(body, strict)
    deploy = body.flag("autoDeploy")
    if (name, version) in cat.features:
        raise SimError(409, f"featureName: a feature {name} version {version} already exists", "featureName")
    now = world.now_ms()
    feature = Feature(
        name, version, version_format, now, now, "DEPLOYED" if deploy else "DRAFT", description, max_version, aggregation, overrides
    )
    cat.add_feature(feature)
    return created(
        request,
        {"status": "success", "message": "Feature created successfully", "feature": render_feature(feature)},
        message="Feature created successfully",
    )


@beta_errors
async def create_bundle(request: Request) -> Response:
    world, cat, body = await _producer_body(request, "creating a feature bundle")
    name = body.text("featureBundleName", required=True, rule=r.catalogue_name)
    description = body.text("description", rule=r.at_most(r.DESCRIPTION_MAX)) or ""
    refs = _bundle_features(cat, body)
    deploy = body.flag("autoDeploy")
    if name in cat.bundles:
        raise SimError(409, f"featureBundleName: a feature bundle named {name} already exists", "featureBundleName")
    now = world.now_ms()
    bundle = FeatureBundle(
        name, [(f.name, f.version, count) for f, count in refs], now, now, "DEPLOYED" if deploy else "DRAFT", description
    )
    if deploy:
        for feature, _ in refs:
            feature.state = "DEPLOYED"
    cat.bundles[name] = bundle
    return created(
        request,
        {"status": "success", "message": "Feature bundle created successfully", "featureBundle": render_one_bundle(bundle, cat)},
        message="Feature bundle created successfully",
    )


@beta_errors
async def create_suite(request: Request) -> Response:
    world, cat, body = await _producer_body(request, "creating a suite")
    name = body.text("suiteName", required=True, rule=r.catalogue_name)
    version = body.text("version", required=True, rule=r.catalogue_version)
    description = body.text("description", rule=r.at_most(r.DESCRIPTION_MAX)) or ""
    tech, generator, used = _technology(world, body)
    host = _suite_host(body, tech, used)
    members: list[tuple[str, str, int]] = []
    for item in body.objects("products", required=True, min_items=1):
        pname = item.text("productName", required=True)
        pversion = item.text("version", required=True)
        quantity = item.number("quantity", default=1, rule=r.int32(1))
        if (pname, pversion) not in cat.products:
            raise item.problem("productName", f"no product {pname} version {pversion}")
        members.append((pname, pversion, quantity))
    package_name = body.text("packageName", blank_is_none=True)
    package_version = body.text("packageVersion", blank_is_none=True)
    deploy = body.flag("autoDeploy")
    if (name, version) in cat.suites:
        raise SimError(409, f"suiteName: a suite {name} version {version} already exists", "suiteName")
    numbers = _new_part_numbers(cat, body, (name, version), "suite")
    now = world.now_ms()
    suite = Suite(
        name,
        version,
        members,
        now,
        now,
        "DEPLOYED" if deploy else "DRAFT",
        description,
        numbers,
        tech.name,
        generator,
        host,
        used,
        package_name,
        package_version,
    )
    cat.suites[(name, version)] = suite
    _map_part_numbers(cat, numbers, (name, version), "suite", None, now)
    return created(
        request,
        {"status": "success", "message": "Suite created successfully", "suite": render_suite(suite, cat)},
        message="Suite created successfully",
    )


def routes(world: World) -> list[BaseRoute]:
    catalogue(world)  # build now so the first request is not the slow one
    return [
        Route("/products", list_products, methods=["GET"]),
        Route("/products", create_product, methods=["POST"]),
        Route("/maintenance", list_maintenance, methods=["GET"]),
        Route("/maintenance", create_maintenance, methods=["POST"]),
        Route("/part-numbers", list_part_numbers, methods=["GET"]),
        Route("/part-numbers", create_part_numbers, methods=["POST"]),
        Route("/features", list_features, methods=["GET"]),
        Route("/features", create_feature, methods=["POST"]),
        Route("/feature-bundles", list_bundles, methods=["GET"]),
        Route("/feature-bundles", create_bundle, methods=["POST"]),
        Route("/suites", list_suites, methods=["GET"]),
        Route("/suites", create_suite, methods=["POST"]),
        Route("/suites/{name}/{version}", get_suite, methods=["GET"]),
    ]
