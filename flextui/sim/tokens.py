"""Simulated access token service (`{base}/flexnet/uar/v1/…`), per seed 000.

Choices where the seed and the notes are silent, so a client must cope:
- Errors use the envelope `{"statusMessage": reason, "responseObject": null}`.
  Permission problems answer 400, as the vendor documents; a duplicate name
  answers 409; an unknown token 404; bad credentials 401.
- A token's expiry is its issue time plus `expiryStr`. An update's new
  `expiryStr` therefore counts from the issue time too, which is how "the
  expiry cannot be set in the past" can happen. Rotation changes only the
  value (issue and expiry stay).
- Masked values are the string "****" in tokenDescription, tokenCreator,
  username and expiryStr; name, type and times stay visible so the row can
  be addressed. The docs say only "obfuscated or masked values"
  (TokenBasedAuthManTokensList.htm): under `mask-partial` a user name keeps
  its start and domain ("cus***@acme-robotics.example") and a description
  reads "<masked>".
- The caller may view a token it created, a NORMAL token of its own, or any
  token when it holds Create Impersonated Token plus a Manage Users
  permission ("privileged").
- The list accepts `pageSize` and the documented `pagesize`; without paging
  parameters it returns every match. Lists are sorted by token name.
- Each seeded user (ADMIN, PRODUCER, CUSTOMER) has a live NORMAL token named
  `flextui-demo-<role>` whose value is `World.seed_token(username)`, issued a
  day before the world and valid for a year, listed like any other token
  once `seed_token` has been asked for it (world.py says why).

Dialects (paging.py holds the shared paging rules):
- `pagesize-lower`: the list honours only `pagesize`, the spelling of the
  docs table (TokenBasedAuthManTokensList.htm); `pageSize`, the Redocly
  rendering's spelling (gettokensforuserusingget_1.md), is ignored like any
  unknown parameter, so the server's default size (20) applies.
- `page-size-ignored`, `paging-ignored`, `page-size-cap-100`, `strict-paging`
  apply to the list and the search as to every numbered list; pages are
  0-based in every dialect (the docs: "page (from 0)"), so `zero-based` and
  `page-zero-is-first` change nothing here. The search's `page` and
  `pageSize` stay required (TokenBasedAuthManTokensSearch.htm) even when a
  dialect ignores their values.
- `verify-invalid-404`: the answer to verifying an unknown, deleted or expired
  value is not documented (TokenBasedAuthManTokensVerify.htm shows only the
  200); the simulator answers 400 by default and, under this dialect, 404 with
  the same `statusMessage`, as a server treating the value as a resource would.
- `verify-valid-flag`: the verification "shows if the token is valid, along
  with information about the token"
  (https://fnoapi.redocly.app/apis/rest/accesstokencontroller/openapi-access-tokens/access-token-controller/verifytokenusingpost_1.md),
  but its documented 200 carries no field that says so
  (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/TokenBasedAuthManTokensVerify.htm).
  Under this dialect every verification of an `rna_` value is a 200 whose
  `responseObject` holds `valid`: true beside a live token's details, false
  beside an expired token's details, and false alone (with the refusal's
  words as `statusMessage`) for a value that names no token.
- `create-username-required` (in STRICT, the default): the create's
  `username` is "(string, required)" in the OpenAPI
  (https://fnoapi.redocly.app/apis/rest/accesstokencontroller/openapi-access-tokens/access-token-controller/createtokenusingpost_1.md),
  though its prose makes it mandatory only for IMPERSONATED tokens and
  ignores a NORMAL token's. Under this dialect a create without a non-blank
  `username` string is a 400 naming the field, whatever the type; a NORMAL
  token's value is still ignored (the caller is its user). Without it (the
  lenient reading) a NORMAL token's `username` is not read at all.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, replace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from flextui.sim import names
from flextui.sim.common import SimError, authenticate, dialects_of, json_response, read_json, require_object, world_of
from flextui.sim.paging import Paging, window
from flextui.sim.rules import TOKEN_DESCRIPTION_MAX, TOKEN_TYPES, Lifetime, parse_lifetime, token_name_problem
from flextui.sim.world import ADMIN, CUSTOMER, DAY_MS, PRODUCER, SEED_TOKEN_NAMES, SimUser, World, seed_token_value

MOUNT = "/flexnet/uar/v1"
MASK = "****"
TYPES = TOKEN_TYPES
DEFAULT_PAGE_SIZE = 20
LIST_PAGING = Paging("tokens", ("pageSize", "pagesize"), DEFAULT_PAGE_SIZE, None, whole_without_params=True)
SEARCH_PAGING = Paging("tokens", ("pageSize",), DEFAULT_PAGE_SIZE, None, json_body=True)


@dataclass
class SimToken:
    name: str
    token_type: str
    username: str
    creator: str
    description: str
    issue_ms: int
    expiry_ms: int
    expiry_str: str
    value: str


def new_value() -> str:
    return "rna_" + secrets.token_hex(22)


class TokenStore:
    """The tokens of a world, indexed by name and by value."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.by_name: dict[str, SimToken] = {}
        self.by_value: dict[str, str] = {}
        self._generate()

    def add(self, token: SimToken) -> None:
        self.by_name[token.name] = token
        self.by_value[token.value] = token.name

    def remove(self, name: str) -> None:
        token = self.by_name.pop(name)
        self.by_value.pop(token.value, None)

    def rename(self, old: str, new: str) -> None:
        token = self.by_name.pop(old)
        token.name = new
        self.by_name[new] = token
        self.by_value[token.value] = new

    def user_for_value(self, value: str) -> SimUser | None:
        name = self.by_value.get(value)
        token = self.by_name.get(name) if name else None
        if token is None or token.expiry_ms <= self.world.now_ms():
            return None
        return self.world.users.get(token.username)

    def _generate(self) -> None:
        world = self.world
        rng = world.rng("tokens")
        now = world.created_ms
        users = list(world.users.values())
        producers = [u for u in users if u.kind == "producer"]
        privileged = [u for u in users if u.may_impersonate]
        customers = [u for u in users if u.kind == "customer"]
        target = world.count(240, 40)
        counter = 0

        def make(creator: SimUser, username: str, ttype: str, description: str, issue: int, expiry_str: str) -> None:
            nonlocal counter
            counter += 1
            purpose = rng.choice(names.TOKEN_PURPOSES)
            name = f"{purpose}-{counter:05d}" if world.scale > 2 else f"{purpose}-{counter:02d}"
            name = name[:25]
            expiry = parse_lifetime(expiry_str).end_ms(issue)
            self.add(SimToken(name, ttype, username, creator.username, description, issue, expiry, expiry_str, new_value()))

        admin = world.users[ADMIN[0]]
        producer = world.users[PRODUCER[0]]
        customer = world.users[CUSTOMER[0]]
        # A fixed cast the docs and tests can name: expired, expiring soon, long-lived.
        make(admin, admin.username, "NORMAL", "Admin CLI automation", now - 20 * DAY_MS, "1y")
        make(admin, admin.username, "NORMAL", "Expires in two days", now - 28 * DAY_MS, "30d")
        make(admin, admin.username, "NORMAL", "Expired last week", now - 37 * DAY_MS, "30d")
        make(admin, customer.username, "IMPERSONATED", "Support case investigation", now - 5 * DAY_MS, "14d")
        make(producer, producer.username, "NORMAL", "", now - 3 * DAY_MS, "6M")
        make(customer, customer.username, "NORMAL", "Portal automation", now - 100 * DAY_MS, "1y")
        lifetimes = ["10m", "12h", "7d", "30d", "90d", "6M", "1y", "2y"]
        while len(self.by_name) < target:
            roll = rng.random()
            issue = now - rng.randrange(0, 400 * 24) * 3_600_000
            life = rng.choice(lifetimes)
            if roll < 0.30 and privileged:
                creator = rng.choice(privileged)
                target_user = rng.choice(customers or users)
                make(creator, target_user.username, "IMPERSONATED", rng.choice(names.IMPERSONATION_REASONS), issue, life)
            elif roll < 0.42:
                creator = rng.choice([admin, producer])
                desc = rng.choice(["", "Build pipeline", "Nightly export", "Reporting", "Integration test"])
                make(creator, creator.username, "NORMAL", desc, issue, life)
            else:
                creator = rng.choice(producers if roll < 0.75 else users)
                desc = rng.choice(["", "Build pipeline", "Nightly export", "Reporting", "Integration test"])
                make(creator, creator.username, "NORMAL", desc, issue, life)
        # Some that expire within days, so the warning marks have something to show.
        for i, token in enumerate(list(self.by_name.values())[6::17]):
            token.expiry_ms = now + (i % 5 + 1) * DAY_MS // 2
        for username in world.seed_token_users:
            self.issue_seed_token(username)

    def issue_seed_token(self, username: str) -> None:
        """Add the seeded user's live token (`World.seed_token`), unless it is there already."""
        name = SEED_TOKEN_NAMES[username]
        if name in self.by_name or username not in self.world.users:
            return
        issue = self.world.created_ms - DAY_MS
        expiry = parse_lifetime("1y").end_ms(issue)
        value = seed_token_value(self.world.seed, username)
        self.add(SimToken(name, "NORMAL", username, username, "Seeded for flextui demo and sim sign-in", issue, expiry, "1y", value))


