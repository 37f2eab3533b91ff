"""The header (profile, read-only badge, colour cue, area) and the status line.

The status line answers the questions a support engineer asks of a screen:
who am I signed in as, is anything loading, how old is what I see, and what
went wrong last. Every text here is built from `Text`, never parsed as markup.
"""

from __future__ import annotations

import io
import time
from functools import cache
from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Label, Static

from flextui.render.text import age_text, clean


class TitleBar(Horizontal):
    """`flextui │ profile │ READ-ONLY │ ▸ Area` (OFFLINE in its place under `--offline`; the user is on the status line)."""

    DEFAULT_CSS = """
    TitleBar { height: 1; background: $panel; }
    TitleBar > Label { padding: 0 1; height: 1; }
    TitleBar > #tb-app { text-style: bold; color: $primary; }
    TitleBar > #tb-profile { text-style: bold; }
    TitleBar > #tb-profile.cue-error { background: $error; color: $text; }
    TitleBar > #tb-profile.cue-warning { background: $warning; color: $text; }
    TitleBar > #tb-profile.cue-success { background: $success; color: $text; }
    TitleBar > #tb-profile.cue-primary { background: $primary; color: $text; }
    TitleBar > #tb-profile.cue-accent { background: $accent; color: $text; }
    TitleBar > #tb-profile.cue-secondary { background: $secondary; color: $text; }
    TitleBar > #tb-ro { background: $warning; color: $text; text-style: bold; }
    TitleBar > #tb-area { color: $text; width: 1fr; }
    TitleBar > #tb-user { color: $text-muted; }
    """

    area: reactive[str] = reactive("", layout=True)

    def __init__(self, profile: str, user: str | None, read_only: bool, cue: str, *, offline: bool = False) -> None:
        super().__init__(id="titlebar")
        self._profile = profile
        self._user = user
        self._read_only = read_only
        self._offline = offline
        self._cue = cue

    def compose(self) -> ComposeResult:
        yield Label("flextui", id="tb-app")
        profile = Label(Text(clean(self._profile)), id="tb-profile")
        if self._cue != "none":
            profile.add_class(f"cue-{self._cue}")
        yield profile
        if self._read_only:
            yield Label("OFFLINE" if self._offline else "READ-ONLY", id="tb-ro")  # (offline: read-only, from the cache)
        yield Label("", id="tb-area")

    def watch_area(self, area: str) -> None:
        if self.is_mounted:
            self.query_one("#tb-area", Label).update(Text("▸ " + clean(area)))


FULL_TEXT_KEY = "!"
"""The key (AreaScreen's `screen.show_message` binding) that opens the status line's error or message in full."""


def fit(text: str, width: int, more: str = f"… ({FULL_TEXT_KEY} shows all)") -> str:
    """`text` in `width` cells: whole when it fits, else as much as fits ending with `more`."""
    if width <= 0 or cell_len(text) <= width:
        return text
    room = width - cell_len(more)
    if room < 8:  # too narrow to say which key: just the ellipsis
        return set_cell_size(text, max(0, width - 1)) + "…"
    return set_cell_size(text, room).rstrip() + more


@cache
def _wrapping_console() -> Console:
    """A console only to measure how text wraps (never printed to)."""
    return Console(file=io.StringIO(), width=200, color_system=None, legacy_windows=False)


