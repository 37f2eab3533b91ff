"""What the headless listers share: `--page-size`, a pager's items as rows, and how far a listing got.

`pager_rows` yields one flat row per item of a service's pager (the one
bounded `paging.Pager`), so each lister is only its filters (`query.py`),
its pager and its row function (`render/`). `Tally` counts what a listing
has written, so a failure midway and ctrl+c say in the same words where the
output stops. `Stderr` is the one way headless code writes to stderr: every
line through the sanitiser (`render.text.clean_lines`, as the CLI's
`print_error`), since group, field and operator names and messages come from
the server; rows go to stdout only through the writers of `render/`, which
clean or escape every value.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TextIO

from flextui.api.paging import Pager
from flextui.api.validation import MAX_LIMIT
from flextui.query import M, parse_filters
from flextui.render.text import clean_lines


class Stderr:
    """A headless command's stderr: lines said through the sanitiser, and the running count on a terminal.

    Nothing else in `headless/` writes to stderr, so no server text (a group,
    field or operator name, a message) can reach the terminal raw.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self._counting = False

    def say(self, message: object, *, prefix: str = "flextui: ") -> None:
        """One message, `flextui: …` unless told otherwise, cleaned (its line breaks kept, as the CLI's `print_error`)."""
        self.clear()
        self._stream.write(f"{prefix}{clean_lines(str(message))}\n")

    def count(self, done: int, total: int | None) -> None:
        """`12,500 of 100,000 records…` in place, only when stderr is a terminal (numbers only: nothing to clean)."""
        if self.tty:
            of = f" of {total:,}" if total is not None else ""
            self._stream.write(f"\r  {int(done):,}{of} records…")
            self._stream.flush()
            self._counting = True

    def clear(self) -> None:
        """Takes the running count off the line (a message or the end follows)."""
        if self._counting:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._counting = False


@dataclass
class Tally:
    """How many rows (`what`: "rows", "records") a listing has written so far, kept as it writes them."""

    count: int = 0
    what: str = "rows"

    def cut_short(self) -> str:
        """What a listing stopped midway (an error, ctrl+c) adds to its message: its output is not the whole answer."""
        if self.count <= 0:
            return ""
        return f"; the output is incomplete: it stops after {self.count:,} {self.what}"


def page_size(args: argparse.Namespace, maximum: int = MAX_LIMIT, *, default: int = 200) -> int:
    """`--page-size` (the service's usual size when not given), capped at what the service accepts."""
    size = int(getattr(args, "page_size", None) or default)
    if size < 1:
        raise ValueError("--page-size must be at least 1")
    return min(size, maximum)


async def pager_rows(pager: Pager[Any], row: Callable[[Any], dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    """`row(item)` for every item the pager gives (`paging.Pager`: bounded; a shortfall is recorded on the session)."""
    async for items in pager:
        for item in items:
            yield row(item)


def target_filters(args: argparse.Namespace, model: type[M], *, what: str, target_key: str) -> M:
    """The `--filter` pairs as `model`, with TARGET (when given) as the `target_key` filter unless a pair sets it."""
    extra = {target_key: args.target} if getattr(args, "target", None) else None
    return parse_filters(args.filter or [], model, what=what, extra=extra)
