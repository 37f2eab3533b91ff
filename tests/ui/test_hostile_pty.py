"""The real thing: the TUI in a pseudo-terminal against a hostile server; the bytes the terminal gets are counted.

`tests/hostile_tui.py` runs the demo TUI with Textual's own Linux driver on
a pty (120x40, xterm-256color), behind `HostileTransport`. The test opens the
token list, a token's detail and its delete confirmation, then quits, and
counts in everything the terminal received: OSC sequences other than
Textual's pointer shape, the payload's ESC[2J, C1 characters, bidi controls
and NUL must be 0; the output must be valid UTF-8 (no raw C1 byte); and the
hostile names must have been on screen, shown literally.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.hostile import TEXTUAL_OSC, raw_findings, where

ROOT = Path(__file__).resolve().parents[2]
SHOWN = "␛]52;c;SE9TVElMRQ==␇␛[2J"

pytestmark = pytest.mark.skipif(not hasattr(pty, "openpty") or sys.platform == "win32", reason="needs a POSIX pty")


class Terminal:
    """A pty with a child process on its slave side; `received` is every byte the child wrote."""

    def __init__(self, args: list[str], size: tuple[int, int] = (120, 40), env: dict[str, str] | None = None) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        given = env or {}
        env = {k: v for k, v in os.environ.items() if not k.startswith(("FLEXTUI_", "TEXTUAL"))}
        env.update(TERM="xterm-256color", COLORTERM="truecolor", PYTHONPATH=str(ROOT), **given)
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, start_new_session=True)
        os.close(slave)
        self.received = bytearray()

    def read(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child has gone
                    return
                if not chunk:
                    return
                self.received += chunk

    def text(self) -> str:
        return self.received.decode("utf-8", errors="replace")

    def wait_for(self, needle: str, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while needle not in self.text():
            if time.monotonic() > end or self.proc.poll() is not None:
                raise AssertionError(f"{needle!r} did not appear; last output: {self.text()[-400:]!r}")
            self.read(0.1)

    def send(self, data: str | bytes) -> None:
        os.write(self.master, data.encode() if isinstance(data, str) else data)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        os.close(self.master)


def test_the_terminal_receives_no_raw_escape_from_the_server() -> None:
    term = Terminal([sys.executable, "-m", "tests.hostile_tui", "tokens"])
    try:
        term.wait_for("page 1 of")
        term.wait_for(" ␛]52;c;")  # the list, names cut to their column
        term.send("\r")  # the token's detail
        term.wait_for("Lifetime")
        term.wait_for(SHOWN)
        term.send("\x1b")
        term.read(0.5)
        term.send("d")  # its delete confirmation
        term.wait_for("This cannot be undone")
        term.send("\x1b")
        term.read(0.5)
        term.send("q")
        deadline = time.monotonic() + 15
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.read(0.2)
        term.read(0.2)
    finally:
        term.close()
    raw = bytes(term.received)
    text = raw.decode("utf-8")  # strict: a raw C1 byte (0x80-0x9f alone) is not UTF-8
    assert raw_findings(text, allow_osc=TEXTUAL_OSC) == {}, (
        f"raw control characters reached the terminal: {where(text, allow_osc=TEXTUAL_OSC)}"
    )
    assert SHOWN in text, "the hostile names were on screen, shown literally"
    assert term.proc.returncode == 0


def test_a_byte_that_is_not_utf8_on_input_does_not_end_the_session(tmp_path: Path) -> None:
    """A Latin-1 `café` pasted into `/` (or a raw 0x9b) ended the app with a UnicodeDecodeError from Textual's input
    thread, and exit status 0: over SSH, a form being filled or a token value shown once was lost."""
    dirs = {f"XDG_{d}_HOME": str(tmp_path / d.lower()) for d in ("CONFIG", "CACHE", "DATA", "STATE")}
    term = Terminal([sys.executable, "-m", "flextui", "demo"], env=dirs)
    try:
        term.wait_for("page 1 of")
        term.send("/")
        term.read(0.5)
        term.send(b"caf\xe9\x9b")
        term.send("x")
        term.wait_for("caf\ufffd")  # shown as the terminal would: the byte replaced, what follows kept
        term.wait_for("x")
        assert term.proc.poll() is None, term.text()[-400:]
        term.send("\x11")  # ctrl+q
        deadline = time.monotonic() + 15
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.read(0.2)
    finally:
        term.close()
    assert "UnicodeDecodeError" not in term.text() and term.proc.returncode == 0
