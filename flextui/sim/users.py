"""Simulated users and accounts service (`{base}/users-accounts-api/v1/…`), per seed 002.

It serves the world's own `users` and `accounts` (the people who log in to
every simulated service), and puts newly created ones into the same dicts,
so a created account can own entitlements at once. Passwords are never
rendered; a created user gets a random password nobody knows (the service
has no password field), so it cannot log in with Basic credentials.

Choices where the seed and the notes are silent, so a client must cope:
- Pages are 1-based (`page` default 1, `limit` default 20, at most 500);
  bad paging or sorting is a 400 naming the parameter.
- GET /accounts answers `{"status": "success", "page", "limit", "total",
  "accounts": [...]}`; accountId and accountName are case-insensitive
  substrings; accountType may be repeated or comma-separated and defaults
  to CUSTOMER (as documented); sort_by accountId | accountName (default) |
  accountType | createdOn. An account renders accountId, accountName,
  accountType, description, address1, address2, city, state, zipcode,
  country, region, visible, parentAccountId, attributes[] and createdOn.
- POST /accounts (and /account): accountId and name are required
  ("accountName" is read when "name" is missing); accountId has no
  character rule and no length, only not blank (the account page states
  none: `AT&T-EMEA` is an account ID); accountType defaults to
  CUSTOMER (the newer doc requires it, the older not: a client that always
  sends it satisfies both); SELF_REGISTERED cannot be created; country is
  two letters; parentAccountId, when given, must exist. A duplicate
  accountId, or a name another account has (ignoring case), is a 409.
  Answers 201 `{"status", "message", "account"}`.
- GET /users answers `{"status", "page", "limit", "total", "users": [...]}`;
  userName, displayName, email and accountName are case-insensitive
  substrings, accountId exact; accountType matches the type of any of the
  user's accounts, where HOME means the publisher's own organisation (the
  same as PUBLISHER); status is active | inactive in any case; sort_by
  displayName (default) | email | status.
- A user renders userName, firstName, lastName, displayName, emailAddress,
  status ("Active" | "Inactive"), accounts[] ({accountId, accountName,
  accountType, expiryDate, roles[]}), the contact fields, locale,
  timezone, portalLogin, shared, attributes[] and createdOn. World users'
  roles are their permissions (customer users: "Portal User").
- POST /users: firstName, lastName, emailAddress and accountRoles[] (at
  least one; accountName must name an existing account, exactly or else
  ignoring case when that is unique) are required; userName must equal the
  e-mail (ignoring case) and is required when portalLogin is true, else it
  defaults to the e-mail; status Active | Inactive (default Active);
  timezone like GMT-6.0DST0; locale like en_US. A user name or e-mail
  already used (ignoring case) is a 409. Answers 201 `{"status",
  "message", "user"}`.
- GET /users/{userName} answers `{"status", "user"}` (exact name, else
  ignoring case) or 404.
- Customer users see only their own account and its users; creating needs
  a producer user (403 otherwise).
- Phone and fax numbers are free text up to 64 characters (the docs give no
  pattern).

Dialects (beta.py has what the three beta services share)
- `users-no-username`: user records carry no `userName` (only emailAddress,
  names, accounts, …): the GraphQL UserDetail (…/fno-schema/objects/UserDetail)
  lists no such field, and a client must key users by e-mail.
- `create-status-only`: POST /accounts and POST /users answer only
  `{"status": "SUCCESS"}` (…/user-account-service/user/postuser.md).
- `strict-enums`: the accounts list filter `accountType` only CUSTOMER,
  PUBLISHER, CHANNEL_PARTNER or SELF_REGISTERED in upper case, UNKNOWN
  refused (…/account/getaccountsbyfilterandpagination); a new account's
  accountType only CUSTOMER, PUBLISHER or CHANNEL_PARTNER; the users list
  filters `status` only active | inactive and `accountType` only HOME,
  PUBLISHER, CUSTOMER, SELF_REGISTERED, CHANNEL_PARTNER or UNKNOWN
  (…/user-account-service/user); a new user's status only Active | Inactive
  (…/user/postuser.md); sort_order asc | desc.
- `null-collections` (app.py): empty accounts, roles and attributes are `null`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from flextui.sim import rules as r
from flextui.sim.beta import ListQuery, beta_errors, caller_of, created, list_query, page_fields, producer_of, read_body, strict_enums
from flextui.sim.common import SimError, dialects_of, json_response, world_of
from flextui.sim.rules import Body, FieldProblem
from flextui.sim.timefmt import iso as iso_string
from flextui.sim.world import PUBLISHER_ACCOUNT, SimAccount, SimUser, World

MOUNT = "/users-accounts-api/v1"
CUSTOMER_ROLES = ("Portal User",)
USER_SORT_KEYS = ("displayName", "email", "status")  # documented
ACCOUNT_SORT_KEYS = ("accountId", "accountName", "accountType", "createdOn")  # the simulator's
PHONE_MAX = 64


def _contains(haystack: str | None, needle: str) -> bool:
    return needle.lower() in (haystack or "").lower()


def _page(params: ListQuery, items: list[Any], key: str, render: Any) -> dict[str, Any]:
    return {"status": "success", **page_fields(params, len(items)), key: [render(x) for x in params.take(items)]}


def read_attributes(body: Body) -> dict[str, str]:
    """Custom attributes `[{name, value}]`: names required and not repeated."""
    items = body.objects("attributes")
    names = [item.text("name", required=True) for item in items]
    body.apply("attributes", names, r.attribute_names_unique)
    return {name: item.text("value") or "" for item, name in zip(items, names)}


# -- accounts -----------------------------------------------------------------------------------


def render_account(account: SimAccount) -> dict[str, Any]:
    extra = account.extra
    return {
        "accountId": account.account_id,
        "accountName": account.name,
        "accountType": account.account_type,
        "description": extra.get("description", ""),
        "address1": extra.get("address1"),
        "address2": extra.get("address2"),
        "city": account.city or None,
        "state": extra.get("state"),
        "zipcode": extra.get("zipcode"),
        "country": account.country or None,
        "region": extra.get("region"),
        "visible": extra.get("visible", True),
        "parentAccountId": account.parent_id,
        "attributes": [{"name": k, "value": value} for k, value in extra.get("attributes", {}).items()],
        "createdOn": iso_string(account.created_ms),
    }


def _account_types(request: Request) -> list[str]:
    """The accountType filter: repeated or comma-separated; CUSTOMER when absent (as documented)."""
    raw = [part for value in request.query_params.getlist("accountType") for part in value.split(",") if part.strip()]
    if not raw:
        return list(r.DEFAULT_ACCOUNT_LIST_TYPES)
    strict = strict_enums(request)
    choice = r.ACCOUNT_LIST_TYPE if strict else r.ACCOUNT_LIST_TYPE_LENIENT
    out = []
    for value in raw:
        try:
            out.append(choice.read(value, strict=strict))
        except ValueError as exc:
            raise FieldProblem("accountType", str(exc)) from None
    return out


def _list_request(request: Request, sort_keys: Sequence[str], default_sort: str) -> tuple[SimUser, World, Any, ListQuery]:
    """The caller, the world, the query and its paging/sorting parameters, for a list endpoint."""
    caller = caller_of(request)
    world = world_of(request)
    return caller, world, request.query_params, list_query(request, sort_keys, default_sort)


@beta_errors
async def list_accounts(request: Request) -> Response:
    caller, world, q, params = _list_request(request, ACCOUNT_SORT_KEYS, "accountName")
    types = set(_account_types(request))
    root_only = r.query_bool(q, "rootAccountOnly") or False
    items = [a for a in world.accounts.values() if a.account_type in types]
    if caller.kind != "producer":
        items = [a for a in items if a.account_id == caller.account_id]
    if q.get("accountId"):
        items = [a for a in items if _contains(a.account_id, q["accountId"])]
    if q.get("accountName"):
        items = [a for a in items if _contains(a.name, q["accountName"])]
    if root_only:
        items = [a for a in items if a.parent_id is None]
    keys = {
        "accountId": lambda a: a.account_id,
        "accountName": lambda a: (a.name.lower(), a.account_id),
        "accountType": lambda a: (a.account_type, a.name.lower()),
        "createdOn": lambda a: (a.created_ms, a.account_id),
    }
    items.sort(key=keys[params.sort_by], reverse=params.descending)
    return json_response(_page(params, items, "accounts", render_account))


async def _producer_body(request: Request, doing: str) -> tuple[World, Body]:
    """The world and the request's body, for a change only a producer may make (403 for anyone else)."""
    producer_of(request, doing)
    return world_of(request), await read_body(request)


