"""A progress bar that waits without animating (the count line says how long it has waited).

Before a report's first page arrives the bar has no total, and Textual animates
it 15 times a second: 14 KB over SSH while a large report's first page took
five seconds (bench/bench_quiet.py --stream), for a bar whose only news is
"still waiting", and a frame of work for the app each time. Here it stays an
empty track until there is something to measure; the results screen's count
line counts the seconds instead ("asking for the first page… 4 s"), which
also says whether the server is slow.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.style import Style
from textual.app import ComposeResult
from textual.widgets import ProgressBar
from textual.widgets._progress_bar import Bar, PercentageStatus

__all__ = ["SteadyProgressBar"]


class SteadyBar(Bar):
    def watch_percentage(self, percentage: float | None) -> None:
        self.auto_refresh = None  # (Textual's animates an unknown percentage 15 times a second)

    def render_indeterminate(self) -> RenderableType:
        style = self.get_component_rich_style("bar--bar")
        return self.bar_renderable(
            highlight_range=(0, 0),
            highlight_style=Style.from_color(style.color),
            background_style=Style.from_color(style.bgcolor),
            gradient=self.gradient,
        )


class SteadyProgressBar(ProgressBar):
    """Textual's ProgressBar (bar and percentage; no ETA) that shows an empty track while the total is unknown."""

    def __init__(self, *, id: str) -> None:
        super().__init__(total=None, show_eta=False, id=id)

    def compose(self) -> ComposeResult:
        yield (
            SteadyBar(id="bar", clock=self._clock, bar_renderable=self.BAR_RENDERABLE)
            .data_bind(ProgressBar.percentage)
            .data_bind(ProgressBar.gradient)
        )
        yield PercentageStatus(id="percentage").data_bind(ProgressBar.percentage)
