"""Pilot tests of the entitlement tree: lazy loading, filters, detail, every form, read-only, jumps."""

from __future__ import annotations

import dataclasses
from datetime import UTC
from typing import Any

import pytest
from textual.widgets import Input, Select, Switch, TextArea

from flextui.api.entitlements import EntitlementsService
from flextui.api.errors import ServerError
from flextui.api.users import UsersService
from flextui.config import Settings
from flextui.sim.dialects import speaking
from flextui.sim.entitlements import entitlement_store
from flextui.ui.screens.entitlements.tree import EntitlementsScreen, parse_argument
from flextui.ui.screens.products import ProductsScreen
from flextui.ui.screens.users import UsersScreen
from flextui.ui.widgets.bars import TitleBar
from flextui.ui.widgets.dialogs import ValueScreen
from flextui.ui.widgets.forms import SectionedForm
from flextui.ui.widgets.record import RecordScreen
from tests.ui.conftest import build_app, settle, until, world_of

ACME = "101200004242"


def screen(app: Any) -> EntitlementsScreen:
    found = app.screen
    assert isinstance(found, EntitlementsScreen), type(found).__name__
    return found


def child_keys(app: Any, key: str) -> list[str]:
    node = screen(app).node_index[key]
    return [c.data.key for c in node.children if c.data is not None and c.data.key]


def child_text(app: Any, key: str) -> list[str]:
    return [str(c.label) for c in screen(app).node_index[key].children]


def sent(app: Any) -> int:
    return app.ctx.session.requests_sent


async def expand(pilot: Any, key: str) -> None:
    """Open the node `key` once the tree holds it (a loaded level's nodes are added after its worker ends)."""
    await until(pilot, lambda: key in screen(pilot.app).node_index)
    s = screen(pilot.app)
    s.tree.move_cursor(s.node_index[key])
    await pilot.pause()
    await pilot.press("right")
    await settle(pilot)


async def fill(pilot: Any, values: dict[str, Any]) -> None:
    form = pilot.app.screen
    for key, value in values.items():
        widget = form.query_one(f"#field-{key}")
        if isinstance(widget, (Input, Select, Switch)):
            widget.value = value
    await pilot.pause()


async def acme_entitlement_open(pilot: Any) -> Any:
    """The tree with Acme's account and its ENT-100000 expanded; the screen."""
    await settle(pilot)
    s = screen(pilot.app)
    await expand(pilot, f"A:{ACME}")
    await expand(pilot, "E:ENT-100000")
    return s


def hint(app: Any, key: str) -> str:
    return str(app.screen.query_one(f"#hint-{key}").render())


def errors(app: Any) -> dict[str, str]:
    form = app.screen
    out = {spec.key: hint(app, spec.key) for spec in form.specs if form.query_one(f"#field-{spec.key}").has_class("-invalid")}
    general = str(form.query_one("#form-error").render())
    return {**out, "": general} if general.strip() else out


def pager(app: Any) -> str:
    return str(app.screen.query_one("#pager").render())


def detail(app: Any) -> str:
    return str(app.screen.query_one("#ent-detail-body").render())


ONE_LINE_ITEM = {
    "li0-productName": "Nova Gateway",
    "li0-productVersion": "2022.4",
    "li0-startDate": "2026-11-02",
    "li0-expiryDate": "2027-11-01",
}
"""The first line item's fields, filled as valid."""


async def first_entitlement_open(pilot: Any) -> tuple[Any, Any]:
    """The tree settled with ENT-100000 open: the screen and its first line item."""
    await settle(pilot)
    await expand(pilot, "E:ENT-100000")
    return screen(pilot.app), world_of(pilot.app).entitlements["ENT-100000"].line_items[0]


async def requests_to_save(pilot: Any) -> int:
    """ctrl+s on a form, settled: how many requests it sent."""
    before = sent(pilot.app)
    await pilot.press("ctrl+s")
    await settle(pilot)
    return sent(pilot.app) - before


async def new_entitlement_form(pilot: Any) -> Any:
    """The tree settled, Acme's node open, and `n`: its new-entitlement form."""
    await settle(pilot)
    await expand(pilot, f"A:{ACME}")
    await pilot.press("n")
    await settle(pilot)
    return pilot.app.screen


async def test_accounts_page_then_each_expansion_loads_only_its_children(monkeypatch: Any) -> None:
    app = build_app(start=["entitlements"])
    app.ctx.session.page_bases.learn("entitlements", 1)  # known, as after a first listing (detection: tests/test_dialects.py)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        world = world_of(app)
        assert f"of {len(world.accounts)}" in pager(app)
        assert len(s.tree.root.children) == len(world.accounts)
        assert all(not node.children for node in s.tree.root.children), "nothing below the accounts is loaded up front"

        before = sent(app)
        await expand(pilot, f"A:{ACME}")
        assert sent(app) - before == 1, "one request for one account's entitlements"
        store = entitlement_store(world)
        assert child_keys(app, f"A:{ACME}") == [f"E:{e.entitlement_id}" for e in store.by_account[ACME]]
        assert all(not n.children for key, n in s.node_index.items() if key.startswith("A:") and key != f"A:{ACME}")

        before = sent(app)
        await expand(pilot, "E:ENT-100000")
        assert sent(app) - before == 1, "one request for one entitlement's line items"
        items = world.entitlements["ENT-100000"].line_items
        assert child_keys(app, "E:ENT-100000") == [f"L:{li.activation_id}" for li in items]

        before = sent(app)
        first = f"L:{items[0].activation_id}"
        await expand(pilot, first)
        assert sent(app) == before, "product and license model come with the line item"
        assert [c.data.kind for c in s.node_index[first].children] == ["product", "license_model"]
        assert items[0].product.name in child_text(app, first)[0]

        s.node_index["E:ENT-100000"].collapse()
        await pilot.pause()
        before = sent(app)
        await expand(pilot, "E:ENT-100000")
        assert sent(app) == before, "expanding again uses what is loaded"
        assert [e.requests for e in s.expansions] == [1, 1]

        s.forget_children()  # what was loaded is dropped: the session cache answers, at once
        await settle(pilot)
        before = sent(app)
        await expand(pilot, f"A:{ACME}")
        assert sent(app) == before
        last = s.expansions[-1]
        assert last.from_cache and last.requests == 0
        assert last.seconds is not None  # shown from the cache, no request (how fast: bench/bench_tree.py)
        assert len(child_keys(app, f"A:{ACME}")) == 5

        async def outage(*args: Any, **kwargs: Any) -> Any:
            raise ServerError("service unavailable", status=503)
            yield  # an async generator, like list_page

        other = next(key for key in s.node_index if key.startswith("A:") and key != f"A:{ACME}")
        with monkeypatch.context() as patch:
            patch.setattr(EntitlementsService, "list_page", outage)
            await expand(pilot, other)
        assert child_text(app, other)[0].startswith("✗ failed to load") and "503 service unavailable" in s.status.error
        s.node_index[other].collapse()
        await pilot.pause()
        await expand(pilot, other)
        assert child_keys(app, other) and child_keys(app, other)[0].startswith("E:"), "expanding again retries"


