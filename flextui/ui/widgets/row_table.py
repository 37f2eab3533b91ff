"""A table of rows where home and end go to the first and last row, as in every list of the app.

Textual's own DataTable scrolls sideways with home and end (ctrl+home and
ctrl+end go to the first and last row); the key table promises the rows, so
every table of rows (the resource lists, the request log, help, chart
versions, a report row's fields, saved filter sets) is one of these, and a
`[keys]` remap of `table.first` / `table.last` applies to all of them.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import DataTable


class RowTable(DataTable[Any]):
    """A table of rows where home and end go to the first and last row, as in every list of the app
    (Textual's own DataTable scrolls sideways with them; ctrl+home and ctrl+end still go there too)."""

    BINDINGS = [
        Binding("end", "scroll_bottom", "Last row", show=False, id="table.last"),
        Binding("home", "scroll_top", "First row", show=False, id="table.first"),
    ]


__all__ = ["RowTable"]
