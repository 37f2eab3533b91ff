"""Column stores: a grid's values kept column by column, each as compactly as its values allow.

Why: a million report rows kept as row tuples cost ≈ 550 B a row before any
sort or search (the 21-slot tuple alone is 208 B, each unique id a 60-70 B
string object), about twice what a jump host can spare for a 30-day report
(issue 12, `bench/bench_million.py`). Kept by column, a value costs what its
kind needs:

* :class:`Pooled`: values that repeat (status, product, account, user): each
  distinct value once, and a 2-byte code a row (4 bytes past 65,535 distinct);
* :class:`Numbers`: mostly-unique ints or floats (timestamps, amounts):
  8 bytes a row in an :class:`array.array`, nulls in a byte mask made when the
  first one arrives;
* :class:`Texts`: mostly-unique strings (ids): a page's characters in one
  string and each value's end in an array, so a 14-character id costs about
  18 bytes instead of 71;
* :class:`Plain`: anything else (mixed kinds, lists, dicts): a list.

Every column starts pooled and moves to one of the others when it turns out
mostly unique (past 20,000 rows, more distinct values than half its rows:
the rule RowPacker used before the stores pooled), or when a value of
another kind arrives (an int among floats, a list). A store gives back the
very values it was given, types included.

A page is appended in two steps: :meth:`Store.prepare` does the work (codes,
arrays, joined text, or the unique store a pooled column turns into) in any
thread without changing the rows anyone sees; :meth:`Store.take_prepared`, on
the event loop, only appends it, or says it no longer fits (another page came
first) and the page is appended the slow way. Stores only grow, and a
conversion builds a new store without touching the old one: a snapshot holding
the stores it saw (an export writing in a worker thread) keeps reading the
same rows while more pages stream in.
"""

from __future__ import annotations

import operator
import threading
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from datetime import date
from itertools import accumulate, compress, repeat
from typing import Any

__all__ = ["SMALL_CHUNK", "Numbers", "Plain", "Pooled", "Store", "StoreValues", "Texts", "new_store"]

SMALL_CHUNK = 1024
"""A :class:`Texts` chunk (a page, usually) with fewer values takes the next values in, rather than a chunk of their own."""

UNIQUE_AFTER = 20_000
"""Rows a pooled column must hold before it may be judged mostly unique."""


def _mostly_unique(distinct: int, rows: int) -> bool:
    """Whether a column of `rows` rows with `distinct` distinct values should stop being pooled."""
    return rows >= UNIQUE_AFTER and distinct * 2 > rows


_NONE = type(None)
_INT64 = (-(2**63), 2**63 - 1)


class Store:
    """One column's values, by row number (arrival order)."""

    __slots__ = ()

    def __len__(self) -> int:
        raise NotImplementedError

    def __getitem__(self, i: int) -> Any:
        raise NotImplementedError

    def extend(self, values: Sequence[Any]) -> Store:
        """Append `values`; returns the store that now holds the column (this one, or a new kind)."""
        raise NotImplementedError

    def slice(self, start: int, stop: int) -> list[Any]:
        """The values of rows `start` to `stop` (exclusive)."""
        return list(map(self.__getitem__, range(start, stop)))

    def take(self, ids: Iterable[int]) -> list[Any]:
        """The values of the rows `ids`, in that order."""
        return list(map(self.__getitem__, ids))

    def prepare(self, values: Sequence[Any]) -> Any:
        """`values` made ready to append, in any thread (the rows seen do not change); None: nothing to gain."""
        return None

    def take_prepared(self, prepared: Any) -> Store | None:
        """Append what :meth:`prepare` made; the store now holding the column, or None if it no longer fits."""
        return None


UNIQUE: Any = object()
"""What :meth:`Pooled.encode` says of values that would make its column mostly unique."""


class _Replace:
    """A pooled column's next page, prepared as the unique store that takes its place (made off the event loop)."""

    __slots__ = ("before", "store")

    def __init__(self, before: int, store: Store) -> None:
        self.before = before
        self.store = store


