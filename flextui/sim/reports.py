"""Simulated data report service (`{base}/data/api/{version}/report/…`), per seed 001 and notes §3.

The seed gives the endpoints and the 30-day history; the notes give the global
filters, the `query` operators and the `{"header", "data"}` payload. Where both
are silent this simulator chooses, and a client must cope with these choices:

Addressing and access
- Mounted at `/data/api/{version}/report`; only `v1` exists, any other version
  answers 404 with a message naming the versions known.
- Callers authenticate with Basic or `Bearer rna_…` (`common.authenticate`) and
  need the "Data Api" permission; customers (no permission) get 403, for the
  metadata endpoints too. Errors are `{"status": "error", "message": …}` and every
  400 names the filter it is about.

Data model
- Groups: account, user, entitlement, device, served-device, product-feature,
  fulfillment, usage. Every record comes from the world: accounts, users, the
  product catalogue and `world.entitlements` line items; devices are the hosts
  fulfillments were made on, so `fulfillment.hostEntityID` is a `device.deviceID`
  of the same account and `fulfillment.activationID` a line item of an
  entitlement of that account.
- Records are **flat**: nested objects of the warehouse are flattened to dotted
  keys, e.g. entitlement `CustomersAndPartners.EndCustomerAccountID`. Tables,
  CSV and filters then all treat a record as one row of named columns.
- Column types: string, integer, number, boolean, date (`YYYY-MM-DD`), datetime
  (`YYYY-MM-DDTHH:MM:SSZ`, UTC). A missing value is JSON null. Usage follows the
  third-party evidence of the notes: camelCase names (`accountId`) and
  `usageTime` as epoch milliseconds (an integer), with `usageDate` beside it.
- Each group has one date column that places a record in time (`dateField` in
  report-types: lastModifiedDate, lastSyncDate, fulfillDate, usageTime). Records
  span the 32 days before the world was made; those older than 30 days before
  the clock's now are never returned, whatever the filters say.
- Filters of a group are named fields (report-filters/{group}); a filter maps to
  one column (entitlement's `accountID` filters
  `CustomersAndPartners.EndCustomerAccountID`). The usage group accepts every
  column as a filter, as the vendor says. Every group's date column is a
  filter as well (an addition to the vendor's lists, so one day of the window
  can be picked); report-filters lists it, so a client learns it from there.

Metadata answers (every list sits in a top-level `data` array, as the vendor's
report-types/{group} page says)
- report-names: `{"data": ["account", …]}`.
- report-types: `{"data": [{"name", "description", "dateField", "fields": [{"name",
  "type", "description", "filter"}], "filters": […]}]}`; report-types/{group}
  the same with one item; `fields[].filter` names the filter on that column.
- report-filters/{group}: `{"name": group, "data": [{"name", "type", "field",
  "operators"}]}`, `field` being the column a filter tests.
- op-list: `{"data": [{"operator", "description", "types"}]}`: the twelve
  conditional operators, then `$and` and `$or` with no types (they join
  clauses; they test no field). The descriptions are the vendor page's.
- global-filters: `{"data": [{"name", "type", "minimum", "maximum", "default",
  "values", "description"}]}` (keys present where they apply).

Filtering
- Global filters: pastDays 1–30 (default 1; a rolling window of N×24 h ending
  now), dateFrom/dateTo `YYYY-MM-DD` in UTC with dateFrom included and dateTo
  excluded (the newer vendor text); a missing end is the other end ± 30 days;
  dateTo must not be before dateFrom (equal, the window is empty: the older
  vendor text, which includes dateTo, would make it one day) and the range is
  at most 30 days. pastDays is
  ignored when dateFrom or dateTo is given. limitRecords 1–2500 (default 500) is
  the page size; pageNumber ≥ 1 (default 1); mode BATCH|INTERACTIVE (any case,
  default BATCH); format json|csv (any case, default json).
- `query` is JSON `{"field": {"$op": value, …}, …}`: every condition is ANDed; a
  bare value means `$eq`. The operators are those of
  RESTDAPIFilterQueryConditions.htm (its newer version): `$eq` `$ne` (every
  type); `$sw` `$ew` `$con` (strings only); `$in` `$nin` (a non-empty JSON
  array); `$gt` `$gte` `$lt` `$lte`; `$btw` (a JSON array of exactly two
  values, lower first, both bounds included); all but `$eq`/`$ne` refuse
  boolean columns. `$eq` `$ne` `$in` `$nin` on strings are exact and case
  sensitive; `$sw` `$ew` `$con` ignore case. A comparison on a string column
  takes text (compared as text, case sensitive) or a JSON number (compared with
  the values that read as numbers; the page's own example is `{"accountID" :
  {"$gt" : 101202692754}}`). A missing value (null) matches no condition, `$ne`
  and `$nin` included, as in SQL.
- Date and datetime values: a day `YYYY-MM-DD` names the whole UTC day (also on
  datetime columns); on datetime columns also `YYYY-MM-DD HH:MM[:SS[.fff]]` (the
  page's `"2025-03-31 08:50:54.783"`, no zone: UTC) or with a `T` and an
  optional `Z`/`±HH:MM`, naming its minute, second or millisecond, and epoch
  milliseconds as a JSON number (the page's `[1734954861548,1734954874182]`),
  naming that millisecond. Other forms (a week date, `YYYYMMDD`, epoch ms as
  text) are a 400. A value names a span: `$eq` matches within it, `$gt` after
  its end, `$gte` from its start, `$lt` before its start, `$lte` before its
  end, `$btw [a, b]` from a's start to b's end.
- `$and` and `$or` are top-level keys (or keys of another `$and`/`$or`) whose
  value is an object of clauses, as the page writes them: `{"$or": {"f1":
  {"$btw": [1, 2]}, "f2": {"$eq": "x"}}}`; every clause of `$and` must hold,
  one of `$or` is enough, and each is ANDed with the other top-level keys.
  Inside a field's object they are a 400.
- Plain `field=value` parameters (GET) or top-level keys (POST) are `$eq`; a
  repeated GET parameter is `$in`.
- POST takes the same filters as a JSON object; `query` may be an object or a
  JSON string; numbers may be JSON numbers or digit strings.

Paging
- Records come oldest first (ascending date column, then generation order).
- The body is `{"header": {…}, "data": [records]}`. The header always has
  pageNumber, pageSize, previousPageURL and nextPageURL (null at either end);
  INTERACTIVE mode adds recordCount and totalPages (0 when nothing matches).
  BATCH mode leaves the counts out: follow nextPageURL until it is null.
- The same links travel in the standard `Link` response header
  (`<url>; rel="prev"`, `<url>; rel="next"`), as the seed says.
- Links are absolute GET URLs carrying every filter, also for a POST request (a
  link cannot carry a body): GET links repeat the caller's own parameters with
  pageNumber replaced; POST links encode the body's filters as parameters.
- A pageNumber beyond the last page answers 200 with no data, no next link and
  a previous link to the last page.
- format=csv answers `text/csv` (header row, UTF-8) with the Link header; in
  INTERACTIVE mode X-Record-Count and X-Total-Pages headers carry the counts.

Volume per unit of scale: 2,000 fulfillment and 2,000 usage records, 800
devices, 300 served clients, one entitlement record per line item, one account,
user and product-feature record each (about 94% fall in the last 30 days): at
`--scale large` (100) fulfillment and usage each hold over 180,000 records of
the last 30 days.

Dialects (pages under docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/)
- `links-every-page`: every JSON answer's header has a `nextPageURL`, also
  the last page and pages past the end (whose `data` is empty), and the Link
  header has a `rel="next"`: a client must stop on an empty page, not on a
  missing link (RESTDAPIFilterQueryGlobal.htm does not say links end).
- `links-none`: no page links anywhere (no `header` in the body, no Link
  header) and no record or page counts, in either mode: the body is
  `{"data": [...]}`, as a public third-party script reads it, paging by
  incrementing pageNumber until `data` is empty (notes §6).
- `report-types-documented`: `report-types/{group}` answers what
  RESTDAPIFilterQueryGroup.htm describes: "the data array lists the filters
  that are available for the report group": `{"data": [{"filterName":
  "accountID", "dataType": "String"}, …]}` (no model object); `report-types`
  lists every group's filters the same way, each item with its
  `reportName`. Data types are Java's: String, Integer, Double, Boolean,
  Date, DateTime.
- `report-names-objects`: `report-names` answers `{"data": [{"reportName":
  "fulfillment", "description": …}, …]}` instead of strings (the body is not
  captured in RESTDAPIBuildQuery.htm).
- `op-list-map`: `op-list` answers a map of each operator's notation to its
  description, `{"data": {"$eq": "Exact (equal to)", …}}`, the first two
  columns of RESTDAPIFilterQueryConditions.htm's table (the body of op-list
  is not documented), with no types.
- `op-list-notation`: `op-list` answers objects named as that table's
  columns, `{"data": [{"operatorNotation": "$eq", "description": …}, …]}`,
  with no types.
- `null-collections` (app.py): an empty `data` is `null`.
- `window-moves`: every data request is answered an hour later than the one
  before, as a long run against a live clock is: a pastDays window loses
  records at its old end, so the count changes and pages asked by number
  shift (dateFrom/dateTo windows hold still).
- The paging dialects of the numbered lists do not apply: reports page by
  pageNumber (1-based, as documented) and limitRecords.

Generation is lazy per group (`world.part("reports.<group>")`), deterministic,
and column-major: each table is a few lists of compact values (times as epoch
milliseconds) pre-sorted by date, so a window is two bisections and a page
builds dicts only for the records it returns. Filtered index lists are kept in
a small LRU so the concurrent fetch of many pages filters once.
"""

