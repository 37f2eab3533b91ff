"""The one pager for numbered listings: bounded against any server, never silent about a shortfall.

The services page differently, and the docs disagree with themselves
(notes §5, §6): the token list counts pages from 0 and spells its size
`pagesize` in the docs' table but `pageSize` in the OpenAPI
(https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/TokenBasedAuthManTokensList.htm,
https://fnoapi.redocly.app/apis/rest/accesstokencontroller/openapi-access-tokens/access-token-controller/gettokensforuserusingget_1.md);
registry members default to page 1
(https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivListMembers.htm);
the beta APIs do not say where pages start, and Spring Data's default is 0.
Harbor-style registries cap page sizes at 100 without saying so. A client
that stops "on a short page" therefore loops forever on a server that ignores
the page size, and stops early on one that caps it or counts from 0.

`Pager` walks a numbered listing with rules that hold whatever the server
does:

- It stops on an empty page, on a page it has seen before (a server that
  ignores the page number), on reaching a known total, on a refusal past the
  first page (a strict server's "no such page"), and at a hard ceiling of
  requests.
- A short but non-empty page is not the end by itself: the server may cap the
  size. The largest page seen is the server's effective size; a page shorter
  than that is the end, and a short first page is settled by one more request.
- Where a listing's first page number is unknown, page 0 is asked first: a
  refusal means pages count from 1; an answer equal to page 1 means 0 is an
  alias of 1; anything else means pages count from 0. The finding is handed
  to `on_base` so the session remembers it.
- Items are de-duplicated by `key` when the listing has one, so overlapping
  pages list each item once. An item whose key is None has no identity (a
  record the client could not read): it is never taken for a repeat, so it
  is listed, never dropped silently.

What it could not get is in `outcome` ("showing N of at least M", and why),
never swallowed: the headless CLI prints it and exits non-zero, screens show it.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from flextui.api.errors import Invalid, NotFound

T = TypeVar("T")

log = logging.getLogger("flextui.paging")

DEFAULT_MAX_REQUESTS = 5000
"""The hard ceiling of page requests for one listing: no loop can run away."""


@dataclass(slots=True)
class Page(Generic[T]):
    """One page of a listing: its items, number, size and, when known, the total.

    `size` is the page size the server actually used where that is known
    (a server may cap or ignore the size asked for); `more` says whether a
    further page exists when the answer told (None: unknown). `whole` says
    the server ignored paging and answered its whole list (see
    `Listing.page`): then this page is the only one.
    """

    items: list[T]
    number: int
    size: int
    total: int | None = None
    age: float | None = None  # seconds since cached; None when fresh
    more: bool | None = None
    whole: bool = False

    @property
    def pages(self) -> int | None:
        """How many pages of `size` the listing has (one when the server answered it whole); None without a total."""
        if self.whole:
            return 1
        if self.total is None:
            return None
        return pages_of(self.total, self.size)


def pages_of(total: int, size: int) -> int:
    """How many pages of `size` hold `total` items (at least one: an empty listing is one empty page)."""
    return max(1, -(-total // max(1, size)))


@dataclass(slots=True)
class Outcome:
    """How a listing ended: how many items it gave, whether that was all, and if not, why."""

    what: str = "items"
    count: int = 0
    complete: bool = True
    at_least: int | None = None
    reason: str | None = None
    requests: int = 0
    base: int | None = None
    interrupted: bool = False
    """The listing did not run to its end by the rules above: its reader stopped early, or a page failed.
    Not a shortfall (what was read is right), but not the whole listing either."""

    def cut(self, reason: str, at_least: int | None = None) -> None:
        self.complete = False
        self.reason = reason
        self.at_least = max(at_least or 0, self.count + 1)

    def describe(self) -> str:
        """ "showing 100 of at least 150 tokens: the server's pages ended before its total" """
        if self.complete:
            return f"{self.count:,} {self.what}"
        return f"showing {self.count:,} of at least {self.at_least or self.count + 1:,} {self.what}: {self.reason}"


def served_notes(whole: bool, served: int | None, asked: int, total: int | None) -> list[str]:
    """What a screen's pager line says of a server that pages otherwise than asked (its pages follow the server, `Listing.page`)."""
    if whole:
        return ["the server ignores paging: all on one page"]
    if served is not None and served != asked and (total is None or total > served):
        return [f"{served:,} a page (the server's size; {asked:,} asked)"]
    return []


