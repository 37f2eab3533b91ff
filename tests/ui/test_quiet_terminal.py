"""A quiet terminal: what is not changing is not sent again (issue: 182 KB in 130 s idle on the results screen).

The status line's tick keeps the age of what is shown true; it used to
re-lay out the screen every 15 s, which repaints every cell (the grid
included). These tests catch the frames the app would write and check that
an idle tick writes nothing, and that an age that changes repaints its own
label, not the screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual._compositor import LayoutUpdate

from flextui.ui.app import FlexApp
from flextui.ui.screens.reports.results import ReportResultsScreen
from flextui.ui.widgets.bars import StatusLine
from tests.ui.conftest import build_app, burst, settle, until


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every screen update the app hands to the terminal (headless runs skip the writing, not the update)."""
    seen: list[Any] = []
    monkeypatch.setattr(FlexApp, "_display", lambda self, screen, renderable: seen.append(renderable) if renderable is not None else None)
    return seen


async def run_report(pilot: Any) -> None:
    """Run the builder's report and let it load every row."""
    app = pilot.app
    await settle(pilot)
    await burst(pilot, "ctrl+g")
    await until(pilot, lambda: isinstance(app.screen, ReportResultsScreen) and app.screen.state == "done")
    await settle(pilot)


def written(app: FlexApp, updates: list[Any]) -> int:
    return sum(len(update.render_segments(app.console)) for update in updates)


async def test_an_idle_tick_writes_nothing_and_an_aging_label_repaints_only_itself(frames: list[Any]) -> None:
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await run_report(pilot)
        status = app.screen.query_one(StatusLine)
        status.set_age(200.0)  # shown from a cache: "3m ago"
        await settle(pilot)
        frames.clear()
        status._tick()  # seconds later: still "3m ago"
        await settle(pilot)
        assert written(app, frames) == 0, "an idle tick sends nothing"
        status._shown_at -= 60  # a minute later: "4m ago", as wide as before
        status._tick()
        await settle(pilot)
        assert frames, "the new age is shown"
        assert not any(isinstance(update, LayoutUpdate) for update in frames), "no full-screen repaint"
        assert written(app, frames) < 600, "the label, not the grid above it"


async def test_fresh_data_growing_old_changes_the_words_not_the_layout(frames: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """ "fresh" becoming "fetched 1 min ago" (another width) relaid the screen: 0.9 KB over SSH for 60 bytes of words."""
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await run_report(pilot)
        status = app.screen.query_one(StatusLine)
        status.set_age(None)  # just fetched
        await settle(pilot)
        assert str(status.query_one("#st-age").render()) == "fresh"
        layouts: list[object] = []
        refresh_layout = type(app.screen)._refresh_layout
        monkeypatch.setattr(type(app.screen), "_refresh_layout", lambda self, *a, **k: layouts.append(a) or refresh_layout(self, *a, **k))
        frames.clear()
        for minutes in (1, 12):  # each a text of another width
            status._shown_at -= 60 * minutes
            status._tick()
            await settle(pilot)
        assert str(status.query_one("#st-age").render()) == "fetched 13 min ago"
        assert not layouts, "the age's slot keeps its width"
        assert frames and written(app, frames) < 300, "the words, not the line's other pieces"


async def test_a_screen_underneath_keeps_its_age_to_itself_until_it_is_shown_again(frames: list[Any]) -> None:
    """Each screen of the stack has a status line; the builder's, under the results, changing its words
    made Textual repaint those cells of the screen on top: 0.7 KB a minute for nothing."""
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await run_report(pilot)
        results = app.screen
        builder = app.screen_stack[-2]
        under, top = builder.query_one(StatusLine), results.query_one(StatusLine)
        under.set_age(None)
        top.set_age(None)
        await settle(pilot)
        frames.clear()
        for line in (under, top):
            line._shown_at -= 61  # a minute later: both lines tick
            line._tick()
        await settle(pilot)
        assert str(top.query_one("#st-age").render()) == "fetched 1 min ago"
        assert str(under.query_one("#st-age").render()) == "fresh", "the line underneath is not seen: it waits"
        assert written(app, frames) < 300, "only the words of the screen on top"
        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is builder)
        assert str(under.query_one("#st-age").render()) == "fetched 1 min ago", "shown again, it catches up"


async def test_streamed_pages_repaint_the_scrollbar_not_the_rows_and_leave_it_at_the_full_length(frames: list[Any]) -> None:
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await run_report(pilot)
        grid = app.screen.grid
        page = [grid.model.row(i) for i in range(400)]
        shown = grid.row_count
        frames.clear()
        grid.append_rows(page)  # as a streamed page does, below the rows on screen
        await settle(pilot)
        assert grid.row_count == shown + 400
        assert frames, "the scrollbar moves"
        assert written(app, frames) < 4_000, "the visible rows are not sent again (they were ~10,000 characters)"
        for _ in range(5):  # pages in quick succession: the thumb moves a few times a second, and ends right
            grid.append_rows(page[:200])
        total = grid.row_count + grid._header_height
        assert grid.virtual_size.height == total, "scrolling reaches the new rows at once"
        await until(pilot, lambda: grid.vertical_scrollbar.window_virtual_size == total)
        grid.scroll_end(animate=False)
        await until(pilot, lambda: grid.max_scroll_y > 0 and round(grid.scroll_y) == grid.max_scroll_y)
        assert grid.max_scroll_y == total - grid.scrollable_content_region.height


