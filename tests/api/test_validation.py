"""The shared field rules of the beta services (validation.py), one by one.

The simulator and the client models both call these, so a rule tested here
holds on both sides; the sim and api tests check that each side applies them
to the right fields.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, Field, ValidationError, model_validator

from flextui.api import validation as v
from flextui.api.validation import FieldProblem, errors_by_field, field_path, join_path


def ok(rule: Any, value: Any) -> Any:
    return rule(value)


def bad(rule: Any, value: Any, fragment: str = "") -> str:
    with pytest.raises(ValueError) as info:
        rule(value)
    assert fragment in str(info.value)
    return str(info.value)


# -- IDs, text, enums -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["ENT-1", "a", "E" * 255, " leading space", "under_score.dot:colon*star+plus$dollar?[x],y", "ENT;1"])
def test_good_ids(value: str) -> None:
    assert v.check_id(value) == value


@pytest.mark.parametrize("char", list("'\"&%^()#@!~/<>`{}=|"))  # the vendor's pattern: no `;`
def test_every_forbidden_id_character(char: str) -> None:
    assert char in v.ID_FORBIDDEN
    message = bad(v.check_id, f"ENT{char}1", "must not contain")
    assert char in message


def test_id_length_and_whitespace() -> None:
    bad(v.check_id, "E" * 256, "at most 255")
    bad(v.check_id, "   ", "whitespace")
    bad(v.check_id, "\t\n", "whitespace")


def test_ship_to_address() -> None:
    assert ok(v.check_ship_to_address, "") == ""
    assert ok(v.check_ship_to_address, "12 Main Street_West-2") == "12 Main Street_West-2"
    bad(v.check_ship_to_address, "12 Main St.", "letters, digits")
    bad(v.check_ship_to_address, "Straße 1", "letters, digits")
    bad(v.check_ship_to_address, "a" * 1001, "at most 1000")


def test_lengths_and_blanks() -> None:
    assert v.check_max_length("d" * 2000, v.DESCRIPTION_MAX)
    bad(lambda s: v.check_max_length(s, v.DESCRIPTION_MAX), "d" * 2001, "at most 2000 characters (now 2001)")
    bad(v.check_not_blank, " \t", "whitespace")
    bad(v.check_not_blank, "", "empty")
    assert v.check_name("Flex Designer") == "Flex Designer"
    bad(v.check_name, "x" * 256, "at most 255")
    bad(v.check_version, "1" * 65, "at most 64")


@pytest.mark.parametrize(
    ("value", "canonical"),
    [
        ("new_order", "NEW_ORDER"),
        ("NEW_ORDER", "NEW_ORDER"),
        ("Renewal_Order", "RENEWAL_ORDER"),
        ("upgrade_order", "UPGRADE_ORDER"),
        ("upsell_order", "UPSELL_ORDER"),
        ("invalid_order", "INVALID_ORDER"),
    ],
)
def test_order_types_ignore_case(value: str, canonical: str) -> None:
    assert v.check_order_type(value) == canonical


def test_enums() -> None:
    bad(v.check_order_type, "rush_order", "must be one of")
    assert [v.check_status(s) for s in ("draft", "Deployed", "OBSOLETE")] == ["DRAFT", "DEPLOYED", "OBSOLETE"]
    bad(v.check_status, "active")
    assert v.check_status_filter("obsoleted") == "OBSOLETED" and v.check_status_filter("Obsolete") == "OBSOLETE"
    assert v.check_status_filter("active") == "ACTIVE"
    assert [v.check_policy_term_unit(u) for u in ("months", "DAYS", "Weeks", "yEARS")] == ["Months", "Days", "Weeks", "Years"]
    answered = ("DAYS", " weeks ", "Months", "fortnights", None, 3)
    assert [v.policy_term_unit(u) for u in answered] == ["Days", "Weeks", "Months", None, None, None]
    bad(v.check_policy_term_unit, "fortnights")
    assert v.check_sort_order("DESC") == "desc"
    bad(v.check_sort_order, "down")


def test_quantities() -> None:
    assert v.check_quantity(0) == 0 and v.check_quantity(2**31 - 1) == 2**31 - 1
    bad(v.check_quantity, -1, "at least 0")
    bad(v.check_quantity, 2**31, "at most")
    bad(v.check_quantity, True, "whole number")
    assert v.check_quantity_per_copy(1) == 1
    bad(v.check_quantity_per_copy, 0, "at least 1")


# -- dates -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["2026-01-01", "2024-02-29", "0001-01-01", "9999-12-31"])
def test_good_dates(value: str) -> None:
    assert v.check_date(value) == value


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("2026-1-01", "YYYY-MM-DD"),
        ("26-01-01", "YYYY-MM-DD"),
        ("2026/01/01", "YYYY-MM-DD"),
        ("2026-01-01T00:00", "YYYY-MM-DD"),
        ("", "YYYY-MM-DD"),
        ("2026-02-29", "not a calendar date"),
        ("2026-13-01", "not a calendar date"),
        ("2026-04-31", "not a calendar date"),
        ("२०२६-०१-०१", "YYYY-MM-DD"),
    ],
)
def test_bad_dates(value: str, fragment: str) -> None:
    bad(v.check_date, value, fragment)


def test_date_order_and_terms() -> None:
    v.check_date_order("2026-01-01", "2026-01-01")
    v.check_date_order(None, "2026-01-01")
    bad(lambda end: v.check_date_order("2026-01-02", end), "2026-01-01", "must not be before")
    v.check_term("2026-01-01", "2027-01-01", False)
    v.check_term("2026-01-01", None, True)
    v.check_term("2026-13-45", "2027-01-01", False)  # the start date's own rule names it, not the expiry's
    v.check_term("2026-01-01", "2027-02-30", False)
    for start, expiry, permanent, fragment in (
        ("2026-01-01", "2027-01-01", True, "permanent"),
        ("2026-01-01", None, False, "required"),
        ("2026-01-02", "2026-01-01", False, "before"),
    ):
        with pytest.raises(FieldProblem) as info:
            v.check_term(start, expiry, permanent)
        assert info.value.field == "expiryDate" and fragment in info.value.message


def test_cross_field_entitlement_rules() -> None:
    v.check_given_id("ENT-1", False, "entitlementId")
    v.check_given_id(None, True, "entitlementId")
    with pytest.raises(FieldProblem) as info:
        v.check_given_id("ENT-1", True, "entitlementId")
    assert info.value.field == "autoGenerate"
    with pytest.raises(FieldProblem) as none:  # "If you specify false, it means you need to pass the ID value"
        v.check_given_id(None, False, "entitlementId")
    assert none.value.field == "entitlementId"
    assert [v.auto_generate_for(x, None) for x in (None, "", "ENT-1")] == [True, True, False]
    assert v.auto_generate_for(None, False) is False, "what the caller said is kept (and then checked)"
    v.check_auto_deploy_status(True, "DEPLOYED")
    v.check_auto_deploy_status(False, "DRAFT")
    with pytest.raises(FieldProblem, match="autoDeploy"):
        v.check_auto_deploy_status(True, "DRAFT")
    with pytest.raises(FieldProblem) as dup:
        v.check_attribute_names(["A", "B", "A"])
    assert dup.value.field == "[2].name"


# -- products ----------------------------------------------------------------------------------------


def test_technology_defaults() -> None:
    # Rule 6 and 9 (technologies and generators themselves are the tenant's: the server checks them).
    assert v.default_host_type(v.STANDARD_LICENSE_TECHNOLOGY, False, None) == "Certificate or Trusted Host"
    assert v.default_host_type(v.STANDARD_LICENSE_TECHNOLOGY, True, None) is None
    assert v.default_host_type("Custom Licensing", False, None) is None
    assert v.default_host_type("Custom Licensing", False, "Server") == "Server"
    assert v.effective_used_on_device(v.STANDARD_LICENSE_TECHNOLOGY, True) is True
    assert v.effective_used_on_device("Custom Licensing", True) is False
    assert v.check_upgrade_email_template("None") == "none" and v.check_upgrade_email_template("DEFAULT") == "default"
    bad(v.check_upgrade_email_template, "weekly")


def test_feature_and_part_number_rules() -> None:
    assert v.check_feature_name("My_Feature-1") == "My_Feature-1"
    assert v.check_feature_name("F" * 30)
    bad(v.check_feature_name, "F" * 31, "at most 30")
    bad(v.check_feature_name, "my feature", "letters, digits")
    bad(v.check_feature_name, "", "required")
    assert v.check_version_format("datebased") == "DATEBASED"
    bad(v.check_version_format, "SEMVER")
    for good in ("2023.10", "2023.1015", "2023.10.15"):
        assert v.check_max_version(good) == good
    for wrong in ("2023", "2023.1", "2023-10-15", "23.10.15", "2023.10.1"):
        bad(v.check_max_version, wrong, "YYYY.MM")
    bad(v.check_feature_version, "9" * 65, "at most 64")
    assert v.check_aggregation_type("max") == "MAX"
    for good in ("MyPartNumber", "PN 1.2_3-4", "."):
        assert v.check_part_number(good) == good
    for wrong, fragment in (("   ", "letters"), ("PN#1", "letters"), ("P" * 201, "at most 200"), ("", "required")):
        bad(v.check_part_number, wrong, fragment)
    with pytest.raises(FieldProblem) as info:
        v.check_unique(["a", "b", "a"], "part number")
    assert info.value.field == "[2]"


# -- users and accounts ------------------------------------------------------------------------------


def test_account_and_user_rules() -> None:
    assert v.check_account_type("channel_partner") == "CHANNEL_PARTNER"
    bad(v.check_account_type, "SELF_REGISTERED", "cannot be created")
    bad(v.check_account_type, "self_registered", "cannot be created")
    bad(v.check_account_type, "UNKNOWN")
    assert v.check_country("us") == "US"
    for wrong in ("USA", "U", "1A", ""):
        bad(v.check_country, wrong, "two-letter")
    assert v.check_email(" a.b@c.example ") == "a.b@c.example"
    for wrong in ("a.b", "a@b", "a b@c.de", "@c.de"):
        bad(v.check_email, wrong, "e-mail")
    for good in ("GMT-6.0DST0", "GMT+5.5", "GMT+0.0DST1", "GMT-12", "GMT+14.0"):
        assert v.check_timezone(good) == good
    for wrong in ("CET", "GMT6.0", "GMT+15.0", "gmt-6.0DST0", "GMT-6.0DST2"):
        bad(v.check_timezone, wrong, "GMT-6.0DST0")
    assert v.check_locale("en_US") and v.check_locale("de")
    bad(v.check_locale, "en-us")
    assert v.check_user_status("active") == "Active"
    bad(v.check_user_status, "Suspended")
    # no documented pattern: any one line of printable text with the number's digits (≤64 characters)
    for good in ("+1 (512) 555-0100 x12", "+1 555 010 ext. 7", "Tel. 030/1234-5", "+44 20 7946 0958 (office)"):
        assert v.check_phone(good) == good
    bad(v.check_phone, "call me", "digits")
    bad(v.check_phone, "+1 555\n010", "printable")
    bad(v.check_phone, "1" * 65, "at most 64")


def test_user_name_rules() -> None:
    assert v.check_user_name(None, "a@b.example", False) == "a@b.example"
    assert v.check_user_name("A@B.example", "a@b.example", True) == "A@B.example"
    bad(lambda n: v.check_user_name(n, "a@b.example", True), None, "required when portalLogin")
    bad(lambda n: v.check_user_name(n, "a@b.example", False), "ab", "must equal")


# -- paths, error maps, body reading -------------------------------------------------------------------


def test_field_paths() -> None:
    assert field_path(("lineItems", 0, "product", 1, "productName")) == "lineItems[0].product[1].productName"
    assert field_path(()) == ""
    assert join_path("lineItems[0]", "startDate") == "lineItems[0].startDate"
    assert join_path("partNumbers", "[1]") == "partNumbers[1]"
    assert join_path("", "x") == "x" and join_path("x", "") == "x"


class _Inner(BaseModel):
    start: v.DateText
    end: v.DateText | None = None

    @model_validator(mode="after")
    def _order(self) -> _Inner:
        if self.end and self.end < self.start:
            raise FieldProblem("end", "must not be before start")
        return self


class _Outer(BaseModel):
    name: v.IdText = Field(alias="entitlementId")
    items: list[_Inner] = Field(alias="lineItems")


def test_errors_by_field_uses_json_paths() -> None:
    with pytest.raises(ValidationError) as info:
        _Outer.model_validate({"entitlementId": "a#b", "lineItems": [{"start": "2026-01-01", "end": "2025-01-01"}, {"start": "x"}, {}]})
    errors = errors_by_field(info.value)
    assert errors["entitlementId"] == "must not contain #"
    assert errors["lineItems[0].end"] == "must not be before start"
    assert "YYYY-MM-DD" in errors["lineItems[1].start"]
    assert errors["lineItems[2].start"] == "Field required"


def test_since_param() -> None:
    assert v.read_since_param({"d": "1970-01-02"}, "d") == 86_400_000
    assert v.read_since_param({"d": "1970-01-01T00:00:01Z"}, "d") == 1000
    with pytest.raises(FieldProblem):
        v.read_since_param({"d": "last week"}, "d")
