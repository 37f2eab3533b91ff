"""The registry's lists walked to their end on a server that sends no total, as a screen turns their pages.

The docs show the registry's lists as bare arrays (notes §2.2, §2.4): the
total the client reads (Harbor's `X-Total-Count`, or a body total) may not
come. The lists were paged by hand then: a page shorter than asked taken for
the last, a full one for one with more after it. A server paging by a size
of its own (10 when 15 are asked) made page 1 look like the last, so all but
its first 10 items were unreachable; one ignoring paging had `]` open page 2,
3, … with the same rows for ever; a list whose last page was full offered an
empty page after it. The registry's lists now page through `Listing.page`
built `ahead`, as the token search does: without a total, each page is settled
by asking the next one ahead (through the cache, so turning to it costs no
request), and `Page.more` says whether a next page exists. With a total,
nothing more is asked.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Hashable
from dataclasses import dataclass
from typing import Any

import pytest

from flextui.api.cache import PageCache
from flextui.api.http import Session
from flextui.api.listing import freshest
from flextui.api.paging import Page
from flextui.api.registry import RegistryService
from flextui.sim.app import create_app
from flextui.sim.dialects import speaking
from flextui.sim.registry import registry_store
from flextui.sim.world import World

from ..conftest import PRODUCER, make_session

NO_TOTAL = "registry-no-total"
PROJECT = "flexdemo-pulse-2023"  # 36 members
REPOSITORY = "pulse-agent"  # grown to 40 artifacts (`grow`): 2 pages of 20, 4 of the server's own 10
YEAR, MONTH = 2026, 5  # a month of the download log: 49 entries
OWN = 10  # the size the registry pages by when it ignores the size asked (`page-size-ignored`)


def grow(world: World, artifacts: int = 40) -> None:
    """The repository holds `artifacts` artifacts (the world's repositories hold 12 at most)."""
    store = registry_store(world)
    repo = store.repositories(store.project(PROJECT))[REPOSITORY]
    repo.artifact_count, repo.artifacts = artifacts, None


@dataclass(frozen=True)
class Listed:
    """A registry list: its page at a size, an item's identity, and every item's identity as the simulator holds them."""

    page: Callable[[RegistryService, int, int], AsyncIterator[Page[Any]]]
    key: Callable[[Any], Hashable]
    every: Callable[[World], list[Hashable]]


def _projects(world: World) -> list[Hashable]:
    return [p.name for p in registry_store(world).sorted_projects()]


def _members(world: World) -> list[Hashable]:
    store = registry_store(world)
    return [m["entityName"] for m in store.members(store.project(PROJECT))]


def _artifacts(world: World) -> list[Hashable]:
    store = registry_store(world)
    project = store.project(PROJECT)
    return [a.digest for a in store.artifacts(project, store.repositories(project)[REPOSITORY])]


def _downloads(world: World) -> list[Hashable]:
    return [d.id for d in registry_store(world).downloads(YEAR, MONTH)]


LISTS = {
    "projects": Listed(lambda r, n, size: r.list_projects(n, size), lambda p: p.name, _projects),
    "members": Listed(lambda r, n, size: r.members_page(PROJECT, n, size), lambda m: m.entity_name, _members),
    "artifacts": Listed(lambda r, n, size: r.artifacts_page(PROJECT, f"{PROJECT}/{REPOSITORY}", n, size), lambda a: a.digest, _artifacts),
    "downloads": Listed(lambda r, n, size: r.downloads_page(YEAR, MONTH, n, size), lambda d: d.id, _downloads),
}


def service(session: Session, world: World) -> RegistryService:
    return RegistryService(session, *PRODUCER, tenant_id=world.tenant_id)


async def walk(reg: RegistryService, listed: Listed, asked: int) -> list[Page[Any]]:
    """Pages 1, 2, … as a screen turns them: on while the page last answered says a further page exists
    (with a total, while it counts more pages than this one)."""
    pages: list[Page[Any]] = []
    while not pages or pages[-1].more or (pages[-1].more is None and pages[-1].number < (pages[-1].pages or 0)):
        pages.append(await freshest(listed.page(reg, len(pages) + 1, asked)))
        assert len(pages) <= 50, "paging does not end"
    return pages


def expected_pages(dialect: str, count: int, asked: int) -> tuple[int, int, bool]:
    """(the size the server pages by, its pages, answered whole) for `count` items, `asked` a page."""
    if dialect == "paging-ignored":
        return count, 1, True
    served = OWN if dialect == "page-size-ignored" else asked  # (no registry size reaches the cap of 100 above it)
    return served, max(1, -(-count // served)), False


DIALECTS = ["", "page-size-cap-100", "page-size-ignored", "paging-ignored"]
# Sizes asked: below the server's own 10 (7), above it (15, 20: artifacts' 40 fill 2 pages of 20 and 4 of 10 exactly, so
# no empty page may follow their full last page), and the registry's most (100: every list on one page).
SIZES = [7, 15, 20, 100]


@pytest.mark.parametrize("asked", SIZES)
@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("name", sorted(LISTS))
async def test_a_list_without_a_total_walked_to_its_end_shows_every_item_once_on_pages_the_server_has(
    world: World, cache: PageCache, name: str, dialect: str, asked: int
) -> None:
    grow(world)
    listed = LISTS[name]
    expected = listed.every(world)
    assert len(expected) > 30 and len(expected) == len(set(expected))
    session = make_session(create_app(world, dialects=speaking(",".join(filter(None, [NO_TOTAL, dialect])))), cache=cache)
    try:
        reg = service(session, world)
        before = session.requests_sent
        pages = await walk(reg, listed, asked)
        spent = session.requests_sent - before
        size, count, whole = expected_pages(dialect, len(expected), asked)
        said = [(p.number, p.size, len(p.items), p.total, p.more, p.whole) for p in pages]
        assert all(p.total is None for p in pages), f"the server sent a total: {said}"
        assert [p.number for p in pages] == list(range(1, count + 1)), said
        assert all(p.items for p in pages), f"an empty page: {said}"
        assert [p.more for p in pages] == [True] * (count - 1) + [False], said
        assert all(p.size == size for p in pages), said
        assert all(p.whole == whole for p in pages), said
        seen = [listed.key(item) for p in pages for item in p.items]
        assert len(seen) == len(set(seen)) and sorted(seen, key=repr) == sorted(expected, key=repr), said
        # each page once, one more at most to know the last is the last, and the refused page 0 that finds where pages start
        assert spent <= count + 2, f"{spent} requests for {count} pages: {said}"
        again = await freshest(listed.page(reg, 1, asked))
        assert (again.size, again.more, again.whole) == (pages[0].size, pages[0].more, whole), "page 1 says what it said"
    finally:
        await session.aclose()


@pytest.mark.parametrize("asked", [15, 20])
@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("name", sorted(LISTS))
async def test_with_a_total_nothing_more_is_asked(world: World, cache: PageCache, name: str, dialect: str, asked: int) -> None:
    """The server's total (X-Total-Count) says what follows: each page is given knowing it, asked once, and none ahead
    (not even after a full last page: 40 artifacts at 20 a page)."""
    grow(world)
    listed = LISTS[name]
    expected = listed.every(world)
    session = make_session(create_app(world, dialects=speaking(dialect or None)), cache=cache)
    try:
        reg = service(session, world)
        before = session.requests_sent
        pages = await walk(reg, listed, asked)
        spent = session.requests_sent - before
        size, count, whole = expected_pages(dialect, len(expected), asked)
        answers = [p async for p in listed.page(reg, 1, asked)]
        assert [p.more for p in answers] == [count > 1], "page 1 says at once whether a page follows, and is not asked again"
        said = [(p.number, p.size, len(p.items), p.total, p.more, p.whole) for p in pages]
        assert all(p.total == len(expected) for p in pages), said
        assert len(pages) == count and all(p.items for p in pages), said
        seen = [listed.key(item) for p in pages for item in p.items]
        assert len(seen) == len(set(seen)) and sorted(seen, key=repr) == sorted(expected, key=repr), said
        assert spent == count + 1, f"{spent} requests for {count} pages (and the refused page 0): {said}"
    finally:
        await session.aclose()


async def test_a_page_before_its_next_is_known_says_more_may_follow(world: World, cache: PageCache) -> None:
    """Each page is given as soon as it is read (`more` None: not known yet), then settled by the page after it;
    the page asked ahead is the one turned to next, from the cache."""
    session = make_session(create_app(world, dialects=speaking(NO_TOTAL)), cache=cache)
    try:
        reg = service(session, world)
        answers = [p async for p in reg.list_projects(1, 15)]
        assert [p.more for p in answers] == [None, True], [(p.age, p.more) for p in answers]
        assert [p.name for p in answers[0].items] == [p.name for p in answers[1].items]
        before = session.requests_sent
        second = [p async for p in reg.list_projects(2, 15)]
        assert second[0].age is not None, "page 2 from the cache"
        assert session.requests_sent - before == 1, "only page 3 asked, ahead"
    finally:
        await session.aclose()
