"""Headless listers of the beta services: `flextui get entitlements|line-items|products|…|users|accounts`."""

from __future__ import annotations

import argparse
import csv
import io
import json
from typing import Any

import pytest

from flextui.api.entitlements import EntitlementFilter
from flextui.api.users import AccountFilter
from flextui.cli import main
from flextui.headless.entitlements import get_entitlements, get_line_items
from flextui.headless.products import get_features, get_maintenance, get_part_numbers, get_products, get_suites
from flextui.headless.users import get_accounts, get_users
from flextui.query import parse_filters
from flextui.sim.entitlements import entitlement_store
from flextui.sim.products import catalogue

ACME = "101200004242"


def args(target: str | None = None, *filters: str, page_size: int = 200) -> argparse.Namespace:
    return argparse.Namespace(target=target, filter=list(filters), page_size=page_size)


async def collect(rows: Any) -> list[dict[str, Any]]:
    return [row async for row in rows]


def test_parse_filters_names_bad_keys_and_values() -> None:
    model = parse_filters(["status=deployed", "ACCOUNTID=1012", "product=Flex Canvas"], EntitlementFilter, what="entitlements")
    assert model.params() == {"status": "deployed", "accountId": "1012", "product": "Flex Canvas"}
    with pytest.raises(ValueError, match="unknown filter 'colour'.*accountId"):
        parse_filters(["colour=red"], EntitlementFilter, what="entitlements")
    with pytest.raises(ValueError, match="filter status: must be one of"):
        parse_filters(["status=shipped"], EntitlementFilter, what="entitlements")
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_filters(["status"], EntitlementFilter, what="entitlements")
    accounts = parse_filters(["accountType=CUSTOMER,PUBLISHER", "rootAccountOnly=yes"], AccountFilter, what="accounts")
    assert accounts.params() == [("accountType", "CUSTOMER"), ("accountType", "PUBLISHER"), ("rootAccountOnly", "true")]
    with pytest.raises(ValueError, match="true or false"):
        parse_filters(["rootAccountOnly=maybe"], AccountFilter, what="accounts")


async def test_entitlements_and_line_items_page_through_everything(session: Any, world: Any) -> None:
    rows = await collect(get_entitlements(session, args(None, page_size=7)))
    assert [r["entitlement_id"] for r in rows] == sorted(world.entitlements), "all pages, small page size"
    acme = await collect(get_entitlements(session, args(ACME)))
    assert [r["entitlement_id"] for r in acme] == [e.entitlement_id for e in entitlement_store(world).by_account[ACME]]
    first = acme[0]
    assert first["account"] == "Acme Robotics" and first["account_id"] == ACME and first["line_items"] == 12
    assert "Region=APAC" in first["attributes"] and first["created"] == first["created_on"][:10]
    drafts = await collect(get_entitlements(session, args(None, "status=draft")))
    assert {r["status"] for r in drafts} == {"DRAFT"}

    items = await collect(get_line_items(session, args("ENT-100000", page_size=5)))
    expected = world.entitlements["ENT-100000"].line_items
    assert [r["activation_id"] for r in items] == [li.activation_id for li in expected]
    assert items[0]["product"] == expected[0].product.name and items[0]["license_model"] == "Perpetual"
    assert all(set(r) >= {"start_date", "expiry_date", "state", "policies", "attributes"} for r in items)
    canvas = await collect(get_line_items(session, args("ENT-100000", "productName=Canvas")))
    assert canvas and all("Canvas" in r["product"] for r in canvas)
    with pytest.raises(ValueError, match="give the entitlement"):
        await collect(get_line_items(session, args(None)))


async def test_catalogue_listers(session: Any, world: Any) -> None:
    cat = catalogue(world)
    products = await collect(get_products(session, args(None, page_size=30)))
    assert len(products) == len(cat.products)
    canvas = await collect(get_products(session, args("Canvas", "state=DEPLOYED")))
    assert canvas and all("Canvas" in r["name"] and r["state"] == "DEPLOYED" for r in canvas)
    assert all(isinstance(r["part_numbers"], str) for r in canvas), "flat rows"
    assert len(await collect(get_features(session, args()))) == len(cat.features)
    assert [r["name"] for r in await collect(get_suites(session, args()))] == sorted(s.name for s in cat.suites.values())
    unmapped = await collect(get_part_numbers(session, args(None, "unmappedWithProduct=true")))
    assert all(not r["product"] for r in unmapped)
    assert {r["name"] for r in await collect(get_maintenance(session, args()))} == {name for name, _ in cat.maintenance}


async def test_users_and_accounts(session: Any, world: Any) -> None:
    users = await collect(get_users(session, args(ACME)))
    assert users and all(ACME in r["account_ids"] for r in users)
    assert {"user_name", "display_name", "account", "status", "roles"} <= set(users[0])
    accounts = await collect(get_accounts(session, args()))
    assert len(accounts) == len(world.accounts), "every account type by default"
    publishers = await collect(get_accounts(session, args(None, "accountType=PUBLISHER")))
    assert [r["account_id"] for r in publishers] == ["FLEXDEMO"]
    assert len(await collect(get_accounts(session, args(None, "accountType=all")))) == len(world.accounts)


@pytest.mark.parametrize(
    "kind,target",
    [
        ("entitlements", ACME),
        ("line-items", "ENT-100000"),
        ("products", "Canvas"),
        ("features", None),
        ("feature-bundles", None),
        ("suites", None),
        ("part-numbers", None),
        ("maintenance", None),
        ("users", ACME),
        ("accounts", None),
    ],
)
def test_cli_formats(capsys: pytest.CaptureFixture[str], kind: str, target: str | None) -> None:
    base = ["get", kind, *([target] if target else []), "--demo", "--limit", "3"]
    assert main([*base, "-o", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert 0 < len(rows) <= 3
    key = next(iter(rows[0]))  # each run builds its demo world on the real clock: compare identities, not timestamps
    assert main([*base, "-o", "jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r[key] for r in lines] == [r[key] for r in rows] and list(lines[0]) == list(rows[0])
    assert main([*base, "-o", "csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r[key] for r in table] == [str(r[key]) for r in rows] and list(table[0]) == list(rows[0])
    assert main(base) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("---") and len(out) == len(rows) + 2


@pytest.mark.parametrize(
    "argv,code,message",
    [
        (["get", "entitlements", "--demo", "--filter", "colour=red"], 2, "unknown filter 'colour'"),
        (["get", "line-items", "--demo"], 2, "give the entitlement"),
        (["get", "line-items", "NOPE", "--demo"], 4, "NOPE"),
        (["get", "accounts", "--demo", "--filter", "accountType=ROBOT"], 2, "accountType"),
    ],
)
def test_cli_errors(capsys: pytest.CaptureFixture[str], argv: list[str], code: int, message: str) -> None:
    assert main(argv) == code
    assert message in capsys.readouterr().err