def token_store(world: World) -> TokenStore:
    return world.part("tokens", TokenStore)


# -- rules --------------------------------------------------------------------


def can_view(caller: SimUser, token: SimToken) -> bool:
    if caller.may_impersonate or token.creator == caller.username:
        return True
    return token.token_type == "NORMAL" and token.username == caller.username


def can_modify(caller: SimUser, token: SimToken) -> bool:
    """Update, rotate: the creator, or a privileged user for IMPERSONATED tokens."""
    if token.creator == caller.username:
        return True
    return token.token_type == "IMPERSONATED" and caller.may_impersonate


def _partly(value: str) -> str:
    """`mask-partial`: a user name masked as some services do, its start and domain kept ("cus***@acme.example")."""
    local, at, domain = value.partition("@")
    return f"{local[:3]}***{at}{domain}" if at else "<masked>"


def render(token: SimToken, caller: SimUser, *, with_value: bool = False, request: Request | None = None) -> dict[str, Any]:
    masked = not can_view(caller, token)
    partly = request is not None and "mask-partial" in dialects_of(request)

    def hide(value: str) -> str:
        return (_partly(value) if partly else MASK) if masked else value

    body: dict[str, Any] = {
        "tokenName": token.name,
        "tokenType": token.token_type,
        "username": hide(token.username),
        "tokenCreator": hide(token.creator),
        "tokenDescription": ("<masked>" if partly else MASK) if masked else token.description,
        "expiryStr": MASK if masked else token.expiry_str,
        "tokenIssueMillis": token.issue_ms,
        "tokenExpiryMillis": token.expiry_ms,
    }
    if with_value:
        body["tokenValue"] = token.value
    return body