async def test_loading_marker_is_visible_while_the_request_runs() -> None:
    app = build_app(start=["entitlements"], latency_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        s.tree.move_cursor(s.node_index[f"A:{ACME}"])
        await pilot.press("right")
        assert child_text(app, f"A:{ACME}") == ["loading…"]
        await pilot.press("down")  # onto the marker, before the answer
        assert "Move the cursor onto" in detail(app)
        await until(pilot, lambda: child_text(app, f"A:{ACME}")[0].startswith("ENT-100000"))
        # the cursor is now on the first entitlement (no highlight event came): the pane says which
        await until(pilot, lambda: "ENT-100000" in detail(app))


async def test_detail_pane_shows_entitlement_line_item_and_product() -> None:
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        assert "Account Acme Robotics" in detail(app)
        await expand(pilot, f"A:{ACME}")
        assert "5 (4 deployed, 1 draft)" in detail(app)
        s.tree.move_cursor(s.node_index["E:ENT-100000"])
        await pilot.pause()
        text = detail(app)
        assert "Entitlement ENT-100000" in text and "Trial extension" in text
        assert "Region" in text and "APAC" in text, "attributes are shown"
        await expand(pilot, "E:ENT-100000")
        li = world_of(app).entitlements["ENT-100000"].line_items[0]
        li.policies["rehosts"] = {"allowedCount": 3, "policyTermDuration": 30, "policyTermUnit": "DAYS"}
        before = sent(app)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert sent(app) - before == 3, "ctrl+r reloads the accounts and what is expanded, fresh"
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await pilot.pause()
        text = detail(app)
        assert f"Line item {li.activation_id}" in text
        assert "Nova Gateway 2022.4" in text and "Perpetual" in text
        assert "3 allowed per 30 days" in text
        assert "CostCenter" in text
        await expand(pilot, f"L:{li.activation_id}")
        s.tree.move_cursor(s.node_index[f"P:{li.activation_id}:0"])
        await pilot.pause()
        assert "Product Nova Gateway 2022.4" in detail(app) and "PN-GAT-0240" in detail(app)
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, RecordScreen)
        assert "PN-GAT-0240" in str(app.screen.query_one("#record-body").render())
        await pilot.press("R")  # the product as the server sent it (R did nothing in a detail dialog)
        await settle(pilot)
        assert isinstance(app.screen, ValueScreen) and "PN-GAT-0240" in app.screen.query_one("#value-text", TextArea).text


