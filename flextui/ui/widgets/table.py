"""A resource table: rows are dicts, cells are `Text`, and `/` filters what is shown.

Resource lists are paged (tens to a few hundred rows at a time), which the
built-in DataTable handles well; the data-report results use the virtual
`DataGrid` instead. Cells are always `rich.text.Text` built from cleaned
strings, so server data is never parsed as markup and never emits control
characters: `_cell` is the choke point, and it also cleans the `Text` a
screen's cell function builds itself (a screen cannot forget to).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Literal

from pydantic import BaseModel
from rich.text import Text
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.message import Message
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from flextui.api.tolerant import unreadable
from flextui.kinds import Column
from flextui.render.text import clean
from flextui.ui.guard import safe
from flextui.ui.later import after_refresh
from flextui.ui.safety import SafeDispatch
from flextui.ui.widgets.edge import more_right
from flextui.ui.widgets.row_table import RowTable

CellFn = Callable[[dict[str, Any], str], Text | str]


def matches(row: dict[str, Any], text: str, columns: Sequence[Column]) -> bool:
    """Whether a row matches a `/` filter: case-insensitive substring; `!` inverts."""
    inverse = text.startswith("!")
    needle = (text[1:] if inverse else text).strip().lower()
    if not needle:
        return True
    found = any(needle in clean(row.get(c.key)).lower() for c in columns)
    return found != inverse


def unreadable_in(row: dict[str, Any]) -> str | None:
    """Why the record behind a row could not be read (`api.tolerant`), or None."""
    for value in row.values():
        if isinstance(value, BaseModel):
            reason = unreadable(value)
            if reason:
                return reason
    return None


def natural_key(text: str) -> tuple[Any, ...]:
    """Sorts "v2" before "v10" and "1,200" as a number: digit runs compare by value, the rest case-insensitively."""
    parts = re.split(r"(\d[\d,]*(?:\.\d+)?)", text.strip())
    key: list[Any] = []
    for i, part in enumerate(parts):
        if i % 2:
            key.append((0, float(part.replace(",", ""))))
        elif part:
            key.append((1, part.casefold()))
    return tuple(key)


HIDDEN_FIELDS_NAMED = 3
"""How many of a changed record's fields not shown as columns are named (the rest: "+N")."""


@dataclass(frozen=True)
class Mark:
    """Under `:watch`: a row that appeared (`+`) or changed (`~`) and has not been seen since; `fields`: what changed
    (column titles, or the record's own field names when no column shows the change)."""

    kind: Literal["new", "changed"]
    fields: tuple[str, ...] = ()

    @property
    def sign(self) -> str:
        return "+" if self.kind == "new" else "~"


@dataclass(frozen=True)
class RowChange:
    """One row a watch's refresh found new, changed or gone: its key, its name as shown (cleaned), what changed."""

    key: Any
    name: str
    fields: tuple[str, ...] = ()


def model_fields_changed(before: dict[str, Any], after: dict[str, Any]) -> tuple[str, ...]:
    """The fields of the records behind two rows that differ ("description"), for a change no column shows."""
    names: list[str] = []
    for key, old in before.items():
        new = after.get(key)
        if isinstance(old, BaseModel) and isinstance(new, BaseModel):
            was, now = old.model_dump(), new.model_dump()
            names += [clean(name).replace("_", " ") for name in {**was, **now} if was.get(name) != now.get(name)]
    if len(names) > HIDDEN_FIELDS_NAMED:
        return (*names[:HIDDEN_FIELDS_NAMED], f"+{len(names) - HIDDEN_FIELDS_NAMED}")
    return tuple(names)


