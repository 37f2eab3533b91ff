"""Benchmark for the DataGrid widget: 100k × 12 rows streamed in 40 pages of 2,500.

Why: the data-report screen streams up to 100k+ rows into the grid, and the
builtin DataTable froze for >10 s at that size (see shared textual notes §4.3).
This script checks the targets from the widget's design: keypress CPU ≪ 100 ms
at any size, sort of 100k ≤ ~0.5 s, process RSS < 300 MB.

Run:  python bench/bench_grid.py [--runs 3] [--rows 100000] [--page 2500]

Everything runs headless through ``App.run_test(size=(120, 40))``.  "cpu" is
``time.process_time()`` of the phase (the real work); "wall" for Pilot phases
includes Pilot's idle polling (≥ 20 ms per pause/press, see notes §3.11), so
CPU is the number to read for keypress cost.  Medians over the runs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import App, ComposeResult  # noqa: E402

from flextui.ui.widgets.grid import DataGrid  # noqa: E402

COLUMNS: list[tuple[str, str]] = [
    ("entitlement", "str"),
    ("product", "str"),
    ("feature", "str"),
    ("qty", "int"),
    ("price", "float"),
    ("active", "bool"),
    ("created", "datetime"),
    ("expires", "date"),
    ("owner", "str"),
    ("status", "str"),
    ("serial", "str"),
    ("notes", "str"),
]


def make_rows(n: int, seed: int = 1) -> list[tuple[Any, ...]]:
    """Realistic-ish rows: ids, words, numbers (some None), bools, datetimes, dates, e-mails."""
    rnd = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
    base = datetime(2025, 1, 1, tzinfo=UTC)
    rows = []
    for i in range(n):
        rows.append(
            (
                f"ENT-{i:07d}",
                rnd.choice(words),
                f"{rnd.choice(words)}-{rnd.choice(words)} feature",
                rnd.randint(1, 10_000),
                rnd.random() * 1000 if i % 17 else None,
                rnd.random() < 0.5,
                base + timedelta(minutes=rnd.randint(0, 525_600)),
                date(2025, 1, 1) + timedelta(days=rnd.randint(0, 700)),
                f"user{rnd.randint(1, 5000)}@example.com",
                rnd.choice(["ACTIVE", "EXPIRED", "PENDING"]),
                str(rnd.randint(10**9, 10**10)),
                "note " * rnd.randint(0, 6),
            )
        )
    return rows


class GridApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DataGrid(COLUMNS, zebra_stripes=True)


async def timed(fn: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    """(wall ms, cpu ms) of an awaitable phase."""
    w0, c0 = time.perf_counter(), time.process_time()
    await fn()
    return (time.perf_counter() - w0) * 1000, (time.process_time() - c0) * 1000


async def one_run(rows: list[tuple[Any, ...]], page: int) -> dict[str, float]:
    out: dict[str, float] = {}
    app = GridApp()
    async with app.run_test(size=(120, 40)) as pilot:
        grid = app.query_one(DataGrid)
        grid.focus()
        await pilot.pause()
        pages = [rows[i : i + page] for i in range(0, len(rows), page)]

        # 1. first page -> first rows painted
        w0, c0 = time.perf_counter(), time.process_time()
        t = time.perf_counter()
        grid.append_rows(pages[0])
        append_ms = [(time.perf_counter() - t) * 1000]
        await pilot.pause()
        out["first paint wall"] = (time.perf_counter() - w0) * 1000
        out["first paint cpu"] = (time.process_time() - c0) * 1000
        assert "ENT-0000000" in grid.render_line(1).text

        # 2. the rest, page by page, yielding to the event loop in between like a real stream
        for chunk in pages[1:]:
            t = time.perf_counter()
            grid.append_rows(chunk)
            append_ms.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0)
        await pilot.pause()
        out["all browsable wall"] = (time.perf_counter() - w0) * 1000
        out["all browsable cpu"] = (time.process_time() - c0) * 1000
        out["append/page median"] = statistics.median(append_ms)
        out["append/page max"] = max(append_ms)
        assert grid.total_count == len(rows)

        # 3. search index, built in idle-time steps (not blocking the UI)
        t = time.perf_counter()
        while not grid.model.search_index_complete:
            await asyncio.sleep(0.02)
        out["search index (bg) wall"] = (time.perf_counter() - t) * 1000

        # 4. end -> last row
        out["end wall"], out["end cpu"] = await timed(lambda: pilot.press("end"))
        assert grid.cursor_row == grid.row_count - 1

        # 5. 10 cursor moves at the end
        w, c = await timed(lambda: pilot.press(*["up"] * 10))
        out["key (up) wall/press"], out["key (up) cpu/press"] = w / 10, c / 10
        w, c = await timed(lambda: pilot.press(*["right"] * 10))
        out["key (right) cpu/press"] = c / 10
        await pilot.press("shift+home", "right")  # cursor to "product"

        # 6. sort by the cursor column ("[") and descending on a number column
        out["sort str ({) wall"], out["sort str ({) cpu"] = await timed(lambda: pilot.press("{"))
        assert grid.model.sort_column is not None and grid.model.sort_column.name == "product"
        out["sort float desc (api) cpu"] = (await timed(_sync(lambda: grid.sort_by("price", True))))[1]
        out["ctrl+end sorted cpu"] = (await timed(lambda: pilot.press("ctrl+end")))[1]

        # 7. filter (free text, then a column comparison)
        out["filter text cpu"] = (await timed(_paused(pilot, lambda: grid.set_filter("gamma"))))[1]
        out["filter col cpu"] = (await timed(_paused(pilot, lambda: grid.set_filter("status=active qty>5000"))))[1]
        out["filtered rows"] = grid.row_count
        grid.set_filter("")
        await pilot.pause()
    return out


def model_only(rows: list[tuple[Any, ...]], page: int) -> dict[str, float]:
    """Costs the UI path hides: a free-text filter before the idle-time index exists,
    and streaming pages into an already *sorted* view (Timsort merge per page)."""
    from flextui.render.table import GridModel

    out: dict[str, float] = {}
    model = GridModel(COLUMNS, rows)
    t = time.perf_counter()
    model.set_filter("gamma")
    out["model: cold text filter"] = (time.perf_counter() - t) * 1000
    model = GridModel(COLUMNS)
    model.append_rows(rows[:page])
    model.sort_by("price")
    times = []
    for i in range(page, len(rows), page):
        t = time.perf_counter()
        model.append_rows(rows[i : i + page])
        times.append((time.perf_counter() - t) * 1000)
    out["model: append/page sorted med"] = statistics.median(times)
    out["model: append/page sorted max"] = max(times)
    return out


def _sync(fn: Callable[[], Any]) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        fn()

    return run


def _paused(pilot: Any, fn: Callable[[], Any]) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        fn()
        await pilot.pause()

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--page", type=int, default=2500)
    args = parser.parse_args()

    t = time.perf_counter()
    rows = make_rows(args.rows)
    gen_ms = (time.perf_counter() - t) * 1000
    rss_data = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    results = [asyncio.run(one_run(rows, args.page)) | model_only(rows, args.page) for _ in range(args.runs)]
    rss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(
        f"DataGrid benchmark: {args.rows:,} rows × {len(COLUMNS)} cols, pages of {args.page:,}, headless 120x40, median of {args.runs} runs"
    )
    print(f"(generating the rows: {gen_ms:,.0f} ms, not included)")
    print(f"{'phase':32} {'median':>10} {'min':>10} {'max':>10}")
    for key in results[0]:
        values = [r[key] for r in results]
        unit = "" if key == "filtered rows" else " ms"
        print(f"{key:32} {statistics.median(values):>8,.1f}{unit:3} {min(values):>8,.1f}{unit:3} {max(values):>8,.1f}{unit:3}")
    print(f"{'peak RSS (process)':32} {rss_peak:>8,.0f} MB   (after generating data: {rss_data:,.0f} MB)")


if __name__ == "__main__":
    main()