async def test_filters_paging_and_client_filter() -> None:
    app = build_app(start=["entitlements"], settings=Settings(page_size=10))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        world = world_of(app)
        total = len(world.accounts)
        assert f"accounts 1–10 of {total}" in pager(app) and "page 1 of 4" in pager(app)
        first_page = [n.data.account_id for n in s.tree.root.children]
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "accounts 11–20" in pager(app)
        assert not set(first_page) & {n.data.account_id for n in s.tree.root.children}
        await pilot.press("left_square_bracket")
        await settle(pilot)
        s.apply_filter("acme")
        await pilot.pause()
        assert [n.data.account_id for n in s.tree.root.children] == [ACME]
        assert "/acme: 1 shown" in pager(app)
        s.apply_filter("")

        # product and status: the top level becomes the accounts of the matching entitlements
        s.query_one("#f-product", Input).value = "Nova Beacon"
        s.query_one("#f-product", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        matching = [e for e in world.entitlements.values() if any(li.product.name == "Nova Beacon" for li in e.line_items)]
        assert f"of {len(matching)} matching product=Nova Beacon" in pager(app)
        assert {n.data.account_id for n in s.tree.root.children} == {e.account_id for e in matching}
        before = sent(app)
        await expand(pilot, f"A:{matching[0].account_id}")
        assert sent(app) == before, "the entitlement list already said which entitlements each account has"
        s.query_one("#f-status", Select).value = "DRAFT"
        await settle(pilot)
        drafts = [e for e in matching if e.status == "DRAFT"]
        assert f"of {len(drafts)} matching" in pager(app)
        await pilot.press("x")
        await settle(pilot)
        assert "accounts 1–10" in pager(app)

        # creation dates: checked before sending, applied to each page's rows
        before = sent(app)
        s.query_one("#f-from", Input).value = "2026-13-01"
        s.query_one("#f-from", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert sent(app) == before, "a bad date is refused before any request"
        assert "created from" in s.status.error and s.query_one("#f-from").has_class("-bad-filter")
        s.query_one("#f-from", Input).value = "2026-06-01"
        await pilot.press("enter")
        await settle(pilot)
        wanted = [e for e in world.entitlements.values() if s.filters.in_dates(_model(e))]
        assert 0 < len(wanted) < len(world.entitlements)
        shown = [e.entitlement_id for ents in s.ent_children.values() for e in ents]
        assert sorted(shown) == sorted(e.entitlement_id for e in wanted)
        assert "created outside the dates" in pager(app)


def _model(ent: Any) -> Any:
    from datetime import datetime

    from flextui.api.entitlements import Entitlement

    return Entitlement(entitlementId=ent.entitlement_id, createdOn=datetime.fromtimestamp(ent.created_ms / 1000, tz=UTC).isoformat())


async def test_ent_command_opens_one_account_and_product_arguments() -> None:
    assert parse_argument("101200004242") == {"account": "101200004242"}
    assert parse_argument("product=Flex Canvas status=deployed") == {"product": "Flex Canvas", "status": "deployed"}
    assert parse_argument("Acme Robotics") == {"account": "Acme Robotics"}
    app = build_app(start=["entitlements", ACME])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        assert [n.data.account_id for n in s.tree.root.children] == [ACME]
        assert s.node_index[f"A:{ACME}"].is_expanded
        await until(pilot, lambda: len(child_keys(app, f"A:{ACME}")) == 5)  # (its entitlements: a request of their own)
        app.screen.query_one("#commandbar").open()
        await pilot.press(*"ent Acme Robotics", "enter")
        await until(pilot, lambda: [n.data.account_id for n in screen(app).tree.root.children] == [ACME])  # a name works too


def last_request(app: Any, method: str, part: str) -> Any:
    """The session's latest exchange of `method` whose address holds `part`: what was sent, as the request log has it."""
    found = app.ctx.session.trace.latest(lambda e: e.method == method and part in e.url)
    assert found is not None, f"no {method} {part}"
    return found


async def test_the_status_obsoleted_is_offered_and_sent_as_its_word() -> None:
    """Seed 002 §3: the entitlement list filter names obsoleted (the GraphQL State enum's word); `:ent status=obsoleted`
    broke the screen (its Status choice had no such value) and the filter went out as obsolete."""
    app = build_app(start=["entitlements", "status=obsoleted"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        assert s.query_one("#f-status", Select).value == "OBSOLETED"
        sent_url = last_request(app, "GET", "/v1/entitlements").url
        assert "status=obsoleted" in sent_url, sent_url
        obsolete = {e.account_id for e in world_of(app).entitlements.values() if e.status == "OBSOLETE"}
        assert obsolete and {n.data.account_id for n in s.tree.root.children} == obsolete
        s.query_one("#f-status", Select).value = "OBSOLETE"  # the creation word, also a list filter's: sent as it is
        await settle(pilot)
        assert "status=obsolete&" in last_request(app, "GET", "/v1/entitlements").url + "&"
    app = build_app(start=["entitlements", "status=retired"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "status: must be one of draft, deployed, obsolete, active, inactive, obsoleted (got 'retired')" in screen(app).status.error


async def test_policy_units_are_preselected_in_any_case_and_sent_as_documented() -> None:
    """PolicyInput: "Valid types are Days, Weeks, Months, Years" (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/PolicyInput.md).
    What the server holds is preselected whatever its case; a unit that is none of them is shown, and refused before sending."""
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        s = await acme_entitlement_open(pilot)
        li = world_of(app).entitlements["ENT-100000"].line_items[0]
        li.policies.update(
            {
                "rehosts": {"allowedCount": 3, "policyTermDuration": 30, "policyTermUnit": "DAYS"},
                "returns": {"allowedCount": 1, "policyTermDuration": 2, "policyTermUnit": "weeks"},
                "repairs": {"allowedCount": 1, "policyTermDuration": 1, "policyTermUnit": "Fortnights"},
            }
        )
        await pilot.press("ctrl+r")  # the server holds them now
        await settle(pilot)
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await pilot.pause()
        await pilot.press("p")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SectionedForm)
        units = {kind: form.query_one(f"#field-{kind}-unit", Select).value for kind in ("rehosts", "returns", "repairs")}
        assert units == {"rehosts": "Days", "returns": "Weeks", "repairs": "Fortnights"}
        before = sent(app)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert sent(app) == before and "Days, Weeks, Months, Years" in hint(app, "repairs-unit")
        await fill(pilot, {"repairs-unit": "Months"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen)
        body = last_request(app, "PATCH", f"/line-items/{li.activation_id}/policies").request_body
        assert [body[kind]["policyTermUnit"] for kind in ("rehosts", "returns", "repairs")] == ["Days", "Weeks", "Months"]
        assert [li.policies[kind]["policyTermUnit"] for kind in ("rehosts", "returns", "repairs")] == ["Days", "Weeks", "Months"]


async def test_clearing_the_filters_clears_them_from_the_header_too() -> None:
    """`x` listed every account while the header still named the filter the screen was opened with."""
    app = build_app(start=["entitlements", ACME])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        title = app.screen.query_one(TitleBar)
        assert ACME in title.area
        await pilot.press("x")
        await settle(pilot)
        assert len(screen(app).tree.root.children) > 1, "every account"
        assert ACME not in title.area and title.area == "Entitlements"


async def test_create_entitlement_with_two_line_items_end_to_end() -> None:
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        await expand(pilot, f"A:{ACME}")
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SectionedForm)
        assert form.query_one("#field-accountId", Input).value == ACME, "the account under the cursor is proposed"
        await fill(
            pilot,
            {
                "description": "UI created",
                "attributes": "Region=EMEA; SalesOrder=SO-1",
                "li0-productName": "Nova Gateway",
                "li0-productVersion": "2022.4",
                "li0-quantity": "5",
                "li0-startDate": "2026-11-02",
                "li0-expiryDate": "2027-11-01",
            },
        )
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert form.section is not None and form.section.count == 2
        taken = world_of(app).entitlements["ENT-100001"].line_items[0].activation_id
        await fill(
            pilot, {"li1-productName": "Flex Canvas", "li1-productVersion": "2023.4", "li1-isPermanent": True, "li1-activationId": taken}
        )
        assert form.validate(all_fields=True) is not None, errors(app)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form, "the server refused an activation ID already in use"
        assert "already used" in hint(app, "li1-activationId")
        assert form.query_one("#field-li1-activationId").has_class("-invalid")
        assert "see the field “Line item 2: Activation ID”" in str(form.query_one("#form-error").render())
        assert form.focused is form.query_one("#field-li1-activationId"), "the field the server named gets the focus"
        await fill(pilot, {"li1-activationId": "ACT-UI-2"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen), str(form.query_one("#form-error").render())
        store = entitlement_store(world_of(app))
        created = [e for e in store.by_account[ACME] if e.description == "UI created"]
        assert len(created) == 1
        ent = created[0]
        assert [li.product.name for li in ent.line_items] == ["Nova Gateway", "Flex Canvas"]
        assert ent.line_items[1].activation_id == "ACT-UI-2" and ent.line_items[1].expiry_date is None
        assert ent.attributes == {"Region": "EMEA", "SalesOrder": "SO-1"}
        body = last_request(app, "POST", "/v1/entitlement").request_body
        # "empty: generated" goes out as autoGenerate true; an ID typed, as false (it went out false with no ID)
        assert body["autoGenerate"] is True and "entitlementId" not in body
        assert [(li.get("activationId"), li["autoGenerate"]) for li in body["lineItems"]] == [(None, True), ("ACT-UI-2", False)]
        assert any("created with 2 line items" in str(n.message) for n in app._notifications)
        assert f"E:{ent.entitlement_id}" in child_keys(app, f"A:{ACME}")
        assert s.tree.cursor_node.data.key == f"E:{ent.entitlement_id}"


async def test_a_mandatory_attribute_the_server_names_is_shown_on_the_attributes_field() -> None:
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        form = await new_entitlement_form(pilot)
        await fill(pilot, {"attributes": "SalesOrder=SO-9", **ONE_LINE_ITEM})
        assert form.validate(all_fields=True) is not None, "the client does not invent mandatory attributes"
        assert await requests_to_save(pilot) == 1 and app.screen is form, "sent once, refused by the server, the form kept"
        assert "mandatory custom attribute REGION" in hint(app, "attributes") and form.query_one("#field-attributes").has_class("-invalid")
        await fill(pilot, {"attributes": "SalesOrder=SO-9; Region=AMER"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen)


async def test_create_form_validates_every_rule_inline_before_sending() -> None:
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        await pilot.press("ctrl+n")
        await settle(pilot)
        before = sent(app)
        await fill(
            pilot,
            {
                "entitlementId": "bad/id",
                "shipToAddress": "Main St. #5",
                "li0-productName": "Nova Gateway",
                "li0-productVersion": "1999.1",
                "li0-startDate": "2026-11-02",
                "li0-expiryDate": "2026-01-01",
                "li0-quantity": "many",
                "li1-productName": "No Such Product",
                "li1-productVersion": "1.0",
                "li1-startDate": "2026-02-30",
            },
        )
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert form is app.screen, "the form stays open with everything typed"
        assert sent(app) == before, "nothing is sent"
        assert "must not contain /" in hint(app, "entitlementId")
        assert "letters, digits" in hint(app, "shipToAddress")
        assert "mandatory" in hint(app, "attributes") and "server" in hint(app, "attributes"), (
            "which attributes are mandatory is the tenant's: the server names them"
        )
        assert "has no version 1999.1" in hint(app, "li0-productVersion")
        assert "whole number" in hint(app, "li0-quantity")
        assert "not a calendar date" in hint(app, "li1-startDate")
        assert "calendar date" not in hint(app, "li1-expiryDate"), "a bad start date is named on its own field only"
        assert "no product No Such Product" in hint(app, "li1-productName")
        await fill(pilot, {"li0-productVersion": "2022.4"})
        assert "must not be before" in hint(app, "li0-expiryDate")
        assert form.query_one("#field-li1-productName", Input).value == "No Such Product"
        await form.remove_section(1)
        await settle(pilot)
        assert form.section.count == 1 and not form.query("#field-li1-productName")
        assert form.query_one("#field-li0-quantity", Input).value == "many", "values survive removing a section"


async def test_the_account_name_under_the_account_id_follows_the_field() -> None:
    """The name under Account ID was the account the cursor was on, whatever was typed since (`999` still read
    "Acme Robotics"), and an account that does not exist was not marked: the name now follows the field, from the
    accounts shown or else asked of the users service, and an unknown one is marked before anything is sent."""
    app = build_app(start=["entitlements"])
    app.ctx.settings.page_size = 5  # Willow Networks is not among the accounts shown: the form asks for it
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "A:101929061121" not in screen(app).node_index
        await expand(pilot, f"A:{ACME}")
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SectionedForm)
        assert hint(app, "accountId") == "Acme Robotics"
        await fill(pilot, {"accountId": "999"})
        assert "Acme" not in hint(app, "accountId")
        await until(pilot, lambda: "no account '999'" in hint(app, "accountId"))
        assert form.query_one("#field-accountId").has_class("-invalid")
        await fill(
            pilot,
            {
                "attributes": "Region=EMEA",
                "li0-productName": "Nova Gateway",
                "li0-productVersion": "2022.4",
                "li0-startDate": "2026-11-02",
                "li0-expiryDate": "2027-11-01",
            },
        )
        before = sent(app)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and sent(app) == before, "nothing is sent for an account that is not there"
        assert list(errors(app)) == ["accountId", ""], errors(app)
        await fill(pilot, {"accountId": "101929061121"})
        await until(pilot, lambda: hint(app, "accountId") == "Willow Networks")
        assert not form.query_one("#field-accountId").has_class("-invalid")
        await fill(pilot, {"accountId": ""})
        assert "default account UNKNOWN_ORG_UNIT" in hint(app, "accountId")
        await fill(pilot, {"accountId": ACME})
        assert hint(app, "accountId") == "Acme Robotics"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen), errors(app)


async def test_the_account_type_follows_the_account_id_until_the_user_picks_one() -> None:
    """The type proposed was the cursor's account's, whatever Account ID was typed since: a channel partner's ID
    went with "customer". It now follows the account the ID names (from the tree or the users service), and once
    the user picks a type it is theirs."""
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        partner = next(a for a in world_of(app).accounts.values() if a.account_type == "CHANNEL_PARTNER")
        await expand(pilot, f"A:{ACME}")
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SectionedForm)
        kind = form.query_one("#field-accountType", Select)
        assert kind.value == "CUSTOMER"
        await fill(pilot, {"accountId": partner.account_id})
        await until(pilot, lambda: hint(app, "accountId") == partner.name)
        await until(pilot, lambda: kind.value == "CHANNEL_PARTNER")
        await fill(pilot, {"accountId": ACME})
        await until(pilot, lambda: kind.value == "CUSTOMER")
        await fill(pilot, {"accountType": "PUBLISHER"})
        await fill(pilot, {"accountId": partner.account_id})
        await until(pilot, lambda: hint(app, "accountId") == partner.name)
        await settle(pilot)
        assert kind.value == "PUBLISHER", "the type the user picked is never overwritten"


async def test_the_ship_to_e_mail_must_be_an_e_mail() -> None:
    """Seed 002: shipToEmail is the "e-mail of the ship-to contact"; `not-an-email` passed every inline check."""
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        form = await new_entitlement_form(pilot)
        await fill(pilot, {"shipToEmail": "not-an-email", "attributes": "Region=EMEA", **ONE_LINE_ITEM})
        assert await requests_to_save(pilot) == 0 and app.screen is form
        assert "must be an e-mail address" in errors(app).get("shipToEmail", ""), errors(app)
        await fill(pilot, {"shipToEmail": " ops@acme.example "})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen), errors(app)
        created = [e for e in entitlement_store(world_of(app)).by_account[ACME] if e.ship_to_email == "ops@acme.example"]
        assert len(created) == 1


async def test_line_item_changes_add_policies_properties_maintenance() -> None:
    app = build_app(start=["entitlements", ACME])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        await expand(pilot, "E:ENT-100001")
        before_count = len(world_of(app).entitlements["ENT-100001"].line_items)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, SectionedForm) and "ENT-100001" in str(app.screen.query_one("#form-title").render())
        await fill(pilot, {"li0-productName": "Flex Canvas", "li0-productVersion": "2023.4", "li0-isPermanent": True, "li0-quantity": "3"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        ent = world_of(app).entitlements["ENT-100001"]
        assert len(ent.line_items) == before_count + 1
        new = ent.line_items[-1]
        assert new.product.name == "Flex Canvas" and new.quantity == 3 and new.state == "DRAFT"
        assert f"L:{new.activation_id}" in child_keys(app, "E:ENT-100001"), "the entitlement's line items were reloaded"
        assert s.tree.cursor_node.data.key == f"L:{new.activation_id}"

        # policies
        await expand(pilot, "E:ENT-100000")
        li = world_of(app).entitlements["ENT-100000"].line_items[1]
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await pilot.pause()
        await pilot.press("p")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SectionedForm)
        before = sent(app)
        await fill(pilot, {"rehosts-count": "abc"})  # the only policy given, and not a number
        await pilot.press("ctrl+s")
        await settle(pilot)
        said = str(form.query_one("#form-error").render())
        assert "whole number" in hint(app, "rehosts-count") and "1 field needs fixing" in said
        assert "at least one policy" not in said, "one was given: only its value is wrong"
        await fill(pilot, {"rehosts-count": "2", "rehosts-duration": "30"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert sent(app) == before and "required with “Rehosts per”" in hint(app, "rehosts-unit"), "in the form's words, not the API's"
        await fill(pilot, {"rehosts-unit": "Months", "extraActivations": "4", "virtualLicense": "true"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen)
        assert li.policies["rehosts"] == {"allowedCount": 2, "policyTermDuration": 30, "policyTermUnit": "Months"}
        assert li.policies["extraActivations"] == 4 and li.policies["virtualLicense"] is True
        await until(pilot, lambda: "2 allowed per 30 months" in detail(app))  # the line item again, its entitlement and account reloaded
        assert s.tree.cursor_node.data.key == f"L:{li.activation_id}"

        # additional properties
        li = world_of(app).entitlements["ENT-100000"].line_items[2]
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await pilot.pause()
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        await fill(pilot, {"productName": "Flex Canvas"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and "together" in hint(app, "productVersion")
        await fill(pilot, {"productName": "", "orderType": "RENEWAL_ORDER", "attributes": "Reseller=ACME-EU", "gracePeriodDays": "7"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen), str(form.query_one("#form-error").render())
        assert li.order_type == "RENEWAL_ORDER" and li.attributes["Reseller"] == "ACME-EU"
        assert entitlement_store(world_of(app)).license_models[li.activation_id]["gracePeriodDays"] == 7
        said = next(str(n.message) for n in app._notifications if f"{li.activation_id} updated" in str(n.message))
        assert all(part in said.casefold() for part in ("ordertype=renewal_order", "graceperioddays=7", "reseller=acme-eu")), said

        # maintenance
        await expand(pilot, "E:ENT-100002")
        li = world_of(app).entitlements["ENT-100002"].line_items[0]
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await pilot.pause()
        await pilot.press("m")
        await settle(pilot)
        form = app.screen
        assert form.query_one("#field-mi0-parent", Input).value == li.activation_id
        await fill(pilot, {"mi0-name": "Gold Support", "mi0-version": "1.0", "mi0-isPermanent": True})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen), str(form.query_one("#form-error").render())
        added = world_of(app).entitlements["ENT-100002"].line_items[-1]
        assert added.maintenance and added.parent_activation_id == li.activation_id and added.product.name == "Gold Support"
        assert "maint." in str(s.node_index[f"L:{added.activation_id}"].label)


async def test_a_line_item_the_server_fails_is_said_with_its_reason_and_never_as_a_success() -> None:
    """Per-item failures in a create answer were ignored ("0 line items added to ENT-1"). A product not deployed
    fails its line item on the simulator ("There must be deployed products", SOAP createSimpleEntitlement): what
    was added and what failed, with the server's words, are said as an error; when nothing was added the form
    stays open, saying why, with everything typed."""
    app = build_app(start=["entitlements", ACME])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        s = screen(app)
        await expand(pilot, "E:ENT-100001")
        ent = world_of(app).entitlements["ENT-100001"]
        before = len(ent.line_items)
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SectionedForm)
        await fill(pilot, {"li0-productName": "Flex Lens", "li0-productVersion": "2024.2", "li0-isPermanent": True})
        await until(pilot, lambda: "not deployed" in hint(app, "li0-productVersion"))  # the catalogue says so before sending
        assert await requests_to_save(pilot) == 1 and app.screen is form, "nothing was added: the form stays"
        said = str(form.query_one("#form-error").render())
        assert "1 of 1 failed" in said and "Product Flex Lens version 2024.2 is not deployed" in said, said
        assert len(ent.line_items) == before
        await pilot.press("ctrl+n")
        await settle(pilot)
        await fill(pilot, {"li1-productName": "Nova Gateway", "li1-productVersion": "2022.4", "li1-isPermanent": True})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen), "one was added: sending the form again would add it twice"
        added = ent.line_items[before:]
        assert [li.product.name for li in added] == ["Nova Gateway"]
        errors_said = [str(n.message) for n in app._notifications if n.severity == "error"]
        expected = (
            f"1 line item added to ENT-100001: {added[0].activation_id}; but 1 line item failed: "
            "line item 1 (Flex Lens 2024.2): Product Flex Lens version 2024.2 is not deployed"
        )
        assert any(m.startswith(expected) for m in errors_said), errors_said
        assert not any("added to ENT-100001" in str(n.message) for n in app._notifications if n.severity != "error")
        await until(pilot, lambda: f"L:{added[0].activation_id}" in child_keys(app, "E:ENT-100001"))
        assert s.tree.cursor_node.data.key == f"L:{added[0].activation_id}"


async def test_a_partial_failure_said_only_by_its_status_is_said_as_such() -> None:
    """The documented `{status}` answer (`create-status-only`): PARTIAL_FAILURE with no items was a plain error in
    the form (which stayed open to send the done ones again), or would have read "0 line items added"."""
    app = build_app(start=["entitlements", ACME], dialects=speaking("create-status-only"))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        await expand(pilot, "E:ENT-100001")
        ent = world_of(app).entitlements["ENT-100001"]
        before = len(ent.line_items)
        await pilot.press("a")
        await settle(pilot)
        await fill(pilot, {"li0-productName": "Nova Gateway", "li0-productVersion": "2022.4", "li0-isPermanent": True})
        await pilot.press("ctrl+n")
        await settle(pilot)
        await fill(pilot, {"li1-productName": "Flex Lens", "li1-productVersion": "2024.2", "li1-isPermanent": True})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen), "some were done: the form is not left to send them again"
        assert len(ent.line_items) == before + 1
        said = [str(n.message) for n in app._notifications if n.severity == "error"]
        expected = "Adding 2 line items to ENT-100001: the server answered PARTIAL_FAILURE, naming no item: some of it was done"
        assert any(m.startswith(expected) for m in said), said
        assert not any("added to ENT-100001" in str(n.message) for n in app._notifications), "never said as a success"
        await until(pilot, lambda: f"L:{ent.line_items[-1].activation_id}" in child_keys(app, "E:ENT-100001"))


async def test_the_maintenance_form_needs_name_and_version_and_takes_a_part_number_beside_them() -> None:
    """maintenanceProductName and maintenanceProductVersion are "(string, required)", partNumber optional, and the
    page's sample sends all three (…/maintenancelineitem/postmaintenancelineitems.md). The form invited a part
    number "instead of name and version", sent it alone (the service needs the name and version), and refused the
    documented sample."""
    app = build_app(start=["entitlements", ACME])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await expand(pilot, "E:ENT-100002")
        await pilot.press("m")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SectionedForm)
        assert "instead" not in str(form.query_one("#field-mi0-partNumber", Input).placeholder)
        await fill(pilot, {"mi0-partNumber": "MNT-GOLD-001", "mi0-isPermanent": True})
        assert await requests_to_save(pilot) == 0 and app.screen is form, "a part number alone is refused before sending"
        assert {"mi0-name", "mi0-version"} <= set(errors(app)), errors(app)
        await fill(pilot, {"mi0-name": "Gold Support", "mi0-version": "1.0"})
        await until(pilot, lambda: "MNT-GOLD-001" in hint(app, "mi0-partNumber"))  # the product's part numbers, from the catalogue
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen), str(form.query_one("#form-error").render())
        body = last_request(app, "POST", "/maintenance-line-items").request_body
        assert body["maintenanceLineItems"][0]["maintenanceProduct"] == {
            "maintenanceProductName": "Gold Support",
            "maintenanceProductVersion": "1.0",
            "partNumber": "MNT-GOLD-001",
        }
        assert world_of(app).entitlements["ENT-100002"].line_items[-1].product.name == "Gold Support"


@pytest.mark.parametrize("dialect", [None, "line-item-dates-datetime", "line-item-dates-epoch"])
async def test_expired_and_expiring_line_items_are_marked_whatever_form_their_dates_take(dialect: str | None) -> None:
    """An expiry written as Spring's `2025-08-15T00:00:00.000+00:00` showed "until …" with no warning (3.11's
    `date.fromisoformat` refuses it), and epoch milliseconds made the line item unreadable: notes §5/§6 say the
    beta APIs use ISO 8601 and epoch milliseconds too. Each is the day it names, marked as the plain date is."""
    app = build_app(start=["entitlements", ACME], dialects=speaking(dialect) if dialect else None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await expand(pilot, "E:ENT-100001")
        await expand(pilot, "E:ENT-100002")
        soon, later = child_text(app, "E:ENT-100001")
        (gone,) = child_text(app, "E:ENT-100002")
        assert "⚠ expires in 8d (2026-11-10)" in soon and "until 2027-01-09" in later, (soon, later)
        assert "expired 2025-08-15" in gone, gone
        li = world_of(app).entitlements["ENT-100001"].line_items[0]
        s = screen(app)
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await until(pilot, lambda: f"{li.start_date} → 2026-11-10" in detail(app))


async def test_a_line_item_of_two_products_and_list_and_number_attributes_shows_them_all() -> None:
    """A line item may entitle several products, and an attribute's value may be a number or a list of texts: the
    label named only the first product, and a list showed as Python's `['Berlin', 'Paris']`."""
    app = build_app(start=["entitlements", ACME])
    world = world_of(app)
    li = world.entitlements["ENT-100001"].line_items[0]
    nova = next(p for p in world.products if (p.name, p.version) == ("Nova Gateway", "2022.4"))
    entitlement_store(world).more_products[li.activation_id] = [(nova, {"licenseModelName": "Floating"})]
    li.attributes.update({"Seats": 12345, "Sites": ["Berlin", "Paris"]})
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await expand(pilot, "E:ENT-100001")
        label = str(screen(app).node_index[f"L:{li.activation_id}"].label)
        assert f"{li.product.name} {li.product.version} +1 product" in label, label
        await expand(pilot, f"L:{li.activation_id}")
        assert any("Nova Gateway 2022.4" in text for text in child_text(app, f"L:{li.activation_id}"))
        s = screen(app)
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await until(pilot, lambda: "Berlin, Paris" in detail(app))
        assert "12345" in detail(app) and "['Berlin'" not in detail(app) and "Nova Gateway 2022.4" in detail(app)


async def test_accounts_are_asked_for_without_a_sort_and_each_page_is_sorted_here(monkeypatch: Any) -> None:
    """GET /accounts documents accountId, accountName, accountType[], rootAccountOnly, page and limit
    (…/account/getaccountsbyfilterandpagination.md): `sort_by=accountName` went out all the same, which a strict
    server may refuse. Nothing undocumented is sent; the accounts of a page are put in name order here, and the
    pager says the order is a page's when there are several."""
    original = UsersService.accounts_page

    async def backwards(self: Any, *args: Any, **kwargs: Any) -> Any:  # a server of another order
        async for page in original(self, *args, **kwargs):
            yield dataclasses.replace(page, items=list(reversed(page.items)))

    monkeypatch.setattr(UsersService, "accounts_page", backwards)
    app = build_app(start=["entitlements"])
    app.ctx.settings.page_size = 5
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        asked = last_request(app, "GET", "/accounts")
        assert "sort_by" not in asked.url and "sort_order" not in asked.url, asked.url
        names = [str(node.label) for node in screen(app).tree.root.children]
        assert len(names) == 5 and names == sorted(names, key=str.casefold), names
        assert "page 1 of" in pager(app) and "each page sorted by name" in pager(app)


def offered(s: EntitlementsScreen) -> set[str]:
    return {b.binding.action for b in s.active_bindings.values() if b.enabled}


async def test_the_footer_offers_what_the_row_under_the_cursor_allows_and_a_hidden_key_says_why() -> None:
    """On an account row the footer offered Add items, Policies, Edit and Maint.; each did nothing there."""
    app = build_app(start=["entitlements", ACME])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        s = screen(app)
        await until(pilot, lambda: "E:ENT-100000" in s.node_index)  # (the account's entitlements: a request of their own)
        await expand(pilot, "E:ENT-100000")
        s.tree.cursor_line = 0
        await until(pilot, lambda: s.current() is not None and s.current().kind == "account")
        row_actions = {"add_items", "maintenance", "policies", "properties"}
        await until(pilot, lambda: not offered(s) & row_actions)
        assert {"create", "details"} <= offered(s)
        await pilot.press("p")
        await until(pilot, lambda: any("put the cursor on a line item" in str(n.message) for n in app._notifications))
        assert app.screen is s, "no form opens"
        s.tree.move_cursor(s.node_index["E:ENT-100000"])
        await until(pilot, lambda: offered(s) & row_actions == {"add_items", "maintenance"})
        li = world_of(app).entitlements["ENT-100000"].line_items[0]
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await until(pilot, lambda: row_actions <= offered(s))
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, SectionedForm))


async def test_a_hidden_keys_reason_follows_the_keys_remap() -> None:
    """With `p` remapped to Users, `p` on an account row opened nothing and said "put the cursor on a line item"."""
    app = build_app(start=["entitlements", ACME], keys={"entitlements.users": "p", "entitlements.policies": "o"})
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        s = screen(app)
        s.tree.cursor_line = 0
        await until(pilot, lambda: s.current() is not None and s.current().kind == "account")
        await pilot.press("o")
        await until(pilot, lambda: any("put the cursor on a line item" in str(n.message) for n in app._notifications))
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, UsersScreen))


