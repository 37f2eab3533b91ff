"""Who a profile is, and how each service wants to be told.

One profile reaches every service, because each service uses the scheme the
vendor documents for it:

- The Entitlement Management (beta) APIs "require a user to authenticate using
  an access token"
  (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/Accessing_the_Entitlement_Management_REST_APIs.htm);
  the products and users/accounts APIs are documented alongside them.
- The registry trades a user name and password for a JWT
  (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivAuthentication.htm);
  an access token alone cannot reach it (`registry.RegistryAuth`).
- Access tokens work on "RESTful Services for Data Access" and the other FNO
  REST APIs
  (https://docs.revenera.com/fno_CURRENT/enduser/Content/helplibrary/opspMgeAccessTokensWhichAPIs.htm),
  and Data Access documents HTTP Basic (`FNO_Credentials`) as its scheme, so
  tokens and reports take the password where the profile has one, else the
  access token.

`Credentials` holds the password and the access token in memory only (never
in a repr, the cache or a log), each got the first time a request needs it. When a service needs a credential the profile
lacks, `MissingCredential` names it and the config line that adds it. A
profile with only a password may let flextui mint a short-lived access token
for the beta APIs (`mint_token = true`, never on a read-only profile): the
token is created once, used as Bearer, and deleted when the session closes.
"""

from __future__ import annotations

import asyncio
import logging
import secrets as _secrets
from collections.abc import AsyncGenerator, Callable, Generator
from typing import Any, Literal

import httpx

from flextui.api.errors import ApiError, Unauthorized

log = logging.getLogger("flextui.auth")

MINTED_LIFETIME = "1h"


class BearerAuth(httpx.Auth):
    """`Authorization: Bearer <token>` (an `rna_…` access token)."""

    def __init__(self, token: str) -> None:
        self._token = token

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = f"Bearer {self._token}"
        yield request

    def __repr__(self) -> str:  # never show the token
        return "BearerAuth(***)"


class MissingCredential(Unauthorized):
    """A service needs a credential this profile does not have; the message says how to add it."""

    exit_code = 3


class NotRead(MissingCredential):
    """A credential the session holds but never reads (offline: nothing is sent). It is not one that cannot be had:
    whose pages a service's are (`Session.identity_for`) is decided as if it were there, as it was online."""


CredentialName = Literal["password", "access token"]

Secret = str | Callable[[], str]
"""A password or access token: the value, or how to get it (called the first time a request needs it; it raises
`MissingCredential`, saying why and how to fix it, when the value cannot be had)."""


class Credentials:
    """A user name, and a password and/or an access token (both kept out of reprs), each got once, when first needed.

    Got late so that a command asks only for what it uses: `get entitlements`
    takes the token, and an unset password variable (or a password prompt)
    must not stop it. A value that cannot be had fails every request that
    needs it, with the same MissingCredential, and is not asked for again.
    """

    def __init__(self, user: str | None = None, password: Secret | None = None, token: Secret | None = None) -> None:
        self.user = user
        self._sources: dict[CredentialName, Secret | None] = {"password": password or None, "access token": token or None}
        self._got: dict[CredentialName, str | MissingCredential] = {}

    def __repr__(self) -> str:  # never show a secret
        return f"Credentials(user={self.user!r}, holds={self.kinds!r})"

    def holds(self, what: CredentialName) -> bool:
        """Whether the profile has `what` (a value or a way to get it), without getting it."""
        return self._sources[what] is not None

    def get(self, what: CredentialName) -> str | None:
        """`what`'s value (None: the profile has none); MissingCredential when it cannot be had."""
        source = self._sources[what]
        if source is None or isinstance(source, str):
            return source
        if what not in self._got:
            try:
                self._got[what] = source()
            except MissingCredential as exc:
                self._got[what] = exc
        got = self._got[what]
        if isinstance(got, MissingCredential):
            raise type(got)(got.message)  # a new one each time (one raised again grows its traceback), of its kind
        return got

    @property
    def password(self) -> str | None:
        return self.get("password")

    @property
    def token(self) -> str | None:
        return self.get("access token")

    @property
    def kinds(self) -> list[CredentialName]:
        """What this profile holds, for messages: ["password", "access token"]."""
        return [name for name in self._sources if self.holds(name)]


def default_hint(credential: str) -> str:
    """How to add a credential when the caller gave no profile-specific hint."""
    if credential == "password":
        return 'add password = { env = "FNO_PASSWORD" } (or keyring / command / prompt) to the profile in the config file'
    return 'add token = { env = "FNO_TOKEN" } (an rna_… access token) to the profile in the config file'


class MintingAuth(httpx.Auth):
    """Bearer with an access token minted once from the password (`mint_token = true`).

    The first request creates a NORMAL token (`POST /uar/v1/token`, lifetime
    one hour) with Basic credentials, then every request carries it as Bearer.
    `minted_name` says what was created so the session can delete it on close.
    Its body names the profile's user as `username`: the OpenAPI marks the
    field required, though a NORMAL token's is ignored ("the user calling the
    API is authenticated",
    https://fnoapi.redocly.app/apis/rest/accesstokencontroller/openapi-access-tokens/access-token-controller/createtokenusingpost_1.md);
    without it a server enforcing the field refused the mint, and so every beta API.
    """

    requires_response_body = True
    carries_password = True  # a 401 can mean the password is wrong (`Unauthorized.password_refused`)

    def __init__(self, create_url: str, user: str, password: str, on_minted: Callable[[str], None] | None = None) -> None:
        self.create_url = create_url
        self._basic = httpx.BasicAuth(user, password)
        self._user = user
        self._token: str | None = None
        self.minted_name: str | None = None
        self._lock: asyncio.Lock | None = None
        self._on_minted = on_minted

    def __repr__(self) -> str:
        return f"MintingAuth(minted={self.minted_name!r})"

    def _mint_request(self) -> httpx.Request:
        name = f"flextui-{_secrets.token_hex(4)}"
        self.minted_name = name
        body = {
            "tokenName": name,
            "tokenType": "NORMAL",
            "expiryStr": MINTED_LIFETIME,
            "tokenDescription": "minted by flextui for the beta APIs; deleted on exit",
        }
        if self._user:  # (minting needs the user: `Session._credential_for`)
            body["username"] = self._user
        request = httpx.Request("POST", self.create_url, json=body)
        return next(self._basic.auth_flow(request))

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        if self._token is None:
            if self._lock is None:
                self._lock = asyncio.Lock()
            async with self._lock:
                if self._token is None:
                    answer = yield self._mint_request()
                    await answer.aread()
                    self._token = _token_value(answer)
                    if self._token is None:
                        self.minted_name = None
                        raise ApiError(
                            f"could not mint an access token with the password (HTTP {answer.status_code})", status=answer.status_code
                        )
                    if self._on_minted is not None and self.minted_name:
                        self._on_minted(self.minted_name)
        request.headers["Authorization"] = f"Bearer {self._token}"
        yield request

    def sync_auth_flow(self, request: httpx.Request) -> Any:
        raise RuntimeError("MintingAuth works with httpx.AsyncClient only")


def _token_value(response: httpx.Response) -> str | None:
    if response.status_code not in (200, 201):
        return None
    try:
        body = response.json()
    except ValueError:
        return None
    obj = body.get("responseObject", body) if isinstance(body, dict) else None
    value = obj.get("tokenValue") if isinstance(obj, dict) else None
    return value if isinstance(value, str) and value else None