from __future__ import annotations

import bisect
import csv
import io
import json
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from flextui.sim.common import SimError, authenticate, dialects_of, json_response, read_json, world_of
from flextui.sim.world import DAY_MS, PERM_DATA_API, SimEntitlement, SimUser, World

MOUNT = "/data/api/{version}/report"
VERSIONS = ("v1",)

HISTORY_DAYS = 30
SPAN_DAYS = 32  # generated history: a little older than what is ever returned
MAX_LIMIT = 2500
DEFAULT_LIMIT = 500
TYPES = ("string", "integer", "number", "boolean", "date", "datetime")

NOT_BOOLEAN = tuple(t for t in TYPES if t != "boolean")

OPERATORS: dict[str, tuple[str, tuple[str, ...]]] = {
    # The conditional operators of RESTDAPIFilterQueryConditions.htm (the newer version), in its order.
    "$eq": ("Exact (equal to); a date matches the whole day", TYPES),
    "$ne": ("Not equal to", TYPES),
    "$sw": ("Starts with (ignores case)", ("string",)),
    "$ew": ("Ends with (ignores case)", ("string",)),
    "$con": ("Contains (ignores case)", ("string",)),
    "$in": ("Multiple values", NOT_BOOLEAN),
    "$nin": ("Exclude multiple values", NOT_BOOLEAN),
    "$gt": ("Greater than", NOT_BOOLEAN),
    "$gte": ("Greater than or equal to", NOT_BOOLEAN),
    "$lt": ("Lesser than", NOT_BOOLEAN),
    "$lte": ("Lesser than or equals to", NOT_BOOLEAN),
    "$btw": ("Between (inclusive of both bounds)", NOT_BOOLEAN),
}

LOGICAL: dict[str, str] = {
    "$and": "Joins query clauses with a logical AND: every clause must match",
    "$or": "Joins query clauses with a logical OR: any clause may match",
}
"""The logical operators of the same page: a top-level key of `query` whose value is an object of clauses."""

GLOBAL_FILTERS: list[dict[str, Any]] = [
    {
        "name": "pastDays",
        "type": "integer",
        "minimum": 1,
        "maximum": HISTORY_DAYS,
        "default": 1,
        "description": "records of the last N days (N×24 hours up to now); ignored when dateFrom or dateTo is given",
    },
    {
        "name": "dateFrom",
        "type": "date",
        "format": "YYYY-MM-DD",
        "default": None,
        "description": "first day included (UTC); the range dateFrom..dateTo is at most 30 days",
    },
    {
        "name": "dateTo",
        "type": "date",
        "format": "YYYY-MM-DD",
        "default": None,
        "description": "first day excluded (UTC); set it to tomorrow to include today",
    },
    {
        "name": "limitRecords",
        "type": "integer",
        "minimum": 1,
        "maximum": MAX_LIMIT,
        "default": DEFAULT_LIMIT,
        "description": "records per page",
    },
    {"name": "pageNumber", "type": "integer", "minimum": 1, "default": 1, "description": "the page to return (1-based)"},
    {
        "name": "mode",
        "type": "string",
        "values": ["BATCH", "INTERACTIVE"],
        "default": "BATCH",
        "description": "INTERACTIVE adds recordCount and totalPages to the header",
    },
    {"name": "format", "type": "string", "values": ["json", "csv"], "default": "json", "description": "payload format"},
    {
        "name": "query",
        "type": "json",
        "default": None,
        "description": 'conditions {"field": {"$op": value}}, ANDed; see op-list and report-filters',
    },
]
GLOBAL_NAMES = frozenset(f["name"] for f in GLOBAL_FILTERS)


# -- formatting -----------------------------------------------------------------

_DAY_TEXT: dict[int, str] = {}


def fmt_date(ms: int | None) -> str | None:
    if ms is None:
        return None
    day = ms // DAY_MS
    text = _DAY_TEXT.get(day)
    if text is None:
        text = _DAY_TEXT[day] = datetime.fromtimestamp(day * 86_400, tz=UTC).strftime("%Y-%m-%d")
    return text


def fmt_datetime(ms: int | None) -> str | None:
    if ms is None:
        return None
    sec = (ms % DAY_MS) // 1000
    return f"{fmt_date(ms)}T{sec // 3600:02d}:{sec // 60 % 60:02d}:{sec % 60:02d}Z"


def _ident(value: Any) -> Any:
    return value


FORMATTERS: dict[str, Callable[[Any], Any]] = {"date": fmt_date, "datetime": fmt_datetime}


def day_ms(text: str) -> int:
    """Midnight UTC of a YYYY-MM-DD day, in epoch ms (ValueError when malformed)."""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise ValueError(text)
    d = date.fromisoformat(text)
    return int(datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp() * 1000)


def datetime_ms(text: str) -> int:
    """Epoch ms of an ISO date-time (no zone means UTC)."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return int(value.timestamp() * 1000)


# -- the data model -------------------------------------------------------------


@dataclass
class Table:
    """One group's records, column-major, sorted by `times` (the date column, epoch ms)."""

    columns: tuple[str, ...]
    types: tuple[str, ...]
    cols: list[list[Any]]
    times: list[int]
    _filtered: OrderedDict[Any, list[int]] = field(default_factory=OrderedDict)

    def __len__(self) -> int:
        return len(self.times)

    def rows(self, indexes: list[int]) -> list[dict[str, Any]]:
        fmts = [(name, FORMATTERS.get(t, _ident), col) for name, t, col in zip(self.columns, self.types, self.cols)]
        return [{name: fmt(col[i]) for name, fmt, col in fmts} for i in indexes]

    def matching(self, lo: int, hi: int, conds: list[Cond]) -> list[int]:
        """Indexes in [lo, hi) that meet every condition (recent answers are remembered)."""
        key = (lo, hi, tuple(c.key for c in conds))
        hit = self._filtered.get(key)
        if hit is not None:
            self._filtered.move_to_end(key)
            return hit
        chosen: range | list[int] = range(lo, hi)
        for cond in conds:
            if cond.column >= 0:
                col, pred = self.cols[cond.column], cond.pred
                chosen = [i for i in chosen if pred(col[i])]
            else:
                cols, holds = self.cols, cond.holds
                chosen = [i for i in chosen if holds(cols, i)]
        result = list(chosen)
        self._filtered[key] = result
        if len(self._filtered) > 16:
            self._filtered.popitem(last=False)
        return result


@dataclass(frozen=True)
class ReportDef:
    """A report group: its columns, filters (name → column) and how it is generated."""

    group: str
    description: str
    date_field: str
    columns: tuple[tuple[str, str, str], ...]  # name, type, description
    filters: tuple[tuple[str, str], ...]  # filter name, column name
    build: Callable[[World, dict[str, SimEntitlement], Base | None], Table]
    needs_base: bool = False

    def column_type(self, name: str) -> str:
        for col, typ, _ in self.columns:
            if col == name:
                return typ
        raise KeyError(name)

    def filter_map(self) -> dict[str, str]:
        """Filter name → column: the vendor's list, plus the date column (an addition, see the docstring)."""
        out = dict(self.filters)
        if self.date_field not in out.values():
            out[self.date_field] = self.date_field
        return out

    def describe(self) -> dict[str, Any]:
        filters = self.filter_map()
        by_column = {col: name for name, col in filters.items()}
        return {
            "name": self.group,
            "description": self.description,
            "dateField": self.date_field,
            "fields": [{"name": n, "type": t, "description": d, "filter": by_column.get(n)} for n, t, d in self.columns],
            "filters": self.describe_filters(filters),
        }

    def describe_filters(self, filters: dict[str, str] | None = None) -> list[dict[str, Any]]:
        out = []
        for name, col in (filters or self.filter_map()).items():
            typ = self.column_type(col)
            ops = [op for op, (_, types) in OPERATORS.items() if typ in types]
            out.append({"name": name, "type": typ, "field": col, "operators": ops})
        return out


