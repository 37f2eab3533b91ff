"""The simulated data report service (seed 001, notes §3), driven over HTTP in process.

Covers the data model endpoints, every 4xx rule, the query operators, the
30-day history, paging links in both the Link header and the body's header,
the consistency of report records with the world they come from, and the
volume and speed of generation at `--scale large`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

import flextui.sim.app as sim_app_module
from flextui.sim.app import SIM_BASE_URL, create_app, in_process_transport
from flextui.sim.reports import REPORTS, day_ms, table_of
from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, CUSTOMER, DAY_MS, PRODUCER, Clock, World

from ..conftest import FIXED_NOW_MS

BASE = "/data/api/v1/report"
NOW = datetime.fromtimestamp(FIXED_NOW_MS / 1000, tz=UTC)
TODAY = NOW.date()


@pytest.fixture(autouse=True)
def _reports_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mount the report service (and the token service, for bearer tokens) only."""
    monkeypatch.setattr(sim_app_module, "SERVICE_MODULES", ("tokens", "reports"))


@pytest.fixture
async def client(sim_app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=in_process_transport(sim_app), base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN)) as c:
        yield c


async def get(client: httpx.AsyncClient, group: str, **params: Any) -> httpx.Response:
    if "query" in params and not isinstance(params["query"], str):
        params["query"] = json.dumps(params["query"])
    return await client.get(f"{BASE}/{group}", params=params)


async def rows_of(client: httpx.AsyncClient, group: str, **params: Any) -> list[dict[str, Any]]:
    """Every record the filters select, following the body's next links."""
    params.setdefault("limitRecords", 2500)
    response = await get(client, group, **params)
    assert response.status_code == 200, response.text
    body = response.json()
    rows = list(body["data"])
    while body["header"]["nextPageURL"]:
        response = await client.get(body["header"]["nextPageURL"])
        assert response.status_code == 200
        body = response.json()
        rows.extend(body["data"])
    return rows


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


# -- data model ------------------------------------------------------------------


async def test_report_names_lists_every_group(client: httpx.AsyncClient) -> None:
    response = await client.get(f"{BASE}/report-names")
    assert response.status_code == 200
    names = response.json()["data"]
    assert set(names) >= {"account", "user", "entitlement", "device", "served-device", "product-feature", "fulfillment", "usage"}


async def test_report_types_give_typed_fields_and_filters(client: httpx.AsyncClient) -> None:
    types = (await client.get(f"{BASE}/report-types")).json()["data"]
    by_name = {t["name"]: t for t in types}
    assert set(by_name) == set(REPORTS)
    kinds = {f["type"] for t in types for f in t["fields"]}
    assert kinds == {"string", "integer", "number", "boolean", "date", "datetime"}
    for t in types:
        columns = {f["name"] for f in t["fields"]}
        assert t["dateField"] in columns
        assert all(f["field"] in columns for f in t["filters"])
        assert t["dateField"] in {f["field"] for f in t["filters"]}
    assert len(by_name["fulfillment"]["fields"]) >= 10 and len(by_name["usage"]["fields"]) >= 10
    # usage: every field is a filter, as the vendor says
    assert {f["name"] for f in by_name["usage"]["filters"]} == {f["name"] for f in by_name["usage"]["fields"]}


