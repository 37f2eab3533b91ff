"""Scrollbars that write little: runs of cells, and nothing when nothing they show changed.

Textual draws a horizontal scrollbar as one segment a cell, and every segment
goes to the terminal with its own escape sequences: a 120-cell bar cost
≈ 2.9 KB each time its thumb moved, which it does whenever a streamed page
widens a column. That was 52 KB of the 142 KB a 45,000-row report wrote while
it streamed in over SSH (bench/bench_quiet.py --stream). Cells that share a
style (their mouse actions included: scroll up, grab, scroll down) are merged
into one segment here, so the bar looks and clicks the same and costs a few
runs of text. The vertical bar is a segment a line already.

Textual also writes a bar again whenever one of its numbers changes: while
rows stream in, the grid's length grows page by page, and every layout of the
screen (the status line's text changing width is one) hands the bar the
newest length. Over tens of thousands of rows the thumb had not moved by one
glyph, yet its column (≈ 1.2 KB at 120×40) went out each time: a third of a
45,000-row load's bytes. A `QuietScrollBar` asks for a repaint only when the
cells it would draw differ from those it drew last; `QuietScrollbars` gives a
scrollable widget two of them.
"""

from __future__ import annotations

from typing import Any, Self

from rich.console import RenderableType
from rich.segment import Segment, Segments
from textual.scrollbar import ScrollBar, ScrollBarRender

__all__ = ["QuietScrollBar", "QuietScrollbars", "RunsScrollBarRender"]


class RunsScrollBarRender(ScrollBarRender):
    """Textual's scrollbar, its horizontal bar's equal cells merged into runs."""

    @classmethod
    def render_bar(cls, *args: Any, **kwargs: Any) -> Segments:
        bar = super().render_bar(*args, **kwargs)
        if bar.new_lines:  # vertical: each segment is a line of its own
            return bar
        return Segments(list(Segment.simplify(bar.segments)), new_lines=False)


class QuietScrollBar(ScrollBar):
    """A scrollbar repainted only when what it draws changes (its thumb's cells, its colours, its size)."""

    _drawn: list[Segment] | None = None

    def render(self) -> RenderableType:
        bar = super().render()
        self._drawn = self._cells(bar)
        return bar

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if repaint and not (regions or layout or recompose) and self._drawn is not None and self.is_mounted and self.parent is not None:
            if self._cells(super().render()) == self._drawn:
                return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _cells(self, bar: RenderableType) -> list[Segment] | None:
        """The segments `bar` (this widget's render) makes at the widget's size, as Textual's renderer would."""
        if not isinstance(bar, ScrollBarRender):
            return None
        style = bar.style if not isinstance(bar.style, str) else None
        if style is None or style.bgcolor is None or style.color is None:
            return None
        drawn = bar.render_bar(
            size=self.size.height if bar.vertical else self.size.width,
            virtual_size=bar.virtual_size,
            window_size=bar.window_size,
            position=bar.position,
            thickness=self.size.width if bar.vertical else self.size.height,
            vertical=bar.vertical,
            back_color=style.bgcolor,
            bar_color=style.color,
        )
        return list(drawn.segments)


class QuietScrollbars:
    """Mixin for a scrollable widget: its scrollbars are `QuietScrollBar`s (made as Textual makes its own)."""

    _vertical_scrollbar: ScrollBar | None
    _horizontal_scrollbar: ScrollBar | None
    scrollbar_size_vertical: int
    scrollbar_size_horizontal: int
    app: Any

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = self._new_bar(vertical=True, thickness=self.scrollbar_size_vertical)
        return self._vertical_scrollbar

    @property
    def horizontal_scrollbar(self) -> ScrollBar:
        if self._horizontal_scrollbar is None:
            self._horizontal_scrollbar = self._new_bar(vertical=False, thickness=self.scrollbar_size_horizontal)
        return self._horizontal_scrollbar

    def _new_bar(self, *, vertical: bool, thickness: int) -> ScrollBar:
        bar = QuietScrollBar(vertical=vertical, name="vertical" if vertical else "horizontal", thickness=thickness)
        bar.display = False
        self.app._start_widget(self, bar)
        return bar
