"""Headless entitlement listing: `flextui get entitlements [ACCOUNT]` and `flextui get line-items ENTITLEMENT`."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from typing import Any

from flextui.api.entitlements import (
    EntitlementFilter,
    EntitlementsService,
    LineItemFilter,
)
from flextui.api.http import Session
from flextui.headless.common import page_size, pager_rows, target_filters
from flextui.query import parse_filters
from flextui.render.entitlements import entitlement_row, line_item_row


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
