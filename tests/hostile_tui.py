"""Test-only: the demo TUI on a real terminal, talking to the simulator through `tests.hostile.HostileTransport`.

`python -m tests.hostile_tui [AREA]` is what `tests/ui/test_hostile_pty.py`
runs inside a pseudo-terminal, so Textual's own Linux driver writes the bytes
the test counts. It lives under tests/: the user-facing CLI has no such hook.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from flextui.context import demo_context
from flextui.ui.app import FlexApp
from tests.conftest import FIXED_NOW_MS
from tests.hostile import install


def main(argv: list[str]) -> int:
    with pytest.MonkeyPatch.context() as monkeypatch:
        install(monkeypatch)
        ctx = demo_context(fixed_now_ms=FIXED_NOW_MS)
        ctx.start = argv or ["tokens"]
        app = FlexApp(ctx)
        try:
            app.run()
        finally:
            asyncio.run(ctx.aclose())
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
