"""Every lister against every dialect: each item exactly once, in a bounded number of requests, honest counts.

The simulator's dialects (`flextui.sim.dialects`) reproduce the variants a
real FlexNet Operations service shows: page sizes spelled, capped or ignored,
pages from 0, links on every page or none, nulls for empty collections,
other envelopes, the JWT in a header. Each headless lister (what `flextui
get` and `flextui report run` print) runs against each, and must print the
same items as against the strict default, none twice, with no shortfall, and
in a number of requests that a runaway loop could never meet.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import re
from typing import Any

import pytest

from flextui import kinds
from flextui.cli import build_parser
from flextui.context import demo_context
from flextui.headless.reports import run_report
from flextui.sim.dialects import DEFAULT, DIALECTS, speaking
from flextui.sim.registry import HELLO
from tests.conftest import FIXED_NOW_MS

SIZE = 7  # small pages, so every listing spans several

# kind → (target, filters, extra args): listings of a few dozen to a few hundred items each.
LISTINGS: dict[str, tuple[str | None, list[str], dict[str, Any]]] = {
    "tokens": (None, [], {"username": "admin@flexdemo.example"}),
    "projects": (None, [], {}),
    "members": (HELLO, [], {}),
    "artifacts": (f"{HELLO}/hello-world-image", [], {}),
    "downloads": (None, [], {}),
    "entitlements": (None, [], {}),
    "line-items": ("ENT-100021", [], {}),
    "products": (None, [], {}),
    "features": (None, [], {}),
    "suites": (None, [], {}),
    "part-numbers": (None, [], {}),
    "users": (None, [], {}),
    "accounts": (None, [], {}),
}

# Dialects that change what lists answer (the others change other calls; they run here too, as no-ops must hold).
VARIANTS = sorted(DIALECTS) + ["lenient"]


def _args(kind: str) -> argparse.Namespace:
    target, filters, extra = LISTINGS[kind]
    base = {"target": target, "filter": filters, "page_size": SIZE, "limit": None, "search": None, "username": None, "creator": None}
    return argparse.Namespace(**{**base, **extra})


async def _list(kind: str, dialect: str | None) -> tuple[list[str], Any]:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, dialects=speaking(dialect) if dialect else None)
    try:
        found = kinds.lookup(kind)
        assert found is not None
        lister = found.lister_function()
        rows = lister(ctx, _args(kind)) if getattr(lister, "wants_context", False) else lister(ctx.session, _args(kind))
        out = [json.dumps(row, sort_keys=True, default=str) async for row in rows]
        return out, ctx.session
    finally:
        await ctx.aclose()


_reference: dict[str, list[str]] = {}


async def reference(kind: str) -> list[str]:
    """What the strict default lists (itself checked against the world in the listers' own tests)."""
    if kind not in _reference:
        rows, session = await _list(kind, None)
        assert rows and not session.shortfalls
        _reference[kind] = rows
    return _reference[kind]


def bound(count: int) -> int:
    """Requests a bounded pager may spend: the pages at the smallest size any dialect uses, plus detection and settling."""
    smallest = min(SIZE, 7)
    return math.ceil(count / smallest) + 6


def _drop(*keys: str) -> Any:
    return lambda row: {k: v for k, v in row.items() if k not in keys}


# What a dialect changes in a listed row by design (the same items, shown otherwise), undone on both sides before comparing
# (None: a row the dialect adds, left out): a shared registry lists names with the tenant prefix, shown as listed; a dedicated
# one may hold a project named with it (`1107-hello-world-dp`); the docs' artifacts form has no digest, id or type.
REWRITES: dict[tuple[str, str], Any] = {
    ("shared-registry-prefix", "projects"): lambda row: {**row, "name": re.sub(r"^\d{4}-", "", row["name"])},
    ("dedicated-registry-tenant-name", "projects"): lambda row: None if row["name"] == f"1107-{HELLO}" else row,
    ("artifacts-docs-envelope", "artifacts"): _drop("digest", "id", "type"),
}


def _rewritten(rows: list[str], rewrite: Any) -> list[str]:
    if not rewrite:
        return rows
    done = (rewrite(json.loads(row)) for row in rows)
    return [json.dumps(row, sort_keys=True) for row in done if row is not None]


@pytest.mark.parametrize("kind", sorted(LISTINGS))
@pytest.mark.parametrize("dialect", VARIANTS)
async def test_every_item_once_in_bounded_requests(kind: str, dialect: str) -> None:
    rewrite = REWRITES.get((dialect, kind))
    expected = _rewritten(await reference(kind), rewrite)
    rows, session = await _list(kind, dialect)
    if rewrite:
        assert _rewritten(rows, rewrite) != rows, f"{kind} under {dialect}: the dialect changed nothing"
        rows = _rewritten(rows, rewrite)
    assert len(rows) == len(set(rows)), f"{kind} under {dialect}: an item listed twice"
    assert sorted(rows) == sorted(expected), f"{kind} under {dialect}: {len(rows)} items, expected {len(expected)}"
    assert not session.shortfalls, [o.describe() for o in session.shortfalls]
    assert session.requests_sent <= bound(len(expected)) + (len(expected) and 2), (
        f"{session.requests_sent} requests for {len(expected)} items"
    )


def test_every_dialect_is_listed_here() -> None:
    assert set(VARIANTS) >= set(DIALECTS) and DEFAULT <= set(DIALECTS)


# -- reports: links on every page, none, the documented metadata forms ----------------------------------------


async def _report(dialect: str | None, *argv: str) -> tuple[int, list[dict[str, Any]], str, Any]:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, dialects=speaking(dialect) if dialect else None)
    out, err = io.StringIO(), io.StringIO()
    try:
        args = build_parser().parse_args(
            ["report", "run", "fulfillment", "--past-days", "30", "--limit-records", "40", "-o", "jsonl", *argv]
        )
        code = await run_report(ctx, args, out=out, err=err)
        return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue(), ctx.session
    finally:
        await ctx.aclose()


