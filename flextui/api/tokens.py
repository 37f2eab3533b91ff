"""The access token service (seed 000): models with the seed's rules, and its nine calls.

The models validate what a form can know before sending (name length and
characters, interval grammar, IMPERSONATED needs a description and a user,
search needs a criterion), so the TUI shows errors inline and the server is
only asked valid questions. Token values appear only in `CreatedToken`
(create, rotate) and are never cached.
"""

from __future__ import annotations

import asyncio
import builtins
import json
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any
from urllib.parse import quote, urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from flextui.api.errors import ApiError, Unreadable
from flextui.api.http import Service, Session, answered, envelope
from flextui.api.intervals import IntervalError, documented, parse_interval
from flextui.api.listing import Listing
from flextui.api.paging import Page, Pager
from flextui.api.tolerant import Record, list_items, one_record, parse_records, said_text
from flextui.api.validation import errors_by_field

MASK_RE = re.compile(r"^\*{3,}$")
MASK_WORDS = "masked|redacted|hidden|obfuscated"
MASK_WORD_RE = re.compile(rf"^[<\[(]?({MASK_WORDS})[>\])]?$", re.IGNORECASE)
MASK_PLACEHOLDER_RE = re.compile(rf"^(?:<({MASK_WORDS})>|\[({MASK_WORDS})\]|\(({MASK_WORDS})\))$", re.IGNORECASE)
NAME_FORBIDDEN = "*<>+$?.^|%]"
HTML_RE = re.compile(r"<[^>]*>|&[#\w]+;")
# Request fields an error message may start with ("tokenName must be 5 to 25 characters").
TOKEN_FIELDS = (
    "tokenName",
    "tokenDescription",
    "tokenType",
    "tokenCreator",
    "expiryStr",
    "username",
    "expiresBefore",
    "expiresLaterThan",
    "issuedBefore",
    "pageSize",
    "page",
    "accessToken",
)
_FIELD_AT_START = re.compile(r"^(" + "|".join(TOKEN_FIELDS) + r")\b")


class TokenType(StrEnum):
    NORMAL = "NORMAL"
    IMPERSONATED = "IMPERSONATED"


def check_token_name(name: str) -> str:
    """Validate a token name by the seed's rules (after trimming); return it or raise ValueError."""
    name = name.strip()
    if not name:
        raise ValueError("must not be empty or only spaces")
    if not 5 <= len(name) <= 25:
        raise ValueError(f"must be 5 to 25 characters (now {len(name)})")
    bad = sorted(set(name) & set(NAME_FORBIDDEN))
    if bad:
        raise ValueError("must not contain " + " ".join(bad))
    if "\\\\\\\\" in name:
        raise ValueError("must not contain four consecutive backslashes")
    if HTML_RE.search(name):
        raise ValueError("must not contain HTML (tags or entities such as &amp;)")
    if any(not ch.isprintable() for ch in name):
        raise ValueError("must not contain control characters")
    return name


def check_interval(value: str) -> str:
    """A valid interval, as written but in the documented spelling (`3Y` is sent as `3y`)."""
    try:
        return documented(value)
    except IntervalError as exc:
        raise ValueError(str(exc)) from None


def is_masked(value: Any, *, partly: bool = False, prose: bool = False) -> bool:
    """Whether a token field holds a masked value rather than the real one.

    The docs say only that a caller sees "obfuscated or masked values" where it
    may not see them (TokenBasedAuthManTokensList.htm), not how: asterisks
    ("****"), a placeholder ("<masked>", "[redacted]"), or (`partly`: user
    names) a value with part of it starred out ("cus***@acme.example"). A
    masked row offered as real data was offered for edit, rotate and delete,
    which then failed; a masked user name was offered as a person to open.
    `prose`: free text (a description), where "Hidden" may be what its owner
    wrote; only a bracketed placeholder or asterisks say masked there.
    """
    if not isinstance(value, str):
        return False
    text = value.strip()
    words = MASK_PLACEHOLDER_RE if prose else MASK_WORD_RE
    return bool(MASK_RE.match(text) or words.match(text) or (partly and "***" in text))


