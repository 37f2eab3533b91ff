"""Snapshots of dialogs whose box gives up rows to show its buttons (widgets/fit.py), at 80×24 and 120×40: an
entitlement's raw JSON (`R`: Copy and Done were cut off at 80×24, the focus out of view) and a product's record
(its last lines and its keys line ran under the box's edge)."""

from __future__ import annotations

from typing import Any

import pytest

from flextui.ui.widgets.dialogs import ValueScreen
from flextui.ui.widgets.record import RecordScreen
from tests.ui.conftest import build_app, settle, until

SIZES = [(80, 24), (120, 40)]


async def _ready(pilot: Any) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


async def _raw_json(pilot: Any) -> None:
    await _ready(pilot)
    await pilot.press("down")
    await settle(pilot)
    await pilot.press("R")
    await until(pilot, lambda: isinstance(pilot.app.screen, ValueScreen))
    await _ready(pilot)


async def _record(pilot: Any) -> None:
    await _ready(pilot)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, RecordScreen))
    await _ready(pilot)


class TestDialogSnapshots:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_raw_json_of_an_entitlement(self, snap_compare: Any, size: tuple[int, int]) -> None:
        app = build_app(start=["entitlements", "101200004242"])
        assert snap_compare(app, terminal_size=size, run_before=_raw_json)

    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_a_products_record(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(start=["products"]), terminal_size=size, run_before=_record)
