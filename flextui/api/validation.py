"""The field rules of the three beta services that a client can check before sending.

The entitlement, products and users/accounts services (seed 002, notes §4)
state their rules as prose: ID characters and lengths, YYYY-MM-DD dates,
enums, length limits. The client's pydantic models check them so a form can
show an error next to the field before anything is sent. The simulator has
its own rules (`flextui.sim.rules`), written from the same seeds, so the two
are independent witnesses: a test feeds the simulator's refusals to these
models. What only the tenant knows (which custom attributes are mandatory,
which license technologies and generators exist) is not checked here: the
server's answer names it, and forms show it on the field.

Conventions:
- A rule is a function `check_…(value) -> value` that returns the
  (normalised) value or raises `ValueError` whose message does not name the
  field: the caller knows the field and names it.
- A field is named by its path in the JSON body, e.g.
  `lineItems[0].product[0].productName` (`field_path`). The simulator puts
  this path in the error body's `field`; `errors_by_field` turns a pydantic
  `ValidationError` into `{path: message}` with the same paths, so a form
  maps both kinds of error onto its widgets the same way.
- Rules that involve two fields raise `FieldProblem`, which carries the
  field path relative to the object being checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, date
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

INT32_MAX = 2**31 - 1

# -- request and response bodies of the products and users services ----------------------


def blank_to_none(value: Any) -> Any:
    """None for a blank string (empty or white space only); anything else as it is."""
    return None if isinstance(value, str) and not value.strip() else value


class RequestBody(BaseModel):
    """A request body: JSON names on the wire; strict JSON types and no unknown fields, like the server."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", strict=True)

    def body(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")


# -- errors and paths -------------------------------------------------------------------


class FieldProblem(ValueError):
    """A broken rule and the field (path) it concerns."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return self.message


def field_path(loc: Iterable[str | int]) -> str:
    """`("lineItems", 0, "startDate")` → `lineItems[0].startDate`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part:
            out += f".{part}" if out else str(part)
    return out


def join_path(base: str, field: str) -> str:
    """`join_path("lineItems[0]", "startDate")` → `lineItems[0].startDate`."""
    if not base:
        return field
    if not field:
        return base
    return f"{base}{field}" if field.startswith("[") else f"{base}.{field}"


def _message(msg: str) -> str:
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            return msg[len(prefix) :]
    return msg


_SCHEMA_STEP = re.compile(r"^(function-\w+|union|tagged-union|nullable|chain|lax-\w+|json-or-python)\[")


def errors_by_field(exc: ValidationError) -> dict[str, str]:
    """`{field path: message}` from a model's ValidationError (first message per field).

    Paths use the JSON (alias) names, as the simulator's `field` does; an
    error about the whole body has the path "".
    """
    result: dict[str, str] = {}
    for error in exc.errors():
        # Union members and validator functions appear in `loc` as "function-after[…]" etc.: not fields.
        path = field_path(p for p in error.get("loc", ()) if not (isinstance(p, str) and _SCHEMA_STEP.match(p)))
        problem = (error.get("ctx") or {}).get("error")
        if isinstance(problem, FieldProblem):
            path = join_path(path, problem.field)
            message = problem.message
        else:
            message = _message(str(error.get("msg", "invalid")))
        result.setdefault(path, message)
    return result


# -- generic rules ----------------------------------------------------------------------


def check_not_blank(value: str) -> str:
    """Not empty and not only whitespace."""
    if not value.strip():
        raise ValueError("must not be empty or only whitespace")
    return value


def check_max_length(value: str, limit: int) -> str:
    if len(value) > limit:
        raise ValueError(f"must be at most {limit} characters (now {len(value)})")
    return value


def max_length(limit: int) -> Callable[[str], str]:
    return lambda value: check_max_length(value, limit)


def check_choice(value: str, choices: Sequence[str], *, label: str = "one of") -> str:
    """One of `choices`, matched case-insensitively; returns the canonical spelling."""
    for choice in choices:
        if value.strip().lower() == choice.lower():
            return choice
    raise ValueError(f"must be {label} {', '.join(choices)} (got {value!r})")


def choice(choices: Sequence[str]) -> Callable[[str], str]:
    return lambda value: check_choice(value, choices)


DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$", re.ASCII)  # ASCII: \d would also match other scripts' digits


def parse_ymd(value: str) -> date:
    """A YYYY-MM-DD date (four digits, two, two) that exists in the calendar."""
    if not isinstance(value, str) or not DATE_RE.match(value):
        raise ValueError(f"must be a date YYYY-MM-DD (got {value!r})")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value} is not a calendar date") from None


