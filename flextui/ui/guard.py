"""Server text on the way into widgets, and the last check on the way out to the terminal.

Why: server strings must reach the terminal as text, never as escape
sequences (see `flextui.render.text`). They are cleaned where they enter the
UI: `safe` for the shared widgets and dialogs, `FlexApp.notify` for every
toast, the tables and the grid for every cell. `TerminalGuard` is the
tripwire behind those choke points: a Textual line filter that sees every
rendered line of every widget just before it is written, drops any control,
bidi or format character that got through (each is zero cells wide, so the
line keeps its width) and counts it, so a test can assert that nothing ever
needed it and a missed entry point is logged instead of acted on by the
terminal.
"""

from __future__ import annotations

import logging

from rich.segment import Segment
from rich.text import Text
from textual.color import Color
from textual.filter import LineFilter

from flextui.render.text import clean, clean_lines, drop_invisible, is_clean

log = logging.getLogger("flextui.ui")


def safe(value: object, *, lines: bool = True) -> Text:
    """`value` as a `Text` that is never parsed as markup and holds no control character.

    A `str` is cleaned (`lines`: its line breaks kept); a `Text` keeps its
    styles and spans (each cleaned character stays in place).
    """
    if isinstance(value, Text):
        plain = value.plain
        if is_clean(plain if not lines else plain.replace("\n", "")):
            return value
        copy = value.copy()
        copy.plain = clean_lines(plain, limit=None) if lines else clean(plain, limit=None)
        return copy
    return Text(clean_lines(value) if lines else clean(value))


class TerminalGuard(LineFilter):
    """Drop control, bidi and format characters from rendered lines; count what was dropped.

    `caught` counts the segments that needed it; `samples` keeps the first
    few (cleaned) to say where they came from. Zero is the expected value.
    """

    MAX_SAMPLES = 20

    def __init__(self) -> None:
        super().__init__(enabled=True)
        self.caught = 0
        self.samples: list[str] = []

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        out: list[Segment] | None = None
        for index, segment in enumerate(segments):
            text, style, control = segment
            link = style.link if style is not None else None
            if control is not None or (is_clean(text) and (not link or is_clean(link))):
                if out is not None:
                    out.append(segment)
                continue
            if out is None:
                out = list(segments[:index])
            self._caught(text)
            if link and not is_clean(link) and style is not None:
                style = style.update_link(None)
            out.append(Segment(drop_invisible(text), style, control))
        return segments if out is None else out

    def _caught(self, text: str) -> None:
        self.caught += 1
        if len(self.samples) < self.MAX_SAMPLES:
            sample = clean(text, limit=200)
            self.samples.append(sample)
            log.warning("unsanitised text reached the screen (dropped its control characters): %s", sample)


__all__ = ["TerminalGuard", "safe"]
