"""Where each key of a TOML file is: the line it is set on.

`tomllib` gives values, not positions, and a config error that names the
field but not the line leaves the user to search for it. This reads the
text again, only for the keys: `[table]` and `[a."b.c"]` headers, `key =`,
`"quoted.key" =` and dotted `a.b =` keys, and the keys of inline tables
(`password = { env = "X" }`: `password.env` is on that line), skipping
strings (multi-line ones too), arrays and comments. The text is one
`tomllib` has already read: what is not understood here gives no line
rather than a wrong one.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

Key = tuple[str, ...]

BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


class _Unread(Exception):
    """The scanner met something it does not follow: the lines found so far are kept, no more are guessed."""


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.lines: dict[Key, int] = {}

    # -- characters

    def peek(self, ahead: int = 0) -> str:
        at = self.pos + ahead
        return self.text[at] if at < len(self.text) else ""

    def advance(self, count: int = 1) -> None:
        for _ in range(count):
            if self.pos < len(self.text):
                if self.text[self.pos] == "\n":
                    self.line += 1
                self.pos += 1

    def blanks(self, newlines: bool = False) -> None:
        """Spaces and tabs (and with `newlines`, line ends and comments too)."""
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char in " \t\r" or (newlines and char == "\n"):
                self.advance()
            elif newlines and char == "#":
                self.comment()
            else:
                break

    def comment(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] != "\n":
            self.pos += 1

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise _Unread
        self.advance()

    # -- keys

    def key(self) -> Key:
        """A key, dotted or not, its parts as tomllib names them."""
        parts = [self.key_part()]
        self.blanks()
        while self.peek() == ".":
            self.advance()
            self.blanks()
            parts.append(self.key_part())
            self.blanks()
        return tuple(parts)

    def key_part(self) -> str:
        char = self.peek()
        if char in ('"', "'"):
            start = self.pos
            self.single_line_string()
            raw = self.text[start : self.pos]
            try:
                part = tomllib.loads(f"k = {raw}")["k"]
            except tomllib.TOMLDecodeError:
                raise _Unread from None
            return str(part)
        start = self.pos
        while self.peek() and self.peek() in BARE:
            self.pos += 1
        if self.pos == start:
            raise _Unread
        return self.text[start : self.pos]

    def note(self, key: Key, line: int) -> None:
        """`key` (and each table it is in) is set on `line`, unless seen earlier."""
        for end in range(1, len(key) + 1):
            self.lines.setdefault(key[:end], line)

    # -- values

    def single_line_string(self) -> None:
        quote = self.peek()
        self.advance()
        while True:
            char = self.peek()
            if char in ("", "\n"):
                raise _Unread
            if char == "\\" and quote == '"':
                self.advance(2)
                continue
            self.advance()
            if char == quote:
                return

    def multi_line_string(self) -> None:
        quote = self.peek()
        self.advance(3)
        while True:
            char = self.peek()
            if char == "":
                raise _Unread
            if char == "\\" and quote == '"':
                self.advance(2)
                continue
            if self.text.startswith(quote * 3, self.pos):
                self.advance(3)
                while self.peek() == quote:  # up to two quotes of the content end it: `""""` is `"` then `"""`
                    self.advance()
                return
            self.advance()

    def value(self, key: Key | None) -> None:
        """Skip a value; an inline table's keys are noted under `key` (None: inside an array, not noted)."""
        char = self.peek()
        if self.text.startswith(('"""', "'''"), self.pos):
            self.multi_line_string()
        elif char in ('"', "'"):
            self.single_line_string()
        elif char == "{":
            self.inline_table(key)
        elif char == "[":
            self.array()
        else:
            while self.peek() not in ("", ",", "]", "}", "\n", "#"):
                self.advance()

    def inline_table(self, key: Key | None) -> None:
        def entry() -> None:
            line = self.line
            inner = self.key()
            if key is not None:
                self.note(key + inner, line)
            self.blanks()
            self.expect("=")
            self.blanks()
            self.value(None if key is None else key + inner)

        self.separated("{", "}", entry)

    def array(self) -> None:
        self.separated("[", "]", lambda: self.value(None))

    def separated(self, opener: str, closer: str, each: Callable[[], None]) -> None:
        """`opener`, items read by `each` with commas between (and one after the last), `closer`."""
        self.expect(opener)
        self.blanks(newlines=True)
        while self.peek() != closer:
            each()
            self.blanks(newlines=True)
            if self.peek() == ",":
                self.advance()
                self.blanks(newlines=True)
            elif self.peek() != closer:
                raise _Unread
        self.advance()

    # -- the document

    def document(self) -> None:
        table: Key | None = ()
        while True:
            self.blanks(newlines=True)
            if self.pos >= len(self.text):
                return
            line = self.line
            if self.text.startswith("[[", self.pos):  # an array of tables: its keys are not noted (the config has none)
                self.advance(2)
                self.blanks()
                self.key()
                self.expect("]")
                self.expect("]")
                table = None
            elif self.peek() == "[":
                self.advance()
                self.blanks()
                table = self.key()
                self.expect("]")
                self.note(table, line)
            else:
                key = self.key()
                full = None if table is None else table + key
                if full is not None:
                    self.note(full, line)
                self.blanks()
                self.expect("=")
                self.blanks()
                self.value(full)
            self.blanks()
            if self.peek() == "#":
                self.comment()
            if self.peek() not in ("", "\n"):
                raise _Unread


def key_lines(text: str) -> dict[Key, int]:
    """The line (from 1) each key and table is first set on: `("profiles", "uat", "timeout")` → 9."""
    scanner = _Scanner(text)
    try:
        scanner.document()
    except _Unread:
        pass
    return scanner.lines


@dataclass(frozen=True)
class Places:
    """A config file and the line of each of its keys, for messages that say where to look."""

    path: Path | None = None
    lines: Mapping[Key, int] = field(default_factory=dict)

    def line(self, *key: str) -> int | None:
        return self.lines.get(tuple(key))

    def where(self, *key: str) -> str:
        """`/home/me/.config/flextui/config.toml line 9` (the file alone when the line is not known; "" with no file)."""
        if self.path is None:
            return ""
        line = self.line(*key)
        return f"{self.path} line {line}" if line else str(self.path)

    def named(self, *key: str) -> str:
        """`settings.theme in /home/me/.config/flextui/config.toml line 3`, for a value read from the file ("" with no file)."""
        return f"{'.'.join(key)} in {self.where(*key)}" if self.path is not None else ""

    @classmethod
    def read(cls, path: Path, text: str) -> Places:
        return cls(path, key_lines(text))
