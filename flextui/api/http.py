"""One httpx.AsyncClient per profile, with auth, retries, error mapping and the cache.

Every service module (`tokens.py`, `registry.py`, …) talks through a
`Session`: it turns a service name and a path into a URL, refuses mutating
calls on read-only profiles before anything is sent, retries idempotent reads
with backoff (honouring `Retry-After` on 429), maps failures to the typed
errors of `errors.py`, and reports request activity to listeners (the TUI's
status line). Request logs carry method, path, status and time only: never
headers or bodies, so credentials and token values cannot leak into them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html as htmllib
import json
import logging
import random
import re
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar
from urllib.parse import urlsplit

import httpx

from flextui.api.auth import BearerAuth, Credentials, MintingAuth, MissingCredential, NotRead, default_hint
from flextui.api.cache import Packed, PageCache, cache_key, scrub_secrets
from flextui.api.errors import (
    ApiError,
    BadRequest,
    Forbidden,
    NotStored,
    Offline,
    ReadOnly,
    Unauthorized,
    Unreachable,
    Unreadable,
    from_status,
)
from flextui.api.lane import in_cache_writer, in_lane
from flextui.api.paging import Outcome, PageBases
from flextui.api.tolerant import ANSWER, failure_said
from flextui.api.trace import Trace
from flextui.api.wire import Wire, loads
from flextui.secret_names import secret_words

if TYPE_CHECKING:
    import ssl

log = logging.getLogger("flextui.http")

PROBE = "page-base probe"
_DOT_SEGMENT = re.compile(r"(?:^|/)\.{1,2}(?:/|$)")
"""The request log's word for a request that asks where a service's pages start: its 400 or 404 is an
answer ("pages count from 1"), not a failure."""
CANCELLED = "cancelled"
"""The request log's word for a request given up by the client (escape), which is no failure of the server's."""
GIVEN_UP = "cancelled before the answer came: no longer wanted (escape, or its screen closed)"
_probing: ContextVar[bool] = ContextVar("probing", default=False)
SIGN_IN = "sign-in"
"""The request log's word for an exchange an auth flow made on its own to get a credential (the registry's
authenticate, a minted token) before the request it was asked for."""
SIGN_OUT = "sign-out"
"""The request log's word for the deletion of the token minted for the session, when it closes."""


@dataclass
class _Sent:
    """One request the client sent during a call, and its answer once it came."""

    request: httpx.Request
    started: float
    response: httpx.Response | None = None


@dataclass
class _Call:
    """What one attempt of `Session.request` sent: the request asked for, and what its auth flow sent besides (the
    registry's authenticate, a minted token, a refused request sent again), each logged as it is done with."""

    main: httpx.Request | None
    service: Service
    attempt: int
    attempts: int
    sent: list[_Sent]


_call: ContextVar[_Call | None] = ContextVar("call", default=None)

_answered: ContextVar[list[tuple[str, str, int]] | None] = ContextVar("answered", default=None)
"""The answers a `Session.cached` fetch was given (service in words, request, status): what a message about an
answer it cannot read names (`Session._parse`). A list, so requests made in tasks of its own (`gather`) add to it."""
_last_answer: ContextVar[tuple[str, str, int] | None] = ContextVar("last_answer", default=None)
"""The answer this task was last given (service in words, request, status): what `envelope` names when the answer
it unwraps says the request failed (the caller unwraps what it was just given). `Session.cached` sets it to the
one answer it parses (None for a stored one, or several fetched in tasks of their own, `gather`: it names those
itself), so an answer is never named after an earlier one."""


@contextmanager
def probing() -> Iterator[None]:
    """The requests made inside are page-base probes (see `PROBE`)."""
    token = _probing.set(True)
    try:
        yield
    finally:
        _probing.reset(token)


T = TypeVar("T")


def token_identity(token: str) -> str:
    """An access token as the cache names whose pages are stored (a digest: the token itself never goes to disk)."""
    return "token:" + hashlib.sha256(token.encode()).hexdigest()[:12]


class Service(StrEnum):
    """The FlexNet Operations services and the path each hangs under on an instance."""

    TOKENS = "tokens"
    REGISTRY = "registry"
    DATA = "data"
    ENTITLEMENTS = "entitlements"
    PRODUCTS = "products"
    USERS = "users"


SERVICE_PREFIX: dict[Service, str] = {
    Service.TOKENS: "/flexnet",
    Service.REGISTRY: "/registry",
    Service.DATA: "/data",
    Service.ENTITLEMENTS: "/entitlements-api",
    Service.PRODUCTS: "/products-api",
    Service.USERS: "/users-accounts-api",
}

BETA_SERVICES = frozenset({Service.ENTITLEMENTS, Service.PRODUCTS, Service.USERS})

SERVICE_WORDS: dict[Service, str] = {
    Service.TOKENS: "the token service",
    Service.REGISTRY: "the registry",
    Service.DATA: "the data reports service",
    Service.ENTITLEMENTS: "the entitlements API",
    Service.PRODUCTS: "the products API",
    Service.USERS: "the users and accounts API",
}
"""Each service as a message names it ("the registry is rate-limiting this client …")."""

# Where pages start, as documented: the token list counts from 0 (TokenBasedAuthManTokensList.htm),
# Data Access from 1 (RESTDAPIFilterQueryGlobal.htm). The registry and the beta APIs are detected.
DOCUMENTED_PAGE_BASES: dict[str, int] = {Service.TOKENS: 0, Service.DATA: 1}

# Services documented under more than one address: the token API is written both with and without
# /flexnet (TokenBasedAuthKeyInfo.htm gives .../uar/v1/tokens, the curl example of
# TokenBasedAuthManTokensGetCount.htm .../flexnet/uar/v1/tokens/count). A 404 that is not the
# service's own answer moves to the other address once.
PREFIX_ALTERNATIVES: dict[Service, tuple[str, ...]] = {Service.TOKENS: ("",)}

