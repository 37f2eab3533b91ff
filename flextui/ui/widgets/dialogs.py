"""Modal dialogs: confirm a destructive action (naming what is destroyed), show a value, pick one of a few.

`ConfirmScreen` focuses Cancel, so an absent-minded Enter never destroys
anything, and no letter confirms: typing meant for elsewhere (`:history`,
`:profile demo-read-only`) never deletes, rotates or replaces; → (or tab)
to the verb's button, then enter, does. `ValueScreen` shows a value to read
or select by hand: a new token value (shown once), or the clipboard fallback
for terminals without OSC 52.

Titles and bodies hold server strings (a token's name in "Delete token …?"),
so each dialog cleans what it is given (`guard.safe`): a name holding
`ESC [2J` shows as `␛[2J` instead of wiping the confirmation it sits in.
A dialog that shows a secret says so (`shows_secret`), and the app takes no
screenshot while it is open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Label, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from flextui.render.text import clean, clean_lines
from flextui.ui.appref import flex_app
from flextui.ui.guard import safe
from flextui.ui.keyhint import bound_key
from flextui.ui.keys import FlexModal


class ConfirmScreen(FlexModal[bool]):
    """Ask before acting: `title`, what is affected, and the verb on the button.

    Every use destroys or replaces something (a token, its value, a registry secret, a chart, a file, a saved filter
    set), so it is confirmed only by pressing its button: enter on it (→ or tab reaches it from Cancel, which has the
    focus) or a click. `y` confirmed it once, and the `y` of text typed ahead (`:profile demo-read-only`, the keys
    arriving at once over SSH) deleted a token; now `y` only says how to confirm. `:` cancels and opens the command
    bar (FlexModal), escape and `q` cancel; a key that means nothing here does nothing, here or under the dialog.
    """

    BINDINGS = [
        Binding("escape", "dismiss(False)", "Cancel", id="confirm.cancel"),
        Binding("left", "to_button('cancel')", "To Cancel", show=False, id="confirm.to_cancel"),
        Binding("right", "to_button('confirm')", "To the action's button", show=False, id="confirm.to_action"),
    ]

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 72; max-width: 95%; height: auto; max-height: 100%; border: thick $error; background: $surface; padding: 1 2; }
    ConfirmScreen.-safe > Vertical { border: thick $primary; }
    ConfirmScreen #confirm-title { text-style: bold; margin-bottom: 1; width: 100%; }
    ConfirmScreen #confirm-scroll { height: auto; margin-bottom: 1; }
    ConfirmScreen Horizontal { height: auto; align-horizontal: right; }
    ConfirmScreen #confirm-hint { width: 1fr; height: 3; content-align: left middle; color: $text-muted; }
    ConfirmScreen Button { margin-left: 2; }
    """
    SHRINKS = "#confirm-scroll"  # a long list of what goes scrolls; the buttons always show

    def __init__(self, title: str, body: str | Text, verb: str = "Delete", *, danger: bool = True) -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._verb = verb
        self._danger = danger
        self._told_y = False

    def compose(self) -> ComposeResult:
        if not self._danger:
            self.add_class("-safe")
        with Vertical():
            yield Label(safe(self._title, lines=False), id="confirm-title")
            with VerticalScroll(id="confirm-scroll", can_focus=False):
                yield Static(safe(self._body), id="confirm-body")
            with Horizontal():
                yield Label(Text(self.how_to_confirm()), id="confirm-hint")  # (a key as displayed may be "[": no markup)
                yield Button("Cancel", id="cancel")
                yield Button(self._verb, id="confirm", variant="error" if self._danger else "primary")

    def how_to_confirm(self) -> str:
        """The hint beside the buttons ("→ then enter: Delete"), its key as bound ([keys] moves it; enter is the
        button's). Cancel's keys are in the footer: on this line too, at 80 columns it wrapped beside the buttons."""
        to_action = bound_key(self, "confirm.to_action") or bound_key(self, "screen.next_field") or "tab"
        return f"{to_action} then enter: {self._verb}"

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    def action_to_button(self, which: str) -> None:
        self.query_one(f"#{which}", Button).focus()

    def on_key(self, event: events.Key) -> None:
        """`y` confirmed here once: it says how to confirm now (once a dialog), and does nothing else. (Like every key
        no binding of the dialog takes, it never reaches the screen under it: Textual's modal binding chain.)"""
        if event.key in ("y", "Y") and not self._told_y:
            self._told_y = True
            self.app.notify(f"y does not confirm: {self.how_to_confirm()}", markup=False)

    def fit_box(self) -> None:
        super().fit_box()
        # A body longer than the dialog scrolls: it takes the focus then (tab), else it is no stop on the way.
        for scroll in self.query("#confirm-scroll").results(VerticalScroll):
            scroll.can_focus = scroll.max_scroll_y > 0

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm")


