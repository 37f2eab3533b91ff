"""The fault suite, in the TUI: every area against every fault, and back when the fault stops.

Each area (tokens, projects, a project, its members, the download log, the
report catalogue, the report builder, report results, the entitlement tree,
products, users) runs on the simulator with a `FaultPlan`, a short session
deadline (`tests.faults.TIMEOUT`) and quick retries. For every fault of
`tests.faults.CASES`, applied to every request:

- ctrl+r asks the server (the fault is met), and afterwards the app is
  still running, no worker is left pending or running, and the status line
  holds a readable error (one line, no traceback, no HTML, short), as does
  every error toast;
- once the fault is cleared, ctrl+r brings the data back and clears the error.

Each area also starts with a fault already on (the first load fails, so
nothing is shown), and recovers with ctrl+r. Failures of one area are
collected and reported together, naming the fault.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from textual.widgets import Button, Input, Tree
from textual.worker import WorkerState

from flextui.api.http import RetryPolicy
from flextui.sim.faults import FaultPlan
from flextui.sim.registry import HELLO
from flextui.sim.world import ADMIN
from flextui.ui.app import FlexApp
from flextui.ui.widgets.bars import StatusLine
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.table import ResourceTable
from tests.faults import CASES, TIMEOUT, Case, readable, unworded
from tests.ui.conftest import build_app, settle, until, world_of

SIZE = (120, 40)


def has_data(app: FlexApp) -> bool:
    """Whether the area shows anything loaded: table rows, grid rows, tree nodes, or (the builder) its data model."""
    screen = app.screen
    if type(screen).__name__ == "ReportBuilderScreen":
        return getattr(screen, "rtype", None) is not None
    for table in screen.query(ResourceTable):
        if table.visible_rows:
            return True
    for grid in screen.query(DataGrid):
        if grid.row_count:
            return True
    for tree in screen.query(Tree):
        if tree.root.children:
            return True
    return False


def busy(app: FlexApp) -> list[str]:
    return [w.description or w.name for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]


def error_text(app: FlexApp) -> str:
    return str(app.screen.query_one(StatusLine).error)


async def open_results(pilot: Any) -> None:
    """The builder of fulfillment, 30 days, pages of 100, stop after 300: run it."""
    app = pilot.app
    await settle(pilot)
    app.screen.query_one("#rb-past", Input).value = "30"
    app.screen.query_one("#rb-limit", Input).value = "100"
    app.screen.query_one("#rb-max", Input).value = "300"
    await pilot.pause()
    await pilot.press("ctrl+g")
    await settle(pilot)


@dataclass(frozen=True)
class Area:
    """Where an area starts, and how to reach the screen under test from there."""

    start: tuple[str, ...]
    screen: str
    reach: Callable[[Any], Awaitable[None]] | None = None
    refreshes: bool = True  # ctrl+r asks the server again (in the builder it runs the report: only its model load is tested)


AREAS: dict[str, Area] = {
    "tokens": Area(("tokens",), "TokensScreen"),
    "projects": Area(("projects",), "ProjectsScreen"),
    "project": Area(("charts", HELLO), "ProjectScreen"),
    "members": Area(("members", HELLO), "ProjectScreen"),
    "downloads": Area(("downloads",), "DownloadsScreen"),
    "reports": Area(("reports",), "ReportsScreen"),
    "report-builder": Area(("reports", "fulfillment"), "ReportBuilderScreen", refreshes=False),
    "report-results": Area(("reports", "fulfillment"), "ReportResultsScreen", open_results),
    "entitlements": Area(("entitlements",), "EntitlementsScreen"),
    "products": Area(("products",), "ProductsScreen"),
    "users": Area(("users",), "UsersScreen"),
}


def faulty_app(area: Area, plan: FaultPlan) -> FlexApp:
    app = build_app(start=list(area.start), faults=plan, timeout=TIMEOUT)
    app.ctx.session.retry = RetryPolicy(attempts=3, backoff=0.01)
    return app


def check_failed(app: FlexApp, case: Case, hits: int, problems: list[str], *, when: str) -> None:
    """After a fault: still running, nothing left working, a readable error on the status line and in the toasts."""
    name = f"{case.name} {when}"
    if not app.is_running:
        problems.append(f"{name}: the app stopped")
        return
    if hits == 0:
        problems.append(f"{name}: ctrl+r did not ask the server")
    left = busy(app)
    if left:
        problems.append(f"{name}: workers still running: {left}")
    text = error_text(app)
    if not text:
        problems.append(f"{name}: no error on the status line")
    elif readable(text):
        problems.append(f"{name}: unreadable status error ({', '.join(readable(text))}): {text!r}")
    elif unworded(text, case):
        problems.append(f"{name}: the status error does not say what happened ({', '.join(unworded(text, case))}): {text!r}")
    for note in app._notifications:
        if note.severity == "error" and readable(note.message):
            problems.append(f"{name}: unreadable toast ({', '.join(readable(note.message))}): {note.message!r}")
        elif note.severity == "error" and unworded(note.message):  # (a toast may be cut: `!` shows the rest)
            problems.append(f"{name}: the toast does not say what happened ({', '.join(unworded(note.message))}): {note.message!r}")


def check_recovered(app: FlexApp, case: Case, problems: list[str], *, when: str) -> None:
    name = f"{case.name} {when}"
    if not app.is_running:
        problems.append(f"{name}: the app stopped")
        return
    left = busy(app)
    if left:
        problems.append(f"{name}: workers still running after recovery: {left}")
    if not has_data(app):
        problems.append(f"{name}: ctrl+r did not bring the data back")
    if error_text(app):
        problems.append(f"{name}: the error stayed after recovery: {error_text(app)!r}")


async def refresh(pilot: Any) -> None:
    pilot.app.clear_notifications()
    await pilot.press("ctrl+r")
    await settle(pilot, timeout=15)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", [name for name, area in AREAS.items() if area.refreshes])
async def test_every_fault_on_refresh_then_recovery(name: str) -> None:
    area = AREAS[name]
    plan = FaultPlan()
    app = faulty_app(area, plan)
    problems: list[str] = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        if area.reach is not None:
            await area.reach(pilot)
        assert type(app.screen).__name__ == area.screen
        assert has_data(app), "the area loads without a fault"
        screen = app.screen
        for case in CASES:
            fault = case.add_to(plan)
            await refresh(pilot)
            check_failed(app, case, fault.hits, problems, when="on refresh")
            plan.clear()
            await refresh(pilot)
            check_recovered(app, case, problems, when="on refresh")
            if app.screen is not screen:
                problems.append(f"{case.name}: the screen changed to {type(app.screen).__name__}")
                break
    assert not problems, f"{name}:\n" + "\n".join(problems)


@pytest.mark.timeout(90)
@pytest.mark.parametrize("index", range(len(AREAS)), ids=list(AREAS))
async def test_a_fault_from_the_start_then_recovery(index: int) -> None:
    """The first load fails (nothing to show), the area says why; ctrl+r loads it once the server is well.

    Two faults per area, taking turns across the areas, so every fault starts some area.
    (Report results are reached through the builder first: their first run is the one that fails.)
    """
    name = list(AREAS)[index]
    area = AREAS[name]
    problems: list[str] = []
    for case in (CASES[index % len(CASES)], CASES[(index + len(AREAS)) % len(CASES)]):
        plan = FaultPlan()
        fault = None if area.reach is not None else case.add_to(plan)
        app = faulty_app(area, plan)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await settle(pilot, timeout=15)
            if area.reach is not None:
                fault = case.add_to(plan)
                await area.reach(pilot)
                await settle(pilot, timeout=15)
            assert fault is not None
            assert type(app.screen).__name__ == area.screen, type(app.screen).__name__
            check_failed(app, case, fault.hits, problems, when="from the start")
            if has_data(app):
                problems.append(f"{case.name} from the start: data shown though nothing could be loaded")
            plan.clear()
            await refresh(pilot)
            check_recovered(app, case, problems, when="from the start")
    assert not problems, f"{name}:\n" + "\n".join(problems)


@pytest.mark.timeout(90)
@pytest.mark.parametrize(
    "case", [c for c in CASES if c.name in ("503", "truncated", "html-200", "empty-200", "slow")], ids=lambda c: c.name
)
async def test_report_results_keep_what_loaded_when_a_later_page_fails_and_resume(case: Case) -> None:
    plan = FaultPlan()
    app = faulty_app(AREAS["report-results"], plan)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        fault = case.add_to(plan, r"^GET /data/api/v1/report/fulfillment$", skip=1)
        await open_results(pilot)
        await settle(pilot, timeout=15)
        screen: Any = app.screen
        assert type(screen).__name__ == "ReportResultsScreen" and fault.hits >= 1
        assert screen.state == "failed" and not busy(app)
        kept = screen.query_one(DataGrid).row_count
        assert kept >= 100, "the pages loaded before the fault are kept"
        text = error_text(app)
        assert text and not readable(text), text
        assert "page" in text, text
        plan.clear()
        await pilot.press("plus")
        await settle(pilot, timeout=15)
        assert screen.state in ("done", "limited") and not error_text(app)
        assert screen.query_one(DataGrid).row_count == 300, "resumed where it failed: no page twice, none missing"


@pytest.mark.timeout(90)
async def test_downloads_failing_midway_say_so_and_reload() -> None:
    plan = FaultPlan()
    app = faulty_app(AREAS["downloads"], plan)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        full = app.screen.query_one(DataGrid).row_count
        fault = plan.add(r"^GET /registry/api/v1/downloads$", kind="truncate", times=1000, skip=1)
        await refresh(pilot)
        problems: list[str] = []
        check_failed(app, CASES[8], fault.hits, problems, when="midway")
        assert not problems, problems
        plan.clear()
        await refresh(pilot)
        assert app.screen.query_one(DataGrid).row_count == full and not error_text(app)


async def idle(pilot: Any, timeout: float = 15.0) -> None:
    """Wait until no worker is pending or running (also under a dialog, where `settle` stops waiting)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while busy(pilot.app) and loop.time() < end:
        await pilot.pause(0.02)
    await pilot.pause()