async def test_read_only_hides_and_refuses_every_change() -> None:
    app = build_app(start=["entitlements", ACME], read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        s, li = await first_entitlement_open(pilot)
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await pilot.pause()
        shown = offered(s)
        assert not shown & {"create", "add_items", "policies", "properties", "maintenance"}
        assert {"catalogue", "users", "details"} <= shown
        panes = [s.detail_text(s.current())] + [
            s.detail_text(n.data) for n in s.tree.root.children if n.data is not None and n.data.kind == "account"
        ]
        assert all(pane is not None and "p sets" not in pane.plain and "n new" not in pane.plain for pane in panes), (
            "no pane offers a change the profile cannot make"
        )
        before = sent(app)
        for key in ("n", "a", "p", "e", "m"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is s
        said = [str(n.message) for n in app._notifications]
        assert "This profile is read-only: adding a maintenance line item is off" in said, said  # (not the footer's "maint.")
        for action in (s.action_create, s.action_add_items, s.action_policies, s.action_properties, s.action_maintenance):
            action()
            await pilot.pause()
            assert app.screen is s
        assert "read-only" in s.status.error
        assert sent(app) == before


async def test_read_only_details_do_not_offer_changes_and_their_keys_say_why() -> None:
    """In a line item's or an entitlement's details (`i`) on a read-only profile, `p`, `e`, `m` and `a` said nothing at all;
    they now say what the tree's keys say, and the details still do not offer them."""
    app = build_app(start=["entitlements", ACME], read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        s, li = await first_entitlement_open(pilot)
        for key, presses in ((f"L:{li.activation_id}", ("p", "e", "m")), ("E:ENT-100000", ("a", "m"))):
            s.tree.move_cursor(s.node_index[key])
            await pilot.pause()
            await pilot.press("i")
            await until(pilot, lambda: isinstance(app.screen, RecordScreen))
            record = app.screen
            hint_line = str(record.query_one("#record-hint").render())
            assert "policies" not in hint_line and "edit" not in hint_line and "maintenance" not in hint_line, hint_line
            for press in presses:
                before = len(list(app.said))
                await pilot.press(press)
                await settle(pilot)
                news = [said.text for said in list(app.said)[before:]]
                assert app.screen is record and len(news) == 1 and news[0].startswith("This profile is read-only: "), (press, news)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is s)


async def test_customer_sees_only_their_account() -> None:
    app = build_app(start=["entitlements"], as_user="customer")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        assert [n.data.account_id for n in s.tree.root.children] == [ACME]
        assert s.node_index[f"A:{ACME}"].is_expanded


async def test_jump_to_catalogue_and_to_users() -> None:
    app = build_app(start=["entitlements", ACME])
    async with app.run_test(size=(120, 40)) as pilot:
        s, li = await first_entitlement_open(pilot)
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await pilot.pause()
        await pilot.press("P")
        await settle(pilot)
        cat = app.screen
        assert isinstance(cat, ProductsScreen) and cat.tab.id == "products"
        rows = cat.table().visible_rows
        assert rows and {r["name"] for r in rows} == {"Nova Gateway"}
        assert cat.table().current_row()["version"] == "2022.4"
        await pilot.press("escape")
        await settle(pilot)
        app.open_kind(__import__("flextui.kinds", fromlist=["get"]).get("entitlements"), None)
        await settle(pilot)
        await until(pilot, lambda: f"A:{ACME}" in screen(app).node_index)
        s = screen(app)
        s.tree.move_cursor(s.node_index[f"A:{ACME}"])
        await pilot.pause()
        await pilot.press("u")
        await settle(pilot)
        users = app.screen
        assert isinstance(users, UsersScreen) and users.tab == "users"
        names = [r["user_name"] for r in users.table().visible_rows]
        assert names and all(name.endswith("@acme-robotics.example") for name in names)


def test_a_detail_label_longer_than_its_column_is_still_apart_from_its_value() -> None:
    """A feature name or an account name wider than the label column used to run into its value."""
    from flextui.ui.widgets.record import Body

    body = Body(width=16).line("FlexDemo Software", "FLEXDEMO").pairs([("ANALYZER_EXPORT", "1.0"), ("CORE", "2.0")])
    assert body.text.plain.splitlines() == ["FlexDemo Software  FLEXDEMO", "  ANALYZER_EXPORT  1.0", "  CORE          2.0"]


async def test_accounts_that_fail_to_load_say_so_and_ctrl_r_tries_again(monkeypatch: Any) -> None:
    """The users API refusing the account list left the tree saying "loading…" for good."""
    from flextui.api.users import UsersService

    async def refused(*args: Any, **kwargs: Any) -> Any:
        raise ServerError("service unavailable", status=503)
        yield  # an async generator, like accounts_page

    with monkeypatch.context() as patch:
        patch.setattr(UsersService, "accounts_page", refused)
        app = build_app(start=["entitlements"])
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await until(pilot, lambda: "not loaded" in pager(app))
            assert "ctrl+r tries again" in pager(app) and "503" in screen(app).status.error
            # the keys that read the row under the cursor are greyed, and say why (the footer offered them)
            s = screen(app)
            assert all(s.check_action(action, ()) is None for action in ("users", "catalogue", "details"))
            await pilot.press("u")
            await until(
                pilot,
                lambda: any("Nothing is listed here: users needs a row under the cursor" in str(n.message) for n in app._notifications),
            )
            patch.undo()
            await pilot.press("ctrl+r")
            await until(pilot, lambda: bool(screen(app).node_index))
            assert "not loaded" not in pager(app)


async def test_a_refresh_keeps_the_cursor_on_its_line_item() -> None:
    """`:watch 30` (or ctrl+r) on the tree left the cursor on its line number while the expanded account's rows loaded
    again: it stood on another account (Atlas Labs), its detail shown, and `n` proposed that account."""
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        s = await acme_entitlement_open(pilot)
        li = world_of(app).entitlements["ENT-100000"].line_items[2]
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await settle(pilot)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: not s.expanding and f"L:{li.activation_id}" in s.node_index)
        await settle(pilot)
        assert s.tree.cursor_node is not None and s.tree.cursor_node.data.key == f"L:{li.activation_id}"
        assert li.activation_id in detail(app)


async def test_the_panes_name_the_keys_as_bound() -> None:
    """A product's pane said "g opens it in the catalogue" (g does nothing; the key is P), and the panes' keys did not
    follow a `[keys]` remap."""
    app = build_app(start=["entitlements"], keys={"entitlements.catalogue": "G", "entitlements.users": "U"})
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        s.tree.move_cursor(s.node_index[f"A:{ACME}"])
        await settle(pilot)
        assert "U users of this account" in detail(app) and "n new entitlement for it" in detail(app)
        await expand(pilot, f"A:{ACME}")
        await expand(pilot, "E:ENT-100000")
        li = world_of(app).entitlements["ENT-100000"].line_items[0]
        await expand(pilot, f"L:{li.activation_id}")
        s.tree.move_cursor(s.node_index[f"P:{li.activation_id}:0"])
        await until(pilot, lambda: "opens it in the catalogue" in detail(app))
        assert "G opens it in the catalogue" in detail(app), detail(app)


async def test_the_cursor_stays_in_view_when_the_terminal_shrinks() -> None:
    """At 120×40, on the last line item of a long entitlement, a resize to 80×24 left the cursor below the fold."""
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        s = await acme_entitlement_open(pilot)
        li = world_of(app).entitlements["ENT-100000"].line_items[-1]
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        tree = s.tree
        await until(pilot, lambda: tree.scroll_offset.y <= tree.cursor_line < tree.scroll_offset.y + tree.scrollable_content_region.height)


async def test_p_is_offered_only_where_there_is_a_product_to_open() -> None:
    """The footer offered `P Product` on accounts and entitlements, where it only said to move the cursor."""
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        s = await acme_entitlement_open(pilot)
        s.tree.move_cursor(s.node_index[f"A:{ACME}"])
        await settle(pilot)
        assert s.check_action("catalogue", ()) is None, "greyed on an account"
        await pilot.press("P")
        await until(pilot, lambda: any("line item or its product" in str(n.message) for n in app._notifications))
        li = world_of(app).entitlements["ENT-100000"].line_items[0]
        s.tree.move_cursor(s.node_index[f"L:{li.activation_id}"])
        await settle(pilot)
        assert s.check_action("catalogue", ()) is True, "offered on a line item"