def from_millis(ms: int | None) -> datetime | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


class Token(Record):
    """A token as get, list, search and verify return it (never with its value)."""

    name: str = Field(alias="tokenName")
    token_type: str = Field("NORMAL", alias="tokenType")
    username: str | None = None
    creator: str | None = Field(None, alias="tokenCreator")
    description: str | None = Field(None, alias="tokenDescription")
    expiry_str: str | None = Field(None, alias="expiryStr")
    issued_ms: int | None = Field(None, alias="tokenIssueMillis")
    expires_ms: int | None = Field(None, alias="tokenExpiryMillis")

    @property
    def masked(self) -> bool:
        return is_masked(self.username, partly=True) or is_masked(self.creator, partly=True) or is_masked(self.description, prose=True)

    @property
    def issued(self) -> datetime | None:
        return from_millis(self.issued_ms)

    @property
    def expires(self) -> datetime | None:
        return from_millis(self.expires_ms)

    def expired(self, now_ms: int) -> bool:
        return self.expires_ms is not None and self.expires_ms <= now_ms

    def expires_within(self, now_ms: int, days: float) -> bool:
        return self.expires_ms is not None and now_ms < self.expires_ms <= now_ms + days * 86_400_000


class CreatedToken(Token):
    """A token with its value: only from create and rotate, shown once, never stored."""

    value: str = Field(alias="tokenValue", repr=False)


def created_token(raw: Any, what: str, request: str = "") -> CreatedToken:
    """The token (with its value) a create or rotate answered; `Unreadable` when the answer holds none (an empty or odd body).

    The message names the request ("POST /flexnet/uar/v1/token") when given, as every failure of a request does."""
    try:
        return CreatedToken.model_validate(envelope(raw))
    except ValidationError:
        answer = f"the token service's answer to {request}" if request else "the answer"
        raise Unreadable(f"{what}: {answer} held no token value; it may have been done all the same (refresh the list to see)") from None


