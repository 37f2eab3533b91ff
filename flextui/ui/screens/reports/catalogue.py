"""The data report area's home: the report catalogue (`:reports`), and `:report GROUP`.

The catalogue lists the report groups the service offers (report-types, one
cached call) with their data models beside them: every column with its type,
which columns can be filtered and with which operators, and the column that
places a record in time. `/` searches group names, descriptions, column and
filter names alike ("which report has hostEntityID?"), and marks the matches.
Enter opens the filter builder for the group (`builder.py`), which runs
the report into the results screen (`results.py`), whose tools
(`tools.py`) and export (`export.py`) work on what is shown.

`:report GROUP` opens the builder directly (the kind's `for_kind`), and
`:report fulfillment accountID $sw 1012; productName $in A,B` fills in conditions.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Label, Static

from flextui import kinds
from flextui.api.filters import ReportType
from flextui.api.reports import ReportsService
from flextui.render.text import clean
from flextui.ui.screens.base import NOT_LOADED, AreaScreen
from flextui.ui.widgets.table import ResourceTable

CATALOGUE_COLUMNS = (
    kinds.Column("name", "Report", 16),
    kinds.Column("columns", "Cols", 4),
    kinds.Column("filters", "Filters", 7),
)


def matches(rtype: ReportType, text: str) -> bool:
    """Whether a group matches a catalogue search: its name, description, columns or filters (`!` inverts)."""
    inverse = text.startswith("!")
    needle = (text[1:] if inverse else text).strip().casefold()
    if not needle:
        return True
    hay = [
        rtype.group,
        rtype.description,
        *(c.name for c in rtype.columns),
        *(c.description for c in rtype.columns),
        *(f.name for f in rtype.filters),
    ]
    found = any(needle in h.casefold() for h in hay)
    return found != inverse


def _mark(text: Text, highlight: str) -> Text:
    needle = highlight.lstrip("!").strip()
    if needle:
        text.highlight_words([needle], style="reverse", case_sensitive=False)
    return text


def about_text(rtype: ReportType, highlight: str = "") -> Text:
    """A group's name, description and size, for the top of the detail pane (sentences: they wrap)."""
    text = Text()
    text.append(clean(rtype.group) + "\n", style="bold")
    if rtype.description:
        text.append(clean(rtype.description) + "\n", style="italic")
    facts = [f"{len(rtype.columns)} columns", f"{len(rtype.filters)} filters"]
    if rtype.date_field:
        facts.append(f"dated by {clean(rtype.date_field)}")
    text.append(" · ".join(facts))
    return _mark(text, highlight)


def model_text(rtype: ReportType, highlight: str = "") -> Text:
    """The data model of a group, for the detail pane (search matches marked): one line a filter or column."""
    text = Text(no_wrap=True, overflow="ellipsis")
    filters_by_column = {f.column: f for f in rtype.filters}
    name_w = min(max([len(c.name) for c in rtype.columns] + [len(f.name) for f in rtype.filters] + [6]), 22)
    text.append("Filters", style="bold")
    text.append("  (all conditions must match)\n", style="dim")
    if not rtype.filters:
        text.append("  none\n", style="dim")
    for filt in rtype.filters:
        text.append(f"  {clean(filt.name):<{name_w}} ", style="bold")
        text.append(f"{filt.type:<9}", style="dim")
        text.append(clean(" ".join(filt.operators)) or "by type")
        if filt.column != filt.name:
            text.append(f"  → {clean(filt.column)}", style="dim")
        text.append("\n")
    text.append("\nColumns", style="bold")
    text.append("  (◷ places records in time · ⚲ can be filtered)\n", style="dim")
    for col in rtype.columns:
        marks = ("◷" if col.name == rtype.date_field else " ") + ("⚲" if col.name in filters_by_column else " ")
        text.append(f"{marks} {clean(col.name):<{name_w}} ")
        text.append(f"{col.type:<9}", style="dim")
        if col.description:
            text.append(clean(col.description), style="dim italic")
        text.append("\n")
    text.rstrip()
    return _mark(text, highlight)


