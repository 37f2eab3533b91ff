"""Pilot tests of the paged lists against servers that page their own way (walk27-b items 2 and 7).

A server that answers fewer rows than asked (its own default size, or a
silent cap of 100), one that answers more (its own default size, above the
size asked, down to a last page no longer than asked) and one that answers
its whole list on every page: paging to the end with `]` reaches every row
the headless pager returns, each once, on no empty page, and the pager line
counts the pages the server really has.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import pytest
from textual.widgets import Input

from flextui.api.paging import Pager, collect
from flextui.config import Settings
from flextui.sim.dialects import speaking
from flextui.sim.faults import FaultPlan
from flextui.sim.world import ADMIN
from flextui.ui.screens.tabbed import TabbedListScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.forms import FormScreen
from tests.conftest import more_tokens
from tests.ui.conftest import build_app, settle, until, world_of


def users(s: Any, size: int) -> Pager[Any]:
    pager: Pager[Any] = s.service.every_user(limit=size)
    return pager


def catalogue(kind: str) -> Callable[[Any, int], Pager[Any]]:
    return lambda s, size: s.service.every(kind, limit=size)


@dataclass(frozen=True)
class Listed:
    """A list to walk: the `:` command that opens it, its tab, an item's identity, and its headless listing."""

    start: str
    tab: str
    key: Callable[[Any], Hashable]
    every: Callable[[Any, int], Pager[Any]]


USERS = Listed("users", "users", lambda u: u.user_name, users)
PRODUCTS = Listed("products", "products", lambda p: (p.product_name, p.version), catalogue("products"))
PARTS = Listed("part-numbers", "parts", lambda p: p.part_number, catalogue("part_numbers"))

# (dialect, page size asked, scale of the world): 200 asked of a server capping at 100 needs more than 200 rows.
# 15 asked of a server paging by 20: more than asked on every page but the last (94 users: 14; 73 products: 13).
SERVERS: dict[str, tuple[str, int, float]] = {
    "page-size-ignored": ("page-size-ignored", 50, 1.0),
    "page-size-ignored-short-last": ("page-size-ignored", 15, 1.0),
    "page-size-cap-100": ("page-size-cap-100", 200, 3.0),
    "paging-ignored": ("paging-ignored", 50, 1.0),
    "strict": ("", 50, 1.0),
}


def pager(app: Any, tab: str) -> str:
    return str(app.screen.query_one(f"#{tab}-pager").render())


async def turn_pages(pilot: Any, times: int) -> None:
    """`]` `times` times, each page loaded before the next is asked for."""
    for _ in range(times):
        await pilot.press("right_square_bracket")
        await settle(pilot)


async def page_to_end(
    pilot: Any, shown: Callable[[], list[Any]], said: Callable[[], str], page: Callable[[], int]
) -> tuple[list[Any], list[str]]:
    """Press `]` until the page no longer changes: every row shown on the way, and each page's pager line
    (no page shown is empty: a page past the server's last one is not offered)."""
    seen: list[Any] = []
    words: list[str] = []
    while True:
        rows = shown()
        assert rows or not words, f"page {page()} is empty: {words + [said()]}"
        seen.extend(rows)
        words.append(said())
        before = page()
        await turn_pages(pilot, 1)
        if page() == before:
            return seen, words
        assert len(words) < 300, "paging does not end"


async def walk(server: str, listed: Listed) -> None:
    """Open a list on `server` (one of SERVERS), page to the end with `]`, and check what was shown and said."""
    dialect, size, scale = SERVERS[server]
    tab, key = listed.tab, listed.key
    app = build_app(start=[listed.start], dialects=speaking(dialect), settings=Settings(page_size=size), scale=scale)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, TabbedListScreen)
        expected = [key(item) for item in await collect(listed.every(s, size))]
        assert len(expected) == len(set(expected))
        seen, words = await page_to_end(
            pilot, lambda: [key(row["item"]) for row in s.table(tab).visible_rows], lambda: pager(app, tab), lambda: s.states[tab].page
        )
        assert sorted(seen, key=repr) == sorted(expected, key=repr), f"{len(seen)} rows shown, {len(expected)} listed: {words}"
        assert len(seen) == len(set(seen)), "a row is shown twice"
        pages = len(words)
        for number, said in enumerate(words, 1):
            assert said.startswith(f"page {number} of {pages} · {len(expected)} "), said
        if dialect == "paging-ignored":
            assert pages == 1 and "the server ignores paging: all on one page" in words[0], words
        elif dialect:
            served = len(s.states[tab].items or []) if pages == 1 else 20 if dialect == "page-size-ignored" else 100
            assert all(f"{served} a page (the server's size; {size} asked)" in said for said in words), words
        else:
            assert not any("the server" in said for said in words), words