async def test_report_type_of_one_group_and_its_filters(client: httpx.AsyncClient) -> None:
    one = (await client.get(f"{BASE}/report-types/entitlement")).json()["data"]
    assert len(one) == 1 and one[0]["name"] == "entitlement"
    assert "CustomersAndPartners.EndCustomerAccountID" in {f["name"] for f in one[0]["fields"]}
    filters = (await client.get(f"{BASE}/report-filters/entitlement")).json()["data"]
    by_name = {f["name"]: f for f in filters}
    assert set(by_name) == {"entitlementID", "activationID", "productName", "partNumber", "accountID", "accountName", "lastModifiedDate"}
    assert by_name["accountID"]["field"] == "CustomersAndPartners.EndCustomerAccountID"
    assert by_name["accountID"]["operators"] == ["$eq", "$ne", "$sw", "$ew", "$con", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$btw"]


async def test_op_list_and_global_filters(client: httpx.AsyncClient) -> None:
    ops = {o["operator"]: set(o["types"]) for o in (await client.get(f"{BASE}/op-list")).json()["data"]}
    assert list(ops) == [*["$eq", "$ne", "$sw", "$ew", "$con", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$btw"], "$and", "$or"], (
        "the vendor page's operators, in its order"
    )
    assert ops["$sw"] == {"string"} and "integer" in ops["$eq"] and "boolean" not in ops["$in"]
    assert "boolean" in ops["$ne"] and all("boolean" not in ops[o] for o in ("$nin", "$gt", "$gte", "$lt", "$lte", "$btw"))
    assert ops["$and"] == ops["$or"] == set(), "they join clauses: no field type"
    globals_ = {g["name"]: g for g in (await client.get(f"{BASE}/global-filters")).json()["data"]}
    assert (globals_["pastDays"]["minimum"], globals_["pastDays"]["maximum"], globals_["pastDays"]["default"]) == (1, 30, 1)
    assert (globals_["limitRecords"]["minimum"], globals_["limitRecords"]["maximum"], globals_["limitRecords"]["default"]) == (1, 2500, 500)
    assert globals_["mode"]["values"] == ["BATCH", "INTERACTIVE"]
    assert {"dateFrom", "dateTo", "pageNumber", "format"} <= set(globals_)


async def test_unknown_version_and_group_are_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/data/api/v2/report/report-names")
    assert response.status_code == 404
    assert response.json() == {"status": "error", "message": "unknown data report API version 'v2': the versions are v1"}
    response = await client.get(f"{BASE}/activations")
    assert response.status_code == 404 and "fulfillment" in response.json()["message"]
    response = await client.get(f"{BASE}/report-filters/nope")
    assert response.status_code == 404


# -- access -------------------------------------------------------------------------


async def test_callers_need_credentials_and_the_data_api_permission(sim_app: Any, world: World) -> None:
    transport = in_process_transport(sim_app)
    async with httpx.AsyncClient(transport=transport, base_url=SIM_BASE_URL) as anon:
        response = await anon.get(f"{BASE}/report-names")
        assert response.status_code == 401 and response.json()["status"] == "error"
    async with httpx.AsyncClient(transport=transport, base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*CUSTOMER)) as customer:
        for path in ("report-names", "fulfillment"):
            response = await customer.get(f"{BASE}/{path}")
            assert response.status_code == 403
            assert "Data Api" in response.json()["message"]
    async with httpx.AsyncClient(transport=transport, base_url=SIM_BASE_URL, auth=httpx.BasicAuth(PRODUCER[0], "wrong")) as bad:
        assert (await bad.get(f"{BASE}/report-names")).status_code == 401
    store = token_store(world)
    value = next(t.value for t in store.by_name.values() if t.username == ADMIN[0] and t.expiry_ms > world.now_ms())
    async with httpx.AsyncClient(transport=transport, base_url=SIM_BASE_URL, headers={"Authorization": f"Bearer {value}"}) as bearer:
        response = await bearer.get(f"{BASE}/account", params={"pastDays": 30})
        assert response.status_code == 200 and response.json()["data"]


# -- the 30-day history and the date window -----------------------------------------


async def test_past_days_window_and_default(client: httpx.AsyncClient) -> None:
    rows = await rows_of(client, "fulfillment")  # pastDays defaults to 1
    assert rows
    assert all(FIXED_NOW_MS - DAY_MS <= ms(r["fulfillDate"]) <= FIXED_NOW_MS for r in rows)
    week = await rows_of(client, "fulfillment", pastDays=7)
    assert len(week) > len(rows)
    assert all(FIXED_NOW_MS - 7 * DAY_MS <= ms(r["fulfillDate"]) for r in week)
    times = [r["fulfillDate"] for r in week]
    assert times == sorted(times), "records come oldest first"


async def test_records_older_than_30_days_are_never_returned(client: httpx.AsyncClient, world: World) -> None:
    table = table_of(world, "fulfillment")
    cutoff = FIXED_NOW_MS - 30 * DAY_MS
    older = sum(1 for t in table.times if t < cutoff)
    assert older > 0, "the world holds older records, so the cut-off is tested"
    rows = await rows_of(client, "fulfillment", pastDays=30)
    assert len(rows) == len(table) - older
    assert min(ms(r["fulfillDate"]) for r in rows) >= cutoff
    # a date range reaching past the history is clipped, not an error
    start = (TODAY - timedelta(days=31)).isoformat()
    end = (TODAY - timedelta(days=1)).isoformat()
    ranged = await rows_of(client, "fulfillment", dateFrom=start, dateTo=end)
    assert ranged and min(ms(r["fulfillDate"]) for r in ranged) >= cutoff
    assert max(ms(r["fulfillDate"]) for r in ranged) < day_ms(end)


async def test_history_moves_with_the_clock(world: World, clock: Clock) -> None:
    app = create_app(world)
    async with httpx.AsyncClient(transport=in_process_transport(app), base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN)) as c:
        before = (await get(c, "usage", pastDays=30, mode="INTERACTIVE")).json()["header"]["recordCount"]
        clock.advance(10 * DAY_MS)
        after_rows = await rows_of(c, "usage", pastDays=30)
    assert 0 < len(after_rows) < before
    assert min(r["usageTime"] for r in after_rows) >= clock.now_ms() - 30 * DAY_MS