class TokenCreate(BaseModel):
    """The body of POST /uar/v1/token.

    `username` is sent for every type. The OpenAPI marks it required ("`username` (string, required)",
    https://fnoapi.redocly.app/apis/rest/accesstokencontroller/openapi-access-tokens/access-token-controller/createtokenusingpost_1.md)
    and the docs' request body holds it
    (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/TokenBasedAuthManTokensCreate.htm),
    while the same pages say it is mandatory for IMPERSONATED tokens and, for a NORMAL token, "ignored when calling an
    API. Instead, the user calling the API is authenticated". A NORMAL token's `username` is therefore the one typed,
    else the caller's own (`body(user)`: the session's user), which a server reading the field as required accepts
    and one that ignores it ignores. Left out, a server enforcing the OpenAPI refused the create (and the minted
    sign-in of the beta APIs, `auth.MintingAuth`).
    """

    model_config = ConfigDict(populate_by_name=True)

    name: str = Field(alias="tokenName")
    expiry: str = Field(alias="expiryStr")
    token_type: TokenType = Field(TokenType.NORMAL, alias="tokenType")
    description: str = Field("", alias="tokenDescription", max_length=2000, validate_default=True)
    username: str | None = Field(None, validate_default=True)

    _name = field_validator("name")(classmethod(lambda cls, v: check_token_name(v)))
    _expiry = field_validator("expiry")(classmethod(lambda cls, v: check_interval(v)))

    # An IMPERSONATED token's reason and user are checked field by field (the type is validated before
    # them), so a form shows every missing one at once; a model validator ran only once the fields passed,
    # and stopped at the first: three submits for three mistakes.
    @field_validator("description")
    @classmethod
    def _reason(cls, value: str, info: ValidationInfo) -> str:
        if info.data.get("token_type") is TokenType.IMPERSONATED and not value.strip():
            raise ValueError("IMPERSONATED tokens need a description (the impersonation reason)")
        return value

    @field_validator("username")
    @classmethod
    def _for_user(cls, value: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("token_type") is TokenType.IMPERSONATED and not (value or "").strip():
            raise ValueError("IMPERSONATED tokens need the user they are for")
        return value

    def body(self, user: str | None = None) -> dict[str, Any]:
        """The request body; `user`: who the caller is (the session's user), a NORMAL token's `username` when none
        was typed. With neither (a token-only profile that names no user) the field is left out, not guessed: a
        server that ignores it (the docs' prose) creates the token, and one that requires it says so in the form's
        field for the user (`field_from_message`)."""
        data = self.model_dump(by_alias=True, mode="json")
        username = (self.username or "").strip()
        if not username and self.token_type is TokenType.NORMAL:  # an IMPERSONATED token's user is never the caller's by default
            username = (user or "").strip()
        if username:
            data["username"] = username
        else:
            data.pop("username", None)
        return data


class TokenUpdate(BaseModel):
    """The body of PUT /uar/v1/token/{name}: any of a new name, description, lifetime."""

    model_config = ConfigDict(populate_by_name=True)

    name: str | None = Field(None, alias="tokenName")
    description: str | None = Field(None, alias="tokenDescription", max_length=2000)
    expiry: str | None = Field(None, alias="expiryStr")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else check_token_name(v)

    @field_validator("expiry")
    @classmethod
    def _expiry(cls, v: str | None) -> str | None:
        return None if v is None else check_interval(v)

    @model_validator(mode="after")
    def _something(self) -> TokenUpdate:
        if self.name is None and self.description is None and self.expiry is None:
            raise ValueError("nothing to change: give a new name, description or lifetime")
        return self

    def body(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, exclude_none=True)


# The keys `TokenSearch.parse_expression` offers: the short forms (the README's `name=`, `type=`), with the API's spelling
# where it differs (also read).
SEARCH_KEYS = (
    "name (tokenName)",
    "type (tokenType)",
    "user (username)",
    "creator (tokenCreator)",
    "expiresBefore",
    "expiresAfter (expiresLaterThan)",
    "issuedBefore",
)


class TokenSearch(BaseModel):
    """The criteria of POST /uar/v1/tokens/search (paging is added per request)."""

    model_config = ConfigDict(populate_by_name=True)

    name: str | None = Field(None, alias="tokenName")
    token_type: TokenType | None = Field(None, alias="tokenType")
    username: str | None = None
    creator: str | None = Field(None, alias="tokenCreator")
    expires_before: str | None = Field(None, alias="expiresBefore")
    expires_later_than: str | None = Field(None, alias="expiresLaterThan")
    issued_before: str | None = Field(None, alias="issuedBefore")

    @field_validator("expires_before", "expires_later_than", "issued_before")
    @classmethod
    def _interval(cls, v: str | None) -> str | None:
        return None if not v else check_interval(v)

    @field_validator("name", "username", "creator")
    @classmethod
    def _blank(cls, v: str | None) -> str | None:
        return v.strip() or None if v is not None else None

    @field_validator("token_type", mode="before")
    @classmethod
    def _type(cls, v: Any) -> Any:
        """The types named as a person reads them: pydantic's enum error quotes them and says "Input should be"."""
        if v is not None and v not in tuple(TokenType):
            raise ValueError(f"the type is {' or '.join(TokenType)}")
        return v

    @model_validator(mode="after")
    def _rules(self) -> TokenSearch:
        if not any((self.name, self.username, self.creator, self.expires_before, self.expires_later_than, self.issued_before)):
            raise ValueError("give at least one of name, user, creator, expires before/after or issued before")
        if self.expires_before and self.expires_later_than:
            now = datetime.now(UTC)
            if parse_interval(self.expires_before).after(now) <= parse_interval(self.expires_later_than).after(now):
                # Said in both the form's words and the API's (the CLI's --search takes the API's).
                raise ValueError("“expires before” (expiresBefore) must be later than “expires after” (expiresLaterThan)")
        if self.token_type is TokenType.NORMAL and self.username and self.creator and self.username != self.creator:
            raise ValueError("for NORMAL tokens the user and the creator must be the same")
        return self

    @classmethod
    def parse_expression(cls, text: str, *, username: str | None = None, creator: str | None = None) -> TokenSearch:
        """From the CLI's `--search "name=api*,type=NORMAL,expiresBefore=30d"`, with `--username`/`--creator` where it names none.

        The options are checked with the criteria (after them, `--search type=NORMAL --username me` was refused as
        naming no criterion), and a refusal is one line naming what was typed (`--search type=WEIRD: the type is
        NORMAL or IMPERSONATED`), not pydantic's report, which names the model's fields and ends in a link to its docs.
        """
        keys = {
            "name": "name",
            "tokenname": "name",
            "type": "token_type",
            "tokentype": "token_type",
            "user": "username",
            "username": "username",
            "creator": "creator",
            "tokencreator": "creator",
            "expiresbefore": "expires_before",
            "expireslaterthan": "expires_later_than",
            "expiresafter": "expires_later_than",
            "issuedbefore": "issued_before",
        }
        values: dict[str, Any] = {}
        typed: dict[str, str] = {}  # field → what the user typed for it, as errors name it
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition("=")
            field = keys.get(key.strip().lower().replace("-", "").replace("_", ""))
            if not sep or field is None:
                raise ValueError(f"--search {part}: write KEY=VALUE with the keys {', '.join(SEARCH_KEYS)}")
            values[field] = value.strip()
            typed[field] = f"--search {part}"
        whole = f"--search {text.strip()}"  # what an error about the criteria together names
        for field, option, given in (("username", "--username", username), ("creator", "--creator", creator)):
            if given and not values.get(field):
                values[field], typed[field] = given, f"{option} {given}"
                whole += f" {typed[field]}"
        try:
            return cls(**values)
        except ValidationError as exc:
            raise ValueError("; ".join(f"{typed.get(path, whole)}: {message}" for path, message in errors_by_field(exc).items())) from None

    def body(self, page: int, page_size: int) -> dict[str, Any]:
        data = self.model_dump(by_alias=True, exclude_none=True, mode="json")
        data.update(page=page, pageSize=page_size)
        return data


class Verification(BaseModel):
    """Whether a pasted token value is valid, with the token it names when the answer named one.

    `valid` is None when the answer contradicts itself (a flag says valid, the expiry is past; two flags differ) or
    holds a flag that is neither true nor false: `reason` says what it said, and nothing is guessed."""

    valid: bool | None
    token: Token | None = None
    reason: str | None = None


VALIDITY_FLAGS = ("valid", "isValid", "active")
"""Where a verification's answer may say whether the value is valid. The verify page says "the response shows if
the token is valid, along with information about the token"
(https://fnoapi.redocly.app/apis/rest/accesstokencontroller/openapi-access-tokens/access-token-controller/verifytokenusingpost_1.md),
but neither it nor the docs' sample
(https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/TokenBasedAuthManTokensVerify.htm)
names a field that says so: these are the names such a flag goes by, looked for beside the token's fields in
`responseObject`, then beside `statusMessage`."""

_SUCCESS_WORDS = frozenset({"successful", "success", "ok"})


def _flag_value(value: Any) -> bool | None:
    """A validity flag as sent, read: a boolean, or "true"/"false" in any case; None for anything else."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def _flags(raw: Any) -> dict[str, Any]:
    """The validity flags (`VALIDITY_FLAGS`) a verification's answer carries, name → value as sent (null is none)."""
    found: dict[str, Any] = {}
    inner = raw.get("responseObject") if isinstance(raw, dict) else None
    for holder in (inner, raw):
        if isinstance(holder, dict):
            for name in VALIDITY_FLAGS:
                if holder.get(name) is not None and name not in found:
                    found[name] = holder[name]
    return found


def _verified_token(raw: Any) -> Token:
    """The token a verification's answer names: as `_token` reads a detail, or nested as `responseObject.token`
    (a flag beside it, `{"valid": true, "token": {…}}`)."""
    inner = raw.get("responseObject") if isinstance(raw, dict) else None
    if isinstance(inner, dict) and isinstance(inner.get("token"), dict) and "tokenName" not in inner:
        return one_record(Token, inner, "token", "token")
    return _token(raw)


def _at(ms: int) -> str:
    """An instant as a person reads it, to the minute, in UTC ("2026-10-26 10:00 UTC")."""
    when = from_millis(ms)
    return f"{when:%Y-%m-%d %H:%M} UTC" if when is not None else "at an unknown time"


def _quoted(value: Any) -> str:
    """A flag's value as the answer wrote it: true, "false", 1, {…} (cut at 40 characters)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    text = text if len(text) <= 40 else text[:39] + "…"
    return f'"{text}"' if isinstance(value, str) else text


def verdict(raw: Any, now_ms: int) -> Verification:
    """What a verification's 200 answer says of the value, read against `now_ms` (the session's clock).

    The documented answer is the token's details and nothing else (`VALIDITY_FLAGS` says where): a token whose
    expiry is past is then not valid though the server did not refuse it ("not valid (expired 2026-10-26 10:00
    UTC)"), and one still live is valid. A validity flag, when the answer has one, decides: false is not valid (with or without
    the token; the server's words kept), true is valid (with the token: an answer that names none is
    `Unreadable`, as before). When the flag says valid and the expiry is past, when flags differ, or when one is
    neither true nor false, the verdict is `valid=None` and says what the answer said: never a guess either way.
    """
    flags = _flags(raw)
    token: Token | None = None
    missing: Unreadable | None = None
    try:
        token = _verified_token(raw)
    except Unreadable as exc:
        missing = exc
    expiry = f"expired {_at(token.expires_ms)}" if token is not None and token.expires_ms is not None and token.expired(now_ms) else None
    if not flags:
        if missing is not None:
            raise missing
        if expiry:
            return Verification(
                valid=False, token=token, reason=f"not valid ({expiry}): the server answered its details without refusing it"
            )
        return Verification(valid=True, token=token)
    said_flags = ", ".join(f"{name}: {_quoted(value)}" for name, value in flags.items())
    readings = {name: _flag_value(value) for name, value in flags.items()}
    if None in readings.values():
        odd = ", ".join(f"{name}: {_quoted(flags[name])}" for name, reading in readings.items() if reading is None)
        return Verification(
            valid=None, token=token, reason=f"the answer says {odd}, neither true nor false: whether it is valid is not known"
        )
    if len(set(readings.values())) > 1:
        return Verification(
            valid=None, token=token, reason=f"the answer contradicts itself ({said_flags}): whether it is valid is not known"
        )
    if next(iter(readings.values())):
        if missing is not None:
            raise missing  # never "valid" without the token the value names
        if expiry:
            return Verification(
                valid=None, token=token, reason=f"the answer says {said_flags}, but the token {expiry}: whether it is valid is not known"
            )
        return Verification(valid=True, token=token)
    words = said_text(raw)
    server = f' ("{words}")' if words and words.strip().lower() not in _SUCCESS_WORDS else ""
    return Verification(
        valid=False, token=token, reason=f"not valid{f' ({expiry})' if expiry else ''}: the answer says {said_flags}{server}"
    )


def field_from_message(message: str, status: int | None = None) -> str | None:
    """The request field an error message names, when the body does not say.

    The token service's error body carries only `statusMessage` (notes §1.5),
    so a form learns which input to mark from the message's first word.
    """
    match = _FIELD_AT_START.match(message or "")
    if match:
        return match.group(1)
    if status == 409 and "token named" in (message or ""):
        return "tokenName"
    return None


def _count(value: Any) -> int | None:
    """The count answer's number (an integer, or digits in a string); None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


