"""A million report rows on a jump host: memory, load, sort, filter, frequency, statistics, keys.

Issue 12 asks for a 30-day report of 1,000,000 records browsable, sortable,
filterable, with frequency and statistics, in ≤ 500 MB peak RSS, keys ≤ 10 ms
and sort ≤ 1 s, and to pick the store by the numbers (today's in-memory model
against a columnar one such as DuckDB). Each contender runs in its own
process (so its peak RSS is its own) over the same rows: 400 JSON pages of
2,500 `fulfillment`-shaped records (21 fields; IDs unique, names and products
from small pools, as real reports are), decoded page by page as the app does.

    python bench/bench_million.py [--rows 1000000] [--contender grid,reopen,duckdb,duckdb-tuned|all] [--runs N]

`grid` ends by keeping its columns as a finished run's are kept (in /tmp/bench-million-kept.sqlite3);
`reopen`, run after it, reopens them as a revisit does.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch import scratch_dir  # noqa: E402

PAGE = 2500
COLUMNS = [
    "fulfillmentID",
    "fulfillDate",
    "activationID",
    "entitlementID",
    "accountID",
    "accountName",
    "productName",
    "productVersion",
    "partNumber",
    "licenseModel",
    "hostID",
    "hostType",
    "quantity",
    "fulfillmentType",
    "status",
    "createdBy",
    "expirationDate",
    "lifeCycle",
    "siteName",
    "orderId",
    "units",
]


def pages(rows: int, seed: int = 7) -> Any:
    """JSON pages (bytes), as the service sends them."""
    rng = random.Random(seed)
    accounts = [(f"10{rng.randrange(10**10):010d}", f"Account {i}") for i in range(400)]
    products = [(f"Product {i}", f"{2020 + i % 6}.{i % 4}") for i in range(60)]
    users = [f"user{i}@example.com" for i in range(300)]
    base = 1_790_000_000_000
    made = 0
    while made < rows:
        batch = []
        for i in range(min(PAGE, rows - made)):
            n = made + i
            account = accounts[rng.randrange(len(accounts))]
            product = products[rng.randrange(len(products))]
            batch.append(
                {
                    "fulfillmentID": f"FID-{n:010d}",
                    "fulfillDate": base + n * 2_500,
                    "activationID": f"ACT-{n:08d}-{rng.randrange(65536):04x}",
                    "entitlementID": f"ENT-{100000 + n // 7}",
                    "accountID": account[0],
                    "accountName": account[1],
                    "productName": product[0],
                    "productVersion": product[1],
                    "partNumber": f"PN-{product[0][-2:]}-{rng.randrange(9)}",
                    "licenseModel": rng.choice(["Perpetual", "Subscription", "Floating", "Node-locked"]),
                    "hostID": f"{rng.randrange(16**12):012x}",
                    "hostType": rng.choice(["VM", "Server", "Container", "Device"]),
                    "quantity": rng.randrange(1, 500),
                    "fulfillmentType": rng.choice(["Activation", "Renewal", "Upgrade"]),
                    "status": rng.choice(["ACTIVE", "INACTIVE", "OBSOLETE"]),
                    "createdBy": users[rng.randrange(len(users))],
                    "expirationDate": "2027-01-01" if rng.random() < 0.5 else None,
                    "lifeCycle": rng.choice(["new", "renewed"]),
                    "siteName": rng.choice(["EMEA", "AMER", "APAC"]),
                    "orderId": f"SO-{rng.randrange(10**6):06d}",
                    "units": rng.random() * 100,
                }
            )
        made += len(batch)
        yield json.dumps({"data": batch}).encode()


def timed(fn: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def run_grid(rows: int) -> dict[str, Any]:
    from flextui.api.wire import loads
    from flextui.render.reports import RowPacker
    from flextui.render.table import Column, GridModel

    typed = {"quantity": "int", "fulfillDate": "int", "units": "float"}
    model = GridModel([Column(c, typed.get(c, "str")) for c in COLUMNS])  # type: ignore[arg-type]
    packer = RowPacker(COLUMNS)
    load = 0.0
    for body in pages(rows):  # as the results screen takes a page: its columns encoded for the stores (there, in a thread)
        start = time.perf_counter()
        model.append_rows(model.encode_columns(packer.columns(loads(body)["data"])))
        load += time.perf_counter() - start
    out: dict[str, Any] = {"rows": len(model), "load (decode + append)": load}
    out["sort by accountName"], _ = timed(lambda: model.sort_by("accountName"))
    keys = []
    for pos in random.Random(1).sample(range(len(model)), 200):
        start = time.perf_counter()
        model.display_cells(pos)
        keys.append(time.perf_counter() - start)
    out["row at a position (p95)"] = sorted(keys)[int(len(keys) * 0.95)]
    out["filter 'Product 7'"], _ = timed(lambda: model.set_filter('"Product 7"'))  # the phrase, as the LIKE below
    out["rows in filter"] = len(model)
    out["filter 'act-0001' (index built)"], _ = timed(lambda: model.set_filter("act-0001"))
    model.set_filter("")
    out["frequency of productName"], _ = timed(lambda: model.frequency("productName"))
    out["statistics of quantity"], _ = timed(lambda: model.column_stats("quantity"))
    out["export CSV, all rows"], grew = timed(lambda: export_all(model))
    out["RSS growth while exporting MB"] = grew
    model.sort_by(None)
    out["peak RSS before keeping MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["keep the grid's columns (write)"], out["kept MB"] = timed(lambda: keep(model))
    return out


KEPT = Path("/tmp/bench-million-kept.sqlite3")
KEPT_PAGES = {f"page-{n}": 1000.0 + n for n in range(1, 401)}


def keep(model: Any) -> float:
    """The grid's columns kept as the results screen keeps a finished run (`kept.keep_parts` → the page cache)."""
    from flextui.api.cache import PageCache
    from flextui.ui.screens.reports.kept import keep_parts

    for suffix in ("", "-wal", "-shm"):
        Path(f"{KEPT}{suffix}").unlink(missing_ok=True)
    cache = PageCache(KEPT)
    for key, stamp in KEPT_PAGES.items():  # stand-ins for the 400 stored pages the rows were made of
        cache.put(key, "bench", "reports.page", {}, stored_at=stamp)
    stores = [model.rows.column(i) for i in range(len(model.columns))]
    parts = keep_parts(
        stores,
        len(model),
        names=COLUMNS,
        received=len(model),
        pages=400,
        total=len(model),
        total_pages=400,
        state="done",
        resume_at=[401, 0],
        dropped=0,
    )
    assert cache.put_derived("run", "bench", KEPT_PAGES, parts), "kept"
    cache.close()
    return KEPT.stat().st_size / 2**20