async def test_date_from_is_included_and_date_to_excluded(client: httpx.AsyncClient) -> None:
    start, end = TODAY - timedelta(days=5), TODAY - timedelta(days=3)
    rows = await rows_of(client, "usage", dateFrom=start.isoformat(), dateTo=end.isoformat())
    days = {r["usageDate"] for r in rows}
    assert days == {start.isoformat(), (start + timedelta(days=1)).isoformat()}
    # dateTo equal to dateFrom: nothing (the older page, which includes dateTo, would make it one day)
    empty = await get(client, "usage", dateFrom=start.isoformat(), dateTo=start.isoformat(), mode="INTERACTIVE")
    assert empty.status_code == 200 and empty.json()["data"] == [] and empty.json()["header"]["recordCount"] == 0
    # pastDays is ignored once a date is given
    same = await rows_of(client, "usage", dateFrom=start.isoformat(), dateTo=end.isoformat(), pastDays=1)
    assert len(same) == len(rows)


# -- errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"pastDays": 0}, "pastDays"),
        ({"pastDays": 31}, "pastDays"),
        ({"pastDays": "week"}, "pastDays"),
        ({"limitRecords": 0}, "limitRecords"),
        ({"limitRecords": 2501}, "limitRecords"),
        ({"pageNumber": 0}, "pageNumber"),
        ({"dateFrom": "2026/10/01"}, "dateFrom"),
        ({"dateFrom": "2026-10-01", "dateTo": "2026-11-02"}, "limit is 30"),
        ({"dateFrom": "2026-10-20", "dateTo": "2026-10-19"}, "dateTo"),
        ({"mode": "FAST"}, "mode"),
        ({"format": "xml"}, "format"),
        ({"query": "{not json"}, "query"),
        ({"query": "[1, 2]"}, "query"),
        ({"query": {"fulfilmentID": {"$eq": "x"}}}, "fulfilmentID"),
        ({"query": {"accountID": {"$regex": "1"}}}, "$regex"),
        ({"query": {"accountID": {"$in": "101,102"}}}, "accountID"),
        ({"query": {"accountID": {}}}, "accountID"),
        ({"query": {"pastDays": 3}}, "pastDays"),
        ({"hostEntityIDs": "ABC"}, "hostEntityIDs"),
    ],
)
async def test_bad_fulfillment_filters_are_400_naming_the_filter(client: httpx.AsyncClient, params: dict[str, Any], named: str) -> None:
    response = await get(client, "fulfillment", **params)
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["status"] == "error"
    assert named in body["message"]


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ({"meterQuantity": {"$sw": "1"}}, "operator $sw does not apply to integer"),
        ({"meterQuantity": {"$eq": "ten"}}, "meterQuantity"),
        ({"used": {"$eq": "lots"}}, "used"),
        ({"isOverage": {"$eq": "maybe"}}, "isOverage"),
        ({"isOverage": {"$in": [True]}}, "isOverage"),
        ({"usageDate": {"$eq": "yesterday"}}, "usageDate"),
        ({"accountId": {"$eq": None}}, "accountId"),
        ({"accountId": {"$eq": ["a"]}}, "accountId"),
    ],
)
async def test_operator_and_value_must_fit_the_field_type(client: httpx.AsyncClient, query: dict[str, Any], named: str) -> None:
    response = await get(client, "usage", query=query)
    assert response.status_code == 400
    assert named in response.json()["message"]


