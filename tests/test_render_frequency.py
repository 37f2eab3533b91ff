"""The frequency table's top values without a row (or a key) per distinct value (render/table.py).

`F` on a column whose values are all distinct (187,000 usage ids) took ≈ 4 s: every
distinct value was sorted with a key made in Python and given a row. The model now
finds the `limit` most frequent in C and orders only those; what it returns is what
the full sort's first rows were.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import flextui.render.table as table
from flextui.render.table import GridModel


def full_order(values: list[Any]) -> list[tuple[Any, int]]:
    """What the frequency table was before: every distinct value sorted, most frequent first, ties by value, None last."""
    counts = Counter(values)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0] is None, table._mixed_key(kv[0]) if kv[0] is not None else (3, "")))


def ids(n: int, seed: int = 3) -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = [f"U{rng.randrange(10**9):09d}" for _ in range(n)]
    return out


@pytest.mark.parametrize(
    "values",
    [
        ids(30_000),  # (almost) all distinct: a few thousand rows more than the unique-column switch
        ids(30_000) + ["a", "B", "a", None, None, "b"],  # ties broken case-blind, then None
        [random.Random(5).randrange(400) for _ in range(30_000)] + [None] * 3,  # numbers, many ties at each count
        [1, "x", 2.5, None, "Y", 1, "x"] * 300 + list(range(2000)),  # mixed kinds: the total order
    ],
    ids=["ids", "ids+ties", "numbers", "mixed"],
)
def test_the_top_rows_are_the_full_sorts_first_rows(values: list[Any]) -> None:
    m = GridModel([("v", "auto")], [(v,) for v in values])
    expected = full_order(values)
    for limit in (1, 7, 1000):
        got = m.frequencies("v", limit)
        assert [(r.value, r.count) for r in got.rows] == expected[:limit]
        assert got.distinct == len(expected) and got.nulls == values.count(None) and got.view == len(values)
        assert got.complete == (limit >= len(expected))
    assert [(r.value, r.count) for r in m.frequency("v")] == expected, "without a limit: every value"


def test_a_column_of_distinct_ids_is_not_keyed_value_by_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cost, counted rather than timed: Python keys and rows for the values shown, not for every distinct one."""
    values = ids(60_000)
    m = GridModel([("usageId", "str")], [(v,) for v in values])
    keyed = 0
    made = 0
    mixed_key, row = table._mixed_key, table.FrequencyRow

    def counting_key(value: Any) -> Any:
        nonlocal keyed
        keyed += 1
        return mixed_key(value)

    def counting_row(*args: Any) -> Any:
        nonlocal made
        made += 1
        return row(*args)

    monkeypatch.setattr(table, "_mixed_key", counting_key)
    monkeypatch.setattr(table, "FrequencyRow", counting_row)
    got = m.frequencies("usageId", 1000)
    assert len(got.rows) == 1000 and got.distinct == len(set(values))
    assert made == 1000 and keyed <= 2 * 1000, (made, keyed)


def test_shares_add_up_and_a_filter_counts_the_view() -> None:
    m = GridModel([("s", "str")], [("b",), ("a",), ("b",), (None,), ("c",), ("a",), ("b",), (None,)])
    got = m.frequencies("s", 2)
    assert [(r.value, r.count) for r in got.rows] == [("b", 3), ("a", 2)]
    assert (got.distinct, got.nulls, got.view, got.complete) == (4, 2, 8, False)
    assert got.rows[0].percent == pytest.approx(37.5)
    m.set_filter("!s=b")
    got = m.frequencies("s")
    assert [(r.value, r.count) for r in got.rows] == [("a", 2), (None, 2), ("c", 1)] and got.complete
    assert sum(r.percent for r in got.rows) == pytest.approx(100)
