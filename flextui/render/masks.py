"""Row masks over column stores: how a filter finds its rows without a row tuple or a per-row haystack.

Why: with a million rows (issue 12) a filter cannot afford a Python call per
row per term, nor a search text per row (it cost 228 B a row, more than the
compact stores themselves). So a term is answered column by column:

* on a :class:`~flextui.render.columns.Pooled` column it is asked once per
  distinct value (a few hundred, usually), and the answer spread over the rows
  through their codes in C (``map`` over the code array);
* on the other columns, free text is found in a search text kept per column
  in slices of rows (the slice's values casefolded and joined by U+001F, a
  character no one types), so a slice without the needle costs one C-level
  ``in`` and only slices that hold it are split;
* everything else maps the value test over the column's values.

The answer for a range of rows is a *mask*: one byte, 0 or 1, a row. Terms are
combined as big integers (AND, OR in C) and the matching row ids come out of
``itertools.compress``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import compress, repeat
from typing import Any

from flextui.render.columns import Pooled, Store, Texts

__all__ = ["SEPARATOR", "TextIndex", "ValueMask", "all_of", "any_of", "ids_of", "inverted"]

SEPARATOR = "\x1f"
_FLIP = bytes.maketrans(b"\x00\x01", b"\x01\x00")

TextsOf = Callable[[list[Any]], list[str]]
"""Makes the search texts (as displayed, not yet casefolded) of a column's values."""

Searched = tuple[int, TextsOf, bool]
"""A column searched: its index, its values' search texts, and whether a string's search text is the string itself."""


def inverted(mask: bytes) -> bytes:
    return mask.translate(_FLIP)


def all_of(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "little") & int.from_bytes(b, "little")).to_bytes(len(a), "little")


def any_of(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "little") | int.from_bytes(b, "little")).to_bytes(len(a), "little")


def ids_of(mask: bytes, start: int) -> list[int]:
    """The row ids a mask of the rows from `start` selects."""
    return list(compress(range(start, start + len(mask)), mask))


def _spread(flags: bytes | bytearray, store: Pooled, start: int, stop: int) -> bytes:
    """A mask of rows from per-distinct-value flags."""
    return bytes([flags[code] for code in store.codes[start:stop]])


class ValueMask:
    """One value test over one column, remembering its answer per distinct value of a pooled column."""

    def __init__(self, index: int, test: Callable[[Any], bool]) -> None:
        self.index = index
        self.test = test
        self._store: Store | None = None
        self._flags = bytearray()

    def __call__(self, stores: list[Store], start: int, stop: int) -> bytes:
        store = stores[self.index]
        if isinstance(store, Pooled):
            if store is not self._store:
                self._store, self._flags = store, bytearray()
            known = len(self._flags)
            if known < len(store.distinct):
                self._flags.extend(map(self.test, store.distinct[known:]))
            return _spread(self._flags, store, start, stop)
        return bytes(map(self.test, store.slice(start, stop)))


SLICE = 20_000
"""Rows a slice of search text holds at most (their texts are all made at once before being joined)."""


class _Slices:
    """A column's search text in slices of rows: `firsts[k]` is the first row of `texts[k]`."""

    __slots__ = ("covered", "firsts", "store", "texts")

    def __init__(self, store: Store) -> None:
        self.store = store
        self.firsts: list[int] = []
        self.texts: list[str] = []
        self.covered = 0


class _Folded:
    """A :class:`Texts` store's chunks casefolded, searched where they lie (no text a row: ids are most of a report).

    A chunk whose casefold changes its length ("ß" → "ss") no longer lines up
    with the value ends, so it is searched value by value instead (None here).
    """

    __slots__ = ("sizes", "store", "texts")

    def __init__(self, store: Texts) -> None:
        self.store = store
        self.texts: list[str | None] = []
        self.sizes: list[int] = []  # the chunk's length when folded (the last chunk may grow)

    def chunk(self, k: int) -> str | None:
        raw = self.store.chunks[k]
        while len(self.sizes) <= k:
            self.texts.append(None)
            self.sizes.append(-1)
        if self.sizes[k] != len(raw):
            folded = raw.casefold()
            self.texts[k] = raw if folded == raw else folded if len(folded) == len(raw) else None
            self.sizes[k] = len(raw)
        return self.texts[k]

    def covered(self) -> int:
        """Rows whose chunks are folded (from the first)."""
        store = self.store
        for k, size in enumerate(self.sizes):
            if size != len(store.chunks[k]):
                return store.firsts[k]
        return len(store) if len(self.sizes) == len(store.chunks) else store.firsts[len(self.sizes)]

    def build(self, budget: int) -> int:
        """Fold chunks worth up to `budget` rows; the rows folded."""
        store, done = self.store, 0
        for k in range(len(store.chunks)):
            if done >= budget:
                break
            if k >= len(self.sizes) or self.sizes[k] != len(store.chunks[k]):
                self.chunk(k)
                done += len(store.ends[k])
        return done

    def hits(self, needle: str, start: int, stop: int) -> int:
        store = self.store
        hits = bytearray(stop - start)
        size = len(needle)
        for k in range(max(0, bisect_right(store.firsts, start) - 1), len(store.chunks)):
            first = store.firsts[k]
            if first >= stop:
                break
            text, ends = self.chunk(k), store.ends[k]
            if text is None:  # searched value by value
                values = store.slice(first, first + len(ends))
                rows = bytes(map(str.__contains__, ("" if v is None else v.casefold() for v in values), repeat(needle)))
                lo, hi = max(start, first), min(stop, first + len(rows))
                hits[lo - start : hi - start] = rows[lo - first : hi - first]
                continue
            pos = text.find(needle)
            while pos >= 0:
                row = bisect_right(ends, pos)
                if pos + size <= ends[row]:  # within one value
                    if start <= first + row < stop:
                        hits[first + row - start] = 1
                    pos = text.find(needle, ends[row])
                else:
                    pos = text.find(needle, pos + 1)
        return int.from_bytes(hits, "little")


