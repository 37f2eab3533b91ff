"""The fault suite, headless: every `flextui get KIND --demo` and `flextui report run`, against every fault.

The demo's simulator gets a `FaultPlan` through a test-only wrapper of
`flextui.context.demo_context` (the CLI itself has no fault switch), with a
short session deadline (`tests.faults.TIMEOUT`) and quick retries. For each
listing and each fault of `tests.faults.CASES`:

- persistent (every request fails): the exit code is the fault's class (5, 6
  or 1), stderr is one readable line, no traceback, and the process returns
  (pytest-timeout is the hang guard; no test measures wall-clock time);
- only the first request fails: a read the client retries completes (exit 0,
  the same rows as without a fault); one it does not retry fails as above;
- mid-listing (a later page fails, on the listings that page): the exit code
  is the fault's class, and stderr says the output is incomplete and where it
  stops; a JSON document on stdout is never closed (it cannot pass as whole).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import flextui.context as context
from flextui import kinds
from flextui.api.http import RetryPolicy
from flextui.cli import main
from flextui.sim.faults import FaultPlan
from flextui.sim.world import ADMIN
from tests.conftest import FIXED_NOW_MS
from tests.faults import CASES, RECOVERY_TIMEOUT, TIMEOUT, Case, cases, readable, unworded

ACME = "101200004242"
HELLO = "hello-world-dp"

# One headless listing per kind with a lister, and the report run; small enough to be quick.
LISTINGS: dict[str, list[str]] = {
    "tokens": ["get", "tokens", "--username", ADMIN[0]],
    "tokens-search": ["get", "tokens", "--search", "name=ci-*"],
    "projects": ["get", "projects"],
    "artifacts": ["get", "artifacts", f"{HELLO}/hello-world-image"],
    "members": ["get", "members", HELLO],
    "downloads": ["get", "downloads", "--filter", "from=2026-10-01", "--limit", "20"],
    "reports": ["get", "reports"],
    "entitlements": ["get", "entitlements", ACME, "--limit", "10"],
    "line-items": ["get", "line-items", "ENT-100000"],
    "products": ["get", "products", "--limit", "10"],
    "features": ["get", "features", "--limit", "10"],
    "feature-bundles": ["get", "feature-bundles", "--limit", "10"],
    "suites": ["get", "suites", "--limit", "10"],
    "part-numbers": ["get", "part-numbers", "--limit", "10"],
    "maintenance": ["get", "maintenance", "--limit", "10"],
    "users": ["get", "users", ACME, "--limit", "10"],
    "accounts": ["get", "accounts", "--limit", "10"],
    "report-run": ["report", "run", "fulfillment", "--past-days", "30", "--limit-records", "100", "--max-records", "300"],
}

# Listings that page, with small pages; the request of their pages; how many of those pass before the fault
# (where the first page is detected, pages 0 and 1 are both asked before any row is given).
PAGED: dict[str, tuple[list[str], str, int]] = {
    "tokens": (["get", "tokens", "--username", ADMIN[0], "--page-size", "3"], r"^GET /flexnet/uar/v1/tokens$", 1),
    "tokens-search": (["get", "tokens", "--search", "name=*", "--page-size", "3"], r"^POST /flexnet/uar/v1/tokens/search$", 1),
    "projects": (["get", "projects", "--page-size", "3"], r"^GET /registry/api/v1/projects$", 2),
    "members": (["get", "members", HELLO, "--page-size", "1"], r"/members$", 2),
    "downloads": (
        ["get", "downloads", "--filter", "from=2026-10-01", "--limit", "20", "--page-size", "3"],
        r"^GET /registry/api/v1/downloads",
        3,
    ),
    "entitlements": (["get", "entitlements", ACME, "--limit", "10", "--page-size", "3"], r"^GET /entitlements-api/v1/entitlements$", 2),
    "products": (["get", "products", "--limit", "10", "--page-size", "3"], r"^GET /products-api/v1/products$", 2),
    "users": (["get", "users", "--limit", "10", "--page-size", "3"], r"^GET /users-accounts-api/v1/users$", 2),
    "accounts": (["get", "accounts", "--limit", "10", "--page-size", "3"], r"^GET /users-accounts-api/v1/accounts$", 2),
    "report-run": (
        ["report", "run", "fulfillment", "--past-days", "30", "--limit-records", "20", "--max-records", "200"],
        r"^GET /data/api/v1/report/fulfillment$",
        1,
    ),
}


def install(monkeypatch: pytest.MonkeyPatch, plan: FaultPlan, *, timeout: float = TIMEOUT) -> None:
    """Every demo context from now on: the simulator with `plan`, a `timeout` deadline, quick retries, a frozen clock."""
    original: Callable[..., Any] = context.demo_context

    def with_faults(**kwargs: Any) -> Any:
        ctx = original(faults=plan, timeout=timeout, fixed_now_ms=FIXED_NOW_MS, **kwargs)
        ctx.session.retry = RetryPolicy(attempts=3, backoff=0.01)
        return ctx

    monkeypatch.setattr(context, "demo_context", with_faults)


def run(argv: list[str], capsys: pytest.CaptureFixture[str], fmt: str = "json") -> tuple[int, str, str]:
    code = main([*argv, "--demo", "-o", fmt])
    out, err = capsys.readouterr()
    return code, out, err


def error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"one line on stderr, not {len(lines)}: {err[:600]!r}"
    assert lines[0].startswith("flextui: "), lines[0]
    problems = readable(lines[0])
    assert not problems, f"unreadable ({', '.join(problems)}): {lines[0]!r}"
    return lines[0]


_clean: dict[str, str] = {}


def clean_output(name: str, argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """The listing's stdout without any fault (computed once per listing)."""
    if name not in _clean:
        with monkeypatch.context() as patch:
            install(patch, FaultPlan(), timeout=RECOVERY_TIMEOUT)
            code, out, err = run(argv, capsys)
        assert code == 0, err
        _clean[name] = out
    return _clean[name]