def distinct(items: list[T], key: Callable[[T], Hashable] | None) -> list[T]:
    """`items` with each `key` once, in order (all of them without a key)."""
    if key is None:
        return items
    seen: set[Hashable] = set()
    out = []
    for item in items:
        k = key(item)
        if k is None:  # no identity: never a repeat
            out.append(item)
        elif k not in seen:
            seen.add(k)
            out.append(item)
    return out


def repeats(before: list[T], after: list[T], key: Callable[[T], Hashable] | None) -> bool:
    """Whether the page `after` (the one asked after `before`) holds nothing new: the same page again, from a
    server that ignores the page number. Told by its items' keys where they have them (an item without one
    is new), else by the pages' fingerprints."""
    if fingerprint(after, key) == fingerprint(before, key):
        return True
    if key is None:
        return False
    seen = {key(item) for item in before}
    return all((k := key(item)) is not None and k in seen for item in after)


def fingerprint(items: list[Any], key: Callable[[Any], Hashable] | None = None) -> tuple[Any, ...]:
    """What tells two pages apart cheaply: their length and first and last items."""
    if not items:
        return (0,)

    def ident(item: Any) -> Any:
        k = key(item) if key is not None else None
        return repr(item) if k is None else k  # an item without identity is told by all it holds

    return (len(items), ident(items[0]), ident(items[-1]))


FetchPage = Callable[[int, int], Awaitable[Page[T]]]


class Pager(Generic[T]):
    """An async iterator of item batches from `fetch(number, size)`, bounded and honest.

    `base` is the first page number when known (None: detect it). `total`, when
    the caller knows it (the token count endpoint), ends the listing once
    reached and makes an early end a reported shortfall. `max_items` is the
    caller's own limit (not a shortfall). After iteration, `outcome` tells
    how it ended; `on_done` receives it too.
    """

    def __init__(
        self,
        fetch: FetchPage[T],
        *,
        size: int,
        base: int | None,
        what: str = "items",
        total: int | None = None,
        key: Callable[[T], Hashable] | None = None,
        max_items: int | None = None,
        max_requests: int = DEFAULT_MAX_REQUESTS,
        on_base: Callable[[int], None] | None = None,
        on_done: Callable[[Outcome], None] | None = None,
    ) -> None:
        if size < 1:
            raise ValueError("the page size must be at least 1")
        self._fetch_page = fetch
        self.size = size
        self.base = base
        self.total = total
        self.key = key
        self.max_items = max_items
        self.max_requests = max_requests
        self.on_base = on_base
        self.on_done = on_done
        self.outcome = Outcome(what=what, base=base)
        self._keys: set[Hashable] = set()

    # -- requests ------------------------------------------------------------------------

    async def _fetch(self, number: int) -> Page[T]:
        self.outcome.requests += 1
        page = await self._fetch_page(number, self.size)
        if page.total is not None:
            self.total = page.total
        return page

    def _learn_base(self, base: int) -> None:
        self.base = self.outcome.base = base
        if self.on_base is not None:
            self.on_base(base)

    async def _pages(self) -> AsyncIterator[tuple[int, Page[T] | None]]:
        """(number, page) in listing order; page None when the server refused a page past the first."""
        number = self.base
        if number is None:
            try:
                zero = await self._fetch(0)
            except (Invalid, NotFound):
                self._learn_base(1)
                number = 1
            else:
                one = await self._fetch(1)
                base = decide_base(zero.items, one.items, self.key)
                if base is None:
                    yield 1, one  # an empty listing: the base stays unknown
                    return
                self._learn_base(base)
                if base == 0:
                    yield 0, zero
                yield 1, one
                number = 2
        first = True
        while True:
            if self.outcome.requests >= self.max_requests:
                self.outcome.cut(f"stopped after {self.max_requests:,} page requests (the limit against runaway paging)")
                return
            try:
                page = await self._fetch(number)
            except (Invalid, NotFound) as exc:
                if first and number == self.base:
                    raise
                log.info("page %s refused (%s): taken as the end of the listing", number, exc)
                yield number, None
                return
            first = False
            yield number, page
            number += 1

    # -- the rules -------------------------------------------------------------------------

    def __aiter__(self) -> AsyncGenerator[list[T], None]:
        return self._run()

    async def _run(self) -> AsyncGenerator[list[T], None]:
        outcome = self.outcome
        seen_pages: set[tuple[Any, ...]] = set()
        effective = 0  # the largest page the server has given: its real page size
        try:
            async for number, page in self._pages():
                if page is None or not page.items:
                    self._check_total("the server's pages ended before the total it gave")
                    return
                print_ = fingerprint(page.items, self.key)
                if print_ in seen_pages:
                    self._repeated(page, number)
                    return
                seen_pages.add(print_)
                fresh = self._new(page.items)
                if not fresh:
                    self._repeated(page, number)
                    return
                if self.max_items is not None and outcome.count + len(fresh) > self.max_items:
                    fresh = fresh[: self.max_items - outcome.count]
                outcome.count += len(fresh)
                yield fresh
                if self.max_items is not None and outcome.count >= self.max_items:
                    return
                if self.total is not None and outcome.count >= self.total:
                    return
                n = len(page.items)
                if page.more is False:
                    self._check_total("the server said there were no more pages before its total")
                    return
                if n < self.size and n < effective:
                    self._check_total("the server's pages ended before the total it gave")
                    return
                effective = max(effective, n)
        except BaseException:  # the reader closed the generator (GeneratorExit), a cancellation, a failed page
            outcome.interrupted = True
            raise
        finally:
            if self.on_done is not None:
                self.on_done(outcome)

    def _new(self, items: list[T]) -> list[T]:
        if self.key is None:
            return items
        fresh = []
        for item in items:
            k = self.key(item)
            if k is None:  # no identity (an unreadable record): never a repeat of another
                fresh.append(item)
            elif k not in self._keys:
                self._keys.add(k)
                fresh.append(item)
        return fresh

    def _check_total(self, reason: str) -> None:
        if self.total is not None and self.outcome.count < self.total:
            self.outcome.cut(reason, self.total)

    def _repeated(self, page: Page[T], number: int) -> None:
        """A page seen before: the server ignores the page number. Was its answer everything?"""
        n = len(page.items)
        if self.total is not None:
            self._check_total(f"the server answered page {number} with an earlier page (it ignores the page number)")
        elif n == self.size:
            self.outcome.cut(f"the server answered page {number} with an earlier page (it ignores the page number)")
        # Shorter or longer than asked and repeated: the server sends its whole list on every page.


