"""Pure-Python data model behind :class:`flextui.ui.widgets.grid.DataGrid`.

Why a separate model: the grid must stay responsive with 100,000+ rows that
stream in page by page, so every operation here is designed around cost:

* values are stored once, compactly, column by column in arrival order
  (:mod:`flextui.render.columns`: pooled codes, number arrays, packed ids;
  ``append_rows`` is O(new rows), and :meth:`GridModel.encode` does the
  costly part of it in a worker thread);
* the *view* (what the grid shows) is an index array into those rows, the
  result of filter + sort.  With neither active the view is the identity and
  no array is materialised at all;
* sorting uses a cached key list for the sort column (one key object per
  distinct value of a pooled column), so a streamed page is merged by Timsort
  in near-linear time instead of a full re-sort;
* the filter is answered column by column (:mod:`flextui.render.masks`): a
  pooled column once per distinct value, ids where they are stored, with a
  search index that is extended, not rebuilt, when pages arrive.

It has no Textual import so it can be unit-tested (and reused for export,
statistics and charts) without an event loop.  Every displayed value passes
the one sanitiser, :func:`flextui.render.text.clean`: control characters (ESC,
newlines, ...) become visible placeholders and 100 KB values are cut, so
nothing raw ever reaches the terminal.  Markup is never involved: the grid
paints plain text segments.

Filter syntax (see :func:`parse_filter`)
----------------------------------------
Whitespace separates terms; every term must match (AND).  Double or single
quotes group text with spaces (``name="acme corp"``).  Matching is
case-insensitive and against what the grid displays.

=================  ======================================================
``text``           substring of any *visible* column
``col=value``      the column's displayed value equals ``value``
                   (numbers compare numerically: ``qty=1`` matches ``1.0``;
                   ``col=`` matches empty/None)
``col~regex``      regular-expression search in the column (an invalid
                   regex is taken literally)
``col>x`` ``col>=x`` ``col<x`` ``col<=x``
                   ordered comparison, type-aware (numbers, ISO dates, text)
``col!=value``     shorthand for ``!col=value``
``!term``          inverts any term (``!expired``, ``!status=active``)
=================  ======================================================

``col`` is a column name or label (case-insensitive).  A term whose ``col``
is not a known column is treated as plain text, so searching for ``a=b``
still works.
"""

from __future__ import annotations

import heapq
import math
import operator
import re
import shlex
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from itertools import islice, repeat
from typing import Any, Literal

from flextui.render.columns import Pooled, Store, StoreValues, new_store
from flextui.render.masks import TextIndex, ValueMask, all_of, ids_of, inverted
from flextui.render.text import clean

__all__ = [
    "COLUMN_TYPES",
    "Column",
    "ColumnSpec",
    "ColumnStats",
    "ColumnType",
    "EPOCH_MS_RANGES",
    "FilterError",
    "FilterTerm",
    "Frequencies",
    "FrequencyRow",
    "Encoded",
    "GridModel",
    "RowsView",
    "epoch_ms_time",
    "format_value",
    "parse_filter",
]

ColumnType = Literal["auto", "str", "int", "float", "bool", "date", "datetime", "epochms", "other"]
COLUMN_TYPES: tuple[str, ...] = ("auto", "str", "int", "float", "bool", "date", "datetime", "epochms", "other")
NUMERIC_TYPES = frozenset({"int", "float"})

EpochHint = Literal["", "stated", "named"]
EPOCH_MS_RANGES: dict[str, tuple[int, int]] = {
    "stated": (10**11, 10**14),  # a time by the data model: any count of milliseconds (1973 to 5138), not seconds
    "named": (946_684_800_000, 4_102_444_800_000),  # a time by its name only: 2000-01-01 to 2100-01-01 UTC
}
"""Integers a column marked as a possible time (``Column.epoch_hint``) must all hold, by the evidence it has,
to be read as epoch milliseconds (type ``"epochms"``): shown as UTC times, kept as the numbers sent."""
_EPOCH_MS_ANY = EPOCH_MS_RANGES["stated"]
_EPOCH = datetime(1970, 1, 1)


# --------------------------------------------------------------------------------------------
# Display formatting (cleaned by the one sanitiser)
# --------------------------------------------------------------------------------------------


def epoch_ms_time(value: Any) -> str | None:
    """ "2026-11-14 06:51:55Z": epoch milliseconds as a UTC time, as the grid shows a datetime; None for what is not
    a whole number of milliseconds from 1973 to 5138 (a stray value in a time column is shown as the number it is)."""
    if value.__class__ is not int or not _EPOCH_MS_ANY[0] <= value < _EPOCH_MS_ANY[1]:
        return None
    return (_EPOCH + timedelta(milliseconds=value)).isoformat(" ", "seconds") + "Z"  # (a third of strftime's time)


def _format_datetime(value: datetime) -> str:
    text = value.strftime("%Y-%m-%d %H:%M:%S")
    offset = value.utcoffset()
    if offset is not None:
        text += "Z" if not offset else value.strftime("%z")
    return text


def format_value(value: Any, type_: str = "auto") -> str:
    """Format one raw value for display (cleaned, never markup).

    ``None`` -> ``""``; bools -> ``true``/``false``; floats -> up to 10
    significant digits; dates ISO; datetimes ``YYYY-MM-DD HH:MM:SS`` (+``Z`` or
    offset when aware); in an ``"epochms"`` column, a whole number as the UTC
    time it counts the milliseconds to (``YYYY-MM-DD HH:MM:SSZ``); everything
    else ``str()``.
    """
    if value is None:
        return ""
    if type_ == "epochms":
        time = epoch_ms_time(value)
        if time is not None:
            return time
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return str(value)
        return format(value, ".10g") if abs(value) < 1e16 else format(value, ".6e")
    if isinstance(value, datetime):
        return _format_datetime(value)
    if isinstance(value, date):
        return value.isoformat()
    return clean(str(value))


# --------------------------------------------------------------------------------------------
# Columns
# --------------------------------------------------------------------------------------------


