"""A hostile server for tests: the simulator, with terminal attacks in every free-text value it returns.

`HostileTransport` wraps the in-process simulator transport. Every JSON
string value under a free-text key (names, usernames, descriptions, display
names, messages…) gets `SUFFIX` appended: an OSC 52 clipboard write, a screen
wipe, an OSC 8 link, a window retitle, the C1 CSI, NUL and the bidi/format
controls. Ids, dates and enums are left alone so the client keeps working,
and the payload is taken out of what the client sends back (URL paths, query
parameters, JSON bodies), so a hostile name can still be opened, rotated or
deleted. The first free-text value of each response also carries `BIG`, a
100 KB string. Requests whose path contains a `fail_paths` entry are answered
400 with a hostile error message.

The data-report service's identifiers (group, column, filter and operator
names) are kept clean by default, as the client checks them against its
catalogue; `identifiers` poisons them too, for the error paths that name them
(`IDENTIFIERS`: "groups" the report names, "filters" a report's model — its
name, column and filter names and descriptions — and "operators" the operator
list), each with `SUFFIX`.

`install(monkeypatch)` makes every demo context (TUI and `--demo` CLI) use it.
`raw_findings(text)` lists what must never reach a terminal or a file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import httpx
import pytest

OSC52 = "\x1b]52;c;SE9TVElMRQ==\x07"
WIPE = "\x1b[2J"
OSC8 = "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\"
TITLE = "\x1b]0;pwned\x07"
C1_CSI = "\x9b31m"
NUL = "\x00"
BIDI = "\u061c\u200e\u200f\u202e\u2066\u2067\u2068\u2069"
PAYLOAD = OSC52 + WIPE + OSC8 + TITLE + C1_CSI + NUL + BIDI
SUFFIX = " " + PAYLOAD
BIG = " " + (PAYLOAD + "x" * 64) * (100_000 // (len(PAYLOAD) + 64) + 1)
BIG = BIG[:100_000]

FREE_TEXT = re.compile(
    r"(?i)^(name|\w*Name|\w*[dD]escription|description|message|statusMessage|displayName|username|userName|"
    r"tokenCreator|creator|city|reason|note|notes|comment|title|label|value|"
    r"tokenType)$"  # a plain string to the client, shown in the tokens Type column
)
# Free-text-looking keys whose values the client parses or compares (enums, versions, report identifiers).
KEEP = {
    "partnerTierName",
    "licenseTechnology",
    "licenseGenerator",
    "hostType",
    "hostTypes",
    "licenseModel",
    "licenseModels",
    "reportName",
    "groupName",
    "typeName",
    "columnName",
    "fieldName",
    "dataType",
    "operatorName",
}

_RAW_OSC = re.compile(r"\x1b\]")
_C1 = re.compile("[\x80-\x9f]")
_BIDI = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


TEXTUAL_OSC = re.compile(r"\x1b\]22;[a-z-]+\x07")
"""The one OSC Textual writes itself: the mouse pointer's shape (OSC 22)."""


def raw_findings(text: str, *, allow_osc: re.Pattern[str] | None = None) -> dict[str, int]:
    """Counts of what must never reach a terminal or a file; an empty dict is clean.

    `allow_osc` matches the OSC sequences a terminal stream may hold for
    Textual's own reasons (`TEXTUAL_OSC`); every other OSC counts.
    """
    found: dict[str, int] = {}
    osc = [m.start() for m in _RAW_OSC.finditer(text) if not (allow_osc and allow_osc.match(text, m.start()))]
    checks = {
        "OSC (ESC ])": len(osc),
        "ESC [2J": text.count(WIPE),
        "payload OSC 52": text.count("\x1b]52;c;SE9TVElMRQ=="),
        "payload OSC 8 URL": text.count("\x1b]8;;http://evil"),
        "payload OSC 0": text.count("\x1b]0;pwned"),
        "C1": len(_C1.findall(text)),
        "bidi": len(_BIDI.findall(text)),
        "NUL": text.count("\x00"),
    }
    for name, count in checks.items():
        if count:
            found[name] = count
    return found


def where(text: str, limit: int = 5, *, allow_osc: re.Pattern[str] | None = None) -> list[str]:
    """Snippets around the first raw findings, to say where they came from in a failure message."""
    spots = sorted(
        {
            m.start()
            for pattern in (_RAW_OSC, _C1, _BIDI)
            for m in pattern.finditer(text)
            if not (pattern is _RAW_OSC and allow_osc and allow_osc.match(text, m.start()))
        }
        | {i for i in (text.find(WIPE), text.find("\x00")) if i >= 0}
    )
    return [repr(text[max(0, i - 40) : i + 40]) for i in spots[:limit]]