@pytest.mark.parametrize(
    "dialect", ["links-every-page", "links-none", "report-types-documented", "report-names-objects", "null-collections", "lenient"]
)
async def test_reports_every_record_once(dialect: str) -> None:
    code, expected, _, _ = await _report(None)
    assert code == 0 and expected
    code, rows, err, session = await _report(dialect)
    if dialect == "links-none":  # no count to check a "past 30 days" window read in pages against: it may have moved
        assert code == 8 and "no count from the server to check a moving window against" in err, err
    else:
        assert code == 0, err
    keys = [json.dumps(r, sort_keys=True) for r in rows]
    assert len(keys) == len(set(keys)) and sorted(keys) == sorted(json.dumps(r, sort_keys=True) for r in expected)
    assert session.requests_sent <= math.ceil(len(expected) / 40) + 8


async def test_a_filter_works_with_the_documented_report_types() -> None:
    """`report-types/{group}` as "a data array of the filters": --filter is checked against it, not refused."""
    code, rows, err, _ = await _report("report-types-documented", "--filter", "accountID $sw 1012")
    assert code == 0, err
    assert rows and all(str(r.get("accountID", r.get("AccountID", ""))).startswith("1012") for r in rows)


# -- a listing that cannot be finished says so, and exits non-zero ---------------------------------------


def test_a_listing_cut_short_exits_8_with_the_reason(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.api import paging
    from flextui.cli import main

    original = paging.Pager.__init__

    def capped(self: Any, *a: Any, **kw: Any) -> None:
        kw["max_requests"] = 3
        original(self, *a, **kw)

    monkeypatch.setattr(paging.Pager, "__init__", capped)
    code = main(["get", "projects", "--demo", "--page-size", "5", "-o", "csv"])
    out, err = capsys.readouterr()
    assert code == 8
    match = re.search(r"incomplete: showing (\d+) of at least (\d+) projects: stopped after 3 page requests", err)
    assert match and int(match.group(2)) == int(match.group(1)) + 1, err
    assert len(out.strip().splitlines()) == int(match.group(1)) + 1, "the header and every row it could read"
    assert err.count("showing") == 1, "said once"


def test_exit_codes_tell_whose_fault_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    from flextui.cli import main

    assert main(["get", "entitlements", "--demo", "--filter", "colour=red"]) == 2, "the user's own bad usage"
    assert main(["get", "line-items", "--demo", "NO-SUCH-ENTITLEMENT"]) == 4
    capsys.readouterr()
