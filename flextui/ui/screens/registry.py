"""The container-registry area: projects, a project's repositories/charts/members, artifacts,
the download log with its chart, and the user's registry secret with event status.

The registry signs in with the profile's user name and password, traded for a
JWT (`RegistryService`, one per context via `registry_for`, so the JWT is
reused and silently renewed on a 401). A token-auth profile has no password:
every registry screen then says why it cannot work instead of failing.

Lists are stale-while-revalidate (cached page first, with its age, then the
fresh one); after a delete the list is reloaded with `force=True`. Deletes
are confirmed in a dialog naming the chart or repository and its project,
and are hidden and refused on read-only profiles. The registry secret is
masked until revealed, fetched only on demand, never cached or logged, and
forgotten when the screen is left.
"""

from __future__ import annotations

import asyncio
import heapq
import shlex
import time
from collections import Counter
from datetime import date, datetime, timedelta, timezone
from collections.abc import AsyncIterator
from typing import Any, ClassVar

from pydantic import BaseModel, field_validator, model_validator
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Label, Static, TabbedContent, TabPane, Tabs
from textual.worker import Worker, WorkerState

from flextui import kinds
from flextui.api.errors import ApiError, NotFound
from flextui.api.paging import Page, Pager
from flextui.api.registry import (
    ARTIFACTS_MAX_PAGE_SIZE,
    DOWNLOADS_MAX_PAGE_SIZE,
    MEMBERS_MAX_PAGE_SIZE,
    PROJECTS_MAX_PAGE_SIZE,
    Artifact,
    Chart,
    ChartDetail,
    Download,
    EventStatus,
    Member,
    Project,
    ProjectDetail,
    RegistryService,
    Repository,
    secret_problems,
)
from flextui.headless.registry import RegistryUnavailable, parse_day, registry_for, split_repository
from flextui.kinds import Column
from flextui.render.text import absolute, clean, relative
from flextui.ui.keys import FlexModal
from flextui.ui.screens.base import NOT_LOADED, AreaScreen
from flextui.ui.screens.everypage import EveryPageSearch
from flextui.ui.widgets.chart import BarChart
from flextui.ui.widgets.commandbar import FilterBar
from flextui.ui.widgets.dialogs import ConfirmScreen, MessageScreen, ValueScreen
from flextui.ui.widgets.forms import FieldSpec, FormScreen
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.gridmodel import Column as GridColumn
from flextui.ui.widgets.table import ResourceTable
from flextui.render.words import plural

MASK = "●" * 16
SECRET_HIDE_AFTER_S = 60.0
TOP_ARTIFACTS = 10
REDRAW_EVERY_S = 0.2


# -- small helpers ------------------------------------------------------------------------------------


def ms_of(value: datetime | None) -> int | None:
    return int(value.timestamp() * 1000) if value is not None else None


def when(value: datetime | None) -> str:
    """UTC "YYYY-MM-DD HH:MM" or ""."""
    return absolute(ms_of(value))


def day_of(value: datetime | None) -> str:
    return value.astimezone(timezone.utc).date().isoformat() if value is not None else ""


def human_size(size: int | None) -> str:
    """Bytes in binary units, as registries show them: 58.5 MiB."""
    if size is None:
        return ""
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{int(value)} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # pragma: no cover


def short_digest(digest: str) -> str:
    """`sha256:750570a4e1a9…` → `750570a4e1a9` (the 12 characters docker shows)."""
    return digest.split(":", 1)[-1][:12]


def cell(value: Any, *, right: bool = False, style: str = "") -> Text:
    """A table cell from a server value: cleaned, never markup, one line."""
    return Text(clean(value), style=style, no_wrap=True, overflow="ellipsis", justify="right" if right else "left")


def block(lines: list[tuple[str, str]], width: int = 14) -> Text:
    """Label/value lines as one Text (values cleaned)."""
    body = Text()
    for index, (label, value) in enumerate(lines):
        if index:
            body.append("\n")
        body.append(f"{label:<{width}}", style="bold")
        body.append(clean(value))
    return body


def capped_page_size(ctx: Any, most: int) -> int:
    """The profile's page size, within what the registry allows for the list."""
    return max(1, min(ctx.settings.page_size, most))


def page_parts(page: int, total: int | None, shown: int, size: int, noun: str) -> list[str]:
    """The head of a pager line: "page 3 of 41", "2,040 projects" (or "page 3", "20 shown" without a total)."""
    if total is not None:
        return [f"page {page} of {max(1, -(-total // size))}", plural(total, noun)]
    return [f"page {page}", f"{shown} shown"]


def turn_page(page: int, delta: int, total: int | None, shown: int, size: int) -> int | None:
    """The page `delta` away from `page`, or None when there is none (before the first, past the last)."""
    target = page + delta
    if target < 1:
        return None
    if delta > 0:
        if total is not None and (target - 1) * size >= total:
            return None
        if total is None and shown < size:
            return None
    return target


def filter_note(table: ResourceTable, counted: str = "shown") -> str:
    return f"filter {table.filter_text!r}: {len(table.visible_rows)} {counted}"


class RegistryMixin:
    """What every registry screen shares: the one service per context, and why it may be unusable."""

    ctx: Any

    @property
    def registry(self) -> RegistryService:
        return registry_for(self.ctx)

    def registry_problem(self) -> str | None:
        try:
            registry_for(self.ctx)
        except RegistryUnavailable as exc:
            return str(exc)
        return None

    def missing_argument(self) -> str | None:
        """Why the screen has nothing to show without its argument (a project…), or None."""
        return None

    def ready(self) -> bool:
        """On mount: True, or False after showing why the registry cannot be used here."""
        problem = self.registry_problem() or self.missing_argument()
        if problem:
            self.show_problem(problem)
            return False
        return True

    def show_problem(self, problem: str) -> None:
        """Replace the screen's body with the reason the registry cannot be used."""
        screen: Any = self
        for widget in screen.query(".reg-body"):
            widget.display = False
        note = screen.query_one("#reg-problem", Static)
        note.update(Text("The registry cannot be used with this profile.\n\n" + clean(problem)))
        note.display = True
        screen.status.error = "registry unavailable: " + problem


def problem_note() -> Static:
    note = Static("", id="reg-problem", classes="empty")
    note.display = False
    return note