# -- shared generation ----------------------------------------------------------


@dataclass
class Base:
    """What several groups share: fulfillable line items and the hosts (devices) of accounts."""

    now: int
    acct_ids: list[str]
    acct_names: list[str]
    acct_sites: list[list[str]]
    acct_emails: list[list[str]]
    acct_items: list[list[int]]  # line item indexes per account
    # line items (column-major)
    li_act: list[str]
    li_ent: list[str]
    li_acct: list[int]
    li_prod: list[str]
    li_ver: list[str]
    li_pn: list[str]
    li_model: list[str]
    li_qty: list[int]
    li_start: list[int]
    li_expiry: list[int | None]
    li_feats: list[list[tuple[str, str]]]
    # hosts (devices), column-major
    h_id: list[str] = field(default_factory=list)
    h_name: list[str] = field(default_factory=list)
    h_type: list[str] = field(default_factory=list)
    h_idtype: list[str] = field(default_factory=list)
    h_acct: list[int] = field(default_factory=list)
    h_item: list[int] = field(default_factory=list)
    h_site: list[str] = field(default_factory=list)
    h_email: list[str] = field(default_factory=list)
    h_created: list[int] = field(default_factory=list)
    acct_hosts: list[list[int]] = field(default_factory=list)
    servers: list[int] = field(default_factory=list)


def _ms_of_day(text: str | None) -> int | None:
    return None if text is None else day_ms(text)


def _build_base(world: World, ents: dict[str, SimEntitlement]) -> Base:
    rng = world.rng("reports.base")
    now = world.created_ms
    index: dict[str, int] = {}
    base = Base(now, [], [], [], [], [], [], [], [], [], [], [], [], [], [], [], [])
    users_by_account: dict[str, list[str]] = {}
    for user in world.users.values():
        users_by_account.setdefault(user.account_id, []).append(user.username)
    for ent in ents.values():
        for li in ent.line_items:
            if li.state not in ("DEPLOYED", "ACTIVE"):
                continue  # only deployed line items can be activated
            expiry = _ms_of_day(li.expiry_date)
            if expiry is not None and expiry <= now - SPAN_DAYS * DAY_MS:
                continue  # expired before the history began
            a = index.get(ent.account_id)
            if a is None:
                account = world.accounts[ent.account_id]
                a = index[ent.account_id] = len(base.acct_ids)
                base.acct_ids.append(account.account_id)
                base.acct_names.append(account.name)
                base.acct_sites.append([f"{account.city} {s}" for s in ("HQ", "Lab", "DC1", "Plant")[: rng.randint(1, 4)]])
                base.acct_emails.append(users_by_account.get(account.account_id) or [ent.ship_to_email])
                base.acct_items.append([])
            base.acct_items[a].append(len(base.li_act))
            p = li.product
            base.li_act.append(li.activation_id)
            base.li_ent.append(ent.entitlement_id)
            base.li_acct.append(a)
            base.li_prod.append(p.name)
            base.li_ver.append(p.version)
            base.li_pn.append(p.part_number)
            base.li_model.append(p.license_model)
            base.li_qty.append(li.quantity)
            base.li_start.append(_ms_of_day(li.start_date) or li.created_ms)
            base.li_expiry.append(expiry)
            base.li_feats.append(p.features)
    n_acct = len(base.acct_ids)
    base.acct_hosts = [[] for _ in range(n_acct)]
    if not n_acct:
        return base
    roles = ("ws", "build", "lic", "node", "vm", "srv", "lab")
    id_types = ("ETHERNET", "FLEXID9", "VM_UUID", "CONTAINER_ID")
    mult = 0x9E3779B97F4B  # odd: i → i*mult mod 2^48 is one-to-one, so host ids are unique
    offset = rng.getrandbits(48)
    random_ = rng.random
    for i in range(world.count(800, 50)):
        a = int(random_() * n_acct)
        items = base.acct_items[a]
        is_server = random_() < 0.2
        base.h_id.append(f"{(i * mult + offset) & 0xFFFFFFFFFFFF:012X}")
        base.h_name.append(f"{base.acct_sites[a][0][:3].lower()}-{roles[5 if is_server else i % 5]}-{i:05d}")
        base.h_type.append("SERVER" if is_server else "CLIENT")
        base.h_idtype.append(id_types[int(random_() * 4)])
        base.h_acct.append(a)
        base.h_item.append(items[int(random_() * len(items))])
        sites = base.acct_sites[a]
        base.h_site.append(sites[int(random_() * len(sites))])
        emails = base.acct_emails[a]
        base.h_email.append(emails[int(random_() * len(emails))])
        base.h_created.append(now - int(random_() * 400 * DAY_MS))
        base.acct_hosts[a].append(i)
        if is_server:
            base.servers.append(i)
    return base


def base_of(world: World) -> Base:
    # World.part holds a plain (not re-entrant) lock while building, so a part
    # must never ask for another part while it is built: dependencies are
    # fetched first and handed in.
    ents = world.entitlements
    return world.part("reports.base", lambda w: _build_base(w, ents))


def _recent_times(rng: Any, n: int, now: int) -> list[int]:
    """`n` times spread over the generated history, newest at `now`."""
    span = SPAN_DAYS * DAY_MS
    random_ = rng.random
    return [now - int(random_() * span) for _ in range(n)]


def _sorted_table(columns: tuple[tuple[str, str, str], ...], date_field: str, cols: dict[str, list[Any]]) -> Table:
    """A table of `cols` (by column name), sorted by the date column."""
    names_ = tuple(c[0] for c in columns)
    times = cols[date_field]
    order = sorted(range(len(times)), key=times.__getitem__)
    ordered = [[col[i] for i in order] for col in (cols[n] for n in names_)]
    return Table(names_, tuple(c[1] for c in columns), ordered, ordered[names_.index(date_field)])


# -- groups ----------------------------------------------------------------------

ACCOUNT_COLUMNS = (
    ("accountID", "string", "account identifier"),
    ("accountName", "string", "account name"),
    ("accountDescription", "string", "description"),
    ("accountType", "string", "CUSTOMER, SELF_REGISTERED, CHANNEL_PARTNER, PUBLISHER or UNKNOWN"),
    ("city", "string", "city"),
    ("country", "string", "ISO country code"),
    ("parentAccountID", "string", "parent account, if any"),
    ("userCount", "integer", "users of the account"),
    ("entitlementCount", "integer", "entitlements owned"),
    ("createdDate", "datetime", "when the account was created"),
    ("lastModifiedDate", "datetime", "last change (places the record in time)"),
)


def _build_account(world: World, ents: dict[str, SimEntitlement], base: Base | None) -> Table:
    rng = world.rng("reports.account")
    now = world.created_ms
    users: dict[str, int] = {}
    for u in world.users.values():
        users[u.account_id] = users.get(u.account_id, 0) + 1
    ents: dict[str, int] = {}
    for e in ents.values():
        ents[e.account_id] = ents.get(e.account_id, 0) + 1
    cols: dict[str, list[Any]] = {c[0]: [] for c in ACCOUNT_COLUMNS}
    descriptions = ("", "Key account", "Reseller", "Strategic customer", "Trial customer")
    for acc in world.accounts.values():
        row = (
            acc.account_id,
            acc.name,
            rng.choice(descriptions),
            acc.account_type,
            acc.city,
            acc.country,
            acc.parent_id,
            users.get(acc.account_id, 0),
            ents.get(acc.account_id, 0),
            acc.created_ms,
            max(acc.created_ms, now - int(rng.random() * SPAN_DAYS * DAY_MS)),
        )
        for (name, _, _), value in zip(ACCOUNT_COLUMNS, row):
            cols[name].append(value)
    return _sorted_table(ACCOUNT_COLUMNS, "lastModifiedDate", cols)


USER_COLUMNS = (
    ("userName", "string", "login name (an email address)"),
    ("displayName", "string", "first and last name"),
    ("firstName", "string", "first name"),
    ("lastName", "string", "last name"),
    ("email", "string", "email address"),
    ("accountID", "string", "the user's account"),
    ("accountName", "string", "the account's name"),
    ("userType", "string", "PRODUCER or CUSTOMER"),
    ("status", "string", "ACTIVE or INACTIVE"),
    ("permissionCount", "integer", "permissions held"),
    ("createdDate", "datetime", "when the user was created"),
    ("lastLoginDate", "datetime", "last login, if any"),
    ("lastModifiedDate", "datetime", "last change (places the record in time)"),
)