class ReportsScreen(AreaScreen):
    """The report catalogue: groups, their data models and filters; enter builds a query."""

    KIND = "reports"
    WATCHABLE = False
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"open": "run", "quick_run": "run"}

    BINDINGS = [
        Binding("enter", "open", "Build query", id="reports.open", priority=False),
        Binding("ctrl+g,f5", "quick_run", "Run last 7 days", id="reports.quick_run"),
        Binding("ctrl+r", "reload", "Refresh from the server", show=False, id="reports.reload"),
    ]

    DEFAULT_CSS = """
    ReportsScreen #rc-body { height: 1fr; }
    ReportsScreen #rc-table { width: 33; height: 1fr; }
    ReportsScreen #rc-detail { width: 1fr; height: 1fr; padding: 0 1; border-left: tall $panel; }
    ReportsScreen #rc-about { margin-bottom: 1; }
    ReportsScreen #rc-model { text-wrap: nowrap; text-overflow: ellipsis; }
    ReportsScreen #rc-model.-reason { text-wrap: wrap; }
    ReportsScreen #rc-help { color: $text-muted; padding: 0 1; height: 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.types: list[ReportType] = []
        self.search = ""

    @classmethod
    def for_kind(cls, kind: kinds.Kind | None, argument: str | None) -> AreaScreen:
        """The catalogue, or (`:report GROUP`) the filter builder of a group."""
        if argument:
            from flextui.ui.screens.reports.builder import ReportBuilderScreen

            group, _, conditions = argument.strip().partition(" ")
            return ReportBuilderScreen(group, conditions_text=conditions.strip() or None)
        return cls()

    @property
    def service(self) -> ReportsService:
        return ReportsService(self.ctx.session)

    def compose_body(self) -> ComposeResult:
        yield Label("", id="pager", classes="pager")
        with Horizontal(id="rc-body"):
            yield ResourceTable(CATALOGUE_COLUMNS, id="rc-table")
            with VerticalScroll(id="rc-detail"):
                about = Static("", id="rc-about")
                about.display = False
                yield about
                yield Static("", id="rc-model")
        yield Label(Text("enter: build a query · /: search groups, columns and filters"), id="rc-help")

    def on_mount(self) -> None:
        self.query_one(ResourceTable).focus()
        self.action_reload(force=False)

    # -- loading -------------------------------------------------------------------------------

    def action_reload(self, force: bool = True) -> None:
        async def job() -> None:
            self.query_one("#pager", Label).update("Loading the report catalogue…")
            self.types = await self.service.report_types(force=force)
            self.show_age(None)
            self._refill()

        def failed(exc: BaseException) -> None:
            # The label ends with the load; the reason (often a permission the user lacks) is shown whole, wrapped.
            self.query_one("#pager", Label).update(Text(f"Report catalogue: {NOT_LOADED}"))
            if not self.types:
                reason = Text("The report catalogue could not be loaded:\n\n", style="bold")
                reason.append(clean(str(exc)))
                reason.append("\n\nctrl+r tries again.", style="italic")
                model = self.query_one("#rc-model", Static)
                model.add_class("-reason")
                model.update(reason)

        self.run_api(job, group="reports-catalogue", doing="loading the report catalogue", failed=failed)

    def _refill(self) -> None:
        table = self.query_one(ResourceTable)
        shown = [t for t in self.types if matches(t, self.search)]
        table.set_rows([{"name": t.group, "columns": str(len(t.columns)), "filters": str(len(t.filters)), "type": t} for t in shown])
        parts = [f"{len(self.types)} report groups"]
        if self.search:
            parts = [f"{len(shown)} of {len(self.types)} report groups match {self.search!r}"]
        self.query_one("#pager", Label).update(Text(clean(" · ".join(parts))))
        self._show_detail()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "quick_run" and self.is_mounted and self.selected() is None:
            return None  # greyed: nothing listed to run (the catalogue failed to load, or the search matches nothing)
        return super().check_action(action, parameters)

    def why_not(self, action: str, description: str) -> str | None:
        if action == "quick_run" and self.is_mounted and self.selected() is None:
            return "No report is listed to run" + (": the catalogue did not load (ctrl+r tries again)" if not self.types else "")
        return super().why_not(action, description)

    def raw_record(self) -> Any | None:
        return self.selected()

    def selected(self) -> ReportType | None:
        row = self.query_one(ResourceTable).current_row()
        return row["type"] if row else None

    def _show_detail(self) -> None:
        rtype = self.selected()
        about = about_text(rtype, self.search) if rtype else Text("No report group matches." if self.types else "")
        about_pane = self.query_one("#rc-about", Static)
        about_pane.update(about)
        about_pane.display = bool(about.plain)
        body = model_text(rtype, self.search) if rtype else Text("")
        model = self.query_one("#rc-model", Static)
        model.remove_class("-reason")
        model.update(body)

    @on(DataTable.RowHighlighted, "#rc-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    @on(DataTable.RowSelected, "#rc-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def apply_filter(self, text: str) -> None:
        self.search = text
        self._refill()

    # -- actions --------------------------------------------------------------------------------

    def action_open(self) -> None:
        rtype = self.selected()
        if rtype is None:
            return
        from flextui.ui.screens.reports.builder import ReportBuilderScreen

        self.app.push_screen(ReportBuilderScreen(rtype.group))

    def action_quick_run(self) -> None:
        rtype = self.selected()
        if rtype is None:
            return
        from flextui.ui.screens.reports.builder import ReportBuilderScreen

        self.app.push_screen(ReportBuilderScreen(rtype.group, run_at_once=True))

    def show_kind(self, kind: Any) -> None:
        """Called when `:reports` is entered while the area is open: nothing to switch."""


__all__ = ["ReportsScreen", "about_text", "matches", "model_text"]
