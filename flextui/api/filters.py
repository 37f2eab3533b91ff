"""The data report filter model: what a report holds, and the questions one may ask it.

A support engineer builds a filter in the TUI's filter bar or on the command
line (`accountID $sw 1012`, `status $in ACTIVE,DRAFT`, `lastUpdated $btw
1734954861548,1734954874182`), and may save it under a
name. Checking it here, against the report's data model (report-types) and the
operator list (op-list), means a typo shows as an inline message naming the
field instead of a 400 after a round trip over a slow link, and the same
`FilterSet` builds both request forms: GET query parameters (with the
`query` JSON URL-encoded) and the POST body (notes §3.4–3.6).

Rules kept here (the service's, notes §3.4): pastDays 1–30; dateFrom/dateTo
`YYYY-MM-DD`, dateTo not before dateFrom and at most 30 days after it (the
vendor's pages differ on whether dateTo is included: `FilterSet`);
limitRecords 1–2500; pages from 1; mode BATCH or INTERACTIVE. Without a date
the service's default (pastDays=1) applies. The operator table defaults to
the twelve operators of the vendor's "Conditional Operators" page
(`OPERATORS_PAGE`) and is replaced by what op-list answers when the service
is asked and its answer can be read.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

MAX_PAST_DAYS = 30
MAX_RANGE_DAYS = 30
MAX_LIMIT_RECORDS = 2500
DEFAULT_LIMIT_RECORDS = 500
MODES = ("BATCH", "INTERACTIVE")
FIELD_TYPES = ("string", "integer", "number", "boolean", "date", "datetime")


class FilterError(ValueError):
    """A filter that cannot be sent; `field` names the filter or condition field it is about."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


# -- the data model -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Column:
    """One data item of a report: its name (dotted when flattened) and type."""

    name: str
    type: str = "string"
    description: str = ""


@dataclass(frozen=True, slots=True)
class ReportFilter:
    """A filter of a report group: its name, type and the column it tests."""

    name: str
    type: str = "string"
    field: str | None = None  # the column; None means the column of the same name
    operators: tuple[str, ...] = ()  # as the service listed them; empty = by type

    @property
    def column(self) -> str:
        return self.field or self.name

    @classmethod
    def from_json(cls, raw: Any) -> ReportFilter:
        """From a filter as report-types or report-filters list it: a name, or an object naming one.

        The docs describe `report-types/{group}` only as "a data array" of the
        filters (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTDAPIFilterQueryGroup.htm),
        so the name and type are read from any of the usual keys.
        """
        if isinstance(raw, str):
            return cls(raw)
        name = name_of(raw, FILTER_NAME_KEYS)
        if name is None:
            raise FilterError(f"not a report filter: {raw!r}"[:200])
        ops = raw.get("operators") or raw.get("operatorList") or ()
        column = raw.get("field") if isinstance(raw.get("field"), str) and raw.get("field") != name else None
        return cls(name, _type_name(_first_of(raw, TYPE_KEYS)), column, tuple(str(o) for o in ops if isinstance(o, (str, int))))


FILTER_NAME_KEYS = ("name", "filterName", "fieldName", "filter", "field", "id", "key")
COLUMN_NAME_KEYS = ("name", "fieldName", "columnName", "field", "id", "key")
GROUP_NAME_KEYS = ("name", "reportName", "group", "reportGroup", "groupName", "id", "key")
TYPE_KEYS = ("type", "dataType", "filterType", "fieldType")