async def test_post_errors(client: httpx.AsyncClient) -> None:
    response = await client.post(f"{BASE}/fulfillment", content=b"[1]", headers={"content-type": "application/json"})
    assert response.status_code == 400 and "JSON object" in response.json()["message"]
    response = await client.post(f"{BASE}/fulfillment", content=b"{oops", headers={"content-type": "application/json"})
    assert response.status_code == 400
    response = await client.post(f"{BASE}/fulfillment", json={"pastDays": 45})
    assert response.status_code == 400 and "pastDays" in response.json()["message"]
    response = await client.post(f"{BASE}/fulfillment", json={"limitRecords": True})
    assert response.status_code == 400 and "limitRecords" in response.json()["message"]
    response = await client.post(f"{BASE}/fulfillment", json={"accountID": "1", "query": {"accountID": {"$sw": "1"}}})
    assert response.status_code == 400 and "twice" in response.json()["message"]


# -- operators -----------------------------------------------------------------------


async def test_string_operators(client: httpx.AsyncClient) -> None:
    every = await rows_of(client, "fulfillment", pastDays=30)
    account = every[0]["accountID"]
    name = every[0]["accountName"]
    eq = await rows_of(client, "fulfillment", pastDays=30, query={"accountID": {"$eq": account}})
    assert eq and {r["accountID"] for r in eq} == {account}
    assert len(eq) == sum(1 for r in every if r["accountID"] == account)
    sw = await rows_of(client, "fulfillment", pastDays=30, query={"accountName": {"$sw": name[:4].lower()}})
    assert {r["accountName"][:4].lower() for r in sw} == {name[:4].lower()}
    ew = await rows_of(client, "fulfillment", pastDays=30, query={"accountID": {"$ew": account[-3:]}})
    assert all(r["accountID"].endswith(account[-3:]) for r in ew) and account in {r["accountID"] for r in ew}
    con = await rows_of(client, "fulfillment", pastDays=30, query={"productName": {"$con": "DESIGN"}})
    assert con and all("design" in r["productName"].lower() for r in con)
    assert len(con) == sum(1 for r in every if "design" in r["productName"].lower())
    # $eq on strings is exact
    assert await rows_of(client, "fulfillment", pastDays=30, query={"accountName": {"$eq": name.lower()}}) == []


async def test_in_and_conditions_are_anded(client: httpx.AsyncClient) -> None:
    every = await rows_of(client, "fulfillment", pastDays=30)
    wanted = [every[0]["productName"], every[5]["productName"]]
    picked = await rows_of(client, "fulfillment", pastDays=30, query={"productName": {"$in": wanted}})
    assert picked == [r for r in every if r["productName"] in wanted]
    both = await rows_of(
        client,
        "fulfillment",
        pastDays=30,
        query={"productName": {"$sw": "Flex"}, "accountID": {"$in": [every[0]["accountID"], every[1]["accountID"]]}},
    )
    expected = [
        r for r in every if r["productName"].startswith("Flex") and r["accountID"] in {every[0]["accountID"], every[1]["accountID"]}
    ]
    assert both == expected
    # two operators on one field are ANDed too
    narrow = await rows_of(client, "fulfillment", pastDays=30, query={"productName": {"$sw": "flex", "$ew": "server"}})
    assert all(r["productName"].lower().startswith("flex") and r["productName"].lower().endswith("server") for r in narrow)


async def test_plain_parameters_are_eq_and_repeated_ones_in(client: httpx.AsyncClient) -> None:
    every = await rows_of(client, "fulfillment", pastDays=30)
    first, second = every[0]["accountID"], every[-1]["accountID"]
    one = await rows_of(client, "fulfillment", pastDays=30, accountID=first)
    assert one and {r["accountID"] for r in one} == {first}
    response = await client.get(
        f"{BASE}/fulfillment", params=[("pastDays", "30"), ("limitRecords", "2500"), ("accountID", first), ("accountID", second)]
    )
    assert {r["accountID"] for r in response.json()["data"]} == {first, second}


