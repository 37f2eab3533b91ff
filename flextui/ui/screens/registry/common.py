"""What the container-registry screens share: the registry service, the page and filter notes, cells and the paged list base.

The registry signs in with the profile's user name and password, traded for a
JWT (`RegistryService`, one per context via `context.registry_for`, so the JWT
is reused and silently renewed on a 401). A token-auth profile has no
password: every registry screen then says why it cannot work instead of
failing (`RegistryMixin`).

Lists are stale-while-revalidate (cached page first, with its age, then the
fresh one); after a delete the list is reloaded with `force=True`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import DataTable, Label, Static
from textual.worker import Worker

from flextui.api.paging import Page, pages_of, served_notes
from flextui.api.registry import (
    RegistryService,
)
from flextui.context import RegistryUnavailable, registry_for
from flextui.render.text import absolute, clean
from flextui.render.words import plural
from flextui.ui.screens.base import NOT_LOADED, AreaScreen
from flextui.ui.screens.everypage import EveryPageSearch
from flextui.ui.screens.pages_ahead import Ahead
from flextui.ui.widgets.table import ResourceTable

MASK = "●" * 16


# -- small helpers ------------------------------------------------------------------------------------


def ms_of(value: datetime | None) -> int | None:
    return int(value.timestamp() * 1000) if value is not None else None


def when(value: datetime | None) -> str:
    """UTC "YYYY-MM-DD HH:MM" or ""."""
    return absolute(ms_of(value))


def day_of(value: datetime | None) -> str:
    return value.astimezone(UTC).date().isoformat() if value is not None else ""


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


def page_parts(page: int, total: int | None, shown: int, size: int, noun: str, last: int | None = None) -> list[str]:
    """The head of a pager line: "page 3 of 41", "2,040 projects" (without a total: "page 3", or "page 3 of 3" once
    `last` is known, and "20 shown")."""
    if total is not None:
        return [f"page {page} of {max(1, -(-total // size))}", plural(total, noun)]
    return [f"page {page}" + (f" of {last}" if last is not None else ""), f"{shown} shown"]


def turn_page(page: int, delta: int, total: int | None, size: int, last: int | None = None) -> int | None:
    """The page `delta` away from `page`, or None when there is none (before the first, past the last: counted from
    the total, else `last` once known). Without a total, a page shorter than asked is no sign of the last (the server
    may page by a size of its own): `Ahead` says whether a next page exists."""
    target = page + delta
    if target < 1:
        return None
    if delta > 0:
        if total is not None and (target - 1) * size >= total:
            return None
        if total is None and last is not None and target > last:
            return None
    return target


def filter_note(table: ResourceTable, counted: str = "shown") -> str:
    return f"filter {table.filter_text!r}: {len(table.visible_rows)} {counted}"


def sorted_note(table: ResourceTable, many_pages: bool, server_order: str = "") -> str:
    """The order the rows are in: `:sort`'s, else the server's (`server_order`, "" when unsaid). `:sort` sorts the
    rows loaded: of a list of several pages, the page shown (the registry has no sort), and the note says so."""
    title = table.sort_title()
    if not title:
        return server_order
    return f"sorted by {title}" + (" on this page" if many_pages else "")


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
        unusable = self.registry_problem()
        if unusable:
            self.show_problem("The registry cannot be used with this profile.", unusable, said="registry unavailable: ")
            return False
        missing = self.missing_argument()
        if missing:  # the registry is fine: only what to show was not said
            self.show_problem("Nothing to show yet.", missing)
            return False
        return True

    def show_problem(self, heading: str, problem: str, *, said: str = "") -> None:
        """Replace the screen's body with why nothing is shown (`heading`, then `problem`); the status line says it too."""
        screen: Any = self
        for widget in screen.query(".reg-body"):
            widget.display = False
        note = screen.query_one("#reg-problem", Static)
        note.update(Text(f"{heading}\n\n" + clean(problem)))
        note.display = True
        screen.status.error = said + problem


def problem_note() -> Static:
    note = Static("", id="reg-problem", classes="empty")
    note.display = False
    return note


