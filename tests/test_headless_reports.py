"""`flextui report list | types | run`: every command and format, filters checked before sending."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import httpx
import pytest

from flextui.api.errors import ApiError, Forbidden
from flextui.api.filters import FilterSet
from flextui.api.reports import ReportsService
from flextui.cli import build_parser, main
from flextui.context import demo_context
from flextui.headless.reports import EXIT_FIELDS_LEFT_OUT, run_report
from flextui.sim.dialects import speaking
from tests.conftest import FIXED_NOW_MS
from tests.hostile import PAYLOAD, raw_findings_in_data


def parse(*argv: str) -> Any:
    return build_parser().parse_args(["report", *argv])


async def run(*argv: str, as_user: str = "admin") -> tuple[int, str, str, Any]:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, as_user=as_user)
    out, err = io.StringIO(), io.StringIO()
    try:
        code = await run_report(ctx, parse(*argv), out=out, err=err)
        return code, out.getvalue(), err.getvalue(), ctx if argv[0] == "run" else None
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
    assert by_col["usageTime"]["type"] == "integer" and by_col["usageTime"]["operators"] == "$eq $ne $in $nin $gt $gte $lt $lte $btw"
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


async def run_on(ctx: Any, *argv: str) -> tuple[int, str, str, list[str]]:
    """`report ARGV` on `ctx` (closed after): the exit code, stdout, stderr and the URLs asked (from the trace)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        code = await run_report(ctx, parse(*argv), out=out, err=err)
        sent = [exchange.url for exchange in ctx.session.trace.exchanges]
    finally:
        await ctx.aclose()
    return code, out.getvalue(), err.getvalue(), sent


def query_sent(sent: list[str], group: str) -> Any:
    """The `query` JSON of the first request for the group's records."""
    from urllib.parse import parse_qs, urlsplit

    path = next(p for p in sent if urlsplit(p).path.endswith(f"/report/{group}"))
    return json.loads(parse_qs(urlsplit(path).query)["query"][0])


async def test_nin_is_sent_as_a_list_and_leaves_those_records_out() -> None:
    """`--filter 'accountID $nin A1-0,A1-1'` went out as one string, `{"$nin": "A1-0,A1-1"}`: every row came back."""
    code, out, err, _ = await run("run", "account", "--past-days", "30", "-o", "json")
    assert code == 0, err
    every = json.loads(out)
    two = [every[0]["accountID"], every[1]["accountID"]]
    code, out, err, sent = await run_on(
        demo_context(fixed_now_ms=FIXED_NOW_MS),
        "run",
        "account",
        "--past-days",
        "30",
        "-o",
        "json",
        "--filter",
        f"accountID $nin {two[0]},{two[1]}",
    )
    assert code == 0, err
    assert query_sent(sent, "account") == {"accountID": {"$nin": two}}
    assert [r["accountID"] for r in json.loads(out)] == [r["accountID"] for r in every if r["accountID"] not in two]


@pytest.mark.parametrize(
    "bounds",
    [
        lambda a, b: (str(ms_of(a)), str(ms_of(b) + 999)),  # epoch milliseconds (the vendor's example form)
        lambda a, b: (f"{a[:10]} {a[11:19]}", f"{b[:10]} {b[11:19]}"),  # YYYY-MM-DD HH:MM:SS (the vendor's other form)
    ],
    ids=["epoch-ms", "space-separated"],
)
async def test_btw_on_a_date_time_in_the_vendors_forms_includes_both_bounds(bounds: Any) -> None:
    code, out, err, _ = await run("run", "fulfillment", "--past-days", "30", "-o", "json")
    assert code == 0, err
    every = json.loads(out)
    a, b = every[40]["fulfillDate"], every[90]["fulfillDate"]
    low, high = bounds(a, b)
    code, out, err, sent = await run_on(
        demo_context(fixed_now_ms=FIXED_NOW_MS),
        "run",
        "fulfillment",
        "--past-days",
        "30",
        "-o",
        "json",
        "--filter",
        f"fulfillDate $btw {low},{high}",
    )
    assert code == 0, err
    sent_bounds = query_sent(sent, "fulfillment")["fulfillDate"]["$btw"]
    assert sent_bounds == ([int(low), int(high)] if low.isdigit() else [low, high]), "sent as given: a number stays a number"
    got = [r["fulfillmentID"] for r in json.loads(out)]
    assert got == [r["fulfillmentID"] for r in every if a <= r["fulfillDate"] <= b] and len(got) >= 51


def ms_of(stamp: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000)


async def test_ne_and_gt_need_no_op_list_and_btw_is_checked_before_sending() -> None:
    code, _, err, sent = await run_on(demo_context(fixed_now_ms=FIXED_NOW_MS), "run", "usage", "--filter", "usageTime $btw 1,2,3")
    assert code == 2 and "usageTime: $btw needs exactly two values" in err and "got 3 values" in err
    assert not any(urlsplit_path(p).endswith("/report/usage") for p in sent) and sent, "nothing asked of the report"
    code, out, err, sent = await run_on(
        demo_context(fixed_now_ms=FIXED_NOW_MS),
        "run",
        "usage",
        "--past-days",
        "30",
        "-o",
        "json",
        "--filter",
        "meterType $ne named",
        "--filter",
        "meterQuantity > 5",
    )
    assert code == 0, err
    rows = json.loads(out)
    assert rows and all(r["meterType"] != "named" and r["meterQuantity"] > 5 for r in rows)
    assert query_sent(sent, "usage") == {"meterType": {"$ne": "named"}, "meterQuantity": {"$gt": 5}}


