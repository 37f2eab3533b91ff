"""The rules the simulated services enforce, written from the seeds and the vendor docs.

The simulator stands in for the real services, so it keeps its own copy of
their rules instead of importing the client's: when the two disagree, the
simulator shows the client's mistake instead of sharing it. Each rule says
where it comes from (seed 000/001/002, notes §n); a rule neither source gives
is marked "(simulator's choice)" and explained.

Conventions
- A field rule is a function `value -> value` that returns the value as the
  service stores it (e.g. `NEW_ORDER` for `new_order`) or raises `ValueError`
  with a message that does not repeat the field: the caller knows the field.
- A rule about several fields raises `FieldProblem(path, message)` with a
  path relative to the object it checks; `Body` joins it to the object's path,
  so every 400 names the field by its path in the request body
  (`lineItems[0].product[0].productName`), as Spring's field errors do.
- Enums: the docs spell some in lower case (`new_order`, `draft`) and show
  examples in upper case (`NEW_ORDER`). By default the services accept any
  case; under the `strict-enums` dialect only the documented spelling
  (`Choice.read(value, strict=True)`). See `ENUM_CHOICES` below for each.

Custom attributes and license technologies are the tenant's, not rules: the
world defines them (`World.attribute_definitions`,
`World.license_technologies`) and the checks here take them as arguments.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flextui.sim.timefmt import parse_moment_ms, parse_ymd

INT32_MAX = 2**31 - 1

# == the access token service (seed 000, notes §1) ============================================

TOKEN_NAME_MIN, TOKEN_NAME_MAX = 5, 25
TOKEN_NAME_FORBIDDEN = frozenset("*<>+$?.^|%]")  # notes §1.3
TOKEN_TYPES = ("NORMAL", "IMPERSONATED")
TOKEN_DESCRIPTION_MAX = 2000  # (simulator's choice: a column limit like the beta APIs' descriptions)


def token_name_problem(name: Any) -> str | None:
    """Why `name` cannot be a token name (notes §1.3), or None when it can."""
    if not isinstance(name, str) or not name:
        return "tokenName is required"
    if not TOKEN_NAME_MIN <= len(name) <= TOKEN_NAME_MAX:
        return f"tokenName must be {TOKEN_NAME_MIN} to {TOKEN_NAME_MAX} characters (got {len(name)})"
    forbidden = sorted(TOKEN_NAME_FORBIDDEN.intersection(name))
    if forbidden:
        return "tokenName must not contain " + " ".join(forbidden)
    if "\\" * 4 in name:
        return "tokenName must not contain four consecutive backslashes"
    if re.search(r"<[^>]*>|&[#\w]+;", name):
        return "tokenName must not contain HTML"
    if not name.isprintable():
        return "tokenName must not contain control characters"
    return None


# -- intervals: expiryStr and the search's expiresBefore/expiresLaterThan/issuedBefore ----------

INTERVAL_UNITS = "yMdhm"  # years, months, days, hours, minutes: case sensitive (M months, m minutes)
INTERVAL_MAX_YEARS = 1000  # (simulator's choice: later dates do not fit a Java calendar sensibly)
_INTERVAL_PART = re.compile(r"\s*([0-9]{1,9})\s*([yMdhm])\s*")  # ASCII digits; "3y 4M 3d" as the UI writes it


@dataclass(frozen=True)
class Lifetime:
    """A token lifetime in calendar units: `1y2M` is one year and two calendar months."""

    years: int = 0
    months: int = 0
    days: int = 0
    hours: int = 0
    minutes: int = 0

    def end_ms(self, start_ms: int) -> int:
        """The moment this lifetime after `start_ms` (a month end clamps: Jan 31 + 1M = Feb 28/29)."""
        whole, millis = divmod(int(start_ms), 1000)
        start = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(seconds=whole)
        month_index = start.month - 1 + self.months + 12 * self.years
        year, month = start.year + month_index // 12, month_index % 12 + 1
        if not 1 <= year <= 9999:
            raise ValueError(f"{start:%Y-%m-%d} plus the interval is beyond the calendar")
        day = min(start.day, calendar.monthrange(year, month)[1])
        end = start.replace(year=year, month=month, day=day) + timedelta(days=self.days, hours=self.hours, minutes=self.minutes)
        return (end - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(seconds=1) * 1000 + millis


def parse_lifetime(text: Any) -> Lifetime:
    """`*y *M *d *h *m` (notes §1.3): each unit at most once, largest first, at least a minute."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("an interval such as 30d or 1y2M is required")
    amounts: dict[str, int] = {}
    pos = 0
    while pos < len(text):
        match = _INTERVAL_PART.match(text, pos)
        if match is None:
            raise ValueError(
                f"cannot read {text[pos:].strip()[:10]!r}: write numbers with the units y M d h m "
                "(case sensitive: M is months, m is minutes), largest first, e.g. 1y2M3d"
            )
        number, unit = int(match.group(1)), match.group(2)
        if unit in amounts:
            raise ValueError(f"the unit {unit} is given twice")
        if any(INTERVAL_UNITS.index(unit) < INTERVAL_UNITS.index(seen) for seen in amounts):
            raise ValueError("the units must run from the largest to the smallest: y M d h m")
        amounts[unit] = number
        pos = match.end()
    life = Lifetime(*(amounts.get(u, 0) for u in INTERVAL_UNITS))
    approx_days = life.years * 366 + life.months * 31 + life.days + life.hours / 24 + life.minutes / 1440
    if approx_days == 0:
        raise ValueError("the interval must be at least 1 minute")
    if approx_days > INTERVAL_MAX_YEARS * 366:
        raise ValueError(f"the interval must be at most {INTERVAL_MAX_YEARS} years")
    return life