class PagedRegistryScreen(EveryPageSearch, RegistryMixin, AreaScreen):
    """A registry list a page at a time: a pager line over one table of KIND's columns; [ and ] turn pages.

    Subclasses say how to fetch a page (`fetch`) and every page (`every_pager`), its rows (`_row`, `_cell`),
    the pager's notes (`pager_notes`) and what enter on a row does (`open_item`). `/` filters the page;
    enter in the filter bar searches every page (`EveryPageSearch`). Without a total from the server, `]` opens
    only a page that exists (`Ahead`): "more may follow" until that is known, "] for more", "page 3 of 3" on the last.
    """

    MAX_PAGE_SIZE: ClassVar[int]
    ITEM: ClassVar[str]  # the row key holding the item, e.g. "project"
    NOUN: ClassVar[str]  # counted in the pager, e.g. "project"
    ROW_KEY: ClassVar[str] = "name"

    def __init__(self) -> None:
        super().__init__()
        self.page = 1
        self.total: int | None = None
        self.items: list[Any] = []
        self.shown_page: int | None = None  # the page whose items the table holds
        self.failed = False  # the last load of `page` failed
        self.served: int | None = None
        """The page size the server answers (`Page.size`; it may cap or ignore the size asked for): pages are counted by it."""
        self.whole = False
        """The server answered its whole list (`Page.whole`): it is the one page."""
        self.ahead = Ahead()
        """What is known of the pages after the one shown when the server gives no total."""
        self._loading: Worker[Any] | None = None  # the worker loading a page

    @property
    def page_size(self) -> int:
        """The page size asked for (the server may answer another: `served_size`)."""
        return capped_page_size(self.ctx, self.MAX_PAGE_SIZE)

    @property
    def served_size(self) -> int:
        """The size of the pages as the server answers them (the size asked for until it has answered)."""
        return self.served or self.page_size

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
        return not self.whole and (self.page > 1 or self.ahead.more is not False)

    def _start_load(self, *, force: bool) -> None:
        if self.registry_problem() or self.missing_argument():
            return
        self.failed = False
        self.query_one("#pager", Label).update(Text(f"page {self.page} · loading…"))  # (a slow server showed an empty line)

        async def job() -> None:
            async for page in self.fetch(force=force):
                if not self._show(page):
                    return

        def failed(exc: BaseException) -> None:
            self.failed = True
            self.ahead.wanted = 0  # a `]` waiting to know whether a next page exists: it will not be known
            self._update_pager()

        self._loading = self.run_api(job, group=f"{self.KIND}-load", doing=self.loading_what, failed=failed)

    def fetch(self, *, force: bool) -> AsyncIterator[Page[Any]]:
        raise NotImplementedError

    def _show(self, page: Page[Any]) -> bool:
        """Show `page`; False when it is not shown: an empty page past the one shown, on a list without a total
        (`:page N` past its last page, or one the list has since lost): the page shown stays, and says so."""
        if page.total is None and not page.items and self.shown_page is not None and self.page > self.shown_page:
            self._past_the_last()
            return False
        self.items = page.items
        self.total = page.total
        self.served, self.whole = page.size, page.whole
        if page.whole:
            self.page = 1  # every page is the whole list: that is the one page
        self.shown_page = self.page
        if not self.every_mode:  # the table holds an all-pages search: the page waits until it is left
            self.table.set_rows([self._row(item) for item in page.items], keep_cursor=False)
        self.show_age(page.age)
        if self.ahead.settled(self.page, page.more):
            self.call_later(self._take_wanted)
        self._update_pager()
        return True

    def _take_wanted(self) -> None:
        """The `]`s pressed before it was known whether a next page exists: one page on, now that it is known."""
        if self.ahead.take_wanted():
            self.action_page(1)

    def _past_the_last(self) -> None:
        asked, self.page = self.page, self.shown_page or 1
        self.ahead.came_back_empty(asked, self.page)
        self.say(f"Page {asked} is past the last page of this list")
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
        parts = page_parts(self.page, self.total, len(self.items), self.served_size, self.NOUN, self.ahead.last)
        parts += served_notes(self.whole, self.served, self.page_size, self.total)
        if self.total is None and not self.whole:
            parts += self.ahead.notes(self.page)
        parts += self.pager_notes(self.table)
        if self.failed:
            parts.append("✗ not refreshed (ctrl+r tries again)")
        self.query_one("#pager", Label).update(Text(clean(" · ".join(parts))))

    def pager_notes(self, table: ResourceTable) -> list[str]:
        order = [note] if (note := sorted_note(table, self.many_pages())) else []
        if not table.filter_text:
            return order
        return [*order, filter_note(table), *([self.page_filter_note()] if self.many_pages() else [])]

    def rows_sorted(self, table: ResourceTable) -> None:
        self._update_pager()

    def apply_filter(self, text: str) -> None:
        if not self.every_filter(text):
            self.table.set_filter(text)
        self._update_pager()

    def page_position(self) -> tuple[int, int | None] | None:
        """(this page, the last page or None when unknown), counted from 1 (`:page N`)."""
        if self.whole:
            return self.page, 1
        return self.page, (pages_of(self.total, self.served_size) if self.total is not None else self.ahead.last)

    def action_page(self, delta: int) -> None:
        if self.every_mode:  # turning a page leaves an all-pages search for the page
            self.leave_every()
        target = None if self.whole and delta > 0 else turn_page(self.page, delta, self.total, self.served_size, self.ahead.last)
        loading = self.total is None and self._loading is not None and not self._loading.is_finished
        if target is not None and self.ahead.waits(delta, loading=loading, page=self.page, shown=self.shown_page):
            target = None  # taken once it is known whether that page exists (`_take_wanted`)
        if target is not None:
            self.page = target
            self._start_load(force=False)
        else:
            self._update_pager()

    # -- rows ---------------------------------------------------------------------------------

    def raw_record(self) -> Any | None:
        return self.selected()

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


# -- one project --------------------------------------------------------------------------------------


# -- chart detail -----------------------------------------------------------------------------------------


# -- artifacts -------------------------------------------------------------------------------------------------


# -- downloads -----------------------------------------------------------------------------------------------------


# -- the registry secret and event status ------------------------------------------------------------------------
