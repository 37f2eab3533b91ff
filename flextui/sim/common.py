"""What every simulated service shares: errors, JSON bodies, dialects and caller authentication.

Handlers raise `SimError`; `app.py` renders it in the error shape of the
service whose path was called (tokens: `{"statusMessage", "responseObject"}`;
registry: `{"message"}`; data: `{"message", "status"}`; beta APIs:
`{"status", "message", "field"}`), so handlers never format errors by hand.

Handlers learn the app's dialects from `dialects_of(request)` (never from a
global), so two apps in one process can speak differently.

Authentication: the token service, data reports and (by default) the beta
APIs take HTTP Basic or `Bearer rna_…` (`authenticate`). Under the
`token-only-beta` dialect the beta APIs take only the access token
(`authenticate_beta`), as Accessing_the_Entitlement_Management_REST_APIs.htm
says: "The Entitlement Management API requires a user to authenticate using
an access token." The registry has its own JWT flow (registry.py).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from flextui.sim.world import SimUser, World


def error_body(path: str, status: int, message: str, field: str | None = None) -> dict[str, Any]:
    """The error body in the shape of the service that owns `path`."""
    if path.startswith("/flexnet/"):
        return {"statusMessage": message, "responseObject": None}
    if path.startswith("/registry/"):
        return {"message": message}
    if path.startswith("/data/"):
        return {"status": "error", "message": message}
    body: dict[str, Any] = {"status": "error", "message": message}
    if field:
        body["field"] = field
    return body


class SimError(Exception):
    """An error answer: HTTP status, a readable message, and the field it concerns."""

    def __init__(self, status: int, message: str, field: str | None = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field
        self.headers = headers or {}


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse(body, status_code=status, headers=headers)


async def read_json(request: Request, *, required: bool = True) -> Any:
    """The JSON body, or a 400 that says what is wrong with it."""
    raw = await request.body()
    if not raw.strip():
        if required:
            raise SimError(400, "a JSON request body is required")
        return None
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise SimError(400, f"the request body is not valid JSON: {exc}") from None


def require_object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise SimError(400, "the request body must be a JSON object")
    return body


def world_of(request: Request) -> World:
    return request.app.state.world


def dialects_of(request: Request) -> frozenset[str]:
    """The dialects the app answering `request` speaks (empty for an app built without any)."""
    return getattr(request.app.state, "dialects", frozenset())


def basic_credentials(header: str, scheme: str = "basic") -> tuple[str, str] | None:
    """(user, password) from `Basic <b64>` (or another scheme word, e.g. `Fno`)."""
    parts = header.split(None, 1)
    if len(parts) != 2 or parts[0].lower() != scheme:
        return None
    try:
        decoded = base64.b64decode(parts[1], validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    if ":" not in decoded:
        return None
    user, _, password = decoded.partition(":")
    return user, password


def _token_user(world: World, value: str) -> SimUser:
    """The user of a live access token this simulator issued, or a 401."""
    from flextui.sim.tokens import token_store  # the token part is built only when a token is used

    user = token_store(world).user_for_value(value.strip())
    if user is None:
        raise SimError(401, "the access token is invalid, expired or deleted")
    return user


def authenticate(request: Request, *, token_only: bool = False) -> SimUser:
    """The caller, from HTTP Basic or `Bearer rna_…`; only the latter when `token_only`."""
    world = world_of(request)
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if token_only:
        if scheme.lower() == "bearer" and value.strip().startswith("rna_"):
            return _token_user(world, value)
        raise SimError(
            401,
            "an access token is required: send 'Authorization: Bearer rna_…' (create one with POST /flexnet/uar/v1/token); "
            "this API does not take user names and passwords",
            headers={"WWW-Authenticate": 'Bearer realm="flexnet"'},
        )
    if not header:
        raise SimError(
            401,
            "authentication required: send Basic credentials or a Bearer access token",
            headers={"WWW-Authenticate": 'Basic realm="flexnet"'},
        )
    creds = basic_credentials(header)
    if creds is not None:
        user = world.authenticate(*creds)
        if user is None:
            raise SimError(401, "invalid user name or password", headers={"WWW-Authenticate": 'Basic realm="flexnet"'})
        return user
    if scheme.lower() == "bearer" and value.strip().startswith("rna_"):
        return _token_user(world, value)
    raise SimError(401, "unsupported authorization scheme: use Basic or Bearer rna_…")


def authenticate_beta(request: Request) -> SimUser:
    """The caller of an entitlements, products or users/accounts endpoint (token only under `token-only-beta`)."""
    return authenticate(request, token_only="token-only-beta" in dialects_of(request))
