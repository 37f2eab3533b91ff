"""The edges of a table wider than its view: a value cut by an edge says so with "…".

A table scrolls sideways when its columns are wider than the screen; the
column at the edge was cut mid-word ("admin@flexdemo.exam") as if that were
the whole value. `more_right` replaces the last cell of such a line with "…"
(in the style that cell had), only while more lies to the right and only
where the edge cuts into text. Scrolled sideways, the column that starts
left of the view showed its tail ("ame", "-00422"), which reads as corrupt
data: `more_left` makes its first cell "…" where the scroll cuts into text.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip

ELLIPSIS = "…"


def more_right(strip: Strip, width: int) -> Strip:
    """`strip` (a line `width` cells wide) with its last cell replaced by "…"."""
    if width < 2 or strip.cell_length < width or not strip.text.rstrip():
        return strip  # narrower than the view, or a blank line below the rows: nothing is cut
    if strip.crop(width - 1, width).text.isspace():
        return strip  # the edge falls between values (or in a cell's padding): nothing is cut mid-text
    style = None
    for segment in reversed(list(strip)):
        if segment.text and not segment.control:
            style = segment.style
            break
    return Strip.join([strip.crop(0, width - 1), Strip([Segment(ELLIPSIS, style)], 1)])


def more_left(strip: Strip, at: int) -> Strip:
    """`strip` with its cell at `at` (the first one past the columns that do not scroll) replaced by "…"."""
    if at >= strip.cell_length or strip.crop(at, at + 1).text.isspace():
        return strip
    style = next((segment.style for segment in strip.crop(at, at + 1) if segment.text and not segment.control), None)
    return Strip.join([strip.crop(0, at), Strip([Segment(ELLIPSIS, style)], 1), strip.crop(at + 1, strip.cell_length)])


__all__ = ["ELLIPSIS", "more_left", "more_right"]
