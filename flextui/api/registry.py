"""The container registry service (seed 001): its JWT flow, tolerant models, and its calls.

The registry does not take the profile's Basic credentials or access token
directly: a producer trades user name and password for a JWT at
`GET /api/v1/authenticate` and sends `Authorization: Bearer <JWT>` plus the
tenant ID in `x-publisherid` on every other call. `RegistryAuth` does that
inside httpx's auth flow, so `Session.request` (retries, read-only rule,
error mapping) stays the only way requests go out: it authenticates once,
reuses the JWT, and on a 401 (or a 403 "Authentication failed" to an older
JWT) authenticates again once and repeats the call. It relies on the
server's answer rather than on the JWT's `exp`, because the client's clock
may disagree with the server's.

The vendor documents shapes only partly (notes §2), so the models accept
snake_case and camelCase names and every timestamp form seen
(`timestamps.parse_timestamp`), and the JWT and secret answers may be bare
text or JSON. Lists are cached per page (stale-while-revalidate through
`Session.cached`); the JWT, the password and registry secrets never go
through the cache, logs or reprs.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Hashable
from contextlib import aclosing
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Annotated, Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import AliasChoices, BaseModel, BeforeValidator, Field

from flextui.api.errors import ApiError, Forbidden, Invalid, NotFound, Unreadable
from flextui.api.http import Fetched, Service, Session, answered, asked, decode_json, html_title
from flextui.api.listing import Listing, freshest
from flextui.api.paging import Outcome, Page, Pager
from flextui.api.timestamps import lenient_timestamp
from flextui.api.tolerant import (
    ANSWER,
    Record,
    failure_said,
    list_items,
    list_total,
    not_held,
    parse_record,
    parse_records,
    record_body,
    unreadable,
)

API = "/api/v1"
M = TypeVar("M", bound=BaseModel)
A = TypeVar("A")

# The registry is Harbor underneath (its artifact parameters are Harbor v2's: RESTSWContDelivRetrieveArt.htm),
# and Harbor's API takes at most 100 items per page; the vendor documents no other maximum.
PROJECTS_MAX_PAGE_SIZE = 100
MEMBERS_MAX_PAGE_SIZE = 100
ARTIFACTS_MAX_PAGE_SIZE = 100
DOWNLOADS_MAX_PAGE_SIZE = 100


# -- secrets -------------------------------------------------------------------------------


def secret_problems(value: str) -> list[str]:
    """The strength rules a registry secret breaks (notes §2.10), each as "at least …"; empty when fine.

    Letters and digits are ASCII classes, as the vendor's rule ("one uppercase
    letter, one lowercase letter and one digit") is most likely a regex.
    """
    problems: list[str] = []
    if len(value) < 8:
        problems.append(f"at least 8 characters (it has {len(value)})")
    if not any("A" <= ch <= "Z" for ch in value):
        problems.append("at least one uppercase letter")
    if not any("a" <= ch <= "z" for ch in value):
        problems.append("at least one lowercase letter")
    if not any("0" <= ch <= "9" for ch in value):
        problems.append("at least one digit")
    return problems


def _answer_body(response: httpx.Response) -> Any:
    """An answer that may be bare text: JSON when it is a JSON string, object, array or null, else the text."""
    text = response.text.strip()
    if text[:1] in ('"', "{", "[") or text == "null":
        try:
            return json.loads(text)
        except ValueError:
            pass
    return text


def _field_text(body: Any, fields: tuple[str, ...]) -> Any:
    """`body`, or an object's first string field of `fields` (else None)."""
    if isinstance(body, dict):
        return next((body[k] for k in fields if isinstance(body.get(k), str)), None)
    return body


def _answer_value(response: httpx.Response, fields: tuple[str, ...]) -> Any:
    """What an answer carries as bare text, a JSON string, or an object's first string field of `fields` (else None)."""
    return _field_text(_answer_body(response), fields)


