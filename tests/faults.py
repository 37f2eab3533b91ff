"""The faults a production network and server show, as one catalogue for the CLI and TUI fault suites.

Each `Case` is a `sim.faults.Fault` recipe, the exit code class the CLI must
give when the fault does not stop (5 server/rate limit, 6 unreachable or
timed out, 1 an answer that cannot be read), and whether a read hit by it
once is retried (then a fault limited to the first requests is survived).

`TIMEOUT` is the session's deadline for a whole answer in these suites:
the slow and trickling answers take far longer (`SLOW`), so only the
client's deadline can end them. The simulator answers a normal request of
these listings in well under a tenth of that.

`readable(text)` is what a message shown to a person must be: one line, no
traceback, no HTML, no internal exception passed through (a pydantic
validation dump, "unexpected TypeError"), no raw control character, short.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

TIMEOUT = 0.5
"""The session deadline (seconds) while a fault does not stop: slow and trickling answers end here."""
RECOVERY_TIMEOUT = 1.0
"""The deadline when the fault stops after the first requests: room for the retried request on a loaded machine."""
SLOW = 30.0
"""How long a slow or trickling answer would take: far beyond any deadline."""


@dataclass(frozen=True)
class Case:
    """A fault to inject, and what the client must make of it."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    exit_code: int = 5
    retried: bool = True

    def add_to(self, plan: Any, pattern: str = ".*", *, times: int = 1000, skip: int = 0) -> Any:
        return plan.add(pattern, times=times, skip=skip, **self.options)


CASES: tuple[Case, ...] = (
    Case("500", {"status": 500}, 5, retried=False),
    Case("502", {"status": 502}, 5),
    Case("503", {"status": 503}, 5),
    Case("504", {"status": 504}, 5),
    Case("429-retry-after", {"status": 429, "retry_after": 0.05}, 5),
    Case("dropped", {"kind": "drop"}, 6),
    Case("slow", {"kind": "slow", "delay": SLOW}, 6),
    Case("trickle", {"kind": "trickle", "delay": SLOW, "chunk": 4}, 6),
    Case("truncated", {"kind": "truncate"}, 6),
    Case("html-200", {"kind": "html", "status": 200}, 1, retried=False),
    Case("html-502", {"kind": "html", "status": 502}, 5),
    Case("empty-200", {"kind": "empty", "status": 200}, 1, retried=False),
    Case("error-200", {"kind": "error", "status": 200}, 1, retried=False),
)

CASE_IDS = [case.name for case in CASES]
RETRIED = tuple(case for case in CASES if case.retried)


def cases(*names: str) -> list[Any]:
    """`CASES` as pytest params (only `names` if given)."""
    return [pytest.param(case, id=case.name) for case in CASES if not names or case.name in names]


_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(\s[^<>]*)?/?>")
# What a client bug says instead of a message: an internal exception passed through as it came.
_INTERNAL = re.compile(
    r"(?i)unexpected \w*error|validation error for|errors\.pydantic\.dev|NoneType|object has no attribute|KeyError|TypeError|AttributeError"
)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def readable(text: str, *, limit: int = 400) -> list[str]:
    """What keeps `text` from being a message for a person; an empty list means it is one."""
    problems = []
    if not text.strip():
        problems.append("empty")
    if "\n" in text.strip():
        problems.append("more than one line")
    if "Traceback" in text or 'File "' in text:
        problems.append("a traceback")
    if _TAG.search(text):
        problems.append("HTML markup")
    if _INTERNAL.search(text):
        problems.append("an internal error passed through")
    if _CONTROL.search(text.strip()):
        problems.append("a control character")
    if len(text) > limit:
        problems.append(f"{len(text)} characters long")
    return problems


SERVICES = (
    "the token service",
    "the registry",
    "the data reports service",
    "the entitlements API",
    "the products API",
    "the users and accounts API",
)
_REQUEST = re.compile(r"\b(?:(?:GET|POST|PUT|PATCH|DELETE) )?/[\w./-]+")
_BARE_STATUS = re.compile(r"(?:^|: )\d{3} (?![A-Z][a-z])")  # "429 {}", "500 fault injected"; not "500 Internal Server Error"


def unworded(text: str, case: Case | None = None) -> list[str]:
    """What keeps a failure's message from saying in words what happened; an empty list means it does.

    It names the service and the request, does not start with a bare status code, and a rate limit says
    that it is one, the Retry-After it was given, and how often it was tried.
    """
    problems = []
    if not any(service in text for service in SERVICES):
        problems.append("no service named")
    if not _REQUEST.search(text):
        problems.append("no request named")
    if _BARE_STATUS.search(text):
        problems.append("a bare status code")
    if "{}" in text:
        problems.append("a raw body")
    if case is not None and case.name.startswith("429"):
        for words in ("rate-limiting", "Retry-After", "try again"):
            if words not in text:
                problems.append(f"no {words!r}")
        # how often depends on the time the retries were allowed as well as on their number (a loaded run stopped at 2)
        if not re.search(r"tried \d+ times|not retried: a change is never sent twice", text):
            problems.append("not how often it was tried")
    return problems
