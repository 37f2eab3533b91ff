"""The one sanitiser (`flextui.render.text`): every class of character, the fast path, the cap, idempotence, JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from rich.cells import cell_len

from flextui.render.text import (
    DISPLAY_LIMIT,
    NEWLINE,
    STAND_IN,
    absolute,
    age_text,
    cap,
    clean,
    clean_lines,
    drop_invisible,
    given_back,
    is_clean,
    json_dumps,
    json_escape,
    relative,
    shorten,
)

BIDI_AND_FORMAT = [
    0x061C,
    0x180E,
    *range(0x200B, 0x2010),
    0x2028,
    0x2029,
    *range(0x202A, 0x202F),
    *range(0x2060, 0x2065),
    *range(0x2066, 0x2070),
    0xFEFF,
    0xFFF9,
    0xFFFA,
    0xFFFB,
    0xE0001,
    0xE0041,
    0xE007F,
]
HOSTILE = [
    "\x1b]52;c;SE9TVElMRQ==\x07",
    "\x1b[2J",
    "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\",
    "\x1b]0;pwned\x07",
    "\x9b31m",
    "a\x00b",
    "\u202eevil",
    "x\u2066y\u2069",
    "\ud800",
    "line\nbreak\r\n",
    "tab\there",
    "\x7f",
]


def unsafe_left(text: str) -> list[str]:
    return [ch for ch in text if ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or ord(ch) in BIDI_AND_FORMAT or 0xD800 <= ord(ch) <= 0xDFFF]


def test_c0_controls_become_control_pictures() -> None:
    for code in range(0x20):
        expected = NEWLINE if code == 0x0A else chr(0x2400 + code)
        assert clean(f"a{chr(code)}b") == f"a{expected}b", hex(code)
    assert clean("\x1b[2J") == "␛[2J"
    assert clean("\x00") == "␀" and clean("\t") == "␉" and clean("\r") == "␍" and clean("\n") == "⏎"


def test_del_c1_bidi_format_and_surrogates_are_visible_stand_ins() -> None:
    assert clean("\x7f") == "␡"
    for code in range(0x80, 0xA0):
        assert clean(f"a{chr(code)}b") == f"a{STAND_IN}b", hex(code)
    for code in BIDI_AND_FORMAT:
        assert clean(f"a{chr(code)}b") == f"a{STAND_IN}b", hex(code)
    assert clean("a\ud800b\udfffc") == f"a{STAND_IN}b{STAND_IN}c"


def test_printable_text_is_untouched_and_markup_is_not_special() -> None:
    for text in ("plain ascii ~!@#$%^&*()", "[bold]x[/] [/]", "ünïcødé 漢字 😀 é", "‘quotes’ — dash … ⚠ ⊘"):
        assert clean(text) == text
        assert clean_lines(text) == text
    assert clean(None) == "" and clean(42) == "42" and clean(1.5) == "1.5"


def test_fast_path_returns_the_same_string() -> None:
    text = "ENT-0000123 alpha beta"
    assert clean(text) is text
    assert clean_lines(text) is text
    assert json_escape('{"a": "b"}') == '{"a": "b"}'


def test_every_result_is_inert() -> None:
    for text in HOSTILE:
        assert unsafe_left(clean(text)) == [], text
        assert unsafe_left(clean_lines(text).replace("\n", "")) == [], text


def test_clean_lines_keeps_line_breaks_only() -> None:
    assert clean_lines("one\ntwo\r\nthree\rfour\x1b") == "one\ntwo\nthree␍four␛"
    assert clean("one\ntwo") == f"one{NEWLINE}two"


def test_the_cap_cuts_long_text_and_says_how_much() -> None:
    big = "x" * 100_000
    out = clean(big)
    assert len(out) <= DISPLAY_LIMIT
    kept, _, note = out.partition("… (+")
    dropped = int(note.removesuffix(" chars)").replace(",", ""))
    assert len(kept) + dropped == len(big)
    assert clean(big, limit=None) is big
    hostile = ("\x1b]52;c;" + "A" * 50) * 3000
    out = clean(hostile)
    assert len(out) <= DISPLAY_LIMIT and unsafe_left(out) == [] and out.startswith("␛]52;c;")
    many = clean_lines("a\n" * 50_000)
    assert len(many) <= 16 * DISPLAY_LIMIT and many.endswith(" chars)")
    assert len(clean_lines("a\n" * 50_000, total=1000)) <= 1000


def test_a_long_line_does_not_push_the_rest_out() -> None:
    body = clean_lines("Delete token " + "x\x1b" * 50_000 + "?\nIt stops working at once. This cannot be undone.")
    first, second = body.split("\n")
    assert first.startswith("Delete token x␛x␛") and len(first) <= DISPLAY_LIMIT
    assert second == "It stops working at once. This cannot be undone."
    assert cap("abcdef", 4) == "abc…"
    assert clean("x" * DISPLAY_LIMIT) == "x" * DISPLAY_LIMIT


@pytest.mark.parametrize(
    "text", [*HOSTILE, "x" * 100_000, ("\x1b[2J" * 30_000), "short", "", "a\nb" * 5000, ("y" * 5000 + "\n") * 30, ("z" * 4000 + "\n") * 17]
)
def test_cleaning_is_idempotent(text: str) -> None:
    once = clean(text)
    assert clean(once) == once
    lines = clean_lines(text)
    assert clean_lines(lines) == lines


def test_replacements_keep_length_and_positions() -> None:
    for text in HOSTILE:
        assert len(clean(text, limit=None)) == len(text)


def test_is_clean() -> None:
    assert is_clean("plain") and is_clean("漢字 ⚠")
    assert not any(is_clean(text) for text in HOSTILE)


def test_drop_invisible_keeps_the_cell_width() -> None:
    for text in HOSTILE:
        dropped = drop_invisible(text)
        assert unsafe_left(dropped) == []
        assert cell_len(dropped) == cell_len(text)


def test_json_escape_keeps_the_data_exact_and_the_text_inert() -> None:
    value = {"name": "".join(HOSTILE) + "".join(chr(c) for c in BIDI_AND_FORMAT) + "\x7f ü 漢字", "k\u202e": 1}
    text = json_dumps(value)
    assert unsafe_left(text) == []
    assert json.loads(text) == value
    assert "ü 漢字" in text, "other non-ASCII stays readable"
    assert json_escape(json.dumps("\U000e0041", ensure_ascii=False)) == '"\\udb40\\udc41"'


def test_json_escape_leaves_an_indented_layout_as_json() -> None:
    """A raw view (`R`) is indented JSON with hostile values: its line breaks are layout, not data, and stay."""
    value = {"name": "".join(HOSTILE) + "\u202e\n", "n": [1, 2]}
    text = json_dumps(value, indent=2)
    assert json.loads(text) == value
    assert text.count("\n") == json.dumps(value, indent=2).count("\n") and "\\u000a" not in text
    assert unsafe_left(text.replace("\n", "")) == []


def test_moved_helpers() -> None:
    assert shorten("abcdef", 4) == "abc…" and shorten("ab", 4) == "ab"
    assert relative(None, 0) == "" and relative(3 * 86_400_000, 0) == "in 3d" and relative(0, 5 * 3_600_000) == "5h ago"
    day, minute = 86_400_000, 60_000
    assert relative(30 * day - minute, 0) == "in 1mo", "a token made for 30 days, a minute later: not 'in 29d'"
    assert relative(365 * day - 5_000, 0) == "in 1y", "a year, seconds later: not 'in 12mo'"
    assert relative(2 * day - minute, 0) == "in 2d" and relative(int(1.5 * day), 0) == "in 1d", "whole days otherwise"
    assert absolute(0) == "1970-01-01 00:00" and absolute(None) == ""
    assert age_text(None) == "fresh" and age_text(20) == "cached <1 min ago" and age_text(180) == "cached 3 min ago"


def test_render_imports_neither_textual_nor_rich() -> None:
    code = (
        "import sys, flextui.render.text, flextui.logs, flextui.files, flextui.render.export, flextui.render.tableout;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'));"
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"imported by the render layer: {done.stdout} {done.stderr}"


@pytest.mark.parametrize(
    ("given", "edit", "saved"),
    [
        ("line one\nline two\twith tab", lambda shown: shown + " v2", "line one\nline two\twith tab v2"),
        ("a\nb", lambda shown: "X" + shown + "Y", "Xa\nbY"),
        ("a\nb\x1bc", lambda shown: shown.replace("b", "B"), "a\nB\x1bc"),
        ("a\nb", lambda shown: "ab", "ab"),
        ("a\nb", lambda shown: shown, "a\nb"),
        ("plain", lambda shown: shown + "!", "plain!"),
        ("a\nb", lambda shown: shown + "⏎", "a\nb⏎"),
    ],
    ids=["appended", "both ends", "middle", "newline deleted", "untouched", "nothing cleaned", "a picture typed"],
)
def test_an_edited_field_keeps_the_servers_characters_where_the_user_left_them(given: str, edit: Any, saved: str) -> None:
    assert given_back(edit(clean(given, None)), given) == saved
