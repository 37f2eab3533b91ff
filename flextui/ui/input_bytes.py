"""A byte on the terminal's input that is not UTF-8 never ends the session.

Textual's Linux driver decodes what the terminal sends with a strict UTF-8
decoder in its input thread: a Latin-1 `café` pasted over SSH, an 8-bit Alt
key or a raw 0x9b ended the app with a traceback (and exit status 0), losing
a form being filled or a token value shown once. `tolerate_undecodable_input`
gives that thread decoders that put U+FFFD (�) in place of a byte that is not
UTF-8, as a terminal shows it; the rest of what was typed arrives as typed.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Any


def _lenient(encoding: str) -> Callable[..., codecs.IncrementalDecoder]:
    """`codecs.getincrementaldecoder(encoding)`, whose decoders replace what they cannot decode."""
    factory = codecs.getincrementaldecoder(encoding)

    def make(errors: str = "replace") -> codecs.IncrementalDecoder:
        return factory(errors="replace")

    return make


def tolerate_undecodable_input() -> None:
    """Make the terminal input thread's decoders lenient (Textual's Linux driver looks the factory up as it starts)."""
    try:
        from textual.drivers import linux_driver
    except ImportError:  # not on this platform
        return
    driver: Any = linux_driver
    driver.getincrementaldecoder = _lenient


__all__ = ["tolerate_undecodable_input"]
