"""A server that pages by a size of its own, larger than the one asked (the simulator's `page-size-ignored`: 20 a page
in the beta APIs, 10 in the registry): its last page, no longer than the size asked, is still a page of its own size.

Taken for a capped size, the last page of 94 users at 20 a page, 15 asked (14 users), made the list "page 5 of 7"
with pages 6 and 7 empty, and the session asked 14 a page from then on (`Listing.page`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Hashable
from dataclasses import dataclass
from typing import Any

import pytest

from flextui.api.entitlements import EntitlementsService
from flextui.api.http import Session
from flextui.api.listing import freshest
from flextui.api.paging import Page
from flextui.api.products import ProductsService
from flextui.api.registry import RegistryService
from flextui.api.users import UsersService
from flextui.sim.app import create_app
from flextui.sim.dialects import speaking
from flextui.sim.world import World

from ..conftest import PRODUCER, make_session


@dataclass(frozen=True)
class Listed:
    """A numbered list: its op (the session's size memory is by op), its page at a size, an item's identity, and the server's own size."""

    op: str
    page: Callable[[Session, World, int, int], AsyncIterator[Page[Any]]]
    key: Callable[[Any], Hashable]
    own: int = 20


def registry_projects(session: Session, world: World, number: int, size: int) -> AsyncIterator[Page[Any]]:
    return RegistryService(session, *PRODUCER, tenant_id=world.tenant_id).list_projects(number, size)


LISTS = {
    "users": Listed("users.users", lambda s, w, n, size: UsersService(s).users_page(page=n, limit=size), lambda u: u.user_name),
    "accounts": Listed("users.accounts", lambda s, w, n, size: UsersService(s).accounts_page(page=n, limit=size), lambda a: a.account_id),
    "products": Listed(
        "products.products",
        lambda s, w, n, size: ProductsService(s).products_page(page=n, limit=size),
        lambda p: (p.product_name, p.version),
    ),
    "part numbers": Listed(
        "products.part_numbers", lambda s, w, n, size: ProductsService(s).part_numbers_page(page=n, limit=size), lambda p: p.part_number
    ),
    "entitlements": Listed(
        "entitlements.list", lambda s, w, n, size: EntitlementsService(s).list_page(page=n, limit=size), lambda e: e.entitlement_id
    ),
    "registry projects": Listed("registry.projects", registry_projects, lambda p: p.name, own=10),
}


async def walk(session: Session, world: World, listed: Listed, asked: int) -> list[Page[Any]]:
    """Pages 1, 2, … as a screen turns them: on while the page last answered says there is a further page."""
    pages: list[Page[Any]] = []
    while not pages or pages[-1].number < (pages[-1].pages or 0):
        pages.append(await freshest(listed.page(session, world, len(pages) + 1, asked)))
        assert len(pages) <= 50, "paging does not end"
    return pages


# (list, size asked): every asked size is below the server's own and at least its last page, which is then no
# longer than asked (users 94 at 20: 14 last; accounts 26: 6; products 73: 13; part numbers 91: 11;
# entitlements 50: 10; registry projects 41 at 10: 1); users at 7 have a last page longer than asked.
CASES = [
    ("users", 15),
    ("users", 7),
    ("accounts", 7),
    ("accounts", 15),
    ("products", 15),
    ("part numbers", 15),
    ("entitlements", 15),
    ("registry projects", 7),
]


@pytest.mark.parametrize(("name", "asked"), CASES)
async def test_the_short_last_page_of_a_server_paging_by_its_own_size_keeps_the_count(world: World, name: str, asked: int) -> None:
    listed = LISTS[name]
    session = make_session(create_app(world, dialects=speaking("page-size-ignored")))
    try:
        pages = await walk(session, world, listed, asked)
        total = pages[0].total
        assert total is not None and total % listed.own, "the last page is short"
        count = -(-total // listed.own)
        said = [(p.number, p.pages, p.size, len(p.items)) for p in pages]
        assert [p.pages for p in pages] == [count] * count, said
        assert all(p.size == listed.own for p in pages), said
        assert all(p.items for p in pages), f"an empty page: {said}"
        assert [p.more for p in pages if p.more is not None] in ([], [True] * (count - 1) + [False]), said
        seen = [listed.key(item) for p in pages for item in p.items]
        assert len(seen) == len(set(seen)) == total, said
        assert session.size_for(listed.op, asked) == asked, "a short last page is no cap of the server's"
        again = await freshest(listed.page(session, world, 1, asked))
        assert (again.pages, again.size) == (count, listed.own), "page 1 says what it said"
    finally:
        await session.aclose()


async def test_a_larger_size_asked_of_the_same_server_keeps_its_own_size(world: World) -> None:
    """Asked 15 and then 50 of a server paging by 20: 20 a page either way, and no cap is taken from its pages."""
    listed = LISTS["users"]
    session = make_session(create_app(world, dialects=speaking("page-size-ignored")))
    try:
        for asked in (15, 50):
            pages = await walk(session, world, listed, asked)
            assert [(p.pages, p.size) for p in pages] == [(5, 20)] * 5 and all(p.items for p in pages)
            assert sorted(listed.key(u) for p in pages for u in p.items) == sorted(world.users)
        assert session.size_for(listed.op, 15) == 15 and session.known_own_size(listed.op) == 20
    finally:
        await session.aclose()


@pytest.mark.parametrize(
    ("dialect", "asked", "size", "pages"), [("page-size-cap-100", 15, 15, 7), ("", 15, 15, 7), ("paging-ignored", 15, 94, 1)]
)
async def test_other_servers_page_as_before(world: World, dialect: str, asked: int, size: int, pages: int) -> None:
    """A server that honours the size (or caps it above what is asked) pages by the size asked; one that ignores paging is one page."""
    listed = LISTS["users"]
    session = make_session(create_app(world, dialects=speaking(dialect)))
    try:
        walked = await walk(session, world, listed, asked)
        assert [(p.pages, p.size) for p in walked] == [(pages, size)] * pages and all(p.items for p in walked)
        assert sorted(listed.key(u) for p in walked for u in p.items) == sorted(world.users)
        assert session.known_own_size(listed.op) is None and session.size_for(listed.op, asked) == asked
    finally:
        await session.aclose()
