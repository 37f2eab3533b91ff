"""Tolerant reading: every documented answer form read, nothing lost to one bad record, null as empty, no list as no answer."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from flextui.api.entitlements import Entitlement, EntitlementsService, LineItem
from flextui.api.errors import ApiError, Unreadable
from flextui.api.http import Session, decode_json, envelope
from flextui.api.paging import collect
from flextui.api.products import Product
from flextui.api.registry import ChartDetail, ProjectDetail
from flextui.api.reports import normalise
from flextui.api.tokens import Token
from flextui.api.tolerant import created_record, extras, list_items, list_more, list_total, parse_records, raw_of, unreadable
from flextui.api.users import User


@pytest.mark.parametrize(
    "raw",
    [
        [{"entitlementId": "E1"}],
        {"entitlements": [{"entitlementId": "E1"}]},
        {"data": [{"entitlementId": "E1"}]},
        {"responseObject": [{"entitlementId": "E1"}]},
        {"content": [{"entitlementId": "E1"}], "totalElements": 1, "last": True},
        {"data": {"items": [{"entitlementId": "E1"}]}},
    ],
)
def test_list_answers_in_every_form(raw: Any) -> None:
    items = parse_records(Entitlement, list_items(raw, "entitlements"))
    assert [e.entitlement_id for e in items] == ["E1"]


@pytest.mark.parametrize(
    "raw",
    [
        None,  # a bare array's empty form under null-collections (the registry's, by default)
        [],
        {"entitlements": None},
        {"entitlements": []},
        {"data": None},
        {"data": {"items": []}},
        {"status": "success", "page": 1, "limit": 20, "total": 0, "entitlements": []},
        {"status": "201 CREATED", "entitlements": []},  # a status in words of its own: not a failure
        {"statusMessage": "Successful", "responseObject": None},
        {"message": "No records found", "entitlements": []},
    ],
)
def test_null_or_empty_collections_are_empty(raw: Any) -> None:
    assert list_items(raw, "entitlements") == []


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ({}, 'holds no "entitlements" list: it is an empty object'),
        ("nothing", 'holds no "entitlements" list: it is the text "nothing"'),
        (3, "it is the number 3"),
        ({"foo": 1, "bar": [1]}, "it is an object with foo, bar"),
        ({"status": "error", "message": "boom"}, 'says "error: boom" and holds no "entitlements" list'),
        ({"status": "success"}, 'holds no "entitlements" list; it says "success"'),
        ({"message": "boom"}, 'it says "boom"'),
        # an empty list beside a status that says failure: the error form of an envelope, not "none"
        ({"status": "error", "message": "boom", "entitlements": []}, 'says "error: boom"'),
        ({"status": "FAILED", "entitlements": None}, 'says "FAILED"'),
        ({"statusMessage": "Failed to list: boom", "responseObject": None}, 'says "Failed to list: boom"'),
        ({"status": 500, "error": "Internal Server Error", "message": "boom", "path": "/v1/x"}, '"500: Internal Server Error: boom"'),
        ({"status": "404 NOT_FOUND", "data": []}, 'says "404 NOT_FOUND"'),
    ],
)
def test_an_answer_with_no_list_is_unreadable_not_empty(raw: Any, said: str) -> None:
    """A 200 that holds an error (or nothing readable) and no list was read as no items: "no entitlements", exit 0."""
    with pytest.raises(Unreadable) as info:
        list_items(raw, "entitlements")
    assert str(info.value).startswith("the server's answer ") and said in str(info.value), str(info.value)
    assert info.value.exit_code == 1


def test_a_top_level_null_is_empty_only_where_a_bare_array_is_the_form() -> None:
    assert list_items(None) == [] and list_items(None, "projects", null_is_empty=True) == []
    with pytest.raises(Unreadable, match='holds no "users" list: it is null'):
        list_items(None, "users", null_is_empty=False)


def test_a_list_that_holds_items_is_read_whatever_its_status_says() -> None:
    raw = {"status": "PARTIAL_FAILURE", "message": "1 record could not be read", "entitlements": [{"entitlementId": "E1"}]}
    assert [e.entitlement_id for e in parse_records(Entitlement, list_items(raw, "entitlements"))] == ["E1"]


def test_a_token_envelope_that_says_failure_is_an_error() -> None:
    """Unwrapped, its null would read as "no tokens" (or a count of 0)."""
    with pytest.raises(Unreadable, match='says "Failed to read tokens" and holds no responseObject'):
        envelope({"statusMessage": "Failed to read tokens", "responseObject": None})
    assert envelope({"statusMessage": "Successful", "responseObject": None}) is None
    assert envelope({"statusMessage": "Successful", "responseObject": [1]}) == [1]
    assert envelope({"statusMessage": "Failed", "responseObject": [1]}) == [1], "what it holds is read"


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ({"message": "internal error"}, 'says "internal error" and holds no project'),
        ({}, "holds no project: it is an empty object"),
        ({"message": "No record found!"}, 'holds no project; it says "No record found!"'),
    ],
)
def test_a_project_answer_that_holds_no_project_is_unreadable(raw: Any, said: str) -> None:
    """Read as a project, it showed an empty one: no repositories, no charts."""
    with pytest.raises(Unreadable) as info:
        ProjectDetail.from_raw(raw, "p")
    assert said in str(info.value)
    with pytest.raises(Unreadable, match="holds no chart"):
        ChartDetail.from_raw({"status": "error", "message": "boom"}, "p", "c")


@pytest.mark.parametrize(
    "body",
    [{"status": "error", "message": "boom"}, {}, "hello", None, {"header": {"pageNumber": 1}}, {"header": {}, "data": "x"}],
)
def test_a_report_page_without_its_data_list_is_unreadable(body: Any) -> None:
    """`data` absent is not an empty page: taken for one, it ended the report there and looked complete."""
    with pytest.raises(Unreadable, match="the server's answer"):
        normalise({"url": "https://x.example/data/api/v1/report/usage", "requested": 1}, body)


@pytest.mark.parametrize("body", [{"header": {"pageNumber": 1}, "data": []}, {"data": None}, {"status": "success", "data": []}, []])
def test_an_empty_report_page_in_a_documented_form_is_empty(body: Any) -> None:
    assert normalise({"url": "https://x.example/data/api/v1/report/usage", "requested": 1}, body)["rows"] == []


def test_totals_and_more_wherever_they_are() -> None:
    assert list_total({"pagination": {"total": 7}}) == 7
    assert list_total({"totalElements": "12"}) == 12
    assert list_total({"page": {"totalCount": 3}}) == 3
    assert list_total({"items": []}) is None
    assert list_more({"last": True}) is False and list_more({"pagination": {"hasMore": True}}) is True and list_more([]) is None


def test_null_nested_collections_read_as_empty() -> None:
    ent = Entitlement.model_validate({"entitlementId": "E", "accounts": None, "attributes": None, "description": None})
    assert ent.accounts == [] and ent.attributes == [] and ent.description is None
    item = LineItem.model_validate({"activationId": "A", "products": None, "attributes": None, "policies": None})
    assert item.products == [] and item.policies == {}


def test_a_record_that_does_not_fit_is_kept_and_marked() -> None:
    rows = parse_records(Token, [{"tokenName": "good-one"}, {"tokenName": {"oops": 1}, "username": "x@y"}, "not an object", None])
    assert [t.name for t in rows[:1]] == ["good-one"] and unreadable(rows[0]) is None
    assert len(rows) == 3
    assert unreadable(rows[1]) and "tokenName" in (unreadable(rows[1]) or "") and rows[1].username == "x@y"
    assert raw_of(rows[1]) == {"tokenName": {"oops": 1}, "username": "x@y"}
    assert unreadable(rows[2]) and raw_of(rows[2]) == "not an object"


def test_unknown_fields_are_kept_for_the_raw_view() -> None:
    product = Product.model_validate({"productName": "P", "version": "1", "brandNewField": {"x": 1}})
    assert extras(product) == {"brandNewField": {"x": 1}}


def test_users_without_a_user_name_take_their_email() -> None:
    user = User.model_validate({"emailAddress": "a@b.example", "firstName": "A"})
    assert user.user_name == "a@b.example"


def test_a_project_detail_in_the_openapi_samples_form() -> None:
    raw = {
        "artifacts": [{"annotations": {"a": "b"}, "digest": "sha256:1", "extra_attrs": {}, "tags": None}],
        "repositories": [{"repositoryName": "p/img", "artifactCount": 1}],
        "charts": None,
    }
    detail = ProjectDetail.from_raw(raw, "p")
    assert detail.name == "p" and [a.digest for a in detail.artifacts] == ["sha256:1"]
    assert [r.short_name for r in detail.repositories] == ["img"] and detail.charts == []


@pytest.mark.parametrize("answer", [{"status": "SUCCESS"}, {"message": "created", "status": "OK"}, {}, None])
def test_a_status_only_create_answer_is_success_with_the_record_sent(answer: Any) -> None:
    sent = {"productName": "P", "version": "2"}
    product = created_record(Product, answer, "product", sent, "creating product P")
    assert (product.product_name, product.version) == ("P", "2")


@pytest.mark.parametrize(
    "status",
    [
        "SUCCESS",
        "201 CREATED",
        "Created successfully",
        "SUCCESSFULLY_CREATED",
        "Active",
        "processed",
        "200",
        None,
        "Created with 0 errors",
        "done, no errors",
        "saved without failures",
    ],
)
def test_a_status_in_words_of_its_own_is_success(status: Any) -> None:
    """The pages document the status only as a string: a create said to have failed had been done, and a retry met 409."""
    product = created_record(Product, {"message": "done", "status": status}, "product", {"productName": "P", "version": "2"}, "creating")
    assert product.product_name == "P"


@pytest.mark.parametrize(
    "status",
    [
        "FAILED",
        "failure",
        "ERROR",
        "400 BAD_REQUEST",
        "409",
        "Invalid license model",
        "ALREADY_EXISTS",
        "NOT_FOUND",
        "Rejected",
        "UNSUCCESSFUL",
        "NOT_CREATED",
        "BAD_REQUEST",
        "DUPLICATE",
        "TIMEOUT",
        "timed out",
        "not allowed",
        "Unable to create product",
        "could not save",
        "0 errors, 1 failure",
    ],
)
def test_a_status_that_says_failure_is_an_error(status: str) -> None:
    with pytest.raises(ApiError, match="the server answered"):
        created_record(Product, {"status": status}, "product", {"productName": "P", "version": "1"}, "creating")


async def test_creates_answered_in_words_of_their_own_are_done(world: Any) -> None:
    """`create-status-worded`: "201 CREATED" is success, for an account as for a product."""
    from flextui.api.products import ProductCreate, ProductsService
    from flextui.api.users import AccountCreate, UsersService
    from flextui.sim.app import create_app
    from flextui.sim.dialects import speaking

    from ..conftest import make_session

    session = make_session(create_app(world, dialects=speaking("create-status-worded")))
    try:
        account = await UsersService(session).create_account(AccountCreate(accountId="ORBIT-42", name="Orbit Instruments"))
        assert account.account_id == "ORBIT-42" and "ORBIT-42" in world.accounts
        product = await ProductsService(session).create_product(ProductCreate(productName="Quartz Modeler", version="1.0"))
        assert product.product_name == "Quartz Modeler"
    finally:
        await session.aclose()


def test_a_failure_status_is_an_error_with_its_message() -> None:
    with pytest.raises(ApiError, match="FAILED: no such license model"):
        created_record(
            Product, {"status": "FAILED", "message": "no such license model"}, "product", {"productName": "P", "version": "1"}, "creating"
        )


def test_the_full_record_is_used_when_the_answer_has_it() -> None:
    product = created_record(Product, {"product": {"productName": "P", "version": "1", "state": "DRAFT"}}, "product", {}, "creating")
    assert product.state == "DRAFT"


def _response(body: bytes, status: int = 200) -> httpx.Response:
    return httpx.Response(status, content=body, headers={"content-type": "application/json"})


def test_hostile_answers_become_one_line_errors() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(Unreadable, match="nested too deeply|nested more than"):
        decode_json(_response(deep))
    with pytest.raises(Unreadable, match="nested more than 64"):
        decode_json(_response(b"[" * 70 + b"]" * 70))
    with pytest.raises(Unreadable, match="not JSON"):
        decode_json(_response(b"<html>"))
    assert decode_json(_response(b"", 204)) is None


async def test_an_empty_list_answer_is_an_error_not_no_rows() -> None:
    s = Session("https://fno.example", auth=httpx.BasicAuth("u", "p"), transport=httpx.MockTransport(lambda r: _response(b"")))
    async with s:
        with pytest.raises(Unreadable, match="empty body") as info:
            await collect(EntitlementsService(s).iterate())
    assert info.value.exit_code == 1
