"""`?` help, generated from the bindings that are active where it was asked.

Each row shows the key (as remapped by the config), what it does, and the
binding id to use in the config's [keys] table.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from flextui.ui.safety import SafeDispatch


class HelpScreen(SafeDispatch, ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close", id="help.close")]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 96; max-width: 98%; height: 90%; border: thick $primary; background: $surface; }
    HelpScreen #help-title { text-style: bold; padding: 0 1; }
    HelpScreen #help-note { color: $text-muted; padding: 0 1; }
    HelpScreen DataTable { height: 1fr; }
    """

    def __init__(self, rows: list[tuple[str, str, str, str]], title: str) -> None:
        super().__init__()
        self.rows = rows
        self._title = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(f"Keys: {self._title}"), id="help-title")
            yield Label("Remap any key in the config file: [keys] \"binding id\" = \"key\". `flextui info` shows where it is.", id="help-note", markup=False)
            table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True)
            yield table

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Key", "Action", "Where", "Binding id")
        for row in self.rows:
            table.add_row(*(Text(cell) for cell in row))
        table.focus()


def help_rows(app: object) -> list[tuple[str, str, str, str]]:
    """(key, description, where, id) for the bindings active on the current screen."""
    screen = app.screen  # type: ignore[attr-defined]
    rows: list[tuple[str, str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for key, active in screen.active_bindings.items():
        binding: Binding = active.binding
        if not binding.description:
            continue
        where = type(active.node).__name__
        ident = binding.id or ""
        marker = (binding.description, ident or key)
        if marker in seen:
            continue
        seen.add(marker)
        display = app.get_key_display(binding)  # type: ignore[attr-defined]
        rows.append((display, binding.description + ("" if active.enabled else " (not available here)"), where, ident))
    rows.sort(key=lambda r: (r[2] != type(screen).__name__, r[2], r[0]))
    return rows
