"""`:watch N` (issue 13): a list refreshes itself, marks what appeared or changed until it is seen, names what left,
keeps a tally since it began, says once that it fails (and once that it answers again), and pauses when it should.

The ticks are driven by calling the watcher's `tick` (the interval is long): a test waits for the
state a tick leads to, never for time to pass.
"""

from __future__ import annotations

import re
from typing import Any

from textual.widgets import Input, Label

from flextui.api.http import RetryPolicy
from flextui.api.tokens import TokenCreate, TokensService
from flextui.context import demo_identity
from flextui.render.text import clean
from flextui.sim.faults import FaultPlan
from flextui.sim.tokens import token_store
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.watch import parse_seconds
from flextui.ui.widgets.dialogs import MessageScreen
from tests.faults import TIMEOUT
from tests.ui.conftest import build_app, burst, command, screen_of, settle, until, world_of


def test_intervals_read_as_a_person_writes_them() -> None:
    assert parse_seconds("30") == 30 and parse_seconds("2m") == 120 and parse_seconds("5s") == 5
    for bad in ("1", "0.5", "soon", ""):
        try:
            parse_seconds(bad)
        except ValueError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{bad!r} accepted")


async def create_elsewhere(app: Any, name: str) -> None:
    """A token made by someone else on the same instance, as a colleague's curl would."""
    other = demo_identity(app.ctx, "demo")
    await TokensService(other.session).create(TokenCreate(tokenName=name, expiryStr="1d"))
    await other.aclose()


def index_of(screen: TokensScreen, name: str) -> int:
    return next(i for i, row in enumerate(screen.table.visible_rows) if row.get("name") == name)


def first_cell(screen: TokensScreen, name: str) -> str:
    return str(screen.table.get_row_at(index_of(screen, name))[0])


async def refreshed(pilot: Any, screen: TokensScreen) -> None:
    """One tick of the watch, and its refresh over (no worker left loading)."""
    count = screen.watcher.refreshes
    screen.watcher.tick()
    await until(pilot, lambda: screen.watcher.refreshes == count + 1 and screen.watcher.paused_because() is None)
    await settle(pilot)


async def watching_tokens(pilot: Any, seconds: str = "600") -> TokensScreen:
    screen = await screen_of(pilot, TokensScreen)
    await until(pilot, lambda: bool(screen.tokens))
    screen.table.focus()
    await command(pilot, f"watch {seconds}")
    await until(pilot, lambda: screen.watcher is not None)
    return screen


async def test_marks_stay_until_seen_and_the_status_keeps_a_tally_since_the_watch_began() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await watching_tokens(pilot)
        assert "⟳ every 600 s" in screen.status.info
        screen.table.move_cursor(row=0)
        await settle(pilot)

        await create_elsewhere(app, "appeared-while-watching")
        await refreshed(pilot, screen)
        assert first_cell(screen, "appeared-while-watching").startswith("+ "), "the new row is marked"
        assert re.search(r"⟳ since \d\d:\d\d: 1 new · every 600 s$", screen.status.info), "the first refresh's findings are the tally"

        refills: list[int] = []
        real = screen.table._refill
        screen.table._refill = lambda current, **kw: (refills.append(1), real(current, **kw))[1]  # type: ignore[method-assign]
        await refreshed(pilot, screen)
        assert re.search(r"since \d\d:\d\d: 1 new · \d\d:\d\d:\d\d: no change · every 600 s$", screen.status.info), screen.status.info
        assert first_cell(screen, "appeared-while-watching").startswith("+ "), "a refresh later, the mark is still there"
        assert not refills, "the same rows again: nothing repainted"
        screen.table._refill = real  # type: ignore[method-assign]

        row = index_of(screen, "appeared-while-watching")
        screen.table.move_cursor(row=row)
        await settle(pilot)
        assert first_cell(screen, "appeared-while-watching").startswith("+ "), "marked while the cursor is on it"
        assert "⟳ + appeared-while-watching: new ·" in screen.status.info
        await pilot.press("down" if row == 0 else "up")
        await until(pilot, lambda: not screen.table.marks)
        assert not first_cell(screen, "appeared-while-watching").startswith("+ "), "seen: the cursor has been on it"
        assert f" since {screen.watcher.began}: 1 new ·" in screen.status.info, "the tally remains"

        await create_elsewhere(app, "appeared-again")
        await refreshed(pilot, screen)
        assert first_cell(screen, "appeared-again").startswith("+ ")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: not screen.table.marks)
        assert not first_cell(screen, "appeared-again").startswith("+ "), "a refresh by hand: everything is seen"
        assert f" since {screen.watcher.began}: 2 new ·" in screen.status.info

        await create_elsewhere(app, "appeared-third")
        await refreshed(pilot, screen)
        assert screen.table.marks
        screen.table.set_rows(list(screen.table.rows_all))  # rows set for another reason (a page turned): no refresh
        assert not screen.table.marks and not screen.table.watching, "the marks go, and nothing is compared"

        app.push_screen(MessageScreen("A dialog", "over the list"))
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        screen.watcher.tick()
        assert screen.watcher.refreshes == 4, "no refresh behind a dialog"

        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is screen)
        await create_elsewhere(app, "appeared-fourth")
        await refreshed(pilot, screen)
        assert screen.table.marks
        await command(pilot, "watch off")
        await until(pilot, lambda: screen.watcher is None and not screen.status.info and not screen.table.marks)


