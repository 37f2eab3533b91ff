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
from flextui.api.users import UserFilter, UsersService
from flextui.headless.common import page_size, pager_rows, target_filters
from flextui.query import account_filter
from flextui.render.users import account_row, user_row


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