async def test_a_page_that_leaves_the_thumb_where_it_was_drawn_writes_nothing(frames: list[Any]) -> None:
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await run_report(pilot)
        grid = app.screen.grid
        bar = grid.vertical_scrollbar
        page = [grid.model.row(i) for i in range(400)]

        async def streamed(rows: list[Any]) -> None:
            grid.append_rows(rows)
            total = grid.row_count + grid._header_height
            await until(pilot, lambda: bar.window_virtual_size == total)  # the bar knows the new length
            await settle(pilot)

        for _ in range(10):
            await streamed(page)  # long: at the top, the thumb is one cell and stays there
        frames.clear()
        await streamed(page[:200])
        assert written(app, frames) == 0, "nothing on screen changed, nothing is sent"
        grid.append_rows(page)  # then the status line changes width before the thumb's next move: a layout
        app.screen.query_one(StatusLine)._put("#st-activity", "⟳ 12 requests")
        await settle(pilot)
        assert 0 < written(app, frames) < 600, "the status line, not the bars (≈ 1,200 more characters)"
        grid.scroll_to(y=grid.max_scroll_y // 2, animate=False)  # half way down, a longer grid moves the thumb up
        await until(pilot, lambda: round(grid.scroll_y) == grid.max_scroll_y // 2)
        await settle(pilot)
        frames.clear()
        await streamed(page * 5)
        assert 0 < written(app, frames) < 4_000, "the bar, drawn again where its thumb now is"


async def test_the_activity_says_busy_at_once_and_then_changes_a_few_times_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    app = build_app(start=["tokens"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        status = app.screen.query_one(StatusLine)
        shown: list[str] = []
        put = status._put

        def noted(selector: str, text: str) -> None:
            if selector == "#st-activity":
                shown.append(text)
            put(selector, text)

        monkeypatch.setattr(status, "_put", noted)
        for n in (1, 0, 1, 2, 1, 0, 1, 0):  # six pages' requests starting and ending between two frames
            status.in_flight = n
        assert shown == ["⟳ loading"], "busy is said at once, the flicker after it is not"
        await until(pilot, lambda: not status.settling)
        assert shown == ["⟳ loading", "● idle"], "then what the requests are now"
        status.in_flight = 3
        assert shown[-1] == "⟳ 3 requests", "busy again: at once"


def test_a_horizontal_scrollbar_is_written_as_runs_of_cells_that_look_and_click_the_same() -> None:
    from rich.segment import Segment
    from textual.scrollbar import ScrollBarRender

    from flextui.ui.widgets.scrollbars import RunsScrollBarRender

    args = {"size": 120, "virtual_size": 400, "window_size": 118, "position": 150, "thickness": 1}
    cells = list(ScrollBarRender.render_bar(vertical=False, **args).segments)
    runs = list(RunsScrollBarRender.render_bar(vertical=False, **args).segments)
    assert len(cells) > 100 and len(runs) <= 6, "a few runs, not a segment a cell"

    def per_cell(segments: list[Segment]) -> list[tuple[str, object]]:
        return [(ch, seg.style) for seg in segments for ch in seg.text]

    assert per_cell(runs) == per_cell(cells), "every cell keeps its glyph, colours and mouse action"
    vertical = RunsScrollBarRender.render_bar(vertical=True, size=38, virtual_size=1000, window_size=38, position=10, thickness=2)
    assert list(vertical.segments) == list(
        ScrollBarRender.render_bar(vertical=True, size=38, virtual_size=1000, window_size=38, position=10, thickness=2).segments
    )


def _text(app: FlexApp, update: Any) -> str:
    return str(update.render_segments(app.console))


async def test_the_first_screen_is_painted_once_with_its_rows(frames: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Start-up painted the tokens screen five or six times before its rows came (the empty table, the footer's
    keys, "loading"), each on the loop the answer waited for: the first frame sent now holds the rows."""
    monkeypatch.setattr("flextui.ui.app.FIRST_PAINT_HELD_AT_MOST", 3600.0)  # a loaded machine: the rows, not the bound
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: frames)
        assert "audit-pull-186" in _text(app, frames[0]), "the first frame shows the first token"
        assert not app.first_paint_held


async def test_a_slow_first_answer_shows_the_screen_loading_meanwhile(frames: list[Any]) -> None:
    """The wait for the first rows is bounded (FIRST_PAINT_HELD_AT_MOST): a slow simulator's screen is shown before them."""
    app = build_app(latency_ms=60_000)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: not app.first_paint_held and frames)
        assert not app.screen.tokens, "painted before the answer came"


async def test_on_a_server_the_first_screen_is_shown_while_the_network_answers(frames: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the embedded simulator is waited for: a real server's first answer takes the network's time, and the
    screen held that long would show nothing where it showed "loading" at once."""
    monkeypatch.setattr("flextui.ui.app.FIRST_PAINT_HELD_AT_MOST", 3600.0)  # the bound cannot be what shows it
    app = build_app(latency_ms=60_000)
    app.ctx.demo = False  # as on a profile: the simulator stands for a server
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: not app.first_paint_held and frames)
        assert not app.screen.tokens, "shown while the first answer is awaited"