def run_reopen(rows: int) -> dict[str, Any]:
    """A past million-row run reopened from its kept columns (after `grid`, which keeps them)."""
    from flextui.api.cache import PageCache
    from flextui.render.table import Column, GridModel
    from flextui.ui.screens.reports.kept import KeptRun

    typed = {"quantity": "int", "fulfillDate": "int", "units": "float"}
    model = GridModel([Column(c, typed.get(c, "str")) for c in COLUMNS])  # type: ignore[arg-type]
    cache = PageCache(KEPT)

    def reopen() -> None:
        got = cache.get_derived("run")
        assert got is not None, "kept by the grid contender"
        kept = KeptRun.read(got[0], "fulfillment", COLUMNS)
        model.append_rows(model.encoded_stores(kept.stores, kept.count))

    out: dict[str, Any] = {}
    out["reopen: kept columns to the grid"], _ = timed(reopen)
    out["rows"] = len(model)
    out["sort by accountName"], _ = timed(lambda: model.sort_by("accountName"))
    out["filter 'act-0001' (index built)"], _ = timed(lambda: model.set_filter("act-0001"))
    cache.close()
    return out


def rss_mb() -> float:
    with open("/proc/self/statm") as fp:
        return int(fp.read().split()[1]) * resource.getpagesize() / 2**20


