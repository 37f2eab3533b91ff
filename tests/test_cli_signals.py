"""SIGHUP and SIGTERM end a run as ctrl+c does: what it made is undone on the way out.

A token minted with `mint_token = true` ("a one-hour token … deleted on exit")
was left live when the process got SIGHUP (an SSH link gone) or SIGTERM (a
`kill`, a shutdown): their default ended the process where it stood, headless
and in the TUI alike, while ctrl+c deleted it. Each test runs flextui as a
process against the simulator over HTTP, waits until the token is minted and
the request it was minted for is held by the server (the run is in progress),
then signals it, and looks in the simulator's own store for the token.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from flextui.sim.app import create_app
from flextui.sim.faults import FaultPlan
from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, World
from tests.conftest import _free_port

MINTED = "minted by flextui for the beta APIs; deleted on exit"
"""How the simulator's store knows a minted token: its description (`api.auth.MintingAuth`)."""
HELD = r"^GET /products-api/"
"""The request the minted token is for: held by the server until the test ends, so the run is in progress."""


@dataclass
class Server:
    url: str
    world: World
    plan: FaultPlan

    def minted(self) -> list[str]:
        return [t.name for t in list(token_store(self.world).by_name.values()) if t.description == MINTED]

    def holding(self) -> bool:
        return any(seen.startswith("GET /products-api/") for seen in list(self.plan.seen))


@pytest.fixture
def server(world: World) -> Iterator[Server]:
    """The simulator over HTTP, holding every products request (until the test ends)."""
    import uvicorn

    plan = FaultPlan()
    release = threading.Event()
    plan.add(HELD, kind="slow", hold=release, times=1000)
    port = _free_port()
    uv = uvicorn.Server(uvicorn.Config(create_app(world, faults=plan), host="127.0.0.1", port=port, log_level="critical", lifespan="off"))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uv.started:
        assert time.monotonic() < deadline, "the simulator did not start"
        time.sleep(0.01)
    try:
        yield Server(f"http://127.0.0.1:{port}", world, plan)
    finally:
        release.set()
        uv.should_exit = True
        thread.join(timeout=10)


def minting_config(tmp_path: Path, url: str, world: World) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.mint]\nurl = "{url}"\nuser = "{ADMIN[0]}"\npassword = {{ env = "FNO_TEST_PW" }}\nmint_token = true\n'
        f'registry_tenant = "{world.tenant_id}"\n'
    )
    return cfg


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLEXTUI_")}
    env["FNO_TEST_PW"] = ADMIN[1]
    return env


def until(condition: Callable[[], bool], what: str, proc: subprocess.Popen[bytes], timeout: float = 90) -> None:
    """Wait for `condition` (polled), failing if flextui ends first or it does not come within `timeout`."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert proc.poll() is None, f"flextui ended (exit {proc.returncode}) before {what}"
        assert time.monotonic() < deadline, f"no {what} within {timeout:g} s"
        time.sleep(0.02)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(timeout=30)


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_a_headless_run_ended_by_a_signal_deletes_its_minted_token(
    tmp_path: Path, server: Server, world: World, signum: signal.Signals
) -> None:
    cfg = minting_config(tmp_path, server.url, world)
    proc = subprocess.Popen(
        [sys.executable, "-m", "flextui", "--config", str(cfg), "--profile", "mint", "get", "products", "-o", "csv"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(),
        preexec_fn=_sighup_default,
    )
    try:
        until(lambda: bool(server.minted()) and server.holding(), "minted token and a products request in progress", proc)
        minted = server.minted()
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=90)
    finally:
        stop(proc)
    said = err.decode(errors="replace")
    assert proc.returncode == 128 + signum, said
    assert f"stopped by {signum.name} before any rows were written" in said
    assert not set(minted) & set(server.minted()), f"the minted token {minted} is still live"


def test_a_signal_while_a_credential_command_runs_ends_it_at_once(tmp_path: Path, live_server: str, world: World) -> None:
    """The command holds the event loop (a cancellation would wait for it): SIGTERM ends the run where it stands."""
    finished = tmp_path / "finished"
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.slow]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\nregistry_tenant = "{world.tenant_id}"\n'
        f"password = {{ command = \"sh -c 'kill -TERM $PPID; sleep 20; touch {finished}; echo pw'\" }}\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLEXTUI_")}
    done = subprocess.run(
        [sys.executable, "-m", "flextui", "--config", str(cfg), "--profile", "slow", "get", "projects"],
        capture_output=True,
        text=True,
        timeout=90,
        env=env,
    )
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert "stopped by SIGTERM" in done.stderr and not finished.exists(), "the command was not waited for"


def _sighup_default() -> None:
    """In the child: SIGHUP at its default, as a login shell starts a command. The suite itself may run under
    `nohup` (a CI runner's), which ignores SIGHUP; the child would inherit that, and flextui keeps an ignored
    SIGHUP ignored on purpose (`nohup flextui …`), so the hang-up under test would never arrive."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _controlling_terminal() -> None:
    """In the child, in a session of its own (`start_new_session`): the pty (its standard input) as its controlling
    terminal, so that the terminal hanging up sends it SIGHUP, as an SSH link that goes does. (Nothing imported here:
    the child of a process with threads must not take the import lock.)"""
    _sighup_default()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


@pytest.mark.parametrize("how", ["terminal hangs up", "SIGTERM"])
def test_the_tui_ended_by_a_signal_deletes_its_minted_token(tmp_path: Path, server: Server, world: World, how: str) -> None:
    import pty

    cfg = minting_config(tmp_path, server.url, world)
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "flextui", "--config", str(cfg), "--profile", "mint", "tui", "products"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**environment(), "TERM": "xterm-256color"},
        close_fds=True,
        start_new_session=True,
        preexec_fn=_controlling_terminal,
    )
    os.close(slave)
    drawn = bytearray()
    open_master = [master]

    hanging_up = threading.Event()

    def drain() -> None:  # the app's drawing must not fill the pty and stall it
        # (never blocked in a read: a close() from another thread does not end a read under way, so the pty stayed
        # open, and the hang-up never came, whenever the app had nothing more to draw)
        while not hanging_up.is_set():
            if not select.select([master], [], [], 0.05)[0]:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            drawn.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        until(lambda: bool(server.minted()) and server.holding(), "minted token and a products request in progress", proc)
        minted = server.minted()
        if how == "SIGTERM":
            proc.send_signal(signal.SIGTERM)
        else:
            hanging_up.set()
            reader.join(timeout=10)
            os.close(open_master.pop())  # the kernel sends the terminal's session SIGHUP; writes to it fail from here
        code = proc.wait(timeout=90)
    finally:
        stop(proc)
        for fd in open_master:
            os.close(fd)
        reader.join(timeout=10)
    expected = signal.SIGTERM if how == "SIGTERM" else signal.SIGHUP
    assert code == 128 + expected, bytes(drawn[-2000:]).decode(errors="replace")
    assert not set(minted) & set(server.minted()), f"the minted token {minted} is still live"