def _build_user(world: World, ents: dict[str, SimEntitlement], base: Base | None) -> Table:
    rng = world.rng("reports.user")
    now = world.created_ms
    cols: dict[str, list[Any]] = {c[0]: [] for c in USER_COLUMNS}
    for u in world.users.values():
        account = world.accounts.get(u.account_id)
        modified = max(u.created_ms, now - int(rng.random() * SPAN_DAYS * DAY_MS))
        login = None if rng.random() < 0.15 else max(u.created_ms, now - int(rng.random() * 60 * DAY_MS))
        row = (
            u.username,
            u.display_name,
            u.first_name,
            u.last_name,
            u.username,
            u.account_id,
            account.name if account else None,
            u.kind.upper(),
            u.status.upper(),
            len(u.permissions),
            u.created_ms,
            login,
            modified,
        )
        for (name, _, _), value in zip(USER_COLUMNS, row):
            cols[name].append(value)
    return _sorted_table(USER_COLUMNS, "lastModifiedDate", cols)


ENTITLEMENT_COLUMNS = (
    ("entitlementID", "string", "entitlement identifier"),
    ("activationID", "string", "line item activation identifier"),
    ("entitlementStatus", "string", "DRAFT, DEPLOYED, OBSOLETE, ACTIVE or INACTIVE"),
    ("lineItemState", "string", "state of the line item"),
    ("productName", "string", "product"),
    ("productVersion", "string", "product version"),
    ("partNumber", "string", "part number"),
    ("licenseModel", "string", "license model"),
    ("orderType", "string", "NEW_ORDER, RENEWAL_ORDER, …"),
    ("quantity", "integer", "copies granted"),
    ("startDate", "date", "start of the line item"),
    ("expiryDate", "date", "end of the line item (null when permanent)"),
    ("isPermanent", "boolean", "never expires"),
    ("CustomersAndPartners.EndCustomerAccountID", "string", "owning account"),
    ("CustomersAndPartners.EndCustomerAccountName", "string", "owning account's name"),
    ("CustomersAndPartners.ShipToEmail", "string", "ship-to email"),
    ("createdDate", "datetime", "when the line item was created"),
    ("lastModifiedDate", "datetime", "last change (places the record in time)"),
)


def _build_entitlement(world: World, ents: dict[str, SimEntitlement], base: Base | None) -> Table:
    rng = world.rng("reports.entitlement")
    now = world.created_ms
    cols: dict[str, list[Any]] = {c[0]: [] for c in ENTITLEMENT_COLUMNS}
    for ent in ents.values():
        account = world.accounts[ent.account_id]
        for li in ent.line_items:
            p = li.product
            modified = min(now, max(li.created_ms, ent.updated_ms, now - int(rng.random() * SPAN_DAYS * DAY_MS)))
            row = (
                ent.entitlement_id,
                li.activation_id,
                ent.status,
                li.state,
                p.name,
                p.version,
                p.part_number,
                p.license_model,
                li.order_type,
                li.quantity,
                _ms_of_day(li.start_date),
                _ms_of_day(li.expiry_date),
                li.expiry_date is None,
                account.account_id,
                account.name,
                ent.ship_to_email,
                li.created_ms,
                modified,
            )
            for (name, _, _), value in zip(ENTITLEMENT_COLUMNS, row):
                cols[name].append(value)
    return _sorted_table(ENTITLEMENT_COLUMNS, "lastModifiedDate", cols)


DEVICE_COLUMNS = (
    ("deviceID", "string", "host identifier"),
    ("deviceName", "string", "device name"),
    ("deviceType", "string", "CLIENT or SERVER"),
    ("hostIDType", "string", "kind of host identifier"),
    ("status", "string", "ACTIVE or OBSOLETE"),
    ("accountID", "string", "owning account"),
    ("accountName", "string", "owning account's name"),
    ("siteName", "string", "site of the device"),
    ("deviceUserEmail", "string", "the device's user"),
    ("entitlementID", "string", "entitlement of the mapped line item"),
    ("activationID", "string", "mapped line item"),
    ("productName", "string", "product"),
    ("partNumber", "string", "part number"),
    ("licenseCount", "integer", "licenses mapped"),
    ("createdDate", "datetime", "when the device was registered"),
    ("lastSyncDate", "datetime", "last synchronisation (places the record in time)"),
)


def _build_device(world: World, ents: dict[str, SimEntitlement], base: Base | None) -> Table:
    assert base is not None
    b = base
    rng = world.rng("reports.device")
    n = len(b.h_id)
    times = [max(c, t) for c, t in zip(b.h_created, _recent_times(rng, n, b.now))]
    items = b.h_item
    accts = b.h_acct
    random_ = rng.random
    cols = {
        "deviceID": b.h_id,
        "deviceName": b.h_name,
        "deviceType": b.h_type,
        "hostIDType": b.h_idtype,
        "status": ["OBSOLETE" if random_() < 0.05 else "ACTIVE" for _ in range(n)],
        "accountID": [b.acct_ids[a] for a in accts],
        "accountName": [b.acct_names[a] for a in accts],
        "siteName": b.h_site,
        "deviceUserEmail": b.h_email,
        "entitlementID": [b.li_ent[i] for i in items],
        "activationID": [b.li_act[i] for i in items],
        "productName": [b.li_prod[i] for i in items],
        "partNumber": [b.li_pn[i] for i in items],
        "licenseCount": [1 + int(random_() * b.li_qty[i]) for i in items],
        "createdDate": b.h_created,
        "lastSyncDate": times,
    }
    return _sorted_table(DEVICE_COLUMNS, "lastSyncDate", cols)


SERVED_COLUMNS = (
    ("servedClientHostID", "string", "host identifier of the served client"),
    ("servedDeviceName", "string", "served client name"),
    ("serverDeviceID", "string", "the license server (a device of type SERVER)"),
    ("serverDeviceName", "string", "the license server's name"),
    ("accountID", "string", "owning account"),
    ("accountName", "string", "owning account's name"),
    ("siteName", "string", "site of the license server"),
    ("featureName", "string", "feature served"),
    ("featureVersion", "string", "feature version"),
    ("featureCount", "integer", "licenses of the feature held"),
    ("status", "string", "ACTIVE or EXPIRED"),
    ("lastSyncDate", "datetime", "last synchronisation (places the record in time)"),
)


def _build_served_device(world: World, ents: dict[str, SimEntitlement], base: Base | None) -> Table:
    assert base is not None
    b = base
    rng = world.rng("reports.served-device")
    random_ = rng.random
    n = world.count(300, 20) if b.servers else 0
    servers = [b.servers[int(random_() * len(b.servers))] for _ in range(n)]
    feats = []
    for s in servers:
        options = b.li_feats[b.h_item[s]] or [("CORE", "1.0")]
        feats.append(options[int(random_() * len(options))])
    cols = {
        "servedClientHostID": [f"SC-{int(random_() * 16**8):08X}{i:05d}" for i in range(n)],
        "servedDeviceName": [f"{b.h_name[s].split('-')[0]}-client-{i:05d}" for i, s in enumerate(servers)],
        "serverDeviceID": [b.h_id[s] for s in servers],
        "serverDeviceName": [b.h_name[s] for s in servers],
        "accountID": [b.acct_ids[b.h_acct[s]] for s in servers],
        "accountName": [b.acct_names[b.h_acct[s]] for s in servers],
        "siteName": [b.h_site[s] for s in servers],
        "featureName": [f[0] for f in feats],
        "featureVersion": [f[1] for f in feats],
        "featureCount": [1 + int(random_() * 10) for _ in range(n)],
        "status": ["EXPIRED" if random_() < 0.08 else "ACTIVE" for _ in range(n)],
        "lastSyncDate": _recent_times(rng, n, b.now),
    }
    return _sorted_table(SERVED_COLUMNS, "lastSyncDate", cols)


PRODUCT_FEATURE_COLUMNS = (
    ("productName", "string", "product"),
    ("productVersion", "string", "product version"),
    ("partNumber", "string", "part number"),
    ("licenseModel", "string", "license model"),
    ("featureName", "string", "feature"),
    ("featureVersion", "string", "feature version"),
    ("featureCount", "integer", "count of the feature per copy"),
    ("productStatus", "string", "DEPLOYED"),
    ("productCreatedDate", "datetime", "when the product was created"),
    ("lastModifiedDate", "datetime", "last change (places the record in time)"),
)