@dataclass
class Column:
    """One column of the grid.

    ``index`` is the position of the column's value inside each row tuple; it
    never changes.  Display order is kept by the model (``GridModel.order``).
    ``type`` ``"auto"`` is resolved from the first non-None values appended.
    ``epoch_hint`` marks a column that may hold epoch milliseconds (``"stated"``: the
    data model says it is a time; ``"named"``: only its name says so): the first
    non-None values appended decide, once, whether its type is ``"epochms"``
    (every one a whole number in :data:`EPOCH_MS_RANGES` for that evidence).
    """

    name: str
    type: ColumnType = "auto"
    visible: bool = True
    label: str | None = None
    width: int | None = None
    """Fixed display width; ``None`` = measured from a sample of rows."""
    index: int = -1
    epoch_hint: EpochHint = ""

    @property
    def title(self) -> str:
        """The header text (label or name), sanitised."""
        return clean(self.label if self.label is not None else self.name)

    @property
    def numeric(self) -> bool:
        return self.type in NUMERIC_TYPES

    @property
    def align(self) -> Literal["left", "right"]:
        """Numbers are right-aligned, everything else left-aligned."""
        return "right" if self.numeric else "left"


ColumnSpec = str | Column | tuple[str, str] | Mapping[str, Any]


def _make_column(spec: ColumnSpec, index: int) -> Column:
    """A new :class:`Column` at `index` from a spec (a Column given is copied, never shared)."""
    if isinstance(spec, Column):
        col = Column(spec.name, spec.type, spec.visible, spec.label, spec.width, epoch_hint=spec.epoch_hint)
    elif isinstance(spec, str):
        col = Column(spec)
    elif isinstance(spec, tuple):
        col = Column(spec[0], spec[1])  # type: ignore[arg-type]
    elif isinstance(spec, Mapping):
        col = Column(**{k: v for k, v in spec.items() if k != "index"})
    else:
        raise TypeError(f"bad column spec: {spec!r}")
    if col.type not in COLUMN_TYPES:
        raise ValueError(f"unknown column type {col.type!r} for {col.name!r}")
    col.index = index
    return col


def _check_distinct(names: list[str]) -> None:
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate column names: {names}")


def _infer_type(values: Iterable[Any]) -> ColumnType:
    """The narrowest type covering all non-None ``values`` ("auto" if there are none)."""
    kinds: set[str] = set()
    for value in values:
        if value is None:
            continue
        if isinstance(value, bool):
            kinds.add("bool")
        elif isinstance(value, int):
            kinds.add("int")
        elif isinstance(value, float):
            kinds.add("float")
        elif isinstance(value, str):
            kinds.add("str")
        elif isinstance(value, datetime):
            kinds.add("datetime")
        elif isinstance(value, date):
            kinds.add("date")
        else:
            kinds.add("other")
        if len(kinds) > 1 and kinds != {"int", "float"}:
            return "other"
    if not kinds:
        return "auto"
    if kinds == {"int", "float"}:
        return "float"
    return kinds.pop()  # type: ignore[return-value]


def _number_texts(values: list[Any]) -> list[str] | None:
    """The texts of a slice of plain ints or floats as `format_value` writes them, in C; None for anything else."""
    kinds = set(map(type, values))
    if kinds == {int}:
        return list(map(str, values))
    if kinds == {float} and max(map(abs, values)) < 1e16:  # nan and inf format alike either way
        return list(map(format, values, repeat(".10g")))
    return None


def _search_texts(type_: str) -> Callable[[list[Any]], list[str]]:
    """What free text is searched in for a column's values (as displayed; cheaper than display formatting for datetimes)."""
    if type_ == "str":
        return lambda values: ["" if v is None else (v if v.__class__ is str else format_value(v)) for v in values]
    if type_ in ("int", "float"):
        return lambda values: _number_texts(values) or ["" if v is None else format_value(v) for v in values]
    if type_ == "datetime":
        return lambda values: [
            "" if v is None else (v.isoformat(" ", "seconds") if v.__class__ is datetime else format_value(v)) for v in values
        ]
    if type_ == "epochms":
        return lambda values: ["" if v is None else format_value(v, "epochms") for v in values]
    return lambda values: ["" if v is None else format_value(v) for v in values]


# --------------------------------------------------------------------------------------------
# Sort keys
# --------------------------------------------------------------------------------------------


def _mixed_key(value: Any) -> tuple[int, Any]:
    """A total order over anything: numbers < dates < text (used when types are mixed)."""
    if isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value)):
        return (0, float(value))
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return (1, value.timestamp())
    if isinstance(value, date):
        return (1, datetime(value.year, value.month, value.day, tzinfo=UTC).timestamp())
    return (2, str(value).casefold())


def _text_key(values: list[Any]) -> Callable[[Any], str]:
    """How text values compare (case-blind): `str.casefold` itself when they are all str (in C: a third of the
    time of a Python key for a column of 187,000 ids), else through `str`."""
    if set(map(type, values)) == {str}:
        return str.casefold
    return lambda v: str(v).casefold()


def _typed_key_func(type_: str) -> Callable[[Any], Any]:
    if type_ == "str":
        return lambda v: v.casefold() if isinstance(v, str) else str(v).casefold()
    if type_ in ("int", "float", "bool", "date", "datetime", "epochms", "other", "auto"):
        return lambda v: v
    raise ValueError(type_)


# --------------------------------------------------------------------------------------------
# Filter parsing
# --------------------------------------------------------------------------------------------


class FilterError(ValueError):
    """Raised for filter text that cannot be understood (rare: most input degrades to text)."""


_TERM_RE = re.compile(r"^(?P<col>[^=~<>!]+?)\s*(?P<op>!=|>=|<=|=|~|>|<)(?P<value>.*)$", re.S)


@dataclass(frozen=True)
class FilterTerm:
    """One parsed filter term."""

    column: str | None
    """Column name/label as typed, or ``None`` for a free-text term."""
    op: str
    """``"contains"`` (free text), ``"="``, ``"~"``, ``">"``, ``">="``, ``"<"``, ``"<="``."""
    value: str
    negate: bool = False


