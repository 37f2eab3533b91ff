"""The right edge of a table wider than its view: its last cell ends "…", so a cut column says so.

A table scrolls sideways when its columns are wider than the screen; the
column at the edge was cut mid-word ("admin@flexdemo.exam") as if that were
the whole value. `more_right` replaces the last cell of such a line with "…"
(in the style that cell had), only while more lies to the right and only
where the edge cuts into text.
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


__all__ = ["ELLIPSIS", "more_right"]