@pytest.mark.parametrize("server", SERVERS)
async def test_users_reachable_once_whatever_the_server_pages(server: str) -> None:
    await walk(server, USERS)


@pytest.mark.parametrize("server", SERVERS)
async def test_catalogue_reachable_once_whatever_the_server_pages(server: str) -> None:
    # The catalogue has fewer than 100 products at any scale: the capped server is seen on the part numbers (124).
    await walk(server, PARTS if server == "page-size-cap-100" else PRODUCTS)


@pytest.mark.parametrize("server", SERVERS)
async def test_registry_projects_reachable_once_whatever_the_server_pages(server: str) -> None:
    """The registry's pages (10 a page by default there) follow the server the same way."""
    from flextui.ui.screens.registry.projects import ProjectsScreen

    dialect, size, scale = SERVERS[server]
    size = 20 if size == 50 and dialect != "page-size-ignored" else size  # fewer than the 41 projects: a whole list is seen
    if server == "page-size-ignored-short-last":
        size = 7  # below the registry's own 10 a page, and no more than its last page (41 projects: 1)
    app = build_app(start=["projects"], dialects=speaking(dialect), settings=Settings(page_size=size), scale=scale)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, ProjectsScreen)
        expected = [p.name for p in await collect(s.every_pager(False))]
        seen, words = await page_to_end(
            pilot, lambda: [row["name"] for row in s.table.visible_rows], lambda: str(s.query_one("#pager").render()), lambda: s.page
        )
        assert sorted(seen) == sorted(expected) and len(seen) == len(set(seen)), f"{len(seen)} shown, {len(expected)} listed: {words[-2:]}"
        for number, said in enumerate(words, 1):
            assert said.startswith(f"page {number} of {len(words)} · {len(expected):,} "), said
        if dialect == "paging-ignored":
            assert "the server ignores paging: all on one page" in words[0], words
        if dialect == "page-size-ignored":
            assert len(words) == -(-len(expected) // 10), words  # the registry's own 10 a page


@pytest.mark.parametrize("size", [50, 15, 11, 7])
async def test_entitlement_tree_accounts_reachable_once_when_the_server_pages_by_its_own_size(size: int) -> None:
    """The tree's accounts (its roots) page by the server's size too: 20 a page when 50 are asked, and when
    15, 11 or 7 are (31 accounts: a last page of 11, no more than 15 or 11 asked, more than 7)."""
    from flextui.ui.screens.entitlements.tree import EntitlementsScreen

    app = build_app(start=["entitlements"], dialects=speaking("page-size-ignored"), settings=Settings(page_size=size))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, EntitlementsScreen)
        assert not s.filters.on_entitlements, "the tree opens on its accounts"
        seen, words = await page_to_end(
            pilot, lambda: [root.account_id for root in s.roots], lambda: str(s.query_one("#pager").render()), lambda: s.page
        )
        total = s.total
        assert total is not None and len(seen) == total == len(set(seen)), (len(seen), total, words)
        assert len(words) == -(-total // 20), words
        assert all(f"page {n} of {len(words)}" in said and "20 a page" in said for n, said in enumerate(words, 1)), words


async def test_a_search_of_every_page_counts_the_servers_pages_after_its_short_last_page() -> None:
    """Having seen the short last page (14 of 94 users at 20 a page, 15 asked), a search of every page still
    counts the server's 5 pages, not pages of 14."""
    app = build_app(start=["users"], dialects=speaking("page-size-ignored"), settings=Settings(page_size=15))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, TabbedListScreen)
        await turn_pages(pilot, 4)
        assert s.states["users"].page == 5 and len(s.table("users").visible_rows) == 14, pager(app, "users")
        s.search_all("@")  # every user has an e-mail address
        await until(pilot, lambda: s.searches["users"].every is not None and not s.searches["users"].running)
        await settle(pilot)
        total = len(s.searches["users"].every or [])
        assert total == s.states["users"].total == 94, pager(app, "users")
        assert f"'@': {total} found in all {total} users (5 pages, every page)" in pager(app, "users"), pager(app, "users")


