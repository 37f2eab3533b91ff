"""The data report service (seed 001, notes §3): its data model calls and a fast pager.

"Last week's fulfillments for this account as CSV" may be 100,000 records in
pages of at most 2,500 over a slow link, so the pager does two things:

- When the first page tells the total (INTERACTIVE mode: `recordCount`,
  `totalPages` in the body's header), it asks for the remaining pages by number,
  several at once (a bounded number in flight, default 6), and hands them to the
  caller strictly in order as they arrive, buffering only a small window ahead.
- Otherwise (BATCH mode, or a server that tells no totals) it follows the next
  page links one by one. Links are read from the `Link` response header (the
  seed), from `X-Next-Page`/`X-Previous-Page`, or from the body's
  `header.nextPageURL` (the notes); they may be absolute or relative. A link is
  always re-rooted at the profile's data service, so credentials never travel
  to a host the profile does not name.

Every page is cached (profile + group + filters + page number), so paging back
or reopening a report answers at once and offline reads work. The pager is an
async iterator with `aclose()` (and `async with`): closing it, or cancelling
the task that reads it, cancels the requests in flight and leaves no task
behind.
"""

from __future__ import annotations

import asyncio
import math
import operator
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import aclosing
from dataclasses import dataclass, fields
from typing import Any, NamedTuple, TypeVar
from urllib.parse import parse_qs, quote, urljoin, urlsplit

import httpx

from flextui.api.errors import ApiError, Unreadable
from flextui.api.filters import (
    FILTER_NAME_KEYS,
    GROUP_NAME_KEYS,
    FilterError,
    FilterSet,
    GlobalFilter,
    OperatorList,
    ReportFilter,
    ReportType,
    name_of,
)
from flextui.api.http import Fetched, Service, Session, decode_body, decode_json
from flextui.api.paging import DEFAULT_MAX_REQUESTS, Outcome, fingerprint
from flextui.api.tolerant import list_items
from flextui.api.wire import Wire
from flextui.secret_names import is_secret_name

T = TypeVar("T")

DEFAULT_CONCURRENCY = 6

RECORD_KEYS: dict[str, tuple[str, ...]] = {
    "account": ("accountID",),
    "user": ("userName",),
    "entitlement": ("entitlementID", "activationID"),  # a row per line item
    "device": ("deviceID",),
    "served-device": ("servedClientHostID", "serverDeviceID"),
    "fulfillment": ("fulfillmentID",),
    "usage": ("usageId",),
}
"""The columns that name one record of each documented group (product-feature rows have no key)."""


def record_key(group: str, row: dict[str, Any]) -> tuple[Any, ...] | None:
    """The record a row is, where its group has a key: a row seen twice while paging a moving
    "past N days" window (records arriving shift the offsets) is the same record, not a new one."""
    names = RECORD_KEYS.get(group)
    if not names:
        return None
    values = tuple(row.get(name) for name in names)
    return None if any(value is None for value in values) else values


def moved_note(moved: tuple[int, int] | None, *, short: bool = False) -> str | None:
    """ "the record count changed while paging (…)": pages asked by offset over a window that moved
    can skip records (the oldest leave, the rest shift back) or repeat them (new ones push the rest on).
    `short`: the first clause only (a one-row count line)."""
    if moved is None:
        return None
    before, after = moved
    what = f"the count changed while paging ({before:,} → {after:,})"
    return what if short else f"{what}: the window moved, records may be missing; dateFrom/dateTo hold still"


def moving_window(filters: FilterSet) -> bool:
    """Whether the report's window is a rolling "past N days" one (also the service's default, the past day),
    which moves while it is read page by page; a dateFrom/dateTo window holds still."""
    return filters.date_from is None and filters.date_to is None


UNCHECKED_NOTE = "no count from the server to check a moving window against: records may be missing; dateFrom/dateTo hold still"
"""A rolling window read page by page from a server that gave no record count: records that left its old end
meanwhile shift the rest back past a page boundary, and nothing tells how many were skipped."""


def unchecked_note(unchecked: bool, *, short: bool = False) -> str | None:
    """What the user must know when a moving window was read in pages with no count to check it against, or None.
    `short`: without the way out (a one-row count line; the status line has all of it)."""
    if not unchecked:
        return None
    return UNCHECKED_NOTE.split(": records may")[0] if short else UNCHECKED_NOTE