def export_all(model: Any) -> float:
    """The view written as the export screen writes it (`write_snapshot`: 2,000 rows at a time, column by column);
    how far the resident memory rose above where it started, sampled after each chunk."""
    import os

    from flextui.render.export import ExportFile

    rows, ids = model.rows, model.view_ids()
    indexes = [c.index for c in model.visible_columns]
    start = highest = rss_mb()
    path = os.path.join(scratch_dir(), "all.csv")
    with ExportFile(path, "csv", [c.name for c in model.visible_columns]) as writer:
        for first in range(0, len(ids), 2000):
            writer.write(rows.take(ids[first : first + 2000], indexes))
            highest = max(highest, rss_mb())
    os.remove(path)
    return highest - start


def duck_queries(con: Any, count: int, at_position: str, out: dict[str, Any]) -> None:
    """The measures both DuckDB contenders share, over the sorted `view`: rows at a position (`at_position`, with
    {pos} and {end} for a screenful of 40), a filter, a frequency and statistics."""
    keys = []
    for pos in random.Random(1).sample(range(count), 200):
        start = time.perf_counter()
        con.execute(at_position.format(pos=pos, end=pos + 39)).fetchall()
        keys.append(time.perf_counter() - start)
    out["row at a position (p95)"] = sorted(keys)[int(len(keys) * 0.95)]
    out["filter 'Product 7'"], _ = timed(
        lambda: con.execute(
            "CREATE OR REPLACE TABLE filtered AS SELECT * FROM view WHERE productName LIKE '%Product 7%' OR accountName LIKE '%Product 7%'"
        )
    )
    out["rows in filter"] = con.execute("SELECT count(*) FROM filtered").fetchone()[0]
    out["frequency of productName"], _ = timed(
        lambda: con.execute("SELECT productName, count(*) c FROM rows GROUP BY 1 ORDER BY c DESC").fetchall()
    )
    out["statistics of quantity"], _ = timed(
        lambda: con.execute(
            "SELECT min(quantity), max(quantity), avg(quantity), median(quantity), count(DISTINCT quantity) FROM rows"
        ).fetchall()
    )


def run_duckdb(rows: int) -> dict[str, Any]:
    import os

    import duckdb

    tmp = scratch_dir()
    con = duckdb.connect(os.path.join(tmp, "rows.duckdb"))
    load = 0.0
    first = True
    for number, body in enumerate(pages(rows)):
        path = os.path.join(tmp, f"p{number}.json")
        start = time.perf_counter()
        with open(path, "wb") as fp:
            fp.write(body)
        source = f"(SELECT unnest(data, recursive := true) FROM read_json('{path}', maximum_object_size=100000000))"
        con.execute(f"CREATE TABLE rows AS SELECT * FROM {source}" if first else f"INSERT INTO rows SELECT * FROM {source}")
        first = False
        os.remove(path)
        load += time.perf_counter() - start
    count = con.execute("SELECT count(*) FROM rows").fetchone()[0]
    out: dict[str, Any] = {"rows": count, "load (decode + append)": load}
    out["sort by accountName"], _ = timed(lambda: con.execute("CREATE OR REPLACE TABLE view AS SELECT * FROM rows ORDER BY accountName"))
    duck_queries(con, count, "SELECT * FROM view LIMIT 1 OFFSET {pos}", out)
    return out


DUCK_TYPES = {"quantity": "BIGINT", "fulfillDate": "BIGINT", "units": "DOUBLE"}


