"""Benchmarks for issue 3 (registry): paging 2,000 projects, and 50,000 download-log entries plotted.

1. Projects (scale 100: 2,001 projects, 50 a page). The projects screen runs
   headless (`App.run_test`, 120x40). "Request return → first page on screen"
   starts when the session reports the list request finished and stops when
   the table paints its first row (`render_line`), so it covers parsing,
   filling the table and painting. Paging forward measures `]` to the next
   page painted (one in-process request each); paging back within the
   freshness window must send no request (`session.requests_sent`).
2. Download log (scale 100: 50,000 entries over 400 days). Fetch time with
   `iter_downloads` (page size 1000), then the per-day series (400 days) and
   the chart drawing (`render_bar_chart`, 120x12), each alone; finally the
   whole download screen streaming the 50,000 rows into its grid, chart and
   top-artifacts table.

The simulator runs in-process with no added latency, so request times here
are the client's and the simulator's CPU only; a real server adds its RTT
per page. Median of several runs.

Run: python bench/bench_registry.py [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FIXED_NOW_MS = int(datetime(2026, 11, 2, 10, 0, tzinfo=UTC).timestamp() * 1000)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


# -- 1. projects -----------------------------------------------------------------------------------------


async def projects_run() -> dict[str, Any]:
    from flextui.context import demo_context
    from flextui.ui.app import FlexApp
    from flextui.ui.screens.registry.projects import ProjectsScreen
    from flextui.ui.widgets.table import ResourceTable

    ctx = demo_context(scale=100, fixed_now_ms=FIXED_NOW_MS)
    ctx.start = ["projects"]
    app = FlexApp(ctx)
    marks: dict[str, float] = {}

    def on_request(event: Any) -> None:
        if event.in_flight == 0:
            marks["returned"] = time.perf_counter()

    ctx.session.listeners.append(on_request)
    first_page = float("nan")
    forward: list[float] = []
    back: list[float] = []
    original = ResourceTable.render_line

    def render_line(table: Any, y: int) -> Any:  # the first paint of a row after new data
        if "painted" not in marks and table.row_count and table.id == "projects-table":
            marks["painted"] = time.perf_counter()
        return original(table, y)

    ResourceTable.render_line = render_line  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ProjectsScreen)
        table = screen.query_one(ResourceTable)
        deadline = time.perf_counter() + 30
        while "painted" not in marks and time.perf_counter() < deadline:
            await pilot.pause(0.001)
        first_page = marks["painted"] - marks["returned"]
        pages = -(-(screen.total or 0) // screen.page_size)
        for _ in range(pages - 1):
            marks.pop("painted", None)
            before = screen.page
            t0 = time.perf_counter()
            screen.action_page(1)
            while "painted" not in marks or screen.page == before or table.rows_all[0]["project"] not in screen.projects:
                await pilot.pause(0.001)
            await app.workers.wait_for_complete()
            forward.append(time.perf_counter() - t0)
        last_page = screen.page
        sent = ctx.session.requests_sent
        for _ in range(pages - 1):
            marks.pop("painted", None)
            t0 = time.perf_counter()
            screen.action_page(-1)
            await app.workers.wait_for_complete()
            while "painted" not in marks:
                await pilot.pause(0.001)
            back.append(time.perf_counter() - t0)
        revisit_requests = ctx.session.requests_sent - sent
        auths = ctx.extras["registry"].auth.authentications
        total = screen.total
    ResourceTable.render_line = original  # type: ignore[method-assign]
    await ctx.aclose()
    return {
        "first": first_page,
        "forward": statistics.median(forward),
        "back": statistics.median(back),
        "pages": last_page,
        "total": total,
        "revisit_requests": revisit_requests,
        "auths": auths,
    }


# -- 2. downloads ---------------------------------------------------------------------------------------------


async def downloads_run() -> dict[str, Any]:
    from flextui.context import demo_context, registry_for
    from flextui.ui.screens.registry.downloads import per_day_series
    from flextui.ui.widgets.chart import render_bar_chart

    ctx = demo_context(scale=100, fixed_now_ms=FIXED_NOW_MS)
    registry = registry_for(ctx)
    end = datetime.fromtimestamp(FIXED_NOW_MS / 1000, tz=UTC).date()
    start = end - timedelta(days=400)  # the log spans the 400 days before now: 401 calendar days
    registry_store_warm(ctx)
    t0 = time.perf_counter()
    entries = [d async for items in registry.iter_downloads(start, end, page_size=1000) for d in items]
    fetch = time.perf_counter() - t0
    t0 = time.perf_counter()
    counts: Counter[date] = Counter(d.timestamp.astimezone(UTC).date() for d in entries if d.timestamp)
    series = per_day_series(counts, start, end)
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    lines = render_bar_chart(series, 120, 12, title="Downloads per day", noun="days")
    draw = time.perf_counter() - t0
    assert len(lines) == 12 and sum(v for _, v in series) == len(entries)
    await ctx.aclose()
    return {"entries": len(entries), "fetch": fetch, "series": build, "draw": draw, "requests": ctx.session.requests_sent}


def registry_store_warm(ctx: Any) -> None:
    """Generate the simulator's log before timing (it is built lazily on the first request)."""
    from flextui.sim.registry import registry_store

    registry_store(ctx.extras["world"]).downloads(2026, None)


