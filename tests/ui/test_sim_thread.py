"""The TUI demo's simulator answers from a thread of its own: the app stays alive while it computes.

In the app's loop, the first report of a scaled world (200,000 records built, 3 s at `--scale 100`)
held every key and repaint: the results screen sat blank, its status line never said "loading".
"""

from __future__ import annotations

import importlib
import re
import threading
from typing import Any

import pytest
from rich.cells import cell_len
from textual.widgets import Label

from flextui.ui.screens.reports.results import ReportResultsScreen
from flextui.ui.widgets.progress import SteadyBar
from tests.ui.conftest import build_app, settle, until


async def test_the_app_answers_while_the_simulator_builds_a_report(monkeypatch: pytest.MonkeyPatch) -> None:
    sim_reports = importlib.import_module("flextui.sim.reports")  # the one the simulator will load (a test may reload it)
    armed, entered, released = threading.Event(), threading.Event(), threading.Event()
    build = sim_reports.table_of

    def slow_build(world: Any, group: str) -> Any:
        if armed.is_set():
            entered.set()
            released.wait(timeout=20)  # a long build holds its thread, as the CPU work would
        return build(world, group)

    monkeypatch.setattr(sim_reports, "table_of", slow_build)
    app = build_app(start=["reports", "fulfillment"], sim_thread=True)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            armed.set()
            await pilot.press("ctrl+g")
            await until(pilot, entered.is_set)
            screen = app.screen
            assert isinstance(screen, ReportResultsScreen)
            activity = screen.query_one("#st-activity", Label)

            def says_loading() -> bool:  # the text, and laid out wide enough to be read
                text = str(activity.render())
                return text == "⟳ loading" and activity.region.width >= cell_len(text)

            await until(pilot, says_loading)
            assert "asking for the first page" in screen.count_text()
            waiting = screen.query_one("#rr-bar").query_one(SteadyBar)
            assert waiting.auto_refresh is None, "the waiting bar is not animated (15 frames a second over SSH)"
            # the wait is counted in seconds (on a loaded machine a tick can come late and skip a second)
            await until(
                pilot, lambda: re.search(r"asking for the first page… [1-9]\d* s", str(screen.query_one("#rr-count", Label).render()))
            )
            assert "No rows" not in screen.grid.render_line(1).text, "no rows yet is not no rows"
            assert screen.state == "loading" and not released.is_set()
            released.set()
            await until(pilot, lambda: screen.state != "loading")
            assert screen.grid.row_count > 0
            await until(pilot, lambda: str(activity.render()) == "● idle")
    finally:
        released.set()
