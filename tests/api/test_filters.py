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
        (Condition("accountID", "$gt", "1"), "unknown operator '\\$gt'"),
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
        ({"date_from": "2026-10-10", "date_to": "2026-10-10"}, "dateTo"),
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
