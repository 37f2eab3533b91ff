"""How fast the simulator answers at scale 100 (the timings the suite used to assert; they belong here, not in tests).

* entitlements: six filtered lists over 5,000+ entitlements (in-process, one round each);
* registry: building 2,000+ projects, then the first download-log read of four years (lazy);
* reports: building the fulfillment and usage tables (100,000+ records a month each),
  then a filtered page 7 of `usage`.

Fresh worlds each round; median of the rounds.

Run: python bench/bench_sim_scale.py [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from flextui.sim.app import SIM_BASE_URL, create_app, in_process_transport  # noqa: E402
from flextui.sim.entitlements import entitlement_store  # noqa: E402
from flextui.sim.registry import registry_store  # noqa: E402
from flextui.sim.reports import table_of  # noqa: E402
from flextui.sim.world import ADMIN, Clock, World  # noqa: E402
from tests.conftest import FIXED_NOW_MS, sim_auth  # noqa: E402


async def entitlement_lists() -> float:
    world = World(seed=7, scale=100)
    app = create_app(world)
    store = entitlement_store(world)
    account = next(iter(store.by_account))
    product = world.products[0]
    activation = next(li.activation_id for e in world.entitlements.values() for li in e.line_items)
    async with httpx.AsyncClient(transport=in_process_transport(app), base_url=SIM_BASE_URL, auth=sim_auth(app, ADMIN)) as client:
        started = time.perf_counter()
        for params in (
            {},
            {"accountId": account},
            {"product": product.name, "version": product.version},
            {"status": "deployed"},
            {"activationId": activation},
            {"accountName": "a", "sort_by": "created_on", "page": 3},
        ):
            response = await client.get("/entitlements-api/v1/entitlements", params=params)
            assert response.status_code == 200, response.text
        return time.perf_counter() - started


def registry_build() -> tuple[float, float]:
    started = time.perf_counter()
    store = registry_store(World(seed=7, scale=100, clock=Clock(1_790_000_000_000)))
    built = time.perf_counter() - started
    started = time.perf_counter()
    total = sum(len(store.downloads(y, None)) for y in range(2023, 2027))
    assert total >= 50_000
    return built, time.perf_counter() - started


async def report_tables() -> tuple[float, float]:
    world = World(seed=7, scale=100, clock=Clock(FIXED_NOW_MS))
    assert world.entitlements
    started = time.perf_counter()
    for group in ("fulfillment", "usage"):
        table_of(world, group)
    built = time.perf_counter() - started
    app = create_app(world)
    async with httpx.AsyncClient(transport=in_process_transport(app), base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN)) as client:
        started = time.perf_counter()
        query = json.dumps({"productName": {"$con": "a"}, "meterType": {"$in": ["elastic", "named"]}})
        response = await client.get(
            "/data/api/v1/report/usage",
            params={"pastDays": 30, "limitRecords": 2500, "pageNumber": 7, "mode": "INTERACTIVE", "query": query},
        )
        assert response.status_code == 200
        return built, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows: dict[str, list[float]] = {}
    for _ in range(args.runs):
        rows.setdefault("entitlements: six filtered lists", []).append(asyncio.run(entitlement_lists()))
        built, downloads = registry_build()
        rows.setdefault("registry: build 2,000+ projects", []).append(built)
        rows.setdefault("registry: first 4-year download read", []).append(downloads)
        tables, page = asyncio.run(report_tables())
        rows.setdefault("reports: build fulfillment + usage", []).append(tables)
        rows.setdefault("reports: filtered usage page 7", []).append(page)
    for name, values in rows.items():
        print(f"{name:40} median {statistics.median(values):6.2f} s   runs: {', '.join(f'{v:.2f}' for v in values)}")


if __name__ == "__main__":
    main()
