"""Escape, then a key, arriving together: the escape key, then that key.

A terminal sends Alt+key as ESC followed by the key, so Textual's input parser
reads ESC and a character that come within its escape delay (0.1 s) as one
Alt key: the escape is dropped and the character arrives as `alt+x` (or, for
punctuation, as the plain key). Typing `Escape :` quickly, or the two arriving
in one SSH packet, closed nothing and the `:` landed in the dialog that should
have closed; `Escape :watch off ⏎` after a message left a watch running with
no word said. flextui binds no Alt key, so ESC and a key read together are the
two keys they were typed as, in order, each handed on by the app's key queue
(`FlexApp.on_event`) once the one before has had its effect. An Alt key that
is bound (a `[keys]` remap to `alt+…`, Textual's text area's `alt+delete`)
stays one key.

The parser is Textual's own (`textual._xterm_parser.XTermParser`), with the
one method that names a key read after ESC overridden; its Linux driver is
given it (the driver makes its parser by that module name: Textual 8.x).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual import events
from textual._xterm_parser import XTermParser

ESCAPE = "\x1b"

ESCAPE_THEN_TAB = ESCAPE + "\t"
"""Textual reads ESC TAB as shift+tab (what the Linux console sends for it); every terminal flextui meets over SSH
(xterm, tmux, screen) sends shift+tab as `ESC [ Z`, so ESC TAB is escape then tab, typed fast: `f qq Escape Tab`
in one packet left the filter field as shift+tab, the escape lost."""

_alt_bound: Callable[[str], bool] = lambda key: False  # noqa: E731  (set by `install`)


class EscapeThenKeyParser(XTermParser):
    """Textual's parser, but ESC + a key read together are the escape key and the key (unless that Alt key is bound)."""

    def _sequence_to_key_events(self, sequence: str, alt: bool = False) -> Iterable[events.Key]:
        if sequence == ESCAPE_THEN_TAB and not alt:
            yield events.Key("escape", ESCAPE)
            yield from super()._sequence_to_key_events("\t")
            return
        if alt:
            as_alt = list(super()._sequence_to_key_events(sequence, alt=True))
            if any(_alt_bound(event.key) for event in as_alt):
                yield from as_alt
                return
            yield events.Key("escape", ESCAPE)
        yield from super()._sequence_to_key_events(sequence, alt=False)


def install(alt_bound: Callable[[str], bool]) -> None:
    """Make Textual's terminal drivers read keys with `EscapeThenKeyParser`; `alt_bound(key)`: whether an Alt key is bound."""
    global _alt_bound
    _alt_bound = alt_bound
    from textual.drivers import linux_driver

    linux_driver.XTermParser = EscapeThenKeyParser  # type: ignore[misc]


__all__ = ["EscapeThenKeyParser", "install"]
