"""A ≥100,000-record report revisited after its freshness window: stored rows to the screen vs a cold run.

Setup as bench_reports.py: the simulator in its own process (`--scale 100
--latency 50`), `fulfillment` over the last 16 days (~101,000 records, pages
of 2,500), a page cache on disk. Each round:

* cold: every page from the server (6 at a time), its columns encoded for the
  grid's stores and appended, as the results screen does on a first run;
* revisit: every stored page read back (`stored_only`, no request), packed, and
  all of them encoded into new stores at once and put in the grid: what the
  results screen shows before it asks for the fresh pages behind;
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
    from flextui.api.reports import Repeats, ReportsService
    from flextui.render.reports import RowPacker, grid_columns
    from flextui.render.table import GridModel
    from flextui.ui.screens.reports.results import Gathered, encoded_for

    ctx = make_context(url)
    try:
        service = ReportsService(ctx.session)
        rtype = await service.report_type(GROUP)
        filters = FilterSet.build(past_days=days, limit_records=2500)
        packer = RowPacker(rtype.column_names)

        async def cold_run() -> tuple[float, int]:
            model = GridModel(grid_columns(rtype.column_names, rtype))
            started = time.perf_counter()
            async with service.pager(GROUP, filters, force=True, concurrency=6) as pages:
                async for page in pages:
                    model.append_rows(await asyncio.to_thread(model.encode_columns, packer.columns(page.rows)))
            return time.perf_counter() - started, model.total_count

        async def revisit_run() -> tuple[float, int]:
            model = GridModel(grid_columns(rtype.column_names, rtype))
            started = time.perf_counter()
            gathered = Gathered(Repeats(GROUP))
            async with service.pager(GROUP, filters, stored_only=True, concurrency=1) as pages:
                async for page in pages:
                    gathered.add(packer.columns(page.rows))
            model.append_rows(await asyncio.to_thread(encoded_for, model, gathered.columns, fresh=True))
            return time.perf_counter() - started, model.total_count

        cold, count = await cold_run()
        ctx.session.fresh_seconds = 0.0  # the stored pages are past their freshness window
        revisit, again = await revisit_run()
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
