"""Regenerate the SVG screenshots shown in the README.

Each shot starts the app on the in-process simulator with a frozen clock (so
the pictures are repeatable), presses some keys, waits for the data, and
saves an SVG. No shot shows a secret: token values and registry secrets are
never on screen in these scenes.

Run: python screenshots/make_screenshots.py [NAME ...]
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from textual.worker import WorkerCancelled  # noqa: E402

from flextui.context import demo_context  # noqa: E402
from flextui.ui.app import FlexApp  # noqa: E402

FIXED_NOW_MS = int(datetime(2026, 11, 2, 10, 0, tzinfo=UTC).timestamp() * 1000)


@dataclass
class Shot:
    name: str
    start: list[str]
    keys: list[str] = field(default_factory=list)
    size: tuple[int, int] = (120, 40)
    as_user: str = "admin"
    read_only: bool = False
    fill: dict[str, str] = field(default_factory=dict)


SHOTS: list[Shot] = [
    Shot("tokens", ["tokens"]),
    Shot("tokens-80x24", ["tokens"], size=(80, 24)),
    Shot("tokens-detail", ["tokens"], keys=["down", "enter"]),
    Shot("tokens-create", ["tokens"], keys=["n"], fill={"tokenName": "abc", "expiryStr": "3Y"}),
    Shot("tokens-search", ["tokens"], keys=["s"], fill={"tokenName": "ci-*", "expiresBefore": "90d"}),
    Shot("tokens-delete", ["tokens"], keys=["d"]),
    Shot("tokens-customer", ["tokens"], as_user="customer"),  # a masked token: no rotate, edit or delete offered
    Shot("projects", ["projects"]),
    Shot("project", ["charts", "hello-world-dp"]),
    Shot("downloads", ["downloads"]),
    Shot("reports", ["reports"]),
    Shot("report-builder", ["report", "fulfillment"]),
    Shot("report-results", ["reports"], keys=["down", "down", "down", "down", "down", "down", "ctrl+g"]),
    Shot("report-frequency", ["reports"], keys=["down", "down", "down", "down", "down", "down", "ctrl+g", "right", "right", "F"]),
    Shot("report-links", ["reports"], keys=["down", "down", "down", "down", "down", "down", "ctrl+g", "j"]),
    Shot("entitlements", ["entitlements"], keys=["down", "space"]),
    Shot("catalog", ["products"]),
    Shot("users", ["users"]),
]


async def settle(app: FlexApp, pilot: object) -> None:
    for _ in range(3):
        try:
            await asyncio.wait_for(asyncio.shield(app.workers.wait_for_complete()), 3.0)
        except (TimeoutError, WorkerCancelled):
            pass
        await pilot.pause(0.1)  # type: ignore[attr-defined]


async def take(shot: Shot) -> Path | None:
    from flextui import kinds

    kind = kinds.lookup(shot.start[0])
    if kind is None or not kind.has_screen:
        print(f"skip {shot.name}: no screen for {shot.start[0]} in this build")
        return None
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, as_user=shot.as_user, read_only=shot.read_only)
    ctx.start = shot.start
    app = FlexApp(ctx)
    path = HERE / f"{shot.name}.svg"
    async with app.run_test(size=shot.size) as pilot:
        await settle(app, pilot)
        for key in shot.keys:
            await pilot.press(key)
            await settle(app, pilot)
        for name, value in shot.fill.items():
            app.screen.query_one(f"#field-{name}").value = value  # type: ignore[attr-defined]
            await pilot.pause()
        app.clear_notifications()
        await settle(app, pilot)
        app.save_screenshot(filename=path.name, path=str(HERE))
    await ctx.aclose()
    return path


def main() -> None:
    wanted = set(sys.argv[1:])
    for shot in SHOTS:
        if wanted and shot.name not in wanted:
            continue
        path = asyncio.run(take(shot))
        if path:
            print(f"wrote {path.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