def _build_product_feature(world: World, ents: dict[str, SimEntitlement], base: Base | None) -> Table:
    rng = world.rng("reports.product-feature")
    now = world.created_ms
    cols: dict[str, list[Any]] = {c[0]: [] for c in PRODUCT_FEATURE_COLUMNS}
    for p in world.products:
        for fname, fver in p.features:
            row = (
                p.name,
                p.version,
                p.part_number,
                p.license_model,
                fname,
                fver,
                rng.choice((1, 1, 1, 2, 5)),
                "DEPLOYED",
                p.created_ms,
                max(p.created_ms, now - int(rng.random() * SPAN_DAYS * DAY_MS)),
            )
            for (name, _, _), value in zip(PRODUCT_FEATURE_COLUMNS, row):
                cols[name].append(value)
    return _sorted_table(PRODUCT_FEATURE_COLUMNS, "lastModifiedDate", cols)


FULFILLMENT_COLUMNS = (
    ("fulfillmentID", "string", "fulfillment identifier"),
    ("fulfillDate", "datetime", "when the fulfillment happened (places the record in time)"),
    ("fulfillmentType", "string", "ACTIVATION, RETURN, REPAIR, REHOST or EMERGENCY"),
    ("fulfillmentSource", "string", "ONLINE, OFFLINE, MANUAL or API"),
    ("status", "string", "ACTIVE, RETURNED or OBSOLETE"),
    ("activationID", "string", "line item fulfilled"),
    ("entitlementID", "string", "entitlement of the line item"),
    ("productName", "string", "product"),
    ("productVersion", "string", "product version"),
    ("partNumber", "string", "part number"),
    ("licenseModel", "string", "license model"),
    ("accountID", "string", "owning account"),
    ("accountName", "string", "owning account's name"),
    ("hostEntityID", "string", "host fulfilled on (a deviceID of the device report)"),
    ("hostType", "string", "kind of host identifier"),
    ("deviceName", "string", "device name"),
    ("quantity", "integer", "copies fulfilled"),
    ("startDate", "date", "license start"),
    ("expirationDate", "date", "license end (null when permanent)"),
    ("isPermanent", "boolean", "never expires"),
    ("userName", "string", "who fulfilled"),
)

_FF_TYPES = ("ACTIVATION",) * 14 + ("RETURN", "RETURN", "REPAIR", "REHOST", "EMERGENCY")
_FF_SOURCES = ("ONLINE",) * 5 + ("OFFLINE", "MANUAL", "API", "API")


def _pick_hosts(world: World, rng: Any, n: int, b: Base) -> tuple[list[int], list[int], list[int]]:
    """n (host, line item, time) triples: a line item of the host's account, while it was valid."""
    random_ = rng.random
    span = SPAN_DAYS * DAY_MS
    n_hosts = len(b.h_id)
    hosts = [int(random_() * n_hosts) for _ in range(n)]
    items = []
    times = _recent_times(rng, n, b.now)
    for k, h in enumerate(hosts):
        options = b.acct_items[b.h_acct[h]]
        item = options[int(random_() * len(options))]
        items.append(item)
        start, expiry = b.li_start[item], b.li_expiry[item]
        first, last = max(start, b.now - span), min(b.now, expiry) if expiry is not None else b.now
        if (times[k] < first or times[k] >= last) and first < last:
            times[k] = first + int(random_() * (last - first))
    return hosts, items, times


def _build_fulfillment(world: World, ents: dict[str, SimEntitlement], base: Base | None) -> Table:
    assert base is not None
    b = base
    rng = world.rng("reports.fulfillment")
    random_ = rng.random
    n = world.count(2000, 100) if b.h_id else 0
    hosts, items, times = _pick_hosts(world, rng, n, b)
    ftypes = [_FF_TYPES[int(random_() * len(_FF_TYPES))] for _ in range(n)]
    order = sorted(range(n), key=times.__getitem__)
    ids = [""] * n
    for rank, i in enumerate(order):  # ids rise with time, as a sequence would
        ids[i] = f"FID-{world.seed % 100:02d}{rank + 1:08d}"
    expiries = [b.li_expiry[i] for i in items]
    cols = {
        "fulfillmentID": ids,
        "fulfillDate": times,
        "fulfillmentType": ftypes,
        "fulfillmentSource": [_FF_SOURCES[int(random_() * len(_FF_SOURCES))] for _ in range(n)],
        "status": ["RETURNED" if t == "RETURN" else ("OBSOLETE" if random_() < 0.05 else "ACTIVE") for t in ftypes],
        "activationID": [b.li_act[i] for i in items],
        "entitlementID": [b.li_ent[i] for i in items],
        "productName": [b.li_prod[i] for i in items],
        "productVersion": [b.li_ver[i] for i in items],
        "partNumber": [b.li_pn[i] for i in items],
        "licenseModel": [b.li_model[i] for i in items],
        "accountID": [b.acct_ids[b.h_acct[h]] for h in hosts],
        "accountName": [b.acct_names[b.h_acct[h]] for h in hosts],
        "hostEntityID": [b.h_id[h] for h in hosts],
        "hostType": [b.h_idtype[h] for h in hosts],
        "deviceName": [b.h_name[h] for h in hosts],
        "quantity": [1 + int(random_() * min(10, b.li_qty[i])) for i in items],
        "startDate": [b.li_start[i] for i in items],
        "expirationDate": expiries,
        "isPermanent": [e is None for e in expiries],
        "userName": [b.h_email[h] for h in hosts],
    }
    return _sorted_table(FULFILLMENT_COLUMNS, "fulfillDate", cols)


USAGE_COLUMNS = (
    ("usageId", "string", "usage record identifier"),
    ("usageTime", "integer", "when usage was recorded, epoch milliseconds (places the record in time)"),
    ("usageDate", "date", "day of usageTime (UTC)"),
    ("accountId", "string", "owning account"),
    ("accountName", "string", "owning account's name"),
    ("entitlementId", "string", "entitlement of the line item"),
    ("activationId", "string", "line item metered"),
    ("productName", "string", "product"),
    ("productVersion", "string", "product version"),
    ("featureName", "string", "feature used"),
    ("featureVersion", "string", "feature version"),
    ("hostId", "string", "host reporting (a deviceID of the device report)"),
    ("deviceName", "string", "device name"),
    ("meterType", "string", "elastic, concurrent or named"),
    ("unitOfMeasure", "string", "hours, units or seats"),
    ("used", "number", "quantity used in the period"),
    ("meterQuantity", "integer", "quantity entitled"),
    ("isOverage", "boolean", "used exceeds meterQuantity"),
)

_METER = {"Metered": "elastic", "Concurrent": "concurrent", "Trial": "elastic", "Subscription": "named", "Perpetual": "named"}
_UNIT = {"elastic": "hours", "concurrent": "seats", "named": "units"}


def _build_usage(world: World, ents: dict[str, SimEntitlement], base: Base | None) -> Table:
    assert base is not None
    b = base
    rng = world.rng("reports.usage")
    random_ = rng.random
    n = world.count(2000, 100) if b.h_id else 0
    hosts, items, times = _pick_hosts(world, rng, n, b)
    feats = []
    for i in items:
        options = b.li_feats[i] or [("CORE", "1.0")]
        feats.append(options[int(random_() * len(options))])
    qty = [b.li_qty[i] for i in items]
    used = [round(random_() * q * 1.2, 2) for q in qty]
    meters = [_METER.get(b.li_model[i], "named") for i in items]
    order = sorted(range(n), key=times.__getitem__)
    ids = [""] * n
    for rank, i in enumerate(order):
        ids[i] = f"U{world.seed % 100:02d}{rank + 1:09d}"
    cols = {
        "usageId": ids,
        "usageTime": times,
        "usageDate": [t - t % DAY_MS for t in times],
        "accountId": [b.acct_ids[b.h_acct[h]] for h in hosts],
        "accountName": [b.acct_names[b.h_acct[h]] for h in hosts],
        "entitlementId": [b.li_ent[i] for i in items],
        "activationId": [b.li_act[i] for i in items],
        "productName": [b.li_prod[i] for i in items],
        "productVersion": [b.li_ver[i] for i in items],
        "featureName": [f[0] for f in feats],
        "featureVersion": [f[1] for f in feats],
        "hostId": [b.h_id[h] for h in hosts],
        "deviceName": [b.h_name[h] for h in hosts],
        "meterType": meters,
        "unitOfMeasure": [_UNIT[m] for m in meters],
        "used": used,
        "meterQuantity": qty,
        "isOverage": [u > q for u, q in zip(used, qty)],
    }
    return _sorted_table(USAGE_COLUMNS, "usageTime", cols)


