"""The CLI's human-readable `table` format: a `Writer` like the export formats.

Rows are buffered to size the columns, cells are cleaned of control
characters and capped in width, so a terminal never receives raw escape
sequences from server data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flextui.render.export import Writer
from flextui.render.text import clean, shorten

MAX_WIDTH = 40


class TableWriter(Writer):
    """Aligned columns with a header; `preferred` names the columns to show first."""

    extension = "txt"

    def __init__(self, fp: Any, columns: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(fp, columns, **kwargs)
        self.rows: list[list[str]] = []

    def row(self, values: Sequence[Any]) -> None:
        self.rows.append([shorten(clean(_text(v)), MAX_WIDTH) for v in values])

    def finish(self) -> None:
        header = [clean(c) for c in self.columns or []]
        widths = [len(h) for h in header]
        for row in self.rows:
            widths = [max(w, len(c)) for w, c in zip(widths, row)]
        lines = [header, *self.rows]
        for index, line in enumerate(lines):
            text = "  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip()
            self.fp.write(text + "\n")
            if index == 0:
                self.fp.write("  ".join("-" * w for w in widths) + "\n")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value)
    return str(value)
