"""Requests per listing for each simulator dialect: the cost of holding against any server.

Runs every headless lister (`flextui get KIND --demo`) against the strict
default and against each dialect, with a small page size so each listing
spans several pages, and prints a markdown table of items and requests (the
first listing of each service in a session includes detecting where its
pages start). The same listings are asserted in tests/test_dialects.py; this
prints the numbers for bench/RESULTS.md.

    python bench/bench_dialects.py [--page-size 25]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flextui import kinds  # noqa: E402
from flextui.context import demo_context  # noqa: E402
from flextui.sim.dialects import DIALECTS, speaking  # noqa: E402
from flextui.sim.registry import HELLO  # noqa: E402

FIXED_NOW_MS = 1793613600000  # 2026-11-02 10:00 UTC, as the tests
LISTINGS = {
    "tokens": (None, {"username": "admin@flexdemo.example"}),
    "projects": (None, {}),
    "members": (HELLO, {}),
    "artifacts": (f"{HELLO}/hello-world-image", {}),
    "downloads": (None, {}),
    "entitlements": (None, {}),
    "line-items": ("ENT-100021", {}),
    "products": (None, {}),
    "users": (None, {}),
    "accounts": (None, {}),
}
PAGING = [
    "(strict default)",
    "pagesize-lower",
    "page-size-ignored",
    "paging-ignored",
    "page-size-cap-100",
    "zero-based",
    "page-zero-is-first",
    "null-collections",
    "entitlements-bare-array",
    "entitlements-data-envelope",
    "users-no-username",
    "lenient",
]


async def one(kind: str, dialect: str, size: int) -> tuple[int, int, bool]:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, dialects=None if dialect.startswith("(") else speaking(dialect))
    target, extra = LISTINGS[kind]
    args = argparse.Namespace(
        **{"target": target, "filter": [], "page_size": size, "limit": None, "search": None, "username": None, "creator": None, **extra}
    )
    try:
        found = kinds.lookup(kind)
        assert found is not None
        lister = found.lister_function()
        rows = lister(ctx, args) if getattr(lister, "wants_context", False) else lister(ctx.session, args)
        count = sum([1 async for _ in rows])
        return count, ctx.session.requests_sent, not ctx.session.shortfalls
    finally:
        await ctx.aclose()


async def main(size: int) -> None:
    print(f"| listing (page size {size}) | " + " | ".join(PAGING) + " |")
    print("|---|" + "---|" * len(PAGING))
    for kind in LISTINGS:
        cells = []
        for dialect in PAGING:
            count, requests, complete = await one(kind, dialect, size)
            cells.append(f"{count} / {requests}" + ("" if complete else " ⚠"))
        print(f"| {kind} | " + " | ".join(cells) + " |")
    assert set(PAGING) - {"(strict default)", "lenient"} <= set(DIALECTS)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--page-size", type=int, default=25)
    asyncio.run(main(parser.parse_args().page_size))
