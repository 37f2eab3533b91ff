"""Making server strings safe and readable on a terminal.

Server data can hold control characters (an ESC starts a terminal escape
sequence; `\\x1b[2J` would clear the screen). Every string shown by the TUI or
printed by the CLI's table format passes through `clean`, which replaces
control characters with visible stand-ins (Unicode control pictures), so a
description like `[/] \\x1b[2J` shows literally as `[/] ␛[2J`. Markup safety is
separate: the UI wraps strings in `Text`/`Content`, never parses them.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _picture(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return "\ufffd"


def clean(value: object) -> str:
    """`value` as a single-line string with control characters made visible."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    return _CONTROL.sub(_picture, text)


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def relative(ms: int | None, now_ms: int) -> str:
    """"in 3d", "5h ago", "now": a compact distance from now."""
    if ms is None:
        return ""
    delta = (ms - now_ms) / 1000
    future = delta >= 0
    seconds = abs(delta)
    if seconds < 60:
        return "now"
    for unit, size in (("y", 365 * 86400), ("mo", 30 * 86400), ("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            amount = int(seconds // size)
            return f"in {amount}{unit}" if future else f"{amount}{unit} ago"
    return "now"


def absolute(ms: int | None) -> str:
    """UTC "YYYY-MM-DD HH:MM"."""
    if ms is None:
        return ""
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")


def age_text(age_seconds: float | None) -> str:
    """"fresh", "cached 20 s ago", "cached 3 min ago"."""
    if age_seconds is None:
        return "fresh"
    if age_seconds < 60:
        return f"cached {int(age_seconds)} s ago"
    if age_seconds < 3600:
        return f"cached {int(age_seconds // 60)} min ago"
    if age_seconds < 86400:
        return f"cached {int(age_seconds // 3600)} h ago"
    return f"cached {int(age_seconds // 86400)} d ago"