async def test_rows_that_left_are_named_cleaned_and_a_few_at_most() -> None:
    app = build_app()
    async with app.run_test(size=(220, 40)) as pilot:
        screen = await screen_of(pilot, TokensScreen)
        await until(pilot, lambda: bool(screen.tokens))
        store = token_store(world_of(app))
        nasty = "0-gone[bold]x[/]\x1b[31m"  # what a server may send: markup and a control sequence
        store.rename(screen.tokens[0].name, nasty)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: any(t.name == nasty for t in screen.tokens))
        screen = await watching_tokens(pilot)
        leaving = [nasty] + [t.name for t in screen.tokens if t.name != nasty][:3]
        for name in leaving:
            store.remove(name)
        await refreshed(pilot, screen)
        info = screen.status.info
        assert info.endswith(f" since {screen.watcher.began}: gone: {clean(nasty)}, {leaving[1]} +2 more · every 600 s"), info
        await refreshed(pilot, screen)
        info = screen.status.info
        assert f" since {screen.watcher.began}: gone: {clean(nasty)}, {leaving[1]} +2 more · " in info, "still named a refresh later"
        assert info.endswith(": no change · every 600 s"), info
        assert "\x1b" not in info, "a control sequence is shown, never sent to the terminal"
        assert f"gone: {clean(nasty)}, " in screen.status.shown_text, "the name is shown as sent (wide enough), never as markup"


async def test_a_changed_row_says_which_fields_changed() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await watching_tokens(pilot)
        store = token_store(world_of(app))
        described, expiring = screen.tokens[0].name, screen.tokens[1].name
        store.by_name[described].description = "a new reason"
        store.by_name[expiring].expiry_ms += 86_400_000
        await refreshed(pilot, screen)
        assert re.search(
            r"· since \d\d:\d\d: 2 changed · \d\d:\d\d:\d\d: 2 changed \(Description, Expires\) · every 600 s$", screen.status.info
        ), screen.status.info

        row = screen.table.get_row_at(index_of(screen, expiring))
        expires = [c.key for c in screen.table.spec].index("expires")
        assert str(row[0]).startswith("~ ")
        assert any("underline" in str(span.style) for span in row[expires].spans), "the cell that changed is underlined"
        assert not any("underline" in str(span.style) for span in row[1].spans)

        screen.table.move_cursor(row=index_of(screen, described))
        await until(pilot, lambda: f"⟳ ~ {described}: Description ·" in screen.status.info)
        screen.table.move_cursor(row=index_of(screen, expiring))
        await until(pilot, lambda: f"⟳ ~ {expiring}: Expires ·" in screen.status.info)
        assert described not in screen.table.marks, "the row the cursor left has been seen"


async def test_a_failing_watch_says_so_once_with_the_datas_age_and_once_when_it_answers_again() -> None:
    plan = FaultPlan()
    app = build_app(faults=plan, timeout=TIMEOUT)
    app.ctx.session.retry = RetryPolicy(attempts=2, backoff=0.01)
    said: list[tuple[str, str]] = []
    real_notify = app.notify

    def notify(message: str, **kwargs: Any) -> None:
        said.append((str(message), kwargs.get("severity", "information")))
        real_notify(message, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await watching_tokens(pilot)
        age = screen.status.query_one("#st-age", Label)
        assert str(age.render()) == "fresh"
        plan.add(r"^GET .*token", kind="drop", times=1000)
        said.clear()
        for _ in range(3):
            await refreshed(pilot, screen)
        errors = [text for text, severity in said if severity == "error"]
        assert len(errors) == 1 and errors[0].startswith("Watch: refreshing tokens:"), said
        assert re.search(r"· ⟳ every 600 s, failing since \d\d:\d\d:\d\d \(3 tries\)$", screen.status.error)
        assert str(age.render()) == "fetched <1 min ago" and age.has_class("-stale"), "what is shown is not fresh"

        plan.clear()
        await refreshed(pilot, screen)
        assert len(said) == 2 and "answers again" in said[1][0] and said[1][1] == "information", said
        assert not screen.status.error and str(age.render()) == "fresh" and not age.has_class("-stale")
        assert screen.status.info.startswith("⟳ ") and screen.status.info.endswith("every 600 s")


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


async def test_bang_under_a_watch_shows_the_error_said_not_the_ticks_words() -> None:
    """Each tick rewrote the status line's words, so `!` led with "no change" over the error the user had just had."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await watching_tokens(pilot)
        await refreshed(pilot, screen)
        app.notify("No column 'bogus': Name, Type, Expires, User", severity="error")
        await refreshed(pilot, screen)
        (kind, text), _ = app.said.latest_first(screen.status.message, screen.status.said_at)
        assert kind == "error" and text.startswith("No column 'bogus'"), text


async def test_bang_shows_a_watchs_tally_that_the_status_line_cuts() -> None:
    """At 120 columns the tally ended "1 n… (! shows all)", and `!` showed the watch's first toast instead."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await watching_tokens(pilot)
        await create_elsewhere(app, "appeared-while-watching")
        await refreshed(pilot, screen)
        assert screen.status.is_cut and screen.status.shown_text.endswith("(! shows all)")
        await burst(pilot, "exclamation_mark")
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        shown = str(app.screen.query_one("#message-body").render())
        assert f"On the status line: {screen.status.info}" in shown, shown
