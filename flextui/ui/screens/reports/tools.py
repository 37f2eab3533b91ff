"""Analysis tools over a report's results, each on the current view (filtered and sorted).

* `FrequencyScreen` (F): the values of one column with their counts and share,
  most frequent first, like VisiData's Shift+F (the 1,000 most frequent: a
  column of ids has as many values as rows); each bar is its share of the rows
  in view; enter narrows the results to the chosen value (the filter is added
  to what is there).
* `StatsScreen` (I): per visible column: rows, nulls, distinct values,
  min/max, and mean/sum for numbers, computed a column at a time so the
  screen never freezes.
* `ChartScreen` (g): records per day of a date column (the report's own date
  column by default, or the cursor column when it holds dates); ←/→ pick
  another date column.
* `RowDetailScreen` (enter): every field of a record (hidden columns too),
  with epoch-millisecond times read out; copy a value or the whole record.
* `ColumnChooserScreen` (C): show, hide and reorder columns, live.

Server values are shown as `Text` or through the grid, never as markup.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.strip import Strip
from textual.widgets import Button, DataTable, Label, SelectionList
from textual.widgets._toggle_button import ToggleButton
from textual.widgets.option_list import OptionDoesNotExist
from textual.widgets.selection_list import Selection

from flextui.api.filters import ReportType
from flextui.render.table import Column, GridModel, format_value
from flextui.render.text import clean, clean_lines, json_dumps
from flextui.render.words import plural
from flextui.ui.appref import flex_app
from flextui.ui.keyhint import bound_key, hint
from flextui.ui.keys import FlexModal
from flextui.ui.later import after_refresh
from flextui.ui.widgets.chart import BarChart, compact_number
from flextui.ui.widgets.dialogs import ValueScreen
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.row_table import RowTable

BAR_WIDTH = 24
FREQUENCY_ROWS = 1000
"""Values the frequency table lists, the most frequent first (a column of ids has as many as rows)."""
BLOCKS = " ▏▎▍▌▋▊▉█"


def bar(fraction: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of `fraction` (0–1) of `width` cells, in eighths."""
    fraction = max(0.0, min(1.0, fraction))
    eighths = round(fraction * width * 8)
    if fraction > 0 and eighths == 0:
        eighths = 1
    full, rest = divmod(eighths, 8)
    return "█" * full + (BLOCKS[rest] if rest else "")


def share_text(percent: float) -> str:
    """A share of the rows as the frequency table writes it: `<0.1%` for a value that is there but rounds to none."""
    return "<0.1%" if 0 < percent < 0.05 else f"{percent:.1f}%"


def filter_term(column: str, value: Any) -> str:
    """A results filter term matching exactly `value` in `column` (grid filter syntax)."""
    if value is None:
        return f"{column}="
    text = format_value(value)
    if text == "":
        return f"{column}="
    if not re.search(r"[\s\"']", text):
        return f"{column}={text}"
    if '"' not in text:
        return f'{column}="{text}"'
    if "'" not in text:
        return f"{column}='{text}'"
    pattern = re.escape(text)
    pattern = re.sub(r"\\?\s", r"\\s", pattern).replace('"', ".").replace("'", ".")
    return f"{column}~^{pattern}$"