def decide_base(zero: list[Any], one: list[Any], key: Callable[[Any], Hashable] | None = None) -> int | None:
    """The first page number from the answers to pages 0 and 1 (None: both empty, so unknown).

    Page 0 empty or equal to page 1 means pages count from 1 (Spring's
    one-indexed pageable answers 0 as 1); anything else means they count from 0.
    """
    if not zero and not one:
        return None
    if not zero or fingerprint(zero, key) == fingerprint(one, key):
        return 1
    return 0


async def detect_base(probe: Callable[[int], Awaitable[list[Any]]], key: Callable[[Any], Hashable] | None = None) -> int | None:
    """Ask pages 0 and 1 (through `probe`, which should cache) and decide where pages start.

    A refusal of page 0 (400/404) means pages count from 1.
    """
    try:
        zero = await probe(0)
    except (Invalid, NotFound):
        return 1
    return decide_base(zero, await probe(1), key)


async def collect(pager: Pager[T]) -> list[T]:
    """Every item of a pager, in order (for small listings and tests)."""
    out: list[T] = []
    async for batch in pager:
        out.extend(batch)
    return out


@dataclass
class PageBases:
    """Where each service's pages start: documented, configured, or detected and remembered.

    `load` and `save` (the session's page cache) keep a detected base across
    runs, so an instance is probed once, not once per session.
    """

    known: dict[str, int] = field(default_factory=dict)
    load: Callable[[str], int | None] | None = None
    save: Callable[[str, int], None] | None = None

    def get(self, service: str) -> int | None:
        if service not in self.known and self.load is not None:
            stored = self.load(service)
            if stored in (0, 1):
                self.known[service] = stored
        return self.known.get(service)

    def learn(self, service: str, base: int) -> None:
        if base in (0, 1) and self.known.get(service) != base:
            self.known[service] = base
            if self.save is not None:
                self.save(service, base)