def _creatable_account_type(strict: bool) -> Callable[[str], str]:
    """A new account's type: SELF_REGISTERED accounts come only from self-registration (notes §4.3)."""

    def rule(value: str) -> str:
        if value.strip().upper() == "SELF_REGISTERED":
            raise ValueError("SELF_REGISTERED accounts cannot be created: they come from self-registration")
        return r.CREATABLE_ACCOUNT_TYPE.read(value, strict=strict)

    return rule


def account_id_rule(value: str) -> str:
    """An accountId: "Unique identifier of the account (short account name)", no character rule and no length
    (https://fnoapi.redocly.app/apis/rest/user-accounts/user-account-service/account): only not blank. The
    entitlement IDs' rule (rules.entity_id) is theirs alone."""
    return r.not_blank(value)


@beta_errors
async def create_account(request: Request) -> Response:
    world, body = await _producer_body(request, "creating an account")
    account_id = body.text("accountId", required=True, rule=account_id_rule)
    name_key = "name" if body.has("name") or not body.has("accountName") else "accountName"
    name = body.text(name_key, required=True, rule=r.catalogue_name)
    account_type = body.text("accountType", rule=_creatable_account_type(strict_enums(request)), blank_is_none=True) or "CUSTOMER"
    extra: dict[str, Any] = {"description": body.text("description", rule=r.at_most(r.DESCRIPTION_MAX)) or ""}
    for key in ("address1", "address2", "city", "state", "zipcode", "region"):
        value = body.text(key, rule=r.at_most(r.ADDRESS_MAX))
        if value is not None:
            extra[key] = value
    country = body.text("country", rule=r.country_code, blank_is_none=True)
    extra["visible"] = body.flag("visible", default=True)
    parent = body.text("parentAccountId", blank_is_none=True)
    if parent is not None and parent not in world.accounts:
        raise body.problem("parentAccountId", f"no account {parent!r}")
    extra["attributes"] = read_attributes(body)
    if account_id in world.accounts:
        raise SimError(409, f"accountId: an account {account_id!r} already exists", "accountId")
    lowered = name.strip().lower()
    if any(a.name.lower() == lowered for a in world.accounts.values()):
        raise SimError(409, f"{name_key}: an account named {name!r} already exists", name_key)
    account = SimAccount(account_id, name, account_type, extra.pop("city", ""), country or "", world.now_ms(), parent, extra)
    world.accounts[account_id] = account
    return created(request, {"status": "success", "message": "Account created successfully", "account": render_account(account)})


