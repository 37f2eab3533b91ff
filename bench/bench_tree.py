"""Benchmark for issue 5: lazy expansion in the entitlement tree at scale.

The demo world at scale 100 (about 3,000 accounts and 5,000 entitlements)
answers every request after a simulated latency (50 ms by default). The app
runs headless at 120x40 on the entitlement tree with one page of 200
accounts; each account is expanded in turn, and the clock runs from
`node.expand()` until its entitlements are in the tree. Three passes:

- network: the first visit of each account (one request, one round trip);
- session cache: the loaded children are dropped (`forget_children`) and
  every account expanded again, so the answer comes from the SQLite page
  cache (`Session.cached`, within its fresh window: no request);
- already loaded: collapse and expand again (the nodes are kept).

Requests per expansion are the session's request counter around each one.

Run: python bench/bench_tree.py [--scale 100] [--latency 50] [--count 200]
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

from flextui.api.entitlements import EntitlementFilter, EntitlementsService  # noqa: E402
from flextui.config import Settings  # noqa: E402
from flextui.context import demo_context  # noqa: E402
from flextui.ui.app import FlexApp  # noqa: E402
from flextui.ui.screens.entitlements.tree import EntitlementsScreen  # noqa: E402


async def _until(condition: Any, timeout: float = 30.0) -> None:
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise TimeoutError("the tree did not answer in time")
        await asyncio.sleep(0.0005)


async def _expand_all(app: FlexApp, screen: EntitlementsScreen, accounts: list[str], *, collapse: bool) -> list[tuple[float, int]]:
    """(seconds until the children are shown, requests sent) for each account."""
    session = app.ctx.session
    out = []
    for account in accounts:
        key = f"A:{account}"
        node = screen.node_index[key]
        records = len(screen.expansions)
        before = session.requests_sent
        started = time.perf_counter()
        node.expand()
        if node.children and not any(c.data is not None and c.data.kind == "loading" for c in node.children):
            await asyncio.sleep(0)  # already loaded: the expansion shows what is there
        await _until(
            lambda account=account, key=key, records=records: (
                account in screen.ent_children
                and key not in screen.loading
                and (len(screen.expansions) == records or screen.expansions[-1].shown is not None)
            )
        )
        elapsed = time.perf_counter() - started
        await _until(lambda records=records: len(screen.expansions) == records or screen.expansions[-1].finished is not None)
        out.append((elapsed, session.requests_sent - before))
        if collapse:
            node.collapse()
        await asyncio.sleep(0)
    return out


def _row(name: str, results: list[tuple[float, int]]) -> str:
    ms = sorted(t * 1000 for t, _ in results)
    p90 = ms[max(0, int(round(0.9 * len(ms))) - 1)]
    requests = sum(n for _, n in results) / len(results)
    return f"| {name:<26} | {statistics.median(ms):8.1f} | {p90:8.1f} | {ms[-1]:8.1f} | {requests:9.2f} |"


async def main(scale: float, latency: float, count: int) -> None:
    t0 = time.perf_counter()
    ctx = demo_context(scale=scale, latency_ms=latency, settings=Settings(page_size=min(count, 500)))
    ctx.start = ["entitlements"]
    world = ctx.extras["world"]
    built = time.perf_counter() - t0
    # The simulator indexes its scale-100 entitlements on the first request to the service (about a
    # second, a simulator cost, not the client's): do that before the clock runs, with a request
    # for an account that is not measured.
    warm = EntitlementsService(ctx.session)
    await warm.list(EntitlementFilter(accountId=list(world.accounts)[-1]), 1, 1)
    app = FlexApp(ctx)
    t1 = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, EntitlementsScreen)
        await _until(lambda: bool(screen.roots))
        first_page = time.perf_counter() - t1
        await pilot.pause()
        accounts = [root.account_id for root in screen.roots[:count]]

        network = await _expand_all(app, screen, accounts, collapse=True)
        screen.forget_children()
        await pilot.pause()
        cached = await _expand_all(app, screen, accounts, collapse=True)
        loaded = await _expand_all(app, screen, accounts, collapse=True)
        total_ents = sum(len(screen.ent_children.get(a, [])) for a in accounts)

    print(
        f"entitlement tree: scale {scale:g} ({len(world.accounts):,} accounts, {len(world.entitlements):,} entitlements), "
        f"{latency:g} ms simulated latency per request"
    )
    print(
        f"world built in {built * 1000:.0f} ms; app start to the first page of {len(accounts)} accounts: {first_page * 1000:.0f} ms "
        f"(one request); these accounts hold {total_ents:,} entitlements"
    )
    print()
    print("| expansion of one account    | median ms |  p90 ms  |  max ms  | requests  |")
    print("|----------------------------|----------:|---------:|---------:|----------:|")
    print(_row("network (first visit)", network))
    print(_row("session cache (revisit)", cached))
    print(_row("already loaded (re-expand)", loaded))
    print()
    print(f"targets: cached expansion <= 50 ms; network ~ one round trip ({latency:g} ms) and exactly 1 request")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=100)
    parser.add_argument("--latency", type=float, default=50)
    parser.add_argument("--count", type=int, default=200)
    options = parser.parse_args()
    asyncio.run(main(options.scale, options.latency, options.count))
