"""Latency and fault injection for the simulator (ASGI middleware).

`--latency MS` delays every request, which the benchmarks use to compare
sequential and concurrent fetching. A `FaultPlan` makes chosen requests fail
(503, 429 with Retry-After, a dropped connection, or an answer cut in half) so tests can prove the
client retries reads, never retries writes, and never crashes.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Fault:
    """Fail the next `times` requests whose "METHOD path" matches `pattern`."""

    pattern: str
    status: int = 503
    times: int = 1
    retry_after: float | None = None
    drop: bool = False  # close without answering (a network fault)
    truncate: bool = False  # answer, but only the first half of the body (a cut-off transfer)
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return self.hits < self.times and re.search(self.pattern, f"{method} {path}") is not None


@dataclass
class FaultPlan:
    """The faults to inject, in order of precedence, and the requests seen."""

    faults: list[Fault] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)

    def add(self, pattern: str, **kwargs: Any) -> Fault:
        fault = Fault(pattern, **kwargs)
        self.faults.append(fault)
        return fault

    def pick(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path):
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
        if self.plan is not None:
            method, path = scope.get("method", "GET"), scope.get("path", "")
            self.plan.seen.append(f"{method} {path}")
            fault = self.plan.pick(method, path)
            if fault is not None:
                if fault.drop:
                    raise DroppedConnection(f"fault injected: {method} {path}")
                if fault.truncate:
                    await self._truncated(scope, receive, send)
                    return
                headers = [(b"content-type", b"application/json")]
                if fault.retry_after is not None:
                    headers.append((b"retry-after", str(fault.retry_after).encode()))
                body = json.dumps({"statusMessage": "fault injected", "message": "fault injected"}).encode()
                await send({"type": "http.response.start", "status": fault.status, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)

    async def _truncated(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The real answer with only the first half of its body (and a length that says so)."""
        start: dict[str, Any] = {}
        body = b""

        async def keep(message: dict[str, Any]) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                body += message.get("body", b"")

        await self.app(scope, receive, keep)
        cut = body[: len(body) // 2]
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(cut)).encode()))
        await send({"type": "http.response.start", "status": start.get("status", 200), "headers": headers})
        await send({"type": "http.response.body", "body": cut})
