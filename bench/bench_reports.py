"""Benchmark for issue 4: a ≥100,000-record report from Run to browsable rows, tools, export, fetch.

Setup: the simulator runs in its own process (`flextui sim --scale 100
--latency 50`), as a real service would, so the app's memory and CPU are the
app's own. The report is `fulfillment` (21 columns) over the last 16 days:
~101,000 records at scale 100, pages of 2,500, fetched 6 at a time.

Each UI run is a fresh process (so its peak RSS is its own) driving the real
screens headless (`App.run_test`, 120x40) through the builder's Run key:

* first rows on screen: from the moment the first page is handed to the
  screen until the grid paints its first data line (target ≤ 0.5 s);
  also from the Run key to that paint (includes the first request);
* all rows browsable: Run key → the last page is in the grid;
* sort: `]` on productName over all rows: key handler start → repainted;
* cursor at the end: `end` then `up` keys on the last rows: handler start →
  repainted (target ≤ 100 ms), median and worst;
* export: the 100k-row view to CSV through the export dialog (thread);
* peak RSS of the process (target ≤ 300 MB).

Fetch: the same report through the pager, sequential (concurrency 1) vs
concurrent (6), at 50 ms simulated latency, cache bypassed (target ≥ 3×).

Run: python bench/bench_reports.py [--runs 3] [--days 16]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch import scratch_dir  # noqa: E402

GROUP = "fulfillment"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_sim(scale: str, latency: float) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "flextui", "sim", "--port", str(port), "--scale", scale, "--latency", str(latency)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the simulator did not start")


def make_context(url: str) -> Any:
    """A profile on the simulator with a page cache on disk (as the app has), in a fresh temporary folder."""
    from flextui.api.auth import Credentials
    from flextui.api.cache import PageCache
    from flextui.config import Profile, Settings
    from flextui.context import profile_context
    from flextui.sim.world import ADMIN

    profile = Profile(name="bench", url=url, user=ADMIN[0])
    cache = PageCache(Path(scratch_dir("bench-cache-")) / "pages.sqlite3")
    return profile_context(profile, Credentials(ADMIN[0], ADMIN[1]), Settings(), cache=cache)


async def warm(url: str, days: int) -> int:
    """Build the simulator's report tables (lazy) and return the record count."""
    from flextui.api.filters import FilterSet
    from flextui.api.reports import ReportsService

    ctx = make_context(url)
    try:
        page = await ReportsService(ctx.session).fetch_page(GROUP, FilterSet.build(past_days=days, limit_records=1), force=True)
        return page.total_records or 0
    finally:
        await ctx.aclose()


# -- one UI run (in a child process) -----------------------------------------------------------


async def fill_builder(pilot: Any, days: int) -> None:
    """Wait for the report builder's data model, then ask for the last `days` days, every record."""
    app = pilot.app
    while not app.screen.query("#rb-past") or getattr(app.screen, "rtype", None) is None:
        await pilot.pause(0.02)
    app.screen.query_one("#rb-past").value = str(days)
    app.screen.query_one("#rb-max").value = ""
    await pilot.pause()