def _first_of(raw: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    return next((raw[k] for k in keys if raw.get(k) not in (None, "")), None)


def name_of(raw: Any, keys: tuple[str, ...]) -> str | None:
    """The first non-empty string under `keys` of an object (or the string itself)."""
    if isinstance(raw, str):
        return raw or None
    if isinstance(raw, Mapping):
        value = _first_of(raw, keys)
        return value if isinstance(value, str) else None
    return None


@dataclass(frozen=True, slots=True)
class ReportType:
    """The data model of one report group: its columns and its filters."""

    group: str
    columns: tuple[Column, ...] = ()
    filters: tuple[ReportFilter, ...] = ()
    description: str = ""
    date_field: str | None = None

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)

    def filter(self, name: str) -> ReportFilter | None:
        """The filter called `name`, or one whose column is `name` (so a column name works too); failing both, the
        one filter whose name, else column, is `name` in another case (None when two are).

        The vendor spells one field two ways: its field dictionary names the account data set's `AccountID`
        (https://fnoapi.redocly.app/apis/rest/dapi/dapi-field-descriptions.md) while the group's filter is
        `accountID` (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTDAPIFilterQueryGroup.htm);
        a condition sent carries the filter's own spelling (`Condition.validate`).
        """
        found = next((f for f in self.filters if f.name == name), None)
        if found is None:
            found = next((f for f in self.filters if f.column == name), None)
        if found is None:
            folded = name.casefold()
            for by_column in (False, True):
                matches = [f for f in self.filters if (f.column if by_column else f.name).casefold() == folded]
                if matches:
                    return matches[0] if len(matches) == 1 else None
        return found

    @classmethod
    def from_json(cls, raw: Any) -> ReportType:
        """From an item of report-types (`name`, `fields` or `columns`, `filters`)."""
        if not isinstance(raw, Mapping):
            raise FilterError(f"not a report type: {raw!r}"[:200])
        group = name_of(raw, GROUP_NAME_KEYS)
        if group is None:
            raise FilterError("a report type without a name")
        fields = raw.get("fields") or raw.get("columns") or []
        columns = tuple(
            Column(
                name,
                _type_name(_first_of(f, TYPE_KEYS) if isinstance(f, Mapping) else None),
                str(f.get("description") or "") if isinstance(f, Mapping) else "",
            )
            for f in fields
            if (name := name_of(f, COLUMN_NAME_KEYS)) is not None
        )
        filters = tuple(ReportFilter.from_json(f) for f in raw.get("filters") or [] if name_of(f, FILTER_NAME_KEYS) is not None)
        # A filter without a stated type takes its column's type.
        types = {c.name: c.type for c in columns}
        filters = tuple(f if f.type != "string" or f.column not in types else replace(f, type=types[f.column]) for f in filters)
        return cls(group, columns, filters, str(raw.get("description") or ""), raw.get("dateField"))


def _type_name(raw: Any) -> str:
    text = str(raw or "string").strip().lower()
    aliases = {
        "str": "string",
        "text": "string",
        "int": "integer",
        "long": "integer",
        "float": "number",
        "double": "number",
        "decimal": "number",
        "bool": "boolean",
        "timestamp": "datetime",
        "date-time": "datetime",
    }
    text = aliases.get(text, text)
    return text if text in FIELD_TYPES else "string"


# -- operators ------------------------------------------------------------------

OPERATORS_PAGE = "https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTDAPIFilterQueryConditions.htm"
"""The vendor's "Conditional Operators" page: the operators, their notation and the form of each one's value."""

LIST_OPERATORS = frozenset({"$in", "$nin", "$btw"})
"""Operators whose value is a JSON array (OPERATORS_PAGE): `$in` and `$nin` any number of values, `$btw` two."""
PAIR_OPERATORS = frozenset({"$btw"})
"""`$btw`: "Between (inclusive of both bounds)", exactly a lower and an upper value."""
RANGE_OPERATORS = frozenset({"$gt", "$gte", "$lt", "$lte", "$btw"})
"""The comparisons. On a text field the vendor's examples write a whole number as a JSON number
(`{"accountID" : {"$gt" : 101202692754}}`), so a whole number typed for one is sent so; other text as text."""
LOGICAL_OPERATORS = frozenset({"$and", "$or"})
"""`$and`/`$or` join clauses (each an object of conditions) rather than testing a field: flextui's conditions are
top-level keys, which the service ANDs already; an `$or` group is not built (see `Condition.validate`)."""


@dataclass(frozen=True, slots=True)
class Operator:
    """A conditional operator and the field types it applies to."""

    name: str
    types: frozenset[str]
    description: str = ""

    @property
    def takes_list(self) -> bool:
        """The value is a JSON array: `$in`, `$nin` (any number of values), `$btw` (two)."""
        return self.name in LIST_OPERATORS

    def applies_to(self, field_type: str) -> bool:
        return field_type in self.types


_NOT_BOOLEAN = frozenset(FIELD_TYPES) - {"boolean"}

DEFAULT_OPERATORS: tuple[Operator, ...] = (
    Operator("$eq", frozenset(FIELD_TYPES), "equals"),
    Operator("$ne", frozenset(FIELD_TYPES), "does not equal"),
    Operator("$sw", frozenset({"string"}), "starts with"),
    Operator("$ew", frozenset({"string"}), "ends with"),
    Operator("$con", frozenset({"string"}), "contains"),
    Operator("$in", _NOT_BOOLEAN, "equals one of a list"),
    Operator("$nin", _NOT_BOOLEAN, "equals none of a list"),
    Operator("$gt", _NOT_BOOLEAN, "greater than"),
    Operator("$gte", _NOT_BOOLEAN, "greater than or equal to"),
    Operator("$lt", _NOT_BOOLEAN, "less than"),
    Operator("$lte", _NOT_BOOLEAN, "less than or equal to"),
    Operator("$btw", _NOT_BOOLEAN, "between two values, both included"),
)
"""The operators of OPERATORS_PAGE, in its order (the older version of the page lists the first five of `$eq $sw $ew
$con $in` only): what is checked against when op-list is not asked (no conditions), fails or cannot be read."""

