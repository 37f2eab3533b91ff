"""100k report rows: flextui's Run key → every row browsable, against VisiData opening the same rows as CSV (issue 12).

Issue 12's row "100k rows: run key → all rows browsable" names VisiData loading the same rows
from a CSV file as the peer (goal ≤ 2×). Both are measured in the same rounds, interleaved:

- flextui: the results screen from the Run key until the last page is in the grid, in a fresh
  process against a simulator process (`--scale 100 --latency 20`, the last 16 days of
  `fulfillment`, pages of 2,500, 6 at a time), the app headless at 120×40 (the measurement of
  `bench_stalls.py`, whose child this runs);
- VisiData: `vd rows.csv` in a private tmux server at 120×40 from launch until its status line
  says the file's row count with nothing left loading (tmux polled every 10 ms). The CSV is
  flextui's headless export of the same report, written once before the rounds.

VisiData reads a local file: no network, no paging, no cache. flextui's number includes the
requests (latency 20 ms each), decoding, the page cache and the grid. So a third contender
measures the wire's floor in the same rounds: a plain httpx script, in a fresh process, that
asks for the same pages the same way (the first, then the rest 6 at a time) and decodes each
with orjson, keeping nothing: what any client of this server pays before it shows a row.
Needs tmux and VisiData (`--vd PATH`, default `vd` on PATH).

    python bench/bench_browsable.py [--rounds 3] [--days 16] [--vd PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_reports import GROUP, start_sim, warm  # noqa: E402
from bench_stalls import child_run  # noqa: E402

from bench.scratch import scratch_dir  # noqa: E402

SOCKET = "flextui-bench-browsable"


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, check=False).stdout


def visidata_load(vd: str, csv_path: Path, rows: int, timeout: float = 120.0) -> float:
    """Seconds from launching VisiData on `csv_path` until its status line says `rows` rows, loading done."""
    done = re.compile(rf"\b{rows} rows\b")
    tmux("kill-server")
    started = time.perf_counter()
    tmux("new-session", "-d", "-s", "v", "-x", "120", "-y", "40", f"TERM=xterm-256color {vd} {csv_path}")
    try:
        while time.perf_counter() - started < timeout:
            screen = tmux("capture-pane", "-p", "-t", "v")
            last = screen.rstrip().splitlines()[-1] if screen.strip() else ""
            if done.search(last) and "loading" not in last:
                return time.perf_counter() - started
            time.sleep(0.01)
        raise SystemExit(f"VisiData never said {rows} rows:\n{screen}")
    finally:
        tmux("kill-server")


FLOOR = r"""
import asyncio, json, sys, time
import httpx, orjson
sys.path.insert(0, sys.argv[3])
from flextui.api.filters import FilterSet
from flextui.sim.world import ADMIN

URL, DAYS = sys.argv[1], int(sys.argv[2])
PATH = "/data/api/v1/report/" + sys.argv[4]


async def main() -> None:
    filters = FilterSet.build(past_days=DAYS, limit_records=2500)
    started = time.perf_counter()
    async with httpx.AsyncClient(base_url=URL, auth=ADMIN, timeout=60) as client:
        first = orjson.loads((await client.get(PATH, params=filters.query_params(1))).content)
        gate = asyncio.Semaphore(6)

        async def fetch(n: int) -> int:
            async with gate:
                return len(orjson.loads((await client.get(PATH, params=filters.query_params(n))).content)["data"])

        rows = len(first["data"]) + sum(await asyncio.gather(*(fetch(n) for n in range(2, first["header"]["totalPages"] + 1))))
    print(json.dumps({"seconds": time.perf_counter() - started, "records": rows}))


asyncio.run(main())
"""


def floor_load(url: str, days: int, script: Path) -> float:
    """Seconds a plain httpx client takes to fetch and decode every page (a fresh process; its start not counted)."""
    done = subprocess.run([sys.executable, str(script), url, str(days), str(ROOT), GROUP], capture_output=True, text=True, check=True)
    seconds: float = json.loads(done.stdout.strip().splitlines()[-1])["seconds"]
    return seconds


def flextui_load(url: str, days: int) -> dict[str, Any]:
    got = child_run(url, days)
    if got is None:
        raise SystemExit("the flextui run failed")
    return got


def export_csv(url: str, days: int, path: Path) -> int:
    """The same report as CSV (flextui's headless export); its data row count."""
    from flextui.sim.world import ADMIN

    env = {**os.environ, "FLEXTUI_PASSWORD": ADMIN[1], "XDG_CACHE_HOME": scratch_dir("bench-browsable-")}
    with path.open("w", encoding="utf-8", newline="") as out:
        subprocess.run(
            [sys.executable, "-m", "flextui", "--url", url, "--user", ADMIN[0], "report", "run", GROUP,
             "--past-days", str(days), "--limit-records", "2500", "-o", "csv"],
            stdout=out, env=env, check=True,
        )  # fmt: skip
    with path.open(encoding="utf-8", newline="") as fp:
        return sum(1 for _ in csv.reader(fp)) - 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--days", type=int, default=16)
    parser.add_argument("--vd", default=shutil.which("vd") or "vd")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("needs tmux")
    proc, url = start_sim("100", 20)
    try:
        asyncio.run(warm(url, args.days))
        csv_path = Path(scratch_dir("bench-browsable-")) / f"{GROUP}.csv"
        rows = export_csv(url, args.days, csv_path)
        floor_script = csv_path.with_name("floor.py")
        floor_script.write_text(FLOOR)
        flextui_load(url, args.days)  # warm-up: byte-code caches, the simulator's indexes
        visidata_load(args.vd, csv_path, rows)
        floor_load(url, args.days, floor_script)
        flextui_s: list[float] = []
        vd_s: list[float] = []
        floor_s: list[float] = []
        records: list[float] = []
        for _ in range(args.rounds):
            got = flextui_load(url, args.days)
            flextui_s.append(got["load s"])
            records.append(got["records"])
            vd_s.append(visidata_load(args.vd, csv_path, rows))
            floor_s.append(floor_load(url, args.days, floor_script))
        print(
            f"{rows:,} rows in the CSV ({csv_path.stat().st_size / 1e6:.1f} MB); flextui loaded {', '.join(f'{r:,.0f}' for r in records)}"
        )
        print(f"{args.rounds} interleaved rounds, load average {os.getloadavg()[0]:.2f}")
        print("| contender | median | runs |")
        print("|---|---|---|")
        print(
            f"| flextui: Run key → all rows in the grid | {statistics.median(flextui_s):.2f} s | {', '.join(f'{v:.2f}' for v in flextui_s)} |"
        )
        print(f"| VisiData: launch → all rows loaded | {statistics.median(vd_s):.2f} s | {', '.join(f'{v:.2f}' for v in vd_s)} |")
        print(
            f"| the wire's floor: plain httpx + orjson, every page | {statistics.median(floor_s):.2f} s | {', '.join(f'{v:.2f}' for v in floor_s)} |"
        )
        vd, floor = statistics.median(vd_s), statistics.median(floor_s)
        print(f"| ratio flextui / VisiData | {statistics.median(flextui_s) / vd:.2f}× | |")
        print(f"| ratio the floor / VisiData | {floor / vd:.2f}× | |")
        print(f"| ratio flextui / the floor | {statistics.median(flextui_s) / floor:.2f}× | |")
    finally:
        proc.kill()


if __name__ == "__main__":
    main()