def plain(value: Any) -> str:
    """A raw value as copied text: strings as they are, others as JSON would write them."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json_dumps(value)
    return str(value)


def readable(value: Any) -> str:
    """A value to read in a dialog: line breaks kept, every other control character made visible."""
    return clean_lines(plain(value))


def epoch_ms_text(value: Any) -> str:
    """ "2026-11-14 06:51:55Z" for an epoch-milliseconds number, else ""."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 1e11 <= value < 1e14:
        return ""
    try:
        moment = datetime.fromtimestamp(value / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return ""
    return moment.strftime("%Y-%m-%d %H:%M:%SZ")


def date_columns(rtype: ReportType | None, model: GridModel) -> list[str]:
    """Columns that place records in days: the report's date column first, then date/datetime columns."""
    names: list[str] = []
    if rtype is not None:
        if rtype.date_field and model.find_column(rtype.date_field) is not None:
            names.append(rtype.date_field)
        names += [c.name for c in rtype.columns if c.type in ("date", "datetime") and c.name not in names and model.find_column(c.name)]
    for col in model.columns:
        if col.name not in names and col.type in ("date", "datetime", "epochms"):
            names.append(col.name)
    return names


def day_series(model: GridModel, column: str) -> list[tuple[str, float]]:
    """(day, records) for every day from the first to the last record of the view (empty days too)."""
    counts = model.per_day_counts(column, fill_gaps=True)
    return [(day.isoformat(), float(n)) for day, n in counts]


class _ToolScreen(FlexModal[Any]):
    """A large modal panel over the results."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Close", id="report_tool.close")]

    DEFAULT_CSS = """
    _ToolScreen { align: center middle; }
    _ToolScreen > Vertical { width: 96%; height: 92%; border: thick $primary; background: $surface; padding: 0 1; }
    _ToolScreen .tool-title { text-style: bold; height: 1; }
    _ToolScreen .tool-note { color: $text-muted; height: auto; width: 100%; }
    _ToolScreen DataGrid { height: 1fr; }
    """


class FrequencyScreen(_ToolScreen):
    """Values of one column over the view, the most frequent first: count, share and a bar as long as the share
    (a value on every row fills it; one among 187,000 is a sliver); enter filters the results to it."""

    BINDINGS = [Binding("enter", "choose", "Filter to value", id="report_freq.choose", priority=True)]

    def __init__(self, model: GridModel, column: str, *, loading: bool = False) -> None:
        super().__init__()
        self.source = model
        self.column = model.column(column)
        self.partial = loading  # not `loading`: that is Textual's own spinner overlay, which would cover the tool
        self.counts = model.frequencies(self.column, FREQUENCY_ROWS)
        self.rows = self.counts.rows
        self.view_count = model.row_count

    def compose(self) -> ComposeResult:
        col = self.column
        counts = self.counts
        facts = [f"{plural(self.view_count, 'row')} in view", plural(counts.distinct, "distinct value")]
        if not counts.complete:
            facts.append(f"the {len(self.rows):,} most frequent shown")
        if counts.nulls:
            facts.append(f"{counts.nulls:,} empty")
        if self.partial:
            facts.append("counts of the rows loaded when this opened (the report was still loading)")
        grid = DataGrid(
            [
                Column("value", "str", label=col.title),
                Column("count", "int"),
                Column("percent", "str", label="share"),
                Column("histogram", "str", label=""),
            ],
            [
                (
                    format_value(r.value, col.type) if r.value is not None else "∅ empty",
                    r.count,
                    share_text(r.percent).rjust(6),
                    bar(r.percent / 100),
                )
                for r in self.rows
            ],
            zebra_stripes=True,
            max_column_width=48,
            id="freq-grid",
        )
        with Vertical():
            yield Label(Text(f"Frequency of {col.title}"), classes="tool-title")
            yield Label(Text(" · ".join(facts)), classes="tool-note", id="freq-facts")
            yield grid
            yield Label(Text("enter: show only rows with this value · { } sort · escape: close"), classes="tool-note")

    def on_mount(self) -> None:
        self.query_one(DataGrid).focus()
        after_refresh(self, self._fit)

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """As narrow as its columns and, with few values, as short as its rows (three values filled a box of 36 lines)."""
        grid = self.query_one(DataGrid)
        box = self.query_one(Vertical)
        screen_w, screen_h = self.size
        chrome_w = 2 + 2 + grid.styles.scrollbar_size_vertical  # thick border, padding, the grid's scrollbar
        width = max(grid.content_width + chrome_w, 70)  # (70: the keys' note on one line)
        fits = width < screen_w * 0.96
        box.styles.width = width if fits else "96%"
        box.styles.max_height = "92%"  # (a facts line wrapped on a small screen)
        lines = grid.row_count + 1 if grid.row_count else 3  # the header; with no rows, "No rows" (drawn past the end)
        if grid.content_width + chrome_w > (width if fits else int(screen_w * 0.96)):
            lines += grid.styles.scrollbar_size_horizontal  # wider than the box: a scrollbar under the rows
        room = int(screen_h * 0.92) - 2 - 3  # the border; title, facts and keys
        if lines <= room:
            grid.styles.height = lines
            box.styles.height = "auto"
        else:
            grid.styles.height = "1fr"
            box.styles.height = "92%"

    def chosen(self) -> Any:
        grid = self.query_one(DataGrid)
        if not grid.row_count:
            return None
        return self.rows[grid.model.row_id(grid.cursor_row)]

    def action_choose(self) -> None:
        row = self.chosen()
        if row is not None:
            self.dismiss(filter_term(self.column.name, row.value))

    @on(DataGrid.RowSelected)
    def _selected(self, event: DataGrid.RowSelected) -> None:
        event.stop()
        self.action_choose()


def _stat_text(value: Any, ctype: str) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
            return f"{int(value):,}" if ctype == "int" else format_value(value)
        return f"{value:,.4g}" if abs(value) >= 1e6 else format_value(round(value, 4))
    return format_value(value, ctype)


class StatsScreen(_ToolScreen):
    """Statistics of every visible column over the view, the cursor column first in focus."""

    STAT_COLUMNS = [
        Column("column", "str"),
        Column("type", "str"),
        Column("rows", "int"),
        Column("nulls", "int"),
        Column("distinct", "int"),
        Column("mean", "str"),
        Column("sum", "str"),
        Column("min", "str"),
        Column("max", "str"),
    ]

    def __init__(self, model: GridModel, focus_column: str | None, rtype: ReportType | None = None, *, loading: bool = False) -> None:
        super().__init__()
        self.source = model
        self.focus_column = focus_column
        self.rtype = rtype
        self.partial = loading  # not `loading`: that is Textual's own spinner overlay, which would cover the tool
        self.columns = list(model.visible_columns)
        self.done = 0

    def compose(self) -> ComposeResult:
        note = f"{self.source.row_count:,} rows in view"
        if self.source.filter_text:
            note += f" (filter {self.source.filter_text!r})"
        if self.partial:
            note += " · of the rows loaded when this opened (the report was still loading)"
        with Vertical():
            yield Label(Text("Column statistics"), classes="tool-title")
            yield Label(Text(clean(note)), classes="tool-note", id="stats-facts")
            yield DataGrid(self.STAT_COLUMNS, zebra_stripes=True, fixed_columns=1, max_column_width=22, id="stats-grid")
            yield Label(Text("min/max of text is alphabetical · mean and sum for numbers · escape: close"), classes="tool-note")

    def on_mount(self) -> None:
        self.query_one(DataGrid).focus()
        self._compute()

    def _type_of(self, col: Column) -> str:
        if col.type == "epochms":
            return "epoch ms (UTC)"
        if self.rtype is not None:
            model_col = self.rtype.column(col.name)
            if model_col is not None:
                return model_col.type
        return col.type

    @work(group="report-stats", exclusive=True)
    async def _compute(self) -> None:
        grid = self.query_one(DataGrid)
        for col in self.columns:
            stats = self.source.column_stats(col)
            grid.append_rows(
                [
                    (
                        col.title,
                        self._type_of(col),
                        stats.count,
                        stats.nulls,
                        stats.distinct,
                        _stat_text(stats.mean, "float") if stats.mean is not None else "",
                        _stat_text(stats.sum, col.type) if stats.sum is not None else "",
                        _stat_text(stats.min, col.type),
                        _stat_text(stats.max, col.type),
                    )
                ]
            )
            self.done += 1
            if col.name == self.focus_column:
                grid.move_cursor(row=grid.row_count - 1)
            await asyncio.sleep(0)  # one column at a time: keys stay answered


class ChartScreen(_ToolScreen):
    """Records per day of a date column over the view (←/→: another date column)."""

    BINDINGS = [
        Binding("left,shift+tab", "other(-1)", "Previous date column", id="report_chart.prev"),
        Binding("right,tab", "other(1)", "Next date column", id="report_chart.next"),
    ]

    DEFAULT_CSS = """
    ChartScreen BarChart { height: 1fr; }
    """

    def __init__(self, model: GridModel, columns: Sequence[str], start: str | None = None, *, loading: bool = False) -> None:
        super().__init__()
        self.source = model
        self.columns = list(columns)
        self.index = self.columns.index(start) if start in self.columns else 0
        self.partial = loading  # not `loading`: that is Textual's own spinner overlay, which would cover the tool

    @property
    def column(self) -> str | None:
        return self.columns[self.index] if self.columns else None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("", classes="tool-title", id="chart-title")
            yield BarChart([], title="", noun="days", empty_text="no dated records in view", id="chart")
            yield Label("", classes="tool-note", id="chart-facts")
            yield Label(Text("←/→: another date column · escape: close"), classes="tool-note")

    def on_mount(self) -> None:
        self._draw()

    def series(self) -> list[tuple[str, float]]:
        return day_series(self.source, self.column) if self.column else []

    def _draw(self) -> None:
        column = self.column
        title = self.query_one("#chart-title", Label)
        chart = self.query_one(BarChart)
        facts = self.query_one("#chart-facts", Label)
        if column is None:
            title.update("Records per day")
            chart.update([], title="", empty_text="this report has no date column")
            facts.update("")
            return
        series = self.series()
        title.update(Text(clean(f"Records per day by {column}")))
        one_year = bool(series) and series[0][0][:4] == series[-1][0][:4]
        chart.update([(label[5:] if one_year else label, v) for label, v in series], title=f"{self.source.row_count:,} records in view")
        counts = [v for _, v in series]
        parts: list[str] = []
        if series:
            total = sum(counts)
            busiest = max(range(len(series)), key=lambda i: counts[i])
            quietest = min(range(len(series)), key=lambda i: counts[i])
            parts = [
                f"{len(series)} days, {series[0][0]} to {series[-1][0]}",
                f"busiest {series[busiest][0]} ({compact_number(counts[busiest])})",
                f"quietest {series[quietest][0]} ({compact_number(counts[quietest])})",
                f"mean {total / len(series):,.1f} a day",
            ]
            undated = self.source.row_count - int(total)
            if undated:
                parts.append(f"{undated:,} without a date")
        if self.partial:
            parts.append("of the rows loaded when this opened (the report was still loading)")
        if len(self.columns) > 1:
            parts.append(f"date columns: {', '.join(self.columns)}")
        facts.update(Text(clean(" · ".join(parts))))

    def action_other(self, step: int) -> None:
        if len(self.columns) > 1:
            self.index = (self.index + step) % len(self.columns)
            self._draw()


class RowDetailScreen(_ToolScreen):
    """Every field of one record: c copies a value, Y the record as JSON, v shows a long value."""

    BINDINGS = [
        Binding("c", "copy_value", "Copy value", id="report_row.copy_value"),
        Binding("Y,shift+y", "copy_record", "Copy record JSON", id="report_row.copy_record"),
        Binding("v", "view_value", "View value", id="report_row.view"),
    ]

    DEFAULT_CSS = """
    RowDetailScreen DataTable { height: 1fr; }
    """

    def __init__(self, record: dict[str, Any], model: GridModel, title: str, focus_column: str | None = None) -> None:
        super().__init__()
        self.record = record
        self.model = model
        self._title = title
        self.focus_column = focus_column
        self.names = [c.name for c in model.columns]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(clean(self._title)), classes="tool-title")
            yield RowTable(cursor_type="row", zebra_stripes=True, id="row-table")
            yield Label(Text(self.keys_hint()), classes="tool-note")

    def keys_hint(self) -> str:
        """The keys as bound here (and moved in [keys]): the hint typed by hand said `y` where the key is `Y`."""
        return hint(
            (bound_key(self, "report_row.copy_value"), "copy value"),
            (bound_key(self, "report_row.copy_record"), "copy the record as JSON"),
            (bound_key(self, "report_row.view"), "view a long value"),
            (bound_key(self, "report_tool.close"), "close"),
            between=": ",
        )

    def on_mount(self) -> None:
        table: DataTable[Text] = self.query_one(DataTable)
        table.add_column("Field", key="field")
        table.add_column("Value", key="value")
        table.add_column("", key="note")
        focus = 0
        for i, col in enumerate(self.model.columns):
            value = self.record.get(col.name)
            note = epoch_ms_text(value)
            if not col.visible:
                note = ("hidden · " + note) if note else "hidden"
            # as sent (an epoch-milliseconds time's number too: its time is the note beside it)
            shown = format_value(value, "auto" if col.type == "epochms" else col.type) if value is not None else "∅"
            table.add_row(Text(col.title, style="bold"), Text(shown, style="dim italic" if value is None else ""), Text(note, style="dim"))
            if col.name == self.focus_column:
                focus = i
        table.move_cursor(row=focus)
        table.focus()

    def current(self) -> tuple[str, Any]:
        row = self.query_one(DataTable).cursor_row
        name = self.names[row]
        return name, self.record.get(name)

    def action_copy_value(self) -> None:
        name, value = self.current()
        flex_app(self).copy_text(plain(value), f"{name} value")

    def action_copy_record(self) -> None:
        flex_app(self).copy_text(json_dumps(self.record, default=str), "record as JSON", lines=True)

    def action_view_value(self) -> None:
        name, value = self.current()
        self.app.push_screen(ValueScreen(f"{name}", readable(value)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_view_value()


class ColumnList(SelectionList[str]):
    """The chooser's list: a hidden column's box is empty (`▐ ▌`), a shown one's checked (`▐X▌`).

    Textual draws both boxes `▐X▌` and tells them apart by colour alone, which a colourless terminal,
    a screen reader or a capture of the screen does not show."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return strip
        segments = list(strip)
        # SelectionList.render_line puts the box first: its left side, its inside, its right side, a space.
        if selection.value in self._selected or len(segments) < 2 or segments[1].text != ToggleButton.BUTTON_INNER:
            return strip
        segments[1] = Segment(" " * len(ToggleButton.BUTTON_INNER), segments[1].style)
        return Strip(segments, strip.cell_length)


class ColumnChooserScreen(_ToolScreen):
    """Show/hide (space) and reorder (shift+↑/↓) the result columns; changes apply at once."""

    BINDINGS = [
        Binding("shift+up,K", "move(-1)", "Move up", id="report_columns.up"),
        Binding("shift+down,J", "move(1)", "Move down", id="report_columns.down"),
        Binding("asterisk", "show_all", "Show all", id="report_columns.all"),
    ]

    DEFAULT_CSS = """
    ColumnChooserScreen > Vertical { width: 64; max-width: 96%; }
    ColumnChooserScreen SelectionList { height: 1fr; }
    ColumnChooserScreen #cols-buttons { height: 1; }
    ColumnChooserScreen #cols-buttons Button { margin-right: 2; }
    """

    def __init__(self, grid: DataGrid) -> None:
        super().__init__()
        self.grid = grid

    @property
    def model(self) -> GridModel:
        return self.grid.model

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text("Columns"), classes="tool-title")
            yield Label("", classes="tool-note", id="cols-facts")
            listing = ColumnList(id="cols-list")
            yield listing
            yield Label(Text(self.keys_hint(listing)), classes="tool-note", id="cols-keys")
            with Horizontal(id="cols-buttons"):
                yield Button("Show all", id="cols-all", compact=True)
                yield Button("Done", id="cols-done", variant="primary", compact=True)

    def keys_hint(self, listing: ColumnList) -> str:
        """The keys as bound here (and moved in [keys]): a hint typed by hand named `a` for `*`."""
        return hint(
            (bound_key(listing, "select", prefer="space"), "show/hide"),
            ((bound_key(self, "report_columns.up"), bound_key(self, "report_columns.down")), "move"),
            (bound_key(self, "report_columns.all"), "show all"),
            (bound_key(self, "report_tool.close"), "done"),
            between=": ",
        )

    def on_mount(self) -> None:
        self._fill(0)
        self.query_one(SelectionList).focus()

    def ordered(self) -> list[Column]:
        return [self.model.columns[i] for i in self.model.order]

    def _fill(self, highlight: int) -> None:
        listing = self.query_one(SelectionList)
        listing.clear_options()
        listing.add_options([Selection(Text(c.title), c.name, c.visible) for c in self.ordered()])
        listing.highlighted = max(0, min(highlight, len(self.model.columns) - 1))
        visible = len(self.model.visible_columns)
        self.query_one("#cols-facts", Label).update(
            f"{visible} of {len(self.model.columns)} shown · exports and copies use the shown columns in this order"
        )

    @on(SelectionList.SelectionToggled)
    def _toggled(self, event: SelectionList.SelectionToggled[str]) -> None:
        name = event.selection.value
        col = self.model.column(name)
        at = event.selection_index
        if col.visible:
            if len(self.model.visible_columns) == 1:
                self.app.notify("At least one column stays shown", severity="warning", markup=False)
                self._fill(at)
                return
            self.grid.hide_column(name)
        else:
            self.grid.show_column(name)
        self._fill(at)

    def action_move(self, step: int) -> None:
        listing = self.query_one(SelectionList)
        at = listing.highlighted
        if at is None:
            return
        target = at + step
        if not 0 <= target < len(self.model.columns):
            return
        name = self.ordered()[at].name
        self.grid.move_column(name, target)
        self._fill(target)

    def action_show_all(self) -> None:
        at = self.query_one(SelectionList).highlighted or 0
        for col in self.model.columns:
            if not col.visible:
                self.grid.show_column(col.name)
        self._fill(at)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cols-all":
            self.action_show_all()
        else:
            self.dismiss(None)


__all__ = [
    "ChartScreen",
    "ColumnChooserScreen",
    "ColumnList",
    "FrequencyScreen",
    "RowDetailScreen",
    "StatsScreen",
    "bar",
    "date_columns",
    "day_series",
    "epoch_ms_text",
    "filter_term",
    "plain",
    "readable",
]