@contextmanager
def _field_hints() -> Iterator[None]:
    try:
        yield
    except ApiError as exc:
        if exc.field is None:
            exc.field = field_from_message(exc.message, exc.status)
        raise


def _tokens(raw: Any) -> list[Token]:
    """The tokens of a list or search answer, read whole (its envelope with it): the envelope's `responseObject`
    array, `null` there being none (Jackson's empty collection), or a bare array.

    The documented answer is `{"statusMessage": "Successful", "responseObject": [...]}`
    (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/TokenBasedAuthManTokensList.htm,
    https://fnoapi.redocly.app/apis/rest/accesstokencontroller/openapi-access-tokens/access-token-controller/gettokensforuserusingget_1.md).
    Anything else is `Unreadable` (`tolerant.list_items`), never "no tokens": a top-level `null`, which the
    envelope unwrapped first (it used to be) could not tell from an empty `responseObject`; an error envelope
    (`{"statusMessage": "<reason>", "responseObject": null}`, notes §1.5) or an error body sent with 200; `{}`.
    """
    return parse_records(Token, list_items(raw, "responseObject", null_is_empty=False))


def _token(raw: Any) -> Token:
    """The token of a details or verification answer: the envelope's `responseObject` object (or a bare token).

    Documented: `{"statusMessage": "Successful", "responseObject": {"tokenName", "tokenType", "username",
    "expiryStr", "tokenIssueMillis", "tokenExpiryMillis", "tokenCreator", …}}`, 200, for both
    (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/TokenBasedAuthManTokensGetDetails.htm,
    https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/TokenBasedAuthManTokensVerify.htm,
    https://fnoapi.redocly.app/apis/rest/accesstokencontroller/openapi-access-tokens/access-token-controller/gettokenusingget_1.md:
    `tokenName` required). An answer holding no token (an error envelope or body sent with 200, `{}`, text,
    `null`) is `Unreadable` in the server's words (`tolerant.one_record`): read as one, it showed a token
    "‹unreadable›" with no fields, and a verification said the value was valid.
    """
    return one_record(Token, raw, "token", "responseObject")


