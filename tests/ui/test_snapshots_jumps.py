"""Snapshots of the dialogs issue 13 adds, at 80×24 and 120×40: a row's links (`j`), the trail (`:history`), a profile's password."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from flextui.kinds import Link
from flextui.ui.profiles import SecretPrompt
from flextui.ui.widgets.dialogs import ChoiceScreen
from tests.ui.conftest import build_app, settle, until

SIZES = [(80, 24), (120, 40)]


async def _links(pilot: Any) -> None:
    """The tokens list, then the menu a fulfillment row's links make (fixed: the report's rows carry times)."""
    await settle(pilot)
    links = [
        Link("activation ACT-0000114-6cb9: its line item in the entitlement tree", "entitlements", "activation=ACT-0000114-6cb9"),
        Link("product Nova Beacon@2023.3 in the catalogue", "products", "Nova Beacon@2023.3"),
        Link("account 109145332646: its entitlements", "entitlements", "109145332646"),
        Link("account 109145332646: its users", "users", "109145332646"),
    ]
    pilot.app.clear_notifications()
    pilot.app.push_screen(ChoiceScreen("Open…", [link.label for link in links], note="enter opens · escape comes back here"))
    await until(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))
    await settle(pilot)


async def _history(pilot: Any) -> None:
    app = pilot.app
    await settle(pilot)
    app.jump(Link("user admin@flexdemo.example", "users", "user=admin@flexdemo.example"))
    await settle(pilot)
    app.jump(Link("entitlements of account 109145332646", "entitlements", "109145332646"))
    await settle(pilot)
    await pilot.press("escape")
    await settle(pilot)
    app.clear_notifications()
    app.action_history()
    await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
    await settle(pilot)


async def _password(pilot: Any) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    pilot.app.push_screen(SecretPrompt("Password for me@acme.example at https://acme-uat.flexnetoperations.com"))
    await until(pilot, lambda: isinstance(pilot.app.screen, SecretPrompt) and bool(pilot.app.screen.query(Input)))
    pilot.app.screen.query_one(Input).value = "typed-not-shown"
    await settle(pilot)


class TestJumpSnapshots:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_a_rows_links(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(), terminal_size=size, run_before=_links)

    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_the_trail(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(), terminal_size=size, run_before=_history)

    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_a_profiles_password_is_masked(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(), terminal_size=size, run_before=_password)