KNOWN_OPERATORS = frozenset(o.name for o in DEFAULT_OPERATORS) | LOGICAL_OPERATORS

# What people type in a condition, and the operator it means.
OPERATOR_ALIASES: dict[str, str] = {
    "=": "$eq",
    "==": "$eq",
    "eq": "$eq",
    "is": "$eq",
    "!=": "$ne",
    "<>": "$ne",
    "ne": "$ne",
    "in": "$in",
    "nin": "$nin",
    "notin": "$nin",
    "sw": "$sw",
    "startswith": "$sw",
    "^=": "$sw",
    "ew": "$ew",
    "endswith": "$ew",
    "$=": "$ew",
    "con": "$con",
    "contains": "$con",
    "~": "$con",
    "*=": "$con",
    ">": "$gt",
    "gt": "$gt",
    ">=": "$gte",
    "gte": "$gte",
    "ge": "$gte",
    "<": "$lt",
    "lt": "$lt",
    "<=": "$lte",
    "lte": "$lte",
    "le": "$lte",
    "btw": "$btw",
    "between": "$btw",
}

OPERATOR_NAME_KEYS = ("operatorNotation", "notation", "symbol", "operator", "op", "operatorName", "name", "key", "id")
"""Where an op-list item may name its operator: the body of op-list is not documented, and the vendor's page heads
its column "Operator Notation"; the first of these that reads as an operator (`$eq`, or `eq`) is taken."""
OPERATOR_TYPE_KEYS = ("types", "dataTypes", "fieldTypes", "appliesTo")
OPERATOR_LIST_KEYS = ("data", "operators", "operatorList", "opList", "items")


def _operator_name(raw: Any) -> str | None:
    """`raw` as an operator's name: `$…` as given, or a known name without its `$` (`eq`, `NIN`); else None."""
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if len(text) > 1 and text.startswith("$"):
        return text
    dollar = "$" + text.lower()
    return dollar if dollar in KNOWN_OPERATORS else None


def _operator_entries(raw: Any) -> list[tuple[Any, Any]] | None:
    """op-list's entries as (item, value) pairs: a list's items (value None), or a map's names and what each maps to."""
    body = raw
    if isinstance(raw, Mapping):
        body = next((raw[k] for k in OPERATOR_LIST_KEYS if k in raw), raw)
    if isinstance(body, list):
        return [(item, None) for item in body]
    if isinstance(body, Mapping):
        return list(body.items())
    return None


@dataclass(frozen=True, slots=True)
class OperatorList:
    """The operators a service supports (op-list), by name; `notice` says why the defaults stand in, when they do."""

    operators: tuple[Operator, ...] = DEFAULT_OPERATORS
    notice: str = ""

    def get(self, name: str) -> Operator | None:
        return next((o for o in self.operators if o.name == name), None)

    @property
    def names(self) -> list[str]:
        return [o.name for o in self.operators]

    def for_type(self, field_type: str) -> list[Operator]:
        return [o for o in self.operators if o.applies_to(field_type)]

    @classmethod
    def defaults(cls, why: str) -> OperatorList:
        """The documented operators, standing in for an op-list that failed or could not be read (`why`)."""
        names = " ".join(o.name for o in DEFAULT_OPERATORS)
        return cls(DEFAULT_OPERATORS, f"{why}; conditions are checked against the documented operators instead ({names})")

    @classmethod
    def from_json(cls, raw: Any) -> OperatorList:
        """From op-list, whose body is not documented: a list (bare or under `data`) of names or of objects naming one
        (`operatorNotation`, `symbol`, `notation`, `operator`, `name`, …, with `types` and `description` when given), or
        a map of names to descriptions (or to such objects). FilterError when no operator can be read in it (the
        caller stands the defaults in; an answer that cannot be read is never cached).
        """
        entries = _operator_entries(raw)
        if entries is None:
            raise FilterError("the operator list (op-list) holds no list or map of operators")
        defaults = {o.name: o for o in DEFAULT_OPERATORS}
        ops: dict[str, Operator] = {}
        for item, mapped in entries:
            details: Any = None
            if mapped is None and isinstance(item, Mapping):
                name = next((n for k in OPERATOR_NAME_KEYS if (n := _operator_name(item.get(k))) is not None), None)
                details = item
            elif mapped is None:
                name, details = _operator_name(item), None
            else:  # a map: name → description (or → details), or, read the other way, description → name
                name = _operator_name(item)
                if name is None and isinstance(mapped, str):
                    name, mapped = _operator_name(mapped), item
                details = mapped if isinstance(mapped, Mapping) else {"description": mapped}
            if name is None or name in LOGICAL_OPERATORS or name in ops:
                continue
            types = _first_of(details, OPERATOR_TYPE_KEYS) if isinstance(details, Mapping) else None
            if isinstance(types, list) and types:
                type_set = frozenset(_type_name(t) for t in types)
            else:
                type_set = defaults[name].types if name in defaults else frozenset(FIELD_TYPES)
            desc = details.get("description") if isinstance(details, Mapping) else None
            text = desc if isinstance(desc, str) and desc else (defaults[name].description if name in defaults else "")
            ops[name] = Operator(name, type_set, text)
        if not ops:
            raise FilterError("the operator list (op-list) names no operator flextui can read")
        return cls(tuple(ops.values()))