# -- users --------------------------------------------------------------------------------------


def user_accounts(world: World, user: SimUser) -> list[dict[str, Any]]:
    """The user's accounts with roles: those given at creation, else the home account."""
    given = user.extra.get("accountRoles")
    if given:
        return [dict(a) for a in given]
    account = world.accounts.get(user.account_id)
    roles = sorted(user.permissions) if user.kind == "producer" else list(CUSTOMER_ROLES)
    return [
        {
            "accountId": user.account_id,
            "accountName": account.name if account else None,
            "accountType": account.account_type if account else None,
            "expiryDate": None,
            "roles": roles,
        }
    ]


def render_user(world: World, user: SimUser, *, with_user_name: bool = True) -> dict[str, Any]:
    extra = user.extra
    shown = {
        "userName": user.username,
        "firstName": user.first_name,
        "lastName": user.last_name,
        "displayName": extra.get("displayName") or user.display_name,
        "emailAddress": extra.get("emailAddress", user.username),
        "status": "Active" if user.status == "active" else "Inactive",
        "accounts": user_accounts(world, user),
        "phoneNumber": extra.get("phoneNumber"),
        "faxNumber": extra.get("faxNumber"),
        "street": extra.get("street"),
        "city": extra.get("city"),
        "state": extra.get("state"),
        "zipcode": extra.get("zipcode"),
        "country": extra.get("country"),
        "locale": extra.get("locale", "en_US"),
        "timezone": extra.get("timezone"),
        "portalLogin": extra.get("portalLogin", True),
        "shared": extra.get("shared", False),
        "attributes": [{"name": k, "value": value} for k, value in extra.get("attributes", {}).items()],
        "createdOn": iso_string(user.created_ms) if user.created_ms else None,
    }
    if not with_user_name:
        del shown["userName"]
    return shown