def check_date(value: str) -> str:
    parse_ymd(value)
    return value


def check_date_order(start: str | None, end: str | None, *, end_label: str = "the start date") -> None:
    """Raise when `end` comes before `start` (both already valid or None)."""
    if start and end and parse_ymd(end) < parse_ymd(start):
        raise ValueError(f"must not be before {end_label} ({start})")


def check_int_range(value: int, minimum: int | None = None, maximum: int | None = INT32_MAX) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("must be a whole number")
    if minimum is not None and value < minimum:
        raise ValueError(f"must be at least {minimum} (got {value})")
    if maximum is not None and value > maximum:
        raise ValueError(f"must be at most {maximum} (got {value})")
    return value


EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")


def check_email(value: str) -> str:
    if not EMAIL_RE.match(value.strip()):
        raise ValueError(f"must be an e-mail address (got {value!r})")
    return value.strip()


def check_optional_email(value: str) -> str:
    """Empty, or an e-mail address: an entitlement's ship-to e-mail and an account's contact e-mail may be left out."""
    return check_email(value) if value.strip() else ""


SORT_ORDERS = ("asc", "desc")

# -- entitlements ---------------------------------------------------------------------

ID_MAX_LENGTH = 255
# The vendor's pattern for entitlementId and activationId, `^(?!\s*$)(?!.*['"&%^()#@!~/<>`{}=|]).*$`
# (https://fnoapi.redocly.app/apis/rest/fno_api_modernization/lineitem/postlineitems.md, …/postentitlement.md and
# …/maintenancelineitem/postmaintenancelineitems.md): no `;`. Seed 002 lists the same characters in the same order and
# then "; unique across…": that `;` is the separator its rules are written with, not a character of the list (nor
# is it in SOAP createSimpleEntitlement's list of invalid characters). So `ENT;1` is an ID.
ID_FORBIDDEN = "'\"&%^()#@!~/<>`{}=|"
DESCRIPTION_MAX = 2000
SHIP_TO_MAX = 1000
SHIP_TO_ADDRESS_RE = re.compile(r"^$|^[ a-zA-Z0-9_-]+$")
ORDER_TYPES = ("NEW_ORDER", "RENEWAL_ORDER", "UPGRADE_ORDER", "UPSELL_ORDER", "INVALID_ORDER")
DEFAULT_ORDER_TYPE = "NEW_ORDER"
ENTITLEMENT_STATUSES = ("DRAFT", "DEPLOYED", "OBSOLETE")
LINE_ITEM_STATUSES = ENTITLEMENT_STATUSES
# The list filters' statuses: seed 002 §3, "the entitlement list filter also names active, inactive and obsoleted"
# (beside draft, deployed, obsolete); OBSOLETED is the GraphQL State enum's word, which has no OBSOLETE
# (https://fnoapi.redocly.app/apis/graphql/combinedgraphql/queries.md). Each is sent as it is named: obsoleted
# is not obsolete on the wire.
STATUS_FILTERS = ("DRAFT", "DEPLOYED", "OBSOLETE", "ACTIVE", "INACTIVE", "OBSOLETED")
ENTITLEMENT_SORT_KEYS = ("entitlement_id", "created_on")
ACCOUNT_TYPES = ("PUBLISHER", "CUSTOMER", "CHANNEL_PARTNER", "SELF_REGISTERED", "UNKNOWN")
PARTNER_TIERS = ("END_CUSTOMER", "PARTNER_TIER_ONE")
DEFAULT_ACCOUNT = "UNKNOWN_ORG_UNIT"
# The documented spelling: "policyTermUnit (String) … Valid types are Days, Weeks, Months, Years", sample "Days"
# (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/PolicyInput.md). FlexNet's SOAP API writes them in
# upper case (DAYS, …): any case is read, the documented spelling is sent.
POLICY_TERM_UNITS = ("Days", "Weeks", "Months", "Years")
POLICY_KINDS = ("rehosts", "returns", "repairs")