class PagedRegistryScreen(EveryPageSearch, RegistryMixin, AreaScreen):
    """A registry list a page at a time: a pager line over one table of KIND's columns; [ and ] turn pages.

    Subclasses say how to fetch a page (`fetch`) and every page (`every_pager`), its rows (`_row`, `_cell`),
    the pager's notes (`pager_notes`) and what enter on a row does (`open_item`). `/` filters the page;
    enter in the filter bar searches every page (`EveryPageSearch`).
    """

    MAX_PAGE_SIZE: ClassVar[int]
    ITEM: ClassVar[str]  # the row key holding the item, e.g. "project"
    NOUN: ClassVar[str]  # counted in the pager, e.g. "project"
    ROW_KEY: ClassVar[str] = "name"
    LOADING_NOTE: ClassVar[bool] = False  # say "page N · loading…" while a page loads

    def __init__(self) -> None:
        super().__init__()
        self.page = 1
        self.total: int | None = None
        self.items: list[Any] = []
        self.shown_page: int | None = None  # the page whose items the table holds
        self.failed = False  # the last load of `page` failed

    @property
    def page_size(self) -> int:
        return capped_page_size(self.ctx, self.MAX_PAGE_SIZE)

    @property
    def table(self) -> ResourceTable:
        return self.query_one(ResourceTable)

    @property
    def loading_what(self) -> str:
        return f"loading {self.KIND}"

    def compose_body(self) -> ComposeResult:
        yield Label("", id="pager", classes="pager reg-body")
        yield ResourceTable(self.kind.columns, cell=self._cell, row_key=self.ROW_KEY, id=f"{self.KIND}-table").add_class("reg-body")
        yield problem_note()

    def on_mount(self) -> None:
        if not self.ready():
            return
        self.table.focus()
        self._start_load(force=False)

    # -- loading ------------------------------------------------------------------------------

    def action_reload(self) -> None:
        self.forget_every()
        self._start_load(force=True)

    def page_items(self) -> list[Any]:
        return self.items

    def many_pages(self) -> bool:
        if self.total is not None:
            return self.total > len(self.items) or self.page > 1
        return self.page > 1 or len(self.items) >= self.page_size

    def _start_load(self, *, force: bool) -> None:
        if self.registry_problem() or self.missing_argument():
            return
        self.failed = False
        if self.LOADING_NOTE:
            self.query_one("#pager", Label).update(Text(f"page {self.page} · loading…"))

        async def job() -> None:
            async for page in self.fetch(force=force):
                self._show(page)

        def failed(exc: BaseException) -> None:
            self.failed = True
            self._update_pager()

        self.run_api(job, group=f"{self.KIND}-load", doing=self.loading_what, failed=failed)

    def fetch(self, *, force: bool) -> AsyncIterator[Page[Any]]:
        raise NotImplementedError

    def _show(self, page: Page[Any]) -> None:
        self.items = page.items
        self.total = page.total
        self.shown_page = self.page
        if not self.every_mode:  # the table holds an all-pages search: the page waits until it is left
            self.table.set_rows([self._row(item) for item in page.items], keep_cursor=False)
        self.show_age(page.age)
        self._update_pager()

    def _row(self, item: Any) -> dict[str, Any]:
        raise NotImplementedError

    def _cell(self, row: dict[str, Any], key: str) -> Text:
        return cell(row.get(key))

    # -- pager and filter ---------------------------------------------------------------------

    def _update_pager(self) -> None:
        every = self.every_note()
        if every is not None:
            self.query_one("#pager", Label).update(Text(clean(every)))
            return
        if self.failed and self.shown_page != self.page:  # nothing of this page is shown: say so, not "loading…"
            if self.shown_page is not None:
                self.table.set_rows([], keep_cursor=False)
            self.query_one("#pager", Label).update(Text(f"page {self.page} · {NOT_LOADED}"))
            return
        parts = page_parts(self.page, self.total, len(self.items), self.page_size, self.NOUN) + self.pager_notes(self.table)
        if self.failed:
            parts.append("✗ not refreshed (ctrl+r tries again)")
        self.query_one("#pager", Label).update(Text(clean(" · ".join(parts))))

    def pager_notes(self, table: ResourceTable) -> list[str]:
        if not table.filter_text:
            return []
        return [filter_note(table), *([self.page_filter_note()] if self.many_pages() else [])]

    def apply_filter(self, text: str) -> None:
        if not self.every_filter(text):
            self.table.set_filter(text)
        self._update_pager()

    def action_page(self, delta: int) -> None:
        if self.every_mode:  # turning a page leaves an all-pages search for the page
            self.leave_every()
        target = turn_page(self.page, delta, self.total, len(self.items), self.page_size)
        if target is not None:
            self.page = target
            self._start_load(force=False)
        else:
            self._update_pager()

    # -- rows ---------------------------------------------------------------------------------

    def selected(self) -> Any:
        row = self.table.current_row()
        return row[self.ITEM] if row else None

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.data_table is not self.table:
            return
        event.stop()
        item = self.selected()
        if item is not None:
            self.open_item(item)

    def open_item(self, item: Any) -> None:
        pass


# -- projects --------------------------------------------------------------------------------------


