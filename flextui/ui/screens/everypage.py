"""`/text` then enter on a paged list: the matching rows of *every* page, not just the one shown.

A `/` filter works on the rows on screen, which for a paged list is one
page: `/hello` among 2,001 projects finds nothing on page 1 although
`hello-world-dp` exists. `EveryPageSearch` is what enter in the filter bar
does on a paged list whose API cannot filter by itself: it reads the whole
listing through the one bounded pager (`Listing.every` → `paging.Pager`,
each page through the session's cache), shows its progress in the pager
line ("searching every page for 'hello': 800 of 2,001 projects read · 1
found · escape stops"), can be stopped with escape (what was read is kept
and searched), and keeps what it read for the screen's life, so the next
search is instant; ctrl+r forgets it. Lists whose API filters by name ask
the server instead (`TabbedListScreen.search_all`).

A screen using it has a `table` (`ResourceTable`), a `_row(item)`, a
`NOUN`, an `_update_pager()` that starts with `every_note()`, and says how
to read every page (`every_pager(force)`).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable
from typing import Any

from textual.worker import Worker

from flextui.api.paging import Outcome, Pager
from flextui.ui.widgets.table import ResourceTable, matches

MAX_EVERY_ITEMS = 100_000
"""The most items an all-pages search reads (the pager's own request ceiling bounds it too)."""


class EveryPageSearch:
    """Mixin for an `AreaScreen` showing one page of a listing (see the module docstring)."""

    NOUN: Any
    table: ResourceTable
    ctx: Any

    every: list[Any] | None = None
    """Every item of the listing, once read completely (kept until ctrl+r)."""
    every_outcome: Outcome | None = None
    every_read: list[Any] | None = None
    """What the running (or stopped) search has read so far."""
    every_text = ""
    """The search the table shows, "" when it shows one page."""
    every_stopped = False
    every_found = 0
    _every_worker: Worker[Any] | None = None
    _every_gen = 0
    _every_searching = False

    # -- what a screen provides ----------------------------------------------------------------------

    def every_pager(self, force: bool) -> Pager[Any] | Awaitable[Pager[Any]]:
        raise NotImplementedError

    def page_items(self) -> list[Any]:
        """The items of the page shown when not searching every page."""
        raise NotImplementedError

    def _row(self, item: Any) -> dict[str, Any]:
        raise NotImplementedError

    def _update_pager(self) -> None:
        raise NotImplementedError

    # -- state -------------------------------------------------------------------------------------------

    @property
    def every_mode(self) -> bool:
        """Whether the table holds the rows of every page (an all-pages search), not one page."""
        return bool(self.every_text)

    @property
    def every_running(self) -> bool:
        return self._every_searching and self._every_worker is not None and not self._every_worker.is_finished

    def many_pages(self) -> bool:
        """Whether the listing has more than the page shown (so a `/` filter covers only part of it)."""
        raise NotImplementedError

    # -- the search ----------------------------------------------------------------------------------------

    def search_all(self, text: str) -> None:
        """Enter in the filter bar: the rows of every page that match `text`."""
        text = text.strip()
        if not text or self.every_running:
            return
        if self.every is None and not self.many_pages() and not self.every_mode:
            return  # one page is everything: the filter already covers it
        self.every_text = text
        self.every_stopped = False
        if self.every is not None:
            self._show_every(self.every)
            return
        self._start_every(force=False)

    def _start_every(self, *, force: bool) -> None:
        self._every_gen += 1
        gen = self._every_gen
        read: list[Any] = []
        self.every_read = read
        self.every_found = 0
        self._every_searching = True
        screen: Any = self

        def ended() -> None:
            if gen == self._every_gen:
                self._every_searching = False

        async def job() -> None:
            pager = self.every_pager(force)
            if inspect.isawaitable(pager):  # a pager that needs a count first
                pager = await pager
            try:
                async for batch in pager:
                    if gen != self._every_gen:
                        return
                    read.extend(batch)
                    self.every_found += sum(1 for item in batch if matches(self._row(item), self.every_text, self.table.spec))
                    self._update_pager()
                    if len(read) >= MAX_EVERY_ITEMS:
                        pager.outcome.cut(f"an all-pages search reads at most {MAX_EVERY_ITEMS:,}")
                        break
            except asyncio.CancelledError:
                if gen == self._every_gen:
                    ended()
                    self.every_stopped = True
                    self._show_every(read)
                raise
            except BaseException:
                ended()
                raise
            if gen != self._every_gen:
                return
            ended()
            self.every = read
            self.every_outcome = pager.outcome
            self._show_every(read)

        def failed(exc: BaseException) -> None:
            if gen == self._every_gen:
                self.every_stopped = True
                self._show_every(read)

        self._every_worker = screen.run_api(job, group=f"{screen.KIND}-every", doing="searching every page", failed=failed)
        self._update_pager()

    def stop_every(self) -> bool:
        """Escape while an all-pages search runs: stop it (what was read is searched). False when none runs."""
        if not self.every_running:
            return False
        assert self._every_worker is not None
        self._every_worker.cancel()
        self._every_searching = False
        self.every_stopped = True
        self._show_every(self.every_read or [])
        return True

    def _show_every(self, items: list[Any]) -> None:
        if not self.every_mode:
            return
        self.table.set_rows([self._row(item) for item in items], keep_cursor=False)
        self.table.set_filter(self.every_text)
        self._update_pager()

    def leave_every(self) -> None:
        """Back to the page (the filter was cleared, or another page was asked for)."""
        if self.every_running:
            assert self._every_worker is not None
            self._every_worker.cancel()
        self._every_gen += 1
        self._every_searching = False
        if self.every_mode:
            self.every_text = ""
            self.every_stopped = False
            self.table.set_rows([self._row(item) for item in self.page_items()], keep_cursor=False)

    def forget_every(self) -> None:
        """ctrl+r: what was read may be stale; an all-pages search being shown is run again, from the server."""
        self.every = None
        self.every_outcome = None
        if self.every_mode:
            if self.every_running:
                assert self._every_worker is not None
                self._every_worker.cancel()
            self.every_stopped = False
            self._start_every(force=True)

    def every_filter(self, text: str) -> bool:
        """The `/` text changed: True when an all-pages result took it (else the page's filter does)."""
        if not self.every_mode:
            return False
        if not text.strip():
            self.leave_every()
            return False
        self.every_text = text.strip()
        self.table.set_filter(text)
        self._update_pager()
        return True

    # -- what the pager line says --------------------------------------------------------------------------

    def _noun(self, n: int) -> str:
        return f"{n:,} {self.NOUN}" + ("" if n == 1 else "s")

    def every_note(self) -> str | None:
        """The pager line while searching every page or showing what it found; None otherwise."""
        if not self.every_mode:
            return None
        text = self.every_text
        read = self.every_read or []
        found = self.every_found if self.every_running else len(self.table.visible_rows)
        if self.every_running:
            return f"searching every page for {text!r}: {self._noun(len(read))} read · {found:,} found · escape stops"
        if self.every_stopped:
            return f"{text!r}: {found:,} found in the first {self._noun(len(read))} (stopped) · enter searches again · escape clears"
        total = len(self.every or [])
        note = f"{text!r}: {found:,} found in all {self._noun(total)} (every page) · escape clears"
        if self.every_outcome is not None and not self.every_outcome.complete:
            note += f" · {self.every_outcome.describe()}"
        return note

    def page_filter_note(self) -> str:
        """After a page's own filter note: that it covers only this page, and how to search them all."""
        return "on this page · enter searches every page" if self.many_pages() else ""


__all__ = ["EveryPageSearch", "MAX_EVERY_ITEMS"]
