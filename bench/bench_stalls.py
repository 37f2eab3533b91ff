"""Event-loop stalls while a ~100k-record report streams into the results grid (issue 12: key latency p95 ≤ 50 ms).

A key typed while pages arrive waits for whatever holds the event loop at that moment, so the
loop's stalls bound the key latency: a sampler task asks to wake every 5 ms and records how
late it wakes, from the Run key until the last page is in the grid. Reported per run: the
stalls' p50, p95 and worst, and how long the load took. The simulator runs in its own process
(`flextui sim --scale 100 --latency 20`), the app headless at 120×40, each run a fresh process
with byte-code caches (as an installed package has; one uncounted warm-up run writes them: the
modules the results screen imports on the Run key were otherwise compiled inside the window).

Run: python bench/bench_stalls.py [--runs 3] [--days 16]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_reports import GROUP, fill_builder, make_context, start_sim, warm  # noqa: E402

from bench.scratch import scratch_dir  # noqa: E402

TICK = 0.005


async def run(url: str, days: int) -> dict[str, float]:
    from flextui.ui.app import FlexApp
    from flextui.ui.screens.reports.results import ReportResultsScreen

    ctx = make_context(url)
    ctx.start = ["reports", GROUP]
    app = FlexApp(ctx)
    os.chdir(scratch_dir("bench-stalls-"))
    lags: list[float] = []
    sampling = True

    async def sampler() -> None:
        loop = asyncio.get_running_loop()
        while sampling:
            start = loop.time()
            await asyncio.sleep(TICK)
            lags.append(loop.time() - start - TICK)

    async with app.run_test(size=(120, 40)) as pilot:
        await fill_builder(pilot, days)
        task = asyncio.create_task(sampler())
        started, cpu = time.perf_counter(), time.process_time()
        await pilot.press("ctrl+g")
        while not isinstance(app.screen, ReportResultsScreen) or app.screen.state == "loading":
            await asyncio.sleep(0.01)
        took, cpu = time.perf_counter() - started, time.process_time() - cpu
        sampling = False
        await task
        records = app.screen.loaded
    await ctx.aclose()
    ordered = sorted(lags)
    return {
        "records": records,
        "load s": took,
        "cpu s": cpu,
        "stall p50 ms": statistics.median(ordered) * 1000,
        "stall p95 ms": ordered[int(len(ordered) * 0.95)] * 1000,
        "stall worst ms": ordered[-1] * 1000,
        "samples": len(ordered),
    }


def child_run(url: str, days: int) -> dict[str, Any] | None:
    """One measured load in a fresh process, with byte-code caches as an installed package has; None if it failed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, __file__, "--child", "ui", "--url", url, "--days", str(days)], capture_output=True, text=True, check=False, env=env
    )
    if done.returncode != 0:
        print(done.stderr[-2000:])
        return None
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--days", type=int, default=16)
    parser.add_argument("--child")
    parser.add_argument("--url")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(run(args.url, args.days))))
        return
    proc, url = start_sim("100", 20)
    try:
        asyncio.run(warm(url, args.days))
        results: list[dict[str, Any]] = []
        for round_ in range(args.runs + 1):
            got = child_run(url, args.days)
            if round_ > 0 and got is not None:  # round 0, the warm-up, writes the byte-code caches an editable install lacks
                results.append(got)
        print(f"{args.runs} runs, load average {os.getloadavg()[0]:.2f}")
        print("| measure | median | runs |")
        print("|---|---|---|")
        for key in results[0]:
            values = [r[key] for r in results]
            print(f"| {key} | {statistics.median(values):,.1f} | {', '.join(f'{v:,.1f}' for v in values)} |")
    finally:
        proc.kill()


if __name__ == "__main__":
    main()
