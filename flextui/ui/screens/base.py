"""What every area screen shares: the chrome, safe workers, and the read-only rule.

`AreaScreen.run_api` runs a screen's requests: an `ApiError` (the server
said no, or could not be reached) becomes the status line's error and a
toast; anything else is a bug or a surprise, and goes to the app's one
handler for those (`FlexApp.report_unexpected`, see ui/safety.py): logged
with its traceback, shown, never fatal. Workers keep Textual's default
`exit_on_error`, so a worker started elsewhere that fails reaches that same
handler instead of vanishing. `check_action` hides every action
whose capability the kinds registry marks as mutating when the profile is
read-only, so no screen can forget that check.

The filter fields of every list (those in a `FILTER_BARS` container) follow
one rule, kept here: a list is listed by its fields as applied (`applied_text`:
enter, or a value the screen set with `set_filter_text`), never by text typed
since without enter, so ctrl+r, a watch's tick or a page turn cannot list by
half-typed text; enter applies a bar's fields once and the screen lists by
them (`enter_filters` → `filters_entered`, which may refuse them); the keys
leaving the fields without enter, or escape in them, put back what is applied
(`revert_filter_fields`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, ClassVar
from weakref import WeakKeyDictionary

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Input, Select, Tree
from textual.worker import Worker, WorkerState

from flextui import kinds
from flextui.api.errors import ApiError, Unauthorized
from flextui.context import AppContext
from flextui.kinds import Link
from flextui.ui.appref import flex_app
from flextui.ui.gcpause import start_done
from flextui.ui.hidden_keys import say_unbound, say_why_hidden
from flextui.ui.keys import FOCUS_KEYS, KeyFooter
from flextui.ui.safety import SafeDispatch
from flextui.ui.widgets.bars import StatusLine, TitleBar
from flextui.ui.widgets.commandbar import CommandBar, FilterBar
from flextui.ui.widgets.table import ResourceTable

log = logging.getLogger("flextui.ui")


NOT_LOADED = "✗ not loaded · ctrl+r tries again · ! shows why"
NOT_REFRESHED = "✗ not refreshed · ctrl+r tries again · ! shows why"
"""What a "loading…" label says instead once its load has failed."""


_DOWN = ("desc", "descending", "down", "-")
_UP = ("asc", "ascending", "up", "+")


def nothing_deleted(kind: kinds.Kind) -> str:
    """What `d` says where nothing can be deleted: the API has no delete for these records, and which records `d` deletes."""
    titles = [k.title[0].lower() + k.title[1:] for k in kinds.KINDS if k.can("delete", read_only=False)]
    which = ", ".join(titles[:-1]) + f" and {titles[-1]}" if len(titles) > 1 else "".join(titles)
    return f"d deletes nothing here: the API has no delete for {kind.title.lower()}. It deletes {which}, on their screens."


def sort_words(words: list[str]) -> tuple[str, bool]:
    """`:sort` arguments as (the column named, descending): "created desc" → ("created", True)."""
    descending = bool(words) and words[-1].casefold() in _DOWN
    return " ".join(w for w in words if w.casefold() not in _DOWN + _UP), descending


def sorted_here(table: ResourceTable, many_pages: bool) -> list[str]:
    """["sorted"] when `:sort` has sorted the page shown of a list of several: the services' lists have no sort, so
    the rows of the other pages are not among them (each page is sorted as it is shown). The header names the column
    ("Name ▼"); on a list of one page every row is sorted, and there is nothing more to say."""
    return ["sorted"] if many_pages and table.sort_spec is not None else []


def on_this_page(notes: list[str]) -> str:
    """What a pager line says of the rows of the page shown, said once as of this page (so "4 inactive" is not read as
    of the total beside it): "4 inactive on this page", "on this page: sorted, 4 inactive" (at 80 columns a second
    "on this page" pushed the line past the width)."""
    return f"{notes[0]} on this page" if len(notes) == 1 else "on this page: " + ", ".join(notes)


def filters_key(prefix: str) -> Binding:
    """`f`, the README's "filters: to the filter fields", as a screen binds it: under its own id (`<prefix>.filters`,
    remappable in [keys]), to `AreaScreen.action_focus_filters`."""
    return Binding("f", "focus_filters", "Filters", show=False, id=f"{prefix}.filters")


class AreaScreen(SafeDispatch, Screen[None]):
    """Base of every area screen. Subclasses set KIND and implement `compose_body`."""

    KIND: ClassVar[str] = ""
    WATCHABLE: ClassVar[bool] = True
    """Whether `:watch N` may refresh this screen on its own (a list: yes; a form or a report run: no)."""
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {}
    """Maps action names to kinds-registry capabilities (e.g. "delete_token": "delete")."""
    FILTER_BARS: ClassVar[frozenset[str]] = frozenset({"toolbar"})
    """The classes of the containers that hold the screen's filter fields (escape leaves them: `leave_filter_field`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *FOCUS_KEYS,
        Binding("R,shift+r", "raw", "Raw JSON", show=False, id="screen.raw"),
        Binding("j", "jump", "Related record", show=False, id="screen.jump"),
        Binding("exclamation_mark", "show_message", "Whole error", show=False, id="screen.show_message"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="screen.clear_filter"),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_age: float | None = None
        self._has_data = False
        self._suspended = False
        """Whether another screen has been shown over this one since it was made (see `on_screen_resume`)."""
        self._applied: WeakKeyDictionary[Input, str] = WeakKeyDictionary()
        """Each filter field's value as last applied (what the list on screen is listed by): escape puts it back."""
        self._last_place: Widget | None = None
        """The widget the user was last in outside the filter fields and the bars (a table, a tree): escape goes back to it."""

    @property
    def ctx(self) -> AppContext:
        """The profile this screen was opened on, for its whole life: on `:profile` the app moves to another
        context and closes this screen, which must still leave what it keeps (a report query) under its own
        identity, not the next one's (a builder left its conditions to the profile switched to)."""
        bound = self.__dict__.get("_bound_ctx")
        if bound is None:
            bound = self.__dict__["_bound_ctx"] = flex_app(self).ctx
        return bound

    @property
    def kind(self) -> kinds.Kind:
        return kinds.get(self.KIND)

    @property
    def area_title(self) -> str:
        return self.kind.title

    def reopen_as(self) -> tuple[str, str | None]:
        """The kind and argument (`:KIND ARG`) that show this screen again: `:profile` opens them on the new tenant."""
        return self.KIND, None

    def compose(self) -> ComposeResult:
        ctx = self.ctx
        yield TitleBar(ctx.profile_name, ctx.user, ctx.read_only, ctx.color, offline=ctx.session.offline)
        yield from self.compose_body()
        yield FilterBar()
        yield CommandBar()
        yield StatusLine(ctx.user)
        yield KeyFooter()

    def compose_body(self) -> ComposeResult:
        yield from ()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Textual's own handler (Screen's, further along the MRO). A screen never suspended since it
        # mounted, with no CSS change since (see FlexApp._new_area), was styled node by node as it mounted: Textual
        # would restyle every node again (twice, for a new area: ~15 % of the first paint at start-up).
        if not self._suspended and self._css_update_count == self.app._css_update_count:
            event.refresh_styles = False
        self.retitle()
        self.status.in_flight = self.ctx.session.in_flight
        self.status.catch_up()

    def give_keys(self, widget: Any) -> None:
        """Focus `widget` (a table a tab or an area asked for), unless the user has since opened a bar.

        Such a focus can come a refresh or a tab's building later than the key that asked for it;
        over SSH the `:` typed next may already have opened the command bar, and taking the keys
        from it sent the rest of the command to the table (`products` typed there opened a record).
        """
        focused = self.focused
        if isinstance(focused, (CommandBar, FilterBar)) and focused.has_class("-open"):
            focused.return_to(widget)  # where the keys go when the bar closes (not the table of a tab left since)
            return
        widget.focus()

    def retitle(self) -> None:
        """Show `area_title` as it is now (a screen whose filters changed names them, or no longer does)."""
        self.query_one(TitleBar).area = self.area_title

    def on_screen_suspend(self) -> None:
        self._suspended = True

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    # -- read-only and capabilities -------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":  # escape: only while a filter is in force (or a search of every page runs)
            return self.escape_clears()
        if action == "show_message":  # listed in `?` always; dimmed there until something has been said
            try:
                return True if self.status.message[1] or flex_app(self).said else None
            except Exception:
                return None
        capability = self.ACTION_CAPABILITY.get(action)
        if capability is None:
            return True
        return self.kind.can(capability, read_only=self.ctx.read_only)

    def on_key(self, event: events.Key) -> None:
        # Before any binding (Textual checks them once the key has passed the screen): escape in a filter field
        # leaves the field first, not the screen (the app's back), and the next keys go where the user was.
        if event.key == "escape" and self.leave_filter_field():
            event.stop()
            event.prevent_default()
            return
        say_why_hidden(self, event, self.why_not)
        if not self.kind.can("delete", read_only=False):
            say_unbound(self, event, "d", nothing_deleted(self.kind))

    def why_not(self, action: str, description: str) -> str | None:
        """Why `action` is hidden now (None: it is not, or there is nothing to say); screens add their reasons.

        A change the kind offers (its capability is in `ACTION_CAPABILITY` and the kind's actions) is off on a
        read-only profile; a key that would change nothing here (a tab of another kind) is left unexplained."""
        capability = self.ACTION_CAPABILITY.get(action)
        if self.ctx.read_only and capability in kinds.MUTATING and self.kind.can(capability, read_only=False):
            if self.ctx.session.offline:
                return f"Offline (--offline): {description} needs the network"
            return f"This profile is read-only: {description} is off"
        return None

    # -- data age and errors ---------------------------------------------------------

    def show_age(self, age: float | None) -> None:
        start_done()  # the first data is on screen: start-up is over
        self._first_load_ended()
        self.data_age = age
        self._has_data = True
        self.status.set_age(age)
        if age is None:
            self.status.error = ""

    def show_no_data(self) -> None:
        """Nothing is listed, by design (no user or creator given yet): the status line shows no age."""
        self._first_load_ended()
        self.data_age = None
        self._has_data = False
        self.status.no_data()

    def _first_load_ended(self) -> None:
        done = getattr(self.app, "first_paint_done", None)
        if done is not None:
            done()

    def _compositor_refresh(self) -> None:
        """Textual's paint of this screen: held while the app waits for the first screen's data (`FlexApp.first_paint_done`)."""
        if getattr(self.app, "first_paint_held", False):
            return
        super()._compositor_refresh()

    def report_error(self, error: BaseException, *, doing: str = "") -> None:
        """Show a failure in the status line and as a toast (an unexpected one is also logged); never raise."""
        expected = isinstance(error, ApiError)
        text = str(error) if expected else f"unexpected {type(error).__name__}: {error}"
        if doing:
            text = f"{doing}: {text}"
        if isinstance(error, Unauthorized) and error.password_refused and self.ctx.user:
            text += " · :password types it again"
        if expected and self.watcher is not None and self.watcher.in_refresh():
            self.watcher.failed(text)  # the watch says it once, not every tick
            return
        try:
            self.status.error = text
        except Exception:  # the screen may be gone
            pass
        if expected:
            self.app.notify(text, severity="error", markup=False, timeout=8)
        else:
            flex_app(self).report_unexpected(error, doing=doing)

    def rows_sorted(self, table: ResourceTable) -> None:
        """`table`, a list here, was sorted by `:sort` (its header marks the column): its pager says so when only the
        page shown is sorted (`sorted_here`), or names the order."""

    def sort_by_words(self, words: list[str]) -> None:
        """`:sort COLUMN [desc]` (`:sort` alone: the server's order again) on the list in front: a grid sorts all its
        rows; a page of a list sorts the rows loaded, and says so (the services' lists have no sort parameter)."""
        from flextui.ui.widgets.grid import DataGrid
        from flextui.ui.widgets.table import ResourceTable

        tables = [w for w in self.query("ResourceTable, DataGrid") if w.display and w.is_on_screen]
        focused = self.focused if isinstance(self.focused, (ResourceTable, DataGrid)) else None
        table = focused or (tables[0] if tables else None)
        name, descending = sort_words(words)
        if table is None:
            self.app.notify("No list on this screen to sort", markup=False)
            return
        if isinstance(table, DataGrid):
            if not name:
                table.sort_by(None)
                return
            try:
                table.sort_by(table.model.column(name), descending)
            except KeyError:
                self.app.notify(f"No column {name!r}: " + ", ".join(c.title for c in table.columns), severity="error", markup=False)
            return
        if not name:
            table.sort_on(None)
            self.rows_sorted(table)
            self.app.notify("In the server's order again", markup=False)
            return
        key = table.column_key(name)
        if key is None:
            self.app.notify(f"No column {name!r}: " + ", ".join(c.title for c in table.spec), severity="error", markup=False)
            return
        table.sort_on(key, descending)
        self.rows_sorted(table)
        title = next(c.title for c in table.spec if c.key == key)
        self.app.notify(
            f"Sorted the {len(table.visible_rows):,} rows loaded by {title}{' (descending)' if descending else ''}: "
            "the service has no sort, so other pages keep the server's order",
            markup=False,
        )

    def first_filter(self) -> Widget | None:
        """The field `f` goes to: the first field of the screen's filter toolbar (None: it has none)."""
        fields = self.query(".toolbar Input, .toolbar Select")
        return fields.first() if fields else None

    def action_focus_filters(self) -> None:
        """f: to the filter fields (`filters_key`)."""
        field = self.first_filter()
        if field is not None:
            field.focus()

    def raw_record(self) -> Any | None:
        """The record under the cursor (a model or a row dict) for `R`; None where there is none."""
        return None

    def action_raw(self) -> None:
        """R: the record under the cursor as JSON, in the server's field names, secrets removed; c copies it."""
        from flextui.ui.rawview import show_raw  # loaded when first asked for

        show_raw(self, self.raw_record())

    # -- :page N ---------------------------------------------------------------------------------------

    def page_position(self) -> tuple[int, int | None] | None:
        """(this page, the last page or None when unknown), counted from 1; None on a screen without pages."""
        return None

    def go_to_page(self, number: int) -> str | None:
        """`:page N`: that page of this list (by its `[`/`]` paging); what went wrong, or None."""
        position = self.page_position()
        page = getattr(self, "action_page", None)
        if position is None or not callable(page):
            return "This screen has no pages"
        current, last = position
        if number < 1:
            return "Pages are counted from 1"
        if last is not None and number > last:
            return f"Page {number} is past the last one ({last})"
        if number == current:
            return f"Already on page {number}"
        page(number - current)
        return None

    # -- :watch ---------------------------------------------------------------------------------------

    watcher: Any = None
    """The `:watch` refreshing this screen (ui/watch.py), or None."""

    def watch_every(self, seconds: float | None) -> str:
        """Start (or change, or with None stop) refreshing this screen every `seconds`; what to tell the user."""
        from flextui.ui.watch import Watcher

        if self.watcher is not None:
            self.watcher.stop()
            self.watcher.clear_status()
            self.watcher = None
        if seconds is None:
            return "Stopped watching"
        if not self.WATCHABLE or not callable(getattr(self, "action_reload", None)):
            return f"{self.area_title or 'This screen'} does not refresh on its own (:watch is for lists)"
        self.watcher = Watcher(self, seconds)
        return f"Watching {self.area_title}: every {seconds:g} s (+ new, ~ changed, until the cursor has been on them)"

    def on_resource_table_rows_changed(self, event: ResourceTable.RowsChanged) -> None:
        if self.watcher is not None:
            self.watcher.changed(event)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self.watcher is not None:
            self.watcher.cursor_moved()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if self.watcher is not None and event.state not in (WorkerState.PENDING, WorkerState.RUNNING):
            self.watcher.worker_ended(event.worker)

    def on_unmount(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None

    def related_links(self) -> list[Link]:
        """The records the one under the cursor names (`j` opens them); the cursor's own cell's first."""
        return []

    def action_jump(self) -> None:
        """j: open the record the cursor names; a menu when it names several. Escape comes back here."""
        links = self.related_links()
        app = flex_app(self)
        if not links:
            self.app.notify("Nothing under the cursor names another record", markup=False)
            return
        if len(links) == 1:
            app.jump(links[0])
            return
        from flextui.ui.widgets.dialogs import ChoiceScreen

        def chosen(index: int | None) -> None:
            if index is not None:
                app.jump(links[index])

        self.app.push_screen(ChoiceScreen("Open…", [link.label for link in links], note="enter opens · escape comes back here"), chosen)

    def action_show_message(self) -> None:
        """`!`: the latest error or message in full, however long, with the session's earlier ones (ui/said.py)."""
        from flextui.ui.said import body
        from flextui.ui.widgets.dialogs import MessageScreen

        status = self.status
        (kind, text), earlier = flex_app(self).said.latest_first(status.message, status.said_at, cut=status.is_cut)
        if not text:
            return
        self.app.clear_notifications()  # the dialog lists them: toasts would cover it
        self.app.push_screen(
            MessageScreen("Error" if kind == "error" else "Message", body(text, earlier), tone="bad" if kind == "error" else "")
        )

    def say(self, text: str) -> None:
        """A short passing message: a toast, and the status line for a while (`StatusLine.tell`)."""
        self.status.tell(text)
        self.app.notify(text, markup=False)

    def run_api(
        self,
        job: Callable[[], Awaitable[Any]],
        *,
        group: str,
        doing: str = "",
        exclusive: bool = True,
        failed: Callable[[BaseException], None] | None = None,
    ) -> Worker[Any]:
        """Run `job` in a worker whose failures are reported, never fatal.

        `failed(exc)` runs after a failure is reported: where the screen says "loading…", it says what happened instead.
        """

        async def runner() -> Any:
            try:
                return await job()
            except Exception as exc:  # every failure becomes a message
                self.report_error(exc, doing=doing)
                if failed is not None:
                    try:
                        failed(exc)
                    except Exception:  # the screen is closing
                        log.debug("after a failure of %s", doing, exc_info=True)
                return None
            finally:
                self._first_load_ended()  # whatever it found (nothing to ask, an error): the screen is painted

        return self.run_worker(runner(), group=group, exclusive=exclusive, description=doing)

    async def confirm_then(self, title: str, body: str, verb: str, job: Callable[[], Awaitable[Any]], *, doing: str) -> tuple[bool, Any]:
        """Ask (naming what is affected), then run `job`; (done, result). Call from a worker."""
        from flextui.ui.widgets.dialogs import ConfirmScreen

        if not await self.app.push_screen_wait(ConfirmScreen(title, body, verb)):
            return False, None
        try:
            return True, await job()
        except ApiError as exc:
            self.report_error(exc, doing=doing)
            return False, None

    # -- filter fields -----------------------------------------------------------------

    def in_filter_bar(self, widget: Any) -> bool:
        """Whether `widget` is inside one of this screen's filter bars (`FILTER_BARS`)."""
        for ancestor in widget.ancestors:
            if ancestor is self:
                return False
            if not self.FILTER_BARS.isdisjoint(ancestor.classes):
                return True
        return False

    def is_filter_field(self, widget: Any) -> bool:
        """Whether `widget` is one of this screen's filter fields: a field or a choice (its list closed) in a filter bar."""
        return isinstance(widget, (Input, Select)) and not isinstance(widget, (CommandBar, FilterBar)) and self.in_filter_bar(widget)

    def filter_fields_with(self, field: Widget) -> list[Input]:
        """The text fields applied together with `field`: those of its tab (each tab filters its own list), else the screen's."""
        from textual.widgets import TabPane

        pane = next((a for a in field.ancestors if isinstance(a, TabPane)), None)
        return [w for w in (pane or self).query(Input) if self.is_filter_field(w)]

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The keys went to `widget`: a filter field not typed in yet is in force as it is; fields typed in without
        enter that the keys have left (for the table, the bars, another toolbar) show what is in force again."""
        widget = event.widget
        if self.in_filter_bar(widget):  # (a choice's open list too: it is no place to come back to)
            if isinstance(widget, Input):
                self._applied.setdefault(widget, widget.value)  # not typed in yet: as the screen set it
            self.revert_filter_fields(but=self.filter_fields_with(widget))  # (those applied together: nothing undone)
            return
        if not isinstance(widget, (CommandBar, FilterBar)):
            self._last_place = widget
        self.revert_filter_fields()

    def on_input_changed(self, event: Input.Changed) -> None:
        field = event.input
        if not field.has_focus and self.is_filter_field(field):
            self._applied[field] = field.value  # set by the screen (`u`, `x`, a jump), which lists by it

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a filter field: the fields applied with it are in force as typed (`applied_text` reads them), and
        the screen lists by them (`filters_entered`). A screen that refuses them (a bad date, a `key=value` it does not
        know) returns False: what was in force stays in force (what escape puts back, what a refresh lists by), and the
        field keeps the focus, to be fixed."""
        if self.is_filter_field(event.input):
            event.stop()
            self.enter_filters(event.input)

    def enter_filters(self, field: Widget) -> bool:
        """The filter fields applied with `field` (a field enter was pressed in, a choice that applies its bar) in force
        as typed, and the list listed by them (`filters_entered`); False when the screen refused them: what was in
        force before stays in force."""
        before = self.apply_filter_fields(field)
        taken = False
        try:
            taken = self.filters_entered(field)
        finally:
            if not taken:
                self.unapply_filter_fields(before)
        return taken

    def filters_entered(self, field: Widget) -> bool:
        """List by the filter fields as now applied (`applied_text`; `field`: where they were entered); False when they
        are refused (the screen has said why). Screens with filter fields say what they list by them."""
        return True

    def applied_text(self, field: Input) -> str:
        """The value a filter field is in force with (what its list is listed by), not text typed in it without Enter:
        a refresh, a watch tick or a page turn listed by half-typed text ("zz": 0 users) the user never submitted.
        Every request of a list reads its filter fields through this, never their `value`."""
        return self._applied.get(field, field.value)

    def set_filter_text(self, field: Input, value: str) -> None:
        """Put `value` in a filter field and in force at once (the screen lists by it next: `u`, a jump's filter)."""
        field.value = value
        self._applied[field] = value

    def apply_filter_fields(self, field: Widget) -> dict[Input, str | None]:
        """The fields applied with `field` taken as they are typed; what was in force before (`unapply_filter_fields`)."""
        before: dict[Input, str | None] = {}
        for each in self.filter_fields_with(field):
            before[each] = self._applied.get(each)
            self._applied[each] = each.value
        return before

    def unapply_filter_fields(self, before: dict[Input, str | None]) -> None:
        """Put back what `apply_filter_fields` replaced (a filter the screen then refused)."""
        for field, value in before.items():
            if value is None:
                self._applied.pop(field, None)
            else:
                self._applied[field] = value

    def revert_filter_fields(self, *, but: Iterable[Input] = ()) -> None:
        """Every filter field (but those in `but`) back to the value it is in force with, whatever was typed in it since
        without enter, shown from its start: left as typed, `User zz` stood over the admin's tokens as if it were theirs."""
        kept = set(but)
        for field, applied in list(self._applied.items()):
            if field in kept or field.value == applied or not field.is_attached:
                continue
            field.value = applied
            field.remove_class("-bad-filter")  # (the mark of a value refused, no longer shown)
            field.cursor_position = 0  # a long e-mail showed its end: `ben.abara@…` read as `en.abara@…`

    def leave_filter_field(self) -> bool:
        """Escape in a filter field: every field back to the value last applied (what the list shows is listed by),
        and the focus back where the user was (the table); False when the focus is in no filter field."""
        focused = self.focused
        if focused is None or not self.is_filter_field(focused):
            return False
        self.revert_filter_fields()
        self.set_focus(self._place_to_return_to())  # at once: a key typed next goes there (a `:`, a `/`)
        return True

    def _place_to_return_to(self) -> Widget | None:
        """The widget the user was last in (if it can still take the keys), else the screen's first list."""
        from flextui.ui.widgets.grid import DataGrid

        chain = self.focus_chain
        place = self._last_place
        if place is not None and place.is_attached and place in chain:
            return place
        return next((w for w in chain if isinstance(w, (DataTable, DataGrid, Tree))), None)

    # -- filter ------------------------------------------------------------------------

    def filter_bar(self) -> FilterBar | None:
        bars = self.query(FilterBar)
        return bars.first() if bars else None

    def escape_clears(self) -> bool:
        """Whether escape (outside the filter bar) has a filter to clear or a search to stop, before it goes back."""
        if getattr(self, "every_running", False):
            return True
        try:
            bar = self.filter_bar()
        except Exception:
            return False
        return bar is not None and bool(bar.applied)

    def action_clear_filter(self) -> None:
        """Escape: stop a search of every page; else clear the `/` filter in force (as the README says)."""
        stop = getattr(self, "stop_every", None)
        if stop is not None and stop():
            return
        bar = self.filter_bar()
        if bar is not None and bar.applied:
            bar.clear_applied()
            self.apply_filter("")

    def on_filter_bar_search_all(self, event: FilterBar.SearchAll) -> None:
        """Enter in the filter bar: a paged screen searches every page (`search_all`), not only the rows shown."""
        search = getattr(self, "search_all", None)
        if search is not None:
            search(event.text)

    def apply_filter(self, text: str) -> None:
        """Filter the visible rows (`/`); subclasses apply it to their table."""
