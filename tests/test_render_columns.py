"""Column stores and the grid model over them: the values come back exactly, whatever store holds them.

The stores change kind as a column turns out mostly unique or mixed, so every
check here compares the model against the plain Python answer over the same
rows (a list of tuples), at sizes past the point where columns change kind.
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections import Counter
from datetime import date
from typing import Any

import pytest

from flextui.render.columns import UNIQUE_AFTER, Numbers, Plain, Pooled, Store, Texts, new_store
from flextui.render.table import GridModel, format_value

CHUNK = 2500  # rows a page holds
ROWS = UNIQUE_AFTER + 3 * CHUNK + 17  # past the switch to unique stores, over several pages


def fill(values: list[Any], batch: int = 2500) -> Store:
    store = new_store()
    for start in range(0, len(values), batch):
        store = store.extend(values[start : start + batch])
    return store


def same(store: Store, values: list[Any]) -> None:
    """`store` gives back exactly `values` (types too) by index, slice and take."""
    assert len(store) == len(values)
    got = [store[i] for i in range(len(values))]
    assert got == values and [type(v) for v in got] == [type(v) for v in values]
    assert store.slice(0, len(values)) == values
    assert store.slice(CHUNK - 3, CHUNK + 5) == values[CHUNK - 3 : CHUNK + 5]
    picks = random.Random(3).sample(range(len(values)), 200)
    assert store.take(picks) == [values[i] for i in picks]


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda i, r: ["ACTIVE", "INACTIVE", None][r.randrange(3)], Pooled),
        (lambda i, r: f"FID-{i:010d}" if i % 97 else None, Texts),
        (lambda i, r: f"naïve-ß-{i}-\x1f-☃" if i % 5 else "", Texts),
        (lambda i, r: r.randrange(1, 500), Pooled),
        (lambda i, r: 1_790_000_000_000 + i * 2_500 if i % 11 else None, Numbers),
        (lambda i, r: r.random() * 100 if i % 13 else None, Numbers),
        (lambda i, r: [True, False, None][i % 3], Pooled),
        (lambda i, r: date(2026, 1, 1 + i % 28), Pooled),
    ],
    ids=["pooled-text", "unique-ids", "unique-unicode", "pooled-ints", "unique-ints", "floats", "bools", "dates"],
)
def test_each_kind_of_column_keeps_its_values(make: Any, kind: type) -> None:
    rng = random.Random(1)
    values = [make(i, rng) for i in range(ROWS)]
    store = fill(values)
    assert isinstance(store, kind)
    same(store, values)


@pytest.mark.parametrize(
    ("values", "why"),
    [
        ([1, 2, 3.5, None], "an int among floats stays an int"),
        ([1.0, 2.5, 3, None], "a float column with a whole number"),
        ([1, True, 0, False], "True is not 1"),
        ([2**70, 1, None], "an int past 64 bits"),
        (["a", 1, None], "text and numbers"),
        ([[1], {"a": 1}, None, "x"], "unhashable values"),
        ([0.0, -0.0, float("nan"), float("inf")], "floats keep their sign and NaN"),
    ],
)
def test_mixed_values_come_back_as_given(values: list[Any], why: str) -> None:
    for batch in (1, 2, len(values)):
        store = fill(values * 3, batch)
        got = [store[i] for i in range(len(store))]
        assert [repr(v) for v in got] == [repr(v) for v in values * 3], why
        assert [type(v) for v in got] == [type(v) for v in values * 3], why


def test_a_column_that_changes_kind_leaves_the_old_store_as_it_was() -> None:
    """An export reading a snapshot in a thread keeps its rows while pages stream in and the column changes kind."""
    model = GridModel([("id", "str"), ("n", "int")])
    model.append_rows([(f"id-{i}", i % 3) for i in range(UNIQUE_AFTER - 10)])
    snapshot = model.rows
    before = list(snapshot[:5]), snapshot[len(snapshot) - 1]
    model.append_rows([(f"id-{i}", 1.5) for i in range(UNIQUE_AFTER - 10, UNIQUE_AFTER + 5000)])  # ids unique, n mixed
    assert isinstance(model.rows.column(0), Texts) and isinstance(model.rows.column(1), Plain)
    assert isinstance(snapshot.column(0), Pooled) and len(snapshot) == UNIQUE_AFTER - 10
    assert (list(snapshot[:5]), snapshot[len(snapshot) - 1]) == before
    assert model.rows[UNIQUE_AFTER + 4999] == (f"id-{UNIQUE_AFTER + 4999}", 1.5)


def rows_like_a_report(count: int) -> list[tuple[Any, ...]]:
    rng = random.Random(5)
    products = [f"Product {i}" for i in range(60)]
    return [
        (
            f"FID-{n:08d}",
            products[rng.randrange(60)] if n % 50 else None,
            rng.randrange(1, 500),
            rng.random() * 100 if n % 40 else None,
            ["ACTIVE", "Expired", "straße"][n % 3],
            f"HOST-{rng.randrange(16**8):08X}" if n % 9 else None,
        )
        for n in range(count)
    ]


COLUMNS = [("id", "str"), ("product", "str"), ("quantity", "int"), ("units", "float"), ("status", "str"), ("host", "str")]


def report_model(rows: list[tuple[Any, ...]]) -> GridModel:
    model = GridModel(COLUMNS)
    for start in range(0, len(rows), 2500):
        model.append_rows(rows[start : start + 2500])
    return model


def shown(model: GridModel) -> list[tuple[Any, ...]]:
    return [model.row(pos) for pos in range(model.row_count)]


def test_filters_on_every_kind_of_store_match_the_plain_answer() -> None:
    rows = rows_like_a_report(ROWS)
    model = report_model(rows)
    kinds = [type(model.rows.column(i)).__name__ for i in range(len(COLUMNS))]
    assert kinds == ["Texts", "Pooled", "Pooled", "Numbers", "Pooled", "Texts"]

    def text(v: Any) -> str:
        return "" if v is None else (v if isinstance(v, str) else format_value(v))

    def contains(needle: str) -> list[tuple[Any, ...]]:
        return [r for r in rows if any(needle.casefold() in text(v).casefold() for v in r)]

    for needle in ("FID-0001234", "product 7", "host-a", "STRASSE", "12.5", "nothing like it"):
        model.set_filter(f'"{needle}"')
        assert shown(model) == contains(needle), needle
    model.set_filter("!expired quantity>=250 product=")
    assert shown(model) == [r for r in rows if "expired" not in r[4].casefold() and r[2] >= 250 and r[1] is None]
    model.set_filter("host~^HOST-0 units<10")
    assert shown(model) == [r for r in rows if r[5] is not None and r[5].startswith("HOST-0") and r[3] is not None and r[3] < 10]


def test_sort_filter_and_streaming_together_match_the_plain_answer() -> None:
    rows = rows_like_a_report(ROWS)
    model = report_model(rows[:10_000])
    model.sort_by("host", descending=True)
    model.set_filter("active")
    for start in range(10_000, len(rows), 2500):  # pages stream in under the sort and filter, and columns change kind
        model.append_rows(rows[start : start + 2500])
    kept = [r for r in rows if "active" in r[4].casefold()]
    present = sorted((r for r in kept if r[5] is not None), key=lambda r: r[5].casefold(), reverse=True)
    expected = present + [r for r in kept if r[5] is None]
    assert [r[5] for r in shown(model)] == [r[5] for r in expected]
    model.sort_by("units")
    assert [r[3] for r in shown(model)] == sorted(r[3] for r in kept if r[3] is not None) + [None] * sum(r[3] is None for r in kept)


def test_statistics_and_frequency_match_the_plain_answer() -> None:
    rows = rows_like_a_report(ROWS)
    model = report_model(rows)
    model.set_filter("status=ACTIVE")
    kept = [r for r in rows if r[4] == "ACTIVE"]
    freq = model.frequency("product")
    counts = Counter(r[1] for r in kept)
    assert {f.value: f.count for f in freq} == counts
    assert [f.count for f in freq] == sorted(counts.values(), reverse=True)
    stats = model.column_stats("quantity")
    quantities = [r[2] for r in kept]
    assert (stats.count, stats.nulls, stats.distinct, stats.min, stats.max, stats.sum) == (
        len(kept),
        0,
        len(set(quantities)),
        min(quantities),
        max(quantities),
        sum(quantities),
    )
    units = model.column_stats("units")
    present = [r[3] for r in kept if r[3] is not None]
    assert (units.nulls, units.min, units.max) == (len(kept) - len(present), min(present), max(present))


def test_a_report_row_costs_a_fraction_of_a_tuple() -> None:
    """A report's rows kept by column: under 120 bytes a row for 6 columns (a tuple of them alone is 88 B, its ids 130 B more)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        rows = rows_like_a_report(ROWS)  # made inside the window: whatever the model keeps of them is counted
        model = GridModel(COLUMNS)
        for start in range(0, ROWS, 2500):
            model.append_rows(rows[start : start + 2500])
        del rows
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert model.total_count == ROWS
    assert used / ROWS < 120, f"{used / ROWS:.0f} B a row"