def _user_renderer(request: Request, world: World) -> Callable[[SimUser], dict[str, Any]]:
    """render_user for this request's dialects (`users-no-username` drops userName)."""
    with_name = "users-no-username" not in dialects_of(request)
    return lambda u: render_user(world, u, with_user_name=with_name)


def _display(user: SimUser) -> str:
    return user.extra.get("displayName") or user.display_name


def _email(user: SimUser) -> str:
    return user.extra.get("emailAddress", user.username)


def _user_account_ids(user: SimUser) -> list[str]:
    given = user.extra.get("accountRoles")
    return [a["accountId"] for a in given] if given else [user.account_id]


@beta_errors
async def list_users(request: Request) -> Response:
    caller, world, q, params = _list_request(request, USER_SORT_KEYS, "displayName")
    strict = strict_enums(request)
    status = r.query_choice(q, "status", r.USER_LIST_STATUS.rule(strict))
    account_type = r.query_choice(q, "accountType", r.USER_LIST_ACCOUNT_TYPE.rule(strict))
    items = list(world.users.values())
    if caller.kind != "producer":
        items = [u for u in items if caller.account_id in _user_account_ids(u)]
    if q.get("userName"):
        items = [u for u in items if _contains(u.username, q["userName"])]
    if q.get("displayName"):
        items = [u for u in items if _contains(_display(u), q["displayName"])]
    if q.get("email"):
        items = [u for u in items if _contains(_email(u), q["email"])]
    if q.get("accountId"):
        items = [u for u in items if q["accountId"] in _user_account_ids(u)]
    if q.get("accountName"):
        needle = q["accountName"]
        items = [
            u for u in items if any(_contains(world.accounts[i].name if i in world.accounts else "", needle) for i in _user_account_ids(u))
        ]
    if account_type:
        wanted = "PUBLISHER" if account_type == "HOME" else account_type
        items = [u for u in items if any(i in world.accounts and world.accounts[i].account_type == wanted for i in _user_account_ids(u))]
    if status:
        items = [u for u in items if u.status == status]
    keys = {
        "displayName": lambda u: (_display(u).lower(), u.username),
        "email": lambda u: _email(u).lower(),
        "status": lambda u: (u.status, _display(u).lower(), u.username),
    }
    items.sort(key=keys[params.sort_by], reverse=params.descending)
    return json_response(_page(params, items, "users", _user_renderer(request, world)))


def _find_user(world: World, name: str) -> SimUser | None:
    user = world.users.get(name)
    if user is not None:
        return user
    lowered = name.lower()
    matches = [u for key, u in world.users.items() if key.lower() == lowered]
    return matches[0] if len(matches) == 1 else None


async def get_user(request: Request) -> Response:
    caller = caller_of(request)
    world = world_of(request)
    name = request.path_params["user_name"]
    user = _find_user(world, name)
    if user is None or (caller.kind != "producer" and caller.account_id not in _user_account_ids(user)):
        raise SimError(404, f"no user {name!r}")
    return json_response({"status": "success", "user": _user_renderer(request, world)(user)})