def check_id(value: str) -> str:
    """An entitlement or activation ID: ≤255 characters, not only whitespace, none of ID_FORBIDDEN."""
    if len(value) > ID_MAX_LENGTH:
        raise ValueError(f"must be at most {ID_MAX_LENGTH} characters (now {len(value)})")
    if not value.strip():
        raise ValueError("must not be only whitespace")
    bad = sorted(set(value) & set(ID_FORBIDDEN), key=ID_FORBIDDEN.index)
    if bad:
        raise ValueError("must not contain " + " ".join(bad))
    return value


def check_ship_to_address(value: str) -> str:
    check_max_length(value, SHIP_TO_MAX)
    if not SHIP_TO_ADDRESS_RE.match(value):
        raise ValueError("may contain only letters, digits, spaces, underscores and hyphens")
    return value


def check_order_type(value: str) -> str:
    """An order type in any case (new_order, NEW_ORDER) → its upper-case name."""
    return check_choice(value, ORDER_TYPES)


def check_status(value: str) -> str:
    """draft, deployed or obsolete in any case → upper case."""
    return check_choice(value, ENTITLEMENT_STATUSES)


def check_status_filter(value: str) -> str:
    """A list filter's status in any case → its upper-case name, the word kept (obsoleted stays OBSOLETED)."""
    return check_choice(value, STATUS_FILTERS)


def check_quantity(value: int) -> int:
    return check_int_range(value, 0)


def check_quantity_per_copy(value: int) -> int:
    return check_int_range(value, 1)


def check_policy_term_unit(value: str) -> str:
    """A policy term unit in any case (days, DAYS) → its documented spelling (Days), as PolicyInput writes it
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/PolicyInput.md)."""
    return check_choice(value, POLICY_TERM_UNITS)


def policy_term_unit(value: object) -> str | None:
    """The documented spelling of a unit a server answered in any case ("DAYS" → "Days"); None for anything else."""
    text = str(value).strip().lower() if isinstance(value, str) else ""
    return next((unit for unit in POLICY_TERM_UNITS if unit.lower() == text), None)


def auto_generate_for(value: str | None, auto_generate: bool | None) -> bool:
    """The autoGenerate to send with an entitlement or activation ID: as the caller said, else `not value`.

    "If you specify the entitlement ID here, then the autoGenerate flag must be set to false"
    (https://fnoapi.redocly.app/apis/rest/fno_api_modernization/entitlement/postentitlement.md), and "autoGenerate is
    true or false. If you specify false, it means you need to pass the ID value" (the same backend's SOAP
    createSimpleEntitlement, https://docs.revenera.com/fno_CURRENT/soapapi/ME-EntitlementOrderService-createSimpleEntitlement.htm):
    an ID given goes with false, none with true. Left out, the service's default is not documented (a Java
    `boolean` would read it as false, and then ask for the ID): so it is always sent.
    """
    return (not value) if auto_generate is None else auto_generate


def check_given_id(value: str | None, auto_generate: bool, key: str) -> None:
    """An ID given requires autoGenerate false (FieldProblem on autoGenerate); autoGenerate false requires an ID
    (FieldProblem on the ID's `key`): `auto_generate_for` cites the pages."""
    if value and auto_generate:
        raise FieldProblem("autoGenerate", f"must be false when {key} is given")
    if not value and not auto_generate:
        raise FieldProblem(key, "is required when autoGenerate is false (leave it empty with autoGenerate true to have it generated)")


