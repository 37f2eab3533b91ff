"""A report revisited after its freshness window shows the stored rows at once, with their age, and the fresh ones behind.

Before, the stored pages were read, thrown away and the network awaited (slower than a cold run).
"""

from __future__ import annotations

from typing import Any

from flextui.sim.faults import FaultPlan
from flextui.ui.screens.reports.builder import ReportBuilderScreen
from flextui.ui.screens.reports.results import ReportResultsScreen
from tests.ui.conftest import build_app, burst, settle, until


def results(app: Any) -> ReportResultsScreen | None:
    screen = app.screen
    return screen if isinstance(screen, ReportResultsScreen) else None


async def test_a_stale_report_shows_its_stored_rows_at_once_then_the_fresh_ones_in_place() -> None:
    plan = FaultPlan()
    app = build_app(start=["reports", "fulfillment"], faults=plan)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: (s := results(app)) is not None and s.state == "done")
        first = results(app)
        assert first is not None
        count = first.grid.row_count
        assert count > 0 and first.data_age is None
        await burst(pilot, "escape")
        await until(pilot, lambda: isinstance(app.screen, ReportBuilderScreen))
        app.ctx.session.fresh_seconds = 0.0  # what was stored is now past its freshness window
        slow = plan.add(r"/report/fulfillment", kind="slow", delay=4.0, times=1000)  # the server takes its time
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: (s := results(app)) is not None and s.state == "done" and s.grid.row_count == count)
        again = results(app)
        assert again is not None and again is not first
        assert again.refreshing and again.data_age is not None, "the stored rows, said to be stored, while the fresh ones load"
        assert "refreshing from the server" in again.count_text()
        again.grid.move_cursor(row=5)
        await until(pilot, lambda: not again.refreshing, timeout=60)
        assert slow.hits >= 1 and again.data_age is None, "then the fresh rows, said to be fresh"
        assert again.grid.row_count == count and again.grid.cursor_row == 5, "in place: the cursor stays"
        assert "refreshing" not in again.count_text()
