"""Users and accounts as flat rows, for the CLI and the users screen's tables."""

from __future__ import annotations

from typing import Any

from flextui.api.users import Account, User
from flextui.render.entitlements import attributes_text
from flextui.render.words import iso


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
        "created": iso(u.created),
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
        "created": iso(a.created),
    }
