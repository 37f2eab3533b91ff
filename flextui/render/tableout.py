"""The CLI's human-readable `table` format: a `Writer` like the export formats.

Rows are buffered to size the columns, cells are cleaned of control
characters and capped in width, so a terminal never receives raw escape
sequences from server data. Laid out at the end, the table can take a column
late: opened with `every_key=True`, a key a row has beyond the columns becomes
one more column (empty in the rows before it), up to `MORE_KEYS` of them; any
more are left out (`left_out`), as CSV's are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flextui.render.export import MORE_KEYS, Writer
from flextui.render.text import clean, shorten

MAX_WIDTH = 40


class TableWriter(Writer):
    """Aligned columns with a header; `preferred` names the columns to show first."""

    extension = "txt"

    def __init__(self, fp: Any, columns: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(fp, columns, **kwargs)
        self.rows: list[list[str]] = []
        self._added = 0

    def new_key(self, key: str, number: int) -> None:
        """(`every_key`) a key first seen in row `number`: one more column, empty in the rows before (the first `MORE_KEYS`)."""
        assert self.columns is not None
        if self._added >= MORE_KEYS:
            super().new_key(key, number)
            return
        self._added += 1
        self.columns.append(key)
        self._columns_set()

    def row(self, values: Sequence[Any]) -> None:
        self.rows.append([shorten(clean(_text(v)), MAX_WIDTH) for v in values])

    def finish(self) -> None:
        header = [clean(c) for c in self.columns or []]
        widths = [len(h) for h in header]
        short = [""] * len(header)
        for index, row in enumerate(self.rows):
            if len(row) < len(header):  # written before a column was added
                row = self.rows[index] = row + short[len(row) :]
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