def test_rows_encoded_in_a_thread_append_as_plain_rows_do() -> None:
    """The results screen encodes each page in a worker thread; what lands must be what plain rows make,
    also when the encoding went stale (a column changed kind, or the model was cleared, meanwhile)."""
    rows = rows_like_a_report(ROWS)
    plain, threaded = GridModel(COLUMNS), GridModel(COLUMNS)
    for model in (plain, threaded):
        model.set_filter("!expired")
        model.sort_by("product")
    first = UNIQUE_AFTER - 2500
    for start in range(0, first, 2500):
        threaded.append_rows(threaded.encode(rows[start : start + 2500]))
    crossing = threaded.encode(rows[first : first + 2500])
    stale = threaded.encode(rows[first + 2500 : first + 5000])  # its id codes are for a store the crossing page replaces
    threaded.append_rows(crossing)
    assert isinstance(threaded.rows.column(0), Texts)
    threaded.append_rows(stale)
    for start in range(first + 5000, ROWS, 2500):
        threaded.append_rows(threaded.encode(rows[start : start + 2500]))
    for start in range(0, ROWS, 2500):
        plain.append_rows(rows[start : start + 2500])
    assert shown(threaded) == shown(plain)
    assert [type(threaded.rows.column(i)) for i in range(6)] == [type(plain.rows.column(i)) for i in range(6)]

    threaded.replace_rows(threaded.encode(rows, fresh=True))  # a refresh: new stores, the sort and filter kept
    assert shown(threaded) == shown(plain) and threaded.filter_text == "!expired"

    late = threaded.encode(rows[:3000])
    threaded.clear()
    threaded.append_rows(late)  # encoded for stores the clear threw away
    assert shown(threaded) == rows[:3000]