@dataclass(frozen=True, slots=True)
class GlobalFilter:
    """A filter every report takes (pastDays, limitRecords, …) and its bounds."""

    name: str
    type: str = "string"
    minimum: int | None = None
    maximum: int | None = None
    default: Any = None
    values: tuple[str, ...] = ()
    description: str = ""

    @classmethod
    def from_json(cls, raw: Any) -> GlobalFilter:
        if isinstance(raw, str):
            return cls(raw)
        if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str):
            raise FilterError(f"not a global filter: {raw!r}")
        return cls(
            raw["name"],
            str(raw.get("type") or "string"),
            raw.get("minimum"),
            raw.get("maximum"),
            raw.get("default"),
            tuple(str(v) for v in raw.get("values") or ()),
            str(raw.get("description") or ""),
        )


# -- values ---------------------------------------------------------------------

_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_EPOCH_MS_RE = re.compile(r"\d{10,}")
"""Epoch milliseconds as typed: ten digits or more (an eight-digit `YYYYMMDD` stays a date, as it was read before)."""
DATETIME_FORMS = "a date YYYY-MM-DD, a date-time YYYY-MM-DD HH:MM:SS[.fff] or YYYY-MM-DDTHH:MM:SSZ, or epoch milliseconds"


def _datetime_value(value: Any, name: str) -> Any:
    """A date-time field's value, sent as given: epoch milliseconds as a JSON number, text as typed.

    The vendor's examples (OPERATORS_PAGE) write one as `"2025-03-31 08:50:54.783"` and, on another field, as
    epoch milliseconds `1734954861548`; a day `YYYY-MM-DD` and an ISO date-time (`…T…Z`) were read before and
    still are.
    """
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise FilterError(f"{name}: expected {DATETIME_FORMS} (got {value!r})", name)
        return value
    text = str(value).strip()
    if _EPOCH_MS_RE.fullmatch(text):
        return int(text)
    if _DATE_RE.fullmatch(text):
        return parse_date(text, name).isoformat()
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise FilterError(f"{name}: expected {DATETIME_FORMS} (got {value!r})", name) from None
    return text


