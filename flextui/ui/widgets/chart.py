"""A terminal bar chart: values per day or per category, drawn with Unicode blocks.

`render_bar_chart(series, width, height)` is the whole drawing, as plain data
(lines of `(text, role)` pieces), so it is testable without Textual; the
`BarChart` widget maps each role to a component class whose colour comes from
theme variables only (ANSI themes and NO_COLOR work).

Layout, top to bottom::

    Downloads per day          max 23 (2026-10-14) · total 456
      23 ┤      ▂█
         │  ▅ ▃ ██ ▁
       0 └──────────────
         2026-10-01   2026-10-08

* the bars use eighth blocks (▁▂▃▄▅▆▇█), so a column shows 8 levels per row;
  any value above zero shows at least ▁, so a single download is never lost;
* the width adapts: with room, bars are wider and spaced; with more points
  than columns, consecutive points are summed (or, with `aggregate="max"`,
  their maximum taken) into one bar and the header says how many per bar;
* x labels are placed where they fit without overlapping, the last one too
  when there is room; the tallest bar is drawn in the accent colour;
* negative and non-finite values count as zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, Literal

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from flextui.render.text import clean
from flextui.ui.safety import SafeDispatch

__all__ = ["BarChart", "Piece", "compact_number", "render_bar_chart"]

EIGHTHS = " ▁▂▃▄▅▆▇█"
MAX_SLOT = 10  # widest a bar gets (with its gap), so 3 categories do not become slabs

Role = Literal["title", "note", "axis", "label", "bar", "peak", "empty", "space"]
Piece = tuple[str, str]  # (text, role)


def compact_number(value: float) -> str:
    """1,234 · 12.5k · 3.4M; fractions with 3 significant digits."""
    if not math.isfinite(value):
        return "0"
    if value != int(value):
        return f"{value:.3g}"
    n = int(value)
    if abs(n) < 10_000:
        return f"{n:,}"
    if abs(n) < 1_000_000:
        return f"{n / 1000:.1f}k".replace(".0k", "k")
    return f"{n / 1_000_000:.1f}M".replace(".0M", "M")


def _value(v: float) -> float:
    try:
        v = float(v)
    except (TypeError, ValueError):
        return 0.0
    return v if math.isfinite(v) and v > 0 else 0.0


def bucket(series: Sequence[tuple[str, float]], slots: int, aggregate: str = "sum") -> tuple[list[tuple[str, float]], int]:
    """At most `slots` points: consecutive points combined; returns them and how many per bar."""
    n = len(series)
    if n <= slots or slots <= 0:
        return [(label, _value(v)) for label, v in series], 1
    per = math.ceil(n / slots)
    out: list[tuple[str, float]] = []
    for start in range(0, n, per):
        chunk = series[start : start + per]
        values = [_value(v) for _, v in chunk]
        out.append((chunk[0][0], max(values) if aggregate == "max" else sum(values)))
    return out, per


def _fit(text: str, width: int) -> str:
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, width - 1) + "…" if width > 1 else set_cell_size(text, width)


def _pad(line: list[Piece], width: int) -> list[Piece]:
    used = sum(cell_len(t) for t, _ in line)
    if used < width:
        line.append((" " * (width - used), "space"))
    return line


def render_bar_chart(
    series: Sequence[tuple[str, float]],
    width: int,
    height: int,
    *,
    title: str = "",
    noun: str = "values",
    aggregate: Literal["sum", "max"] = "sum",
    empty_text: str = "no data",
) -> list[list[Piece]]:
    """The chart as exactly `height` lines of (text, role) pieces, each line `width` cells wide."""
    width = max(0, width)
    height = max(0, height)
    if width == 0 or height == 0:
        return [[] for _ in range(height)]
    series = [(clean(label), v) for label, v in series]  # labels may be server strings
    title = clean(title)
    values = [_value(v) for _, v in series]
    total = sum(values)
    peak_index = max(range(len(values)), key=lambda i: (values[i], -i)) if values else -1
    peak = values[peak_index] if values else 0.0

    # header: title left, annotation right (annotation dropped first when narrow)
    lines: list[list[Piece]] = []
    if peak > 0:
        note = f"max {compact_number(peak)} ({series[peak_index][0]}) · total {compact_number(total)}"
    else:
        note = f"total {compact_number(total)}"
    header_needed = height >= 3
    plot_rows = max(1, height - (3 if header_needed else 2)) if height >= 2 else 1

    mid_row = plot_rows // 2 if plot_rows >= 5 else -1
    integral = all(v == int(v) for v in values)

    def tick_labels(top: float) -> tuple[str, str]:
        if top <= 0:
            return "", ""
        mid = top * (plot_rows - mid_row) / plot_rows if mid_row >= 0 else 0.0
        return compact_number(top), (compact_number(round(mid) if integral else mid) if mid_row >= 0 else "")

    ylab_w = max(1, *(cell_len(t) for t in tick_labels(peak)))
    plot_w = max(1, width - ylab_w - 2)
    points, per = bucket(series, plot_w, aggregate)
    if per > 1:  # sums are taller than single points: make room for their labels
        wider = max(1, *(cell_len(t) for t in tick_labels(max(v for _, v in points))))
        if wider > ylab_w:
            ylab_w = wider
            plot_w = max(1, width - ylab_w - 2)
            points, per = bucket(series, plot_w, aggregate)
    if per > 1:
        note += f" · {per} {noun} per bar"
    if header_needed:
        head: list[Piece] = []
        title_text = _fit(title, width)
        if title_text:
            head.append((title_text, "title"))
        room = width - cell_len(title_text) - (2 if title_text else 0)
        if room >= 12:
            shown = _fit(note, room)
            head.append((" " * (width - cell_len(title_text) - cell_len(shown)), "space"))
            head.append((shown, "note"))
        lines.append(_pad(head, width))

    n = len(points)
    slot = min(MAX_SLOT, plot_w // n) if n else 1
    slot = max(1, slot)
    gap = 1 if slot >= 2 else 0
    bar_w = slot - gap
    bucket_values = [v for _, v in points]
    bucket_peak = max(bucket_values) if bucket_values else 0.0
    peak_bucket = bucket_values.index(bucket_peak) if bucket_peak > 0 else -1
    levels = plot_rows * 8
    units = []
    for v in bucket_values:
        u = round(v / bucket_peak * levels) if bucket_peak > 0 else 0
        units.append(max(1, u) if v > 0 else 0)

    top_label, mid_label = tick_labels(bucket_peak)
    for r in range(plot_rows):
        level = (plot_rows - 1 - r) * 8
        if r == 0 and top_label:
            label, tick = top_label, "┤"
        elif r == mid_row and mid_label:
            label, tick = mid_label, "┤"
        else:
            label, tick = "", "│"
        line: list[Piece] = [(_fit(label, ylab_w).rjust(ylab_w) + " " + tick, "axis")]
        if bucket_peak <= 0:
            if r == plot_rows // 2:
                line.append((_fit(" " + empty_text, plot_w), "empty"))
        else:
            cells: list[Piece] = []
            for i, u in enumerate(units):
                fill = min(8, max(0, u - level))
                role = "peak" if i == peak_bucket else "bar"
                cells.append((EIGHTHS[fill] * bar_w, role if fill else "space"))
                if gap:
                    cells.append((" " * gap, "space"))
            line.extend(_merge(cells))
        lines.append(_pad(line, width))

    # x axis and labels
    lines.append(_pad([(" " * (ylab_w - 1) + "0 └" + "─" * plot_w, "axis")], width))
    labels = [label for label, _ in points]
    label_line = " " * (ylab_w + 2)
    if labels:
        widest = max(cell_len(lab) for lab in labels)
        step = max(1, math.ceil((widest + 2) / slot))
        free = 0
        chosen = [i for i in range(0, n, step)]
        last = n - 1
        if chosen and chosen[-1] != last and last * slot >= chosen[-1] * slot + widest + 2:
            chosen.append(last)
        row = ""
        for i in chosen:
            x = i * slot
            if x < free:
                continue
            text = _fit(labels[i], plot_w - x)
            if not text:
                break
            row += " " * (x - cell_len(row)) + text
            free = x + cell_len(text) + 2
        label_line += row
    lines.append(_pad([(_fit(label_line, width), "label")], width))
    # trim or pad to the height asked for
    while len(lines) > height:
        lines.pop(0)
    while len(lines) < height:
        lines.insert(0, [(" " * width, "space")])
    return [_clip(line, width) for line in lines]


def _merge(pieces: list[Piece]) -> list[Piece]:
    out: list[Piece] = []
    for text, role in pieces:
        if out and out[-1][1] == role:
            out[-1] = (out[-1][0] + text, role)
        else:
            out.append((text, role))
    return out


def _clip(line: list[Piece], width: int) -> list[Piece]:
    out: list[Piece] = []
    used = 0
    for text, role in line:
        w = cell_len(text)
        if used + w > width:
            text = set_cell_size(text, width - used)
            w = width - used
        if w > 0:
            out.append((text, role))
            used += w
        if used >= width:
            break
    return out


def chart_text(lines: list[list[Piece]]) -> str:
    """The chart as plain text (tests, logs, headless output)."""
    return "\n".join("".join(t for t, _ in line) for line in lines)


class BarChart(SafeDispatch, Widget):
    """A bar chart of `(label, value)` points that adapts to its size (see the module docstring).

    `update(series)` replaces the data; the chart redraws on resize. Colours
    come from the component classes below (theme variables only).
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "barchart--title",
        "barchart--note",
        "barchart--axis",
        "barchart--label",
        "barchart--bar",
        "barchart--peak",
        "barchart--empty",
    }

    DEFAULT_CSS = """
    BarChart {
        height: 10;
        padding: 0 1;
        & > .barchart--title { color: $foreground; text-style: bold; }
        & > .barchart--note { color: $text-muted; }
        & > .barchart--axis { color: $text-muted; }
        & > .barchart--label { color: $text-muted; }
        & > .barchart--bar { color: $primary; }
        & > .barchart--peak { color: $accent; }
        & > .barchart--empty { color: $text-muted; text-style: italic; }
    }
    """

    series: reactive[tuple[tuple[str, float], ...]] = reactive((), always_update=True)
    title: reactive[str] = reactive("")

    def __init__(
        self,
        series: Sequence[tuple[str, float]] = (),
        *,
        title: str = "",
        noun: str = "values",
        aggregate: Literal["sum", "max"] = "sum",
        empty_text: str = "no data",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.noun = noun
        self.aggregate: Literal["sum", "max"] = aggregate
        self.empty_text = empty_text
        self.set_reactive(BarChart.series, tuple((str(k), v) for k, v in series))
        self.set_reactive(BarChart.title, title)

    def update(self, series: Sequence[tuple[str, float]], *, title: str | None = None, empty_text: str | None = None) -> None:
        """Replace the points (and optionally the title or the empty-chart text)."""
        if empty_text is not None:
            self.empty_text = empty_text
        if title is not None:
            self.title = title
        self.series = tuple((str(k), v) for k, v in series)

    def lines(self, width: int | None = None, height: int | None = None) -> list[list[Piece]]:
        size = self.content_size
        return render_bar_chart(
            self.series,
            size.width if width is None else width,
            size.height if height is None else height,
            title=self.title,
            noun=self.noun,
            aggregate=self.aggregate,
            empty_text=self.empty_text,
        )

    def render(self) -> Text:
        styles = {
            role: self.get_component_rich_style(f"barchart--{role}", partial=True)
            for role in ("title", "note", "axis", "label", "bar", "peak", "empty")
        }
        text = Text(no_wrap=True, overflow="crop", end="")
        for index, line in enumerate(self.lines()):
            if index:
                text.append("\n")
            for piece, role in line:
                text.append(piece, styles.get(role))
        return text
