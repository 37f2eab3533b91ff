"""Entitlements and line items as flat rows and one-cell texts (attributes, policies), for the CLI and the tree's details."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flextui.api.entitlements import Entitlement, LineItem
from flextui.render.words import iso


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
        "created_on": iso(ent.created),
        "updated_on": iso(ent.updated),
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


def changes_said(entry: dict[str, Any]) -> list[str]:
    """A line item's properties change as `name=value`s ("serialNumber=S-1", "Region=EMEA"), for the message after
    it: the server answers only which groups changed ("licenseModel"), which says nothing of the values set."""
    said: list[str] = []

    def walk(values: dict[str, Any]) -> None:
        for key, value in values.items():
            if key == "activationId":
                continue
            if key == "attributes" and isinstance(value, list):
                said.extend(f"{a.get('name')}={a.get('value')}" for a in value if isinstance(a, dict))
            elif isinstance(value, dict):
                walk(value)
            else:
                said.append(f"{key}={value}")

    walk(entry)
    return said