def check_term(start: str | None, expiry: str | None, permanent: bool) -> None:
    """A line item's dates: permanent items have no expiryDate, others need one, not before startDate.

    The REST pages mark expiryDate optional (it is, for a permanent item: "A permanent line item has no expiration
    date"); the same backend's SOAP types say "If isPermanent is false, set term or expirationDate"
    (https://docs.revenera.com/fno_CURRENT/soapapi/CT-EntitlementOrderService-tns_expirationTermsDataType.htm), and the
    REST and GraphQL line items have no term: so a line item that is not permanent needs its expiryDate.
    """
    if permanent and expiry:
        raise FieldProblem("expiryDate", "must not be given for a permanent line item (isPermanent is true)")
    if not permanent and not expiry:
        raise FieldProblem("expiryDate", "is required unless isPermanent is true")
    for day in (start, expiry):
        try:
            if day:
                parse_ymd(day)
        except ValueError:
            return  # no order to check: the date's own rule names it, on its own field
    try:
        check_date_order(start, expiry)
    except ValueError as exc:
        raise FieldProblem("expiryDate", str(exc)) from None


def check_auto_deploy_status(auto_deploy: bool, status: str | None) -> None:
    """autoDeploy deploys: a status other than deployed contradicts it (FieldProblem on status)."""
    if auto_deploy and status not in (None, "DEPLOYED"):
        raise FieldProblem("status", "must be deployed (or left out) when autoDeploy is true")