class ValueScreen(FlexModal[None]):
    """Show a value to copy or select by hand; `once` adds the shown-once warning.

    `once` or `secret` values are secrets: not kept for ctrl+y, and no screenshot while shown.
    A `once` value not copied yet is not closed by the first Escape (or Done): the dialog says
    the value will be gone and the second closes it; a habitual Escape lost a new token before.

    The value has the keys, as a pager: arrows, pageup/pagedown, home/end scroll it (a raw JSON
    is longer than the dialog); `c` copies, `escape` or `q` closes, tab reaches the buttons. Its
    text area gives up rows on a short terminal (`SHRINKS`): Copy and Done always show.
    """

    BINDINGS = [
        Binding("escape", "close", "Close", id="value.close"),
        Binding("c", "copy", "Copy", id="value.copy"),
    ]

    DEFAULT_CSS = """
    ValueScreen { align: center middle; }
    ValueScreen > Vertical { width: 90; max-width: 98%; height: auto; max-height: 90%; border: thick $accent; background: $surface; padding: 1 2; }
    ValueScreen #value-title { text-style: bold; width: 100%; }
    ValueScreen #value-warning { color: $warning; text-style: bold; margin: 1 0; width: 100%; }
    ValueScreen TextArea { height: auto; max-height: 12; min-height: 3; }
    ValueScreen #value-note { color: $text-muted; margin-top: 1; width: 100%; }
    ValueScreen Horizontal { height: auto; align-horizontal: right; margin-top: 1; }
    ValueScreen Button { margin-left: 2; }
    """
    SHRINKS = "#value-text"

    def __init__(self, title: str, value: str, *, once: bool = False, secret: bool = False, note: str = "") -> None:
        super().__init__()
        self._title = title
        self._value = value
        self._once = once
        self.shows_secret = once or secret
        self._note = note
        self._copied = False
        self._warned = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(safe(self._title, lines=False), id="value-title")
            if self._once:
                yield Label(
                    "⚠ This value is shown once. Copy it now: it cannot be read again, and flextui never stores it.",
                    id="value-warning",
                )
            # No cursor: the keys scroll the text, as in a pager (the mouse still selects a part of it).
            area = TextArea(clean_lines(self._value), read_only=True, soft_wrap=True, id="value-text", show_line_numbers=False)
            area.show_cursor = False
            yield area
            yield Label(
                safe(
                    self._note or "Select the text with the mouse (shift+drag in most terminals) if copying does not reach your clipboard."
                ),
                id="value-note",
            )
            with Horizontal():
                yield Button("Copy", id="copy", variant="primary")
                yield Button("Done", id="done")

    def on_mount(self) -> None:
        # The keys a reader tries first (down, pagedown) go to the text; on a button out of view they did nothing.
        self.query_one("#value-text", TextArea).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "copy":
            self.action_copy()
        else:
            self.action_close()

    def action_copy(self) -> None:
        result = flex_app(self).send_to_clipboard(self._value, sensitive=self.shows_secret, lines=True)
        if result.sent:
            self.value_copied()
            self.app.notify(f"Copied {result.size} characters via OSC 52", markup=False)
        else:
            self.app.notify(f"Could not copy: {result.reason}. Select the text by hand.", severity="warning", markup=False)

    def value_copied(self) -> None:
        """The value went to the clipboard another way (its text selected and copied)."""
        self._copied = True

    def action_close(self) -> None:
        if self._once and not self._copied and not self._warned:
            self._warned = True
            self.query_one("#value-warning", Label).update(
                "⚠ Not copied: once closed, this value is gone for good. Escape again (or Close anyway) closes it."
            )
            done = self.query_one("#done", Button)
            done.label = "Close anyway"
            done.variant = "error"
            return
        self._value = ""
        self.dismiss(None)