def raw_findings_in_data(text: str) -> dict[str, int]:
    """For files and stdout: not one ESC either (a data file has no business holding one)."""
    found = raw_findings(text)
    if "\x1b" in text:
        found["ESC"] = text.count("\x1b")
    return found


# The data-report service names groups, fields and filters with "name": identifiers the client checks
# against its catalogue and matches with record keys. Its records and descriptions are poisoned.
KEEP_BY_PATH = {"/data/": KEEP | {"name"}}

IDENTIFIERS: dict[str, tuple[str, frozenset[str]]] = {
    "groups": ("/report/report-names", frozenset({"data", "reportName", "description"})),
    "filters": ("/report/report-types", frozenset({"name", "filter", "filterName", "columnName", "description"})),
    "operators": ("/report/op-list", frozenset({"operator", "operatorName", "description"})),
}
"""(`identifiers`) what each variant poisons: in the answers to a path holding the first, every string under those keys."""


def _poison_identifiers(value: Any, keys: frozenset[str], key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: _poison_identifiers(v, keys, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_poison_identifiers(v, keys, key) for v in value]
    if isinstance(value, str) and key in keys:
        return value + SUFFIX
    return value


def _poison(value: Any, state: dict[str, bool], keep: set[str], key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: _poison(v, state, keep, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_poison(v, state, keep, key) for v in value]
    if isinstance(value, str) and key not in keep and FREE_TEXT.match(key or "-"):
        if not state["big"]:
            state["big"] = True
            return value + SUFFIX + BIG
        return value + SUFFIX
    return value


def _unpoison_text(text: str) -> str:
    return text.replace(BIG, "").replace(SUFFIX, "")


def _unpoison(value: Any) -> Any:
    if isinstance(value, dict):
        return {_unpoison_text(k): _unpoison(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unpoison(v) for v in value]
    if isinstance(value, str):
        return _unpoison_text(value)
    return value


def hostile_error_body(path: str) -> dict[str, Any]:
    message = f"the server refuses{SUFFIX}"
    return {"statusMessage": message, "message": message, "status": "error", "responseObject": None}


class HostileTransport(httpx.AsyncBaseTransport):
    """The simulator behind a man in the middle that fills free text with terminal attacks."""

    def __init__(self, inner: httpx.AsyncBaseTransport, *, fail_paths: Iterable[str] = (), identifiers: Iterable[str] = ()) -> None:
        self.inner = inner
        self.fail_paths = list(fail_paths)
        self.identifiers = [IDENTIFIERS[name] for name in identifiers]
        self.poisoned = 0

    def _clean_request(self, request: httpx.Request) -> httpx.Request:
        url = request.url
        path = _unpoison_text(url.path)
        params = [(_unpoison_text(k), _unpoison_text(v)) for k, v in url.params.multi_items()]
        if path != url.path or params != url.params.multi_items():
            url = url.copy_with(path=path, params=params)
        content = request.content
        headers = dict(request.headers)
        if content and "json" in headers.get("content-type", ""):
            try:
                content = json.dumps(_unpoison(json.loads(content))).encode()
            except ValueError:
                pass
        headers.pop("content-length", None)
        return httpx.Request(request.method, url, headers=headers, content=content, extensions=request.extensions)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request = self._clean_request(request)
        if any(part in request.url.path for part in self.fail_paths):
            return httpx.Response(400, json=hostile_error_body(request.url.path), request=request)
        response = await self.inner.handle_async_request(request)
        if "json" not in response.headers.get("content-type", ""):
            return response
        body = await response.aread()
        try:
            data = json.loads(body)
        except ValueError:
            return response
        keep = next((k for prefix, k in KEEP_BY_PATH.items() if request.url.path.startswith(prefix)), KEEP)
        poisoned = _poison(data, {"big": False}, keep)
        for ending, keys in self.identifiers:
            if ending in request.url.path:
                poisoned = _poison_identifiers(poisoned, keys)
        self.poisoned += 1
        headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-encoding")}
        return httpx.Response(
            response.status_code,
            headers=headers,
            content=json.dumps(poisoned, ensure_ascii=False).encode(),
            request=request,
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


def install(monkeypatch: pytest.MonkeyPatch, *, fail_paths: Iterable[str] = (), identifiers: Iterable[str] = ()) -> list[HostileTransport]:
    """Every demo context made from now on talks to the simulator through a `HostileTransport`; returns them as made."""
    from flextui.sim import app as sim_app

    made: list[HostileTransport] = []
    original = sim_app.in_process_transport

    def hostile(app: Any, *, threaded: bool = False) -> httpx.AsyncBaseTransport:
        transport = HostileTransport(original(app, threaded=threaded), fail_paths=fail_paths, identifiers=identifiers)
        made.append(transport)
        return transport

    monkeypatch.setattr(sim_app, "in_process_transport", hostile)
    return made
