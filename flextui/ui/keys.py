"""One language for keys: what each key means, everywhere, and the pieces that keep it so.

`KEY_TABLE` is the table the README shows (a test keeps the two equal, and
checks that every key bound anywhere in flextui is in it): one meaning per
key across the app. Each binding still has its own id (`?` lists them) and
can be moved in the config's [keys] table.

`FOCUS_KEYS` gives Textual's screen keys (tab, shift+tab, ctrl+c) an id, a
plain description and a place in `?`; every flextui screen has them, area
screens through `AreaScreen`, dialogs through `FlexModal`. `KeyFooter` shows
a screen's most important keys first and drops, from the end of the screen's
own list, whatever does not fit the width: `:`, `/` and `?` always show, and
`?` lists the rest.
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any, ClassVar, TypeVar

from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.keys import _character_to_key
from textual.screen import ModalScreen
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey

from flextui.ui.appref import flex_app
from flextui.ui.safety import SafeDispatch
from flextui.ui.widgets.fit import fit

KEY_TABLE: list[tuple[str, str]] = [
    # (keys, as the README writes them; what they mean, wherever they are bound)
    (
        "`:`",
        "command bar: an area (`:tokens`, `:tok`, `:charts hello-world-dp`, `:ent activation=ACT-1`, `:users user=NAME`, `:tokens user=NAME`), `:sort COLUMN [desc]` (`:sort` alone: the server's order; on entitlements the server sorts: `:sort created desc`), `:page N`, `:watch 30` (refresh this list every 30 s, marking `+` new and `~` changed rows until the cursor has been on them; `:watch off`), `:profile NAME` (`:ctx`: another tenant or user, in place; alone: a list to pick from), `:password` (type this profile's password again and sign in with it, for the session), `:history`, `:log`, `:theme NAME`, `:redraw` (write the whole screen again, if something else wrote to the terminal), `:help`, `:q`; in a dialog `:` closes it as `escape` does (a confirmation is cancelled, never confirmed) and opens the command bar, what you type next typed there",
    ),
    (
        "`/`",
        "filter the rows on screen; `!text` shows the rows *without* text; on a list of several pages, `enter` in the filter searches every page with the same match (every page is read; escape stops; the entitlement tree asks the server by account instead)",
    ),
    ("`?`", "every key of this screen, with the binding id to remap it"),
    (
        "`escape`",
        "back: in a filter field, leave it (back to the list, the field as the list is filtered: what you typed without `enter` is undone); clear the `/` filter, stop a search of every page or cancel a report export first; close a dialog, cancel a form or a load, leave a screen; after `j`, back to exactly where you were (row, filter, sort, scroll)",
    ),
    (
        "`j`",
        "jump to the record the cursor names: a report row's activation (its line item in the entitlement tree), product (the catalogue), account or user; a token's user; a user's accounts and their entitlements; a line item's product; a download's project, user or account; a project member's user (a menu when there are several)",
    ),
    (
        "`ctrl+f`",
        "forward again, one jump at a time, along the jumps escape went back from, until you go elsewhere (a `:` area, a new `j`); `:history` lists the whole trail, behind and ahead, to go to any place on it",
    ),
    (
        "`!`",
        'the latest error or message in full, with the session\'s earlier ones (a toast that went by, too); the status line and a toast end "… (! shows all)" when cut',
    ),
    (
        "`q`",
        "quit (in a dialog: close it, as `escape` does there: a confirmation is cancelled, never confirmed; in a text field `q` is a letter)",
    ),
    ("`ctrl+q`", "quit, also from a text field"),
    ("`ctrl+c`", "copy the selected text; with nothing selected it says how to copy (`c`) and quit (`q`); it never quits"),
    (
        "`ctrl+r`",
        "refresh from the server (report results: run again, keeping the filter, sort, columns and cursor; report builder: its data model)",
    ),
    ("`ctrl+p`", "command palette"),
    ("`ctrl+y`", "show the last copied value (when your terminal ignores OSC 52)"),
    (
        "`L`",
        "request log: every HTTP exchange of the session, the selected one's headers and bodies (secrets removed); `c` there copies it as curl",
    ),
    ("`tab`, `shift+tab`", "next / previous field"),
    (
        "`enter`",
        "open the row under the cursor (in a field: apply it; in a dialog: press the focused button, in a confirmation Cancel until you move to the action's)",
    ),
    (
        "arrows, `pageup`, `pagedown`, `home`, `end`, `ctrl+home`, `ctrl+end`",
        "move in a table, a tree or a chart (`home`/`end`: first / last row); in a confirmation `←` / `→` go to Cancel / the action's button (Delete, Rotate, Replace), which `enter` then presses: no letter confirms",
    ),
    ("`shift+home`, `shift+end`", "first / last column (report results, download log)"),
    ("`[`, `]`", "previous / next page"),
    ("`<`, `>`", "previous / next tab"),
    ("`1` … `9`", "show tab N"),
    ("`n`", "new"),
    ("`e`", "edit (a token, a line item's properties, a report condition)"),
    (
        "`d`, `delete`, `backspace`",
        "delete: on the server it asks first, naming what goes; a report's condition (only there `backspace` too) is taken out of the builder at once",
    ),
    ("`c`", "copy the value under the cursor (a name, an ID, a cell, a digest)"),
    ("`Y`", "copy the whole row or record (report results)"),
    ("`f`", "filters: to the filter fields (report results: back to the report's filters)"),
    ("`x`", "clear: leave a search, clear the filters, stop loading (a report export running: cancel it first)"),
    ("`s`", "search (tokens)"),
    ("`k`", "check a pasted token value (verify)"),
    ("`r`", "replace a secret: rotate a token, reset your registry secret"),
    ("`v`", "view in full: a cell, a value; reveal the registry secret"),
    ("`R`", "raw JSON of the record under the cursor, in the server's field names, secrets removed (`c` copies it)"),
    (
        "`u`",
        "users: of this account or entitlement, a project's member, a user's event status; on a token: that user's tokens (again: the tokens they created)",
    ),
    ("`E`", "entitlements of this product, part number, account or user"),
    ("`P`", "this product in the catalogue (from a line item or a part number)"),
    ("`a`", "add line items (entitlements)"),
    ("`p`", "policies (entitlements)"),
    ("`m`", "maintenance line item (entitlements)"),
    ("`i`", "details (entitlements)"),
    ("`o`", "open a project by name"),
    ("`g`", "per-day chart (download log, report results)"),
    ("`t`", "top artifacts (download log)"),
    ("`{`, `}`", "sort by the cursor's column, ascending / descending; again: unsorted (report results, download log)"),
    ("`F`, `I`, `C`", "frequency, statistics, columns (report results)"),
    ("`-`, `shift+←`, `shift+→`", "hide the column, move it left / right (report results)"),
    ("`+`", "load the rest (report results)"),
    ("`*`", "show all columns (column chooser)"),
    ("`J`, `K`, `shift+↑`, `shift+↓`", "move the column down / up (column chooser)"),
    ("`ctrl+s`", "save: submit a form, save a filter set, save results to a file"),
    ("`ctrl+o`", "open a saved filter set (report builder)"),
    ("`ctrl+n`", "add a part: a report condition, a line item"),
    ("`ctrl+g`, `f5`", "run: the report (builder), its last 7 days (catalogue), the download-log query"),
    ("`ctrl+l`", "copy the request's URL (report builder)"),
]

FOCUS_KEYS: list[BindingType] = [
    Binding("tab", "app.focus_next", "Next field", show=False, id="screen.next_field"),
    Binding("shift+tab", "app.focus_previous", "Previous field", show=False, id="screen.previous_field"),
    Binding("ctrl+c", "screen.copy_text", "Copy selected text", show=False, id="screen.copy"),
]
"""Textual's own screen keys, with ids, plain descriptions and a place in `?`."""

