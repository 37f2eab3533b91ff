"""Tabbed, paged, server-filtered lists: what the catalogue and users screens share.

Both screens show one `ResourceTable` a tab, each under a `.toolbar` of
filter inputs (a name, a choice `Select`, "more" as `key=value; …`) that
are sent to the server, with "page N of M" from the pagination total and
`[`/`]` to page. The machinery was written twice and had started to drift;
`TabbedListScreen` (built on `AreaScreen`) now holds it once: per-tab state,
lazy mounting of a tab's widgets, loading a page (stale-while-revalidate:
every page the lister yields is shown, the cached one first), the pager line,
the yes/no and state-styled cells, the toolbar events, and opening a row's
record. A subclass says which tabs it has (`ListTab`s), builds each tab's
toolbar, turns the toolbar into filter models, says how to read every page
of a tab under those filters (`every_pager`) and renders a record.

`/` filters the page shown; enter in the filter bar searches every page of
the tab with the same rule (`everypage.EverySearch`, one a tab, the one the
registry lists and tokens use): the server's filters in the toolbar stay as
they are and bound what is read, the `/` text matches any column. The Name
field is the server's own name filter, for whoever wants that instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pydantic import BaseModel
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label, Select, TabbedContent, TabPane, Tabs

from flextui import kinds
from flextui.api import validation as v
from flextui.api.errors import Invalid
from flextui.api.paging import Page, Pager, pages_of, served_notes
from flextui.api.tolerant import raw_of, unreadable
from flextui.query import parse_filters
from flextui.render.text import clean, json_dumps
from flextui.render.words import plural
from flextui.ui.screens.base import NOT_LOADED, NOT_REFRESHED, AreaScreen, filters_key, on_this_page, sorted_here
from flextui.ui.screens.everypage import EverySearch
from flextui.ui.widgets.bars import TitleBar, toolbar
from flextui.ui.widgets.record import RecordScreen, state_style
from flextui.ui.widgets.table import ResourceTable


@dataclass(frozen=True)
class ListTab:
    """One list: its pane id, kind (columns, capabilities), title, the service's page lister, row builder and noun."""

    id: str
    kind: str
    title: str
    method: str
    row: Callable[[Any], dict[str, Any]]
    noun: str


@dataclass
class TabState:
    """Where one tab is: its page, the server's total, whether it was loaded, the items shown.

    `size` is the page size the server answered (`Page.size`: it may cap or
    ignore the size asked for) and `whole` that it answered its whole list
    (`Page.whole`); the pages are counted by them, so every row stays on
    some page (`Listing.page`).
    """

    page: int = 1
    total: int | None = None
    loaded: bool = False
    items: list[Any] | None = None
    note: str = ""
    size: int | None = None
    whole: bool = False
    query: Any = None
    """The filter model the items shown were listed by (the toolbar as last applied): a search of every page reads by it."""


def list_bindings(
    prefix: str, tabs: Iterable[ListTab], *, next_tab: str = "Next tab", prev_tab: str = "Previous tab", tab_label: str = "{title}"
) -> list[Binding]:
    """The filter, tab, paging and refresh keys of a tabbed list (ids `<prefix>.…`, remappable in [keys])."""
    return [
        Binding("greater_than_sign", "tab(1)", next_tab, id=f"{prefix}.next_tab"),
        Binding("less_than_sign", "tab(-1)", prev_tab, show=False, id=f"{prefix}.prev_tab"),
        filters_key(prefix),
        Binding("x", "clear_filters", "Clear filters", show=False, id=f"{prefix}.clear"),
        # The pager line says "] next · [ prev" when there is more than one page.
        Binding("right_square_bracket", "page(1)", "Next page", show=False, id=f"{prefix}.next_page"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, id=f"{prefix}.prev_page"),
        Binding("ctrl+r", "reload", "Refresh from the server", show=False, id=f"{prefix}.reload"),
        *[
            Binding(str(i + 1), f"show_tab('{tab.id}')", tab_label.format(title=tab.title), show=False, id=f"{prefix}.tab{i + 1}")
            for i, tab in enumerate(tabs)
        ],
    ]