def decode_secret(response: httpx.Response) -> str:
    """The plain secret from a Base64 answer given as bare text (the docs' form, sample `TXlTZWNyM3Q=`:
    https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivSecretRetrieve.htm),
    a JSON string or `{"secret": …}`.

    An answer holding none (an error body sent with 200, `{}`, `null`) is `Unreadable` in the server's words
    (`tolerant.not_held`: its status and message, never another field's value, which may be the secret)."""
    body = _answer_body(response)
    value = _field_text(body, ("secret", "registrySecret", "value", "data"))
    _, request = asked(response)
    answer = f"the registry's answer to {request} ({response.status_code} {httpx.codes.get_reason_phrase(response.status_code)})"
    error: ApiError
    if not isinstance(value, str) or not value.strip():
        said = not_held("secret", body).message  # (a non-empty text is read as Base64 below: never quoted)
        error = Unreadable(f"{answer}{said[len(ANSWER) :]}; try again later", status=response.status_code)
    else:
        try:
            return base64.b64decode(value.strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            error = ApiError(f"{answer} held a secret that is not Base64; try again later", status=response.status_code)
    error.worded = True
    raise error


VALUE_WORDS = (
    "reuse", "re-use", "used before", "previous", "last", "history", "same as", "equal", "identical", "match",
    "policy", "weak", "strength", "strong", "at least", "character", "uppercase", "upper case", "lowercase",
    "lower case", "digit", "number", "length", "long", "short", "incorrect", "wrong", "expired",
)  # fmt: skip
"""Words of a refusal that concern a secret's value (a policy rule, a reuse, a wrong current secret), not the body's shape."""

SHAPE_WORDS = (
    "required", "missing", "unknown", "unrecognized", "unrecognised", "unsupported", "not supported", "bad request format",
    "malformed", "parse", "json", "new-password", "no such field", "unexpected field", "field",
)  # fmt: skip
"""Words of a refusal that concern the body's shape: the fields it has or lacks."""


def refused_for_shape(error: ApiError) -> bool:
    """Whether a refusal of the docs' secret body concerns its shape (try the seed's) rather than the value (final).

    404/405/415 are shape (the server knows no such form); a 400/422 is shape
    when its message speaks of fields missing, unknown or malformed
    (`SHAPE_WORDS`) and not of the value (`VALUE_WORDS`), or names the seed's
    `new-password`; anything else, a bare 400 included, concerns the value:
    the docs list 400 as the answer to a secret that breaks the rules
    (RESTSWContDelivSecretChange.htm).
    """
    if error.status in (404, 405, 415):
        return True
    text = f"{error.field or ''} {error.message}".lower()
    if "new-password" in text:
        return True
    return any(w in text for w in SHAPE_WORDS) and not any(w in text for w in VALUE_WORDS)


# -- the JWT flow ------------------------------------------------------------------------------


FRESH_JWT_REFUSED = "flextui.registry.fresh_jwt"
"""A request extension: the request carried a JWT got just before it, so a 403 to it is no expired sign-in."""

JWT_HEADERS = ("Authorization", "X-Auth-Token", "X-Access-Token", "Access-Token", "Token", "JWT")


def _as_jwt(value: Any) -> str | None:
    if isinstance(value, str):
        value = value.strip()
        if value.lower().startswith("bearer "):
            value = value[7:].strip()
        if value.count(".") == 2 and " " not in value:
            return str(value)
    return None


def event_status(body: Any) -> str:
    """The status an event-status answer gives (`Processed`, `In-Progress`, `Cancelled`).

    Documented as `{"status": "Processed"}` (its errors `{"message": "No record found!"}`,
    https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivEntityStatusGet.htm)
    and as a bare string in the OpenAPI sample (https://fnoapi-registry.redoc.ly/); both are read. An answer
    with no status (an error body sent with 200, `{}`, null), or whose status says failure beside a message or
    error (`{"status": "error", "message": "boom"}`: the beta services' error body), is `Unreadable` in the
    server's words (`tolerant.not_held`), never shown as the user's status. A status alone is the status,
    whatever it says.
    """
    if isinstance(body, str) and body.strip():
        return body.strip()
    status = _field_text(body, ("status", "eventStatus", "state")) if isinstance(body, dict) else None
    said_besides = isinstance(body, dict) and any(isinstance(body.get(k), str) for k in ("message", "error", "errorMessage"))
    if not isinstance(status, str) or not status.strip() or (said_besides and failure_said(body) is not None):
        raise not_held("event status", body)
    return status.strip()


def extract_jwt(response: httpx.Response) -> str | None:
    """The JWT from an authenticate answer: bare text, a JSON string, an object with a token field, or a header.

    The docs say only that "the response will include a JWT"
    (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivAuthentication.htm),
    so the body is read first and the usual response headers after it.
    """
    jwt = _as_jwt(_answer_value(response, ("token", "jwt", "access_token", "accessToken", "id_token", "idToken")))
    if jwt is None:
        jwt = next((j for name in JWT_HEADERS if (j := _as_jwt(response.headers.get(name))) is not None), None)
    return jwt


class RegistryAuth(httpx.Auth):
    """Basic credentials traded once for a JWT; Bearer JWT and x-publisherid on every request.

    On a 401, or a 403 to a request that carried a JWT got earlier, the JWT is
    dropped and fetched again once, then the request is repeated once: the
    registry pages list 403 "Authentication failed" beside 401 "Unauthorized"
    (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivDownLogs.htm,
    .../RESTSWContDelivRetrieveArt.htm), which is what a Spring JWT filter
    answers to an expired bearer. A 403 to a request whose JWT was got just
    before (in this flow, or by that one repeat) is a real permission refusal:
    it is not repeated, and `explain_refusal` says so. A failed authentication
    ends the flow with the authenticate answer itself, so `Session` maps it to
    Unauthorized/Forbidden with the server's message. Concurrent requests
    share one authentication (a lock).
    """

    requires_request_body = True  # a repeated request must be able to send its body again
    requires_response_body = True
    carries_password = True  # a 401 can mean the password is wrong (`Unauthorized.password_refused`)

    def __init__(self, authenticate_url: str, username: str, password: str, tenant_id: str, *, scheme: str = "Basic") -> None:
        self.authenticate_url = authenticate_url
        self.username = username
        self.tenant_id = tenant_id
        self._scheme = scheme
        self._credentials = base64.b64encode(f"{username}:{password}".encode()).decode("ascii")
        self._jwt: str | None = None
        self._lock: asyncio.Lock | None = None
        self.authentications = 0  # how many times /authenticate was asked (status line, tests)

    def __repr__(self) -> str:  # never show the password or the JWT
        return f"RegistryAuth(user={self.username!r}, tenant={self.tenant_id!r}, jwt={'***' if self._jwt else None})"

    @property
    def has_jwt(self) -> bool:
        return self._jwt is not None

    def forget(self) -> None:
        """Drop the JWT (logout, profile switch): the next call authenticates."""
        self._jwt = None

    def _get_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    def _authenticate_request(self) -> httpx.Request:
        self.authentications += 1
        return httpx.Request(
            "GET",
            self.authenticate_url,
            headers={
                "Authorization": f"{self._scheme} {self._credentials}",
                "Accept": "text/plain, application/json",
                "x-publisherid": self.tenant_id,
            },
        )

    def _accept(self, response: httpx.Response) -> str | None:
        """Keep the JWT of a successful authenticate answer; None when it failed."""
        if response.status_code != 200:
            return None
        jwt = extract_jwt(response)
        if jwt is None:
            page = html_title(response)
            if page is not None:
                held = (
                    "an HTML page"
                    + (f' ("{page[:120]}")' if page and page != "OK" else "")
                    + ": a proxy or sign-in page answered instead of the registry"
                )
            else:
                held = "an empty body" if not response.content.strip() else "no JWT in its body"
            error = Unreadable(
                f"the registry's sign-in (GET {response.request.url.path}) answered 200 OK with {held}; try again later", status=200
            )
            error.worded = True
            raise error
        self._jwt = jwt
        return jwt

    def _apply(self, request: httpx.Request, jwt: str) -> None:
        request.headers["Authorization"] = f"Bearer {jwt}"
        request.headers["x-publisherid"] = self.tenant_id

    def sync_auth_flow(self, request: httpx.Request) -> Any:
        raise RuntimeError("RegistryAuth works with httpx.AsyncClient only")

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        await request.aread()
        jwt = self._jwt
        minted = jwt is None
        if jwt is None:
            async with self._get_lock():
                jwt = self._jwt
                if jwt is None:
                    answer = yield self._authenticate_request()
                    await answer.aread()
                    jwt = self._accept(answer)
                    if jwt is None:
                        return  # the failed authenticate answer is the result
        self._apply(request, jwt)
        response = yield request
        if response.status_code == 403 and minted:  # a JWT got moments ago has not expired: a real refusal
            request.extensions[FRESH_JWT_REFUSED] = True
            return
        if response.status_code not in (401, 403):
            return
        async with self._get_lock():
            if self._jwt is None or self._jwt == jwt:  # nobody has refreshed it meanwhile
                self._jwt = None
                answer = yield self._authenticate_request()
                await answer.aread()
                if self._accept(answer) is None:
                    return
            fresh = self._jwt
        assert fresh is not None
        self._apply(request, fresh)
        request.extensions[FRESH_JWT_REFUSED] = True  # read only if this repeat is refused with 403 too
        yield request  # once: whatever it answers is the answer (never a loop)

    @staticmethod
    def explain_refusal(error: ApiError, response: httpx.Response) -> ApiError:
        """A 403 to a request that carried a freshly got JWT: a permission refusal, not an expired sign-in; say so."""
        if isinstance(error, Forbidden) and response.request.extensions.get(FRESH_JWT_REFUSED):
            error.message = (
                f"{error.message} (refused with a JWT got just before: the registry denies this user or tenant the request;"
                " signing in again does not help)"
            )
        return error


# -- models --------------------------------------------------------------------------------------


def _timestamp(value: Any) -> datetime | None:
    parsed = lenient_timestamp(value)
    if parsed is not None and parsed.year < 1971:  # Harbor's "0001-01-01T00:00:00Z" and epoch 0 mean "never"
        return None
    return parsed


def _text(value: Any) -> Any:
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def _list(value: Any) -> Any:
    return [] if value is None else value


Timestamp = Annotated[datetime | None, BeforeValidator(_timestamp)]
Text = Annotated[str | None, BeforeValidator(_text)]


def _alias(*names: str) -> Any:
    return AliasChoices(*names)


class _Model(Record):
    """A registry answer's record: snake_case or camelCase, unknown fields kept, null as default."""


class Project(_Model):
    """A row of GET /projects (snake_case in the docs; camelCase accepted)."""

    project_id: int | None = Field(None, validation_alias=_alias("project_id", "projectId", "id"))
    name: str = Field(validation_alias=_alias("name", "projectName", "downloadPackageId"))
    repo_count: int = Field(0, validation_alias=_alias("repo_count", "repoCount"))
    chart_count: int = Field(0, validation_alias=_alias("chart_count", "chartCount"))
    created: Timestamp = Field(None, validation_alias=_alias("creation_time", "creationTime", "created"))
    updated: Timestamp = Field(None, validation_alias=_alias("update_time", "updateTime", "updated"))


class Repository(_Model):
    """A repository (image) of a project; `name` is `project/image`."""

    name: str = Field(validation_alias=_alias("repositoryName", "repository_name", "name"))
    artifact_count: int = Field(0, validation_alias=_alias("artifactCount", "artifact_count"))
    pull_count: int = Field(0, validation_alias=_alias("pullCount", "pull_count"))
    project_id: int | None = Field(None, validation_alias=_alias("projectId", "project_id"))
    public: bool = Field(False, validation_alias=_alias("projectPublic", "public"))

    @property
    def short_name(self) -> str:
        return self.name.split("/", 1)[1] if "/" in self.name else self.name


class ChartVersion(_Model):
    """One version of a Helm chart (the SOAP ChartVersion fields)."""

    name: str | None = None
    version: Text = None
    app_version: Text = Field(None, validation_alias=_alias("appVersion", "app_version"))
    digest: str | None = None
    created: Timestamp = None
    urls: Annotated[list[str], BeforeValidator(_list)] = Field(default_factory=list)
    description: str | None = None
    api_version: str | None = Field(None, validation_alias=_alias("apiVersion", "api_version"))
    home: str | None = None
    keywords: Annotated[list[str], BeforeValidator(_list)] = Field(default_factory=list)
    maintainers: Annotated[list[dict[str, Any]], BeforeValidator(_list)] = Field(
        default_factory=list, validation_alias=_alias("maintainers", "Maintainers")
    )
    helm_command: str | None = Field(None, validation_alias=_alias("helmCommand", "helm_command"))


class Chart(_Model):
    """A chart as the project detail lists it: `name` is `project/chart`, `latest` its newest version."""

    name: str
    score: float | None = None
    latest: ChartVersion | None = Field(None, validation_alias=_alias("chart", "latest", "latestVersion"))

    @property
    def short_name(self) -> str:
        return self.name.split("/", 1)[1] if "/" in self.name else self.name


class ChartDetail(_Model):
    """GET /projects/{p}/charts/{c}: the chart and all its versions, newest first."""

    name: str
    project: str | None = None
    latest_version: Text = Field(None, validation_alias=_alias("latestVersion", "latest_version"))
    versions: Annotated[list[ChartVersion], BeforeValidator(_list)] = Field(default_factory=list)

    @classmethod
    def from_raw(cls, raw: Any, project: str, chart: str) -> ChartDetail:
        """From the simulator's object or Harbor's bare list of versions."""
        if isinstance(raw, list):
            raw = {"name": chart, "project": project, "versions": raw}
        body = record_body(raw, cls, "chart")  # (an answer holding no chart, text or null: `Unreadable`)
        detail = cls.model_validate({"name": chart, "project": project, **body})
        if detail.latest_version is None and detail.versions:
            detail.latest_version = detail.versions[0].version
        return detail


class Tag(_Model):
    name: str
    push_time: Timestamp = Field(None, validation_alias=_alias("push_time", "pushTime"))
    pull_time: Timestamp = Field(None, validation_alias=_alias("pull_time", "pullTime"))
    immutable: bool | None = None
    signed: bool | None = None


class Artifact(_Model):
    """A Harbor v2 artifact of a repository, or an item of the docs' camelCase form.

    The docs' answer is a project object whose `artifacts` items are
    camelCase and show no `digest` or `id` as far as the sample goes (`size`,
    `pushTime`, `scanOverview`, `tags`, `pullTime`, `labels`, `references`,
    `manifestMediaType`, …:
    https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivRetrieveArt.htm),
    so `digest` may be absent; `identity` says what tells one artifact from another then.
    """

    id: int | None = None
    digest: str | None = None
    size: int = 0
    type: str | None = None
    media_type: str | None = Field(None, validation_alias=_alias("media_type", "mediaType", "manifest_media_type", "manifestMediaType"))
    push_time: Timestamp = Field(None, validation_alias=_alias("push_time", "pushTime"))
    pull_time: Timestamp = Field(None, validation_alias=_alias("pull_time", "pullTime"))
    tags: Annotated[list[Tag], BeforeValidator(_list)] = Field(default_factory=list)
    labels: list[dict[str, Any]] | None = None
    extra_attrs: dict[str, Any] | None = Field(None, validation_alias=_alias("extra_attrs", "extraAttrs"))
    annotations: dict[str, Any] | None = None
    scan_overview: dict[str, Any] | None = Field(None, validation_alias=_alias("scan_overview", "scanOverview"))

    @property
    def tag_names(self) -> list[str]:
        return [t.name for t in self.tags]

    @property
    def identity(self) -> Hashable:
        """What tells this artifact from the others of its repository: the digest (Harbor's, and an image's
        content address), else the `id`, else its tags with its push time and size (the docs' form: a tag names
        one artifact of a repository at a time, and an untagged one is told by when it was pushed and its size).
        None when nothing identifies it: such a record is never taken for a repeat of another (`paging`)."""
        if self.digest:
            return self.digest
        if self.id is not None:
            return ("id", self.id)
        if self.tags or self.push_time is not None:
            return ("pushed", tuple(sorted(self.tag_names)), self.push_time, self.size, self.media_type)
        return None


class ProjectDetail(_Model):
    """GET /projects/{p}: the download package behind a project, its repositories and charts."""

    id: int | None = None
    name: str = Field(validation_alias=_alias("downloadPackageId", "name", "projectName"))
    sys_id: int | None = Field(None, validation_alias=_alias("sysDownloadPackageId", "sys_id"))
    package_name: str | None = Field(None, validation_alias=_alias("downloadPackageName", "package_name"))
    version: Text = None
    effective: Timestamp = Field(None, validation_alias=_alias("effectiveDateTimestamp", "effectiveDate", "effective"))
    expires: Timestamp = Field(None, validation_alias=_alias("expirationDateTimestamp", "expirationDate", "expires"))
    available: bool | None = Field(None, validation_alias=_alias("downloadPackageAvailability", "available"))
    producer: str | None = Field(None, validation_alias=_alias("downloadPackageProducer", "producer"))
    product_line: Text = Field(None, validation_alias=_alias("productLine", "product_line"))
    owner: bool | None = None
    restricted: bool | None = Field(None, validation_alias=_alias("restrictedDownloadPackage", "restricted"))
    supports_images_and_charts: bool | None = Field(
        None, validation_alias=_alias("supportsDockerImagesAndHelmCharts", "supports_images_and_charts")
    )
    tenant_id: Text = Field(None, validation_alias=_alias("tenantId", "tenant_id"))
    repositories: Annotated[list[Repository], BeforeValidator(_list)] = Field(default_factory=list)
    charts: Annotated[list[Chart], BeforeValidator(_list)] = Field(default_factory=list)
    artifacts: Annotated[list[Artifact], BeforeValidator(_list)] = Field(default_factory=list)

    @classmethod
    def from_raw(cls, raw: Any, name: str) -> ProjectDetail:
        """From the docs' sample (camelCase, `downloadPackageId` first) or the OpenAPI sample's form.

        The OpenAPI sample begins with Harbor's `artifacts` array and names no
        project (https://fnoapi-registry.redoc.ly/), so the name asked for is
        the name when the answer has none; repositories and charts that do not
        fit their model are kept as unreadable rows (`tolerant.parse_records`).
        """
        data = dict(record_body(raw, cls, "project"))  # (an answer holding no project, text or null: `Unreadable`)
        model_cls: Any = {"repositories": Repository, "charts": Chart, "artifacts": Artifact}
        parsed = {
            key: parse_records(model_cls[key], _nested(data.pop(key))) for key in ("repositories", "charts", "artifacts") if key in data
        }
        if not any(data.get(k) for k in ("downloadPackageId", "name", "projectName")):
            data["name"] = name
        detail = parse_record(cls, data)
        for key, records in parsed.items():
            object.__setattr__(detail, key, records)
        return detail


class Member(_Model):
    """A project member (Harbor ProjectMember, camelCase; snake_case accepted)."""

    id: int | None = None
    project_id: int | None = Field(None, validation_alias=_alias("projectId", "project_id"))
    entity_name: str = Field(validation_alias=_alias("entityName", "entity_name"))
    entity_type: str | None = Field(None, validation_alias=_alias("entityType", "entity_type"))
    entity_id: int | None = Field(None, validation_alias=_alias("entityId", "entity_id"))
    role_name: str | None = Field(None, validation_alias=_alias("roleName", "role_name"))
    role_id: int | None = Field(None, validation_alias=_alias("roleId", "role_id"))


def _account_text(value: Any) -> Any:
    """The `account` field as text, as sent: a JSON array (or object) is kept as its JSON text, a number as digits."""
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False)
    return _text(value)