def _split_terms(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    lexer.escape = ""  # keep backslashes: they matter in regexes
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain whitespace split
        return text.split()


def parse_filter(text: str) -> list[FilterTerm]:
    """Parse filter text into terms (see the module docstring for the syntax).

    Column names are *not* validated here; :meth:`GridModel.set_filter`
    turns a term with an unknown column back into free text.
    """
    terms: list[FilterTerm] = []
    for raw in _split_terms(text.strip()):
        negate = False
        token = raw
        while token.startswith("!"):
            negate = not negate
            token = token[1:]
        if not token:
            continue
        match = _TERM_RE.match(token)
        if match and match.group("col").strip():
            op = match.group("op")
            if op == "!=":
                op, negate = "=", not negate
            terms.append(FilterTerm(match.group("col").strip(), op, match.group("value"), negate))
        else:
            terms.append(FilterTerm(None, "contains", token, negate))
    return terms


# --------------------------------------------------------------------------------------------
# Result records
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ColumnStats:
    """Statistics of one column over the current view."""

    name: str
    type: str
    count: int
    """Rows in the view."""
    nulls: int
    distinct: int
    """Distinct non-null values."""
    min: Any = None
    max: Any = None
    mean: float | None = None
    sum: float | None = None


def _frequency_order(item: tuple[Any, int]) -> tuple[int, bool, Any]:
    """Most frequent first; ties by value (numbers, dates, text), None last."""
    value, count = item
    return (-count, value is None, _mixed_key(value) if value is not None else (3, ""))


def _first_values(values: list[Any], k: int) -> list[Any]:
    """The first `k` of `values` in :func:`_frequency_order`'s order for equal counts (in C when they are all text or
    all numbers: a key a value in Python cost ≈ 0.4 s for 187,000 ids)."""
    others = [v for v in values if v is not None]
    kinds = set(map(type, others))
    if kinds == {str}:
        picked = heapq.nsmallest(k, others, key=str.casefold)
    elif kinds <= {int, float} and not any(v != v for v in others if v.__class__ is float):  # (NaN sorts as text)
        picked = heapq.nsmallest(k, others)
    else:
        picked = heapq.nsmallest(k, others, key=_mixed_key)
    if len(picked) < k and len(others) < len(values):
        picked.append(None)
    return picked


def _most_frequent(counts: Counter[Any], limit: int | None) -> list[tuple[Any, int]]:
    """(value, count) of the `limit` most frequent values (all without one), in :func:`_frequency_order`."""
    if limit is None or len(counts) <= limit:
        return sorted(counts.items(), key=_frequency_order)
    if limit <= 0:
        return []
    least = heapq.nlargest(limit, counts.values())[-1]  # the count the last row shown has
    above = [item for item in counts.items() if item[1] > least]
    tied = [value for value, count in counts.items() if count == least]
    chosen = above + [(value, least) for value in _first_values(tied, limit - len(above))]
    return sorted(chosen, key=_frequency_order)


@dataclass(frozen=True)
class FrequencyRow:
    """One line of a frequency table (VisiData Shift+F)."""

    value: Any
    count: int
    percent: float
    """Share of the view's rows, 0–100."""


@dataclass(frozen=True)
class Frequencies:
    """A column's value counts over the view: the most frequent values' rows, and how many there are in all."""

    rows: list[FrequencyRow]
    """Most frequent first (all of them, or the top ones asked for)."""
    distinct: int
    """Distinct values in the view, None (empty) counted as one."""
    nulls: int
    """Rows of the view with no value."""
    view: int
    """Rows in the view."""

    @property
    def complete(self) -> bool:
        """Whether every distinct value has its row."""
        return len(self.rows) == self.distinct


# --------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------

_Mask = Callable[[list[Store], int, int], bytes]
"""A compiled filter term: the mask of rows `start`..`stop` over the column stores."""

_ROWS_AT_ONCE = 50_000
"""Rows an export or a whole-view walk takes from the stores at a time."""


def _take(store: Store, made: Store, prepared: Any, values: Sequence[Any]) -> Store:
    """`store` with a page appended: as prepared for it in a thread when that still fits, else from the values."""
    if store is made and prepared is not None:
        taken = store.take_prepared(prepared)
        if taken is not None:
            return taken
    return store.extend(values)


@dataclass(frozen=True)
class Encoded:
    """Rows made ready for a model by :meth:`GridModel.encode` (in a worker thread)."""

    columns: list[Sequence[Any]]
    """The values, column by column (all of one length)."""
    stores: list[Store]
    """The stores the codes were found for (or, `fresh`, the new stores holding the rows)."""
    prepared: list[Any]
    """Per column, what :meth:`Store.prepare` made of its values (None: appended the slow way)."""
    fresh: bool = False

    def __len__(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    @property
    def rows(self) -> list[tuple[Any, ...]]:
        return list(zip(*self.columns, strict=True))


class RowsView(Sequence[tuple[Any, ...]]):
    """The rows as tuples (all columns, data order), made on demand from the column stores.

    It holds the stores and the row count it was made with: rows appended later
    are not in it, and a column store replaced by another kind later is still the
    one it reads (stores only grow), so a worker thread can read it while pages
    stream in.
    """

    def __init__(self, stores: list[Store], count: int) -> None:
        self._stores = list(stores)
        self._count = count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._count))]
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError(i)
        return tuple(store[i] for store in self._stores)

    def column(self, index: int) -> Store:
        return self._stores[index]

    def take(self, ids: Sequence[int], indexes: Sequence[int]) -> list[tuple[Any, ...]]:
        """The rows `ids`, restricted to the columns `indexes` (column by column, in C where the store allows)."""
        if not indexes:
            return [() for _ in ids]
        if isinstance(ids, range) and ids.step == 1 and ids.stop <= self._count:  # the view in arrival order: slices
            return list(zip(*(self._stores[j].slice(ids.start, ids.stop) for j in indexes), strict=True))
        return list(zip(*(self._stores[j].take(ids) for j in indexes), strict=True))


def _to_number(text: str) -> float | None:
    try:
        number = float(text.replace("_", "").replace(",", ""))
    except ValueError:
        return None
    return None if math.isnan(number) else number


