"""Unit tests for the pure-Python grid model: sort, filter, columns, stats, sanitising.

No Textual here on purpose: the model is what makes 100k rows fast, so its
semantics (None last, stable, type-aware, inverse filters...) are pinned down
without an event loop.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from flextui.render.table import (
    Column,
    FilterTerm,
    GridModel,
    format_value,
    parse_filter,
)
from flextui.render.text import clean as sanitize

UTC = UTC


def people() -> GridModel:
    return GridModel(
        [("name", "str"), ("age", "int"), ("score", "float"), ("active", "bool"), ("born", "date"), ("seen", "datetime"), ("note", "str")],
        [
            ("alice", 30, 1.5, True, date(1994, 5, 1), datetime(2025, 1, 1, 23, 30, tzinfo=UTC), "likes [bold]tea[/]"),
            ("Bob", 25, None, False, date(1999, 1, 2), datetime(2025, 1, 2, 1, 0, tzinfo=UTC), None),
            ("carol", None, 3.25, True, None, None, "x"),
            ("dave", 30, 2.0, None, date(1990, 12, 31), datetime(2025, 1, 2, 12, 0, tzinfo=UTC), "scope [admin]"),
            ("Eve", 41, -1.0, False, date(1983, 7, 7), datetime(2025, 1, 4, 8, 0, tzinfo=UTC), "tok-[2]"),
        ],
    )


def names(model: GridModel) -> list[str]:
    return [model.cell(i, "name") for i in range(model.row_count)]


# ------------------------------------------------------------------ columns & rows


def test_types_inferred_and_rows_normalised() -> None:
    m = GridModel(["a", "b", "c", "d", "e", "f"])
    m.append_rows(
        [
            {"a": 1, "b": 1.5, "c": "x", "d": True, "e": date(2020, 1, 1), "f": None},
            (2, 2, "y"),  # short row padded with None; ints in a float column stay a float column
            [3, None, "z", False, date(2020, 1, 2), [1], "extra"],  # long row truncated
        ]
    )
    assert [c.type for c in m.columns] == ["int", "float", "str", "bool", "date", "other"]
    assert m.row(1) == (2, 2, "y", None, None, None)
    assert m.row(2) == (3, None, "z", False, date(2020, 1, 2), [1])
    assert m.total_count == m.row_count == 3


def test_column_specs_and_errors() -> None:
    m = GridModel([Column("a", "int", label="Alpha"), {"name": "b", "type": "str"}, ("c", "date")])
    assert [(c.name, c.type, c.index) for c in m.columns] == [("a", "int", 0), ("b", "str", 1), ("c", "date", 2)]
    assert m.column("alpha").name == "a"  # label, case-insensitive
    assert m.column(2).name == "c"
    with pytest.raises(KeyError):
        m.column("nope")
    with pytest.raises(ValueError):
        GridModel(["x", "x"])
    with pytest.raises(ValueError):
        GridModel([("x", "decimal")])
    with pytest.raises(ValueError):
        GridModel().append_rows([(1,)])


def test_hide_show_and_reorder_columns() -> None:
    m = people()
    m.hide_column("age")
    m.move_column("note", 0)
    assert [c.name for c in m.visible_columns] == ["note", "name", "score", "active", "born", "seen"]
    assert m.display_cells(0)[:2] == ["likes [bold]tea[/]", "alice"]
    assert next(m.iter_view()) == ("likes [bold]tea[/]", "alice", 1.5, True, date(1994, 5, 1), datetime(2025, 1, 1, 23, 30, tzinfo=UTC))
    assert list(next(m.iter_view_dicts())) == ["note", "name", "score", "active", "born", "seen"]
    assert len(next(m.iter_view(visible_only=False))) == 7
    assert m.header() == ["note", "name", "score", "active", "born", "seen"]
    m.show_column("age")
    m.move_column("age", -1)
    assert [c.name for c in m.visible_columns][-1] == "age"
    assert m.row_dict(0)["age"] == 30  # row dicts always hold every column


# ------------------------------------------------------------------ sort


def test_sort_strings_case_insensitive_and_desc() -> None:
    m = people()
    m.sort_by("name")
    assert names(m) == ["alice", "Bob", "carol", "dave", "Eve"]
    m.sort_by("name", descending=True)
    assert names(m) == ["Eve", "dave", "carol", "Bob", "alice"]
    m.sort_by(None)
    assert names(m) == ["alice", "Bob", "carol", "dave", "Eve"]


@pytest.mark.parametrize("column", ["age", "score", "born", "seen", "note", "active"])
def test_sort_none_last_both_directions(column: str) -> None:
    m = people()
    for desc in (False, True):
        m.sort_by(column, desc)
        values = [m.cell(i, column) for i in range(m.row_count)]
        present = [v for v in values if v is not None]
        assert values[len(present) :] == [None] * (len(values) - len(present))
        key = (lambda v: v.casefold()) if column == "note" else (lambda v: v)
        assert present == sorted(present, key=key, reverse=desc)


def test_sort_numbers_are_numeric_not_lexical() -> None:
    m = GridModel([("n", "int")], [(10,), (9,), (100,), (-1,)])
    m.sort_by("n")
    assert [m.cell(i, "n") for i in range(4)] == [-1, 9, 10, 100]


def test_sort_is_stable_in_both_directions() -> None:
    m = people()
    m.sort_by("age")
    assert names(m)[1:3] == ["alice", "dave"]  # both 30, arrival order
    m.sort_by("age", descending=True)
    assert names(m)[:3] == ["Eve", "alice", "dave"]  # ties keep arrival order when descending too
    assert names(m)[-1] == "carol"  # None last


def test_sort_mixed_types_does_not_crash() -> None:
    m = GridModel([("v", "int")], [(3,), ("x",), (1,), (None,), (date(2020, 1, 1),)])
    m.sort_by("v")
    assert [m.cell(i, "v") for i in range(5)] == [1, 3, date(2020, 1, 1), "x", None]


def test_sort_keeps_order_while_streaming() -> None:
    m = GridModel([("k", "int"), ("tag", "str")])
    m.append_rows([(5, "a"), (None, "n1"), (1, "b")])
    m.sort_by("k", descending=True)
    gen = m.generation
    m.append_rows([(3, "c"), (None, "n2"), (5, "d"), (9, "e")])
    assert m.generation != gen
    assert [m.cell(i, "tag") for i in range(m.row_count)] == ["e", "a", "d", "c", "b", "n1", "n2"]
    assert m.position_of(6) == 0  # row id 6 is (9, "e")
    assert m.row_id(0) == 6


# ------------------------------------------------------------------ filter


def test_parse_filter_syntax() -> None:
    assert parse_filter('foo !bar name="a b" age>=3 x!=1 r~^a\\d') == [
        FilterTerm(None, "contains", "foo"),
        FilterTerm(None, "contains", "bar", negate=True),
        FilterTerm("name", "=", "a b"),
        FilterTerm("age", ">=", "3"),
        FilterTerm("x", "=", "1", negate=True),
        FilterTerm("r", "~", "^a\\d"),
    ]
    assert parse_filter('"unbalanced') == [FilterTerm(None, "contains", '"unbalanced')]
    assert parse_filter("  ") == [] and parse_filter("!") == []


def test_filter_substring_case_insensitive_visible_columns_only() -> None:
    m = people()
    m.set_filter("BOB")
    assert names(m) == ["Bob"]
    m.set_filter("BOLD")  # inside the note column's text
    assert names(m) == ["alice"]
    m.set_filter("[admin]")  # markup-looking text is just text
    assert names(m) == ["dave"]
    m.set_filter("")
    assert m.row_count == 5
    m.set_filter("tea")
    assert names(m) == ["alice"]
    m.hide_column("note")  # hidden columns are not searched: the filter re-applies
    assert m.row_count == 0
    m.show_column("note")
    assert names(m) == ["alice"]


def test_filter_inverse_and_and() -> None:
    m = people()
    m.set_filter("!VE")
    assert names(m) == ["alice", "Bob", "carol"]
    m.set_filter("a !carol")
    assert "carol" not in names(m) and "alice" in names(m)


def test_filter_column_terms() -> None:
    m = people()
    m.set_filter("age=30")
    assert names(m) == ["alice", "dave"]
    m.set_filter("score=2")  # numeric equality: 2.0
    assert names(m) == ["dave"]
    m.set_filter("name=BOB")
    assert names(m) == ["Bob"]
    m.set_filter("age!=30")
    assert names(m) == ["Bob", "carol", "Eve"]
    m.set_filter("!age=30")
    assert names(m) == ["Bob", "carol", "Eve"]
    m.set_filter("age=")  # empty / None
    assert names(m) == ["carol"]
    m.set_filter("name~^[a-c]")
    assert names(m) == ["alice", "Bob", "carol"]
    m.set_filter("note~[admin")  # invalid regex -> literal
    assert names(m) == ["dave"]
    m.set_filter("age>29 age<=40")
    assert names(m) == ["alice", "dave"]
    m.set_filter("born<1990-12-31")
    assert names(m) == ["Eve"]
    m.set_filter("seen>=2025-01-02")
    assert names(m) == ["Bob", "dave", "Eve"]
    m.set_filter("seen<2025-01-02T01:00:00Z")
    assert names(m) == ["alice"]
    m.set_filter("name>c")
    assert names(m) == ["carol", "dave", "Eve"]
    m.set_filter("active=true")
    assert names(m) == ["alice", "carol"]
    m.set_filter("Age=41")  # column names are case-insensitive
    assert names(m) == ["Eve"]


def test_filter_unknown_column_is_text() -> None:
    m = GridModel([("s", "str")], [("a=b",), ("c",)])
    m.set_filter("a=b")
    assert m.row_count == 1 and m.cell(0, "s") == "a=b"


def test_filter_applies_to_streamed_rows_and_sort() -> None:
    m = people()
    m.sort_by("age", descending=True)
    m.set_filter("!active=false")
    assert names(m) == ["alice", "dave", "carol"]
    m.append_rows([("zed", 50, 0.0, True, None, None, None), ("yan", 60, 0.0, False, None, None, None)])
    assert names(m) == ["zed", "alice", "dave", "carol"]
    m.set_filter("")
    assert names(m) == ["yan", "zed", "Eve", "alice", "dave", "Bob", "carol"]


def test_search_index_built_incrementally() -> None:
    m = GridModel([("s", "str")], [(f"row {i}",) for i in range(10)])
    assert not m.search_index_complete
    assert m.build_search_index(4) is False
    assert m.build_search_index(4) is False
    assert m.build_search_index(4) is True
    m.append_rows([("row 10",)])
    assert not m.search_index_complete  # filled lazily (or by the next idle step)
    m.set_filter("row 1")
    assert m.row_count == 2  # "row 1", "row 10"
    m.append_rows([("row 11",)])
    assert m.row_count == 3


def test_clear_keeps_columns() -> None:
    m = people()
    m.sort_by("age")
    m.set_filter("a")
    m.clear()
    assert m.row_count == m.total_count == 0 and m.sort_column is None and m.filter_text == ""
    assert len(m.columns) == 7


def test_clear_keeping_the_view_sorts_and_filters_the_rows_that_come_again() -> None:
    """A run again: the rows go, the sort and the filter stay and apply to the rows as they stream back."""
    m = people()
    rows = list(m.rows)
    m.sort_by("age", descending=True)
    m.set_filter("!active=false")
    m.hide_column("note")
    shown = names(m)
    m.clear(keep_view=True)
    assert m.row_count == m.total_count == 0
    assert m.filter_text == "!active=false" and m.sort_column is not None and m.sort_column.name == "age" and m.sort_descending
    m.append_rows(rows[:2])
    assert names(m) == ["alice"]
    m.append_rows(rows[2:])
    assert names(m) == shown == ["alice", "dave", "carol"]
    assert [c.name for c in m.visible_columns] == ["name", "age", "score", "active", "born", "seen"]
    m.replace_rows(rows[::-1])  # a refresh behind the rows shown: the same view of the new rows (equal ages: as they came)
    assert names(m) == ["dave", "alice", "carol"] and m.total_count == 5


def test_a_kept_view_on_an_untyped_column_follows_the_type_its_rows_bring() -> None:
    """A filter or sort kept for a column of no type yet (its values were all None) is made again once typed."""
    m = GridModel([("id", "str"), ("n", "auto")], [("a", None), ("b", None)])
    m.set_filter("n>5")
    m.sort_by("n", descending=True)
    m.clear(keep_view=True)
    m.append_rows([("c", 3), ("d", 40), ("e", 7)])
    assert m.column("n").type == "int"
    assert [m.cell(i, "id") for i in range(m.row_count)] == ["d", "e"]
    m.append_rows([("f", 9)])
    assert [m.cell(i, "id") for i in range(m.row_count)] == ["d", "f", "e"]


def test_find_row_by_its_values_in_a_range() -> None:
    m = GridModel([("k", "str"), ("v", "int")], [("a", 1), ("b", 2), ("a", 3), ("c", None)])
    assert m.find_row({0: "a"}) == 0
    assert m.find_row({0: "a"}, start=1) == 2
    assert m.find_row({0: "a", 1: 3}) == 2
    assert m.find_row({0: "c", 1: None}) == 3
    assert m.find_row({0: "a", 1: 2}) is None and m.find_row({0: "b"}, start=2) is None and m.find_row({}) is None


def test_add_columns_keeps_rows_sort_filter_and_column_choices() -> None:
    m = people()
    m.sort_by("age", descending=True)
    m.set_filter("!active=false")
    m.hide_column("note")
    m.move_column("score", 0)
    before = names(m)
    m.add_columns([("extra", "auto")])
    assert names(m) == before and m.filter_text == "!active=false" and m.sort_column is not None
    assert [c.name for c in m.visible_columns] == ["score", "name", "age", "active", "born", "seen", "extra"]
    assert m.cell(0, "extra") is None
    m.append_rows([("zed", 50, 0.0, True, None, None, None, "x")])
    assert names(m)[0] == "zed" and m.cell(0, "extra") == "x"
    with pytest.raises(ValueError, match="duplicate"):
        m.add_columns(["name"])


# ------------------------------------------------------------------ stats, frequency, per day


def test_column_stats_numbers_dates_strings() -> None:
    m = people()
    s = m.column_stats("age")
    assert (s.count, s.nulls, s.distinct, s.min, s.max, s.sum) == (5, 1, 3, 25, 41, 126)
    assert s.mean == pytest.approx(31.5)
    d = m.column_stats("born")
    assert (d.min, d.max, d.nulls, d.mean) == (date(1983, 7, 7), date(1999, 1, 2), 1, None)
    t = m.column_stats("name")
    assert (t.min, t.max, t.distinct) == ("alice", "Eve", 5)
    m.set_filter("age>=30")  # stats follow the view
    s = m.column_stats("age")
    assert (s.count, s.nulls, s.min, s.max) == (3, 0, 30, 41)


def test_stats_unhashable_and_empty() -> None:
    m = GridModel([("o", "other")], [([1],), ([1],), ([2],)])
    assert m.column_stats("o").distinct == 2
    e = GridModel([("a", "int")])
    s = e.column_stats("a")
    assert (s.count, s.nulls, s.min, s.mean) == (0, 0, None, None)


def test_frequency_table() -> None:
    m = GridModel([("s", "str")], [("b",), ("a",), ("b",), (None,), ("c",), ("a",), ("b",), (None,)])
    freq = m.frequency("s")
    assert [(f.value, f.count) for f in freq] == [("b", 3), ("a", 2), (None, 2), ("c", 1)]
    assert freq[0].percent == pytest.approx(37.5)
    assert sum(f.percent for f in freq) == pytest.approx(100)
    assert len(m.frequency("s", limit=2)) == 2
    m.set_filter("!s=b")
    assert [(f.value, f.count) for f in m.frequency("s")] == [("a", 2), (None, 2), ("c", 1)]


def test_per_day_counts() -> None:
    m = people()
    # 2025-01-01 23:30Z, 2025-01-02 01:00Z, None, 2025-01-02 12:00Z, 2025-01-04 08:00Z
    assert m.per_day_counts("seen") == [(date(2025, 1, 1), 1), (date(2025, 1, 2), 2), (date(2025, 1, 4), 1)]
    assert m.per_day_counts("seen", fill_gaps=True)[2] == (date(2025, 1, 3), 0)
    plus2 = timezone(timedelta(hours=2))
    s = GridModel(
        [("t", "other")],
        [
            ("2025-03-01T10:00:00Z",),
            ("2025-03-01",),
            (datetime(2025, 3, 2, 1, 0, tzinfo=plus2),),
            (1740873600,),
            (1740873600_000,),
            ("garbage",),
            (None,),
        ],
    )
    assert s.per_day_counts("t") == [(date(2025, 3, 1), 3), (date(2025, 3, 2), 2)]


# ------------------------------------------------------------------ formatting & sanitising


def test_sanitize_control_characters() -> None:
    assert sanitize("[/] \x1b[2J") == "[/] ␛[2J"
    assert sanitize("a\nb\r\tc\x00\x7f") == "a⏎b␍␉c␀␡"
    assert sanitize("\x9b31m") == "\ufffd31m"  # C1 CSI
    assert sanitize("abc\u202eevil") == "abc\ufffdevil"  # bidi override
    assert sanitize("[bold]x[/]") == "[bold]x[/]"  # markup is left alone (never parsed)
    assert sanitize("ünïcødé 漢字") == "ünïcødé 漢字"
    for text in ("\x1b]52;c;AAAA\x07", "\x1b[31mred", "x\x1bP"):
        assert not any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in sanitize(text))


def test_format_value() -> None:
    assert format_value(None) == ""
    assert format_value(True) == "true" and format_value(False) == "false"
    assert format_value(42) == "42"
    assert format_value(0.1 + 0.2) == "0.3"
    assert format_value(1.5e20) == "1.500000e+20"
    assert format_value(date(2025, 1, 2)) == "2025-01-02"
    assert format_value(datetime(2025, 1, 2, 3, 4, 5, 678)) == "2025-01-02 03:04:05"
    assert format_value(datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)) == "2025-01-02 03:04:05Z"
    assert format_value(datetime(2025, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=-5)))) == "2025-01-02 03:04:05-0500"
    assert format_value("x\x1by") == "x␛y"

    class Weird:
        def __str__(self) -> str:
            return "bad\x1b[2Jthing\n"

    assert format_value(Weird()) == "bad␛[2Jthing⏎"


def test_display_cells_are_sanitised() -> None:
    m = GridModel([("s", "str"), ("n", "int")], [("a\x1b[2Jb\nc", None)])
    assert m.display_cells(0) == ["a␛[2Jb⏎c", ""]
    assert [c.align for c in m.columns] == ["left", "right"]
