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

A listing built `ahead` (the token search: no count endpoint, and its
answers say nothing of what follows; the registry's lists, whose total is
an extension a server may not send) settles each page that came without a
total by asking for the next one ahead, through the cache, so the page a
screen turns to next is already there (`Listing.page`); a page with a total
asks nothing more.

Services build their listings in one line each; none pages by hand.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import replace
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from flextui.api.errors import Invalid, NotFound
from flextui.api.http import Fetched, Service, Session, probing
from flextui.api.paging import Page, Pager, detect_base, distinct, repeats
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
        ahead: bool = False,
    ) -> None:
        self.session = session
        self.service = service
        self.op = op
        self.key = key
        self._fetch = fetch
        self._parse = parse
        self.item_key = _identity(item_key) if item_key is not None else None
        self.ahead = ahead
        """Whether a page whose answer tells neither a total nor what follows is settled by asking the next one (`page`)."""

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

        A listing built `ahead` whose answer tells neither a total nor whether
        more exists gives the page at once with `more` None (not known yet),
        then settled (`_settle`): a page shorter than the size the server is
        known to page by is the last; else the next page is asked ahead.
        """
        asked = self.session.size_for(self.op, size)
        base, probed = await self.base(asked)
        number = base + page - 1
        unsettled: Page[M] | None = None
        async for got in self.wire(number, asked, force=force and number not in probed):
            n = len(got.items)
            if self.ahead and got.total is None and got.more is None:
                known = self._known(got, page, size, asked)
                unsettled = got if known.more is None else None
                yield known
                continue
            if n > asked and got.total is not None and n >= got.total:
                yield self._whole(got)
                continue
            own = self.session.own_size(self.op, n) if n > asked else self.session.known_own_size(self.op)
            more = got.more
            if more is None and got.total is not None:
                more = (page - 1) * (own or asked) + n < got.total
            got.size = own or self.session.learn_size(self.op, asked, n, bool(more))
            got.number = page
            got.more = more
            yield got
        if unsettled is not None:
            yield await self._settle(unsettled, page, number, size, asked, force=force)

    def _whole(self, got: Page[M]) -> Page[M]:
        """`got` as the server's whole list: its items once each, page 1 of 1."""
        got.items = distinct(got.items, self.item_key)
        got.whole = True
        got.number = 1
        got.size = max(1, len(got.items))
        got.more = False
        return got

    def _known(self, got: Page[M], page: int, size: int, asked: int) -> Page[M]:
        """Page `page` of an `ahead` listing (a copy of `got`, `asked` a page of the `size` wanted) as far as it is known
        without asking the next page: the last when it is shorter than the size the server is known to page by (its
        own, `Session.known_own_size`; a cap, `Session.size_for`; or, past page 1, the size asked, which page 1 settled),
        else `more` None."""
        n = len(got.items)
        own = self.session.known_own_size(self.op)
        known = own or (asked if asked < size or page > 1 else None)
        out = replace(got, number=page, size=own or asked)
        if n == 0 or (known is not None and n < known):
            out.more = False
            if page == 1 and n > asked:
                return self._whole(out)  # more than asked, and nothing after it: all of it on one page, as `page` says
        return out

    async def _settle(self, got: Page[M], page: int, number: int, size: int, asked: int, *, force: bool) -> Page[M]:
        """Page `page` (wire `number`) settled by asking the page after it ahead (through the cache, so that turning to it
        costs nothing), as `page` reads a total: a copy of `got` with `more`, `size` and `whole` known.

        - More items than asked (or than the server's own size seen before): the
          server pages by a size of its own, or answered its whole list. The
          next page asked with new items makes it its own size
          (`Session.own_size`); none makes this the one page (`whole`).
        - As many as asked: more exists when the next page has new items.
        - Fewer than asked on page 1, nothing known of the server's size: the
          end, or a cap (Harbor's 100 when 200 are asked, or a server's own
          size below the one asked). The next page is asked at this page's
          size, as a capped server pages (the page `]` then shows, from the
          cache): new items there make it a cap (`Session.learn_size`), asked
          from then on.
        - The next page holding nothing new (the same rows): the server ignores
          the page number. On page 1 this is its whole list, every time; past
          it, the end.
        - The next page refused (a strict server's "no such page") or empty: this is the last.
        """
        own = self.session.known_own_size(self.op)
        served = own or asked
        out = replace(got, number=page, size=served)
        n = len(got.items)
        step = n if n < served else asked  # a short page 1: the next at its size, as a capped server pages
        try:
            after = (await freshest(self.wire(number + 1, step, force=force))).items
        except (Invalid, NotFound):
            after = []
        if after and repeats(got.items, after, self.item_key):
            return self._whole(out) if page == 1 else replace(out, more=False)
        out.more = bool(after)
        if not after:
            return self._whole(out) if page == 1 and n > asked else out
        if n > served:
            out.size = self.session.own_size(self.op, n)
        elif n < served:
            out.size = self.session.learn_size(self.op, asked, n, True)
        return out

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