def test_every_listable_kind_is_covered() -> None:
    listable = {kind.id for kind in kinds.KINDS if kind.has_lister}
    assert listable <= set(LISTINGS), f"add a listing for {sorted(listable - set(LISTINGS))}"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", cases())
@pytest.mark.parametrize("name", list(LISTINGS))
def test_a_fault_that_does_not_stop(name: str, case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    plan = FaultPlan()
    fault = case.add_to(plan)
    install(monkeypatch, plan)
    code, out, err = run(LISTINGS[name], capsys)
    assert fault.hits >= 1, "the fault was met"
    line = error_line(err)
    assert code == case.exit_code, f"exit {code}, expected {case.exit_code}: {line}"
    assert out == "", "nothing printed: no answer came"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", cases())
@pytest.mark.parametrize("name", list(LISTINGS))
def test_a_fault_on_the_first_request_only(
    name: str, case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = clean_output(name, LISTINGS[name], capsys, monkeypatch)
    plan = FaultPlan()
    fault = case.add_to(plan, times=1)
    install(monkeypatch, plan, timeout=RECOVERY_TIMEOUT)
    code, out, err = run(LISTINGS[name], capsys)
    assert fault.hits == 1
    if case.retried:
        assert code == 0, f"the retry should have completed the listing: {err!r}"
        assert out == expected, "the same rows as without a fault"
    else:
        line = error_line(err)
        assert code == case.exit_code, f"exit {code}, expected {case.exit_code}: {line}"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", [c for c in cases() if c.values[0].name not in ("slow", "trickle")] + cases("slow"))
@pytest.mark.parametrize("name", list(PAGED))
def test_a_fault_on_a_later_page(name: str, case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv, pattern, skip = PAGED[name]
    plan = FaultPlan()
    fault = case.add_to(plan, pattern, skip=skip)
    install(monkeypatch, plan)
    code, out, err = run(argv, capsys)
    assert fault.hits >= 1, "the fault was met on a later page"
    line = error_line(err)
    assert code == case.exit_code, f"exit {code}, expected {case.exit_code}: {line}"
    assert out.startswith("[") and not out.rstrip().endswith("]"), "a JSON listing cut short is never closed"
    assert "incomplete" in line, f"stderr says the output is incomplete: {line}"
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("fmt", ["csv", "jsonl", "table"])
def test_a_listing_cut_short_says_how_far_it_got_in_every_format(
    fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv, pattern, skip = PAGED["tokens"]
    plan = FaultPlan()
    plan.add(pattern, status=503, times=1000, skip=skip)
    install(monkeypatch, plan)
    code = main([*argv, "--demo", "-o", fmt])
    out, err = capsys.readouterr()
    line = error_line(err)
    assert code == 5
    assert "incomplete" in line and "3 rows" in line, line
    assert out.strip(), "what was read is printed"


@pytest.mark.timeout(60)
def test_recovery_after_the_fault_stops(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same process, once the server is well again, lists as if nothing happened (nothing broken was cached)."""
    plan = FaultPlan()
    install(monkeypatch, plan)
    for case in CASES:
        fault = case.add_to(plan)
        code, _, err = run(LISTINGS["tokens"], capsys)
        assert code == case.exit_code and fault.hits >= 1, (case.name, err)
        plan.clear()
        code, out, err = run(LISTINGS["tokens"], capsys)
        assert code == 0 and json.loads(out), (case.name, err)


# One listing per service (the registry's sign-in is its own request), for the wording of each failure.
SERVICE_LISTINGS = ("tokens", "projects", "reports", "entitlements", "products", "users")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", cases())
@pytest.mark.parametrize("name", SERVICE_LISTINGS)
def test_each_failure_is_said_in_words(name: str, case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Not "flextui: 429 {}": which service failed on which request, how, whether it was retried, and what to do."""
    plan = FaultPlan()
    case.add_to(plan)
    install(monkeypatch, plan)
    code, _, err = run(LISTINGS[name], capsys)
    line = error_line(err)
    assert not unworded(line, case), f"{', '.join(unworded(line, case))}: {line}"


@pytest.mark.timeout(60)
def test_a_rate_limit_says_so_and_how_it_was_retried(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A gateway's 429 with `{}` and Retry-After: 1 (walk27-a 13): the words, the retries, the wait, and what to do."""
    plan = FaultPlan()
    plan.add(r"^GET /registry/api/v1/projects$", status=429, retry_after=1, body=b"{}", times=1000)
    install(monkeypatch, plan)
    original: Callable[..., Any] = context.demo_context

    def quick(**kwargs: Any) -> Any:
        ctx = original(**kwargs)
        # (no second-long waits in a test; every attempt made however slow the machine, so "tried 3 times" holds)
        ctx.session.retry = RetryPolicy(attempts=3, backoff=0.01, max_retry_after=0.01, budget_seconds=600.0)
        return ctx

    monkeypatch.setattr(context, "demo_context", quick)
    code, out, err = run(["get", "projects"], capsys)
    line = error_line(err)
    assert code == 5 and out == ""
    assert line == (
        "flextui: the registry is rate-limiting this client: 429 Too Many Requests to GET /registry/api/v1/projects"
        " (Retry-After: 1 s); tried 3 times, waiting 0.01 s between tries (its Retry-After asked 1 s; flextui waits at most 0.01 s);"
        " wait a while and try again, with fewer requests at once"
    )


@pytest.mark.timeout(60)
def test_an_html_page_shows_its_title_with_control_pictures(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's title goes through the one sanitiser, as the README says: ␛ and ␇, not Python's '\\x1b' escapes (walk27-a 14)."""
    plan = FaultPlan()
    plan.add(r"^GET /products-api/", kind="html", status=200, title="\x1b]0;pwned\x07 hello", times=1000)
    install(monkeypatch, plan)
    code, out, err = run(LISTINGS["products"], capsys)
    line = error_line(err)
    assert code == 1
    assert '("␛]0;pwned␇ hello")' in line, line
    assert "\\x1b" not in line and "\x1b" not in err + out
    assert line.startswith("flextui: the products API's answer to GET /products-api/v1/products (200 OK) is an HTML page"), line


# A 200 that holds an error and no list (the beta pages document their answers only as `{"status"}`):
# read as "no items", `get users -o csv` printed a header and exit 0. Each listing's own request is hit
# (the registry's sign-in answers).
ERROR_200 = b'{"status": "error", "message": "boom"}'
ERROR_LISTINGS: dict[str, tuple[str, str]] = {
    "users": (r"^GET /users-accounts-api/v1/users$", "the users and accounts API's answer to GET /users-accounts-api/v1/users (200 OK)"),
    "entitlements": (r"^GET /entitlements-api/v1/entitlements$", "the entitlements API's answer to GET /entitlements-api/v1/entitlements"),
    "projects": (r"^GET /registry/api/v1/projects$", "the registry's answer to GET /registry/api/v1/projects (200 OK)"),
    "tokens": (r"^GET /flexnet/uar/v1/tokens$", "the token service's answer to GET /flexnet/uar/v1/tokens"),
    "report-run": (r"^GET /data/api/v1/report/fulfillment$", "the data reports service's answer to GET /data/api/v1/report/fulfillment"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("name", list(ERROR_LISTINGS))
def test_a_200_that_holds_an_error_is_said_not_listed_as_empty(
    name: str, fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pattern, whose = ERROR_LISTINGS[name]
    plan = FaultPlan()
    fault = plan.add(pattern, status=200, body=ERROR_200, times=1000)
    install(monkeypatch, plan)
    code, out, err = run(LISTINGS[name], capsys, fmt)
    line = error_line(err)
    assert fault.hits >= 1
    assert code == 1, f"exit {code}: {line}"
    assert out == "", "no rows, and no header of an empty list"
    assert line.startswith(f"flextui: {whose}") and 'says "error: boom"' in line, line
    assert not unworded(line), line


@pytest.mark.timeout(60)
@pytest.mark.parametrize("body", [b"{}", b'"hello"', b'{"message": "boom"}'])
def test_an_answer_with_no_list_is_said_not_listed_as_empty(
    body: bytes, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = FaultPlan()
    plan.add(r"^GET /users-accounts-api/v1/users$", status=200, body=body, times=1000)
    install(monkeypatch, plan)
    code, out, err = run(LISTINGS["users"], capsys, "csv")
    line = error_line(err)
    assert code == 1 and out == "", line
    assert 'holds no "users" list' in line, line


# One record (`flextui get tokens NAME`, the token's details) answered 200 with an error body, or with no token in
# it, printed a token named "‹unreadable›" with nothing else, exit 0.
ONE_TOKEN = "flextui-demo-admin"  # the admin's seeded token


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("body", "words"),
    [
        (ERROR_200, 'says "error: boom" and holds no token'),
        (b'{"statusMessage": "Token lookup failed", "responseObject": null}', 'says "Token lookup failed" and holds no token'),
        (b"{}", "holds no token: it is an empty object"),
        (b"null", "holds no token: it is null"),
    ],
    ids=["error-body", "token-error", "empty-object", "null"],
)
def test_one_record_answered_without_it_is_said_not_printed_empty(
    body: bytes, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = FaultPlan()
    fault = plan.add(rf"^GET /flexnet/uar/v1/token/{ONE_TOKEN}$", status=200, body=body, times=1000)
    install(monkeypatch, plan)
    code, out, err = run(["get", "tokens", ONE_TOKEN], capsys, "csv")
    line = error_line(err)
    assert fault.hits >= 1
    assert code == 1, f"exit {code}: {line}"
    assert out == "", "no row, and no header of one"
    assert line == f"flextui: the token service's answer to GET /flexnet/uar/v1/token/{ONE_TOKEN} (200 OK) {words}", line
    assert not unworded(line), line
