"""Column stores written to bytes read back exactly, and anything else is refused (render/columns_file.py)."""

from __future__ import annotations

import json
import zlib
from datetime import date, datetime
from typing import Any

import pytest

from flextui.render.columns import Numbers, Plain, Pooled, Store, Texts, new_store
from flextui.render.columns_file import MAGIC, Unstorable, read_columns, write_columns
from flextui.render.table import GridModel


def typed(values: list[Any]) -> list[tuple[type, Any]]:
    """Values with their types: 1 == 1.0 == True, but a store must give back the one it was given."""
    return [(type(v), v) for v in values]


def written(stores: list[Store], count: int, facts: dict[str, Any] | None = None) -> list[bytes]:
    return list(write_columns(stores, count, facts))


def stored(columns: list[list[Any]], page: int = 2500) -> list[Store]:
    """The stores a grid builds for `columns`, appended a page at a time as a report streams in."""
    stores = [new_store() for _ in columns]
    for at in range(0, len(columns[0]), page):
        stores = [store.extend(column[at : at + page]) for store, column in zip(stores, columns, strict=True)]
    return stores


ROWS = 30_000
COLUMNS: dict[str, list[Any]] = {
    "status": (["ACTIVE", "EXPIRED", None, "Ünïcode ✓"] * ROWS)[:ROWS],
    "id": [f"FID-{i:08d}\u202e\x1f" if i % 1000 else None for i in range(ROWS)],  # bidi and C0 kept as given
    "surrogates": [f"x\ud800{i}" for i in range(ROWS)],  # a lone surrogate, as JSON may carry one
    "count": [i * 7919 - 2**62 for i in range(ROWS)],
    "amount": [(-0.0 if i == 3 else float("nan") if i == 5 else None if i == 9 else i / 3) for i in range(ROWS)],
    "day": [date(2026, 1, 1 + i % 28) if i % 5 else None for i in range(ROWS)],
    "flag": ([True, False, None] * ROWS)[:ROWS],
    "quantity": [i % 11 for i in range(ROWS)],
    "mixed": ([1, "1", 1.0, True, None, 2**70] * ROWS)[:ROWS],
}


def test_every_kind_of_store_reads_back_its_values_and_their_types() -> None:
    stores = stored(list(COLUMNS.values()))
    kinds = {name: type(store) for name, store in zip(COLUMNS, stores, strict=True)}
    assert kinds == {
        "status": Pooled,
        "id": Texts,
        "surrogates": Texts,
        "count": Numbers,
        "amount": Numbers,
        "day": Pooled,
        "flag": Pooled,
        "quantity": Pooled,
        "mixed": Plain,
    }, "the sample covers every store kind"
    back, count, facts = read_columns(written(stores, ROWS, {"names": list(COLUMNS), "pages": 12}))
    assert count == ROWS and facts == {"names": list(COLUMNS), "pages": 12}
    for name, store, values in zip(COLUMNS, back, COLUMNS.values(), strict=True):
        got = store.slice(0, count)
        if name == "amount":  # nan != nan: compared as texts
            assert [repr(v) for v in got] == [repr(v) for v in values]
        else:
            assert typed(got) == typed(values), name
        assert type(store) is kinds[name], "read back as the same kind of store"


def test_the_stores_read_back_take_more_rows_like_the_ones_written() -> None:
    stores = stored([COLUMNS["status"], COLUMNS["id"], COLUMNS["quantity"]])
    back, count, _ = read_columns(written(stores, ROWS))
    more = [["NEW", None], ["FID-new", "FID-x"], [99, 1]]
    back = [store.extend(values) for store, values in zip(back, more, strict=True)]
    assert [store.slice(count - 1, count + 2) for store in back] == [
        [COLUMNS["status"][-1], "NEW", None],
        [COLUMNS["id"][-1], "FID-new", "FID-x"],
        [COLUMNS["quantity"][-1], 99, 1],
    ]
    assert back[0][count] == "NEW" and back[0].index["NEW"] == back[0].codes[count], "a new value gets a code of its own"


def test_only_the_first_rows_asked_for_are_written_even_from_a_chunk_that_grew_since() -> None:
    texts = Texts().extend([f"id-{i}" for i in range(10)])
    grown = texts.extend(["later"])  # a small chunk takes the next values in: its text and ends are replaced
    assert grown is texts and len(texts.chunks) == 1
    back, count, _ = read_columns(written([texts], 7))
    assert count == 7 and len(back[0]) == 7 and back[0].slice(0, 7) == [f"id-{i}" for i in range(7)]


def test_a_model_takes_stores_read_back_as_its_rows_with_sort_and_filter_working() -> None:
    columns = [COLUMNS["status"], COLUMNS["id"], COLUMNS["quantity"]]
    back, count, _ = read_columns(written(stored(columns), ROWS))
    model = GridModel(["status", "id", "quantity"])
    model.append_rows(model.encoded_stores(back, count))
    assert model.total_count == ROWS and model.rows[4] == (columns[0][4], columns[1][4], columns[2][4])
    model.sort_by("quantity", descending=True)
    assert model.row(0)[2] == 10
    model.set_filter("FID-00000042")
    assert [model.row(i)[1] for i in range(model.row_count)] == ["FID-00000042\u202e\x1f"]
    with pytest.raises(ValueError):
        model.encoded_stores(back[:2], count)


@pytest.mark.parametrize(
    "values",
    [
        [{"a": 1}, None],  # nested: may hold what the page cache would have scrubbed, and JSON changes its keys' types
        [[1, 2], None],
        [datetime(2026, 1, 1), "x"],  # comes back a text
        [float("inf"), "x"],  # JSON has no infinity
    ],
)
def test_a_column_that_would_not_read_back_exactly_is_not_written(values: list[Any]) -> None:
    store = new_store().extend(values)
    with pytest.raises(Unstorable):
        write_columns([store], len(values))