@pytest.mark.timeout(180)
async def test_token_create_rotate_and_the_registry_secret_under_every_fault() -> None:
    """Changes are sent once (never retried); whatever the fault, the form or the status line says so, readably."""
    from flextui.ui.widgets.dialogs import ConfirmScreen
    from flextui.ui.widgets.forms import FormScreen

    plan = FaultPlan()
    app = faulty_app(AREAS["tokens"], plan)
    problems: list[str] = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        for index, case in enumerate(CASES):
            fault = case.add_to(plan, r"^POST /flexnet/uar/v1/token$")
            await pilot.press("n")
            await pilot.pause()
            app.screen.query_one("#field-tokenName", Input).value = f"faulty-create-{index:02d}"
            app.screen.query_one("#field-expiryStr", Input).value = "90d"
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()
            await idle(pilot)
            shown = str(app.screen.query_one("#form-error").render()) if isinstance(app.screen, FormScreen) else ""
            if not isinstance(app.screen, FormScreen):
                problems.append(f"create {case.name}: the form closed ({type(app.screen).__name__})")
            elif readable(shown):
                problems.append(f"create {case.name}: unreadable ({', '.join(readable(shown))}): {shown!r}")
            if fault.hits != 1:
                problems.append(f"create {case.name}: sent {fault.hits} times (a change is sent once)")
            await pilot.press("escape", "escape")  # (not sent: the first says what a second discards)
            await settle(pilot)
            plan.clear()

            fault = case.add_to(plan, r"/rotation$")
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            app.screen.query_one("#confirm", Button).press()
            await pilot.pause()
            await idle(pilot)
            await settle(pilot)
            if type(app.screen).__name__ != "TokensScreen":
                problems.append(f"rotate {case.name}: left on {type(app.screen).__name__}")
                await pilot.press("escape")
            check_failed(app, case, fault.hits, problems, when="on rotate")
            plan.clear()
        if problems:
            raise AssertionError("\n".join(problems))

        await pilot.press("colon")
        app.screen.query_one("#commandbar", Input).value = "secret"
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "SecretScreen"
        for case in CASES:
            fault = case.add_to(plan, r"/secret")
            app.clear_notifications()
            await pilot.press("v")
            await settle(pilot, timeout=15)
            check_failed(app, case, fault.hits, problems, when="revealing the secret")
            if getattr(app.screen, "revealed", False):
                problems.append(f"{case.name}: a secret shown though none came")
            plan.clear()
    assert not problems, "\n".join(problems)


