"""The report filter model: conditions typed on the command line, checked against a report's data model.

Good input must become exactly the request the service documents (GET
parameters with URL-encoded `query` JSON, or a POST body); bad input must be
refused before sending, with a message that names the filter.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from flextui.api.filters import (
    Column,
    Condition,
    FilterError,
    FilterSet,
    OperatorList,
    ReportFilter,
    ReportType,
    parse_conditions,
    parse_value,
    split_list,
)

FULFILLMENT = ReportType(
    "fulfillment",
    (
        Column("fulfillmentID"),
        Column("accountID"),
        Column("quantity", "integer"),
        Column("isPermanent", "boolean"),
        Column("fulfillDate", "datetime"),
        Column("startDate", "date"),
        Column("used", "number"),
        Column("CustomersAndPartners.EndCustomerAccountID"),
    ),
    (
        ReportFilter("fulfillmentID"),
        ReportFilter("accountID"),
        ReportFilter("quantity", "integer"),
        ReportFilter("isPermanent", "boolean"),
        ReportFilter("fulfillDate", "datetime"),
        ReportFilter("startDate", "date"),
        ReportFilter("used", "number"),
        ReportFilter("endCustomer", "string", "CustomersAndPartners.EndCustomerAccountID"),
    ),
)


# -- parsing conditions ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("accountID $sw 1012", Condition("accountID", "$sw", "1012")),
        ("status $in ACTIVE,DRAFT", Condition("status", "$in", ("ACTIVE", "DRAFT"))),
        ("status $IN ACTIVE, DRAFT ,OBSOLETE", Condition("status", "$in", ("ACTIVE", "DRAFT", "OBSOLETE"))),
        ('accountName $in "Acme, Inc",Zenith', Condition("accountName", "$in", ("Acme, Inc", "Zenith"))),
        ('accountName = "Acme Robotics"', Condition("accountName", "$eq", "Acme Robotics")),
        ("accountName==Acme Robotics", Condition("accountName", "$eq", "Acme Robotics")),
        ("productName contains design", Condition("productName", "$con", "design")),
        ("productName ew Server", Condition("productName", "$ew", "Server")),
        ("CustomersAndPartners.EndCustomerAccountID $eq 42", Condition("CustomersAndPartners.EndCustomerAccountID", "$eq", "42")),
        ("note $eq ''", Condition("note", "$eq", "")),
        ("note $eq a,b", Condition("note", "$eq", "a,b")),
    ],
)
def test_conditions_parse(text: str, expected: Condition) -> None:
    assert Condition.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("accountID", "cannot read condition"),
        ("", "cannot read condition"),
        ("accountID $eq", "needs a value"),
        ("status $in ", "needs a list"),
        ("accountID startsat 10", "unknown operator 'startsat'"),
        ("1abc $eq x", "cannot read condition"),
    ],
)
def test_bad_conditions_are_refused(text: str, message: str) -> None:
    with pytest.raises(FilterError, match=message):
        Condition.parse(text)


def test_condition_text_round_trips() -> None:
    for text in ("accountID $sw 1012", 'name $in "a,b",c', 'note $eq " padded "', "status $in A,B"):
        cond = Condition.parse(text)
        assert Condition.parse(str(cond)) == cond
    assert parse_conditions(["a $eq 1", "b $in x,y"]) == (Condition("a", "$eq", "1"), Condition("b", "$in", ("x", "y")))


def test_split_list() -> None:
    assert split_list("a, b,c ") == ["a", "b", "c"]
    assert split_list('"x,y", z') == ["x,y", "z"]
    assert split_list("  ") == []


# -- checking against the data model ------------------------------------------------


def test_validation_types_values() -> None:
    checked = FilterSet.build(
        ["quantity $in 1,5", "isPermanent = yes", "startDate $eq 2026-10-30", "used $eq 2.5", "fulfillDate $eq 2026-10-30T10:00:00Z"],
        past_days=7,
        report=FULFILLMENT,
    )
    values = {c.field: c.value for c in checked.conditions}
    assert values == {
        "quantity": (1, 5),
        "isPermanent": True,
        "startDate": "2026-10-30",
        "used": 2.5,
        "fulfillDate": "2026-10-30T10:00:00Z",
    }
    assert checked.group == "fulfillment"


def test_a_column_name_reaches_its_filter() -> None:
    cond = Condition("CustomersAndPartners.EndCustomerAccountID", "$sw", "10").validate(FULFILLMENT)
    assert cond == Condition("endCustomer", "$sw", "10")


def test_in_accepts_text_lists() -> None:
    cond = Condition("accountID", "$in", "101, 102,103").validate(FULFILLMENT)
    assert cond.value == ("101", "102", "103")
    assert FilterSet((cond,)).query_json() == {"accountID": {"$in": ["101", "102", "103"]}}


@pytest.mark.parametrize(
    ("cond", "message"),
    [
        (Condition("fulfilmentID", "$eq", "x"), "fulfilmentID is not a filter of the fulfillment report"),
        (Condition("quantity", "$sw", "1"), "quantity: operator \\$sw does not apply to integer fields"),
        (Condition("isPermanent", "$in", ("true",)), "isPermanent: operator \\$in does not apply"),
        (Condition("accountID", "$regex", "1"), "unknown operator '\\$regex'"),
        (Condition("quantity", "$eq", "ten"), "quantity: expected a whole number"),
        (Condition("quantity", "$in", ("1", "x")), "quantity: expected a whole number"),
        (Condition("isPermanent", "$eq", "maybe"), "isPermanent: expected true or false"),
        (Condition("startDate", "$eq", "30/10/2026"), "startDate must be a date"),
        (Condition("startDate", "$eq", "2026-02-30"), "startDate must be a date"),
        (Condition("fulfillDate", "$eq", "last tuesday"), "fulfillDate: expected a date"),
        (Condition("used", "$eq", "nan"), "used: expected a finite number"),
        (Condition("accountID", "$in", ()), "needs a list"),
        (Condition("accountID", "$eq", ("a", "b")), "needs one value"),
    ],
)
def test_bad_conditions_name_the_filter(cond: Condition, message: str) -> None:
    with pytest.raises(FilterError, match=message) as info:
        FilterSet((cond,), past_days=1).validate(FULFILLMENT)
    assert info.value.field is not None


def test_operators_from_the_op_list_replace_the_defaults() -> None:
    ops = OperatorList.from_json({"data": [{"operator": "$eq", "types": ["string"]}, {"operator": "$sw", "types": ["string", "integer"]}]})
    assert ops.names == ["$eq", "$sw"]
    assert Condition("quantity", "$sw", "1").validate(ReportType("r", (), (ReportFilter("quantity", "integer"),)), ops).value == 1
    with pytest.raises(FilterError, match="unknown operator"):
        Condition("accountID", "$con", "1").validate(FULFILLMENT, ops)
    names_only = OperatorList.from_json(["$eq", "$in"])
    assert names_only.get("$in") is not None and names_only.get("$in").applies_to("integer")  # type: ignore[union-attr]


def test_report_type_from_the_service_json() -> None:
    raw = {
        "name": "entitlement",
        "dateField": "lastModifiedDate",
        "fields": [
            {"name": "accountID", "type": "string"},
            {"name": "quantity", "type": "int"},
            {"name": "lastModifiedDate", "type": "datetime"},
        ],
        "filters": [{"name": "acct", "field": "accountID"}, {"name": "quantity"}, "lastModifiedDate"],
    }
    rt = ReportType.from_json(raw)
    assert rt.column_names == ["accountID", "quantity", "lastModifiedDate"]
    assert rt.column("quantity") == Column("quantity", "integer")
    assert [(f.name, f.type, f.column) for f in rt.filters] == [
        ("acct", "string", "accountID"),
        ("quantity", "integer", "quantity"),
        ("lastModifiedDate", "datetime", "lastModifiedDate"),
    ]
    with pytest.raises(FilterError):
        ReportType.from_json({"fields": []})


def test_parse_value_keeps_json_types() -> None:
    assert parse_value("integer", 7) == 7 and parse_value("integer", " 7 ") == 7 and parse_value("integer", 7.0) == 7
    assert parse_value("number", "2.5") == 2.5 and parse_value("number", 3) == 3
    assert parse_value("boolean", "FALSE") is False
    assert parse_value("string", 42) == "42"
    for field_type, bad in (("integer", True), ("number", False), ("string", None), ("integer", "1.5")):
        with pytest.raises(FilterError):
            parse_value(field_type, bad)


# -- global filters -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"past_days": 0}, "pastDays"),
        ({"past_days": 31}, "pastDays"),
        ({"past_days": "a week"}, "pastDays"),
        ({"date_from": "2026-10-01", "date_to": "2026-11-01"}, "dateTo"),  # 31 days
        ({"date_from": "2026-10-10", "date_to": "2026-10-01"}, "dateTo"),
        ({"date_from": "10/01/2026"}, "dateFrom"),
        ({"past_days": 3, "date_from": "2026-10-10"}, "pastDays"),
        ({"limit_records": 0}, "limitRecords"),
        ({"limit_records": 2501}, "limitRecords"),
        ({"mode": "fast"}, "mode"),
    ],
)
def test_global_filter_rules(kwargs: dict[str, Any], named: str) -> None:
    with pytest.raises(FilterError) as info:
        FilterSet.build(**kwargs)
    assert info.value.field == named
    assert named in str(info.value)


def test_limits_at_the_edges_are_fine() -> None:
    assert FilterSet(past_days=30).past_days == 30
    assert FilterSet(limit_records=2500).limit_records == 2500
    fs = FilterSet.build(date_from="2026-10-02", date_to="2026-11-01", mode="batch")
    assert (fs.date_from, fs.date_to, fs.mode) == (date(2026, 10, 2), date(2026, 11, 1), "BATCH")
    assert fs.window(date(2026, 11, 2)) == (date(2026, 10, 2), date(2026, 11, 1))


def test_request_forms() -> None:
    fs = FilterSet.build(["accountID $sw 1012", "quantity $in 1,2", "quantity $eq 3"], past_days=7, limit_records=1000, report=FULFILLMENT)
    params = fs.query_params(3)
    assert params == {
        "pastDays": "7",
        "limitRecords": "1000",
        "mode": "INTERACTIVE",
        "format": "json",
        "pageNumber": "3",
        "query": '{"accountID":{"$sw":"1012"},"quantity":{"$in":[1,2],"$eq":3}}',
    }
    body = fs.body(2)
    assert body == {
        "pastDays": 7,
        "limitRecords": 1000,
        "mode": "INTERACTIVE",
        "format": "json",
        "pageNumber": 2,
        "query": {"accountID": {"$sw": "1012"}, "quantity": {"$in": [1, 2], "$eq": 3}},
    }
    json.dumps(body)  # the body is plain JSON
    dated = FilterSet(date_from=date(2026, 10, 1), date_to=date(2026, 10, 8))
    assert dated.query_params(1) == {
        "dateFrom": "2026-10-01",
        "dateTo": "2026-10-08",
        "limitRecords": "500",
        "mode": "INTERACTIVE",
        "format": "json",
        "pageNumber": "1",
    }
    with pytest.raises(FilterError, match="pageNumber"):
        dated.query_params(0)


def test_the_same_operator_twice_on_a_field_is_refused() -> None:
    with pytest.raises(FilterError, match="twice"):
        FilterSet.build(["accountID $eq 1", "accountID $eq 2"], report=FULFILLMENT)


def test_saved_sets_round_trip_through_json() -> None:
    fs = FilterSet.build(["accountID $sw 1012", "quantity $in 1,2"], past_days=7, name="acme last week", report=FULFILLMENT)
    text = fs.to_json()
    assert json.loads(text)["conditions"][1] == {"field": "quantity", "op": "$in", "value": [1, 2]}
    again = FilterSet.from_json(text)
    assert again == fs and hash(again) == hash(fs)
    assert again.describe() == "accountID $sw 1012; quantity $in 1,2; last 7 days"
    dated = FilterSet(date_from=date(2026, 10, 1), date_to=date(2026, 10, 8), mode="BATCH", limit_records=2500)
    assert FilterSet.from_dict(dated.to_dict()) == dated


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{oops", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"pastDays": 40}', "pastDays"),
        ('{"conditions": "a $eq 1"}', "conditions must be a list"),
        ('{"conditions": [{"field": "a"}]}', "not a condition"),
        ('{"colour": "red"}', "unknown key"),
    ],
)
def test_bad_saved_sets_are_refused(text: str, message: str) -> None:
    with pytest.raises(FilterError, match=message):
        FilterSet.from_json(text)


# -- the operators of the newer "Conditional Operators" page (RESTDAPIFilterQueryConditions.htm) ---------------


def test_nin_and_btw_take_lists_and_are_sent_as_json_arrays() -> None:
    """`$nin` was sent as one string ("A1-0,A1-1"), which a server reads as one value: every row came back."""
    for report in (FULFILLMENT, None):
        fs = FilterSet.build(["accountID $nin A1-0,A1-1", "quantity $btw 5,10"], past_days=1, report=report)
        expected_quantity = [5, 10] if report is not None else ["5", "10"]
        assert fs.query_json() == {"accountID": {"$nin": ["A1-0", "A1-1"]}, "quantity": {"$btw": expected_quantity}}
    text = Condition("accountID", "$nin", "A1-0, A1-1").validate(FULFILLMENT)
    assert text.value == ("A1-0", "A1-1"), "a list typed as text (the builder's editor) is split too"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fulfillDate $btw 1734954861548", "needs exactly two values, the lower and the upper bound .both included.*got 1 value"),
        ("quantity $btw 1,2,3", "quantity: \\$btw needs exactly two values.*such as 10,20 .got 3 values"),
        ("quantity $btw 9,2", "quantity: \\$btw takes the lower bound first: 9 is after 2"),
        ("fulfillDate $btw 2025-04-01 08:50:54.783,2025-03-31 08:50:54.783", "lower bound first"),
        ("fulfillDate $btw 1734954874182,2024-12-01", "lower bound first"),
        ("fulfillDate $btw 2025-03-31,tomorrow", "fulfillDate: expected a date YYYY-MM-DD, a date-time YYYY-MM-DD HH:MM:SS"),
        ("isPermanent $btw true,false", "isPermanent: operator \\$btw does not apply to boolean"),
    ],
)
def test_btw_needs_a_lower_and_an_upper_bound(text: str, message: str) -> None:
    with pytest.raises(FilterError, match=message) as info:
        FilterSet.build([text], past_days=1, report=FULFILLMENT)
    assert info.value.field in ("fulfillDate", "quantity", "isPermanent")


def test_datetime_values_in_every_documented_form_are_sent_as_given() -> None:
    """The page's examples: `"2025-03-31 08:50:54.783"` and epoch milliseconds `1734954861548` (a JSON number)."""
    checked = FilterSet.build(
        [
            "fulfillDate $btw 1734954861548,1734954874182",
            "fulfillDate $eq 1734954861548",
            "fulfillDate $gte 2025-03-31 08:50:54.783",
            "fulfillDate $lt 2025-04-01T08:50:54Z",
            "fulfillDate $ne 2025-03-31",
        ],
        past_days=1,
        report=FULFILLMENT,
    )
    assert checked.query_json() == {
        "fulfillDate": {
            "$btw": [1734954861548, 1734954874182],
            "$eq": 1734954861548,
            "$gte": "2025-03-31 08:50:54.783",
            "$lt": "2025-04-01T08:50:54Z",
            "$ne": "2025-03-31",
        }
    }
    spaced = Condition.parse("fulfillDate $btw 2025-03-31 08:50:54.783,2025-04-01 08:50:54.783").validate(FULFILLMENT)
    assert spaced.value == ("2025-03-31 08:50:54.783", "2025-04-01 08:50:54.783")
    mixed = Condition("fulfillDate", "$btw", ("2024-12-23", 1734954874182)).validate(FULFILLMENT)
    assert mixed.value == ("2024-12-23", 1734954874182)
    assert parse_value("datetime", "20261030") == "20261030", "an eight-digit basic date is still a date, not epoch ms"
    assert parse_value("datetime", 1734954861548.0) == 1734954861548
    for bad in ("-1734954861548", -5, "soon", "2025-03-31 8:50"):
        with pytest.raises(FilterError, match="epoch milliseconds"):
            parse_value("datetime", bad)