def _account_name(item: Any) -> str:
    """One account of a JSON array: a string or number as it is, an object by its name or ID."""
    if isinstance(item, dict):
        for key in ("accountName", "name", "accountId", "id"):
            if item.get(key) not in (None, ""):
                return str(item[key]).strip()
        return ""
    return "" if item is None else str(item).strip()


def parse_accounts(value: str | None) -> tuple[str, ...]:
    """The accounts a download log entry's `account` names, in order, without repeats.

    "Downloading Logs" (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivDownLogs.htm)
    documents `account` as "the account to which user belongs" and samples it as `"[test_acc1]"`:
    a Java list printed as text (`List.toString()`: brackets, elements joined by ", "), so a user in
    two accounts is `"[test_acc1, test_acc2]"`. That form is read by stripping the brackets and
    splitting on commas; a JSON array (as a value, or as text) and a bare name are read too. An
    account name that holds a comma cannot be told apart from two accounts in the Java form: it
    reads as two (`matches_account` still finds the whole).
    """
    if value is None:
        return ()
    text = value.strip()
    items: list[str]
    if text.startswith("[") and text.endswith("]"):
        try:
            decoded = json.loads(text)
        except ValueError:
            decoded = None
        if isinstance(decoded, list):
            items = [_account_name(item) for item in decoded]
        else:
            items = [part.strip().strip('"').strip() for part in text[1:-1].split(",")]
    else:
        items = [text]
    return tuple(dict.fromkeys(item for item in items if item))


