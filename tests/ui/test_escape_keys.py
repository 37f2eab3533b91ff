"""Escape then a key, read together (fast typing, one SSH packet): both keys, in order (ui/escape_keys.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import textual._parser
from textual import events
from textual.drivers import linux_driver

from flextui.ui import escape_keys
from flextui.ui.escape_keys import EscapeThenKeyParser
from tests.ui.conftest import build_app


def keys_read(data: str, monkeypatch: pytest.MonkeyPatch, alt_bound: Callable[[str], bool] = lambda key: False) -> list[str]:
    """The keys the parser makes of `data` once its escape delay has passed (the delay is not waited out: the clock is moved)."""
    monkeypatch.setattr(escape_keys, "_alt_bound", alt_bound)
    parser = EscapeThenKeyParser()
    tokens = list(parser.feed(data))
    monkeypatch.setattr(textual._parser, "get_time", lambda: float("inf"))
    tokens += list(parser.tick())
    return [token.key for token in tokens if isinstance(token, events.Key)]


@pytest.mark.parametrize(
    ("typed", "keys"),
    [
        ("\x1b:", ["escape", "colon"]),  # Textual's own parser: ["colon"], the escape lost
        ("\x1b\r", ["escape", "enter"]),  # Textual's: ["enter"]
        ("\x1ba", ["escape", "a"]),  # Textual's: ["alt+a"]
        ("\x1bQ", ["escape", "Q"]),
        ("\x1b", ["escape"]),
        ("\x1b[A", ["up"]),  # a key's own sequence stays that key
        ("\x1b\x1b", ["escape", "escape"]),
        ("\x1b\t", ["escape", "tab"]),  # Textual's: ["shift+tab"] (the Linux console's); `f qq Escape Tab` in one packet
        ("fqq\x1b\t\x1b", ["f", "q", "q", "escape", "tab", "escape"]),
        ("\x1b[Z", ["shift+tab"]),  # shift+tab as terminals over SSH send it
    ],
)
def test_escape_and_the_key_after_it_are_two_keys(typed: str, keys: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert keys_read(typed, monkeypatch) == keys


def test_an_alt_key_that_is_bound_stays_one_key(monkeypatch: pytest.MonkeyPatch) -> None:
    assert keys_read("\x1ba", monkeypatch, alt_bound=lambda key: key == "alt+a") == ["alt+a"]
    assert keys_read("\x1bc", monkeypatch, alt_bound=lambda key: key == "alt+a") == ["escape", "c"]
    # (ESC b and ESC f stay Textual's: they are what terminals send for Option/Alt+left and right, word by word)
    assert keys_read("\x1bb", monkeypatch) == ["ctrl+left"]


def test_the_app_reads_the_terminal_with_it_and_knows_its_alt_remaps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(linux_driver, "XTermParser", linux_driver.XTermParser)  # put back after the test
    app = build_app(keys={"tokens.create": "alt+n", "tokens.delete": "d"})
    assert app is not None
    assert linux_driver.XTermParser is EscapeThenKeyParser
    assert escape_keys._alt_bound("alt+n") and not escape_keys._alt_bound("alt+d")