class ProjectsScreen(PagedRegistryScreen):
    """The registry's projects, alphabetically, a page at a time ("page 3 of 41")."""

    KIND = "projects"
    MAX_PAGE_SIZE = PROJECTS_MAX_PAGE_SIZE
    ITEM = NOUN = "project"
    LOADING_NOTE = True

    BINDINGS = [
        Binding("o", "open_by_name", "Open…", id="projects.open"),
        Binding("c", "copy_name", "Copy name", show=False, id="projects.copy"),
        Binding("right_square_bracket", "page(1)", "Next page", show=False, id="projects.next_page"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, id="projects.prev_page"),
        Binding("ctrl+r", "reload", "Refresh from the server", show=False, id="projects.reload"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.stale = False  # set after a delete elsewhere: the counts changed

    @property
    def projects(self) -> list[Project]:
        return self.items

    def on_screen_resume(self) -> None:  # AreaScreen's handler runs too (Textual dispatches along the MRO)
        if self.stale:
            self.stale = False
            self._start_load(force=True)

    def fetch(self, *, force: bool) -> AsyncIterator[Page[Project]]:
        return self.registry.list_projects(self.page, self.page_size, force=force)

    def _row(self, p: Project) -> dict[str, Any]:
        return {"name": p.name, "repo_count": str(p.repo_count), "chart_count": str(p.chart_count),
                "creation_time": day_of(p.created), "update_time": when(p.updated), "project": p}

    def _cell(self, row: dict[str, Any], key: str) -> Text:
        p: Project = row["project"]
        if key in ("repo_count", "chart_count"):
            n = p.repo_count if key == "repo_count" else p.chart_count
            return cell(n, right=True, style="dim" if n == 0 else "")
        if key == "update_time":
            if p.updated is None:
                return Text("")
            return cell(f"{day_of(p.updated)} · {relative(ms_of(p.updated), self.ctx.now_ms())}")
        return cell(row.get(key))

    def pager_notes(self, table: ResourceTable) -> list[str]:
        parts = ["] for more"] if self.total is None and len(self.projects) == self.page_size else []
        parts.append("sorted by name")
        if table.filter_text:
            parts.append(filter_note(table, f"of {len(self.projects)}" + (" on this page · enter searches every page" if self.many_pages() else "")))
        return parts

    def every_pager(self, force: bool) -> Pager[Project]:
        return self.registry.iter_projects(PROJECTS_MAX_PAGE_SIZE, force=force)

    # -- actions -------------------------------------------------------------------------------

    def open_item(self, project: Project) -> None:
        self.app.push_screen(ProjectScreen(project.name))

    def action_open_by_name(self) -> None:
        if self.registry_problem():
            return
        fields = [FieldSpec("name", "Project name", placeholder="e.g. hello-world-dp",
                            hint="its download package ID; opens the project directly, without paging to it")]

        def build(values: dict[str, Any]) -> str:
            name = values["name"].strip()
            if not name:
                raise ValueError("name: give the project's name")
            return name

        async def send(name: str) -> str:
            return name

        def done(name: str | None) -> None:
            if name:
                self.app.push_screen(ProjectScreen(name))

        self.app.push_screen(FormScreen("Open a project", fields, build, send, submit_label="Open"), done)

    def action_copy_name(self) -> None:
        project = self.selected()
        if project is not None:
            self.app.copy_text(project.name, f"project name {project.name}")  # type: ignore[attr-defined]


# -- one project --------------------------------------------------------------------------------------

TABS = ("repositories", "charts", "members")
TAB_TABLES = {"repositories": "#repos-table", "charts": "#charts-table", "members": "#members-table"}


class ProjectScreen(RegistryMixin, AreaScreen):
    """A project: its package summary and tabs for repositories, charts and members."""

    HOME = ProjectsScreen
    KIND = "repositories"

    BINDINGS = [
        Binding("greater_than_sign", "next_tab(1)", "Next tab", id="project.next_tab"),
        Binding("less_than_sign", "next_tab(-1)", "Previous tab", show=False, id="project.prev_tab"),
        Binding("d,delete", "delete", "Delete", id="project.delete"),
        Binding("u", "member_query", "User…", id="project.member_query"),
        Binding("c", "copy_name", "Copy", id="project.copy"),
        Binding("1", "tab('repositories')", "Repositories tab", show=False, id="project.tab_repositories"),
        Binding("2", "tab('charts')", "Charts tab", show=False, id="project.tab_charts"),
        Binding("3", "tab('members')", "Members tab", show=False, id="project.tab_members"),
        Binding("right_square_bracket", "page(1)", "Next page of members", show=False, id="project.next_page"),
        Binding("left_square_bracket", "page(-1)", "Previous page of members", show=False, id="project.prev_page"),
        Binding("ctrl+r", "reload", "Refresh from the server", show=False, id="project.reload"),
    ]

    DEFAULT_CSS = """
    ProjectScreen #project-summary { padding: 0 1; height: auto; color: $text-muted; }
    ProjectScreen TabbedContent { height: 1fr; }
    ProjectScreen TabPane { padding: 0; height: 1fr; }
    """

    def __init__(self, project: str, tab: str = "repositories") -> None:
        super().__init__()
        self.project = project.strip()
        self.initial_tab = tab if tab in TABS else "repositories"
        self.detail: ProjectDetail | None = None
        self.member_page = 1
        self.member_total: int | None = None
        self.members: list[Member] = []
        self.member_user: str | None = None

    @classmethod
    def for_kind(cls, kind: kinds.Kind | None, argument: str | None) -> ProjectScreen:
        tab = kind.id if kind is not None and kind.id in TABS else "repositories"
        return cls(argument or "", tab)

    # -- chrome -------------------------------------------------------------------------------

    @property
    def tab(self) -> str:
        try:
            active = self.query_one(TabbedContent).active
        except Exception:
            return self.initial_tab
        return active if active in TABS else self.initial_tab

    @property
    def kind(self) -> kinds.Kind:
        return kinds.get(self.tab)

    @property
    def area_title(self) -> str:
        return f"Project {self.project}"

    @property
    def member_page_size(self) -> int:
        return capped_page_size(self.ctx, MEMBERS_MAX_PAGE_SIZE)

    def compose_body(self) -> ComposeResult:
        yield Static(Text(f"Project {clean(self.project)} · loading…"), id="project-summary", classes="reg-body")
        with TabbedContent(initial=self.initial_tab, classes="reg-body"):
            with TabPane("Repositories", id="repositories"):
                yield Label("", id="repos-pager", classes="pager")
                yield ResourceTable(REPO_COLUMNS, cell=self._repo_cell, id="repos-table")
            with TabPane("Charts", id="charts"):
                yield Label("", id="charts-pager", classes="pager")
                yield ResourceTable(CHART_COLUMNS, cell=self._chart_cell, id="charts-table")
            with TabPane("Members", id="members"):
                with Horizontal(classes="toolbar", id="members-bar"):
                    yield Label("User")
                    yield Input(placeholder="u: e-mail, enter asks the registry for this member; empty lists all", id="q-member", compact=True)
                yield Label("", id="members-pager", classes="pager")
                yield ResourceTable(MEMBER_COLUMNS, cell=self._member_cell, row_key="entity_name", id="members-table")
        yield problem_note()

    def missing_argument(self) -> str | None:
        return None if self.project else "give a project: :charts PROJECT, :members PROJECT or :repos PROJECT"

    def on_mount(self) -> None:
        if not self.ready():
            return
        self._focus_table()
        self._load_detail(force=False)
        self._load_members(force=False)

    def show_kind(self, kind: kinds.Kind) -> None:
        if kind.id in TABS:
            self.action_tab(kind.id)

    def action_next_tab(self, delta: int) -> None:
        self.action_tab(TABS[(TABS.index(self.tab) + delta) % len(TABS)])

    def action_tab(self, tab: str) -> None:
        if tab in TABS:
            self.query_one(TabbedContent).active = tab
            self._focus_table()
            self.refresh_bindings()

    @on(TabbedContent.TabActivated)
    def _tab_changed(self, event: TabbedContent.TabActivated) -> None:
        self.refresh_bindings()
        # A click or arrow on the tab strip hands the keys to the tab's table; the tab activated
        # while the screen is built (or a count put in a tab's label) must not take them from the `:` bar.
        if isinstance(self.focused, Tabs):
            self._focus_table()

    def _focus_table(self) -> None:
        self.current_table().focus()

    def current_table(self) -> ResourceTable:
        return self.query_one(TAB_TABLES[self.tab], ResourceTable)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete":
            tab = self.tab
            return tab in ("repositories", "charts") and kinds.get(tab).can("delete", read_only=self.ctx.read_only)
        if action == "page":
            return True if self.tab == "members" else None
        if action == "member_query":
            return self.tab == "members"
        return super().check_action(action, parameters)

    def action_member_query(self) -> None:
        """Focus the members' user field (the API's user_id filter)."""
        if self.tab == "members":
            self.query_one("#q-member", Input).focus()

    def apply_filter(self, text: str) -> None:
        self.current_table().set_filter(text)
        self._update_pagers()

    def action_reload(self) -> None:
        if self.registry_problem() or not self.project:
            return
        self._load_detail(force=True)
        self._load_members(force=True)

    # -- detail: repositories and charts --------------------------------------------------------------

    def _load_detail(self, *, force: bool) -> None:
        async def job() -> None:
            try:
                async for got in self.registry.project_detail(self.project, force=force):
                    self._show_detail(got.value, got.age)
            except NotFound as exc:
                self.query_one("#project-summary", Static).update(
                    Text(f"✗ Project {clean(self.project)} not found ({clean(exc.message)}). Names are download package IDs, without the tenant prefix."))
                raise

        def failed(exc: BaseException) -> None:
            if isinstance(exc, NotFound) or self.detail is not None:
                return
            self.query_one("#project-summary", Static).update(Text(f"Project {clean(self.project)} · {NOT_LOADED}"))
            for pager in ("#repos-pager", "#charts-pager"):
                self.query_one(pager, Label).update(Text(NOT_LOADED))

        self.run_api(job, group="project-detail", doing=f"loading project {self.project}", failed=failed)

    def _show_detail(self, detail: ProjectDetail, age: float | None) -> None:
        self.detail = detail
        self.query_one("#project-summary", Static).update(self._summary(detail))
        self.query_one("#repos-table", ResourceTable).set_rows([{"name": r.name, "short": r.short_name, "repo": r} for r in detail.repositories])
        self.query_one("#charts-table", ResourceTable).set_rows([self._chart_row(c) for c in detail.charts])
        self.show_age(age)
        self._set_tab_label("repositories", "Repositories", len(detail.repositories))
        self._set_tab_label("charts", "Charts", len(detail.charts))
        self._update_pagers()

    def _set_tab_label(self, pane: str, title: str, count: int | None) -> None:
        label = Text(title) if count is None else Text(f"{title} ({count:,})")
        self.query_one(TabbedContent).get_tab(pane).label = label

    def _summary(self, d: ProjectDetail) -> Text:
        now = self.ctx.now_ms()
        text = Text()
        text.append(clean(d.package_name or d.name), style="bold")
        if d.version:
            text.append(f" · version {clean(d.version)}")
        if d.producer:
            text.append(f" · {clean(d.producer)}")
        text.append("\n")
        parts = []
        if d.effective:
            parts.append(f"effective {day_of(d.effective)}")
        if d.expires:
            expired = ms_of(d.expires) is not None and (ms_of(d.expires) or 0) < now
            parts.append(f"expires {day_of(d.expires)}" + (" (expired)" if expired else f" ({relative(ms_of(d.expires), now)})"))
        else:
            parts.append("never expires")
        if d.tenant_id:
            parts.append(f"tenant {clean(d.tenant_id)}")
        if d.available is not None:
            parts.append("available" if d.available else "not available")
        parts.extend(name for name, value in (("restricted", d.restricted), ("owner", d.owner), ("images & charts", d.supports_images_and_charts)) if value)
        text.append(clean(" · ".join(parts)))
        return text

    def _chart_row(self, c: Chart) -> dict[str, Any]:
        latest = c.latest
        return {"name": c.name, "short": c.short_name, "version": (latest.version if latest else "") or "",
                "app_version": (latest.app_version if latest else "") or "", "created": when(latest.created) if latest else "",
                "description": (latest.description if latest else "") or "", "chart": c}

    def _repo_cell(self, row: dict[str, Any], key: str) -> Text:
        repo: Repository = row["repo"]
        if key == "name":
            return cell(repo.short_name)
        if key == "artifact_count":
            return cell(f"{repo.artifact_count:,}", right=True)
        if key == "pull_count":
            return cell(f"{repo.pull_count:,}", right=True)
        if key == "public":
            return cell("public" if repo.public else "private")
        return cell(row.get(key))

    def _chart_cell(self, row: dict[str, Any], key: str) -> Text:
        if key == "name":
            return cell(row["short"])
        return cell(row.get(key))

    def _member_cell(self, row: dict[str, Any], key: str) -> Text:
        m: Member = row["member"]
        if key == "entity_type":
            return cell({"u": "user", "g": "group"}.get((m.entity_type or "").lower(), m.entity_type or ""))
        if key == "role_name":
            return cell(f"{m.role_name or ''}" + (f" ({m.role_id})" if m.role_id is not None else ""))
        return cell(row.get(key))

    def _update_pagers(self) -> None:
        d = self.detail
        repos = self.query_one("#repos-table", ResourceTable)
        charts = self.query_one("#charts-table", ResourceTable)
        if d is not None:
            pulls = sum(r.pull_count for r in d.repositories)
            artifacts = sum(r.artifact_count for r in d.repositories)
            text = f"{plural(len(d.repositories), 'repository', 'repositories')} · {plural(artifacts, 'artifact')} · {plural(pulls, 'pull')}"
            if not d.repositories:
                text += " · no images pushed yet"
            else:
                text += " · enter: artifacts"
            if repos.filter_text:
                text += " · " + filter_note(repos)
            self.query_one("#repos-pager", Label).update(Text(clean(text)))
            text = plural(len(d.charts), "chart")
            text += " · no charts pushed yet" if not d.charts else " · enter: versions and URLs"
            if charts.filter_text:
                text += " · " + filter_note(charts)
            self.query_one("#charts-pager", Label).update(Text(clean(text)))
        self._update_member_pager()

    # -- members ------------------------------------------------------------------------------------

    def _load_members(self, *, force: bool) -> None:
        user = self.member_user

        async def job() -> None:
            async for page in self.registry.members_page(self.project, self.member_page, self.member_page_size, user_id=user, force=force):
                self._show_members(page)

        def failed(exc: BaseException) -> None:
            self.query_one("#members-pager", Label).update(Text(f"members: {NOT_LOADED}"))

        self.run_api(job, group="project-members", doing=f"loading members of {self.project}", failed=failed)

    def _show_members(self, page: Page[Member]) -> None:
        self.members = page.items
        self.member_total = page.total
        rows = [{"entity_name": m.entity_name, "role_name": m.role_name or "", "entity_type": m.entity_type or "", "member": m} for m in page.items]
        self.query_one("#members-table", ResourceTable).set_rows(rows, keep_cursor=False)
        if self.tab == "members":
            self.show_age(page.age)
        if not self.member_user:
            self._set_tab_label("members", "Members", page.total)
        self._update_member_pager()

    def _update_member_pager(self) -> None:
        table = self.query_one("#members-table", ResourceTable)
        if self.member_user:
            if self.members:
                text = f"user_id {self.member_user}: a member ({self.members[0].role_name or 'no role'}) · can pull from {self.project}"
            else:
                text = f"user_id {self.member_user}: not a member of {self.project} · cannot pull from it"
            text += " · clear the field and press enter for everyone"
        else:
            text = " · ".join(page_parts(self.member_page, self.member_total, len(self.members), self.member_page_size, "member"))
            if self.member_total is not None:
                text += " can pull"
            text += " · producers with the download-package permission, then entitled customers"
        if table.filter_text:
            text += " · " + filter_note(table)
        self.query_one("#members-pager", Label).update(Text(clean(text)))

    @on(Input.Submitted, "#q-member")
    def _member_query(self, event: Input.Submitted) -> None:
        event.stop()
        self.member_user = event.value.strip() or None
        self.member_page = 1
        self._load_members(force=False)
        self.query_one("#members-table", ResourceTable).focus()

    def action_page(self, delta: int) -> None:
        if self.tab != "members" or self.member_user:
            return
        target = turn_page(self.member_page, delta, self.member_total, len(self.members), self.member_page_size)
        if target is not None:
            self.member_page = target
            self._load_members(force=False)

    # -- opening rows ------------------------------------------------------------------------------------

    @on(DataTable.RowSelected, "#repos-table")
    def _open_repository(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self.query_one("#repos-table", ResourceTable).current_row()
        if row is not None:
            self.app.push_screen(ArtifactsScreen(self.project, row["repo"].name))

    @on(DataTable.RowSelected, "#charts-table")
    def _open_chart(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self.query_one("#charts-table", ResourceTable).current_row()
        if row is not None:
            self.open_chart(row["chart"])

    def open_chart(self, chart: Chart) -> None:
        async def job() -> None:
            detail = await self.registry.get_chart(self.project, chart.name)
            read_only = not kinds.get("charts").can("delete", read_only=self.ctx.read_only)
            self.app.push_screen(ChartDetailScreen(self.project, detail, self.ctx.now_ms(), read_only), self._after_chart)

        self.run_api(job, group="chart-detail", doing=f"loading chart {chart.short_name}")

    def _after_chart(self, action: str | None) -> None:
        if action == "delete":
            self.call_later(self.action_delete)

    @on(DataTable.RowSelected, "#members-table")
    def _open_member(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self.query_one("#members-table", ResourceTable).current_row()
        if row is None:
            return
        m: Member = row["member"]
        body = block([("Member", m.entity_name), ("Role", f"{m.role_name or ''} (role id {m.role_id})"),
                      ("Type", {"u": "user", "g": "group"}.get((m.entity_type or "").lower(), m.entity_type or "")),
                      ("Entity id", str(m.entity_id or "")), ("Member id", str(m.id or "")), ("Project id", str(m.project_id or "")),
                      ("Project", self.project)])
        self.app.push_screen(MessageScreen(f"Member {m.entity_name}", body.plain))

    # -- actions -------------------------------------------------------------------------------------------

    def action_copy_name(self) -> None:
        row = self.current_table().current_row()
        if row is None:
            return
        if self.tab == "members":
            value = row["entity_name"]
        else:
            value = row["name"]
        self.app.copy_text(value, value)  # type: ignore[attr-defined]

    @work(group="project-action")
    async def action_delete(self) -> None:
        tab = self.tab
        if tab not in ("repositories", "charts"):
            return
        if self.ctx.read_only or not kinds.get(tab).can("delete", read_only=self.ctx.read_only):
            self.report_error(ApiError("this profile is read-only: nothing can be deleted"), doing=f"deleting from {self.project}")
            return
        row = self.current_table().current_row()
        if row is None:
            return
        if tab == "repositories":
            repo: Repository = row["repo"]
            title = f"Delete repository {repo.short_name} of project {self.project}?"
            body = (f"Repository {repo.name} in project {self.project}: {plural(repo.artifact_count, 'artifact')} "
                    f"(every image and tag), pulled {plural(repo.pull_count, 'time')}.\n"
                    "Customers can no longer pull it. This cannot be undone.")
        else:
            c: Chart = row["chart"]
            latest = c.latest.version if c.latest else None
            title = f"Delete chart {c.short_name} of project {self.project}?"
            body = (f"Chart {c.name} in project {self.project}" + (f", latest version {latest}" if latest else "")
                    + ": every version is removed.\nCustomers can no longer pull it. This cannot be undone.")
        if not await self.app.push_screen_wait(ConfirmScreen(title, body, "Delete")):
            self.say("Nothing deleted")
            return
        try:
            if tab == "repositories":
                await self.registry.delete_repository(self.project, row["repo"].name)
                what = f"Repository {row['repo'].short_name}"
            else:
                await self.registry.delete_chart(self.project, row["chart"].name)
                what = f"Chart {row['chart'].short_name}"
        except ApiError as exc:
            self.report_error(exc, doing=f"deleting from {self.project}")
            return
        self.say(f"{what} deleted from project {self.project}")
        self._load_detail(force=True)
        _mark_projects_stale(self.app)


def _mark_projects_stale(app: Any) -> None:
    """After a delete, the projects list's counts are out of date: reload it (forced) the next time it shows."""
    for screen in app.screen_stack:
        if isinstance(screen, ProjectsScreen):
            screen.stale = True


REPO_COLUMNS = kinds.get("repositories").columns
CHART_COLUMNS = kinds.get("charts").columns
MEMBER_COLUMNS = kinds.get("members").columns


# -- chart detail -----------------------------------------------------------------------------------------


class ChartDetailScreen(FlexModal[str | None]):
    """A chart's versions (newest first) with digest, created time and URLs; copy the helm command."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close", id="chart_detail.close"),
        Binding("c", "copy_command", "Copy helm command", id="chart_detail.copy"),
        Binding("d", "choose('delete')", "Delete chart", id="chart_detail.delete"),
    ]

    DEFAULT_CSS = """
    ChartDetailScreen { align: center middle; }
    ChartDetailScreen > Vertical { width: 110; max-width: 98%; height: 90%; border: thick $primary; background: $surface; padding: 0 1; }
    ChartDetailScreen #chart-title { text-style: bold; }
    ChartDetailScreen #chart-summary { height: auto; margin-bottom: 1; }
    ChartDetailScreen DataTable { height: 1fr; min-height: 4; }
    ChartDetailScreen #chart-version { height: auto; max-height: 6; margin-top: 1; }
    ChartDetailScreen #chart-hint { color: $text-muted; }
    """

    def __init__(self, project: str, chart: ChartDetail, now_ms: int, read_only: bool) -> None:
        super().__init__()
        self.project = project
        self.chart = chart
        self.now_ms = now_ms
        self.read_only = read_only

    def _summary(self) -> Text:
        c = self.chart
        latest = c.versions[0] if c.versions else None
        text = Text()
        text.append("Project ", style="bold")
        text.append(clean(self.project))
        text.append(" · latest ", style="bold")
        text.append(clean(c.latest_version or "none"))
        text.append(f" · {plural(len(c.versions), 'version')}")
        if latest is not None:
            if latest.description or latest.home:
                text.append("\n" + clean(" · ".join(v for v in (latest.description, latest.home) if v)))
            maintainers = ", ".join(clean(m.get("name") or m.get("email") or "") for m in latest.maintainers)
            extra = [f"keywords: {', '.join(latest.keywords)}" if latest.keywords else "", f"maintainers: {maintainers}" if maintainers else ""]
            if any(extra):
                text.append("\n" + clean(" · ".join(e for e in extra if e)), style="dim")
        return text

    def compose(self) -> ComposeResult:
        c = self.chart
        hint = "↑↓ version · c copy helm command · escape close" + ("" if self.read_only else " · d delete chart")
        with Vertical():
            yield Label(Text(f"Chart {clean(c.name)}"), id="chart-title")
            yield Static(self._summary(), id="chart-summary")
            table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True, id="versions")
            yield table
            yield Static("", id="chart-version")
            yield Label(hint, id="chart-hint")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Version", width=10)
        table.add_column("App version", width=12)
        table.add_column("Created", width=16)
        table.add_column("Age", width=9)
        table.add_column("Digest", width=12)
        for v in self.chart.versions:
            table.add_row(cell(v.version), cell(v.app_version), cell(when(v.created)), cell(relative(ms_of(v.created), self.now_ms)),
                          cell((v.digest or "")[:12]))
        table.focus()
        self._show_version(0)

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_version(event.cursor_row)

    def _version(self, index: int | None = None) -> Any:
        versions = self.chart.versions
        if not versions:
            return None
        if index is None:
            index = self.query_one(DataTable).cursor_row
        return versions[max(0, min(index, len(versions) - 1))]

    def _show_version(self, index: int) -> None:
        v = self._version(index)
        if v is None:
            self.query_one("#chart-version", Static).update(Text("No versions."))
            return
        lines = [("Version", f"{v.version or ''} (app {v.app_version or '?'}), created {when(v.created)} UTC"), ("Digest", v.digest or "")]
        lines += [("URL", url) for url in v.urls] or [("URL", "")]
        if v.helm_command:
            lines.append(("Helm", v.helm_command))
        self.query_one("#chart-version", Static).update(block(lines, width=9))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and self.read_only:
            return False
        return True

    def action_copy_command(self) -> None:
        v = self._version()
        if v is None:
            return
        value = v.helm_command or (v.urls[0] if v.urls else v.digest or "")
        self.app.copy_text(value, "helm command" if v.helm_command else "chart URL")  # type: ignore[attr-defined]

    def action_choose(self, action: str) -> None:
        self.dismiss(action)


# -- artifacts -------------------------------------------------------------------------------------------------


class ArtifactsScreen(PagedRegistryScreen):
    """A repository's artifacts (newest push first): tags, digest, size, push and pull times; paged."""

    HOME = ProjectsScreen
    KIND = "artifacts"
    MAX_PAGE_SIZE = ARTIFACTS_MAX_PAGE_SIZE
    ITEM = NOUN = "artifact"
    ROW_KEY = "digest"

    BINDINGS = [
        Binding("c", "copy_digest", "Copy digest", id="artifacts.copy"),
        Binding("right_square_bracket", "page(1)", "Next page", show=False, id="artifacts.next_page"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, id="artifacts.prev_page"),
        Binding("ctrl+r", "reload", "Refresh from the server", show=False, id="artifacts.reload"),
    ]

    def __init__(self, project: str, repository: str) -> None:
        super().__init__()
        self.project = project
        self.repository = repository

    @classmethod
    def for_kind(cls, kind: kinds.Kind | None, argument: str | None) -> ArtifactsScreen:
        try:
            project, repository = split_repository(argument or "")
        except ValueError:
            return cls("", argument or "")
        return cls(project, f"{project}/{repository}" if not repository.startswith(project + "/") else repository)

    @property
    def artifacts(self) -> list[Artifact]:
        return self.items

    @property
    def short_name(self) -> str:
        return self.repository.split("/", 1)[1] if "/" in self.repository else self.repository

    @property
    def area_title(self) -> str:
        return f"Artifacts of {self.project}/{self.short_name}"

    @property
    def loading_what(self) -> str:
        return f"loading artifacts of {self.short_name}"

    def missing_argument(self) -> str | None:
        return None if self.project else "give PROJECT/REPOSITORY, e.g. :artifacts hello-world-dp/hello-world-image"

    def fetch(self, *, force: bool) -> AsyncIterator[Page[Artifact]]:
        return self.registry.artifacts_page(self.project, self.repository, self.page, self.page_size, force=force)

    def every_pager(self, force: bool) -> Pager[Artifact]:
        return self.registry.iter_artifacts(self.project, self.repository, ARTIFACTS_MAX_PAGE_SIZE, force=force)

    def _row(self, a: Artifact) -> dict[str, Any]:
        return {"digest": a.digest, "tags": ", ".join(a.tag_names) or "(untagged)", "size": human_size(a.size),
                "push_time": when(a.push_time), "pull_time": when(a.pull_time), "type": a.type or "", "artifact": a}

    def _cell(self, row: dict[str, Any], key: str) -> Text:
        a: Artifact = row["artifact"]
        if key == "digest":
            return cell(short_digest(a.digest))
        if key == "size":
            return cell(row["size"], right=True)
        if key == "tags":
            return cell(row["tags"], style="" if a.tags else "dim italic")
        if key == "pull_time" and a.pull_time is None:
            return cell("never", style="dim")
        return cell(row.get(key))

    def pager_notes(self, table: ResourceTable) -> list[str]:
        if self.every_mode:
            return super().pager_notes(table)
        size = sum(a.size for a in self.artifacts)
        return [f"{human_size(size)} on this page", "enter: details", *super().pager_notes(table)]

    def open_item(self, a: Artifact) -> None:
        lines = [("Repository", self.repository), ("Digest", a.digest), ("Tags", ", ".join(a.tag_names) or "(untagged)"),
                 ("Size", f"{human_size(a.size)} ({a.size:,} bytes)"), ("Type", a.type or ""), ("Media type", a.media_type or ""),
                 ("Pushed", f"{when(a.push_time)} UTC ({relative(ms_of(a.push_time), self.ctx.now_ms())})" if a.push_time else ""),
                 ("Pulled", f"{when(a.pull_time)} UTC ({relative(ms_of(a.pull_time), self.ctx.now_ms())})" if a.pull_time else "never")]
        for t in a.tags:
            lines.append((f"Tag {t.name}", f"pushed {when(t.push_time)}, pulled {when(t.pull_time) or 'never'}"))
        for key, value in (a.extra_attrs or {}).items():
            if isinstance(value, (str, int, float)):
                lines.append((str(key), str(value)))
        for key, value in (a.annotations or {}).items():
            lines.append((str(key).rsplit(".", 1)[-1], str(value)))
        body = block(lines, width=16)
        self.app.push_screen(MessageScreen(f"Artifact {short_digest(a.digest)} of {self.short_name}", body.plain))

    def action_copy_digest(self) -> None:
        a = self.selected()
        if a is not None:
            self.app.copy_text(a.digest, f"digest {short_digest(a.digest)}")  # type: ignore[attr-defined]


ARTIFACT_COLUMNS = kinds.get("artifacts").columns


# -- downloads -----------------------------------------------------------------------------------------------------


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

    BINDINGS = [
        Binding("ctrl+g,f5", "load", "Run", id="downloads.load", priority=True),
        Binding("escape", "cancel_load", "Cancel", id="downloads.cancel"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="screen.clear_filter"),  # (AreaScreen's, kept: this class's escape replaces it)
        Binding("g", "toggle_chart", "Chart", id="downloads.toggle_chart"),
        Binding("t", "toggle_top", "Top", id="downloads.toggle_top"),
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
        return datetime.fromtimestamp(self.ctx.now_ms() / 1000, tz=timezone.utc).date()

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

    def _value(self, wid: str) -> str:
        return self.query_one(f"#{wid}", Input).value.strip()

    def read_filters(self) -> tuple[dict[str, Any] | None, list[str]]:
        """The filters, or None with the problems (each naming its field)."""
        problems: list[str] = []
        bad: set[str] = set()
        start = end = None
        for wid, what in (("dl-from", "from"), ("dl-to", "to")):
            text = self._value(wid)
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
        return {"start": start, "end": end, "project": self._value("dl-project") or None,
                "username": self._value("dl-user") or None, "account": self._value("dl-account") or None}, []

    def _show_problems(self, problems: list[str]) -> None:
        label = self.query_one("#dl-error", Label)
        label.update(Text("✗ " + clean("; ".join(problems))) if problems else "")
        label.display = bool(problems)

    @on(Input.Changed, "#dl-from, #dl-to")
    def _dates_changed(self, event: Input.Changed) -> None:
        _, problems = self.read_filters()
        self._show_problems(problems)

    @on(Input.Submitted, "#dl-from, #dl-to, #dl-project, #dl-user, #dl-account")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_load()

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
        self._loader = self.run_worker(self._load(filters, force, self._load_id), group="downloads-load", exclusive=True,
                                       exit_on_error=False, description="loading the download log")

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
            self.loaded = 0
            self._drawn_at = 0.0
            self.range = (filters["start"], filters["end"])
            self.refresh_bindings()
            self._update_pager()
            self._update_chart()
            async for items in self.registry.iter_downloads(
                filters["start"], filters["end"], project=filters["project"], username=filters["username"],
                account=filters["account"], page_size=DOWNLOADS_MAX_PAGE_SIZE, force=force,
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
        if event.worker is self._loader and event.state in (WorkerState.CANCELLED, WorkerState.ERROR, WorkerState.SUCCESS) and self.fetching:
            self.fetching = False
            self.refreshing = False
            self._after_load()

    def _add(self, items: list[Download]) -> None:
        rows = []
        for d in items:
            rows.append((d.timestamp, d.artifact, d.username, d.account, d.project))
            if d.timestamp is not None:
                self.day_counts[d.timestamp.astimezone(timezone.utc).date()] += 1
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
        body = block([("When", when_text), ("Artifact", row.get("artifact") or ""), ("Project", row.get("project") or ""),
                      ("User", row.get("username") or ""), ("Account", row.get("account") or "")], width=10)
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


# -- the registry secret and event status ------------------------------------------------------------------------


class SecretChoice(BaseModel):
    """A new registry secret as typed (empty: the registry makes a random one); checked like the registry does."""

    secret: str = ""
    repeat: str = ""

    @field_validator("secret")
    @classmethod
    def _strong(cls, value: str) -> str:
        if value:
            problems = secret_problems(value)
            if problems:
                raise ValueError("needs " + "; ".join(problems))
        return value

    @model_validator(mode="after")
    def _same(self) -> SecretChoice:
        if self.secret and self.repeat != self.secret:
            raise ValueError("repeat: does not match the new secret")
        return self


EVENT_MEANING = {
    EventStatus.PROCESSED.value: ("✓", "success", "the user's registry access is set up: they can log in and pull"),
    EventStatus.IN_PROGRESS.value: ("⟳", "warning", "the registry is still setting the user up: try again in a few minutes"),
    EventStatus.CANCELLED.value: ("✗", "error", "setting the user up was cancelled: they cannot pull; check their permissions or entitlements"),
}


class SecretScreen(RegistryMixin, AreaScreen):
    """Your registry secret (masked until revealed, forgotten on leaving), reset, and event status lookup."""

    KIND = "secret"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"reset": "reset"}

    BINDINGS = [
        Binding("v", "toggle_reveal", "Reveal/hide", id="secret.reveal"),
        Binding("c", "copy_secret", "Copy", id="secret.copy"),
        Binding("r", "reset", "Reset…", id="secret.reset"),
        Binding("u", "event_focus", "User's event…", id="secret.event"),
    ]

    DEFAULT_CSS = """
    SecretScreen #secret-panel { height: auto; border: round $primary; padding: 0 1; margin: 1 1 0 1; }
    SecretScreen VerticalScroll { scrollbar-gutter: auto; }
    SecretScreen #secret-who { color: $text-muted; }
    SecretScreen #secret-value { text-style: bold; height: 1; margin: 1 0; }
    SecretScreen #secret-value.-revealed { color: $warning; }
    SecretScreen #secret-help { color: $text-muted; height: auto; }
    SecretScreen #event-panel { height: auto; border: round $secondary; padding: 0 1; margin: 1 1 0 1; }
    SecretScreen #event-bar { height: 1; margin: 1 0 0 0; }
    SecretScreen #event-bar Label { padding: 0 1 0 0; color: $text-muted; }
    SecretScreen #event-bar Input { width: 1fr; }
    SecretScreen #event-result { height: auto; width: 1fr; margin: 1 0 0 0; }
    SecretScreen #event-result.-success { color: $success; }
    SecretScreen #event-result.-warning { color: $warning; }
    SecretScreen #event-result.-error { color: $error; }
    SecretScreen #event-help { color: $text-muted; height: auto; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._secret: str | None = None
        self.revealed = False
        self._hide_timer: Any = None

    @property
    def shows_secret(self) -> bool:
        """Whether the secret is on screen (revealed): the app takes no screenshot then."""
        return self.revealed and self._secret is not None

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(classes="reg-body"):
            with Vertical(id="secret-panel"):
                yield Label("", id="secret-who")
                yield Label(MASK, id="secret-value")
                yield Static("", id="secret-help")
            with Vertical(id="event-panel"):
                yield Label(Text("Event status", style="bold"))
                with Horizontal(id="event-bar"):
                    yield Label("User")
                    yield Input(value=self.ctx.user or "", placeholder="user e-mail (entity type USER)", id="q-event", compact=True)
                yield Static("", id="event-result")
                yield Static(Text("Whether the registry has processed a user: Processed, In-Progress or Cancelled. "
                                  "Enter asks the registry (never cached)."), id="event-help")
        yield problem_note()

    def on_mount(self) -> None:
        if not self.ready():
            return
        user = self.registry.username
        self.query_one("#secret-who", Label).update(
            Text(clean(f"Registry secret of {user} · tenant {self.registry.tenant_id}")))
        self._render_secret()
        self.query_one("#event-result", Static).display = False

    def _render_secret(self) -> None:
        value = self.query_one("#secret-value", Label)
        if self.revealed and self._secret is not None:
            value.update(Text(clean(self._secret)))
        else:
            value.update(Text(MASK + "  (hidden)"))
        value.set_class(self.revealed, "-revealed")
        if self.revealed:
            help_text = (f"Shown until you press v, leave this screen, or {int(SECRET_HIDE_AFTER_S)} s pass. "
                         "Use it as the password of `docker login` / `helm registry login` with your user name.")
        else:
            help_text = ("v reveal · c copy · r reset (to a value you choose, or a random one) · "
                         "The secret is your registry password for docker and helm; it is fetched only when asked and never stored.")
        if self.ctx.read_only:
            help_text += " This profile is read-only: resetting is disabled."
        self.query_one("#secret-help", Static).update(Text(help_text))

    # -- hide on leave -------------------------------------------------------------------------------

    def on_screen_suspend(self) -> None:
        self.forget_secret()

    def on_unmount(self) -> None:
        self._secret = None

    def forget_secret(self) -> None:
        """Hide the secret and drop it from memory (leaving the screen, timer, reset)."""
        self._secret = None
        self.revealed = False
        if self._hide_timer is not None:
            self._hide_timer.stop()
            self._hide_timer = None
        try:
            self._render_secret()
        except Exception:  # not mounted any more
            pass

    # -- actions ---------------------------------------------------------------------------------------

    def action_toggle_reveal(self) -> None:
        if self.registry_problem():
            return
        if self.revealed:
            self.forget_secret()
            return

        async def job() -> None:
            secret = await self.registry.get_secret()
            self._secret = secret
            self.revealed = True
            self._render_secret()
            self._hide_timer = self.set_timer(SECRET_HIDE_AFTER_S, self.forget_secret)
            self.status.error = ""

        self.run_api(job, group="secret", doing="fetching your registry secret")

    def action_copy_secret(self) -> None:
        if self.registry_problem():
            return

        async def job() -> None:
            secret = self._secret if self._secret is not None else await self.registry.get_secret()
            self.app.copy_text(secret, "your registry secret", sensitive=True)  # type: ignore[attr-defined]

        self.run_api(job, group="secret", doing="copying your registry secret")

    def action_reset(self) -> None:
        if self.registry_problem():
            return
        if self.ctx.read_only:
            self.report_error(ApiError("this profile is read-only: the registry secret cannot be reset"), doing="resetting the secret")
            return
        fields = [
            FieldSpec("secret", "New secret (empty: random)", kind="password",
                      hint="at least 8 characters with an uppercase letter, a lowercase letter and a digit; leave empty for a random one"),
            FieldSpec("repeat", "Repeat it", kind="password", visible_when=lambda v: bool(v.get("secret"))),
        ]

        def build(values: dict[str, Any]) -> SecretChoice:
            return SecretChoice.model_validate(values)

        async def send(choice: SecretChoice) -> SecretChoice:
            return choice  # confirmed first, then sent

        def done(choice: SecretChoice | None) -> None:
            if choice is not None:
                self._confirm_reset(choice.secret)

        self.app.push_screen(FormScreen("Reset your registry secret", fields, build, send, submit_label="Next"), done)

    @work(group="secret-reset")
    async def _confirm_reset(self, new_secret: str) -> None:
        user = self.registry.username
        what = f"the secret you typed ({len(new_secret)} characters)" if new_secret else "a random secret made by the registry"
        ok = await self.app.push_screen_wait(ConfirmScreen(
            f"Reset the registry secret of {user}?",
            f"The current secret stops working at once: docker and helm logins, CI jobs and pull secrets that use it "
            f"fail until they are given the new one.\nThe new secret will be {what}; it is shown once.",
            "Reset"))
        if not ok:
            self.say("The registry secret was not changed")
            return
        try:
            fresh = await self.registry.reset_secret(new_secret or None)
        except (ApiError, ValueError) as exc:
            self.report_error(exc if isinstance(exc, ApiError) else ApiError(str(exc)), doing="resetting the registry secret")
            return
        self.forget_secret()
        self.app.push_screen(ValueScreen(f"New registry secret of {user}", fresh, once=True,
                                         note="Use it as the password for docker login / helm registry login. flextui does not keep it."))
        self.say("Registry secret reset")

    def action_event_focus(self) -> None:
        self.query_one("#q-event", Input).focus()

    @on(Input.Submitted, "#q-event")
    def _event_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.lookup_event(event.value.strip())

    def lookup_event(self, user: str) -> None:
        result = self.query_one("#event-result", Static)
        if not user:
            self._event_result("give a user's e-mail", "error")
            return
        if self.registry_problem():
            return
        result.display = True
        result.update(Text(f"⟳ asking about {clean(user)}…"))

        async def job() -> None:
            try:
                status = await self.registry.event_status(user)
            except NotFound as exc:
                self._event_result(f"? {user}: not found ({exc.message}) — the registry has no record of this user; "
                                   "check the spelling, or whether they were ever given access", "warning")
                return
            except ApiError as exc:
                self._event_result(f"✗ {user}: could not ask ({exc})", "error")
                raise
            mark, tone, meaning = EVENT_MEANING.get(status, ("?", "warning", "a status flextui does not know"))
            self._event_result(f"{mark} {user}: {status} — {meaning}", tone)

        self.run_api(job, group="event", doing=f"asking the event status of {user}")

    def _event_result(self, text: str, tone: str) -> None:
        result = self.query_one("#event-result", Static)
        result.display = True
        result.update(Text(clean(text)))
        for name in ("success", "warning", "error"):
            result.set_class(name == tone, f"-{name}")
