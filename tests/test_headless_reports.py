"""`flextui report list | types | run`: every command and format, filters checked before sending."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from flextui.api.errors import ApiError, Forbidden
from flextui.api.filters import FilterSet
from flextui.api.reports import ReportsService
from flextui.cli import build_parser, main
from flextui.context import demo_context
from flextui.headless.reports import run_report
from tests.conftest import FIXED_NOW_MS


def parse(*argv: str) -> Any:
    return build_parser().parse_args(["report", *argv])


async def run(*argv: str, as_user: str = "admin") -> tuple[int, str, str, Any]:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, as_user=as_user)
    out, err = io.StringIO(), io.StringIO()
    try:
        code = await run_report(ctx, parse(*argv), out=out, err=err)
        expected = None
        if argv[0] == "run" and code == 0:
            expected = ctx
        return code, out.getvalue(), err.getvalue(), expected
    finally:
        if argv[0] != "run":
            await ctx.aclose()


async def fetch_all(ctx: Any, group: str, conditions: list[str], **kwargs: Any) -> list[dict[str, Any]]:
    service = ReportsService(ctx.session)
    rtype = await service.report_type(group)
    fs = FilterSet.build(conditions, report=rtype, limit_records=2500, **kwargs)
    try:
        return await service.fetch_all(group, fs)
    finally:
        await ctx.aclose()


# -- list and types ------------------------------------------------------------------


async def test_list_in_each_format() -> None:
    code, out, _, _ = await run("list", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert [r["name"] for r in rows] == [
        "account",
        "user",
        "entitlement",
        "device",
        "served-device",
        "product-feature",
        "fulfillment",
        "usage",
    ]
    fulfillment = next(r for r in rows if r["name"] == "fulfillment")
    assert fulfillment["columns"] == 21 and fulfillment["dateField"] == "fulfillDate"
    assert "accountID" in fulfillment["filters"]
    code, out, _, _ = await run("list", "-o", "csv")
    assert out.splitlines()[0] == "name,columns,filters,dateField,description"
    assert len(list(csv.DictReader(io.StringIO(out)))) == 8
    code, out, _, _ = await run("list", "-o", "jsonl")
    assert [json.loads(line)["name"] for line in out.splitlines()][-1] == "usage"
    code, out, _, _ = await run("list")
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["name", "columns", "filters"] and set(lines[1]) <= {"-", " "}
    assert any(line.startswith("served-device ") for line in lines)


async def test_types_of_a_group_and_of_all() -> None:
    code, out, _, _ = await run("types", "usage", "-o", "json")
    assert code == 0
    rows = json.loads(out)
    by_col = {r["column"]: r for r in rows}
    assert by_col["usageTime"]["type"] == "integer" and by_col["usageTime"]["operators"] == "$eq $in"
    assert by_col["accountId"]["filter"] == "accountId"
    code, out, _, _ = await run("types", "Entitlement", "-o", "json")  # any case
    rows = json.loads(out)
    acct = next(r for r in rows if r["column"] == "CustomersAndPartners.EndCustomerAccountID")
    assert acct["filter"] == "accountID"
    code, out, _, _ = await run("types", "-o", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["group"] for r in rows} >= {"fulfillment", "usage", "device"}
    code, out, _, _ = await run("types", "usage")
    assert out.splitlines()[0].split()[:2] == ["column", "type"]


# -- run ---------------------------------------------------------------------------------


async def test_run_csv_matches_the_service() -> None:
    code, out, err, ctx = await run("run", "fulfillment", "--filter", "accountID $sw 10", "--past-days", "7", "-o", "csv")
    assert code == 0, err
    got = list(csv.DictReader(io.StringIO(out, newline="")))
    expected = await fetch_all(ctx, "fulfillment", ["accountID $sw 10"], past_days=7)
    assert len(got) == len(expected) > 0
    assert all(r["accountID"].startswith("10") for r in got)
    assert [r["fulfillmentID"] for r in got] == [r["fulfillmentID"] for r in expected]
    assert list(got[0])[:3] == ["fulfillmentID", "fulfillDate", "fulfillmentType"]
    assert out.startswith("fulfillmentID,") and "\r\n" in out
    first = expected[0]
    assert got[0]["isPermanent"] == ("true" if first["isPermanent"] else "false")


async def test_run_json_and_jsonl_keep_types() -> None:
    code, out, err, ctx = await run("run", "usage", "--past-days", "2", "--limit-records", "100", "-o", "json")
    assert code == 0, err
    rows = json.loads(out)
    expected = await fetch_all(ctx, "usage", [], past_days=2)
    assert rows == expected
    assert isinstance(rows[0]["usageTime"], int) and isinstance(rows[0]["isOverage"], bool)
    code, out, err, ctx = await run("run", "usage", "--past-days", "2", "-o", "jsonl", "--filter", "meterType $eq named")
    await ctx.aclose()
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines and all(r["meterType"] == "named" for r in lines)


async def test_run_table_and_max_records() -> None:
    code, out, err, ctx = await run("run", "fulfillment", "--past-days", "30", "--max-records", "5", "--limit-records", "2")
    await ctx.aclose()
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("fulfillmentID") and len(lines) == 2 + 5


async def test_run_with_no_records_writes_an_empty_document() -> None:
    code, out, err, ctx = await run("run", "fulfillment", "--filter", "accountID $eq nobody", "-o", "json")
    await ctx.aclose()
    assert code == 0
    assert json.loads(out) == []
    assert "no records" in err
    code, out, err, ctx = await run("run", "fulfillment", "--filter", "accountID $eq nobody", "-o", "csv")
    await ctx.aclose()
    assert out.startswith("fulfillmentID,fulfillDate")


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--filter", "accountIDx $sw 10"], "accountIDx"),
        (["--filter", "fulfillDate $sw 2026"], "fulfillDate"),  # $sw is for strings only
        (["--filter", "accountID $in"], "accountID"),
        (["--filter", "accountID"], "accountID"),
        (["--past-days", "31"], "pastDays"),
        (["--date-from", "2026-09-01", "--date-to", "2026-10-15"], "dateTo"),
        (["--date-from", "2026-13-01"], "dateFrom"),
        (["--past-days", "3", "--date-from", "2026-10-01"], "pastDays"),
        (["--limit-records", "2501"], "limitRecords"),
    ],
)
async def test_bad_filters_exit_2_naming_the_filter_before_sending(argv: list[str], named: str) -> None:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS)
    sent: list[str] = []
    ctx.session.listeners.append(lambda event: sent.append(event.path))
    out, err = io.StringIO(), io.StringIO()
    try:
        code = await run_report(ctx, parse("run", "fulfillment", *argv), out=out, err=err)
    finally:
        await ctx.aclose()
    assert code == 2
    option = {"pastDays": "--past-days", "dateFrom": "--date-from", "dateTo": "--date-to", "limitRecords": "--limit-records"}.get(named)
    said = err.getvalue()
    assert named in said and said.startswith(f"flextui: {option}: " if option else "flextui: bad filter"), said
    assert out.getvalue() == ""
    assert any(s.endswith("/report/report-types/fulfillment") for s in sent)  # the model was asked…
    assert not any(s.split("?")[0].endswith("/report/fulfillment") for s in sent)  # …the report never


async def test_bad_value_for_an_integer_filter() -> None:
    code, out, err, _ = await run("run", "usage", "--filter", "usageTime $eq soon")
    assert code == 2 and "usageTime" in err and "whole number" in err


async def test_unknown_or_missing_group() -> None:
    code, _, err, _ = await run("run", "fulfilment")
    assert code == 2 and "no report group 'fulfilment'" in err and "fulfillment" in err
    code, _, err, _ = await run("run")
    assert code == 2 and "name a report group" in err
    code, _, err, _ = await run("types", "nope")
    assert code == 2


async def test_api_errors_propagate() -> None:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, as_user="customer")
    try:
        with pytest.raises(ApiError) as caught:
            await run_report(ctx, parse("run", "fulfillment"), out=io.StringIO(), err=io.StringIO())
    finally:
        await ctx.aclose()
    assert isinstance(caught.value, Forbidden)


def test_cli_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "run", "fulfillment", "--filter", "accountID $sw 10", "--past-days", "7", "--format", "csv", "--demo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fulfillmentID,fulfillDate,")
    assert main(["report", "run", "fulfillment", "--filter", "accountID $xx 10", "--demo"]) == 2
    assert "accountID" in capsys.readouterr().err
    assert main(["get", "reports", "--demo", "-o", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 8


async def test_run_reads_the_page_cache_but_adds_its_record_pages_only_when_asked() -> None:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS)
    db = ctx.session.cache._db

    def stored_pages() -> int:
        return db.execute("SELECT count(*) FROM pages WHERE op = 'reports.page'").fetchone()[0]

    async def export(*extra: str) -> str:
        out, err = io.StringIO(), io.StringIO()
        argv = ("run", "fulfillment", "--past-days", "30", "--limit-records", "100", "-o", "csv", *extra)
        assert await run_report(ctx, parse(*argv), out=out, err=err) == 0, err.getvalue()
        ctx.session.storing = True  # each command is a process of its own
        return out.getvalue()

    try:
        plain = await export()
        assert stored_pages() == 0, "an export's pages are not added to the cache"
        assert db.execute("SELECT count(*) FROM pages").fetchone()[0] > 0, "the report's model and operators still are"
        kept = await export("--cache-pages")
        pages = stored_pages()
        assert kept == plain and pages > 3, "--cache-pages stores every page"
        sent = ctx.session.requests_sent
        assert await export() == plain
        assert ctx.session.requests_sent == sent, "and a later export is answered from them"
    finally:
        await ctx.aclose()
