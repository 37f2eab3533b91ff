"""The `:` command bar and the `/` filter bar, shown above the status line.

Both are hidden until their key is pressed and give focus back to whatever
had it when they close. The command bar completes kind names and aliases
from the kinds registry; the filter bar filters the screen's rows as you type
(`!text` shows the rows that do not match).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.strip import Strip
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Input

from flextui import kinds
from flextui.render.text import clean
from flextui.ui.safety import SafeDispatch

EXTRA_COMMANDS = ["theme ", "help", "quit", "refresh", "clip"]


def command_words() -> list[str]:
    words = [name for kind in kinds.navigable() for name in kind.names]
    return sorted(set(words)) + EXTRA_COMMANDS


class _Bar(SafeDispatch, Input):
    """A one-line input that opens on demand and hands focus back when it closes."""

    DEFAULT_CSS = """
    _Bar { display: none; height: 1; padding: 0 1; background: $boost; }
    /* (a compact Input has no padding: its text stood at the screen's edge, not a cell in as every line above it) */
    _Bar.-textual-compact { padding: 0 1; }
    _Bar.-open { display: block; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(select_on_focus=False, compact=True, **kwargs)
        self._return_to: Widget | None = None

    def open(self) -> None:
        focused = self.screen.focused
        self._return_to = focused if focused is not self else self._return_to
        self.add_class("-open")
        # Synchronously, not via focus(): keys typed right after ':' must land here, not on the table.
        self.screen.set_focus(self)

    def return_to(self, widget: Widget) -> None:
        """Give the keys to `widget` when the bar closes (a tab shown while it was open)."""
        self._return_to = widget

    def close(self) -> None:
        self.remove_class("-open")
        target = self._return_to
        self._return_to = None
        if target is not None and target.is_attached and target.focusable:
            target.focus()
        else:
            self.screen.set_focus(None)
            self.screen.focus_next()


class CommandBar(_Bar):
    """`:tokens`, `:charts PROJECT`, `:theme nord`, `:q`."""

    BINDINGS = [Binding("escape", "close", "Close", id="commandbar.close")]

    class CommandEntered(Message):
        """A command was entered (without the leading colon)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self) -> None:
        super().__init__(
            placeholder=":command  (tokens, projects, reports, entitlements, theme NAME, quit)",
            id="commandbar",
            suggester=SuggestFromList(command_words(), case_sensitive=False),
        )

    def open(self) -> None:
        self.value = ""
        super().open()

    def action_close(self) -> None:
        self.value = ""
        self.close()

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        text = self.value.strip().lstrip(":")
        self.action_close()
        if text:
            self.post_message(self.CommandEntered(text))


class FilterBar(_Bar):
    """`/text` filters rows as you type; `!text` inverts; enter keeps it (and, on a paged list, searches every page);
    escape clears."""

    BINDINGS = [Binding("escape", "clear", "Clear filter", id="filterbar.clear")]

    COMPONENT_CLASSES: ClassVar[set[str]] = Input.COMPONENT_CLASSES | {"filterbar--label"}
    DEFAULT_CSS = """
    FilterBar > .filterbar--label { color: $text-muted; }
    """
    LABEL = "filter: "

    class FilterChanged(Message):
        """The filter text changed ("" = no filter)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class SearchAll(Message):
        """Enter with a filter: the screen may search every page for it, not just the rows shown."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self) -> None:
        super().__init__(placeholder="/filter rows (!text: rows without it) · enter keeps it · escape clears", id="filterbar")

    @property
    def applied(self) -> str:
        """The filter in force ("" = none): the bar stays open, unfocused, while one is."""
        return self.value if self.has_class("-open") else ""

    def render_line(self, y: int) -> Strip:
        """Typed in: the field. Left with a filter in force (enter, or one a screen applied: a value chosen in a
        frequency table): that filter, labelled as the app's other filter lines are ("filter: fulfillmentType=RETURN"),
        not a bare value; its end cut with "…" when it is longer than the line."""
        if self.has_focus or not self.value:
            return super().render_line(y)
        width = self.scrollable_content_region.width
        if y != 0 or width <= 0:
            return Strip.blank(self.size.width, self.rich_style)
        line = Text(self.LABEL, style=self.get_component_rich_style("filterbar--label"), no_wrap=True, overflow="ellipsis", end="")
        line.append(clean(self.value))
        line.truncate(width, overflow="ellipsis")
        strip = Strip(line.render(self.app.console)).extend_cell_length(width)
        return strip.apply_style(self.rich_style)

    def show_applied(self, text: str) -> None:
        """Show `text` as the filter in force ("" hides the bar), the focus left where it is: a tabbed screen's tabs
        each keep their own filter, and one bar showed the tab left's text over a tab it did not filter."""
        if self.has_focus:  # being typed in: the text is the user's
            return
        with self.prevent(Input.Changed):
            self.value = text
        self.set_class(bool(text), "-open")

    def clear_applied(self) -> None:
        """Escape outside the bar: clear the filter in force, leaving the focus where it is."""
        self.value = ""
        self.remove_class("-open")
        self._return_to = None
        self.post_message(self.FilterChanged(""))

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.FilterChanged(self.value))

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        if self.value:
            self._keep_open_unfocused()
            self.post_message(self.SearchAll(self.value))
        else:
            self.close()

    def _keep_open_unfocused(self) -> None:
        target = self._return_to
        if target is not None and target.is_attached:
            target.focus()

    def action_clear(self) -> None:
        self.value = ""
        self.post_message(self.FilterChanged(""))
        self.close()
