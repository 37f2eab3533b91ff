"""The token list against servers that page it their own way, walked to its end as the screen turns its pages.

The token list pages through `Listing.page` as the other lists do, with its
total from the count endpoint. Before, it only noted a capped size: a server
paging by 20 of its own when 3 were asked gave all of the admin's 10 tokens on
page 1 and the list said "page 1 of 4", with pages 2 to 4 empty; a short last
page (7 of 47 at 20 a page, 15 asked) was taken for a cap of 7.
"""

from __future__ import annotations

import argparse

import pytest

from flextui.api.http import Session
from flextui.api.listing import freshest
from flextui.api.paging import Page
from flextui.api.tokens import Token, TokensService
from flextui.headless.tokens import get_tokens
from flextui.sim.app import create_app
from flextui.sim.dialects import speaking
from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, World

from ..conftest import make_session, more_tokens

OP = "tokens.list"


def admin_tokens(world: World) -> list[str]:
    now = world.now_ms()
    return sorted(t.name for t in token_store(world).by_name.values() if t.username == ADMIN[0] and t.expiry_ms > now)


async def walk(session: Session, asked: int) -> list[Page[Token]]:
    """Pages 0, 1, … of the admin's tokens as a screen turns them: on while the page last answered says there is a further page."""
    service = TokensService(session)
    pages: list[Page[Token]] = []
    while not pages or pages[-1].number + 1 < (pages[-1].pages or 0):
        pages.append(await freshest(service.list_page(ADMIN[0], None, len(pages), asked)))
        assert len(pages) <= 50, "paging does not end"
    return pages


async def on(world: World, dialect: str, more: int) -> Session:
    """A session as the admin on a server speaking `dialect`, the admin having `more` tokens besides the seeded world's."""
    session = make_session(create_app(world, dialects=speaking(dialect)))  # (signing in issues the admin's seeded token)
    more_tokens(world, ADMIN[0], more)
    return session


# (dialect, tokens added to the admin's 10, size asked, the size the server pages by, its pages). 47 tokens at 20 a
# page leave a last page of 7: no longer than 15 or 7 asked (taken for a cap before), longer than 3; 50 asked of it
# is answered with 20 while more exist, which is a cap. 10 tokens at 20 a page, 3 asked, are its whole list.
CASES = [
    ("page-size-ignored", 37, 15, 20, 3),
    ("page-size-ignored", 37, 7, 20, 3),
    ("page-size-ignored", 37, 3, 20, 3),
    ("page-size-ignored", 37, 50, 20, 3),
    ("page-size-ignored", 0, 3, 10, 1),
    ("page-size-cap-100", 220, 200, 100, 3),
    ("paging-ignored", 37, 15, 47, 1),
    ("paging-ignored", 0, 3, 10, 1),
    ("", 37, 15, 15, 4),
]


@pytest.mark.parametrize(("dialect", "more", "asked", "size", "count"), CASES)
async def test_the_token_list_walked_to_its_end_shows_every_token_once_on_pages_the_server_has(
    world: World, dialect: str, more: int, asked: int, size: int, count: int
) -> None:
    session = await on(world, dialect, more)
    try:
        pages = await walk(session, asked)
        expected = admin_tokens(world)
        said = [(p.number, p.pages, p.size, len(p.items), p.whole) for p in pages]
        assert [p.total for p in pages] == [len(expected)] * count, said
        assert [p.pages for p in pages] == [count] * count, said
        assert all(p.size == size for p in pages), said
        assert all(p.items for p in pages), f"an empty page: {said}"
        assert all(p.whole == (dialect != "" and size == len(expected)) for p in pages), said
        seen = [t.name for p in pages for t in p.items]
        assert len(seen) == len(set(seen)) and sorted(seen) == expected, said
        capped = dialect == "page-size-cap-100" or asked > 20 and dialect == "page-size-ignored"
        assert session.size_for(OP, asked) == (size if capped else asked), "a short last page is no cap of the server's"
        again = await freshest(TokensService(session).list_page(ADMIN[0], None, 0, asked))
        assert (again.pages, again.size) == (count, size), "page 1 says what it said"
    finally:
        await session.aclose()


@pytest.mark.parametrize("dialect", ["page-size-ignored", "page-size-cap-100", "paging-ignored", ""])
@pytest.mark.parametrize("asked", [7, 15, 200])
async def test_every_token_headless_whatever_the_server_pages(world: World, dialect: str, asked: int) -> None:
    """`flextui get tokens` lists each of 230 tokens once, with no shortfall, whatever the server does with the size."""
    session = await on(world, dialect, 220)
    try:
        args = argparse.Namespace(search=None, username=ADMIN[0], creator=None, limit=None, page_size=asked)
        rows = [row["name"] async for row in get_tokens(session, args)]
        assert len(rows) == len(set(rows)) and sorted(rows) == admin_tokens(world)
        assert not session.shortfalls, [o.describe() for o in session.shortfalls]
    finally:
        await session.aclose()
