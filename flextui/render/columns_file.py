"""Column stores written to bytes and read back: a past run reopens without decoding its pages again.

Why: a revisit of a stored 100,000-row report read every page from the cache,
decoded its JSON, took each row apart and pooled 2.1 million values again:
≈ 2.5 s on a 2-core jump host, nearly all of it hashing strings that were
already pooled once (issue 12, `bench/bench_revisit.py`). The stores
themselves are mostly arrays (codes, numbers, text ends) and a few distinct
values, so written as they are they read back in a fraction of that.

The format is ours and plain: a part a column, made one at a time (a
million-row run is never one string in memory), each its blocks: arrays as
their machine bytes, texts as UTF-8 (lone surrogates kept), distinct and
plain values as JSON; then a header part: a magic line and JSON (the row
count, the byte order, the caller's facts, and per column its kind, the
sizes of its blocks and a CRC-32 of its part). No pickle: reading a cache
file never runs code.
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
import sys
import zlib
from array import array
from collections.abc import Iterator, Sequence
from datetime import date
from typing import Any

from flextui.render.columns import Numbers, Plain, Pooled, Store, Texts

__all__ = ["MAGIC", "Unstorable", "read_columns", "write_columns"]

MAGIC = b"flextui-columns 2\n"
_POOLED_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool, "date": date}
_CODES = frozenset({"H", "I"})
_NUMBERS = frozenset({"q", "d"})
_SCALARS = (str, int, float, bool, type(None))


class Unstorable(ValueError):
    """A column whose values would not read back exactly (nested, times, NaN in a list): not written."""


def write_columns(stores: Sequence[Store], count: int, facts: dict[str, Any] | None = None) -> Iterator[bytes]:
    """The first `count` rows of `stores` (and the caller's JSON-able `facts`) as parts for :func:`read_columns`:
    one a column, made as they are asked for (a million rows never sit in memory as one string), then the header.

    `Unstorable` is raised before the first part. Safe in a worker thread while rows are appended on the
    loop: stores only grow, and only the first `count` rows are read.
    """
    for store in stores:
        _check_storable(store, count)
    return _parts(stores, count, facts or {})


def _parts(stores: Sequence[Store], count: int, facts: dict[str, Any]) -> Iterator[bytes]:
    specs = []
    for store in stores:
        blocks: list[bytes] = []
        spec = _write(store, count, blocks)
        part = b"".join(blocks)
        del blocks
        spec["crc"] = zlib.crc32(part)
        specs.append(spec)
        yield part
    header = json.dumps({"count": count, "byteorder": sys.byteorder, "facts": facts, "columns": specs}, allow_nan=False).encode()
    yield MAGIC + b"%08x\n" % zlib.crc32(header) + header


def read_columns(parts: Sequence[bytes]) -> tuple[list[Store], int, dict[str, Any]]:
    """The stores, row count and facts :func:`write_columns` wrote; `ValueError` if `parts` are not exactly that
    (whatever is wrong with them: a cache file is read as untrusted bytes)."""
    try:
        return _read_parts(parts)
    except ValueError:
        raise
    except Exception as exc:  # TypeError, RecursionError, …: a file no writer of ours made
        raise ValueError(f"not a column file ({type(exc).__name__})") from exc


def _read_parts(parts: Sequence[bytes]) -> tuple[list[Store], int, dict[str, Any]]:
    if not parts or not parts[-1].startswith(MAGIC):
        raise ValueError("not a column file")
    at = len(MAGIC) + 9
    crc, header_bytes = parts[-1][len(MAGIC) : at], parts[-1][at:]
    if crc != b"%08x\n" % zlib.crc32(header_bytes):
        raise ValueError("damaged: the header's checksum differs")
    header = _json(header_bytes)
    if not isinstance(header, dict) or header.get("byteorder") != sys.byteorder:
        raise ValueError("written on another kind of machine")
    count, facts, specs = header.get("count"), header.get("facts"), header.get("columns")
    if type(count) is not int or count < 0 or not isinstance(facts, dict) or not isinstance(specs, list) or len(specs) != len(parts) - 1:
        raise ValueError("bad header")
    stores = []
    for spec, part in zip(specs, parts, strict=False):
        if not isinstance(spec, dict) or zlib.crc32(part) != spec.get("crc"):
            raise ValueError("damaged: a column's checksum differs")
        reader = _Blocks(memoryview(part), 0)
        stores.append(_read(spec, count, reader))
        if reader.at != len(part):
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
    assert isinstance(store, Plain)  # _check_storable has refused anything else
    return {"kind": "plain", "blocks": [block(json.dumps(store.values[:count], allow_nan=False).encode())]}


def _check_storable(store: Store, count: int) -> None:
    """`Unstorable` unless the column's first `count` values would read back exactly."""
    if isinstance(store, Pooled):
        if store.kind is not None and store.kind not in _POOLED_TYPES.values():
            raise Unstorable(f"pooled values of kind {store.kind.__name__}")
    elif isinstance(store, Plain):
        values = store.values[:count]
        if not all(isinstance(v, _SCALARS) for v in values) or any(isinstance(v, float) and not math.isfinite(v) for v in values):
            raise Unstorable("nested or non-finite values")
    elif not isinstance(store, (Numbers, Texts)):
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


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} in a column file (never written)")


