"""Scrollbars written as runs of cells, not cell by cell.

Textual draws a horizontal scrollbar as one segment a cell, and every segment
goes to the terminal with its own escape sequences: a 120-cell bar cost
≈ 2.9 KB each time its thumb moved, which it does whenever a streamed page
widens a column. That was 52 KB of the 142 KB a 45,000-row report wrote while
it streamed in over SSH (bench/bench_quiet.py --stream). Cells that share a
style (their mouse actions included: scroll up, grab, scroll down) are merged
into one segment here, so the bar looks and clicks the same and costs a few
runs of text. The vertical bar is a segment a line already.
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment, Segments
from textual.scrollbar import ScrollBarRender

__all__ = ["RunsScrollBarRender"]


class RunsScrollBarRender(ScrollBarRender):
    """Textual's scrollbar, its horizontal bar's equal cells merged into runs."""

    @classmethod
    def render_bar(cls, *args: Any, **kwargs: Any) -> Segments:
        bar = super().render_bar(*args, **kwargs)
        if bar.new_lines:  # vertical: each segment is a line of its own
            return bar
        return Segments(list(Segment.simplify(bar.segments)), new_lines=False)