async def downloads_screen_run() -> dict[str, Any]:
    from textual.widgets import Input

    from flextui.context import demo_context
    from flextui.ui.app import FlexApp
    from flextui.ui.screens.registry.downloads import DownloadsScreen
    from flextui.ui.widgets.grid import DataGrid

    ctx = demo_context(scale=100, fixed_now_ms=FIXED_NOW_MS)
    registry_store_warm(ctx)
    ctx.start = ["downloads"]
    app = FlexApp(ctx)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, DownloadsScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        end = datetime.fromtimestamp(FIXED_NOW_MS / 1000, tz=UTC).date()
        screen.query_one("#dl-from", Input).value = (end - timedelta(days=400)).isoformat()
        await pilot.pause()
        t0 = time.perf_counter()
        screen.action_load()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        elapsed = time.perf_counter() - t0
        loaded = screen.query_one(DataGrid).total_count
        t0 = time.perf_counter()
        screen.apply_filter("charts")
        await pilot.pause()
        refilter = time.perf_counter() - t0
        filtered = screen.query_one(DataGrid).row_count
    await ctx.aclose()
    return {"loaded": loaded, "screen": elapsed, "filter": refilter, "filtered": filtered}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    projects = [asyncio.run(projects_run()) for _ in range(args.runs)]
    downloads = [asyncio.run(downloads_run()) for _ in range(args.runs)]
    screens = [asyncio.run(downloads_screen_run()) for _ in range(max(1, args.runs // 2 + 1))]

    def med(rows: list[dict[str, Any]], key: str) -> float:
        return statistics.median(r[key] for r in rows)

    p, d, s = projects[0], downloads[0], screens[0]
    table = [
        ("projects (scale 100)", f"{p['total']:,} projects, {p['pages']} pages of 50", ""),
        ("  request return → first page painted", ms(med(projects, "first")), "target ≤ 300 ms"),
        ("  next page (] → painted, 1 request)", ms(med(projects, "forward")), "median over pages"),
        (
            "  previous page, cached (within freshness)",
            ms(med(projects, "back")),
            f"requests sent: {max(r['revisit_requests'] for r in projects)}",
        ),
        ("  authentications per run", str(max(r["auths"] for r in projects)), "JWT reused"),
        ("download log (scale 100)", f"{d['entries']:,} entries, 401 days", f"{d['requests']} requests of ≤1000"),
        ("  fetch (iter_downloads)", ms(med(downloads, "fetch")), "in-process simulator"),
        ("  per-day series (401 days)", ms(med(downloads, "series")), ""),
        ("  chart drawing 120x12", ms(med(downloads, "draw")), "render_bar_chart"),
        ("  download screen: stream into grid + chart + top", ms(med(screens, "screen")), f"{s['loaded']:,} rows"),
        ("  '/' filter → grid, chart and top redone", ms(med(screens, "filter")), f"{s['filtered']:,} rows match"),
    ]
    width = max(len(r[0]) for r in table)
    print(f"registry benchmarks, median of {args.runs} runs (screen runs: {len(screens)})")
    print(f"{'measure':<{width}}  {'value':>16}  note")
    print("-" * (width + 40))
    for name, value, note in table:
        print(f"{name:<{width}}  {value:>16}  {note}")


if __name__ == "__main__":
    main()
