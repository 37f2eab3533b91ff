"""Text is wrapped, shortened, or given the free width: never cut silently at an edge.

Each test looks at what a widget actually shows (its rendered lines at its
size), at 80×24 and 120×40: the shown-once warning, the `?` header, form
labels, pager lines, the report catalogue's description, tree labels, and
tables whose cut columns now end "…" or get the width that stood empty.
"""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Input

from flextui.sim.registry import HELLO
from flextui.ui.help import HelpScreen
from flextui.ui.screens.entitlements.tree import EntitlementsScreen
from flextui.ui.screens.registry.projects import ProjectScreen, ProjectsScreen
from flextui.ui.screens.reports.catalogue import ReportsScreen
from flextui.ui.widgets.dialogs import ValueScreen
from flextui.ui.widgets.forms import FormScreen
from flextui.ui.widgets.grid import DataGrid
from flextui.ui.widgets.table import ResourceTable
from tests.ui.conftest import build_app, settle

SIZES = [(80, 24), (120, 40)]


def shown(widget: Widget) -> list[str]:
    """The lines a widget shows: at its size, as far as its containers let it be seen."""
    width, height = widget.size
    visible = widget.screen.find_widget(widget).visible_region
    width = min(width, visible.width - (widget.region.width - width))  # (the widget's padding is not text)
    return [strip.text[:width] for strip in widget.render_lines(Region(0, 0, widget.size.width, height))]


def shown_text(widget: Widget) -> str:
    return " ".join(line.strip() for line in shown(widget))


@pytest.mark.parametrize("size", SIZES)
async def test_the_shown_once_warning_is_whole(size: tuple[int, int]) -> None:
    app = build_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.push_screen(ValueScreen("Token ci-deploy created: its value", "rna_" + "0" * 44, once=True))
        await pilot.pause()
        text = shown_text(app.screen.query_one("#value-warning"))
        assert text == "⚠ This value is shown once. Copy it now: it cannot be read again, and flextui never stores it."
        note = shown_text(app.screen.query_one("#value-note"))
        assert note.endswith("if copying does not reach your clipboard.")


@pytest.mark.parametrize("size", SIZES)
async def test_the_help_header_is_whole(size: tuple[int, int]) -> None:
    app = build_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert shown_text(app.screen.query_one("#help-note")).endswith("`flextui info` shows where it is.")


async def test_open_a_project_label_is_whole_at_80() -> None:
    app = build_app(start=["projects"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        labels = [shown_text(w) for w in app.screen.query("Label") if "Project" in str(w.render())]
        assert labels and all(")" not in label or "(" in label for label in labels)
        assert any(label == "Project name" for label in labels), labels


async def test_a_long_pager_line_wraps_at_80() -> None:
    app = build_app(start=["members", HELLO])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProjectScreen)
        text = shown_text(app.screen.query_one("#members-pager"))
        assert text.endswith("then entitled customers"), text


@pytest.mark.parametrize("size", SIZES)
async def test_the_report_catalogue_description_wraps(size: tuple[int, int]) -> None:
    app = build_app(start=["reports"])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ReportsScreen)
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=[r["name"] for r in table.visible_rows].index("fulfillment"))
        await pilot.pause()
        about = shown_text(app.screen.query_one("#rc-about"))
        assert "fulfillments (activations, returns, repairs, rehosts) in the period" in about.replace("  ", " ")
        assert "dated by fulfillDate" in about


async def test_tree_labels_end_with_an_ellipsis_and_keep_the_count() -> None:
    app = build_app(start=["entitlements"], as_user="customer")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, EntitlementsScreen)
        tree = screen.tree
        await settle(pilot)
        lines = [line.rstrip() for line in shown(tree)]
        account = next(line for line in lines if "Acme Robotics" in line)
        assert "· 5 entitlements" in account and account.index("entitlements") < account.index("101200004242")
        tree.cursor_line = 1
        await pilot.press("right")  # expand an entitlement: its line items
        await settle(pilot)
        cut = 0
        for y, line in enumerate(shown(tree)):
            node = tree.get_node_at_line(y + round(tree.scroll_y))
            if node is None:
                continue
            label = node.label.plain
            if label not in line:  # not whole: then it says so
                cut += 1
                assert line.rstrip().endswith("…"), f"cut without an ellipsis: {line!r}"
        assert cut, "a long line item label is shortened visibly"


async def test_a_column_that_is_cut_gets_the_width_that_stands_empty() -> None:
    app = build_app(start=["users"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#users-table", ResourceTable)
        emails = [r["user_name"] for r in table.visible_rows]
        longest = max(emails, key=len)
        text = "\n".join(shown(table))
        assert longest in text, "the longest e-mail is whole: the user column took the free width"
        assert "…" not in text


@pytest.mark.parametrize("area", ["tokens", "products"])
async def test_a_table_wider_than_the_screen_marks_the_cut_at_its_edge(area: str) -> None:
    app = build_app(start=[area])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query(ResourceTable).first()
        visible = table.scrollable_content_region.width
        lines = [line[:visible] for line in shown(table) if line.strip()]
        assert table.virtual_size.width > visible
        for line in lines:  # the edge falls between values, or the value it cuts ends "…"
            assert line[-1] in " …", f"cut at the edge without an ellipsis: {line!r}"
        assert sum(line.endswith("…") for line in lines) > len(lines) // 2


async def test_the_last_grid_column_takes_the_free_width() -> None:
    app = build_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        grid = DataGrid([("name", "str"), ("note", "str")], [("a", "x" * 60)], max_column_width=20)
        await app.screen.mount(grid)
        await pilot.pause()
        first = shown(grid)[1]
        assert "x" * 60 in first and "…" not in first


async def test_a_grid_scrolled_sideways_marks_the_value_it_cuts_on_the_left() -> None:
    """The column that starts left of the view showed its tail ("ame", "-00422"), which reads as corrupt data."""
    app = build_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        rows = [(f"row-{i}", f"account-name-{i:04d}", "x" * 30, "y" * 30) for i in range(5)]
        grid = DataGrid([("id", "str"), ("name", "str"), ("a", "str"), ("b", "str")], rows)
        grid.fixed_columns = 1
        await app.screen.mount(grid)
        await pilot.pause()
        before = shown(grid)
        assert all("…" not in line[:20] for line in before), "not scrolled: nothing cut on the left"
        grid.scroll_to(x=5, animate=False)
        await pilot.pause()
        after = shown(grid)
        fixed = grid._fixed_width
        for line in after[1:6]:
            assert line[:fixed].strip().startswith("row-"), "the fixed column stays"
            assert line[fixed:].startswith("…nt-name-"), line  # " account-name-0001", 5 cells scrolled off
        grid.scroll_to(x=0, animate=False)
        await pilot.pause()
        assert shown(grid) == before


async def test_the_entitlement_filters_show_their_placeholders_whole() -> None:
    app = build_app(start=["entitlements"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        field = app.screen.query_one("#f-account", Input)
        assert field.value == "" and len(str(field.placeholder)) <= field.content_size.width


async def test_paged_projects_filter_note_wraps_instead_of_being_cut() -> None:
    app = build_app(start=["projects"], scale=100)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProjectsScreen)
        await pilot.press("slash", *"hello")
        await pilot.pause()
        assert shown_text(app.screen.query_one("#pager")).endswith("enter searches every page")