def list_css(screen: str, tabs_id: str) -> str:
    """DEFAULT_CSS of a tabbed list screen class named `screen` (narrow screens hide the toolbar labels)."""
    return f"""
    {screen} #{tabs_id} {{ height: 1fr; }}
    {screen} TabPane {{ padding: 0; }}
    {screen} .toolbar {{ margin: 0; }}
    {screen}.-narrow .toolbar Label {{ display: none; }}
    {screen} .toolbar Input.-bad-filter {{ color: $error; text-style: bold; }}
    """


class TabbedListScreen(AreaScreen):
    """An area of tabbed, paged, server-filtered lists. Tabs are named by their `ListTab.id` throughout.

    Subclasses set LIST_TABS, TABS_ID, WORKER_GROUP and STATE_COLUMN, and implement `service`,
    `_pane_widgets` (usually via `pane`), `_queries` and `open_detail`.
    """

    LIST_TABS: ClassVar[tuple[ListTab, ...]] = ()
    TABS_ID: ClassVar[str] = ""
    """The id of the TabbedContent."""
    WORKER_GROUP: ClassVar[str] = ""
    """Prefix of the worker group each tab loads in (`<prefix>-<tab id>`)."""
    STATE_COLUMN: ClassVar[str] = "state"
    """The column whose value is coloured by `state_style`."""
    FALLBACK_TAB: ClassVar[str] = ""
    """The tab assumed while the TabbedContent names none it knows; empty: the initial tab."""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    def __init__(self, tab: str) -> None:
        super().__init__()
        self.list_tabs = {spec.id: spec for spec in self.LIST_TABS}
        self.initial_tab = tab if tab in self.list_tabs else self.LIST_TABS[0].id
        self.states = {spec.id: TabState() for spec in self.LIST_TABS}
        self.applied_choice: dict[str, Any] = {}
        self.searches = {spec.id: self._every_search(spec) for spec in self.LIST_TABS}
        """Each tab's search of every page (enter in the `/` bar)."""
        self._focus_pending: str | None = None
        """The tab whose table takes the focus once it is built (the user asked for that tab)."""

    @classmethod
    def for_kind(cls, kind: kinds.Kind | None, argument: str | None) -> Self:
        default = cls.LIST_TABS[0].id
        tab = kind.extra.get("tab", default) if kind is not None else default
        return cls(tab, argument)  # type: ignore[call-arg]

    @property
    def tab_id(self) -> str:
        """The active tab's id."""
        try:
            active = self.query_one(f"#{self.TABS_ID}", TabbedContent).active
        except Exception:
            return self.initial_tab
        return active if active in self.list_tabs else (self.FALLBACK_TAB or self.initial_tab)

    @property
    def service(self) -> Any:
        raise NotImplementedError

    @property
    def page_size(self) -> int:
        """The page size asked for (the server may answer another: `size_of`)."""
        return min(self.ctx.settings.page_size, v.MAX_LIMIT)

    def size_of(self, tab: str) -> int:
        """The size of a tab's pages as the server answers them (the size asked for until it has answered)."""
        return self.states[tab].size or self.page_size

    def pages_of(self, tab: str) -> int | None:
        """How many pages a tab's list has as the server pages it (None before a total is known)."""
        state = self.states[tab]
        if state.whole:
            return 1
        return pages_of(state.total, self.size_of(tab)) if state.total is not None else None

    # -- layout --------------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        # Only the first tab's widgets are built now; each other tab builds its own when first shown.
        with TabbedContent(initial=self.initial_tab, id=self.TABS_ID):
            for spec in self.LIST_TABS:
                yield TabPane(spec.title, *(self._pane_widgets(spec.id) if spec.id == self.initial_tab else ()), id=spec.id)

    def _pane_widgets(self, tab: str) -> list[Any]:
        raise NotImplementedError

    def pane(self, tab: str, bar: list[Any], *, row_key: str = "name") -> list[Any]:
        """A tab's widgets: its toolbar of filters, its pager line, its table."""
        table = ResourceTable(kinds.get(self.list_tabs[tab].kind).columns, cell=self._cell, row_key=row_key, id=f"{tab}-table")
        return [toolbar(bar), Label("", id=f"{tab}-pager", classes="pager"), table]

    async def _mount_tab(self, tab: str) -> None:
        pane = self.query_one(f"TabPane#{tab}", TabPane)
        if not pane.children:
            await pane.mount_all(self._pane_widgets(tab))

    async def on_mount(self) -> None:
        # The table of the tab shown: on a loaded machine `:products` then `:features` (keys handed on after 2 s)
        # could show the features tab before this ran, and the initial tab's table took the keys from it.
        self._focus_table(self.tab_id)
        await self._ensure_loaded(self.tab_id)

    def show_kind(self, kind: kinds.Kind) -> None:
        """The app switched here for a kind: show its tab."""
        self.action_show_tab(kind.extra.get("tab", self.LIST_TABS[0].id))

    def action_show_tab(self, tab: str) -> None:
        """Show a tab and put the keys in its table, once it is there (a tab's widgets are built when first shown)."""
        if tab not in self.states:
            return
        tabs = self.query_one(f"#{self.TABS_ID}", TabbedContent)
        if tabs.active == tab:
            self._focus_table(tab)
        else:
            self._focus_pending = tab
            tabs.active = tab  # → _tab_activated: builds the tab, then focuses its table

    def action_tab(self, delta: int) -> None:
        ids = [spec.id for spec in self.LIST_TABS]
        self.action_show_tab(ids[(ids.index(self.tab_id) + delta) % len(ids)])

    @on(TabbedContent.TabActivated)
    async def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.tabbed_content.id != self.TABS_ID:
            return
        tab = self.tab_id
        self.query_one(TitleBar).area = self.area_title
        self.refresh_bindings()
        pending = self._focus_pending
        if pending is not None and pending != tab and pending in self.states:
            # The tab asked for (`:accounts` typed while the screen was still being built) lost to the tab
            # strip's own first activation of its initial tab, which came after it: ask for it again.
            event.tabbed_content.active = pending
            return
        await self._ensure_loaded(tab)
        bar = self.filter_bar()
        if bar is not None:  # the `/` bar shows the filter of the tab shown, not of the one left
            bar.show_applied(self.searches[tab].text or self.table(tab).filter_text)
        # Only in answer to the user: a tab key or command (pending), or a click or arrow on the tab strip.
        # The tab activated when the screen is built must not take the keys from the `:` bar the user opened.
        if self._focus_pending == tab or isinstance(self.focused, Tabs):
            self._focus_pending = None
            self._focus_table(tab)

    def _focus_table(self, tab: str) -> None:
        """Focus a tab's table, if it is built (else `_tab_activated` does it once it is)."""
        tables = self.query(f"#{tab}-table")
        if tables:
            self.give_keys(tables.first())

    def table(self, tab: str | None = None) -> ResourceTable:
        return self.query_one(f"#{tab or self.tab_id}-table", ResourceTable)

    # -- loading ---------------------------------------------------------------------------------

    async def _ensure_loaded(self, tab: str) -> None:
        await self._mount_tab(tab)
        if not self.states[tab].loaded:
            self.load(tab)

    def action_reload(self) -> None:
        self.searches[self.tab_id].forget()  # what every page said may be stale: a search shown is run again
        self.load(self.tab_id, force=True)

    def _queries(self, tab: str) -> list[Any]:
        """The filter models to try, in order, until one finds something; ValueError when the toolbar is wrong."""
        raise NotImplementedError

    def choice_value(self, tab: str, raw: Any) -> Any:
        """The value a choice Select stands for."""
        return str(raw or "")

    def read_choice(self, tab: str) -> Any:
        """The tab's choice Select, now applied."""
        choice = self.choice_value(tab, self.query_one(f"#{tab}-choice", Select).value)
        self.applied_choice[tab] = choice
        return choice

    def parse_more(self, tab: str, model: type[Any], what: str, extras: Sequence[dict[str, Any]]) -> list[Any]:
        """One filter model of "more" (`key=value; …`) per `extras`; a bad "more" is marked and raises ValueError."""
        more = self.query_one(f"#{tab}-more", Input)
        parts = [p for p in re.split(r";", self.applied_text(more)) if p.strip()]
        try:
            out = [parse_filters(parts, model, what=what, extra=extra) for extra in extras]
        except ValueError:
            more.set_class(True, "-bad-filter")
            raise
        more.set_class(False, "-bad-filter")
        return out

    def load(self, tab: str, *, force: bool = False) -> None:
        state = self.states[tab]
        state.loaded = True
        what = self.list_tabs[tab].title.lower()
        if state.items is None:  # nothing shown yet: a slow server's first page was an empty line
            self.query_one(f"#{tab}-pager", Label).update(Text(f"page {state.page} · loading…"))

        async def job() -> None:
            try:
                queries = self._queries(tab)
            except ValueError as exc:
                self.report_error(Invalid(str(exc)), doing=f"filtering {what}")
                return
            for index, query in enumerate(queries):
                last = index == len(queries) - 1
                lister = getattr(self.service, self.list_tabs[tab].method)
                shown = False
                async for page in lister(query, state.page, self.page_size, force=force):
                    if not page.items and not last:
                        continue
                    state.query = query
                    self._show(tab, page)
                    shown = bool(page.items)
                if shown:
                    return

        def failed(exc: BaseException) -> None:
            if isinstance(exc, Invalid) and state.items is not None:
                return  # a filter the server refused: the rows shown stay, the error says why
            note = NOT_LOADED if state.items is None else NOT_REFRESHED
            self.query_one(f"#{tab}-pager", Label).update(Text(note if state.items is None else f"page {state.page} · {note}"))

        self.run_api(job, group=f"{self.WORKER_GROUP}-{tab}", doing=f"loading {what}", failed=failed)

    def _show(self, tab: str, page: Page[Any]) -> None:
        state = self.states[tab]
        state.items = page.items
        state.total = page.total
        state.size = page.size
        state.whole = page.whole
        if page.whole:
            state.page = 1  # the server answers every page with its whole list: that is the one page
        table = self.table(tab)
        if not self.searches[tab].mode:  # the table holds a search of every page: the page waits until it is left
            table.set_rows([self.row_of(tab, item) for item in page.items])
        self._shown(tab, page, table)
        if tab == self.tab_id:
            self.show_age(page.age)
        self._update_pager(tab)

    def _shown(self, tab: str, page: Page[Any], table: ResourceTable) -> None:
        """After a page's rows are in its table (e.g. to place the cursor)."""

    def page_notes(self, tab: str) -> list[str]:
        """What the pager line says of the rows of the page shown ("4 inactive"), after the count: said "on this page"."""
        return []

    def rows_sorted(self, table: ResourceTable) -> None:
        tab = str(table.id or "").removesuffix("-table")
        if tab in self.states:
            self._update_pager(tab)

    def _update_pager(self, tab: str) -> None:
        every = self.searches[tab].note()
        if every is not None:
            self.query_one(f"#{tab}-pager", Label).update(Text(clean(every)))
            return
        state = self.states[tab]
        total = state.total or 0
        pages = self.pages_of(tab) or 1
        noun = self.list_tabs[tab].noun
        nouns = noun + ("s" if total != 1 and not noun.endswith("s") else "")
        table = self.table(tab)
        here = [*sorted_here(table, pages > 1 or state.page > 1), *self.page_notes(tab)]
        parts = [f"page {state.page} of {pages}", f"{total:,} {nouns}", *self.paging_notes(tab)]
        if here:
            parts.append(on_this_page(here))
        if pages > 1:
            parts.append("] next · [ prev")
        if table.filter_text:
            parts.append(f"/{table.filter_text}: {len(table.visible_rows)} of {plural(len(state.items or []), 'row')}")
            if note := self.searches[tab].page_filter_note():
                parts.append(note)
        if not total:
            parts = [f"no {nouns} match these filters"]
        self.query_one(f"#{tab}-pager", Label).update(Text(clean(" · ".join(parts))))

    def paging_notes(self, tab: str) -> list[str]:
        """What the pager line says about a server that pages otherwise than asked (the pages follow it)."""
        state = self.states[tab]
        return served_notes(state.whole, state.size, self.page_size, state.total)

    def page_position(self) -> tuple[int, int | None] | None:
        """(this tab's page, its last page or None when unknown), counted from 1 (`:page N`)."""
        return self.states[self.tab_id].page, self.pages_of(self.tab_id)

    def action_page(self, delta: int) -> None:
        tab = self.tab_id
        state = self.states[tab]
        target = state.page + delta
        last = self.pages_of(tab)
        if target < 1 or (last is not None and target > last):
            return
        self.searches[tab].leave()  # turning a page leaves a search of every page for the page
        state.page = target
        self.load(tab)

    def _cell(self, row: dict[str, Any], key: str) -> Text:
        value = row.get(key)
        text = "yes" if value is True else ("no" if value is False else clean("" if value is None else value))
        style = state_style(self.app, str(value)) if key == self.STATE_COLUMN else ""
        return Text(text, style=style, no_wrap=True, overflow="ellipsis")

    # -- filters ---------------------------------------------------------------------------------

    def filters_entered(self, field: Widget) -> bool:
        """Enter in a toolbar field (AreaScreen has applied the tab's fields): the tab listed by them from its first
        page; False, said at the field, when the toolbar is refused (the loads read it as `_queries` does)."""
        tab = self.tab_id
        try:
            self._queries(tab)  # the toolbar read as the load reads it: a filter refused is said now, at the field
        except ValueError as exc:
            self.report_error(Invalid(str(exc)), doing=f"filtering {self.list_tabs[tab].title.lower()}")
            return False  # not applied (AreaScreen): the focus stays in the field, to fix it
        self.states[tab].page = 1
        self.status.error = ""
        self.other_listing(tab)
        self.load(tab)
        self.table(tab).focus()
        return True

    @on(Select.Changed, ".toolbar Select")
    def _choice_changed(self, event: Select.Changed) -> None:
        event.stop()
        tab = (event.select.id or "").removesuffix("-choice")
        if tab not in self.states or not self.states[tab].loaded or self.choice_value(tab, event.value) == self.applied_choice.get(tab, ""):
            return  # also the Changed a Select posts when it is mounted
        self.states[tab].page = 1
        self.other_listing(tab)
        self.load(tab)

    def first_filter(self) -> Widget | None:
        """The name field of the tab shown (the other tabs' toolbars are built too, once shown)."""
        return self.name_input(self.tab_id)

    def apply_filter(self, text: str) -> None:
        tab = self.tab_id
        if not self.searches[tab].filter(text):  # a search of every page shown takes the new text; "" leaves it
            self.table(tab).set_filter(text)
        self._update_pager(tab)

    def action_clear_filters(self) -> None:
        """`x`: every filter of the tab shown cleared (its fields, its choice, the `/` filter), and the list read again."""
        tab = self.tab_id
        pane = self.query_one(f"TabPane#{tab}", TabPane)
        for field in pane.query(".toolbar Input").results(Input):
            self.set_filter_text(field, "")
            field.set_class(False, "-bad-filter")
        for choice in pane.query(".toolbar Select").results(Select):
            choice.value = ""
        self.other_listing(tab)
        bar = self.filter_bar()
        if bar is not None and bar.applied:
            bar.clear_applied()
        self.table(tab).set_filter("")
        self.states[tab].page = 1
        self.status.error = ""
        self.load(tab)

    def name_input(self, tab: str) -> Input | None:
        """The toolbar field the server filters names by (`<tab>-name`), if the tab has one."""
        found = self.query(f"#{tab}-name")
        widget = found.first() if found else None
        return widget if isinstance(widget, Input) else None

    # -- every page -------------------------------------------------------------------------------

    def row_of(self, tab: str, item: Any) -> dict[str, Any]:
        """A tab's row for one item (the item itself under "item")."""
        return {**self.list_tabs[tab].row(item), "item": item}

    def _every_search(self, spec: ListTab) -> EverySearch:
        tab = spec.id
        return EverySearch(
            self,
            group=f"{self.WORKER_GROUP}-{tab}-every",
            noun=spec.noun,
            table=lambda: self.table(tab),
            row=lambda item: self.row_of(tab, item),
            pager=lambda force: self.every_pager(tab, self.states[tab].query, force),
            page_items=lambda: list(self.states[tab].items or []),
            many_pages=lambda: (self.pages_of(tab) or 1) > 1,
            update=lambda: self._update_pager(tab),
            page_size=lambda: self.size_of(tab),
        )

    def every_pager(self, tab: str, query: Any, force: bool) -> Pager[Any]:
        """Every item of a tab under the filters its page was listed by (`query`), through the data layer's bounded pager."""
        raise NotImplementedError

    @property
    def every_running(self) -> bool:
        """Whether the tab shown is searching every page (escape stops it first: `AreaScreen.escape_clears`)."""
        return self.searches[self.tab_id].running

    def stop_every(self) -> bool:
        """Escape while the tab shown searches every page: stop it (what was read is searched)."""
        return self.searches[self.tab_id].stop()

    def other_listing(self, tab: str) -> None:
        """The toolbar's filters changed: what every page said is of another listing."""
        search = self.searches[tab]
        search.leave()
        search.every = None
        search.outcome = None

    def search_all(self, text: str) -> None:
        """Enter in the filter bar: every page of the tab, matched as `/` matches (any column), not only the page shown.

        It used to put the text in the Name field, the server's name filter: a different
        rule (the name only), which emptied lists `/` had just shown matches in, and left the
        text in the field. The server's search is not strictly better: it matches one column
        and no `!`, so it is the Name field's, and enter means what `/` means.
        """
        self.searches[self.tab_id].search(text)

    # -- detail ------------------------------------------------------------------------------------

    def raw_record(self) -> Any | None:
        return self.selected()

    def selected(self) -> Any | None:
        row = self.table().current_row()
        return row["item"] if row else None

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        item = self.selected()
        if item is not None:
            self.open_detail(item)

    def open_detail(self, item: Any) -> None:
        raise NotImplementedError

    @staticmethod
    def with_raw(item: Any, body: Text) -> Text:
        """A record's detail, led by why it could not be read and the raw JSON the server sent, when it could not."""
        reason = unreadable(item) if isinstance(item, BaseModel) else None
        if not reason:
            return body
        head = (
            Text("⚠ This record could not be read as documented: ", style="bold") + Text(clean(reason)) + Text("\nAs the server sent it:\n")
        )
        head.append(json_dumps(raw_of(item), indent=2, default=str)[:20_000])  # the server's text: unsafe characters as \u escapes
        return head + Text("\n\n") + body

    def show_record(self, title: str, body: Text, actions: list[tuple[str, str, str]]) -> None:
        """Push a record's detail; the action chosen there (a key's action name) runs on this screen."""

        def chosen(action: str | None) -> None:
            if action:
                self.call_later(self.run_action, action)

        row = self.table().current_row()
        item = row.get("item") if row else None
        self.app.push_screen(RecordScreen(title, self.with_raw(item, body), actions, record=item), chosen)


__all__ = ["ListTab", "TabState", "TabbedListScreen", "list_bindings", "list_css"]
