"""Bytes flextui writes to the terminal: idle on the report results, per Down / PageDown in the grid, and while rows stream in.

Runs `flextui demo` in a private tmux server (120×40, 256 colours), opens the
fulfillment report's results, waits for every row, then records what the
app writes (tmux `pipe-pane`): for IDLE seconds with no key pressed, then
for N Downs and N PageDowns sent one at a time. Needs tmux.

    python bench/bench_quiet.py [--idle 130] [--keys 20] [--runs 3]
    python bench/bench_quiet.py --stream [--runs 3] [--scale 100]
        # `flextui demo --scale 100`: the last 7 days of fulfillment (~45k records; --scale 220: ~101k)
        # from ctrl+g until the note "Loaded N fulfillment records" (the first page's wait included:
        # the simulator builds the report's records then, ≈ 3 s at scale 100, 7 s at 220)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOCKET = "flextui-bench-quiet"
ROOT = Path(__file__).resolve().parents[1]


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, check=False).stdout


def wait_for(text: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if text in tmux("capture-pane", "-p", "-t", "q"):
            return
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {text!r}:\n" + tmux("capture-pane", "-p", "-t", "q"))


def recorded(path: Path, action: object) -> int:
    path.write_bytes(b"")
    tmux("pipe-pane", "-t", "q", "-o", f"cat >> {path}")
    action()  # type: ignore[operator]
    time.sleep(1.0)
    tmux("pipe-pane", "-t", "q")
    time.sleep(0.2)
    return path.stat().st_size


def one_run(idle: float, keys: int) -> dict[str, float]:
    flextui = shutil.which("flextui") or f"{sys.executable} -m flextui"
    tmux("kill-server")
    env = f"TERM=xterm-256color COLORTERM= {flextui} demo"
    tmux("new-session", "-d", "-s", "q", "-x", "120", "-y", "40", env)
    try:
        wait_for("audit-pull", 60)
        tmux("send-keys", "-t", "q", "-l", ":report fulfillment")
        tmux("send-keys", "-t", "q", "Enter")
        wait_for("Run", 30)
        tmux("send-keys", "-t", "q", "C-g")
        wait_for(" loaded", 120)
        time.sleep(8)  # the "Loaded" toast goes
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "bytes"
            idle_bytes = recorded(out, lambda: time.sleep(idle))

            def press(key: str) -> None:
                for _ in range(keys):
                    tmux("send-keys", "-t", "q", key)
                    time.sleep(0.15)

            down = recorded(out, lambda: press("Down")) / keys
            page = recorded(out, lambda: press("PageDown")) / keys
        return {"idle": idle_bytes, "down": down, "pagedown": page}
    finally:
        tmux("kill-server")


def stream_run(scale: str) -> dict[str, float]:
    """Bytes written from the Run key until every record of a ~44k-record report is in the grid."""
    flextui = shutil.which("flextui") or f"{sys.executable} -m flextui"
    tmux("kill-server")
    tmux("new-session", "-d", "-s", "q", "-x", "120", "-y", "40", f"TERM=xterm-256color COLORTERM= {flextui} demo --scale {scale}")
    try:
        wait_for("ansible-ops", 300)
        tmux("send-keys", "-t", "q", "-l", ":report fulfillment")
        tmux("send-keys", "-t", "q", "Enter")
        wait_for("Run", 60)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "bytes"
            rows = {"n": 0.0}

            def run() -> None:
                tmux("send-keys", "-t", "q", "C-g")
                end = time.monotonic() + 300
                while time.monotonic() < end:
                    # The note at the end ("Loaded 45,311 fulfillment records in 7.8 s"), not the count line: the
                    # simulator of `demo` keeps the time of day, and a window that moved says "N loaded, M counted now"
                    done = re.search(r"Loaded ([\d,]+) fulfillment records in", tmux("capture-pane", "-p", "-t", "q"))
                    if done:
                        rows["n"] = float(done.group(1).replace(",", ""))
                        return
                    time.sleep(0.1)
                raise SystemExit("the report never finished loading; the screen:\n" + tmux("capture-pane", "-p", "-t", "q"))

            streamed = recorded(out, run)
        return {"stream": streamed, "rows": rows["n"]}
    finally:
        tmux("kill-server")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=130.0)
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stream", action="store_true", help="bytes while a ~45k-record report streams in")
    parser.add_argument("--scale", default="100", help="the demo world's scale for --stream (220: ~101k records)")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("needs tmux")
    os.chdir(ROOT)
    if args.stream:
        runs = [stream_run(args.scale) for _ in range(args.runs)]
        keys: tuple[str, ...] = ("stream", "rows")
    else:
        runs = [one_run(args.idle, args.keys) for _ in range(args.runs)]
        keys = ("idle", "down", "pagedown")
    for key in keys:
        values = [r[key] for r in runs]
        unit = "" if key == "rows" else " B"
        print(f"{key:9} median {statistics.median(values):10,.0f}{unit}   runs: {', '.join(f'{v:,.0f}' for v in values)}")


if __name__ == "__main__":
    main()
