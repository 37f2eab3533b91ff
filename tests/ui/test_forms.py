"""A refused submit is never silent: it shows the first wrong field and says how many need fixing (widgets/forms.py)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Label

from flextui.ui.widgets.forms import FormScreen, SectionedForm
from tests.ui.conftest import build_app, burst, screen_of, settle

VALID_ITEM = {"li0-productName": "Nova Gateway", "li0-productVersion": "2022.4"}


def summary(form: Any) -> str:
    return str(form.query_one("#form-error", Label).render())


def in_view(form: Any, key: str) -> bool:
    row = form.query_one(f"#row-{key}").region
    return bool(row.area) and form.query_one("VerticalScroll").region.contains_region(row)


async def open_entitlement_form(pilot: Any, values: dict[str, str]) -> SectionedForm:
    await settle(pilot)
    await burst(pilot, "n")
    form = pilot.app.screen
    assert isinstance(form, SectionedForm) and form.has_class("-tall"), "the form scrolls at 80×24"
    for key, value in values.items():
        form.query_one(f"#field-{key}", Input).value = value
    await settle(pilot)
    return form


async def test_an_invalid_field_out_of_view_is_shown_focused_and_named() -> None:
    """The entitlement ID (top of the form) is wrong; ctrl+s from the bottom brings it into view."""
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_entitlement_form(pilot, {"entitlementId": "bad id!", **VALID_ITEM})
        form.query_one("#field-li0-attributes", Input).focus()  # leaving the ID field must not clear its mark
        await settle(pilot)
        assert not in_view(form, "entitlementId")
        await burst(pilot, "ctrl+s")
        assert app.screen is form, "nothing sent"
        assert form.focused is form.query_one("#field-entitlementId")
        assert in_view(form, "entitlementId")
        assert summary(form) == "1 field needs fixing: Entitlement ID"


async def test_several_wrong_fields_are_counted_and_named_in_order() -> None:
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_entitlement_form(pilot, {"entitlementId": "bad id!"})
        form.query_one("#field-li0-attributes", Input).focus()
        await settle(pilot)
        await burst(pilot, "ctrl+s")
        assert summary(form) == "3 fields need fixing: Entitlement ID, Product, Version"
        assert form.focused is form.query_one("#field-entitlementId") and in_view(form, "entitlementId")
        # Fixed one by one, the count follows; the next submit goes to the next one.
        await burst(pilot, "ctrl+u", "ctrl+s")
        assert summary(form) == "2 fields need fixing: Product, Version"
        assert form.focused is form.query_one("#field-li0-productName") and in_view(form, "li0-productName")


async def test_every_form_says_it_plain_form_too() -> None:
    """The new-token form (a plain FormScreen): a name too short, submitted from the description."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await burst(pilot, "n", *"abc", "tab", "tab", *"why", "ctrl+s")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.focused is form.query_one("#field-tokenName")
        assert summary(form) == "1 field needs fixing: Name (5–25 characters)"


async def test_line_items_are_named_by_number_when_there_are_several() -> None:
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(100, 40)) as pilot:
        form = await open_entitlement_form(pilot, VALID_ITEM)
        await burst(pilot, "ctrl+n")  # a second line item, left empty
        await burst(pilot, "ctrl+s")
        assert summary(form) == "2 fields need fixing: Line item 2: Product, Line item 2: Version"
        assert form.focused is form.query_one("#field-li1-productName")


async def test_escape_closes_an_untouched_form_and_asks_once_before_discarding_a_typed_one() -> None:
    """One habitual Escape lost a filled-in form (three line items)."""
    from flextui.ui.screens.tokens import TokensScreen

    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await screen_of(pilot, TokensScreen)
        await burst(pilot, "n", "escape")
        assert isinstance(app.screen, TokensScreen), "nothing typed: closed at once"
        await burst(pilot, "n")
        form = await screen_of(pilot, FormScreen)
        form.query_one("#field-tokenName", Input).value = "half-typed"
        await burst(pilot, "escape")
        assert app.screen is form and "Not sent" in str(form.query_one("#form-error", Label).render())
        await burst(pilot, "escape")
        assert isinstance(app.screen, TokensScreen)


# -- on/off fields: one line, their state in words ----------------------------------------------------------


def line_of(app: Any, label: str) -> str:
    """The terminal's line that shows the form label `label` (as drawn, not as the widget holds it)."""
    lines = [strip.text for strip in app.screen._compositor.render_strips()]
    found = [line for line in lines if label in line]
    assert len(found) == 1, f"{label!r} on one line of the screen"
    return found[0]


async def test_an_on_off_field_shows_its_state_on_its_line_and_space_or_enter_changes_it() -> None:
    """`n` on an account, Tab to "Deploy now (autoDeploy)": the line showed `▊▔▔▔▔▔▔▔▔▎` (the top border of a three-row
    switch cut to the form's one-row line) and space changed nothing visible. The state is in words, space and enter
    change it, and what is sent is what was shown."""
    from flextui.sim.entitlements import entitlement_store
    from tests.ui.conftest import world_of

    app = build_app(start=["entitlements", "101200004242"])
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_entitlement_form(
            pilot, {"description": "switch shown", "attributes": "Region=EMEA; SalesOrder=SO-1", **VALID_ITEM}
        )
        deploy, login = form.query_one("#field-autoDeploy"), form.query_one("#field-allowPortalLogin")
        for widget in (deploy, login):
            assert widget.region.height == 1, "one line, not cut"
        deploy.focus()
        await settle(pilot)
        assert "[ ] off" in line_of(app, "Deploy now (autoDeploy)")
        await burst(pilot, "space")
        assert "[x] on" in line_of(app, "Deploy now (autoDeploy)")
        await burst(pilot, "tab", "enter")
        assert app.focused is login
        assert "[x] on" in line_of(app, "Portal login with the ID")
        await burst(pilot, "space")
        assert "[ ] off" in line_of(app, "Portal login with the ID")
        await burst(pilot, "enter")
        assert "[x] on" in line_of(app, "Portal login with the ID")
        assert form.values()["autoDeploy"] is True and form.values()["allowPortalLogin"] is True
        await burst(pilot, "ctrl+s")
        assert app.screen is not form, str(form.query_one("#form-error", Label).render())
        created = [e for e in entitlement_store(world_of(app)).by_account["101200004242"] if e.description == "switch shown"]
        assert len(created) == 1
        assert created[0].status == "DEPLOYED" and created[0].allow_portal_login is True


async def test_an_on_off_field_that_shows_another_field_says_on_as_it_does() -> None:
    """The new user's "May log in (portal)" shows the user name's field when on (users form, a plain line)."""
    app = build_app(start=["users", "101200004242"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await burst(pilot, "n")
        form = await screen_of(pilot, FormScreen)
        login = form.query_one("#field-portalLogin")
        assert not form.query_one("#row-userName").display
        login.focus()
        await settle(pilot)
        assert "[ ] off" in line_of(app, "May log in (portal)")
        await burst(pilot, "space")
        assert "[x] on" in line_of(app, "May log in (portal)")
        assert form.query_one("#row-userName").display and form.values()["portalLogin"] is True