@pytest.mark.timeout(120)
async def test_entitlement_tree_expansion_under_every_fault() -> None:
    plan = FaultPlan()
    app = faulty_app(AREAS["entitlements"], plan)
    problems: list[str] = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        screen: Any = app.screen
        key = "A:101200004242"
        for case in CASES:
            app.ctx.session.cache.clear()  # a first expansion: nothing cached answers it
            fault = case.add_to(plan)
            app.clear_notifications()
            screen.tree.move_cursor(screen.node_index[key])
            await pilot.pause()
            await pilot.press("right")
            await settle(pilot, timeout=15)
            check_failed(app, case, fault.hits, problems, when="expanding an account")
            labels = [str(c.label) for c in screen.node_index[key].children]
            if not labels or not labels[0].startswith("✗ failed to load"):
                problems.append(f"{case.name}: the node does not say it failed: {labels[:2]}")
            plan.clear()
            screen.node_index[key].collapse()
            await pilot.pause()
            await pilot.press("right")
            await settle(pilot, timeout=15)
            children = [c.data.key for c in screen.node_index[key].children if c.data is not None and c.data.key]
            if not children or not children[0].startswith("E:"):
                problems.append(f"{case.name}: expanding again did not load the entitlements")
            screen.node_index[key].collapse()
            screen.forget_children()
            await settle(pilot)
    assert not problems, "\n".join(problems)


