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
    FeatureBundleFilter,
    FeatureFilter,
    MaintenanceFilter,
    PartNumberFilter,
    ProductFilter,
    ProductsService,
    SuiteFilter,
)
from flextui.headless.common import page_size, pager_rows, target_filters
from flextui.render.products import (
    bundle_row,
    feature_row,
    maintenance_row,
    part_number_row,
    product_row,
    suite_row,
)

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