def instant_ms(value: Any) -> int | None:
    """A date or date-time value (as `parse_value` gives it) in epoch ms, to compare two bounds; None if unreadable.
    A day is its midnight, a date-time without a zone is taken as UTC (the service's clock, notes §3.4)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, str):
        return None
    try:
        at = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return int(at.timestamp() * 1000)


def parse_date(text: Any, name: str = "date") -> date:
    """A YYYY-MM-DD day (or a date already), else FilterError naming `name`."""
    if isinstance(text, datetime):
        return text.date()
    if isinstance(text, date):
        return text
    if isinstance(text, str) and _DATE_RE.fullmatch(text.strip()):
        try:
            return date.fromisoformat(text.strip())
        except ValueError:
            pass
    raise FilterError(f"{name} must be a date YYYY-MM-DD (got {text!r})", name)


def parse_value(field_type: str, value: Any, name: str = "value") -> Any:
    """`value` (typed or text) as a JSON value of `field_type`; FilterError naming `name` if it does not fit."""
    if field_type == "string":
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise FilterError(f"{name}: expected text (got {value!r})", name)
        return str(value)
    if field_type == "integer":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
            return int(value)
        raise FilterError(f"{name}: expected a whole number (got {value!r})", name)
    if field_type == "number":
        try:
            if isinstance(value, bool):
                raise ValueError
            number = float(value)
        except (TypeError, ValueError):
            raise FilterError(f"{name}: expected a number (got {value!r})", name) from None
        if not math.isfinite(number):
            raise FilterError(f"{name}: expected a finite number (got {value!r})", name)
        return value if isinstance(value, int) else number
    if field_type == "boolean":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "y", "1", "on"):
            return True
        if text in ("false", "no", "n", "0", "off"):
            return False
        raise FilterError(f"{name}: expected true or false (got {value!r})", name)
    if field_type == "date":
        return parse_date(value, name).isoformat()
    if field_type == "datetime":
        return _datetime_value(value, name)
    raise FilterError(f"{name}: unknown field type {field_type!r}", name)


def split_list(text: str) -> list[str]:
    """ "a,b, c" → ["a", "b", "c"]; quotes keep commas: 'a,"b,c"' → ["a", "b,c"]."""
    if not text.strip():
        return []
    row = next(csv.reader([text], skipinitialspace=True))
    return [item.strip() for item in row]


# -- conditions -----------------------------------------------------------------

_CONDITION_RE = re.compile(
    r"""^\s*(?P<field>[A-Za-z_][\w.\-]*)
        (?:\s*(?P<sym>==|!=|<>|>=|<=|=|>|<|\^=|\$=|\*=|~)|\s+(?P<word>\$?[A-Za-z]+)(?=\s|$))
        \s*(?P<value>.*?)\s*$""",
    re.VERBOSE | re.DOTALL,
)


_WHOLE_RE = re.compile(r"-?(?:0|[1-9]\d*)")


def plural_values(count: int) -> str:
    return f"{count} value" if count == 1 else f"{count} values"


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _pair_example(field_type: str) -> str:
    return {
        "datetime": "2025-03-31 08:50:54.783,2025-04-01 08:50:54.783 or 1734954861548,1734954874182",
        "date": "2025-03-31,2025-04-01",
        "integer": "10,20",
        "number": "1.5,2.5",
    }.get(field_type, "A,M")


def _bound(field_type: str, value: Any) -> Any:
    """A `$btw` bound as something to order by (None: not comparable here, the server decides)."""
    if field_type in ("date", "datetime"):
        return instant_ms(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition of a report query: `field op value` (value is a list for $in, $nin and $btw)."""

    field: str
    op: str
    value: Any

    def __post_init__(self) -> None:
        if isinstance(self.value, list):  # lists become tuples: conditions stay hashable
            object.__setattr__(self, "value", tuple(self.value))

    @classmethod
    def parse(cls, text: str) -> Condition:
        """From the CLI form: `accountID $sw 1012`, `status $in ACTIVE,DRAFT`, `accountName = "Acme Robotics"`,
        `lastUpdated $btw 2025-03-31 08:50:54.783,2025-04-01 08:50:54.783`, `quantity >= 5`."""
        match = _CONDITION_RE.match(text)
        if not match:
            raise FilterError(f"cannot read condition {text!r}: use FIELD OPERATOR VALUE, e.g. accountID $sw 1012")
        fld = match["field"]
        raw_op = match["sym"] or match["word"]
        op = raw_op if raw_op.startswith("$") and len(raw_op) > 1 else OPERATOR_ALIASES.get(raw_op.lower())
        if op is None:
            known = " ".join(o.name for o in DEFAULT_OPERATORS)
            raise FilterError(f"condition {text!r}: unknown operator {raw_op!r} (use {known})", fld)
        op = op.lower()
        raw_value = match["value"]
        if op in LIST_OPERATORS:
            values = split_list(raw_value)
            if not values:
                example = "2025-03-31,2025-04-01" if op in PAIR_OPERATORS else "A,B,C"
                raise FilterError(f"condition on {fld}: {op} needs a list of values such as {example}", fld)
            return cls(fld, op, values)
        if raw_value == "":
            raise FilterError(f'condition on {fld}: {op} needs a value (quote it to ask for empty text: "")', fld)
        return cls(fld, op, _unquote(raw_value))

    def validate(self, report: ReportType | None = None, operators: OperatorList | None = None) -> Condition:
        """A copy with the value typed for the field; FilterError if the field, operator or value is wrong.

        The field is found as the report spells it or, failing that, in any case (`ReportType.filter`), and the
        copy carries the report's own spelling. `$in`/`$nin` take a list, `$btw` exactly two values, lower first
        (OPERATORS_PAGE). `$and`/`$or` are refused here with why: every condition is a top-level key of `query`,
        which the service ANDs, so `$and` adds nothing, and an `$or` group (an object of conditions of which any
        may hold) is not part of this model of a query.
        """
        operators = operators or OperatorList()
        if self.op in LOGICAL_OPERATORS:
            raise FilterError(
                f"{self.field}: {self.op} joins conditions rather than testing a field; flextui's conditions are all"
                " ANDed (one per field and operator), and an $or group is not built",
                self.field,
            )
        op = operators.get(self.op)
        if op is None:
            raise FilterError(f"{self.field}: unknown operator {self.op!r} (the operators are {', '.join(operators.names)})", self.field)
        field_type = "string"
        name = self.field
        if report is not None:
            filt = report.filter(self.field)
            if filt is None:
                names = ", ".join(f.name for f in report.filters)
                raise FilterError(f"{self.field} is not a filter of the {report.group} report (filters: {names})", self.field)
            name, field_type = filt.name, filt.type
            allowed = filt.operators or tuple(o.name for o in operators.for_type(field_type))
            if self.op not in allowed or not op.applies_to(field_type):
                raise FilterError(f"{name}: operator {self.op} does not apply to {field_type} fields (use {', '.join(allowed)})", name)
        value = self.value
        if op.takes_list:
            if isinstance(value, str):
                value = split_list(value)
            if not isinstance(value, (list, tuple)) or not value:
                raise FilterError(f"{name}: {self.op} needs a list of values such as A,B,C", name)
            if self.op in PAIR_OPERATORS and len(value) != 2:
                raise FilterError(
                    f"{name}: {self.op} needs exactly two values, the lower and the upper bound (both included), such as"
                    f" {_pair_example(field_type)} (got {plural_values(len(value))})",
                    name,
                )
            typed: Any = [self._typed(field_type, v, name) for v in value]
            if self.op in PAIR_OPERATORS:
                low, high = (_bound(field_type, v) for v in typed)
                if low is not None and high is not None and low > high:
                    raise FilterError(f"{name}: {self.op} takes the lower bound first: {typed[0]} is after {typed[1]}", name)
        else:
            if isinstance(value, (list, tuple, dict)) or value is None:
                raise FilterError(f"{name}: {self.op} needs one value (got {value!r})", name)
            typed = self._typed(field_type, value, name)
        return Condition(name, self.op, typed)

    def _typed(self, field_type: str, value: Any, name: str) -> Any:
        typed = parse_value(field_type, value, name)
        if field_type == "string" and self.op in RANGE_OPERATORS and _WHOLE_RE.fullmatch(typed):
            return int(typed)  # the vendor's form: `{"accountID" : {"$gt" : 101202692754}}`
        return typed

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "op": self.op, "value": list(self.value) if isinstance(self.value, tuple) else self.value}

    @classmethod
    def from_json(cls, raw: Any) -> Condition:
        if not isinstance(raw, Mapping) or not isinstance(raw.get("field"), str) or not isinstance(raw.get("op"), str):
            raise FilterError(f"not a condition: {raw!r}")
        return cls(raw["field"], raw["op"], raw.get("value"))

    def __str__(self) -> str:
        if isinstance(self.value, (list, tuple)):
            shown = ",".join(f'"{v}"' if "," in str(v) else str(v) for v in self.value)
        else:
            shown = str(self.value)
            if shown == "" or shown != shown.strip():
                shown = f'"{shown}"'
        return f"{self.field} {self.op} {shown}"


