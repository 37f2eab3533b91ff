"""The Textual app: areas as modes, the `:` command bar, `/` filter, help, palette, themes.

Each kind with a screen becomes a mode on first use, so an area keeps its
state (query, page, cursor) when the user switches away and back. The app
listens to the session's request events to drive the status line, applies
the config's key remaps and theme, and exposes `open_kind` to the command
bar and the palette.

It is also where server text meets the terminal: every toast passes
`notify` (cleaned, never markup), every rendered line passes the
`TerminalGuard`, and screenshots are written privately and refused while a
secret is on screen.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import os
import time
from collections import deque
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from platformdirs import user_downloads_path
from textual import events
from textual.actions import SkipAction
from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.scrollbar import ScrollBar
from textual.widgets import Input

from flextui import kinds
from flextui.context import AppContext
from flextui.files import write_private
from flextui.kinds import Link
from flextui.render.text import clean, clean_lines
from flextui.ui import clipboard, escape_keys
from flextui.ui.commands import KindsProvider, run_command
from flextui.ui.cpu_wait import waited_for_cpu
from flextui.ui.gcpause import start_done
from flextui.ui.guard import TerminalGuard
from flextui.ui.safety import SafeDispatch, caller_of_handle_exception, original, survivable
from flextui.ui.said import Said, SaidLog
from flextui.ui.screen_shadow import SHADOWED_UPDATES, TerminalShadow
from flextui.ui.themes import bundled_themes
from flextui.ui.trail import Hop, Trail
from flextui.ui.widgets.bars import StatusLine, fit_rows
from flextui.ui.widgets.commandbar import CommandBar, FilterBar
from flextui.ui.widgets.scrollbars import RunsScrollBarRender

if TYPE_CHECKING:
    from flextui.api.http import RequestEvent
    from flextui.ui.profiles import Ask, Opener, ProfileSource

START_HELD_AT_MOST = 5.0
"""Seconds the collector stays off at launch when the first screen shows no data (ui/gcpause.py)."""

FIRST_PAINT_HELD_AT_MOST = 0.4
"""Seconds the first screen waits at most for its data before it is painted without them (`FlexApp.first_paint_held`)."""

TOAST_ROWS = 5
"""A toast's text is cut to this many rows (`!` shows it all): a 9-row error covered a third of an 80×24 terminal."""

log = logging.getLogger("flextui.ui")


MAX_INPUT = 4096
"""The longest text a field takes: far above any name, filter or date the APIs accept (at most 2,000)."""

UNEXPECTED_SHOWN = 400
"""Characters of an unexpected error shown in its toast (the log has all of it)."""

KEY_WAIT_LIMIT = 2.0
"""Seconds a key waits at most for the app to settle after the previous one (see `FlexApp.on_event`)."""


class CommandAgain(Message):
    """`:` where a dialog's `:` left the keys, handed on in turn with them (`FlexApp.command_next`)."""