def _to_date(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip()[:10])
    except ValueError:
        return None


def _to_datetime(text: str) -> datetime | None:
    text = text.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _as_day(value: Any) -> date | None:
    """Map a date-ish value to its (UTC) day; strings are read as ISO, numbers as epoch s/ms."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, datetime):
        moment: datetime = value.astimezone(UTC) if value.tzinfo is not None else value
        return moment.date()
    if isinstance(value, date):
        return value
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        seconds = value / 1000 if abs(value) >= 1e11 else value
        try:
            return datetime.fromtimestamp(seconds, tz=UTC).date()
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str):
        return _to_date(value)
    return None


def _epoch_ms_target(text: str) -> float | None:
    """What `col>text` compares an epoch-milliseconds column with: a number as it is, a day or a time as its
    milliseconds (UTC unless it names its zone)."""
    if text.strip().lstrip("+-").replace(".", "", 1).isdigit():
        return _to_number(text)
    moment = _to_datetime(text)
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp() * 1000


def _value_test(term: FilterTerm, ctype: str) -> Callable[[Any], bool]:
    """The test a column term (``=``, ``~``, ``<`` ...) makes of one value of a column of type `ctype`."""
    value = term.value
    if term.op == "=":
        if value == "":
            return lambda v: v is None or v == ""
        number = _to_number(value) if ctype in NUMERIC_TYPES or (ctype == "epochms" and value.strip().isdigit()) else None
        if number is not None:
            return lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v == number
        folded = value.casefold()
        return lambda v: v is not None and (v if v.__class__ is str else format_value(v, ctype)).casefold() == folded
    if term.op == "~":
        try:
            rx = re.compile(value, re.IGNORECASE)
        except re.error:
            rx = re.compile(re.escape(value), re.IGNORECASE)
        search = rx.search
        return lambda v: v is not None and search(format_value(v, ctype)) is not None
    cmp = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}[term.op]
    target: Any
    conv: Callable[[Any], Any]
    if ctype in NUMERIC_TYPES:
        target = _to_number(value)
        conv = lambda v: v if isinstance(v, (int, float)) and not isinstance(v, bool) else None  # noqa: E731
    elif ctype == "datetime":
        target = _to_datetime(value)
        if target is not None and target.tzinfo is None:

            def conv(v: Any) -> Any:  # naive target: compare as naive UTC
                if not isinstance(v, datetime):
                    return None
                return v if v.tzinfo is None else v.astimezone(UTC).replace(tzinfo=None)
        else:

            def conv(v: Any) -> Any:  # aware target: naive values are taken as UTC
                if not isinstance(v, datetime):
                    return None
                return v if v.tzinfo is not None else v.replace(tzinfo=UTC)
    elif ctype == "epochms":  # a time typed (UTC when it says no zone), or a number of milliseconds
        target = _epoch_ms_target(value)
        conv = lambda v: v if isinstance(v, (int, float)) and not isinstance(v, bool) else None  # noqa: E731
    elif ctype == "date":
        target = _to_date(value)
        conv = lambda v: v if isinstance(v, date) and not isinstance(v, datetime) else None  # noqa: E731
    else:
        target = value.casefold()
        conv = lambda v: format_value(v, ctype).casefold()  # noqa: E731
    if target is None:
        return lambda v: False

    def compare(v: Any) -> bool:
        if v is None:
            return False
        cv = conv(v)
        if cv is None:
            return False
        try:
            return bool(cmp(cv, target))
        except TypeError:
            return False

    return compare


class GridModel:
    """Rows, columns and the filtered/sorted view of a data grid.

    All positions called ``pos`` are indexes into the *view* (what is shown);
    ``row_id`` is the index of a row in arrival order (stable for the row's
    lifetime, until :meth:`clear`).  Values are kept column by column
    (:mod:`flextui.render.columns`); :attr:`rows` and :meth:`row` make tuples
    on demand.
    """

    def __init__(self, columns: Iterable[ColumnSpec] = (), rows: Iterable[Sequence[Any] | Mapping[str, Any]] = ()) -> None:
        self.columns: list[Column] = []
        self.order: list[int] = []
        """Display order: column indexes (``Column.index``)."""
        self._stores: list[Store] = []
        self._count = 0
        self._view: list[int] | None = None  # None = identity (no filter, no sort)
        self._sort_col: int | None = None
        self._sort_desc = False
        self._sort_keys: list[Any] | None = None  # key per row_id for the sort column (None = null)
        self._sort_mixed = False
        self._pooled_keys: tuple[Store | None, list[Any]] = (None, [])  # sort keys of a pooled column's distinct values
        self._sorted_parts: tuple[list[int], list[int]] = ([], [])
        self._filter_text = ""
        self._filter_terms: list[FilterTerm] = []
        self._masks: list[tuple[_Mask, bool]] = []  # compiled filter terms, and whether each is negated
        self._text = TextIndex()
        self._visible_cache: list[Column] | None = None
        self.generation = 0
        """Incremented whenever existing view positions may show different data."""
        if columns:
            self.set_columns(columns)
        if rows:
            self.append_rows(rows)

    # ---------------------------------------------------------------- columns

    def set_columns(self, columns: Iterable[ColumnSpec]) -> None:
        """Replace the columns.  This also clears rows, sort and filter (row shape changes)."""
        cols = [_make_column(spec, i) for i, spec in enumerate(columns)]
        _check_distinct([c.name for c in cols])
        self.columns = cols
        self.order = list(range(len(cols)))
        self.clear()

    def add_columns(self, columns: Iterable[ColumnSpec]) -> None:
        """Add columns after the others (shown last), empty in the rows there are.

        Unlike :meth:`set_columns` the rows, the sort, the filter and the columns' order and
        visibility stay: records that carry a field the others did not are not a new view.
        """
        cols = [_make_column(spec, len(self.columns) + i) for i, spec in enumerate(columns)]
        if not cols:
            return
        _check_distinct([c.name for c in self.columns + cols])
        self.columns = self.columns + cols
        self.order = self.order + [c.index for c in cols]
        self._stores = self._stores + [new_store().extend([None] * self._count) for _ in cols]
        self._columns_changed(affects_filter=True)  # a text term now also searches them (when shown)

    def column(self, key: str | int | Column) -> Column:
        """A column by name, label (case-insensitive fallback) or index (``Column.index``)."""
        if isinstance(key, Column):
            return self.columns[key.index]
        if isinstance(key, int):
            return self.columns[key]
        for col in self.columns:
            if col.name == key:
                return col
        folded = key.casefold()
        for col in self.columns:
            if col.name.casefold() == folded or (col.label is not None and col.label.casefold() == folded):
                return col
        raise KeyError(key)

    def find_column(self, key: str) -> Column | None:
        try:
            return self.column(key)
        except KeyError:
            return None

    @property
    def visible_columns(self) -> list[Column]:
        """Visible columns in display order (cached)."""
        if self._visible_cache is None:
            self._visible_cache = [self.columns[i] for i in self.order if self.columns[i].visible]
        return self._visible_cache

    def _columns_changed(self, *, affects_filter: bool) -> None:
        self._visible_cache = None
        self.generation += 1
        if affects_filter:
            if self._masks:
                self._compile_filter()
                self._rebuild_view()

    def hide_column(self, key: str | int | Column) -> None:
        col = self.column(key)
        if col.visible:
            col.visible = False
            self._columns_changed(affects_filter=True)

    def show_column(self, key: str | int | Column) -> None:
        col = self.column(key)
        if not col.visible:
            col.visible = True
            self._columns_changed(affects_filter=True)

    def move_column(self, key: str | int | Column, position: int) -> None:
        """Move a column to ``position`` in the display order (clamped; negative counts from the end)."""
        col = self.column(key)
        self.order.remove(col.index)
        if position < 0:
            position = len(self.order) + 1 + position
        position = max(0, min(position, len(self.order)))
        self.order.insert(position, col.index)
        self._columns_changed(affects_filter=False)

    # ---------------------------------------------------------------- rows

    @property
    def rows(self) -> RowsView:
        """All rows in arrival order, as tuples (made on demand; see :class:`RowsView`)."""
        return RowsView(self._stores, self._count)

    @property
    def total_count(self) -> int:
        return self._count

    @property
    def row_count(self) -> int:
        """Rows in the view (after filter)."""
        return self._count if self._view is None else len(self._view)

    def __len__(self) -> int:
        return self.row_count

    def clear(self, *, keep_view: bool = False) -> None:
        """Remove all rows, and the sort and the filter unless `keep_view` (columns are kept).

        `keep_view`: the rows to come are the same view's again (a refresh, a run again), so
        the sort and the filter the user chose apply to them as they are appended.
        """
        sort, descending, text = self._sort_col, self._sort_desc, self._filter_text
        self._stores = [new_store() for _ in self.columns]
        self._count = 0
        self._view = None
        self._sort_col = None
        self._sort_desc = False
        self._sort_keys = None
        self._sort_mixed = False
        self._pooled_keys = (None, [])
        self._sorted_parts = ([], [])
        self._filter_text = ""
        self._filter_terms = []
        self._masks = []
        self._text = TextIndex()
        self._visible_cache = None
        self.generation += 1
        if keep_view:
            if text:
                self.set_filter(text)
            if sort is not None:
                self.sort_by(sort, descending)

    def _normalise(self, rows: Iterable[Sequence[Any] | Mapping[str, Any]]) -> list[tuple[Any, ...]]:
        width = len(self.columns)
        if isinstance(rows, list) and set(map(type, rows)) == {tuple} and set(map(len, rows)) == {width}:
            return rows  # tuples in column order (the usual case), checked in C
        out: list[tuple[Any, ...]] = []
        names = [c.name for c in self.columns]
        for row in rows:
            if isinstance(row, tuple) and len(row) == width:
                out.append(row)
            elif isinstance(row, Mapping):
                out.append(tuple(row.get(n) for n in names))
            else:
                t = tuple(row)
                if len(t) < width:
                    t = t + (None,) * (width - len(t))
                elif len(t) > width:
                    t = t[:width]
                out.append(t)
        return out

    def encode(self, rows: Iterable[Sequence[Any] | Mapping[str, Any]], *, fresh: bool = False) -> Encoded:
        """Rows made ready for :meth:`append_rows` (or, `fresh`, for :meth:`replace_rows`) in a worker thread.

        Appending a page costs the event loop ≈ 10 ms when done there (the codes
        of its pooled values); encoded in a thread, the loop only appends them.
        `fresh` builds whole new stores (a refresh's or a revisit's rows at once).
        An encoding the model can no longer use (its columns or rows changed
        meanwhile) is appended as plain rows: slower, never wrong.
        """
        new = self._normalise(rows)
        return self.encode_columns(list(zip(*new, strict=True)) if new else [[] for _ in self.columns], fresh=fresh)

    def encode_columns(self, columns: list[Sequence[Any]], *, fresh: bool = False) -> Encoded:
        """:meth:`encode` for rows given column by column (one sequence of values per column, in column order)."""
        if len(columns) != len(self.columns) or len(set(map(len, columns))) > 1:
            raise ValueError(f"{len(columns)} columns of {sorted(set(map(len, columns)))} values for {len(self.columns)} columns")
        if fresh:
            stores = [new_store() for _ in self.columns]
            stores = [store.extend(column) for store, column in zip(stores, columns, strict=True)]
            return Encoded(columns, stores, [], fresh=True)
        stores = list(self._stores)
        return Encoded(columns, stores, [store.prepare(column) for store, column in zip(stores, columns, strict=True)])

    def encoded_stores(self, stores: list[Store], count: int) -> Encoded:
        """Stores made elsewhere (a past run's, read back by `columns_file.read_columns`) as rows for
        :meth:`append_rows` or :meth:`replace_rows`: taken as they are into an empty model."""
        if len(stores) != len(self.columns) or any(len(store) != count for store in stores):
            raise ValueError(f"{len(stores)} stores of {sorted(set(map(len, stores)))} rows for {len(self.columns)} columns of {count}")
        return Encoded([StoreValues(store, count) for store in stores], list(stores), [], fresh=True)

    def append_rows(self, rows: Iterable[Sequence[Any] | Mapping[str, Any]] | Encoded) -> int:
        """Append rows (tuples, sequences or dicts by column name, or :meth:`encode`'s); O(new rows).

        Returns the number of appended rows that are in the view (pass the filter).
        With a sort active the new rows are merged into place and
        :attr:`generation` changes; otherwise existing view positions are untouched.
        """
        if not self.columns:
            raise ValueError("set_columns() before append_rows()")
        encoded = rows if isinstance(rows, Encoded) and len(rows.stores) == len(self.columns) else None
        if isinstance(rows, Encoded) and encoded is None:
            rows = rows.rows  # made for other columns
        if encoded is not None:
            values, count = encoded.columns, len(encoded)
        else:
            new = self._normalise(rows)  # type: ignore[arg-type]
            values, count = list(zip(*new, strict=True)), len(new)
        if not count:
            return 0
        start = self._count
        typed = self._resolve_auto_types(values)
        if encoded is not None and encoded.fresh and not start:
            self._stores = list(encoded.stores)
        elif encoded is not None and not encoded.fresh:
            self._stores = [
                _take(store, made, prepared, column)
                for store, made, prepared, column in zip(self._stores, encoded.stores, encoded.prepared, values, strict=True)
            ]
        else:
            self._stores = [store.extend(column) for store, column in zip(self._stores, values, strict=True)]
        self._count = end = start + count
        if self._view is None:
            return count
        if typed and (self._masks or self._sort_col is not None):
            return self._view_anew(start)
        new_ids: list[int] = self._matching(start, end) if self._masks else list(range(start, end))
        if self._sort_col is not None:
            assert self._sort_keys is not None
            self._sort_keys.extend(self._keys_for(self._sort_col, start, end))
            if new_ids:
                self._sort_view(new_ids)
                self.generation += 1
        else:
            self._view.extend(new_ids)
        return len(new_ids)

    def replace_rows(self, rows: Iterable[Sequence[Any] | Mapping[str, Any]] | Encoded) -> None:
        """Put `rows` in place of all rows, keeping the sort and the filter the user chose (a refresh, not a new view)."""
        self.clear(keep_view=True)
        self.append_rows(rows)

    def _resolve_auto_types(self, columns: Sequence[Sequence[Any]]) -> bool:
        """Type the "auto" columns from these values; whether any was typed."""
        typed = False
        for col in self.columns:
            if col.epoch_hint:
                present = [v for v in islice(columns[col.index], 5000) if v is not None][:200]
                if present:
                    lo, hi = EPOCH_MS_RANGES[col.epoch_hint]
                    col.epoch_hint = ""  # decided once, by the first values
                    if all(v.__class__ is int and lo <= v < hi for v in present):
                        col.type = "epochms"
                        self._text.reset()
                        self.generation += 1
                        typed = True
            if col.type == "auto":
                inferred = _infer_type(islice(columns[col.index], 200))
                if inferred != "auto":
                    col.type = inferred
                    self._text.reset()  # search texts follow the type
                    self.generation += 1
                    typed = True
        return typed

    def find_row(self, values: Mapping[int, Any], start: int = 0, stop: int | None = None) -> int | None:
        """The first row id from `start` to `stop` whose columns (by ``Column.index``) hold `values`, or None.

        Why: a row id names a row only until :meth:`clear`; a record is found again among
        fresh rows (a refresh, a run again) by its key's values. O(rows searched).
        """
        stop = self._count if stop is None else min(stop, self._count)
        if not values or start >= stop:
            return None
        (first, wanted), *rest = values.items()
        column = self._stores[first].slice(start, stop)
        at = 0
        while True:
            try:
                at = column.index(wanted, at)
            except ValueError:
                return None
            row_id = start + at
            if all(self._stores[ci][row_id] == value for ci, value in rest):
                return row_id
            at += 1

    # ---------------------------------------------------------------- view access

    def row_id(self, pos: int) -> int:
        """The arrival-order index of the row at view position ``pos``."""
        return pos if self._view is None else self._view[pos]

    def position_of(self, row_id: int) -> int | None:
        """The view position of a row, or ``None`` if it is filtered out.  O(n) when sorted/filtered."""
        if self._view is None:
            return row_id if 0 <= row_id < self._count else None
        try:
            return self._view.index(row_id)
        except ValueError:
            return None

    def _id_at(self, pos: int) -> int:
        if self._view is not None:
            return self._view[pos]
        if pos < 0:
            pos += self._count
        if not 0 <= pos < self._count:
            raise IndexError(pos)
        return pos

    def row(self, pos: int) -> tuple[Any, ...]:
        """The raw row tuple (all columns, data order) at view position ``pos``."""
        i = self._id_at(pos)
        return tuple(store[i] for store in self._stores)

    def row_dict(self, pos: int) -> dict[str, Any]:
        """The row at ``pos`` as ``{column name: raw value}`` for all columns."""
        row = self.row(pos)
        return {c.name: row[c.index] for c in self.columns}

    def cell(self, pos: int, key: str | int | Column) -> Any:
        return self._stores[self.column(key).index][self._id_at(pos)]

    def display_cells(self, pos: int) -> list[str]:
        """The visible cells of the row at ``pos``, formatted and sanitised."""
        i = self._id_at(pos)
        stores = self._stores
        return [format_value(stores[c.index][i], c.type) for c in self.visible_columns]

    def view_ids(self) -> Sequence[int]:
        """The row ids of the view (a range when there is no filter/sort)."""
        return range(self._count) if self._view is None else self._view

    def iter_view(self, *, visible_only: bool = True) -> Iterator[tuple[Any, ...]]:
        """Raw row tuples of the view, restricted to (and ordered like) the visible columns."""
        cols = self.visible_columns if visible_only else self.columns
        idx = [c.index for c in cols]
        rows, ids = self.rows, self.view_ids()
        for start in range(0, len(ids), _ROWS_AT_ONCE):
            yield from rows.take(ids[start : start + _ROWS_AT_ONCE], idx)

    def iter_view_dicts(self, *, visible_only: bool = True) -> Iterator[dict[str, Any]]:
        """The view as ``{name: raw value}`` dicts (for JSON/CSV export)."""
        cols = self.visible_columns if visible_only else self.columns
        names = [c.name for c in cols]
        for values in self.iter_view(visible_only=visible_only):
            yield dict(zip(names, values))

    def header(self, *, visible_only: bool = True) -> list[str]:
        return [c.name for c in (self.visible_columns if visible_only else self.columns)]

    # ---------------------------------------------------------------- sort

    @property
    def sort_column(self) -> Column | None:
        return None if self._sort_col is None else self.columns[self._sort_col]

    @property
    def sort_descending(self) -> bool:
        return self._sort_desc

    def _keys_for(self, ci: int, start: int, stop: int) -> list[Any]:
        """Sort keys of column `ci` for rows `start`..`stop` (None for nulls)."""
        store = self._stores[ci]
        if self._sort_mixed:
            return [None if v is None else _mixed_key(v) for v in store.slice(start, stop)]
        key = _typed_key_func(self.columns[ci].type)
        if isinstance(store, Pooled):  # one key per distinct value, shared by its rows
            known, folded = self._pooled_keys
            if known is not store:
                folded = []
                self._pooled_keys = (store, folded)
            folded.extend(None if v is None else key(v) for v in store.distinct[len(folded) :])
            return [folded[code] for code in store.codes[start:stop]]
        values = store.slice(start, stop)
        if self.columns[ci].type != "str":
            return values  # the values are their own keys (None stays None)
        return [None if v is None else key(v) for v in values]

    def sort_by(self, key: str | int | Column | None, descending: bool = False) -> None:
        """Sort the view by one column (stable, type-aware, ``None`` always last).

        ``key=None`` restores arrival order.
        """
        if key is None:
            self._sort_col = None
            self._sort_keys = None
            self._sorted_parts = ([], [])
            self._sort_desc = False
            self._rebuild_view()
            return
        col = self.column(key)
        if col.index != self._sort_col:
            self._sort_mixed = False
            self._pooled_keys = (None, [])
            self._sort_col = col.index
            self._sort_keys = self._keys_for(col.index, 0, self._count)
        self._sort_desc = descending
        self._rebuild_view()

    def _sort_view(self, new_ids: list[int] | None = None) -> None:
        """Sort the view by the cached keys, ``None`` keys last in arrival order.

        The view is kept as two lists, sorted non-null ids and null ids.  With
        ``new_ids`` (a streamed page) only those are partitioned and Timsort merges
        the already-sorted run with the new tail in near-linear time.
        """
        keys = self._sort_keys
        assert keys is not None
        if new_ids is None:
            assert self._view is not None
            ids = self._view
            nonnull = [i for i in ids if keys[i] is not None]
            nulls = [i for i in ids if keys[i] is None] if len(nonnull) != len(ids) else []
        else:
            nonnull, nulls = self._sorted_parts
            nonnull.extend(i for i in new_ids if keys[i] is not None)
            nulls.extend(i for i in new_ids if keys[i] is None)
        try:
            nonnull.sort(key=keys.__getitem__, reverse=self._sort_desc)
        except TypeError:  # mixed types in the column: fall back to a total order
            self._sort_mixed = True
            assert self._sort_col is not None
            self._sort_keys = keys = self._keys_for(self._sort_col, 0, self._count)
            nonnull.sort(key=keys.__getitem__, reverse=self._sort_desc)
        self._sorted_parts = (nonnull, nulls)
        self._view = nonnull + nulls if nulls else nonnull[:]

    # ---------------------------------------------------------------- filter

    @property
    def filter_text(self) -> str:
        return self._filter_text

    @property
    def filter_terms(self) -> list[FilterTerm]:
        return list(self._filter_terms)

    def set_filter(self, text: str) -> None:
        """Filter the view (see the module docstring for the syntax); ``""`` clears it."""
        self._filter_text = text
        self._filter_terms = parse_filter(text)
        self._compile_filter()
        self._rebuild_view()

    def _search_columns(self) -> list[tuple[int, Callable[[list[Any]], list[str]], bool]]:
        return [(c.index, _search_texts(c.type), c.type == "str") for c in self.visible_columns]

    @property
    def search_index_complete(self) -> bool:
        return self._text.complete(self._search_columns(), self._stores)

    def build_search_index(self, max_rows: int = 5000) -> bool:
        """Index up to ``max_rows`` more rows (or distinct values) for free-text filtering; True when complete.

        Lets the widget build the index in small idle-time steps so that the
        first free-text filter on 100k rows is instant rather than ~0.3 s.
        """
        return self._text.build(self._search_columns(), self._stores, max_rows)

    def _compile_term(self, term: FilterTerm) -> _Mask:
        col = self.find_column(term.column) if term.column is not None else None
        if term.column is not None and col is None:
            # Unknown column: the whole term is text (e.g. searching for "a=b").
            term = FilterTerm(None, "contains", f"{term.column}{term.op}{term.value}", term.negate)
        if col is None:
            needle, text, columns = term.value.casefold(), self._text, self._search_columns()
            return lambda stores, start, stop: text.mask(needle, columns, stores, start, stop)
        return ValueMask(col.index, _value_test(term, col.type))

    def _compile_filter(self) -> None:
        self._masks = [(self._compile_term(term), term.negate) for term in self._filter_terms]

    def _matching(self, start: int, stop: int) -> list[int]:
        """Row ids from `start` to `stop` that pass every filter term."""
        found: bytes | None = None
        for mask, negate in self._masks:
            hits = mask(self._stores, start, stop)
            if negate:
                hits = inverted(hits)
            found = hits if found is None else all_of(found, hits)
            if 1 not in found:
                return []
        return list(range(start, stop)) if found is None else ids_of(found, start)

    # ---------------------------------------------------------------- view rebuild

    def _view_anew(self, start: int) -> int:
        """The view made again after a column was typed (its filter terms and sort keys were made for "auto",
        as when a kept view meets its first rows); how many rows from `start` are in it."""
        self._compile_filter()
        if self._sort_col is not None:
            self._sort_mixed = False
            self._pooled_keys = (None, [])
            self._sort_keys = self._keys_for(self._sort_col, 0, self._count)
        self._rebuild_view()
        return self._count - start if self._view is None else sum(1 for i in self._view if i >= start)

    def _rebuild_view(self) -> None:
        self.generation += 1
        if not self._masks and self._sort_col is None:
            self._view = None
            return
        self._view = self._matching(0, self._count)
        if self._sort_col is not None:
            self._sort_view()

    # ---------------------------------------------------------------- statistics

    def _column_values(self, key: str | int | Column) -> tuple[Column, list[Any]]:
        """A column's values over the view, in no particular order (unfiltered: as stored)."""
        col = self.column(key)
        store = self._stores[col.index]
        return col, store.slice(0, self._count) if self._view is None or not self._masks else store.take(self._view)

    def _value_counts(self, key: str | int | Column) -> tuple[Column, Counter[Any]]:
        """How many rows of the view hold each value of a column (unhashable values counted by ``repr``)."""
        col = self.column(key)
        store = self._stores[col.index]
        if isinstance(store, Pooled):  # counted by code, in C
            codes = store.codes if self._view is None or not self._masks else map(store.codes.__getitem__, self._view)
            distinct = store.distinct
            return col, Counter({distinct[code]: n for code, n in Counter(codes).items()})
        _, values = self._column_values(col)
        try:
            return col, Counter(values)
        except TypeError:
            return col, Counter(v if isinstance(v, (str, int, float, bool, date, type(None))) else repr(v) for v in values)

    def column_stats(self, key: str | int | Column) -> ColumnStats:
        """count, nulls, distinct, min/max (numbers, dates, text) and mean/sum (numbers) over the view."""
        col = self.column(key)
        if isinstance(self._stores[col.index], Pooled):
            return self._pooled_stats(col)
        col, values = self._column_values(key)
        present = [v for v in values if v is not None]
        try:
            distinct = len(set(present))
        except TypeError:  # unhashable values (lists/dicts): compare by repr
            distinct = len({repr(v) for v in present})
        lo = hi = None
        mean = total = None
        if present:
            numbers = [v for v in present if isinstance(v, (int, float)) and not isinstance(v, bool)]
            if col.type == "epochms" and numbers:  # times: the first and the last; a mean of instants says nothing
                lo, hi = min(numbers), max(numbers)
            elif col.numeric or (numbers and len(numbers) == len(present)):
                numbers = [v for v in numbers if not (isinstance(v, float) and math.isnan(v))]
                if numbers:
                    lo, hi = min(numbers), max(numbers)
                    total = math.fsum(numbers)
                    mean = total / len(numbers)
            else:
                try:
                    if col.type == "str":
                        text = _text_key(present)
                        lo, hi = min(present, key=text), max(present, key=text)
                    else:
                        lo, hi = min(present), max(present)
                except TypeError:
                    lo, hi = min(present, key=_mixed_key), max(present, key=_mixed_key)
        return ColumnStats(
            name=col.name,
            type=col.type,
            count=len(values),
            nulls=len(values) - len(present),
            distinct=distinct,
            min=lo,
            max=hi,
            mean=mean,
            sum=total,
        )

    def _pooled_stats(self, col: Column) -> ColumnStats:
        """:meth:`column_stats` of a pooled column, from its value counts (one value of each kind, no floats)."""
        _, counts = self._value_counts(col)
        nulls = counts.pop(None, 0)
        present = list(counts)
        lo = hi = None
        mean = total = None
        if present:
            if col.type == "epochms":
                numbers = [v for v in present if isinstance(v, (int, float)) and not isinstance(v, bool)]
                if numbers:
                    lo, hi = min(numbers), max(numbers)
            elif present[0].__class__ is int:
                lo, hi = min(present), max(present)
                total = math.fsum(v * n for v, n in counts.items())
                mean = total / (self.row_count - nulls)
            elif col.numeric:
                pass  # a number column holding no numbers
            elif col.type == "str":
                text = _text_key(present)
                lo, hi = min(present, key=text), max(present, key=text)
            else:
                lo, hi = min(present), max(present)
        return ColumnStats(col.name, col.type, self.row_count, nulls, len(present), lo, hi, mean, total)

    def frequency(self, key: str | int | Column, limit: int | None = None) -> list[FrequencyRow]:
        """Value counts of a column over the view, most frequent first (ties by value).

        ``None`` is counted as a value of its own.  Unhashable values are counted by ``repr``.
        """
        return self.frequencies(key, limit).rows

    def frequencies(self, key: str | int | Column, limit: int | None = None) -> Frequencies:
        """:meth:`frequency`'s rows (the `limit` most frequent, when given) with how many distinct values there are.

        The top rows are chosen without sorting every distinct value (a column of 187,000 ids, each once, took
        seconds to sort and to make a row of): the `limit`-th count is found in C, and of the values that have it
        only the first ones by value are kept.
        """
        _, counts = self._value_counts(key)
        n = self.row_count or 1
        rows = [FrequencyRow(value, count, 100.0 * count / n) for value, count in _most_frequent(counts, limit)]
        return Frequencies(rows, len(counts), counts.get(None, 0), self.row_count)

    def per_day_counts(self, key: str | int | Column, *, fill_gaps: bool = False) -> list[tuple[date, int]]:
        """Rows per (UTC) day of a date/datetime column over the view, oldest first.

        datetimes are converted to UTC; strings are read as ISO dates; numbers as
        epoch seconds (or milliseconds when ≥ 1e11).  Values that are not dates
        are skipped.  ``fill_gaps`` adds zero-count days between first and last.
        """
        _, values = self._value_counts(key)
        counts: Counter[date] = Counter()
        for v, n in values.items():
            day = _as_day(v)
            if day is not None:
                counts[day] += n
        days = sorted(counts)
        if fill_gaps and days:
            out: list[tuple[date, int]] = []
            day = days[0]
            while day <= days[-1]:
                out.append((day, counts.get(day, 0)))
                day += timedelta(days=1)
            return out
        return [(d, counts[d]) for d in days]