def check_attribute_value(value: Any) -> Any:
    """A custom attribute's value: text (a date as yyyy/MM/dd), a number, or a list of texts (a multi-valued one):
    "value (object)" (…/maintenancelineitem/postmaintenancelineitems.md), "Single Text: "EMEA" … Multi-valued text …
    Date: "YYYY/MM/DD" … Number: 12345" (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/CreateEntitlementInput.md)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float, list)):
        raise ValueError("must be a text, a number or a list of texts")
    if isinstance(value, list) and not all(isinstance(x, str) for x in value):
        raise ValueError("a multi-valued attribute is a list of texts")
    return value


def check_attribute_names(names: Sequence[str]) -> None:
    """Custom attribute names are not repeated (FieldProblem on `[i].name`)."""
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            raise FieldProblem(f"[{i}].name", f"attribute {name!r} is given twice")
        seen.add(name)


# -- products ---------------------------------------------------------------------------

NAME_MAX = 255
VERSION_MAX = 64
STANDARD_LICENSE_TECHNOLOGY = "FlexNet Licensing"
DEFAULT_PRODUCT_CATEGORY = "Uncategorized Products"
DEFAULT_HOST_TYPE = "Certificate or Trusted Host"
UPGRADE_EMAIL_TEMPLATES = ("none", "default")
PRODUCT_STATES = ("DRAFT", "DEPLOYED", "OBSOLETE", "INACTIVE")
FEATURE_NAME_MAX = 30
FEATURE_NAME_RE = re.compile(r"^[A-Za-z0-9_-]+$")
FEATURE_VERSION_MAX = 64
VERSION_FORMATS = ("FIXED", "DATEBASED")
MAX_VERSION_RE = re.compile(r"^\d{4}\.(\d{2}(\d{2}|\.?\d{2})?)$", re.ASCII)
AGGREGATION_TYPES = ("NONE", "SUM", "MAX")
FEATURE_STATES = ("DRAFT", "DEPLOYED")
PART_NUMBER_MAX = 200
PART_NUMBER_RE = re.compile(r"^(?=.*[A-Za-z0-9_\-.])[ A-Za-z0-9_\-.]+$")
PART_NUMBER_SORT_KEYS = ("partNumber", "productName", "licenseModel", "creationDate", "lastModifiedDate")
PRODUCT_SORT_KEYS = ("productName", "version", "creationDate", "lastModifiedDate")
SUITE_SORT_KEYS = ("suiteName", "createdOn")
FEATURE_SORT_KEYS = ("name", "version", "creationDate", "lastModifiedDate")


def check_name(value: str) -> str:
    """A catalogue name (product, suite, bundle, maintenance): not blank, ≤255 characters."""
    check_not_blank(value)
    return check_max_length(value, NAME_MAX)


def check_version(value: str) -> str:
    check_not_blank(value)
    return check_max_length(value, VERSION_MAX)


def default_host_type(technology: str, used_on_device: bool, host_type: str | None) -> str | None:
    """Rule 6: without a host type, a standard-technology product not used on a device gets DEFAULT_HOST_TYPE."""
    if host_type:
        return host_type
    if technology == STANDARD_LICENSE_TECHNOLOGY and not used_on_device:
        return DEFAULT_HOST_TYPE
    return None


def effective_used_on_device(technology: str, used_on_device: bool) -> bool:
    """Rule 9: usedOnDevice counts only for the standard technology."""
    return used_on_device if technology == STANDARD_LICENSE_TECHNOLOGY else False


def check_upgrade_email_template(value: str) -> str:
    return check_choice(value, UPGRADE_EMAIL_TEMPLATES).lower()


def check_feature_name(value: str) -> str:
    if not value:
        raise ValueError("is required")
    check_max_length(value, FEATURE_NAME_MAX)
    if not FEATURE_NAME_RE.match(value):
        raise ValueError("may contain only letters, digits, underscores and hyphens")
    return value


def check_feature_version(value: str) -> str:
    check_not_blank(value)
    return check_max_length(value, FEATURE_VERSION_MAX)


def check_max_version(value: str) -> str:
    if not MAX_VERSION_RE.match(value):
        raise ValueError("must look like YYYY.MM, YYYY.MMDD or YYYY.MM.DD (e.g. 2023.10.15)")
    return value


def check_version_format(value: str) -> str:
    return check_choice(value, VERSION_FORMATS)


def check_aggregation_type(value: str) -> str:
    return check_choice(value, AGGREGATION_TYPES)


def check_part_number(value: str) -> str:
    if not value:
        raise ValueError("is required")
    check_max_length(value, PART_NUMBER_MAX)
    if not PART_NUMBER_RE.match(value):
        raise ValueError("may contain only letters, digits, spaces and _ - . (and not only spaces)")
    return value


def check_unique(values: Sequence[str], what: str = "value") -> None:
    """Raise FieldProblem("[i]", …) at the first repeat in `values`."""
    seen: set[str] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise FieldProblem(f"[{i}]", f"{what} {value!r} is given twice")
        seen.add(value)


# -- users and accounts -------------------------------------------------------------------

CREATABLE_ACCOUNT_TYPES = ("CUSTOMER", "PUBLISHER", "CHANNEL_PARTNER")
# The accounts list's documented accountType values (https://fnoapi.redocly.app/apis/rest/user-accounts/user-account-service/account/getaccountsbyfilterandpagination.md):
# UNKNOWN is not among them, so "every type" never sends it.
LISTED_ACCOUNT_TYPES = ("CUSTOMER", "PUBLISHER", "CHANNEL_PARTNER", "SELF_REGISTERED")
DEFAULT_ACCOUNT_TYPES = ("CUSTOMER",)
USER_ACCOUNT_TYPES = ("HOME", "PUBLISHER", "CUSTOMER", "SELF_REGISTERED", "CHANNEL_PARTNER", "UNKNOWN")
USER_STATUSES = ("Active", "Inactive")
USER_SORT_KEYS = ("displayName", "email", "status")
ACCOUNT_SORT_KEYS = ("accountId", "accountName", "accountType", "createdOn")
ADDRESS_MAX = 255
COUNTRY_RE = re.compile(r"^[A-Za-z]{2}$")
TIMEZONE_RE = re.compile(r"^GMT[+-](\d{1,2})(\.\d{1,2})?(DST[01])?$", re.ASCII)
LOCALE_RE = re.compile(r"^[a-z]{2}(_[A-Z]{2})?$")
PHONE_MAX = 64


def check_account_type(value: str) -> str:
    """A type an account may be created with (SELF_REGISTERED accounts are made by registration only)."""
    if value.strip().upper() == "SELF_REGISTERED":
        raise ValueError("SELF_REGISTERED accounts cannot be created: they come from self-registration")
    return check_choice(value, CREATABLE_ACCOUNT_TYPES)


def check_country(value: str) -> str:
    if not COUNTRY_RE.match(value):
        raise ValueError(f"must be a two-letter country code such as US (got {value!r})")
    return value.upper()


def check_timezone(value: str) -> str:
    match = TIMEZONE_RE.match(value)
    if not match or int(match.group(1)) > 14:
        raise ValueError(f"must look like GMT-6.0DST0 (GMT, a sign, hours, optional .fraction and DST0/DST1; got {value!r})")
    return value


def check_locale(value: str) -> str:
    if not LOCALE_RE.match(value):
        raise ValueError(f"must look like en_US (got {value!r})")
    return value


def check_phone(value: str) -> str:
    """A phone or fax number: no documented pattern (postuser.md gives none), so any printable text of at most 64
    characters that holds a digit ("+1 555 010 ext. 7", "Tel. 030/1234-5"); "call me" is a note, not a number."""
    check_max_length(value, PHONE_MAX)
    if not value.isprintable():
        raise ValueError("must be one line of printable characters")
    if not any("0" <= ch <= "9" for ch in value):
        raise ValueError("must hold the number's digits")
    return value


def check_user_status(value: str) -> str:
    return check_choice(value, USER_STATUSES)


def check_user_name(user_name: str | None, email: str, portal_login: bool) -> str:
    """userName must equal the e-mail address; it is required for users who may log in.

    Returns the user name to use (the e-mail when none is given and none is required).
    """
    if user_name is None or user_name == "":
        if portal_login:
            raise ValueError("is required when portalLogin is true (use the e-mail address)")
        return email
    if user_name.strip().lower() != email.strip().lower():
        raise ValueError(f"must equal the e-mail address {email!r}")
    return user_name.strip()


# -- pydantic types for the client models --------------------------------------------------

IdText = Annotated[str, AfterValidator(check_id)]
DateText = Annotated[str, AfterValidator(check_date)]
NonBlank = Annotated[str, AfterValidator(check_not_blank)]
NameText = Annotated[str, AfterValidator(check_name)]
VersionText = Annotated[str, AfterValidator(check_version)]
EmailText = Annotated[str, AfterValidator(check_email)]
PartNumberText = Annotated[str, AfterValidator(check_part_number)]
FeatureNameText = Annotated[str, AfterValidator(check_feature_name)]


# -- list parameters ------------------------------------------------------------------------

# Page numbers as screens and callers count them (from 1); `listing.Listing` maps them to the wire.
FIRST_PAGE = 1
DEFAULT_LIMIT = 20
MAX_LIMIT = 500


def check_page(value: int) -> int:
    return check_int_range(value, FIRST_PAGE)


def check_limit(value: int) -> int:
    return check_int_range(value, 1, MAX_LIMIT)


def check_sort_order(value: str) -> str:
    return check_choice(value, SORT_ORDERS)


def read_since_param(query: Any, name: str) -> int | None:
    """A YYYY-MM-DD date or an ISO 8601 time as epoch milliseconds (UTC), for "on or after" filters."""
    from datetime import datetime

    raw = query.get(name)
    if raw is None or raw == "":
        return None
    try:
        if DATE_RE.match(raw):
            day = parse_ymd(raw)
            moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
        else:
            moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
    except ValueError:
        raise FieldProblem(name, f"must be a date YYYY-MM-DD or an ISO 8601 time (got {raw!r})") from None
    return int(moment.timestamp() * 1000)