AccountText = Annotated[str | None, BeforeValidator(_account_text)]


class Download(_Model):
    """An entry of the download log: `account` as the server sent it, `accounts` the accounts it names."""

    id: int | None = None
    artifact: str | None = None
    username: str | None = None
    account: AccountText = None
    timestamp: Timestamp = None

    @property
    def project(self) -> str | None:
        return self.artifact.split("/", 1)[0] if self.artifact and "/" in self.artifact else None

    @property
    def accounts(self) -> tuple[str, ...]:
        """The accounts the entry names (`parse_accounts`): `"[a, b]"` → `("a", "b")`."""
        return parse_accounts(self.account)

    def matches_account(self, wanted: str) -> bool:
        """Whether `wanted` (ignoring case and surrounding blanks) is one of the entry's accounts, or all of
        them as the server wrote them between the brackets (a name with a comma in it)."""
        key = wanted.strip().casefold()
        if not key:
            return True
        if any(name.casefold() == key for name in self.accounts):
            return True
        text = (self.account or "").strip()
        inner = text[1:-1] if text.startswith("[") and text.endswith("]") else text
        return inner.strip().casefold() == key


class EventStatus(StrEnum):
    PROCESSED = "Processed"
    IN_PROGRESS = "In-Progress"
    CANCELLED = "Cancelled"