# Tokens added to the admin's 10 on each server: 47 at 20 a page leave a last page of 7 (no longer than 15 asked); 230
# at 200 asked of a server capping at 100 are three pages; 70 at 50 asked of a server ignoring paging are its whole list.
MORE_TOKENS = {"page-size-ignored": 37, "page-size-ignored-short-last": 37, "page-size-cap-100": 220, "paging-ignored": 60, "strict": 60}


async def tokens_to_end(pilot: Any, s: TokensScreen, server: str, expected: list[str]) -> list[str]:
    """`]` to the end of the tokens shown (the list, or a search) on `server`: each of `expected` shown once, on the
    pages the server has, which the pager line names (its own size or cap, or all on one page); each page's line."""
    dialect, size, _ = SERVERS[server]
    assert len(expected) == 10 + MORE_TOKENS[server] == len(set(expected))
    seen, words = await page_to_end(
        pilot, lambda: [row["name"] for row in s.table.visible_rows], lambda: str(s.query_one("#pager").render()), lambda: s.page
    )
    assert sorted(seen) == sorted(expected) and len(seen) == len(set(seen)), f"{len(seen)} shown, {len(expected)} expected: {words}"
    pages = len(words)
    assert s.page_position() == (pages, pages)
    if dialect == "paging-ignored":
        assert pages == 1 and "the server ignores paging: all on one page" in words[0], words
    elif dialect:
        served = 20 if dialect == "page-size-ignored" else 100
        assert pages == -(-len(expected) // served), words
        assert all(f"{served} a page (the server's size; {size} asked)" in said for said in words), words
    else:
        assert pages == -(-len(expected) // size) and not any("the server" in said for said in words), words
    return words


@pytest.mark.parametrize("server", SERVERS)
async def test_tokens_reachable_once_whatever_the_server_pages(server: str) -> None:
    """The token list (its total from the count endpoint) counts its pages by the server's size too: before, it counted
    them by the size asked, so a server paging by 20 when 15 were asked had "page 3 of 4" empty and a 4th page."""
    dialect, size, _ = SERVERS[server]
    app = build_app(start=["tokens"], dialects=speaking(dialect), settings=Settings(page_size=size))
    more_tokens(world_of(app), ADMIN[0], MORE_TOKENS[server])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, TokensScreen)
        expected = [t.name for t in await collect(await s.service.iterate(ADMIN[0], None))]
        words = await tokens_to_end(pilot, s, server, expected)
        for number, said in enumerate(words, 1):
            assert said.startswith(f"page {number} of {len(words)} · {len(expected)} tokens"), said


async def test_tokens_all_on_one_page_of_a_server_paging_by_more_than_asked() -> None:
    """The admin's 10 tokens, 3 asked of a server paging by 20: one page, and `]` opens no empty one."""
    app = build_app(start=["tokens"], dialects=speaking("page-size-ignored"), settings=Settings(page_size=3))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, TokensScreen)
        said = str(s.query_one("#pager").render())
        assert said.startswith("page 1 of 1 · 10 tokens · the server ignores paging: all on one page"), said
        assert len(s.table.visible_rows) == 10
        await turn_pages(pilot, 1)
        assert s.page == 0 and len(s.table.visible_rows) == 10, str(s.query_one("#pager").render())


async def test_a_search_of_every_page_of_tokens_counts_the_servers_pages_after_its_short_last_page() -> None:
    """On the last page (7 of 47 tokens at 20 a page, 15 asked), a search of every page counts the server's 3 pages."""
    app = build_app(start=["tokens"], dialects=speaking("page-size-ignored"), settings=Settings(page_size=15))
    more_tokens(world_of(app), ADMIN[0], 37)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, TokensScreen)
        await turn_pages(pilot, 2)
        said = str(s.query_one("#pager").render())
        assert s.page == 2 and len(s.table.visible_rows) == 7 and said.startswith("page 3 of 3 · 47 tokens"), said
        s.search_all("paging-")  # the 37 tokens added
        await until(pilot, lambda: s.every is not None and not s.every_running)
        await settle(pilot)
        said = str(s.query_one("#pager").render())
        assert "'paging-': 37 found in all 47 tokens (3 pages, every page)" in said, said


