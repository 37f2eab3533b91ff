"""The registry screens against the real variants the docs allow (walk-c 9, 10): what the user sees."""

from __future__ import annotations

from typing import Any

from flextui.sim.dialects import speaking
from flextui.sim.registry import HELLO
from flextui.ui.screens.registry.projects import ArtifactsScreen
from flextui.ui.widgets.table import ResourceTable
from tests.ui.conftest import build_app, settle, until


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