async def test_a_rate_limit_is_said_in_words_in_the_status_line_and_toast() -> None:
    """Not "429 fault injected": the service, the request, the Retry-After, the retries and what to do (walk27-a 13)."""
    plan = FaultPlan()
    app = faulty_app(AREAS["projects"], plan)
    app.ctx.session.retry.budget_seconds = 600.0  # every attempt is made however slow the machine: "tried 3 times" holds
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        plan.add(r"^GET /registry/api/v1/projects$", status=429, retry_after=0.05, body=b"{}", times=1000)
        await refresh(pilot)
        said = (
            "the registry is rate-limiting this client: 429 Too Many Requests to GET /registry/api/v1/projects (Retry-After: 0.05 s);"
            " tried 3 times, waiting 0.05 s between tries as its Retry-After asked; wait a while and try again, with fewer requests at once"
        )
        assert said in error_text(app), error_text(app)
        toasts = [str(n.message) for n in app._notifications if n.severity == "error"]
        assert toasts and all(toast.startswith("loading projects: " + said[:150]) for toast in toasts), toasts


def pager_text(app: FlexApp, tab: str) -> str:
    return str(app.screen.query_one(f"#{tab}-pager").render())


@pytest.mark.timeout(90)
async def test_a_200_that_holds_an_error_shows_the_error_not_no_users() -> None:
    """A 200 `{"status": "error", "message": "boom"}` to the users list was read as an empty list: "no users match
    these filters". It is the error it says, on the status line; a refresh that meets it keeps the rows shown."""
    plan = FaultPlan()
    users = r"^GET /users-accounts-api/v1/users$"
    fault = plan.add(users, status=200, body=b'{"status": "error", "message": "boom"}', times=1000)
    app = faulty_app(AREAS["users"], plan)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, timeout=15)
        assert type(app.screen).__name__ == "UsersScreen" and fault.hits >= 1
        said = error_text(app)
        assert 'says "error: boom"' in said and "the users and accounts API" in said, said
        assert not readable(said) and not unworded(said), said
        assert "no users" not in pager_text(app, "users") and "not loaded" in pager_text(app, "users"), pager_text(app, "users")
        assert not has_data(app)

        plan.clear()
        await refresh(pilot)
        shown = [dict(row) for row in app.screen.query_one(ResourceTable).visible_rows]
        assert shown and not error_text(app), "the list, once the server answers it"

        plan.add(users, status=200, body=b"{}", times=1000)
        await refresh(pilot)
        assert 'holds no "users" list: it is an empty object' in error_text(app), error_text(app)
        assert [dict(row) for row in app.screen.query_one(ResourceTable).visible_rows] == shown, "the rows shown stay"
        assert "not refreshed" in pager_text(app, "users") and "no users" not in pager_text(app, "users"), pager_text(app, "users")


