"""Latency and fault injection for the simulator (ASGI middleware).

`--latency MS` delays every request, which the benchmarks use to compare
sequential and concurrent fetching. A `FaultPlan` makes chosen requests fail
the ways a real network or server fails, so tests can prove the client
retries reads, never retries writes, gives up in time, and never crashes.

The faults (`Fault.kind`), each what a production link really shows:

- `status`: an error status (500, 502, 503, 504, 429 with `retry_after` as
  Retry-After) with a JSON error body, as a service or its gateway sends
  (`body` replaces it: `b"{}"`, a gateway's bare JSON). With `retry_date`,
  Retry-After is the other form RFC 9110 §10.2.3 allows: an HTTP-date
  `retry_after` seconds (rounded up) after the answer's `Date` header.
- `drop`: the connection closes without an answer (a reset, a proxy gone).
  In process this is a network error; over uvicorn an exception before the
  answer becomes uvicorn's own 500, the nearest an ASGI app can come.
- `slow`: the real answer, after `delay` seconds (a stalled backend; beyond
  the client's deadline it must give up, not hang).
- `trickle`: the real answer, its body sent `chunk` bytes at a time spread
  over at least `delay` seconds (a link that keeps a read timeout alive byte
  by byte: only a deadline on the whole answer stops it).
- `truncate`: the real answer's headers, content-length included, and only
  `keep` of its body bytes (a connection cut mid-body).
- `html`: an HTML error page (`status`, e.g. 200 from a sign-in proxy or 502
  from nginx) where JSON was due; `title` replaces its title.
- `empty`: `status` (200) with an empty body.
- `error`: `status` (200) with the service's own error body (`common.error_body`:
  `{"status": "error", "message"}` from the beta APIs and data reports,
  `{"message"}` from the registry, `{"statusMessage", "responseObject": null}`
  from the token service), `message` its text: a service that says a failure
  in the body of a success. The vendor's pages document the beta answers
  only as `{"status": "string"}` / `{"message", "status"}` (notes §4), so a
  200 that carries an error is theirs to send; a client that reads it as an
  empty list says "no users" where it should say what failed, and one that
  reads it as a record shows an empty one. It answers whatever its pattern
  matches: a list, or the read of one record (a detail, a token verification
  sent as a POST).

`Fault(pattern, status=…, retry_after=…, drop=True)` works as before: the
old `drop` flag is the `drop` kind. `FaultPlan.clear()` ends every fault (the
server recovers); `FaultPlan.seen` lists each request as "METHOD path".
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import threading
import time
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import Any, Literal

from flextui.sim.common import error_body

FaultKind = Literal["status", "drop", "slow", "trickle", "truncate", "html", "empty", "error"]
FAULT_KINDS: tuple[str, ...] = ("status", "drop", "slow", "trickle", "truncate", "html", "empty", "error")
ERROR_MESSAGE = "internal error (fault injected)"
"""The `error` kind's text unless `message` is given: a failure in words, as a service's error body says one."""

HTML_PAGE = (
    "<html>\r\n<head><title>{status} {reason}</title></head>\r\n<body>\r\n<center><h1>{status} {reason}</h1></center>\r\n"
    "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
)
REASONS = {200: "OK", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Temporarily Unavailable", 504: "Gateway Time-out"}


@dataclass
class Fault:
    """Fail the next `times` requests whose "METHOD path" matches `pattern` (after `skip` of them), the way `kind` says.

    `query`, when given, must also be found in the query string (`page=7`): concurrent requests
    arrive in no set order, so a fault meant for one page names the page rather than counting.
    """

    pattern: str
    query: str | None = None
    status: int = 503
    times: int = 1
    retry_after: float | None = None
    retry_date: bool = False  # Retry-After as an HTTP-date (with a Date header), not seconds
    drop: bool = False  # close without answering (a network fault): the `drop` kind
    truncate: bool = False  # the `truncate` kind, as a flag
    hits: int = 0
    kind: FaultKind = "status"
    delay: float = 0.0  # slow: seconds before answering; trickle: the least time the body takes
    hold: threading.Event | None = None  # slow: no answer until this is set (a test's "while the server is slow", not a time)
    chunk: int = 8  # trickle: bytes per send
    keep: int | None = None  # truncate: body bytes sent (default: half)
    skip: int = 0  # let this many matching requests through first (a fault mid-listing)
    body: bytes | None = None  # status: the body instead of the JSON error
    title: str | None = None  # html: the page's title instead of "STATUS REASON"
    message: str | None = None  # error: the error body's text instead of ERROR_MESSAGE
    passed: int = 0

    def __post_init__(self) -> None:
        if self.truncate:
            self.kind = "truncate"
        if self.drop:
            self.kind = "drop"
        elif self.kind == "drop":
            self.drop = True
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}: use one of {', '.join(FAULT_KINDS)}")

    def matches(self, method: str, path: str, query: str = "") -> bool:
        if self.hits >= self.times or re.search(self.pattern, f"{method} {path}") is None:
            return False
        if self.query is not None and re.search(self.query, query) is None:
            return False
        if self.passed < self.skip:
            self.passed += 1
            return False
        return True


@dataclass
class FaultPlan:
    """The faults to inject, in order of precedence, and the requests seen."""

    faults: list[Fault] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)

    def add(self, pattern: str, **kwargs: Any) -> Fault:
        fault = Fault(pattern, **kwargs)
        self.faults.append(fault)
        return fault

    def clear(self) -> None:
        """Stop injecting: every later request gets the real answer."""
        self.faults.clear()

    def pick(self, method: str, path: str, query: str = "") -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path, query):
                fault.hits += 1
                return fault
        return None


class DroppedConnection(Exception):
    """Raised inside the app to simulate a connection dropped by the network."""


class FaultMiddleware:
    """Delay each request by `latency_ms`, then apply the fault plan."""

    def __init__(self, app: Any, latency_ms: float = 0.0, plan: FaultPlan | None = None) -> None:
        self.app = app
        self.latency_ms = latency_ms
        self.plan = plan

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.latency_ms > 0:
            await asyncio.sleep(self.latency_ms / 1000)
        fault = None
        if self.plan is not None:
            method, path = scope.get("method", "GET"), scope.get("path", "")
            self.plan.seen.append(f"{method} {path}")
            fault = self.plan.pick(method, path, scope.get("query_string", b"").decode("latin-1"))
        if fault is None:
            await self.app(scope, receive, send)
            return
        method, path = scope.get("method", "GET"), scope.get("path", "")
        if fault.kind == "drop":
            raise DroppedConnection(f"fault injected: {method} {path}")
        if fault.kind == "status":
            await _answer(send, fault.status, b"application/json", _error_json() if fault.body is None else fault.body, fault)
        elif fault.kind == "html":
            page = HTML_PAGE.format(status=fault.status, reason=REASONS.get(fault.status, "Error")).encode()
            if fault.title is not None:
                page = page.replace(
                    f"<title>{fault.status} {REASONS.get(fault.status, 'Error')}</title>".encode(), f"<title>{fault.title}</title>".encode()
                )
            await _answer(send, fault.status, b"text/html", page, fault)
        elif fault.kind == "empty":
            await _answer(send, fault.status, b"application/json", b"", fault)
        elif fault.kind == "error":
            body = error_body(path, fault.status, ERROR_MESSAGE if fault.message is None else fault.message)
            await _answer(send, fault.status, b"application/json", json.dumps(body).encode(), fault)
        elif fault.kind == "slow":
            while fault.hold is not None and not fault.hold.is_set():  # (set from another thread: polled)
                await asyncio.sleep(0.01)
            await asyncio.sleep(fault.delay)
            await self.app(scope, receive, send)
        else:  # trickle, truncate: the real answer, reshaped
            start, body = await _collect(self.app, scope, receive)
            if fault.kind == "trickle":
                await _trickle(send, start, body, fault.chunk, fault.delay)
            else:
                await _truncate(send, start, body, fault.keep)


def _error_json() -> bytes:
    return json.dumps({"statusMessage": "fault injected", "message": "fault injected"}).encode()


async def _answer(send: Any, status: int, content_type: bytes, body: bytes, fault: Fault) -> None:
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    if fault.retry_after is not None and fault.retry_date:
        now = math.floor(time.time())
        headers.append((b"date", formatdate(now, usegmt=True).encode()))
        headers.append((b"retry-after", formatdate(now + math.ceil(fault.retry_after), usegmt=True).encode()))
    elif fault.retry_after is not None:
        headers.append((b"retry-after", f"{fault.retry_after:g}".encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _collect(app: Any, scope: dict[str, Any], receive: Any) -> tuple[dict[str, Any], bytes]:
    """Run the app and keep its answer: the start message and the whole body."""
    start: dict[str, Any] = {}
    chunks: list[bytes] = []

    async def keep(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            start.update(message)
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, keep)
    return start, b"".join(chunks)


def _with_length(start: dict[str, Any], length: int) -> dict[str, Any]:
    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
    headers.append((b"content-length", str(length).encode()))
    return {**start, "headers": headers}


async def _trickle(send: Any, start: dict[str, Any], body: bytes, chunk: int, at_least: float) -> None:
    """The body `chunk` bytes at a time, spread over at least `at_least` seconds."""
    chunk = max(1, chunk)
    pieces = [body[i : i + chunk] for i in range(0, len(body), chunk)] or [b""]
    interval = at_least / len(pieces) if at_least > 0 else 0.0
    await send(_with_length(start, len(body)))
    for index, piece in enumerate(pieces):
        if interval:
            await asyncio.sleep(interval)
        await send({"type": "http.response.body", "body": piece, "more_body": index < len(pieces) - 1})


async def _truncate(send: Any, start: dict[str, Any], body: bytes, keep: int | None) -> None:
    """The headers with the whole body's content-length, then only part of the body."""
    kept = body[: keep if keep is not None else math.ceil(len(body) / 2)]
    if len(kept) >= len(body) and body:
        kept = body[:-1]
    await send(_with_length(start, len(body)))
    await send({"type": "http.response.body", "body": kept})


__all__ = ["DroppedConnection", "FAULT_KINDS", "Fault", "FaultKind", "FaultMiddleware", "FaultPlan"]