async def open_search(pilot: Any, **fields: str) -> TokensScreen:
    """`s` on the tokens, the search form's `fields`, submit: the tokens screen, its first page asked for."""
    await settle(pilot)
    await pilot.press("s")
    await until(pilot, lambda: isinstance(pilot.app.screen, FormScreen))
    for field, text in fields.items():
        pilot.app.screen.query_one(f"#field-{field}", Input).value = text
    await pilot.click("#form-submit")
    await until(pilot, lambda: isinstance(pilot.app.screen, TokensScreen) and pilot.app.screen.search is not None)
    screen = pilot.app.screen
    assert isinstance(screen, TokensScreen)
    return screen


@pytest.mark.parametrize("server", SERVERS)
async def test_a_token_search_reaches_every_match_once_whatever_the_server_pages(server: str) -> None:
    """`s`, then `]` to the end. The search has no count, and was paged by hand: a server capping the size at 100 (200
    asked) left all but its first 100 matches unreachable (`]` refused on a page of 100), one ignoring paging had `]`
    open page 2, 3, … with the same rows for ever, and one paging by 20 of its own an empty page 2. Each page is now
    settled by asking the next one ahead: `]` is offered while a next page exists, the pages are the server's, and the
    last page knows it is the last."""
    dialect, size, _ = SERVERS[server]
    app = build_app(start=["tokens"], dialects=speaking(dialect), settings=Settings(page_size=size))
    more_tokens(world_of(app), ADMIN[0], MORE_TOKENS[server])
    async with app.run_test(size=(120, 40)) as pilot:
        s = await open_search(pilot, username=ADMIN[0])
        await settle(pilot)
        assert s.search is not None
        expected = [t.name for t in await collect(s.service.search_all(s.search))]
        words = await tokens_to_end(pilot, s, server, expected)
        pages = len(words)
        for number, said in enumerate(words, 1):
            assert said.startswith(f"search: username={ADMIN[0]} · page {number}{f' of {pages}' if number == pages else ''} · "), said
        assert all("] for more" in said for said in words[:-1]) and "] for more" not in words[-1], words
        assert not any("more may follow" in said for said in words), f"each page known before the next key: {words}"
        if dialect == "paging-ignored":
            return  # one page: nothing for a search of every page to add
        s.search_all("paging-")  # the tokens added: the search of every page counts the server's pages too
        await until(pilot, lambda: s.every is not None and not s.every_running)
        await settle(pilot)
        said = str(s.query_one("#pager").render())
        assert f"'paging-': {MORE_TOKENS[server]} found in all {len(expected)} tokens ({pages} pages, every page)" in said, said


async def test_a_next_page_key_pressed_before_the_search_knows_waits_for_the_answer() -> None:
    """`]` pressed while the page after the one shown is still being asked for (a slow server): it is neither refused
    nor an empty page; the pager says more may follow, and once the server answers, that page opens."""
    plan = FaultPlan()
    answer = threading.Event()
    app = build_app(start=["tokens"], dialects=speaking("page-size-cap-100"), settings=Settings(page_size=200), faults=plan)
    more_tokens(world_of(app), ADMIN[0], 220)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plan.add(r"POST .*/tokens/search", query=r"(^|&)page=1(&|$)", kind="slow", hold=answer, times=1000)
        s = await open_search(pilot, username=ADMIN[0])
        await until(pilot, lambda: len(s.table.visible_rows) == 100)
        first = [row["name"] for row in s.table.visible_rows]
        assert "page 1 · 100 shown · more may follow" in str(s.query_one("#pager").render())
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: s.ahead.wanted == 1)
        said = str(s.query_one("#pager").render())
        assert s.page == 0 and "more may follow (] opens page 2 if it exists)" in said, said
        answer.set()
        await until(pilot, lambda: s.search_shown == 1 and s.ahead.more is not None)
        await settle(pilot)
        said = str(s.query_one("#pager").render())
        shown = [row["name"] for row in s.table.visible_rows]
        assert len(shown) == 100 and not set(shown) & set(first), said
        assert said.startswith(
            f"search: username={ADMIN[0]} · page 2 · 100 shown · 100 a page (the server's size; 200 asked) · ] for more"
        ), said


