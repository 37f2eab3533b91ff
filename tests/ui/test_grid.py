"""Pilot tests for the DataGrid widget inside a tiny App.

They check what a user sees (``render_line`` text and the exported
screenshot) and what the app hears (posted messages): rendering, literal
markup, control-character placeholders, keys, sort, streaming, filter,
selection and horizontal scrolling.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.message import Message

from flextui.ui.widgets.grid import DataGrid

COLUMNS = [("id", "int"), ("name", "str"), ("score", "float"), ("note", "str")]


def make_rows(start: int, count: int) -> list[tuple[Any, ...]]:
    return [(i, f"name-{i:05d}", (i * 7) % 100 / 4, "even" if i % 2 == 0 else "odd") for i in range(start, start + count)]


class GridApp(App[None]):
    def __init__(self, rows: list[tuple[Any, ...]] | None = None, **grid_kwargs: Any) -> None:
        super().__init__()
        self.rows = rows if rows is not None else make_rows(0, 100)
        self.grid_kwargs = grid_kwargs
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        yield DataGrid(self.grid_kwargs.pop("columns", COLUMNS), self.rows, **self.grid_kwargs)

    def on_mount(self) -> None:
        self.query_one(DataGrid).focus()

    def on_data_grid_cursor_moved(self, message: DataGrid.CursorMoved) -> None:
        self.messages.append(message)

    def on_data_grid_row_selected(self, message: DataGrid.RowSelected) -> None:
        self.messages.append(message)

    def on_data_grid_sort_changed(self, message: DataGrid.SortChanged) -> None:
        self.messages.append(message)

    def on_data_grid_filter_changed(self, message: DataGrid.FilterChanged) -> None:
        self.messages.append(message)

    def of(self, kind: type[Message]) -> list[Any]:
        return [m for m in self.messages if isinstance(m, kind)]


def lines(grid: DataGrid, count: int | None = None) -> list[str]:
    height = grid.scrollable_content_region.height
    return [grid.render_line(y).text for y in range(count if count is not None else height)]


async def test_rows_render_with_header() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.pause()
        text = lines(grid)
        assert text[0].split() == ["id", "name", "score", "note"]
        assert text[1].split() == ["0", "name-00000", "0", "even"]
        assert text[2].split() == ["1", "name-00001", "1.75", "odd"]
        assert grid.row_count == grid.total_count == 100
        assert "name-00003" in app.export_screenshot()
        # numbers are right-aligned under a right-aligned header
        assert text[0].index("id") + 2 == text[1].index("0") + 1


async def test_markup_and_control_characters_show_literally() -> None:
    rows = [
        (1, "[bold]x[/]", 1.0, "[/]"),
        (2, "scope [admin]", 2.0, "a\x1b[2Jb\nc"),
        (3, "tok-[2]", None, "[red]no[/red] [link=x]"),
    ]
    app = GridApp(rows)
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.pause()
        text = "\n".join(lines(grid))
        for expected in ("[bold]x[/]", "[/]", "scope [admin]", "a␛[2Jb⏎c", "tok-[2]", "[red]no[/red]"):
            assert expected in text
        assert not any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for line in lines(grid) for ch in line)
        assert "tok-[2]" in app.export_screenshot()


async def test_cursor_keys_move_and_post_messages() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.press("down", "down", "right")
        assert (grid.cursor_row, grid.cursor_column) == (2, 1)
        assert grid.current_cell() == "name-00002"
        moved = app.of(DataGrid.CursorMoved)
        assert [(m.row_index, m.column_index) for m in moved] == [(1, 0), (2, 0), (2, 1)]
        assert moved[-1].column == "name" and moved[-1].control is grid
        await pilot.press("up", "left", "left")  # clamped at column 0
        assert (grid.cursor_row, grid.cursor_column) == (1, 0)
        await pilot.press("pagedown")
        page = grid.scrollable_content_region.height - 2
        assert grid.cursor_row == 1 + page
        await pilot.press("pageup")
        assert grid.cursor_row == 1


async def test_end_goes_to_last_row_and_home_back() -> None:
    app = GridApp(make_rows(0, 1000))
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.press("end")
        assert grid.cursor_row == 999 and grid.cursor_column == 0
        assert grid.current_row() == {"id": 999, "name": "name-00999", "score": (999 * 7) % 100 / 4, "note": "odd"}
        visible = "\n".join(lines(grid))
        assert "name-00999" in visible and "name-00000" not in visible
        await pilot.press("home")
        assert grid.cursor_row == 0 and "name-00000" in "\n".join(lines(grid))
        await pilot.press("ctrl+end")
        assert grid.cursor_row == 999
        await pilot.press("ctrl+home")
        assert grid.cursor_row == 0
        await pilot.press("shift+end")
        assert grid.cursor_column == 3
        await pilot.press("shift+home")
        assert grid.cursor_column == 0


async def test_sort_keys_toggle_and_header_indicator() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.press("right", "right", "{")  # score ascending
        scores = [grid.model.cell(i, "score") for i in range(grid.row_count)]
        assert scores == sorted(scores)
        assert "score ▲" in lines(grid, 1)[0]
        await pilot.press("}")
        scores = [grid.model.cell(i, "score") for i in range(grid.row_count)]
        assert scores == sorted(scores, reverse=True)
        assert "score ▼" in lines(grid, 1)[0]
        await pilot.press("}")  # same key again: back to arrival order
        assert grid.model.sort_column is None and "▼" not in lines(grid, 1)[0]
        assert [m.column for m in app.of(DataGrid.SortChanged)] == ["score", "score", None]
        assert [m.descending for m in app.of(DataGrid.SortChanged)] == [False, True, False]


async def test_sort_keeps_cursor_on_same_record() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.press(*["down"] * 5)
        assert grid.current_row()["id"] == 5
        grid.sort_by("id", descending=True)
        await pilot.pause()
        assert grid.current_row()["id"] == 5 and grid.cursor_row == 94
        assert f"name-{5:05d}" in "\n".join(lines(grid))  # scrolled into view


async def test_streaming_append_keeps_cursor() -> None:
    app = GridApp(rows=[])
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.pause()
        assert "No rows" in lines(grid, 2)[1]
        grid.append_rows(make_rows(0, 2500))
        await pilot.pause()
        assert "name-00000" in lines(grid, 2)[1]
        await pilot.press("down", "down", "down")
        for page in range(1, 4):
            grid.append_rows(make_rows(page * 2500, 2500))
            await pilot.pause()
            assert grid.cursor_row == 3 and grid.current_row()["id"] == 3
        assert grid.total_count == 10_000
        await pilot.press("end")
        assert grid.current_row()["id"] == 9999
        # sorted stream: the cursor follows its record while new rows are merged in
        grid.sort_by("score")
        await pilot.press("end", "up")  # score 24.75: new rows with lower scores land before it
        record, before = grid.current_row(), grid.cursor_row
        grid.append_rows(make_rows(10_000, 2500))
        await pilot.pause()
        assert grid.current_row() == record and grid.cursor_row > before
        assert f"name-{record['id']:05d}" in "\n".join(lines(grid))  # still on screen
        scores = [grid.model.cell(i, "score") for i in range(grid.row_count)]
        assert scores == sorted(scores)


async def test_filter_reduces_rows_and_posts() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        grid.set_filter("name-0001")  # name-00010 .. name-00019
        await pilot.pause()
        assert grid.row_count == 10 and grid.total_count == 100
        assert lines(grid, 2)[1].split()[1] == "name-00010"
        grid.set_filter("id>=95 !note=odd")
        await pilot.pause()
        assert [grid.model.cell(i, "id") for i in range(grid.row_count)] == [96, 98]
        grid.set_filter("nothing-matches")
        await pilot.pause()
        assert grid.row_count == 0 and "No matching rows" in lines(grid, 2)[1]
        await pilot.press("down", "end", "enter", "{")  # keys on an empty view don't crash
        assert grid.current_row() is None and grid.current_cell() is None
        grid.set_filter("")
        await pilot.pause()
        assert grid.row_count == 100
        changed = app.of(DataGrid.FilterChanged)
        assert [(m.filter_text, m.row_count) for m in changed] == [
            ("name-0001", 10),
            ("id>=95 !note=odd", 2),
            ("nothing-matches", 0),
            ("", 100),
        ]


async def test_enter_posts_row_selected() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        grid.sort_by("id", descending=True)
        await pilot.press("home", "down", "enter")
        selected = app.of(DataGrid.RowSelected)
        assert len(selected) == 1
        assert selected[0].row_index == 1 and selected[0].row_id == 98
        assert selected[0].row == {"id": 98, "name": "name-00098", "score": (98 * 7) % 100 / 4, "note": "even"}


async def test_horizontal_scroll_keeps_cursor_column_visible_and_fixed_column() -> None:
    columns = [("key", "str")] + [(f"col{i}", "str") for i in range(15)]
    rows = [(f"K{r}", *[f"r{r}c{i}-" + "x" * 10 for i in range(15)]) for r in range(5)]
    app = GridApp(rows, columns=columns, fixed_columns=1)
    async with app.run_test(size=(60, 10)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.press(*["right"] * 12)
        await pilot.pause()
        assert grid.cursor_column == 12 and grid.scroll_x > 0
        header, first = lines(grid, 2)
        assert "col11" in header and "r0c11-" in first
        assert header.split()[0] == "key" and first.split()[0] == "K0"  # the fixed column stays
        await pilot.press("shift+home")
        await pilot.pause()
        assert grid.scroll_x == 0


async def test_hide_move_show_columns() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.press("right")  # cursor on "name"
        grid.hide_column("score")
        grid.move_column("note", 0)
        await pilot.pause()
        assert lines(grid, 1)[0].split() == ["note", "id", "name"]
        assert grid.current_column() is not None and grid.current_column().name == "name"
        assert grid.cursor_column == 2
        grid.show_column("score")
        await pilot.pause()
        assert lines(grid, 1)[0].split() == ["note", "id", "name", "score"]


async def test_click_moves_cursor_and_header_click_sorts() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.pause()
        name_x = lines(grid, 1)[0].index("name")
        await pilot.click(DataGrid, offset=(name_x, 3))
        assert (grid.cursor_row, grid.cursor_column) == (2, 1)
        await pilot.click(DataGrid, offset=(name_x, 0))
        assert grid.model.sort_column is not None and grid.model.sort_column.name == "name"
        assert not grid.model.sort_descending


async def test_clear_and_set_columns() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.press("end")
        grid.clear()
        await pilot.pause()
        assert grid.row_count == 0 and grid.cursor_row == 0 and "No rows" in lines(grid, 2)[1]
        grid.set_columns(["a", "b"])
        grid.append_rows([(1, "x"), {"a": 2, "b": "y"}])
        await pilot.pause()
        assert lines(grid, 3)[0].split() == ["a", "b"] and lines(grid, 3)[2].split() == ["2", "y"]


async def test_rows_cleared_to_come_again_keep_the_view_and_the_cursor_finds_its_record() -> None:
    """A run again: the filter, the sort and a hidden column stay; the cursor goes back to its record
    (by its key) on the same screen line when the page holding it arrives, not before."""
    app = GridApp(make_rows(0, 200))
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        grid.set_filter("note=even")
        grid.sort_by("score", descending=True)
        grid.hide_column("name")
        grid.move_cursor(row=0)
        grid.move_cursor(row=40)  # scrolled down to: on the screen's last line
        await pilot.pause()
        record, row, line = grid.current_row(), grid.cursor_row, grid.cursor_row - round(grid.scroll_y)
        assert row > 10 and line > 0
        order = [grid.model.cell(i, "id") for i in range(grid.row_count)]
        grid.clear(keep_view=True, key=["id"])
        await pilot.pause()
        assert grid.row_count == 0 and grid.filter_text == "note=even" and grid.model.sort_column is not None
        assert [c.name for c in grid.columns] == ["id", "score", "note"]
        assert record is not None
        rows, split = make_rows(0, 200), record["id"]  # the same rows again, its record in the second page
        assert split > 0
        grid.append_rows(rows[:split])
        await pilot.pause()
        assert grid.cursor_row == 0, "its record has not come yet"
        grid.append_rows(rows[split:])
        await pilot.pause()
        assert grid.current_row() == record and grid.cursor_row == row
        assert grid.cursor_row - round(grid.scroll_y) == line, "on the screen line it was on"
        assert [grid.model.cell(i, "id") for i in range(grid.row_count)] == sorted(order, key=lambda i: -((i * 7) % 100 / 4))


async def test_a_cursor_moved_while_rows_come_again_stays_and_a_record_gone_leaves_it_on_its_row_number() -> None:
    app = GridApp(make_rows(0, 100))
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        await pilot.press(*["down"] * 7)
        grid.clear(keep_view=True, key=["id"])
        grid.append_rows(make_rows(0, 5))
        await pilot.press("down")  # the user chose a row: the record is no longer sought
        grid.append_rows(make_rows(5, 95))
        await pilot.pause()
        assert grid.cursor_row == 1
        grid.settle_cursor()
        assert grid.cursor_row == 1
        await pilot.press(*["down"] * 6)
        grid.clear(keep_view=True, key=["id"])
        grid.append_rows(make_rows(100, 50))  # the record (id 7) does not come again
        grid.settle_cursor()
        await pilot.pause()
        assert grid.cursor_row == 7 and grid.current_row()["id"] == 107  # type: ignore[index]


async def test_themes_and_zebra_render() -> None:
    app = GridApp(zebra_stripes=True)
    async with app.run_test(size=(80, 12)) as pilot:
        grid = app.query_one(DataGrid)
        for theme in ("ansi-dark", "ansi-light", "textual-light", "textual-dark"):
            app.theme = theme
            await pilot.pause()
            assert lines(grid, 2)[1].split()[1] == "name-00000"
        row1, row2 = grid.render_line(2), grid.render_line(3)  # odd and even (striped) rows
        assert list(row1)[1].style != list(row2)[1].style
        grid.zebra_stripes = False
        await pilot.pause()
        row1, row2 = grid.render_line(2), grid.render_line(3)
        assert list(row1)[1].style == list(row2)[1].style