class StoreValues(Sequence[Any]):
    """The first `count` values of a store as a sequence (for code that takes a column's values as one)."""

    __slots__ = ("size", "store")

    def __init__(self, store: Store, count: int) -> None:
        self.store = store
        self.size = count

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return (
                [self[j] for j in range(*i.indices(self.size))] if i.step not in (None, 1) else self.store.slice(*i.indices(self.size)[:2])
            )
        if i < 0:
            i += self.size
        if not 0 <= i < self.size:
            raise IndexError(i)
        return self.store[i]


def new_store() -> Store:
    return Pooled()


class Plain(Store):
    """Any values, in a list."""

    __slots__ = ("values",)

    def __init__(self, values: Iterable[Any] = ()) -> None:
        self.values: list[Any] = list(values)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i: int) -> Any:
        return self.values[i]

    def extend(self, values: Sequence[Any]) -> Store:
        self.values.extend(values)
        return self

    def slice(self, start: int, stop: int) -> list[Any]:
        return self.values[start:stop]

    def take(self, ids: Iterable[int]) -> list[Any]:
        values = self.values
        return [values[i] for i in ids]


_POOLED_KINDS = frozenset({str, int, bool, date})
"""Kinds whose equal values are the same value (not floats: -0.0 == 0.0; not datetimes: 12:00Z == 13:00+01:00)."""


_ALIASED = frozenset({int, bool})
"""Pooled kinds with equal values of another kind (texts and dates equal only their own kind)."""


def _kinds(values: Sequence[Any]) -> tuple[set[type], bool]:
    """The types of the non-null `values`, and whether there is a null."""
    kinds = set(map(type, values))
    has_null = _NONE in kinds
    kinds.discard(_NONE)
    return kinds, has_null


def _unpooled(kinds: set[type], values: list[Any]) -> Store:
    """The store for the values of a column that cannot or should not be pooled."""
    kind = next(iter(kinds)) if len(kinds) == 1 else None
    if kind is str:
        return Texts().extend(values)
    if kind is int or kind is float:
        return Numbers("q" if kind is int else "d").extend(values)
    return Plain(values)