def urlsplit_path(path: str) -> str:
    return path.split("?")[0]


@pytest.mark.parametrize("dialect", ["op-list-map", "op-list-notation"])
async def test_an_op_list_in_an_unfamiliar_shape_still_checks_and_runs(dialect: str) -> None:
    """`{"data": {"$eq": "Exact string", …}}` made every run exit 2 ("the operator list is not a list"), even one with no
    condition; `[{"operatorNotation": "$eq"}]` read as no operators, so every condition was refused."""
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, dialects=speaking(dialect))
    code, out, err, sent = await run_on(ctx, "run", "account", "--past-days", "30", "-o", "json", "--filter", "accountID $nin 0")
    assert code == 0 and err == "", err
    assert json.loads(out) and any(urlsplit_path(p).endswith("/report/op-list") for p in sent)
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, dialects=speaking(dialect))
    code, _, err, sent = await run_on(ctx, "run", "account", "--past-days", "30", "-o", "json", "--filter", "accountName $sw 5")
    assert code == 0, err
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, dialects=speaking(dialect))
    code, _, err, _ = await run_on(ctx, "run", "usage", "--filter", "meterQuantity $sw 5")
    assert code == 2 and "operator $sw does not apply to integer fields" in err, "the documented types stand in for the ones not given"


@pytest.mark.parametrize(
    ("fault", "said"), [({"kind": "error", "status": 200}, "names no operator"), ({"status": 500}, "could not be had")]
)
async def test_an_op_list_that_fails_or_names_nothing_is_a_notice_and_a_run_without_conditions_never_asks(
    fault: dict[str, Any], said: str
) -> None:
    from flextui.sim.faults import FaultPlan

    plan = FaultPlan()
    plan.add("/op-list", **fault)
    code, out, err, sent = await run_on(
        demo_context(fixed_now_ms=FIXED_NOW_MS, faults=plan), "run", "account", "--past-days", "2", "-o", "json"
    )
    assert code == 0 and json.loads(out) is not None and err == "", err
    assert not any("/op-list" in p for p in sent), "no condition: the operator list is not asked for"
    plan = FaultPlan()
    plan.add("/op-list", **fault)
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, faults=plan)
    code, out, err, sent = await run_on(ctx, "run", "account", "--past-days", "30", "-o", "json", "--filter", "accountID $nin 0")
    assert code == 0, err
    assert err.startswith(f"flextui: the operator list (op-list) {said}") and "checked against the documented operators instead" in err
    assert json.loads(out)


async def test_a_filter_in_another_case_is_sent_as_the_report_spells_it() -> None:
    code, out, err, _ = await run("run", "account", "--past-days", "30", "-o", "json")
    first = json.loads(out)[0]["accountID"]
    code, out, err, sent = await run_on(
        demo_context(fixed_now_ms=FIXED_NOW_MS), "run", "account", "--past-days", "30", "-o", "json", "--filter", f"AccountID $eq {first}"
    )
    assert code == 0, err
    assert query_sent(sent, "account") == {"accountID": {"$eq": first}}
    assert [r["accountID"] for r in json.loads(out)] == [first]


async def test_date_from_equal_to_date_to_is_sent_and_what_it_returns_is_said() -> None:
    code, out, err, sent = await run_on(
        demo_context(fixed_now_ms=FIXED_NOW_MS), "run", "usage", "--date-from", "2026-10-30", "--date-to", "2026-10-30", "-o", "json"
    )
    assert code == 0, err
    assert any("dateFrom=2026-10-30&dateTo=2026-10-30" in p for p in sent), sent
    assert "dateFrom and dateTo are both 2026-10-30" in err and "(the newer page) returns nothing; dateTo 2026-10-31" in err
    assert json.loads(out) == [], "the simulator reads the newer page: dateTo excluded"


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


# -- fields that come late --------------------------------------------------------------

HOSTILE_FIELD = "note" + PAYLOAD
LATE: dict[int, dict[str, str]] = {2: {"zeta": "z"}, 3: {"alpha": "a", "zeta": "z3", HOSTILE_FIELD: "n"}}
"""Fields the server adds to the records of a page (by page number): each first seen after page 1."""