def _all(columns: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple((c[0], c[0]) for c in columns)


def _same(*names_: str) -> tuple[tuple[str, str], ...]:
    return tuple((n, n) for n in names_)


REPORTS: dict[str, ReportDef] = {
    r.group: r
    for r in (
        ReportDef(
            "account",
            "accounts (customers, partners, the publisher) changed in the period",
            "lastModifiedDate",
            ACCOUNT_COLUMNS,
            _same("accountID", "accountName"),
            _build_account,
        ),
        ReportDef(
            "user",
            "users changed in the period",
            "lastModifiedDate",
            USER_COLUMNS,
            _same("userName", "displayName", "email", "accountID", "accountName"),
            _build_user,
        ),
        ReportDef(
            "entitlement",
            "entitlement line items changed in the period (one record per line item)",
            "lastModifiedDate",
            ENTITLEMENT_COLUMNS,
            _same("entitlementID", "activationID", "productName", "partNumber")
            + (("accountID", "CustomersAndPartners.EndCustomerAccountID"), ("accountName", "CustomersAndPartners.EndCustomerAccountName")),
            _build_entitlement,
        ),
        ReportDef(
            "device",
            "devices (hosts) synchronised in the period",
            "lastSyncDate",
            DEVICE_COLUMNS,
            _same(
                "deviceName",
                "deviceID",
                "accountID",
                "accountName",
                "entitlementID",
                "activationID",
                "productName",
                "partNumber",
                "deviceUserEmail",
                "siteName",
            ),
            _build_device,
            needs_base=True,
        ),
        ReportDef(
            "served-device",
            "clients served by license servers, synchronised in the period",
            "lastSyncDate",
            SERVED_COLUMNS,
            _same("accountID", "accountName", "siteName", "servedClientHostID"),
            _build_served_device,
            needs_base=True,
        ),
        ReportDef(
            "product-feature",
            "features of catalogue products changed in the period",
            "lastModifiedDate",
            PRODUCT_FEATURE_COLUMNS,
            _same("productName", "productVersion", "featureName", "featureVersion"),
            _build_product_feature,
        ),
        ReportDef(
            "fulfillment",
            "fulfillments (activations, returns, repairs, rehosts) in the period",
            "fulfillDate",
            FULFILLMENT_COLUMNS,
            _same("fulfillmentID", "activationID", "productName", "partNumber", "accountID", "accountName", "hostEntityID"),
            _build_fulfillment,
            needs_base=True,
        ),
        ReportDef(
            "usage",
            "metered usage in the period; every field is a filter",
            "usageTime",
            USAGE_COLUMNS,
            _all(USAGE_COLUMNS),
            _build_usage,
            needs_base=True,
        ),
    )
}


def table_of(world: World, group: str) -> Table:
    """The generated records of a group (built on first use)."""
    report = REPORTS[group]
    ents = world.entitlements  # fetched before world.part takes its lock (see base_of)
    base = base_of(world) if report.needs_base else None
    return world.part(f"reports.{group}", lambda w: report.build(w, ents, base))


# -- requests ---------------------------------------------------------------------


@dataclass(frozen=True)
class Cond:
    """A compiled condition: a column index and a predicate over its stored values; or (column -1) a group of
    conditions of which every one (`$and`, a field's several operators) or any one (`$or`) must hold."""

    column: int
    pred: Callable[[Any], bool]
    key: tuple[Any, ...]
    parts: tuple[Cond, ...] = ()
    any_of: bool = False

    def holds(self, cols: list[list[Any]], i: int) -> bool:
        if self.column >= 0:
            return self.pred(cols[self.column][i])
        if self.any_of:
            return any(p.holds(cols, i) for p in self.parts)
        return all(p.holds(cols, i) for p in self.parts)


def _check_version(request: Request) -> None:
    version = request.path_params.get("version")
    if version not in VERSIONS:
        raise SimError(404, f"unknown data report API version {version!r}: the versions are {', '.join(VERSIONS)}")


def _caller(request: Request) -> SimUser:
    _check_version(request)
    user = authenticate(request)
    if PERM_DATA_API not in user.permissions:
        raise SimError(403, f'user {user.username} lacks the "{PERM_DATA_API}" permission needed for data reports')
    return user


def _report(request: Request) -> ReportDef:
    group = request.path_params["group"]
    report = REPORTS.get(group)
    if report is None:
        raise SimError(404, f"no report group {group!r}: the groups are {', '.join(REPORTS)}")
    return report


def _int(name: str, raw: Any, lo: int, hi: int | None) -> int:
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        value = None
    elif isinstance(raw, int):
        value = raw
    else:
        value = int(raw.strip()) if re.fullmatch(r"\s*[+-]?\d+\s*", raw) else None
    span = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
    if value is None or value < lo or (hi is not None and value > hi):
        raise SimError(400, f"{name} must be a whole number {span} (got {raw!r})", name)
    return value


def _text(name: str, raw: Any) -> str:
    if not isinstance(raw, str):
        raise SimError(400, f"{name} must be a string (got {raw!r})", name)
    return raw


DATETIME_RE = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?P<sec>:\d{2}(?P<frac>\.\d{1,6})?)?(?:[Zz]|[+-]\d{2}:\d{2})?")
"""A date-time as the vendor writes one (`2025-03-31 08:50:54.783`) or as this simulator does (`…T…Z`)."""
DATETIME_FORMS = "a date YYYY-MM-DD, a date-time YYYY-MM-DD HH:MM:SS[.fff] or YYYY-MM-DDTHH:MM:SSZ, or epoch milliseconds"


def _typed(report: ReportDef, filt: str, op: str, typ: str, raw: Any) -> Any:
    """A condition value as the column stores it; for dates a [start, end) ms range: the span the value names
    (a day, a minute, a second, a millisecond: as precise as it is written)."""
    where = f"filter {filt} ({typ})"
    if typ == "string":
        if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
            raise SimError(400, f"{where}: {op} needs a text value (got {json.dumps(raw)})", filt)
        return str(raw)
    if typ == "integer":
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        if isinstance(raw, float) and raw.is_integer():
            return int(raw)
        if isinstance(raw, str) and re.fullmatch(r"\s*[+-]?\d+\s*", raw):
            return int(raw)
        raise SimError(400, f"{where}: {op} needs a whole number (got {json.dumps(raw)})", filt)
    if typ == "number":
        try:
            if isinstance(raw, bool):
                raise ValueError
            value = float(raw)
        except (TypeError, ValueError):
            raise SimError(400, f"{where}: {op} needs a number (got {json.dumps(raw)})", filt) from None
        if value != value or value in (float("inf"), float("-inf")):
            raise SimError(400, f"{where}: {op} needs a finite number (got {json.dumps(raw)})", filt)
        return value
    if typ == "boolean":
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
            return raw.strip().lower() == "true"
        raise SimError(400, f"{where}: {op} needs true or false (got {json.dumps(raw)})", filt)
    # date and datetime: a day matches the whole day; a date-time its minute, second or millisecond; epoch ms its own
    forms = DATETIME_FORMS if typ == "datetime" else "a date YYYY-MM-DD"
    if typ == "datetime" and isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
        return (raw, raw + 1)
    if not isinstance(raw, str):
        raise SimError(400, f"{where}: {op} needs {forms} (got {json.dumps(raw)})", filt)
    text = raw.strip()
    try:
        start = day_ms(text)
        return (start, start + DAY_MS)
    except ValueError:
        pass
    match = DATETIME_RE.fullmatch(text) if typ == "datetime" else None
    if match is not None:
        try:
            at = datetime_ms(text)
        except ValueError:
            pass
        else:
            span = 1 if match["frac"] else 1000 if match["sec"] else 60_000
            return (at - at % span, at - at % span + span)
    raise SimError(400, f"{where}: {op} needs {forms} (got {json.dumps(raw)})", filt)


def _text_bound(filt: str, op: str, raw: Any) -> tuple[str, Any]:
    """A comparison's value on a text column: a JSON number compares with the values that read as numbers
    (the vendor's `{"accountID" : {"$gt" : 101202692754}}`), text compares as text (case sensitive)."""
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return ("number", float(raw))
    if isinstance(raw, str):
        return ("text", raw)
    raise SimError(400, f"filter {filt} (string): {op} needs a text value or a number (got {json.dumps(raw)})", filt)


_NUMERIC_TEXT = re.compile(r"[+-]?\d+(?:\.\d+)?")


def _text_key(kind: str, v: Any) -> Any:
    """A stored text value as it compares with a bound of `kind` (None: it does not compare)."""
    if kind == "text":
        return v
    return float(v) if isinstance(v, str) and _NUMERIC_TEXT.fullmatch(v) else None


