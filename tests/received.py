"""The simulator with every request it received noted, so a test asserts on what went over the wire."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs


@dataclass
class Arrived:
    """One request as the simulator got it: method, path, query (each name's values) and body (JSON when it is)."""

    method: str
    path: str
    query: dict[str, list[str]]
    body: Any


class Received:
    """An ASGI wrapper around a simulator app (`create_app`): the requests it received, in order, in `arrived`."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.state = app.state  # what `make_session` and the tests read (the world, the dialects)
        self.arrived: list[Arrived] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        messages: list[dict[str, Any]] = []
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request" or not message.get("more_body", False):
                break
        raw = b"".join(m.get("body", b"") for m in messages)
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        self.arrived.append(Arrived(scope.get("method", "GET"), scope.get("path", ""), query, body))

        async def replay() -> dict[str, Any]:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    def to(self, method: str, ending: str) -> list[Arrived]:
        """The requests of `method` whose path ends with `ending`."""
        return [a for a in self.arrived if a.method == method and a.path.endswith(ending)]