class FlexApp(SafeDispatch, App[None], inherit_bindings=False):
    """flextui's TUI for one profile."""

    TITLE = "flextui"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {KindsProvider}
    ENABLE_COMMAND_PALETTE = True

    # Not Textual's App bindings: the same keys again, each with an id, a description and a place in `?`.
    BINDINGS = [
        Binding("question_mark", "help", "Keys", id="app.help"),
        Binding("colon", "command", "Command", id="app.command"),
        Binding("slash", "filter", "Filter", id="app.filter"),
        Binding("escape", "back", "Back", show=False, id="app.back"),
        Binding("ctrl+f", "forward", "Forward (after going back)", show=False, id="app.forward"),
        # Before any screen's escape, but only while a request waits to be retried (check_action).
        Binding("escape", "cancel_waiting", "Stop waiting", show=False, priority=True, id="app.cancel_wait"),
        Binding("ctrl+r", "refresh", "Refresh from the server", show=False, id="app.refresh"),
        Binding("q", "quit", "Quit", show=False, id="app.quit"),
        Binding("ctrl+q", "quit", "Quit, also from a text field", show=False, priority=True, id="app.quit_anywhere"),
        # Reached when nothing is selected (the screen's and a field's ctrl+c copy a selection first).
        Binding("ctrl+c", "help_quit", "How to copy and quit", show=False, id="app.copy_hint"),
        Binding("ctrl+p", "command_palette", "Palette", show=False, priority=True, id="app.palette"),
        Binding("ctrl+y", "show_clipboard", "Show copied", show=False, id="app.clip"),
        Binding("L,shift+l", "request_log", "Request log", show=False, id="app.request_log"),
    ]

    def __init__(self, ctx: AppContext, **kwargs: Any) -> None:
        self._css_applied = 0
        """The CSS change count (Textual's `_css_update_count`) the stylesheet was last parsed for (see `_new_area`)."""
        self._handlers_running = 0
        """How many SafeDispatch handlers are running now (see safety.py and the key queue)."""
        self.ctx = ctx
        ScrollBar.renderer = RunsScrollBarRender  # Textual's hook for every scrollbar: runs of cells, not cells
        alt_keys = {key.strip() for keys in ctx.keys.values() for key in keys.split(",") if key.strip().startswith("alt+")}
        escape_keys.install(alt_keys.__contains__)  # escape then a key, read together: both keys (ui/escape_keys.py)
        super().__init__(**kwargs)
        self.last_copied = ""
        self.said = SaidLog()
        """Every toast of the session, for `!` (ui/said.py)."""
        self.report_queries: dict[tuple[str, str], dict[str, Any]] = {}
        """The query last left in each report group's builder, per identity (instance and user), for the session."""
        self.last_export: tuple[Path, str] | None = None
        """The folder and format of the session's last report export: the next one is proposed there, so (never on disk)."""
        self._switching = False  # a `:profile` switch is signing in
        self._last_copy_secret = False  # the last copy was a secret (not kept: ctrl+y says so)
        self.unexpected: list[BaseException] = []
        """Every unexpected error reported while running (the tests check it stays empty)."""
        self._last_unexpected: dict[str, float] = {}
        self._typed: deque[Message] = deque()
        """Keys (and pastes) received, not yet handed on: see `on_event`."""
        self._key_feeder: asyncio.Task[None] | None = None
        self.waited_for_cpu: Callable[[], float] = waited_for_cpu
        """Seconds the main thread has waited for a CPU (ui/cpu_wait.py): not counted against `KEY_WAIT_LIMIT`."""
        self._shadow = TerminalShadow()
        """What the terminal shows: a repaint sends only what changed (`_display`)."""
        self.guard = TerminalGuard()
        self.profiles: ProfileSource | None = None
        """Which profiles `:profile` offers and how it opens one (a `ui/profiles.ProfileSource`, made on first use)."""
        self.trail = Trail()
        """The related jumps made (`j`): escape retraces one, ctrl+f repeats it, `:history` lists them."""
        self.first_paint_held = False
        """Whether the first area screen is still waiting for its data before it is painted (`first_paint_done`)."""
        for theme in bundled_themes():
            self.register_theme(theme)
        wanted = ctx.theme or "textual-dark"
        self._theme_problem = ""
        if wanted in self.available_themes:
            self.theme = wanted
        else:
            named = f" ({ctx.theme_from})" if ctx.theme_from else ""  # the file and line it is set on, or --theme
            self._theme_problem = f"no theme {wanted!r}{named}; using textual-dark (see :theme for the list)"
        self._listen(ctx)

    shadow_headless = False
    """Diff updates against the terminal's shadow also when headless (tests of what would be written)."""

    def _display(self, screen: Any, renderable: Any) -> None:
        """Textual's write of an update, less the pieces the terminal already shows (ui/screen_shadow.py)."""
        driver = self._driver
        writes = self._running and not self._closed and driver is not None and not driver.is_inline
        if renderable is not None and not self._batch_count and (self.shadow_headless or (writes and not self.is_headless)):
            if isinstance(renderable, SHADOWED_UPDATES):
                changes = self._shadow.changes(renderable, self.console, self.size)
                if not changes.pieces and self.screen.outer_size.clamp_offset(self.cursor_position) == self._previous_cursor_position:
                    return
                renderable = changes
            else:  # written some other way: what the terminal shows is no longer known
                self._shadow.forget()
        super()._display(screen, renderable)

    def action_redraw(self) -> None:
        """Write the whole screen again (`:redraw`: for when something else wrote to the terminal)."""
        self._shadow.forget()
        self.screen.refresh()

    def on_mount(self) -> None:
        self.app_resume_signal.subscribe(self, lambda _app: self._shadow.forget(), immediate=True)  # back from ctrl+z: all anew
        if self.ctx.keys:
            keys = dict(self.ctx.keys)
            if "app.help" in keys:  # a dialog's `?` is its own binding (Textual leaves the app's out): it follows,
                keys.setdefault("dialog.help", keys["app.help"])  # and the key that opens help closes it
                keys.setdefault("help.close", f"escape,{keys['app.help']}")
            if "app.command" in keys:  # a dialog's `:` (closes it, then the command bar) follows the app's
                keys.setdefault("dialog.command", keys["app.command"])
            self.set_keymap(keys)
            # Which ids exist is known once every screen is imported: after the first paint (screens load on first use).
            self.call_after_refresh(self._report_unknown_keys)
        if self._theme_problem:
            self.notify(self._theme_problem, severity="warning", markup=False)
        for said in self.ctx.extras.get("said_at_start", ()):  # a credential that could not be had (cli.py)
            self.notify(said, title="Not every area will work", severity="warning", timeout=15, markup=False)
        self.set_timer(START_HELD_AT_MOST, start_done)  # the collector back even if the first screen never shows data
        self.first_paint_held = True
        self.set_timer(FIRST_PAINT_HELD_AT_MOST, self.first_paint_done)
        start = self.ctx.start or ["tokens"]
        kind = kinds.lookup(start[0])
        if kind is None or not kind.has_screen:
            self.notify(f"Unknown area {start[0]!r}; showing tokens", severity="warning", markup=False)
            kind, start = kinds.get("tokens"), ["tokens"]
        self.open_kind(kind, " ".join(start[1:]) or None)

    def first_paint_done(self) -> None:
        """Paint the first screen now: its first load has ended, a request went to a server, or it waited
        `FIRST_PAINT_HELD_AT_MOST` (idempotent).

        Until then the first area screen lays itself out but paints nothing (`AreaScreen._compositor_refresh`).
        Painted at once, it was painted five or six times before its rows came (the empty table, the footer's
        keys, the status line's "loading"), each frame on the event loop that the answer waited for: ≈ 40 ms
        of CPU, and 7 KB to the terminal, before the first row (bench/RESULTS.md, start-up). Held,
        the first frame the terminal gets has the rows, and no flash of an empty table precedes it. Only the
        embedded simulator is waited for: a request to a server (`_on_request`) shows the screen at once, with
        "loading", as before (a first paint 0.4 s later would only delay what the user sees while the network answers).
        """
        if self.first_paint_held:
            self.first_paint_held = False
            for screen in self.screen_stack:  # a dialog opened meanwhile is painted over it
                screen.refresh()

    def _report_unknown_keys(self) -> None:
        """Say which `[keys]` entries name no binding, and which take a key another binding has, each with the
        config file and its line (`In [keys] of ~/.config/flextui/config.toml: line 12: tokens.verify = q takes …`)."""
        places = self.ctx.places
        table = f"[keys] of {places.path}" if places.path else "[keys]"

        def at(binding_id: str) -> str:
            line = places.line("keys", binding_id)
            return f"line {line}: " if line else ""

        known = self._binding_ids()
        unknown = sorted(k for k in self.ctx.keys if k not in known)
        if unknown:
            named = []
            for binding_id in unknown:
                close = difflib.get_close_matches(binding_id, known, 1, 0.75)
                named.append(at(binding_id) + binding_id + (f" (did you mean {close[0]}?)" if close else ""))
            self.notify(
                f"Unknown binding ids in {table}: " + ", ".join(named) + " (press ? for the list)",
                severity="warning",
                markup=False,
                timeout=10,
            )
        taken = shadowed_keys(self.ctx.keys)
        if taken:
            said = "; ".join(at(binding_id) + text for binding_id, text in taken)
            self.notify(f"In {table}: {said}", severity="warning", markup=False, timeout=10)

    def _binding_ids(self) -> set[str]:
        _import_every_ui_module()
        known = set()
        for cls in _binding_classes():
            for binding in getattr(cls, "BINDINGS", []):
                if isinstance(binding, Binding) and binding.id:
                    known.add(binding.id)
        return known

    # -- what reaches the terminal -------------------------------------------------------------

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), self.guard]

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every toast, whoever raises it: cleaned, never parsed as markup (`markup` is ignored), kept for `!`."""
        said = Said(severity, clean(title), clean_lines(message))
        self.said.add(said)
        # A toast's text: app.tcss's Toast (70% of its rack, itself 3 cells short of the screen), less its padding and edge.
        width = min(60, (self.size.width - 3) * 7 // 10) - 3
        text = fit_rows(said.text, width, TOAST_ROWS)
        super().notify(text, title=said.title, severity=severity, timeout=timeout, markup=False)

    def action_help_quit(self) -> None:
        """ctrl+c with nothing selected: say how to copy and how to quit (it never quits: over SSH it is a reflex)."""
        quit_keys = [
            self.get_key_display(a.binding) for a in self.active_bindings.values() if a.binding.id in ("app.quit", "app.quit_anywhere")
        ]
        copy_keys = [
            self.get_key_display(a.binding)
            for a in self.screen.active_bindings.values()
            if a.enabled and a.binding.action.startswith(("copy", "choose('copy")) and len(a.binding.key) == 1
        ]
        parts = ["Nothing is selected to copy (select text with the mouse, or shift+arrows in a field)."]
        if copy_keys:
            parts.append(f"{copy_keys[0]} copies the value under the cursor.")
        if quit_keys:
            parts.append(f"To quit: {' or '.join(quit_keys)}.")
        self.notify(" ".join(parts), title="ctrl+c copies", timeout=8)

    def copy_to_clipboard(self, text: str) -> None:
        """Textual's own copies (ctrl+c on selected text, in a field or on screen) go the way flextui copies:
        plain OSC 52 (or passthrough, as set), said in a toast, shown instead when it cannot work. From a masked field
        (a token typed into `k` verify) it is a secret: it reaches the clipboard, and ctrl+y never shows it."""
        masked = isinstance(self.focused, Input) and self.focused.password
        self.copy_text(text, "the selected text", sensitive=masked or self.secret_on_screen(), lines=True)

    # -- unexpected errors (safety.py) -----------------------------------------------------------

    def _handle_exception(self, error: Exception) -> None:
        if survivable(error, caller_of_handle_exception()) and self.is_running:
            self.report_unexpected(error)
            return
        super()._handle_exception(error)

    def _fatal_error(self) -> None:
        """Textual's end after an error it cannot carry on from (a failure while painting), with its traceback printed
        as Textual prints it, but without each frame's local variables (`show_locals`): they may hold a password,
        a token value or a server's answer, and the terminal's scrollback keeps them."""
        import rich
        from rich.segment import Segments
        from rich.traceback import Traceback

        self.bell()
        traceback = Traceback(show_locals=False, width=None, suppress=[rich])
        self._exit_renderables.append(Segments(self.console.render(traceback, self.console.options)))
        self._close_messages_no_wait()

    def report_unexpected(self, error: BaseException, *, doing: str = "", where: str = "") -> None:
        """A bug or an unforeseen answer: the traceback to the log file, a readable toast; the app carries on."""
        error = original(error)
        self.unexpected.append(error)
        log.error(
            "unexpected %s%s%s", type(error).__name__, f" while {doing}" if doing else "", f" ({where})" if where else "", exc_info=error
        )
        text = f"{type(error).__name__}: {error}".strip().rstrip(":")
        key = f"{doing}|{text}"
        now = time.monotonic()
        if now - self._last_unexpected.get(key, -1e9) < 30:  # the same failure again: logged, not shown again
            return
        self._last_unexpected[key] = now
        from flextui.config import log_path

        head = f"Something went wrong while {doing}" if doing else "Something went wrong"
        self.notify(
            f"flextui carries on; the details are in {log_path()}\n" + clean(f"{head}: {text}", limit=UNEXPECTED_SHOWN),
            title="Unexpected error",
            severity="error",
            timeout=12,
        )

    # -- screenshots ----------------------------------------------------------------------------

    def secret_on_screen(self) -> bool:
        """Whether a screen now showing declares a secret (`shows_secret`: a new token value, a revealed registry secret),
        or holds one in a masked field (a token typed into `k` verify: copied from there, it was kept for ctrl+y, whose
        dialog a screenshot then saved)."""
        return any(
            getattr(screen, "shows_secret", False) or any(field.password and field.value for field in screen.query(Input))
            for screen in self.screen_stack
        )

    def save_screenshot(self, filename: str | None = None, path: str | None = None, time_format: str | None = None) -> str:
        """Write an SVG of the screen as a private file (0600); refused (PermissionError) while a secret is on screen."""
        if self.secret_on_screen():
            raise PermissionError("a secret is on screen")
        stamp = datetime.now().strftime(time_format or "%Y%m%d-%H%M%S")
        name = filename or f"flextui-{stamp}.svg"
        target = Path(os.path.expanduser(os.path.join(path or "./", name)))
        write_private(target, self.export_screenshot())
        return str(target)

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None, time_format: str | None = None) -> str | None:
        """The palette's Screenshot command and `action_screenshot`: saved privately to Downloads, never with a secret."""
        if self.secret_on_screen():
            self.notify(
                "No screenshot taken: a secret (a token value or registry secret) is on screen or typed in a masked field, and "
                "screenshots are files. Close it first.",
                title="Screenshot",
                severity="warning",
                timeout=8,
            )
            return None
        try:
            saved = self.save_screenshot(filename, path or str(user_downloads_path()), time_format)
        except OSError as exc:
            self.notify(f"Could not save the screenshot: {exc}", title="Screenshot", severity="error")
            return None
        self.notify(f"Saved screenshot to {saved} (readable only by you)", title="Screenshot")
        return saved

    # -- areas ----------------------------------------------------------------------------

    def open_kind(self, kind: kinds.Kind, argument: str | None, *, stack: bool = False) -> None:
        """Show a kind's area (a mode, kept between visits), and its screen for `argument`.

        A screen class may name `HOME`, the base screen of its area (e.g. a
        project screen's home is the projects list); `for_kind(kind, arg)`
        builds a screen for a kind and an argument. `stack`: a related jump's
        screen goes on top of what the area shows (going back closes it);
        otherwise the area's own screens above its home are closed first.
        """
        cls = kind.screen_class()
        home = getattr(cls, "HOME", None) or cls
        mode = f"{home.__module__}.{home.__qualname__}"
        if mode not in self._modes:
            self.add_mode(mode, lambda: self._new_area(_make(home, kind if home is cls else None, None)))
        in_the_area = self.current_mode == mode
        self.switch_mode(mode)
        if argument is not None or home is not cls:
            while len(self.screen_stack) > 1 and not stack:  # `:charts X` twice must not stack project screens
                self.pop_screen()
            self.push_screen(_make(cls, kind, argument))
        else:
            # From another area, an area shows what it showed when left; from inside it, `:projects` is its home.
            while in_the_area and len(self.screen_stack) > 1 and not stack:
                self.pop_screen()

            def show() -> None:
                show_kind = getattr(self.screen, "show_kind", None)  # the areas with one screen for several kinds (tabs)
                if callable(show_kind):
                    show_kind(kind)

            self.call_after_refresh(show)

    def go_to_area(self, kind: kinds.Kind, argument: str | None) -> None:
        """An area the user opens (`:tokens`, the palette): going elsewhere, as in a browser, forgets what was ahead
        on the trail (ctrl+f) and keeps what is behind (`:history`)."""
        self.trail.went_elsewhere()
        self.open_kind(kind, argument)

    def _new_area(self, screen: Any) -> Any:
        """A new area's screen, which Textual styles node by node as it mounts, with the CSS as it stands.

        Textual marks a new screen "never styled", so switching to its mode re-parses every
        stylesheet twice and restyles the app first (a sixth of the first paint at start-up).
        While no CSS change is pending (a theme set but not yet applied), the screen is marked
        styled as of now; with one pending, Textual does as it always does.
        """
        if self._css_applied == self._css_update_count:
            screen._css_update_count = self._css_update_count
        return screen

    def refresh_css(self, animate: bool = True) -> None:
        super().refresh_css(animate)
        self._css_applied = self._css_update_count

    # -- status line ------------------------------------------------------------------------

    def _on_request(self, event: RequestEvent) -> None:
        if event.phase == "start" and not self.ctx.demo:  # a server's answer takes the network's time: show the screen
            self.first_paint_done()
        try:
            for status in self.screen.query(StatusLine):
                if event.phase == "wait" and (event.elapsed or 0) >= 1:
                    status.retry_in(event.elapsed or 0, event.status)
                elif event.phase == "start":
                    status.retry_done()
                status.in_flight = event.in_flight
        except Exception:  # no screen yet, or it is closing
            pass

    def cancel_waiting(self) -> bool:
        """Escape while a request waits to be retried: give it up (the screen's loads are cancelled)."""
        lines = list(self.screen.query(StatusLine))
        if not any(line.waiting for line in lines):
            return False
        self.workers.cancel_node(self.screen)
        for line in lines:
            line.retry_done()
        self.notify("Stopped waiting for the server; ctrl+r tries again", severity="warning", timeout=6)
        return True

    # -- keys, each where the previous one left the focus ---------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        """Keys go on one at a time, each once the previous one has had its effect.

        Textual hands a key to whichever widget has the focus when the app reads it. Over SSH a
        burst of keys is read at once, before the first has been handled: a Tab that moves to the
        next field, an enter that closes the `:` bar and opens an area, a `:` that opens the bar,
        would each still be pending while the keys after them went to the old focus (a name field
        took the description; `:tokens` typed on the catalogue ran `e` and `n` there). So a key
        (or a paste) received is queued, and `_feed_keys` hands each on only once the app has
        settled after the one before: no message waiting anywhere, no handler of ours still
        running, no widget still being mounted, no focus change scheduled after the next refresh.
        """
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            if getattr(event, "_flextui_released", False):
                await super().on_event(event)
                return
            self._typed.append(event)
            if self._key_feeder is None or self._key_feeder.done():
                self._key_feeder = asyncio.create_task(self._feed_keys(), name="flextui keys")
            return
        await super().on_event(event)

    def command_next(self) -> None:
        """`:` again once the app has settled, before the keys typed after the one being handled: a dialog's `:` closed
        it, and what `:` does where that left the keys follows (the command bar; a dialog under it closes the same way)."""
        self._typed.appendleft(CommandAgain())
        if self._key_feeder is None or self._key_feeder.done():
            self._key_feeder = asyncio.create_task(self._feed_keys(), name="flextui keys")

    async def on_command_again(self, _message: CommandAgain) -> None:
        screen = self.screen
        from_dialog = getattr(screen, "action_command_from_dialog", None)
        if not screen.is_modal:
            self.action_command()
        elif callable(from_dialog):
            try:
                await from_dialog()
            except SkipAction:  # a field being typed in has the keys: what follows is typed there
                pass

    async def _feed_keys(self) -> None:
        while self._typed:
            await self._wait_until_settled()
            event = self._typed.popleft()
            event._flextui_released = True  # type: ignore[attr-defined]
            self.post_message(event)

    async def _wait_until_settled(self) -> None:
        loop = asyncio.get_running_loop()
        started, cpu_waited = loop.time(), self.waited_for_cpu()
        quiet = tries = 0
        while quiet < 2:  # twice in a row: a task started by the last handler (a worker opening a dialog) has run once
            await asyncio.sleep(0 if tries < 50 else 0.002)
            tries += 1
            if self._settled():
                quiet += 1
                continue
            quiet = 0
            if self._switching:  # a sign-in has its own deadline: the keys are for the profile it opens
                started, cpu_waited = loop.time(), self.waited_for_cpu()
            elif loop.time() - started > KEY_WAIT_LIMIT:  # something never settles: do not hold the keys for ever
                # ... counting only the time the app could run: on a loaded host its settling takes longer (ui/cpu_wait.py)
                if loop.time() - started - (self.waited_for_cpu() - cpu_waited) <= KEY_WAIT_LIMIT:
                    continue
                log.warning("keys: the app did not settle within %.1f s; handing the next key on", KEY_WAIT_LIMIT)
                return

    def _settled(self) -> bool:
        """Whether everything the keys so far set off has happened (see `on_event`)."""
        if self._handlers_running or not self._message_queue.empty() or self._next_callbacks:
            return False
        if self._switching and not self.screen.is_modal:  # signing in to another profile (a password dialog takes keys)
            return False
        try:
            if self.screen._callbacks:  # e.g. a focus change after the next refresh
                return False
            nodes = [*self.screen_stack, *self._registry]
        except Exception:  # no screen yet, or the app is closing
            return True
        for node in nodes:
            if node._closing or node._closed:
                continue
            if not node._is_mounted:
                return False  # being composed and mounted: its on_mount may take the focus
            if node._running and (not node._message_queue.empty() or node._next_callbacks):
                return False
        return True

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Every text field, as it gets the keys: a steady cursor (a blinking one repaints its line twice a
        second: bytes over SSH, flaky snapshots) and a length cap (a 100 KB paste without bracketed paste
        must not hang the app)."""
        if isinstance(event.widget, Input):
            if event.widget.cursor_blink:
                event.widget.cursor_blink = False
            if not event.widget.max_length or event.widget.max_length > MAX_INPUT:
                event.widget.max_length = MAX_INPUT

    def _on_notice(self, severity: str, text: str) -> None:
        """The data layer says something the user must know: a listing cut short, a minted token."""
        self.notify(text, severity=severity, markup=False, timeout=20 if severity == "warning" else 10)  # type: ignore[arg-type]

    # -- actions ----------------------------------------------------------------------------

    def action_command(self) -> None:
        bars = self.screen.query(CommandBar)
        if bars:
            bars.first().open()

    def action_filter(self) -> None:
        bars = self.screen.query(FilterBar)
        if bars:
            bars.first().open()

    def on_command_bar_command_entered(self, event: CommandBar.CommandEntered) -> None:
        run_command(self, event.text)

    def on_filter_bar_filter_changed(self, event: FilterBar.FilterChanged) -> None:
        apply = getattr(self.screen, "apply_filter", None)
        if apply is not None:
            apply(event.text)

    def action_help(self) -> None:
        from flextui.ui.help import HelpScreen, help_rows, screen_name  # loaded when first asked for

        self.push_screen(HelpScreen(help_rows(self), screen_name(self.screen)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel_waiting":
            try:
                return any(line.waiting for line in self.screen.query(StatusLine))
            except Exception:
                return False
        return super().check_action(action, parameters)

    def action_cancel_waiting(self) -> None:
        self.cancel_waiting()

    def action_back(self) -> None:
        hop = self.trail.leaving(self.screen)
        if hop is not None:
            self._retrace()
        elif len(self.screen_stack) > 1:
            self.pop_screen()

    # -- related jumps and the trail ---------------------------------------------------------

    def jump(self, link: Link) -> None:
        """Open the record `link` names, remembering this place: escape comes back to it as it is."""
        kind = kinds.lookup(link.kind)
        if kind is None or not kind.has_screen:
            self.notify(f"Nothing to open for {clean(link.label)}", severity="warning", markup=False)
            return
        from flextui.ui.help import screen_name

        hop = Hop(self.current_mode, self.screen, screen_name(self.screen), link, area=getattr(self.screen, "KIND", ""))
        self.trail.record(hop)
        self._arrive(hop)

    def _arrive(self, hop: Hop) -> None:
        self.open_kind(kinds.get(hop.link.kind), hop.link.argument, stack=True)
        hop.arrived = self.screen
        self.trail.landed(self.screen)  # ctrl+f from here goes on to the next jump ahead, if any

    def _retrace(self) -> bool:
        """Back along the trail: close the screen the last jump opened and show the place it left."""
        hop = self.trail.step_back()
        if hop is None:
            return False
        if hop.arrived is self.screen and len(self.screen_stack) > 1:
            self.pop_screen()
        hop.arrived = None
        if hop.mode not in self._modes:  # closed by a profile switch: the same area, on this tenant
            self.open_kind(kinds.lookup(hop.area) or kinds.get("tokens"), None)
            self.trail.landed(self.screen)
            return True
        if self.current_mode != hop.mode:
            self.switch_mode(hop.mode)
        stack = self._screen_stacks.get(hop.mode, [])
        if hop.screen in stack:
            while stack[-1] is not hop.screen:  # what was opened over it since (pop_screen takes it off at once)
                self.pop_screen()
        else:
            self.notify(f"{clean(hop.left)} was closed since: showing its area", markup=False)
        self.trail.landed(self.screen)
        return True

    def action_forward(self) -> None:
        """ctrl+f: open again what escape left (the last place gone back from)."""
        hop = self.trail.step_forward(self.current_mode, self.screen)
        if hop is None:
            self.notify("Nothing ahead: j opens the record under the cursor", markup=False)
            return
        self._arrive(hop)

    # -- tenants in place ------------------------------------------------------------------------

    def _listen(self, ctx: AppContext, *, stop: bool = False) -> None:
        """Hear `ctx`'s requests (the status line) and notices (toasts), or stop hearing them."""
        for listeners, handler in ((ctx.session.listeners, self._on_request), (ctx.session.notice_listeners, self._on_notice)):
            if not stop:
                listeners.append(handler)
            elif handler in listeners:
                listeners.remove(handler)

    def profile_source(self) -> ProfileSource:
        if self.profiles is None:
            from flextui.ui.profiles import ProfileSource

            self.profiles = ProfileSource()
        return self.profiles

    def profile_names(self) -> list[str]:
        """The profiles `:profile` and the palette offer (the config's; the demo's identities in the demo)."""
        return list(self.profile_source().names(self.ctx))

    def pick_profile(self, names: list[str]) -> None:
        """`:profile` alone: the profiles to pick from, each with its host, user and read-only, the one in use marked and
        under the cursor."""
        if not names or names == [self.ctx.profile_name]:
            only = f"Only {clean(self.ctx.profile_name)}, in use. " if names else "No profiles configured. "
            self.notify(only + "Add [profiles.NAME] to the config (flextui info shows where)", markup=False)
            return
        from flextui.ui.profiles import choice
        from flextui.ui.widgets.dialogs import ChoiceScreen  # (dialogs load on first use: start-up)

        here = self.ctx.profile_name
        facts = self.profile_source().facts(self.ctx)
        choices = [choice(name, facts.get(name, []), in_use=name == here) for name in names]

        def chosen(index: int | None) -> None:
            if index is not None:
                self.switch_profile(names[index])

        self.push_screen(
            ChoiceScreen(
                "Switch profile",
                choices,
                note="enter signs in · escape stays · :profile NAME goes at once",
                highlighted=names.index(here) if here in names else 0,
            ),
            chosen,
        )

    def switch_profile(self, name: str) -> None:
        """`:profile NAME`: sign in to another profile, then show the same area on it (see ui/profiles.py)."""
        if name == self.ctx.profile_name:
            self.notify(f"Already on {clean(name)}", markup=False)
            return
        self._switching = True  # keys typed meanwhile wait for the new profile's screen (see `_settled`)
        self.run_worker(self._switch(name), group="profile-switch", exclusive=True, description=f"switching to {name}")

    async def _switch(self, name: str, opener: Opener | None = None) -> None:
        try:
            await self._sign_in_and_adopt(name, opener)
        finally:
            self._switching = False

    def action_retype_password(self) -> None:
        """`:password`: type this profile's password again and sign in with it (this session only, never saved);
        a wrong one typed at the start could only be fixed by quitting."""
        from flextui.ui.profiles import SwitchCancelled

        ctx = self.ctx
        if ctx.credentials is None or not ctx.credentials.user:
            self.notify("This session signs in without a user name: there is no password to type", markup=False)
            return
        if ctx.session.offline:
            self.notify("Offline (--offline): there is nothing to sign in to; start without --offline", markup=False)
            return

        async def typed_again(_: AppContext, __: str, ask: Ask) -> AppContext:
            password = await ask(f"Password for {ctx.user or ctx.profile_name} at {ctx.session.instance_url}")
            if password is None:
                raise SwitchCancelled
            return ctx.with_password(password)

        self._switching = True
        self.run_worker(self._switch(ctx.profile_name, typed_again), group="profile-switch", exclusive=True, description="signing in again")

    async def _sign_in_and_adopt(self, name: str, opener: Opener | None = None) -> None:
        from flextui.api.errors import ApiError
        from flextui.config import ConfigError
        from flextui.secrets import SecretError
        from flextui.ui.profiles import SecretPrompt, SwitchCancelled, sign_in

        async def ask(title: str) -> str | None:
            return await self.push_screen_wait(SecretPrompt(title))

        opener = opener or self.profile_source().open
        new = None
        try:
            new = await opener(self.ctx, name, ask)
            if self.ctx.forced_read_only and not (new.read_only and new.session.read_only):  # (an opener that forgot it)
                raise LookupError(f"{name} would not be read-only, and this session is (--read-only)")
            new.forced_read_only = new.forced_read_only or self.ctx.forced_read_only
            new.session.trace.writers = self.ctx.session.trace.writers  # --trace FILE goes on, the sign-in included
            doing = "Opening (offline)" if new.session.offline else "Signing in to"
            self.notify(f"{doing} {clean(name)} as {clean(new.user or '?')}…", markup=False, timeout=3)
            await sign_in(new)
        except SwitchCancelled:
            self.notify(f"Staying on {clean(self.ctx.profile_name)}", markup=False)
        except (ApiError, ConfigError, SecretError, LookupError, OSError) as exc:
            self.notify(f"Staying on {clean(self.ctx.profile_name)}: {clean(str(exc))}", severity="error", markup=False, timeout=10)
        else:
            old = self.ctx
            await self._adopt(new)
            await old.aclose()
            return
        if new is not None:
            await new.aclose()
            self.ctx.session.claim_cache()

    async def _adopt(self, new: AppContext) -> None:
        """Move the app to `new`: every area of the old tenant closed, the area in use opened again on the new one."""
        reopen = getattr(self.screen, "reopen_as", None)
        kind_id, argument = reopen() if callable(reopen) else (getattr(self.screen, "KIND", ""), None)
        kind = kinds.lookup(kind_id or "") or kinds.get("tokens")
        last_hop = self.trail.leaving(self.screen)
        self._listen(self.ctx, stop=True)
        old, self.ctx = self.ctx, new
        self._listen(new)
        if (old.profile_name, old.user, old.session.instance_url) != (new.profile_name, new.user, new.session.instance_url):
            # What was said and copied on the old tenant (`!`'s messages, ctrl+y's value, its toasts) names its data:
            # nothing of one tenant is shown under the other (`:password`, the same one signed in again, keeps them).
            self.said = SaidLog()
            self.last_copied, self._last_copy_secret = "", False
            self.clear_notifications()
        if new.theme and new.theme in self.available_themes and new.theme != self.theme:
            self.theme = new.theme
        elif new.theme and new.theme not in self.available_themes:  # said, with where it is named, not passed over
            named = f" ({new.theme_from})" if new.theme_from else ""
            self.notify(f"no theme {new.theme!r}{named}; keeping {self.theme} (see :theme for the list)", severity="warning", markup=False)
        from textual.screen import Screen

        self.add_mode("-switching", Screen)
        await self.switch_mode("-switching")
        for mode in [m for m in self._modes if m != "-switching"]:
            await self.remove_mode(mode)
        self.open_kind(kind, argument)
        if last_hop is not None:  # the area a jump opened, now on the new tenant: escape still goes back along the trail
            last_hop.arrived = self.screen
        await self.remove_mode("-switching")
        badge = " (read-only)" if new.read_only else ""
        self.notify(f"Now on {clean(new.profile_name)} as {clean(new.user or '?')}{badge}", markup=False)

    def action_history(self) -> None:
        """`:history`: the trail; picking a place goes back (or forward) to it."""
        self.trail.ahead_of(self.screen)
        entries = self.trail.entries()
        if not entries:
            self.notify("Nothing on the trail: j on a record opens what it names, and escape comes back", markup=False)
            return
        from flextui.ui.widgets.dialogs import ChoiceScreen

        here = next((i for i, (_, steps) in enumerate(entries) if steps > 0), len(entries)) - 1
        texts = [("◀ " if steps < 0 else "▶ ") + text for text, steps in entries]

        def go(index: int | None) -> None:
            if index is None:
                return
            steps = entries[index][1]
            self._walk(steps)

        self.push_screen(
            ChoiceScreen("Where you have been (◀ back, ▶ ahead)", texts, note="enter goes there · escape closes", highlighted=max(here, 0)),
            go,
        )

    def _walk(self, steps: int) -> None:
        """Go back (steps < 0) or forward that many hops, one after another as each lands."""
        if steps == 0:
            return
        if steps < 0:
            if self._retrace():
                self.call_after_refresh(self._walk, steps + 1)
        else:
            if self.trail.forward:
                self.action_forward()
                self.call_after_refresh(self._walk, steps - 1)

    def action_refresh(self) -> None:
        refresh = getattr(self.screen, "action_reload", None)
        if refresh is not None:
            refresh()

    @property
    def clipboard(self) -> str:
        """The last value copied here, for ctrl+y and pasting: never a secret (those are sent and forgotten)."""
        return self.last_copied

    def get_driver_class(self) -> Any:
        """Textual's driver (its input thread tolerant of bytes that are not UTF-8), or (clipboard = "tmux-passthrough")
        one that wraps OSC 52 for tmux passthrough."""
        from flextui.ui.input_bytes import tolerate_undecodable_input

        tolerate_undecodable_input()
        base = super().get_driver_class()
        if self.ctx.settings.clipboard == "tmux-passthrough":
            return clipboard.passthrough_driver(base)
        return base

    def send_to_clipboard(self, text: str, *, sensitive: bool = False, lines: bool = False) -> clipboard.CopyResult:
        """Copy through the terminal (OSC 52), as one line or (`lines`) several; keep it for ctrl+y unless it is a secret."""
        result = clipboard.copy(self, text, lines=lines)
        if result.sent:
            self.last_copied = "" if sensitive else result.text
            self._last_copy_secret = sensitive
        return result

    def action_request_log(self) -> None:
        """Every HTTP exchange of the session (secrets removed), the selected one in full, `c` copies it as curl."""
        from flextui.ui.screens.requestlog import RequestLogScreen  # loaded when first asked for

        if not isinstance(self.screen, RequestLogScreen):
            self.push_screen(RequestLogScreen())

    def action_show_clipboard(self) -> None:
        value = self.clipboard
        if not value:
            said = (
                "The last copy was a secret: it went to your terminal and is not kept" if self._last_copy_secret else "Nothing copied yet"
            )
            self.notify(said, markup=False)
            return
        from flextui.ui.widgets.dialogs import ValueScreen

        self.push_screen(ValueScreen("Last copied value", value))

    def copy_text(self, text: str, what: str, *, sensitive: bool = False, lines: bool = False) -> None:
        """Copy with OSC 52; show the value instead when that cannot work.

        A `sensitive` value (a token value, a registry secret) is not kept for
        ctrl+y: it is sent to the terminal and forgotten. A value is copied as the
        one line the screen shows it on, unless it is a body of `lines`.
        """
        from flextui.ui.widgets.dialogs import ValueScreen

        if self.ctx.settings.clipboard == "show":
            self.push_screen(ValueScreen(f"Copy {what}", text, secret=sensitive))
            return
        result = self.send_to_clipboard(text, sensitive=sensitive, lines=lines)
        if result.sent:
            copied = getattr(self.screen, "value_copied", None)  # a value shown once: it has been copied
            if callable(copied):
                copied()
            hint = "" if sensitive else " Not in your clipboard? ctrl+y shows it."
            self.notify(f"Copied {what} ({result.size} characters).{hint}", markup=False)
        else:
            self.push_screen(ValueScreen(f"Copy {what} by hand ({result.reason})", text, secret=sensitive))

    async def on_unmount(self) -> None:
        if self._key_feeder is not None:
            self._key_feeder.cancel()
        if self._on_request in self.ctx.session.listeners:
            self.ctx.session.listeners.remove(self._on_request)
        if self._on_notice in self.ctx.session.notice_listeners:
            self.ctx.session.notice_listeners.remove(self._on_notice)


def _make(cls: Any, kind: kinds.Kind | None, argument: str | None) -> Any:
    factory = getattr(cls, "for_kind", None)
    return factory(kind, argument) if factory is not None else cls()


def _import_every_ui_module() -> None:
    """Import every module of the UI, so that every class with bindings exists (screens are imported on first use)."""
    import importlib
    import pkgutil

    import flextui.ui

    for module in pkgutil.walk_packages(flextui.ui.__path__, "flextui.ui."):
        importlib.import_module(module.name)


def shadowed_keys(keys: dict[str, str]) -> list[tuple[str, str]]:
    """What a `[keys]` remap takes from another binding where it applies: `"tokens.verify" = "q"` took q from Quit on
    the tokens screen, and said nothing (a screen's key comes before the app's). Each with the binding id it is said of."""

    def effective(binding: Binding) -> list[str]:
        given = keys.get(binding.id or "", binding.key)
        return [k.strip() for k in given.split(",") if k.strip()]

    app_keys = {key: b for b in FlexApp.BINDINGS if isinstance(b, Binding) for key in effective(b)}
    said: list[tuple[str, str]] = []
    for cls in _binding_classes():
        if cls is FlexApp:
            continue
        bindings = [b for b in getattr(cls, "BINDINGS", []) if isinstance(b, Binding)]
        for binding in bindings:
            if binding.id not in keys:
                continue
            for key in effective(binding):
                other = app_keys.get(key) or next(
                    (b for b in bindings if b is not binding and b.action != binding.action and key in effective(b)), None
                )
                if other is not None and other.id != binding.id:
                    said.append((binding.id or "", f"{binding.id} = {key} takes {key} from “{other.description}” ({other.id}) there"))
    return sorted(set(said))


def _binding_classes() -> list[type]:
    from textual.widget import Widget

    found: list[type] = [FlexApp]
    stack = list(Widget.__subclasses__())
    from textual.screen import Screen

    stack += Screen.__subclasses__()
    while stack:
        cls = stack.pop()
        if cls.__module__.startswith("flextui."):
            found.append(cls)
        stack.extend(cls.__subclasses__())
    return found