# -- the registry without a total ------------------------------------------------------------------------------------

NO_TOTAL = "registry-no-total"


async def registry_to_end(
    pilot: Any, s: Any, server: str, size: int, expected: list[Any], key: Callable[[Any], Hashable], served: int
) -> list[str]:
    """`]` to the end of a registry list whose server sends no total: each of `expected` shown once, on the pages the
    server has (`served` a page); `]` offered ("] for more") while a next page exists, and the last page knows it is the
    last ("page 3 of 3"); each page's pager line."""
    dialect = SERVERS[server][0]
    seen, words = await page_to_end(
        pilot, lambda: [key(row[s.ITEM]) for row in s.table.visible_rows], lambda: str(s.query_one("#pager").render()), lambda: s.page
    )
    assert sorted(seen, key=repr) == sorted(expected, key=repr) and len(seen) == len(set(seen)), (
        f"{len(seen)} shown, {len(expected)} expected: {words}"
    )
    pages = len(words)
    assert s.total is None and s.page_position() == (pages, pages), words
    for number, said in enumerate(words, 1):
        assert said.startswith(f"page {number}{f' of {pages}' if number == pages else ''} · "), said
    assert all("] for more" in said for said in words[:-1]) and "] for more" not in words[-1], words
    assert not any("more may follow" in said for said in words), f"each page known before the next key: {words}"
    if dialect == "paging-ignored":
        assert pages == 1 and "the server ignores paging: all on one page" in words[0], words
    else:
        assert pages == -(-len(expected) // served), words
        if served != size and pages > 1:
            assert all(f"{served} a page (the server's size; {size} asked)" in said for said in words), words
    return words


@pytest.mark.parametrize("server", SERVERS)
async def test_registry_projects_without_a_total_reachable_once_whatever_the_server_pages(server: str) -> None:
    """`]` to the end of the projects from a server that sends no total (the docs' bare arrays). They were paged by hand
    then: a server paging by 10 of its own (20 asked) had page 1 taken for the last, its other projects unreachable; one
    ignoring paging had `]` open page 2, 3, … with the same rows for ever; a last page as long as asked offered an empty
    page after it. Each page is now settled by asking the next one ahead."""
    from flextui.sim.registry import registry_store
    from flextui.ui.screens.registry.projects import ProjectsScreen

    dialect, size, scale = SERVERS[server]
    size = min(size, 100) if dialect != "page-size-ignored" else size  # (the registry's most: 100)
    size = 20 if size == 50 and dialect != "page-size-ignored" else size  # fewer than the 41 projects: a whole list is seen
    if server == "page-size-ignored-short-last":
        size = 7  # below the registry's own 10 a page
    app = build_app(start=["projects"], dialects=speaking(f"{NO_TOTAL},{dialect}"), settings=Settings(page_size=size), scale=scale)
    expected = [p.name for p in registry_store(world_of(app)).sorted_projects()]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, ProjectsScreen)
        served = 10 if dialect == "page-size-ignored" else size
        await registry_to_end(pilot, s, server, size, expected, lambda p: p.name, served)


@pytest.mark.parametrize("server", SERVERS)
async def test_registry_artifacts_without_a_total_reachable_once_whatever_the_server_pages(server: str) -> None:
    """The same for a nested list, a repository's artifacts (40 of them: 4 full pages of the server's own 10, so no
    empty page may follow the last)."""
    from flextui.ui.screens.registry.projects import ArtifactsScreen
    from tests.api.test_registry_no_total import PROJECT, REPOSITORY, grow

    dialect, size, _ = SERVERS[server]
    size = 15 if server == "strict" else 7 if server == "page-size-ignored-short-last" else min(size, 100)
    start = ["artifacts", f"{PROJECT}/{REPOSITORY}"]
    app = build_app(start=start, dialects=speaking(f"{NO_TOTAL},{dialect}"), settings=Settings(page_size=size))
    grow(world_of(app))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, ArtifactsScreen)
        expected = [a.digest for a in await collect(s.every_pager(False))]
        assert len(expected) == 40
        served = 10 if dialect == "page-size-ignored" else size
        await registry_to_end(pilot, s, server, size, expected, lambda a: a.digest, served)


