"""The users and accounts service (seed 002, beta): request models with its rules, and its calls.

`AccountCreate` and `UserCreate` check what a form can know (required
fields, account types, two-letter country, e-mail, userName equal to the
e-mail, status, time zone and locale formats, role expiry dates) with the
rules of `validation.py`, which the simulator applies too. Whether an
account name exists, or a user or account is already there, only the
server knows: `Invalid`/`Conflict` with `.field`.

The notes disagree on whether accountType is mandatory for a new account
(older doc: no, newer: yes, default CUSTOMER); `AccountCreate` always sends
it, which satisfies both. Passwords are never part of any model here.
Pages are 1-based; response models ignore unknown fields.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import quote

from pydantic import AfterValidator, AliasChoices, Field, field_validator, model_validator

from flextui.api import validation as v
from flextui.api.errors import Invalid, NotFound
from flextui.api.http import Service, Session, answered
from flextui.api.listing import Listing, freshest, records_page
from flextui.api.paging import Page, Pager
from flextui.api.timestamps import lenient_timestamp
from flextui.api.tolerant import Record, created_record, one_record
from flextui.api.validation import (
    DEFAULT_LIMIT,
    FIRST_PAGE,
    MAX_LIMIT,
    DateText,
    EmailText,
    FieldProblem,
    NameText,
    NonBlank,
    errors_by_field,
)

__all__ = [
    "FIRST_PAGE",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "errors_by_field",
    "AttributeEntry",
    "AccountCreate",
    "AccountRole",
    "UserCreate",
    "AccountFilter",
    "UserFilter",
    "Account",
    "UserAccount",
    "User",
    "UsersService",
]

Address = Annotated[str, AfterValidator(v.max_length(v.ADDRESS_MAX))]
Country = Annotated[str, AfterValidator(v.check_country)]


_blank_to_none = v.blank_to_none
_Request = v.RequestBody
_Response = Record


class AttributeEntry(_Request):
    name: NonBlank
    value: str = ""


class AccountCreate(_Request):
    """The body of POST /accounts (the older docs' /account takes the same).

    accountId is "Unique identifier of the account (short account name)", with no character rule and no length
    (https://fnoapi.redocly.app/apis/rest/user-accounts/user-account-service/account): it is only not blank. The
    entitlement IDs' forbidden characters are not an account's rule (`AT&T-EMEA`, `ACME (EU)` are account IDs).
    An account ID goes out only in JSON bodies and in query parameters (accountId filters), which httpx encodes.
    """

    account_id: NonBlank = Field(alias="accountId")
    name: NameText
    account_type: Annotated[str, AfterValidator(v.check_account_type)] = Field("CUSTOMER", alias="accountType")
    description: Annotated[str, AfterValidator(v.max_length(v.DESCRIPTION_MAX))] | None = None
    address1: Address | None = None
    address2: Address | None = None
    city: Address | None = None
    state: Address | None = None
    zipcode: Address | None = None
    country: Country | None = None
    region: Address | None = None
    visible: bool = True
    parent_account_id: str | None = Field(None, alias="parentAccountId")
    attributes: list[AttributeEntry] = Field(default_factory=list)

    _blank = field_validator("country", "parent_account_id", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))

    @model_validator(mode="after")
    def _rules(self) -> AccountCreate:
        try:
            v.check_attribute_names([a.name for a in self.attributes])
        except FieldProblem as exc:
            raise FieldProblem(v.join_path("attributes", exc.field), exc.message) from None
        return self


class AccountRole(_Request):
    """An account the new user belongs to (by name), the roles there and an optional expiry."""

    account_name: NonBlank = Field(alias="accountName")
    roles: list[NonBlank] = Field(default_factory=list)
    expiry_date: DateText | None = Field(None, alias="expiryDate")

    _blank = field_validator("expiry_date", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))


class UserCreate(_Request):
    """The body of POST /users."""

    first_name: NameText = Field(alias="firstName")
    last_name: NameText = Field(alias="lastName")
    email_address: EmailText = Field(alias="emailAddress")
    account_roles: list[AccountRole] = Field(alias="accountRoles")
    display_name: NameText | None = Field(None, alias="displayName")
    phone_number: Annotated[str, AfterValidator(v.check_phone)] | None = Field(None, alias="phoneNumber")
    fax_number: Annotated[str, AfterValidator(v.check_phone)] | None = Field(None, alias="faxNumber")
    street: Address | None = None
    city: Address | None = None
    state: Address | None = None
    zipcode: Address | None = None
    country: Country | None = None
    locale: Annotated[str, AfterValidator(v.check_locale)] | None = None
    portal_login: bool = Field(False, alias="portalLogin")
    user_name: str | None = Field(None, alias="userName")
    status: Annotated[str, AfterValidator(v.check_user_status)] = "Active"
    timezone: Annotated[str, AfterValidator(v.check_timezone)] | None = None
    shared: bool = False
    attributes: list[AttributeEntry] = Field(default_factory=list)

    _blank = field_validator("display_name", "phone_number", "fax_number", "country", "locale", "user_name", "timezone", mode="before")(
        classmethod(lambda cls, x: _blank_to_none(x))
    )

    @field_validator("account_roles")
    @classmethod
    def _some_roles(cls, value: list[AccountRole]) -> list[AccountRole]:
        if not value:
            raise ValueError("needs at least 1 account (accountRoles)")
        return value

    @model_validator(mode="after")
    def _rules(self) -> UserCreate:
        try:
            v.check_user_name(self.user_name, self.email_address, self.portal_login)
        except ValueError as exc:
            raise FieldProblem("userName", str(exc)) from None
        try:
            v.check_attribute_names([a.name for a in self.attributes])
        except FieldProblem as exc:
            raise FieldProblem(v.join_path("attributes", exc.field), exc.message) from None
        names = [r.account_name for r in self.account_roles]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise FieldProblem(f"accountRoles[{i}].accountName", f"account {name!r} is given twice")
        return self


class AccountFilter(_Request):
    """Query of GET /accounts (besides page and limit); account_types defaults to CUSTOMER on the server."""

    account_id: str | None = Field(None, alias="accountId")
    account_name: str | None = Field(None, alias="accountName")
    account_types: list[Annotated[str, AfterValidator(v.choice(v.LISTED_ACCOUNT_TYPES))]] | None = Field(None, alias="accountType")
    root_account_only: bool | None = Field(None, alias="rootAccountOnly")
    sort_by: Annotated[str, AfterValidator(v.choice(v.ACCOUNT_SORT_KEYS))] | None = None
    sort_order: Annotated[str, AfterValidator(v.check_sort_order)] | None = None

    @field_validator("account_id", "account_name", "sort_by", "sort_order", mode="before")
    @classmethod
    def _blank(cls, value: Any) -> Any:
        return value.strip() or None if isinstance(value, str) else value

    def params(self) -> list[tuple[str, Any]]:
        """Query pairs: accountType repeats, one per type."""
        pairs: list[tuple[str, Any]] = []
        for key, value in self.body().items():
            if isinstance(value, list):
                pairs.extend((key, item) for item in value)
            else:
                pairs.append((key, str(value).lower() if isinstance(value, bool) else value))
        return pairs


class UserFilter(_Request):
    """Query of GET /users (besides page and limit)."""

    user_name: str | None = Field(None, alias="userName")
    display_name: str | None = Field(None, alias="displayName")
    email: str | None = None
    account_id: str | None = Field(None, alias="accountId")
    account_name: str | None = Field(None, alias="accountName")
    account_type: Annotated[str, AfterValidator(v.choice(v.USER_ACCOUNT_TYPES))] | None = Field(None, alias="accountType")
    status: Annotated[str, AfterValidator(lambda s: v.check_user_status(s).lower())] | None = None
    sort_by: Annotated[str, AfterValidator(v.choice(v.USER_SORT_KEYS))] | None = None
    sort_order: Annotated[str, AfterValidator(v.check_sort_order)] | None = None

    @field_validator("*", mode="before")
    @classmethod
    def _blank(cls, value: Any) -> Any:
        return value.strip() or None if isinstance(value, str) else value

    def params(self) -> list[tuple[str, Any]]:
        return list(self.body().items())


# -- responses -------------------------------------------------------------------------------------


class AttributeValue(_Response):
    name: str
    value: Any = None


class Account(_Response):
    account_id: str = Field(alias="accountId")
    account_name: str | None = Field(None, validation_alias=AliasChoices("accountName", "name"))
    account_type: str | None = Field(None, alias="accountType")
    description: str | None = None
    address1: str | None = None
    address2: str | None = None
    city: str | None = None
    state: str | None = None
    zipcode: str | None = None
    country: str | None = None
    region: str | None = None
    visible: bool | None = None
    parent_account_id: str | None = Field(None, alias="parentAccountId")
    attributes: list[AttributeValue] = Field(default_factory=list)
    created_on: Any = Field(None, alias="createdOn")

    @property
    def created(self) -> datetime | None:
        return lenient_timestamp(self.created_on)


class UserAccount(_Response):
    account_id: str | None = Field(None, alias="accountId")
    account_name: str | None = Field(None, alias="accountName")
    account_type: str | None = Field(None, alias="accountType")
    expiry_date: str | None = Field(None, alias="expiryDate")
    roles: list[str] = Field(default_factory=list)


class User(_Response):
    """A user. The docs make `userName` equal to the e-mail address (postuser.md), and some answers
    leave it out: then the e-mail address is the user name."""

    user_name: str = Field("", validation_alias=AliasChoices("userName", "username"))
    first_name: str | None = Field(None, alias="firstName")
    last_name: str | None = Field(None, alias="lastName")
    display_name: str | None = Field(None, alias="displayName")
    email_address: str | None = Field(None, validation_alias=AliasChoices("emailAddress", "email"))
    status: str | None = None
    accounts: list[UserAccount] = Field(default_factory=list)
    phone_number: str | None = Field(None, alias="phoneNumber")
    fax_number: str | None = Field(None, alias="faxNumber")
    street: str | None = None
    city: str | None = None
    state: str | None = None
    zipcode: str | None = None
    country: str | None = None
    locale: str | None = None
    timezone: str | None = None
    portal_login: bool | None = Field(None, validation_alias=AliasChoices("portalLogin", "canLogin"))
    shared: bool | None = None
    attributes: list[AttributeValue] = Field(default_factory=list)
    created_on: Any = Field(None, alias="createdOn")

    @model_validator(mode="after")
    def _name_from_email(self) -> User:
        if not self.user_name and self.email_address:
            self.user_name = self.email_address
        return self

    @property
    def active(self) -> bool:
        return (self.status or "").lower() == "active"

    @property
    def created(self) -> datetime | None:
        return lenient_timestamp(self.created_on)


class UsersService:
    """The users and accounts service's calls over a `Session` (page numbers count from 1 here; `Listing` maps them)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def _listing(
        self, op: str, path: str, key: str, model: type[Any], filters: AccountFilter | UserFilter | None, ident: Callable[[Any], Any]
    ) -> Listing[Any]:
        query = filters.params() if filters else []
        return Listing(
            self.session,
            Service.USERS,
            op,
            {"query": query},
            lambda number, size: self.session.get_json(Service.USERS, path, params=[*query, ("page", number), ("limit", size)]),
            lambda raw, number, size: records_page(raw, key, model, number, size),
            item_key=ident,
        )

    def _accounts(self, filters: AccountFilter | None) -> Listing[Account]:
        return self._listing("users.accounts", "/v1/accounts", "accounts", Account, filters, lambda a: a.account_id)

    def _users(self, filters: UserFilter | None) -> Listing[User]:
        return self._listing("users.users", "/v1/users", "users", User, filters, lambda u: u.user_name)

    @staticmethod
    def _check(page: int, limit: int) -> None:
        v.check_page(page)
        v.check_limit(limit)

    # -- accounts --

    async def accounts(self, filters: AccountFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT) -> Page[Account]:
        self._check(page, limit)
        result: Page[Account] = await freshest(self._accounts(filters).page(page, limit, force=True))
        return result

    def accounts_page(
        self, filters: AccountFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT, *, force: bool = False
    ) -> AsyncIterator[Page[Account]]:
        """Cached first (with its age), then fresh."""
        self._check(page, limit)
        return self._accounts(filters).page(page, limit, force=force)

    def every_account(
        self, filters: AccountFilter | None = None, limit: int = 200, max_items: int | None = None, *, force: bool = False
    ) -> Pager[Account]:
        """Every account (`force`: each page asked again, not taken from the cache)."""
        self._check(FIRST_PAGE, limit)
        return self._accounts(filters).every(limit, what="accounts", max_items=max_items, force=force)

    async def create_account(self, spec: AccountCreate) -> Account:
        self.session.check_writable(f"creating account {spec.account_id!r}")
        body = spec.body()
        # Newer pages write POST /v1/accounts, an older one /v1/account: the other is tried when one is unknown (404/405).
        try:
            raw = await self.session.send_json(Service.USERS, "POST", "/v1/accounts", json_body=body)
        except (NotFound, Invalid) as exc:
            if exc.status not in (404, 405):
                raise
            raw = await self.session.send_json(Service.USERS, "POST", "/v1/account", json_body=body)
        return created_record(Account, raw, "account", {**body, "accountName": body.get("name")}, f"creating account {spec.account_id!r}")

    # -- users --

    async def users(self, filters: UserFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT) -> Page[User]:
        self._check(page, limit)
        result: Page[User] = await freshest(self._users(filters).page(page, limit, force=True))
        return result

    def users_page(
        self, filters: UserFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT, *, force: bool = False
    ) -> AsyncIterator[Page[User]]:
        """Cached first (with its age), then fresh."""
        self._check(page, limit)
        return self._users(filters).page(page, limit, force=force)

    def every_user(
        self, filters: UserFilter | None = None, limit: int = 200, max_items: int | None = None, *, force: bool = False
    ) -> Pager[User]:
        """Every user (`force`: each page asked again, not taken from the cache)."""
        self._check(FIRST_PAGE, limit)
        return self._users(filters).every(limit, what="users", max_items=max_items, force=force)

    async def get_user(self, user_name: str) -> User:
        """One user (GET /v1/users/{userName}: the seed's; not seen in the vendor's pages, notes §4.3).

        Its answer is `{"status": …, "user": {…}}` or the user bare: the service's answers are documented only as
        `{"status": "string"}` (https://fnoapi.redocly.app/apis/rest/user-accounts/user-account-service/user/postuser.md),
        the record's fields being the GraphQL UserDetail's. An answer holding none (an error body sent with 200,
        whose `status` is a user's field too; `{}`, text, `null`) is `Unreadable` in the server's words
        (`tolerant.one_record`), never a user with no name and nothing in it.
        """
        raw = await self.session.get_json(Service.USERS, "/v1/users/" + quote(user_name, safe="@"))
        return answered(lambda body: one_record(User, body, "user", "user"), raw)

    async def create_user(self, spec: UserCreate) -> User:
        what = f"creating user {spec.email_address!r}"
        self.session.check_writable(what)
        body = spec.body()
        raw = await self.session.send_json(Service.USERS, "POST", "/v1/users", json_body=body)
        return created_record(User, raw, "user", body, what)
