"""A ≥100,000-record report revisited after its freshness window: stored rows to the screen vs a cold run.

Setup as bench_reports.py: the simulator in its own process (`--scale 100
--latency 50`), `fulfillment` over the last 16 days (~101,000 records, pages
of 2,500), a page cache on disk. Each round:

* cold: every page from the server (6 at a time), its columns encoded for the
  grid's stores and appended, as the results screen does on a first run;
* revisit: every stored page read back (`stored_only`, no request), packed, and
  all of them encoded into new stores at once and put in the grid: what the
  results screen shows before it asks for the fresh pages behind;
* keeping: the grid's columns written (`kept.keep_parts`) and kept beside the
  pages (`keep_view`), as the results screen does after a run, in the background;
* kept revisit: those columns read back (`stored_view`, `KeptRun.read`) and
  put in a new grid model: what a revisit does first now (the pages when
  nothing is kept);
* before 11-24 a stale revisit read the stored pages, threw them away and
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reports import GROUP, make_context, start_sim, warm  # noqa: E402


async def one_round(url: str, days: int) -> tuple[float, float, int, float, float]:
    from flextui.api.filters import FilterSet
    from flextui.api.reports import Repeats, ReportsService
    from flextui.render.reports import RowPacker, grid_columns
    from flextui.render.table import GridModel
    from flextui.ui.screens.reports.kept import KeptRun, keep_parts
    from flextui.ui.screens.reports.results import Gathered, encoded_for

    ctx = make_context(url)
    try:
        service = ReportsService(ctx.session)
        rtype = await service.report_type(GROUP)
        filters = FilterSet.build(past_days=days, limit_records=2500)
        packer = RowPacker(rtype.column_names)
        last_model: list[GridModel] = []

        async def cold_run() -> tuple[float, int]:
            model = GridModel(grid_columns(rtype.column_names, rtype))
            started = time.perf_counter()
            async with service.pager(GROUP, filters, force=True, concurrency=6) as pager:
                async for page in pager:
                    model.append_rows(await asyncio.to_thread(model.encode_columns, packer.columns(page.rows)))
                    pages[0] = max(pages[0], page.number)
            last_model.append(model)
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

        async def keep(model: GridModel) -> float:
            started = time.perf_counter()
            stores = [model.rows.column(i) for i in range(len(model.columns))]
            names = [c.name for c in model.columns]
            made = keep_parts(
                stores,
                model.total_count,
                names=names,
                received=model.total_count,
                pages=pages[0],
                total=model.total_count,
                total_pages=pages[0],
                state="done",
                resume_at=[pages[0] + 1, 0],
                dropped=0,
            )
            size = [0]

            def counted() -> Any:
                for part in made:
                    size[0] += len(part)
                    yield part

            sources = await service.view_sources(GROUP, filters, pages[0])
            assert sources is not None, "the pages are stored"
            kept = await service.keep_view(GROUP, filters, max_records=None, sources=sources, names=names, parts=counted())
            assert kept, "the view was not kept"
            sizes.append(size[0])
            return time.perf_counter() - started

        async def kept_run() -> tuple[float, int]:
            model = GridModel(grid_columns(rtype.column_names, rtype))
            started = time.perf_counter()
            parts, _age = await service.stored_view(GROUP, filters, max_records=None)
            kept = await asyncio.to_thread(KeptRun.read, parts, GROUP, list(rtype.column_names))
            model.append_rows(model.encoded_stores(kept.stores, kept.count))
            return time.perf_counter() - started, model.total_count

        pages = [0]
        sizes: list[int] = []
        cold, count = await cold_run()
        ctx.session.fresh_seconds = 0.0  # the stored pages are past their freshness window
        revisit, again = await revisit_run()
        assert again == count, (again, count)
        keeping = await keep(last_model[-1])
        from_kept, again = await kept_run()
        assert again == count, (again, count)
        print(f"  kept: {sizes[-1]:,} bytes for {count:,} rows")
        return cold, revisit, count, keeping, from_kept
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
    keeping = [r[3] for r in rounds]
    kept = [r[4] for r in rounds]
    print(f"keeping the grid's columns:  median {statistics.median(keeping):6.2f} s   runs: {', '.join(f'{v:.2f}' for v in keeping)}")
    print(f"revisit, kept columns shown: median {statistics.median(kept):6.2f} s   runs: {', '.join(f'{v:.2f}' for v in kept)}")


if __name__ == "__main__":
    main()
