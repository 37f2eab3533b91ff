"""Column stores written to bytes and read back: a past run reopens without decoding its pages again.

Why: a revisit of a stored 100,000-row report read every page from the cache,
decoded its JSON, took each row apart and pooled 2.1 million values again:
≈ 2.5 s on a 2-core jump host, nearly all of it hashing strings that were
already pooled once (issue 12, `bench/bench_revisit.py`). The stores
themselves are mostly arrays (codes, numbers, text ends) and a few distinct
values, so written as they are they read back in a fraction of that.

The format is ours and plain: a magic line, a JSON header (the row count, the
caller's facts, and per column its kind and the sizes of its blocks), then the
blocks: arrays as their machine bytes (the byte order is in the header),
texts as UTF-8 (lone surrogates kept), distinct and plain values as JSON,
and a CRC-32 of the blocks. No pickle: reading a cache file never runs code.
Reading checks the checksum, every size and every code against what it points
to, and raises `ValueError` on anything else, so a damaged file is a miss,
not a wrong row or a crash later.

Only what reads back exactly is written: a column holding nested values
(lists, dicts), dates and times outside a pooled column, or non-finite
floats in a plain column raises `Unstorable`, and the caller keeps the
pages alone. Values are never changed on the way: a pooled date comes back a
`date`, `True` stays `True` and `1.0` stays a float.
"""

from __future__ import annotations

import json
import math
import struct
import sys
import zlib
from array import array
from collections.abc import Sequence
from datetime import date
from typing import Any

from flextui.render.columns import Numbers, Plain, Pooled, Store, Texts

__all__ = ["MAGIC", "Unstorable", "read_columns", "write_columns"]

MAGIC = b"flextui-columns 1\n"
_HEADER = struct.Struct("<I")
_POOLED_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool, "date": date}
_CODES = frozenset({"H", "I"})
_NUMBERS = frozenset({"q", "d"})
_SCALARS = (str, int, float, bool, type(None))


class Unstorable(ValueError):
    """A column whose values would not read back exactly (nested, times, NaN in a list): not written."""


def write_columns(stores: Sequence[Store], count: int, facts: dict[str, Any] | None = None) -> bytes:
    """The first `count` rows of `stores` (and the caller's JSON-able `facts`) as bytes for :func:`read_columns`.

    Safe in a worker thread while rows are appended on the loop: stores only
    grow, and only the first `count` rows are read.
    """
    blocks: list[bytes] = []
    specs = [_write(store, count, blocks) for store in stores]
    crc = 0
    for data in blocks:
        crc = zlib.crc32(data, crc)
    header = json.dumps(
        {"count": count, "byteorder": sys.byteorder, "crc": crc, "facts": facts or {}, "columns": specs}, allow_nan=False
    ).encode()
    return b"".join([MAGIC, _HEADER.pack(len(header)), header, *blocks])


def read_columns(data: bytes) -> tuple[list[Store], int, dict[str, Any]]:
    """The stores, row count and facts :func:`write_columns` wrote; `ValueError` if `data` is not exactly that."""
    view = memoryview(data)
    if bytes(view[: len(MAGIC)]) != MAGIC:
        raise ValueError("not a column file")
    at = len(MAGIC) + _HEADER.size
    if len(view) < at:
        raise ValueError("truncated header")
    (size,) = _HEADER.unpack(view[len(MAGIC) : at])
    header = json.loads(bytes(view[at : at + size]))
    if not isinstance(header, dict) or header.get("byteorder") != sys.byteorder:
        raise ValueError("written on another kind of machine")
    if zlib.crc32(view[at + size :]) != header.get("crc"):
        raise ValueError("damaged: the checksum differs")
    count, facts, specs = header.get("count"), header.get("facts"), header.get("columns")
    if not isinstance(count, int) or count < 0 or not isinstance(facts, dict) or not isinstance(specs, list):
        raise ValueError("bad header")
    reader = _Blocks(view, at + size)
    stores = [_read(spec, count, reader) for spec in specs]
    if reader.at != len(view):
        raise ValueError("trailing bytes")
    return stores, count, facts


# -- writing ---------------------------------------------------------------------------------------


def _write(store: Store, count: int, blocks: list[bytes]) -> dict[str, Any]:
    def block(data: bytes) -> int:
        blocks.append(data)
        return len(data)

    if isinstance(store, Pooled):
        codes = store.codes[:count]
        distinct = store.distinct[: (max(codes) + 1) if codes else 1]
        kind = store.kind
        name = next((n for n, t in _POOLED_TYPES.items() if t is kind), None)
        if kind is not None and name is None:
            raise Unstorable(f"pooled values of kind {kind.__name__}")
        values = [v.isoformat() for v in distinct[1:]] if kind is date else distinct[1:]
        return {
            "kind": "pooled",
            "type": name,
            "codes": codes.typecode,
            "blocks": [block(json.dumps(values).encode()), block(codes.tobytes())],
        }
    if isinstance(store, Numbers):
        nulls = store.nulls
        return {
            "kind": "numbers",
            "type": store.array.typecode,
            "blocks": [block(store.array[:count].tobytes()), block(b"" if nulls is None else bytes(nulls[:count]))],
        }
    if isinstance(store, Texts):
        return _write_texts(store, count, block)
    if isinstance(store, Plain):
        values = store.values[:count]
        if not all(isinstance(v, _SCALARS) for v in values) or any(isinstance(v, float) and not math.isfinite(v) for v in values):
            raise Unstorable("nested or non-finite values")
        return {"kind": "plain", "blocks": [block(json.dumps(values, allow_nan=False).encode())]}
    raise Unstorable(f"a {type(store).__name__} column")


