"""The terminal bar chart: the pure drawing (no Textual) and the widget in an app."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult

from flextui.ui.widgets.chart import BarChart, bucket, chart_text, compact_number, render_bar_chart


def days(n: int, values: list[float] | None = None) -> list[tuple[str, float]]:
    start = date(2026, 10, 1)
    return [((start + timedelta(days=i)).isoformat(), (values[i] if values else (i * 7) % 13)) for i in range(n)]


def plot_rows(lines: list[list[tuple[str, str]]]) -> list[str]:
    """The lines between the header and the x axis, as text."""
    text = chart_text(lines).split("\n")
    return text[1:-2]


@pytest.mark.parametrize(("width", "height"), [(80, 8), (120, 12), (40, 6), (20, 5), (12, 3), (200, 30)])
def test_every_line_is_exactly_the_size_asked(width: int, height: int) -> None:
    lines = render_bar_chart(days(30), width, height, title="Downloads per day")
    assert len(lines) == height
    assert all(sum(cell_len(t) for t, _ in line) == width for line in lines)


def test_header_names_the_maximum_and_its_label_and_the_total() -> None:
    series = days(30)
    text = chart_text(render_bar_chart(series, 100, 10, title="Downloads per day"))
    header = text.split("\n")[0]
    assert header.startswith("Downloads per day")
    total = sum(v for _, v in series)
    peak_label = next(label for label, v in series if v == 12)
    assert f"max 12 ({peak_label}) · total {total}" in header
    assert text.split("\n")[-2].lstrip().startswith("0 └")


def test_bar_heights_are_proportional_in_eighths() -> None:
    lines = render_bar_chart([("a", 8), ("b", 4), ("c", 1), ("d", 0)], 20, 4)  # one plot row… plus header, axis, labels
    row = plot_rows(lines)[0]
    bars = row.split("┤" if "┤" in row else "│", 1)[1]
    assert "█" in bars and "▄" in bars and "▁" in bars
    assert bars.index("█") < bars.index("▄") < bars.index("▁")


def test_a_single_download_is_never_invisible() -> None:
    lines = render_bar_chart([("a", 1000), ("b", 1)], 30, 6)
    bottom = plot_rows(lines)[-1]
    assert bottom.count("█") >= 1 and "▁" in bottom


def test_tallest_bar_is_marked_as_peak_and_others_as_bars() -> None:
    lines = render_bar_chart([("a", 2), ("b", 5), ("c", 3)], 40, 8, title="T")
    roles = {role for line in lines for _, role in line}
    assert {"title", "note", "axis", "label", "bar", "peak"} <= roles
    top_row = lines[1]
    assert [role for text, role in top_row if text.strip() and role in ("bar", "peak")] == ["peak"]


def test_more_points_than_columns_are_summed_and_said_so() -> None:
    series = [(str(i), 1.0) for i in range(400)]
    lines = render_bar_chart(series, 80, 8, noun="days")
    header = chart_text(lines).split("\n")[0]
    assert "days per bar" in header and "total 400" in header
    points, per = bucket(series, 70)
    assert per == 6 and sum(v for _, v in points) == 400
    assert bucket(series, 70, "max")[0][0][1] == 1.0


def test_labels_do_not_overlap_and_fit() -> None:
    lines = render_bar_chart(days(30), 76, 8)
    labels = chart_text(lines).split("\n")[-1]
    shown = labels.split()
    assert shown[0] == "2026-10-01" and len(shown) >= 3
    assert all(len(label) == 10 for label in shown)  # whole dates, none cut into another


def test_empty_and_all_zero_series_say_so() -> None:
    for series in ([], [("a", 0), ("b", 0)]):
        text = chart_text(render_bar_chart(series, 50, 7, title="T", empty_text="no downloads"))
        assert "no downloads" in text and "total 0" in text


def test_negative_and_non_finite_values_count_as_zero() -> None:
    text = chart_text(render_bar_chart([("a", -5), ("b", float("nan")), ("c", float("inf")), ("d", 2)], 40, 6))
    assert "total 2" in text and "max 2 (d)" in text


def test_server_strings_are_cleaned() -> None:
    text = chart_text(render_bar_chart([("\x1b[2Jevil", 3)], 40, 6, title="t\x1b"))
    assert "\x1b" not in text and "␛" in text


@pytest.mark.parametrize(
    ("value", "shown"), [(0, "0"), (999, "999"), (1234, "1,234"), (12_500, "12.5k"), (50_000, "50k"), (3_400_000, "3.4M"), (0.25, "0.25")]
)
def test_compact_numbers(value: float, shown: str) -> None:
    assert compact_number(value) == shown


class ChartApp(App[None]):
    def __init__(self, series: list[tuple[str, float]]) -> None:
        super().__init__()
        self.series = series

    def compose(self) -> ComposeResult:
        yield BarChart(self.series, title="Records per day", noun="days", id="chart")


async def test_widget_draws_adapts_to_width_and_updates() -> None:
    app = ChartApp(days(30))
    async with app.run_test(size=(100, 12)) as pilot:
        chart = app.query_one(BarChart)
        text = str(chart.render())
        assert "Records per day" in text and "max 12" in text
        assert len(text.split("\n")) == chart.content_size.height == 10
        chart.update([("x", 3.0), ("y", 1.0)], title="Two")
        await pilot.pause()
        assert "Two" in str(chart.render()) and "total 4" in str(chart.render())
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        rendered: Any = chart.render()
        assert all(cell_len(line) <= chart.content_size.width for line in str(rendered).split("\n"))
        styles = {str(span.style) for span in rendered.spans}
        assert len(styles) >= 3, "title, axis, bars and peak are styled from the theme"