def _nested(value: Any) -> list[Any]:
    """A collection inside a project's detail: its items, none for null; anything else is no list of it (the rest
    of the detail is still shown)."""
    try:
        return list_items(value)
    except Unreadable:
        return []


def _items(raw: Any) -> list[Any]:
    """The list in a bare-array answer (the documented form, notes §2.2, §2.4; `null`, Jackson's empty one, is
    none), or in an envelope that wraps one; anything else (an error body sent with 200, `{}`) is `Unreadable`."""
    return list_items(raw, "projects", "members", "artifacts", "downloads", null_is_empty=True)


def _models(model: type[M], raw: Any) -> list[M]:
    return parse_records(model, _items(raw))


def _total(response: httpx.Response, body: Any) -> int | None:
    value = response.headers.get("X-Total-Count")
    try:
        return int(value) if value is not None else list_total(body)
    except ValueError:
        return list_total(body)


def _segment(value: str) -> str:
    """One path segment (a project name): every reserved character encoded, a slash never present."""
    return quote(value, safe="")


def _member_path(project: str, name: str) -> str:
    """A repository or chart as the docs address it: its name without the `project/` prefix, in the path.

    `/projects/{project_name}/repositories/{repository_name}` takes the name
    within the project (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivDeleteImage.htm,
    .../RESTSWContDelivRetrieveArt.htm). The registry is a Spring service, whose
    default firewall refuses an encoded slash (`%2F`) with 400, so a nested name
    (`team/image`) keeps its slashes as path separators and each part is encoded
    on its own; nothing is double-encoded.
    """
    short = name[len(project) + 1 :] if name.startswith(project + "/") else name
    return "/".join(quote(part, safe="") for part in short.split("/"))


def _check_size(page: int, page_size: int, maximum: int) -> None:
    if page < 1:
        raise ValueError("page starts at 1")
    if not 1 <= page_size <= maximum:
        raise ValueError(f"page size must be 1 to {maximum}")


def months_between(start: date, end: date) -> list[tuple[int, int]]:
    """(year, month) pairs from `end`'s month back to `start`'s, newest first."""
    result = []
    year, month = end.year, end.month
    while (year, month) >= (start.year, start.month):
        result.append((year, month))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return result


