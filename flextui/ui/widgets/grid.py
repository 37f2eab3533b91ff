"""DataGrid: a virtual, keyboard-first data grid for 100,000+ rows.

Why not Textual's builtin ``DataTable``: it measures every new cell on the UI
thread (≈13 s frozen at 100k rows) and rebuilds O(rows) structures on every
cursor move (≈80 ms per key), and it parses ``str`` cells as markup.  This
widget follows toolong's approach instead:

* it is a :class:`~textual.scroll_view.ScrollView` using the Line API: only the
  visible lines are rendered (``render_line``), through a small LRU of strips
  keyed by everything that affects a line, so nothing has to be invalidated
  explicitly and cursor moves repaint two lines;
* the data, the filtered/sorted view, statistics and sanitising live in the
  pure-Python :class:`~flextui.render.table.GridModel`;
* column widths come from a *sample* (header, the first rows, a stride sample
  of each streamed page), never from all rows; widths only grow while rows
  stream in, so the layout doesn't jump;
* cells are painted as plain ``Segment`` text: server strings are never parsed
  as markup, and control characters were replaced by visible placeholders in
  the model (``␛``, ``⏎`` …) so nothing raw reaches the terminal;
* every colour comes from component classes / theme variables in
  ``DEFAULT_CSS`` so ansi-dark/ansi-light themes and ``NO_COLOR`` work.

Keys (binding ids in parentheses, usable in an App keymap):

=====================  ==================================================
up/down                previous/next row (``datagrid.cursor_up/down``)
left/right             previous/next column (``datagrid.cursor_left/right``)
pageup/pagedown        one screen up/down (``datagrid.page_up/down``)
home, ctrl+home        first row (``datagrid.first_row``)
end, ctrl+end          last row (``datagrid.last_row``)
shift+home/shift+end   first/last column (``datagrid.first_column/last_column``)
enter                  post :class:`DataGrid.RowSelected` (``datagrid.select``)
``{``                  sort ascending by the cursor column; again: unsort
                       (``datagrid.sort_ascending``)
``}``                  sort descending by the cursor column; again: unsort
                       (``datagrid.sort_descending``)
=====================  ==================================================

Mouse: click moves the cursor, double-click selects, clicking a header sorts
(ascending, then descending).

Threading: call the mutating methods on the event loop (from a thread worker
use ``app.call_from_thread(grid.append_rows, page)``).
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from flextui.render.table import Column, ColumnSpec, Encoded, GridModel, format_value
from flextui.ui.later import after_refresh
from flextui.ui.safety import SafeDispatch
from flextui.ui.widgets.edge import more_left, more_right
from flextui.ui.widgets.scrollbars import QuietScrollbars

__all__ = ["DataGrid"]

_PAD = 1  # blank cells on each side of a cell's text
_ELLIPSIS = "…"
SCROLLBAR_EVERY = 0.25  # seconds between scrollbar repaints while rows stream in
INDEX_STEP = 5000  # values (a row of one unique column, or a pooled column's distinct value) given search text per idle step (≈ 3 ms)


@dataclass(frozen=True)
class _CursorGoal:
    """Where the cursor was before its rows were cleared to come again (`DataGrid.clear`)."""

    values: dict[int, Any]
    """The record's values that name it, by ``Column.index``."""
    row: int
    """Its row number (where the cursor goes when the record does not come back)."""
    line: int
    """Its screen line below the header (kept where the rows allow)."""


def _fit(text: str, width: int, right: bool) -> str:
    """Pad or truncate ``text`` to exactly ``width`` terminal cells."""
    if text.isascii():
        n = len(text)
        if n > width:
            return text[: width - 1] + _ELLIPSIS if width > 1 else text[:width]
        if n == width:
            return text
        return text.rjust(width) if right else text.ljust(width)
    n = cell_len(text)
    if n > width:
        return set_cell_size(text, width - 1) + _ELLIPSIS if width > 1 else set_cell_size(text, width)
    pad = " " * (width - n)
    return pad + text if right else text + pad


