"""The terminal's shadow: only what changed is written, and what is written always adds up to the screen.

The replay tests feed everything the app writes to a terminal emulator (pyte) and
compare its screen, cell by cell with colours, to the screen the app drew: a piece
the shadow wrongly thought was on the terminal would leave old cells behind.
"""

from __future__ import annotations

from typing import Any

import pyte
import pytest
from rich.console import Console
from rich.control import Control
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.app import App
from textual.geometry import Region, Size
from textual.strip import Strip

from flextui.ui.app import FlexApp
from flextui.ui.screen_shadow import TerminalShadow
from flextui.ui.screens.reports.results import ReportResultsScreen
from tests.ui.conftest import build_app, burst, command, settle, until

CONSOLE = Console(color_system="256", force_terminal=True, width=20, height=3)
SIZE = Size(20, 3)


def strip(text: str, colour: str = "red") -> Strip:
    return Strip([Segment(text, Style(color=colour))])


def full(lines: list[list[Strip]]) -> LayoutUpdate:
    return LayoutUpdate(lines, Region(0, 0, 20, len(lines)))


def chop(y: int, x: int, piece: Strip, height: int = 3) -> ChopsUpdate:
    """One piece at (x, y), as Textual's partial update carries it."""
    chops: list[dict[int, Strip | None]] = [{} for _ in range(height)]
    ends: list[list[int]] = [[] for _ in range(height)]
    chops[y] = {x: piece}
    ends[y] = [x + piece.cell_length]
    return ChopsUpdate(chops, [(y, x, x + piece.cell_length)], ends)


def sent(shadow: TerminalShadow, update: Any, size: Size = SIZE) -> list[tuple[int, int, int]]:
    return [(y, x, end) for y, x, end, _ in shadow.changes(update, CONSOLE, size).pieces]


def screen() -> list[list[Strip]]:
    return [[strip("a" * 10), strip("b" * 10, "blue")], [strip("c" * 20)], [strip("d" * 20)]]


def test_what_the_terminal_shows_is_not_sent_again() -> None:
    shadow = TerminalShadow()
    assert sent(shadow, full(screen())) == [(0, 0, 10), (0, 10, 20), (1, 0, 20), (2, 0, 20)]
    assert sent(shadow, full(screen())) == [], "a repaint of the same cells sends nothing"
    changed = screen()
    changed[1] = [strip("C" * 20)]
    changed[0][1] = strip("b" * 10, "green")  # same text, another colour: a change
    assert sent(shadow, full(changed)) == [(0, 10, 20), (1, 0, 20)]
    assert sent(shadow, chop(2, 0, strip("d" * 20))) == [], "a partial update of the same cells"


def test_a_piece_written_over_part_of_another_makes_that_one_unknown() -> None:
    shadow = TerminalShadow()
    sent(shadow, full(screen()))
    assert sent(shadow, chop(1, 5, strip("xxxxx"))) == [(1, 5, 10)]
    assert sent(shadow, full(screen())) == [(1, 0, 20)], "the line under it is written whole again"
    assert sent(shadow, chop(1, 5, strip("ccccc"))) == [(1, 5, 10)], "the known piece was (0, 20), not (5, 10)"


def test_a_piece_that_changed_in_its_middle_sends_the_middle() -> None:
    def count(row: str) -> list[list[Strip]]:
        line = Strip([Segment(" "), Segment(f"row {row}", Style(bold=True)), Segment(" " * 13, Style(bgcolor="blue"))])
        return [[line]]

    shadow = TerminalShadow()
    sent(shadow, full(count("34")))
    assert sent(shadow, full(count("67"))) == [(0, 1, 7)], "the number, not the padding"
    assert sent(shadow, full(count("67"))) == []
    assert sent(shadow, full(count("100"))) == [(0, 0, 21)], "another width: the piece whole"
    text = shadow.changes(full(count("34")), CONSOLE, SIZE).render_segments(CONSOLE)
    assert text.startswith(Control.move_to(0, 0).segment.text), "cells differ in width: whole"


