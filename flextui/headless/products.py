"""Headless catalogue listing: products, features, feature bundles, suites, part numbers, maintenance.

`flextui get products [NAME] --filter state=DEPLOYED` and the same for the
other catalogue kinds. TARGET is the name filter of the kind. The row
functions here are also the catalogue screen's rows, so the TUI and the CLI
show the same columns.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Callable
from typing import Any

from flextui.api.http import Session
from flextui.api.products import (
    Feature,
    FeatureBundle,
    FeatureBundleFilter,
    FeatureFilter,
    MaintenanceFilter,
    MaintenanceProduct,
    PartNumber,
    PartNumberFilter,
    Product,
    ProductFilter,
    ProductsService,
    Suite,
    SuiteFilter,
)
from flextui.headless.common import iso as _iso, page_size, pager_rows, target_filters


def _day(moment: Any) -> str | None:
    return moment.date().isoformat() if moment is not None else None


def product_row(p: Product) -> dict[str, Any]:
    return {
        "name": p.product_name,
        "version": p.version,
        "state": p.state,
        "license_technology": p.license_technology,
        "category": p.product_category,
        "part_numbers": ", ".join(p.part_numbers),
        "license_models": ", ".join(p.license_models),
        "features": ", ".join(f"{f.feature_name} {f.version}" if f.version else f.feature_name for f in p.features),
        "feature_bundles": ", ".join(p.feature_bundles),
        "license_generator": p.license_generator,
        "host_type": p.host_type or ", ".join(p.host_types),
        "used_on_device": p.used_on_device,
        "start_date": p.start_date,
        "end_date": p.end_date,
        "description": p.description,
        "created": _day(p.created),
        "modified": _iso(p.modified),
    }


def feature_row(f: Feature) -> dict[str, Any]:
    return {
        "name": f.feature_name,
        "version": f.version,
        "state": f.state,
        "version_format": f.version_format,
        "aggregation": f.aggregation_type,
        "max_version": f.max_version,
        "vendor_string": f.vendor_string,
        "description": f.description,
        "created": _day(f.created),
        "modified": _iso(f.modified),
    }


def bundle_row(b: FeatureBundle) -> dict[str, Any]:
    return {
        "name": b.feature_bundle_name,
        "state": b.state,
        "features": ", ".join(f"{f.feature_name} {f.version}" if f.version else f.feature_name for f in b.features),
        "description": b.description,
        "created": _day(b.created),
        "modified": _iso(b.modified),
    }


def suite_row(s: Suite) -> dict[str, Any]:
    return {
        "name": s.suite_name,
        "version": s.version,
        "state": s.state,
        "products": ", ".join(f"{p.product_name} {p.version or ''}".strip() for p in s.products),
        "part_numbers": ", ".join(s.part_numbers),
        "package": " ".join(x for x in (s.package_name, s.package_version) if x),
        "license_technology": s.license_technology,
        "host_type": s.host_type,
        "description": s.description,
        "created": _day(s.created),
    }


def part_number_row(p: PartNumber) -> dict[str, Any]:
    owner = p.product
    return {
        "name": p.part_number,
        "product": " ".join(x for x in ((owner.name if owner else None), (owner.version if owner else None)) if x),
        "license_model": p.license_model or (owner.license_model if owner else None),
        "type": owner.type if owner else None,
        "trial": p.trial_availability,
        "description": p.description,
        "created": _day(p.created),
    }


def maintenance_row(m: MaintenanceProduct) -> dict[str, Any]:
    return {
        "name": m.product_name,
        "version": m.version,
        "state": m.state,
        "part_numbers": ", ".join(m.part_numbers),
        "description": m.description,
        "created": _day(m.created),
    }


# kind id → (service method, filter model, name filter key, row function)
LISTS: dict[str, tuple[str, type[Any], str, Callable[[Any], dict[str, Any]]]] = {
    "products": ("products", ProductFilter, "productName", product_row),
    "features": ("features", FeatureFilter, "name", feature_row),
    "feature-bundles": ("feature_bundles", FeatureBundleFilter, "name", bundle_row),
    "suites": ("suites", SuiteFilter, "suiteName", suite_row),
    "part-numbers": ("part_numbers", PartNumberFilter, "partNumber", part_number_row),
    "maintenance": ("maintenance", MaintenanceFilter, "productName", maintenance_row),
}


def _lister(kind: str) -> Callable[[Session, argparse.Namespace], AsyncIterator[dict[str, Any]]]:
    method, model, name_key, row = LISTS[kind]

    async def lister(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
        filters = target_filters(args, model, what=kind, target_key=name_key)
        async for item_row in pager_rows(ProductsService(session).every(method, filters, page_size(args)), row):
            yield item_row

    lister.__name__ = f"get_{method}"
    lister.__doc__ = f"{kind} of the catalogue; TARGET filters by {name_key}; --filter takes the list's query names."
    return lister


get_products = _lister("products")
get_features = _lister("features")
get_feature_bundles = _lister("feature-bundles")
get_suites = _lister("suites")
get_part_numbers = _lister("part-numbers")
get_maintenance = _lister("maintenance")