def _account_by_name(world: World, name: str) -> SimAccount | None:
    exact = [a for a in world.accounts.values() if a.name == name]
    if exact:
        return exact[0]
    loose = [a for a in world.accounts.values() if a.name.lower() == name.strip().lower()]
    return loose[0] if len(loose) == 1 else None


@beta_errors
async def create_user(request: Request) -> Response:
    world, body = await _producer_body(request, "creating a user")
    first = body.text("firstName", required=True, rule=r.catalogue_name)
    last = body.text("lastName", required=True, rule=r.catalogue_name)
    email = body.text("emailAddress", required=True, rule=r.email)
    roles: list[dict[str, Any]] = []
    for item in body.objects("accountRoles", required=True, min_items=1):
        account_name = item.text("accountName", required=True)
        account = _account_by_name(world, account_name)
        if account is None:
            raise item.problem("accountName", f"no account named {account_name!r}")
        if any(r["accountId"] == account.account_id for r in roles):
            raise item.problem("accountName", f"account {account_name!r} is given twice")
        roles.append(
            {
                "accountId": account.account_id,
                "accountName": account.name,
                "accountType": account.account_type,
                "roles": item.strings("roles", rule=r.not_blank),
                "expiryDate": item.text("expiryDate", rule=r.ymd_date, blank_is_none=True),
            }
        )
    extra: dict[str, Any] = {"emailAddress": email, "accountRoles": roles}
    display = body.text("displayName", rule=r.catalogue_name, blank_is_none=True)
    if display:
        extra["displayName"] = display
    for key in ("phoneNumber", "faxNumber"):
        value = body.text(key, rule=r.at_most(PHONE_MAX), blank_is_none=True)
        if value:
            extra[key] = value
    for key in ("street", "city", "state", "zipcode"):
        value = body.text(key, rule=r.at_most(r.ADDRESS_MAX), blank_is_none=True)
        if value:
            extra[key] = value
    country = body.text("country", rule=r.country_code, blank_is_none=True)
    if country:
        extra["country"] = country
    extra["locale"] = body.text("locale", rule=r.user_locale, blank_is_none=True) or "en_US"
    timezone = body.text("timezone", rule=r.user_timezone, blank_is_none=True)
    if timezone:
        extra["timezone"] = timezone
    portal_login = body.flag("portalLogin")
    extra["portalLogin"] = portal_login
    extra["shared"] = body.flag("shared")
    user_name = body.apply("userName", body.text("userName"), lambda n: r.user_name_for(n, email, portal_login))
    status = body.text("status", rule=r.USER_STATUS.rule(strict_enums(request)), blank_is_none=True) or "Active"
    extra["attributes"] = read_attributes(body)
    taken = {key.lower() for key in world.users} | {_email(u).lower() for u in world.users.values()}
    if user_name.lower() in taken or email.lower() in taken:
        where = "userName" if body.has("userName") else "emailAddress"
        raise SimError(409, f"{where}: a user {user_name!r} already exists", where)
    home = world.accounts[roles[0]["accountId"]]
    user = SimUser(
        username=user_name,
        password=secrets.token_urlsafe(24),  # nobody knows it: the service has no password field
        first_name=first,
        last_name=last,
        account_id=home.account_id,
        kind="producer" if home.account_id == PUBLISHER_ACCOUNT or home.account_type == "PUBLISHER" else "customer",
        status=status.lower(),
        created_ms=world.now_ms(),
        extra=extra,
    )
    world.users[user_name] = user
    return created(request, {"status": "success", "message": "User created successfully", "user": _user_renderer(request, world)(user)})


def routes(world: World) -> list[BaseRoute]:
    return [
        Route("/accounts", list_accounts, methods=["GET"]),
        Route("/accounts", create_account, methods=["POST"]),
        Route("/account", create_account, methods=["POST"]),
        Route("/users", list_users, methods=["GET"]),
        Route("/users", create_user, methods=["POST"]),
        Route("/users/{user_name}", get_user, methods=["GET"]),
    ]