class Pooled(Store):
    """Repeating values of one kind: the distinct ones once, a code a row (0 is None).

    A page is taken in two steps so that the costly one can run in a worker
    thread while the event loop reads the rows: :meth:`encode` finds the
    page's codes (adding new distinct values, under the store's lock; rows
    never see a value no code points to), :meth:`adopt` appends them.
    """

    __slots__ = ("codes", "distinct", "index", "kind", "lock")

    def __init__(self) -> None:
        self.distinct: list[Any] = [None]
        self.index: dict[Any, int] = {None: 0}
        self.codes: array[int] = array("H")
        self.kind: type | None = None
        """The one type of the non-null values (values of one type never compare equal across types)."""
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, i: int) -> Any:
        return self.distinct[self.codes[i]]

    def values(self) -> list[Any]:
        return self.slice(0, len(self.codes))

    def slice(self, start: int, stop: int) -> list[Any]:
        distinct = self.distinct
        return [distinct[code] for code in self.codes[start:stop]]

    def take(self, ids: Iterable[int]) -> list[Any]:
        distinct, codes = self.distinct, self.codes  # comprehensions: twice as fast as map over bound __getitem__
        return [distinct[codes[i]] for i in ids]

    def extend(self, values: Sequence[Any]) -> Store:
        codes = self.encode(values)
        if codes is None:
            kinds, _ = _kinds(values)
            return _unpooled(kinds | ({self.kind} if self.kind else set()), [*self.values(), *values])
        if codes is UNIQUE:
            return _unpooled({self.kind} if self.kind else set(), [*self.values(), *values])
        return self.adopt(codes)

    def encode(self, values: Sequence[Any]) -> Any:
        """The codes of `values` (new distinct values get theirs); None for values this store cannot pool;
        `UNIQUE` when with them the column would be mostly unique (they are not pooled then: a refresh's
        100,000 ids put in the pool only to be taken out again cost seconds)."""
        with self.lock:
            index = self.index
            try:
                # None where a value is new (None itself is code 0); a store still empty knows none of them
                found: list[int | None] = list(map(index.get, values)) if len(index) > 1 else [None]
            except TypeError:  # unhashable values (lists, dicts)
                return None
            kinds = {self.kind} if self.kind is not None else set()
            if None in found:
                try:
                    fresh = set(compress(values, map(operator.is_, repeat(None), found))) if len(index) > 1 else set(values)
                except TypeError:
                    return None
                fresh.discard(None)
                kinds |= set(map(type, fresh))
                if kinds & _ALIASED:  # True == 1: a value "seen before" may be of another kind
                    kinds |= _kinds(values)[0]
                if len(kinds) > 1 or not kinds <= _POOLED_KINDS:  # two kinds: 1 == 1.0 == True would share a code
                    return None
                self.kind = next(iter(kinds), None)
                distinct = self.distinct
                rows = len(self.codes) + len(values)
                if _mostly_unique(len(distinct) - 1 + len(fresh), rows):
                    return UNIQUE
                first, added = len(distinct), list(fresh)
                distinct.extend(added)  # values first: a code never points past them
                index.update(zip(added, range(first, first + len(added))))
                found = list(map(index.__getitem__, values))
            elif kinds & _ALIASED and len(kinds | _kinds(values)[0]) > 1:
                return None
            codes = array("H" if len(self.distinct) <= 0x10000 else "I")
            codes.fromlist(found)  # type: ignore[arg-type]  # no None left: every value has a code now
            return codes

    def adopt(self, codes: array[int]) -> Store:
        """Append the rows `codes` (from :meth:`encode` of this store); returns the store now holding the column."""
        if codes.typecode != self.codes.typecode:
            if self.codes.typecode == "H":
                self.codes = array("I", self.codes)
            if codes.typecode == "H":
                codes = array("I", codes)
        self.codes.extend(codes)
        if _mostly_unique(len(self.distinct) - 1, len(self.codes)):
            return _unpooled({self.kind} if self.kind else set(), self.values())
        return self

    def prepare(self, values: Sequence[Any]) -> Any:
        codes = self.encode(values)
        if codes is None:
            return None
        if codes is UNIQUE or _mostly_unique(len(self.distinct) - 1, len(self.codes) + len(values)):  # the column turns mostly unique
            before = len(self.codes)
            replacement = _unpooled({self.kind} if self.kind else set(), self.slice(0, before) + list(values))
            return _Replace(before, replacement)
        return codes

    def take_prepared(self, prepared: Any) -> Store | None:
        if isinstance(prepared, _Replace):
            return prepared.store if len(self.codes) == prepared.before else None
        return self.adopt(prepared)


class Numbers(Store):
    """Ints (64-bit) or floats in an array; a byte a row marks nulls once there is one."""

    __slots__ = ("array", "kind", "nulls")

    def __init__(self, typecode: str) -> None:
        self.array: array[Any] = array(typecode)
        self.kind: type = int if typecode == "q" else float
        self.nulls: bytearray | None = None

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, i: int) -> Any:
        nulls = self.nulls
        if nulls is not None and nulls[i]:
            return None
        return self.array[i]

    def _with_nulls(self, values: list[Any], nulls: bytearray | None) -> list[Any]:
        if nulls is not None and any(nulls):
            return [None if n else v for v, n in zip(values, nulls, strict=True)]
        return values

    def slice(self, start: int, stop: int) -> list[Any]:
        nulls = self.nulls
        return self._with_nulls(self.array[start:stop].tolist(), None if nulls is None else nulls[start:stop])

    def take(self, ids: Iterable[int]) -> list[Any]:
        if self.nulls is None:
            numbers = self.array
            return [numbers[i] for i in ids]
        return list(map(self.__getitem__, ids))

    def extend(self, values: Sequence[Any]) -> Store:
        prepared = self.prepare(values)
        if prepared is None:
            return Plain(self.slice(0, len(self))).extend(values)
        return self.take_prepared(prepared)

    def prepare(self, values: Sequence[Any]) -> tuple[array[Any], bytearray | None] | None:
        kinds, has_null = _kinds(values)
        if kinds - {self.kind}:
            return None
        numbers = [0 if v is None else v for v in values] if has_null else values
        if self.kind is int and numbers and (min(numbers) < _INT64[0] or max(numbers) > _INT64[1]):
            return None
        return array(self.array.typecode, numbers), bytearray([v is None for v in values]) if has_null else None

    def take_prepared(self, prepared: tuple[array[Any], bytearray | None]) -> Store:
        numbers, nulls = prepared
        if nulls is not None and self.nulls is None:
            self.nulls = bytearray(len(self.array))
        if self.nulls is not None:
            self.nulls.extend(nulls if nulls is not None else bytes(len(numbers)))
        self.array.extend(numbers)
        return self


