"""The request log (`L`): every exchange of the session, one in full, copied as curl with no secret in it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.widgets import DataTable, Static

from flextui.api.tokens import TokensService
from flextui.sim.world import ADMIN
from flextui.ui.screens.requestlog import RequestLogScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.dialogs import ValueScreen
from tests.ui.conftest import build_app, burst, screen_of, settle, until


async def test_the_log_lists_every_exchange_shows_one_whole_and_copies_it_as_curl_without_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    copied: list[str] = []
    monkeypatch.setattr(App, "copy_to_clipboard", lambda self, text: copied.append(text))
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TokensScreen)
        sent = len(app.ctx.session.trace.exchanges)
        assert sent >= 1
        await burst(pilot, "L")
        log = app.screen
        assert isinstance(log, RequestLogScreen)
        table = log.query_one(DataTable)
        assert table.row_count == sent and table.cursor_row == sent - 1, "every exchange, the newest selected"
        detail = str(log.query_one("#rl-detail", Static).render())
        assert "Request headers" in detail and "***" in detail
        token = app.ctx.extras["world"].seed_token(ADMIN[0])
        assert ADMIN[1] not in detail and token not in detail
        # a request made while the log is open joins it, and the cursor follows the newest line
        await TokensService(app.ctx.session).count(ADMIN[0])
        await until(pilot, lambda: table.row_count == sent + 1)
        assert table.cursor_row == sent
        await burst(pilot, "c")
        assert copied and copied[-1].startswith("curl ") and "$FNO_" in copied[-1]
        assert ADMIN[1] not in copied[-1] and token not in copied[-1]
        await burst(pilot, "ctrl+y")  # the toast says "ctrl+y shows it": from the dialog too
        shown = await screen_of(pilot, ValueScreen)
        assert "Last copied value" in str(shown.query_one("#value-title").render())
        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is log)
        await burst(pilot, "escape")
        assert isinstance(app.screen, TokensScreen)
        # the log stops listening as it goes (its unmount can come after the screen change on a loaded machine)
        await until(pilot, lambda: all(getattr(f, "__self__", None) is not log for f in app.ctx.session.trace.listeners))


async def test_the_log_opens_from_the_command_bar_and_cleans_hostile_paths() -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.ctx.session.trace.note("GET", "http://sim.flextui.invalid/a\x1b]52;c;aGk=\x07b/\u202eevil", "tokens", "cached")
        await burst(pilot, "colon", *"log", "enter")
        log = app.screen
        assert isinstance(log, RequestLogScreen)
        cells: list[Any] = [
            str(cell) for row in range(log.query_one(DataTable).row_count) for cell in log.query_one(DataTable).get_row_at(row)
        ]
        assert not any("\x1b" in c or "\u202e" in c or "\x07" in c for c in cells)


async def test_home_and_end_go_to_the_first_and_last_exchange_as_in_every_list() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(3):  # enough exchanges for a first and a last
            await TokensService(app.ctx.session).count(ADMIN[0])
        await burst(pilot, "L")
        table = app.screen.query_one(DataTable)
        last = table.row_count - 1
        assert last >= 3 and table.cursor_row == last
        await burst(pilot, "home")
        assert table.cursor_row == 0
        await burst(pilot, "end")
        assert table.cursor_row == last


async def test_a_page_base_probe_refused_is_an_answer_not_a_failure() -> None:
    """Where a service's pages start is found by asking page 0: its 400 means "from 1". The log counted it
    as a failure, in red, so a clean start read "4 failures"."""
    app = build_app(start=["users"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        probes = [e for e in app.ctx.session.trace.exchanges if e.decision == "page-base probe"]
        assert probes and any(e.status == 400 for e in probes), [(e.decision, e.status, e.url) for e in app.ctx.session.trace.exchanges]
        await burst(pilot, "L")
        log = app.screen
        assert isinstance(log, RequestLogScreen)
        assert "failure" not in str(log.query_one("#rl-title").render())


async def test_at_80x24_the_path_tells_requests_apart_and_the_sign_in_shows_without_its_jwt(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80×24 every path was cut at 16 cells (`/flexnet/uar/v1…`), so all token requests looked alike, and the
    registry's successful authenticate was missing. Now the path keeps what was asked for, the columns fit the
    width, and the sign-in is listed before the call it opened, copied as curl with the password from the
    environment, its JWT nowhere on screen nor in the copy."""
    from flextui.api.tokens import TokenSearch
    from flextui.context import registry_for

    copied: list[str] = []
    monkeypatch.setattr(App, "copy_to_clipboard", lambda self, text: copied.append(text))
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tokens = TokensService(app.ctx.session)
        await tokens.count(ADMIN[0])
        await tokens.search(TokenSearch(username=ADMIN[0]), 0, 5)
        registry = registry_for(app.ctx)
        await registry.projects_page(1, 3)
        assert registry.auth is not None and registry.auth._jwt
        jwt = registry.auth._jwt
        await burst(pilot, "L")
        log = app.screen
        assert isinstance(log, RequestLogScreen)
        table = log.query_one(DataTable)
        paths = [str(table.get_row_at(row)[-1]) for row in range(table.row_count)]
        assert any("tokens/count" in p for p in paths) and any("tokens/search" in p for p in paths), paths
        assert table.virtual_size.width <= table.size.width, "the columns fit 80 cells: nothing scrolls off to the right"
        signed = [row for row, p in enumerate(paths) if p.endswith("/authenticate")]
        projects = [row for row, p in enumerate(paths) if "/projects" in p]
        assert signed and projects and signed[0] < projects[0], paths
        table.move_cursor(row=signed[0])
        await settle(pilot)
        detail = str(log.query_one("#rl-detail", Static).render())
        assert "withheld" in detail and "sign-in" in detail
        await burst(pilot, "c")
        assert copied and '-u "$FNO_USER:$FNO_PASSWORD"' in copied[-1] and "/registry/api/v1/authenticate " in copied[-1]
        shown = app.export_screenshot()
        for text in (detail, copied[-1], shown, *paths):
            assert jwt not in text and ADMIN[1] not in text


def test_a_cut_path_keeps_the_resource_and_both_ends_of_its_query() -> None:
    from flextui.ui.screens.requestlog import columns_for, fit_path

    search, listing = "/flexnet/uar/v1/token/search", "/flexnet/uar/v1/tokens?username=admin%40flexdemo.example&page=0&pageSize=5"
    assert fit_path(search, 37) == search and fit_path(search, 20).endswith("/token/search")
    cut = fit_path(listing, 37)
    assert len(cut) == 37 and cut.startswith("/flexnet/uar/v1/tokens?user") and cut.endswith("Size=5")
    assert fit_path(listing, 24).endswith("=5") and "/tokens?" in fit_path(listing, 24)
    assert columns_for(80) == ("Method", "Status", "Time", "Decision", "Path") and "Bytes" not in columns_for(95)
    assert len(columns_for(120)) == 7