class RegistryService:
    """The registry's calls over a `Session`, with the JWT flow installed for Service.REGISTRY (none offline:
    the cached pages belong to the identity, so reading them takes no password, and asking for one could prompt).

    List pages go through `Session.cached` (stale-while-revalidate; within the
    freshness window a revisited page sends nothing). After a delete, pass
    `force=True` to see the change at once. Secrets and the JWT never touch
    the cache.

    Page numbers in this class count from 1 (the UI's "page 1"); on the wire
    they start wherever the service's pages start, detected once per session
    (`Session.page_bases`): the docs give members a default page of 1 but say
    nothing for the other lists, and a Spring service may count from 0.

    A list's total is Harbor's `X-Total-Count` header or a total in the body
    (`_total`), an extension: the docs show bare arrays (notes §2.2, §2.4), so
    it may not come. Every list is a `Listing` built `ahead`: a page without a
    total is given at once with `Page.more` None, then settled by asking the
    page after it ahead through the cache (its own size, a cap, the same rows
    again from a server ignoring paging: `Listing.page`); with a total, nothing
    more is asked.
    """

    def __init__(self, session: Session, username: str | None = None, password: str | None = None, tenant_id: str | None = None) -> None:
        creds = session.credentials
        username = username or (creds.user if creds else None) or session.user
        if not session.offline:  # offline nothing is sent: no JWT to trade for, and no password to ask for (a prompt)
            password = password or (creds.password if creds else None)
        if not username or not (password or session.offline):
            raise session.missing(
                "password", f"the registry trades a user name and password for a JWT, and profile {session.name!r} has no password"
            )
        tenant = tenant_id or session.registry_tenant
        if not tenant:
            raise ValueError(
                "the registry needs the tenant ID (sent as x-publisherid): set registry_tenant on the profile (or --registry-tenant)"
            )
        self.session = session
        self.username = username
        self.tenant_id = str(tenant)
        # Whether the registry is shared (its listed names carry the tenant prefix, which paths omit): learned from
        # the project listings the server shows (`_saw_projects`, `learn_kind`); None until then.
        self.shared: bool | None = None
        self._kind_lock: asyncio.Lock | None = None
        # Offline there is no JWT flow: the cached pages are read by identity (instance + user) and tenant, which
        # need no credential, and `Session.request` refuses before any auth flow would be asked for one.
        self.auth: RegistryAuth | None = None
        if password:
            self.auth = RegistryAuth(session.url(Service.REGISTRY, f"{API}/authenticate"), username, password, self.tenant_id)
            session.set_service_auth(Service.REGISTRY, self.auth)

    def __repr__(self) -> str:
        # (getattr: a service whose __init__ refused shows in a traceback too)
        return f"RegistryService(user={getattr(self, 'username', None)!r}, tenant={getattr(self, 'tenant_id', None)!r})"

    # -- plumbing --------------------------------------------------------------------------------

    def _prefixed(self, project: str) -> bool:
        """Whether `project` begins with this tenant's shared-registry prefix (`1107-`) and has a name after it."""
        prefix = f"{self.tenant_id}-"
        return project.startswith(prefix) and len(project) > len(prefix)

    def path_name(self, project: str) -> str:
        """A project's name as a path takes it: without this tenant's prefix on a registry known to be shared.

        "If you are using a shared registry, the project names are
        automatically prefixed with your 4-character tenant ID. Omit this
        tenant ID when you specify the project name": `1234-1000-project1-April2020`
        is `/projects/1000-project1-April2020`
        (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivRetrieveArt.htm).
        On a dedicated registry nothing is prefixed, and a project may itself
        be named `1107-x`: dropping the prefix there would address another
        project, `x`, for a read or a delete. So the prefix is dropped (once:
        `1107-1107-x` becomes `1107-x`) only when `shared` is True, that is,
        when the server has shown a whole listing of projects whose every name
        carries it; otherwise the name is taken as given. Screens and the CLI
        show the name as listed. `resolved_name` learns the kind first when it
        decides the path.
        """
        return project[len(self.tenant_id) + 1 :] if self.shared is True and self._prefixed(project) else project

    def _saw_projects(self, projects: list[Project]) -> None:
        """A page of the project listing (fresh or cached): a name without the prefix means a dedicated registry."""
        if self.shared is not False and any(not self._prefixed(p.name) for p in projects if not unreadable(p)):
            self.shared = False

    def _saw_whole_listing(self, count: int) -> None:
        """Every project listed (`count` of them), and none without the prefix (`_saw_projects` would have said so)."""
        if self.shared is None and count > 0:
            self.shared = True

    async def learn_kind(self) -> bool | None:
        """Whether this registry is shared (True), dedicated (False) or, after trying, still unknown (None).

        Unknown, it lists the projects (through the cache, at most once at a
        time) until a name without the prefix shows (dedicated) or the listing
        ends with every name prefixed (shared). It stays unknown for an empty
        listing (no project to address) or one cut short with every name seen
        prefixed.
        """
        if self.shared is None:
            if self._kind_lock is None:
                self._kind_lock = asyncio.Lock()
            async with self._kind_lock:
                if self.shared is None:
                    async with aclosing(self.iter_projects(PROJECTS_MAX_PAGE_SIZE).__aiter__()) as batches:
                        async for _ in batches:
                            if self.shared is False:
                                break
        return self.shared

    async def resolved_name(self, project: str, *, deleting: str | None = None) -> str:
        """`path_name` once it is sure: for a name carrying the prefix, whether the registry is shared is learned first.

        Before any listing has been seen (`o NAME`, the CLI asking for one
        project), a prefixed name is ambiguous: `1107-x` is project `x` on a
        shared registry and `1107-x` on a dedicated one. Asking as given and
        then, on a 404, stripped would reach `x` on a dedicated registry that
        has no `1107-x`, and on a shared one could reach the project listed
        `1107-1107-x`: either is a project other than the one named. Listing
        the projects once (`learn_kind`) decides it from what the server
        shows, so the path names the project named, or none. A name without
        the prefix needs no listing: both kinds take it as given.

        A delete (`deleting` says what) of a prefixed name is refused while
        the kind stays unknown: sending it as given could remove another
        project's repository on a shared registry.
        """
        if self._prefixed(project) and await self.learn_kind() is None and deleting is not None:
            raise ApiError(
                f"not {deleting}: whether project {project!r} is named with this registry's shared-registry prefix"
                f" ({self.tenant_id}-) could not be told from its project listing; list the projects and try again"
            )
        return self.path_name(project)

    async def _project_path(self, project: str, *, deleting: str | None = None) -> str:
        """`/api/v1/projects/{project as a path takes it}`."""
        return f"{API}/projects/{_segment(await self.resolved_name(project, deleting=deleting))}"

    def _member_path(self, project: str, name: str) -> str:
        """`_member_path` for a project as listed: `name` may begin with the listed or the path name."""
        bare = self.path_name(project)
        if bare != project and name.startswith(bare + "/"):
            name = name[len(bare) + 1 :]
        return _member_path(project, name)

    async def _get_raw(self, path: str | Callable[[], Awaitable[str]], params: dict[str, Any] | None = None) -> dict[str, Any]:
        """A list answer as `{"items": …, "total": X-Total-Count or a body total}` (what the cache stores);
        `path` may be worked out when the request goes out (a project's, `_project_path`)."""
        where = path if isinstance(path, str) else await path()
        response = await self.session.request(Service.REGISTRY, "GET", where, params=params)
        body = decode_json(response)
        return {"items": _items(body), "total": _total(response, body)}

    def _listing(
        self,
        op: str,
        key: dict[str, Any],
        path: str | Callable[[], Awaitable[str]],
        query: Callable[[int, int], dict[str, Any]],
        model: type[M],
        item_key: Callable[[M], Any],
        *,
        seen: Callable[[list[M]], None] | None = None,
    ) -> Listing[M]:
        def parse(raw: Any, number: int, size: int) -> Page[M]:
            items = _models(model, raw.get("items"))
            if seen is not None:
                seen(items)
            return Page(items, number, size, raw.get("total"))

        return Listing(
            self.session,
            Service.REGISTRY,
            op,
            {"tenant": self.tenant_id, "user": self.username, **key},
            lambda number, size: self._get_raw(path, query(number, size)),
            parse,
            item_key=item_key,
            ahead=True,
        )

    async def _freshest(self, pages: AsyncIterator[A]) -> A:
        return await freshest(pages)

    def _value(
        self, op: str, key: dict[str, Any], fetch: Callable[[], Awaitable[Any]], parse: Callable[[Any], M], force: bool
    ) -> AsyncIterator[Fetched[M]]:
        return self.session.cached(op, {"tenant": self.tenant_id, "user": self.username, **key}, fetch, parse, force=force)

    # -- projects -----------------------------------------------------------------------------

    def _projects(self) -> Listing[Project]:
        """The project listing; every page read tells whether the registry is shared (`_saw_projects`)."""
        return self._listing(
            "registry.projects",
            {},
            f"{API}/projects",
            lambda number, size: {"page": number, "pageSize": size},
            Project,
            lambda p: p.name,
            seen=self._saw_projects,
        )

    def list_projects(self, page: int = 1, page_size: int = 50, *, force: bool = False) -> AsyncIterator[Page[Project]]:
        """A page of projects sorted by name: cached first (with its age), then fresh.

        A first page that is the whole listing tells a shared registry (`_saw_whole_listing`).
        """
        _check_size(page, page_size, PROJECTS_MAX_PAGE_SIZE)
        return self._watched(self._projects().page(page, page_size, force=force))

    async def _watched(self, pages: AsyncIterator[Page[Project]]) -> AsyncIterator[Page[Project]]:
        async for got in pages:
            if got.number == 1 and (got.whole or got.more is False):
                self._saw_whole_listing(len(got.items))
            yield got

    async def projects_page(self, page: int = 1, page_size: int = 50, *, force: bool = False) -> Page[Project]:
        """The freshest answer `list_projects` gives."""
        return await self._freshest(self.list_projects(page, page_size, force=force))

    def iter_projects(self, page_size: int = 100, *, max_items: int | None = None, force: bool = False) -> Pager[Project]:
        """Every project, page by page (pages within the freshness window come from the cache; `force`: asked again).

        A listing that ended complete, not at `max_items`, tells a shared registry (`_saw_whole_listing`).
        """
        _check_size(1, page_size, PROJECTS_MAX_PAGE_SIZE)
        pager = self._projects().every(page_size, what="projects", max_items=max_items, force=force)
        recorded = pager.on_done

        def done(outcome: Outcome) -> None:
            if recorded is not None:
                recorded(outcome)
            if outcome.complete and not outcome.interrupted and (max_items is None or outcome.count < max_items):
                self._saw_whole_listing(outcome.count)

        pager.on_done = done
        return pager

    def project_detail(self, name: str, *, force: bool = False) -> AsyncIterator[Fetched[ProjectDetail]]:
        """A project's detail: cached first (with its age), then fresh."""

        async def fetch() -> Any:
            return await self.session.get_json(Service.REGISTRY, await self._project_path(name))

        return self._value(
            "registry.project",
            {"name": name},
            fetch,
            lambda raw: ProjectDetail.from_raw(raw, name),
            force,
        )

    async def get_project(self, name: str, *, force: bool = False) -> ProjectDetail:
        got = await self._freshest(self.project_detail(name, force=force))
        return got.value

    def chart_detail(self, project: str, chart: str, *, force: bool = False) -> AsyncIterator[Fetched[ChartDetail]]:
        async def fetch() -> Any:
            path = f"{await self._project_path(project)}/charts/{self._member_path(project, chart)}"
            return await self.session.get_json(Service.REGISTRY, path)

        return self._value(
            "registry.chart",
            {"project": project, "chart": chart},
            fetch,
            lambda raw: ChartDetail.from_raw(raw, project, chart),
            force,
        )

    async def get_chart(self, project: str, chart: str, *, force: bool = False) -> ChartDetail:
        got = await self._freshest(self.chart_detail(project, chart, force=force))
        return got.value

    async def delete_chart(self, project: str, chart: str) -> None:
        """Delete a chart (`chart` short or `project/chart`)."""
        what = f"deleting chart {chart!r} of project {project!r}"
        self.session.check_writable(what)
        path = f"{await self._project_path(project, deleting=what)}/charts/{self._member_path(project, chart)}"
        await self.session.request(Service.REGISTRY, "DELETE", path)

    async def delete_repository(self, project: str, repository: str) -> None:
        """Delete a repository (`repository` short or `project/image`), addressed as the docs do."""
        what = f"deleting repository {repository!r} of project {project!r}"
        self.session.check_writable(what)
        path = f"{await self._project_path(project, deleting=what)}/repositories/{self._member_path(project, repository)}"
        await self.session.request(Service.REGISTRY, "DELETE", path)

    # -- members ----------------------------------------------------------------------------------

    def _members(self, project: str, user_id: str | None) -> Listing[Member]:
        """A project's members; `page_size` is snake_case here, as the docs spell it (RESTSWContDelivListMembers.htm)."""

        async def path() -> str:
            return f"{await self._project_path(project)}/members"

        return self._listing(
            "registry.members",
            {"project": project, "user_id": user_id},
            path,
            lambda number, size: {"page": number, "page_size": size, "user_id": user_id},
            Member,
            lambda m: (m.entity_name, m.entity_type, m.id),
        )

    def members_page(
        self, project: str, page: int = 1, page_size: int = 10, *, user_id: str | None = None, force: bool = False
    ) -> AsyncIterator[Page[Member]]:
        """A page of a project's members (`user_id` narrows to one): cached first, then fresh."""
        _check_size(page, page_size, MEMBERS_MAX_PAGE_SIZE)
        return self._members(project, user_id).page(page, page_size, force=force)

    async def member(self, project: str, user_id: str) -> Member | None:
        """The member whose entityName is `user_id` (compared case-insensitively), or None: not a member.

        The server's `user_id` narrows the answer but is no proof: the docs
        say only that it "is identical with the entityName field"
        (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivListMembers.htm),
        and Harbor, which the registry is, matches its member name filter as a
        substring, so asking for ann@acme.com may answer joann@acme.com. Only a
        member whose name is exactly `user_id` is that user; every answer page
        (at most the documented 100 a page) is searched, as a fuzzy filter can
        match many.
        """
        wanted = user_id.strip().lower()
        async for items in self._members(project, user_id).every(MEMBERS_MAX_PAGE_SIZE, what=f"members matching {user_id}"):
            for m in items:
                if m.entity_name.lower() == wanted:
                    return m
        return None

    def iter_members(self, project: str, page_size: int = 100) -> Pager[Member]:
        _check_size(1, page_size, MEMBERS_MAX_PAGE_SIZE)
        return self._members(project, None).every(page_size, what="members")

    # -- artifacts ---------------------------------------------------------------------------------

    def _artifacts(self, project: str, repository: str, flags: dict[str, bool]) -> Listing[Artifact]:
        named = {
            "withTag": flags.get("with_tag", True),
            "withLabel": flags.get("with_label", False),
            "withScanOverview": flags.get("with_scan_overview", False),
            "withSignature": flags.get("with_signature", False),
            "withImmutableStatus": flags.get("with_immutable_status", False),
        }

        async def path() -> str:
            return f"{await self._project_path(project)}/repositories/{self._member_path(project, repository)}/artifacts"

        return self._listing(
            "registry.artifacts",
            {"project": project, "repository": repository, **named},
            path,
            lambda number, size: {"page": number, "pageSize": size, **{k: str(v).lower() for k, v in named.items()}},
            Artifact,
            lambda a: a.identity,
        )

    def artifacts_page(
        self, project: str, repository: str, page: int = 1, page_size: int = 10, *, force: bool = False, **flags: bool
    ) -> AsyncIterator[Page[Artifact]]:
        """A page of a repository's artifacts, newest first: cached first, then fresh.

        `flags`: with_tag (default true), with_label, with_scan_overview, with_signature, with_immutable_status.
        """
        _check_size(page, page_size, ARTIFACTS_MAX_PAGE_SIZE)
        return self._artifacts(project, repository, flags).page(page, page_size, force=force)

    def iter_artifacts(self, project: str, repository: str, page_size: int = 100, *, force: bool = False, **flags: bool) -> Pager[Artifact]:
        _check_size(1, page_size, ARTIFACTS_MAX_PAGE_SIZE)
        return self._artifacts(project, repository, flags).every(page_size, what="artifacts", force=force)

    # -- download log ---------------------------------------------------------------------------------

    def downloads_page(
        self,
        year: int,
        month: int | None,
        page: int = 1,
        page_size: int = 100,
        *,
        project: str | None = None,
        username: str | None = None,
        account: str | None = None,
        force: bool = False,
    ) -> AsyncIterator[Page[Download]]:
        """A page of one month's (or, with month None, one year's) download log: cached first, then fresh.

        `project`, `username` and `account` are simulator extensions: a real
        service may ignore them, so `iter_downloads` filters again locally.
        """
        _check_size(page, page_size, DOWNLOADS_MAX_PAGE_SIZE)
        if month is not None and not 1 <= month <= 12:
            raise ValueError("month must be 1 to 12")
        return self._downloads(year, month, project, username, account).page(page, page_size, force=force)

    def _downloads(self, year: int, month: int | None, project: str | None, username: str | None, account: str | None) -> Listing[Download]:
        def query(number: int, size: int) -> dict[str, Any]:
            return {
                "year": year,
                "month": f"{month:02d}" if month is not None else None,
                "page": number,
                "pageSize": size,
                "project": project,
                "username": username,
                "account": account,
            }

        key = {"year": year, "month": month, "project": project, "username": username, "account": account}
        return self._listing(
            "registry.downloads",
            key,
            f"{API}/downloads",
            query,
            Download,
            lambda d: d.id if d.id is not None else (d.artifact, d.username, d.timestamp),
        )

    async def iter_downloads(
        self,
        start: date,
        end: date,
        *,
        project: str | None = None,
        username: str | None = None,
        account: str | None = None,
        page_size: int = DOWNLOADS_MAX_PAGE_SIZE,
        force: bool = False,
    ) -> AsyncIterator[list[Download]]:
        """The log from `start` to `end` (inclusive, UTC days), newest month first, month by month (`force`: every page asked again).

        `account` keeps an entry that names it among its accounts (`Download.matches_account`): the
        documented `account` is a list printed as text (`"[test_acc1, test_acc2]"`, RESTSWContDelivDownLogs.htm).
        """
        if start > end:
            raise ValueError("the start date is after the end date")
        low = datetime(start.year, start.month, start.day, tzinfo=UTC)
        high = datetime(end.year, end.month, end.day, 23, 59, 59, 999999, tzinfo=UTC)

        def wanted(d: Download) -> bool:
            if d.timestamp is not None and not low <= d.timestamp <= high:
                return False
            if project and d.project != project:
                return False
            if username and (d.username or "").lower() != username.lower():
                return False
            return not account or d.matches_account(account)

        _check_size(1, page_size, DOWNLOADS_MAX_PAGE_SIZE)
        for year, month in months_between(start, end):
            pager = self._downloads(year, month, project, username, account).every(
                page_size, what=f"downloads of {year}-{month:02d}", force=force
            )
            async for items in pager:
                kept = [d for d in items if wanted(d)]
                if kept:
                    yield kept

    # -- events and secrets -----------------------------------------------------------------------------

    async def event_status(self, user: str) -> str:
        """The processing status of a user (usually an EventStatus value). Never cached: it changes."""
        response = await self.session.request(
            Service.REGISTRY, "GET", f"{API}/event/{quote(user, safe='@')}/status", params={"entity_type": "USER"}
        )
        return answered(event_status, _answer_body(response))

    async def get_secret(self, email: str | None = None) -> str:
        """The caller's registry secret, decoded. Never cached.

        The docs show `GET /secret` (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivSecretRetrieve.htm);
        the seed names `GET /secret/{user-email}`. Both are accepted: the docs'
        form first, the seed's when the server does not know it (404/405).
        """
        who = email or self.username
        forms = [f"{API}/secret", f"{API}/secret/{quote(who, safe='@')}"]
        if email and email.lower() != self.username.lower():
            forms.reverse()  # someone else's secret can only be asked by address
        response = await self._first_known(forms, lambda path: self.session.request(Service.REGISTRY, "GET", path))
        return decode_secret(response)

    async def reset_secret(self, new_secret: str | None = None) -> str:
        """Set a new registry secret (a random one when `new_secret` is empty) and return it decoded.

        The docs' form is `PUT /secret {"existing-secret": <Base64 of the current secret>, "new-secret": …}`
        (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivSecretChange.htm,
        which documents 200 and 400 only); the seed's is `{"new-password": …}`.
        The docs' form is sent first (it needs the current secret, read just
        before). The seed's is sent only when the server refused the docs'
        body for its shape, which a server of the seed's form would do:

        - a 404, 405 or 415, or a 400/422 whose message speaks of a missing,
          required, unknown, unrecognised or unsupported field or of a bad
          body ("Bad request format", "malformed", "JSON parse") without
          speaking of the secret's value; or one that names `new-password`.
        - Any other refusal concerns the value (a password-policy rule, a
          reused or equal secret, a wrong existing secret: the words of
          `VALUE_WORDS`): it is the answer, and no second PUT goes out.

        When both bodies are refused, the error says both, the docs' first,
        and is of the docs' refusal's class, so the user sees the documented
        server's reason.
        """
        self.session.check_writable("resetting the registry secret")
        if new_secret:
            problems = secret_problems(new_secret)
            if problems:
                raise ValueError("the new secret must have " + "; ".join(problems))
        try:
            current = await self.get_secret()
        except ApiError:
            current = None
        seed_body = {"new-password": new_secret or ""}
        docs_refusal: ApiError | None = None
        if current is not None:
            body = {"existing-secret": base64.b64encode(current.encode()).decode("ascii"), "new-secret": new_secret or ""}
            try:
                response = await self.session.request(Service.REGISTRY, "PUT", f"{API}/secret", json_body=body)
            except (Invalid, NotFound) as exc:
                if not refused_for_shape(exc):
                    raise
                docs_refusal = exc
            else:
                return decode_secret(response)
        try:
            response = await self.session.request(Service.REGISTRY, "PUT", f"{API}/secret", json_body=seed_body)
        except (Invalid, NotFound) as exc:
            if docs_refusal is None:
                raise
            both = type(docs_refusal)(
                f"the registry refused the new secret: {docs_refusal} (the documented body {{existing-secret, new-secret}});"
                f" the older body {{new-password}} was refused too: {exc}",
                status=docs_refusal.status,
                field=docs_refusal.field,
            )
            both.worded = True
            raise both from exc
        return decode_secret(response)

    async def _first_known(self, paths: list[str], send: Callable[[str], Awaitable[httpx.Response]]) -> httpx.Response:
        """The answer of the first path the server knows (404/405 on one moves on to the next)."""
        last: ApiError | None = None
        for path in paths:
            try:
                return await send(path)
            except (NotFound, Invalid) as exc:
                if exc.status not in (404, 405):
                    raise
                last = exc
        assert last is not None
        raise last
