"""A report's results: rows stream into a DataGrid page by page, with tools and export.

The first page shows as soon as it arrives; the rest follow in order while
several pages are fetched at once (`ReportPager`). The count line is honest
("12,500 of 100,000 loaded", "stopped", "failed on page 6") and a progress
bar runs while pages load. Stopping (x, or the button) keeps what is loaded
browsable, and `+` loads the rest from where it stopped (also after an error
or the record limit). An export runs below the grid; escape or x cancels it
(nothing is left on disk), and only then does escape leave the screen. Everything works on the current view: `/` filters, `{`
and `}` sort, columns can be hidden and reordered (C, -, shift+←/→), F shows the
frequency table of the cursor column, I the column statistics, g records per
day, enter a row's every field, c/Y copy the cell/row, ctrl+s saves to a file.
ctrl+r runs it again into the same view: the rows go, the filter, the sort and
the columns stay, and the cursor finds its record again (`DataGrid.clear`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Button, Label, ProgressBar
from textual.worker import Worker, WorkerState, get_current_worker

from flextui.api.errors import ApiError, NotStored
from flextui.api.lane import in_lane
from flextui.api.reports import RECORD_KEYS, Repeats, ReportPage, ReportPager, ReportsService, moved_note, moving_window, unchecked_note
from flextui.kinds import Link
from flextui.render.columns_file import Unstorable
from flextui.render.reports import RowPacker, grid_columns, row_links
from flextui.render.table import Encoded, GridModel
from flextui.render.text import age_text, clean, json_dumps
from flextui.render.words import plural
from flextui.ui.appref import flex_app
from flextui.ui.gcpause import collector_paused
from flextui.ui.later import after_refresh, while_alive
from flextui.ui.screens.base import AreaScreen
from flextui.ui.screens.reports.builder import RunRequest
from flextui.ui.screens.reports.export import (
    ExportCancelled,
    ExportRequest,
    ExportScreen,
    ViewSnapshot,
    fit_path,
    shown_path,
    write_snapshot,
)
from flextui.ui.screens.reports.kept import KEEP_AT_MOST, KeptRun, keep_parts
from flextui.ui.screens.reports.tools import (
    ChartScreen,
    ColumnChooserScreen,
    FrequencyScreen,
    RowDetailScreen,
    StatsScreen,
    date_columns,
    plain,
    readable,
)
from flextui.ui.widgets.commandbar import FilterBar
from flextui.ui.widgets.dialogs import ConfirmScreen, ValueScreen
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.progress import SteadyProgressBar

log = logging.getLogger("flextui.ui")

CONCURRENCY = 6
PROGRESS_EVERY = 0.25  # seconds between count/progress updates while pages stream in (each is ≈ 0.5 KB over SSH)
PACK_IN_THREAD = 200  # rows in a page from which it is packed off the event loop


def _page_for_grid(
    lock: threading.Lock, repeats: Repeats, packer: RowPacker, rows: list[dict[str, Any]], model: GridModel | None = None
) -> list[list[Any]] | Encoded:
    """A page's rows column by column, repeats dropped; given the `model`, encoded for it (`GridModel.encode_columns`)."""
    with lock:  # a cancelled run's page may still be packing when its resumption starts
        columns = packer.columns(repeats.fresh(rows))
        return columns if model is None else encoded_for(model, columns)


def encoded_for(model: GridModel, columns: list[list[Any]], *, fresh: bool = False) -> Encoded:
    """`columns` encoded for `model` (in a worker thread), also when the packer's columns are not yet the model's."""
    if len(columns) == len(model.columns):
        return model.encode_columns(columns, fresh=fresh)
    return model.encode(list(zip(*columns, strict=True)), fresh=fresh)


def next_at(number: int, rows: int, page_size: int, total_pages: int | None) -> tuple[int, int]:
    """Where loading the rest resumes after page `number` brought `rows` rows: the next page, or this one
    past its first `rows` when it was cut short (by a record limit) of a page that was not the last."""
    full = rows >= page_size or (total_pages is not None and number >= total_pages)
    return (number + 1, 0) if full else (number, rows)


def final_state(loaded: int, total: int | None, limit: int | None) -> str:
    """What a run that stopped asking for pages is: "limited" (a record limit reached short of the count),
    "done", or "short" (the server's pages ended short of the count it gave: nobody stopped it; "stopped"
    is for x)."""
    reached = limit is not None and loaded >= limit
    complete = total is not None and loaded >= total
    if reached and not complete:  # (without a total, BATCH mode, more may follow)
        return "limited"
    return "done" if complete or total is None else "short"


def more_to_ask(resume_at: tuple[int, int], total: int | None, page_size: int) -> bool:
    """Whether the server's latest count leaves a page to ask for where loading would resume: after a run
    whose pages ended short of the count, only a count that grew meanwhile does (`+` then asks for it)."""
    if total is None or page_size < 1:
        return False
    number, rows = resume_at
    return (number - 1) * page_size + rows < total


