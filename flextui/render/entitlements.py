"""Entitlements and line items as flat rows and one-cell texts (attributes, policies), for the CLI and the tree's details."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from flextui.api.entitlements import Entitlement, LineItem
from flextui.render.words import iso


def attribute_value_text(value: Any) -> str:
    """A custom attribute's value as text: a value is text, a number or a list of texts (a multi-valued attribute,
    shown `a, b`), whatever else a server sends as its JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ", ".join(attribute_value_text(x) for x in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def attributes_text(attributes: Iterable[Any]) -> str:
    """`Region=APAC; SalesOrder=SO-1; Seats=12345; Sites=Berlin, Paris`: name=value pairs in one flat cell."""
    return "; ".join(f"{a.name}={attribute_value_text(a.value)}" for a in attributes)


def _each(values: list[Any]) -> Any:
    """One product's value as it is; several products' values joined by `; ` in the order of the products."""
    if len(values) == 1:
        return values[0]
    return "; ".join("" if x is None else str(x) for x in values) if values else None


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
    """A line item as a flat row; a line item of several products names each (`P; Q`, versions `1; 2` in the same order)."""
    products = li.products
    return {
        "activation_id": li.activation_id,
        "entitlement_id": li.entitlement_id or entitlement_id,
        "product": _each([p.product_name for p in products]),
        "version": _each([p.product_version for p in products]),
        "part_number": _each([p.part_number for p in products]),
        "license_model": _each([p.license_model.license_model_name if p.license_model else None for p in products]),
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
