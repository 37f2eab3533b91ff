"""The filter builder of one report group (`:report GROUP`, or enter in the catalogue).

Conditions are built from the report's own data model: the field list is
the group's filters (report-filters), the operator list holds only the
operators op-list allows for the field's type (the twelve of the vendor's
page, https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTDAPIFilterQueryConditions.htm,
when op-list fails or cannot be read: a toast says so), and the value is
typed and checked as you type (a whole number, a date, a list for `$in` and
`$nin`, a lower and an upper bound for `$btw`), so a mistake shows under the
field that has it and nothing is sent. `$and`/`$or` are not offered: the
conditions are top-level keys, which the service ANDs already, and an `$or`
group is not part of this builder. The global filters follow the service's
rules (past 1–30 days, or a date range of at most 30 days; pages of 1–2,500
records), again checked inline; a range whose dateTo is its dateFrom is sent,
with a warning that the newer vendor page (dateTo excluded) makes it empty.

The request preview shows exactly what Run sends: the GET URL with its
URL-encoded `query`, and the equivalent POST body. Only the conditions in
the list are sent: what is still in the editor is checked as you type but
counts only once enter (or Add) puts it in the list, so a half-typed or
stray value never blocks Run (Run says it left it out). Named filter sets
are saved and loaded per profile (`flextui.filtersets`), replacing one
only after a confirmation.

The query of each report group is kept for the session, per identity
(instance and user): leaving the builder (escape) and coming back finds it
as it was, until Clear empties it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, DataTable, Input, Label, Select, Static
from textual.worker import Worker

from flextui.api.errors import Invalid
from flextui.api.filters import (
    LIST_OPERATORS,
    MAX_LIMIT_RECORDS,
    MAX_PAST_DAYS,
    MAX_RANGE_DAYS,
    PAIR_OPERATORS,
    Condition,
    FilterError,
    FilterSet,
    OperatorList,
    ReportFilter,
    ReportType,
)
from flextui.api.http import Service
from flextui.api.preview import request_preview
from flextui.api.reports import ReportsService
from flextui.filtersets import FilterSetExists, FilterSetFileError, FilterSetStore, check_name
from flextui.render.text import clean
from flextui.render.words import plural
from flextui.ui.appref import flex_app
from flextui.ui.keys import FlexModal
from flextui.ui.safety import SafeDispatch
from flextui.ui.screens.base import NOT_LOADED, AreaScreen
from flextui.ui.widgets.bars import Hint
from flextui.ui.widgets.dialogs import ConfirmScreen
from flextui.ui.widgets.forms import FieldSpec, FormScreen
from flextui.ui.widgets.row_table import RowTable

DEFAULT_PAST_DAYS = 7
DEFAULT_PAGE_SIZE = MAX_LIMIT_RECORDS
DEFAULT_MAX_RECORDS = 250_000
"""Stop after this many records unless told otherwise (a 30-day usage report of a big site is ~200k)."""

OP_LABELS = {
    "$eq": "equals",
    "$ne": "is not",
    "$sw": "starts with",
    "$ew": "ends with",
    "$con": "contains",
    "$in": "is one of",
    "$nin": "is none of",
    "$gt": "greater than",
    "$gte": "at least",
    "$lt": "less than",
    "$lte": "at most",
    "$btw": "between",
}
"""The operators of RESTDAPIFilterQueryConditions.htm (`filters.OPERATORS_PAGE`) in words; one op-list names
otherwise shows by its notation alone."""
VALUE_HINTS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "date": "a day YYYY-MM-DD",
    "datetime": "YYYY-MM-DD (the whole day), YYYY-MM-DD HH:MM:SS[.fff], YYYY-MM-DDTHH:MM:SSZ or epoch milliseconds",
}
# FilterError.field → the input that holds it
GLOBAL_INPUTS = {"pastDays": "#rb-past", "dateFrom": "#rb-from", "dateTo": "#rb-to", "limitRecords": "#rb-limit", "mode": "#rb-mode"}


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def condition_value(cond: Condition) -> str:
    """A condition's value as typed in the editor (lists comma-separated, commas quoted)."""
    value = cond.value
    if isinstance(value, (list, tuple)):
        return ",".join(f'"{v}"' if "," in str(v) else str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def epoch_note(cond: Condition) -> str:
    """What epoch milliseconds in a date-time condition stand for ("" when it holds none): `1734954861548 is
    2024-12-23 11:54:21.548 UTC`, so a mistyped number shows as a date before anything is sent."""
    values = cond.value if isinstance(cond.value, tuple) else (cond.value,)
    said = []
    for value in values:
        if isinstance(value, int) and not isinstance(value, bool):
            try:
                at = datetime.fromtimestamp(value / 1000, tz=UTC)
            except (OverflowError, OSError, ValueError):
                said.append(f"{value} is no date")
                continue
            said.append(f"{value} is {at:%Y-%m-%d %H:%M:%S}.{value % 1000:03d} UTC")
    return ", ".join(said)


@dataclass
class RunRequest:
    """What the results screen runs: the group, its model, the checked filters and a record limit."""

    group: str
    rtype: ReportType
    filters: FilterSet
    max_records: int | None
    set_name: str | None = None


class ConditionsTable(SafeDispatch, DataTable[Text]):
    """The conditions of the query; delete removes one, enter takes it back into the editor."""

    BINDINGS = [
        Binding("delete,d,backspace", "remove", "Remove condition", id="report_builder.remove"),
        Binding("enter,e", "edit", "Edit condition", id="report_builder.edit"),
    ]

    DEFAULT_CSS = "ConditionsTable { height: auto; max-height: 7; }"

    def action_remove(self) -> None:
        cast("ReportBuilderScreen", self.screen).remove_condition(self.cursor_row)

    def action_edit(self) -> None:
        cast("ReportBuilderScreen", self.screen).edit_condition(self.cursor_row)


class ReportBuilderScreen(AreaScreen):
    """Build a filter for one report group, preview the request, save/load it, run it."""

    KIND = "reports"
    WATCHABLE = False
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"run": "run"}

    BINDINGS = [
        Binding("ctrl+g,f5", "run", "Run", id="report_builder.run", priority=True),
        Binding("ctrl+s", "save", "Save set", id="report_builder.save", priority=True),
        Binding("ctrl+o", "load", "Open set", id="report_builder.load", priority=True),
        Binding("ctrl+n", "new_condition", "Add condition", id="report_builder.add"),
        Binding("ctrl+l", "copy_url", "Copy URL", show=False, id="report_builder.copy_url", priority=True),
        Binding("ctrl+r", "reload", "Refresh the data model from the server", show=False, id="report_builder.reload"),
    ]

    DEFAULT_CSS = """
    ReportBuilderScreen #rb-form { height: 1fr; padding: 0 1; }
    ReportBuilderScreen .rb-section { height: 1; color: $text-muted; text-style: bold; margin-top: 1; }
    ReportBuilderScreen .rb-line { height: 1; }
    ReportBuilderScreen .rb-line Label { width: auto; padding: 0 1 0 0; color: $text-muted; }
    ReportBuilderScreen #rb-field { width: 30; margin-right: 1; }
    ReportBuilderScreen #rb-op { width: 20; margin-right: 1; }
    ReportBuilderScreen #rb-value { width: 3fr; margin-right: 1; }
    ReportBuilderScreen #rb-add { min-width: 7; width: auto; }
    ReportBuilderScreen #rb-window { width: 16; margin-right: 1; }
    ReportBuilderScreen #rb-past { width: 6; margin-right: 1; }
    ReportBuilderScreen #rb-from, ReportBuilderScreen #rb-to { width: 13; margin-right: 1; }
    ReportBuilderScreen #rb-limit { width: 7; margin-right: 2; }
    ReportBuilderScreen #rb-mode { width: 17; margin-right: 2; }
    ReportBuilderScreen #rb-max { width: 10; }
    ReportBuilderScreen Hint { padding: 0; }
    ReportBuilderScreen Input.-invalid { color: $error; }
    ReportBuilderScreen #rb-none { color: $text-muted; text-style: italic; height: 1; }
    ReportBuilderScreen #rb-preview-box { height: 1fr; min-height: 3; background: $boost; }
    ReportBuilderScreen #rb-preview { padding: 0 1; }
    ReportBuilderScreen #rb-buttons { height: 1; margin-top: 1; }
    ReportBuilderScreen #rb-buttons Button { margin-right: 2; min-width: 10; width: auto; }
    """

    def __init__(
        self, group: str, *, run_at_once: bool = False, filters: FilterSet | None = None, conditions_text: str | None = None
    ) -> None:
        super().__init__()
        self.group = group
        self.run_at_once = run_at_once
        self.initial = filters
        self.conditions_text = conditions_text  # `:report GROUP cond; cond`
        self.rtype: ReportType | None = None
        self.operators = OperatorList()
        self.conditions: list[Condition] = []
        self.set_name: str | None = None
        self.problem = ""
        self._filling = False
        self._model_worker: Worker[Any] | None = None
        self._restore = filters is None and conditions_text is None and not run_at_once
        self._baseline: dict[str, Any] | None = None  # the query as it opened (a quick run nobody changed is not kept)

    @property
    def area_title(self) -> str:
        return f"Data reports › {self.group}"

    def reopen_as(self) -> tuple[str, str | None]:
        """The builder of the same group (its data model read from the new tenant)."""
        return self.KIND, self.group

    @property
    def service(self) -> ReportsService:
        return ReportsService(self.ctx.session)

    @property
    def store(self) -> FilterSetStore:
        return FilterSetStore()

    # -- layout ----------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        yield Label(Text(f"{clean(self.group)}: loading the data model…"), id="rb-title", classes="pager")
        with Vertical(id="rb-form"):
            yield Label("Conditions: all must match", classes="rb-section", id="rb-cond-title")
            with Horizontal(classes="rb-line", id="rb-editor"):
                yield Select([("loading…", "")], allow_blank=False, id="rb-field", compact=True)
                yield Select([("—", "")], allow_blank=False, id="rb-op", compact=True)
                yield Input(placeholder="value", id="rb-value", compact=True)
                yield Button("Add", id="rb-add", compact=True)
            yield Hint("", id="rb-cond-hint")
            table = ConditionsTable(cursor_type="row", id="rb-conditions", zebra_stripes=True)
            table.display = False
            yield table
            yield Label("No conditions: every record of the window is returned.", id="rb-none")
            yield Label("Window and paging", classes="rb-section")
            with Horizontal(classes="rb-line"):
                yield Select(
                    [("past days", "past"), ("date range", "range")], value="past", allow_blank=False, id="rb-window", compact=True
                )
                yield Label("days", id="rb-past-label")
                yield Input(str(DEFAULT_PAST_DAYS), id="rb-past", compact=True, restrict=r"\d*", max_length=3)
                yield Label("from", id="rb-from-label")
                yield Input(placeholder="YYYY-MM-DD", id="rb-from", compact=True, max_length=10)
                yield Label("to (excl.)", id="rb-to-label")
                yield Input(placeholder="YYYY-MM-DD", id="rb-to", compact=True, max_length=10)
            with Horizontal(classes="rb-line"):
                yield Label("page size")
                yield Input(str(DEFAULT_PAGE_SIZE), id="rb-limit", compact=True, restrict=r"\d*", max_length=5)
                yield Label("mode")
                yield Select(
                    [("INTERACTIVE", "INTERACTIVE"), ("BATCH", "BATCH")], value="INTERACTIVE", allow_blank=False, id="rb-mode", compact=True
                )
                yield Label("stop after")
                yield Input(str(DEFAULT_MAX_RECORDS), placeholder="all", id="rb-max", compact=True, restrict=r"\d*", max_length=9)
            yield Hint("", id="rb-global-hint")
            yield Label("Request preview (first page)", classes="rb-section")
            with VerticalScroll(id="rb-preview-box"):
                yield Static("", id="rb-preview")
            with Horizontal(id="rb-buttons"):
                yield Button("Run ▶", id="rb-run", variant="primary", compact=True)
                yield Button("Save…", id="rb-save", compact=True)
                yield Button("Load…", id="rb-load", compact=True)
                yield Button("Copy URL", id="rb-copy", compact=True)
                yield Button("Clear", id="rb-clear", compact=True)

    def on_mount(self) -> None:
        self._show_window()
        self.load_model()

    def load_model(self) -> None:
        """Ask for the group's data model (again, after a failure: ctrl+r)."""
        self._model_worker = self.run_api(
            self._load_model, group="report-model", doing=f"loading the {self.group} data model", failed=self._model_failed
        )

    def _model_failed(self, exc: BaseException) -> None:
        """The "loading…" labels end with the load: the title says it failed, the field list that it is empty."""
        if self.rtype is not None:
            return
        self.problem = f"the {self.group} data model could not be loaded: {exc}"
        self.query_one("#rb-title", Label).update(Text(f"{clean(self.group)}: data model {NOT_LOADED}"))
        self.query_one("#rb-field", Select).set_options([("(not loaded)", "")])
        self.refresh_preview()

    async def _load_model(self) -> None:
        names = await self.service.report_names()
        if self.group not in names:
            folded = {n.casefold(): n for n in names}
            if self.group.casefold() not in folded:
                self.problem = f"No report group {self.group!r}. The groups are: {', '.join(names)}."
                self.query_one("#rb-title", Label).update(Text(clean(self.problem)))
                self.report_error(Invalid(self.problem), doing="")
                return
            self.group = folded[self.group.casefold()]
        self.rtype = await self.service.report_type(self.group)
        self._take_operators(await self.service.op_list())
        self.show_age(None)
        self._fill_fields()
        remembered = self.remembered() if self._restore else None
        if remembered is not None:
            self._apply_state(remembered)
        if self.initial is not None:
            self.apply_set(self.initial)
        if self.conditions_text:
            self._take_conditions(self.conditions_text)
        self._title()
        self.refresh_preview()
        self._baseline = self.query_state()
        if self.focused is None:  # the field has the focus from the start; a load that ends never takes it from the user
            self.query_one("#rb-field", Select).focus()
        if self.run_at_once:
            self.action_run()

    def _take_operators(self, operators: OperatorList) -> None:
        """The operators to offer; an op-list that failed or could not be read stands the documented ones in, and
        says so (a list of operators helps check conditions: it never keeps a report from running)."""
        self.operators = operators
        if operators.notice:
            self.app.notify(clean(operators.notice), severity="warning", markup=False, timeout=10)

    def _take_conditions(self, text: str) -> None:
        """Conditions typed after `:report GROUP`, `;`-separated; the first that cannot be read goes to the editor."""
        for part in (p.strip() for p in text.split(";")):
            if not part:
                continue
            try:
                cond = Condition.parse(part)
            except FilterError as exc:
                self.query_one("#rb-value", Input).value = part
                self._value_hint(f"{exc.message} (from the command line)")
                break
            self.conditions.append(cond)
        self._show_conditions()

    def _title(self) -> None:
        assert self.rtype is not None
        rtype = self.rtype
        parts = [rtype.group, f"{len(rtype.columns)} columns", f"{len(rtype.filters)} filters"]
        if rtype.date_field:
            parts.append(f"placed in time by {rtype.date_field}")
        if self.set_name:
            parts.append(f"set “{self.set_name}”")
        self.query_one("#rb-title", Label).update(Text(clean(" · ".join(parts))))

    # -- the condition editor -----------------------------------------------------------------

    def _filter(self, name: Any) -> ReportFilter | None:
        if self.rtype is None or not isinstance(name, str):
            return None
        return self.rtype.filter(name)

    def _fill_fields(self) -> None:
        assert self.rtype is not None
        options = [(Text(clean(f"{f.name} · {f.type}"), no_wrap=True, overflow="ellipsis"), f.name) for f in self.rtype.filters]
        field = self.query_one("#rb-field", Select)
        field.set_options(options)
        if options:
            field.value = options[0][1]
        self._fill_operators()

    def operators_for(self, filt: ReportFilter) -> list[str]:
        """The operators a filter takes: its own list (if the service gave one) within op-list for its type."""
        by_type = [o.name for o in self.operators.for_type(filt.type)]
        if filt.operators:
            return [o for o in filt.operators if o in by_type] or list(filt.operators)
        return by_type

    def _fill_operators(self, keep: str | None = None) -> None:
        filt = self._filter(self.query_one("#rb-field", Select).value)
        op = self.query_one("#rb-op", Select)
        if filt is None:
            op.set_options([("—", "")])
            return
        names = self.operators_for(filt)
        op.set_options([(Text(clean(f"{n} {OP_LABELS.get(n, '')}".strip())), n) for n in names])
        current = keep if keep in names else (names[0] if names else None)
        if current is not None:
            op.value = current
        self._value_hint()

    def _value_hint(self, error: str = "", note: str = "") -> None:
        hint = self.query_one("#rb-cond-hint", Hint)
        value = self.query_one("#rb-value", Input)
        if error:
            hint.show("✗ " + error, error=True)
            value.set_class(True, "-invalid")
            return
        value.set_class(False, "-invalid")
        filt = self._filter(self.query_one("#rb-field", Select).value)
        op = self.query_one("#rb-op", Select).value
        if filt is None:
            hint.show("")
            return
        kind = VALUE_HINTS.get(filt.type, "a value")
        if op in PAIR_OPERATORS:
            text = f"{filt.name} is {filt.type}: two values, lower,upper (both bounds included), each {kind}"
        elif op in LIST_OPERATORS:
            text = f"{filt.name} is {filt.type}: a list of {kind} values, comma-separated (quote a value holding a comma)"
            if op == "$nin":
                text += "; records with none of them"
        else:
            text = f"{filt.name} is {filt.type}: {kind}"
            if op in ("$sw", "$ew", "$con"):
                text += " (ignores case)"
        if filt.column != filt.name:
            text += f"; tests column {filt.column}"
        value.placeholder = "FROM,TO" if op in PAIR_OPERATORS else "A,B,C" if op in LIST_OPERATORS else kind
        hint.show(text + (f" · {note}" if note else "") + " · enter adds it")

    def pending(self) -> tuple[Condition | None, str]:
        """The condition in the editor, checked: (condition, "") or (None, error); (None, "") when empty."""
        raw = self.query_one("#rb-value", Input).value
        if not raw.strip():
            return None, ""
        field = self.query_one("#rb-field", Select).value
        op = self.query_one("#rb-op", Select).value
        if not field or not op or not isinstance(field, str) or not isinstance(op, str):
            return None, "choose a field and an operator"
        value = raw.strip() if op in LIST_OPERATORS else _unquote(raw)
        try:
            return Condition(field, op, value).validate(self.rtype, self.operators), ""
        except FilterError as exc:
            return None, exc.message

    @on(Select.Changed, "#rb-field")
    def _field_changed(self, event: Select.Changed) -> None:
        if self._filling:
            return
        keep = self.query_one("#rb-op", Select).value
        self._fill_operators(keep if isinstance(keep, str) else None)
        self._check_pending()

    @on(Select.Changed, "#rb-op")
    def _op_changed(self, event: Select.Changed) -> None:
        if not self._filling:
            self._check_pending()

    @on(Input.Changed, "#rb-value")
    def _value_changed(self, event: Input.Changed) -> None:
        self._check_pending()

    def _check_pending(self) -> None:
        cond, error = self.pending()
        self._value_hint(error, epoch_note(cond) if cond is not None and self._is_datetime(cond.field) else "")
        self.refresh_preview()

    def _is_datetime(self, name: str) -> bool:
        filt = self._filter(name)
        return filt is not None and filt.type == "datetime"

    @on(Input.Submitted, "#rb-value")
    def _value_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.add_pending()

    @on(Button.Pressed, "#rb-add")
    def _add_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.add_pending()

    def add_pending(self) -> bool:
        """Add the editor's condition to the list; False (error shown) when it is not valid."""
        cond, error = self.pending()
        if cond is None:
            self._value_hint(error or "type a value first")
            return False
        for i, other in enumerate(self.conditions):
            if other.field == cond.field and other.op == cond.op:
                self.conditions[i] = cond  # the same test again replaces the old value
                break
        else:
            self.conditions.append(cond)
        self.query_one("#rb-value", Input).value = ""
        self._show_conditions()
        self._value_hint()
        self.refresh_preview()
        return True

    def remove_condition(self, index: int) -> None:
        if 0 <= index < len(self.conditions):
            del self.conditions[index]
            self._show_conditions()
            self.refresh_preview()
            table = self.query_one(ConditionsTable)
            if self.conditions:
                table.move_cursor(row=min(index, len(self.conditions) - 1))
            else:
                self.query_one("#rb-field", Select).focus()

    def edit_condition(self, index: int) -> None:
        """Take a condition back into the editor (it leaves the list until added again)."""
        if not 0 <= index < len(self.conditions):
            return
        cond = self.conditions.pop(index)
        self._filling = True
        try:
            field = self.query_one("#rb-field", Select)
            if self._filter(cond.field) is not None:
                field.value = cond.field
            self._fill_operators(cond.op)
        finally:
            self._filling = False
        value = self.query_one("#rb-value", Input)
        value.value = condition_value(cond)
        self._show_conditions()
        self.refresh_preview()
        value.focus()

    def _show_conditions(self) -> None:
        table = self.query_one(ConditionsTable)
        table.clear(columns=True)
        table.add_columns("Field", "Operator", "Value", "")
        for cond in self.conditions:
            problem = self._condition_problem(cond)
            table.add_row(
                Text(clean(cond.field), style="bold"),
                Text(clean(f"{cond.op} {OP_LABELS.get(cond.op, '')}".strip())),
                Text(clean(condition_value(cond))),
                Text("✗ " + clean(problem), style="bold") if problem else Text(""),
            )
        table.display = bool(self.conditions)
        self.query_one("#rb-none").display = not self.conditions
        self.query_one("#rb-cond-title", Label).update(
            f"Conditions: all must match ({len(self.conditions)})" if self.conditions else "Conditions: all must match"
        )

    def _condition_problem(self, cond: Condition) -> str:
        try:
            cond.validate(self.rtype, self.operators)
        except FilterError as exc:
            return exc.message
        return ""

    def action_new_condition(self) -> None:
        self.query_one("#rb-field", Select).focus()

    def editor_note(self) -> str:
        """What Run leaves out: the condition still in the editor (with why it could not be added), or ""."""
        raw = self.query_one("#rb-value", Input).value.strip()
        if not raw:
            return ""
        cond, error = self.pending()
        if cond is not None:
            return f"{cond}: not in the list until enter adds it"
        field = self.query_one("#rb-field", Select).value
        what = f"{field} {self.query_one('#rb-op', Select).value} {raw}" if isinstance(field, str) and field else raw
        return f"{what!s}: not in the list" + (f"; {error}" if error else "")

    # -- the remembered query (per identity and group, for the session) ---------------------------------------

    def _memory(self) -> dict[tuple[str, str], dict[str, Any]]:
        # the app's, not the context's: kept per identity across `:profile` switches, as the README says
        return flex_app(self).report_queries

    def _memory_key(self) -> tuple[str, str]:
        return (self.ctx.session.identity, self.group.casefold())

    def remembered(self) -> dict[str, Any] | None:
        """The query last left in this group's builder by this identity, this session."""
        return self._memory().get(self._memory_key())

    def query_state(self) -> dict[str, Any]:
        """Everything the builder holds, as typed (a half-typed value too)."""
        value = lambda wid: self.query_one(wid).value  # noqa: E731
        return {
            "conditions": list(self.conditions),
            "set_name": self.set_name,
            "field": value("#rb-field"),
            "op": value("#rb-op"),
            "value": value("#rb-value"),
            "window": value("#rb-window"),
            "past": value("#rb-past"),
            "from": value("#rb-from"),
            "to": value("#rb-to"),
            "limit": value("#rb-limit"),
            "mode": value("#rb-mode"),
            "max": value("#rb-max"),
        }

    def remember(self) -> None:
        if self.rtype is None:
            return
        state = self.query_state()
        if not self._restore and state == self._baseline:
            return  # a quick run (or `:report GROUP cond`) nobody changed: the remembered query stays as it was
        self._memory()[self._memory_key()] = state

    def _apply_state(self, state: dict[str, Any]) -> None:
        self._filling = True
        try:
            self.conditions = list(state.get("conditions", []))
            self.set_name = state.get("set_name")
            for wid, key in (("#rb-window", "window"), ("#rb-mode", "mode")):
                if state.get(key):
                    self.query_one(wid, Select).value = state[key]
            for wid, key in (("#rb-past", "past"), ("#rb-from", "from"), ("#rb-to", "to"), ("#rb-limit", "limit"), ("#rb-max", "max")):
                self.query_one(wid, Input).value = str(state.get(key) or "")
            field = state.get("field")
            if isinstance(field, str) and self._filter(field) is not None:
                self.query_one("#rb-field", Select).value = field
            op = state.get("op")
            self._fill_operators(op if isinstance(op, str) else None)
            self.query_one("#rb-value", Input).value = str(state.get("value") or "")
        finally:
            self._filling = False
        self._show_window()
        self._show_conditions()
        self._check_pending()

    def on_unmount(self) -> None:
        """Escape (or any way out): the query is kept for this group until Clear."""
        try:
            self.remember()
        except Exception:  # the widgets are already gone
            pass

    def on_screen_suspend(self) -> None:
        self.remember()

    def action_clear_query(self) -> None:
        """Clear: no conditions, the default window and paging, an empty editor; the remembered query is forgotten."""
        self._memory().pop(self._memory_key(), None)
        self._filling = True
        try:
            self.conditions = []
            self.set_name = None
            self.query_one("#rb-window", Select).value = "past"
            self.query_one("#rb-past", Input).value = str(DEFAULT_PAST_DAYS)
            self.query_one("#rb-from", Input).value = ""
            self.query_one("#rb-to", Input).value = ""
            self.query_one("#rb-limit", Input).value = str(DEFAULT_PAGE_SIZE)
            self.query_one("#rb-mode", Select).value = "INTERACTIVE"
            self.query_one("#rb-max", Input).value = str(DEFAULT_MAX_RECORDS)
            self.query_one("#rb-value", Input).value = ""
        finally:
            self._filling = False
        self._show_window()
        self._show_conditions()
        if self.rtype is not None:
            self._title()
        self._value_hint()
        self.refresh_preview()
        self.say(f"Cleared the {self.group} query")

    # -- window and paging ---------------------------------------------------------------------

    def _today(self) -> datetime:
        return datetime.fromtimestamp(self.ctx.now_ms() / 1000, tz=UTC)

    def _show_window(self) -> None:
        past = self.query_one("#rb-window", Select).value == "past"
        for wid in ("#rb-past", "#rb-past-label"):
            self.query_one(wid).display = past
        for wid in ("#rb-from", "#rb-from-label", "#rb-to", "#rb-to-label"):
            self.query_one(wid).display = not past

    @on(Select.Changed, "#rb-window")
    def _window_changed(self, event: Select.Changed) -> None:
        self._show_window()
        if event.value == "range" and not self._filling:
            start, end = self.query_one("#rb-from", Input), self.query_one("#rb-to", Input)
            today = self._today().date()
            if not start.value and not end.value:  # a sensible start: the last 7 days, today included
                start.value = (today - timedelta(days=DEFAULT_PAST_DAYS - 1)).isoformat()
                end.value = (today + timedelta(days=1)).isoformat()
        self.refresh_preview()

    @on(Input.Changed, "#rb-past, #rb-from, #rb-to, #rb-limit, #rb-max")
    @on(Select.Changed, "#rb-mode")
    def _global_changed(self, event: Any) -> None:
        if not self._filling:
            self.refresh_preview()

    def max_records(self) -> int | None:
        """The record limit; ValueError when it is not a positive whole number (empty = no limit)."""
        text = self.query_one("#rb-max", Input).value.strip()
        if not text:
            return None
        if not text.isdigit() or int(text) < 1:
            raise ValueError("stop after: a positive whole number of records, or empty for all")
        return int(text)

    def build(self, *, conditions_too: bool = True) -> tuple[FilterSet | None, dict[str, str]]:
        """The checked filter set of the listed conditions, or None and the errors by place ("conditions", global names).

        What is still in the condition editor is not part of it (it is checked on its own, under the editor).
        """
        errors: dict[str, str] = {}
        conditions = list(self.conditions) if conditions_too else []
        window = self.query_one("#rb-window", Select).value
        past = self.query_one("#rb-past", Input).value.strip()
        start = self.query_one("#rb-from", Input).value.strip()
        end = self.query_one("#rb-to", Input).value.strip()
        limit = self.query_one("#rb-limit", Input).value.strip()
        mode = self.query_one("#rb-mode", Select).value
        fs: FilterSet | None = None
        try:
            if window == "past":
                if not past:
                    raise FilterError(f"pastDays: give a number of days from 1 to {MAX_PAST_DAYS}", "pastDays")
                kwargs: dict[str, Any] = {"past_days": past}
            else:
                if not start and not end:
                    raise FilterError("dateFrom: give a first day (and a day after the last, up to 30 days later)", "dateFrom")
                kwargs = {"date_from": start or None, "date_to": end or None}
            if not limit:
                raise FilterError(f"limitRecords: give a page size from 1 to {MAX_LIMIT_RECORDS}", "limitRecords")
            fs = FilterSet(tuple(conditions), limit_records=limit, mode=str(mode), name=self.set_name, group=self.group, **kwargs)  # type: ignore[arg-type]
        except FilterError as exc:
            errors[exc.field or "pastDays"] = exc.message
        try:
            self.max_records()
        except ValueError as exc:
            errors["max"] = str(exc)
        if fs is not None and self.rtype is not None:
            try:
                fs = fs.validate(self.rtype, self.operators)
            except FilterError as exc:
                errors["conditions"] = exc.message
                fs = None
        if self.rtype is None:
            errors.setdefault("model", self.problem or "the data model is still loading")
        return (None if errors else fs), errors

    def _window_warning(self, fs: FilterSet) -> str:
        today = self._today().date()
        first, end = fs.window(today)
        oldest = today - timedelta(days=MAX_RANGE_DAYS)
        notes = []
        if fs.date_from is not None and first < oldest:
            notes.append(f"records older than {MAX_RANGE_DAYS} days ({oldest}) are not kept: expect none before it")
        same_day = fs.same_day_note()
        if same_day:
            notes.append(same_day)
        elif fs.date_to is not None and fs.date_to <= today and fs.date_from is not None:
            notes.append("dateTo is excluded: set it to tomorrow to include today")
        return "; ".join(notes)

    def refresh_preview(self) -> None:
        fs, errors = self.build()
        hint = self.query_one("#rb-global-hint", Hint)
        for name, wid in GLOBAL_INPUTS.items():
            self.query_one(wid).set_class(name in errors, "-invalid")
        self.query_one("#rb-max").set_class("max" in errors, "-invalid")
        global_errors = [msg for key, msg in errors.items() if key in GLOBAL_INPUTS or key == "max"]
        if global_errors:
            hint.show("✗ " + "; ".join(global_errors), error=True)
        else:
            window = fs if fs is not None else self.build(conditions_too=False)[0]
            if window is not None:
                warning = self._window_warning(window)
                hint.show(("⚠ " + warning) if warning else self._window_text(window))
            else:
                hint.show("")
        if "conditions" in errors:
            self.query_one("#rb-cond-hint", Hint).show("✗ " + errors["conditions"], error=True)
        preview = self.query_one("#rb-preview", Static)
        if fs is None:
            body = Text()
            for key, msg in errors.items():
                where = "the condition being edited" if key == "pending" else key
                if key == "model":
                    body.append(clean(msg) + "\n", style="italic")
                else:
                    body.append(f"✗ {where}: ", style="bold")
                    body.append(clean(msg) + "\n")
            body.append("Nothing is sent until these are fixed.", style="italic")
            preview.update(body)
            return
        url, post = self.preview_texts(fs)
        body = Text()
        body.append("GET  ", style="bold")
        body.append(clean(url) + "\n")
        query = fs.query_json()
        if query:
            body.append("     query = ", style="dim")
            body.append(clean(json.dumps(query, ensure_ascii=False, separators=(",", ":"))) + "\n", style="dim")
        body.append("POST ", style="bold")
        body.append(clean(url.split("?")[0]) + "\n")
        body.append("     body = ", style="dim")
        body.append(clean(post))
        note = self.editor_note()
        if note:
            body.append(f"\nNot sent: {note}", style="italic")
        preview.update(body)

    def _window_text(self, fs: FilterSet) -> str:
        first, end = fs.window(self._today().date())
        if fs.past_days is not None:
            span = f"the last {plural(fs.past_days, 'day')} (rolling, up to now)"
        else:
            last = end - timedelta(days=1)
            days = (end - first).days
            span = f"{first} to {last}, {plural(days, 'day')} (dateTo {end} excluded)"
        limit = self.max_records()
        stop = f"stop after {limit:,} records" if limit else "no record limit"
        return f"{span} · pages of {fs.limit_records:,} · {fs.mode} · {stop}"

    def preview_texts(self, fs: FilterSet) -> tuple[str, str]:
        base = self.ctx.session.base(Service.DATA)
        return request_preview(base, self.service._path(self.group), fs)

    # -- saved sets ------------------------------------------------------------------------------

    def apply_set(self, fs: FilterSet) -> None:
        """Show a saved (or given) filter set in the builder."""
        self._filling = True
        try:
            self.conditions = list(fs.conditions)
            window = self.query_one("#rb-window", Select)
            if fs.date_from or fs.date_to:
                window.value = "range"
                self.query_one("#rb-from", Input).value = fs.date_from.isoformat() if fs.date_from else ""
                self.query_one("#rb-to", Input).value = fs.date_to.isoformat() if fs.date_to else ""
            else:
                window.value = "past"
                self.query_one("#rb-past", Input).value = str(fs.past_days or 1)
            self.query_one("#rb-limit", Input).value = str(fs.limit_records)
            self.query_one("#rb-mode", Select).value = fs.mode
            self.set_name = fs.name
        finally:
            self._filling = False
        self._show_window()
        self._show_conditions()
        if self.rtype is not None:
            self._title()
        self.refresh_preview()

    @work(group="report-sets")
    async def action_save(self) -> None:
        fs, errors = self.build()
        if fs is None:
            self.app.notify("Fix the marked fields before saving", severity="warning", markup=False)
            return

        def build(values: dict[str, Any]) -> str:
            return check_name(values["name"])

        async def send(name: str) -> str:
            return name

        form = FormScreen(
            f"Save the {self.group} filter set",
            [
                FieldSpec(
                    "name",
                    "Name",
                    value=self.set_name or "",
                    placeholder="e.g. acme last week",
                    hint=f"saved for profile {self.ctx.profile_name}: {fs.describe()}",
                ),
            ],
            build,
            send,
            submit_label="Save",
        )
        name = await self.app.push_screen_wait(form)
        if not name:
            return
        store = self.store
        try:
            try:
                saved = store.save(self.ctx.profile_name, fs, name=name, group=self.group)
            except FilterSetExists as exists:
                ok = await self.app.push_screen_wait(
                    ConfirmScreen(
                        f"Replace the saved filter set “{name}”?",
                        f"It holds: {exists.existing.describe()}\nIt will hold: {fs.describe()}",
                        "Replace",
                    )
                )
                if not ok:
                    self.say(f"Kept the saved set “{name}” as it was")
                    return
                saved = store.save(self.ctx.profile_name, fs, name=name, group=self.group, overwrite=True)
        except (FilterSetFileError, ValueError) as exc:
            self.report_error(exc, doing="saving the filter set")
            return
        self.set_name = saved.name
        self._title()
        self.say(f"Saved filter set “{saved.name}” for {self.group} ({self.ctx.profile_name})")

    def action_load(self) -> None:
        try:
            sets = self.store.list(self.ctx.profile_name, self.group)
        except FilterSetFileError as exc:
            self.report_error(exc, doing="reading saved filter sets")
            return
        problems = list(self.store.problems)

        def done(fs: FilterSet | None) -> None:
            if fs is not None:
                self.apply_set(fs)
                self.say(f"Loaded filter set “{fs.name}”")

        self.app.push_screen(SavedSetsScreen(self.group, self.ctx.profile_name, sets, problems), done)

    # -- run ------------------------------------------------------------------------------------

    def action_reload(self) -> None:
        """ctrl+r, as everywhere: ask the server again, here for the data model (the conditions typed stay)."""
        if self.rtype is None:
            worker = self._model_worker
            if worker is None or not worker.is_running:
                self.problem = ""
                self.load_model()
            return

        async def job() -> None:
            rtype = await self.service.report_type(self.group, force=True)
            self._take_operators(await self.service.op_list(force=True))
            changed = [f.name for f in rtype.filters] != [f.name for f in self.rtype.filters] if self.rtype else True
            self.rtype = rtype
            if changed:
                self._fill_fields()
            self.show_age(None)
            self.refresh_preview()
            self.say(f"The {self.group} data model is fresh from the server")

        self.run_api(job, group="report-model", doing=f"refreshing the {self.group} data model")

    def action_run(self) -> None:
        if self.rtype is None:
            worker = self._model_worker
            if worker is not None and worker.is_running:
                self.app.notify("The data model is still loading", severity="warning", markup=False)
            else:  # loading it failed (the status line says why): nothing can run without it, so ask again
                self.problem = ""
                self.load_model()
            return
        fs, errors = self.build()
        if fs is None:
            self.refresh_preview()
            self.app.notify("Nothing was sent: fix the marked fields first", severity="warning", markup=False)
            return
        note = self.editor_note()
        if note:
            self.app.notify(f"Run without the condition still in the editor: {note}", severity="warning", markup=False, timeout=10)
        self.remember()
        from flextui.ui.screens.reports.results import ReportResultsScreen

        request = RunRequest(self.group, self.rtype, fs, self.max_records(), self.set_name)
        self.app.push_screen(ReportResultsScreen(request))

    def action_copy_url(self) -> None:
        fs, _ = self.build()
        if fs is None:
            self.app.notify("Fix the marked fields first", severity="warning", markup=False)
            return
        url, _ = self.preview_texts(fs)
        flex_app(self).copy_text(url, "request URL")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "rb-run": self.action_run,
            "rb-save": self.action_save,
            "rb-load": self.action_load,
            "rb-copy": self.action_copy_url,
            "rb-clear": self.action_clear_query,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            event.stop()
            action()


