"""A screen's deferred work (after a refresh, a timer) never reaches for the widgets of a screen that is gone.

`call_after_refresh` hands its callback to the screen in front (Textual's `_on_invoke_later`), which runs it at
its next idle: a screen resized while another was in front, then replaced, had its callback run after it had
been torn down ("Unexpected error: NoMatches '#rr-count' on ReportResultsScreen()").
"""

from __future__ import annotations

from typing import Any

from flextui.ui.later import gone
from flextui.ui.screens.entitlements.tree import EntitlementsScreen
from flextui.ui.screens.reports.builder import ReportBuilderScreen
from flextui.ui.screens.reports.results import ReportResultsScreen
from tests.ui.conftest import build_app, command, screen_of, settle, until
from tests.ui.test_reports_screen import results


async def test_report_results_resized_behind_another_area_then_replaced_say_nothing_unexpected(
    unexpected_errors: list[BaseException],
) -> None:
    """80×24, `:report fulfillment`, ctrl+g, `:entitlements`, the terminal to 120×40, `:report usage`."""
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(80, 24)) as pilot:
        await screen_of(pilot, ReportBuilderScreen)
        first = await results(pilot)
        assert isinstance(first, ReportResultsScreen)
        await command(pilot, "entitlements")
        await screen_of(pilot, EntitlementsScreen)
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        await command(pilot, "report usage")
        await screen_of(pilot, ReportBuilderScreen)
        await settle(pilot)
        assert gone(first), "replaced by the new report's builder"
        assert [f"{type(e).__name__}: {e}" for e in unexpected_errors] == []


async def test_deferred_work_runs_for_a_live_screen_and_not_for_one_torn_down() -> None:
    """The helper, on a bare app: work a screen deferred (after a refresh, a timer) runs while the screen is there,
    in front or behind another, and does nothing once it has been popped (its widgets gone)."""
    from textual.app import App
    from textual.screen import Screen
    from textual.widgets import Label

    from flextui.ui.later import after_refresh, gone, while_alive

    ran: list[str] = []

    class Under(Screen[None]):
        def compose(self) -> Any:
            yield Label("under", id="under-label")

        def show(self, name: str) -> None:
            self.query_one("#under-label", Label)  # NoMatches once its widgets are gone
            ran.append(name)

    app: App[None] = App()
    async with app.run_test(size=(40, 10)) as pilot:
        under = Under()
        await app.push_screen(under)
        await app.push_screen(Screen())
        after_refresh(under, under.show, "after a refresh")
        await until(pilot, lambda: ran)
        held = while_alive(under, under.show)  # as a timer or the screen in front holds it
        held("held, behind")
        assert ran == ["after a refresh", "held, behind"] and not gone(under)
        await app.pop_screen()
        await app.pop_screen()
        await pilot.pause()
        assert gone(under)
        held("held, gone")  # without the helper: NoMatches '#under-label'
        assert ran == ["after a refresh", "held, behind"]