def test_the_newer_operators_are_in_the_defaults_with_symbols_and_words() -> None:
    """Without an op-list (a run asks for none before it has conditions) `$ne` and `$gt` were refused."""
    assert OperatorList().names == ["$eq", "$ne", "$sw", "$ew", "$con", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$btw"]
    conds = parse_conditions(
        ["quantity != 3", "quantity >= 2", "used < 1.5", "used <= 9", "quantity > 1", "startDate between 2026-10-01,2026-10-09"]
    )
    assert [c.op for c in conds] == ["$ne", "$gte", "$lt", "$lte", "$gt", "$btw"]
    fs = FilterSet(conds, past_days=1).validate(FULFILLMENT)
    assert fs.query_json() == {
        "quantity": {"$ne": 3, "$gte": 2, "$gt": 1},
        "used": {"$lt": 1.5, "$lte": 9.0},
        "startDate": {"$btw": ["2026-10-01", "2026-10-09"]},
    }
    with pytest.raises(FilterError, match="isPermanent: operator \\$gt does not apply to boolean"):
        Condition("isPermanent", "$gt", "true").validate(FULFILLMENT)
    assert Condition("isPermanent", "$ne", "true").validate(FULFILLMENT).value is True


def test_a_whole_number_compared_with_a_text_field_is_sent_as_the_vendor_writes_it() -> None:
    """The page's `{"accountID" : {"$gt" : 101202692754}}`: a number; other text, and `$eq`/`$in`, stay text."""
    fs = FilterSet.build(
        ["accountID $gt 101202692754", "fulfillmentID $lte FID-9", "endCustomer $eq 1012"], past_days=1, report=FULFILLMENT
    )
    assert fs.query_json() == {"accountID": {"$gt": 101202692754}, "fulfillmentID": {"$lte": "FID-9"}, "endCustomer": {"$eq": "1012"}}
    assert Condition("accountID", "$btw", "100,0200").validate(FULFILLMENT).value == (100, "0200"), "a leading zero stays text"


@pytest.mark.parametrize("op", ["$and", "$or"])
def test_and_and_or_are_refused_as_a_field_test_saying_why(op: str) -> None:
    with pytest.raises(FilterError, match=f"accountID: \\{op} joins conditions rather than testing a field.*ANDed"):
        Condition.parse(f"accountID {op} 1").validate(FULFILLMENT)
    with pytest.raises(FilterError, match="joins conditions"):
        Condition("accountID", op, "1").validate(FULFILLMENT, OperatorList.from_json([op, "$eq"]))


@pytest.mark.parametrize(
    "raw",
    [
        {"data": {"$eq": "Exact string", "$nin": "Exclude multiple values", "$btw": "Between (inclusive of both bounds)"}},
        {"$eq": "Exact string", "$nin": "Exclude multiple values", "$btw": "Between (inclusive of both bounds)"},
        {"data": [{"operatorNotation": "$eq"}, {"operatorNotation": "$nin"}, {"operatorNotation": "$btw"}]},
        {"data": [{"symbol": "$eq", "name": "Equals"}, {"notation": "$nin"}, {"name": "btw"}]},
        {"operators": [{"operator": "$eq"}, {"operatorName": "NIN"}, {"op": "$btw"}]},
        {"data": {"Exact string": "$eq", "Exclude multiple values": "$nin", "Between": "$btw"}},
        {"data": ["$eq", "$nin", "$btw", "$and", "$or", 7, None, {"description": "no name"}]},
    ],
)
def test_an_op_list_in_any_shape_that_names_operators_is_read(raw: Any) -> None:
    """The op-list body is not documented: `{"data": {"$eq": …}}` stopped every report ("the operator list is not a
    list"), `[{"operatorNotation": "$eq"}]` read as no operator at all (every condition refused)."""
    ops = OperatorList.from_json(raw)
    assert ops.names == ["$eq", "$nin", "$btw"] and not ops.notice, "$and/$or join clauses: not a field's operator"
    assert ops.get("$nin").applies_to("integer") and not ops.get("$btw").applies_to("boolean")  # type: ignore[union-attr]
    cond = Condition.parse("quantity $btw 1,9").validate(FULFILLMENT, ops)
    assert cond.value == (1, 9)


@pytest.mark.parametrize(
    "raw", [{"data": "operators"}, {"status": "error", "message": "busy"}, {"data": []}, {"data": [{"name": "Equals"}]}, 42]
)
def test_an_op_list_naming_no_operator_is_an_error_and_the_defaults_say_why(raw: Any) -> None:
    with pytest.raises(FilterError, match="op-list"):
        OperatorList.from_json(raw)
    stand_in = OperatorList.defaults("the operator list (op-list) names no operator flextui can read")
    assert stand_in.operators == OperatorList().operators
    assert stand_in.notice.startswith("the operator list (op-list) names no operator flextui can read; conditions are checked")
    assert "$eq $ne $sw $ew $con $in $nin $gt $gte $lt $lte $btw" in stand_in.notice


def test_a_filter_named_in_another_case_is_found_and_sent_in_the_reports_own_spelling() -> None:
    """The field dictionary writes `AccountID`, the account group's filter is `accountID`."""
    fs = FilterSet.build(
        ["AccountID $eq A1", "ENDCUSTOMER $sw 10", "customersandpartners.endcustomeraccountid $ew 7"], past_days=1, report=FULFILLMENT
    )
    assert [c.field for c in fs.conditions] == ["accountID", "endCustomer", "endCustomer"]
    assert fs.query_json() == {"accountID": {"$eq": "A1"}, "endCustomer": {"$sw": "10", "$ew": "7"}}
    twins = ReportType("r", (), (ReportFilter("accountID"), ReportFilter("AccountId")))
    assert twins.filter("AccountId") == ReportFilter("AccountId"), "the exact spelling first"
    assert twins.filter("ACCOUNTID") is None, "two filters in other cases: neither is guessed"
    with pytest.raises(FilterError, match="ACCOUNTID is not a filter of the r report"):
        Condition("ACCOUNTID", "$eq", "1").validate(twins)


def test_date_from_may_equal_date_to_and_the_note_says_what_each_reading_returns() -> None:
    """The older RESTDAPIFilterQueryGlobal.htm includes dateTo (one day); the newer excludes it (nothing)."""
    same = FilterSet.build(date_from="2026-10-10", date_to="2026-10-10")
    assert same.global_filters()["dateFrom"] == same.global_filters()["dateTo"] == "2026-10-10"
    note = same.same_day_note()
    assert "includes dateTo (the older vendor page) returns that day" in note and "excludes it (the newer page) returns nothing" in note
    assert "dateTo 2026-10-11" in note
    assert FilterSet.build(date_from="2026-10-10", date_to="2026-10-11").same_day_note() == ""
    assert FilterSet.build(date_from="2026-10-01", date_to="2026-10-31").date_to == date(2026, 10, 31), "30 days apart: the limit"
    with pytest.raises(FilterError, match="dateTo \\(2026-10-09\\) must not be before dateFrom \\(2026-10-10\\)"):
        FilterSet.build(date_from="2026-10-10", date_to="2026-10-09")
