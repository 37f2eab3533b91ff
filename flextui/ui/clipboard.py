"""Copy to the user's clipboard with OSC 52, through SSH, tmux and screen, with a size cap.

Over SSH the only clipboard that reaches the user's desktop is the terminal's
own, via the OSC 52 escape. flextui sends it the way Textual does
(`App.copy_to_clipboard`), as a plain OSC 52: tmux 3.3+ forwards that to the
outer terminal with `set -g set-clipboard on`, and screen with its own
setting, so the documented setup works without tmux's `allow-passthrough`.
Wrapping it in tmux's DCS passthrough is a setting (`clipboard =
"tmux-passthrough"`) for tmux set up that way; it is done by a driver that
rewrites OSC 52 on its way out (`passthrough_driver`), so nothing writes to
Textual's private driver or clipboard.

What is copied passes the sanitiser first: a server's name holding an OSC 52,
a screen wipe or bidi controls would otherwise go whole into the user's
clipboard, and act when pasted into a terminal, while the toast showed it
cleaned. The clipboard holds what the screen and the toast show: a value shown
on one line is copied as that line (`clean`: a line break is `⏎`, so a name
"proj\\nrm -rf ~" pasted into a shell runs nothing), a body of several lines
(a selection, a curl command, JSON) with its line breaks (`clean_lines`). JSON
copies are written with `json_dumps` (unsafe characters as `\\uXXXX`), so
they stay exact and pass it unchanged.

Very large payloads are refused by terminals, so values over `MAX_BYTES` are
not sent and the caller shows them to select by hand. What was copied is
kept for ctrl+y, except secrets (token values, registry secrets): they are
sent to the terminal and forgotten.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from textual.app import App
from textual.driver import Driver

from flextui.render.text import clean, clean_lines

MAX_BYTES = 74_994  # base64 payload cap many terminals use (100 KB escape)

_OSC52 = re.compile(r"\x1b\]52;[^\x07\x1b]*(?:\x07|\x1b\\)")


@dataclass(frozen=True)
class CopyResult:
    sent: bool
    size: int
    reason: str = ""
    text: str = ""
    """What was (or would have been) sent: the text given, cleaned."""


def payload_size(text: str) -> int:
    """The base64 length OSC 52 would carry for `text`."""
    return len(base64.b64encode(text.encode("utf-8")))


def wrap_passthrough(sequence: str, env: Mapping[str, str] | None = None) -> str:
    """An OSC 52 sequence in tmux's (or screen's) passthrough form; unchanged outside both."""
    env = os.environ if env is None else env
    if env.get("TMUX"):
        return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"
    if env.get("TERM", "").startswith("screen") or env.get("STY"):
        # screen limits DCS strings; send the sequence in chunks of 76 bytes.
        chunks = [sequence[i : i + 76] for i in range(0, len(sequence), 76)]
        return "".join(f"\x1bP{chunk}\x1b\\" for chunk in chunks)
    return sequence


def passthrough_driver(base: type[Driver]) -> type[Driver]:
    """`base` with every OSC 52 it writes wrapped for tmux/screen passthrough (the `tmux-passthrough` setting)."""

    class PassthroughDriver(base):  # type: ignore[valid-type,misc]
        def write(self, data: str) -> None:
            if "\x1b]52;" in data:
                data = _OSC52.sub(lambda match: wrap_passthrough(match.group(0)), data)
            super().write(data)

    PassthroughDriver.__name__ = f"Passthrough{base.__name__}"
    return PassthroughDriver


def copy(app: Any, text: str, *, lines: bool = False) -> CopyResult:
    """Copy `text`, cleaned (one line, or with `lines` its line breaks kept), through the terminal with Textual's
    public `copy_to_clipboard`; refuse what terminals refuse."""
    text = clean_lines(text, None) if lines else clean(text, None)
    size = len(text.encode("utf-8"))
    if payload_size(text) > MAX_BYTES:
        return CopyResult(False, size, f"too large for the terminal clipboard ({size:,} bytes)", text)
    if not app.is_running:
        return CopyResult(False, size, "no terminal", text)
    App.copy_to_clipboard(app, text)  # Textual's own: the app's override routes selections here, not back
    return CopyResult(True, size, text=text)