def _compare(op: str, lo: Any, hi: Any = None) -> Callable[[Any], bool]:
    """A predicate over a comparable key (None never matches): `$gt lo`, …, `$btw lo hi`."""
    if op == "$gt":
        return lambda k: k is not None and k > lo
    if op == "$gte":
        return lambda k: k is not None and k >= lo
    if op == "$lt":
        return lambda k: k is not None and k < lo
    if op == "$lte":
        return lambda k: k is not None and k <= lo
    return lambda k: k is not None and lo <= k <= hi


def _compile(report: ReportDef, table: Table, filt: str, op: str, raw: Any) -> Cond:
    filters = report.filter_map()
    if filt in GLOBAL_NAMES:
        raise SimError(400, f"{filt} is a global filter: give it as a parameter, not inside query", filt)
    if filt not in filters:
        raise SimError(400, f"unknown filter {filt!r} for report {report.group}: the filters are {', '.join(filters)}", filt)
    column = filters[filt]
    typ = report.column_type(column)
    if op in LOGICAL:
        raise SimError(400, f"filter {filt}: {op} joins clauses at the top of query, not inside a filter", filt)
    if op not in OPERATORS:
        raise SimError(400, f"filter {filt}: unknown operator {op!r}: the operators are {', '.join(OPERATORS)}", filt)
    allowed = OPERATORS[op][1]
    if typ not in allowed:
        raise SimError(400, f"filter {filt}: operator {op} does not apply to {typ} fields (it applies to {', '.join(allowed)})", filt)
    idx = table.columns.index(column)
    if op in ("$in", "$nin"):
        if not isinstance(raw, list) or not raw:
            raise SimError(400, f"filter {filt}: {op} needs a non-empty list of values (got {json.dumps(raw)})", filt)
        raws = raw
    elif op == "$btw":
        if not isinstance(raw, list) or len(raw) != 2:
            raise SimError(
                400, f"filter {filt}: $btw needs a list of two values, the lower and the upper bound (got {json.dumps(raw)})", filt
            )
        raws = raw
    else:
        if isinstance(raw, (list, dict)) or raw is None:
            raise SimError(400, f"filter {filt}: {op} needs a single value (got {json.dumps(raw)})", filt)
        raws = [raw]
    pred: Callable[[Any], bool]
    if typ == "string" and op in ("$gt", "$gte", "$lt", "$lte", "$btw"):
        bounds = [_text_bound(filt, op, r) for r in raws]
        if op == "$btw" and bounds[0][0] == bounds[1][0] and bounds[0][1] > bounds[1][1]:
            raise SimError(400, f"filter {filt}: $btw takes the lower bound first (got {json.dumps(raw)})", filt)
        tests = [
            (kind, _compare("$gte" if op == "$btw" and n == 0 else "$lte" if op == "$btw" else op, value))
            for n, (kind, value) in enumerate(bounds)
        ]

        def pred(v: Any, tests: list[tuple[str, Callable[[Any], bool]]] = tests) -> bool:
            return v is not None and all(test(_text_key(kind, v)) for kind, test in tests)

        return Cond(idx, pred, (idx, op, tuple(bounds)))
    values = [_typed(report, filt, op, typ, r) for r in raws]
    if op == "$btw" and values[0] > values[1]:
        raise SimError(400, f"filter {filt}: $btw takes the lower bound first (got {json.dumps(raw)})", filt)
    if typ in ("date", "datetime"):
        ranges: list[tuple[int, int]] = values
        if op in ("$eq", "$in", "$ne", "$nin"):
            inside = op in ("$eq", "$in")

            def pred(v: Any, ranges: list[tuple[int, int]] = ranges, inside: bool = inside) -> bool:
                return v is not None and any(a <= v < b for a, b in ranges) is inside
        else:
            # a value names a span: after it is past its end, before it is before its start;
            # between two is from the first one's start to the second one's end
            (a, b), end = ranges[0], ranges[-1][1]
            if op == "$btw":

                def pred(v: Any, a: int = a, end: int = end) -> bool:
                    return v is not None and a <= v < end
            else:
                pred = {"$gt": _compare("$gte", b), "$gte": _compare("$gte", a), "$lt": _compare("$lt", a), "$lte": _compare("$lt", b)}[op]
    elif op in ("$eq", "$in", "$ne", "$nin"):
        wanted = frozenset(values)
        if op in ("$ne", "$nin"):

            def pred(v: Any, wanted: frozenset[Any] = wanted) -> bool:
                return v is not None and v not in wanted
        elif len(wanted) == 1:
            (one,) = wanted

            def pred(v: Any, one: Any = one) -> bool:
                return v == one and v is not None
        else:
            pred = wanted.__contains__
    elif op in ("$gt", "$gte", "$lt", "$lte", "$btw"):
        pred = _compare(op, *values)
    else:
        needle = values[0].lower()
        test_text = {"$sw": str.startswith, "$ew": str.endswith, "$con": str.__contains__}[op]

        def pred(v: Any, needle: str = needle, test: Callable[[str, str], bool] = test_text) -> bool:
            return v is not None and test(v.lower(), needle)

    return Cond(idx, pred, (idx, op, tuple(values)))


def _clauses(report: ReportDef, table: Table, query: dict[str, Any]) -> list[Cond]:
    """One condition per key of a `query` object: a filter's (several operators on one filter must all hold), or
    an `$and`/`$or` group, whose value is itself such an object (RESTDAPIFilterQueryConditions.htm)."""
    out: list[Cond] = []
    for filt, spec in query.items():
        if filt in LOGICAL:
            if not isinstance(spec, dict) or not spec:
                raise SimError(
                    400,
                    f'{filt} needs an object of clauses, such as {{"{filt}": {{"accountID": {{"$eq": "1012"}}, '
                    f'"accountName": {{"$sw": "Acme"}}}}}} (got {json.dumps(spec)})',
                    filt,
                )
            parts = tuple(_clauses(report, table, spec))
            out.append(Cond(-1, bool, (filt, tuple(p.key for p in parts)), parts, filt == "$or"))
        elif isinstance(spec, dict):
            if not spec:
                raise SimError(400, f'filter {filt}: give an operator such as {{"$eq": value}}', filt)
            ops = tuple(_compile(report, table, filt, op, raw) for op, raw in spec.items())
            out.append(ops[0] if len(ops) == 1 else Cond(-1, bool, ("$and", tuple(p.key for p in ops)), ops))
        elif isinstance(spec, list):
            out.append(_compile(report, table, filt, "$in", spec))
        else:
            out.append(_compile(report, table, filt, "$eq", spec))
    return out


@dataclass
class Params:
    """A report request, parsed and checked."""

    start: int
    end: int
    limit: int
    page: int
    interactive: bool
    fmt: str
    conds: list[Cond]
    link_items: list[tuple[str, str]]  # the parameters links repeat (without pageNumber)


def _window(now: int, values: dict[str, Any]) -> tuple[int, int]:
    """[start, end) in epoch ms from pastDays or dateFrom/dateTo, clipped to the history."""
    cutoff = now - HISTORY_DAYS * DAY_MS
    raw_from, raw_to = values.get("dateFrom"), values.get("dateTo")
    if raw_from is None and raw_to is None:
        days = _int("pastDays", values.get("pastDays", 1), 1, HISTORY_DAYS)
        return max(cutoff, now - days * DAY_MS), now + 1
    bounds: dict[str, int] = {}
    for name, raw in (("dateFrom", raw_from), ("dateTo", raw_to)):
        if raw is None:
            continue
        try:
            bounds[name] = day_ms(_text(name, raw).strip())
        except ValueError:
            raise SimError(400, f"{name} must be a date YYYY-MM-DD (got {raw!r})", name) from None
    start = bounds.get("dateFrom", bounds.get("dateTo", 0) - HISTORY_DAYS * DAY_MS)
    end = bounds.get("dateTo", start + HISTORY_DAYS * DAY_MS)
    if end < start:
        raise SimError(400, f"dateTo ({fmt_date(end)}) must not be before dateFrom ({fmt_date(start)}); dateTo is excluded", "dateTo")
    if end - start > HISTORY_DAYS * DAY_MS:
        raise SimError(
            400,
            f"dateFrom {fmt_date(start)} to dateTo {fmt_date(end)} spans {(end - start) // DAY_MS} days: the limit is {HISTORY_DAYS}",
            "dateTo",
        )
    return max(start, cutoff), min(end, now + 1)


def _decode_query(query: Any) -> dict[str, Any]:
    """The `query` filter as a dict (it may arrive as JSON text or, in a POST, as an object)."""
    if query is None:
        return {}
    if isinstance(query, str):
        if not query.strip():
            return {}
        try:
            query = json.loads(query)
        except ValueError as exc:
            raise SimError(400, f"query is not valid JSON: {exc}", "query") from None
    if not isinstance(query, dict):
        raise SimError(400, 'query must be a JSON object such as {"accountID": {"$sw": "1012"}}', "query")
    return query


