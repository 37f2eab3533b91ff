"""The token search against servers that page it their own way, walked to its end as the screen turns its pages.

The search has no count endpoint: whether a page follows is not in its
answer. It was paged by hand, a page shorter than asked taken for the last and
a full one for one with more after it: a server capping the size at 100 (200
asked) had only its first 100 matches reachable, one ignoring paging had `]`
open page 2, 3, … with the same rows for ever, and one paging by 20 of its own
(15 asked) opened an empty page 2. `TokensService.search_page` now pages
through `Listing.page` and settles each page by asking the next one ahead
(through the cache, so turning to it costs no request): `Page.more` says
whether a next page exists, `Page.size` the size the server pages by, and
`Page.whole` that the server answered its whole list.
"""

from __future__ import annotations

import argparse

import pytest

from flextui.api.cache import PageCache
from flextui.api.http import Session
from flextui.api.listing import freshest
from flextui.api.paging import Page, collect
from flextui.api.tokens import Token, TokenSearch, TokensService
from flextui.headless.tokens import get_tokens
from flextui.sim.app import create_app
from flextui.sim.dialects import speaking
from flextui.sim.world import ADMIN, World

from ..conftest import make_session, more_tokens
from .test_tokens_paging import admin_tokens

OP = "tokens.search"
MINE = TokenSearch(username=ADMIN[0])


async def on(world: World, dialect: str, more: int, cache: PageCache | None = None) -> Session:
    """A session as the admin on a server speaking `dialect`, the admin having `more` tokens besides the seeded world's."""
    session = make_session(create_app(world, dialects=speaking(dialect)), cache=cache)
    more_tokens(world, ADMIN[0], more)
    return session


async def walk(session: Session, asked: int) -> list[Page[Token]]:
    """Pages 0, 1, … of the admin's tokens found by a search, as the screen turns them: on while the page last
    answered says a further page exists."""
    service = TokensService(session)
    pages: list[Page[Token]] = []
    while not pages or pages[-1].more:
        pages.append(await freshest(service.search_page(MINE, len(pages), asked)))
        assert len(pages) <= 50, "paging does not end"
    return pages


# (dialect, tokens added to the admin's 10, size asked, the size the server pages by, its pages, answered whole).
# 47 at 20 a page leave a last page of 7; 40 fill two pages of 20 exactly (no empty third page may be offered); 10 at
# 20 a page with 3 asked are its whole list; 230 and 200 at 100 a page (200 asked) are 3 and 2 pages; a server
# ignoring paging answers 47 (15 or 50 asked) or exactly 50 (50 asked) every time.
CASES = [
    ("page-size-ignored", 37, 15, 20, 3, False),
    ("page-size-ignored", 37, 7, 20, 3, False),
    ("page-size-ignored", 37, 50, 20, 3, False),
    ("page-size-ignored", 30, 15, 20, 2, False),
    ("page-size-ignored", 0, 3, 10, 1, True),
    ("page-size-ignored", 0, 50, 50, 1, False),
    ("page-size-cap-100", 220, 200, 100, 3, False),
    ("page-size-cap-100", 190, 200, 100, 2, False),
    ("paging-ignored", 37, 15, 47, 1, True),
    ("paging-ignored", 37, 50, 47, 1, True),
    ("paging-ignored", 40, 50, 50, 1, True),
    ("", 37, 15, 15, 4, False),
    ("", 35, 15, 15, 3, False),
    ("", 0, 50, 50, 1, False),
]