def test_a_damaged_file_is_refused_whatever_was_damaged() -> None:
    parts = written(stored([COLUMNS["status"][:3000], COLUMNS["id"][:3000], COLUMNS["count"][:3000]]), 3000, {"n": 1})
    assert len(parts) == 4, "a part a column, then the header"
    read_columns(parts)
    for n, part in enumerate(parts):
        for cut in sorted({0, 1, 5, len(MAGIC) + 2, len(part) // 2, len(part) - 1}):
            with pytest.raises(ValueError):
                read_columns([*parts[:n], part[:cut], *parts[n + 1 :]])
        with pytest.raises(ValueError):
            read_columns([*parts[:n], part + b"\0", *parts[n + 1 :]])
    for n, part in enumerate(parts[:-1]):  # a byte changed in a column: its checksum differs
        for at in range(0, len(part), max(1, len(part) // 40)):
            damaged = bytearray(part)
            damaged[at] ^= 0x40
            with pytest.raises(ValueError):
                read_columns([*parts[:n], bytes(damaged), *parts[n + 1 :]])
    for wrong in ([], parts[:-1], parts[1:], [parts[1], parts[0], *parts[2:]], [*parts[:-1], parts[0], parts[-1]]):
        with pytest.raises(ValueError):
            read_columns(wrong)


def header_of(parts: list[bytes]) -> Any:
    return json.loads(parts[-1][len(MAGIC) + 9 :])


def rewritten(parts: list[bytes], change: Any, *, block: tuple[int, Any] | None = None) -> list[bytes]:
    """`parts` with the header changed by `change` and its checksum made again (well-formed parts that say
    something wrong, as only a writer that is not ours would make); `block`: a column's part replaced too."""
    header = header_of(parts)
    change(header)
    columns = list(parts[:-1])
    if block is not None:
        n, data = block
        columns[n] = data
        header["columns"][n]["blocks"] = [len(data)] + [0] * (len(header["columns"][n]["blocks"]) - 1)
        header["columns"][n]["crc"] = zlib.crc32(data)
    body = json.dumps(header).encode()
    return [*columns, MAGIC + b"%08x\n" % zlib.crc32(body) + body]


def test_a_changed_header_is_refused_by_its_checksum() -> None:
    parts = written(stored([COLUMNS["count"]]), ROWS, {"total": 1000})
    assert header_of(parts)["columns"][0]["type"] == "q"
    for old, new in ((b'"q"', b'"d"'), (b'"total": 1000', b'"total": 1001')):
        assert old in parts[-1]
        with pytest.raises(ValueError):
            read_columns([*parts[:-1], parts[-1].replace(old, new)])


@pytest.mark.parametrize(
    "change",
    [
        lambda h: h.update(byteorder="big" if h["byteorder"] == "little" else "little"),
        lambda h: h.update(count=h["count"] + 1),
        lambda h: h.update(count=True),
        lambda h: h["columns"][0].update(kind="pickle"),
        lambda h: h["columns"][0].update(type="datetime"),
        lambda h: h["columns"][0].update(codes="Q"),
        lambda h: h["columns"][0].update(codes=[]),
        lambda h: h["columns"][2].update(type={}),
        lambda h: h["facts"].update(x=float("nan")),
        lambda h: h["columns"][0].update(blocks=[1, 2, 3]),
        lambda h: h["columns"][1].update(chars=h["columns"][1]["chars"] - 1),
        lambda h: h["columns"][1].update(blocks=list(reversed(h["columns"][1]["blocks"]))),
        lambda h: h["columns"][2].update(type="b"),
        lambda h: h["columns"].pop(),
        lambda h: h.update(columns="all"),
    ],
)
def test_a_header_that_disagrees_with_its_parts_is_refused(change: Any) -> None:
    """A writer other than ours (its checksums right, its content wrong): refused with ValueError, never another error."""
    parts = written(stored([COLUMNS["status"][:25000], COLUMNS["id"][:25000], COLUMNS["count"][:25000]]), 25000)
    assert [c["kind"] for c in header_of(parts)["columns"]] == ["pooled", "texts", "numbers"]
    read_columns(rewritten(parts, lambda h: None))
    with pytest.raises(ValueError):
        read_columns(rewritten(parts, change))


@pytest.mark.parametrize(
    "block",
    [
        b"[[1]]",  # unhashable distinct values
        b'["ACTIVE", "ACTIVE"]',
        b'["ACTIVE", NaN]',
        b"[" * 100_000,  # deeper than the parser goes
        b'{"a": 1}',
    ],
)
def test_a_pooled_column_of_values_no_writer_of_ours_makes_is_refused(block: bytes) -> None:
    parts = written(stored([COLUMNS["status"][:10]]), 10)
    with pytest.raises(ValueError):
        read_columns(rewritten(parts, lambda h: None, block=(0, block)))


def test_dates_only_in_the_form_the_writer_writes() -> None:
    days = stored([[date(2026, 1, 2), None]])
    parts = written(days, 2)
    assert typed(read_columns(parts)[0][0].slice(0, 2)) == [(date, date(2026, 1, 2)), (type(None), None)]
    spec = header_of(parts)["columns"][0]
    codes = parts[0][spec["blocks"][0] :]
    for text in (b'["2026-W01-5"]', b'["20260102"]'):
        header = header_of(parts)
        header["columns"][0]["blocks"] = [len(text), len(codes)]
        header["columns"][0]["crc"] = zlib.crc32(text + codes)
        body = json.dumps(header).encode()
        with pytest.raises(ValueError):
            read_columns([text + codes, MAGIC + b"%08x\n" % zlib.crc32(body) + body])