def parse_conditions(texts: Iterable[str]) -> tuple[Condition, ...]:
    """Conditions from CLI arguments (one condition each)."""
    return tuple(Condition.parse(t) for t in texts)


# -- filter sets ----------------------------------------------------------------


def _whole(name: str, value: Any, lo: int, hi: int | None) -> int:
    if isinstance(value, bool):
        ok = None
    elif isinstance(value, int):
        ok = value
    elif isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
        ok = int(value)
    else:
        ok = None
    if ok is None or ok < lo or (hi is not None and ok > hi):
        span = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
        raise FilterError(f"{name} must be a whole number from {span} (got {value!r})", name)
    return ok


@dataclass(frozen=True)
class FilterSet:
    """Conditions (ANDed) plus the global filters; checked on creation.

    Give `past_days` or `date_from`/`date_to`, not both. With neither, the
    service's default (the last day) applies. `mode` defaults to INTERACTIVE so
    the answer carries the counts a concurrent pager needs.

    The vendor's page on the global filters
    (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTDAPIFilterQueryGlobal.htm)
    reads two ways: its older version makes the period inclusive of both dates,
    its newer one "includes the dateFrom value but excludes the dateTo value".
    So dateTo may equal dateFrom (one day on the older reading, nothing on the
    newer: `same_day_note` says so), never precede it; and the two may be at
    most 30 days apart, the limit as both versions state it, on the dates'
    difference.
    """

    conditions: tuple[Condition, ...] = ()
    past_days: int | None = None
    date_from: date | None = None
    date_to: date | None = None
    limit_records: int = DEFAULT_LIMIT_RECORDS
    mode: str = "INTERACTIVE"
    name: str | None = None  # for saved sets
    group: str | None = None  # the report a saved set was made for

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "conditions", tuple(self.conditions))
        if self.past_days is not None:
            set_(self, "past_days", _whole("pastDays", self.past_days, 1, MAX_PAST_DAYS))
        if self.date_from is not None:
            set_(self, "date_from", parse_date(self.date_from, "dateFrom"))
        if self.date_to is not None:
            set_(self, "date_to", parse_date(self.date_to, "dateTo"))
        if self.past_days is not None and (self.date_from or self.date_to):
            raise FilterError("give pastDays or dateFrom/dateTo, not both", "pastDays")
        if self.date_from and self.date_to:
            days = (self.date_to - self.date_from).days
            if days < 0:
                raise FilterError(f"dateTo ({self.date_to}) must not be before dateFrom ({self.date_from})", "dateTo")
            if days > MAX_RANGE_DAYS:
                raise FilterError(
                    f"dateFrom {self.date_from} to dateTo {self.date_to} spans {days} days: the limit is {MAX_RANGE_DAYS}", "dateTo"
                )
        set_(self, "limit_records", _whole("limitRecords", self.limit_records, 1, MAX_LIMIT_RECORDS))
        mode = str(self.mode).strip().upper()
        if mode not in MODES:
            raise FilterError(f"mode must be BATCH or INTERACTIVE (got {self.mode!r})", "mode")
        set_(self, "mode", mode)

    # -- building --------------------------------------------------------------

    @classmethod
    def build(
        cls,
        conditions: Iterable[Condition | str] = (),
        *,
        past_days: int | str | None = None,
        date_from: date | str | None = None,
        date_to: date | str | None = None,
        limit_records: int | str = DEFAULT_LIMIT_RECORDS,
        mode: str = "INTERACTIVE",
        report: ReportType | None = None,
        operators: OperatorList | None = None,
        name: str | None = None,
    ) -> FilterSet:
        """A checked filter set from typed or text input (CLI, filter bar); conditions may be text."""
        conds = tuple(Condition.parse(c) if isinstance(c, str) else c for c in conditions)
        fs = cls(conds, past_days, date_from, date_to, limit_records, mode, name, report.group if report else None)  # type: ignore[arg-type]
        return fs.validate(report, operators) if report is not None or operators is not None else fs

    def validate(self, report: ReportType | None = None, operators: OperatorList | None = None) -> FilterSet:
        """A copy whose conditions are checked (and typed) against the report and the operators."""
        checked = tuple(c.validate(report, operators) for c in self.conditions)
        self._query(checked)  # duplicates are an error
        return replace(self, conditions=checked, group=report.group if report is not None else self.group)

    def with_conditions(self, conditions: Iterable[Condition]) -> FilterSet:
        return replace(self, conditions=tuple(conditions))

    # -- request forms ----------------------------------------------------------

    @staticmethod
    def _query(conditions: Sequence[Condition]) -> dict[str, dict[str, Any]]:
        query: dict[str, dict[str, Any]] = {}
        for cond in conditions:
            ops = query.setdefault(cond.field, {})
            if cond.op in ops:
                how = {"$eq": "; use $in for several values", "$ne": "; use $nin for several values"}.get(cond.op, "")
                raise FilterError(f"{cond.field}: {cond.op} is given twice{how}", cond.field)
            ops[cond.op] = list(cond.value) if isinstance(cond.value, tuple) else cond.value
        return query

    def query_json(self) -> dict[str, dict[str, Any]]:
        """The `query` filter: `{"field": {"$op": value}}`, conditions ANDed."""
        return self._query(self.conditions)

    def _range_json(self) -> dict[str, Any]:
        """The range, record limit and mode as the API and saved sets spell them."""
        out: dict[str, Any] = {}
        if self.past_days is not None:
            out["pastDays"] = self.past_days
        if self.date_from is not None:
            out["dateFrom"] = self.date_from.isoformat()
        if self.date_to is not None:
            out["dateTo"] = self.date_to.isoformat()
        out["limitRecords"] = self.limit_records
        out["mode"] = self.mode
        return out

    def global_filters(self, page: int | None = None) -> dict[str, Any]:
        """The global filters as typed values (POST form), with `pageNumber` when given."""
        out = self._range_json()
        out["format"] = "json"
        if page is not None:
            out["pageNumber"] = _whole("pageNumber", page, 1, None)
        return out

    def query_params(self, page: int | None = 1) -> dict[str, str]:
        """GET query parameters; `query` is compact JSON (httpx URL-encodes it)."""
        params = {k: str(v) for k, v in self.global_filters(page).items()}
        query = self.query_json()
        if query:
            params["query"] = json.dumps(query, separators=(",", ":"), ensure_ascii=False)
        return params

    def body(self, page: int | None = 1) -> dict[str, Any]:
        """The POST body: the global filters and `query` as an object."""
        body = self.global_filters(page)
        query = self.query_json()
        if query:
            body["query"] = query
        return body

    def cache_params(self) -> dict[str, Any]:
        """What identifies this set's answers (for cache keys): every filter, no page."""
        return {"globals": self.global_filters(), "query": self.query_json()}

    # -- saving --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.name:
            out["name"] = self.name
        if self.group:
            out["group"] = self.group
        out["conditions"] = [c.to_json() for c in self.conditions]
        out.update(self._range_json())
        return out

    @classmethod
    def from_dict(cls, raw: Any) -> FilterSet:
        if not isinstance(raw, Mapping):
            raise FilterError("a saved filter set must be a JSON object")
        known = {"name", "group", "conditions", "pastDays", "dateFrom", "dateTo", "limitRecords", "mode"}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise FilterError(f"unknown key in saved filter set: {', '.join(unknown)}", unknown[0])
        conds = raw.get("conditions") or []
        if not isinstance(conds, list):
            raise FilterError("conditions must be a list", "conditions")
        return cls(
            tuple(Condition.from_json(c) for c in conds),
            raw.get("pastDays"),
            raw.get("dateFrom"),
            raw.get("dateTo"),
            raw.get("limitRecords", DEFAULT_LIMIT_RECORDS),
            raw.get("mode", "INTERACTIVE"),
            raw.get("name"),
            raw.get("group"),
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=False)

    @classmethod
    def from_json(cls, text: str) -> FilterSet:
        try:
            raw = json.loads(text)
        except ValueError as exc:
            raise FilterError(f"a saved filter set is not valid JSON: {exc}") from None
        return cls.from_dict(raw)

    def window(self, today: date) -> tuple[date, date]:
        """The days asked for, [first, end) (UTC days), as the service counts them."""
        if self.date_from or self.date_to:
            if self.date_from is not None:
                start = self.date_from
            else:
                assert self.date_to is not None
                start = self.date_to - timedelta(days=MAX_RANGE_DAYS)
            end = self.date_to if self.date_to is not None else start + timedelta(days=MAX_RANGE_DAYS)
            return start, end
        days = self.past_days or 1
        return today - timedelta(days=days), today + timedelta(days=1)

    def same_day_note(self) -> str:
        """What to know of a window whose dateTo is its dateFrom ("" for any other window)."""
        if self.date_from is None or self.date_from != self.date_to:
            return ""
        after = self.date_to + timedelta(days=1)
        return (
            f"dateFrom and dateTo are both {self.date_from}: a server that includes dateTo (the older vendor page) returns"
            f" that day, one that excludes it (the newer page) returns nothing; dateTo {after} asks for the day on the newer"
        )

    def describe(self) -> str:
        """One line for a status bar or a saved-set list."""
        parts = [str(c) for c in self.conditions]
        if self.date_from or self.date_to:
            parts.append(f"{self.date_from or '…'}..{self.date_to or '…'}")
        else:
            parts.append(f"last {self.past_days or 1} day{'s' if (self.past_days or 1) != 1 else ''}")
        return "; ".join(parts)


__all__ = [
    "Column",
    "Condition",
    "DATETIME_FORMS",
    "DEFAULT_OPERATORS",
    "LIST_OPERATORS",
    "LOGICAL_OPERATORS",
    "OPERATORS_PAGE",
    "PAIR_OPERATORS",
    "RANGE_OPERATORS",
    "FilterError",
    "FilterSet",
    "GlobalFilter",
    "Operator",
    "OperatorList",
    "ReportFilter",
    "ReportType",
    "instant_ms",
    "parse_conditions",
    "parse_date",
    "parse_value",
    "split_list",
]