MUTATING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RETRY_STATUSES = frozenset({429, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class RequestEvent:
    """One request's life, for the status line: `phase` is "start", "end", or "wait" (a retry in `elapsed` seconds)."""

    phase: str
    method: str
    path: str
    in_flight: int
    status: int | None = None
    elapsed: float | None = None
    error: str | None = None


@dataclass(slots=True)
class Fetched(Generic[T]):
    """A value and where it came from: `age` is seconds since it was cached, None if fresh."""

    value: T
    age: float | None = None

    @property
    def from_cache(self) -> bool:
        return self.age is not None


@dataclass
class RetryPolicy:
    """How idempotent reads are retried: a few attempts, within a time budget (by default twice the request timeout)."""

    attempts: int = 3
    backoff: float = 0.25
    max_retry_after: float = 30.0
    budget_seconds: float | None = None

    def budget(self, timeout: float) -> float:
        return self.budget_seconds if self.budget_seconds is not None else 2 * timeout


def error_message(response: httpx.Response) -> tuple[str, str | None]:
    """A readable message (and the field it names, if any) from an error response.

    FlexNet services answer errors in several shapes: `{"statusMessage": …}`
    (tokens), `{"message": …}` (registry, beta APIs), `{"status": …}`, or plain
    text. Line breaks become spaces (the message is one line); other control
    characters stay for whoever shows it to make visible (`render.text.clean`:
    ESC as ␛, as everywhere else). The message is capped.
    """
    text = ""
    field_name: str | None = None
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        body = None
    if isinstance(body, dict):
        for key in ("statusMessage", "message", "error", "detail", "status"):
            value = body.get(key)
            if isinstance(value, str) and value.strip():
                text = value
                break
        fld = body.get("field")
        field_name = fld if isinstance(fld, str) else None
    elif isinstance(body, str):
        text = body
    if not text and body is not None:  # JSON without a message (`{}`): the status is all it says
        text = response.reason_phrase or httpx.codes.get_reason_phrase(response.status_code) or "request failed"
    if not text:
        page = html_title(response)
        if page is not None:  # a proxy's or gateway's error page, not the service's answer
            text = f"{page or response.reason_phrase or 'an error page'} (an HTML page from a proxy or gateway, not the service)"
        else:
            text = response.text.strip() or response.reason_phrase or "request failed"
    text = _ONE_LINE.sub(" ", text)[:300]
    return text, field_name


_ONE_LINE = re.compile("[\n\r\t\v\f\x1c-\x1e\x85\u2028\u2029]")
_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_TAGS = re.compile(r"<[^>]*>")


def failure_words(response: httpx.Response, who: str, request: str) -> str:
    """A server error or rate limit (5xx, 429) in words: what `who` answered to `request`, and what it said."""
    status = response.status_code
    reason = httpx.codes.get_reason_phrase(status) or response.reason_phrase or "error"
    state = {
        429: "is rate-limiting this client",
        502: "is not answering behind its gateway",
        503: "is unavailable",
        504: "is not answering behind its gateway",
    }.get(status, "failed")
    head = f"{who} {state}: {status} {reason} to {request}"
    if status == 429 and (after := _retry_after(response)) is not None:
        head += f" (Retry-After: {seconds(after)} s)"
    page = html_title(response)
    said, _ = error_message(response)
    if page is not None:
        title = f' ("{page}")' if page and page != reason else ""
        head += f", an HTML page{title} from a proxy or gateway"
    elif said.strip() and said.strip().lower() != reason.lower():
        head += f', saying "{said.strip()[:150]}"'
    return head


def seconds(value: float) -> str:
    """Seconds as a message says them: 1, 0.05, 2.5, 30."""
    return f"{value:.2g}" if value < 10 else f"{value:.0f}"


def html_title(response: httpx.Response) -> str | None:
    """The readable title of an HTML page (its <title>, else its first words; the status number dropped), or None if not HTML."""
    return html_title_of(response.content, response.headers.get("content-type", ""), response.status_code)


def html_title_of(body: bytes, content_type: str = "", status: int | None = None) -> str | None:
    """`html_title` for an answer's bytes and content type."""
    text = body.decode("utf-8", "replace").strip() if body else ""
    if "html" not in content_type.lower() and not text[:200].lower().lstrip().startswith(("<!doctype html", "<html")):
        return None
    found = _TITLE.search(text)
    title = found.group(1) if found else _TAGS.sub(" ", text)
    title = " ".join(htmllib.unescape(_TAGS.sub(" ", title)).split())[:120]
    number = str(status)
    if status is not None and title.startswith(number + " "):
        title = title[len(number) + 1 :]
    return title


class Session:
    """A profile's connection: one client, its auth flows, read-only rule and cache."""

    def __init__(
        self,
        instance_url: str,
        *,
        name: str = "default",
        auth: httpx.Auth | None = None,
        user: str | None = None,
        read_only: bool = False,
        transport: httpx.AsyncBaseTransport | None = None,
        overrides: dict[str, str] | None = None,
        verify: bool | ssl.SSLContext = True,
        proxy: str | None = None,
        timeout: float = 30.0,
        cache: PageCache | None = None,
        offline: bool = False,
        fresh_seconds: float = 60.0,
        retry: RetryPolicy | None = None,
        registry_tenant: str | None = None,
        credentials: Credentials | None = None,
        mint_token: bool = False,
        credential_hint: Callable[[str], str] = default_hint,
        page_bases: dict[str, int] | None = None,
        now_ms: Callable[[], int] | None = None,
    ) -> None:
        self._made_with = {k: v for k, v in locals().items() if k != "self"}
        """What made this session, for `with_credentials`."""
        self.name = name
        self.instance_url = instance_url.rstrip("/")
        self.credentials = credentials
        self.user = user or (credentials.user if credentials else None)
        self.read_only = read_only
        self.cache = cache
        self.offline = offline
        self.fresh_seconds = fresh_seconds
        self.storing = True
        """Whether answers are written to the page cache (it is still read when not): a headless report export
        turns it off for its record pages, which nobody revisits and which would grow the file by 60 MB a 100k rows."""
        self.retry = retry or RetryPolicy()
        self.now_ms: Callable[[], int] = now_ms or _wall_ms
        """The time of day (epoch milliseconds) an answer's times are read against (a verified token's expiry): this
        machine's clock, or the simulated world's on the simulator (the demo; tests freeze it)."""
        self.clock: Callable[[], float] = time.monotonic
        """What a failure's message measures the time it took by, from the first send to giving up (a test fakes it)."""
        self.registry_tenant = registry_tenant
        self.overrides = {Service(k): v.rstrip("/") for k, v in (overrides or {}).items()}
        self.auth = auth
        self.mint_token = mint_token and not read_only
        self.credential_hint = credential_hint
        self._service_auth: dict[Service, httpx.Auth] = {}
        self.page_bases = PageBases({**DOCUMENTED_PAGE_BASES, **(page_bases or {})}, load=self._load_base, save=self._save_base)
        self.shortfalls: list[Outcome] = []
        self.notices: list[str] = []  # things the user should be told once (a minted token), for the CLI
        # Told at once when something the user should know happens (a listing cut short, a minted token): (severity, text).
        self.notice_listeners: list[Callable[[str, str], None]] = []
        self._minting: MintingAuth | None = None
        self._token_instead_said = False  # (`_say_token_instead`)
        self._size_caps: dict[str, int] = {}
        self._own_sizes: dict[str, int] = {}
        self._prefix: dict[Service, str] = {}
        self._prefix_tried: dict[Service, set[str]] = {}
        self._prefix_settled: set[Service] = set()
        self._signed_in: set[Service] = set()  # services that answered this session's credentials
        self.trace = Trace()
        self.claim_cache()
        self.total_timeout = timeout
        self.listeners: list[Callable[[RequestEvent], None]] = []
        self.in_flight = 0
        self.requests_sent = 0
        kwargs: dict[str, Any] = {"timeout": httpx.Timeout(timeout, connect=min(10.0, timeout))}
        if transport is not None:
            kwargs["transport"] = transport
        else:
            kwargs["verify"] = verify  # a CA bundle comes as the context made from it (config.tls_verify), never its path
            if proxy:
                kwargs["proxy"] = proxy
        # Every request the client sends is seen, those an auth flow makes on its own too (`_sending`).
        kwargs["event_hooks"] = {"request": [self._sending], "response": [self._answered]}
        self.client = httpx.AsyncClient(follow_redirects=False, **kwargs)

    def claim_cache(self) -> None:
        """Problems of the shared page cache are told to this session's listeners: the one in use (a session made and
        dropped by a failed sign-in had taken them, and told a full disk to nobody)."""
        if self.cache is not None:
            self.cache.on_problem = self._cache_problem

    def with_credentials(self, credentials: Credentials) -> Session:
        """This session's instance and settings with other credentials (`:password`): a new client, signed out;
        the same cache and identity, and the same request log (the refused sign-in stays in it)."""
        session = Session(**{**self._made_with, "credentials": credentials})
        session.trace = self.trace
        return session

    # -- plumbing -------------------------------------------------------------

    def base(self, service: Service) -> str:
        """The base URL of a service: an override, or the instance URL plus its prefix (or the other documented one)."""
        return self.overrides.get(service) or self.instance_url + self._prefix.get(service, SERVICE_PREFIX[service])

    def url(self, service: Service, path: str) -> str:
        """The URL of `path` on a service; a path with a `.` or `..` segment (a name made of dots, which `quote`
        leaves alone) is refused: httpx and every server resolve it, so a confirmed delete of repository
        `../../victim/repositories/img` would reach another project's."""
        if _DOT_SEGMENT.search(path.split("?", 1)[0]):
            raise BadRequest(f"{path[:120]}: a name of only dots (. or ..) cannot be sent in a path: the server would read it as a step")
        return self.base(service) + (path if path.startswith("/") else "/" + path)

    def set_service_auth(self, service: Service, auth: httpx.Auth) -> None:
        """Use another auth flow for one service (the registry's JWT flow)."""
        self._service_auth[service] = auth

    def auth_for(self, service: Service) -> httpx.Auth | None:
        """The auth flow `service` gets: its own (the registry's JWT), else the one its scheme needs (`auth.py`)."""
        if service in self._service_auth:
            return self._service_auth[service]
        creds = self.credentials
        if creds is None:
            return self.auth
        if service is Service.REGISTRY:
            raise self.missing(
                "password", f"the registry trades a user name and password for a JWT, and profile {self.name!r} has no password"
            )
        how, value = self._credential_for(service, creds)
        if how == "token":
            return BearerAuth(value)
        if how == "minted":
            if self._minting is None:
                self._minting = MintingAuth(self.url(Service.TOKENS, "/uar/v1/token"), creds.user or "", value, self._minted)
            return self._minting
        return httpx.BasicAuth(creds.user or "", value)

    def _credential_for(self, service: Service, creds: Credentials) -> tuple[Literal["token", "minted", "password"], str]:
        """Which credential `service` is asked with, and its value: what `auth_for` sends, and so whose pages its
        answers are (`identity_for`). Each credential is got only where it is used (getting one may fail:
        MissingCredential, which this raises when the service can be asked with nothing)."""
        if (service in BETA_SERVICES or not creds.holds("password")) and (token := creds.token):
            return "token", token
        if service in BETA_SERVICES and self.mint_token and creds.user and (password := creds.password):
            return "minted", password
        try:
            password = creds.password
        except NotRead:  # offline: held, never read (nothing is sent); its pages are the password's
            raise
        except MissingCredential as lacking:  # the service takes a token too: the password can wait
            token = None
            with contextlib.suppress(MissingCredential):
                token = creds.token
            if not token:
                raise lacking from None
            self._say_token_instead(service, lacking)
            return "token", token
        if password:
            return "password", password
        raise self.missing("password", f"profile {self.name!r} has no credentials")

    def _say_token_instead(self, service: Service, lacking: MissingCredential) -> None:
        """Say once that a service that takes the password is asked with the access token instead: who signs in
        is then whoever the token was made for, and its pages are the token's (`identity_for`), not the user's."""
        if self._token_instead_said:
            return
        self._token_instead_said = True
        note = (
            f"{lacking.message}; so the token API and data reports are asked with the profile's access token instead: "
            "they answer as whoever it was made for, and their pages are kept apart from those asked with the password"
        )
        self.notices.append(note)
        log.warning("%s: %s", SERVICE_WORDS[service], note)
        self._tell("warning", note)

    def missing(self, credential: str, why: str) -> MissingCredential:
        """The error for a credential this profile lacks, with the config line that adds it."""
        return MissingCredential(f"{why}: {self.credential_hint(credential)}")

    def _minted(self, name: str) -> None:
        note = f"minted a one-hour access token {name!r} with your password for the beta APIs (mint_token = true); it is deleted on exit"
        self.notices.append(note)
        log.info(note)
        self._tell("information", note)

    def _cache_problem(self, text: str) -> None:
        self.notices.append(text)
        self._tell("warning", text)

    def _tell(self, severity: str, text: str) -> None:
        for listener in list(self.notice_listeners):
            try:
                listener(severity, text)
            except Exception:  # a broken listener must not break a listing
                log.exception("notice listener failed")

    def _base_key(self, service: str) -> str:
        return cache_key(self.instance_url.lower(), "paging.base", {"url": self.base(Service(service)), "service": str(service)})

    def _load_base(self, service: str) -> int | None:
        hit = self.cache.get(self._base_key(service)) if self.cache is not None else None
        return hit[0] if hit is not None and hit[0] in (0, 1) else None

    def _save_base(self, service: str, base: int) -> None:
        if self.cache is not None:
            self.cache.put(self._base_key(service), self.instance_url.lower(), "paging.base", base)

    def size_for(self, op: str, asked: int) -> int:
        """The page size to ask `op` for: what was asked, or less where the server was seen to cap it."""
        cap = self._size_caps.get(op)
        return min(asked, cap) if cap else asked

    def learn_size(self, op: str, asked: int, got: int, more_exists: bool) -> int:
        """Note a short page while more exists (the server capped the size); return the size the server used."""
        if 0 < got < asked and more_exists:
            self._size_caps[op] = got
            log.info("%s: the server answers at most %d items per page (asked %d)", op, got, asked)
            return got
        return asked

    def known_own_size(self, op: str) -> int | None:
        """The size of its own the server was seen to page `op` by (`own_size`), None when it was not seen to."""
        return self._own_sizes.get(op)

    def own_size(self, op: str, got: int) -> int:
        """A page of more items than asked, not the whole list: the server pages by a size of its own, at
        least `got`; return that size (the largest such page seen, so its short last page keeps the count)."""
        size = max(got, self._own_sizes.get(op, 0))
        if size != self._own_sizes.get(op):
            self._own_sizes[op] = size
            log.info("%s: the server answers pages of %d items, more than asked", op, size)
        return size

    def record_listing(self, outcome: Outcome) -> None:
        """A listing ended; one cut short is kept for the CLI's exit code and the status line."""
        if not outcome.complete:
            log.info("listing cut short: %s", outcome.describe())
            self.shortfalls.append(outcome)
            del self.shortfalls[:-50]
            self._tell("warning", f"Listing cut short: {outcome.describe()}")

    def _explain_refusal(self, service: Service, error: ApiError, auth: httpx.Auth | None, response: httpx.Response) -> ApiError:
        """A beta API refusing a password: say that it wants an access token, and how to add one; any other
        refused password is marked so (`Unauthorized.password_refused`). An auth flow that knows more about a
        refusal (the registry's: a 403 to a JWT got just before) says it through its `explain_refusal`."""
        explain = getattr(auth, "explain_refusal", None)
        if callable(explain):
            error = explain(error, response)
        creds = self.credentials
        if (
            isinstance(error, Unauthorized)
            and service in BETA_SERVICES
            and creds is not None
            and not creds.holds("access token")
            and self._minting is None
        ):
            log.info("%s refused the password: %s", SERVICE_WORDS[service], error.message)
            return self.missing("token", f"{SERVICE_WORDS[service]} takes an access token, not a password")
        if isinstance(error, Unauthorized) and (isinstance(auth, httpx.BasicAuth) or getattr(auth, "carries_password", False)):
            error.password_refused = True
        return error

    def _emit(self, event: RequestEvent) -> None:
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:  # a broken listener must not break a request
                log.exception("request listener failed")

    async def aclose(self) -> None:
        minting, self._minting = self._minting, None
        if minting is not None and minting.minted_name and self.credentials and self.credentials.password:
            request = self.client.build_request("DELETE", self.url(Service.TOKENS, "/uar/v1/token/" + minting.minted_name))
            started = time.monotonic()
            response: httpx.Response | None = None
            error: str | None = None
            try:  # tidy up the token minted for the beta APIs; it expires within the hour anyway
                response = await self.client.send(request, auth=httpx.BasicAuth(self.credentials.user or "", self.credentials.password))
            except (httpx.HTTPError, OSError) as exc:
                error = f"could not delete the minted token: {type(exc).__name__}: {exc}"[:300]
                log.info("could not delete the minted token %s; it expires on its own", minting.minted_name)
            with contextlib.suppress(Exception):  # logging must not stop the close
                self.trace.record(request, response, service=Service.TOKENS.value, started=started, decision=SIGN_OUT, error=error)
        await self.client.aclose()

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- requests -------------------------------------------------------------

    def check_writable(self, what: str = "this change") -> None:
        """Raise ReadOnly on a read-only profile: called before any mutating request."""
        if self.read_only:
            raise ReadOnly(f"profile {self.name!r} is read-only: {what} was not sent")

    async def request(
        self,
        service: Service,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | list[tuple[str, Any]] | None = None,
        json_body: Any = None,
        headers: dict[str, str] | None = None,
        mutating: bool | None = None,
        auth: httpx.Auth | None = None,
        expect: tuple[int, ...] | None = None,
    ) -> httpx.Response:
        """Send a request and return the response, or raise a typed ApiError.

        `mutating` defaults to the method (POST/PUT/PATCH/DELETE); reads sent as
        POST (token search and verify, report POST) pass `mutating=False` and
        are then allowed on read-only profiles and retried like other reads.
        """
        method = method.upper()
        is_mutating = method in MUTATING_METHODS if mutating is None else mutating
        if is_mutating:
            self.check_writable(f"{method} {path}")
        if self.offline:
            raise Offline(f"offline: {method} {path} needs the network")
        if isinstance(params, dict):
            params = {k: v for k, v in params.items() if v is not None}
        attempts = 1 if is_mutating else max(1, self.retry.attempts)
        use_auth = auth if auth is not None else self.auth_for(service)
        last_error: ApiError | None = None
        retry_after: float | None = None
        what = ""  # the last failure in words: what the message of the one given up on starts with
        waits: list[float] = []  # the pauses before each retry
        not_retried = "not retried: a change is never sent twice" if is_mutating else ""
        budget_ends = time.monotonic() + self.retry.budget(self.total_timeout)
        first_sent: float | None = None
        attempt = 0
        who = SERVICE_WORDS[service]
        while True:
            url = self.url(service, path)
            request = f"{method} {urlsplit(url).path[:200]}"  # (not httpx.URL: a URL too long to send is refused below, as such)
            self.in_flight += 1
            self.requests_sent += 1
            self._emit(RequestEvent("start", method, path, self.in_flight))
            started = time.monotonic()
            if first_sent is None:
                first_sent = self.clock()
            status: int | None = None
            last_error = None
            retry_after = None
            other_prefix = False
            response = None
            cancelled = False
            call = _Call(None, service, attempt, attempts, [])
            calling = _call.set(call)
            try:
                async with asyncio.timeout(self.total_timeout):  # connect, send, and the whole body: a trickle is given up
                    call.main = self.client.build_request(method, url, params=params, json=json_body, headers=headers)
                    response = await self.client.send(call.main, auth=use_auth or httpx.USE_CLIENT_DEFAULT)
                status = response.status_code
            except asyncio.CancelledError:
                cancelled = True  # escape, or its screen closed: the answer was no longer wanted, not refused
                raise
            except ApiError as exc:  # from the auth flow (a token that could not be minted): the request was not sent
                last_error = exc
                raise
            except httpx.InvalidURL as exc:
                raise BadRequest(
                    f"{method} {path[:80]}: the request could not be built ({str(exc)[:120]}); a value given is too long or malformed"
                ) from None
            except httpx.LocalProtocolError as exc:
                raise BadRequest(f"{method} {path[:80]}: the request could not be sent ({str(exc)[:120]})") from None
            except (httpx.TimeoutException, TimeoutError):
                what = f"{request} timed out: {who} sent no complete answer within {self.total_timeout:g} s"
                last_error = Unreachable(what)
            except httpx.DecodingError as exc:  # e.g. a proxy mangled a gzip body: not an httpx crash
                what = f"{who}'s answer to {request} could not be decoded ({str(exc)[:120]})"
                last_error = Unreadable(what)
            except (httpx.ConnectError, httpx.ProxyError, httpx.UnsupportedProtocol) as exc:
                what = f"cannot reach {who} at {self.base(service)} for {request} ({type(exc).__name__}: {str(exc)[:100]})"
                last_error = Unreachable(what)
            except httpx.RequestError as exc:  # the connection broke after the request went out (reset, cut mid-answer)
                why = str(exc)[:120] or type(exc).__name__
                what = f"the connection to {who} broke before the whole answer to {request} came ({why})"
                last_error = Unreachable(what)
            else:
                if expect and status in expect or (expect is None and status < 400):
                    self._settle_prefix(service)
                    if status < 400:
                        self._signed_in.add(service)
                    answered = _answered.get()
                    if answered is not None:
                        answered.append((who, request, status))
                    _last_answer.set((who, request, status))
                    return response
                other_prefix = status == 404 and self._other_prefix(service, response)
                if not other_prefix:
                    message, field_name = error_message(response)
                    retry_after = _retry_after(response)
                    last_error = self._explain_refusal(
                        service, from_status(status, message, retry_after=retry_after, field=field_name), use_auth, response
                    )
                    what = failure_words(response, who, request) if status == 429 or status >= 500 else ""
                    if status not in RETRY_STATUSES:
                        if what and not not_retried:
                            not_retried = f"not retried: flextui retries only {', '.join(map(str, sorted(RETRY_STATUSES)))}"
                        raise self._gave_up(last_error, what, 1, waits, not_retried, retry_after, self.clock() - first_sent)
            finally:
                _call.reset(calling)
                self.in_flight -= 1
                elapsed = time.monotonic() - started
                err_text = str(last_error) if last_error is not None else None
                self._log_sent(call, ending=True, final=response, error=err_text, cancelled=cancelled)
                self._trace(call, url, params, json_body, response, started, err_text, cancelled=cancelled)
                log.info("%s %s -> %s in %.0f ms", method, path, status or "error", elapsed * 1000)
                self._emit(RequestEvent("end", method, path, self.in_flight, status, elapsed, err_text))
            if other_prefix:
                continue  # the same request under the service's other documented address
            attempt += 1
            if attempt >= attempts:
                break
            delay = self._delay(attempt - 1, retry_after)
            if time.monotonic() + delay > budget_ends:
                budget = self.retry.budget(self.total_timeout)
                log.info("%s %s: not retried, the retry budget of %.0f s is spent", method, path, budget)
                not_retried = f"waiting {seconds(delay)} s more would pass the {seconds(budget)} s allowed for retries"
                break
            waits.append(delay)
            self._emit(RequestEvent("wait", method, path, self.in_flight, status, delay, err_text))
            await asyncio.sleep(delay)
        assert last_error is not None and first_sent is not None
        raise self._gave_up(last_error, what, attempt, waits, not_retried, retry_after, self.clock() - first_sent)

    def _gave_up(
        self, error: ApiError, what: str, tries: int, waits: list[float], not_retried: str, retry_after: float | None, elapsed: float
    ) -> ApiError:
        """The error a request ends with, in words when `what` says its failure: what happened (the service, the
        request), how often it was tried and for how long (`elapsed`, from the first send to giving up: two
        timeouts of 30 s are a minute, not the 0.2 s waited between them) or how long it waited between tries,
        the Retry-After it was given, and what to do. Server text stays as sent: whoever shows the message
        cleans it (`render.text.clean`)."""
        if not what:
            return error
        if tries <= 1:
            tried = not_retried or "not retried"
        else:
            tried = f"tried {tries} times"
            if waits and retry_after is not None:
                cap = self.retry.max_retry_after
                if retry_after > cap:
                    tried += f", waiting {seconds(cap)} s between tries (its Retry-After asked {seconds(retry_after)} s; flextui waits at most {seconds(cap)} s)"
                else:
                    tried += f", waiting {seconds(retry_after)} s between tries as its Retry-After asked"
            elif elapsed >= 1:
                tried += f" over {seconds(elapsed)} s"
            if not_retried:
                tried += f", then stopped: {not_retried}"
        if error.status == 429:
            advice = "wait a while and try again, with fewer requests at once"
        elif isinstance(error, Unreachable) and "timed out" in what:
            advice = f"try again later, or give the profile a longer timeout (now {seconds(self.total_timeout)} s)"
        elif isinstance(error, Unreachable) and what.startswith("cannot reach"):
            advice = "check the URL, the network and any proxy"
        else:
            advice = "try again later"
        error.message = f"{what}; {tried}; {advice}"
        error.worded = True
        return error

    @staticmethod
    def _decision(attempt: int, attempts: int, *, cancelled: bool = False) -> str:
        """The request log's word for an attempt: network, a retry, cancelled; a page-base probe says so first."""
        decision = CANCELLED if cancelled else "network" if attempt == 0 else f"retry {attempt + 1}/{attempts}"
        if _probing.get():
            decision = PROBE if attempt == 0 else f"{PROBE}, {decision}"
        return decision

    def _trace(
        self,
        call: _Call,
        url: str,
        params: Any,
        json_body: Any,
        response: httpx.Response | None,
        started: float,
        error: str | None,
        *,
        cancelled: bool = False,
    ) -> None:
        """Log the exchange in the session's trace (secrets removed there); never let logging break a request."""
        try:
            request = response.request if response is not None else call.main
            if request is None:  # it could not even be built
                request = self.client.build_request("GET" if call.main is None else call.main.method, url, params=params, json=json_body)
            if cancelled:
                error = GIVEN_UP
            decision = self._decision(call.attempt, call.attempts, cancelled=cancelled)
            service = call.service
            if request is not call.main:  # the auth flow's own request ended the call (a refused authenticate)
                decision, service = SIGN_IN, self._service_at(str(request.url))
            self.trace.record(request, response, service=service.value, started=started, decision=decision, error=error)
        except Exception:
            log.debug("could not trace %s", url, exc_info=True)

    async def _sending(self, request: httpx.Request) -> None:
        """The client is sending `request` (an event hook): what the call sent before it is logged now, in order, the
        exchanges an auth flow made on its own included (they never reached `_trace`)."""
        call = _call.get()
        if call is None:
            return
        self._log_sent(call)
        call.sent.append(_Sent(request, time.monotonic()))

    async def _answered(self, response: httpx.Response) -> None:
        """The answer to a request the client sent (an event hook; its body is read later)."""
        call = _call.get()
        if call is None:
            return
        for sent in reversed(call.sent):
            if sent.request is response.request and sent.response is None:
                sent.response = response
                return

    def _log_sent(
        self, call: _Call, *, ending: bool = False, final: httpx.Response | None = None, error: str | None = None, cancelled: bool = False
    ) -> None:
        """Log, in the order sent, what the call sent and is done with: each answer read (an auth flow reads one
        before it sends the next request), and when the call ends (`ending`) the rest, but for its own last request,
        which `_trace` logs. Nothing secret is kept (`Trace.record`): an authenticate answer (a bare JWT) is
        withheld, a minted token's value removed, credentials in headers replaced by their scheme."""
        kept: list[_Sent] = []
        for sent in call.sent:
            response = sent.response if sent.response is not None and hasattr(sent.response, "_content") else None
            own = sent.request is call.main
            if response is None and not ending:
                kept.append(sent)  # not answered yet
                continue
            if final is not None and sent.response is final or own and response is None:
                continue  # the call's own answer, or its request unanswered: `_trace` logs it with the call's outcome
            decision = self._decision(call.attempt, call.attempts) if own else SIGN_IN
            failure = None
            if response is None:
                decision, failure = (CANCELLED, GIVEN_UP) if cancelled else (decision, error or "no answer: the call ended first")
            try:
                service = call.service if own else self._service_at(str(sent.request.url))
                self.trace.record(sent.request, response, service=service.value, started=sent.started, decision=decision, error=failure)
            except Exception:
                log.debug("could not trace %s", sent.request.url, exc_info=True)
        call.sent[:] = kept

    def _service_at(self, url: str) -> Service:
        """The service whose address `url` is under (the longest base that starts it); tokens if none."""
        found = [s for s in Service if url.startswith(self.base(s) + "/")]
        return max(found, key=lambda s: len(self.base(s)), default=Service.TOKENS)

    def _other_prefix(self, service: Service, response: httpx.Response) -> bool:
        """A 404 from the router, not the service: switch to the service's other documented address (once)."""
        if service in self.overrides or service not in PREFIX_ALTERNATIVES or service in self._prefix_settled:
            return False
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict) and "statusMessage" in body:  # the token service's own answer: a real "not found"
            self._prefix_settled.add(service)
            return False
        current = self._prefix.get(service, SERVICE_PREFIX[service])
        options = [
            p
            for p in (SERVICE_PREFIX[service], *PREFIX_ALTERNATIVES[service])
            if p != current and p not in self._prefix_tried.setdefault(service, set())
        ]
        if not options:
            return False
        self._prefix_tried[service].add(current)
        self._prefix[service] = options[0]
        log.info("%s answered 404 at %s: trying %s", service.value, current or "/", options[0] or "/")
        return True

    def _settle_prefix(self, service: Service) -> None:
        self._prefix_settled.add(service)

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        """The server's Retry-After (429 or 503) when it sent one, else exponential backoff with jitter."""
        if retry_after is not None:
            return float(min(retry_after, self.retry.max_retry_after))
        return self.retry.backoff * (2.0**attempt) * (0.75 + random.random() / 2)

    async def get_json(self, service: Service, path: str, **kwargs: Any) -> Any:
        """A GET's JSON answer; an empty 200 body is an unreadable answer, not "nothing"."""
        response = await self.request(service, "GET", path, **kwargs)
        if len(response.content) > LARGE_BODY:  # a huge page is decoded off the event loop: keys keep flowing meanwhile
            return await in_lane(decode_json, response)
        return decode_json(response)

    async def send_json(self, service: Service, method: str, path: str, **kwargs: Any) -> Any:
        """The JSON answer of any method; a change (a write) may answer with an empty body, a read may not."""
        response = await self.request(service, method, path, **kwargs)
        mutating = kwargs.get("mutating")
        is_write = method.upper() in MUTATING_METHODS if mutating is None else mutating
        return decode_json(response, allow_empty=is_write)

    # -- cache ----------------------------------------------------------------

    @property
    def identity(self) -> str:
        """Whose cache this is: the instance and the user (a token-only profile: a digest of its token).

        Cached pages belong to one identity, never to a profile name: a second
        user, another instance, or an ad hoc `--url` session sees only what it
        stored itself.
        """
        who = (self.user or "").strip().lower()
        if not who and self.credentials is not None and self.credentials.token:
            who = token_identity(self.credentials.token)
        return f"{self.instance_url.lower()}|{who}"

    def identity_for(self, op: str) -> str:
        """Whose cached pages `op`'s are: who its service is asked as (`_credential_for`, as `auth_for` sends it):
        `identity`, and where that is an access token the profile was given (not one it minted from the user's
        password), that token's digest too.

        A token speaks for whoever it was made for, not for the profile's user: a profile (or a
        FLEXTUI_TOKEN left set) holding someone else's token stored that user's entitlements as this
        user's, and `--offline` then showed them as this user's. So with the token API and data reports
        asked with the token because the password cannot be had (an unset variable): their pages are the
        token's. Pages asked with one token are kept apart from another's (a rotated token starts afresh);
        a token minted with `mint_token` is the user's own. Offline, a password held is taken as had (it
        is never read: `NotRead`), as online it was.
        """
        base = self.identity
        service = self._service_of(op)
        creds = self.credentials
        if not self.user or creds is None or service is None or service is Service.REGISTRY or service in self._service_auth:
            return base
        try:
            how, token = self._credential_for(service, creds)
        except MissingCredential:  # nothing to ask with (nothing is stored), or a password held but not read offline
            return base
        return f"{base}|{token_identity(token)}" if how == "token" else base

    def _service_of(self, op: str) -> Service | None:
        head = op.split(".", 1)[0]
        return {"reports": Service.DATA}.get(head) or next((s for s in Service if s.value == head), None)

    def _proven(self, op: str) -> bool:
        """Whether this session has signed in to the service behind `op` (a cached page may be shown first)."""
        service = self._service_of(op)
        return self.offline or service is None or service in self._signed_in

    async def cached(
        self,
        op: str,
        params: dict[str, Any],
        fetch: Callable[[], Awaitable[Any]],
        parse: Callable[[Any], T] = lambda raw: raw,
        *,
        force: bool = False,
    ) -> AsyncGenerator[Fetched[T], None]:
        """Stale-while-revalidate: yield the cached answer (with its age), then the fresh one.

        Within `fresh_seconds` of caching, the cached answer is the only one (no
        request is repeated). Offline, only the cache answers; a miss raises
        `Offline`. `fetch` returns raw JSON; secrets are scrubbed before storing.

        Until this session has signed in to the service, nothing cached is shown
        before the server has answered: a failed sign-in (401/403) shows
        nothing, and only an unreachable server falls back to the cache.
        """
        key = cache_key(self.identity_for(op), op, params)
        hit = await self._read(key)
        if hit is not None and not self._proven(op):
            asked: list[tuple[str, str, int]] = []
            try:
                raw = await self._fetch(fetch, asked)
            except (Unauthorized, Forbidden, ReadOnly):
                raise
            except ApiError:
                raw_cached, stored_at = hit
                yield Fetched(await self._parse(parse, raw_cached, op), max(0.0, time.time() - stored_at))
                raise
            value = await self._parse(parse, raw, op, asked)
            await self._store(key, op, raw)
            yield Fetched(value, None)
            return
        if hit is not None:
            raw, stored_at = hit
            age = max(0.0, time.time() - stored_at)
            yield Fetched(await self._parse(parse, raw, op), age)
            if self.offline or (not force and age < self.fresh_seconds):
                self.trace.note("GET", f"cache:{op}", op.split(".", 1)[0], "cached" if not self.offline else "cached (offline)")
                return
        elif self.offline:
            why = f" ({self.cache.disabled_reason})" if self.cache is not None and self.cache.disabled_reason else ""
            raise Offline(f"offline, and nothing cached for {op} as {self.user or 'this identity'} at {self.instance_url}{why}")
        asked = []
        raw = await self._fetch(fetch, asked)
        value = await self._parse(parse, raw, op, asked)  # before it is stored: an answer that cannot be read is never kept
        await self._store(key, op, raw)
        yield Fetched(value, None)

    async def _fetch(self, fetch: Callable[[], Awaitable[Any]], asked: list[tuple[str, str, int]]) -> Any:
        """`fetch()`, noting in `asked` the answers it was given (`_answered`), and naming them in a message
        about "the server's answer" that it raises (a service reading its answer as it fetches: the registry's)."""
        token = _answered.set(asked)
        _last_answer.set(None)  # (not reset after: what the fetch was given is what this task was last given)
        try:
            return await fetch()
        except ApiError as exc:
            _name_answer(exc, asked)
            raise
        finally:
            _answered.reset(token)

    async def stored(self, op: str, params: dict[str, Any], parse: Callable[[Any], T] = lambda raw: raw) -> Fetched[T]:
        """The cached answer alone, of any age: never a request (a revisit shows it at once, the caller refreshes behind).

        Raises `NotStored` when nothing is stored for this identity, and, like
        `cached`, before this session has signed in to the service (a failed
        sign-in must not be answered from the cache).
        """
        if self.cache is None or not self._proven(op):
            raise NotStored(op)
        hit = await self._read(cache_key(self.identity_for(op), op, params))
        if hit is None:
            raise NotStored(op)
        raw, stored_at = hit
        self.trace.note("GET", f"cache:{op}", op.split(".", 1)[0], "cached (shown first)")
        return Fetched(await self._parse(parse, raw, op), max(0.0, time.time() - stored_at))

    async def derived_sources(self, sources: list[tuple[str, dict[str, Any]]]) -> dict[str, float] | None:
        """When each of the stored answers `sources` (op, params) was stored, read now: what `store_derived` is
        told its parts are made of. None when one of them is not stored, or nothing is stored by this session."""
        if self.cache is None or not self.storing:
            return None
        keys = [cache_key(self.identity_for(source_op), source_op, source_params) for source_op, source_params in sources]
        stamps = await asyncio.to_thread(self.cache.stamps, keys)
        return stamps if len(stamps) == len(set(keys)) else None

    async def store_derived(self, op: str, params: dict[str, Any], sources: dict[str, float], parts: Iterable[bytes]) -> bool:
        """Keep `parts`, made from the stored answers `sources` (`derived_sources`, read when their rows were
        taken), for as long as each of them is the one stored; False when one has changed since (or there is no
        cache). Made and written in a worker thread."""
        if self.cache is None or not self.storing:
            return False
        whose = self.identity_for(op)
        return await asyncio.to_thread(self.cache.put_derived, cache_key(whose, op, params), whose, sources, parts)

    async def stored_derived(self, op: str, params: dict[str, Any]) -> tuple[list[bytes], float]:
        """What `store_derived` kept and the age of its oldest source, while every source is still the answer stored.

        Raises `NotStored` otherwise, and, like `stored`, before this session has signed in to the service.
        """
        if self.cache is None or not self._proven(op):
            raise NotStored(op)
        hit = await asyncio.to_thread(self.cache.get_derived, cache_key(self.identity_for(op), op, params))
        if hit is None:
            raise NotStored(op)
        parts, stored_at = hit
        self.trace.note("GET", f"cache:{op}", op.split(".", 1)[0], "cached (shown first)")
        return parts, max(0.0, time.time() - stored_at)

    async def _parse(
        self, parse: Callable[[Any], T], raw: Any, op: str | None = None, asked: list[tuple[str, str, int]] | None = None
    ) -> T:
        """Records from an answer; a huge page is parsed off the event loop, in the lane of page work (`api/lane.py`).

        A message about "the server's answer" (a service's reader does not know whose answer to what: a report
        page's bytes, a list with no list in it, `tolerant.list_items`) names them: the answers `asked` was
        given, else the address a kept page was asked at, else (a stored answer) `op`'s service.
        """
        _last_answer.set(asked[0] if asked is not None and len(asked) == 1 else None)  # what `envelope` may name
        try:
            return await in_lane(parse, raw) if _large(raw) else parse(raw)
        except RecursionError:
            raise Unreadable("the server sent an answer nested too deeply to read") from None
        except ApiError as exc:
            if asked:
                _name_answer(exc, asked)
            url = raw.meta.get("url") if isinstance(raw, Wire) else None
            if isinstance(url, str) and exc.message.startswith(_UNNAMED):
                who, request = _asked_at(url)
                exc.message = f"{who}'s answer for {request}" + exc.message[len(_UNNAMED) :]
            service = self._service_of(op) if op else None
            if service is not None and exc.message.startswith(_UNNAMED):
                exc.message = f"{SERVICE_WORDS[service]}'s stored answer" + exc.message[len(_UNNAMED) :]
            raise

    async def _read(self, key: str) -> tuple[Any, float] | None:
        """The stored answer under `key` and when it was stored, read in a worker thread.

        Off the event loop, like `_store`: the cache's one connection serialises its users, so a read
        on the loop waited behind a page being written (or the write-ahead log being checkpointed)
        by a worker: up to 300 ms without a key answered while a report streamed in (bench/bench_stalls.py).
        """
        return None if self.cache is None else await asyncio.to_thread(self.cache.get, key)

    async def _store(self, key: str, op: str, raw: Any) -> None:
        """Store an answer (secrets scrubbed) off the event loop (`api/lane.py`): the secret check is CPU, like
        decoding, in the lane of page work; SQLite's write in the cache's writer thread. See `_read`."""
        if self.cache is None or not self.storing:
            return
        cache, whose = self.cache, self.identity_for(op)

        def pack() -> Packed | None:
            try:
                return cache.pack(op, scrub_secrets(raw))
            except RecursionError:
                log.info("cache: %s nested too deeply to store", op)
                return None

        packed = await in_lane(pack)
        if packed is not None:
            await in_cache_writer(cache.put_packed, key, whose, op, packed)

    async def cached_value(
        self,
        op: str,
        params: dict[str, Any],
        fetch: Callable[[], Awaitable[Any]],
        parse: Callable[[Any], T] = lambda raw: raw,
        *,
        force: bool = False,
    ) -> T:
        """The freshest answer `cached` gives (for the CLI: no stale-first display); `force`: asked again."""
        result: Fetched[T] | None = None
        async for result in self.cached(op, params, fetch, parse, force=force):
            pass
        assert result is not None
        return result.value


LARGE_BODY = 1_000_000
"""Bytes above which an answer is decoded, scrubbed and parsed in a worker thread rather than on the event loop."""

LARGE_ITEMS = 5_000
"""Items above which a page is parsed into records in a worker thread."""


def _wall_ms() -> int:
    return int(time.time() * 1000)


def _large(raw: Any) -> bool:
    if isinstance(raw, Wire):
        return len(raw.body) > LARGE_BODY
    if isinstance(raw, list):
        return len(raw) > LARGE_ITEMS
    if isinstance(raw, dict):
        return any(isinstance(v, list) and len(v) > LARGE_ITEMS for v in raw.values())
    return False


DEPTH_CHECKED_BELOW = 200_000
"""Bytes below which an answer's nesting depth is checked after decoding (cheap there; big pages are flat rows)."""

MAX_JSON_DEPTH = 64
"""Deeper than any answer of these APIs (under 10 levels); deeper is hostile, and recursion would fail on it."""


def decode_json(response: httpx.Response, *, allow_empty: bool = False) -> Any:
    """The answer's JSON (None for 204); `Unreadable` for anything that is not sane JSON.

    An empty body where data was due (a 200 to a read) is unreadable too, not
    "nothing": taken as an empty page, it would end a listing early and look
    complete. Answers to changes may be empty (`allow_empty`): then None.
    The raw body goes to the log (debug, capped) so a support engineer can see
    what the server sent; the message stays one line.
    """
    if response.status_code == 204:
        return None
    who, request = asked(response)
    if not response.content.strip():
        if allow_empty:
            return None
        status = response.status_code
        error = Unreadable(
            f"{who} answered {request or 'a read'} with {status} {_reason(status)} and an empty body, where data was due; try again later",
            status=status,
        )
        error.worded = True
        raise error
    return decode_body(response.content, response.status_code, response.headers.get("content-type", "?"), who=who, request=request)


def asked(response: httpx.Response) -> tuple[str, str]:
    """Which service an answer came from, in words, and its request ("GET /registry/api/v1/projects"; "" if unknown)."""
    try:
        request = response.request
    except RuntimeError:
        return "the server", ""
    return _asked_at(request.url, request.method)


def _asked_at(url: httpx.URL | str, method: str | None = None) -> tuple[str, str]:
    """The service at `url`, in words (by its path), and the request ("GET /path", or the path alone without `method`)."""
    path = httpx.URL(url).path
    prefixes = [(prefix + "/", service) for service, prefix in SERVICE_PREFIX.items()] + [("/uar/", Service.TOKENS)]
    who = next((SERVICE_WORDS[service] for prefix, service in prefixes if path.startswith(prefix)), None)
    return who or "the server", f"{method} {path}" if method else path


def _reason(status: int) -> str:
    return httpx.codes.get_reason_phrase(status) or "?"


def decode_body(
    body: bytes,
    status: int | None = None,
    content_type: str = "?",
    *,
    who: str = "the server",
    request: str = "",
    reader: Callable[[bytes], Any] = loads,
) -> Any:
    """JSON from an answer's bytes, or `Unreadable` for anything that is not sane JSON (a redacted excerpt goes to the log).

    The message names `who` answered `request` and the status in words; the server's text in it (an HTML
    page's title) is kept as sent, for whoever shows it to clean (`render.text.clean`: ␛, not `\x1b`).

    Depth is checked only on answers small enough for it to be cheap: a huge
    page is rows of scalars, and recursion on anything deeper fails as
    `Unreadable` where it happens (`Session.cached`). `reader` decodes (`Wire.decode`: once per answer).
    """
    try:
        value = reader(body)
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        log.debug("unreadable answer (HTTP %s): %r", status, redacted(body[:2000])[:500])
        page = None if isinstance(exc, RecursionError) else html_title_of(body, content_type, status)
        if isinstance(exc, RecursionError) or "recursion" in str(exc).lower():
            kind = "nested too deeply to read"
        elif page is not None:
            title = f' ("{page[:120]}")' if page and (status is None or page != _reason(status)) else ""
            kind = f"an HTML page{title}, not JSON: a proxy or sign-in page answered instead of the service"
        else:
            kind = f"not JSON ({content_type[:60]})"
        raise _unreadable(f"{_answer_of(who, request, status)} is {kind}", status) from None
    if len(body) < DEPTH_CHECKED_BELOW and not shallow(value, MAX_JSON_DEPTH):
        raise _unreadable(f"{_answer_of(who, request, status)} is JSON nested more than {MAX_JSON_DEPTH} levels deep", status)
    return value


_UNNAMED = ANSWER
"""How `decode_body` (and `tolerant.list_items`) starts a message when it is not told whose answer to what it decodes."""


def _name_answer(error: ApiError, asked: list[tuple[str, str, int]]) -> None:
    """`error`'s "the server's answer …" as "the registry's answer to GET /registry/api/v1/projects (200 OK) …":
    the answers a fetch was given (the last service's; several requests, as the token list asks its count
    beside it, are all named)."""
    if not asked or not error.message.startswith(_UNNAMED):
        return
    who = asked[-1][0]
    requests = list(dict.fromkeys(request for answerer, request, _ in asked if answerer == who))
    statuses = {status for answerer, _, status in asked if answerer == who}
    said = f" ({next(iter(statuses))} {_reason(next(iter(statuses)))})" if len(statuses) == 1 else ""
    error.message = f"{who}'s answer to {' and '.join(requests)}{said}" + error.message[len(_UNNAMED) :]
    error.worded = True


def _answer_of(who: str, request: str, status: int | None) -> str:
    """ "the registry's answer to GET /registry/api/v1/projects (200 OK)" """
    to = f" to {request}" if request else ""
    said = f" ({status} {_reason(status)})" if status is not None else ""
    return f"{who}'s answer{to}{said}"


def _unreadable(message: str, status: int | None) -> Unreadable:
    error = Unreadable(message[:300], status=status)
    error.worded = status is not None  # the status is in the words
    return error


_SECRET_VALUES = re.compile(r"rna_[A-Za-z0-9_-]{4,}|eyJ[\w-]+\.[\w-]+\.[\w-]*")
# every field named like a secret (`secret_names`), and any `…value…` (`tokenValue`'s kin): over-masking is fine here
_SECRET_FIELDS = re.compile(r'(?i)("[\w-]*(?:value|' + "|".join(map(re.escape, secret_words())) + r')[\w-]*"\s*:\s*)"(?:[^"\\]|\\.)*"')


def redacted(data: bytes) -> str:
    """A body for the log with what may be a secret masked: token values, JWTs, and every field named like a secret.

    The debug log keeps the raw body of an unreadable answer so support can see
    what the server sent; an answer to a create, a rotate or a sign-in holds a
    secret, and the log is a file. Over-masking is fine here.
    """
    text = data.decode("utf-8", "replace")
    text = _SECRET_FIELDS.sub(lambda m: m.group(1) + '"***"', text)
    return _SECRET_VALUES.sub("***", text)


def shallow(value: Any, limit: int) -> bool:
    """Whether `value` nests no deeper than `limit` containers (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= limit:
            return False
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


def _retry_after(response: httpx.Response) -> float | None:
    """The seconds `Retry-After` asks for: a number of seconds or an HTTP-date (RFC 9110 §10.2.3), else None.

    A date is counted from the answer's own `Date` header when it has one (the
    server's clock against the server's clock: a jump host's skew does not
    matter), else from this machine's clock.
    """
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    until = _http_date(value)
    if until is None:
        return None
    now = _http_date(response.headers.get("Date", "")) or datetime.now(UTC)
    return max(0.0, (until - now).total_seconds())


def _http_date(value: str) -> datetime | None:
    """An HTTP-date as an aware datetime, or None when `value` is not one."""
    from email.utils import parsedate_to_datetime  # (rare: not worth its import at start-up)

    try:
        when = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def envelope(raw: Any) -> Any:
    """The `responseObject` of a token-service envelope (or the raw value if unwrapped).

    An envelope whose `statusMessage` says the request failed and whose `responseObject` is empty (the error
    form, `{"statusMessage": "<reason>", "responseObject": null}`, notes §1.5) is `Unreadable` with the server's
    words, whatever its HTTP status: unwrapped, its null would read as "no tokens" (or a count of 0). The
    message names the answer this task was last given (the one unwrapped: `_last_answer`), else "the server's
    answer" for `Session.cached` to name.
    """
    if isinstance(raw, dict) and "responseObject" in raw:
        inner = raw["responseObject"]
        if inner in (None, [], {}) and (said := failure_said(raw)) is not None:
            raise _named_last(Unreadable(f'{_UNNAMED} says "{said}" and holds no responseObject'))
        return inner
    return raw


def answered(read: Callable[[Any], T], raw: Any) -> T:
    """`read(raw)`, `raw` being the answer this task was just given (a single-record read, not through
    `Session.cached`): a message about "the server's answer" (`tolerant.one_record`, `tolerant.list_items`) names
    its service and request, "the token service's answer to GET /flexnet/uar/v1/token/x (200 OK) says …", as
    `Session.cached` names the answers it parses."""
    try:
        return read(raw)
    except ApiError as exc:
        _named_last(exc)
        raise


def _named_last(error: ApiError) -> ApiError:
    """`error`, its "the server's answer …" naming the answer this task was last given (`_last_answer`), if any."""
    last = _last_answer.get()
    if last is not None:
        _name_answer(error, [last])
    return error
