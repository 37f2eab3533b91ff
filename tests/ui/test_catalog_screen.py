"""Pilot tests of the catalogue: tabs, paging with totals, server and client filters, detail, creating."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Select, Switch

from flextui.sim.products import catalogue
from flextui.ui.screens.entitlements.tree import EntitlementsScreen
from flextui.ui.screens.products import ProductsScreen
from flextui.ui.widgets.forms import SectionedForm
from flextui.ui.widgets.record import RecordScreen
from tests.ui.conftest import build_app, settle, world_of


def screen(app: Any) -> ProductsScreen:
    assert isinstance(app.screen, ProductsScreen), type(app.screen).__name__
    return app.screen


def names(app: Any) -> list[str]:
    return [r["name"] for r in screen(app).table().visible_rows]


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


async def test_tabs_page_with_totals_and_filter_on_the_server() -> None:
    app = build_app(start=["products"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        cat = catalogue(world_of(app))
        total = len(cat.products)
        assert s.tab.id == "products"
        assert f"page 1 of 2 · {total} products" in pager(app, "products")
        first = names(app)
        assert len(first) == 50
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "page 2 of 2" in pager(app, "products") and len(names(app)) == total - 50
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "page 2 of 2" in pager(app, "products"), "no page after the last"

        s.query_one("#products-name", Input).value = "canvas"
        s.query_one("#products-name", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert set(names(app)) == {"Flex Canvas", "Nova Canvas"} and "page 1 of 1" in pager(app, "products")
        s.query_one("#products-choice", Select).value = "DRAFT"
        await settle(pilot)
        assert all(r["state"] == "DRAFT" for r in s.table().visible_rows)

        s.query_one("#products-more", Input).value = "licenseTechnology=FlexNet Embedded; bogus=1"
        s.query_one("#products-more", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert "unknown filter 'bogus'" in s.status.error and "licenseTechnology" in s.status.error
        assert s.query_one("#products-more").has_class("-bad-filter")
        assert app.focused is s.query_one("#products-more"), "refused: the field keeps the keys, to fix it"
        await pilot.press("escape")  # back to the table (the keys below are its)
        await settle(pilot)

        for key, tab, count in (
            ("2", "features", len(cat.features)),
            ("3", "bundles", len(cat.bundles)),
            ("4", "suites", len(cat.suites)),
            ("5", "parts", None),
            ("6", "maintenance", len(cat.maintenance)),
        ):
            await pilot.press(key)
            await settle(pilot)
            assert s.tab.id == tab
            assert names(app), f"{tab} has rows"
            if count is not None:
                assert f"{count:,} " in pager(app, tab)
        s.apply_filter("gold")
        await pilot.pause()
        assert names(app) == ["Gold Support"] and "/gold: 1 of" in pager(app, "maintenance")

        app.screen.query_one("#commandbar").open()
        await pilot.press(*"suites", "enter")
        await settle(pilot)
        assert s.tab.id == "suites" and names(app)[0].startswith("Flex Suite"), "a kind's command opens its tab"
        assert "Catalogue · Suites" in str(app.screen.query_one("#tb-area").render())


async def test_detail_and_jump_to_the_products_entitlements() -> None:
    app = build_app(start=["products", "Flex Canvas@2023.4"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        assert s.table().current_row()["version"] == "2023.4"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen)
        body = str(app.screen.query_one("#record-body").render())
        assert "Product Flex Canvas 2023.4" in str(app.screen.query_one("#record-title").render())
        assert "Features" in body and "CANVAS_CORE" in body
        await pilot.press("E")
        await settle(pilot)
        ent = app.screen
        assert isinstance(ent, EntitlementsScreen) and ent.filters.product == "Flex Canvas"
        world = world_of(app)
        matching = {e.account_id for e in world.entitlements.values() if any(li.product.name == "Flex Canvas" for li in e.line_items)}
        assert {n.data.account_id for n in ent.tree.root.children} == matching


async def test_create_product_shows_server_defaults_before_sending() -> None:
    app = build_app(start=["products"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SectionedForm)
        before = app.ctx.session.requests_sent
        await fill(pilot, {"productName": "UI Widget", "version": "1.0"})
        preview = str(form.query_one("#form-preview").render())
        assert "FlexNet Licensing (default)" in preview and "the server's default for FlexNet Licensing" in preview
        assert "Uncategorized Products (default)" in preview and "Certificate or Trusted Host" in preview and "DRAFT" in preview
        assert "FlexNet Licensing" in hint(app, "licenseTechnology"), "the technologies in use here are suggested"
        await fill(pilot, {"licenseTechnology": "FlexNet Embedded", "usedOnDevice": True})
        preview = str(form.query_one("#form-preview").render())
        assert "the server's default for FlexNet Embedded" in preview and "host types none" in preview and "ignored" in preview
        await fill(
            pilot,
            {
                "licenseGenerator": "Custom Key Generator",
                "endDate": "2020-01-01",
                "startDate": "2026-01-01",
                "partNumbers": "PN-1, PN-1",
                "productName": "W" * 129,
                "features": "CANVAS_CORE:1.0*many",
                "featureBundles": "CANVAS_BUNDLE*0",
                "hostTypes": "Server, Server",
            },
        )
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and app.ctx.session.requests_sent == before, "nothing is sent while typing or with errors"
        assert "must not be before" in hint(app, "endDate")
        assert "given twice" in hint(app, "partNumbers") or "twice" in hint(app, "partNumbers")
        # The product input's limits (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/FeatureBundleInput, …/GroupMaskDataTypeInput).
        assert "at most 128 characters" in hint(app, "productName")
        assert "whole number" in hint(app, "features") or "integer" in hint(app, "features")
        assert "at least 1" in hint(app, "featureBundles") and "twice" in hint(app, "hostTypes")
        taken = next(iter(catalogue(world_of(app)).products.values())).part_numbers[0]
        await fill(
            pilot,
            {
                "licenseGenerator": "",
                "endDate": "",
                "partNumbers": f"PN-UI-1, {taken}",
                "productName": "UI Widget",
                "features": "CANVAS_CORE:1.0*2",
                "featureBundles": "CANVAS_BUNDLE",
                "hostTypes": "FlexNet Server",
                "licenseModels": "Perpetual",
                "autoDeploy": True,
            },
        )
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form, "the server refused the part number"
        assert taken in hint(app, "partNumbers") and form.query_one("#field-partNumbers").has_class("-invalid")
        await fill(pilot, {"partNumbers": "PN-UI-1"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen), "the created product is shown"
        body = str(app.screen.query_one("#record-body").render())
        assert "UI Widget 1.0" in str(app.screen.query_one("#record-title").render())
        assert "DEPLOYED" in body and "FlexNet Embedded Generator" in body
        created = catalogue(world_of(app)).products.get(("UI Widget", "1.0"))
        assert created is not None and created.part_numbers == ["PN-UI-1"] and created.state == "DEPLOYED"
        # Sent in the documented names, so the server kept them: a feature ×2, a bundle ×1, the host type.
        assert created.feature_counts == {("CANVAS_CORE", "1.0"): 2} and created.feature_bundles == [("CANVAS_BUNDLE", 1)]
        assert created.host_types == ["FlexNet Server"]
        assert "CANVAS_CORE" in body and "×2" in body and "CANVAS_BUNDLE" in body


async def test_create_feature_and_read_only_hides_creating() -> None:
    app = build_app(start=["features"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert screen(app).tab.id == "features"
        await pilot.press("n")
        await settle(pilot)
        await fill(pilot, {"featureName": "bad name!", "vendorString": "v" * 256})
        assert "letters, digits" in hint(app, "featureName")
        # Sent as featureOverrideParams.vendorString (…/product-service/feature/postfeature.md), at most 255 characters.
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "at most 255 characters" in hint(app, "vendorString")
        await fill(pilot, {"featureName": "UI_FEATURE", "maxVersion": "2030.01.01", "vendorString": "VS-UI"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ProductsScreen)
        made = [f for f in catalogue(world_of(app)).features.values() if f.name == "UI_FEATURE"]
        assert len(made) == 1 and made[0].vendor_string == "VS-UI"
        await pilot.press("3")
        await settle(pilot)
        assert "create" not in {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}, (
            "bundles cannot be created here"
        )

    app = build_app(start=["products"], read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        assert "create" not in {b.binding.action for b in s.active_bindings.values() if b.enabled}
        await pilot.press("n")
        await pilot.pause()
        s.action_create()
        await pilot.pause()
        assert app.screen is s and "read-only" in s.status.error


async def test_a_record_the_client_cannot_read_is_kept_marked_and_shown_raw(monkeypatch: Any) -> None:
    """One product in a shape nobody documented: the page still shows, that row is marked, its detail shows the raw JSON."""
    import json as jsonlib

    import httpx

    from flextui.sim import app as sim_app

    original = sim_app.in_process_transport

    class OneBadProduct(httpx.AsyncBaseTransport):
        def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
            self.inner = inner

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            response = await self.inner.handle_async_request(request)
            if not request.url.path.endswith("/products-api/v1/products"):
                return response
            body = jsonlib.loads(await response.aread())
            if body.get("productList"):
                body["productList"][0]["productName"] = {"unexpected": "object"}
            return httpx.Response(response.status_code, json=body, request=request)

    monkeypatch.setattr(sim_app, "in_process_transport", lambda app, threaded=False: OneBadProduct(original(app, threaded=threaded)))
    app = build_app(start=["products"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        s = screen(app)
        rows = s.table().visible_rows
        assert len(rows) > 1, "the rest of the page is there"
        first = str(s.table().get_row_at(0)[0])
        assert first.startswith("⚠"), first
        s.table().move_cursor(row=0)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen)
        body = str(app.screen.query_one("#record-body").render())
        assert "could not be read" in body and '"unexpected": "object"' in body
