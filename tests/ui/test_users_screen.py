"""Pilot tests of users and accounts: tabs, filters, detail, jumps, creating both, read-only."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Select, Switch

from flextui.ui.screens.entitlements.tree import EntitlementsScreen
from flextui.ui.screens.users import UsersScreen
from flextui.ui.widgets.forms import SectionedForm
from flextui.ui.widgets.record import RecordScreen
from tests.ui.conftest import build_app, raw_json_over, until, world_of
from tests.ui.test_entitlements_screen import settle

ACME = "101200004242"


def screen(app: Any) -> UsersScreen:
    assert isinstance(app.screen, UsersScreen), type(app.screen).__name__
    return app.screen


def rows(app: Any, key: str) -> list[str]:
    return [r[key] for r in screen(app).table().visible_rows]


def pager(app: Any, tab: str) -> str:
    return str(app.screen.query_one(f"#{tab}-pager").render())


async def fill(pilot: Any, values: dict[str, Any]) -> None:
    for key, value in values.items():
        widget = pilot.app.screen.query_one(f"#field-{key}")
        assert isinstance(widget, (Input, Select, Switch))
        widget.value = value
    await pilot.pause()


def hint(app: Any, key: str) -> str:
    return str(app.screen.query_one(f"#hint-{key}").render())


async def test_users_and_accounts_tabs_filters_detail_and_jumps() -> None:
    app = build_app(start=["users"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        world = world_of(app)
        assert f"{len(world.users)} users" in pager(app, "users") and "page 1 of 2" in pager(app, "users")
        s.query_one("#users-choice", Select).value = "inactive"
        await settle(pilot)
        inactive = [r for r in s.table().visible_rows if r["status"] != "Inactive"]
        assert not inactive and rows(app, "user_name")

        await pilot.press("2")
        await settle(pilot)
        assert s.tab == "accounts"
        assert f"{len(world.accounts)} accounts" in pager(app, "accounts"), "every account type, not only customers"
        s.query_one("#accounts-choice", Select).value = "PUBLISHER"
        await settle(pilot)
        assert rows(app, "account_id") == ["FLEXDEMO"]
        s.query_one("#accounts-choice", Select).value = ""
        s.query_one("#accounts-name", Input).value = "acme"
        s.query_one("#accounts-name", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert rows(app, "account_id") == [ACME]
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen)
        assert "Acme Robotics" in str(app.screen.query_one("#record-title").render())
        assert "Austin, US" in str(app.screen.query_one("#record-body").render())
        await pilot.press("u")
        await settle(pilot)
        assert s.tab == "users"
        users = rows(app, "user_name")
        assert users and all(u.endswith("@acme-robotics.example") for u in users)
        await pilot.press("enter")
        await settle(pilot)
        body = str(app.screen.query_one("#record-body").render())
        assert "Accounts (1)" in body and "Acme Robotics" in body
        await pilot.press("E")
        await settle(pilot)
        ent = app.screen
        assert isinstance(ent, EntitlementsScreen) and [n.data.account_id for n in ent.tree.root.children] == [ACME]


async def test_create_user_with_two_accounts_and_errors_next_to_fields() -> None:
    app = build_app(start=["users", ACME])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        assert all(u.endswith("@acme-robotics.example") for u in rows(app, "user_name")), "opened on one account's users"
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SectionedForm)
        assert form.query_one("#field-ar0-accountName", Input).value == "Acme Robotics"
        before = app.ctx.session.requests_sent
        await fill(
            pilot,
            {
                "firstName": "Uma",
                "lastName": "Ito",
                "emailAddress": "uma.ito@acme-robotics.example",
                "portalLogin": True,
                "userName": "someone@else.example",
                "country": "USA",
                "timezone": "CET",
                "ar0-roles": "Portal User",
            },
        )
        await pilot.press("ctrl+n")
        await settle(pilot)
        await fill(pilot, {"ar1-accountName": "Acme Robotics", "ar1-expiryDate": "2027-02-30"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and app.ctx.session.requests_sent <= before + 1, "nothing sent (one catalogue read at most)"
        assert "must equal the e-mail" in hint(app, "userName")
        assert "two-letter" in hint(app, "country") and "GMT" in hint(app, "timezone")
        assert "not a calendar date" in hint(app, "ar1-expiryDate")
        await fill(
            pilot, {"userName": "uma.ito@acme-robotics.example", "country": "us", "timezone": "GMT+1.0DST1", "ar1-expiryDate": "2027-02-28"}
        )
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "given twice" in hint(app, "ar1-accountName")
        await fill(pilot, {"ar1-accountName": "Apex Networks"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen), str(form.query_one("#form-error").render())
        created = world_of(app).users["uma.ito@acme-robotics.example"]
        assert created.first_name == "Uma" and created.account_id == ACME
        await pilot.press("escape")
        await settle(pilot)
        assert "uma.ito@acme-robotics.example" in rows(app, "user_name")

        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        await fill(
            pilot,
            {"firstName": "Dup", "lastName": "User", "emailAddress": "UMA.ITO@acme-robotics.example", "ar0-accountName": "Acme Robotics"},
        )
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form
        assert "uma.ito" in hint(app, "emailAddress").lower() or "already" in hint(app, "emailAddress")
        assert s is not None


async def test_create_account_and_read_only() -> None:
    app = build_app(start=["accounts"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        assert s.tab == "accounts"
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        await fill(pilot, {"accountId": "   ", "name": "UI Account", "accountType": "CHANNEL_PARTNER", "country": "Germany"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "must not be empty" in hint(app, "accountId") and "two-letter" in hint(app, "country")
        # No character rule on an account ID (…/user-account-service/account): nothing to say about these.
        await fill(pilot, {"accountId": "AT&T-EMEA (UI) #1"})
        assert not form.query_one("#field-accountId").has_class("-invalid") and "not only spaces" in hint(app, "accountId")
        await fill(pilot, {"accountId": ACME, "country": "DE", "attributes": "Tier=Gold"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and form.query_one("#field-accountId").has_class("-invalid"), "the duplicate ID is marked"
        await fill(pilot, {"accountId": "AT&T-EMEA (UI) #1"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen)
        account = world_of(app).accounts["AT&T-EMEA (UI) #1"]
        assert account.name == "UI Account" and account.account_type == "CHANNEL_PARTNER"

    app = build_app(start=["users"], read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        assert "create" not in {b.binding.action for b in s.active_bindings.values() if b.enabled}
        await pilot.press("n")
        s.action_create()
        await pilot.pause()
        assert app.screen is s and "read-only" in s.status.error


async def test_customer_sees_their_own_account_and_its_users() -> None:
    app = build_app(start=["accounts"], as_user="customer")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert rows(app, "account_id") == [ACME]


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_user_a_jump_opened_with_is_shown_whole(size: tuple[int, int]) -> None:
    """`:users user=…` (a token's `j`) showed "admin@flexdemo.exampl" in a field a fourth of the toolbar wide."""
    name = "admin@flexdemo.example"
    app = build_app(start=["users", f"user={name}"])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        field = app.screen.query_one("#users-name", Input)
        assert field.value == name
        assert field.content_region.width > len(name), "the whole address, and room for the cursor after it"


async def test_r_in_a_records_detail_shows_it_as_the_server_sent_it() -> None:
    """R did nothing in a detail dialog (users, accounts, the catalogue), though README says it works everywhere."""
    app = build_app(start=["users"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        user = rows(app, "user_name")[0]
        await pilot.press("enter")
        await settle(pilot)
        assert (await raw_json_over(pilot, RecordScreen))["user_name"] == user


async def test_the_users_list_says_loading_while_a_slow_server_answers() -> None:
    import threading

    from flextui.sim.faults import FaultPlan

    plan = FaultPlan()
    answer = threading.Event()
    plan.add(r"/users", kind="slow", hold=answer, times=1000)
    app = build_app(start=["users"], faults=plan)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "loading…" in str(app.screen.query_one("#users-pager").render()))
        answer.set()
        await settle(pilot)
        assert "loading…" not in str(app.screen.query_one("#users-pager").render())


async def test_text_typed_in_a_filter_without_enter_never_lists_the_users() -> None:
    """Typed "zzz" into the name field and tabbed away (no Enter): ctrl+r, a page turn and a watch tick listed by it
    ("no users match these filters"). The list is listed by what was applied; Enter applies it."""
    app = build_app(start=["users"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        world = world_of(app)
        everyone = f"{len(world.users)} users"
        assert everyone in pager(app, "users")
        field = app.screen.query_one("#users-name")
        field.focus()
        await pilot.press("z", "z", "z", "tab")
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert everyone in pager(app, "users"), pager(app, "users")
        screen(app).table("users").focus()
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "page 2" in pager(app, "users") and everyone in pager(app, "users"), pager(app, "users")
        assert field.value == "", "the keys left the toolbar without enter: the field shows what is in force again"
        field.focus()
        await pilot.press("z", "z", "z", "enter")  # now applied: nobody is called zzz
        await settle(pilot)
        assert "no users" in pager(app, "users") or "0 users" in pager(app, "users"), pager(app, "users")


async def test_u_on_an_account_lists_its_users_at_once() -> None:
    """`u` sets the account filter and lists by it in the same step: what it set must be what is in force."""
    app = build_app(start=["users"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        s.table("users").focus()
        await pilot.press("2")  # the accounts tab
        await until(pilot, lambda: s.tab_id == "accounts" and bool(s.states["accounts"].items))
        s.table("accounts").focus()
        await settle(pilot)
        account = s.selected()
        await pilot.press("u")
        await settle(pilot)
        users = s.states["users"].items or []
        assert users and all(any(a.account_id == account.account_id for a in u.accounts) for u in users)
