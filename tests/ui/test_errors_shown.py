"""Errors are never cut silently, and every "loading…" label ends when its load ends.

The status line shows as much of an error as fits, ending "… (! shows all)",
and `!` opens the whole text in a dialog; a screen whose load failed says so
where it said "loading…" (a 403 is the usual case: a customer has neither
the registry nor the data-report permission).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Label, Select, Static

from flextui.api.errors import Invalid
from flextui.render.table import GridModel
from flextui.ui.help import help_rows
from flextui.ui.said import SaidLog
from flextui.ui.screens.base import AreaScreen
from flextui.ui.screens.entitlements.forms import CatalogueIndex, product_hint
from flextui.ui.screens.registry.projects import ProjectScreen, ProjectsScreen
from flextui.ui.screens.reports.builder import ReportBuilderScreen
from flextui.ui.screens.reports.catalogue import ReportsScreen
from flextui.ui.screens.reports.results import ReportResultsScreen
from flextui.ui.screens.reports.tools import ChartScreen, FrequencyScreen, StatsScreen
from flextui.ui.widgets.bars import StatusLine, fit
from flextui.ui.widgets.dialogs import MessageScreen
from flextui.ui.widgets.grid import DataGrid
from tests.ui.conftest import build_app, screen_of, settle

LONG = (
    "the registry answered 403: user customer@acme-robotics.example cannot use the registry service: "
    "the permission 'View and Manage Download Packages' is required (ask your FlexNet Operations administrator)"
)


def text_of(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


def test_fit_keeps_what_fits_and_names_the_key() -> None:
    assert fit("short", 40) == "short"
    cut = fit(LONG, 60)
    assert len(cut) == 60 and cut.endswith("… (! shows all)") and LONG.startswith(cut[: -len("… (! shows all)")])
    assert fit(LONG, 12).endswith("…") and len(fit(LONG, 12)) == 12


async def test_a_long_error_is_cut_with_a_note_and_bang_shows_it_whole() -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, AreaScreen)
        screen.report_error(Invalid(LONG), doing="loading tokens")
        await pilot.pause()
        app.clear_notifications()
        status = screen.query_one(StatusLine)
        shown = status.shown_text
        assert shown.endswith("… (! shows all)"), shown
        assert status.query_one("#st-error").region.right <= 80 and len(shown) <= status.query_one("#st-error").content_size.width
        await pilot.press("exclamation_mark")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        body = text_of(app, "#message-body")
        assert body.startswith("loading tokens: ") and LONG[:40] in body and "(ask your FlexNet Operations administrator)" in body
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_a_short_message_is_whole_and_bang_does_nothing_before_anything_is_said() -> None:
    app = build_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, AreaScreen)
        app.said = SaidLog()  # whatever the start said
        await pilot.press("exclamation_mark")
        await pilot.pause()
        assert app.screen is screen
        screen.say("Copied")
        await pilot.pause()
        assert screen.query_one(StatusLine).shown_text == "Copied"


async def test_bang_shows_a_message_that_was_only_a_toast_with_the_earlier_ones() -> None:
    """A toast raised while typing (a refused sign-in, a `:watch abc` typo) was lost: `!` showed the status line's
    older message, or nothing at all."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, AreaScreen)
        screen.say('Saved filter set "ro set"')
        app.notify("Staying on simro: 401 invalid user name or password", severity="error")
        app.clear_notifications()
        await pilot.press("exclamation_mark")
        dialog = await screen_of(pilot, MessageScreen)
        body = str(dialog.query_one("#message-body", Static).render())
        assert body.startswith("Staying on simro: 401 invalid user name or password")
        assert "Earlier, newest first:" in body and body.index("Earlier") < body.index('Saved filter set "ro set"')
        assert dialog.query_one("#message-title", Label).render().plain == "Error"


async def test_bang_is_listed_in_help_even_before_anything_is_said() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.said = SaidLog()
        app.screen.query_one(StatusLine).info = ""
        assert any(row[3] == "screen.show_message" for row in help_rows(app))


async def test_projects_pager_says_not_loaded_after_a_403_instead_of_loading() -> None:
    app = build_app(start=["projects"], as_user="customer")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProjectsScreen)
        pager = text_of(app, "#pager")
        assert "loading" not in pager and "✗ not loaded" in pager and "ctrl+r tries again" in pager


async def test_project_screen_summary_and_pagers_end_loading_after_a_403() -> None:
    app = build_app(start=["charts", "hello-world-dp"], as_user="customer")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProjectScreen)
        assert "loading" not in text_of(app, "#project-summary") and "✗ not loaded" in text_of(app, "#project-summary")
        for pager in ("#repos-pager", "#charts-pager", "#members-pager"):
            assert "✗ not loaded" in text_of(app, pager)


async def test_report_catalogue_ends_loading_and_shows_the_whole_reason() -> None:
    app = build_app(start=["reports"], as_user="customer")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ReportsScreen)
        assert "Loading" not in text_of(app, "#pager") and "✗ not loaded" in text_of(app, "#pager")
        reason = app.screen.query_one("#rc-model", Static)
        assert "could not be loaded" in text_of(app, "#rc-model") and "permission" in text_of(app, "#rc-model")
        assert reason.has_class("-reason")  # wrapped, not cut at the pane's edge


async def test_report_builder_ends_loading_after_a_403() -> None:
    app = build_app(start=["reports", "fulfillment"], as_user="customer")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ReportBuilderScreen)
        title = text_of(app, "#rb-title")
        assert "loading" not in title and "✗ not loaded" in title
        field = app.screen.query_one("#rb-field", Select)
        assert "loading" not in str(field._options)  # noqa: SLF001 (the option labels)


async def test_report_tools_opened_while_loading_are_not_covered_by_a_spinner() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        model = GridModel([("day", "str")], [("2026-11-01",), ("2026-11-02",)])
        for tool in (
            FrequencyScreen(model, "day", loading=True),
            StatsScreen(model, "day", loading=True),
            ChartScreen(model, ["day"], loading=True),
        ):
            app.push_screen(tool)
            await settle(pilot)
            assert tool._cover_widget is None and not tool.loading, type(tool).__name__
            assert tool.query_one(DataGrid if not isinstance(tool, ChartScreen) else "#chart-facts")
            note = " ".join(str(label.render()) for label in tool.query(Label))
            assert "when this opened" in note
            tool.dismiss()
            await pilot.pause()


def test_entitlement_catalogue_hint_ends_when_its_load_failed() -> None:
    catalogue = CatalogueIndex()
    assert "loading" in product_hint(catalogue, "", "")[0]
    catalogue.failed = "403 forbidden"
    hint = product_hint(catalogue, "", "")[0]
    assert "loading" not in hint and "could not be loaded" in hint


async def test_results_first_page_failure_says_failed_not_asking() -> None:
    from flextui.sim.faults import FaultPlan

    app = build_app(start=["reports", "fulfillment"])
    plan = FaultPlan()
    app.ctx.extras["sim_app"].plan = plan
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plan.add(r"/report/fulfillment", status=503, times=50)
        await pilot.press("ctrl+g")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReportResultsScreen) and screen.state == "failed"
        assert "asking" not in screen.count_text() and "failed" in screen.count_text()
        assert not screen.query_one("#rr-progress").display


async def test_a_credential_that_could_not_be_had_is_said_at_start() -> None:
    app = build_app()
    app.ctx.extras["said_at_start"] = ["profile 'p': the environment variable FNO_PW is not set (it should hold the password)"]
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert any("FNO_PW is not set" in str(n.message) and n.severity == "warning" for n in app._notifications)
