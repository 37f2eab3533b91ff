"""The usual TLS context (httpx's own: certifi's authorities, or SSL_CERT_FILE / SSL_CERT_DIR), made in a thread at launch.

A client that verifies certificates the usual way (`verify = true`, every profile's default)
had httpx load certifi's ≈ 150 authorities while the session was built: ≈ 15–30 ms of a
real profile's start, on the path to the first row (bench/bench_startup.py `--profile`).
OpenSSL reads them without the interpreter's lock, so begun as the command line is read
(`begin`), they load on the other core while Textual is imported, and the session takes the
context when it builds its client (`usual`). The context is made by httpx's own
`create_ssl_context`, so what is trusted is exactly what httpx would have trusted.
"""

from __future__ import annotations

import ssl
import threading
from typing import Any

_thread: threading.Thread | None = None
_made: list[Any] = []


def _make() -> None:
    try:
        import httpx

        _made.append(httpx.create_ssl_context())
    except Exception:  # (say, SSL_CERT_FILE names no file): httpx meets it again when it builds the client, and says so
        _made.append(None)


def begin() -> None:
    """Start loading the usual authorities in a thread of their own (once)."""
    global _thread
    import os
    if os.environ.get("AB_NO_TLS"):
        return
    if _thread is None:
        _thread = threading.Thread(target=_make, name="flextui-tls", daemon=True)
        _thread.start()


def usual() -> ssl.SSLContext | bool:
    """The context `begin` made (waiting for it if need be), or True (httpx makes its own) when nothing was begun."""
    if _thread is None:
        return True
    _thread.join()
    context = _made[0] if _made else None
    return context if isinstance(context, ssl.SSLContext) else True


__all__ = ["begin", "usual"]
