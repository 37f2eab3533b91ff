"""A progress bar whose "waiting" animation runs at 5 frames a second, not Textual's 15.

Before a report's first page arrives the bar has no total and Textual animates it
15 times a second: 14 KB over SSH while a large report's first page took five
seconds (bench/bench_quiet.py --stream), for a bar whose only news is "still
waiting". At 5 frames a second it still moves (6 cells a frame) and costs a third.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import ProgressBar
from textual.widgets._progress_bar import Bar, PercentageStatus

__all__ = ["SteadyProgressBar"]

FRAMES_PER_SECOND = 5


class SteadyBar(Bar):
    def watch_percentage(self, percentage: float | None) -> None:
        self.auto_refresh = None if percentage is not None else 1 / FRAMES_PER_SECOND


class SteadyProgressBar(ProgressBar):
    """Textual's ProgressBar (bar and percentage; no ETA), its waiting animation at FRAMES_PER_SECOND."""

    def __init__(self, *, id: str) -> None:
        super().__init__(total=None, show_eta=False, id=id)

    def compose(self) -> ComposeResult:
        yield (
            SteadyBar(id="bar", clock=self._clock, bar_renderable=self.BAR_RENDERABLE)
            .data_bind(ProgressBar.percentage)
            .data_bind(ProgressBar.gradient)
        )
        yield PercentageStatus(id="percentage").data_bind(ProgressBar.percentage)
