"""One numbered list endpoint: page N for a screen, or every item for an export, the same way.

The registry and the three beta services list things by page number and
size, and neither documents where pages start (notes §5, §6); the token
list does (from 0, notes §1.4) and takes its total from a count endpoint of
its own, but its servers may page it their own way all the same. `Listing`
wraps one list endpoint (how to ask for a page, how to read the answer) and
gives:

- `page(n, size)`: page n counted from 1, as screens show it, cached first
  (with its age) then fresh. The first time a service is paged in a session,
  pages 0 and 1 are asked (through the cache, so the answer is reused) to
  learn where the service's pages start; a size the server was seen to cap
  is asked at the capped size from then on, so "page 3" means the same items
  on every screen.
- `every(size)`: the bounded `paging.Pager` over every page, with the
  listing's identity key, reporting a shortfall to the session.

Services build their listings in one line each; none pages by hand.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from flextui.api.http import Fetched, Service, Session, probing
from flextui.api.paging import Page, Pager, detect_base, distinct
from flextui.api.tolerant import list_items, list_more, list_total, parse_records, unreadable

M = TypeVar("M")
A = TypeVar("A")

FetchRaw = Callable[[int, int], Awaitable[Any]]
ParseRaw = Callable[[Any, int, int], Page[M]]


def records_page(raw: Any, key: str, model: type[Any], number: int, size: int) -> Page[Any]:
    """A list answer in any form seen (the documented `key` or `data`, either holding null when empty, or a bare
    array) as a page of records; an answer with no list in it (an error body, `{}`, a top-level null) is
    `Unreadable` (`tolerant.list_items`), never an empty page."""
    return Page(parse_records(model, list_items(raw, key, null_is_empty=False)), number, size, list_total(raw), more=list_more(raw))


def _identity(key: Callable[[M], Hashable]) -> Callable[[M], Hashable]:
    """`key`, but None (no identity: never a repeat, `paging.distinct`) for a record the client could not read:
    its fields are placeholders, and two unreadable records are not the same item."""

    def ident(item: M) -> Hashable:
        if isinstance(item, BaseModel) and unreadable(item):
            return None
        return key(item)

    return ident


async def freshest(answers: AsyncIterator[A]) -> A:
    """The last (freshest) answer of a cached-then-fresh iterator (it gives at least one, or raises)."""
    last: A | None = None
    async for last in answers:
        pass
    if last is None:
        raise LookupError("a cached-then-fresh iterator gave no answer")
    return last


class Listing(Generic[M]):
    """A numbered list endpoint of `service`: `fetch(number, size)` asks the server, `parse(raw, number, size)` reads it."""

    def __init__(
        self,
        session: Session,
        service: Service,
        op: str,
        key: dict[str, Any],
        fetch: FetchRaw,
        parse: ParseRaw[M],
        *,
        item_key: Callable[[M], Hashable] | None = None,
    ) -> None:
        self.session = session
        self.service = service
        self.op = op
        self.key = key
        self._fetch = fetch
        self._parse = parse
        self.item_key = _identity(item_key) if item_key is not None else None

    def wire(self, number: int, size: int, *, force: bool = False) -> AsyncIterator[Page[M]]:
        """Page `number` as the server numbers it: cached first (with its age), then fresh."""
        answers = self.session.cached(
            self.op,
            {**self.key, "wire": number, "size": size},
            lambda: self._fetch(number, size),
            lambda raw: self._parse(raw, number, size),
            force=force,
        )
        return _aged(answers)

    async def base(self, size: int) -> tuple[int, set[int]]:
        """Where this service's pages start (documented, configured, or detected now and remembered),
        and the wire pages the detection has just fetched (fresh in the cache)."""
        base = self.session.page_bases.get(self.service)
        probed: set[int] = set()
        if base is None:

            async def probe(number: int) -> list[Any]:
                with probing():
                    page: Page[M] = await freshest(self.wire(number, size))
                probed.add(number)
                return page.items

            base = await detect_base(probe, self.item_key)
            if base is not None:
                self.session.page_bases.learn(self.service, base)
        return (1 if base is None else base), probed

    async def page(self, page: int, size: int, *, force: bool = False) -> AsyncIterator[Page[M]]:
        """Page `page` (from 1): cached first (with its age), then fresh; `Page.size` is the size the server used.

        A screen numbers its pages by `Page.size`, not by the size it asked
        for, so that every item stays on some page whatever the server does
        with the size (notes §5, §6: the beta APIs state a page and a limit
        but not what a server does with a limit it will not serve, e.g.
        https://fnoapi.redocly.app/apis/rest/user-accounts/user-account-service/account/getaccountsbyfilterandpagination.md):

        - Fewer items than asked while more exist: the server capped the size
          (Harbor's `page_size` maximum of 100, which the registry's paging
          follows, notes §2.9, or a default size of its own). `Page.size` is what it answered, and the
          session asks that size from then on (`Session.learn_size`).
        - More items than asked: the server did not read the size. With as
          many items as its total (or more), it sent its whole list, as a
          server that ignores paging does on every page: `whole` is set, the
          items are listed once each (by the listing's key) and this is page
          1 of 1; asking for page 2 would only repeat it. With fewer than its
          total, or no total (nothing tells a whole list from a larger page
          of its own then, and taking it for whole could hide the rest), it
          pages by a size of its own: `Page.size` is that size, remembered
          by the session (`Session.own_size`) for its shorter last page.
        - No more items than asked from a server seen to page by a size of its
          own (`Session.known_own_size`): its short last page (14 of 94 users
          at 20 a page when 15 are asked). `Page.size` is its own size, and
          whether more exists is counted by it; taking the page for a capped
          size would make it "page 5 of 7" of 14 a page, with pages 6 and 7
          empty, and ask 14 from then on.
        """
        asked = self.session.size_for(self.op, size)
        base, probed = await self.base(asked)
        number = base + page - 1
        async for got in self.wire(number, asked, force=force and number not in probed):
            n = len(got.items)
            if n > asked and got.total is not None and n >= got.total:
                got.items = distinct(got.items, self.item_key)
                got.whole = True
                got.number = 1
                got.size = max(1, len(got.items))
                got.more = False
                yield got
                continue
            own = self.session.own_size(self.op, n) if n > asked else self.session.known_own_size(self.op)
            more = got.more
            if more is None and got.total is not None:
                more = (page - 1) * (own or asked) + n < got.total
            got.size = own or self.session.learn_size(self.op, asked, n, bool(more))
            got.number = page
            got.more = more
            yield got

    def every(self, size: int, *, what: str, max_items: int | None = None, total: int | None = None, force: bool = False) -> Pager[M]:
        """Every item, page by page (each page its freshest answer; `force`: each asked again), through the one bounded pager."""

        async def fetch(number: int, asked: int) -> Page[M]:
            page: Page[M] = await freshest(self.wire(number, asked, force=force))
            return page

        return Pager(
            fetch,
            size=size,
            base=self.session.page_bases.get(self.service),
            what=what,
            key=self.item_key,
            max_items=max_items,
            total=total,
            on_base=lambda base: self.session.page_bases.learn(self.service, base),
            on_done=self.session.record_listing,
        )


async def _aged(answers: AsyncIterator[Fetched[Page[M]]]) -> AsyncIterator[Page[M]]:
    async for got in answers:
        got.value.age = got.age
        yield got.value
