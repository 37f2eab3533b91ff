"""`:watch N`: a list refreshes itself every N seconds and marks what appeared or changed, as k9s does.

A refresh is the screen's own ctrl+r (fresh from the server), so errors, retries and the
cache behave as they do by hand. A tick is skipped, and the status line says why, while the
screen is not the one in front (another area, a detail screen or a dialog over it), while a
text field has the focus (the user may be typing a filter), or while the last refresh is still
loading: a slow server is never asked twice at once.

Someone watching a list looks away and back, so what a watch finds stays until it is seen:
rows that appeared are marked `+` and changed ones `~` (the cells that changed underlined)
until the cursor has been on them, a refresh by hand, or `:watch off`. The status line says
what the last refresh found, naming the rows that left and the fields that changed, and what
every refresh found since the watch began; on a marked row, what changed there. Nothing is
repainted when nothing changed.

A watch whose refreshes fail says so once (a toast), then on the status line only, with the
data's real age; and once again when the server answers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from textual.widgets import Input, TextArea
from textual.worker import NoActiveWorker, Worker, WorkerState, get_current_worker

from flextui.render.text import clean
from flextui.ui.later import while_alive
from flextui.ui.widgets.table import ResourceTable, RowChange

MIN_SECONDS = 2.0
"""The shortest interval: every second would keep a tenant's API busy for a list no one can read that fast."""

NAMES_SHOWN = 2
"""How many of the rows that left the status line names ("gone: build-7, audit-186 +3 more"); `!` shows the line whole."""

NAME_CELLS = 24
"""The longest a row's name is shown in the status line (a longer one ends "…")."""

_BUSY = (WorkerState.PENDING, WorkerState.RUNNING)


def parse_seconds(text: str) -> float:
    """ "30", "30s", "2m" → seconds (at least MIN_SECONDS); ValueError with a readable message otherwise."""
    raw = text.strip().lower()
    scale = 60.0 if raw.endswith("m") else 1.0
    number = raw.rstrip("sm")
    try:
        seconds = float(number) * scale
    except ValueError:
        raise ValueError(f"{text!r} is not a number of seconds (e.g. :watch 30, :watch 2m)") from None
    if seconds < MIN_SECONDS:
        raise ValueError(f"every {seconds:g} s is too often: {MIN_SECONDS:g} s at least")
    return seconds


def named(names: list[str]) -> str:
    """ "a, b +3 more": the first NAMES_SHOWN names, and how many others."""
    shown = ", ".join(clean(n, NAME_CELLS) for n in names[:NAMES_SHOWN])
    more = len(names) - NAMES_SHOWN
    return shown + (f" +{more} more" if more > 0 else "")


@dataclass
class Found:
    """What refreshes found: rows that appeared, changed (with the fields) and left, keyed by (table, row key)."""

    new: dict[Any, RowChange] = field(default_factory=dict)
    changed: dict[Any, RowChange] = field(default_factory=dict)
    gone: dict[Any, RowChange] = field(default_factory=dict)

    def add(self, event: ResourceTable.RowsChanged) -> None:
        for into, changes in ((self.new, event.new), (self.changed, event.changed), (self.gone, event.gone)):
            for change in changes:
                into[(event.table.id, change.key)] = change

    def counts(self) -> str:
        """ "2 new, 1 changed, gone: build-7" (a row that appeared, then changed, counts as new); "no change".
        Rows that left are named: no mark on the table shows them, and a refresh later the last one's
        findings ("gone: build-7") have given way to the next's."""
        changed = [k for k in self.changed if k not in self.new]
        parts = [f"{n} {word}" for n, word in ((len(self.new), "new"), (len(changed), "changed")) if n]
        if self.gone:
            parts.append("gone: " + named([change.name for change in self.gone.values()]))
        return ", ".join(parts) or "no change"

    def told(self) -> str:
        """What one refresh found, naming what it can: "1 new, 1 changed (Expires), gone: build-7"."""
        parts = [f"{len(self.new)} new"] if self.new else []
        if self.changed:
            fields = dict.fromkeys(f for change in self.changed.values() for f in change.fields)
            parts.append(f"{len(self.changed)} changed" + (f" ({', '.join(fields)})" if fields else ""))
        if self.gone:
            parts.append("gone: " + named([change.name for change in self.gone.values()]))
        return ", ".join(parts) or "no change"


