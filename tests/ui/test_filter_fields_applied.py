"""Every list's filter fields, one rule (AreaScreen: `applied_text`, `filters_entered`, `revert_filter_fields`): a list
is listed by its fields as applied (enter, or a value the screen set), never by text typed since without enter; the
keys leaving a bar's fields without enter put back what is in force (moving between the fields of one bar undoes
nothing); enter applies them once. Tokens kept this rule by hand beside the one the other screens share; the tests of
its own behaviour are in test_tokens_applied.py and test_filter_escape.py."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Select

from flextui.sim.registry import HELLO
from flextui.ui.screens.base import AreaScreen
from flextui.ui.screens.entitlements.tree import EntitlementsScreen
from flextui.ui.screens.registry.downloads import DownloadsScreen
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.table import ResourceTable
from tests.ui.conftest import build_app, burst, settle, until

ADMIN = "admin@flexdemo.example"

# (the screen opened, its field typed in, the field next to it in the same bar, what the keys leave for, the text typed)
LISTS = {
    "tokens": (["tokens"], "#q-user", "#q-creator", "#tokens-table", "zz"),
    "users": (["users"], "#users-name", "#users-account", "#users-table", "zzz"),
    "catalogue": (["products"], "#products-name", "#products-version", "#products-table", "zzz"),
    "entitlements": (["entitlements"], "#f-account", "#f-product", "#ent-tree", "zzz"),
    "downloads": (["downloads"], "#dl-project", "#dl-user", "#dl-grid", "zzz"),
    "members": (["members", HELLO], "#q-member", None, "#members-table", "zzz@nowhere.example"),
}


async def typed_in(pilot: Any, wid: str, text: str) -> Input:
    """`text` typed at the end of the field `wid`, and no enter."""
    field = pilot.app.screen.query_one(wid, Input)
    field.focus()
    await settle(pilot)
    await burst(pilot, "end", *text)
    assert pilot.app.focused is field and field.value.endswith(text)
    return field


@pytest.mark.parametrize("name", LISTS)
async def test_the_keys_leaving_the_fields_without_enter_put_back_what_is_in_force(name: str) -> None:
    start, wid, beside, place, text = LISTS[name]
    app = build_app(start=start)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, AreaScreen)
        applied = screen.query_one(wid, Input).value
        field = await typed_in(pilot, wid, text)
        if beside is not None:
            await burst(pilot, "tab")
            if app.focused is screen.query_one(beside, Input):
                assert field.value == applied + text, "between the fields of one bar nothing is undone: enter applies both"
        screen.set_focus(screen.query_one(place))  # the keys go elsewhere (tab on, a click on the list)
        await settle(pilot)
        assert field.value == applied, "left without enter: the field shows what the list is listed by"
        assert screen.applied_text(field) == applied


async def test_a_download_log_refresh_reads_the_fields_as_applied_not_as_typed() -> None:
    """ctrl+r in the project field with a name typed and no enter read the log of that project (none: an empty log).
    (A watch waits while a field has the keys, and the field is put back once they leave it.)"""
    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DownloadsScreen) and app.screen.is_mounted)
        await settle(pilot)
        screen = app.screen
        grid = screen.query_one(DataGrid)
        everything = grid.total_count
        assert everything
        field = await typed_in(pilot, "#dl-project", "no-such-project")
        await burst(pilot, "ctrl+r")
        assert app.focused is field and grid.total_count == everything, "ctrl+r lists by what is applied"
        await burst(pilot, "enter")
        assert grid.total_count == 0, "enter applies it: that project has no downloads"


async def test_a_catalogue_refresh_and_page_turn_read_the_name_as_applied_not_as_typed() -> None:
    app = build_app(start=["products"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen

        def pager() -> str:
            return str(screen.query_one("#products-pager").render())

        everything = pager()
        assert "page 1 of 2" in everything
        await typed_in(pilot, "#products-name", "canvas")
        await burst(pilot, "ctrl+r")
        assert pager() == everything, "ctrl+r lists by what is applied"
        screen.set_focus(screen.query_one("#products-table"))
        await burst(pilot, "right_square_bracket")
        assert "page 2 of 2" in pager(), pager()


async def test_a_status_choice_in_the_entitlement_tree_applies_its_bar_as_enter_does() -> None:
    """The tree's status choice read the Account field as typed (the keys then go to the tree) without applying it:
    the tree was listed by "acme" while escape, and the keys leaving the field, put back what was applied before."""
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, EntitlementsScreen)
        field = await typed_in(pilot, "#f-account", "acme")
        screen.query_one("#f-status", Select).value = "DRAFT"
        await settle(pilot)
        assert (screen.filters.account, screen.filters.status) == ("acme", "DRAFT")
        assert isinstance(app.focused, type(screen.tree)) and field.value == "acme", "what the tree is listed by"
        assert screen.applied_text(field) == "acme"
        await burst(pilot, "f", "end", *"zz", "escape")
        assert field.value == "acme", "escape puts back what the choice applied"


async def test_enter_applies_the_fields_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tabbed lists applied the toolbar in their own handler, and AreaScreen's applied it again after it."""
    applied: list[str] = []
    apply = AreaScreen.apply_filter_fields

    def counting(self: AreaScreen, field: Input) -> Any:
        applied.append(field.id or "")
        return apply(self, field)

    monkeypatch.setattr(AreaScreen, "apply_filter_fields", counting)
    app = build_app(start=["users"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await typed_in(pilot, "#users-name", "lara")
        await burst(pilot, "enter")
        assert applied == ["users-name"] and isinstance(app.focused, ResourceTable)
