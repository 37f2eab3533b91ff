"""Export of a report's results as shown: every loaded row in the view's order, the shown columns.

`ExportScreen` asks for the format and the path (a sensible name under the
current directory, or the folder and format last exported to in this session;
the extension follows the format until the path is edited by hand) and checks
the path before anything is written.
`ViewSnapshot` copies the view's row ids and columns at the moment of export,
so rows still streaming in do not change what is written, and
`write_snapshot` writes it in a thread (a temporary file renamed into place,
so a cancelled or failed export never leaves half a file under the name).
A view that is not the whole report (still loading, stopped, failed midway)
is suggested a `-partial` name, so the file does not pass for all of it.
Export is a local file write, allowed on read-only profiles.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select

from flextui.render.export import FORMATS, ExportFile, ExportFormat, format_for
from flextui.render.table import GridModel, RowsView
from flextui.render.text import clean
from flextui.render.words import plural
from flextui.ui.keys import FlexModal
from flextui.ui.widgets.bars import Hint

CHUNK = 2000


class ExportCancelled(Exception):
    """The user cancelled the export (the temporary file is removed)."""


@dataclass(frozen=True)
class ViewSnapshot:
    """What an export writes: row ids of the view in order, and the shown columns."""

    rows: RowsView  # the model's rows as they were (stores only grow while pages stream in)
    ids: list[int]
    names: list[str]
    indexes: list[int]

    @classmethod
    def of(cls, model: GridModel) -> ViewSnapshot:
        cols = model.visible_columns
        return cls(model.rows, list(model.view_ids()), [c.name for c in cols], [c.index for c in cols])

    def __len__(self) -> int:
        return len(self.ids)


def write_snapshot(
    snapshot: ViewSnapshot,
    path: str | os.PathLike[str],
    fmt: str | ExportFormat,
    *,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> int:
    """Write the snapshot to `path` (atomically); returns the row count. Raises ExportCancelled."""
    rows, idx = snapshot.rows, snapshot.indexes
    with ExportFile(path, fmt, snapshot.names) as writer:
        ids = snapshot.ids
        for start in range(0, len(ids), CHUNK):
            if cancelled():
                raise ExportCancelled()
            writer.write(rows.take(ids[start : start + CHUNK], idx))
            if progress is not None:
                progress(writer.count)
    if progress is not None:
        progress(writer.count)
    return writer.count


def default_path(group: str, fmt: str, now_ms: int, folder: Path | None = None, *, partial: bool = False) -> Path:
    """`./fulfillment-20261102-1000.csv` (UTC time of the export); `…-1000-partial.csv` for a view that is not the whole report."""
    stamp = datetime.fromtimestamp(now_ms / 1000, tz=UTC).strftime("%Y%m%d-%H%M")
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in group) or "report"
    return (folder or Path.cwd()) / f"{safe}-{stamp}{'-partial' if partial else ''}.{FORMATS[fmt].extension}"


def shown_path(path: Path) -> str:
    """A path as the user reads it: relative to the current directory when under it."""
    try:
        return "./" + str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def fit_path(text: str, width: int) -> str:
    """A path in `width` cells, for a one-row line: whole when it fits; else its folders cut in the middle
    (`/home/me/…/exports/fulfillment-20261102-1000.csv`: where it starts and the folder it goes in), then only
    `…/` and the file's name, then the name itself cut in the middle (its extension kept)."""
    if cell_len(text) <= width:
        return text
    folder, slash, name = text.rpartition("/")
    if slash and cell_len(name) + 2 <= width:
        room = width - cell_len(name) - 2  # "…" and the "/" before the name
        if room < 3:
            return "…/" + name
        head = folder[: (room + 1) // 2]
        tail = folder[len(folder) - room // 2 :]
        return head + "…" + tail + "/" + name
    keep = max(0, width - 1)
    if keep < 2:
        return "…"[:width]
    return name[: (keep + 1) // 2] + "…" + name[len(name) - keep // 2 :]


def check_path(text: str, fmt: str) -> Path:
    """The export file for what was typed; ValueError explaining what is wrong."""
    raw = text.strip()
    if not raw:
        raise ValueError("give a file name")
    path = Path(os.path.expanduser(raw))
    if not path.is_absolute():
        path = Path.cwd() / path
    if path.is_dir():
        raise ValueError(f"{raw} is a folder: add a file name")
    if not path.parent.is_dir():
        raise ValueError(f"the folder {path.parent} does not exist")
    if not os.access(path.parent, os.W_OK):
        raise ValueError(f"the folder {path.parent} is not writable")
    try:
        implied = format_for(path)
    except ValueError:
        implied = None
    if implied is not None and implied.name != fmt:
        raise ValueError(f"the name ends in .{path.suffix.lstrip('.')} but the format is {fmt}: change one of them")
    return path


@dataclass(frozen=True)
class ExportRequest:
    path: Path
    format: str


class ExportScreen(FlexModal[ExportRequest | None]):
    """Choose format and path for exporting the results as shown."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel", id="report_export.cancel"),
        Binding("ctrl+s", "submit", "Export", id="report_export.submit", priority=True),
    ]

    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    ExportScreen > Vertical { width: 90; max-width: 98%; height: auto; border: thick $primary; background: $surface; padding: 0 1; }
    ExportScreen #export-title { text-style: bold; margin-bottom: 1; }
    ExportScreen .export-line { height: 1; margin-bottom: 1; }
    ExportScreen .export-line Label { width: 8; color: $text-muted; }
    ExportScreen #export-format { width: 1fr; }
    ExportScreen #export-path { width: 1fr; }
    ExportScreen #export-path.-invalid { color: $error; }
    ExportScreen #export-what { color: $text-muted; margin-bottom: 1; }
    ExportScreen #export-buttons { height: 1; align-horizontal: right; margin-top: 1; }
    ExportScreen #export-buttons Button { margin-left: 2; }
    """

    def __init__(
        self,
        group: str,
        rows: int,
        columns: int,
        now_ms: int,
        *,
        note: str = "",
        fmt: str = "csv",
        partial: bool = False,
        folder: Path | None = None,
    ) -> None:
        super().__init__()
        self.group = group
        self.rows = rows
        self.columns = columns
        self.now_ms = now_ms
        self.note = note
        self.fmt = fmt
        self.partial = partial  # not the whole report (still loading, stopped, failed): the suggested name says so
        self.folder = folder if folder is not None and folder.is_dir() else None  # the session's last export's (else: here)
        self._auto_path = ""

    def compose(self) -> ComposeResult:
        options = [(f"{f.name.upper():<6} {f.description}", f.name) for f in FORMATS.values()]
        self._auto_path = shown_path(default_path(self.group, self.fmt, self.now_ms, self.folder, partial=self.partial))
        what = f"{plural(self.rows, 'row')} × {plural(self.columns, 'column')}, filtered and sorted as shown"
        if self.note:
            what += f" · {self.note}"
        with Vertical():
            yield Label(Text(clean(f"Export the {self.group} results")), id="export-title")
            yield Label(Text(clean(what)), id="export-what")
            with Horizontal(classes="export-line"):
                yield Label("Format")
                yield Select(options, value=self.fmt, allow_blank=False, id="export-format", compact=True)
            with Horizontal(classes="export-line"):
                yield Label("File")
                yield Input(self._auto_path, id="export-path", compact=True)
            yield Hint("", id="export-hint")
            with Horizontal(id="export-buttons"):
                yield Button("Cancel", id="export-cancel", compact=True)
                yield Button("Export", id="export-go", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()
        self._check()

    def _check(self) -> Path | None:
        hint = self.query_one("#export-hint", Hint)
        box = self.query_one("#export-path", Input)
        try:
            path = check_path(box.value, self.fmt)
        except ValueError as exc:
            hint.show("✗ " + str(exc), error=True)
            box.set_class(True, "-invalid")
            return None
        box.set_class(False, "-invalid")
        note = "exists: you will be asked before it is replaced" if path.exists() else "a new file"
        hint.show(f"{path} ({note})")
        return path

    @on(Select.Changed, "#export-format")
    def _format_changed(self, event: Select.Changed) -> None:
        self.fmt = str(event.value)
        box = self.query_one("#export-path", Input)
        text = box.value.strip()
        if text == self._auto_path or not text:
            self._auto_path = shown_path(default_path(self.group, self.fmt, self.now_ms, self.folder, partial=self.partial))
            box.value = self._auto_path
        else:
            try:
                implied = format_for(text)
            except ValueError:
                implied = None
            if implied is not None:  # swap a known extension for the new one
                box.value = text[: len(text) - len(Path(text).suffix)] + "." + FORMATS[self.fmt].extension
        self._check()

    @on(Input.Changed, "#export-path")
    def _path_changed(self) -> None:
        self._check()

    @on(Input.Submitted, "#export-path")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        path = self._check()
        if path is not None:
            self.dismiss(ExportRequest(path, self.fmt))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "export-go":
            self.action_submit()
        else:
            self.dismiss(None)


__all__ = [
    "ExportCancelled",
    "ExportRequest",
    "ExportScreen",
    "ViewSnapshot",
    "check_path",
    "default_path",
    "fit_path",
    "shown_path",
    "write_snapshot",
]