@pytest.mark.parametrize("server", ["page-size-ignored", "paging-ignored", "strict"])
async def test_registry_members_without_a_total_reachable_once_whatever_the_server_pages(server: str) -> None:
    """A project's members tab pages the same way (36 members: 4 pages of the server's own 10, 3 of 15 asked)."""
    from flextui.sim.registry import registry_store
    from flextui.ui.screens.registry.projects import ProjectScreen
    from tests.api.test_registry_no_total import PROJECT

    dialect = SERVERS[server][0]
    size = 15
    app = build_app(start=["members", PROJECT], dialects=speaking(f"{NO_TOTAL},{dialect}"), settings=Settings(page_size=size))
    store = registry_store(world_of(app))
    expected = [m["entityName"] for m in store.members(store.project(PROJECT))]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, ProjectScreen) and s.tab == "members"
        seen, words = await page_to_end(
            pilot,
            lambda: [row["entity_name"] for row in s.query_one("#members-table").visible_rows],
            lambda: str(s.query_one("#members-pager").render()),
            lambda: s.member_page,
        )
        assert sorted(seen) == sorted(expected) and len(seen) == len(set(seen)), words
        pages = len(words)
        served = len(expected) if dialect == "paging-ignored" else 10 if dialect else size
        assert pages == -(-len(expected) // served) and s.page_position() == (pages, pages), words
        for number, said in enumerate(words, 1):
            assert said.startswith(f"page {number}{f' of {pages}' if number == pages else ''} · "), said
        assert all("] for more" in said for said in words[:-1]) and "] for more" not in words[-1], words


async def test_a_next_page_key_pressed_before_the_registry_knows_waits_for_the_answer() -> None:
    """`]` pressed while the page after the one shown is still being asked for (a slow server, no total): it is neither
    refused nor an empty page; the pager says more may follow, and once the server answers, that page opens."""
    from flextui.ui.screens.registry.projects import ProjectsScreen

    plan = FaultPlan()
    answer = threading.Event()
    app = build_app(start=["projects"], dialects=speaking(f"{NO_TOTAL},page-size-ignored"), settings=Settings(page_size=20), faults=plan)
    plan.add(r"GET .*/registry/api/v1/projects", query=r"(^|&)page=2(&|$)", kind="slow", hold=answer, times=1000)
    async with app.run_test(size=(120, 40)) as pilot:
        s = app.screen
        assert isinstance(s, ProjectsScreen)
        await until(pilot, lambda: len(s.table.visible_rows) == 10)
        first = [row["name"] for row in s.table.visible_rows]
        assert "page 1 · 10 shown · more may follow" in str(s.query_one("#pager").render())
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: s.ahead.wanted == 1)
        said = str(s.query_one("#pager").render())
        assert s.page == 1 and "more may follow (] opens page 2 if it exists)" in said, said
        answer.set()
        await until(pilot, lambda: s.shown_page == 2 and s.ahead.more is not None)
        await settle(pilot)
        said = str(s.query_one("#pager").render())
        shown = [row["name"] for row in s.table.visible_rows]
        assert len(shown) == 10 and not set(shown) & set(first), said
        assert said.startswith("page 2 · 10 shown · 10 a page (the server's size; 20 asked) · ] for more"), said


async def test_a_page_past_the_last_of_a_registry_list_without_a_total_keeps_the_page_shown() -> None:
    """`:page 9` of projects whose last page is not known yet (no total): asked for, found empty, the page shown stays
    and the pager says which pages exist."""
    from flextui.ui.screens.registry.projects import ProjectsScreen

    app = build_app(start=["projects"], dialects=speaking(NO_TOTAL), settings=Settings(page_size=20))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = app.screen
        assert isinstance(s, ProjectsScreen)
        first = [row["name"] for row in s.table.visible_rows]
        assert s.go_to_page(9) is None
        await settle(pilot)
        said = str(s.query_one("#pager").render())
        assert s.page == 1 and [row["name"] for row in s.table.visible_rows] == first, said
        assert said.startswith("page 1 · 20 shown · ] for more"), said