def ok(obj: Any, status: int = 200, message: str = "Successful") -> Response:
    return json_response({"statusMessage": message, "responseObject": obj}, status)


def _interval(value: Any, field: str) -> Lifetime:
    if not isinstance(value, str):
        raise SimError(400, f"{field} must be an interval such as 30d or 1y2M", field)
    try:
        return parse_lifetime(value)
    except ValueError as exc:
        raise SimError(400, f"{field}: {exc}", field) from None


def _after(interval: Lifetime, start_ms: int, field: str) -> int:
    try:
        return interval.end_ms(start_ms)
    except (ValueError, OverflowError) as exc:
        raise SimError(400, f"{field}: {exc}", field) from None


def _get_token(world: World, name: str) -> SimToken:
    token = token_store(world).by_name.get(name)
    if token is None:
        raise SimError(404, f"no token named {name!r} (names are case sensitive)")
    return token


def _others_forbidden(caller: SimUser) -> SimError:
    return SimError(
        400,
        "Unless you have the Create Impersonated Token permission and a Manage Users permission, you cannot access tokens for other users",
    )


def _text(body: dict[str, Any], key: str) -> str | None:
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise SimError(400, f"{key} must be a string", key)
    return value


# -- handlers -------------------------------------------------------------------


async def create_token(request: Request) -> Response:
    caller = authenticate(request)
    world = world_of(request)
    store = token_store(world)
    body = require_object(await read_json(request))
    name = _text(body, "tokenName")
    problem = token_name_problem(name)
    if problem:
        raise SimError(400, problem, "tokenName")
    assert name is not None
    if name in store.by_name:
        raise SimError(409, f"a token named {name!r} already exists", "tokenName")
    ttype = body.get("tokenType") or "NORMAL"
    if ttype not in TYPES:
        raise SimError(400, "tokenType must be NORMAL or IMPERSONATED", "tokenType")
    expiry_str = body.get("expiryStr")
    interval = _interval(expiry_str, "expiryStr")
    description = _text(body, "tokenDescription") or ""
    if len(description) > TOKEN_DESCRIPTION_MAX:
        raise SimError(400, f"tokenDescription must be at most {TOKEN_DESCRIPTION_MAX} characters", "tokenDescription")
    if ttype == "IMPERSONATED":
        if not caller.may_impersonate:
            raise SimError(
                400, "creating an IMPERSONATED token needs the Create Impersonated Token permission and a Manage Users permission"
            )
        if not description.strip():
            raise SimError(400, "tokenDescription (the impersonation reason) is required for IMPERSONATED tokens", "tokenDescription")
        username = _text(body, "username")
        if not username:
            raise SimError(400, "username is required for IMPERSONATED tokens", "username")
        if username not in world.users:
            raise SimError(400, f"no user {username!r}", "username")
    else:
        if "create-username-required" in dialects_of(request) and not (_text(body, "username") or "").strip():
            raise SimError(400, "username is required (for NORMAL tokens too, though the caller is their user)", "username")
        username = caller.username  # ignored for NORMAL tokens: the caller is the user
    now = world.now_ms()
    token = SimToken(name, ttype, username, caller.username, description, now, _after(interval, now, "expiryStr"), expiry_str, new_value())
    store.add(token)
    return ok(render(token, caller, with_value=True), 201, "The token was successfully created.")