class DataGrid(SafeDispatch, QuietScrollbars, ScrollView, can_focus=True):
    """A virtual data grid over a :class:`GridModel` (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor_up", "Up", show=False, id="datagrid.cursor_up"),
        Binding("down", "cursor_down", "Down", show=False, id="datagrid.cursor_down"),
        Binding("left", "cursor_left", "Left", show=False, id="datagrid.cursor_left"),
        Binding("right", "cursor_right", "Right", show=False, id="datagrid.cursor_right"),
        Binding("pageup", "page_up", "Page up", show=False, id="datagrid.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="datagrid.page_down"),
        Binding("home,ctrl+home", "first_row", "First row", show=False, id="datagrid.first_row"),
        Binding("end,ctrl+end", "last_row", "Last row", show=False, id="datagrid.last_row"),
        Binding("shift+home", "first_column", "First column", show=False, id="datagrid.first_column"),
        Binding("shift+end", "last_column", "Last column", show=False, id="datagrid.last_column"),
        Binding("enter", "select_row", "Open", show=False, id="datagrid.select"),
        # `[` and `]` turn pages everywhere in flextui; braces sort.
        Binding("left_curly_bracket", "sort_ascending", "Sort", show=True, key_display="{", id="datagrid.sort_ascending"),
        Binding("right_curly_bracket", "sort_descending", "Sort descending", show=False, key_display="}", id="datagrid.sort_descending"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "datagrid--header",
        "datagrid--header-cursor",
        "datagrid--even-row",
        "datagrid--cursor-row",
        "datagrid--cursor-column",
        "datagrid--cursor",
        "datagrid--fixed",
        "datagrid--empty",
    }
    """
    | Class | Styles |
    | :- | :- |
    | `datagrid--header` | the header row |
    | `datagrid--header-cursor` | the header cell of the cursor column |
    | `datagrid--even-row` | every other row when `zebra_stripes` is on |
    | `datagrid--cursor-row` | the row under the cursor |
    | `datagrid--cursor-column` | the column under the cursor |
    | `datagrid--cursor` | the cursor cell |
    | `datagrid--fixed` | fixed (non-scrolling) columns |
    | `datagrid--empty` | the "No rows" placeholder |
    """

    DEFAULT_CSS = """
    DataGrid {
        background: $surface;
        color: $foreground;
        height: 1fr;

        & > .datagrid--header {
            background: $panel;
            color: $foreground;
            text-style: bold;
        }
        & > .datagrid--header-cursor {
            background: $panel;
            color: $text-accent;
            text-style: bold;
        }
        & > .datagrid--even-row {
            background: $surface-lighten-1 50%;
        }
        &:dark > .datagrid--even-row {
            background: $surface-darken-1 40%;
        }
        & > .datagrid--cursor-row {
            background: $primary 12%;
        }
        & > .datagrid--cursor-column {
            background: $primary 6%;
        }
        & > .datagrid--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .datagrid--fixed {
            background: $secondary-muted;
            color: $foreground;
        }
        & > .datagrid--empty {
            color: $text-muted;
            text-style: italic;
        }
        &:focus {
            background-tint: $foreground 3%;
            & > .datagrid--cursor-row {
                background: $primary 20%;
            }
            & > .datagrid--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
        }
        /* ANSI themes: backgrounds are the terminal's own, alpha blends don't exist,
           so lean on text styles for the header and cursor. */
        &:ansi {
            & > .datagrid--header { text-style: bold underline; }
            & > .datagrid--header-cursor { text-style: bold underline reverse; }
            & > .datagrid--even-row { background: transparent; }
            & > .datagrid--cursor-row { background: transparent; text-style: bold; }
            & > .datagrid--cursor-column { background: transparent; }
            & > .datagrid--fixed { background: transparent; text-style: bold; }
            & > .datagrid--cursor { background: transparent; text-style: reverse; }
        }
        &:ansi:focus > .datagrid--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: bold;
        }
    }
    """

    zebra_stripes: reactive[bool] = reactive(False)
    """Shade every other row (``datagrid--even-row``)."""
    fixed_columns: reactive[int] = reactive(0)
    """Number of leading visible columns that don't scroll horizontally."""
    show_header: reactive[bool] = reactive(True)

    # ------------------------------------------------------------------ messages

    @dataclass
    class CursorMoved(Message):
        """The cursor moved to another row or column (by key, mouse or API)."""

        data_grid: DataGrid
        row_index: int
        """Cursor row: position in the view (after filter/sort)."""
        column_index: int
        """Cursor column: index among the visible columns."""
        column: str | None
        """Name of the cursor column (``None`` without columns)."""

        @property
        def control(self) -> DataGrid:
            return self.data_grid

    @dataclass
    class RowSelected(Message):
        """Enter (or double-click) was pressed on a row."""

        data_grid: DataGrid
        row_index: int
        """Position of the row in the view (the cursor row)."""
        row: dict[str, Any]
        """The row as ``{column name: raw value}`` (all columns, hidden ones too)."""
        row_id: int
        """Arrival-order index of the row in the model (stable under sort/filter)."""

        @property
        def control(self) -> DataGrid:
            return self.data_grid

    @dataclass
    class SortChanged(Message):
        """The sort changed (``column`` is ``None`` when the sort was removed)."""

        data_grid: DataGrid
        column: str | None
        descending: bool

        @property
        def control(self) -> DataGrid:
            return self.data_grid

    @dataclass
    class FilterChanged(Message):
        """The filter text changed; ``row_count`` rows of ``total_count`` remain."""

        data_grid: DataGrid
        filter_text: str
        row_count: int
        total_count: int

        @property
        def control(self) -> DataGrid:
            return self.data_grid

    @dataclass
    class ColumnsChanged(Message):
        """Columns were set, hidden, shown or moved."""

        data_grid: DataGrid

        @property
        def control(self) -> DataGrid:
            return self.data_grid

    # ------------------------------------------------------------------ construction

    def __init__(
        self,
        columns: Iterable[ColumnSpec] = (),
        rows: Iterable[Sequence[Any] | Mapping[str, Any]] = (),
        *,
        model: GridModel | None = None,
        zebra_stripes: bool = False,
        fixed_columns: int = 0,
        show_header: bool = True,
        max_column_width: int = 40,
        sample_rows: int = 64,
        search_index: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        """Create a grid.

        Args:
            columns: Column names, ``(name, type)`` tuples or :class:`Column` objects.
            rows: Initial rows (tuples in column order, or dicts by column name).
            model: Use an existing model instead (``columns``/``rows`` are then added to it).
            zebra_stripes: Shade every other row.
            fixed_columns: Leading columns that stay put when scrolling horizontally.
            max_column_width: Cap for measured column widths (cells are truncated with "…").
            sample_rows: Rows sampled per appended page to measure column widths.
            search_index: Build the free-text filter index in idle time, so that the
                first filter over 100k rows is instant (costs ~0.3 s CPU spread over
                idle ticks and ~20–30 MB for 100k × 12).
        """
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._model = model if model is not None else GridModel()
        self._max_width = max(3, max_column_width)
        self._sample_rows = max(1, sample_rows)
        self._search_index = search_index
        self._cursor_row = 0
        self._cursor_col = 0
        self._widths: dict[int, int] = {}  # Column.index -> content width (without padding)
        self._layout_version = 0  # bumped when column geometry changes (part of line-cache keys)
        self._widths_version = 0
        self._style_version = 0
        self._col_x: list[int] = []  # x offset of each visible column
        self._col_w: list[int] = []  # full width (with padding) of each visible column
        self._total_width = 0
        self._fixed_width = 0
        self._layout_key: tuple[Any, ...] = ()
        self._styles: dict[str, Style] = {}
        self._line_cache: LRUCache[tuple[Any, ...], Strip] = LRUCache(256)
        self._index_timer: Timer | None = None
        self._scrollbar_timer: Timer | None = None
        self._scrollbar_at = 0.0
        self._empty_text = "No rows"
        self._goal: _CursorGoal | None = None
        """The record the cursor was on before the rows were cleared to come again (:meth:`clear`)."""
        self.set_reactive(DataGrid.zebra_stripes, zebra_stripes)
        self.set_reactive(DataGrid.fixed_columns, max(0, fixed_columns))
        self.set_reactive(DataGrid.show_header, show_header)
        columns = list(columns)
        if columns:
            self._model.set_columns(columns)
        if self._model.columns:
            self._measure(initial=True)
        rows = list(rows) if not isinstance(rows, list) else rows
        if rows:
            self._model.append_rows(rows)
            self._measure(initial=True)
        self._update_virtual_size()

    # ------------------------------------------------------------------ public API

    @property
    def model(self) -> GridModel:
        """The underlying model (call :meth:`refresh_view` after changing it directly)."""
        return self._model

    @property
    def row_count(self) -> int:
        """Rows in the view (after the filter)."""
        return self._model.row_count

    @property
    def content_width(self) -> int:
        """Cells the visible columns need (the free width given to the last column left out)."""
        return sum(self._widths.get(col.index, cell_len(col.title) + 2) + 2 * _PAD for col in self._model.visible_columns)

    @property
    def total_count(self) -> int:
        """All rows, regardless of the filter."""
        return self._model.total_count

    @property
    def cursor_row(self) -> int:
        """Cursor row as a position in the view."""
        return self._cursor_row

    @cursor_row.setter
    def cursor_row(self, row: int) -> None:
        self.move_cursor(row=row)

    @property
    def cursor_column(self) -> int:
        """Cursor column as an index among the visible columns."""
        return self._cursor_col

    @cursor_column.setter
    def cursor_column(self, column: int) -> None:
        self.move_cursor(column=column)

    @property
    def columns(self) -> list[Column]:
        """Visible columns in display order."""
        return self._model.visible_columns

    @property
    def filter_text(self) -> str:
        return self._model.filter_text

    def set_columns(self, columns: Iterable[ColumnSpec]) -> None:
        """Replace the columns (and drop all rows, the sort and the filter)."""
        self._model.set_columns(columns)
        self._widths.clear()
        self._cursor_row = self._cursor_col = 0
        self._measure(initial=True)
        self._changed(scroll_home=True)
        self.post_message(self.ColumnsChanged(self))

    def append_rows(self, rows: Iterable[Sequence[Any] | Mapping[str, Any]] | Encoded) -> int:
        """Append a page of rows (streaming; :meth:`GridModel.encode` makes them ready in a thread); returns how many entered the view.

        Cheap: O(page) in the model, a sampled width check, and a repaint of only
        the lines that became non-empty (unless widths grew or a sort is active).
        The cursor stays on the same row (the same record, when sorted).
        """
        model = self._model
        if not isinstance(rows, (list, Encoded)):
            rows = list(rows)
        if not rows:
            return 0
        old_count = model.row_count
        old_total = model.total_count
        gen = model.generation
        cursor_id = model.row_id(self._cursor_row) if old_count and model.sort_column is not None else None
        added = model.append_rows(rows)
        widths_grew = self._measure(start=old_total, initial=old_total == 0)
        moved = False
        if model.generation != gen and cursor_id is not None:
            pos = model.position_of(cursor_id)
            if pos is not None and pos != self._cursor_row:
                delta = pos - self._cursor_row
                self._cursor_row = pos
                self._update_virtual_size()
                if self.is_mounted:  # keep the cursor row at the same screen line
                    self.scroll_to(y=self.scroll_y + delta, animate=False)
                moved = True
        self._update_virtual_size()
        if widths_grew or model.generation != gen:
            self.refresh()
        elif added:
            self.refresh_lines(old_count + self._header_height, added)
            if old_count == 0:
                self.refresh_lines(self._header_height, 1)  # the placeholder line ("No rows")
        if moved:
            self._scroll_cursor_into_view()
            self._post_cursor_moved()
        if self._goal is not None and added:
            self._seek_goal(old_total)
        self._schedule_indexing(postpone=True)
        return added

    def show_when_empty(self, text: str) -> None:
        """What the grid says while it has no rows ("No rows"; while the first are awaited, something else)."""
        if text != self._empty_text:
            self._empty_text = text
            if not self._model.row_count and self.is_mounted:
                self.refresh_lines(self._header_height, 1)

    def clear(self, *, keep_view: bool = False, key: Sequence[str] = ()) -> None:
        """Remove all rows, and the sort and the filter unless `keep_view` (columns stay).

        `keep_view`: the rows that follow are the same view's again (fresh data, a run again):
        the sort, the filter, the columns and their widths stay, and the cursor goes back to its
        record when :meth:`append_rows` brings it (found by its `key` columns' values, by every
        value without a key), on the same screen line, unless the cursor is moved to another row
        first; :meth:`settle_cursor` says when no more rows are coming.
        """
        goal = self._goal_here(key) if keep_view else None
        self._model.clear(keep_view=keep_view)
        self._cursor_row = 0
        self._goal = goal
        if keep_view:
            self._changed()  # (the columns scrolled to stay in view)
        else:
            self._measure(initial=True, reset=True)
            self._changed(scroll_home=True)

    def replace_rows(self, rows: Iterable[Sequence[Any] | Mapping[str, Any]] | Encoded, *, key: Sequence[str] = ()) -> None:
        """All rows replaced (fresh data behind what the cache showed): the view stays (:meth:`clear` with
        `keep_view`), and so does the cursor: on its record, else on its row number, with the scroll."""
        self.clear(keep_view=True, key=key)
        self.append_rows(rows if isinstance(rows, (list, Encoded)) else list(rows))
        self._measure(initial=True, reset=True)  # (widths may shrink: the rows are all new)
        self.settle_cursor()
        self._update_layout()
        self._update_virtual_size()
        self.refresh()
        self._schedule_indexing()
        self._post_cursor_moved()

    def settle_cursor(self) -> None:
        """No more rows are coming after :meth:`clear` with `keep_view`: a cursor whose record did not come back
        goes to the row number it was on (the nearest there is), with the scroll it had."""
        goal, self._goal = self._goal, None
        if goal is None or not self._model.row_count:
            return
        self._place_cursor(goal.row, goal.line)

    def add_columns(self, columns: Iterable[ColumnSpec]) -> None:
        """Add columns after the others, empty in the rows there are: unlike :meth:`set_columns`, the rows,
        the sort, the filter and the columns' order and visibility stay (records carrying a new field)."""
        name = self._cursor_column_name()
        self._model.add_columns(columns)
        self._columns_rearranged(name)

    def sort_by(self, column: str | int | Column | None, descending: bool = False) -> None:
        """Sort by a column (name, model index or Column); ``None`` restores arrival order.

        The cursor stays on the same record.  Posts :class:`SortChanged`.
        """
        model = self._model
        cursor_id = model.row_id(self._cursor_row) if model.row_count else None
        model.sort_by(column, descending)
        self._follow_record(cursor_id)
        sort_col = model.sort_column
        self.post_message(self.SortChanged(self, sort_col.name if sort_col else None, model.sort_descending))

    def set_filter(self, text: str) -> None:
        """Filter rows (syntax: :mod:`flextui.render.table`).  Posts :class:`FilterChanged`."""
        model = self._model
        cursor_id = model.row_id(self._cursor_row) if model.row_count else None
        model.set_filter(text)
        self._follow_record(cursor_id)
        self.post_message(self.FilterChanged(self, text, model.row_count, model.total_count))

    def hide_column(self, column: str | int | Column) -> None:
        name = self._cursor_column_name()
        self._model.hide_column(column)
        self._columns_rearranged(name)

    def show_column(self, column: str | int | Column) -> None:
        name = self._cursor_column_name()
        self._model.show_column(column)
        self._columns_rearranged(name)

    def move_column(self, column: str | int | Column, position: int) -> None:
        """Move a column to ``position`` in the display order (the cursor follows its column)."""
        name = self._cursor_column_name()
        self._model.move_column(column, position)
        self._columns_rearranged(name)

    def current_row(self) -> dict[str, Any] | None:
        """The cursor row as ``{column name: raw value}``, or ``None`` when empty."""
        if not self._model.row_count:
            return None
        return self._model.row_dict(self._cursor_row)

    def current_cell(self) -> Any:
        """The raw value under the cursor (``None`` when empty)."""
        cols = self._model.visible_columns
        if not self._model.row_count or not cols:
            return None
        return self._model.row(self._cursor_row)[cols[self._cursor_col].index]

    def current_column(self) -> Column | None:
        cols = self._model.visible_columns
        return cols[self._cursor_col] if cols else None

    def move_cursor(self, row: int | None = None, column: int | None = None, *, scroll: bool = True) -> None:
        """Move the cursor (clamped); scrolls it into view and posts :class:`CursorMoved`.

        A row chosen here (by a key, a click or the caller) is where the cursor stays: the record
        it was on before the rows were replaced is no longer sought (:meth:`clear`).
        """
        if row is not None:
            self._goal = None
        n = self._model.row_count
        ncols = len(self._model.visible_columns)
        new_row = self._cursor_row if row is None else max(0, min(row, n - 1)) if n else 0
        new_col = self._cursor_col if column is None else max(0, min(column, ncols - 1)) if ncols else 0
        old_row, old_col = self._cursor_row, self._cursor_col
        if (new_row, new_col) == (old_row, old_col):
            if scroll:
                self._scroll_cursor_into_view()
            return
        self._cursor_row, self._cursor_col = new_row, new_col
        if new_col != old_col:
            self.refresh()  # the column highlight touches every line
        else:
            header = self._header_height
            self.refresh_line(old_row + header)
            self.refresh_line(new_row + header)
        if scroll:
            self._scroll_cursor_into_view()
        self._post_cursor_moved()

    def refresh_view(self) -> None:
        """Repaint after the model was changed directly (not through this widget)."""
        self._cursor_row = min(self._cursor_row, max(0, self._model.row_count - 1))
        self._cursor_col = min(self._cursor_col, max(0, len(self._model.visible_columns) - 1))
        self._measure(initial=True)
        self._changed()

    def refresh_column_widths(self) -> None:
        """Re-measure column widths from a sample of the current view (may shrink them)."""
        self._measure(initial=True, reset=True, from_view=True)
        self._changed()

    # ------------------------------------------------------------------ actions

    def _visible_row_count(self) -> int:
        return max(1, self.scrollable_content_region.height - self._header_height)

    def action_cursor_up(self) -> None:
        self.move_cursor(row=self._cursor_row - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(row=self._cursor_row + 1)

    def action_cursor_left(self) -> None:
        self.move_cursor(column=self._cursor_col - 1)

    def action_cursor_right(self) -> None:
        self.move_cursor(column=self._cursor_col + 1)

    def action_page_up(self) -> None:
        page = max(1, self._visible_row_count() - 1)
        self.scroll_to(y=max(0, self.scroll_y - page), animate=False)
        self.move_cursor(row=self._cursor_row - page)

    def action_page_down(self) -> None:
        page = max(1, self._visible_row_count() - 1)
        self.scroll_to(y=self.scroll_y + page, animate=False)
        self.move_cursor(row=self._cursor_row + page)

    def action_first_row(self) -> None:
        self.move_cursor(row=0)

    def action_last_row(self) -> None:
        self.move_cursor(row=self._model.row_count - 1)

    def action_first_column(self) -> None:
        self.move_cursor(column=0)

    def action_last_column(self) -> None:
        self.move_cursor(column=len(self._model.visible_columns) - 1)

    def action_select_row(self) -> None:
        model = self._model
        if not model.row_count:
            return
        pos = self._cursor_row
        self.post_message(self.RowSelected(self, pos, model.row_dict(pos), model.row_id(pos)))

    def _toggle_sort(self, descending: bool) -> None:
        col = self.current_column()
        if col is None:
            return
        model = self._model
        sort_col = model.sort_column
        if sort_col is not None and sort_col.index == col.index and model.sort_descending == descending:
            self.sort_by(None)
        else:
            self.sort_by(col, descending)

    def action_sort_ascending(self) -> None:
        self._toggle_sort(False)

    def action_sort_descending(self) -> None:
        self._toggle_sort(True)

    # ------------------------------------------------------------------ mouse

    def _column_at(self, x: int) -> int | None:
        """Visible-column index at content x (screen-relative), or None."""
        if not self._col_x:
            return None
        if x < self._fixed_width:
            vx = x
        else:
            vx = x + int(self.scroll_x)
        if vx >= self._total_width:
            return None
        return max(0, bisect_right(self._col_x, vx) - 1)

    async def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        column = self._column_at(offset.x)
        header = self._header_height
        if offset.y < header:
            if column is not None:
                col = self._model.visible_columns[column]
                sort_col = self._model.sort_column
                descending = sort_col is not None and sort_col.index == col.index and not self._model.sort_descending
                self.move_cursor(column=column)
                self.sort_by(col, descending)
            event.stop()
            return
        row = int(self.scroll_y) + offset.y - header
        if 0 <= row < self._model.row_count:
            self.move_cursor(row=row, column=column)
            if event.chain == 2:
                self.action_select_row()
        event.stop()

    # ------------------------------------------------------------------ reactives / styles

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """A scrollbar that appears after the view scrolled (rows arrived, then the cursor moved down) starts
        where the view is: Textual moves a scrollbar only while it is shown, so it would show the top."""
        if shown:
            self.vertical_scrollbar.position = self.scroll_y

    def watch_show_horizontal_scrollbar(self, shown: bool) -> None:
        if shown:
            self.horizontal_scrollbar.position = self.scroll_x

    def watch_zebra_stripes(self) -> None:
        self.refresh()

    def watch_fixed_columns(self) -> None:
        self._update_layout()
        self.refresh()

    def watch_show_header(self) -> None:
        self._update_virtual_size()
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._update_virtual_size()  # the last column takes the free width, which changed
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._style_version += 1
        self._styles.clear()
        self._line_cache.clear()
        self.refresh()

    def _on_focus(self, event: events.Focus) -> None:
        self._style_version += 1
        self._styles.clear()
        self.refresh()

    def _on_blur(self, event: events.Blur) -> None:
        self._style_version += 1
        self._styles.clear()
        self.refresh()

    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            base = self.rich_style
            if name == "base":
                style = base
            elif "+" in name:  # combined component styles, e.g. "even+cursor-column"
                style = base
                for part in name.split("+"):
                    style = style + self.get_component_rich_style(f"datagrid--{part}")
            else:
                style = base + self.get_component_rich_style(f"datagrid--{name}")
            self._styles[name] = style
        return style

    # ------------------------------------------------------------------ internals

    @property
    def _header_height(self) -> int:
        return 1 if self.show_header else 0

    def _cursor_column_name(self) -> str | None:
        col = self.current_column()
        return col.name if col else None

    def _columns_rearranged(self, cursor_name: str | None) -> None:
        cols = self._model.visible_columns
        if cursor_name is not None:
            for i, col in enumerate(cols):
                if col.name == cursor_name:
                    self._cursor_col = i
                    break
        self._cursor_col = max(0, min(self._cursor_col, len(cols) - 1))
        self._measure()
        self._changed()
        self._schedule_indexing()
        self.post_message(self.ColumnsChanged(self))

    def _goal_here(self, key: Sequence[str]) -> _CursorGoal | None:
        """The record under the cursor, to find again among rows to come: its `key` columns' values
        (every column's when a key column is missing or empty), its row number and screen line."""
        model = self._model
        if not model.row_count:
            return None
        row = model.row(self._cursor_row)
        columns = [model.find_column(name) for name in key]
        named = {c.index: row[c.index] for c in columns if c is not None}
        if not key or len(named) != len(key) or None in named.values():
            named = dict(enumerate(row))
        return _CursorGoal(named, self._cursor_row, self._cursor_row - round(self.scroll_y))

    def _seek_goal(self, start: int) -> None:
        """Rows from `start` were appended: if the sought record is among them, the cursor goes to it."""
        goal = self._goal
        assert goal is not None
        model = self._model
        row_id = model.find_row(goal.values, start)
        if row_id is None:
            return
        self._goal = None
        pos = model.position_of(row_id)
        if pos is not None:  # (else its values no longer pass the filter: the cursor stays)
            self._place_cursor(pos, goal.line)

    def _place_cursor(self, row: int, line: int) -> None:
        """The cursor to `row` (clamped), on screen `line` where the rows allow: now, and once more when the
        screen is laid out (the rows just come may bring scrollbars, and with them one line fewer)."""
        self._cursor_row = row = max(0, min(row, self._model.row_count - 1))
        self._scroll_to_line(row, line)
        if self.is_mounted:
            after_refresh(self, self._scroll_to_line, row, line)
        self.refresh()
        self._post_cursor_moved()

    def _scroll_to_line(self, row: int, line: int) -> None:
        if self._cursor_row != row:  # moved since
            return
        if self.is_mounted:
            self.scroll_to(y=max(0, row - line), animate=False)
        self._scroll_cursor_into_view()

    def _follow_record(self, row_id: int | None) -> None:
        """After sort/filter: keep the cursor on ``row_id`` if still in view, else clamp."""
        model = self._model
        old = self._cursor_row
        pos = model.position_of(row_id) if row_id is not None else None
        if pos is None:
            pos = min(old, max(0, model.row_count - 1))
        self._cursor_row = pos
        self._changed()
        if pos != old:
            self._post_cursor_moved()

    def _changed(self, *, scroll_home: bool = False) -> None:
        """Everything may look different: new layout, virtual size, full repaint."""
        self._update_layout()
        self._update_virtual_size()
        if scroll_home:
            if self.is_mounted:
                self.scroll_to(0, 0, animate=False)
        else:
            self._scroll_cursor_into_view()
        self.refresh()

    def _post_cursor_moved(self) -> None:
        self.post_message(self.CursorMoved(self, self._cursor_row, self._cursor_col, self._cursor_column_name()))

    def _measure(self, start: int = 0, *, initial: bool = False, reset: bool = False, from_view: bool = False) -> bool:
        """Grow column widths from a sample of rows; returns True if any width changed.

        ``start``: the first row id of a newly appended page (sampled with a stride).
        ``initial``: also sample the first rows of the data.  Never measures all rows.
        """
        model = self._model
        rows = model.rows
        if reset:
            self._widths.clear()
        sample: list[int] = []  # row ids
        n = self._sample_rows
        total = len(rows)
        if from_view:
            ids = model.view_ids()
            count = len(ids)
            head = [ids[i] for i in range(min(count, 2 * n))]
            tail = [ids[i] for i in range(max(2 * n, count - n), count)]
            stride = max(1, count // n)
            mid = [ids[i] for i in range(0, count, stride)]
            sample = head + tail + mid
        else:
            if initial:
                sample.extend(range(min(total, 2 * n)))
            page = total - start
            if page > 0:
                stride = max(1, page // n)
                sample.extend(range(start, total, stride))
                sample.append(total - 1)
        changed = False
        widths = self._widths
        for col in model.columns:
            ci = col.index
            if col.width is not None:
                width = max(1, col.width)
            else:
                width = max(widths.get(ci, 0), cell_len(col.title) + 2)  # room for " ▲"
                cap = self._max_width
                if width < cap:
                    ctype = col.type
                    for v in rows.column(ci).take(sample):  # a column's sampled values, not rows: the model keeps columns
                        if v is None:
                            continue
                        text = v if v.__class__ is str and v.isascii() and v.isprintable() else format_value(v, ctype)
                        w = len(text) if text.isascii() else cell_len(text)
                        if w > width:
                            width = w
                            if width >= cap:
                                width = cap
                                break
            if widths.get(ci) != width:
                widths[ci] = width
                changed = True
        if changed:
            self._widths_version += 1
            self._update_layout()
        return changed

    def _update_layout(self) -> None:
        cols = self._model.visible_columns
        room = self.scrollable_content_region.width if self.is_mounted else 0
        key = (self._widths_version, tuple(c.index for c in cols), self.fixed_columns, room)
        if key == self._layout_key:
            return
        self._layout_key = key
        x = 0
        col_x: list[int] = []
        col_w: list[int] = []
        for col in cols:
            w = self._widths.get(col.index, cell_len(col.title) + 2) + 2 * _PAD
            col_x.append(x)
            col_w.append(w)
            x += w
        if col_w and 0 < x < room:  # the free width goes to the last column: its text is not cut while space stands empty
            col_w[-1] += room - x
            x = room
        self._col_x, self._col_w, self._total_width = col_x, col_w, x
        fixed = min(self.fixed_columns, len(cols))
        self._fixed_width = sum(col_w[:fixed])
        self._layout_version += 1

    def _update_virtual_size(self) -> None:
        self._update_layout()
        size = Size(self._total_width, self._model.row_count + self._header_height)
        old = self.virtual_size
        if size == old:
            return
        # Not the reactive's own refresh (repaint and layout): that repaints every visible line each time a
        # streamed page makes the grid longer (~10 KB a page over the wire). Whatever lines did change are
        # refreshed by the caller.
        self.set_reactive(DataGrid.virtual_size, size)
        if self.is_mounted and size.width == old.width and self._bar_stays(old.height) and self._bar_stays(size.height):
            self._scrollbar_soon()  # only longer or shorter, the bar stays: its thumb moves, nothing is laid out
        else:
            self.refresh(repaint=False, layout=True)

    def _bar_stays(self, height: int) -> bool:
        """Whether the vertical scrollbar is shown and `height` rows (with the header) still need it."""
        return self.show_vertical_scrollbar and height > self.container_size.height

    def _scrollbar_soon(self) -> None:
        """The scrollbar's thumb to the current length, at most every SCROLLBAR_EVERY seconds: a streamed page
        laid the screen out again (≈ 30 ms of the loop) and rewrote the bar's column (≈ 2.4 KB) each time."""
        if self._scrollbar_timer is not None:
            return
        wait = self._scrollbar_at + SCROLLBAR_EVERY - time.monotonic()
        if wait <= 0:
            self._move_thumb()
        else:
            self._scrollbar_timer = self.set_timer(wait, self._move_thumb)

    def _move_thumb(self) -> None:
        self._scrollbar_timer = None
        self._scrollbar_at = time.monotonic()
        if not self._bar_stays(self.virtual_size.height):
            self.refresh(repaint=False, layout=True)  # the bar comes or goes: a layout decides
            return
        self.vertical_scrollbar.window_virtual_size = self.virtual_size.height  # (repaints the bar alone, if its thumb moved)

    def _scroll_cursor_into_view(self) -> None:
        if not self.is_mounted:
            return
        region = self.scrollable_content_region
        rows_h = max(1, region.height - self._header_height)
        top = round(self.scroll_y)
        target_y: int | None = None
        row = self._cursor_row
        if row < top:
            target_y = row
        elif row >= top + rows_h:
            target_y = row - rows_h + 1
        target_x: int | None = None
        col = self._cursor_col
        if self._col_x and col < min(self.fixed_columns, len(self._col_x)):
            target_x = 0  # a fixed column is always visible; show the start of the rest
        elif self._col_x:
            left = round(self.scroll_x)
            x0, w = self._col_x[col], self._col_w[col]
            view_left = left + self._fixed_width
            view_right = left + region.width
            if x0 < view_left:
                target_x = x0 - self._fixed_width
            elif x0 + w > view_right:
                target_x = min(x0 - self._fixed_width, x0 + w - region.width)
        if target_x is not None or target_y is not None:
            self.scroll_to(x=target_x, y=target_y, animate=False, force=True)

    def _schedule_indexing(self, *, postpone: bool = False) -> None:
        """Build the search index in idle steps, starting a quarter second from now; `postpone`: rows are
        streaming in, so put off any step already due (indexing between pages held the loop, and keys)."""
        if not self._search_index or not self.is_mounted or self._model.search_index_complete:
            return
        if self._index_timer is not None:
            if not postpone:
                return
            self._index_timer.stop()
        self._index_timer = self.set_timer(0.25, self._index_step)

    def _index_step(self) -> None:
        self._index_timer = None
        if not self._model.build_search_index(INDEX_STEP):
            self._index_timer = self.set_timer(0.02, self._index_step)

    def on_mount(self) -> None:
        # (ScrollView.on_mount is dispatched separately by Textual's MRO-wide handler lookup.)
        self._schedule_indexing()

    # ------------------------------------------------------------------ rendering

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        visible = self.scrollable_content_region.width  # (part of the keys: where the edge's "…" goes)
        scroll_x, scroll_y = self.scroll_offset
        header = self._header_height
        if y < header:
            key: tuple[Any, ...] = (
                "h",
                self._layout_version,
                self._style_version,
                self._model.generation,
                self._cursor_col,
                scroll_x,
                width,
                visible,
            )
            strip = self._line_cache.get(key)
            if strip is None:
                strip = self._crop(self._render_header(), scroll_x, width)
                self._line_cache[key] = strip
            return strip
        pos = scroll_y + y - header
        model = self._model
        if pos >= model.row_count:
            if pos == 0 and model.columns:
                text = " No matching rows" if model.total_count else f" {self._empty_text}"
                style = self._style("empty")
                return Strip([Segment(_fit(text, width, False), style)], width)
            return Strip.blank(width, self._style("base"))
        cursor_here = pos == self._cursor_row
        key = (
            self._layout_version,
            self._style_version,
            model.generation,
            self.zebra_stripes,
            pos,
            cursor_here,
            self._cursor_col,
            scroll_x,
            width,
            visible,
        )
        strip = self._line_cache.get(key)
        if strip is None:
            strip = self._crop(self._render_row(pos, cursor_here), scroll_x, width)
            self._line_cache[key] = strip
        return strip

    def _crop(self, full: Strip, scroll_x: int, width: int) -> Strip:
        fixed = self._fixed_width
        if fixed:
            if fixed >= width:
                line = full.crop(0, width)
            else:
                line = Strip.join([full.crop(0, fixed), full.crop(fixed + scroll_x, scroll_x + width)])
        else:
            line = full.crop(scroll_x, scroll_x + width)
        line = line.extend_cell_length(width, self._style("base"))
        if scroll_x and fixed < width and not full.crop(fixed + scroll_x - 1, fixed + scroll_x).text.isspace():
            line = more_left(line, fixed)  # the scroll cuts into a value: its first cell shown is "…"
        visible = min(width, self.scrollable_content_region.width) if self.is_mounted else width  # (a scrollbar covers the rest)
        if scroll_x + visible < self._total_width:  # more columns to the right: the cut one ends "…"
            line = Strip.join([more_right(line.crop(0, visible), visible), line.crop(visible, width)])
        return line.simplify()  # cells that share a style go out as one run: one escape sequence, not one per cell

    def _render_header(self) -> Strip:
        model = self._model
        cols = model.visible_columns
        sort_col = model.sort_column
        arrow = " ▼" if model.sort_descending else " ▲"
        header_style = self._style("header")
        cursor_style = self._style("header-cursor")
        cursor_col = self._cursor_col
        segments: list[Segment] = []
        pad = " " * _PAD
        for i, col in enumerate(cols):
            title = col.title
            if sort_col is not None and sort_col.index == col.index:
                title += arrow
            text = _fit(title, self._col_w[i] - 2 * _PAD, col.align == "right")
            segments.append(Segment(pad + text + pad, cursor_style if i == cursor_col else header_style))
        return Strip(segments, self._total_width)

    def _render_row(self, pos: int, cursor_here: bool) -> Strip:
        model = self._model
        cols = model.visible_columns
        cells = model.display_cells(pos)
        cursor_col = self._cursor_col
        zebra = "even" if self.zebra_stripes and pos % 2 == 0 else ""
        fixed = min(self.fixed_columns, len(cols))
        if cursor_here:
            row_style = self._style("cursor-row")
            fixed_style = self._style("fixed+cursor-row")
            col_style = self._style("cursor")
        else:
            row_style = self._style(f"{zebra}-row" if zebra else "base")
            fixed_style = self._style("fixed")
            col_style = self._style(f"{zebra}-row+cursor-column" if zebra else "cursor-column")
        segments: list[Segment] = []
        pad = " " * _PAD
        col_w = self._col_w
        for i, col in enumerate(cols):
            text = _fit(cells[i], col_w[i] - 2 * _PAD, col.numeric)
            if i == cursor_col:
                style = col_style
            elif i < fixed:
                style = fixed_style
            else:
                style = row_style
            segments.append(Segment(pad + text + pad, style))
        return Strip(segments, self._total_width)