KEEP = 99
"""The rank of a count line part that is never left out (the counts and the state)."""


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a one-row line: its words, fewer words for a narrow screen, and how useful it is (`rank`:
    the lowest is shortened first and then left out first; `KEEP`: shortened at most, never left out)."""

    full: str
    short: str | None = None
    rank: int = 0


def fit_line(parts: list[Part], width: int | None, sep: str = " · ") -> str:
    """`parts` joined in their order, in `width` cells when they can be: every part in full if that fits; else
    the shorter words of the least useful first, until it fits; then the least useful parts left out, until it
    fits (the row is cut at its end: what is left out is gone, not half shown)."""
    texts: list[str | None] = [part.full for part in parts]

    def line() -> str:
        return sep.join(text for text in texts if text is not None)

    if width is None or cell_len(line()) <= width:
        return line()
    order = sorted(range(len(parts)), key=lambda i: parts[i].rank)  # (stable: the earlier of one rank first)
    for i in order:
        if parts[i].short is not None:
            texts[i] = parts[i].short
            if cell_len(line()) <= width:
                return line()
    for i in order:
        if parts[i].rank < KEEP:
            texts[i] = None
            if cell_len(line()) <= width:
                return line()
    return line()


def fitted(choices: list[str], width: int | None) -> str:
    """The first of `choices` (the most words first) that fits in `width` cells; the last when none does."""
    for text in choices:
        if not width or cell_len(text) <= width:
            return text
    return choices[-1]


def export_destination(path: str, fmt: str, width: int | None, hint: str = "") -> str:
    """ "to ./fulfillment-20261102-1000.csv (CSV) · escape or x cancels" in `width` cells: the `hint` left out first,
    then the path cut in its middle (`fit_path`: its file's name kept), the format only when even that is too narrow."""
    tail = f" ({fmt.upper()})"
    for line in (f"to {path}{tail}{hint}", f"to {path}{tail}"):
        if width is None or cell_len(line) <= width:
            return line
    room = width - cell_len("to ") - cell_len(tail)
    if room >= 16:
        return f"to {fit_path(path, room)}{tail}"
    return f"to {fit_path(path, max(1, width - 3))}"


@dataclass
class Gathered:
    """The pages of a run gathered before anything is shown: the rows column by column, the repeats dropped, the counts."""

    repeats: Repeats
    columns: list[list[Any]] = field(default_factory=list)
    received: int = 0
    pages: int = 0
    resume_at: tuple[int, int] = (1, 0)

    def add(self, columns: list[list[Any]]) -> None:
        if not self.columns:
            self.columns = columns
        else:
            for gathered, more in zip(self.columns, columns, strict=True):
                gathered.extend(more)


ROW_ACTIONS = frozenset({"frequency", "stats", "chart", "copy_cell", "copy_row", "view_cell", "export", "hide_column", "move_column"})
"""What needs rows: greyed in the footer while there are none, and said why when pressed."""


class ReportResultsScreen(AreaScreen):
    """Stream a report into a grid; explore, analyse and export what is shown."""

    KIND = "reports"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"export": "export", "rerun": "run", "resume": "run"}

    BINDINGS = [
        # The footer shows the first ones that fit (keys.KeyFooter); `?` lists them all.
        # Only while an export runs (check_action), and first: escape and x stop it before they go back or stop loading.
        Binding("escape,x", "cancel_export", "Cancel export", id="report_results.cancel_export"),
        Binding("x", "stop", "Stop", id="report_results.stop"),
        Binding("plus", "resume", "Load the rest", id="report_results.resume"),
        Binding("f", "filters", "Filters", id="report_results.filters"),
        Binding("ctrl+s", "export", "Save…", id="report_results.export", priority=True),
        Binding("g", "chart", "Per day", id="report_results.chart"),
        Binding("F,shift+f", "frequency", "Frequency", id="report_results.frequency"),
        Binding("I,shift+i", "stats", "Stats", id="report_results.stats"),
        Binding("C,shift+c", "columns", "Columns", id="report_results.columns"),
        Binding("minus", "hide_column", "Hide column", show=False, id="report_results.hide"),
        Binding("shift+left", "move_column(-1)", "Move column left", show=False, id="report_results.left"),
        Binding("shift+right", "move_column(1)", "Move column right", show=False, id="report_results.right"),
        Binding("c", "copy_cell", "Copy cell", show=False, id="report_results.copy_cell"),
        Binding("Y,shift+y", "copy_row", "Copy row", show=False, id="report_results.copy_row"),
        Binding("v", "view_cell", "View cell", show=False, id="report_results.view_cell"),
        Binding("ctrl+r", "rerun", "Run again", show=False, id="report_results.rerun"),
    ]

    DEFAULT_CSS = """
    ReportResultsScreen #rr-query { height: 1; padding: 0 1; color: $text-muted; }
    ReportResultsScreen #rr-count { height: 1; width: 100%; padding: 0 1; }
    ReportResultsScreen .rr-progress { height: 1; padding: 0 1; }
    ReportResultsScreen .rr-progress ProgressBar { width: 44; margin-right: 1; }
    ReportResultsScreen .rr-progress Label { width: 1fr; color: $text-muted; }
    ReportResultsScreen .rr-progress Button { min-width: 8; width: auto; }
    ReportResultsScreen DataGrid { height: 1fr; }
    ReportResultsScreen #rr-export { height: auto; }
    ReportResultsScreen #rr-export-where { height: 1; width: 100%; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, request: RunRequest) -> None:
        super().__init__()
        self.request = request
        self.group = request.group
        self.rtype = request.rtype
        self.filters = request.filters
        self.max_records = request.max_records
        self.loaded = 0
        self.total: int | None = None
        self.total_pages: int | None = None
        self.pages = 0
        self.state = "loading"  # loading | done | stopped (x) | short (the pages ended short of the count) | failed | limited
        self.failure = ""
        self.resume_at = (1, 0)  # (page number, rows of it already loaded)
        self.load_limit: int | None = request.max_records
        self.started = 0.0
        self.elapsed = 0.0
        self._loader: Worker[Any] | None = None
        self._exporter: Worker[Any] | None = None
        self._export_written = 0
        self._export_total = 0
        self._export_request: ExportRequest | None = None
        self._export_replaces = False  # the chosen file existed: a failed or cancelled export leaves it as it was
        self._export_cancelling = False  # asked to stop: the writer stops at its next chunk and removes what it wrote
        self.packer = RowPacker(request.rtype.column_names)
        self._pack_lock = threading.Lock()
        self._keys_state: tuple[str, bool] | None = None
        self._load_id = 0
        self.refreshing = False
        """Fresh rows are being fetched behind the stored ones shown (a revisit)."""
        self.moved: tuple[int, int] | None = None
        """(the first count, the latest) when the server's count changed during this run (or its resumption)."""
        self._repeats = self._new_repeats()
        """The records handed over so far: one handed over twice while paging (the same key) is dropped."""
        self.unchecked = False
        """A rolling window read in pages with no count from the server to check it against (`ReportPager.unchecked`)."""
        self._progress_shown = 0.0
        self._progress_timer: Any = None

    @property
    def area_title(self) -> str:
        return f"Data reports › {self.group} › results"

    def reopen_as(self) -> tuple[str, str | None]:
        """The group's filter builder: a run is not sent to another tenant unasked."""
        return self.KIND, self.group

    @property
    def service(self) -> ReportsService:
        return ReportsService(self.ctx.session)

    @property
    def grid(self) -> DataGrid:
        return self.query_one("#rr-grid", DataGrid)

    # -- layout -----------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        query = f"{self.group} · {self.filters.describe()}"
        if self.request.set_name:
            query += f" · set “{self.request.set_name}”"
        yield Label(Text(clean(query)), id="rr-query")
        yield Label("", id="rr-count")
        with Horizontal(classes="rr-progress", id="rr-progress"):
            yield SteadyProgressBar(id="rr-bar")
            yield Label("", id="rr-rate")
            yield Button("Stop", id="rr-stop", compact=True, variant="warning")
        yield DataGrid(zebra_stripes=True, fixed_columns=1, id="rr-grid")
        with Vertical(id="rr-export"):  # the counts beside the bar; where it goes on a row of its own, to be read whole
            with Horizontal(classes="rr-progress"):
                yield SteadyProgressBar(id="rr-export-bar")
                yield Label("", id="rr-export-label")
                yield Button("Cancel export", id="rr-export-cancel", compact=True)
            yield Label("", id="rr-export-where")

    def on_mount(self) -> None:
        self.query_one("#rr-export").display = False
        self.grid.set_columns(grid_columns(self.rtype.column_names, self.rtype))
        self.grid.focus()
        self.start_loading()

    # -- loading ----------------------------------------------------------------------------------

    def start_loading(self, *, resume: bool = False, force: bool = False) -> None:
        """Load the report (`resume`: the rest of it). From the start, the rows go but the view stays: a run
        again keeps the `/` filter the filter bar still shows, the sort and the columns, and the cursor finds
        its record again when it arrives (`DataGrid.clear`), so what the count line and an export say is
        what the grid holds."""
        if self._loader is not None and self._loader.is_running:
            return
        if not resume:
            self.grid.clear(keep_view=True, key=self.record_key)
            self.packer = RowPacker([c.name for c in self.grid.model.columns])
            self.loaded = 0
            self.pages = 0
            self.total = None
            self.total_pages = None
            self.resume_at = (1, 0)
            self.load_limit = self.max_records
            self._repeats = self._new_repeats()
            self.moved = None
            self.unchecked = False
        self.state = "loading"
        self.failure = ""
        self.status.error = ""
        self._load_id += 1
        self._loader = self.run_worker(
            self._load(force, self._load_id), group="report-load", exclusive=True, description=f"loading the {self.group} report"
        )
        self._asked_at = time.monotonic()
        if self._waiting_timer is None:
            self._waiting_timer = self.set_interval(1.0, while_alive(self, self._waiting_tick))
        self._show_progress()

    _asked_at = 0.0
    _waiting_timer: Timer | None = None

    def _waiting_tick(self) -> None:
        """Count the seconds until the first page (the bar does not move until then)."""
        if self.state == "loading" and not self.pages:
            self._show_count()
        elif self._waiting_timer is not None:
            self._waiting_timer.stop()
            self._waiting_timer = None

    async def _load(self, force: bool, load_id: int) -> None:
        if not force and self.resume_at == (1, 0) and not self.loaded:
            try:
                age = await self._show_stored()
            except Exception as exc:  # a surprise in what the cache holds: the server is asked, as for a miss
                log.warning("reports: the stored %s run could not be shown (%s: %s)", self.group, type(exc).__name__, exc)
                self.grid.set_columns(grid_columns(self.rtype.column_names, self.rtype))
                self.packer = RowPacker(list(self.rtype.column_names))
                self._repeats = self._new_repeats()
                age = None
            if age is not None:
                if age >= self.ctx.session.fresh_seconds:
                    await self._refresh_behind(age, load_id)
                return
        start_page, skip = self.resume_at
        room = None if self.load_limit is None else max(0, self.load_limit - self.loaded)
        if room == 0:
            self.state = "limited"
            self._show_progress()
            return
        pager = self.service.pager(
            self.group,
            self.filters,
            start_page=start_page,
            force=force,
            concurrency=CONCURRENCY,
            max_records=None if room is None else room + skip,
        )
        self.started = time.perf_counter()
        loaded_before = self.loaded
        page_size = self.filters.limit_records
        try:
            async with pager, collector_paused():
                async for page in pager:
                    rows = page.rows[skip:] if skip else page.rows
                    skip = 0
                    if self.loaded == 0 and rows:
                        self._add_unknown_columns(rows)
                    packing = asyncio.ensure_future(self._packed(self._repeats, rows, self.grid.model))
                    try:
                        packed = await asyncio.shield(packing)
                    except asyncio.CancelledError:
                        # Stopped (`x`) while the page was packed in the lane's thread, which goes on and counts
                        # its records as seen: a run resumed there dropped them all as repeats. The page is in hand,
                        # so it is shown, and the run resumes after it.
                        self._took_page(page, rows, await packing, pager, page_size)
                        raise
                    self._took_page(page, rows, packed, pager, page_size)
                    await asyncio.sleep(0)  # pages fetched ahead come in bursts: let keys and paints in between
            self.elapsed = time.perf_counter() - self.started
            self.state = final_state(self.loaded, self.total, self.load_limit)
            self._unchecked(pager.unchecked or (self.unchecked and self.total is None))
            if self.total is None and self.state == "done" and not self.unchecked:
                self.total = self.loaded
            self.show_age(pager.oldest_age)
            await self._settle()
            got = self.loaded - loaded_before
            took = f"{self.elapsed:.1f} s" if self.elapsed >= 0.1 else "under 0.1 s"
            self.app.notify(f"Loaded {plural(got, self.group + ' record')} in {took}", markup=False)
        except ApiError as exc:
            self.state = "failed"
            self.failure = f"page {self.resume_at[0]}: {exc}"
            self.report_error(exc, doing=f"loading {self.group} page {self.resume_at[0]}")
        except Exception as exc:  # never lose what is loaded to a surprise
            self.state = "failed"
            self.failure = f"page {self.resume_at[0]}: {type(exc).__name__}: {exc}"
            self.report_error(exc, doing=f"loading {self.group} page {self.resume_at[0]}")
        finally:
            current = load_id == self._load_id  # a cancelled run must not touch its successor's state
            if current and self.state == "loading":  # cancelled
                self.state = "stopped"
            if current and self.is_attached:
                self.grid.settle_cursor()  # a record the cursor was on that did not come again: its row number
                self._show_progress()

    def _new_repeats(self) -> Repeats:
        """What drops a run's repeated records: only a moving window repeats them (`Repeats.moving`)."""
        return Repeats(self.group, moving=moving_window(self.filters))

    def _took_page(
        self, page: ReportPage, rows: list[dict[str, Any]], packed: list[list[Any]] | Encoded, pager: ReportPager, page_size: int
    ) -> None:
        """A page of the run, packed for the grid: shown, counted, and where the run resumes moved past it."""
        if packed:
            self.grid.append_rows(packed)
        # Counted together, after the page is in: the count line may be drawn while a page is
        # packed, and "22,500 loaded · page 8" (rows counted, their page not yet) read as off by one.
        self.loaded += len(rows)
        self.pages += 1
        self._count_now(pager.moved[1] if pager.moved else pager.total_records)
        self.total_pages = pager.total_pages
        self.resume_at = next_at(page.number, len(page.rows), page_size, self.total_pages)
        self.elapsed = time.perf_counter() - self.started
        self._progress_soon()

    async def _show_stored(self) -> float | None:
        """A revisit: every page of this query the cache holds, shown at once, whatever its age; the age, or None.

        All or nothing: a page missing (or the cache unusable) shows none of them and the
        report is asked for as usual, so a half-stored report never looks whole. The grid's
        columns kept beside the pages (`kept.py`) are read first; the pages, when there are none.
        """
        age = await self._show_kept()
        if age is not None:
            return age
        pager = self.service.pager(
            self.group, self.filters, stored_only=True, concurrency=1, max_records=self.load_limit, on_done=lambda outcome: None
        )
        try:
            got = await self._gather(pager, new_columns=True)
        except (NotStored, ApiError):
            return None
        count, pages = got.received, got.pages
        if not pages:
            return None
        total = pager.total_records if pager.total_records is not None else count
        if count < total and (self.load_limit is None or count < self.load_limit):
            return None  # the stored pages stop short of the count: ask the server
        self.grid.append_rows(await in_lane(encoded_for, self.grid.model, got.columns, fresh=True))
        self._repeats = got.repeats
        self._unchecked(pager.unchecked)
        self.loaded, self.pages, self.total, self.total_pages = count, pages, None if self.unchecked else total, pager.total_pages
        self.resume_at = got.resume_at
        self.state = final_state(count, total, self.load_limit)
        age = pager.oldest_age or 0.0
        self.show_age(age)
        self._show_progress()
        await self._settle()  # before a refresh behind stores a page again
        return age

    async def _show_kept(self) -> float | None:
        """A revisit from the grid's columns kept beside the stored pages: no page decoded; None when none are kept."""
        try:
            parts, age = await self.service.stored_view(self.group, self.filters, max_records=self.load_limit)
            kept = await asyncio.to_thread(KeptRun.read, parts, self.group, list(self.rtype.column_names))
        except (NotStored, ApiError, ValueError):
            return None
        if kept.total is not None and kept.received < kept.total and kept.state != "limited":
            return None  # a run that ended short of its count is never kept; the pages path asks the server
        if kept.names != [c.name for c in self.grid.model.columns]:
            self.grid.set_columns(grid_columns(kept.names, self.rtype))
            self.packer = RowPacker(kept.names)
        self.grid.append_rows(self.grid.model.encoded_stores(kept.stores, kept.count))
        self._repeats = kept.repeats
        self._repeats.moving = moving_window(self.filters)
        self._unchecked(kept.total is None and kept.pages > 1 and moving_window(self.filters))
        self.loaded, self.pages, self.total, self.total_pages = kept.received, kept.pages, kept.total, kept.total_pages
        self.resume_at = kept.resume_at
        self.state = kept.state
        self.show_age(age)
        self._show_progress()
        return age

    async def _settle(self) -> None:
        """A run's rows are all in (loaded, revisited from pages, refreshed): a done run lets go of its record keys
        (it is not resumed; a million of them hold ≈ 90 MB) and its grid is kept for the next revisit."""
        if self.state == "done":
            self._repeats.forget()
        await self._keep()

    async def _keep(self) -> None:
        """Keep the grid's rows beside the stored pages they were made of (for a revisit), if the run is whole:
        the pages' stamps are read now, the columns written in the background."""
        model = self.grid.model
        count, names = model.total_count, [c.name for c in model.columns]
        keys = RECORD_KEYS.get(self.group, ())
        if not count or count > KEEP_AT_MOST or self.state not in ("done", "limited") or not set(keys) <= set(names):
            return  # (without its record keys as columns, a revisit could not drop repeats when the rest is loaded)
        pages = self.resume_at[0] - (0 if self.resume_at[1] else 1)
        try:
            sources = await self.service.view_sources(self.group, self.filters, pages)
        except Exception as exc:  # never a fault for the user: a revisit reads the pages
            log.info("reports: the %s run's pages could not be checked for keeping (%s: %s)", self.group, type(exc).__name__, exc)
            return
        if sources is None:
            return
        rows = model.rows
        stores = [rows.column(i) for i in range(len(model.columns))]
        facts = {
            "received": self.loaded,
            "pages": self.pages,
            "total": self.total,
            "total_pages": self.total_pages,
            "state": self.state,
            "resume_at": list(self.resume_at),
            "dropped": self._repeats.dropped,
        }
        service, group, filters, limit = self.service, self.group, self.filters, self.load_limit

        async def keep() -> None:  # best effort: the pages alone serve a revisit when nothing is kept
            try:
                parts = await asyncio.to_thread(lambda: keep_parts(stores, count, names=names, **facts))  # checked; made as written
                await service.keep_view(group, filters, max_records=limit, sources=sources, names=names, parts=parts)
            except Unstorable:
                pass  # a column that would not read back exactly
            except Exception as exc:  # never a fault for the user: a revisit reads the pages
                log.info("reports: the %s run's grid was not kept (%s: %s)", group, type(exc).__name__, exc)

        self.run_worker(keep(), group="report-keep", exclusive=True, description=f"keeping the {group} report's rows")

    async def _refresh_behind(self, age: float, load_id: int) -> None:
        """Fresh rows behind the stored ones: fetched whole, then put in their place (sort, filter and cursor kept)."""
        self.refreshing = True
        self._show_count()
        pager = self.service.pager(self.group, self.filters, force=True, concurrency=CONCURRENCY, max_records=self.load_limit)
        try:
            got = await self._gather(pager)
            fresh = await in_lane(encoded_for, self.grid.model, got.columns, fresh=True)  # still "refreshing" meanwhile
        except Exception as exc:  # the stored rows stay, said to be old
            self.report_error(exc, doing=f"refreshing the {self.group} report (the rows shown are from the cache, {age_text(age)})")
            return
        finally:
            self.refreshing = False
        if load_id != self._load_id or not self.is_attached:
            return
        self.grid.replace_rows(fresh, key=self.record_key)
        self._repeats = got.repeats
        self.moved = pager.moved
        self._unchecked(pager.unchecked)
        self.loaded, self.pages = got.received, got.pages
        self.total = pager.total_records if pager.total_records is not None or self.unchecked else got.received
        self.total_pages = pager.total_pages
        self.resume_at = got.resume_at
        self.state = final_state(self.loaded, self.total, self.load_limit)
        self.show_age(None)
        self._show_progress()
        await self._settle()

    async def _gather(self, pager: ReportPager, *, new_columns: bool = False) -> Gathered:
        """Every page of `pager` as grid rows, repeats dropped, nothing shown yet (a revisit and its refresh
        show all or nothing); `new_columns`: the first rows add the columns the data model did not list."""
        got = Gathered(self._new_repeats())
        async with pager, collector_paused():
            async for page in pager:
                if new_columns and not got.received and page.rows:
                    self._add_unknown_columns(page.rows)
                columns = await self._packed(got.repeats, page.rows)
                assert isinstance(columns, list)
                got.add(columns)
                got.received += len(page.rows)
                got.pages += 1
                got.resume_at = next_at(page.number, len(page.rows), self.filters.limit_records, pager.total_pages)
                await asyncio.sleep(0)
        return got

    async def _packed(self, repeats: Repeats, rows: list[dict[str, Any]], model: GridModel | None = None) -> list[list[Any]] | Encoded:
        """A page's rows for the grid (`_page_for_grid`), repeats dropped. A page of thousands is made ready
        in the lane of page work (`api/lane.py`): on the event loop it held keys for ≈ 30 ms a page
        (bench/bench_stalls.py); a thread running Python is made to let the loop in every 5 ms."""
        if len(rows) < PACK_IN_THREAD:
            return _page_for_grid(self._pack_lock, repeats, self.packer, rows, model)
        return await in_lane(_page_for_grid, self._pack_lock, repeats, self.packer, rows, model)

    def _add_unknown_columns(self, rows: list[dict[str, Any]]) -> None:
        """Columns the data model did not list but the records carry (kept, after the known ones).

        Added to the grid's columns, not set anew: a run again of records that carry them finds them
        there already, and the filter, the sort and the columns hidden or moved stay."""
        names = [c.name for c in self.grid.model.columns]
        seen = set(names)
        extra = [k for row in rows[:50] for k in row if k not in seen and not seen.add(k)]  # type: ignore[func-returns-value]
        if extra:
            self.grid.add_columns(grid_columns(extra, self.rtype))
            self.packer = RowPacker(names + extra)

    @property
    def record_key(self) -> tuple[str, ...]:
        """The columns that name one record of this group (none: a row is named by all its values)."""
        return RECORD_KEYS.get(self.group, ())

    # -- what is shown ----------------------------------------------------------------------------------

    def _count_now(self, latest: int | None) -> None:
        """The server's latest record count; a change after rows were shown means the window moved."""
        if latest is None:
            return
        if self.total is not None and latest != self.total and self.pages > 1:
            self.moved = (self.moved[0] if self.moved else self.total, latest)
            self.status.info = moved_note(self.moved) or ""  # the whole of it; the count line has the short of it
        self.total = latest

    def _unchecked(self, unchecked: bool) -> None:
        """Whether the rows are of a moving window read in pages with no count to check: said on the status line
        in full (the count line has the short of it), and no total made up from the rows loaded."""
        self.unchecked = unchecked
        if unchecked:
            self.status.info = unchecked_note(True) or ""

    @property
    def more_to_ask(self) -> bool:
        """A run whose pages ended short of the count: whether the latest count leaves a page to ask for."""
        return more_to_ask(self.resume_at, self.total, self.filters.limit_records)

    def short_note(self, *, short: bool = False) -> str:
        """What happened to a run whose pages ended short of the count the server gave, in words, and `+`
        only when the latest count leaves something to ask for (a page past the last one read).
        `short`: fewer words, for a narrow count line."""
        missing = max(0, (self.total or 0) - self.loaded)
        note = f"{missing:,} short of the count" if short else f"the server's pages ended {missing:,} short of its count"
        if moving_window(self.filters):  # records left the rolling window's old end while it was read
            note = f"{'window' if short else 'the window'} moved: {note}"
        return note + ((": + asks" if short else ": + asks for the rest") if self.more_to_ask else "")

    @property
    def repeated(self) -> int:
        """Rows handed over twice while paging (the same record key), dropped."""
        return self._repeats.dropped

    def count_text(self, width: int | None = None) -> str:
        """The honest count line: loaded of total, state, view and cursor; fitted to `width` cells when given
        (`fit_line`: shorter words first, then the least useful parts left out; never the counts or the state)."""
        loaded, total = self.loaded, self.total
        if self.state == "loading" and not self.pages:
            waited = int(time.monotonic() - self._asked_at)
            return "asking for the first page…" + (f" {waited} s" if waited >= 1 else "")
        if total is None:
            main = f"{loaded:,} loaded"
        elif total == 0:
            main = "no records match: f edits the filters"
        elif self.moved:
            main = f"{loaded:,} loaded, {total:,} counted now"
        elif loaded >= total:
            main = f"all {total:,} loaded"
        else:
            main = f"{loaded:,} of {total:,} loaded"
        # Ranks: the lowest is shortened first, then left out first; KEEP is never left out.
        parts = [Part(main, rank=KEEP)]
        if total is None and self.filters.mode == "BATCH":
            parts.append(Part("total unknown (BATCH mode)", "BATCH mode", rank=4))
        if self.refreshing:
            parts.append(Part("refreshing from the server…", "refreshing…", rank=3))
        if self.state == "loading":
            parts.append(Part(f"page {self.pages}" + (f" of {self.total_pages}" if self.total_pages else ""), rank=KEEP))
        elif self.state == "stopped":
            parts.append(Part("stopped: + loads the rest", "stopped: + for the rest", rank=KEEP))
        elif self.state == "short":
            parts.append(Part(self.short_note(), self.short_note(short=True), rank=KEEP))
        elif self.state == "failed":
            parts.append(Part("failed: + retries", rank=KEEP))
        elif self.state == "limited":
            parts.append(
                Part(f"limit of {self.load_limit:,} reached: + loads the rest", f"limit {self.load_limit:,}: + for the rest", rank=KEEP)
            )
        grid = self.grid
        model = grid.model
        if model.filter_text:
            parts.append(Part(f"showing {model.row_count:,} (filter)", f"showing {model.row_count:,}", rank=6))
        sort = model.sort_column
        if sort is not None:  # kept: at 80 columns the sorted column (its title's arrow) is often scrolled out of view
            arrow = "▼" if model.sort_descending else "▲"
            parts.append(Part(f"by {sort.title} {arrow}", f"{arrow}{sort.title}", rank=10))
        hidden = len(model.columns) - len(model.visible_columns)
        if hidden:
            parts.append(Part(f"{plural(hidden, 'column')} hidden", f"{plural(hidden, 'col')} hidden", rank=5))
        if grid.row_count:
            parts.append(Part(f"row {grid.cursor_row + 1:,}", rank=9))
        # Last, and short: the whole of each note is on the status line (`!` shows all of it).
        if self.moved:
            parts.append(Part(moved_note(self.moved, short=True) or "", f"count changed ({self.moved[0]:,} → {self.moved[1]:,})", rank=8))
        if self.repeated:
            parts.append(
                Part(f"{plural(self.repeated, 'repeated row')} dropped (the window moved)", f"{self.repeated:,} repeats dropped", rank=2)
            )
        if self.unchecked and self.state != "loading":
            parts.append(Part(unchecked_note(True, short=True) or "", "may be incomplete (no count)", rank=7))
        return fit_line(parts, width)

    def _progress_soon(self) -> None:
        """Show the progress now, or once PROGRESS_EVERY has passed since the last time (labels relayout)."""
        now = time.monotonic()
        if now - self._progress_shown >= PROGRESS_EVERY:
            self._progress_shown = now
            self._show_progress()
        elif self._progress_timer is None:
            self._progress_timer = self.set_timer(PROGRESS_EVERY - (now - self._progress_shown), while_alive(self, self._progress_due))

    def _progress_due(self) -> None:
        self._progress_timer = None
        self._progress_shown = time.monotonic()
        self._show_progress()

    def _show_count(self) -> None:
        # a fixed one-line box: no relayout for each cursor move (that cost ~13 ms a key)
        label = self.query_one("#rr-count", Label)
        width = label.content_size.width or None  # (none before the first layout: it is shown again on resize)
        label.update(Text(clean(self.count_text(width))), layout=False)

    def on_resize(self, event: events.Resize) -> None:
        # fitted to the new width once the line has it; a screen resized behind another may be replaced by then
        after_refresh(self, self._show_count)
        after_refresh(self, self._export_label)

    def _show_progress(self) -> None:
        loading = self.state == "loading"
        self.query_one("#rr-progress").display = loading
        self.grid.show_when_empty("" if loading else "No rows")  # not "No rows" before the first page
        if loading:
            bar = self.query_one("#rr-bar", ProgressBar)
            goal = self.total
            if goal is not None and self.load_limit is not None:
                goal = min(goal, self.load_limit)
            bar.update(total=goal, progress=self.loaded)
            rate = ""
            if self.elapsed > 0.2 and self.loaded:
                rate = f"{self.loaded / self.elapsed:,.0f} records/s"
            stops = "" if self.exporting else " · x stops"  # (while an export runs, x cancels it first)
            self.query_one("#rr-rate", Label).update(Text(f"loading… {rate}".strip() + stops), layout=False)
        self._show_count()
        keys_state = (self.state, self.grid.row_count > 0)
        if keys_state != self._keys_state:  # the footer is rebuilt only when what the keys can do changes
            self._keys_state = keys_state
            self.refresh_bindings()

    # -- grid events --------------------------------------------------------------------------------------

    @on(DataGrid.CursorMoved, "#rr-grid")
    @on(DataGrid.SortChanged, "#rr-grid")
    @on(DataGrid.FilterChanged, "#rr-grid")
    @on(DataGrid.ColumnsChanged, "#rr-grid")
    def _grid_changed(self, event: Any) -> None:
        self._show_count()

    @on(DataGrid.RowSelected, "#rr-grid")
    def _row_selected(self, event: DataGrid.RowSelected) -> None:
        event.stop()
        col = self.grid.current_column()
        title = f"{self.group} record {event.row_index + 1:,} of {self.grid.row_count:,}"
        self.app.push_screen(RowDetailScreen(event.row, self.grid.model, title, col.name if col else None))

    def apply_filter(self, text: str) -> None:
        self.grid.set_filter(text)
        self._show_count()

    def search_all(self, text: str) -> None:
        """Enter in the `/` bar: every row loaded is searched already, so the filter is applied again, as typed.
        Why: the bar filters as the text changes, so enter on the same text did nothing; it always applies now."""
        self.apply_filter(text)

    # -- actions ---------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        allowed = super().check_action(action, parameters)
        if not allowed:
            return allowed
        if action == "cancel_export":
            return self.exporting
        if action == "clear_filter" and self.exporting:
            return False  # escape cancels the export first
        if action == "stop":
            return self.state == "loading"
        if action == "resume":
            return self.state in ("stopped", "failed", "limited") or (self.state == "short" and self.more_to_ask)
        if action in ROW_ACTIONS:
            try:
                return True if self.grid.row_count else None
            except Exception:
                return None
        return True

    def why_not(self, action: str, description: str) -> str | None:
        if action in ROW_ACTIONS and not self.grid.row_count:
            if self.state == "loading":
                return f"No rows yet: {description} waits for the first page"
            return f"No rows here ({self.group} with these filters found none): nothing to {description.lower()}"
        if action == "resume" and self.state == "short" and not self.more_to_ask:
            return f"Nothing more to ask for: {self.short_note()}; ctrl+r runs it again"
        return super().why_not(action, description)

    _stopped_by_user: Worker[Any] | None = None

    def action_stop(self) -> None:
        if self._loader is not None and self._loader.is_running:
            self._stopped_by_user = self._loader
            self._loader.cancel()
            self.state = "stopped"
            self._show_progress()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A run stopped with `x` is said once it has ended: the page being packed when it was stopped is shown
        after the stop (`_load`), and the message said before it counted 2,500 records fewer than the grid held."""
        if event.worker is self._stopped_by_user and event.state not in (WorkerState.PENDING, WorkerState.RUNNING):
            self._stopped_by_user = None
            self.say(f"Stopped: {self.loaded:,} {self.group} records loaded; + loads the rest")

    def action_resume(self) -> None:
        if self.state == "limited":
            self.load_limit = None  # asked for explicitly: the rest, whatever it is
        self.start_loading(resume=True)

    def action_rerun(self) -> None:
        if self._loader is not None and self._loader.is_running:
            self._loader.cancel()
        self._loader = None
        self.call_later(lambda: self.start_loading(force=True))

    def action_filters(self) -> None:
        self.app.pop_screen()

    def _loading_note(self) -> bool:
        return self.state == "loading"

    def action_frequency(self) -> None:
        col = self.grid.current_column()
        if col is None or not self.grid.row_count:
            return

        def chosen(term: str | None) -> None:
            if term:
                self.add_filter_term(term)

        self.app.push_screen(FrequencyScreen(self.grid.model, col.name, loading=self._loading_note()), chosen)

    def add_filter_term(self, term: str) -> None:
        """AND a term to the results filter, shown in the `/` bar."""
        current = self.grid.model.filter_text.strip()
        text = f"{current} {term}".strip() if current else term
        bar = self.query_one(FilterBar)
        bar.add_class("-open")
        bar.value = text  # posts FilterChanged → apply_filter
        self.apply_filter(text)
        self.grid.focus()

    def action_stats(self) -> None:
        if not self.grid.row_count:
            return
        col = self.grid.current_column()
        self.app.push_screen(StatsScreen(self.grid.model, col.name if col else None, self.rtype, loading=self._loading_note()))

    def action_chart(self) -> None:
        model = self.grid.model
        columns = date_columns(self.rtype, model)
        col = self.grid.current_column()
        start = col.name if col is not None and col.name in columns else (columns[0] if columns else None)
        self.app.push_screen(ChartScreen(model, columns, start, loading=self._loading_note()))

    def action_columns(self) -> None:
        self.app.push_screen(ColumnChooserScreen(self.grid))

    def action_hide_column(self) -> None:
        col = self.grid.current_column()
        if col is None:
            return
        if len(self.grid.model.visible_columns) == 1:
            self.app.notify("At least one column stays shown", severity="warning", markup=False)
            return
        self.grid.hide_column(col.name)
        self.say(f"Hid {col.title}: C shows it again")

    def action_move_column(self, step: int) -> None:
        grid = self.grid
        col = grid.current_column()
        if col is None:
            return
        visible = grid.model.visible_columns
        at = next(i for i, c in enumerate(visible) if c.index == col.index)
        target = at + step
        if not 0 <= target < len(visible):
            return
        grid.move_column(col.name, grid.model.order.index(visible[target].index))
        grid.move_cursor(column=target)

    def raw_record(self) -> Any | None:
        return self.grid.current_row()

    def related_links(self) -> list[Link]:
        """j: what the cursor's cell names (an activation, a product, an account), else what the row names."""
        row = self.grid.current_row()
        if not row:
            return []
        column = self.grid.current_column()
        return row_links(row, column.name if column is not None else None)

    def action_copy_cell(self) -> None:
        col = self.grid.current_column()
        if col is None or not self.grid.row_count:
            return
        flex_app(self).copy_text(plain(self.grid.current_cell()), f"{col.title} value")

    def action_copy_row(self) -> None:
        model = self.grid.model
        if not model.row_count:
            return
        row = model.row(self.grid.cursor_row)
        record = {c.name: row[c.index] for c in model.visible_columns}
        flex_app(self).copy_text(json_dumps(record, default=str), "row as JSON", lines=True)

    def action_view_cell(self) -> None:
        col = self.grid.current_column()
        if col is None or not self.grid.row_count:
            return
        self.app.push_screen(ValueScreen(f"{col.title} of row {self.grid.cursor_row + 1:,}", readable(self.grid.current_cell())))

    # -- export -----------------------------------------------------------------------------------------------

    @property
    def exporting(self) -> bool:
        """An export is writing and has not been asked to stop (escape and x cancel it then, `check_action`)."""
        return self._exporter is not None and self._exporter.is_running and not self._export_cancelling

    @property
    def whole(self) -> bool:
        """Whether the rows loaded are the whole report: loaded to its end, the server's latest count reached, and
        no sign that records may be missing (a count that changed while paging, a moving window with no count)."""
        if self.state in ("loading", "stopped", "failed"):
            return False
        if self.total is not None and self.loaded < self.total:
            return False
        return self.moved is None and not self.unchecked

    def action_export(self) -> None:
        model = self.grid.model
        if not model.row_count:
            return
        if self._exporter is not None and self._exporter.is_running:
            self.app.notify("An export is running: wait for it, or escape cancels it", severity="warning", markup=False)
            return
        # What the dialog counts is what is written: the view as it is now, also while pages go on arriving behind it
        # (the dialog said 152,500 rows "still loading" and the file held the 186,885 loaded by the time it was sent).
        snapshot = ViewSnapshot.of(model)
        note = f"still loading: the {len(snapshot):,} rows loaded so far" if self.state == "loading" else ""
        if self.state in ("stopped", "short", "failed", "limited") and self.total and self.loaded < self.total:
            note = f"only the {self.loaded:,} loaded of {self.total:,}"
        elif self.state in ("stopped", "failed"):  # no total known (BATCH): still not the whole report
            note = f"only the {self.loaded:,} loaded: loading {'failed' if self.state == 'failed' else 'was stopped'}"
        if self.moved and not note:
            note = f"records may be missing: the count changed while paging ({self.moved[0]:,} → {self.moved[1]:,})"
        if self.unchecked and not note:
            note = "records may be missing: no count from the server to check the moving window against"
        # The folder and format of the session's last export: a second one goes where the first went.
        folder, fmt = flex_app(self).last_export or (None, "csv")
        screen = ExportScreen(
            self.group,
            len(snapshot),
            len(model.visible_columns),
            self.ctx.now_ms(),
            note=note,
            fmt=fmt,
            partial=not self.whole,
            folder=folder,
        )
        self.app.push_screen(screen, lambda request: self._export_chosen(request, snapshot))

    def _export_chosen(self, request: ExportRequest | None, snapshot: ViewSnapshot) -> None:
        if request is None:
            return
        flex_app(self).last_export = (request.path.parent, request.format)
        if request.path.exists():

            def confirmed(ok: bool | None) -> None:
                if ok:
                    self.start_export(request, snapshot)

            self.app.push_screen(
                ConfirmScreen(
                    f"Replace {shown_path(request.path)}?",
                    f"The file exists ({request.path.stat().st_size:,} bytes). It is replaced only once the export has finished.",
                    "Replace",
                ),
                confirmed,
            )
            return
        self.start_export(request, snapshot)

    def start_export(self, request: ExportRequest, snapshot: ViewSnapshot | None = None) -> None:
        """Write `snapshot` (the view as the export dialog counted it; None: the view now) in a worker thread."""
        snapshot = snapshot if snapshot is not None else ViewSnapshot.of(self.grid.model)
        self._export_request = request
        self._export_replaces = request.path.exists()
        self._export_total = len(snapshot)
        self._export_written = 0
        self._export_cancelling = False
        self.query_one("#rr-export").display = True
        self.query_one("#rr-export-bar", ProgressBar).update(total=max(1, len(snapshot)), progress=0)

        app = self.app

        def finished(count: int | None, error: BaseException | None) -> None:
            self._export_finished(request, count, error)

        def job() -> int:
            worker = get_current_worker()

            def progress(count: int) -> None:
                self._export_written = count

            count: int | None = None
            error: BaseException | None = None
            try:
                count = write_snapshot(snapshot, request.path, request.format, progress=progress, cancelled=lambda: worker.is_cancelled)
            except ExportCancelled:
                pass
            except BaseException as exc:  # reported on screen, never fatal; the screen must hear of the end whatever it was
                error = exc
            try:
                app.call_from_thread(finished, count, error)
            except RuntimeError:  # the app is closing
                pass
            return count or 0

        # The app runs it, so leaving the results another way (f to edit the filters, a `:` area) does not lose an
        # export asked for on purpose: a toast says it goes on, and another says how it ended. Escape and x, the
        # keys that stop things, cancel it instead (first, while it runs); only a further escape leaves.
        self._exporter = app.run_worker(
            job, thread=True, group="report-export", name="report-export", description=f"exporting to {request.path}"
        )
        self._export_timer = self.set_interval(0.1, while_alive(self, self._export_tick))
        self._export_label()
        self._export_keys_changed()

    def _export_keys_changed(self) -> None:
        """Escape and x cancel an export while it runs, and go back and stop loading again after: the footer, `?`
        and the loading row's hint say so."""
        self.refresh_bindings()
        if self.state == "loading":
            self._show_progress()

    def _export_label(self) -> None:
        """The export's two rows, fitted to their width: the counts beside the bar, then where it goes (the path cut in
        its middle, never its file's name) and the keys that cancel it."""
        request = self._export_request
        if request is None or not self.is_attached:
            return
        counts = self.query_one("#rr-export-label", Label)
        where = self.query_one("#rr-export-where", Label)
        written, total = self._export_written, self._export_total
        if self._export_cancelling:
            choices = [f"cancelling at {written:,} of {total:,} rows…", f"cancelling at {written:,}…", "cancelling…"]
        else:
            choices = [f"exporting {written:,} of {total:,} rows", f"{written:,} of {total:,} rows", f"{written:,} of {total:,}"]
        counts.update(Text(clean(fitted(choices, counts.content_size.width)), no_wrap=True, overflow="ellipsis"), layout=False)
        hint = "" if self._export_cancelling else " · escape or x cancels"
        line = export_destination(clean(shown_path(request.path)), request.format, where.content_size.width or None, hint)
        where.update(Text(line, no_wrap=True, overflow="ellipsis"), layout=False)

    def _export_tick(self) -> None:
        self.query_one("#rr-export-bar", ProgressBar).update(progress=self._export_written)
        self._export_label()

    def _export_finished(self, request: ExportRequest, count: int | None, error: BaseException | None) -> None:
        """Report the end of an export: here when the results are still shown, else as a toast."""
        where = shown_path(request.path)
        here = self.is_attached and self.is_mounted
        self._export_cancelling = False
        if here:
            timer = getattr(self, "_export_timer", None)
            if timer is not None:
                timer.stop()
            self.query_one("#rr-export").display = False
            after_refresh(self, self._export_keys_changed)  # (once the worker is no longer running)
        kept = f"{where} was left as it was" if self._export_replaces else f"nothing written to {where}"
        if error is not None:
            text = error.strerror if isinstance(error, OSError) and error.strerror else str(error) or type(error).__name__
            if isinstance(error, KeyboardInterrupt):
                text = "interrupted"
            if here:
                self.report_error(ApiError(f"{text}; {kept}"), doing="exporting")
            else:
                self.app.notify(f"Export failed: {text}; {kept}", severity="error", markup=False, timeout=8)
            return
        message = (
            f"Exported {plural(count, 'row')} to {where} ({request.format.upper()})" if count is not None else f"Export cancelled: {kept}"
        )
        if here:
            self.say(message)
        else:
            self.app.notify(message, markup=False)

    def action_cancel_export(self) -> None:
        """Escape, x or the button: stop the export; the writer removes its temporary file (the end is said then)."""
        if self.exporting and self._exporter is not None:
            self._export_cancelling = True
            self._exporter.cancel()
            self._export_label()
            self._export_keys_changed()

    def on_unmount(self) -> None:
        if self._exporter is not None and self._exporter.is_running and not self._export_cancelling and self._export_request:
            try:  # left another way than escape (f, a `:` area): the export goes on, and the user is told
                where = shown_path(self._export_request.path)
                self.app.notify(f"The export to {where} goes on: a message says when it has finished", markup=False)
            except Exception:  # the app is closing
                pass

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "rr-stop":
            self.action_stop()
        elif event.button.id == "rr-export-cancel":
            self.action_cancel_export()


__all__ = ["ReportResultsScreen", "RowPacker", "grid_columns"]