@pytest.mark.parametrize("size", [10, ROWS])
def test_numbers_are_searched_as_they_are_shown(size: int) -> None:
    special = [1e17, float("nan"), float("inf"), -0.0, 0.1 + 0.2, None, 2.0]
    model = GridModel([("n", "float"), ("i", "int")])
    values = [special[k % len(special)] if k < 50 else k / 8 for k in range(size)]
    model.append_rows([(v, k * 1_000_003) for k, v in enumerate(values)])
    for k in list(range(min(size, len(special)))) + [size - 1]:
        model.set_filter("")
        for text in model.display_cells(k):
            if text:
                model.set_filter(f'"{text}"')
                assert k in [model.row_id(p) for p in range(model.row_count)], text


def test_rows_given_column_by_column_land_as_rows_do() -> None:
    from flextui.render.reports import RowPacker

    records = [{"id": f"r{i}", "product": "P", "quantity": i, "units": None, "status": "ACTIVE", "host": None} for i in range(5)]
    del records[2]["host"]  # a record without a column
    packer = RowPacker([name for name, _ in COLUMNS])
    model = GridModel(COLUMNS)
    model.append_rows(model.encode_columns(packer.columns(records)))
    assert shown(model) == packer.pack(records) == [(f"r{i}", "P", i, None, "ACTIVE", None) for i in range(5)]
    with pytest.raises(ValueError, match="columns"):
        model.encode_columns([["x"]])


def test_free_text_in_unique_text_columns_stays_within_a_value() -> None:
    """Unique ids are searched where the store keeps them (one string a page): a match never spans two values,
    and a page whose casefold changes length ("ß" → "ss") still finds the right rows."""
    ids = [f"id{n:06d}" for n in range(UNIQUE_AFTER + 5000)]
    ids[7], ids[8] = "xxab", "cdyy"  # "abcd" only across the two values
    ids[UNIQUE_AFTER + 10] = "Straße-İ-9"
    ids[UNIQUE_AFTER + 11] = None  # type: ignore[call-overload]
    model = GridModel([("id", "str")])
    for start in range(0, len(ids), 2500):
        model.append_rows([(v,) for v in ids[start : start + 2500]])
    assert isinstance(model.rows.column(0), Texts)
    for needle, expected in [
        ("abcd", []),
        ("xxab", [7]),
        ("STRASSE", [UNIQUE_AFTER + 10]),
        ("i̇-9", [UNIQUE_AFTER + 10]),
        ("id00000", list(range(7)) + [9]),
    ]:
        model.set_filter(f'"{needle}"')
        assert [model.row_id(p) for p in range(model.row_count)] == expected, needle
    model.set_filter("")
    while not model.build_search_index(5000):  # built ahead in steps, the answers are the same
        pass
    model.set_filter("straSSe")
    assert [model.row_id(p) for p in range(model.row_count)] == [UNIQUE_AFTER + 10]