async def verify_token(request: Request) -> Response:
    caller = authenticate(request)
    world = world_of(request)
    store = token_store(world)
    body = require_object(await read_json(request))
    value = body.get("accessToken") or body.get("tokenValue")
    if not isinstance(value, str) or not value.strip():
        raise SimError(400, "accessToken is required", "accessToken")
    value = value.strip()
    if not value.startswith("rna_"):
        raise SimError(400, "not an access token: values start with rna_", "accessToken")
    dialects = dialects_of(request)
    flagged = "verify-valid-flag" in dialects
    refused = 404 if "verify-invalid-404" in dialects else 400
    name = store.by_value.get(value)
    if name is None:
        if flagged:
            return ok({"valid": False}, message="the token is not valid: unknown or deleted")
        raise SimError(refused, "the token is not valid: unknown or deleted")
    token = store.by_name[name]
    expired = token.expiry_ms <= world.now_ms()
    if expired and not flagged:
        raise SimError(refused, "the token is not valid: it has expired")
    shown = render(token, caller)
    if token.token_type == "IMPERSONATED" and token.creator != caller.username:
        shown = render(token, replace(caller, permissions=frozenset()))
        shown.update({"username": MASK, "tokenCreator": MASK, "tokenDescription": MASK, "expiryStr": MASK})
    if flagged:
        shown["valid"] = not expired
        return ok(shown, message="the token is not valid: it has expired" if expired else "Successful")
    return ok(shown)


async def get_token(request: Request) -> Response:
    caller = authenticate(request)
    token = _get_token(world_of(request), request.path_params["name"])
    return ok(render(token, caller, request=request))


