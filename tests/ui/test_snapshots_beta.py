"""Snapshots of the entitlement tree, its detail and create form, the catalogue and users (80×24 and 120×40)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import build_app
from tests.ui.conftest import settle as _settle

SIZES = [(80, 24), (120, 40)]
ACME = "101200004242"


def _run_before(*keys: str, fill: dict[str, Any] | None = None, submit: bool = False) -> Any:
    async def run_before(pilot: Any) -> None:
        await _settle(pilot)
        for key in keys:
            await pilot.press(key)
            await _settle(pilot)
        for field, value in (fill or {}).items():
            pilot.app.screen.query_one(f"#field-{field}").value = value
        await pilot.pause()
        if submit:
            pilot.app.screen.action_submit()
        await _settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    return run_before


sizes = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


class TestEntitlementTreeSnapshots:
    @sizes
    def test_tree_with_line_item_detail(self, snap_compare: Any, size: tuple[int, int]) -> None:
        run = _run_before("down", "right", "down", "right")
        assert snap_compare(build_app(start=["entitlements", ACME]), terminal_size=size, run_before=run)

    @sizes
    def test_line_item_detail_modal(self, snap_compare: Any, size: tuple[int, int]) -> None:
        run = _run_before("down", "right", "down", "i")
        assert snap_compare(build_app(start=["entitlements", ACME]), terminal_size=size, run_before=run)

    @sizes
    def test_create_form_with_inline_errors(self, snap_compare: Any, size: tuple[int, int]) -> None:
        run = _run_before(
            "n",
            fill={
                "attributes": "Region=EMEA",
                "li0-productName": "Nova Gateway",
                "li0-productVersion": "2022.9",
                "li0-expiryDate": "2020-01-01",
            },
            submit=True,
        )
        assert snap_compare(build_app(start=["entitlements", ACME]), terminal_size=size, run_before=run)


class TestCatalogueSnapshots:
    @sizes
    def test_products_tab(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(start=["products"]), terminal_size=size, run_before=_run_before())


class TestUsersSnapshots:
    @sizes
    def test_users_tab_read_only(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(start=["users"], read_only=True), terminal_size=size, run_before=_run_before())
