"""Copy to the clipboard with OSC 52, also through tmux and screen, with a size cap.

Over SSH the only clipboard that reaches the user's desktop is the terminal's
own, via the OSC 52 escape. tmux and screen swallow it unless it is wrapped in
their passthrough (DCS) form; very large payloads are refused by terminals, so
values over `MAX_BYTES` are not sent and the caller shows them instead. Every
copy also keeps the value on `app.clipboard`, and the UI offers a view of the
last copied value to select by hand, for terminals that ignore OSC 52.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Mapping
from dataclasses import dataclass

MAX_BYTES = 74_994  # base64 payload cap many terminals use (100 KB escape)


@dataclass(frozen=True)
class CopyResult:
    sent: bool
    size: int
    reason: str = ""


def osc52(text: str, env: Mapping[str, str] | None = None) -> str | None:
    """The escape sequence that copies `text`, wrapped for tmux/screen; None if too big."""
    env = os.environ if env is None else env
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    if len(payload) > MAX_BYTES:
        return None
    seq = f"\x1b]52;c;{payload}\x07"
    if env.get("TMUX"):
        return "\x1bPtmux;" + seq.replace("\x1b", "\x1b\x1b") + "\x1b\\"
    if env.get("TERM", "").startswith("screen") or env.get("STY"):
        # screen limits DCS strings; send the sequence in chunks of 76 bytes.
        chunks = [seq[i : i + 76] for i in range(0, len(seq), 76)]
        return "".join(f"\x1bP{chunk}\x1b\\" for chunk in chunks)
    return seq


def copy(app: object, text: str, *, keep: bool = True) -> CopyResult:
    """Copy through the app's terminal driver; kept on `app.clipboard` too unless `keep` is False (secrets)."""
    if keep:
        setattr(app, "_clipboard", text)
    seq = osc52(text)
    size = len(text.encode("utf-8"))
    if seq is None:
        return CopyResult(False, size, f"too large for the terminal clipboard ({size:,} bytes)")
    driver = getattr(app, "_driver", None)
    if driver is None:
        return CopyResult(False, size, "no terminal")
    driver.write(seq)
    return CopyResult(True, size)