async def test_typed_operators_on_usage(client: httpx.AsyncClient) -> None:
    every = await rows_of(client, "usage", pastDays=30)
    over = await rows_of(client, "usage", pastDays=30, query={"isOverage": {"$eq": True}})
    assert over and len(over) == sum(1 for r in every if r["isOverage"]) and all(r["used"] > r["meterQuantity"] for r in over)
    text_bool = await rows_of(client, "usage", pastDays=30, query={"isOverage": {"$eq": "TRUE"}})
    assert len(text_bool) == len(over)
    qty = await rows_of(client, "usage", pastDays=30, query={"meterQuantity": {"$in": [1, "5"]}})
    assert qty and {r["meterQuantity"] for r in qty} <= {1, 5}
    day = every[len(every) // 2]["usageDate"]
    on_day = await rows_of(client, "usage", pastDays=30, query={"usageDate": {"$eq": day}})
    assert on_day and {r["usageDate"] for r in on_day} == {day}
    assert len(on_day) == sum(1 for r in every if r["usageDate"] == day)


async def test_date_value_on_a_datetime_column_matches_the_day(client: httpx.AsyncClient) -> None:
    every = await rows_of(client, "fulfillment", pastDays=30)
    stamp = every[10]["fulfillDate"]
    on_day = await rows_of(client, "fulfillment", pastDays=30, query={"fulfillDate": {"$eq": stamp[:10]}})
    assert {r["fulfillDate"][:10] for r in on_day} == {stamp[:10]}
    exact = await rows_of(client, "fulfillment", pastDays=30, query={"fulfillDate": {"$eq": stamp}})
    assert exact and {r["fulfillDate"] for r in exact} == {stamp}


async def test_ne_and_nin_leave_values_out(client: httpx.AsyncClient) -> None:
    """RESTDAPIFilterQueryConditions.htm: `$ne` "Not equal to", `$nin` "Exclude multiple values" (an array)."""
    every = await rows_of(client, "fulfillment", pastDays=30)
    first, second = every[0]["accountID"], every[-1]["accountID"]
    assert first != second
    left = await rows_of(client, "fulfillment", pastDays=30, query={"accountID": {"$nin": [first, second]}})
    assert len(left) == sum(1 for r in every if r["accountID"] not in (first, second)) > 0
    assert not {first, second} & {r["accountID"] for r in left}
    one_out = await rows_of(client, "fulfillment", pastDays=30, query={"accountID": {"$ne": first}})
    assert len(one_out) == sum(1 for r in every if r["accountID"] != first)
    as_text = await get(client, "fulfillment", pastDays=30, query={"accountID": {"$nin": f"{first},{second}"}})
    assert as_text.status_code == 400 and "$nin needs a non-empty list" in as_text.json()["message"], "one string is not a list"
    usage = await rows_of(client, "usage", pastDays=30)
    not_over = await rows_of(client, "usage", pastDays=30, query={"isOverage": {"$ne": True}})
    assert len(not_over) == sum(1 for r in usage if r["isOverage"] is False)


async def test_comparisons_and_btw_which_includes_both_bounds(client: httpx.AsyncClient) -> None:
    every = await rows_of(client, "usage", pastDays=30)
    times = sorted({r["usageTime"] for r in every})
    lo, hi = times[10], times[40]
    between = await rows_of(client, "usage", pastDays=30, query={"usageTime": {"$btw": [lo, hi]}})
    assert {r["usageTime"] for r in between} == set(times[10:41]), "inclusive of both bounds"
    assert len(between) == sum(1 for r in every if lo <= r["usageTime"] <= hi)
    expected = {
        "$gt": lambda t: t > lo,
        "$gte": lambda t: t >= lo,
        "$lt": lambda t: t < lo,
        "$lte": lambda t: t <= lo,
    }
    for op, test in expected.items():
        got = await rows_of(client, "usage", pastDays=30, query={"usageTime": {op: lo}})
        assert len(got) == sum(1 for r in every if test(r["usageTime"])), op
    both = await rows_of(client, "usage", pastDays=30, query={"usageTime": {"$gt": lo, "$lt": hi}})
    assert {r["usageTime"] for r in both} == set(times[11:40]), "two operators on one filter: both hold"
    used = await rows_of(client, "usage", pastDays=30, query={"used": {"$btw": [1, 2.5]}})
    assert used and all(1 <= r["used"] <= 2.5 for r in used)
    for bad, said in (
        ({"$btw": [hi, lo]}, "lower bound first"),
        ({"$btw": [lo]}, "list of two values"),
        ({"$btw": [lo, hi, hi]}, "list of two values"),
        ({"$btw": f"{lo},{hi}"}, "list of two values"),
        ({"$gt": [lo]}, "single value"),
    ):
        response = await get(client, "usage", pastDays=30, query={"usageTime": bad})
        assert response.status_code == 400 and said in response.json()["message"], bad
    response = await get(client, "usage", pastDays=30, query={"isOverage": {"$gt": False}})
    assert response.status_code == 400 and "does not apply to boolean" in response.json()["message"]


async def test_datetime_values_in_the_vendors_forms(client: httpx.AsyncClient) -> None:
    """`"2025-03-31 08:50:54.783"` (no zone: UTC) and epoch milliseconds `1734954861548`, as the page writes them."""
    every = await rows_of(client, "fulfillment", pastDays=30)
    a, b = every[100]["fulfillDate"], every[300]["fulfillDate"]
    spaced = lambda stamp: stamp[:10] + " " + stamp[11:19]  # noqa: E731
    inside = {r["fulfillmentID"] for r in every if a <= r["fulfillDate"] <= b}
    by_text = await rows_of(client, "fulfillment", pastDays=30, query={"fulfillDate": {"$btw": [spaced(a), spaced(b)]}})
    assert {r["fulfillmentID"] for r in by_text} == inside, "a second names the whole second, both bounds included"
    by_ms = await rows_of(client, "fulfillment", pastDays=30, query={"fulfillDate": {"$btw": [ms(a), ms(b) + 999]}})
    assert {r["fulfillmentID"] for r in by_ms} == inside
    by_iso = await rows_of(client, "fulfillment", pastDays=30, query={"fulfillDate": {"$btw": [a, b]}})
    assert {r["fulfillmentID"] for r in by_iso} == inside
    same = await rows_of(client, "fulfillment", pastDays=30, query={"fulfillDate": {"$eq": spaced(a)}})
    assert same and {r["fulfillDate"] for r in same} == {a}
    after = await rows_of(client, "fulfillment", pastDays=30, query={"fulfillDate": {"$gt": spaced(a) + ".000"}})
    assert all(r["fulfillDate"] >= a for r in after) and len(after) >= sum(1 for r in every if r["fulfillDate"] > a)
    before_day = await rows_of(client, "fulfillment", pastDays=30, query={"fulfillDate": {"$lt": a[:10]}})
    assert len(before_day) == sum(1 for r in every if r["fulfillDate"][:10] < a[:10])
    for bad in (str(ms(a)), "2026-W44-1", "20261030", "2026-10-30 10", -5):
        response = await get(client, "fulfillment", pastDays=30, query={"fulfillDate": {"$eq": bad}})
        assert response.status_code == 400 and "epoch milliseconds" in response.json()["message"], bad


async def test_a_whole_number_compares_with_a_text_column_as_a_number(client: httpx.AsyncClient) -> None:
    """The page's `{"accountID" : {"$gt" : 101202692754}}`: values that read as numbers compare as numbers."""
    every = await rows_of(client, "fulfillment", pastDays=30)
    pivot = sorted(int(r["accountID"]) for r in every)[len(every) // 2]
    above = await rows_of(client, "fulfillment", pastDays=30, query={"accountID": {"$gt": pivot}})
    assert len(above) == sum(1 for r in every if int(r["accountID"]) > pivot) > 0
    as_text = await rows_of(client, "fulfillment", pastDays=30, query={"accountID": {"$lte": str(pivot)}})
    assert len(as_text) == sum(1 for r in every if r["accountID"] <= str(pivot)) > 0


async def test_and_and_or_join_clauses_as_the_page_writes_them(client: httpx.AsyncClient) -> None:
    every = await rows_of(client, "usage", pastDays=30)
    first, last = every[0], every[-1]
    either = {"accountId": {"$eq": first["accountId"]}, "usageTime": {"$eq": last["usageTime"]}}
    got = await rows_of(client, "usage", pastDays=30, query={"$or": either})
    assert len(got) == sum(1 for r in every if r["accountId"] == first["accountId"] or r["usageTime"] == last["usageTime"])
    both = await rows_of(client, "usage", pastDays=30, query={"$and": either})
    assert len(both) == sum(1 for r in every if r["accountId"] == first["accountId"] and r["usageTime"] == last["usageTime"])
    # each ANDed with the top-level keys; a clause with two operators needs both
    mixed = {
        "meterType": {"$eq": "named"},
        "$or": {"usageTime": {"$gte": first["usageTime"], "$lte": first["usageTime"]}, "isOverage": {"$eq": True}},
    }
    got = await rows_of(client, "usage", pastDays=30, query=mixed)
    want = [r for r in every if r["meterType"] == "named" and (r["usageTime"] == first["usageTime"] or r["isOverage"])]
    assert len(got) == len(want) > 0
    nested = await rows_of(client, "usage", pastDays=30, query={"$or": {"$and": either, "isOverage": {"$eq": True}}})
    assert len(nested) == sum(
        1 for r in every if (r["accountId"] == first["accountId"] and r["usageTime"] == last["usageTime"]) or r["isOverage"]
    )
    for bad, said in (
        ({"$or": [either]}, "$or needs an object of clauses"),
        ({"$and": {}}, "$and needs an object of clauses"),
        ({"accountId": {"$or": either}}, "joins clauses at the top of query"),
    ):
        response = await get(client, "usage", pastDays=30, query=bad)
        assert response.status_code == 400 and said in response.json()["message"], bad


async def test_entitlement_records_are_flattened_and_its_account_filter_maps(client: httpx.AsyncClient, world: World) -> None:
    account = "101200004242"  # Acme Robotics owns the first entitlements
    rows = await rows_of(client, "entitlement", pastDays=30, accountID=account)
    assert rows
    for row in rows:
        assert row["CustomersAndPartners.EndCustomerAccountID"] == account
        assert row["CustomersAndPartners.EndCustomerAccountName"] == "Acme Robotics"
        assert all(not isinstance(v, dict) for v in row.values())
        ent = world.entitlements[row["entitlementID"]]
        assert row["activationID"] in {li.activation_id for li in ent.line_items}


# -- paging --------------------------------------------------------------------------


async def test_interactive_paging_links_in_headers_and_body(client: httpx.AsyncClient) -> None:
    response = await get(client, "fulfillment", pastDays=30, limitRecords=250, mode="interactive")
    header = response.json()["header"]
    total, pages = header["recordCount"], header["totalPages"]
    assert total > 1000 and pages == -(-total // 250)
    assert header["pageNumber"] == 1 and header["pageSize"] == 250 and header["previousPageURL"] is None
    assert response.links["next"]["url"] == header["nextPageURL"]
    assert "prev" not in response.links
    seen: list[str] = [r["fulfillmentID"] for r in response.json()["data"]]
    number = 1
    while header["nextPageURL"]:
        previous_url = response.url
        response = await client.get(header["nextPageURL"])
        header = response.json()["header"]
        number += 1
        assert header["pageNumber"] == number and header["recordCount"] == total
        assert header["previousPageURL"] == response.links["prev"]["url"]
        back = httpx.URL(header["previousPageURL"]).params
        assert back["pageNumber"] == str(number - 1)
        assert back.remove("pageNumber") == previous_url.params.remove("pageNumber")
        seen.extend(r["fulfillmentID"] for r in response.json()["data"])
    assert number == pages and "next" not in response.links
    assert len(seen) == len(set(seen)) == total


async def test_batch_mode_has_links_but_no_counts(client: httpx.AsyncClient) -> None:
    response = await get(client, "usage", pastDays=3, limitRecords=50)  # BATCH is the default
    header = response.json()["header"]
    assert "recordCount" not in header and "totalPages" not in header
    assert header["nextPageURL"] and len(response.json()["data"]) == 50


async def test_post_gives_the_same_records_and_get_links(client: httpx.AsyncClient) -> None:
    query = {"productName": {"$sw": "Nova"}}
    body = {"pastDays": 7, "limitRecords": 10, "pageNumber": 2, "mode": "INTERACTIVE", "query": query, "meterType": "elastic"}
    posted = await client.post(f"{BASE}/usage", json=body)
    assert posted.status_code == 200
    got = await get(client, "usage", pastDays=7, limitRecords=10, pageNumber=2, mode="INTERACTIVE", query=query, meterType="elastic")
    assert posted.json()["data"] == got.json()["data"]
    assert posted.json()["header"]["recordCount"] == got.json()["header"]["recordCount"]
    # the POST's links are GET URLs that carry every filter
    nxt = posted.json()["header"]["nextPageURL"]
    page3 = await client.get(nxt)
    expected = await get(client, "usage", pastDays=7, limitRecords=10, pageNumber=3, mode="INTERACTIVE", query=query, meterType="elastic")
    assert page3.json()["data"] == expected.json()["data"]
    assert all(r["meterType"] == "elastic" and r["productName"].startswith("Nova") for r in page3.json()["data"])
    prev = await client.get(posted.json()["header"]["previousPageURL"])
    assert prev.json()["header"]["pageNumber"] == 1


async def test_page_beyond_the_end_is_empty_and_links_back(client: httpx.AsyncClient) -> None:
    first = (await get(client, "served-device", pastDays=30, limitRecords=100, mode="INTERACTIVE")).json()["header"]
    response = await get(client, "served-device", pastDays=30, limitRecords=100, mode="INTERACTIVE", pageNumber=first["totalPages"] + 5)
    body = response.json()
    assert response.status_code == 200 and body["data"] == [] and body["header"]["nextPageURL"] is None
    assert httpx.URL(body["header"]["previousPageURL"]).params["pageNumber"] == str(first["totalPages"])


async def test_nothing_matches(client: httpx.AsyncClient) -> None:
    response = await get(client, "account", pastDays=30, mode="INTERACTIVE", query={"accountName": {"$eq": "No Such Account"}})
    header = response.json()["header"]
    assert response.json()["data"] == [] and header["recordCount"] == 0 and header["totalPages"] == 0
    assert header["nextPageURL"] is None and "link" not in response.headers


async def test_csv_format(client: httpx.AsyncClient) -> None:
    response = await get(client, "device", pastDays=30, limitRecords=5, format="CSV", mode="INTERACTIVE")
    assert response.headers["content-type"].startswith("text/csv")
    lines = response.text.splitlines()
    assert lines[0].split(",") == [c[0] for c in REPORTS["device"].columns]
    assert len(lines) == 6
    assert int(response.headers["X-Total-Pages"]) == -(-int(response.headers["X-Record-Count"]) // 5)
    assert response.links["next"]["url"]


# -- consistency, determinism, volume ----------------------------------------------


async def test_fulfillments_come_from_the_world(client: httpx.AsyncClient, world: World) -> None:
    devices = {r["deviceID"]: r for r in await rows_of(client, "device", pastDays=30)}
    line_items = {li.activation_id: (ent, li) for ent in world.entitlements.values() for li in ent.line_items}
    device_table = table_of(world, "device")
    all_devices = dict(zip(device_table.cols[0], device_table.cols[device_table.columns.index("accountID")]))
    rows = await rows_of(client, "fulfillment", pastDays=30)
    assert len(rows) > 1000
    for row in rows:
        ent, li = line_items[row["activationID"]]
        assert row["entitlementID"] == ent.entitlement_id
        assert row["accountID"] == ent.account_id and world.accounts[row["accountID"]].name == row["accountName"]
        assert row["productName"] == li.product.name and row["partNumber"] == li.product.part_number
        assert all_devices[row["hostEntityID"]] == row["accountID"]
        assert row["isPermanent"] == (row["expirationDate"] is None)
        assert li.state in ("DEPLOYED", "ACTIVE")
        if row["expirationDate"]:
            assert row["fulfillDate"][:10] < row["expirationDate"]
    assert any(r["hostEntityID"] in devices for r in rows)


async def test_users_and_accounts_match_the_world(client: httpx.AsyncClient, world: World) -> None:
    users = await rows_of(client, "user", pastDays=30)
    assert users
    for row in users:
        user = world.users[row["userName"]]
        assert row["accountID"] == user.account_id and row["displayName"] == user.display_name
    accounts = await rows_of(client, "account", pastDays=30)
    assert {r["accountID"] for r in accounts} <= set(world.accounts)


def test_generation_is_deterministic_and_lazy(clock: Clock) -> None:
    a, b = World(seed=7, clock=clock), World(seed=7, clock=clock)
    assert "reports.usage" not in a._parts
    ta, tb = table_of(a, "usage"), table_of(b, "usage")
    assert ta.rows(list(range(20))) == tb.rows(list(range(20)))
    assert "reports.usage" in a._parts and "reports.fulfillment" not in a._parts
    other = table_of(World(seed=8, clock=clock), "usage")
    assert other.rows([0]) != ta.rows([0])


@pytest.mark.slow
async def test_large_scale_volume(clock: Clock) -> None:
    """100,000+ records a month and a filtered page deep in them (how fast: bench/bench_sim_scale.py)."""
    world = World(seed=7, scale=100, clock=clock)
    assert world.entitlements  # the shared core, built first
    cutoff = FIXED_NOW_MS - 30 * DAY_MS
    for group in ("fulfillment", "usage"):
        table = table_of(world, group)
        recent = sum(1 for t in table.times if t >= cutoff)
        assert recent >= 100_000, group
    app = create_app(world)
    async with httpx.AsyncClient(transport=in_process_transport(app), base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN)) as c:
        response = await get(
            c,
            "usage",
            pastDays=30,
            limitRecords=2500,
            pageNumber=7,
            mode="INTERACTIVE",
            query={"productName": {"$con": "a"}, "meterType": {"$in": ["elastic", "named"]}},
        )
    assert response.status_code == 200 and len(response.json()["data"]) == 2500
    assert response.json()["header"]["recordCount"] > 20_000
