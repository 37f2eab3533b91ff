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