async def ui_run(url: str, days: int) -> dict[str, float]:
    from flextui.render.reports import RowPacker
    from flextui.ui.app import FlexApp
    from flextui.ui.screens.reports.results import ReportResultsScreen
    from flextui.ui.widgets.grid import DataGrid

    marks: dict[str, float] = {}
    renders: list[float] = []
    original_columns = RowPacker.columns
    original_render = DataGrid.render_line

    def columns(self: RowPacker, rows: Any) -> Any:  # the screen's first step with a page the pager handed over
        marks.setdefault("first_page", time.perf_counter())
        return original_columns(self, rows)

    def render_line(self: DataGrid, y: int) -> Any:
        if self.id == "rr-grid" and y >= 1 and self.row_count:
            now = time.perf_counter()
            marks.setdefault("first_paint", now)
            renders.append(now)
        return original_render(self, y)

    RowPacker.columns = columns  # type: ignore[method-assign]
    DataGrid.render_line = render_line  # type: ignore[method-assign]

    def next_paint_after(t: float) -> float:
        later = [r for r in renders if r >= t]
        return (later[0] - t) if later else float("nan")

    ctx = make_context(url)
    ctx.start = ["reports", GROUP]
    app = FlexApp(ctx)
    out: dict[str, float] = {}
    folder = scratch_dir("bench-reports-")
    os.chdir(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await fill_builder(pilot, days)
        t_run = time.perf_counter()
        await pilot.press("ctrl+g")
        while not isinstance(app.screen, ReportResultsScreen) or app.screen.state == "loading":
            await pilot.pause(0.01)
        t_done = time.perf_counter()
        screen: ReportResultsScreen = app.screen  # type: ignore[assignment]
        grid = screen.query_one("#rr-grid", DataGrid)
        out["records"] = grid.total_count
        out["columns"] = len(grid.model.columns)
        out["first rows on screen after first page"] = marks["first_paint"] - marks["first_page"]
        out["Run key to first rows on screen"] = marks["first_paint"] - t_run
        out["Run key to all rows browsable"] = t_done - t_run
        await pilot.pause(0.3)

        # sort by productName (descending: `]`), key handler → repaint
        grid.move_cursor(column=[c.name for c in grid.columns].index("productName"))
        await pilot.pause(0.1)
        times: dict[str, float] = {}
        original_sort = grid.action_sort_descending

        def timed_sort() -> None:
            times["sort"] = time.perf_counter()
            original_sort()

        grid.action_sort_descending = timed_sort  # type: ignore[method-assign]
        await pilot.press("right_curly_bracket")
        await pilot.pause(0.2)
        out["sort 1 column (key → repainted)"] = next_paint_after(times["sort"])

        # cursor keys at the end of 100k rows
        original_last, original_up = grid.action_last_row, grid.action_cursor_up
        starts: list[float] = []

        def last_row() -> None:
            starts.append(time.perf_counter())
            original_last()

        def cursor_up() -> None:
            starts.append(time.perf_counter())
            original_up()

        grid.action_last_row = last_row  # type: ignore[method-assign]
        grid.action_cursor_up = cursor_up  # type: ignore[method-assign]
        key_times = []
        wall = []
        for key in ["end"] + ["up"] * 10:
            w = time.perf_counter()
            await pilot.press(key)
            wall.append(time.perf_counter() - w)
            await pilot.pause(0.05)
            key_times.append(next_paint_after(starts[-1]))
        assert grid.cursor_row == grid.row_count - 11
        out["cursor key at the end (key → repainted), median"] = statistics.median(key_times)
        out["cursor key at the end (key → repainted), worst"] = max(key_times)
        out["cursor key at the end (Pilot press, incl. its polling)"] = statistics.median(wall)

        # export the view (all rows) to CSV through the dialog
        await pilot.press("ctrl+s")
        await pilot.pause(0.2)
        t_export = time.perf_counter()
        await pilot.press("enter")
        while "Exported" not in screen.status.info:
            await pilot.pause(0.02)
        out["export CSV (dialog enter → written)"] = time.perf_counter() - t_export
        path = next(Path(folder).glob("*.csv"))
        out["export size MB"] = path.stat().st_size / 1e6
        path.unlink()
    out["peak RSS MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    await ctx.aclose()
    return out


# -- fetch: sequential vs concurrent ---------------------------------------------------------------


async def fetch_run(url: str, days: int, concurrency: int) -> tuple[float, int]:
    from flextui.api.filters import FilterSet
    from flextui.api.reports import ReportsService

    ctx = make_context(url)
    try:
        fs = FilterSet.build(past_days=days, limit_records=2500)
        service = ReportsService(ctx.session)
        started = time.perf_counter()
        count = 0
        async with service.pager(GROUP, fs, concurrency=concurrency, force=True) as pages:
            async for page in pages:
                count += len(page.rows)
        return time.perf_counter() - started, count
    finally:
        await ctx.aclose()


def child(args: argparse.Namespace) -> None:
    if args.child == "ui":
        result = asyncio.run(ui_run(args.url, args.days))
    else:
        seconds, count = asyncio.run(fetch_run(args.url, args.days, int(args.child.split("-")[1])))
        result = {"seconds": seconds, "records": count}
    print(json.dumps(result))


def run_child(kind: str, url: str, days: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--url", url, "--days", str(days)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{kind} run failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--days", type=int, default=16)
    parser.add_argument("--scale", default="100")
    parser.add_argument("--latency", type=float, default=50.0)
    parser.add_argument("--child")
    parser.add_argument("--url")
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    proc, url = start_sim(args.scale, args.latency)
    try:
        total = asyncio.run(warm(url, args.days))
        print(
            f"{GROUP}, last {args.days} days, scale {args.scale}: {total:,} records; simulator in its own process, "
            f"{args.latency:g} ms latency per request; pages of 2,500; median of {args.runs} runs (each a fresh process)\n"
        )
        ui = [run_child("ui", url, args.days) for _ in range(args.runs)]
        seq, conc = [], []
        for _ in range(args.runs):
            conc.append(run_child("fetch-6", url, args.days))
            seq.append(run_child("fetch-1", url, args.days))
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    targets = {
        "first rows on screen after first page": ("≤ 0.5 s", 0.5),
        "cursor key at the end (key → repainted), median": ("≤ 100 ms", 0.1),
        "cursor key at the end (key → repainted), worst": ("≤ 100 ms", 0.1),
        "peak RSS MB": ("≤ 300 MB", 300),
    }
    print(f"{'measure':52} {'median':>12} {'min':>10} {'max':>10}  target")
    print("-" * 100)
    for key in ui[0]:
        values = [r[key] for r in ui]
        med = statistics.median(values)
        if key in ("records", "columns"):
            print(f"{key:52} {med:>12,.0f}")
            continue
        if key.endswith("MB"):
            fmt = lambda v: f"{v:,.1f} MB"  # noqa: E731
        elif key.startswith(("cursor", "sort")):  # ms
            fmt = lambda v: f"{v * 1000:,.1f} ms"  # noqa: E731
        else:
            fmt = lambda v: f"{v:,.2f} s"  # noqa: E731
        target, limit = targets.get(key, ("", None))
        verdict = "" if limit is None else ("  ok" if med <= limit and max(values) <= limit * 1.5 else "  MISSED")
        print(f"{key:52} {fmt(med):>12} {fmt(min(values)):>10} {fmt(max(values)):>10}  {target}{verdict}")
    s = statistics.median(r["seconds"] for r in seq)
    c = statistics.median(r["seconds"] for r in conc)
    print(
        f"{'fetch sequential (concurrency 1)':52} {s:>10,.2f} s {min(r['seconds'] for r in seq):>8,.2f} s "
        f"{max(r['seconds'] for r in seq):>8,.2f} s"
    )
    print(
        f"{'fetch concurrent (concurrency 6)':52} {c:>10,.2f} s {min(r['seconds'] for r in conc):>8,.2f} s "
        f"{max(r['seconds'] for r in conc):>8,.2f} s"
    )
    speedup = s / c
    print(f"{'speed-up':52} {speedup:>11,.1f}×{'':22}  ≥ 3×{'  ok' if speedup >= 3 else '  MISSED'}")


if __name__ == "__main__":
    main()