# == the registry (seed 001, notes §2) =========================================================

SECRET_MIN_LENGTH = 8


def secret_weaknesses(secret: str) -> list[str]:
    """The strength rules a new registry secret breaks (notes §2.10), each phrased "at least …".

    Letters and digits are the ASCII classes: the vendor's rule reads like a regex.
    """
    broken = []
    if len(secret) < SECRET_MIN_LENGTH:
        broken.append(f"at least {SECRET_MIN_LENGTH} characters (it has {len(secret)})")
    for label, low, high in (("uppercase letter", "A", "Z"), ("lowercase letter", "a", "z"), ("digit", "0", "9")):
        if not any(low <= ch <= high for ch in secret):
            broken.append(f"at least one {label}")
    return broken


# == the beta APIs (seed 002, notes §4) ========================================================


class FieldProblem(ValueError):
    """A broken rule and the request field (path) it is about."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def join_path(base: str, field: str) -> str:
    """`join_path("lineItems[0]", "startDate")` is `lineItems[0].startDate`; `[1]` joins without a dot."""
    if not base or not field:
        return base or field
    return base + field if field.startswith("[") else f"{base}.{field}"


_KIND_NAMES = {str: "a string", bool: "true or false", int: "a whole number", list: "an array", dict: "an object"}


class Body:
    """One JSON object of a request body, read field by field the way the service binds it.

    Every problem is a `FieldProblem` naming the field by its full path; the
    JSON types are strict (a number is not a string, `"true"` is not a boolean).
    """

    def __init__(self, obj: Any, path: str = "") -> None:
        if not isinstance(obj, dict):
            raise FieldProblem(path, "must be a JSON object")
        self.obj: dict[str, Any] = obj
        self.path = path

    def at(self, key: str) -> str:
        return join_path(self.path, key)

    def has(self, key: str) -> bool:
        return self.obj.get(key) is not None

    def problem(self, key: str, message: str) -> FieldProblem:
        return FieldProblem(self.at(key), message)

    def apply(self, key: str, value: Any, rule: Callable[[Any], Any]) -> Any:
        """`rule(value)`, its ValueError reported on `key` (a FieldProblem's path joined below it)."""
        try:
            return rule(value)
        except FieldProblem as exc:
            raise FieldProblem(join_path(self.at(key), exc.field), exc.message) from None
        except ValueError as exc:
            raise self.problem(key, str(exc)) from None

    def _raw(self, key: str, kind: type, required: bool) -> Any:
        value = self.obj.get(key)
        if value is None:
            if required:
                raise self.problem(key, "is required")
            return None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.problem(key, f"must be {_KIND_NAMES[kind]}")
        return value

    def text(self, key: str, *, required: bool = False, rule: Callable[[str], Any] | None = None, blank_is_none: bool = False) -> Any:
        """A string field; `blank_is_none` reads "" as absent; required fields must not be only whitespace."""
        value = self._raw(key, str, required)
        if value == "" and blank_is_none:
            value = None
        if value is None:
            if required:
                raise self.problem(key, "is required")
            return None
        if required and not value.strip():
            raise self.problem(key, "is required (not only whitespace)")
        return self.apply(key, value, rule) if rule else value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._raw(key, bool, False)
        return default if value is None else value

    def number(self, key: str, *, required: bool = False, default: int | None = None, rule: Callable[[int], int] | None = None) -> Any:
        """A whole-number field (int32 unless `rule` says otherwise)."""
        value = self._raw(key, int, required)
        if value is None:
            return default
        return self.apply(key, value, rule or int32())

    def array(self, key: str, *, required: bool = False, min_items: int = 0) -> list[Any]:
        items = self._raw(key, list, required) or []
        if len(items) < min_items:
            raise self.problem(key, f"needs at least {min_items} item{'' if min_items == 1 else 's'}")
        return items

    def object(self, key: str, *, required: bool = False) -> Body | None:
        value = self._raw(key, dict, required)
        return None if value is None else Body(value, self.at(key))

    def objects(self, key: str, *, required: bool = False, min_items: int = 0) -> list[Body]:
        return [Body(item, f"{self.at(key)}[{i}]") for i, item in enumerate(self.array(key, required=required, min_items=min_items))]

    def strings(self, key: str, *, rule: Callable[[str], Any] | None = None) -> list[Any]:
        out = []
        for i, item in enumerate(self.array(key)):
            if not isinstance(item, str):
                raise FieldProblem(f"{self.at(key)}[{i}]", "must be a string")
            out.append(self.apply(f"{key}[{i}]", item, rule) if rule else item)
        return out


# -- generic field rules ----------------------------------------------------------------------


def int32(minimum: int | None = None) -> Callable[[int], int]:
    """A rule: a whole number from `minimum` to the int32 maximum the OpenAPI declares."""

    def rule(value: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("must be a whole number")
        if minimum is not None and value < minimum:
            raise ValueError(f"must be at least {minimum} (got {value})")
        if value > INT32_MAX:
            raise ValueError(f"must be at most {INT32_MAX} (got {value})")
        return value

    return rule


def not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or only whitespace")
    return value


def at_most(limit: int) -> Callable[[str], str]:
    """A rule: at most `limit` characters."""

    def rule(value: str) -> str:
        if len(value) > limit:
            raise ValueError(f"must be at most {limit} characters (it has {len(value)})")
        return value

    return rule


def ymd_date(value: str) -> str:
    """A YYYY-MM-DD day of the calendar (seed 002: "four digits, two, two")."""
    parse_ymd(value)
    return value


def not_before(start: str | None) -> Callable[[str | None], str | None]:
    """A rule for an end date (both already YYYY-MM-DD): not before `start`."""

    def rule(end: str | None) -> str | None:
        if start and end and parse_ymd(end) < parse_ymd(start):
            raise ValueError(f"must not be before the start date ({start})")
        return end

    return rule


def email(value: str) -> str:
    if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s.]+", value.strip()):
        raise ValueError(f"must be an e-mail address (got {value!r})")
    return value.strip()


@dataclass(frozen=True)
class Choice:
    """A documented enum: `documented` spellings, and the spelling the service stores."""

    documented: tuple[str, ...]
    store: Callable[[str], str] = str.upper
    aliases: tuple[tuple[str, str], ...] = ()  # documented spelling → what it means (obsoleted → obsolete)

    def read(self, value: str, *, strict: bool = False) -> str:
        """The stored spelling of `value`: any case by default, only a documented spelling when strict."""
        found = next((d for d in self.documented if (d == value if strict else d.lower() == value.strip().lower())), None)
        if found is None:
            how = " (exactly as documented)" if strict else ""
            raise ValueError(f"must be one of {', '.join(self.documented)}{how} (got {value!r})")
        return self.store(dict(self.aliases).get(found, found))

    def rule(self, strict: bool = False) -> Callable[[str], str]:
        return lambda value: self.read(value, strict=strict)


def _keep(value: str) -> str:
    return value


# Every enum of the beta APIs, in the spelling the docs give (seed 002, notes §4 and §6).
# Under strict-enums only these spellings pass; by default any case does.
ORDER_TYPE = Choice(("new_order", "renewal_order", "upgrade_order", "upsell_order", "invalid_order"))  # lower case in the docs
DEFAULT_ORDER_TYPE = "NEW_ORDER"  # "default NEW_ORDER" (seed 002)
ENTITLEMENT_STATUS = Choice(("draft", "deployed", "obsolete"))  # create body `status` (seed 002)
LINE_ITEM_STATUS = Choice(("draft", "deployed", "obsolete"))  # `lineItemStatus`, and the line-item list filter
ENTITLEMENT_STATUS_FILTER = Choice(
    ("draft", "deployed", "obsolete", "active", "inactive", "obsoleted"), aliases=(("obsoleted", "obsolete"),)
)
# The line-item list filter by default also takes the entitlement filter's states (the seeded items have them).
LINE_ITEM_STATUS_FILTER_LENIENT = ENTITLEMENT_STATUS_FILTER
ACCOUNT_TYPE = Choice(("PUBLISHER", "CUSTOMER", "CHANNEL_PARTNER", "SELF_REGISTERED", "UNKNOWN"))  # entitlement accounts[]
PARTNER_TIER = Choice(("END_CUSTOMER", "PARTNER_TIER_ONE"))
# "Valid types are Days, Weeks, Months, Years", sample "Days" (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/PolicyInput.md):
# stored and answered in that spelling, whatever case a lenient reading took.
POLICY_TERM_UNIT = Choice(("Days", "Weeks", "Months", "Years"), store=_keep)
ACCOUNT_LIST_TYPE = Choice(("CUSTOMER", "PUBLISHER", "CHANNEL_PARTNER", "SELF_REGISTERED"))  # GET /accounts (notes §4.3)
ACCOUNT_LIST_TYPE_LENIENT = Choice(("CUSTOMER", "PUBLISHER", "CHANNEL_PARTNER", "SELF_REGISTERED", "UNKNOWN"))
DEFAULT_ACCOUNT_LIST_TYPES = ("CUSTOMER",)  # "default ["CUSTOMER"]"
CREATABLE_ACCOUNT_TYPE = Choice(("CUSTOMER", "PUBLISHER", "CHANNEL_PARTNER"))  # SELF_REGISTERED cannot be created
USER_LIST_ACCOUNT_TYPE = Choice(("HOME", "PUBLISHER", "CUSTOMER", "SELF_REGISTERED", "CHANNEL_PARTNER", "UNKNOWN"))
USER_LIST_STATUS = Choice(("active", "inactive"), store=str.lower)
USER_STATUS = Choice(("Active", "Inactive"), store=_keep)  # POST /users
VERSION_FORMAT = Choice(("FIXED", "DATEBASED"))
AGGREGATION_TYPE = Choice(("NONE", "SUM", "MAX"))
FEATURE_STATE_FILTER = Choice(("DRAFT", "DEPLOYED"))
SUITE_STATE_FILTER = Choice(("draft", "deployed", "obsolete", "inactive"))
PRODUCT_STATE_FILTER = Choice(("DRAFT", "DEPLOYED", "OBSOLETE", "INACTIVE"))  # not documented: the products' states
UPGRADE_EMAIL_TEMPLATE = Choice(("none", "default"), store=str.lower)  # seed 002 rule 10
SORT_ORDER = Choice(("asc", "desc"), store=str.lower)

# -- entitlements (seed 002) ------------------------------------------------------------------

ID_MAX = 255
# The OpenAPI pattern `^(?!\s*$)(?!.*['"&%^()#@!~/<>`{}=|]).*$` (…/lineitem/postlineitems.md,
# …/entitlement/postentitlement.md): the seed lists the same characters, then "; unique across…" (its rule separator).
ID_FORBIDDEN = "'\"&%^()#@!~/<>`{}=|"
DESCRIPTION_MAX = 2000
SHIP_TO_MAX = 1000
DEFAULT_ACCOUNT = "UNKNOWN_ORG_UNIT"  # "when omitted the entitlement belongs to the default account"
POLICY_KINDS = ("rehosts", "returns", "repairs")


def entity_id(value: str) -> str:
    """An entitlementId or activationId: at most 255 characters, not only whitespace, none of ID_FORBIDDEN."""
    if len(value) > ID_MAX:
        raise ValueError(f"must be at most {ID_MAX} characters (it has {len(value)})")
    if not value.strip():
        raise ValueError("must not be only whitespace")
    bad = [ch for ch in ID_FORBIDDEN if ch in value]
    if bad:
        raise ValueError("must not contain " + " ".join(bad))
    return value


def ship_to_address(value: str) -> str:
    """Empty, or letters, digits, spaces, underscores and hyphens only (the OpenAPI pattern `^$|^[ a-zA-Z0-9_-]+$`)."""
    at_most(SHIP_TO_MAX)(value)
    if value and not re.fullmatch(r"[ a-zA-Z0-9_-]+", value):
        raise ValueError("may contain only letters, digits, spaces, underscores and hyphens")
    return value


def id_agrees_with_autogenerate(value: str | None, auto_generate: bool | None, key: str) -> None:
    """An entitlement or activation ID and autoGenerate: one or the other, never both, never neither.

    Seed 002: "when given, autoGenerate must be false" (reported on autoGenerate); the same backend's SOAP
    createSimpleEntitlement: "autoGenerate is true or false. If you specify false, it means you need to pass the ID
    value" (https://docs.revenera.com/fno_CURRENT/soapapi/ME-EntitlementOrderService-createSimpleEntitlement.htm):
    false with no ID is reported on the ID. autoGenerate left out (None) with no ID is generated (simulator's
    choice: the REST pages give no default).
    """
    if value and auto_generate:
        raise FieldProblem("autoGenerate", f"must be false when {key} is given")
    if not value and auto_generate is False:
        raise FieldProblem(key, "is required when autoGenerate is false: give the ID, or autoGenerate true to have one generated")


def line_item_term(start: str | None, expiry: str | None, permanent: bool) -> None:
    """A permanent line item has no expiryDate; any other needs one, not before its startDate.

    The REST pages leave expiryDate optional (a permanent item has none); the same backend's SOAP type says "If
    isPermanent is false, set term or expirationDate"
    (https://docs.revenera.com/fno_CURRENT/soapapi/CT-EntitlementOrderService-tns_expirationTermsDataType.htm), and a
    REST line item has no term.
    """
    if permanent and expiry:
        raise FieldProblem("expiryDate", "must not be given for a permanent line item (isPermanent is true)")
    if not permanent and not expiry:
        raise FieldProblem("expiryDate", "is required unless isPermanent is true")
    if start and expiry and parse_ymd(expiry) < parse_ymd(start):
        raise FieldProblem("expiryDate", f"must not be before the start date ({start})")


def status_agrees_with_auto_deploy(auto_deploy: bool, status: str | None) -> None:
    """autoDeploy deploys, so a given status other than deployed contradicts it."""
    if auto_deploy and status not in (None, "DEPLOYED"):
        raise FieldProblem("status", "must be deployed (or left out) when autoDeploy is true")


# -- custom attributes (per tenant; notes §6) ---------------------------------------------------


@dataclass(frozen=True)
class AttributeDefinition:
    """A custom attribute the tenant defined: its name, the records it belongs to, and whether it is mandatory."""

    name: str
    applies_to: str  # entitlement | line_item | account | user
    mandatory: bool = False
    description: str = ""


def attribute_names_unique(names: Sequence[str]) -> None:
    """No attribute twice in one list (names compare ignoring case, as the tenant's definitions do)."""
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name.lower() in seen:
            raise FieldProblem(f"[{i}].name", f"attribute {name!r} is given twice")
        seen.add(name.lower())


def attribute_value(value: Any) -> Any:
    """A custom attribute's value as its type wants it: text (a date as yyyy/MM/dd), a number, or a list of texts
    ("value (object)", …/maintenancelineitem/postmaintenancelineitems.md; CreateEntitlementInput's "Single Text …
    Multi-valued text … Date … Number: 12345", https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/CreateEntitlementInput.md)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float, list)):
        raise ValueError("must be a text, a number or a list of texts")
    if isinstance(value, list) and not all(isinstance(x, str) for x in value):
        raise ValueError("a multi-valued attribute is a list of texts")
    return value


def _filled(value: Any) -> bool:
    if isinstance(value, list):
        return any(_filled(x) for x in value)
    return bool(str(value).strip()) if value is not None else False


def mandatory_attributes_present(given: Mapping[str, Any], definitions: Iterable[AttributeDefinition], applies_to: str) -> None:
    """Every mandatory attribute of the tenant for `applies_to` has a non-blank value (FieldProblem `[NAME]`)."""
    present = {name.lower() for name, value in given.items() if _filled(value)}
    for definition in definitions:
        if definition.applies_to == applies_to and definition.mandatory and definition.name.lower() not in present:
            raise FieldProblem(
                f"[{definition.name}]",
                f"the mandatory custom attribute {definition.name} is missing or blank: this tenant requires it on every "
                f'{applies_to.replace("_", " ")} (e.g. {{"name": "{definition.name}", "value": "EMEA"}})',
            )


# -- products (seed 002 rules 1-10, notes §4.2) --------------------------------------------------

NAME_MAX = 255  # (simulator's choice: a column limit for catalogue names)
VERSION_MAX = 64  # the features' documented version limit, applied to every catalogue version
DEFAULT_PRODUCT_CATEGORY = "Uncategorized Products"  # rule 4
DEFAULT_HOST_TYPE = "Certificate or Trusted Host"  # rule 6
FEATURE_NAME_MAX = 30
PART_NUMBER_MAX = 200


@dataclass(frozen=True)
class LicenseTechnology:
    """A license technology the tenant has, and its generators (the first is the default, rule 3)."""

    name: str
    generators: tuple[str, ...]
    standard: bool = False  # the platform's standard technology (rules 2, 6, 9)


def catalogue_name(value: str) -> str:
    not_blank(value)
    return at_most(NAME_MAX)(value)


def catalogue_version(value: str) -> str:
    not_blank(value)
    return at_most(VERSION_MAX)(value)


def license_technology(value: str, technologies: Sequence[LicenseTechnology]) -> LicenseTechnology:
    """The tenant's technology named `value` (ignoring case); a name it does not have is refused, naming it."""
    found = next((t for t in technologies if t.name.lower() == value.strip().lower()), None)
    if found is None:
        raise ValueError(f"this tenant has no license technology {value!r}: it has {', '.join(t.name for t in technologies)}")
    return found


def license_generator(value: str, technology: LicenseTechnology) -> str:
    """One of the technology's generators (ignoring case)."""
    found = next((g for g in technology.generators if g.lower() == value.strip().lower()), None)
    if found is None:
        raise ValueError(
            f"{technology.name} products use the generator {' or '.join(repr(g) for g in technology.generators)} (got {value!r})"
        )
    return found


def host_type_for(technology: LicenseTechnology, used_on_device: bool, host_type: str | None) -> str | None:
    """Rule 6: no host type, the standard technology and not used on a device → the default host type."""
    if host_type:
        return host_type
    return DEFAULT_HOST_TYPE if technology.standard and not used_on_device else None


def used_on_device_for(technology: LicenseTechnology, used_on_device: bool) -> bool:
    """Rule 9: usedOnDevice applies only to the standard technology."""
    return used_on_device and technology.standard


def feature_name(value: str) -> str:
    """0-30 characters of `[A-Za-z0-9_-]` (notes §4.2), and not empty."""
    if not value:
        raise ValueError("is required")
    at_most(FEATURE_NAME_MAX)(value)
    if not re.fullmatch(r"[A-Za-z0-9_-]+", value):
        raise ValueError("may contain only letters, digits, underscores and hyphens")
    return value


def max_version(value: str) -> str:
    """The documented pattern `^\\d{4}\\.(\\d{2}(\\d{2}|\\.?\\d{2})?)$` (e.g. 2023.10.15)."""
    if not re.fullmatch(r"\d{4}\.(\d{2}(\d{2}|\.?\d{2})?)", value, re.ASCII):
        raise ValueError("must look like YYYY.MM, YYYY.MMDD or YYYY.MM.DD (e.g. 2023.10.15)")
    return value


def part_number(value: str) -> str:
    """0-200 characters matching `^(?=.*[A-Za-z0-9_\\-.])[ A-Za-z0-9_\\-.]+$` (notes §4.2), and not empty."""
    if not value:
        raise ValueError("is required")
    at_most(PART_NUMBER_MAX)(value)
    if not re.fullmatch(r"(?=.*[A-Za-z0-9_\-.])[ A-Za-z0-9_\-.]+", value):
        raise ValueError("may contain only letters, digits, spaces and _ - . (and not only spaces)")
    return value


def no_repeats(values: Sequence[str], what: str) -> None:
    """FieldProblem `[i]` at the first value given twice."""
    seen: set[str] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise FieldProblem(f"[{i}]", f"{what} {value!r} is given twice")
        seen.add(value)


# -- users and accounts (notes §4.3) ------------------------------------------------------------

ADDRESS_MAX = 255  # (simulator's choice: a column limit)


def country_code(value: str) -> str:
    """ "country (two-letter)" (notes §4.3); stored in upper case."""
    if not re.fullmatch(r"[A-Za-z]{2}", value):
        raise ValueError(f"must be a two-letter country code such as US (got {value!r})")
    return value.upper()


def user_timezone(value: str) -> str:
    """The documented `GMT-6.0DST0` form: GMT, a sign, hours (at most 14), an optional fraction, optional DST0/DST1."""
    match = re.fullmatch(r"GMT[+-](\d{1,2})(\.\d{1,2})?(DST[01])?", value, re.ASCII)
    if match is None or int(match.group(1)) > 14:
        raise ValueError(f"must look like GMT-6.0DST0 (got {value!r})")
    return value


def user_locale(value: str) -> str:
    """A Java locale like the documented "en_US"."""
    if not re.fullmatch(r"[a-z]{2}(_[A-Z]{2})?", value):
        raise ValueError(f"must look like en_US (got {value!r})")
    return value


def user_name_for(user_name: str | None, email_address: str, portal_login: bool) -> str:
    """userName "must equal the email; required if canLogin" (notes §4.3); else the e-mail is the user name."""
    if not user_name:
        if portal_login:
            raise ValueError("is required when portalLogin is true (use the e-mail address)")
        return email_address
    if user_name.strip().lower() != email_address.strip().lower():
        raise ValueError(f"must equal the e-mail address {email_address!r}")
    return user_name.strip()


# -- query parameters of the beta lists -----------------------------------------------------------


def read_sort(query: Mapping[str, str], keys: Sequence[str], default: str, *, strict: bool = False) -> tuple[str, bool]:
    """(sort_by, descending) from `sort_by` (one of `keys`) and `sort_order` (asc | desc)."""
    sort_by = query.get("sort_by") or default
    if query.get("sort_by") and sort_by not in keys:
        raise FieldProblem("sort_by", f"must be one of {', '.join(keys)} (got {sort_by!r})")
    try:
        order = SORT_ORDER.read(query.get("sort_order") or "asc", strict=strict)
    except ValueError as exc:
        raise FieldProblem("sort_order", str(exc)) from None
    return sort_by, order == "desc"


def query_choice(query: Mapping[str, str], name: str, rule: Callable[[str], str]) -> str | None:
    raw = query.get(name)
    if not raw:
        return None
    try:
        return rule(raw)
    except ValueError as exc:
        raise FieldProblem(name, str(exc)) from None


def query_bool(query: Mapping[str, str], name: str) -> bool | None:
    raw = query.get(name)
    if not raw:
        return None
    if raw.strip().lower() not in ("true", "false"):
        raise FieldProblem(name, f"must be true or false (got {raw!r})")
    return raw.strip().lower() == "true"


def query_since(query: Mapping[str, str], name: str) -> int | None:
    """An "on or after" filter: a YYYY-MM-DD day or an ISO 8601 time, as epoch ms (UTC)."""
    raw = query.get(name)
    if not raw:
        return None
    try:
        return parse_moment_ms(raw)
    except ValueError:
        raise FieldProblem(name, f"must be a date YYYY-MM-DD or an ISO 8601 time (got {raw!r})") from None