def run_duckdb_tuned(rows: int, batch: int = 1) -> dict[str, Any]:
    """DuckDB as the app would run it on a jump host: a memory limit (it spills to disk under the cache
    directory), the column types given (no inference per page), insertion order not kept (a report's
    order would be a column), pages spooled and read `batch` at a time. Batches of 8 pages ran out of
    memory under a 400 MB limit (read_json's buffers per file), so a page is read as it comes."""
    import os

    import duckdb

    tmp = scratch_dir()
    con = duckdb.connect(
        os.path.join(tmp, "rows.duckdb"),
        config={"memory_limit": "400MB", "threads": 2, "temp_directory": tmp, "preserve_insertion_order": False},
    )
    struct = ", ".join(f'"{c}" {DUCK_TYPES.get(c, "VARCHAR")}' for c in COLUMNS)
    con.execute(f"CREATE TABLE rows ({struct})")
    spooled: list[str] = []
    load = 0.0

    def ingest() -> None:
        files = ", ".join(f"'{f}'" for f in spooled)
        con.execute(
            f"INSERT INTO rows SELECT unnest(data, recursive := true) FROM read_json([{files}], "
            f"columns={{data: 'STRUCT({struct})[]'}}, maximum_object_size=16000000)"
        )
        for f in spooled:
            os.remove(f)
        spooled.clear()

    for number, body in enumerate(pages(rows)):
        start = time.perf_counter()
        path = os.path.join(tmp, f"p{number}.json")
        with open(path, "wb") as fp:
            fp.write(body)
        spooled.append(path)
        if len(spooled) >= batch:
            ingest()
        load += time.perf_counter() - start
    start = time.perf_counter()
    if spooled:
        ingest()
    load += time.perf_counter() - start
    count = con.execute("SELECT count(*) FROM rows").fetchone()[0]
    out: dict[str, Any] = {"rows": count, "load (decode + append)": load}
    out["sort by accountName"], _ = timed(
        lambda: con.execute(
            "CREATE OR REPLACE TABLE view AS SELECT row_number() OVER () AS pos, * FROM (SELECT * FROM rows ORDER BY accountName)"
        )
    )
    duck_queries(con, count, "SELECT * FROM view WHERE pos BETWEEN {pos} AND {end}", out)  # a screenful
    return out


def child(contender: str, rows: int) -> None:
    result = {"grid": run_grid, "reopen": run_reopen, "duckdb": run_duckdb, "duckdb-tuned": run_duckdb_tuned}[contender](rows)
    result["peak RSS MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


def main(rows: int, contenders: list[str], runs: int) -> None:
    results: dict[str, list[dict[str, Any]]] = {c: [] for c in contenders}
    for _ in range(runs):
        for contender in contenders:
            done = subprocess.run(
                [sys.executable, __file__, "--child", contender, "--rows", str(rows)], capture_output=True, text=True, check=False
            )
            if done.returncode != 0:
                print(f"{contender} failed: {done.stderr[-2000:]}")
                continue
            results[contender].append(json.loads(done.stdout.strip().splitlines()[-1]))
    keys = list(dict.fromkeys(key for runs_of in results.values() for run in runs_of for key in run))
    print(f"{rows:,} rows, median of {runs} fresh process(es) each")
    print("| measure | " + " | ".join(contenders) + " |")
    print("|---|" + "---|" * len(contenders))
    for key in keys:
        cells = []
        for contender in contenders:
            values = [r[key] for r in results[contender] if key in r]
            if not values:
                cells.append("—")
                continue
            value = statistics.median(values)
            if key == "RSS growth while exporting MB":
                cells.append(f"{value:.1f} MB")
            elif "MB" in key:
                cells.append(f"{value:.0f} MB")
            elif key.startswith("rows"):
                cells.append(f"{value:,.0f}")
            else:
                cells.append(f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s")
        print(f"| {key} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--contender", default="all")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rows)
    else:
        chosen = ["grid", "duckdb", "duckdb-tuned"] if args.contender == "all" else args.contender.split(",")
        main(args.rows, chosen, args.runs)
