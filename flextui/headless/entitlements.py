"""Headless entitlement listing: `flextui get entitlements [ACCOUNT]` and `flextui get line-items ENTITLEMENT`.

Also home of `parse_filters`, which turns `--filter KEY=VALUE` pairs into one
of the data layer's filter models (the products and users listers and the
TUI's "more filters" inputs use it too): keys are the API's query names
(case-insensitive), unknown keys are refused with the list of allowed ones,
and values are checked by the model, so `status=shipped` fails before any
request with the model's own message.
"""

from __future__ import annotations

import argparse
import types
import typing
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from flextui.api.entitlements import Entitlement, EntitlementFilter, EntitlementsService, LineItem, LineItemFilter
from flextui.api.http import Session
from flextui.api.validation import FIRST_PAGE, MAX_LIMIT, errors_by_field

M = TypeVar("M", bound=BaseModel)

_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


def _leaf_types(annotation: Any) -> set[Any]:
    """The plain types inside an annotation (Optional, Annotated and list[...] unwrapped; list itself kept)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _leaf_types(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        out: set[Any] = set()
        for arg in typing.get_args(annotation):
            out |= _leaf_types(arg)
        return out
    if origin in (list, Sequence):
        return {list}
    return {annotation}


def filter_keys(model: type[BaseModel]) -> list[str]:
    """The query names a filter model accepts (its aliases)."""
    return sorted(info.alias or name for name, info in model.model_fields.items())


def parse_filters(pairs: Iterable[str], model: type[M], *, what: str, extra: dict[str, Any] | None = None) -> M:
    """`["status=deployed", "accountId=1012"]` → the filter model; ValueError names the bad key or value."""
    known: dict[str, tuple[str, Any]] = {}
    for name, info in model.model_fields.items():
        alias = info.alias or name
        known[alias.lower()] = (alias, info.annotation)
        known[name.lower()] = (alias, info.annotation)
    data: dict[str, Any] = {}
    for pair in pairs:
        pair = pair.strip()
        if not pair:
            continue
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"filter {pair!r}: write KEY=VALUE (keys for {what}: {', '.join(filter_keys(model))})")
        found = known.get(key.strip().lower())
        if found is None:
            raise ValueError(f"unknown filter {key.strip()!r} for {what}; use one of: {', '.join(filter_keys(model))}")
        alias, annotation = found
        data[alias] = _coerce(alias, raw.strip(), _leaf_types(annotation))
    for key, value in (extra or {}).items():
        data.setdefault(key, value)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = errors_by_field(exc)
        raise ValueError("; ".join(f"filter {path}: {message}" if path else message for path, message in problems.items())) from None


def _coerce(key: str, raw: str, kinds: set[Any]) -> Any:
    if bool in kinds:
        lowered = raw.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ValueError(f"filter {key}: must be true or false (got {raw!r})")
    if list in kinds:
        return [part.strip() for part in raw.split(",") if part.strip()]
    return raw


def page_size(args: argparse.Namespace) -> int:
    size = int(getattr(args, "page_size", 200) or 200)
    if size < 1:
        raise ValueError("--page-size must be at least 1")
    return min(size, MAX_LIMIT)


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


def _iso(moment: Any) -> str | None:
    return moment.isoformat(timespec="seconds") if moment is not None else None


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


async def paged(fetch: Any, size: int) -> AsyncIterator[list[Any]]:
    """Pages from 1 on until a short page, or the total is reached."""
    number, seen = FIRST_PAGE, 0
    while True:
        page = await fetch(number, size)
        if page.items:
            yield page.items
        seen += len(page.items)
        if len(page.items) < size or (page.total is not None and seen >= page.total):
            return
        number += 1


async def get_entitlements(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Entitlements matching `--filter` (accountId, accountName, product, version, partNumber, status, …); TARGET = account ID."""
    extra = {"accountId": args.target} if getattr(args, "target", None) else None
    filters = parse_filters(args.filter or [], EntitlementFilter, what="entitlements", extra=extra)
    service = EntitlementsService(session)

    async def fetch(number: int, size: int) -> Any:
        return await service.list(filters, number, size)

    async for items in paged(fetch, page_size(args)):
        for ent in items:
            yield entitlement_row(ent)


async def get_line_items(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """The line items of one entitlement (TARGET), with `--filter` activationId, productName, startDate, licenseModelName, status."""
    target = getattr(args, "target", None)
    if not target:
        raise ValueError("give the entitlement: flextui get line-items ENTITLEMENT_ID (e.g. ENT-100000)")
    filters = parse_filters(args.filter or [], LineItemFilter, what="line items")
    service = EntitlementsService(session)

    async def fetch(number: int, size: int) -> Any:
        return await service.line_items(target, filters, number, size)

    async for items in paged(fetch, page_size(args)):
        for li in items:
            yield line_item_row(li, target)
