"""`:watch N`: a list refreshes itself every N seconds and marks what appeared or changed, as k9s does.

A refresh is the screen's own ctrl+r (fresh from the server), so errors, retries and the
cache behave as they do by hand. A tick is skipped, and the status line says why, while the
screen is not the one in front (another area, a detail screen or a dialog over it), while a
text field has the focus (the user may be typing a filter), or while the last refresh is still
loading: a slow server is never asked twice at once. Rows that appeared since the refresh
before are marked `+`, changed ones `~`; the status line counts them and those that left.
Nothing is repainted when nothing changed (the same rows again change nothing on screen).
"""

from __future__ import annotations

import time
from typing import Any

from textual.widgets import Input, TextArea
from textual.worker import WorkerState

from flextui.ui.widgets.table import ResourceTable

MIN_SECONDS = 2.0
"""The shortest interval: every second would keep a tenant's API busy for a list no one can read that fast."""


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


class Watcher:
    """Refreshes `screen` every `seconds` while it is in front and idle."""

    def __init__(self, screen: Any, seconds: float) -> None:
        self.screen = screen
        self.seconds = seconds
        self.refreshes = 0
        self._timer = screen.set_interval(seconds, self.tick, name="watch")
        self._show("")

    @property
    def every(self) -> str:
        return f"every {self.seconds:g} s"

    def stop(self) -> None:
        self._timer.stop()
        for table in self.screen.query(ResourceTable):
            table.stop_watching()

    def paused_because(self) -> str | None:
        screen = self.screen
        app = screen.app
        if app.screen is not screen:
            return "another screen is in front"
        if isinstance(app.focused, (Input, TextArea)):
            return "a field has the focus (escape or tab away to resume)"
        if any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in screen.workers):
            return "still loading"
        return None

    def tick(self) -> None:
        why = self.paused_because()
        if why is not None:
            if self.screen.app.screen is self.screen:
                self._show(f"paused: {why}")
            return
        for table in self.screen.query(ResourceTable):
            table.watching = True
        self.refreshes += 1
        self.screen.action_reload()

    def changed(self, new: int, changed: int, gone: int) -> None:
        """A table's rows after a refresh: what appeared, changed and left."""
        parts = [f"{new} new" if new else "", f"{changed} changed" if changed else "", f"{gone} gone" if gone else ""]
        said = ", ".join(p for p in parts if p) or "no change"
        self._show(f"{said} ({time.strftime('%H:%M:%S')})")

    def _show(self, what: str) -> None:
        """The status line's right end, most telling first (it is cut to the width): "⟳ every 30 s · 2 new (10:04:31)"."""
        self.screen.status.info = f"⟳ {self.every}" + (f" · {what}" if what else " · :watch off stops")


__all__ = ["MIN_SECONDS", "Watcher", "parse_seconds"]
