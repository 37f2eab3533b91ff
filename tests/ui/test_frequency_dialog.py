"""`F` on report results: a bar is as long as its share of the rows in view, and a column of distinct ids lists its
most frequent values, not a row for each (it took ≈ 4 s on 187,000 ids, its bars all full width beside "0.0%")."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from flextui.ui.screens.reports.tools import BAR_WIDTH, BLOCKS, FREQUENCY_ROWS, FrequencyScreen
from flextui.ui.widgets.commandbar import FilterBar
from flextui.ui.widgets.grid import DataGrid
from tests.ui.conftest import build_app, settle, until
from tests.ui.test_reports_screen import grid, move_to_column, results


def eighths(bar: str) -> int:
    """A bar's length in eighths of a cell."""
    return sum(8 if c == "█" else BLOCKS.index(c) for c in bar if c in BLOCKS)


def shown_rows(dialog: FrequencyScreen) -> list[dict[str, Any]]:
    model = dialog.query_one(DataGrid).model
    return [model.row_dict(i) for i in range(model.row_count)]


async def frequency_of(pilot: Any, column: str) -> FrequencyScreen:
    await move_to_column(pilot, column)
    await pilot.press("F")
    await until(pilot, lambda: isinstance(pilot.app.screen, FrequencyScreen))
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, FrequencyScreen)
    return dialog


def assert_bars_match_shares(dialog: FrequencyScreen) -> None:
    for row, freq in zip(shown_rows(dialog), dialog.rows, strict=True):
        wanted = max(1, round(freq.percent / 100 * BAR_WIDTH * 8))
        assert eighths(row["histogram"]) == wanted, (row, freq)
        assert row["percent"].strip() == ("<0.1%" if freq.percent < 0.05 else f"{freq.percent:.1f}%")


async def test_a_column_of_distinct_ids_lists_its_first_values_with_slivers_of_bars() -> None:
    app = build_app(start=["report", "usage"])
    async with app.run_test(size=(120, 40)) as pilot:
        await results(pilot, page="2500")
        g = grid(app)
        ids = [g.model.cell(i, "usageId") for i in range(g.row_count)]
        assert len(set(ids)) == len(ids) > FREQUENCY_ROWS, "more distinct ids than the table lists"
        dialog = await frequency_of(pilot, "usageId")
        rows = shown_rows(dialog)
        assert [r["value"] for r in rows] == sorted(ids, key=str.casefold)[:FREQUENCY_ROWS]
        assert {r["count"] for r in rows} == {1}
        facts = str(dialog.query_one("#freq-facts").render())
        assert f"{len(ids):,} distinct values" in facts and f"the {FREQUENCY_ROWS:,} most frequent shown" in facts, facts
        assert_bars_match_shares(dialog)
        assert {r["histogram"] for r in rows} == {"▏"}, "one row in 1,873: a sliver, not a full bar"
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, FrequencyScreen))
        await settle(pilot)
        assert g.row_count == 1 and g.model.cell(0, "usageId") == rows[0]["value"]


async def test_bars_of_a_few_values_are_their_shares() -> None:
    app = build_app(start=["report", "usage"])
    async with app.run_test(size=(120, 40)) as pilot:
        await results(pilot, page="2500")
        g = grid(app)
        counts = Counter(g.model.cell(i, "meterType") for i in range(g.row_count))
        dialog = await frequency_of(pilot, "meterType")
        assert [(r["value"], r["count"]) for r in shown_rows(dialog)] == counts.most_common()
        assert "most frequent shown" not in str(dialog.query_one("#freq-facts").render())
        assert_bars_match_shares(dialog)


def test_a_share_that_rounds_to_nothing_is_not_written_as_none() -> None:
    from flextui.ui.screens.reports.tools import share_text

    assert [share_text(p) for p in (100.0, 12.345, 0.05, 0.0005, 0.0)] == ["100.0%", "12.3%", "0.1%", "<0.1%", "0.0%"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_value_chosen_in_the_frequency_table_shows_as_a_labelled_filter(size: tuple[int, int]) -> None:
    """`F`, enter on RETURN: the filter in force showed as a bare `fulfillmentType=RETURN` at column 0 above the status
    line; it reads as the app's other filter lines do, labelled and a cell in from the edge, as the count line is."""
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=size) as pilot:
        await results(pilot)
        dialog = await frequency_of(pilot, "fulfillmentType")
        values = [r["value"] for r in shown_rows(dialog)]
        dialog.query_one(DataGrid).move_cursor(row=values.index("RETURN"))
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, FrequencyScreen))
        await settle(pilot)
        bar = app.screen.query_one(FilterBar)
        lines = [strip.text for strip in app.screen._compositor.render_strips()]
        assert bar.display and not bar.has_focus and grid(app).has_focus
        shown = lines[bar.region.y]
        count = lines[app.screen.query_one("#rr-count").region.y]
        assert shown.startswith(" filter: fulfillmentType=RETURN"), shown
        assert count.startswith(" ") and not count.startswith("  "), "the count line's padding: one cell, as the filter's"
        assert "filter" in count, count
        await pilot.press("slash")
        await until(pilot, lambda: bar.has_focus)
        await pilot.pause()
        shown = [strip.text for strip in app.screen._compositor.render_strips()][bar.region.y]
        assert shown.startswith(" fulfillmentType=RETURN"), "typed in: the field as it is, a cell in from the edge"
