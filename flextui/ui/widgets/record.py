"""The detail kit: `Body` builds a record as aligned label/value `Text` (server strings cleaned), `RecordScreen` shows it with its actions.

Shared by the entitlements, catalogue and users screens (and their state
colours: `state_style`), so a record reads the same in every area.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from flextui.render.text import absolute, clean, relative
from flextui.ui.guard import safe
from flextui.ui.hidden_keys import RefusedChoices
from flextui.ui.keys import FlexModal


def theme_color(app: Any, name: str) -> str:
    return getattr(app.current_theme, name, None) or ""


def state_style(app: Any, state: str | None) -> str:
    """A colour for a lifecycle state: deployed/active good, draft pending, obsolete/inactive muted."""
    s = (state or "").upper()
    if s in ("DEPLOYED", "ACTIVE"):
        return theme_color(app, "success")
    if s == "DRAFT":
        return theme_color(app, "warning")
    if s in ("OBSOLETE", "OBSOLETED", "INACTIVE"):
        return "dim"
    return ""


def to_ms(moment: datetime | None) -> int | None:
    return int(moment.timestamp() * 1000) if moment is not None else None


def when(moment: datetime | None, now_ms: int) -> str:
    """`2026-04-08 06:24 (7mo ago)`."""
    ms = to_ms(moment)
    return f"{absolute(ms)} ({relative(ms, now_ms)})" if ms is not None else ""


def yes_no(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


class Body:
    """A detail body built as `Text` (server strings cleaned, never markup): title, label/value lines, sections."""

    def __init__(self, width: int = 15, *, show_title: bool = True) -> None:
        self.text = Text()
        self.width = width
        self.show_title = show_title  # off in a RecordScreen, whose own title says it

    def title(self, text: str, style: str = "bold") -> Body:
        if self.show_title:
            self.text.append(clean(text) + "\n", style=style)
        return self

    def line(self, label: str, value: Any, style: str = "") -> Body:
        if value is None or value == "" or value == []:
            return self
        shown = ", ".join(clean(x) for x in value) if isinstance(value, (list, tuple)) else clean(value)
        self.text.append(self._label(label, self.width), style="bold")
        self.text.append(shown + "\n", style=style)
        return self

    @staticmethod
    def _label(label: str, width: int) -> str:
        """The label padded to the value column; one longer than the column still ends in two spaces (never "ANALYZER_EXPORT1.0")."""
        return f"{label:<{width}}" if len(label) < width else label + "  "

    def section(self, text: str) -> Body:
        self.text.append("\n" + text + "\n", style="bold underline")
        return self

    def note(self, text: str, style: str = "italic dim") -> Body:
        lead = len(text) - len(text.lstrip("\n"))
        self.text.append("\n" * lead + clean(text.lstrip("\n")) + "\n", style=style)
        return self

    def pairs(self, items: Iterable[tuple[str, Any]], indent: int = 2) -> Body:
        for name, value in items:
            self.text.append(" " * indent + self._label(clean(name), self.width - indent), style="bold")
            self.text.append(clean("" if value is None else value) + "\n")
        return self


class RecordScreen(RefusedChoices, FlexModal[str | None]):
    """Every field of one record, and the actions that apply to it (each a key; the result is the action name)."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close", id="record.close"),
        Binding("R,shift+r", "raw", "Raw JSON", show=False, id="record.raw"),
    ]

    DEFAULT_CSS = """
    RecordScreen { align: center middle; }
    RecordScreen > Vertical { width: 96; max-width: 98%; height: auto; max-height: 94%; border: thick $primary; background: $surface; padding: 0 1; }
    RecordScreen #record-title { text-style: bold; padding: 0 1; margin-bottom: 1; }
    RecordScreen VerticalScroll { height: auto; padding: 0 1; }
    RecordScreen #record-hint { color: $text-muted; padding: 0 1; margin-top: 1; }
    """
    SHRINKS = "#record-scroll"  # a long record scrolls; its hint line (the keys) always shows

    def __init__(
        self,
        title: str,
        body: Text,
        actions: Iterable[tuple[str, str, str]] = (),
        refused: Mapping[str, str] | None = None,
        *,
        record: Any = None,
    ) -> None:
        """`refused`: action name → why it is off here (a change on a read-only profile, in the words of the screen's
        `why_not`): its key is bound but not offered, and says why when pressed. `record`: what `R` shows as the
        server sent it (a dialog takes the keys: the list's `R` does not reach it)."""
        super().__init__()
        self._title = title
        self._body = body
        self.record = record
        self.actions = list(actions)  # (key, action name, label)
        self.refused = dict(refused or {})
        for key, action, label in self.actions:  # each with an id, like every key (remappable in [keys])
            self._bindings._add_binding(Binding(key, f"choose('{action}')", label.capitalize(), id=f"record.{action}"))

    def compose(self) -> ComposeResult:
        hint = " · ".join(f"{key} {label}" for key, action, label in self.actions if action not in self.refused)
        with Vertical():
            yield Label(Text(clean(self._title)), id="record-title")
            with VerticalScroll(id="record-scroll"):
                yield Static(safe(self._body), id="record-body")  # the detail kit of every area: cleaned here once
            yield Label(Text((hint + " · " if hint else "") + "escape close"), id="record-hint")

    def on_mount(self) -> None:
        self.query_one("#record-scroll").focus()

    def action_choose(self, action: str) -> None:
        self.dismiss(action)

    def action_raw(self) -> None:
        from flextui.ui.rawview import show_raw  # loaded when first asked for

        show_raw(self, self.record)