async def update_token(request: Request) -> Response:
    caller = authenticate(request)
    world = world_of(request)
    store = token_store(world)
    token = _get_token(world, request.path_params["name"])
    if not can_modify(caller, token):
        raise SimError(400, "only the token creator (or a privileged user, for IMPERSONATED tokens) can update this token")
    now = world.now_ms()
    if token.expiry_ms <= now:
        raise SimError(400, "an expired token cannot be edited")
    body = require_object(await read_json(request))
    for key in ("username", "tokenType"):
        if key in body and body[key] not in (None, getattr(token, "username" if key == "username" else "token_type")):
            raise SimError(400, f"{key} cannot be changed", key)
    new_name = _text(body, "tokenName")
    new_desc = _text(body, "tokenDescription")
    new_expiry = body.get("expiryStr")
    if new_name is None and new_desc is None and new_expiry is None:
        raise SimError(400, "nothing to update: give tokenName, tokenDescription or expiryStr")
    if new_name is not None and new_name != token.name:
        problem = token_name_problem(new_name)
        if problem:
            raise SimError(400, problem, "tokenName")
        if new_name in store.by_name:
            raise SimError(409, f"a token named {new_name!r} already exists", "tokenName")
    expiry_ms = None
    if new_expiry is not None:
        interval = _interval(new_expiry, "expiryStr")
        expiry_ms = _after(interval, token.issue_ms, "expiryStr")
        if expiry_ms <= now:
            raise SimError(
                400, f"expiryStr {new_expiry} from the issue time is in the past: the expiry cannot be set in the past", "expiryStr"
            )
    if new_desc is not None:
        if token.token_type == "IMPERSONATED" and not new_desc.strip():
            raise SimError(400, "tokenDescription is required for IMPERSONATED tokens", "tokenDescription")
        token.description = new_desc
    if expiry_ms is not None:
        token.expiry_ms, token.expiry_str = expiry_ms, new_expiry
    if new_name is not None and new_name != token.name:
        store.rename(token.name, new_name)
    return Response(status_code=204)


async def delete_token(request: Request) -> Response:
    caller = authenticate(request)
    world = world_of(request)
    token = _get_token(world, request.path_params["name"])
    if not can_modify(caller, token):
        raise SimError(400, "only the token creator can delete this token")
    token_store(world).remove(token.name)
    return Response(status_code=204)


async def rotate_token(request: Request) -> Response:
    caller = authenticate(request)
    world = world_of(request)
    store = token_store(world)
    token = _get_token(world, request.path_params["name"])
    if not can_modify(caller, token):
        raise SimError(400, "only the token creator (or a privileged user, for IMPERSONATED tokens) can rotate this token")
    if token.expiry_ms <= world.now_ms():
        raise SimError(400, "an expired token cannot be rotated")
    store.by_value.pop(token.value, None)
    token.value = new_value()
    store.by_value[token.value] = token.name
    return ok(render(token, caller, with_value=True))


def _filter_for(request: Request, caller: SimUser) -> list[SimToken]:
    username = request.query_params.get("username") or None
    creator = request.query_params.get("tokenCreator") or None
    if not username and not creator:
        raise SimError(400, "give username or tokenCreator (or both)")
    if not caller.may_impersonate and caller.username not in (username, creator):
        raise _others_forbidden(caller)
    now = world_of(request).now_ms()
    return sorted(
        (
            t
            for t in token_store(world_of(request)).by_name.values()
            if t.expiry_ms > now and (not username or t.username == username) and (not creator or t.creator == creator)
        ),
        key=lambda t: t.name,
    )


def _list_paging(request: Request, dialects: frozenset[str]) -> Paging:
    """The token list's paging in `dialects`: under pagesize-lower only `pagesize` is read."""
    if "pagesize-lower" not in dialects:
        return LIST_PAGING
    ignored_size = request.query_params.get("pageSize") not in (None, "")
    return replace(LIST_PAGING, size_names=("pagesize",), whole_without_params=not ignored_size)


async def list_tokens(request: Request) -> Response:
    caller = authenticate(request)
    dialects = dialects_of(request)
    tokens = _filter_for(request, caller)
    page = window(request.query_params, _list_paging(request, dialects), dialects)
    return ok([render(t, caller, request=request) for t in page.take(tokens)])


async def count_tokens(request: Request) -> Response:
    caller = authenticate(request)
    return ok(len(_filter_for(request, caller)))