def fit_rows(text: str, width: int, rows: int, more: str = f"… ({FULL_TEXT_KEY} shows all)") -> str:
    """`text` as it wraps in `width` cells: whole when it takes at most `rows` rows, else cut to fit them
    ending with `more` (a toast: a 9-row error covered a third of an 80×24 terminal; `!` shows it all)."""
    width = max(16, width)
    usable = width - width // 6  # how far a cut steps back, about a row's worth
    console = _wrapping_console()

    def rows_of(value: str) -> int:  # as the toast wraps it: by words (a guess from its length cut "(! shows all)" off)
        return len(Text(value).wrap(console, width))

    if rows_of(text) <= rows:
        return text
    cut = text
    while cut and rows_of(cut + more) > rows:
        cut = set_cell_size(cut, max(0, cell_len(cut) - usable // 2)) if "\n" not in cut[-usable:] else cut.rsplit("\n", 1)[0]
    head, space, _ = cut.rpartition(" ")
    if space:  # end at a word's end: half a path looks like a whole one
        cut = head
    return cut.rstrip(" ,;:") + more


class FittedLabel(Label):
    """A one-line label that never cuts its text silently: what does not fit ends "… (! shows all)"."""

    DEFAULT_CSS = """
    FittedLabel { height: 1; }
    """

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.full = text
        self.style_name = ""

    def show(self, text: str, style: str = "") -> None:
        self.full = text
        self.style_name = style
        self.refresh(layout=True)

    @property
    def is_cut(self) -> bool:
        width = self.content_size.width
        return bool(width) and cell_len(self.full) > width

    def render(self) -> Text:
        return Text(fit(self.full, self.content_size.width), style=self.style_name, no_wrap=True, overflow="crop")


IDLE = "● idle"
ACTIVITY_EVERY = 0.3  # seconds between changes of the activity shown, once busy
AGE_CELLS = 18
"""The age's slot, as wide as its longest text ("fetched 59 min ago"): as what is shown grows older
its text changes but not its width, so no layout follows (a layout rewrites every piece of the line
whose edges moved: ≈ 0.9 KB over SSH where the new words are 60 bytes)."""


TOLD_LINGERS = 30.0
"""Seconds a passing message (`StatusLine.tell`) stays on the status line at least (it goes at the next tick after)."""


class StatusLine(Horizontal):
    """user · request activity · age of what is shown · last error (cut to fit, `!` shows all of it)."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text-muted; }
    StatusLine > Label { padding: 0 1; height: 1; }
    StatusLine > #st-user { color: $text; }
    StatusLine > #st-activity { color: $accent; }
    StatusLine > #st-age { color: $text-muted; display: none; }
    StatusLine > #st-age.-stale { color: $warning; }
    StatusLine > #st-error { color: $error; width: 1fr; }
    StatusLine > #st-info { color: $text; width: 1fr; }
    """

    in_flight: reactive[int] = reactive(0)
    age: reactive[float | None] = reactive(None, always_update=True)
    shown: reactive[bool] = reactive(False)
    error: reactive[str] = reactive("")
    info: reactive[str] = reactive("")
    said_at = 0.0
    """When the error or message last changed (time.time(), as `!` orders it among the toasts)."""

    def __init__(self, user: str | None = None) -> None:
        super().__init__()
        self._user = user
        self._shown_texts: dict[str, str] = {}
        self._told: tuple[str, float] | None = None
        """What `tell` put on the line and until when (time.monotonic()) it stays."""

    def compose(self) -> ComposeResult:
        yield Label(Text(clean(self._user or "")), id="st-user")
        yield Label("", id="st-activity")
        age = Label("", id="st-age")
        age.styles.width = AGE_CELLS + 2  # (its padding)
        yield age
        yield FittedLabel("", id="st-error")
        yield FittedLabel("", id="st-info")

    def on_mount(self) -> None:
        self.query_one("#st-info").display = False
        self._shown_at = time.monotonic()
        self.set_interval(15, self._tick)

    def _tick(self) -> None:
        """Keep the age true as time passes (what was fresh becomes minutes old), on the screen in view.

        Every screen of the stack has its own line: one underneath that changed its words made Textual
        repaint the same cells of the screen on top (the one below is a "background screen", in case
        the top one is see-through): 0.7 KB written for nothing a minute. A screen shown again
        catches up (`catch_up`)."""
        if self._in_view():
            if self.shown:
                self._render_age()
            self._forget_told()

    def tell(self, text: str) -> None:
        """A passing message ("Token x updated", "Put the cursor on a line item…"): shown, and taken off the line
        at the first tick `TOLD_LINGERS` seconds on (`!` keeps it), where it had stayed for the rest of the
        session, under every later key (a hint for `P` still said `P` did not apply where it now did)."""
        self.error = ""
        self.info = text
        self._told = (text, time.monotonic() + TOLD_LINGERS)

    def _forget_told(self) -> None:
        told = self._told
        if told is not None and time.monotonic() >= told[1]:
            self._told = None
            if self.info == told[0] and not self.error:
                self.routine(info="")

    def _in_view(self) -> bool:
        """Whether this line's screen is seen: on top, or under a see-through one (a dialog)."""
        app, screen = self.app, self.screen
        top = app.screen
        return screen is top or (top.styles.background.a < 1 and screen in app._background_screens)

    def catch_up(self) -> None:
        """The age as it is now, for a screen shown again (and a passing message gone if its time has passed)."""
        self._render_age()
        self._forget_told()

    _activity_timer: Any = None

    def watch_in_flight(self, n: int) -> None:
        """Busy is said at once; what follows (more or fewer requests, idle again) at most every ACTIVITY_EVERY.

        Pages fetched six at a time flipped the label between "6 requests", "5 requests" and, between
        pages, "idle" several times a second: a flicker nobody can read, each a write over SSH.
        """
        if not self.is_mounted or self._retry_at is not None:
            return
        shown = self._shown_texts.get("#st-activity")
        if shown is None or (n and shown == IDLE):
            self._show_activity()
        elif self._activity_timer is None:
            self._activity_timer = self.set_timer(ACTIVITY_EVERY, self._show_activity)

    def _show_activity(self) -> None:
        if self._activity_timer is not None:
            self._activity_timer.stop()
            self._activity_timer = None
        if self._retry_at is None:
            n = self.in_flight
            self._put("#st-activity", "⟳ loading" if n == 1 else (f"⟳ {n} requests" if n else IDLE))

    @property
    def settling(self) -> bool:
        """Whether the activity shown is about to catch up with the requests (tests wait for it)."""
        return self._activity_timer is not None

    def _put(self, selector: str, text: str) -> None:
        """Show `text` in one of the line's labels, repainting as little as the terminal allows.

        Nothing when the text is unchanged (the tick that keeps the age true mostly finds it so), and
        no layout (which repaints the whole screen: the grid above included) when its width is the same.
        """
        label = self.query_one(selector, Label)
        before = self._shown_texts.get(selector)
        if before == text:
            return
        self._shown_texts[selector] = text
        if selector == "#st-age":
            resized = not label.display or cell_len(text) > AGE_CELLS
            label.display = True
        else:
            resized = before is None or cell_len(before) != cell_len(text)
        label.update(text, layout=resized)

    _retry_at: float | None = None
    _retry_status: int | None = None
    _retry_timer: Any = None

    def retry_in(self, seconds: float, status: int | None) -> None:
        """The server asked to wait (Retry-After, or a backoff): count down, once a second, until the retry."""
        self._retry_at = time.monotonic() + seconds
        self._retry_status = status
        self._render_retry()
        if self._retry_timer is None:
            self._retry_timer = self.set_interval(1.0, self._render_retry)

    def retry_done(self) -> None:
        if self._retry_timer is not None:
            self._retry_timer.stop()
            self._retry_timer = None
        if self._retry_at is not None:
            self._retry_at = None
            self._show_activity()

    @property
    def waiting(self) -> bool:
        return self._retry_at is not None

    def _render_retry(self) -> None:
        if self._retry_at is None or not self.is_mounted:
            return
        left = max(0, round(self._retry_at - time.monotonic()))
        why = f"server busy ({self._retry_status})" if self._retry_status else "no answer"
        self._put("#st-activity", f"⏳ {why}: retrying in {left} s · escape cancels")

    _failed = False
    """Whether asking for what is shown again has failed since it came: what was fetched just now is not "fresh"."""

    def set_age(self, age: float | None) -> None:
        """Show the age of what is on screen (None = just fetched)."""
        self.shown = True
        self._failed = False
        self._shown_at = time.monotonic()
        self.age = age

    def no_data(self) -> None:
        """Nothing is listed (the tokens screen before a user or creator is given): no age to show, so none, not "fresh"."""
        self.shown = False
        self._failed = False
        self._shown_texts.pop("#st-age", None)
        if self.is_mounted:
            age = self.query_one("#st-age", Label)
            age.update("")
            age.display = False

    def refresh_failed(self) -> None:
        """Asking again failed: what is shown says its age, never "fresh", until the next answer (`set_age`)."""
        self._failed = True
        self._render_age()

    def watch_age(self, age: float | None) -> None:
        self._render_age()

    def _render_age(self) -> None:
        if not (self.is_mounted and self.shown):
            return
        since = time.monotonic() - getattr(self, "_shown_at", time.monotonic())
        label = self.query_one("#st-age", Label)
        if self.age is None:
            self._put("#st-age", "fresh" if since < 60 and not self._failed else age_text(since).replace("cached", "fetched"))
            label.set_class(since >= 300 or self._failed, "-stale")
        else:
            total = self.age + since
            self._put("#st-age", age_text(total))
            label.set_class(total >= 300 or self._failed, "-stale")

    def routine(self, *, info: str | None = None, error: str | None = None) -> None:
        """Show what a routine repeats (a watch's tick): on the line, but no newer for `!` than what was said before."""
        at = self.said_at
        if info is not None:
            self.info = info
        if error is not None:
            self.error = error
        self.said_at = at

    def watch_error(self, error: str) -> None:
        self.said_at = time.time()
        if self.is_mounted:
            self.query_one("#st-error", FittedLabel).show("✗ " + clean(error) if error else "")
            self.query_one("#st-error").display = bool(error) or not self.info
            self.query_one("#st-info").display = not error and bool(self.info)

    def watch_info(self, info: str) -> None:
        self.said_at = time.time()
        if self.is_mounted:
            self.query_one("#st-info", FittedLabel).show(clean(info))
            self.query_one("#st-info").display = not self.error and bool(info)
            self.query_one("#st-error").display = bool(self.error) or not info

    @property
    def message(self) -> tuple[str, str]:
        """("error" | "info", the whole text) of what the line shows on its right, or ("", "")."""
        if self.error:
            return "error", self.error
        if self.info:
            return "info", self.info
        return "", ""

    @property
    def shown_text(self) -> str:
        """The error or message as the line shows it now (cut to fit)."""
        return str(self._shown_label.render())

    @property
    def is_cut(self) -> bool:
        """Whether the error or message is cut to fit (it ends "… (! shows all)")."""
        return self._shown_label.is_cut

    @property
    def _shown_label(self) -> FittedLabel:
        return self.query_one("#st-error" if self.error or not self.info else "#st-info", FittedLabel)


class Hint(Static):
    """A one-line muted hint or inline error under a form field."""

    DEFAULT_CSS = """
    Hint { color: $text-muted; height: auto; padding: 0 1; }
    Hint.-error { color: $error; }
    """

    def show(self, text: str, *, error: bool = False) -> None:
        self.update(Text(clean(text)))
        self.set_class(error, "-error")


def toolbar(widgets: list[Any]) -> Horizontal:
    """A filter toolbar directly under a tab strip (no top margin: the strip already separates it)."""
    bar = Horizontal(*widgets, classes="toolbar")
    bar.styles.margin = (0, 0, 0, 0)
    return bar
