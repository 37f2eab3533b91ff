"""The `:` command bar and the `/` filter bar, docked above the status line.

Both are hidden until their key is pressed. The command bar completes kind
names and aliases from the kinds registry; the filter bar filters the
screen's rows as you type (`!text` shows the rows that do not match).
"""

from __future__ import annotations

from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Input

from flextui import kinds

EXTRA_COMMANDS = ["theme ", "help", "quit", "refresh", "clip", "info"]


def command_words() -> list[str]:
    words = [name for kind in kinds.navigable() for name in kind.names]
    return sorted(set(words)) + EXTRA_COMMANDS


class CommandBar(Input):
    """`:tokens`, `:charts PROJECT`, `:theme nord`, `:q`."""

    BINDINGS = [Binding("escape", "close", "Close", id="commandbar.close")]

    DEFAULT_CSS = """
    CommandBar { dock: bottom; display: none; height: 1; border: none; padding: 0 1; background: $boost; }
    CommandBar.-open { display: block; }
    """

    class CommandEntered(Message):
        """A command was entered (without the leading colon)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self) -> None:
        super().__init__(placeholder=":command  (tokens, projects, reports, entitlements, theme NAME, quit)", id="commandbar",
                         suggester=SuggestFromList(command_words(), case_sensitive=False), select_on_focus=False)

    def open(self) -> None:
        self.value = ""
        self.add_class("-open")
        self.focus()

    def action_close(self) -> None:
        self.remove_class("-open")
        self.value = ""
        self.screen.focus_next()

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        text = self.value.strip().lstrip(":")
        self.action_close()
        if text:
            self.post_message(self.CommandEntered(text))


class FilterBar(Input):
    """`/text` filters rows as you type; `!text` inverts; escape clears."""

    BINDINGS = [Binding("escape", "clear", "Clear filter", id="filterbar.clear")]

    DEFAULT_CSS = """
    FilterBar { dock: bottom; display: none; height: 1; border: none; padding: 0 1; background: $boost; }
    FilterBar.-open { display: block; }
    """

    class FilterChanged(Message):
        """The filter text changed ("" = no filter)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self) -> None:
        super().__init__(placeholder="/filter rows  (!text = rows without text; enter keeps it, escape clears)", id="filterbar", select_on_focus=False)

    def open(self) -> None:
        self.add_class("-open")
        self.focus()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.FilterChanged(self.value))

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        if not self.value:
            self.remove_class("-open")
        self.screen.focus_next()

    def action_clear(self) -> None:
        self.value = ""
        self.remove_class("-open")
        self.post_message(self.FilterChanged(""))
        self.screen.focus_next()
