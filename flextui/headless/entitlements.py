"""Headless entitlement listing: `flextui get entitlements [ACCOUNT]` and `flextui get line-items ENTITLEMENT`.

`parse_filters` lives in `flextui.headless.common` and is re-exported here,
where the TUI imports it from.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Iterable
from typing import Any

from flextui.api.entitlements import Entitlement, EntitlementFilter, EntitlementsService, LineItem, LineItemFilter
from flextui.api.http import Session
from flextui.headless.common import iso as _iso, page_size, pager_rows, parse_filters, target_filters


def attributes_text(attributes: Iterable[Any]) -> str:
    """`Region=APAC; SalesOrder=SO-1`: name=value pairs in one flat cell."""
    return "; ".join(f"{a.name}={'' if a.value is None else a.value}" for a in attributes)


def policies_text(policies: dict[str, Any]) -> str:
    """`rehosts=3 per 30 DAYS; extraActivations=2`: a line item's policies in one flat cell."""
    parts = []
    for key, value in policies.items():
        if isinstance(value, dict):
            count = value.get("allowedCount")
            term = value.get("policyTermDuration")
            unit = value.get("policyTermUnit") or ""
            text = "" if count is None else str(count)
            if term is not None:
                text += f" per {term} {unit}".rstrip()
            parts.append(f"{key}={text.strip()}")
        else:
            parts.append(f"{key}={str(value).lower() if isinstance(value, bool) else value}")
    return "; ".join(parts)


def entitlement_row(ent: Entitlement) -> dict[str, Any]:
    owner = ent.owner
    return {
        "entitlement_id": ent.entitlement_id,
        "account": (owner.account_name or owner.account_id) if owner else None,
        "account_id": owner.account_id if owner else None,
        "status": ent.status,
        "line_items": ent.line_item_count,
        "created": ent.created.date().isoformat() if ent.created else None,
        "description": ent.description,
        "ship_to_email": ent.ship_to_email,
        "ship_to_address": ent.ship_to_address,
        "allow_portal_login": ent.allow_portal_login,
        "accounts": ", ".join(a.account_id or "" for a in ent.accounts),
        "attributes": attributes_text(ent.attributes),
        "created_on": _iso(ent.created),
        "updated_on": _iso(ent.updated),
    }


def line_item_row(li: LineItem, entitlement_id: str | None = None) -> dict[str, Any]:
    product = li.product
    model = product.license_model if product else None
    return {
        "activation_id": li.activation_id,
        "entitlement_id": li.entitlement_id or entitlement_id,
        "product": product.product_name if product else None,
        "version": product.product_version if product else None,
        "part_number": product.part_number if product else None,
        "license_model": model.license_model_name if model else None,
        "quantity": li.quantity,
        "quantity_per_copy": li.quantity_per_copy,
        "start_date": li.start_date,
        "expiry_date": li.expiry_date,
        "permanent": li.permanent,
        "state": li.state,
        "order_type": li.order_type,
        "maintenance": li.maintenance,
        "parent_activation_id": li.parent_activation_id,
        "policies": policies_text(li.policies),
        "attributes": attributes_text(li.attributes),
    }


async def get_entitlements(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Entitlements matching `--filter` (accountId, accountName, product, version, partNumber, status, …); TARGET = account ID."""
    filters = target_filters(args, EntitlementFilter, what="entitlements", target_key="accountId")
    async for row in pager_rows(EntitlementsService(session).iterate(filters, page_size(args)), entitlement_row):
        yield row


async def get_line_items(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """The line items of one entitlement (TARGET), with `--filter` activationId, productName, startDate, licenseModelName, status."""
    target = getattr(args, "target", None)
    if not target:
        raise ValueError("give the entitlement: flextui get line-items ENTITLEMENT_ID (e.g. ENT-100000)")
    filters = parse_filters(args.filter or [], LineItemFilter, what="line items")
    pager = EntitlementsService(session).all_line_items(target, filters, limit=page_size(args))
    async for row in pager_rows(pager, lambda li: line_item_row(li, target)):
        yield row
