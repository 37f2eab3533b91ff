"""The download log: filters, the streamed log, downloads per day (a chart) and the top artifacts.

An entry's `account` is documented as a Java list printed as text, `"[test_acc1]"`
(https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/RESTSWContDelivDownLogs.htm):
the log shows the accounts it names joined by ", " (`Download.accounts`), and `j` offers each
account's entitlements, one link per account.
"""

from __future__ import annotations

import asyncio
import heapq
import shlex
import time
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label
from textual.worker import Worker, WorkerState

from flextui.api.errors import ApiError
from flextui.api.registry import (
    DOWNLOADS_MAX_PAGE_SIZE,
    Download,
)
from flextui.kinds import Column, Link
from flextui.query import parse_day
from flextui.render.table import Column as GridColumn
from flextui.render.text import clean, relative
from flextui.render.words import plural
from flextui.ui.screens.base import AreaScreen, filters_key
from flextui.ui.screens.registry.common import RegistryMixin, block, cell, ms_of, problem_note, when
from flextui.ui.widgets.chart import BarChart
from flextui.ui.widgets.commandbar import FilterBar
from flextui.ui.widgets.dialogs import MessageScreen
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.table import ResourceTable

TOP_ARTIFACTS = 10


REDRAW_EVERY_S = 0.2


def per_day_series(counts: Counter[date], start: date, end: date) -> list[tuple[str, float]]:
    """(ISO day, count) for every day from `start` to `end`, zeros included."""
    out: list[tuple[str, float]] = []
    day = start
    while day <= end:
        out.append((day.isoformat(), counts.get(day, 0)))
        day += timedelta(days=1)
    return out


def top_rows(counts: Counter[str], total: int, limit: int = TOP_ARTIFACTS) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    ranked = heapq.nsmallest(limit, counts.items(), key=lambda kv: (-kv[1], kv[0]))  # O(n log k): called per streamed page
    top = ranked[0][1] if ranked else 0
    for rank, (artifact, n) in enumerate(ranked, start=1):
        share = 100.0 * n / total if total else 0.0
        rows.append({"rank": str(rank), "name": artifact, "count": f"{n:,}", "share": f"{share:.1f}%", "n": n, "pct": share, "top": top})
    return rows