class Watcher:
    """Refreshes `screen` every `seconds` while it is in front and idle."""

    def __init__(self, screen: Any, seconds: float) -> None:
        self.screen = screen
        self.seconds = seconds
        self.refreshes = 0
        self.began = time.strftime("%H:%M")
        self.since = Found()
        """Every refresh's findings since the watch began."""
        self.last: Found | None = None
        """The last refresh's findings, and when (`last_at`); None before the first."""
        self.last_at = ""
        self.refresh: set[Worker[Any]] = set()
        """The workers the last tick's refresh started: rows they set are compared, errors they meet are the watch's."""
        self.failing_since: str | None = None
        self.failures = 0
        self._failed_now = False
        self._error = ""
        self._timer = screen.set_interval(seconds, while_alive(screen, self.tick), name="watch")
        self._show("")

    @property
    def every(self) -> str:
        return f"every {self.seconds:g} s"

    def stop(self) -> None:
        self._timer.stop()
        for table in self.screen.query(ResourceTable):
            table.stop_watching()

    def clear_status(self) -> None:
        """After `:watch off`: nothing of the watch on the status line (an error it met stays, without it)."""
        status = self.screen.status
        status.info = ""
        if self.failing_since is not None:
            status.error = self._error

    def paused_because(self) -> str | None:
        screen = self.screen
        app = screen.app
        if app.screen is not screen:
            return "another screen is in front"
        if isinstance(app.focused, (Input, TextArea)):
            return "a field has the focus (escape or tab away to resume)"
        if any(w.state in _BUSY for w in screen.workers):
            return "still loading"
        return None

    def tick(self) -> None:
        why = self.paused_because()
        if why is not None:
            if self.screen.app.screen is self.screen:
                self._show(f"paused: {why} · since {self.began}: {self.since.counts()}")
            return
        for table in self.screen.query(ResourceTable):
            table.from_watch = self.in_refresh
        self.refreshes += 1
        self.last, self.last_at, self._failed_now = Found(), time.strftime("%H:%M:%S"), False
        before = set(self.screen.workers)
        self.screen.action_reload()
        self.refresh = set(self.screen.workers) - before

    def in_refresh(self) -> bool:
        """Whether the code running now is the watch's refresh (one of the workers its last tick started)."""
        try:
            return get_current_worker() in self.refresh
        except NoActiveWorker:
            return False

    def changed(self, event: ResourceTable.RowsChanged) -> None:
        """A table's rows after a refresh: what appeared, changed and left."""
        self.since.add(event)
        if self.last is not None:
            self.last.add(event)
        self._show(self._found())

    def cursor_moved(self) -> None:
        """The status line says what changed on the row now under the cursor, when it is marked."""
        if self.last is not None:
            self._show(self._found())

    def failed(self, text: str) -> None:
        """The watch's refresh failed: one toast when failing begins; after it the status line alone says so."""
        self._failed_now, self._error = True, text
        self.failures += 1
        if self.failing_since is None:
            self.failing_since = time.strftime("%H:%M:%S")
            self.screen.app.notify(
                f"Watch: {text}. Trying again {self.every}; one notice when it answers", severity="error", markup=False, timeout=8
            )
        tries = f"{self.failures} tries" if self.failures > 1 else "1 try"
        status = self.screen.status
        status.routine(error=f"{text} · ⟳ {self.every}, failing since {self.failing_since} ({tries})")
        status.refresh_failed()

    def worker_ended(self, worker: Worker[Any]) -> None:
        """One of the refresh's workers ended: when the last has, a watch that was failing and now did not says so."""
        if worker not in self.refresh or any(w.state in _BUSY for w in self.refresh):
            return
        self.refresh = set()
        if self.failing_since is not None and not self._failed_now:
            since, self.failing_since, self.failures = self.failing_since, None, 0
            self.screen.app.notify(f"Watch: {self.screen.area_title} answers again (failing since {since})", markup=False)
            self._show(self._found())

    def _found(self) -> str:
        """ "~ build-7: Expires · since 10:02: 2 new, 1 changed · 10:04:31: 1 changed (Expires)": what the cursor's
        row shows, then the tally (what a glance back needs), then what the last refresh found, named."""
        tally = self.since.counts()
        parts = [self._under_cursor(), f"since {self.began}: {tally}"]
        if self.last is not None and self.last.told() != tally:  # (the first refresh's findings are the tally)
            parts.append(f"{self.last_at}: {self.last.told()}")
        return " · ".join(p for p in parts if p)

    def _under_cursor(self) -> str:
        table = self.screen.focused
        if not isinstance(table, ResourceTable):
            return ""
        marked = table.mark_under_cursor()
        if marked is None:
            return ""
        name, mark = marked
        what = "new" if mark.kind == "new" else ", ".join(mark.fields) or "changed"
        return f"{mark.sign} {clean(name, NAME_CELLS)}: {what}"

    def _show(self, what: str) -> None:
        """The status line's right end, most telling first (it is cut to the width; at 80 columns "⟳ every 30 s"
        left room for nothing else): "⟳ ~ build-7: Expires · since 10:02: 2 new · 10:04:31: 1 changed · every 30 s".
        Routine: a tick's words are not news to `!` (an error said since stays the latest)."""
        self.screen.status.routine(info=f"⟳ {what} · {self.every}" if what else f"⟳ {self.every} · :watch off stops")


__all__ = ["MIN_SECONDS", "Found", "Watcher", "parse_seconds"]
