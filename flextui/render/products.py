"""Catalogue records (products, features, bundles, suites, part numbers, maintenance) as flat rows for the CLI and the catalogue tables."""

from __future__ import annotations

from typing import Any

from flextui.api.products import (
    Feature,
    FeatureBundle,
    MaintenanceProduct,
    PartNumber,
    Product,
    Suite,
)
from flextui.render.words import iso


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
        "feature_bundles": ", ".join(p.bundle_names),
        "license_generator": p.license_generator,
        "host_type": p.host_type or ", ".join(p.host_types),
        "used_on_device": p.used_on_device,
        "start_date": p.start_date,
        "end_date": p.end_date,
        "description": p.description,
        "created": _day(p.created),
        "modified": iso(p.modified),
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
        "modified": iso(f.modified),
    }


def bundle_row(b: FeatureBundle) -> dict[str, Any]:
    return {
        "name": b.feature_bundle_name,
        "state": b.state,
        "features": ", ".join(f"{f.feature_name} {f.version}" if f.version else f.feature_name for f in b.features),
        "description": b.description,
        "created": _day(b.created),
        "modified": iso(b.modified),
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
