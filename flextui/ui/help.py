"""`?` help, generated from the bindings that are active where it was asked.

Each row shows the key (as remapped by the config), what it does, and the
binding id to use in the config's [keys] table.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Label

from flextui.render.text import clean
from flextui.ui.keys import FlexModal
from flextui.ui.widgets.row_table import RowTable

COLUMNS = ("Key", "Action", "Where", "Binding id")
DIALOG_WIDTH = 96
MIN_ACTION = 16
"""The Action column is never narrower (a tiny terminal scrolls sideways instead)."""


class HelpScreen(FlexModal[None]):
    BINDINGS = [Binding("escape,question_mark", "dismiss", "Close", id="help.close")]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 96; max-width: 98%; height: 90%; border: thick $primary; background: $surface; }
    HelpScreen #help-title { text-style: bold; padding: 0 1; }
    HelpScreen #help-note { color: $text-muted; width: 1fr; margin: 0 1; }
    HelpScreen DataTable { height: 1fr; }
    """

    HELP_NAME = "Keys"

    def __init__(self, rows: list[tuple[str, str, str, str]], title: str) -> None:
        super().__init__()
        self.rows = rows
        self.screen_title = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(f"Keys: {self.screen_title}"), id="help-title")
            yield Label(
                'Remap any key in the config file: [keys] "binding id" = "key". `flextui info` shows where it is.',
                id="help-note",
                markup=False,
            )
            table = RowTable(cursor_type="row", zebra_stripes=True)
            yield table

    def on_mount(self) -> None:
        self._fill(self.app.size.width)
        self.query_one(DataTable).focus()

    def on_resize(self, event: events.Resize) -> None:
        self._fill(event.size.width)

    def _fill(self, width: int) -> None:
        """The rows, with the Action column as wide as what is left beside the others (its words wrap):
        at 80 columns the table was wider than the dialog, and the binding id, what one copies into
        [keys], was cut at its end."""
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        widest = [max([cell_len(label), *(cell_len(row[i]) for row in self.rows)]) for i, label in enumerate(COLUMNS)]
        inside = (
            min(DIALOG_WIDTH, width * 98 // 100) - 2 - 4
        )  # the dialog's border; 4 beside the table (its scrollbar: measured, less scrolls)
        action = max(MIN_ACTION, inside - sum(widest) + widest[1] - 2 * table.cell_padding * len(COLUMNS))
        for i, label in enumerate(COLUMNS):
            table.add_column(label, width=min(widest[i], action) if i == 1 else widest[i])
        for row in self.rows:
            table.add_row(*(Text(cell) for cell in row), height=None if cell_len(row[1]) > action else 1)
        table.move_cursor(row=cursor)


WIDGET_NAMES = {
    "ResourceTable": "Table",
    "DataGrid": "Table",
    "EntitlementTree": "Tree",
    "ConditionsTable": "Conditions",
    "CommandBar": "Command bar",
    "FilterBar": "Filter bar",
}
"""How `?` names the widget a key belongs to (a key of the screen or the app is named by them)."""


def screen_name(screen: Any) -> str:
    """A screen's human name: an area's title ("Access tokens"), a dialog's HELP_NAME or title."""
    for attr in ("area_title", "HELP_NAME", "_title"):
        value = getattr(screen, attr, "")
        if isinstance(value, str) and value:
            return clean(value)
    return "this dialog"


def where_name(node: Any, screen: Any, binding: Binding) -> str:
    if isinstance(node, App) or (binding.id or "").startswith("screen."):  # the screen keys every screen has
        return "Everywhere"
    if node is screen:
        return "This screen"
    return WIDGET_NAMES.get(type(node).__name__, "This screen")


def help_rows(app: Any) -> list[tuple[str, str, str, str]]:
    """(key, description, where, id) for the bindings active on the current screen: the ones flextui defines,
    each with its id to remap it (Textual's own widget keys, such as a field's cursor keys, are left out)."""
    screen = app.screen
    rows: list[tuple[str, str, str, str]] = []
    seen: set[str] = set()
    order = {"This screen": 0, "Everywhere": 2}
    for active in screen.active_bindings.values():
        binding: Binding = active.binding
        if not binding.description or not binding.id or binding.action.startswith("_"):
            continue
        if binding.id in seen:  # one row a binding, its keys together ("d, delete")
            continue
        seen.add(binding.id)
        keys = [k for k, a in screen.active_bindings.items() if a.binding.id == binding.id]
        display = ", ".join(app.get_key_display(screen.active_bindings[k].binding) for k in keys)
        where = where_name(active.node, screen, binding)
        rows.append((display, binding.description + ("" if active.enabled else " (not available here)"), where, binding.id))
    rows.sort(key=lambda r: (order.get(r[2], 1), r[2]))  # stable: each group in the order its keys were declared
    return rows
