"""The request log: every HTTP exchange of a session, with secrets removed, to look at or hand over.

A support engineer escalating a problem needs what was asked and what came
back: method, address, status, time, size, whether it was a retry or came
from the cache, and the headers and bodies. `Trace` keeps the last exchanges
of a session in memory (`Session.trace`), the TUI shows them, and `flextui
--trace FILE` writes them as JSON lines. Nothing secret is kept: credentials
in headers are replaced by what they are (`Basic ***`, `Bearer ***`), bodies
keep every secret-bearing field with `[removed]` for its value (`cache.scrub_secrets`:
the verification call's `{"accessToken": "[removed]"}` says what was sent, where a
bare `{}` looked like a request with nothing in it), and the answers of
the registry's authenticate and secret calls (a bare JWT or secret) are
withheld entirely. The exchanges an auth flow makes on its own (the registry's
authenticate, a minted token's creation, its deletion on exit) are logged too,
as `sign-in`/`sign-out` (`http.Session`), with the same redaction.
"""

from __future__ import annotations

import json
import re
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from flextui.api.cache import scrub_secrets
from flextui.api.wire import loads
from flextui.secret_names import is_secret_name

BODY_LIMIT = 64_000
KEEP_LIMIT = 4 * BODY_LIMIT
"""Bodies larger than this are not kept (a 2,500-record report page is ~1.5 MB): parsing and scrubbing one
again only to cut it to BODY_LIMIT cost more CPU than the client's own handling of the page."""
"""Characters of a body kept in the log (the rest is summarised)."""

REMOVED = "[removed]"
"""The value a secret-bearing field has in the log (`curl.curl_for` asks for it from the environment)."""

SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-auth-token", "x-access-token", "access-token", "token", "jwt"}
)

# Answers that are a secret in themselves (a bare JWT, a Base64 registry secret): the registry API's own paths,
# whatever address the profile gives the registry (`[profiles.X.urls] registry` may have no `/registry` in it).
_WITHHELD = re.compile(r"/api/v1/(authenticate|secret)(/|$)")


@dataclass
class Exchange:
    """One request and its answer (or its failure), as logged."""

    at: str
    method: str
    url: str
    service: str
    status: int | None = None
    ms: float | None = None
    sent_bytes: int = 0
    received_bytes: int = 0
    decision: str = "network"
    error: str | None = None
    request_headers: dict[str, str] = field(default_factory=dict)
    request_body: Any = None
    response_headers: dict[str, str] = field(default_factory=dict)
    response_body: Any = None

    def line(self) -> str:
        """One line for a list: time, method, path, status, duration, bytes, decision."""
        status = str(self.status) if self.status is not None else "—"
        ms = f"{self.ms:.0f} ms" if self.ms is not None else ""
        path = httpx.URL(self.url).raw_path.decode(errors="replace")
        return f"{self.at[11:19]}  {self.method:<6} {status:>3}  {ms:>8}  {self.received_bytes:>9,} B  {self.decision:<18} {path}"

    def as_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=True, default=str)


def redact_headers(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Headers with every credential replaced by its scheme and `***`."""
    out: dict[str, str] = {}
    for name, value in headers:
        lowered = name.lower()
        if lowered in SECRET_HEADERS or is_secret_name(lowered):
            scheme = value.split(" ", 1)[0] if " " in value else ""
            out[name] = f"{scheme} ***".strip()
        else:
            out[name] = value
    return out


def redact_body(content: bytes, url: str) -> Any:
    """A body as JSON (secrets removed) or capped text; withheld where the body itself is a secret."""
    if not content:
        return None
    if _WITHHELD.search(httpx.URL(url).path):
        return f"[withheld: {len(content):,} bytes; this answer is a credential or a secret]"
    if len(content) > KEEP_LIMIT:
        return f"[not kept: {len(content):,} bytes (the log keeps bodies up to {KEEP_LIMIT:,}); R on a record shows it as sent]"
    try:
        value = loads(content)
    except (ValueError, RecursionError):
        text = content[:BODY_LIMIT].decode("utf-8", errors="replace")
        return text + (f"… ({len(content) - BODY_LIMIT:,} more bytes)" if len(content) > BODY_LIMIT else "")
    try:
        cleaned = scrub_secrets(value, REMOVED)
    except RecursionError:
        return "[not logged: nested too deeply]"
    text = json.dumps(cleaned, ensure_ascii=True, default=str)
    if len(text) > BODY_LIMIT:
        return text[:BODY_LIMIT] + f"… ({len(text) - BODY_LIMIT:,} more characters)"
    return cleaned


class Trace:
    """The last `keep` exchanges of a session, and listeners told of each new one (the TUI pane, a --trace file)."""

    def __init__(self, keep: int = 500) -> None:
        self.exchanges: deque[Exchange] = deque(maxlen=keep)
        self.listeners: list[Callable[[Exchange], None]] = []
        """Who hears this session's exchanges (the request log while it is open)."""
        self.writers: list[Callable[[Exchange], None]] = []
        """Where the run's exchanges are written (`--trace FILE`): handed to every session that follows this one in
        the app (`:profile`, `:password`), so the file an escalation attaches holds the whole run, the failed
        sign-ins included."""

    def _add(self, exchange: Exchange) -> None:
        self.exchanges.append(exchange)
        for listener in [*self.listeners, *self.writers]:
            try:
                listener(exchange)
            except Exception:  # a broken listener must not break a request
                pass

    def record(
        self,
        request: httpx.Request,
        response: httpx.Response | None,
        *,
        service: str,
        started: float,
        decision: str,
        error: str | None = None,
    ) -> Exchange:
        """Log one exchange (the response's body must have been read)."""
        content = request.content if hasattr(request, "_content") else b""
        exchange = Exchange(
            at=datetime.fromtimestamp(time.time() - (time.monotonic() - started), tz=UTC).isoformat(timespec="milliseconds"),
            method=request.method,
            url=str(request.url),
            service=service,
            status=response.status_code if response is not None else None,
            ms=(time.monotonic() - started) * 1000,
            sent_bytes=len(content),
            received_bytes=len(response.content) if response is not None else 0,
            decision=decision,
            error=error,
            request_headers=redact_headers(request.headers.multi_items()),
            request_body=redact_body(content, str(request.url)),
            response_headers=redact_headers(response.headers.multi_items()) if response is not None else {},
            response_body=redact_body(response.content, str(request.url)) if response is not None else None,
        )
        self._add(exchange)
        return exchange

    def note(self, method: str, url: str, service: str, decision: str) -> Exchange:
        """Log a request answered without the network (the page cache, within its freshness)."""
        exchange = Exchange(
            at=datetime.now(UTC).isoformat(timespec="milliseconds"), method=method, url=url, service=service, decision=decision, ms=0.0
        )
        self._add(exchange)
        return exchange

    def latest(self, where: Callable[[Exchange], bool] = lambda e: True) -> Exchange | None:
        """The newest exchange that sent a request and matches `where`."""
        return next((e for e in reversed(self.exchanges) if e.decision != "cached" and where(e)), None)


def file_writer(path: str) -> Callable[[Exchange], None]:
    """A listener appending each exchange as a JSON line to a private file (`flextui --trace FILE`)."""
    import os

    from flextui.files import open_private, private_dirs

    private_dirs(os.path.dirname(os.path.abspath(path)))
    handle = os.fdopen(open_private(path, append=True), "a", encoding="utf-8")

    def write(exchange: Exchange) -> None:
        handle.write(exchange.as_json() + "\n")
        handle.flush()

    return write