def test_a_resize_or_forget_writes_everything_again() -> None:
    shadow = TerminalShadow()
    sent(shadow, full(screen()))
    assert len(sent(shadow, full(screen()), Size(21, 3))) == 4
    shadow.forget()
    assert len(sent(shadow, full(screen()), Size(21, 3))) == 4


def test_pieces_side_by_side_share_one_cursor_move() -> None:
    shadow = TerminalShadow()
    text = shadow.changes(full(screen()), CONSOLE, SIZE).render_segments(CONSOLE)
    assert text.startswith(Control.move_to(0, 0).segment.text)
    assert text.count("H") == 3, "one move a line: the second piece of line 0 follows the first"


class Replay:
    """A terminal emulator fed everything the app writes (as the app would write it, shadow and all)."""

    def __init__(self, width: int, height: int) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.Stream(self.screen)
        self.written = 0

    def feed(self, text: str) -> None:
        self.written += len(text)
        self.stream.feed(text)

    def cells(self) -> list[list[tuple[str, str, str, bool]]]:
        return [
            [(c.data, c.fg, c.bg, c.reverse) for c in (self.screen.buffer[y][x] for x in range(self.screen.columns))]
            for y in range(self.screen.lines)
        ]


@pytest.fixture
def replay(monkeypatch: pytest.MonkeyPatch) -> Replay:
    terminal = Replay(120, 40)
    monkeypatch.setattr(FlexApp, "shadow_headless", True)

    def display(self: App[Any], screen: Any, renderable: Any) -> None:  # Textual's write, to the emulator
        if renderable is None or self._batch_count:
            return
        console = Console(color_system="256", force_terminal=True, width=120, height=40, legacy_windows=False)
        terminal.feed(renderable.render_segments(console))

    monkeypatch.setattr(App, "_display", display)
    return terminal


def drawn(app: FlexApp) -> list[list[tuple[str, str, str, bool]]]:
    """The screen as the app draws it now, written whole to a fresh terminal."""
    fresh = Replay(120, 40)
    console = Console(color_system="256", force_terminal=True, width=120, height=40, legacy_windows=False)
    fresh.feed(app.screen._compositor.render_full_update().render_segments(console))
    return fresh.cells()


async def test_a_streamed_report_and_keys_replayed_show_exactly_what_the_app_drew(replay: Replay) -> None:
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert replay.cells() == drawn(app)
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: isinstance(app.screen, ReportResultsScreen) and app.screen.state == "done")
        await settle(pilot)
        assert replay.cells() == drawn(app), "after the load"
        await burst(pilot, "pagedown", "pagedown", "down", "right", "right", "end")
        await settle(pilot)
        assert replay.cells() == drawn(app), "after moving about"
        await command(pilot, ":tokens")
        await settle(pilot)
        assert replay.cells() == drawn(app), "another screen"


async def test_a_repaint_of_the_same_screen_writes_nothing_and_redraw_writes_it_all(replay: Replay) -> None:
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(5):  # once nothing on it is still changing (a label catching up), a repaint writes nothing
            before = replay.written
            app.screen.refresh()  # Textual repaints the whole screen (as a screen's resume does)
            await settle(pilot)
            if replay.written - before < 200:
                break
        assert replay.written - before < 200, "not the screen again (≈ 9,000 characters)"
        before = replay.written
        await command(pilot, ":redraw")
        await settle(pilot)
        assert replay.written - before > 3_000, "every cell again"
        assert replay.cells() == drawn(app)
        before = replay.written
        app._resume_signal()  # back from ctrl+z (the shell wrote over the screen): Textual repaints it
        app.refresh(layout=True)
        await settle(pilot)
        assert replay.written - before > 3_000, "every cell again"


async def test_a_hostile_servers_names_replayed_show_what_the_app_drew(replay: Replay, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.hostile import install

    install(monkeypatch)
    app = build_app(start=["tokens"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await burst(pilot, "down", "down", "pagedown", "right", "right", "right", "end", "home")
        await settle(pilot)
        assert replay.cells() == drawn(app), "a screen wipe among the names would have left cells blank"
        assert "pwned" not in replay.screen.title, "no window title reached the terminal"
