"""What flextui has said this session, for `!`.

A toast is gone after a few seconds and the status line holds only the last
error or message, so a message raised while the user was typing (a refused
`:profile` sign-in, a `:watch abc` typo) was lost: `!` showed an older one, or
nothing. Every toast is kept here (cleaned, in memory only, for the session)
and `!` shows the latest in full with the ones before it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from rich.text import Text

from flextui.render.text import clean_lines

KEPT = 30
"""Messages kept: enough to find what flashed by, few enough to read."""


@dataclass(frozen=True)
class Said:
    severity: str  # Textual's: information, warning, error
    title: str
    text: str  # cleaned already
    at: float = field(default_factory=time.time)

    def line(self) -> str:
        return f"{self.title}: {self.text}" if self.title else self.text


class SaidLog:
    """The session's toasts, newest last."""

    def __init__(self) -> None:
        self._said: deque[Said] = deque(maxlen=KEPT)

    def add(self, said: Said) -> None:
        self._said.append(said)

    def __bool__(self) -> bool:
        return bool(self._said)

    def __iter__(self) -> Iterator[Said]:
        return iter(self._said)

    def latest_first(self, status: tuple[str, str], status_at: float, *, cut: bool = False) -> tuple[tuple[str, str], list[Said]]:
        """(kind, text) to show in full and the earlier messages, newest first.

        The status line's message (set at `status_at`) leads when it came after the
        latest toast (some are shown there only), in full: a toast's lines are cut.
        An older one the line shows `cut` ("… (! shows all)": a watch's tally, routine,
        never newer than an error said before it) comes right after the latest, whole.
        """
        earlier = list(reversed(self._said))
        kind, text = status
        if text and earlier and earlier[0].text[:80] == clean_lines(text)[:80]:
            earlier.pop(0)  # the toast of the status line's message: shown whole from the line
            return (kind, text), earlier
        if text and (not earlier or status_at > earlier[0].at):
            return (kind, text), earlier
        if not earlier:
            return ("", ""), []
        head = earlier.pop(0)
        if text and cut:
            earlier.insert(0, Said("error" if kind == "error" else "information", "On the status line", clean_lines(text)))
        return ("error" if head.severity == "error" else "info", head.line()), earlier


MARK = {"error": "✗", "warning": "⚠"}


def body(head: str, earlier: list[Said], *, shown: int = 10) -> Text:
    """The dialog's body: the message in full, then the earlier ones with their times."""
    text = Text(clean_lines(head, limit=None))  # cleaned before the styled parts join it (cleaning may change lengths)
    if earlier:
        text.append("\n\nEarlier, newest first:", style="bold")
        for said in earlier[:shown]:
            stamp = time.strftime("%H:%M:%S", time.localtime(said.at))
            text.append(f"\n{stamp} {MARK.get(said.severity, '·')} ", style="dim")
            text.append(said.line())
        if len(earlier) > shown:
            text.append(f"\n… and {len(earlier) - shown} older", style="dim")
    return text
