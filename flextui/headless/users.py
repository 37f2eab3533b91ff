"""Headless users and accounts: `flextui get users [ACCOUNT]` and `flextui get accounts [ACCOUNT]`.

TARGET is an account ID (users: exact; accounts: the ID filter). Accounts
are listed across every account type unless `--filter accountType=…` narrows
them: the service's own default is CUSTOMER only, which hides partner and
publisher accounts from someone looking for one.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from typing import Any

from flextui.api.http import Session
from flextui.api.users import Account, AccountFilter, User, UserFilter, UsersService
from flextui.api.validation import LISTED_ACCOUNT_TYPES
from flextui.headless.common import iso as _iso, page_size, pager_rows, parse_filters, target_filters
from flextui.headless.entitlements import attributes_text


def user_row(u: User) -> dict[str, Any]:
    return {
        "user_name": u.user_name,
        "display_name": u.display_name or " ".join(x for x in (u.first_name, u.last_name) if x),
        "account": ", ".join(a.account_name or a.account_id or "" for a in u.accounts),
        "status": u.status,
        "email": u.email_address,
        "account_ids": ", ".join(a.account_id or "" for a in u.accounts),
        "roles": "; ".join(f"{a.account_name or a.account_id}: {', '.join(a.roles)}" for a in u.accounts if a.roles),
        "portal_login": u.portal_login,
        "locale": u.locale,
        "timezone": u.timezone,
        "created": _iso(u.created),
    }


def account_row(a: Account) -> dict[str, Any]:
    return {
        "account_id": a.account_id,
        "name": a.account_name,
        "account_type": a.account_type,
        "country": a.country,
        "city": a.city,
        "region": a.region,
        "parent_account_id": a.parent_account_id,
        "visible": a.visible,
        "description": a.description,
        "attributes": attributes_text(a.attributes),
        "created": _iso(a.created),
    }


def account_filter(pairs: list[str], target: str | None = None) -> AccountFilter:
    """An AccountFilter from KEY=VALUE pairs; every account type unless accountType says otherwise (`all` = every type)."""
    cleaned: list[str] = []
    all_types = True
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key.strip().lower() == "accounttype":
            if value.strip().lower() in ("all", "*", ""):
                continue
            all_types = False
        cleaned.append(pair)
    extra: dict[str, Any] = {}
    if all_types:
        extra["accountType"] = list(LISTED_ACCOUNT_TYPES)
    if target:
        extra["accountId"] = target
    return parse_filters(cleaned, AccountFilter, what="accounts", extra=extra)


async def get_users(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Users matching `--filter` (userName, displayName, email, accountId, accountName, accountType, status, sort_by…)."""
    filters = target_filters(args, UserFilter, what="users", target_key="accountId")
    async for row in pager_rows(UsersService(session).every_user(filters, page_size(args)), user_row):
        yield row


async def get_accounts(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Accounts of every type (or `--filter accountType=CUSTOMER,PUBLISHER`), by accountId, accountName, rootAccountOnly…"""
    filters = account_filter(list(args.filter or []), getattr(args, "target", None))
    async for row in pager_rows(UsersService(session).every_account(filters, page_size(args)), account_row):
        yield row
