"""A ≥100,000-record report revisited after its freshness window: stored rows to the screen vs a cold run.

Setup as bench_reports.py: the simulator in its own process (`--scale 100
--latency 50`), `fulfillment` over the last 16 days (~101,000 records, pages
of 2,500), a page cache on disk. Each round:

* cold: every page from the server (6 at a time), packed into grid rows, as
  the results screen does on a first run;
* revisit: every stored page read back (`stored_only`, no request) and packed:
  what the results screen shows before it asks for the fresh pages behind;
* before this change a stale revisit read the stored pages, threw them away and
  awaited the network (the cold time, plus the reading).

Run: python bench/bench_revisit.py [--runs 5] [--days 16]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reports import GROUP, make_context, start_sim, warm  # noqa: E402


async def one_round(url: str, days: int) -> tuple[float, float, int]:
    from flextui.api.filters import FilterSet
    from flextui.api.reports import ReportsService
    from flextui.render.reports import RowPacker

    ctx = make_context(url)
    try:
        service = ReportsService(ctx.session)
        rtype = await service.report_type(GROUP)
        filters = FilterSet.build(past_days=days, limit_records=2500)
        packer = RowPacker(rtype.column_names)

        async def load(**options: object) -> tuple[float, int]:
            started = time.perf_counter()
            count = 0
            async with service.pager(GROUP, filters, **options) as pages:  # type: ignore[arg-type]
                async for page in pages:
                    count += len(packer.pack(page.rows))
            return time.perf_counter() - started, count

        cold, count = await load(force=True, concurrency=6)
        ctx.session.fresh_seconds = 0.0  # the stored pages are past their freshness window
        revisit, again = await load(stored_only=True, concurrency=1)
        assert again == count, (again, count)
        return cold, revisit, count
    finally:
        await ctx.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--days", type=int, default=16)
    args = parser.parse_args()
    proc, url = start_sim("100", 50)
    try:
        records = asyncio.run(warm(url, args.days))
        rounds = [asyncio.run(one_round(url, args.days)) for _ in range(args.runs)]
    finally:
        proc.kill()
    cold = [r[0] for r in rounds]
    revisit = [r[1] for r in rounds]
    print(f"records: {records:,} (rows packed per round: {rounds[0][2]:,})")
    print(f"cold run, all rows:          median {statistics.median(cold):6.2f} s   runs: {', '.join(f'{v:.2f}' for v in cold)}")
    print(f"revisit, stored rows shown:  median {statistics.median(revisit):6.2f} s   runs: {', '.join(f'{v:.2f}' for v in revisit)}")


if __name__ == "__main__":
    main()