ResultType = TypeVar("ResultType")


CLOSE_ID = "dialog.close"
"""The binding id of `q` in a dialog (remappable in [keys] like any other)."""


def _keys_of(binding: Binding) -> list[str]:
    return [key.strip() for key in binding.key.split(",")]


class FlexModal(SafeDispatch, ModalScreen[ResultType]):
    """Base of every flextui dialog: guarded handlers (safety.py), the screen keys with ids, `q` as escape, and a box
    that always shows its buttons (`SHRINKS`).

    `q` closes every dialog (the README: "`q` quit (in a dialog: close it …)"): it does what the dialog's escape does,
    so a confirmation is cancelled, never confirmed, a form with something typed says so first, and a value shown
    once warns before it goes. A dialog declaring an escape binding gets a `q` binding of its own, described as its
    escape is ("Cancel", "Close"), so `?` lists it; where a text field has the keys, `q` is a letter.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *FOCUS_KEYS,
        # Textual leaves the app's keys out while a dialog is up (its modal binding chain): `?` is the dialog's own.
        Binding("question_mark", "app.help", "Keys", show=False, id="dialog.help"),
        # A copy's toast says "ctrl+y shows it": from a dialog too (the request log's curl, a chart's helm command).
        Binding("ctrl+y", "app.show_clipboard", "Show copied", show=False, id="dialog.clip"),
        Binding("q", "close_dialog", "Close", show=False, id=CLOSE_ID),
        # `:` works everywhere (the README): in a dialog it closes it as escape does, then opens the command bar.
        Binding("colon", "command_from_dialog", "Command", id="dialog.command"),
    ]
    HELP_NAME: ClassVar[str] = ""
    """How `?` names this dialog ("" : its title)."""
    CLOSE_ACTION: ClassVar[str] = "dismiss(None)"
    """What `q` does: the action of the dialog's escape binding (set from its BINDINGS)."""
    SHRINKS: ClassVar[str] = ""
    """A selector of the one part of the dialog's box (`height: auto`, a `max-height`) that gives up rows when the
    terminal is short (a text area, a list, a scrolling body), so that the rest, its buttons, always shows (fit.py)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        own = cls.__dict__.get("BINDINGS")
        escape = next((b for b in own or () if isinstance(b, Binding) and "escape" in _keys_of(b)), None)
        if escape is not None:
            cls.CLOSE_ACTION = escape.action
            if not any(isinstance(b, Binding) and "q" in _keys_of(b) for b in own or ()):
                # (A class's bindings of a key replace its bases' for that key: this one, with this dialog's word.)
                cls.BINDINGS = [*own, Binding("q", "close_dialog", escape.description, show=False, id=CLOSE_ID)]
        super().__init_subclass__(**kwargs)

    def on_mount(self) -> None:
        # A toast raised before the dialog opened ("Token x updated", "Copied …") sat on its buttons for seconds at
        # 80x24, where a dialog fills the screen; it was about what came before, and `!` keeps it. A warning or an
        # error is left to be read.
        if all(notification.severity == "information" for notification in self.app._notifications):
            self.app.clear_notifications()

    def _refresh_layout(self, size: Any = None, scroll: bool = False) -> None:
        """Textual's layout of the dialog, then its `SHRINKS` part fitted to what the rest leaves: after every layout,
        so whatever changed the rest (the terminal's size, a warning or an error that wraps once more) is followed.
        A change lays the dialog out once more, where the part's rows come out the same: it settles at once."""
        super()._refresh_layout(size, scroll)
        if self.SHRINKS and not scroll:
            try:
                self.fit_box()
            except Exception as error:  # a nicety of the layout never ends the app (it is reported)
                report = getattr(self.app, "report_unexpected", None)
                if report is None:
                    raise
                report(error, where=f"fitting {type(self).__name__}")

    def fit_box(self) -> None:
        """Cap the `SHRINKS` part at what the rest of its box leaves it (fit.py)."""
        parts = self.query(self.SHRINKS)
        if parts:
            part = parts.first()
            if part.parent is not None:
                fit(part.parent, part)  # type: ignore[arg-type]

    async def action_close_dialog(self) -> None:
        """q: what escape does here; nothing in a text field that is being typed in (there q is a letter)."""
        focused = self.focused
        if focused is not None and edits_text(focused):
            raise SkipAction()
        await self.run_action(self.CLOSE_ACTION)

    async def action_command_from_dialog(self) -> None:
        """`:` in a dialog: what escape does here (a confirmation is cancelled, never confirmed), then, if that closed
        the dialog, `:` again where it left the keys: the command bar of the screen under it (or the dialog under it,
        which closes the same way), the keys typed after it typed there, as the README says of keys typed ahead.

        Ignored, `:` let the keys after it act in the dialog: the `y` of `:profile demo-read-only` confirmed a token's
        deletion. A dialog that asks before it closes (a value shown once and not copied, a form with something typed)
        asks, as its escape would, and stays; in a text field being typed in, `:` is a character."""
        focused = self.focused
        if focused is not None and edits_text(focused):
            raise SkipAction()
        await self.run_action(self.CLOSE_ACTION)
        if self not in self.app.screen_stack:
            flex_app(self).command_next()


FIRST = ("app.help",)
LAST = ("app.command", "app.filter")
"""`?` first, then the screen's own keys in their declared order, then `:` and `/`: these three always show."""


@cache
def _text_key_names() -> frozenset[str]:
    """Textual's names of the keys that type a printable character ("slash", "question_mark", "F", …)."""
    return frozenset(_character_to_key(chr(code)) for code in range(32, 127)) | frozenset(map(chr, range(32, 127)))


def types_text(key: str) -> bool:
    """Whether `key` types a character (a focused text field takes it before any binding of the screen)."""
    key = key.strip()
    if key.startswith("shift+") and len(key) == 7 and key[-1].isalpha():
        return True
    return key in _text_key_names() or (len(key) == 1 and key.isprintable())


def consumes(field: Any, key: str) -> bool:
    """Whether the text field `field` takes `key` itself (a character it types, or a key of its own: delete,
    home, …) before any binding of the screen sees it."""
    return types_text(key) or key in field._bindings.key_to_bindings


def takes_text(widget: Any) -> bool:
    """Whether `widget` is a text field (an Input, or a TextArea: whose module loads only with one)."""
    text_area = sys.modules.get("textual.widgets._text_area")
    return isinstance(widget, Input) or (text_area is not None and isinstance(widget, text_area.TextArea))


def edits_text(widget: Any) -> bool:
    """Whether `widget` is a text field that takes typing (not a read-only text area: a value shown to be read)."""
    return takes_text(widget) and not getattr(widget, "read_only", False)


class KeyFooter(SafeDispatch, Footer):
    """The footer, most important keys first, cut to the width: never a key cut in half."""

    # Compact, but a key and its description apart ("n New", not "nNew": 16 colours and NO_COLOR
    # cannot tell them apart by colour), and two spaces between keys.
    DEFAULT_CSS = """
    KeyFooter.-compact FooterKey.-compact {
        margin-right: 1;
        .footer-key--key { padding: 0 0 0 1; }
        .footer-key--description { padding: 0 0 0 1; }
    }
    """

    def __init__(self) -> None:
        super().__init__(show_command_palette=False, compact=True)
        self._shown: tuple[Any, ...] | None = None
        """What the keys mounted now show (see `recompose`)."""

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        keep = self._keys()
        self._shown = self._signature(keep)
        # Each key made compact from the start (as its `compact` watcher would make it on mount: a restyle per key).
        classes = "-compact" if self.compact else ""
        for binding, enabled, tooltip in keep:
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
                classes=classes,
            ).data_bind(compact=Footer.compact)

    async def recompose(self) -> None:
        """Textual recomposes the footer whenever the bindings may have changed (a focus change, a cursor move, a
        resize): keys showing exactly what they would again are kept (remounting them costs a restyle each)."""
        if self._shown is not None and self._bindings_ready and self.is_attached and self._signature(self._keys()) == self._shown:
            return
        await super().recompose()

    def _signature(self, keep: list[tuple[Binding, bool, str]]) -> tuple[Any, ...]:
        return (
            self.compact,
            tuple(
                (binding.key, self.app.get_key_display(binding), binding.description, binding.action, enabled, tooltip)
                for binding, enabled, tooltip in keep
            ),
        )

    def _keys(self) -> list[tuple[Binding, bool, str]]:
        """The keys to show, in order, cut to the width: not, while a text field has the focus, a key it would type."""
        shown: dict[str, tuple[Binding, bool, str]] = {}
        focused = self.app.focused
        field = focused if focused is not None and focused.screen is self.screen and takes_text(focused) else None
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in shown and not (field is not None and consumes(field, binding.key)):
                shown[binding.action] = (binding, enabled, tooltip)
        entries = list(shown.values())
        first = [e for e in entries if e[0].id in FIRST]
        last = [e for e in entries if e[0].id in LAST]
        middle = [e for e in entries if e[0].id not in FIRST + LAST]
        width = self.size.width or self.app.size.width
        keep = first + middle + last
        while middle and sum(self._width(e[0]) for e in keep) > width:
            middle.pop()
            keep = first + middle + last
        return keep

    def _width(self, binding: Binding) -> int:
        """Cells a key takes: " k Description" and a space."""
        return 1 + len(self.app.get_key_display(binding)) + 1 + len(binding.description) + 1

    def on_resize(self, event: Any) -> None:
        self.refresh(recompose=True)


def shown_keys(footer: Footer) -> list[str]:
    """The footer's keys as shown ("n New"), for tests and screenshots."""
    return [f"{key.key_display} {key.description}".strip() for key in footer.query(FooterKey)]


__all__ = [
    "CLOSE_ID",
    "FIRST",
    "FOCUS_KEYS",
    "KEY_TABLE",
    "FlexModal",
    "KeyFooter",
    "LAST",
    "consumes",
    "edits_text",
    "shown_keys",
    "takes_text",
    "types_text",
]