def _pattern(value: str) -> re.Pattern[str]:
    """Only `*` is a placeholder (fnmatch would also read ? and [...] as wildcards)."""
    return re.compile(".*".join(re.escape(part) for part in value.split("*")) + r"\Z", re.DOTALL)


async def search_tokens(request: Request) -> Response:
    caller = authenticate(request)
    world = world_of(request)
    body = require_object(await read_json(request))
    criteria = ("tokenCreator", "username", "expiresBefore", "expiresLaterThan", "issuedBefore", "tokenName")
    if not any(body.get(k) for k in criteria):
        raise SimError(400, "give at least one criterion: " + ", ".join(criteria))
    for key in ("page", "pageSize"):
        if key not in body or body[key] is None:
            raise SimError(400, f"{key} is required (page is zero based)", key)
        if not isinstance(body[key], int) or isinstance(body[key], bool) or body[key] < (0 if key == "page" else 1):
            raise SimError(400, f"{key} must be a whole number {'≥ 0' if key == 'page' else '≥ 1'}", key)
    ttype = body.get("tokenType")
    if ttype not in (None, "", *TYPES):
        raise SimError(400, "tokenType must be NORMAL or IMPERSONATED", "tokenType")
    now = world.now_ms()
    before = _interval(body["expiresBefore"], "expiresBefore") if body.get("expiresBefore") else None
    later = _interval(body["expiresLaterThan"], "expiresLaterThan") if body.get("expiresLaterThan") else None
    issued = _interval(body["issuedBefore"], "issuedBefore") if body.get("issuedBefore") else None
    before_ms = _after(before, now, "expiresBefore") if before else None
    later_ms = _after(later, now, "expiresLaterThan") if later else None
    if before_ms is not None and later_ms is not None and before_ms <= later_ms:
        raise SimError(400, "expiresBefore must be greater than expiresLaterThan", "expiresBefore")
    issued_ms = None
    if issued:
        issued_ms = now - (_after(issued, now, "issuedBefore") - now)
    creator = _text(body, "tokenCreator") or None
    username = _text(body, "username") or None
    name_text = _text(body, "tokenName") or None
    if ttype == "NORMAL" and creator and username and creator != username:
        raise SimError(400, "for NORMAL tokens tokenCreator and username must be the same user")
    for value in (creator, username):
        if value and "*" not in value and value != caller.username and not caller.may_impersonate:
            raise _others_forbidden(caller)
    name_re = _pattern(name_text) if name_text else None
    creator_re = _pattern(creator) if creator else None
    user_re = _pattern(username) if username else None
    matches = []
    for t in token_store(world).by_name.values():
        if t.expiry_ms <= now:
            continue
        if not caller.may_impersonate and caller.username not in (t.creator, t.username):
            continue
        if ttype and t.token_type != ttype:
            continue
        if name_re and not name_re.match(t.name):
            continue
        if creator_re and not creator_re.match(t.creator):
            continue
        if user_re and not user_re.match(t.username):
            continue
        if before_ms is not None and not t.expiry_ms < before_ms:
            continue
        if later_ms is not None and not t.expiry_ms > later_ms:
            continue
        if issued_ms is not None and not t.issue_ms < issued_ms:
            continue
        matches.append(t)
    matches.sort(key=lambda t: t.name)
    page = window(body, SEARCH_PAGING, dialects_of(request))
    return ok([render(t, caller, request=request) for t in page.take(matches)])


def routes(world: World) -> list[BaseRoute]:
    token_store(world)  # build now so the first request is not the slow one
    return [
        Route("/token", create_token, methods=["POST"]),
        Route("/token/verification", verify_token, methods=["POST"]),
        Route("/token/{name:path}/rotation", rotate_token, methods=["POST"]),
        Route("/token/{name:path}", get_token, methods=["GET"]),
        Route("/token/{name:path}", update_token, methods=["PUT"]),
        Route("/token/{name:path}", delete_token, methods=["DELETE"]),
        Route("/tokens", list_tokens, methods=["GET"]),
        Route("/tokens/count", count_tokens, methods=["GET"]),
        Route("/tokens/search", search_tokens, methods=["POST"]),
    ]
