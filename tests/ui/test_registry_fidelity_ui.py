"""The registry screens against the real variants the docs allow (walk-c 9, 10): what the user sees."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from flextui.sim.dialects import speaking
from flextui.sim.registry import HELLO, registry_store
from flextui.ui.screens.registry.projects import ArtifactsScreen, ProjectScreen
from flextui.ui.widgets.dialogs import ConfirmScreen
from flextui.ui.widgets.forms import FormScreen
from flextui.ui.widgets.table import ResourceTable
from tests.ui.conftest import build_app, settle, until, world_of


def rows(app: Any) -> list[dict[str, Any]]:
    return list(app.screen.query_one(ResourceTable).visible_rows)


async def test_docs_form_artifacts_are_all_shown_with_no_digest_said() -> None:
    app = build_app(start=["artifacts", "compass-2026-q2/compass-server"], dialects=speaking("artifacts-docs-envelope"))
    app.ctx.settings.page_size = 20
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ArtifactsScreen)
        await until(pilot, lambda: len(rows(app)) == 9)
        table = screen.query_one(ResourceTable)
        assert len({r["digest"] for r in rows(app)}) == 9, "each row its own key"
        assert table._cell(rows(app)[0], "digest").plain == "(no digest)"
        await pilot.press("c")
        await settle(pilot)
        assert "no digest" in screen.status.message[1]


async def test_shared_registry_project_opens_by_its_listed_name() -> None:
    app = build_app(start=["artifacts", f"1107-{HELLO}/hello-world-image"], dialects=speaking("shared-registry-prefix"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await until(pilot, lambda: len(rows(app)) == 1)
        assert isinstance(app.screen, ArtifactsScreen) and f"1107-{HELLO}" in app.screen.area_title


async def test_dedicated_registry_project_named_with_the_prefix_opens_and_deletes_its_own_repository() -> None:
    """`:repos 1107-hello-world-dp` before any listing, on a dedicated registry that also has `hello-world-dp`:
    the summary is that project's, and delete removes its repository, never hello-world-dp's."""
    named = f"1107-{HELLO}"
    app = build_app(start=["repos", named], dialects=speaking("dedicated-registry-tenant-name"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        store = registry_store(world_of(app))
        own = store.tenant_named()
        assert isinstance(app.screen, ProjectScreen) and app.screen.project == named
        await until(pilot, lambda: own.package_name in str(app.screen.query_one("#project-summary").render()))
        await until(pilot, lambda: len(rows(app)) == 1)
        await pilot.press("delete")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("right", "enter")  # the verb's button (no letter confirms)
        await until(pilot, lambda: isinstance(app.screen, ProjectScreen) and not rows(app))
        assert own.image_names == [] and store.project(HELLO).image_names == ["hello-world-image"]


async def test_open_by_name_on_a_dedicated_registry_opens_the_project_named_with_the_prefix() -> None:
    named = f"1107-{HELLO}"
    app = build_app(start=["projects"], dialects=speaking("dedicated-registry-tenant-name"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        own = registry_store(world_of(app)).tenant_named()
        await pilot.press("o")
        assert isinstance(app.screen, FormScreen)
        app.screen.query_one("#field-name", Input).value = named
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ProjectScreen) and app.screen.project == named
        await until(pilot, lambda: own.package_name in str(app.screen.query_one("#project-summary").render()))