class MessageScreen(FlexModal[None]):
    """A titled message (e.g. a verification result); any of escape/enter closes it."""

    BINDINGS = [Binding("escape,enter", "dismiss", "Close", id="message.close")]

    DEFAULT_CSS = """
    MessageScreen { align: center middle; }
    MessageScreen > Vertical { width: 80; max-width: 96%; height: auto; max-height: 100%; border: thick $primary; background: $surface; padding: 1 2; }
    MessageScreen.-bad > Vertical { border: thick $error; }
    MessageScreen.-good > Vertical { border: thick $success; }
    MessageScreen #message-title { text-style: bold; margin-bottom: 1; width: 100%; }
    MessageScreen #message-scroll { height: auto; max-height: 60vh; }
    """
    SHRINKS = "#message-scroll"

    def __init__(self, title: str, body: str | Text, *, tone: str = "") -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._tone = tone

    def compose(self) -> ComposeResult:
        if self._tone:
            self.add_class(f"-{self._tone}")
        with Vertical():
            yield Label(safe(self._title, lines=False), id="message-title")
            with VerticalScroll(id="message-scroll"):
                yield Static(safe(self._body), id="message-body")
            yield Button("Close", id="message-close")

    def on_button_pressed(self) -> None:
        self.dismiss(None)


class Fitted:
    """A choice made for the width it is drawn at, on one line: `text(width)` shortens what can be shortened
    (`:profile`'s hosts) to fit; `text(None)` is the whole choice. Cleaned, never markup; what still does not
    fit is cut at its end, never wrapped."""

    def __init__(self, text: Callable[[int | None], str]) -> None:
        self.text = text

    def __str__(self) -> str:
        return clean(self.text(None))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = safe(self.text(options.max_width), lines=False)
        line.no_wrap, line.overflow = True, "ellipsis"
        yield line


class ChoiceScreen(FlexModal[int | None]):
    """Pick one of a few labelled choices (a row's links, the trail): its index, or None on escape.

    A choice is text (it wraps when long) or `Fitted` to the list's width (one line each)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Close", id="choice.close")]

    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical { width: 84; max-width: 95%; height: auto; max-height: 80%; border: thick $accent; background: $surface; padding: 1 2; }
    ChoiceScreen #choice-title { text-style: bold; width: 100%; margin-bottom: 1; }
    ChoiceScreen OptionList { height: auto; max-height: 20; }
    ChoiceScreen #choice-note { color: $text-muted; margin-top: 1; width: 100%; }
    """
    SHRINKS = "#choice-list"  # a long trail or many profiles scroll; the note under them always shows

    def __init__(self, title: str, choices: Sequence[str | Fitted], *, note: str = "", highlighted: int = 0) -> None:
        super().__init__()
        self._title = title
        self._choices = choices
        self._note = note
        self._highlighted = highlighted

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(safe(self._title, lines=False), id="choice-title")
            yield OptionList(
                *(Option(choice if isinstance(choice, Fitted) else safe(choice, lines=False)) for choice in self._choices), id="choice-list"
            )
            if self._note:
                yield Label(safe(self._note), id="choice-note")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = min(self._highlighted, len(self._choices) - 1)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)