STORED_FORM = 2
"""How the token listings' answers are stored, a part of their cache keys: 2, each list or search answer whole,
as received (its envelope with it), read by `_tokens` whether fresh or stored. Answers stored before (no such
part: the `responseObject` unwrapped, so an error's top-level `null` and an empty list were both stored as
`null`, and read as no tokens) are under other keys: never looked up, so never misread (the size limit, or
`flextui cache clear`, removes them)."""


def _token_key(token: Token) -> str:
    return token.name


class TokensService:
    """The nine calls of the access token service over a `Session`."""

    def __init__(self, session: Session) -> None:
        self.session = session

    @staticmethod
    def _path(name: str) -> str:
        return "/uar/v1/token/" + quote(name, safe="")

    async def _get_json(self, path: str, **kwargs: Any) -> Any:
        with _field_hints():
            return await self.session.get_json(Service.TOKENS, path, **kwargs)

    async def _send_json(self, method: str, path: str, **kwargs: Any) -> Any:
        with _field_hints():
            return await self.session.send_json(Service.TOKENS, method, path, **kwargs)

    async def _list_raw(self, username: str | None, creator: str | None, page: int | None, page_size: int | None) -> Any:
        # The docs' table spells the size `pagesize`, the OpenAPI `pageSize`: send both (an unknown one is ignored).
        params = {"username": username, "tokenCreator": creator, "page": page, "pageSize": page_size, "pagesize": page_size}
        return await self._get_json("/uar/v1/tokens", params=params)

    async def _count_raw(self, username: str | None, creator: str | None) -> Any:
        return await self._get_json("/uar/v1/tokens/count", params={"username": username, "tokenCreator": creator})

    @staticmethod
    def _need_who(username: str | None, creator: str | None) -> None:
        if not (username or creator):
            raise ValueError("give a username or a token creator (or both)")

    async def count(self, username: str | None = None, creator: str | None = None) -> int:
        self._need_who(username, creator)
        return _count(envelope(await self._count_raw(username, creator))) or 0

    async def list(
        self, username: str | None = None, creator: str | None = None, page: int | None = None, page_size: int | None = None
    ) -> list[Token]:
        self._need_who(username, creator)
        return answered(_tokens, await self._list_raw(username, creator, page, page_size))

    def _listing(self, username: str | None, creator: str | None, *, counted: bool) -> Listing[Token]:
        """The tokens of a user and/or creator as a numbered list (`Listing`: pages as the server really pages them).

        `counted`: each page is asked together with the count endpoint, for its
        total ("page 3 of 12": the list itself carries none); else the tokens
        alone (a walk of every page asks the count once, `iterate`).
        """
        who = {"username": username, "creator": creator, "stored": STORED_FORM}

        async def tokens(number: int, size: int) -> Any:
            return await self._list_raw(username, creator, number, size)

        async def counted_tokens(number: int, size: int) -> Any:
            count_raw, items_raw = await asyncio.gather(self._count_raw(username, creator), tokens(number, size))
            return {"total": envelope(count_raw), "items": items_raw}  # the list answer whole: `_tokens` reads it

        def parse(raw: Any, number: int, size: int) -> Page[Token]:
            if not counted:
                return Page(_tokens(raw), number, size)
            return Page(_tokens(raw.get("items")), number, size, _count(raw.get("total")))

        op = "tokens.list" if counted else "tokens.items"
        return Listing(self.session, Service.TOKENS, op, who, counted_tokens if counted else tokens, parse, item_key=_token_key)

    async def list_page(
        self, username: str | None, creator: str | None, page: int, page_size: int, *, force: bool = False
    ) -> AsyncIterator[Page[Token]]:
        """Page `page`, counted from 0 as the token API counts them, with the total from the count endpoint:
        cached first (with age), then fresh.

        The count and the list are asked at once. `Page.size` is the size the
        server paged by, which a screen counts its pages by (`Listing.page`): a
        server that caps the size answers fewer tokens than asked (the session
        asks that size from then on), one that pages by a size of its own more
        (its short last page still counts by it), and one that ignores paging
        its whole list (`Page.whole`: the one page, numbered 0 here).
        """
        self._need_who(username, creator)
        async for got in self._listing(username, creator, counted=True).page(page + 1, page_size, force=force):
            got.number -= 1  # counted from 1 by the listing, from 0 here
            yield got

    async def _search_raw(self, criteria: TokenSearch, page: int, page_size: int) -> Any:
        """One page of a search as answered. The docs' table lists the criteria as query parameters while its sample
        and the OpenAPI send a body (TokenBasedAuthManTokensSearch.htm): both are sent, alike."""
        body = criteria.body(page, page_size)
        return await self._send_json("POST", "/uar/v1/tokens/search", json_body=body, params=body, mutating=False)

    async def search(self, criteria: TokenSearch, page: int = 0, page_size: int = 50) -> builtins.list[Token]:
        """One page of a search (from 0), as the server answers it."""
        return answered(_tokens, await self._search_raw(criteria, page, page_size))

    def _search_listing(self, criteria: TokenSearch) -> Listing[Token]:
        """The tokens a search finds as a numbered list (`Listing`) with no count: the search has no count endpoint
        and its answer says nothing of what follows, so each page is settled by asking the next one ahead."""

        async def fetch(number: int, size: int) -> Any:
            return await self._search_raw(criteria, number, size)  # whole: `_tokens` reads it

        def parse(raw: Any, number: int, size: int) -> Page[Token]:
            return Page(_tokens(raw), number, size)

        key = {"criteria": criteria.model_dump(by_alias=True, exclude_none=True, mode="json"), "stored": STORED_FORM}
        return Listing(self.session, Service.TOKENS, "tokens.search", key, fetch, parse, item_key=_token_key, ahead=True)

    async def search_page(self, criteria: TokenSearch, page: int, page_size: int, *, force: bool = False) -> AsyncIterator[Page[Token]]:
        """Page `page` of a search, counted from 0 as the API counts them: cached first (with age), then fresh, each
        given at once with `Page.more` None (not known yet) and then settled (`Listing.page` of an `ahead` listing).

        Settled, `Page.more` says whether a next page exists (the page after a
        full one is asked ahead, through the cache, so `]` shows it at once),
        `Page.size` is the size the server pages by (its own, or a cap it was
        seen to apply, asked from then on), and `Page.whole` that it answered
        every match at once (it ignores paging: the one page, numbered 0).
        """
        async for got in self._search_listing(criteria).page(page + 1, page_size, force=force):
            got.number -= 1  # counted from 1 by the listing, from 0 here
            yield got

    def search_all(self, criteria: TokenSearch, page_size: int = 200, *, max_items: int | None = None) -> Pager[Token]:
        """Every token the search finds, page by page (0-based, as documented), bounded and honest (`Pager`)."""

        async def fetch(number: int, size: int) -> Page[Token]:
            return Page(await self.search(criteria, number, size), number, size)

        return Pager(fetch, size=page_size, base=0, what="tokens", key=_token_key, max_items=max_items, on_done=self.session.record_listing)

    async def iterate(
        self, username: str | None, creator: str | None, page_size: int = 200, *, max_items: int | None = None, force: bool = False
    ) -> Pager[Token]:
        """Every token of a user and/or creator: the count once, then the pages up to it (`Pager`; `force`: each asked again)."""
        self._need_who(username, creator)
        who = {"username": username, "creator": creator}
        total = _count(
            await self.session.cached_value("tokens.count", who, lambda: self._count_raw(username, creator), envelope, force=force)
        )
        listing = self._listing(username, creator, counted=False)
        return listing.every(page_size, what="tokens", max_items=max_items, total=total, force=force)

    async def get(self, name: str) -> Token:
        """The details of token `name` (`_token`: an answer holding no token is `Unreadable`, naming the request)."""
        return answered(_token, await self._get_json(self._path(name)))

    async def create(self, spec: TokenCreate) -> CreatedToken:
        """Create the token; a NORMAL token's `username` is the one given, else the session's user (`TokenCreate`)."""
        self.session.check_writable(f"creating token {spec.name!r}")
        raw = await self._send_json("POST", "/uar/v1/token", json_body=spec.body(self.session.user))
        return created_token(raw, f"creating token {spec.name!r}", self._request("POST", "/uar/v1/token"))

    async def update(self, name: str, change: TokenUpdate) -> None:
        self.session.check_writable(f"updating token {name!r}")
        await self._send_json("PUT", self._path(name), json_body=change.body())

    async def delete(self, name: str) -> None:
        self.session.check_writable(f"deleting token {name!r}")
        await self._send_json("DELETE", self._path(name))

    async def rotate(self, name: str) -> CreatedToken:
        self.session.check_writable(f"rotating token {name!r}")
        raw = await self._send_json("POST", self._path(name) + "/rotation")
        return created_token(raw, f"rotating token {name!r}", self._request("POST", self._path(name) + "/rotation"))

    def _request(self, method: str, path: str) -> str:
        """ "POST /flexnet/uar/v1/token": a request as a message names it (the path at the address in use)."""
        return f"{method} {urlsplit(self.session.url(Service.TOKENS, path)).path}"

    async def verify(self, value: str) -> Verification:
        """Ask the server whether `value` is a valid token.

        The verification endpoint documents only its 200 (the token's details;
        docs.revenera.com …/TokenBasedAuthManTokensVerify.htm); what a value that
        is not valid gets is not documented. A 4xx about the value (400, 404,
        410, 422: `Invalid` or `NotFound`) is read as "not valid" with the
        server's words; 401 and 403 are about the caller and stay errors. A 200
        is read by `verdict`, against the session's clock: an expiry already
        past, or a validity flag that says false, is not valid.
        """
        from flextui.api.errors import Invalid, NotFound

        value = value.strip()
        if not value.startswith("rna_") or len(value) <= 4:
            return Verification(valid=False, reason="not an access token: values start with rna_")
        try:
            raw = await self._send_json("POST", "/uar/v1/token/verification", json_body={"accessToken": value}, mutating=False)
        except (Invalid, NotFound) as exc:
            return Verification(valid=False, reason=exc.message)
        return answered(lambda answer: verdict(answer, self.session.now_ms()), raw)  # (no token in a 200: an error, never "valid")
