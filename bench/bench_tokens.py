"""Benchmarks for issue 2: start-up to the first token row, and a cached page revisit.

Start-up is measured as a user sees it: `flextui demo` is spawned on a pseudo
terminal (80x24, xterm-256color) and the clock stops when the first token
name appears in what the app writes. The cached revisit is measured twice:
the data layer alone (Session.cached answering from SQLite) and the screen
(showing the page in the table), with the request counter proving no request
was sent.

Run: python bench/bench_tokens.py [--runs 7]
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import pty
import select
import statistics
import struct
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MARKER = b"audit-pull-186"


def startup_once(timeout: float = 20.0) -> float:
    flextui = Path(sys.executable).with_name("flextui")
    argv = [str(flextui), "demo"] if flextui.exists() else [sys.executable, "-m", "flextui", "demo"]
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen = b""
    elapsed = float("nan")
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                seen += chunk
                if MARKER in seen:
                    elapsed = time.perf_counter() - started
                    break
    finally:
        os.write(fd, b"\x11")  # ctrl+q
        deadline = time.time() + 5
        while time.time() < deadline:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            try:
                os.read(fd, 65536)
            except OSError:
                pass
            time.sleep(0.02)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    return elapsed


async def cached_revisit(runs: int) -> dict[str, float]:
    from flextui.api.tokens import TokensService
    from flextui.context import demo_context
    from flextui.sim.world import ADMIN

    ctx = demo_context()
    service = TokensService(ctx.session)
    # First visit fills the cache.
    async for _ in service.list_page(None, ADMIN[0], 0, 50):
        pass
    sent = ctx.session.requests_sent
    timings = []
    for _ in range(runs):
        t0 = time.perf_counter()
        async for page in service.list_page(None, ADMIN[0], 0, 50):
            assert page.age is not None
        timings.append((time.perf_counter() - t0) * 1000)
    assert ctx.session.requests_sent == sent, "a cached revisit sent a request"
    await ctx.aclose()
    return {"median_ms": statistics.median(timings), "max_ms": max(timings), "requests": ctx.session.requests_sent - sent}


async def cached_revisit_screen(runs: int) -> dict[str, float]:
    from flextui.context import demo_context
    from flextui.ui.app import FlexApp
    from flextui.ui.widgets.table import ResourceTable

    ctx = demo_context()
    ctx.settings.page_size = 5
    app = FlexApp(ctx)
    timings = []
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        await pilot.press("right_square_bracket")
        await app.workers.wait_for_complete()
        sent = ctx.session.requests_sent
        for i in range(runs):
            screen.page = i % 2
            t0 = time.perf_counter()
            await screen._load()
            table = screen.query_one(ResourceTable)
            assert table.row_count > 0
            timings.append((time.perf_counter() - t0) * 1000)
        extra = ctx.session.requests_sent - sent
    await ctx.aclose()
    return {"median_ms": statistics.median(timings), "max_ms": max(timings), "requests": extra}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    startup = [startup_once() for _ in range(args.runs)]
    print(
        f"start-up to first token row (pty 80x24), n={args.runs}: median {statistics.median(startup) * 1000:.0f} ms, "
        f"min {min(startup) * 1000:.0f}, max {max(startup) * 1000:.0f}"
    )
    data = asyncio.run(cached_revisit(50))
    print(
        f"cached page revisit, data layer, n=50: median {data['median_ms']:.2f} ms, max {data['max_ms']:.2f} ms, requests sent {data['requests']}"
    )
    screen = asyncio.run(cached_revisit_screen(20))
    print(
        f"cached page revisit, screen (fetch + table fill), n=20: median {screen['median_ms']:.2f} ms, max {screen['max_ms']:.2f} ms, requests sent {screen['requests']}"
    )


if __name__ == "__main__":
    main()