def _parse(report: ReportDef, table: Table, now: int, values: dict[str, Any], query: dict[str, Any]) -> Params:
    """Check the global filters in `values` and compile the conditions of `query`."""
    start, end = _window(now, values)
    limit = _int("limitRecords", values.get("limitRecords", DEFAULT_LIMIT), 1, MAX_LIMIT)
    page = _int("pageNumber", values.get("pageNumber", 1), 1, None)
    mode = _text("mode", values.get("mode", "BATCH")).strip().upper()
    if mode not in ("BATCH", "INTERACTIVE"):
        raise SimError(400, f"mode must be BATCH or INTERACTIVE (got {values.get('mode')!r})", "mode")
    fmt = _text("format", values.get("format", "json")).strip().lower()
    if fmt not in ("json", "csv"):
        raise SimError(400, f"format must be json or csv (got {values.get('format')!r})", "format")
    conds: list[Cond] = []
    for clause in _clauses(report, table, query):  # the top level's clauses all hold: an AND group is taken apart
        conds.extend(clause.parts if clause.column < 0 and not clause.any_of else (clause,))
    return Params(start, end, limit, page, mode == "INTERACTIVE", fmt, conds, [])


def _add_plain(query: dict[str, Any], filt: str, spec: Any) -> None:
    """A plain filter (`field=value`, or a top-level POST key) joins the query's conditions."""
    if filt in query:
        raise SimError(400, f"filter {filt} is given twice: as a parameter and inside query", filt)
    query[filt] = spec


WINDOW_STEP_MS = 3_600_000
"""How far "now" moves between two data requests under the `window-moves` dialect."""


def _report_now(request: Request) -> int:
    """The clock a data request is answered at: the world's, or (`window-moves`) an hour later per
    request before it, so a long run over a rolling pastDays window sees records leave its old end."""
    now = world_of(request).now_ms()
    if "window-moves" not in dialects_of(request):
        return now
    state = request.app.state
    moves = getattr(state, "window_moves", 0)
    state.window_moves = moves + 1
    return now + moves * WINDOW_STEP_MS


async def _params(request: Request, report: ReportDef, table: Table) -> Params:
    now = _report_now(request)
    if request.method == "GET":
        values: dict[str, Any] = {}
        plain: dict[str, list[str]] = {}
        raw_query = None
        for key, value in request.query_params.multi_items():
            if key == "query":
                raw_query = value
            elif key in GLOBAL_NAMES:
                values[key] = value
            else:
                plain.setdefault(key, []).append(value)
        query = dict(_decode_query(raw_query))
        for filt, raws in plain.items():
            _add_plain(query, filt, raws[0] if len(raws) == 1 else {"$in": raws})
        params = _parse(report, table, now, values, query)
        params.link_items = [(k, v) for k, v in request.query_params.multi_items() if k != "pageNumber"]
        return params
    raw = await read_json(request, required=False)
    body = raw if raw is not None else {}
    if not isinstance(body, dict):
        raise SimError(400, 'the request body must be a JSON object of filters, e.g. {"pastDays": 7}')
    values = {k: v for k, v in body.items() if k in GLOBAL_NAMES and k != "query" and v is not None}
    query = dict(_decode_query(body.get("query")))
    for key, spec in body.items():
        if key not in GLOBAL_NAMES:
            _add_plain(query, key, spec)
    params = _parse(report, table, now, values, query)
    items = [(k, v if isinstance(v, str) else json.dumps(v)) for k, v in values.items() if k != "pageNumber"]
    if query:
        items.append(("query", json.dumps(query, separators=(",", ":"))))
    params.link_items = items
    return params


def _link(request: Request, params: Params, page: int) -> str:
    return str(request.url.replace(query=urlencode([*params.link_items, ("pageNumber", str(page))])))


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if v is None else (str(v).lower() if isinstance(v, bool) else v) for v in row.values()])
    return out.getvalue()


# -- handlers ------------------------------------------------------------------------


JAVA_TYPES = {"string": "String", "integer": "Integer", "number": "Double", "boolean": "Boolean", "date": "Date", "datetime": "DateTime"}


def documented_filters(report: ReportDef) -> list[dict[str, Any]]:
    """The group's filters in the form RESTDAPIFilterQueryGroup.htm describes (report-types-documented)."""
    return [{"filterName": f["name"], "dataType": JAVA_TYPES[f["type"]]} for f in report.describe_filters()]


async def report_names(request: Request) -> Response:
    _caller(request)
    if "report-names-objects" in dialects_of(request):
        return json_response({"data": [{"reportName": r.group, "description": r.description} for r in REPORTS.values()]})
    return json_response({"data": list(REPORTS)})


async def report_types(request: Request) -> Response:
    _caller(request)
    if "report-types-documented" in dialects_of(request):
        return json_response({"data": [{"reportName": r.group, **f} for r in REPORTS.values() for f in documented_filters(r)]})
    return json_response({"data": [r.describe() for r in REPORTS.values()]})


async def report_type(request: Request) -> Response:
    _caller(request)
    if "report-types-documented" in dialects_of(request):
        return json_response({"data": documented_filters(_report(request))})
    return json_response({"data": [_report(request).describe()]})


async def report_filters(request: Request) -> Response:
    _caller(request)
    report = _report(request)
    return json_response({"name": report.group, "data": report.describe_filters()})


async def op_list(request: Request) -> Response:
    _caller(request)
    dialects = dialects_of(request)
    described = {**{op: d for op, (d, _) in OPERATORS.items()}, **LOGICAL}
    if "op-list-map" in dialects:
        return json_response({"data": described})
    if "op-list-notation" in dialects:
        return json_response({"data": [{"operatorNotation": op, "description": d} for op, d in described.items()]})
    listed = [{"operator": op, "description": d, "types": list(t)} for op, (d, t) in OPERATORS.items()]
    return json_response({"data": listed + [{"operator": op, "description": d, "types": []} for op, d in LOGICAL.items()]})


async def global_filters(request: Request) -> Response:
    _caller(request)
    return json_response({"data": GLOBAL_FILTERS})


async def report_data(request: Request) -> Response:
    _caller(request)
    report = _report(request)
    world = world_of(request)
    table = table_of(world, report.group)
    params = await _params(request, report, table)
    lo = bisect.bisect_left(table.times, params.start)
    hi = bisect.bisect_left(table.times, params.end)
    matches = table.matching(lo, hi, params.conds)
    total = len(matches)
    pages = -(-total // params.limit)
    first = (params.page - 1) * params.limit
    rows = table.rows(matches[first : first + params.limit])
    dialects = dialects_of(request)
    no_links = "links-none" in dialects
    prev_url, next_url = (None, None) if no_links else _page_links(request, params, pages, "links-every-page" in dialects)
    links = []
    if prev_url:
        links.append(f'<{prev_url}>; rel="prev"')
    if next_url:
        links.append(f'<{next_url}>; rel="next"')
    headers = {"Link": ", ".join(links)} if links else {}
    counted = params.interactive and not no_links
    if params.fmt == "csv":
        if counted:
            headers.update({"X-Record-Count": str(total), "X-Total-Pages": str(pages)})
        return Response(_csv(table.columns, rows), media_type="text/csv; charset=utf-8", headers=headers)
    if no_links:
        return json_response({"data": rows})
    header: dict[str, Any] = {"pageNumber": params.page, "pageSize": params.limit}
    if counted:
        header.update(recordCount=total, totalPages=pages)
    header.update(previousPageURL=prev_url, nextPageURL=next_url)
    return json_response({"header": header, "data": rows}, headers=headers)


def _page_links(request: Request, params: Params, pages: int, every_page: bool) -> tuple[str | None, str | None]:
    """(previous, next) page URLs: none past either end, unless `every_page` wants a next link always."""
    prev_url = _link(request, params, min(params.page - 1, pages)) if params.page > 1 and pages > 0 else None
    if every_page or params.page < pages:
        return prev_url, _link(request, params, params.page + 1)
    return prev_url, None


def routes(world: World) -> list[BaseRoute]:
    # Nothing is generated here: each group is built on its first request.
    return [
        Route("/report-names", report_names, methods=["GET"]),
        Route("/report-types", report_types, methods=["GET"]),
        Route("/report-types/{group}", report_type, methods=["GET"]),
        Route("/report-filters/{group}", report_filters, methods=["GET"]),
        Route("/op-list", op_list, methods=["GET"]),
        Route("/global-filters", global_filters, methods=["GET"]),
        Route("/{group}", report_data, methods=["GET", "POST"]),
    ]
