"""Start-up as a user sees it: launch → first token row on screen, and memory then; flextui vs a bare Textual app.

Each contender is spawned on a pseudo terminal (120×40, xterm-256color); the
clock stops when its first row's text appears in what it writes, and its
resident memory (VmRSS) is read at that moment. Contenders alternate run by
run, so machine load hits both alike:

* `flextui demo` (the first token row of the demo's admin);
* a bare Textual app that shows a DataTable with one row (the floor any
  Textual app pays: interpreter, Textual, first paint).

Issue 12's goals: ≤ 1.5× the bare app's time, ≤ 45 MB.

Both run with byte-code caches, as an installed package does (pip compiles
on install): PYTHONDONTWRITEBYTECODE is dropped from the contenders'
environment and one warm-up round (not counted) writes flextui's caches of an
editable install; without them every flextui module is compiled from source
at each launch (≈ 100–250 ms more, which no user of a wheel pays).

    python bench/bench_startup.py [--runs 9] [--baseline DIR]

`--baseline DIR` adds a third contender in the same rounds: the flextui of
another checkout (e.g. `git archive main | tar -x -C DIR`), for before/after.

`--profile` adds the start a user of a real tenant has: `flextui --url … --user
…` against the simulator served by `flextui sim` in a process of its own (a
new, empty cache directory each run; no config file), so the embedded
simulator's share of the demo's start shows.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Any

BARE_APP = """
from textual.app import App
from textual.widgets import DataTable, Footer, Header

class Bare(App):
    def compose(self):
        yield Header()
        yield DataTable()
        yield Footer()

    def on_mount(self):
        table = self.query_one(DataTable)
        table.add_columns("Name", "Type", "Expires")
        table.add_row("bare-first-row", "NORMAL", "in 1y")

Bare().run()
"""


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def cpu_ms(pid: int) -> float:
    """The CPU `pid` has used (user + system): steadier than the wall clock on a loaded machine."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def run_once(argv: list[str], marker: bytes, timeout: float = 30.0) -> tuple[float, float, float]:
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.execv(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    seen = b""
    elapsed, memory, cpu = float("nan"), float("nan"), float("nan")
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.02)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                seen += chunk
                if marker in seen:
                    elapsed = time.perf_counter() - started
                    memory = rss_mb(pid)
                    cpu = cpu_ms(pid)
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
    return elapsed, memory, cpu


@contextlib.contextmanager
def served_simulator(flextui: Path, port: int = 8791) -> Any:
    """`flextui sim` on a local port for the run's length (the demo's world: same seed, same first token)."""
    server = subprocess.Popen([str(flextui), "sim", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(10)


def main(runs: int, baseline: str | None = None, profile: bool = False) -> None:
    flextui = Path(sys.executable).with_name("flextui")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        bare = Path(tmp) / "bare.py"
        bare.write_text(BARE_APP)
        contenders = {
            "flextui demo": ([str(flextui), "demo"], b"audit-pull-186"),
            "bare Textual app": ([sys.executable, str(bare)], b"bare-first-row"),
        }
        if baseline:
            source = Path(baseline).resolve()
            run_it = "import sys; from flextui.cli import main; sys.exit(main())"
            contenders[f"flextui demo ({source.name})"] = (
                # -P: not the current directory first on the path (it may be this checkout), so DIR's flextui is the one run
                ["/usr/bin/env", f"PYTHONPATH={source}", sys.executable, "-P", "-c", run_it, "demo"],
                b"audit-pull-186",
            )
        if profile:
            url = stack.enter_context(served_simulator(flextui))
            fresh_dirs = (
                f"d=$(mktemp -d -p {tmp}); XDG_CACHE_HOME=$d/cache XDG_CONFIG_HOME=$d/config XDG_STATE_HOME=$d/state "
                f"FLEXTUI_PASSWORD=Admin-pass-1 exec {flextui} --url {url} --user admin@flexdemo.example"
            )
            contenders["flextui on a profile (simulator in its own process)"] = (["/bin/sh", "-c", fresh_dirs], b"audit-pull-186")
        times: dict[str, list[float]] = {name: [] for name in contenders}
        memory: dict[str, list[float]] = {name: [] for name in contenders}
        cpu: dict[str, list[float]] = {name: [] for name in contenders}
        for argv, marker in contenders.values():  # warm-up (not counted): byte-code caches, the OS's file cache
            run_once(argv, marker)
        for _ in range(runs):
            for name, (argv, marker) in contenders.items():
                t, m, c = run_once(argv, marker)
                times[name].append(t)
                memory[name].append(m)
                cpu[name].append(c)
    floor = statistics.median(times["bare Textual app"])
    print(f"{runs} runs each, alternating; median (min–max)")
    print("| contender | launch → first row | × bare Textual | CPU until then | memory at first row |")
    print("|---|---|---|---|---|")
    for name in contenders:
        t = times[name]
        print(
            f"| {name} | {statistics.median(t) * 1000:.0f} ms ({min(t) * 1000:.0f}–{max(t) * 1000:.0f}) | "
            f"{statistics.median(t) / floor:.2f}× | {statistics.median(cpu[name]):.0f} ms | {statistics.median(memory[name]):.1f} MB |"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--baseline", metavar="DIR", help="also run the flextui in DIR (another checkout) in the same rounds")
    parser.add_argument("--profile", action="store_true", help="also run flextui on an ad hoc profile against `flextui sim`")
    options = parser.parse_args()
    main(options.runs, options.baseline, options.profile)