def _json(data: bytes | memoryview) -> Any:
    """JSON as the writer wrote it: no NaN or Infinity (`json.loads` would take them)."""
    return json.loads(bytes(data), parse_constant=_no_constant)


class _Blocks:
    """The blocks after the header, taken in order, each of the size its column's spec gives."""

    def __init__(self, view: memoryview, at: int) -> None:
        self.view = view
        self.at = at

    def take(self, size: Any) -> memoryview:
        if type(size) is not int or size < 0 or self.at + size > len(self.view):
            raise ValueError("a block past the end")
        part = self.view[self.at : self.at + size]
        self.at += size
        return part


def _one_of(value: Any, names: Any) -> bool:
    """Whether `value` is one of the texts `names` (a header's value may be anything, unhashable too)."""
    return isinstance(value, str) and value in names


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
    if kind == "pooled" and len(sizes) == 2 and _one_of(spec.get("codes"), _CODES):
        return _read_pooled(spec, count, blocks.take(sizes[0]), blocks.take(sizes[1]))
    if kind == "numbers" and len(sizes) == 2 and _one_of(spec.get("type"), _NUMBERS):
        store = Numbers(spec["type"])
        store.array = _array(spec["type"], blocks.take(sizes[0]))
        store.nulls = _nulls(blocks.take(sizes[1]), count)
        if len(store.array) != count:
            raise ValueError("numbers of another length")
        return store
    if kind == "texts" and len(sizes) == 4:
        return _read_texts(spec, count, *(blocks.take(size) for size in sizes))
    if kind == "plain" and len(sizes) == 1:
        values = _json(blocks.take(sizes[0]))
        if not isinstance(values, list) or len(values) != count or not all(isinstance(v, _SCALARS) for v in values):
            raise ValueError("plain values of another shape")
        return Plain(values)
    raise ValueError(f"unknown column {kind!r}")


def _read_pooled(spec: dict[str, Any], count: int, distinct_data: memoryview, codes_data: memoryview) -> Store:
    name = spec.get("type")
    if name is not None and not _one_of(name, _POOLED_TYPES):
        raise ValueError("pooled values of an unknown kind")
    kind = None if name is None else _POOLED_TYPES[name]
    values = _json(distinct_data)
    if not isinstance(values, list):
        raise ValueError("distinct values that are not a list")
    if kind is date:
        days = [date.fromisoformat(v) if isinstance(v, str) else None for v in values]
        if [d.isoformat() if d else None for d in days] != values:  # only the form the writer writes
            raise ValueError("dates not written as the writer writes them")
        values = days
    if (kind is None and values) or not all(type(v) is kind for v in values):  # the exact kind: True is an int too
        raise ValueError("distinct values of another kind")
    if len(set(values)) != len(values):
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
    chars = spec.get("chars")
    if sum(lengths) != count or len(ends) != count or type(chars) is not int or len(text) != chars or min(lengths, default=1) < 1:
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
