"""The one sanitiser for every server string flextui shows or writes, and small text helpers.

Why: support engineers run flextui on production tenants, often over SSH, and
every name, username, description or message it shows comes from a server
that anyone with write access can fill. A terminal acts on what it receives:
`ESC ] 52 ; c ; …` sets the user's clipboard (through SSH), `ESC [ 2 J` wipes
the screen, OSC 8 plants links, OSC 0 retitles the window, the C1 byte U+009B
starts a control sequence on its own, and bidirectional controls reorder what
a line appears to say. So every server string passes `clean` (one line) or
`clean_lines` (line breaks kept) where it enters a widget, a toast, a dialog, a
log record or a CLI writer, and is shown literally with each such character
made visible:

- C0 controls become their Unicode control pictures (ESC → ␛, NUL → ␀,
  TAB → ␉, CR → ␍), newline becomes ⏎, DEL becomes ␡;
- C1 controls (U+0080–U+009F), bidirectional and invisible format characters
  (U+061C, U+200B–U+200F, U+2028–U+202E, U+2060–U+2064, U+2066–U+206F,
  U+FEFF, …) and lone surrogates become U+FFFD;
- a string longer than `DISPLAY_LIMIT` is cut, and says by how much, so a
  100 KB value cannot stall a widget. A cut string fits the limit, so cleaning
  is idempotent.

Every replacement is one character for one character, so a cleaned string
keeps its length and positions (spans laid on it stay where they were).
Plain printable ASCII, nearly every cell of a report, takes a fast path that
returns the string itself.

JSON keeps data exact instead: `json_escape` writes the same characters as
`\\uXXXX` escapes, which read back identically. Markup is a separate concern:
the UI never parses server strings as markup. This module is pure Python (no
Textual, no Rich), so the CLI writers and the data layer can use it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

DISPLAY_LIMIT = 4096
"""The longest string shown whole; longer ones are cut (with a note of how much was cut)."""

NEWLINE = "\u23ce"  # ⏎
STAND_IN = "\ufffd"  # �

# Characters a terminal acts on or that change what a line appears to say, besides C0/DEL/C1:
# bidirectional embeddings, overrides and isolates, zero-width and invisible format characters,
# line/paragraph separators, the byte order mark, interlinear annotations and tag characters.
FORMAT_RANGES: tuple[tuple[int, int], ...] = (
    (0x061C, 0x061C),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0xE0000, 0xE007F),
)
CONTROL_RANGES: tuple[tuple[int, int], ...] = ((0x00, 0x1F), (0x7F, 0x9F))
SURROGATES = (0xD800, 0xDFFF)


def _char_class(ranges: Iterable[tuple[int, int]]) -> str:
    return "[" + "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b != a else "") for a, b in ranges) + "]"


_ALL_RANGES = (*CONTROL_RANGES, *FORMAT_RANGES, SURROGATES)
UNSAFE = re.compile(_char_class(_ALL_RANGES))
"""Any character `clean` replaces."""
_UNSAFE_KEEP_NEWLINE = re.compile(_char_class(((0x00, 0x09), (0x0B, 0x1F), (0x7F, 0x9F), *FORMAT_RANGES, SURROGATES)))
_INVISIBLE = re.compile(_char_class((*CONTROL_RANGES, *FORMAT_RANGES)))
_SURROGATE = re.compile(_char_class((SURROGATES,)))


def _build_pictures() -> dict[str, str]:
    table = {chr(code): chr(0x2400 + code) for code in range(0x20)}
    table["\n"] = NEWLINE
    table["\x7f"] = "\u2421"  # ␡
    return table


_PICTURES = _build_pictures()


def _picture(match: re.Match[str]) -> str:
    return _PICTURES.get(match.group(), STAND_IN)


def _text(value: object) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return str(value)


def cap(text: str, limit: int = DISPLAY_LIMIT) -> str:
    """`text` cut to at most `limit` characters, ending with a note of how many were cut."""
    if len(text) <= limit:
        return text
    if limit < 32:
        return text[: max(0, limit - 1)] + "…"
    dropped = len(text) - limit
    while True:  # the note's own length depends on the number it shows
        note = f"… (+{dropped:,} chars)"
        keep = limit - len(note)
        if len(text) - keep == dropped:
            return text[:keep] + note
        dropped = len(text) - keep


def clean(value: object, limit: int | None = DISPLAY_LIMIT) -> str:
    """`value` as one line of text that is safe on a terminal: controls visible, cut at `limit` (None: never)."""
    text = value if isinstance(value, str) else _text(value)
    if text.isascii() and text.isprintable():  # the fast path: nearly every cell of a report
        return text if limit is None or len(text) <= limit else cap(text, limit)
    if limit is not None and len(text) > limit:
        text = cap(text, limit)
    return UNSAFE.sub(_picture, text)


def clean_lines(value: object, limit: int | None = DISPLAY_LIMIT, *, total: int | None = None) -> str:
    """Like `clean`, but line breaks stay line breaks (CRLF becomes LF): for bodies of several lines.

    Each line is cut at `limit`, so one long value cannot push the rest of a
    message (a confirmation's "This cannot be undone") out of view; the whole
    is cut at `total` (default: 16 lines' worth).
    """
    text = _text(value)
    if text.isascii() and text.isprintable():  # no line break in it
        return text if limit is None or len(text) <= limit else cap(text, limit)
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    if limit is not None:
        text = _cap_lines(text, limit)
        whole = total if total is not None else 16 * limit
        if len(text) > whole:
            text = _cap_lines(cap(text, whole), limit)  # the cut may leave a last line over the limit
    return _UNSAFE_KEEP_NEWLINE.sub(_picture, text)


def _cap_lines(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    if all(len(line) <= limit for line in lines):
        return text
    return "\n".join(cap(line, limit) for line in lines)


def given_back(edited: str, given: str) -> str:
    """A field's text, edited from `clean(given, None)`, with what the user left of `given` as the server gave it.

    An edit form shows a server's value cleaned (a newline as ⏎, ESC as ␛), one
    character for one. Saved as typed, an edited description would store those
    pictures in place of its newlines and tabs. Here every run of characters
    left where the cleaned value had it is taken from `given` instead; only what
    the user typed or pasted is kept as typed.
    """
    shown = clean(given, None)
    if edited == shown:
        return given
    if shown == given or len(shown) != len(given):
        return edited
    from difflib import SequenceMatcher  # only when a field holding controls was edited

    parts = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, shown, edited, autojunk=False).get_opcodes():
        parts.append(given[i1:i2] if op == "equal" else edited[j1:j2])
    return "".join(parts)


def is_clean(text: str) -> bool:
    """Whether `text` holds nothing `clean` would replace."""
    return (text.isascii() and text.isprintable()) or UNSAFE.search(text) is None


def drop_invisible(text: str) -> str:
    """`text` without the control and format characters (each zero cells wide), lone surrogates as U+FFFD.

    For the terminal guard, which must keep a rendered line's width: it runs
    on already laid-out lines, where widening a character would shift the row.
    """
    text = _INVISIBLE.sub("", text)
    if not text.isascii():
        text = _SURROGATE.sub(STAND_IN, text)
    return text


# -- JSON -----------------------------------------------------------------------------------------


def _json_escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_escape(dumped: str) -> str:
    """JSON text (from `json.dumps(..., ensure_ascii=False)`) with every unsafe character as a `\\uXXXX` escape.

    `json.dumps` escapes C0 controls but writes DEL, C1, bidi and format
    characters (and lone surrogates) raw. Outside strings JSON text is
    ASCII, so each such character sits inside a string, where the escape reads
    back as the same character: the data stays exact, the output stays inert.
    A line break is left alone: `json.dumps` escapes those inside strings, so
    one in its text is the layout `indent` asked for (escaped, it would not be JSON).
    """
    if dumped.isascii() and "\x7f" not in dumped:
        return dumped
    return _UNSAFE_KEEP_NEWLINE.sub(_json_escape_char, dumped)


def json_dumps(value: Any, **kwargs: Any) -> str:
    """`json.dumps` (non-ASCII kept readable) with unsafe characters escaped; see `json_escape`."""
    return json_escape(json.dumps(value, ensure_ascii=False, **kwargs))


# -- small display helpers ------------------------------------------------------------------------


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


WHOLE = 0.01
"""How close to a whole count of a unit `relative` calls it that count."""


def relative(ms: int | None, now_ms: int) -> str:
    """ "in 3d", "5h ago", "now": a compact distance from now."""
    if ms is None:
        return ""
    delta = (ms - now_ms) / 1000
    future = delta >= 0
    seconds = abs(delta)
    if seconds < 60:
        return "now"
    for unit, size in (("y", 365 * 86400), ("mo", 30 * 86400), ("d", 86400), ("h", 3600), ("m", 60)):
        # Within 1 % of a whole count, it is that count: a token made for 30 days is "in 1mo" a minute
        # later, not "in 29d" (and one for a year "in 1y", not "in 12mo"); otherwise the count is whole ones.
        if seconds >= size * (1 - WHOLE):
            amount = max(1, int(seconds / size + WHOLE))
            return f"in {amount}{unit}" if future else f"{amount}{unit} ago"
    return "now"


def absolute(ms: int | None) -> str:
    """UTC "YYYY-MM-DD HH:MM"."""
    if ms is None:
        return ""
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M")


def age_text(age_seconds: float | None) -> str:
    """ "fresh", "cached <1 min ago", "cached 3 min ago": to the minute (the status line keeps it true every
    15 s; seconds shown from that tick read "10 s ago" for 15 s, then jumped)."""
    if age_seconds is None:
        return "fresh"
    if age_seconds < 60:
        return "cached <1 min ago"
    if age_seconds < 3600:
        return f"cached {int(age_seconds // 60)} min ago"
    if age_seconds < 86400:
        return f"cached {int(age_seconds // 3600)} h ago"
    return f"cached {int(age_seconds // 86400)} d ago"


__all__ = [
    "DISPLAY_LIMIT",
    "NEWLINE",
    "STAND_IN",
    "UNSAFE",
    "absolute",
    "age_text",
    "cap",
    "clean",
    "clean_lines",
    "drop_invisible",
    "is_clean",
    "json_dumps",
    "json_escape",
    "relative",
    "shorten",
]
