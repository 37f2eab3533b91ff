"""Headless CSV export of a ~100k-record report: `flextui report run … -o csv` against plain httpx (issue 12).

The peer is what a careful script would do with the same service: httpx, the first page
for the count, the other pages 6 at a time, `json.loads`, `csv.writer` in page order. Both
run as fresh processes against one simulator process (`flextui sim --scale 100`), in
interleaved rounds, writing to /dev/null; flextui gets a fresh, empty cache directory each
run (its page cache would otherwise answer the second run). The window is fixed dates (the
last `--days` days and today): the simulator's clock is live, so a "past N days" window would
move during a run (flextui says so and exits 8; the plain script would not notice). Reported: wall time, CPU time
of the process (user + system), the ratio of the medians.

Run: python bench/bench_export.py [--rounds 5] [--days 16] [--latency 20]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_reports import GROUP, start_sim, warm  # noqa: E402

from bench.scratch import scratch_dir  # noqa: E402

PLAIN = r"""
import asyncio, csv, json, sys
import httpx

URL, USER, PASSWORD, FROM, TO = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
PATH = "/data/api/v1/report/" + sys.argv[6]


async def main() -> None:
    params = {"mode": "INTERACTIVE", "dateFrom": FROM, "dateTo": TO, "limitRecords": 2500}
    async with httpx.AsyncClient(base_url=URL, auth=(USER, PASSWORD), timeout=60) as client:
        first = json.loads((await client.get(PATH, params={**params, "pageNumber": 1})).content)
        pages = first["header"]["totalPages"]
        gate = asyncio.Semaphore(6)

        async def fetch(n: int) -> list:
            async with gate:
                return json.loads((await client.get(PATH, params={**params, "pageNumber": n})).content)["data"]

        tasks = [asyncio.create_task(fetch(n)) for n in range(2, pages + 1)]
        writer = None
        count = 0
        for rows in [first["data"]] + tasks:
            rows = rows if isinstance(rows, list) else await rows
            if writer is None:
                writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), extrasaction="ignore")
                writer.writeheader()
            writer.writerows(rows)
            count += len(rows)
        print(count, file=sys.stderr)


asyncio.run(main())
"""


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one child process, and what it said on stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        done = subprocess.run(cmd, stdout=sink, stderr=subprocess.PIPE, env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{cmd[:4]} failed ({done.returncode}): {done.stderr.decode()[-800:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stderr.decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--days", type=int, default=16)
    parser.add_argument("--latency", type=float, default=20.0)
    args = parser.parse_args()

    import asyncio

    from flextui.sim.world import ADMIN

    proc, url = start_sim("100", args.latency)
    try:
        records = asyncio.run(warm(url, args.days))
        plain = Path(scratch_dir("bench-export-")) / "plain.py"
        plain.write_text(PLAIN)
        base_env = {**os.environ, "FLEXTUI_PASSWORD": ADMIN[1], "PYTHONDONTWRITEBYTECODE": "0"}
        today = datetime.now(UTC).date()
        date_from, date_to = (today - timedelta(days=args.days)).isoformat(), (today + timedelta(days=1)).isoformat()
        flextui_cmd = [
            sys.executable, "-m", "flextui", "--url", url, "--user", ADMIN[0], "report", "run", GROUP,
            "--date-from", date_from, "--date-to", date_to, "--limit-records", "2500", "-o", "csv",
        ]  # fmt: skip
        plain_cmd = [sys.executable, str(plain), url, ADMIN[0], ADMIN[1], date_from, date_to, GROUP]
        results: dict[str, list[tuple[float, float]]] = {"flextui": [], "plain httpx": []}
        timed(plain_cmd, base_env)  # warm-up: byte-code, the simulator's page cache of filtered indexes
        for _ in range(args.rounds):
            env = {**base_env, "XDG_CACHE_HOME": scratch_dir("bench-export-cache-")}
            wall, cpu, said = timed(flextui_cmd, env)
            results["flextui"].append((wall, cpu))
            wall, cpu, said = timed(plain_cmd, base_env)
            results["plain httpx"].append((wall, cpu))
        load = os.getloadavg()[0]
        print(f"{records:,} {GROUP} records, {args.rounds} interleaved rounds, latency {args.latency:g} ms, load average {load:.2f}")
        print("| contender | wall (median) | CPU (median) | walls |")
        print("|---|---|---|---|")
        medians = {}
        for name, runs in results.items():
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            medians[name] = (wall, cpu)
            print(f"| {name} | {wall:.2f} s | {cpu:.2f} s | {', '.join(f'{r[0]:.2f}' for r in runs)} |")
        ratio_wall = medians["flextui"][0] / medians["plain httpx"][0]
        ratio_cpu = medians["flextui"][1] / medians["plain httpx"][1]
        print(f"| ratio | {ratio_wall:.2f}× | {ratio_cpu:.2f}× | |")
    finally:
        proc.kill()


if __name__ == "__main__":
    main()