class DownloadsScreen(RegistryMixin, AreaScreen):
    """The download log: filters, a streamed log, downloads per day (chart) and the top artifacts."""

    KIND = "downloads"
    FILTER_BARS = frozenset({"dl-bar"})

    BINDINGS = [
        Binding("ctrl+g,f5", "load", "Run", id="downloads.load", priority=True),
        Binding("escape", "cancel_load", "Cancel", id="downloads.cancel"),
        Binding(
            "escape", "clear_filter", "Clear filter", show=False, id="screen.clear_filter"
        ),  # (AreaScreen's, kept: this class's escape replaces it)
        Binding("g", "toggle_chart", "Chart", id="downloads.toggle_chart"),
        Binding("t", "toggle_top", "Top", id="downloads.toggle_top"),
        filters_key("downloads"),
        Binding("ctrl+r", "reload", "Refresh from the server", show=False, id="downloads.reload"),
    ]

    DEFAULT_CSS = """
    DownloadsScreen .dl-bar { height: 1; }
    DownloadsScreen #dl-bar1 { margin-top: 1; }
    DownloadsScreen .dl-bar Label { width: auto; padding: 0 1; color: $text-muted; }
    DownloadsScreen .dl-bar Input { width: 1fr; margin-right: 1; }
    DownloadsScreen .dl-bar Input.date { width: 12; }
    DownloadsScreen .dl-bar Label.wide { width: 8; }
    DownloadsScreen #dl-error { color: $error; padding: 0 1; height: auto; }
    DownloadsScreen #dl-upper { height: 12; }
    DownloadsScreen.-short #dl-upper { height: 8; }
    DownloadsScreen.-nochart #dl-upper { display: none; }
    DownloadsScreen BarChart { width: 1fr; height: 1fr; }
    DownloadsScreen #top-panel { width: 60; height: 1fr; padding-left: 1; }
    DownloadsScreen #top-title { text-style: bold; height: 1; }
    DownloadsScreen #top-table { height: 1fr; }
    DownloadsScreen.-narrow #top-panel { display: none; width: 1fr; padding: 0; }
    DownloadsScreen.-narrow.-show-top #top-panel { display: block; }
    DownloadsScreen.-narrow.-show-top BarChart { display: none; }
    DownloadsScreen DataGrid { height: 1fr; }
    DownloadsScreen Input.-invalid { color: $error; }
    """

    def __init__(self) -> None:
        super().__init__()
        # Not `loading`: that is Textual's own attribute, which covers the whole screen with a spinner
        # (and disables it, so ctrl+r did nothing) and could stay up after a fast failure.
        self.fetching = False
        self.refreshing = False
        self.cancelled = False
        self.failed = ""
        self.loaded = 0
        self._load_id = 0
        self.day_counts: Counter[date] = Counter()
        self.artifact_counts: Counter[str] = Counter()
        self.range: tuple[date, date] | None = None
        self.query_text = ""
        self._loader: Worker[Any] | None = None
        self._chart_shown_series: list[tuple[str, float]] = []
        self._drawn_at = 0.0
        self.account_lists: dict[str, tuple[str, ...]] = {}
        """The Account column's text → the accounts it shows (a name may hold a comma: the text alone cannot say)."""

    def raw_record(self) -> Any | None:
        return self.query_one("#dl-grid", DataGrid).current_row()

    def related_links(self) -> list[Link]:
        """j: a download's project (its charts and repositories), its user, its account's entitlements."""
        row = self.query_one("#dl-grid", DataGrid).current_row() or {}
        links = []
        if row.get("project"):
            links.append(Link(f"project {row['project']}", "charts", str(row["project"])))
        if row.get("username"):
            links.append(Link(f"user {row['username']}", "users", f"user={row['username']}"))
        shown = str(row.get("account") or "")
        for account in self.account_lists.get(shown, (shown,) if shown else ()):
            links.append(Link(f"account {account}: its entitlements", "entitlements", account))
        return links

    def first_filter(self) -> Widget | None:
        """`f`: the From date, the first of the log's filter fields."""
        return self.query_one("#dl-from", Input)

    def compose_body(self) -> ComposeResult:
        today = self._today()
        with Horizontal(classes="dl-bar reg-body", id="dl-bar1"):
            yield Label("From", classes="wide")
            yield Input((today - timedelta(days=29)).isoformat(), placeholder="YYYY-MM-DD", id="dl-from", classes="date", compact=True)
            yield Label("To")
            yield Input(today.isoformat(), placeholder="YYYY-MM-DD", id="dl-to", classes="date", compact=True)
            yield Label("Project")
            yield Input(placeholder="exact project name", id="dl-project", compact=True)
        with Horizontal(classes="dl-bar reg-body", id="dl-bar2"):
            yield Label("User", classes="wide")
            yield Input(placeholder="user e-mail", id="dl-user", compact=True)
            yield Label("Account")
            yield Input(placeholder="account ID or name", id="dl-account", compact=True)
        error = Label("", id="dl-error", classes="reg-body")
        error.display = False
        yield error
        yield Label("", id="pager", classes="pager reg-body")
        with Horizontal(id="dl-upper", classes="reg-body"):
            yield BarChart(title="Downloads per day", noun="days", empty_text="no downloads in this range", id="dl-chart")
            with Vertical(id="top-panel"):
                yield Label("Top artifacts", id="top-title")
                yield ResourceTable(TOP_COLUMNS, cell=self._top_cell, id="top-table")
        yield DataGrid(DOWNLOAD_COLUMNS, zebra_stripes=True, max_column_width=48, id="dl-grid", classes="reg-body")
        yield problem_note()

    def _today(self) -> date:
        return datetime.fromtimestamp(self.ctx.now_ms() / 1000, tz=UTC).date()

    def on_mount(self) -> None:
        if not self.ready():
            return
        self._layout(self.size.width, self.size.height)
        self.query_one(DataGrid).focus()
        self.action_load()

    def on_resize(self, event: Any) -> None:
        self._layout(event.size.width, event.size.height)

    def _layout(self, width: int, height: int) -> None:
        self.set_class(width < 110, "-narrow")
        self.set_class(height < 32, "-short")

    # -- filters -------------------------------------------------------------------------------------

    def _value(self, wid: str, *, typed: bool = False) -> str:
        field = self.query_one(f"#{wid}", Input)
        return (field.value if typed else self.applied_text(field)).strip()

    def read_filters(self, *, typed: bool = False) -> tuple[dict[str, Any] | None, list[str]]:
        """The filters as applied (`applied_text`: what every load lists by; `typed`: as typed, to say what is wrong
        with them while they are typed), or None with the problems (each naming its field)."""
        problems: list[str] = []
        bad: set[str] = set()
        start = end = None
        for wid, what in (("dl-from", "from"), ("dl-to", "to")):
            text = self._value(wid, typed=typed)
            if not text:
                problems.append(f"{what}: give a date (YYYY-MM-DD)")
                bad.add(wid)
                continue
            try:
                day = parse_day(text, what)
            except ValueError as exc:
                problems.append(str(exc))
                bad.add(wid)
                continue
            if what == "from":
                start = day
            else:
                end = day
        if start and end and start > end:
            problems.append(f"from {start.isoformat()} is after to {end.isoformat()}")
            bad.update({"dl-from", "dl-to"})
        if end and end > self._today() + timedelta(days=1):
            problems.append(f"to {end.isoformat()} is in the future (today is {self._today().isoformat()} UTC)")
            bad.add("dl-to")
        for wid in ("dl-from", "dl-to"):
            self.query_one(f"#{wid}", Input).set_class(wid in bad, "-invalid")
        if problems:
            return None, problems
        assert start is not None and end is not None
        return {
            "start": start,
            "end": end,
            "project": self._value("dl-project", typed=typed) or None,
            "username": self._value("dl-user", typed=typed) or None,
            "account": self._value("dl-account", typed=typed) or None,
        }, []

    def _show_problems(self, problems: list[str]) -> None:
        label = self.query_one("#dl-error", Label)
        label.update(Text("✗ " + clean("; ".join(problems))) if problems else "")
        label.display = bool(problems)

    @on(Input.Changed, "#dl-from, #dl-to")
    def _dates_changed(self, event: Input.Changed) -> None:
        _, problems = self.read_filters(typed=True)
        self._show_problems(problems)

    def filters_entered(self, field: Widget) -> bool:
        """Enter in a filter field (AreaScreen has applied them): the log read by them; dates refused (said by
        `action_load`, which asks nothing then): not applied, the field keeps the focus."""
        taken = self.read_filters()[0] is not None
        self.action_load()
        return taken

    # -- loading -------------------------------------------------------------------------------------

    def action_reload(self) -> None:
        self.action_load(force=True)

    def action_load(self, force: bool = False) -> None:
        if self.registry_problem():
            return
        filters, problems = self.read_filters()
        self._show_problems(problems)
        if filters is None:
            self.status.error = "fix the dates first: nothing was asked"
            return
        if self._loader is not None and self._loader.is_running:
            self._loader.cancel()
        self._load_id += 1
        self._loader = self.run_worker(
            self._load(filters, force, self._load_id),
            group="downloads-load",
            exclusive=True,
            exit_on_error=False,
            description="loading the download log",
        )

    async def _load(self, filters: dict[str, Any], force: bool, load_id: int) -> None:
        """Stream the log in; whatever happens (an answer, a failure, a cancel), the loading state ends."""
        try:
            self.fetching = True
            self.refreshing = force
            self.cancelled = False
            self.failed = ""
            grid = self.query_one(DataGrid)
            grid.clear()
            self.query_one("#top-table", ResourceTable).set_rows([])
            self.day_counts = Counter()
            self.artifact_counts = Counter()
            self.account_lists = {}
            self.loaded = 0
            self._drawn_at = 0.0
            self.range = (filters["start"], filters["end"])
            self.refresh_bindings()
            self._update_pager()
            self._update_chart()
            async for items in self.registry.iter_downloads(
                filters["start"],
                filters["end"],
                project=filters["project"],
                username=filters["username"],
                account=filters["account"],
                page_size=DOWNLOADS_MAX_PAGE_SIZE,
                force=force,
            ):
                self._add(items)
            self.show_age(None)
        except asyncio.CancelledError:
            if load_id == self._load_id:
                self.cancelled = True
            raise
        except Exception as exc:
            if load_id == self._load_id:
                self.failed = str(exc) if isinstance(exc, ApiError) else f"{type(exc).__name__}: {exc}"
            self.report_error(exc, doing="loading the download log")
        finally:
            if load_id == self._load_id:  # a load replaced by a newer one leaves the newer one's state alone
                self.fetching = False
                self.refreshing = False
                self._after_load()

    @on(Worker.StateChanged)
    def _loader_ended(self, event: Worker.StateChanged) -> None:
        """The backstop: a load cancelled before it ran (so its `finally` never ran) still ends the loading state."""
        if (
            event.worker is self._loader
            and event.state in (WorkerState.CANCELLED, WorkerState.ERROR, WorkerState.SUCCESS)
            and self.fetching
        ):
            self.fetching = False
            self.refreshing = False
            self._after_load()

    def _add(self, items: list[Download]) -> None:
        rows = []
        for d in items:
            accounts = d.accounts
            shown = ", ".join(accounts)
            if len(accounts) > 1:
                self.account_lists.setdefault(shown, accounts)
            rows.append((d.timestamp, d.artifact, d.username, shown, d.project))
            if d.timestamp is not None:
                self.day_counts[d.timestamp.astimezone(UTC).date()] += 1
            self.artifact_counts[d.artifact or "(unknown)"] += 1
        self.loaded += len(items)
        self.query_one(DataGrid).append_rows(rows)
        now = time.monotonic()
        if now - self._drawn_at >= REDRAW_EVERY_S:  # while streaming, the chart and top list follow a few times a second
            self._drawn_at = now
            self._update_chart()
            self._update_top()
        self._update_pager()

    def _after_load(self) -> None:
        try:
            self.refresh_bindings()
            if self.query_text:
                self._apply_grid_filter(self.query_text)
            else:
                self._update_chart()
                self._update_top()
            self._update_pager()
        except Exception:  # the screen is closing
            pass

    def action_cancel_load(self) -> None:
        if self._loader is not None and self._loader.is_running:
            self._loader.cancel()
            self.cancelled = True
            self.fetching = False
            self.refreshing = False
            self.say(f"Stopped: {self.loaded:,} downloads loaded (the newest part of the range)")
            self._after_load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel_load":
            return self.fetching  # when not loading, escape does what it does elsewhere
        if action == "toggle_top":
            return self.has_class("-narrow")
        return super().check_action(action, parameters)

    def action_toggle_top(self) -> None:
        self.toggle_class("-show-top")

    def action_toggle_chart(self) -> None:
        self.toggle_class("-nochart")

    # -- views ---------------------------------------------------------------------------------------

    def _filtered(self) -> bool:
        return bool(self.query_text)

    def _update_chart(self) -> None:
        if self.range is None:
            return
        start, end = self.range
        if self._filtered():
            model = self.query_one(DataGrid).model
            counts: Counter[date] = Counter(dict(model.per_day_counts("timestamp")))
            title = f"Downloads per day · filter {self.query_text!r}"
        else:
            counts = self.day_counts
            title = "Downloads per day"
        if self.fetching:
            title += " (loading…)"
        elif self.failed:
            title += " (partial: failed)"
        elif self.cancelled:
            title += " (partial: stopped)"
        series = per_day_series(counts, start, end)
        self._chart_shown_series = series
        self.query_one(BarChart).update(series, title=title)

    def _update_top(self) -> None:
        if self._filtered():
            model = self.query_one(DataGrid).model
            counts = Counter({str(row.value): row.count for row in model.frequency("artifact")})
            total = model.row_count
        else:
            counts, total = self.artifact_counts, self.loaded
        self.query_one("#top-table", ResourceTable).set_rows(top_rows(counts, total), keep_cursor=False)
        title = f"Top artifacts · {len(counts):,} distinct · enter filters the log"
        self.query_one("#top-title", Label).update(Text(clean(title)))

    @on(DataGrid.RowSelected, "#dl-grid")
    def _open_download(self, event: DataGrid.RowSelected) -> None:
        event.stop()
        row = event.row
        stamp = row.get("timestamp")
        when_text = f"{when(stamp)} UTC ({relative(ms_of(stamp), self.ctx.now_ms())})" if isinstance(stamp, datetime) else ""
        body = block(
            [
                ("When", when_text),
                ("Artifact", row.get("artifact") or ""),
                ("Project", row.get("project") or ""),
                ("User", row.get("username") or ""),
                ("Accounts" if len(self.account_lists.get(row.get("account") or "", ())) > 1 else "Account", row.get("account") or ""),
            ],
            width=10,
        )
        self.app.push_screen(MessageScreen("Download", body.plain))

    @on(DataTable.RowSelected, "#top-table")
    def _filter_to_artifact(self, event: DataTable.RowSelected) -> None:
        """Enter on a top artifact filters the log (and the chart) to it, through the `/` bar."""
        event.stop()
        row = self.query_one("#top-table", ResourceTable).current_row()
        if row is None:
            return
        bar = self.query_one(FilterBar)
        bar.open()
        bar.value = f"artifact={shlex.quote(row['name'])}"
        self.call_later(bar.action_submit)  # the filter stays shown; / edits it, escape there clears it

    def _top_cell(self, row: dict[str, Any], key: str) -> Text:
        if key == "count":
            return cell(row["count"], right=True)
        if key == "share":  # the bar is relative to the most downloaded artifact
            width = 6
            filled = max(1, round(row["n"] / row["top"] * width)) if row["top"] else 0
            return Text(f"{row['share']:>6} " + "█" * filled, no_wrap=True)
        return cell(row.get(key), right=key == "rank")

    def _update_pager(self) -> None:
        if self.range is None:
            return
        start, end = self.range
        days = (end - start).days + 1
        grid = self.query_one(DataGrid)
        span = f"{start.isoformat()} → {end.isoformat()} ({plural(days, 'day')}, UTC)"
        if self.refreshing and self.fetching:
            text = f"⟳ asking the registry again: {self.loaded:,} loaded so far · {span} · escape cancels"
        elif self.fetching:
            text = f"⟳ {self.loaded:,} loaded so far · {span} · newest first · escape cancels"
        elif self.failed:
            text = f"✗ failed · ctrl+r tries again · {self.loaded:,} loaded · {self.failed} · {span}"
        elif self.cancelled:
            text = f"stopped: {self.loaded:,} loaded (the newest part of {span}) · ctrl+g loads again"
        else:
            text = f"{plural(self.loaded, 'download')} · {span}"
        if self.query_text:
            text += f" · filter {self.query_text!r}: {grid.row_count:,} of {grid.total_count:,}"
        self.query_one("#pager", Label).update(Text(clean(text)))

    def apply_filter(self, text: str) -> None:
        self.query_text = text.strip()
        self._apply_grid_filter(self.query_text)

    def _apply_grid_filter(self, text: str) -> None:
        grid = self.query_one(DataGrid)
        grid.set_filter(text)
        self._update_chart()
        self._update_top()
        self._update_pager()

    @property
    def chart_series(self) -> list[tuple[str, float]]:
        return self._chart_shown_series


DOWNLOAD_COLUMNS = [
    GridColumn("timestamp", "datetime", label="When (UTC)"),
    GridColumn("artifact", "str", label="Artifact"),
    GridColumn("username", "str", label="User"),
    GridColumn("account", "str", label="Account"),
    GridColumn("project", "str", label="Project"),
]


TOP_COLUMNS = (Column("rank", "#", 2), Column("name", "Artifact", 30), Column("count", "Count", 6), Column("share", "Share", 13))
