"""`:watch N` (issue 13): a list refreshes itself, marks what appeared or changed, counts what left, and pauses when it should.

The ticks are driven by calling the watcher's `tick` (the interval is long): a test waits for the
state a tick leads to, never for time to pass.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from flextui.api.tokens import TokenCreate, TokensService
from flextui.context import demo_identity
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.watch import parse_seconds
from flextui.ui.widgets.dialogs import MessageScreen
from tests.ui.conftest import build_app, burst, command, screen_of, settle, until


def test_intervals_read_as_a_person_writes_them() -> None:
    assert parse_seconds("30") == 30 and parse_seconds("2m") == 120 and parse_seconds("5s") == 5
    for bad in ("1", "0.5", "soon", ""):
        try:
            parse_seconds(bad)
        except ValueError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{bad!r} accepted")


async def test_a_watched_list_marks_a_new_row_and_keeps_still_when_nothing_changed() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot, TokensScreen)
        await until(pilot, lambda: bool(screen.tokens))
        screen.table.focus()
        await command(pilot, "watch 600")
        await until(pilot, lambda: screen.watcher is not None)
        assert "⟳ every 600 s" in screen.status.info

        other = demo_identity(app.ctx, "demo")  # someone else, on the same instance
        await TokensService(other.session).create(TokenCreate(tokenName="appeared-while-watching", expiryStr="1d"))
        await other.aclose()
        screen.table.focus()
        screen.watcher.tick()
        await until(pilot, lambda: "1 new" in screen.status.info)
        row = next(i for i, t in enumerate(screen.table.visible_rows) if t.get("name") == "appeared-while-watching")
        assert screen.table.marks and str(screen.table.get_row_at(row)[0]).startswith("+ "), "the new row is marked"

        refills: list[int] = []
        real = screen.table._refill
        screen.table._refill = lambda current, **kw: (refills.append(1), real(current, **kw))[1]  # type: ignore[method-assign]
        screen.watcher.tick()
        await until(pilot, lambda: "no change" in screen.status.info and screen.watcher.refreshes == 2)
        await settle(pilot)
        assert len(refills) == 1 and not screen.table.marks, "the marks are cleared once"
        screen.watcher.tick()
        await until(pilot, lambda: screen.watcher.refreshes == 3)
        await settle(pilot)
        assert len(refills) == 1, "the same rows again: nothing repainted"

        other = demo_identity(app.ctx, "demo")
        await TokensService(other.session).create(TokenCreate(tokenName="appeared-again", expiryStr="1d"))
        await other.aclose()
        screen.watcher.tick()
        await until(pilot, lambda: screen.watcher.refreshes == 4 and bool(screen.table.marks))
        screen.table.set_rows(list(screen.table.rows_all))  # rows set for another reason (a page turned): no refresh
        assert not screen.table.marks and not screen.table.watching, "the marks go, and nothing is compared"

        app.push_screen(MessageScreen("A dialog", "over the list"))
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        screen.watcher.tick()
        assert screen.watcher.refreshes == 4, "no refresh behind a dialog"

        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is screen)
        await command(pilot, "watch off")
        await until(pilot, lambda: screen.watcher is None and not screen.status.info)


async def test_a_field_with_the_focus_pauses_the_watch_and_a_report_run_is_not_watched() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot, TokensScreen)
        await command(pilot, "watch 30")
        await until(pilot, lambda: screen.watcher is not None)
        screen.query_one("#q-user", Input).focus()
        await settle(pilot)
        screen.watcher.tick()
        assert screen.watcher.refreshes == 0 and "paused: a field has the focus" in screen.status.info
        screen.table.focus()
        await settle(pilot)
        await command(pilot, "report fulfillment")
        await settle(pilot)
        await command(pilot, "watch 30")
        await until(pilot, lambda: any("does not refresh on its own" in str(n.message) for n in app._notifications))


async def test_page_n_goes_to_that_page_and_says_when_there_is_none() -> None:
    from flextui.config import Settings

    app = build_app(settings=Settings(page_size=4))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot, TokensScreen)
        await until(pilot, lambda: bool(screen.tokens) and screen.total is not None)
        first = [t.name for t in screen.tokens]
        last = -(-screen.total // 4)
        assert last >= 3
        await command(pilot, f"page {last}")
        await until(pilot, lambda: screen.page == last - 1 and [t.name for t in screen.tokens] != first)
        await settle(pilot)
        assert not set(first) & {t.name for t in screen.tokens}
        await command(pilot, f"page {last + 1}")
        await until(pilot, lambda: any(f"past the last one ({last})" in str(n.message) for n in app._notifications))
        assert screen.page == last - 1
        await command(pilot, "page 1")
        await until(pilot, lambda: screen.page == 0 and [t.name for t in screen.tokens] == first)


async def test_sort_on_entitlements_is_the_servers() -> None:
    from flextui.ui.screens.entitlements.tree import EntitlementsScreen

    app = build_app(start=["entitlements", "product=Flex Canvas"])
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await screen_of(pilot, EntitlementsScreen)
        await until(pilot, lambda: bool(tree.ent_children))

        def order() -> list[str]:
            return [e.entitlement_id for r in tree.roots for e in tree.ent_children.get(r.account_id, [])]

        await command(pilot, "sort created desc")
        await until(pilot, lambda: tree.sort == ("created_on", "desc") and bool(tree.ent_children))
        await settle(pilot)
        sent = [e for e in app.ctx.session.trace.exchanges if "/entitlements?" in e.url]
        assert "sort_by=created_on" in sent[-1].url and "sort_order=desc" in sent[-1].url, "the server is asked to sort"
        created = [e.created for r in tree.roots for e in tree.ent_children.get(r.account_id, []) if e.created]
        grouped = {r.account_id: [e.created for e in tree.ent_children.get(r.account_id, []) if e.created] for r in tree.roots}
        assert created and all(v == sorted(v, reverse=True) for v in grouped.values()), "newest first within each account"
        await command(pilot, "sort colour")
        await until(pilot, lambda: any("not 'colour'" in str(n.message) for n in app._notifications))
        assert tree.sort == ("created_on", "desc") and order()


async def test_a_service_that_will_not_sort_gets_its_entitlements_sorted_here(monkeypatch: Any) -> None:
    from flextui.api.entitlements import EntitlementsService
    from flextui.api.errors import BadRequest
    from flextui.ui.screens.entitlements.tree import EntitlementsScreen

    real = EntitlementsService.list_page

    def refusing(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(query, "sort_by", None) == "created_on":
            raise BadRequest("sort_by: created_on is not supported")
        return real(self, query, *args, **kwargs)

    monkeypatch.setattr(EntitlementsService, "list_page", refusing)
    app = build_app(start=["entitlements", "product=Flex Canvas"])
    async with app.run_test(size=(120, 40)) as pilot:
        tree = await screen_of(pilot, EntitlementsScreen)
        await until(pilot, lambda: bool(tree.ent_children))
        await command(pilot, "sort created desc")
        await until(pilot, lambda: tree.local_sort == ("created_on", "desc") and bool(tree.ent_children))
        await settle(pilot)
        assert tree.sort == ("entitlement_id", "asc"), "asked again in the service's own order"
        assert "sorted here" in tree.status.message[1]
        for root in tree.roots:
            shown = [e.created for e in tree._in_order(tree.ent_children.get(root.account_id, [])) if e.created]
            assert shown == sorted(shown, reverse=True), "newest first, sorted here"
        root = next(r for r in tree.roots if len({e.created for e in tree.ent_children.get(r.account_id, [])}) > 1)
        node = tree.node_index[f"A:{root.account_id}"]
        tree._fill(node)  # the account's entitlements, as the tree shows them
        shown_ids = [c.data.entitlement.entitlement_id for c in node.children if c.data is not None and c.data.entitlement is not None]
        assert shown_ids == [e.entitlement_id for e in tree._in_order(tree.ent_children[root.account_id])], "in the tree too"
