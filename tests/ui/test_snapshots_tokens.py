"""Snapshots of the tokens screens at 80×24 and 120×40 (frozen clock, seeded world)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import build_app, settle

SIZES = [(80, 24), (120, 40)]


async def _ready(pilot: Any) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


def _run_before(*keys: str, fill: dict[str, str] | None = None) -> Any:
    async def run_before(pilot: Any) -> None:
        await _ready(pilot)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        for field, value in (fill or {}).items():
            pilot.app.screen.query_one(f"#field-{field}").value = value
            await pilot.pause()
        await _ready(pilot)

    return run_before


class TestTokensSnapshots:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_list(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(), terminal_size=size, run_before=_run_before())

    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_list_read_only_customer(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(read_only=True, as_user="customer"), terminal_size=size, run_before=_run_before())

    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_create_form_with_inline_error(self, snap_compare: Any, size: tuple[int, int]) -> None:
        run = _run_before("n", fill={"tokenName": "abc", "expiryStr": "3w"})
        assert snap_compare(build_app(), terminal_size=size, run_before=run)

    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_detail(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(), terminal_size=size, run_before=_run_before("down", "enter"))

    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_delete_confirmation(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(), terminal_size=size, run_before=_run_before("d"))

    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_search_form(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(), terminal_size=size, run_before=_run_before("s", fill={"tokenName": "ci-*"}))