class Repeats:
    """Drops the records a run has already handed over (by `record_key`) and counts them.

    Paging a moving "past N days" window by offset shifts records across a page boundary, so one
    can come twice: at the end of page p and again at the start of page p + 1. The service has no
    finer time filter than whole days (dateFrom/dateTo, `RESTDAPIFilterQueryGlobal.htm`), so the
    window cannot be frozen to the second it was first asked; dropping repeats is what keeps a run
    (and its resumption) honest. `pages=None` remembers every key (the TUI holds every row anyway);
    `pages=N` remembers the last N pages' keys, so a streamed export's memory does not grow with
    the row count: a shift larger than a page is not a window moving during one run.

    Only a moving window repeats records (`moving`): a dateFrom/dateTo window holds still, so a key
    seen twice there is two rows of one record, not one record twice, and both are kept. The docs do
    not say a group has one row per key (RESTDAPIFilterQueryGroup.htm filters the device group by
    entitlement and product too, as if a device had a row per line item), so a run that cannot move
    never drops a row for its key alone.
    """

    def __init__(self, group: str, *, pages: int | None = None, moving: bool = True) -> None:
        self.group = group
        self.moving = moving
        self.dropped = 0
        if pages is not None and pages < 1:
            raise ValueError("Repeats remembers at least one page")
        self._bounded = pages is not None
        self._current: set[Any] = set()
        self._earlier: deque[set[Any]] = deque(maxlen=(pages or 1) - 1)
        """The keys of the pages before the current one that are still remembered (none when every key is)."""

    def fresh(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The rows of the next page that are not repeats (the same list when none is)."""
        if self.group not in RECORD_KEYS or not self.moving:
            return rows
        if self._bounded:  # a new page: the one before it is remembered among the earlier ones (or forgotten)
            self._earlier.append(self._current)
            self._current = set()
        current = self._current
        earlier = set().union(*self._earlier)
        keys = self._keys(rows)
        if keys is not None:  # every row keyed: a page without repeats (the usual case) is checked as sets, in C
            distinct = set(keys)
            if len(distinct) == len(keys) and current.isdisjoint(distinct) and earlier.isdisjoint(distinct):
                current |= distinct
                return rows
        kept = []
        single = len(RECORD_KEYS[self.group]) == 1
        for row in rows:
            key: Any = record_key(self.group, row)
            if key is not None:
                key = key[0] if single else key
                if key in current or key in earlier:
                    self.dropped += 1
                    continue
                current.add(key)
            kept.append(row)
        return rows if len(kept) == len(rows) else kept

    def forget(self) -> None:
        """Let go of the keys (a finished run will not be resumed; a million of them hold ≈ 140 MB), keep the count."""
        self._current = set()
        self._earlier.clear()

    def remember(self, keys: Iterable[tuple[Any, ...]], dropped: int = 0) -> None:
        """Take over a past run's state: the `record_key`s of the rows it kept (a key holding None is no key)
        and how many repeats it dropped, so that loading the rest of it still drops repeats."""
        self.dropped += dropped
        single = len(RECORD_KEYS.get(self.group, ())) == 1
        self._current.update(key[0] if single else key for key in keys if None not in key)

    def _keys(self, rows: list[dict[str, Any]]) -> list[Any] | None:
        """`record_key` of every row (its one value, for a group keyed by one field), or None when a row lacks
        one (those rows are kept as they are, one by one)."""
        names = RECORD_KEYS[self.group]
        try:
            values = list(map(operator.itemgetter(*names), rows))
        except (KeyError, TypeError):
            return None
        if len(names) == 1:  # the value itself: a million 1-tuples were 56 MB of the 138 MB the keys held
            return None if None in values else values
        return None if any(None in key for key in values) else values


_COUNT_KEYS = ("recordCount", "totalRecords", "totalRecordCount", "recordsCount", "count", "totalCount")
_PAGES_KEYS = ("totalPages", "pageCount", "totalPageCount", "pages")
_NEXT_KEYS = ("nextPageURL", "nextPageUrl", "nextPage", "next")
_PREV_KEYS = ("previousPageURL", "previousPageUrl", "prevPageURL", "previousPage", "previous", "prev")


class ReportPage(NamedTuple):
    """One page as the pager hands it over: `for number, rows, total in pager`."""

    number: int
    rows: list[dict[str, Any]]
    total_records: int | None


@dataclass(slots=True)
class PageResult:
    """One fetched page with everything its answer said about paging."""

    number: int
    rows: list[dict[str, Any]]
    total_records: int | None = None
    total_pages: int | None = None
    page_size: int | None = None
    next_url: str | None = None
    previous_url: str | None = None
    url: str | None = None  # where it was fetched (links are relative to it)
    age: float | None = None  # seconds since cached; None when fresh


def _int_or_none(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _first(mapping: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = mapping.get(key)
        if value not in (None, ""):
            return value
    return None


def wire_meta(response: httpx.Response, requested: int) -> dict[str, Any]:
    """What a report answer's headers and address say about paging (kept with its bytes in the cache)."""
    links = response.links
    return {
        "requested": requested,
        "url": str(response.request.url),
        "next": (links.get("next") or {}).get("url") or response.headers.get("X-Next-Page") or None,
        "previous": (links.get("prev") or links.get("previous") or {}).get("url") or response.headers.get("X-Previous-Page") or None,
        "records": response.headers.get("X-Record-Count") or response.headers.get("X-Total-Count"),
        "pages": response.headers.get("X-Total-Pages"),
        "status": response.status_code,
        "content_type": response.headers.get("content-type", ""),
    }


def page_links(response: httpx.Response, body: Any) -> tuple[str | None, str | None]:
    """(previous, next) page URLs from the response headers or the body's header (headers win)."""
    meta = wire_meta(response, 0)
    return _links(meta, body)


def _links(meta: Mapping[str, Any], body: Any) -> tuple[str | None, str | None]:
    nxt, prev = meta.get("next"), meta.get("previous")
    header = body.get("header") if isinstance(body, Mapping) else None
    if isinstance(header, Mapping):
        nxt = nxt or _first(header, _NEXT_KEYS)
        prev = prev or _first(header, _PREV_KEYS)
    return (prev if isinstance(prev, str) else None), (nxt if isinstance(nxt, str) else None)


def normalise_page(response: httpx.Response, body: Any, requested: int) -> dict[str, Any]:
    """The essence of a report answer: rows, counts and links (absolute)."""
    return normalise(wire_meta(response, requested), body)


def normalise(meta: Mapping[str, Any], body: Any) -> dict[str, Any]:
    """Rows, counts and links (absolute) from an answer's header facts and its JSON body."""
    header = body.get("header") if isinstance(body, Mapping) else None
    header = header if isinstance(header, Mapping) else {}
    # `data` (RESTDAPIFilterQueryGlobal.htm's payload, a public client's `.get("data")`) holding the rows, or
    # null for an empty page (Jackson's); an answer without it (an error body sent with 200, `{}`, null) or
    # whose status says it failed is `Unreadable`, never an empty page: that would end the report there.
    rows = list_items(body, "data", null_is_empty=False)
    prev, nxt = _links(meta, body)
    here = str(meta.get("url") or "")
    total = _int_or_none(_first(header, _COUNT_KEYS))
    if total is None:
        total = _int_or_none(meta.get("records"))
    pages = _int_or_none(_first(header, _PAGES_KEYS))
    if pages is None:
        pages = _int_or_none(meta.get("pages"))
    return {
        "number": _int_or_none(header.get("pageNumber")) or int(meta.get("requested") or 1),
        "rows": rows if all(type(r) is dict for r in rows) else [r for r in rows if isinstance(r, dict)],
        "total_records": total,
        "total_pages": pages,
        "page_size": _int_or_none(header.get("pageSize") or header.get("limitRecords")),
        "next_url": urljoin(here, nxt) if nxt else None,
        "previous_url": urljoin(here, prev) if prev else None,
        "url": here,
    }


def _page_result(raw: Any) -> PageResult:
    if isinstance(raw, Wire):
        body = decode_body(raw.body, raw.meta.get("status"), str(raw.meta.get("content_type") or "?"), reader=raw.decode)
        raw = normalise(raw.meta, body)
    return PageResult(**{f.name: raw.get(f.name) for f in fields(PageResult) if f.name != "age"})


def _page_number_of(url: str) -> int | None:
    values = parse_qs(urlsplit(url).query).get("pageNumber")
    return _int_or_none(values[-1]) if values else None


def _same_url(url: str | None) -> str:
    """A URL in one spelling, so two spellings of one page compare equal."""
    return str(httpx.URL(url)) if url else ""


def _items(raw: Any, *, strict: bool = True) -> list[Any]:
    """The list of a data-model answer (`data`, RESTDAPIFilterQueryGroup.htm's "data array"; `items`; a bare
    array); `null` in it is none. An answer with none (an error body sent with 200, `{}`) is `Unreadable`
    (`tolerant.list_items`), or, not `strict`, no items (for a reader that tries other forms next)."""
    try:
        return list_items(raw, "data", "items", null_is_empty=False)
    except Unreadable:
        if strict:
            raise
        return []


class ReportsService:
    """The data report service over a `Session`: data model, operators, filters, pages."""

    def __init__(self, session: Session, *, version: str = "v1") -> None:
        self.session = session
        self.version = version

    @property
    def root(self) -> str:
        return f"/api/{self.version}/report"

    def _path(self, *parts: str) -> str:
        return self.root + "".join("/" + quote(p, safe="") for p in parts)

    async def _cached(
        self,
        op: str,
        params: dict[str, Any],
        fetch: Callable[[], Awaitable[Any]],
        parse: Callable[[Any], T],
        force: bool,
        stored_only: bool = False,
    ) -> Fetched[T]:
        """The freshest answer `session.cached` gives (cache within its freshness, else the network);
        `stored_only`: the stored answer of any age, never a request (`NotStored` when there is none)."""
        if stored_only:
            return await self.session.stored(op, {"version": self.version, **params}, parse)
        result: Fetched[T] | None = None
        async with aclosing(self.session.cached(op, {"version": self.version, **params}, fetch, parse, force=force)) as answers:
            async for result in answers:
                pass
        assert result is not None
        return result

    async def _meta(self, op: str, path: str, parse: Callable[[Any], T], force: bool, params: dict[str, Any] | None = None) -> T:
        async def fetch() -> Any:
            return await self.session.get_json(Service.DATA, path)

        return (await self._cached(op, params or {}, fetch, parse, force)).value

    # -- data model ------------------------------------------------------------------

    async def report_names(self, *, force: bool = False) -> list[str]:
        """The report groups (the values for {group})."""

        def parse(raw: Any) -> list[str]:
            return [name for item in _items(raw) if (name := name_of(item, GROUP_NAME_KEYS)) is not None]

        return await self._meta("reports.names", self._path("report-names"), parse, force)

    async def report_types(self, *, force: bool = False) -> list[ReportType]:
        """The data model of every report: columns and filters."""

        def parse(raw: Any) -> list[ReportType]:
            return [ReportType.from_json(i) for i in _items(raw) if isinstance(i, Mapping) and name_of(i, GROUP_NAME_KEYS)]

        return await self._meta("reports.types", self._path("report-types"), parse, force)

    async def report_type(self, group: str, *, force: bool = False) -> ReportType:
        """The data model of one report."""

        def parse(raw: Any) -> ReportType:
            items = _items(raw, strict=False)
            if len(items) == 1 and isinstance(items[0], Mapping) and ("fields" in items[0] or "columns" in items[0]):
                return ReportType.from_json({"name": group, **items[0]})
            if isinstance(raw, Mapping) and ("fields" in raw or "columns" in raw):
                return ReportType.from_json({"name": group, **raw})
            items = _items(raw)  # no list and no fields: not a data model (an error body sent with 200)
            # The docs' form (RESTDAPIFilterQueryGroup.htm): "the data array lists the filters that are
            # available for the report group". Items flagged `filter` single the filters out of a field
            # list; without flags, every item is a filter (and a column it tests).
            named = [i for i in items if name_of(i, FILTER_NAME_KEYS) is not None]
            flagged = [i for i in named if isinstance(i, Mapping) and i.get("filter")]
            filters = raw.get("filters") if isinstance(raw, Mapping) and isinstance(raw.get("filters"), list) else (flagged or named)
            return ReportType.from_json({"name": group, "fields": named, "filters": filters})

        return await self._meta("reports.type", self._path("report-types", group), parse, force, {"group": group})

    async def report_filters(self, group: str, *, force: bool = False) -> list[ReportFilter]:
        """The filters one report takes."""
        return await self._meta(
            "reports.filters",
            self._path("report-filters", group),
            lambda raw: [ReportFilter.from_json(i) for i in _items(raw) if name_of(i, FILTER_NAME_KEYS)],
            force,
            {"group": group},
        )

    async def op_list(self, *, force: bool = False) -> OperatorList:
        """The conditional operators and the types each applies to; never an error.

        The body of op-list is not documented (notes §3.2), so it is read in every form that names operators
        (`OperatorList.from_json`). When it fails, or names none that can be read, the operators of the vendor's
        page (https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTDAPIFilterQueryConditions.htm)
        stand in, with a `notice` saying so: a list of operators is a help to check conditions before sending,
        never a reason to refuse a report (the server has the last word on a condition).
        """
        try:
            return await self._meta("reports.ops", self._path("op-list"), OperatorList.from_json, force)
        except FilterError as exc:
            return OperatorList.defaults(exc.message)
        except ApiError as exc:
            return OperatorList.defaults(f"the operator list (op-list) could not be had: {exc}")

    async def global_filters(self, *, force: bool = False) -> list[GlobalFilter]:
        """The filters every report takes, with their bounds and defaults."""
        return await self._meta(
            "reports.globals", self._path("global-filters"), lambda raw: [GlobalFilter.from_json(i) for i in _items(raw)], force
        )

    # -- pages --------------------------------------------------------------------------

    def _cache_params(self, group: str, filters: FilterSet, page: int) -> dict[str, Any]:
        return {"group": group, "filters": filters.cache_params(), "page": page}

    async def fetch_page(
        self, group: str, filters: FilterSet, page: int = 1, *, method: str = "GET", force: bool = False, stored_only: bool = False
    ) -> PageResult:
        """One page by number (GET with query parameters, or POST with a JSON body)."""
        method = method.upper()
        if method not in ("GET", "POST"):
            raise ValueError("reports are read with GET or POST")

        async def fetch() -> Any:
            if method == "GET":
                response = await self.session.request(Service.DATA, "GET", self._path(group), params=filters.query_params(page))
            else:
                response = await self.session.request(Service.DATA, "POST", self._path(group), json_body=filters.body(page), mutating=False)
            return self._wire(response, page)

        got = await self._cached("reports.page", self._cache_params(group, filters, page), fetch, _page_result, force, stored_only)
        got.value.age = got.age
        return got.value

    @staticmethod
    def _wire(response: httpx.Response, number: int) -> Wire:
        """A page as received: its bytes (decoded once, when shown) and its header facts."""
        if not response.content.strip():
            decode_json(response)  # an empty body where a page was due: said as every read's is, whose answer to what
            raise Unreadable("the data reports service answered a page with 204 No Content", status=response.status_code)
        return Wire(response.content, wire_meta(response, number))

    def resolve_link(self, link: str, relative_to: str | None = None) -> str:
        """A next/previous link as a path (with query) under the profile's data service."""
        base = self.session.base(Service.DATA)
        absolute = urljoin(relative_to or base + self.root + "/", link)
        if absolute.startswith(base + "/"):
            return absolute[len(base) :]
        parts = urlsplit(absolute)
        at = parts.path.find("/api/")
        if at < 0:
            raise ApiError(f"the page link {link!r} does not point into the data report service")
        # Another host or prefix: keep the path from /api/ on, under our own base.
        return parts.path[at:] + (f"?{parts.query}" if parts.query else "")

    async def fetch_link(
        self,
        group: str,
        filters: FilterSet,
        link: str,
        *,
        number: int,
        relative_to: str | None = None,
        force: bool = False,
        stored_only: bool = False,
    ) -> PageResult:
        """The page a next/previous link names (cached as page `number` of these filters)."""
        path = self.resolve_link(link, relative_to)

        async def fetch() -> Any:
            response = await self.session.request(Service.DATA, "GET", path)
            return self._wire(response, number)

        got = await self._cached("reports.page", self._cache_params(group, filters, number), fetch, _page_result, force, stored_only)
        got.value.age = got.age
        return got.value

    def _view_params(self, group: str, filters: FilterSet, max_records: int | None) -> dict[str, Any]:
        return {"version": self.version, "group": group, "filters": filters.cache_params(), "max_records": max_records}

    async def view_sources(self, group: str, filters: FilterSet, pages: int) -> dict[str, float] | None:
        """Pages 1 to `pages` of this run as stored now (`Session.derived_sources`): ask when the rows to keep
        are taken, before anything may store a page again; None when one of them is not stored."""
        sources = [("reports.page", {"version": self.version, **self._cache_params(group, filters, n)}) for n in range(1, pages + 1)]
        return await self.session.derived_sources(sources)

    async def keep_view(
        self,
        group: str,
        filters: FilterSet,
        *,
        max_records: int | None,
        sources: dict[str, float],
        names: list[str],
        parts: Iterable[bytes],
    ) -> bool:
        """Keep `parts`, what the caller makes of this run's pages as `view_sources` found them (its grid's
        columns `names`), beside them: a revisit reads them instead of decoding every page again
        (`stored_view`). They are valid while each of those pages is still the one stored; False when one has
        been stored again since (nothing kept), and when a column's name marks a secret (the stored pages
        leave such a field out: so must this)."""
        if any(map(is_secret_name, names)):
            return False
        return await self.session.store_derived("reports.view", self._view_params(group, filters, max_records), sources, parts)

    async def stored_view(self, group: str, filters: FilterSet, *, max_records: int | None) -> tuple[list[bytes], float]:
        """What `keep_view` kept for this run and the age of its oldest page, never a request; `NotStored` when
        nothing is kept, or a page it was made from has been stored again (or dropped) since."""
        return await self.session.stored_derived("reports.view", self._view_params(group, filters, max_records))

    def pager(self, group: str, filters: FilterSet, **options: Any) -> ReportPager:
        """Every page of a report from `start_page` on, in order; `options` are `ReportPager`'s
        (method, concurrency, start_page, max_pages, max_records, force, stored_only)."""
        return ReportPager(self, group, filters, **options)

    async def fetch_all(self, group: str, filters: FilterSet, **kwargs: Any) -> list[dict[str, Any]]:
        """Every row of a report (for small reports and tests; big ones should stream `pager`)."""
        rows: list[dict[str, Any]] = []
        async with self.pager(group, filters, **kwargs) as pages:
            async for page in pages:
                rows.extend(page.rows)
        return rows


class ReportPager:
    """An async iterator of `ReportPage`s, in page order, fetched concurrently when it can.

    After the first page, `total_records` and `total_pages` say what the server
    told (None in BATCH mode), `concurrent` whether pages are fetched by number
    in parallel, `oldest_age` the age of the oldest cached page used. Use it as
    `async with service.pager(...) as pages: async for number, rows, total in pages`.
    """

    def __init__(
        self,
        service: ReportsService,
        group: str,
        filters: FilterSet,
        *,
        method: str = "GET",
        concurrency: int = DEFAULT_CONCURRENCY,
        start_page: int = 1,
        max_pages: int | None = None,
        max_records: int | None = None,
        force: bool = False,
        stored_only: bool = False,
        max_requests: int = DEFAULT_MAX_REQUESTS,
        on_done: Callable[[Outcome], None] | None = None,
    ) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if start_page < 1:
            raise ValueError("pages are numbered from 1")
        self.service = service
        self.group = group
        self.filters = filters
        self.method = method
        self.concurrency = concurrency
        self.start_page = start_page
        self.max_pages = max_pages
        self.max_records = max_records
        self.force = force
        self.stored_only = stored_only
        """Only what the cache holds, of any age: a revisit shows it at once (`NotStored` when a page is missing)."""
        self.total_records: int | None = None
        self.total_pages: int | None = None
        self.concurrent = False
        self.pages_done = 0
        self.rows_done = 0
        self.oldest_age: float | None = None
        self._tasks: deque[tuple[int, asyncio.Task[PageResult]]] = deque()
        self._gen: AsyncIterator[ReportPage] | None = None
        self._closed = False
        self.max_requests = max_requests
        self.on_done = on_done if on_done is not None else service.session.record_listing
        self.outcome = Outcome(what="records")
        self.moved: tuple[int, int] | None = None
        """(the first count, the latest) when the server's record count changed while paging: the rows
        are from a window that moved (pages by offset may then skip or repeat records)."""
        self._first_full = False
        self.unchecked = False
        """Set when done: a rolling "past N days" window was read in more than one request and the server gave
        no record count, so records the moving window shifted past a page boundary cannot be told missing."""

    def moved_note(self) -> str | None:
        """What the user must know when the count changed while paging, or None."""
        return moved_note(self.moved)

    def unchecked_note(self) -> str | None:
        """What the user must know when a moving window was read in pages with no count to check, or None."""
        return unchecked_note(self.unchecked)

    # -- iteration -------------------------------------------------------------------

    def __aiter__(self) -> ReportPager:
        return self

    async def __anext__(self) -> ReportPage:
        if self._closed:
            raise StopAsyncIteration
        if self._gen is None:
            self._gen = self._run()
        try:
            return await self._gen.__anext__()
        except StopAsyncIteration:
            await self.aclose()
            raise
        except BaseException:  # an error or a cancellation: nothing may keep running
            await self.aclose()
            raise

    async def aclose(self) -> None:
        """Stop: cancel the requests in flight and wait until they are gone."""
        self._closed = True
        await self._cancel_pending()
        gen, self._gen = self._gen, None
        if gen is not None:
            await gen.aclose()  # type: ignore[attr-defined]

    async def __aenter__(self) -> ReportPager:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _cancel_pending(self) -> None:
        tasks = [task for _, task in self._tasks]
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            # shield nothing: if we are cancelled meanwhile, the tasks are cancelled already
            await asyncio.gather(*tasks, return_exceptions=True)

    # -- work ----------------------------------------------------------------------------

    def _last_page(self, first: PageResult) -> int | None:
        """The last page to ask for, from the totals and the caller's limits (None: unknown)."""
        size = first.page_size or self.filters.limit_records
        pages = first.total_pages
        if pages is None and first.total_records is not None and size:
            pages = math.ceil(first.total_records / size)
        if pages is None:
            return None
        last = pages
        if self.max_pages is not None:
            last = min(last, self.start_page + self.max_pages - 1)
        if self.max_records is not None and size:
            last = min(last, self.start_page + math.ceil(self.max_records / size) - 1)
        return last

    def _hand_over(self, page: PageResult) -> ReportPage | None:
        """Count a page in and trim it to `max_records`; None when nothing is left to give."""
        rows = page.rows
        if self.max_records is not None:
            room = self.max_records - self.rows_done
            if room <= 0:
                return None
            rows = rows[:room]
        if page.total_records is not None and self.total_records is not None and page.total_records != self.total_records:
            self.moved = (self.moved[0] if self.moved else self.total_records, page.total_records)
        self.pages_done += 1
        self.rows_done += len(rows)
        if page.age is not None:
            self.oldest_age = max(self.oldest_age or 0.0, page.age)
        return ReportPage(page.number, rows, self.total_records)

    def _room(self) -> bool:
        if self.max_pages is not None and self.pages_done >= self.max_pages:
            return False
        return self.max_records is None or self.rows_done < self.max_records

    async def _numbered(self, number: int, gate: asyncio.Semaphore) -> PageResult:
        async with gate:
            self.outcome.requests += 1
            return await self.service.fetch_page(
                self.group, self.filters, number, method=self.method, force=self.force, stored_only=self.stored_only
            )

    async def _run(self) -> AsyncIterator[ReportPage]:
        async for page in self._pages():
            yield page
        self._finish()

    async def _pages(self) -> AsyncIterator[ReportPage]:
        first = await self._counted(
            self.service.fetch_page(
                self.group, self.filters, self.start_page, method=self.method, force=self.force, stored_only=self.stored_only
            )
        )
        self.total_records = first.total_records
        self.total_pages = first.total_pages
        self._first_full = len(first.rows) >= self.filters.limit_records
        if self.total_pages is None and first.total_records is not None:
            size = first.page_size or self.filters.limit_records
            self.total_pages = math.ceil(first.total_records / size) if size else None
        handed = self._hand_over(first)
        if handed is None:
            return
        yield handed
        last = self._last_page(first)
        if last is not None:
            self.concurrent = True
            gate = asyncio.Semaphore(self.concurrency)
            window = self.concurrency * 2  # fetched ahead of the reader, at most
            upcoming = self.start_page + 1
            try:
                while self._room() and (self._tasks or upcoming <= last):
                    while upcoming <= last and len(self._tasks) < window:
                        task = asyncio.create_task(self._numbered(upcoming, gate), name=f"report-page-{self.group}-{upcoming}")
                        self._tasks.append((upcoming, task))
                        upcoming += 1
                    _, task = self._tasks[0]
                    page = await task
                    self._tasks.popleft()
                    handed = self._hand_over(page)
                    if handed is None:
                        return
                    yield handed
            finally:
                await self._cancel_pending()
            return
        # No totals: follow the next links; where there are none (BATCH answers may carry none),
        # ask the next page number. Either way, stop on an empty page, a page or link seen before,
        # a page shorter than the pages before it, or the ceiling.
        page = first
        base = self.service.session.base(Service.DATA)
        seen_urls = {_same_url(first.url)}
        seen_pages = {fingerprint(first.rows)}
        size = self.filters.limit_records
        effective = len(first.rows)
        linked = bool(first.next_url or first.previous_url)  # a server that links ends its listing by not linking
        while self._room() and page.rows:
            n = len(page.rows)
            if n < size and n < effective:
                break
            effective = max(effective, n)
            if self.outcome.requests >= self.max_requests:
                self.outcome.cut(f"stopped after {self.max_requests:,} pages (the limit against runaway paging)")
                break
            link = page.next_url
            if link:
                target = _same_url(base + self.service.resolve_link(link, page.url))
                if target in seen_urls:  # a server that links in a circle must not keep us here
                    break
                seen_urls.add(target)
                number = _page_number_of(link) or page.number + 1
                page = await self._counted(
                    self.service.fetch_link(
                        self.group, self.filters, link, number=number, relative_to=page.url, force=self.force, stored_only=self.stored_only
                    )
                )
            elif linked:
                break
            else:
                page = await self._counted(
                    self.service.fetch_page(
                        self.group, self.filters, page.number + 1, method=self.method, force=self.force, stored_only=self.stored_only
                    )
                )
            linked = linked or bool(page.next_url or page.previous_url)
            seen_urls.add(_same_url(page.url))
            print_ = fingerprint(page.rows)
            if page.rows and print_ in seen_pages:  # the same rows again: the server ignores the page number
                break
            seen_pages.add(print_)
            if not page.rows:
                break
            handed = self._hand_over(page)
            if handed is None:
                return
            yield handed

    async def _counted(self, fetching: Awaitable[PageResult]) -> PageResult:
        self.outcome.requests += 1
        return await fetching

    def _finish(self) -> None:
        """Settle the outcome: a count the server stated and did not deliver is a shortfall."""
        outcome = self.outcome
        outcome.count = self.rows_done
        # Records can be skipped only where an answer came after one that did not hold the whole window: a
        # second page with rows, or a first page as full as asked (one that came short held all there was).
        asked_in_pages = self.start_page > 1 or self.pages_done > 1 or (outcome.requests > 1 and self._first_full)
        self.unchecked = self.total_records is None and asked_in_pages and moving_window(self.filters)
        limited = self.max_records is not None and self.rows_done >= self.max_records
        limited = limited or (self.max_pages is not None and self.pages_done >= self.max_pages)
        # Measured against the server's latest count, as the results screen measures it: a count that changed while
        # paging (`moved`) is said by `moved_note`; the first count is no longer how many records there are.
        latest = self.moved[1] if self.moved else self.total_records
        if outcome.complete and latest is not None and not limited and self.start_page == 1 and self.rows_done < latest:
            outcome.cut("the server's pages ended before the record count it gave", latest)
        if self.on_done is not None:
            self.on_done(outcome)

    async def rows(self) -> AsyncIterator[dict[str, Any]]:
        """Every row, page after page (for export)."""
        async for page in self:
            for row in page.rows:
                yield row


__all__ = [
    "DEFAULT_CONCURRENCY",
    "RECORD_KEYS",
    "record_key",
    "Repeats",
    "moved_note",
    "moving_window",
    "unchecked_note",
    "UNCHECKED_NOTE",
    "PageResult",
    "ReportPage",
    "ReportPager",
    "ReportsService",
    "normalise_page",
    "page_links",
]