@pytest.mark.parametrize(("dialect", "more", "asked", "size", "count", "whole"), CASES)
async def test_a_search_walked_to_its_end_shows_every_match_once_on_pages_the_server_has(
    world: World, cache: PageCache, dialect: str, more: int, asked: int, size: int, count: int, whole: bool
) -> None:
    session = await on(world, dialect, more, cache)
    try:
        before = session.requests_sent
        pages = await walk(session, asked)
        spent = session.requests_sent - before
        expected = admin_tokens(world)
        said = [(p.number, p.size, len(p.items), p.more, p.whole) for p in pages]
        assert [p.number for p in pages] == list(range(count)), said
        assert all(p.items for p in pages), f"an empty page: {said}"
        assert [p.more for p in pages] == [True] * (count - 1) + [False], said
        assert all(p.size == size for p in pages), said
        assert all(p.whole == whole for p in pages), said
        seen = [t.name for p in pages for t in p.items]
        assert len(seen) == len(set(seen)) and sorted(seen) == expected, said
        assert spent <= count + 1, f"{spent} requests for {count} pages: each page once, and one more at most to know it is the last"
        capped = size < asked and not whole
        assert session.size_for(OP, asked) == (size if capped else asked), "a cap is asked from then on; a short last page is none"
        again = await freshest(TokensService(session).search_page(MINE, 0, asked))
        assert (again.size, again.more, again.whole) == (pages[0].size, pages[0].more, whole), "page 1 says what it said"
    finally:
        await session.aclose()


@pytest.mark.parametrize("dialect", ["page-size-ignored", "page-size-cap-100", "paging-ignored", ""])
async def test_the_page_after_a_full_one_is_asked_once(world: World, cache: PageCache, dialect: str) -> None:
    """The page asked ahead (to know whether it exists) is the one `]` then shows: from the cache, no request for it."""
    session = await on(world, dialect, 220, cache)
    try:
        service = TokensService(session)
        first = await freshest(service.search_page(MINE, 0, 200))
        assert first.more is (dialect != "paging-ignored"), (first.size, first.more, first.whole)
        if first.more:
            before = session.requests_sent
            second = [p async for p in service.search_page(MINE, 1, 200)]
            full = len(second[-1].items) == second[-1].size  # (else the last: nothing to ask)
            assert second[0].age is not None, "page 2 from the cache"
            assert session.requests_sent - before == int(full), "only the page after it asked, where it may exist"
    finally:
        await session.aclose()


async def test_a_search_page_before_its_next_is_known_says_more_may_follow(world: World, cache: PageCache) -> None:
    """Each page is given as soon as it is read (`more` None: not known yet), then settled by the page after it."""
    session = await on(world, "", 37, cache)
    try:
        answers = [p async for p in TokensService(session).search_page(MINE, 0, 15)]
        assert [p.more for p in answers] == [None, True], [(p.age, p.more) for p in answers]
        assert [t.name for t in answers[0].items] == [t.name for t in answers[1].items]
    finally:
        await session.aclose()


@pytest.mark.parametrize("dialect", ["page-size-ignored", "page-size-cap-100", "paging-ignored", ""])
@pytest.mark.parametrize(("more", "asked"), [(220, 7), (220, 15), (220, 200), (37, 50), (40, 50), (90, 100)])
async def test_every_match_headless_whatever_the_server_pages(world: World, dialect: str, more: int, asked: int) -> None:
    """`flextui get tokens --search` (and the screen's search of every page, the same `search_all`) lists each match once,
    with no shortfall and no endless paging, whatever the server does with the size; 50 asked of 50 matches from a server
    ignoring paging is the one case it cannot tell from a server ignoring only the page number, and says so."""
    session = await on(world, dialect, more)
    try:
        args = argparse.Namespace(search=f"user={ADMIN[0]}", username=None, creator=None, limit=None, page_size=asked)
        before = session.requests_sent
        rows = [row["name"] async for row in get_tokens(session, args)]
        assert len(rows) == len(set(rows)) and sorted(rows) == admin_tokens(world)
        ambiguous = dialect == "paging-ignored" and len(rows) == asked
        assert bool(session.shortfalls) == ambiguous, [o.describe() for o in session.shortfalls]
        served = {"page-size-ignored": 20, "page-size-cap-100": min(asked, 100), "paging-ignored": len(rows), "": asked}[dialect]
        assert session.requests_sent - before <= len(rows) // served + 2, "each page once, and no endless paging"
    finally:
        await session.aclose()


async def test_search_all_on_a_server_ignoring_paging_reads_two_pages(world: World) -> None:
    session = await on(world, "paging-ignored", 37)
    try:
        before = session.requests_sent
        found = await collect(TokensService(session).search_all(MINE, page_size=15))
        assert sorted(t.name for t in found) == admin_tokens(world)
        assert session.requests_sent - before == 2, "the whole list, then the same again: the end"
    finally:
        await session.aclose()
