"""Snapshots of the registry screens at 80×24 and 120×40 (frozen clock, seeded world).

No snapshot shows a registry secret: the secret screen is taken masked, and
the reset form only with its password fields (which mask what is typed).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import build_app, settle

SIZES = [(80, 24), (120, 40)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


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
        for selector, value in (fill or {}).items():
            pilot.app.screen.query_one(selector).value = value
            await pilot.pause()
        await _ready(pilot)
        assert not [n for n in pilot.app._notifications if n.severity == "error"]

    return run_before


class TestProjectsSnapshots:
    @size_ids
    def test_list(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(start=["projects"]), terminal_size=size, run_before=_run_before())


class TestProjectSnapshots:
    @size_ids
    def test_repositories_tab(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(start=["repos", "compass-2026-q2"]), terminal_size=size, run_before=_run_before())

    @size_ids
    def test_chart_detail(self, snap_compare: Any, size: tuple[int, int]) -> None:
        app = build_app(start=["charts", "compass-2026-q2"])
        assert snap_compare(app, terminal_size=size, run_before=_run_before("enter", "down"))


class TestArtifactsSnapshots:
    @size_ids
    def test_list(self, snap_compare: Any, size: tuple[int, int]) -> None:
        app = build_app(start=["artifacts", "compass-2026-q2/compass-server"])
        assert snap_compare(app, terminal_size=size, run_before=_run_before())


class TestDownloadsSnapshots:
    @size_ids
    def test_log_chart_and_top(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(start=["downloads"]), terminal_size=size, run_before=_run_before())

    @size_ids
    def test_bad_date_inline(self, snap_compare: Any, size: tuple[int, int]) -> None:
        run = _run_before(fill={"#dl-from": "2026-11-31"})
        assert snap_compare(build_app(start=["downloads"]), terminal_size=size, run_before=run)


class TestSecretSnapshots:
    @size_ids
    def test_masked_with_event_status(self, snap_compare: Any, size: tuple[int, int]) -> None:
        async def run_before(pilot: Any) -> None:
            await _ready(pilot)
            pilot.app.screen.query_one("#q-event").value = "nobody@nowhere.example"
            pilot.app.screen.lookup_event("nobody@nowhere.example")
            await _ready(pilot)
            assert "●" in str(pilot.app.screen.query_one("#secret-value").render())

        assert snap_compare(build_app(start=["secret"]), terminal_size=size, run_before=run_before)

    @size_ids
    def test_reset_form_with_inline_error(self, snap_compare: Any, size: tuple[int, int]) -> None:
        run = _run_before("r", fill={"#field-secret": "weakpass"})
        assert snap_compare(build_app(start=["secret"]), terminal_size=size, run_before=run)