def form_error(app: FlexApp) -> str:
    return str(app.screen.query_one("#form-error").render())


@pytest.mark.timeout(90)
async def test_a_verification_answered_200_without_its_token_shows_the_error_not_a_valid_token() -> None:
    """`k` (verify a value) answered 200 with an error body showed "✓ The token is valid" over a token named
    "‹unreadable›" with nothing else in it. The form stays open and says what the server said; once the server
    answers the token, the verdict shows it."""
    from flextui.ui.widgets.dialogs import MessageScreen
    from flextui.ui.widgets.forms import FormScreen

    plan = FaultPlan()
    fault = plan.add(r"^POST /flexnet/uar/v1/token/verification$", status=200, body=b'{"status": "error", "message": "boom"}', times=1000)
    app = faulty_app(AREAS["tokens"], plan)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, FormScreen))
        app.screen.query_one("#field-value", Input).value = world_of(app).seed_token(ADMIN[0])
        await pilot.pause()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, MessageScreen) or "holds no" in form_error(app))
        assert isinstance(app.screen, FormScreen), f"a verdict over no token: {type(app.screen).__name__}"
        said = form_error(app)
        assert fault.hits == 1
        assert said.startswith("the token service's answer to POST /flexnet/uar/v1/token/verification (200 OK)"), said
        assert 'says "error: boom" and holds no token' in said, said
        assert not readable(said) and not unworded(said), said

        plan.clear()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        assert "valid" in str(app.screen.query_one("#message-title").render())
        assert "flextui-demo-admin" in str(app.screen.query_one("#message-body").render()), "the token the server named"


@pytest.mark.timeout(90)
@pytest.mark.parametrize(("body", "words"), [(b"null", "it is null"), (b'"hello"', 'it is the text "hello"')])
async def test_a_project_detail_answered_200_without_the_project_names_the_answer(body: bytes, words: str) -> None:
    """The project's screen answered `null` (or text) said "the project answer is not an object (NoneType)": it
    names the registry, the request and what came, as every other answer without its record."""
    plan = FaultPlan()
    fault = plan.add(rf"^GET /registry/api/v1/projects/{HELLO}$", status=200, body=body, times=1000)
    app = faulty_app(AREAS["project"], plan)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, timeout=15)
        assert type(app.screen).__name__ == "ProjectScreen" and fault.hits >= 1
        said = error_text(app)
        assert f"the registry's answer to GET /registry/api/v1/projects/{HELLO} (200 OK) holds no project: {words}" in said, said
        assert not readable(said) and not unworded(said), said