class TextIndex:
    """Free-text search over the visible columns' stores, built on demand or ahead in bounded steps."""

    def __init__(self) -> None:
        self._pooled: dict[int, tuple[Pooled, list[str]]] = {}  # column -> casefolded text per distinct value
        self._slices: dict[int, _Slices] = {}
        self._folded: dict[int, _Folded] = {}

    def reset(self) -> None:
        self._pooled.clear()
        self._slices.clear()
        self._folded.clear()

    def _folded_for(self, index: int, store: Texts) -> _Folded:
        folded = self._folded.get(index)
        if folded is None or folded.store is not store:
            folded = self._folded[index] = _Folded(store)
        return folded

    # ---------------------------------------------------------------- building

    def _pool_texts(self, index: int, store: Pooled, texts: TextsOf, budget: int | None = None) -> list[str]:
        known = self._pooled.get(index)
        if known is None or known[0] is not store:
            known = self._pooled[index] = (store, [""])  # code 0 is None: no text
        done = known[1]
        missing = len(store.distinct) - len(done)
        if missing > 0:
            take = missing if budget is None else min(missing, budget)
            done.extend(t.casefold() for t in texts(store.distinct[len(done) : len(done) + take]))
        return done

    def _slices_for(self, index: int, store: Store, texts: TextsOf, upto: int, budget: int | None = None) -> _Slices:
        slices = self._slices.get(index)
        if slices is None or slices.store is not store:
            slices = self._slices[index] = _Slices(store)
        stop = upto if budget is None else min(upto, slices.covered + budget)
        while slices.covered < stop:
            first = slices.covered
            words = texts(store.slice(first, min(stop, first + SLICE)))
            text = SEPARATOR.join(words)
            if text.count(SEPARATOR) != len(words) - 1:  # a value holds the separator itself: it must not split a row
                text = SEPARATOR.join(w.replace(SEPARATOR, " ") for w in words)
            slices.firsts.append(first)
            slices.texts.append(text.casefold())
            slices.covered = first + len(words)
        return slices

    def build(self, columns: list[Searched], stores: list[Store], budget: int) -> bool:
        """Index up to `budget` more rows (or distinct values) of the `columns`; True when all are complete."""
        for index, texts, raw in columns:
            store = stores[index]
            if budget <= 0:
                break
            if raw and isinstance(store, Texts):
                budget -= self._folded_for(index, store).build(budget)
            elif isinstance(store, Pooled):
                before = len(self._pool_texts(index, store, texts, 0))
                budget -= len(self._pool_texts(index, store, texts, budget)) - before
            else:
                known = self._slices.get(index)
                before = known.covered if known is not None and known.store is store else 0
                budget -= self._slices_for(index, store, texts, len(store), budget).covered - before
        return self.complete(columns, stores)

    def complete(self, columns: list[Searched], stores: list[Store]) -> bool:
        for index, _, raw in columns:
            store = stores[index]
            if raw and isinstance(store, Texts):
                if self._folded_for(index, store).covered() < len(store):
                    return False
            elif isinstance(store, Pooled):
                known = self._pooled.get(index)
                if known is None or known[0] is not store or len(known[1]) < len(store.distinct):
                    return False
            else:
                slices = self._slices.get(index)
                if slices is None or slices.store is not store or slices.covered < len(store):
                    return False
        return True

    # ---------------------------------------------------------------- searching

    def mask(self, needle: str, columns: list[Searched], stores: list[Store], start: int, stop: int) -> bytes:
        """Rows `start`..`stop` whose text in any of `columns` contains `needle` (casefolded)."""
        found = 0
        for index, texts, raw in columns:
            store = stores[index]
            if raw and isinstance(store, Texts):
                found |= self._folded_for(index, store).hits(needle, start, stop)
            elif isinstance(store, Pooled):
                words = self._pool_texts(index, store, texts)
                flags = bytes(map(str.__contains__, words, repeat(needle)))
                if 1 in flags:
                    found |= int.from_bytes(_spread(flags, store, start, stop), "little")
            else:
                found |= self._slice_hits(self._slices_for(index, store, texts, stop), needle, start, stop)
        return found.to_bytes(stop - start, "little")

    @staticmethod
    def _slice_hits(slices: _Slices, needle: str, start: int, stop: int) -> int:
        hits = bytearray(stop - start)
        firsts, texts = slices.firsts, slices.texts
        for k in range(max(0, bisect_right(firsts, start) - 1), len(texts)):
            first = firsts[k]
            if first >= stop:
                break
            text = texts[k]
            if needle not in text:
                continue
            rows = bytes(map(str.__contains__, text.split(SEPARATOR), repeat(needle)))
            lo, hi = max(start, first), min(stop, first + len(rows))
            hits[lo - start : hi - start] = rows[lo - first : hi - first]
        return int.from_bytes(hits, "little")