class ResourceTable(SafeDispatch, RowTable):
    """A DataTable of row dicts with columns from the kinds registry."""

    BINDINGS = [
        Binding("enter", "select_cursor", "Open", show=False, id="table.open"),
    ]

    DEFAULT_CSS = """
    ResourceTable { height: 1fr; }
    """

    def __init__(self, columns: Sequence[Column], *, cell: CellFn | None = None, row_key: str = "name", id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.spec = list(columns)
        self.cell_fn = cell
        self.row_key = row_key
        self.rows_all: list[dict[str, Any]] = []
        self.filter_text = ""
        self.sort_spec: tuple[str, bool] | None = None
        """(column key, descending) the loaded rows are sorted by (`:sort`), or None: the server's order."""
        self._shown: list[dict[str, Any]] = []
        self.row_style: Callable[[dict[str, Any]], str] | None = None
        self.from_watch: Callable[[], bool] | None = None
        """Under `:watch`: whether rows being set now come from the watch's refresh. Those are compared with the rows
        before and what changed is marked; rows set for any other reason (ctrl+r, a page turned) clear the marks."""
        self.marks: dict[Any, Mark] = {}
        """Row key → what a watch found on that row and no one has seen yet (the cursor has not left it since)."""
        self._cursor_key: Any = None
        """The key of the row the cursor was last seen on: a mark goes when the cursor moves on from its row."""

    def on_mount(self) -> None:
        for column in self.spec:
            self.add_column(column.title, key=column.key, width=column.width)
        self._fitted: tuple[int, tuple[int, ...]] | None = None
        after_refresh(self, self._fit_width)

    def on_resize(self) -> None:
        self._fit_width()

    def _fit_width(self) -> None:
        """Share the free width among the columns whose text is cut (then the last one): nothing ends "…"
        while the screen beside it stands empty."""
        if not self.is_mounted or not self.spec:
            return
        avail = self.scrollable_content_region.width
        if not self.show_vertical_scrollbar:  # leave room for it: rows arriving later must not make the table scroll sideways
            avail -= self.styles.scrollbar_size_vertical
        content = dict(getattr(self, "_content_widths", {}))
        for spec in self.spec:  # a title is content too: "Repos ▼" once sorted, cut to "Repo" in a 5-cell column
            column = self.columns.get(spec.key)  # type: ignore[call-overload]
            if column is not None:
                content[spec.key] = max(content.get(spec.key, 0), column.label.cell_len)
        key = (avail, tuple(content.get(c.key, 0) for c in self.spec))
        if avail <= 0 or key == getattr(self, "_fitted", None):
            return
        self._fitted = key
        pad = 2 * self.cell_padding
        widths: dict[str, int] = {}
        for spec in self.spec:
            column = self.columns.get(spec.key)  # type: ignore[call-overload]
            if column is None or spec.width is None:
                return  # an auto-width column already takes what its content needs
            widths[spec.key] = spec.width
        free = avail - sum(w + pad for w in widths.values())
        for spec in self.spec:  # first the columns whose values are cut, left to right
            if free <= 0:
                break
            need = content.get(spec.key, 0) - widths[spec.key]
            if need > 0:
                widths[spec.key] += min(need, free)
                free -= min(need, free)
        if free > 0:
            widths[self.spec[-1].key] += free
        changed = False
        for spec in self.spec:
            column = self.columns[spec.key]  # type: ignore[index]
            if column.width != widths[spec.key]:
                column.width = widths[spec.key]
                changed = True
        if changed:
            self._clear_caches()
            self._require_update_dimensions = True
            self.refresh()

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        width = self.size.width
        visible = min(width, self.scrollable_content_region.width)  # (a vertical scrollbar covers the rest)
        if self.virtual_size.width > self.scroll_offset.x + visible:  # more columns to the right: say the edge cuts
            return Strip.join([more_right(strip.crop(0, visible), visible), strip.crop(visible, width)])
        return strip

    def _cell(self, row: dict[str, Any], key: str) -> Text:
        value = self.cell_fn(row, key) if self.cell_fn else row.get(key)
        if isinstance(value, Text):
            text = safe(value, lines=False)
            text.no_wrap = True
            text.overflow = "ellipsis"  # a cell longer than its column ends "…", never cut silently
            return text
        return Text(clean(value), no_wrap=True, overflow="ellipsis")

    @dataclass
    class RowsChanged(Message):
        """Under `:watch`: how the rows of a refresh differ from the rows before."""

        table: ResourceTable
        new: list[RowChange]
        changed: list[RowChange]
        gone: list[RowChange]

    @property
    def watching(self) -> bool:
        """Whether the rows being set now are a watch's refresh."""
        return self.from_watch is not None and self.from_watch()

    def set_rows(self, rows: list[dict[str, Any]], *, keep_cursor: bool = True) -> None:
        """Replace the rows, keeping the cursor on the same item when it is still there.

        A watch's refresh marks the rows that appeared or changed since the rows before, keeps the marks
        not yet seen, and posts what appeared, changed and left; the same rows again change nothing on screen.
        """
        if not self.watching:
            self.marks = {}
        elif not self._compare(rows):
            return  # nothing changed: nothing repainted
        current = self.current_row() if keep_cursor else None
        self.rows_all = list(rows)
        self._refill(current, where_gone=self.cursor_row if current is not None else 0)

    def _compare(self, rows: list[dict[str, Any]]) -> bool:
        """Mark what `rows` bring against the rows shown and post it; whether anything on screen changes."""
        before = {row.get(self.row_key): row for row in self.rows_all}
        after = {row.get(self.row_key): row for row in rows}
        new = [self._change(key, row) for key, row in after.items() if key not in before]
        changed = [self._change(key, row, before[key]) for key, row in after.items() if key in before and before[key] != row]
        gone = [self._change(key, row) for key, row in before.items() if key not in after]
        self.post_message(self.RowsChanged(self, new, changed, gone))
        marks = {key: mark for key, mark in self.marks.items() if key in after}  # unseen marks stay
        for change in new:
            marks[change.key] = Mark("new")
        for change in changed:
            kept = marks.get(change.key)
            if kept is None or kept.kind == "changed":  # a row new since it was last seen stays new
                fields = dict.fromkeys((*(kept.fields if kept else ()), *change.fields))
                marks[change.key] = Mark("changed", tuple(fields))
        if marks == self.marks and list(rows) == self.rows_all:
            return False
        self.marks = marks
        return True

    def _change(self, key: Any, row: dict[str, Any], before: dict[str, Any] | None = None) -> RowChange:
        name = self._cell(row, self.spec[0].key).plain if self.spec else clean(key)
        return RowChange(key, name or clean(key), self.fields_changed(before, row) if before is not None else ())

    def fields_changed(self, before: dict[str, Any], after: dict[str, Any]) -> tuple[str, ...]:
        """What differs between two versions of a row: the titles of the columns that show it, else the record's fields."""
        titles = tuple(c.title for c in self.spec if self._compared(before, c.key) != self._compared(after, c.key))
        return titles or model_fields_changed(before, after)

    def _compared(self, row: dict[str, Any], key: str) -> Any:
        """A column's value to compare: the row's own (a moment, not the "in 2d" shown), else the text shown."""
        return row[key] if key in row else self._cell(row, key).plain

    def stop_watching(self) -> None:
        self.from_watch = None
        if self.marks:
            self.marks = {}
            self._refill(self.current_row())

    def mark_under_cursor(self) -> tuple[str, Mark] | None:
        """(the row's name as shown, its mark) when the row under the cursor is marked."""
        row = self.current_row()
        mark = self.marks.get(row.get(self.row_key)) if row is not None and self.marks else None
        if row is None or mark is None:
            return None
        return self._change(row.get(self.row_key), row).name, mark

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The cursor has moved on from a marked row: its mark has been seen, and goes (the event goes on to the screen)."""
        row = self.current_row()
        key = row.get(self.row_key) if row is not None else None
        left, self._cursor_key = self._cursor_key, key
        if left != key and left in self.marks:
            del self.marks[left]
            self._restyle(left)

    def set_filter(self, text: str) -> None:
        current = self.current_row()
        self.filter_text = text
        self._refill(current)

    @property
    def visible_rows(self) -> list[dict[str, Any]]:
        """The rows shown, in the order shown: the filter applied, then the sort (if any)."""
        return self._shown

    def sort_on(self, key: str | None, descending: bool = False) -> None:
        """Sort the loaded rows by a column as shown (numbers by value, text case-insensitively); None: the server's order."""
        current = self.current_row()
        self.sort_spec = None if key is None else (key, descending)
        for spec in self.spec:  # the sorted column's title says so, as in a report's grid ("Expires ▼")
            column = self.columns.get(ColumnKey(spec.key))
            if column is not None:
                arrow = (" ▼" if descending else " ▲") if spec.key == key else ""
                column.label = Text(spec.title + arrow)
        self._refill(current)

    def sort_title(self) -> str | None:
        """What the rows are sorted by here (`:sort`), as the header says it ("Repos, descending"); None: the server's order."""
        if self.sort_spec is None:
            return None
        key, descending = self.sort_spec
        title = next((c.title for c in self.spec if c.key == key), key)
        return f"{title}, descending" if descending else title

    def column_key(self, name: str) -> str | None:
        """The column a user's word names: its key or title, whole or as a prefix (case-insensitive)."""
        folded = name.casefold()
        for exact in (True, False):
            for spec in self.spec:
                for candidate in (spec.key.casefold(), spec.title.casefold()):
                    if candidate == folded if exact else candidate.startswith(folded):
                        return spec.key
        return None

    def _sort_value(self, row: dict[str, Any], key: str) -> tuple[Any, ...]:
        """Numbers and moments by value (a token's "in 2d" before "in 11mo"), the rest as shown; empty last."""
        raw = row.get(key)
        if isinstance(raw, bool) or raw is None or raw == "":
            text = self._cell(row, key).plain.strip()
            return (3,) if not text else (2, natural_key(text))
        if isinstance(raw, (int, float)):
            return (0, float(raw))
        if isinstance(raw, datetime):
            return (1, raw.timestamp() if raw.tzinfo else raw.replace(tzinfo=UTC).timestamp())
        if isinstance(raw, date):
            return (1, datetime(raw.year, raw.month, raw.day, tzinfo=UTC).timestamp())
        return (2, natural_key(self._cell(row, key).plain))

    def _compute_shown(self) -> list[dict[str, Any]]:
        rows = [r for r in self.rows_all if matches(r, self.filter_text, self.spec)]
        if self.sort_spec is not None:
            key, descending = self.sort_spec
            rows.sort(key=lambda row: self._sort_value(row, key), reverse=descending)
        return rows

    def _refill(self, current: dict[str, Any] | None, *, where_gone: int = 0) -> None:
        """Show the rows again, the cursor on `current` when it is still shown; else on row `where_gone`
        (a reload after a delete: the row that took the deleted one's place, not the first)."""
        self.clear()
        target = -1
        content: dict[str, int] = {}
        self._shown = self._compute_shown()
        for index, row in enumerate(self._shown):
            cells = self._row_cells(row, content)
            self.add_row(*cells, key=str(index))
            if current is not None and row.get(self.row_key) == current.get(self.row_key):
                target = index
        if self.row_count:
            self.move_cursor(row=target if target >= 0 else min(where_gone, self.row_count - 1), animate=False)
        self._content_widths = content  # the widest value of each column: what a cut column would need
        self._fit_width()

    def _row_cells(self, row: dict[str, Any], content: dict[str, int] | None = None) -> list[Text]:
        """A row's cells as shown, with its marks; `content` gathers each column's widest value (before the marks)."""
        cells = [self._cell(row, c.key) for c in self.spec]
        if content is not None:
            for spec, text in zip(self.spec, cells):
                if text.cell_len > content.get(spec.key, 0):
                    content[spec.key] = text.cell_len
        if cells and unreadable_in(row):  # a record the server sent in a shape that could not be read: kept, and marked
            cells[0] = Text("⚠ ", style="bold") + cells[0]
            for cell in cells:
                cell.stylize("italic")
        style = self.row_style(row) if self.row_style else ""
        if style:
            for cell in cells:
                cell.stylize(style)
        mark = self.marks.get(row.get(self.row_key)) if self.marks else None
        if cells and mark:  # under :watch: what appeared (+) or changed (~) and has not been seen yet
            self._mark_cells(cells, mark)
        return cells

    def _restyle(self, key: Any) -> None:
        """Draw again the one row whose marks changed (a whole refill on every step off a marked row was O(rows))."""
        index = next((i for i, row in enumerate(self._shown) if row.get(self.row_key) == key), None)
        if index is None or index >= self.row_count:
            return
        for column, cell in enumerate(self._row_cells(self._shown[index])):
            self.update_cell_at(Coordinate(index, column), cell)

    def _mark_cells(self, cells: list[Text], mark: Mark) -> None:
        """`+ ` or `~ ` before the first cell, the row in green or yellow, and the cells that changed underlined."""
        cells[0] = Text(mark.sign + " ", style="bold") + cells[0]
        for spec, cell in zip(self.spec, cells):
            cell.stylize("bold " + ("green" if mark.kind == "new" else "yellow"))
            if spec.title in mark.fields:
                cell.stylize("underline")

    def current_row(self) -> dict[str, Any] | None:
        rows = self.visible_rows
        if not rows or self.cursor_row < 0 or self.cursor_row >= len(rows):
            return None
        return rows[self.cursor_row]