class SavedSetsScreen(FlexModal[FilterSet | None]):
    """The filter sets saved for a group on this profile: enter loads one, d deletes one."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close", id="report_sets.close"),
        Binding("d,delete", "delete", "Delete set", id="report_sets.delete"),
    ]

    DEFAULT_CSS = """
    SavedSetsScreen { align: center middle; }
    SavedSetsScreen > Vertical { width: 100; max-width: 98%; height: auto; max-height: 90%; border: thick $primary; background: $surface; padding: 0 1; }
    SavedSetsScreen #sets-title { text-style: bold; padding: 0 1; margin-bottom: 1; }
    SavedSetsScreen DataTable { height: auto; max-height: 20; }
    SavedSetsScreen .muted { padding: 0 1; }
    """
    SHRINKS = "#sets-table"

    def __init__(self, group: str, profile: str, sets: list[FilterSet], problems: list[str]) -> None:
        super().__init__()
        self.group = group
        self.profile = profile
        self.sets = sets
        self.problems = problems

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(clean(f"Saved {self.group} filter sets ({self.profile})")), id="sets-title")
            table = RowTable(cursor_type="row", zebra_stripes=True, id="sets-table")
            yield table
            yield Label("", id="sets-empty", classes="muted")
            note = "enter load · d delete · escape close"
            if self.problems:
                note = "Unreadable entries skipped: " + clean("; ".join(self.problems)) + "\n" + note
            yield Label(Text(note), classes="muted", id="sets-note")

    def on_mount(self) -> None:
        self._fill()

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns("Name", "Filters")
        for fs in self.sets:
            table.add_row(Text(clean(fs.name or ""), style="bold"), Text(clean(fs.describe())))
        table.display = bool(self.sets)
        self.query_one("#sets-empty", Label).update(
            "" if self.sets else f"No saved sets for {self.group} on this profile yet: ctrl+s in the builder saves one."
        )
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.dismiss(self.sets[event.cursor_row])

    def action_delete(self) -> None:
        table = self.query_one(DataTable)
        if not self.sets:
            return
        fs = self.sets[table.cursor_row]

        def confirmed(ok: bool | None) -> None:
            if not ok:
                return
            try:
                FilterSetStore().delete(self.profile, self.group, fs.name or "")
            except FilterSetFileError as exc:
                self.app.notify(str(exc), severity="error", markup=False)
                return
            self.sets = [s for s in self.sets if s.name != fs.name]
            self._fill()
            self.app.notify(f"Deleted filter set “{fs.name}”", markup=False)

        self.app.push_screen(ConfirmScreen(f"Delete the saved filter set “{fs.name}”?", fs.describe()), confirmed)


__all__ = ["ReportBuilderScreen", "RunRequest", "SavedSetsScreen", "condition_value"]