class LateFields(httpx.AsyncBaseTransport):
    """The simulator, but the fulfillment records of pages 2 and 3 carry fields the data model does not list."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        page = int(request.url.params.get("pageNumber") or 0)
        if not request.url.path.endswith("/report/fulfillment") or page not in LATE:
            return response
        body = json.loads(await response.aread())
        for record in body["data"]:
            record.update(LATE[page])
        headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-encoding")}
        return httpx.Response(response.status_code, headers=headers, json=body, request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.fixture
def late_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.sim import app as sim_app

    original = sim_app.in_process_transport
    monkeypatch.setattr(sim_app, "in_process_transport", lambda app, *, threaded=False: LateFields(original(app, threaded=threaded)))


LATE_RUN = ("run", "fulfillment", "--past-days", "30", "--limit-records", "100", "--max-records", "450")


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
async def test_json_records_carry_every_field_even_one_first_seen_on_a_later_page(late_fields: None, fmt: str) -> None:
    """Fields first seen on page 2 were dropped from every format, exit 0 (review50): a JSON object carries all its
    record's fields, the model's first, then the others in the order they were first seen."""
    code, out, err, ctx = await run(*LATE_RUN, "-o", fmt)
    await ctx.aclose()
    assert code == 0, err
    rows = json.loads(out) if fmt == "json" else [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 450
    model = list(rows[0])
    assert "zeta" not in model and "alpha" not in model
    assert all(list(r) == model for r in rows[:100]), "page 1: the model's fields only"
    assert all(list(r) == [*model, "zeta"] and r["zeta"] == "z" for r in rows[100:200])
    assert all(list(r) == [*model, "zeta", "alpha", HOSTILE_FIELD] for r in rows[200:300]), "first-seen order, not the record's"
    assert rows[250]["zeta"] == "z3" and rows[250][HOSTILE_FIELD] == "n", "the hostile key reads back exact"
    assert all(list(r) == model for r in rows[300:])
    assert "\x1b" not in out and raw_findings_in_data(out) == {}


async def test_table_grows_a_column_for_a_field_first_seen_on_a_later_page(late_fields: None) -> None:
    code, out, err, ctx = await run(*LATE_RUN)
    await ctx.aclose()
    assert code == 0, err
    lines = out.splitlines()
    header = lines[0].split()
    assert header[-3:-1] == ["zeta", "alpha"] and header[-1].startswith("note␛]52;c;")
    assert len(lines) == 2 + 450
    assert lines[2 + 99].endswith(".example"), "page 1: the late columns are empty (the user name ends the line)"
    assert lines[2 + 150].endswith("  z") and lines[2 + 250].split()[-3:] == ["z3", "a", "n"]
    assert raw_findings_in_data(out) == {} and raw_findings_in_data(err) == {}


async def test_csv_says_which_fields_came_after_its_header_and_exits_9(late_fields: None) -> None:
    """A CSV header is written before the rows: a field first seen later cannot be in it. Every record is still written,
    stderr names each such field (cleaned: it is server text) with the record and page it came first in, says what keeps
    it, and the exit is 9, so a script cannot take the file for the whole report."""
    code, out, err, ctx = await run(*LATE_RUN, "-o", "csv")
    await ctx.aclose()
    assert code == EXIT_FIELDS_LEFT_OUT == 9, err
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert len(rows) == 450 and "zeta" not in rows[0]
    assert "3 fields of the fulfillment records first seen after the CSV header was written are not in the output" in err
    assert "zeta (first in record 101, page 2), alpha (first in record 201, page 3), note␛]52;c;" in err
    assert "-o jsonl" in err
    assert raw_findings_in_data(err) == {}, err
    assert raw_findings_in_data(out) == {}


async def test_csv_keeps_a_field_first_seen_on_the_first_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """The header takes the first page's fields, all of its records (not its first 50)."""
    from flextui.sim import app as sim_app

    original = sim_app.in_process_transport

    class OnRecord80(LateFields):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            response = await self.inner.handle_async_request(request)
            if not request.url.path.endswith("/report/fulfillment") or request.url.params.get("pageNumber") != "1":
                return response
            body = json.loads(await response.aread())
            body["data"][79]["early"] = "e"
            return httpx.Response(response.status_code, json=body, request=request)

    monkeypatch.setattr(sim_app, "in_process_transport", lambda app, *, threaded=False: OnRecord80(original(app, threaded=threaded)))
    code, out, err, ctx = await run(*LATE_RUN, "-o", "csv")
    await ctx.aclose()
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert rows[79]["early"] == "e" and rows[78]["early"] == ""


async def test_csv_cut_short_by_an_error_still_names_the_fields_it_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.sim import app as sim_app

    original = sim_app.in_process_transport

    class FailsOnPage4(LateFields):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path.endswith("/report/fulfillment") and request.url.params.get("pageNumber") == "4":
                return httpx.Response(500, json={"message": "boom" + PAYLOAD}, request=request)
            return await super().handle_async_request(request)

    monkeypatch.setattr(sim_app, "in_process_transport", lambda app, *, threaded=False: FailsOnPage4(original(app, threaded=threaded)))
    code, out, err, ctx = await run(*LATE_RUN, "-o", "csv")
    await ctx.aclose()
    assert code == 5, err
    assert "the output is incomplete: it stops after 300 records" in err
    assert "zeta (first in record 101, page 2)" in err and "-o jsonl" in err
    assert raw_findings_in_data(err) == {}, err