class Texts(Store):
    """Strings kept a page at a time: the page's characters in one string, each value's end in an array."""

    __slots__ = ("chunks", "count", "ends", "firsts", "nulls")

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.ends: list[array[int]] = []
        self.firsts: list[int] = []
        """The row number of each chunk's first value."""
        self.nulls: bytearray | None = None
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> Any:
        if i < 0:
            i += self.count
        if not 0 <= i < self.count:
            raise IndexError(i)
        nulls = self.nulls
        if nulls is not None and nulls[i]:
            return None
        k = bisect_right(self.firsts, i) - 1
        j = i - self.firsts[k]
        ends = self.ends[k]
        return self.chunks[k][ends[j - 1] if j else 0 : ends[j]]

    def slice(self, start: int, stop: int) -> list[Any]:
        stop = min(stop, self.count)
        first = start
        out: list[Any] = []
        k = bisect_right(self.firsts, start) - 1
        while start < stop:
            j = start - self.firsts[k]
            ends, text = self.ends[k], self.chunks[k]
            last = min(len(ends), j + stop - start)
            starts = ends[j - 1 : last - 1] if j else [0, *ends[: last - 1]]
            out.extend(text[a:b] for a, b in zip(starts, ends[j:last], strict=True))
            start += last - j
            k += 1
        nulls = self.nulls
        if nulls is not None and any(nulls[first:stop]):
            out = [None if nulls[first + n] else v for n, v in enumerate(out)]
        return out

    def take(self, ids: Iterable[int]) -> list[Any]:
        ids = ids if isinstance(ids, list) else list(ids)
        if ids and (min(ids) < 0 or max(ids) >= self.count):
            raise IndexError(max(ids))
        firsts, ends, chunks = self.firsts, self.ends, self.chunks
        out: list[Any] = []
        add = out.append
        for i in ids:
            k = bisect_right(firsts, i) - 1
            j = i - firsts[k]
            chunk_ends = ends[k]
            add(chunks[k][chunk_ends[j - 1] if j else 0 : chunk_ends[j]])
        nulls = self.nulls
        if nulls is not None:
            out = [None if nulls[i] else v for i, v in zip(ids, out, strict=True)]
        return out

    def extend(self, values: Sequence[Any]) -> Store:
        prepared = self.prepare(values)
        if prepared is None:
            return Plain(self.slice(0, self.count)).extend(values)
        return self.take_prepared(prepared)

    def prepare(self, values: Sequence[Any]) -> tuple[str, array[int], bytearray | None] | None:
        texts: Sequence[str] = values
        try:
            text = "".join(values)  # all strings (the usual case), checked in C
            nulls = None
        except TypeError:
            kinds, _ = _kinds(values)
            if kinds - {str}:
                return None
            texts = ["" if v is None else v for v in values]
            text = "".join(texts)
            nulls = bytearray([v is None for v in values])
        return text, array("I", accumulate(map(len, texts))), nulls

    def take_prepared(self, prepared: tuple[str, array[int], bytearray | None]) -> Store:
        text, ends, nulls = prepared
        if not ends:
            return self
        if nulls is not None and self.nulls is None:
            self.nulls = bytearray(self.count)
        if self.nulls is not None:
            self.nulls.extend(nulls if nulls is not None else bytes(len(ends)))
        if self.ends and len(self.ends[-1]) < SMALL_CHUNK:  # rows appended a few at a time share a chunk
            base = len(self.chunks[-1])
            merged = array("I", self.ends[-1])
            merged.extend(array("I", (base + end for end in ends)))
            self.ends[-1], self.chunks[-1] = merged, self.chunks[-1] + text
        else:
            self.firsts.append(self.count)
            self.ends.append(ends)
            self.chunks.append(text)
        self.count += len(ends)
        return self
