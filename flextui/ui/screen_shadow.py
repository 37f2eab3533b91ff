"""What the terminal shows, kept beside it, so a repaint sends only the pieces that changed.

Textual writes every region it repaints, whether or not its cells changed. A screen
that opens is painted whole three or four times in its first second (the resume, the
mount's layout, the focus); each layout repaints every widget whose geometry moved;
the footer and the status line are written again with the same keys and words. Over
SSH each of those is kilobytes: a 45,000-row report wrote 89 KB while it streamed in,
a third of it cells the terminal already showed (bench/bench_quiet.py --stream).
Terminal libraries of the curses line (VisiData's) keep a copy of the screen and send
the difference; this is that, at the grain Textual paints in.

A compositor update is a set of pieces: a line's strip between two cuts (the edges of
the widgets on that line), rendered to its escape text. The shadow keeps, line by line,
the pieces last written (where each starts and ends, and its text); a piece that is
already there, at the same place with the same text, is not sent again; one whose
segments have the same widths as those shown sends only its segments between an
equal start and an equal end (a count line's new row number, not its padding); and
a piece that is sent replaces whatever it overlaps. Every piece's text sets its own style and
resets it after, so a piece reads the same wherever the cursor came from.

The shadow must never believe the terminal shows what it does not: it is forgotten
when the terminal may have been redrawn by someone else (a resize, a suspend and
resume, anything written that is not a compositor update) and by `:redraw`, which
also repaints the screen (another program writing to the terminal is the one case
the app cannot see).
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.console import Console
from rich.control import Control
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.geometry import Size
from textual.strip import Strip

__all__ = ["Changes", "TerminalShadow", "SHADOWED_UPDATES"]

SHADOWED_UPDATES = (LayoutUpdate, ChopsUpdate)
"""The compositor's updates the shadow can take apart (not inline mode's)."""

Piece = tuple[int, int, int, str]
"""(line, first cell, end cell, escape text) of one piece of an update."""


class Changes(CompositorUpdate):
    """The pieces of an update the terminal does not show yet, each written where it goes."""

    def __init__(self, pieces: list[Piece]) -> None:
        self.pieces = pieces

    def render_segments(self, console: Console) -> str:
        out: list[str] = []
        at: tuple[int, int] | None = None
        for y, x, end, text in self.pieces:
            if at != (y, x):  # a piece that starts where the last ended needs no cursor move
                out.append(Control.move_to(x, y).segment.text)
            out.append(text)
            at = (y, end)
        return "".join(out)

    def __rich_console__(self, console: Console, options: object) -> Iterator[object]:  # (never shown as a renderable)
        yield from ()


class TerminalShadow:
    """The pieces the terminal shows, line by line; see the module's docstring."""

    def __init__(self) -> None:
        self._lines: dict[int, dict[int, tuple[int, str, Strip]]] = {}
        self._size: Size | None = None

    def forget(self) -> None:
        """The terminal may show anything now: the next update is written whole."""
        self._lines.clear()

    def changes(self, update: LayoutUpdate | ChopsUpdate, console: Console, size: Size) -> Changes:
        """What of `update` the terminal does not show yet (and note it as shown)."""
        if size != self._size:
            self.forget()
            self._size = size
        sent: list[Piece] = []
        lines = self._lines
        for y, x, end, strip in _pieces(update):
            text = strip.render(console)
            line = lines.get(y)
            if line is None:
                line = lines[y] = {}
                sent.append((y, x, end, text))
            else:
                known = line.get(x)
                if known is not None and known[0] == end:
                    if known[1] == text:
                        continue
                    sent.append(_middle(y, x, known[2], strip, console))
                else:
                    for covered in [start for start, (stop, _, _) in line.items() if start < end and stop > x]:
                        del line[covered]
                    sent.append((y, x, end, text))
            line[x] = (end, text, strip)
        return Changes(sent)


def _middle(y: int, x: int, shown: Strip, new: Strip, console: Console) -> Piece:
    """The part of `new` that differs from `shown` (the same cells): the segments between an equal start and end.

    A count line whose row number changed sends the number, not the line's padding after it.
    """
    old_segments, new_segments = list(shown), list(new)
    if [s.cell_length for s in old_segments] != [s.cell_length for s in new_segments]:
        return y, x, x + new.cell_length, new.render(console)
    first = 0
    while first < len(new_segments) - 1 and old_segments[first] == new_segments[first]:
        first += 1
    last = len(new_segments)
    while last > first + 1 and old_segments[last - 1] == new_segments[last - 1]:
        last -= 1
    start = x + sum(s.cell_length for s in new_segments[:first])
    middle = Strip(new_segments[first:last])
    return y, start, start + middle.cell_length, middle.render(console)


def _pieces(update: LayoutUpdate | ChopsUpdate) -> Iterator[tuple[int, int, int, Strip]]:
    """The pieces Textual would write for `update`, in its order (`render_segments` of each class)."""
    if isinstance(update, LayoutUpdate):
        for y, line in enumerate(update.strips, update.region.y):
            x = update.region.x
            for strip in line:
                end = x + strip.cell_length
                yield y, x, end, strip
                x = end
        return
    for y, x1, x2 in update.spans:
        for end, (x, strip) in zip(update.chop_ends[y], update.chops[y].items(), strict=False):
            if strip is None or x > x2 or end <= x1:
                continue
            if not (x2 > x >= x1 and end <= x2):
                end = min(end, x2)
                strip = strip.crop(0, end - x)
            yield y, x, end, strip
