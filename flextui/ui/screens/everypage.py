"""`/text` then enter on a paged list: the matching rows of *every* page, not just the one shown.

A `/` filter works on the rows on screen, which for a paged list is one
page: `/hello` among 2,001 projects finds nothing on page 1 although
`hello-world-dp` exists, and `/2024` on the catalogue finds the 2024
versions of page 1 only. Enter in the filter bar then reads the whole
listing through the one bounded pager (`Listing.every` → `paging.Pager`,
each page through the session's cache) and keeps the rows that match by
the *same rule as `/`* (any column, case-insensitive, `!` inverts), so the
rows that matched a moment ago stay and those of the other pages join them,
each once (the pager lists an item once by its key). It shows its progress
in the pager line ("searching every page for 'hello': 800 of 2,001
projects read · 1 found · escape stops"), can be stopped with escape (what
was read is kept and searched, and the line says it stopped), says when the
listing was cut short (at `MAX_EVERY_ITEMS`, or the pager's own request
ceiling), and keeps what it read for the list's life, so the next search is
instant; ctrl+r forgets it. Leaving it (escape, the filter cleared, another
page asked for) shows the page as it was.

`EverySearch` is that search for one list, whatever screen holds it: a
screen of one paged table (the registry lists, tokens) mixes in
`EveryPageSearch`, which holds one; a tabbed screen (`TabbedListScreen`:
the catalogue, users and accounts) holds one a tab. The tabbed lists' APIs
can also filter by name, and enter used to put the text in the Name field
instead: a different rule (the name only, the server's match), which emptied
a list that plainly had matches. Their Name field still asks the server, for
whoever wants that; enter in `/` means what `/` means.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from textual.worker import Worker

from flextui.api.paging import Outcome, Pager
from flextui.ui.widgets.table import ResourceTable, matches

MAX_EVERY_ITEMS = 100_000
"""The most items an all-pages search reads (the pager's own request ceiling bounds it too)."""

PagerOf = Callable[[bool], "Pager[Any] | Awaitable[Pager[Any]]"]


class EverySearch:
    """The search of every page of one listing shown a page at a time in one table (see the module docstring).

    The screen says how to reach its table, turn an item into a row, read
    every page (`pager(force)`, or an awaitable of one that needs a count
    first), list the page shown, tell whether there is more than that page,
    and redraw its pager line (`update`, which starts with `note()`); with the
    size of the pages it shows (`page_size`), the line counts what was read in
    those pages too.
    """

    def __init__(
        self,
        screen: Any,
        *,
        group: str,
        noun: str,
        table: Callable[[], ResourceTable],
        row: Callable[[Any], dict[str, Any]],
        pager: PagerOf,
        page_items: Callable[[], list[Any]],
        many_pages: Callable[[], bool],
        update: Callable[[], None],
        page_size: Callable[[], int] | None = None,
    ) -> None:
        self.screen = screen
        self.group = group
        self.noun = noun
        self.table = table
        self.row = row
        self.pager = pager
        self.page_items = page_items
        self.many_pages = many_pages
        self.update = update
        self.page_size = page_size
        self.every: list[Any] | None = None
        """Every item of the listing, once read completely (kept until ctrl+r or another listing)."""
        self.outcome: Outcome | None = None
        self.read: list[Any] | None = None
        """What the running (or stopped) search has read so far."""
        self.text = ""
        """The search the table shows, "" when it shows one page."""
        self.stopped = False
        self.found = 0
        self._worker: Worker[Any] | None = None
        self._gen = 0
        self._searching = False

    # -- state -------------------------------------------------------------------------------------------

    @property
    def mode(self) -> bool:
        """Whether the table holds the rows of every page (an all-pages search), not one page."""
        return bool(self.text)

    @property
    def running(self) -> bool:
        return self._searching and self._worker is not None and not self._worker.is_finished

    # -- the search ----------------------------------------------------------------------------------------

    def search(self, text: str) -> None:
        """Enter in the filter bar: the rows of every page that match `text` (as `/` matches them)."""
        text = text.strip()
        if not text or self.running:
            return
        if self.every is None and not self.many_pages() and not self.mode:
            return  # one page is everything: the filter already covers it
        self.text = text
        self.stopped = False
        if self.every is not None:
            self._show(self.every)
            return
        self._start(force=False)

    def _start(self, *, force: bool) -> None:
        self._gen += 1
        gen = self._gen
        read: list[Any] = []
        self.read = read
        self.found = 0
        self._searching = True

        def ended() -> None:
            if gen == self._gen:
                self._searching = False

        async def job() -> None:
            pager = self.pager(force)
            if inspect.isawaitable(pager):  # a pager that needs a count first
                pager = await pager
            columns = self.table().spec
            try:
                async for batch in pager:
                    if gen != self._gen:
                        return
                    read.extend(batch)
                    self.found += sum(1 for item in batch if matches(self.row(item), self.text, columns))
                    self.update()
                    if len(read) >= MAX_EVERY_ITEMS:
                        pager.outcome.cut(f"an all-pages search reads at most {MAX_EVERY_ITEMS:,}")
                        break
            except asyncio.CancelledError:
                if gen == self._gen:
                    ended()
                    self.stopped = True
                    self._show(read)
                raise
            except BaseException:
                ended()
                raise
            if gen != self._gen:
                return
            ended()
            self.every = read
            self.outcome = pager.outcome
            self._show(read)

        def failed(exc: BaseException) -> None:
            if gen == self._gen:
                self.stopped = True
                self._show(read)

        self._worker = self.screen.run_api(job, group=self.group, doing="searching every page", failed=failed)
        self.update()

    def stop(self) -> bool:
        """Escape while an all-pages search runs: stop it (what was read is searched). False when none runs."""
        if not self.running:
            return False
        assert self._worker is not None
        self._worker.cancel()
        self._searching = False
        self.stopped = True
        self._show(self.read or [])
        return True

    def _show(self, items: list[Any]) -> None:
        if not self.mode:
            return
        table = self.table()
        table.set_rows([self.row(item) for item in items], keep_cursor=False)
        table.set_filter(self.text)
        self.update()

    def leave(self) -> None:
        """Back to the page (the filter was cleared, or another page or listing was asked for)."""
        if self.running:
            assert self._worker is not None
            self._worker.cancel()
        self._gen += 1
        self._searching = False
        if self.mode:
            self.text = ""
            self.stopped = False
            self.table().set_rows([self.row(item) for item in self.page_items()], keep_cursor=False)

    def forget(self) -> None:
        """ctrl+r: what was read may be stale; an all-pages search being shown is run again, from the server."""
        self.every = None
        self.outcome = None
        if self.mode:
            if self.running:
                assert self._worker is not None
                self._worker.cancel()
            self.stopped = False
            self._start(force=True)

    def filter(self, text: str) -> bool:
        """The `/` text changed: True when an all-pages result took it (else the page's filter does)."""
        if not self.mode:
            return False
        if not text.strip():
            self.leave()
            return False
        self.text = text.strip()
        self.table().set_filter(text)
        self.update()
        return True

    # -- what the pager line says --------------------------------------------------------------------------

    def _count(self, n: int) -> str:
        return f"{n:,} {self.noun}" + ("" if n == 1 or self.noun.endswith("s") else "s")

    def _pages(self, n: int) -> str:
        """ "2 pages" of the list as the screen pages it ("" when the screen did not say its page size)."""
        size = self.page_size() if self.page_size is not None else 0
        if size < 1:
            return ""
        pages = -(-n // size)
        return f"{pages:,} page" + ("" if pages == 1 else "s")

    def note(self) -> str | None:
        """The pager line while searching every page or showing what it found; None otherwise."""
        if not self.mode:
            return None
        text = self.text
        read = self.read or []
        found = self.found if self.running else len(self.table().visible_rows)
        if self.running:
            return f"searching every page for {text!r}: {self._count(len(read))} read · {found:,} found · escape stops"
        if self.stopped:
            pages = self._pages(len(read))
            stopped = f"stopped after {pages}" if pages else "stopped"
            return f"{text!r}: {found:,} found in the first {self._count(len(read))} ({stopped}) · enter searches again · escape clears"
        total = len(self.every or [])
        pages = self._pages(total)
        note = f"{text!r}: {found:,} found in all {self._count(total)} ({f'{pages}, ' if pages else ''}every page) · escape clears"
        if self.outcome is not None and not self.outcome.complete:
            note += f" · {self.outcome.describe()}"
        return note

    def page_filter_note(self) -> str:
        """After a page's own filter note: that it covers only this page, and how to search them all."""
        return "on this page · enter searches every page" if self.many_pages() else ""


class EveryPageSearch:
    """Mixin for an `AreaScreen` showing one page of a listing in one table: its `EverySearch`.

    A screen using it has a `table` (`ResourceTable`), a `_row(item)`, a
    `NOUN`, an `_update_pager()` that starts with `every_note()`, and says how
    to read every page (`every_pager(force)`).
    """

    NOUN: Any
    table: ResourceTable

    # -- what a screen provides ----------------------------------------------------------------------

    def every_pager(self, force: bool) -> Pager[Any] | Awaitable[Pager[Any]]:
        raise NotImplementedError

    def page_items(self) -> list[Any]:
        """The items of the page shown when not searching every page."""
        raise NotImplementedError

    def many_pages(self) -> bool:
        """Whether the listing has more than the page shown (so a `/` filter covers only part of it)."""
        raise NotImplementedError

    def _row(self, item: Any) -> dict[str, Any]:
        raise NotImplementedError

    def _update_pager(self) -> None:
        raise NotImplementedError

    # -- the one search -----------------------------------------------------------------------------------

    @property
    def every_search(self) -> EverySearch:
        found: EverySearch | None = self.__dict__.get("_every_search")
        if found is None:
            found = self.__dict__["_every_search"] = EverySearch(
                self,
                group=f"{getattr(self, 'KIND', 'list')}-every",
                noun=self.NOUN,
                table=lambda: self.table,
                row=lambda item: self._row(item),
                pager=lambda force: self.every_pager(force),
                page_items=lambda: self.page_items(),
                many_pages=lambda: self.many_pages(),
                update=lambda: self._update_pager(),
                page_size=lambda: int(getattr(self, "served_size", None) or getattr(self, "page_size", 0) or 0),
            )
        return found

    @property
    def every(self) -> list[Any] | None:
        """Every item of the listing, once read completely (kept until ctrl+r)."""
        return self.every_search.every

    @every.setter
    def every(self, value: list[Any] | None) -> None:
        self.every_search.every = value

    @property
    def every_read(self) -> list[Any] | None:
        return self.every_search.read

    @property
    def every_stopped(self) -> bool:
        return self.every_search.stopped

    @property
    def every_mode(self) -> bool:
        return self.every_search.mode

    @property
    def every_running(self) -> bool:
        return self.every_search.running

    def search_all(self, text: str) -> None:
        self.every_search.search(text)

    def stop_every(self) -> bool:
        return self.every_search.stop()

    def leave_every(self) -> None:
        self.every_search.leave()

    def forget_every(self) -> None:
        self.every_search.forget()

    def every_filter(self, text: str) -> bool:
        return self.every_search.filter(text)

    def every_note(self) -> str | None:
        return self.every_search.note()

    def page_filter_note(self) -> str:
        return self.every_search.page_filter_note()


__all__ = ["MAX_EVERY_ITEMS", "EveryPageSearch", "EverySearch"]
