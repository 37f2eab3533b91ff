"""Client CPU per report page: flextui's whole pipeline against plain httpx + a JSON decoder, in one loop.

A 2,500-row `fulfillment` page is taken once from the simulator (its bytes as
the wire carries them), then each contender handles those same bytes many
times over, interleaved round by round so load on the machine hits all alike:

* `httpx + json.loads`: an httpx.Response over the bytes, `.json()` (the floor);
* `httpx + orjson`, `httpx + msgspec`: the same with the faster decoders;
* `httpx AsyncClient.get + json.loads`: a plain httpx client asking for the page
  (the request path: auth, the transport, the response) and decoding it;
* `flextui fetch_page`: `ReportsService.fetch_page` through a `Session` whose
  transport answers the bytes (request, decode, depth check, normalise,
  scrub, store in the SQLite page cache, parse into the page the grid takes).

CPU time (`time.process_time`) per page, median of the rounds, and flextui's
ratio to the floor (issue 12's goal: ≤ 1.3×).

    python bench/bench_page_cpu.py [--rounds 15] [--per-round 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flextui.api.cache import PageCache  # noqa: E402
from flextui.api.filters import FilterSet  # noqa: E402
from flextui.api.http import RetryPolicy, Session  # noqa: E402
from flextui.api.reports import ReportsService  # noqa: E402
from flextui.context import demo_context  # noqa: E402

FIXED_NOW_MS = 1793613600000


async def one_page_bytes() -> bytes:
    """A real 2,500-row page as the simulator serves it (scale 100, 16 days of fulfillments)."""
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, scale=100.0)
    try:
        filters = FilterSet(past_days=16, limit_records=2500)
        response = await ctx.session.request(
            ctx.session.SERVICE_DATA if hasattr(ctx.session, "SERVICE_DATA") else _data(),
            "GET",
            "/api/v1/report/fulfillment",
            params=filters.query_params(1),
        )
        return response.content
    finally:
        await ctx.aclose()


def _data() -> Any:
    from flextui.api.http import Service

    return Service.DATA


def decoders() -> dict[str, Any]:
    out: dict[str, Any] = {"httpx + json.loads": json.loads}
    try:
        import orjson

        out["httpx + orjson"] = orjson.loads
    except ImportError:
        pass
    try:
        import msgspec

        out["httpx + msgspec"] = msgspec.json.decode
    except ImportError:
        pass
    return out


def plain(body: bytes, decode: Any, n: int) -> float:
    request = httpx.Request("GET", "https://fno.example/data/api/v1/report/fulfillment")
    start = time.process_time()
    for _ in range(n):
        response = httpx.Response(200, content=body, headers={"content-type": "application/json"}, request=request)
        decode(response.content)
    return (time.process_time() - start) / n


async def client_pages(body: bytes, n: int) -> float:
    """A plain httpx client asking for the page (an AsyncClient over the same transport, Basic auth) and json.loads:
    what a script using httpx pays a page, the request path included."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler), auth=httpx.BasicAuth("u", "p")) as client:
        await client.get("https://fno.example/data/api/v1/report/fulfillment")
        start = time.process_time()
        for page in range(1, n + 1):
            response = await client.get("https://fno.example/data/api/v1/report/fulfillment", params={"pageNumber": page})
            json.loads(response.content)
        return (time.process_time() - start) / n


async def flextui_pages(body: bytes, n: int, cache_dir: Path) -> float:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    session = Session(
        "https://fno.example",
        auth=httpx.BasicAuth("u", "p"),
        transport=httpx.MockTransport(handler),
        cache=PageCache(cache_dir / f"cache-{time.monotonic_ns()}.sqlite3"),
        retry=RetryPolicy(attempts=1),
    )
    service = ReportsService(session)
    filters = FilterSet(past_days=16, limit_records=2500)
    try:
        # one page first, not counted: it opens the cache file (a session does that once, not per page)
        await service.fetch_page("fulfillment", filters, n + 1, force=True)
        start = time.process_time()
        for page in range(1, n + 1):
            result = await service.fetch_page("fulfillment", filters, page, force=True)
            assert len(result.rows) == 2500
        return (time.process_time() - start) / n
    finally:
        await session.aclose()


async def main(rounds: int, per_round: int) -> None:
    body = await one_page_bytes()
    print(f"page: {len(body):,} bytes, 2,500 rows; {rounds} rounds × {per_round} pages, CPU ms per page (median)")
    results: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(rounds):
            for name, decode in decoders().items():
                results.setdefault(name, []).append(plain(body, decode, per_round))
            results.setdefault("httpx AsyncClient.get + json.loads", []).append(await client_pages(body, per_round))
            results.setdefault("flextui fetch_page", []).append(await flextui_pages(body, per_round, Path(tmp)))
    floor = statistics.median(results["httpx + json.loads"])
    client = statistics.median(results["httpx AsyncClient.get + json.loads"])
    print("| contender | CPU per page | × plain httpx + json.loads | × the httpx client + json.loads |")
    print("|---|---|---|---|")
    for name, values in results.items():
        median = statistics.median(values)
        print(f"| {name} | {median * 1000:.1f} ms | {median / floor:.2f}× | {median / client:.2f}× |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--per-round", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.per_round))