def _write_texts(store: Texts, count: int, block: Any) -> dict[str, Any]:
    texts: list[str] = []
    lengths = array("q")  # values a chunk, in order
    ends = array("I")
    for first, chunk, chunk_ends in zip(store.firsts, store.chunks, store.ends, strict=False):
        if first >= count:
            break
        taken = min(len(chunk_ends), count - first)
        part = chunk_ends[:taken]  # a chunk merged since is this one extended: its first values are the same
        texts.append(chunk[: part[-1]] if taken else "")
        lengths.append(taken)
        ends.extend(part)
    nulls = store.nulls
    text = "".join(texts)
    return {
        "kind": "texts",
        "chars": len(text),
        "blocks": [
            block(lengths.tobytes()),
            block(ends.tobytes()),
            block(text.encode("utf-8", "surrogatepass")),
            block(b"" if nulls is None else bytes(nulls[:count])),
        ],
    }


# -- reading ---------------------------------------------------------------------------------------


class _Blocks:
    """The blocks after the header, taken in order, each of the size its column's spec gives."""

    def __init__(self, view: memoryview, at: int) -> None:
        self.view = view
        self.at = at

    def take(self, size: Any) -> memoryview:
        if not isinstance(size, int) or size < 0 or self.at + size > len(self.view):
            raise ValueError("a block past the end")
        part = self.view[self.at : self.at + size]
        self.at += size
        return part


def _array(typecode: str, data: memoryview) -> array[Any]:
    out = array(typecode)
    if len(data) % out.itemsize:
        raise ValueError("a block that is not whole items")
    out.frombytes(data)
    return out


def _nulls(data: memoryview, count: int) -> bytearray | None:
    if not data:
        return None
    if len(data) != count:
        raise ValueError("nulls of another length")
    return bytearray(data)


def _read(spec: Any, count: int, blocks: _Blocks) -> Store:
    if not isinstance(spec, dict) or not isinstance(spec.get("blocks"), list):
        raise ValueError("bad column")
    sizes = spec["blocks"]
    kind = spec.get("kind")
    if kind == "pooled" and len(sizes) == 2 and spec.get("codes") in _CODES:
        return _read_pooled(spec, count, blocks.take(sizes[0]), blocks.take(sizes[1]))
    if kind == "numbers" and len(sizes) == 2 and spec.get("type") in _NUMBERS:
        store = Numbers(spec["type"])
        store.array = _array(spec["type"], blocks.take(sizes[0]))
        store.nulls = _nulls(blocks.take(sizes[1]), count)
        if len(store.array) != count:
            raise ValueError("numbers of another length")
        return store
    if kind == "texts" and len(sizes) == 4:
        return _read_texts(spec, count, *(blocks.take(size) for size in sizes))
    if kind == "plain" and len(sizes) == 1:
        values = json.loads(bytes(blocks.take(sizes[0])))
        if not isinstance(values, list) or len(values) != count or not all(isinstance(v, _SCALARS) for v in values):
            raise ValueError("plain values of another shape")
        return Plain(values)
    raise ValueError(f"unknown column {kind!r}")


def _read_pooled(spec: dict[str, Any], count: int, distinct_data: memoryview, codes_data: memoryview) -> Store:
    name = spec.get("type")
    if name is not None and name not in _POOLED_TYPES:
        raise ValueError("pooled values of an unknown kind")
    kind = None if name is None else _POOLED_TYPES[name]
    values = json.loads(bytes(distinct_data))
    if not isinstance(values, list):
        raise ValueError("distinct values that are not a list")
    if kind is date:
        values = [date.fromisoformat(v) if isinstance(v, str) else None for v in values]
    if kind is not None and not all(type(v) is kind for v in values):  # the exact kind: True is an int too
        raise ValueError("distinct values of another kind")
    if len(set(values)) != len(values) or (kind is None and values):
        raise ValueError("distinct values repeated")
    codes = _array(spec["codes"], codes_data)
    if len(codes) != count or (codes and max(codes) > len(values)):
        raise ValueError("codes of another length or past the values")
    store = Pooled()
    store.kind = kind
    store.distinct = [None, *values]
    store.index = {value: code for code, value in enumerate(store.distinct)}
    store.codes = codes
    return store


def _read_texts(
    spec: dict[str, Any], count: int, lengths_data: memoryview, ends_data: memoryview, text_data: memoryview, nulls_data: memoryview
) -> Store:
    lengths = _array("q", lengths_data)
    ends = _array("I", ends_data)
    text = bytes(text_data).decode("utf-8", "surrogatepass")
    if sum(lengths) != count or len(ends) != count or len(text) != spec.get("chars") or min(lengths, default=1) < 1:
        raise ValueError("texts of another length")
    store = Texts()
    at = row = 0
    for taken in lengths:
        part = ends[row : row + taken]
        if part[-1] > len(text) - at or any(b < a for a, b in zip(part, part[1:])):
            raise ValueError("text ends out of order")
        store.firsts.append(row)
        store.ends.append(part)
        store.chunks.append(text[at : at + part[-1]])
        at += part[-1]
        row += taken
    if at != len(text):
        raise ValueError("text left over")
    store.nulls = _nulls(nulls_data, count)
    store.count = count
    return store
