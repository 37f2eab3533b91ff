"""CSV, JSON and JSONL writers, in one table shared by the TUI and the CLI.

Support engineers hand data on ("last week's fulfillments as CSV"), often
100,000 rows fetched page by page, so every writer streams: it takes rows as
they come (an iterable, or page after page through `Writer.write`), writes
each row as it goes and never builds the whole document in memory. A
progress callback hears the running row count, so a status line can show it.

Formats:
- csv: UTF-8 without BOM, a header row of the column names, RFC 4180 quoting
  (`\\r\\n` line ends). Text passes the one sanitiser with its line breaks
  kept (`render.text.clean_lines`, uncut): a file that is `cat` to a terminal
  carries no escape sequence, C1 or bidi control from the server. Nothing else
  is neutralised or prefixed (a cell starting with `=` stays so), None is an
  empty cell, booleans are `true`/`false` as in JSON.
- json: one array of objects, one object per line, types kept (numbers stay
  numbers, None is null); non-ASCII text is written as is (UTF-8), except
  DEL, C1, bidi and format characters, which are `\\uXXXX` escapes
  (`render.text.json_escape`): the data reads back exact, the file is inert.
- jsonl: one object per line (JSON Lines), types kept, escaped like json.

Rows are dicts (columns default to the first row's keys; missing keys are
empty) or sequences (then `columns` is required). With `columns`, objects
carry exactly those keys in that order, unless the writer is opened with
`every_key=True` (a report's records, whose fields are not all known when the
document starts): then a key a row has beyond the columns is kept where the
format can keep it (a JSON object carries it after the columns, other such
keys in the order first seen; the CLI's table grows a column) and, where it
cannot (CSV: its header is written before the rows), recorded in `left_out`
with the row it was first seen in, for the caller to say. What a writer
remembers of such keys is bounded (`MORE_KEYS`), so a server that names a new
field in every record cannot make a streamed export's memory grow with it.
"""

from __future__ import annotations

import csv
import json
import operator
import os
import tempfile
from collections.abc import AsyncIterable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from flextui.files import private_dirs
from flextui.render.text import clean_lines, json_dumps

Row = Mapping[str, Any] | Sequence[Any]
ProgressCallback = Callable[[int], None]

PROGRESS_EVERY = 1000

MORE_KEYS = 1000
"""(`every_key`) the keys beyond the columns a writer remembers (their order, or where each was left out): a bound."""


class ExportError(ValueError):
    """An export that cannot be written as asked (unknown format, rows without columns)."""


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, (dict, list)):
        value = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return clean_lines(value, limit=None)


def _json_default(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


class Writer:
    """Streams rows of one format to a text file: `write()` as often as needed, then `close()`."""

    extension = ""

    def __init__(
        self,
        fp: TextIO,
        columns: Sequence[str] | None = None,
        *,
        progress: ProgressCallback | None = None,
        progress_every: int = PROGRESS_EVERY,
        every_key: bool = False,
    ) -> None:
        self.fp = fp
        self.columns: list[str] | None = list(columns) if columns is not None else None
        self.progress = progress
        self.progress_every = max(1, progress_every)
        self.every_key = every_key
        """Keys beyond the columns are kept where the format can, and recorded in `left_out` where it cannot."""
        self.left_out: dict[str, int] = {}
        """(`every_key`) each key rows had that the document has no place for, and the row (from 1) it was first in."""
        self.more_left_out = False
        """(`every_key`) more keys were left out than `left_out` holds (`MORE_KEYS`)."""
        self.count = 0
        self._getter: Callable[[Mapping[str, Any]], Sequence[Any]] | None = None
        """`itemgetter` of the columns (set with them: two or more), for mapping rows."""
        self._column_set: frozenset[str] = frozenset()
        self._started = False
        self._closed = False

    def _values(self, row: Row) -> Sequence[Any]:
        assert self.columns is not None
        if isinstance(row, Mapping):
            if self._getter is not None:
                try:
                    return self._getter(row)  # every column there (the usual case): one C call
                except KeyError:
                    pass
            return [row.get(c) for c in self.columns]
        values = list(row)
        if len(values) != len(self.columns):
            raise ExportError(f"a row has {len(values)} values for {len(self.columns)} columns")
        return values

    def _begin(self, first: Row | None) -> None:
        if self.columns is None:
            if first is None:
                self.columns = []
            elif isinstance(first, Mapping):
                self.columns = [str(k) for k in first.keys()]
            else:
                raise ExportError("rows given as sequences need the column names")
        self._columns_set()
        self._started = True
        self.start()

    def _columns_set(self) -> None:
        """The columns' getter and set, made again when they change (a table's new column)."""
        assert self.columns is not None
        self._getter = operator.itemgetter(*self.columns) if len(self.columns) > 1 else None
        self._column_set = frozenset(self.columns)

    def _more_keys(self, row: Mapping[str, Any], number: int) -> None:
        """(`every_key`) `row`, row `number` from 1, has keys that are not columns: the format keeps them or says so."""
        for key in row:
            if key not in self._column_set:
                self.new_key(key, number)

    def new_key(self, key: str, number: int) -> None:
        """A key of row `number` that is not a column: left out (a format that can keep it does); the first row is kept."""
        if key in self.left_out:
            return
        if len(self.left_out) < MORE_KEYS:
            self.left_out[key] = number
        else:
            self.more_left_out = True

    def _see(self, rows: Sequence[Row]) -> None:
        """(`every_key`) the keys of a batch about to be written, checked against the columns (in C, when all are)."""
        if rows and isinstance(rows[0], Mapping) and not all(map(self._column_set.issuperset, rows)):
            for at, row in enumerate(rows):
                if isinstance(row, Mapping) and not self._column_set.issuperset(row):
                    self._more_keys(row, self.count + at + 1)

    def write(self, rows: Iterable[Row]) -> int:
        """Write rows; returns the count written so far."""
        if self._closed:
            raise ExportError("the writer is closed")
        more = self.every_key
        if more and isinstance(rows, list) and rows:  # a page: checked at once (in C); row by row only when one has more keys
            if not self._started:
                self._begin(rows[0])
            more = isinstance(rows[0], Mapping) and not all(map(self._column_set.issuperset, rows))
        for row in rows:
            if not self._started:
                self._begin(row)
            if more and isinstance(row, Mapping) and not self._column_set.issuperset(row):
                self._more_keys(row, self.count + 1)
                self.row_with_more(self._values(row), row)
            else:
                self.row(self._values(row))
            self.count += 1
            if self.progress is not None and self.count % self.progress_every == 0:
                self.progress(self.count)
        return self.count

    def close(self) -> int:
        """Finish the document (an empty one if nothing was written); returns the row count."""
        if self._closed:
            return self.count
        if not self._started:
            self._begin(None)
        self.finish()
        self._closed = True
        if self.progress is not None and self.count % self.progress_every != 0:
            self.progress(self.count)
        return self.count

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            self.close()

    # -- per format -------------------------------------------------------------------

    def start(self) -> None:
        """Write what comes before the first row."""

    def row(self, values: Sequence[Any]) -> None:
        raise NotImplementedError

    def row_with_more(self, values: Sequence[Any], row: Mapping[str, Any]) -> None:
        """(`every_key`) a row that has keys beyond the columns: the columns' values (the keys are in `left_out`)."""
        self.row(values)

    def finish(self) -> None:
        """Write what comes after the last row."""


def _safe_cells(values: Sequence[Any]) -> list[Any]:
    """Each value as a cell; the common ones (plain text, whole numbers) inline: a 100k-record report has two million."""
    return [v if (v.__class__ is str and v.isascii() and v.isprintable()) or v.__class__ is int else _cell(v) for v in values]


def _plain_column(values: Sequence[Any]) -> bool:
    """Whether every value of a column goes out as it is: all printable ASCII text, or all whole numbers
    (one check of the column joined, in C, instead of two per cell)."""
    try:
        text = "".join(values)
    except TypeError:  # not all text
        return set(map(type, values)) == {int}
    return text.isascii() and text.isprintable()


class CsvWriter(Writer):
    extension = "csv"

    def start(self) -> None:
        self._csv = csv.writer(self.fp, lineterminator="\r\n")
        self._csv.writerow([clean_lines(c, limit=None) for c in self.columns or []])

    def row(self, values: Sequence[Any]) -> None:
        self._csv.writerow(_safe_cells(values))

    def write(self, rows: Iterable[Row]) -> int:
        """A list of rows (a page) is written a column at a time, in slices that end where progress is said."""
        if not isinstance(rows, list) or not rows or self._closed:
            return super().write(rows)
        if not self._started:
            self._begin(rows[0])
        if not self.columns:
            return super().write(rows)
        if self.every_key:
            self._see(rows)
        at = 0
        while at < len(rows):
            chunk = rows[at : at + self.progress_every - self.count % self.progress_every]
            columns = list(zip(*self._rows_values(chunk)))
            self._csv.writerows(zip(*[col if _plain_column(col) else _safe_cells(col) for col in columns]))
            at += len(chunk)
            self.count += len(chunk)
            if self.progress is not None and self.count % self.progress_every == 0:
                self.progress(self.count)
        return self.count

    def _rows_values(self, rows: list[Row]) -> list[Sequence[Any]]:
        if self._getter is not None:
            try:
                return list(map(self._getter, rows))  # type: ignore[arg-type]  # mappings with every column (the usual case): in C
            except (KeyError, TypeError):
                pass
        return [self._values(row) for row in rows]


class _ObjectWriter(Writer):
    """JSON and JSON Lines: one object a row; with `every_key`, a row's keys beyond the columns follow them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._more: dict[str, int] = {}
        """(`every_key`) the keys beyond the columns seen so far (the first `MORE_KEYS`), each with its rank: the order they
        were first seen in. Those beyond are still written, after them, in the row's order."""

    def new_key(self, key: str, number: int) -> None:
        if key not in self._more and len(self._more) < MORE_KEYS:
            self._more[key] = len(self._more)

    def row(self, values: Sequence[Any]) -> None:
        assert self.columns is not None
        self.put(dict(zip(self.columns, values)))

    def row_with_more(self, values: Sequence[Any], row: Mapping[str, Any]) -> None:
        assert self.columns is not None
        item = dict(zip(self.columns, values))
        unranked = len(self._more)
        for key in sorted((k for k in row if k not in self._column_set), key=lambda k: self._more.get(k, unranked)):
            item[key] = row[key]
        self.put(item)

    def put(self, item: dict[str, Any]) -> None:
        raise NotImplementedError


class JsonWriter(_ObjectWriter):
    extension = "json"

    def start(self) -> None:
        self.fp.write("[")

    def put(self, item: dict[str, Any]) -> None:
        text = json_dumps(item, default=_json_default)
        self.fp.write(("\n" if self.count == 0 else ",\n") + text)

    def finish(self) -> None:
        self.fp.write("\n]\n" if self.count else "]\n")


class JsonlWriter(_ObjectWriter):
    extension = "jsonl"

    def put(self, item: dict[str, Any]) -> None:
        self.fp.write(json_dumps(item, default=_json_default) + "\n")


@dataclass(frozen=True, slots=True)
class ExportFormat:
    """A format the app can save: its name, file extension, writer and a one-line description."""

    name: str
    extension: str
    writer: type[Writer]
    description: str
    media_type: str

    def open(
        self, fp: TextIO, columns: Sequence[str] | None = None, *, progress: ProgressCallback | None = None, every_key: bool = False
    ) -> Writer:
        return self.writer(fp, columns, progress=progress, every_key=every_key)


FORMATS: dict[str, ExportFormat] = {
    f.name: f
    for f in (
        ExportFormat("csv", "csv", CsvWriter, "comma-separated values with a header row (UTF-8)", "text/csv"),
        ExportFormat("json", "json", JsonWriter, "a JSON array of objects, types kept", "application/json"),
        ExportFormat("jsonl", "jsonl", JsonlWriter, "JSON Lines: one object per line", "application/x-ndjson"),
    )
}


def format_for(name_or_path: str | os.PathLike[str]) -> ExportFormat:
    """The format named (csv, json, jsonl; any case) or implied by a file's extension."""
    text = str(name_or_path).strip()
    key = text.lower().lstrip(".")
    if key in FORMATS:
        return FORMATS[key]
    suffix = Path(text).suffix.lower().lstrip(".")
    if suffix == "ndjson":
        suffix = "jsonl"
    if suffix in FORMATS:
        return FORMATS[suffix]
    raise ExportError(f"unknown export format {text!r}: use {', '.join(FORMATS)} (or a file ending in .csv, .json, .jsonl)")


def write_rows(
    rows: Iterable[Row],
    fp: TextIO,
    fmt: str | ExportFormat = "csv",
    columns: Sequence[str] | None = None,
    *,
    progress: ProgressCallback | None = None,
) -> int:
    """Stream `rows` to an open text file in a format; returns the number of rows written."""
    spec = fmt if isinstance(fmt, ExportFormat) else format_for(fmt)
    writer = spec.open(fp, columns, progress=progress)
    writer.write(rows)
    return writer.close()


def write_csv(rows: Iterable[Row], fp: TextIO, columns: Sequence[str] | None = None, *, progress: ProgressCallback | None = None) -> int:
    return write_rows(rows, fp, "csv", columns, progress=progress)


def write_json(rows: Iterable[Row], fp: TextIO, columns: Sequence[str] | None = None, *, progress: ProgressCallback | None = None) -> int:
    return write_rows(rows, fp, "json", columns, progress=progress)


def write_jsonl(rows: Iterable[Row], fp: TextIO, columns: Sequence[str] | None = None, *, progress: ProgressCallback | None = None) -> int:
    return write_rows(rows, fp, "jsonl", columns, progress=progress)


class ExportFile:
    """A file being exported, written to a temporary name and moved in place on success.

    A failed or cancelled export never leaves a half file under the chosen
    name. Usage: `with ExportFile(path, fmt, columns) as out: out.write(rows)`.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        fmt: str | ExportFormat | None = None,
        columns: Sequence[str] | None = None,
        *,
        progress: ProgressCallback | None = None,
    ) -> None:
        self.path = Path(path)
        self.format = fmt if isinstance(fmt, ExportFormat) else format_for(fmt or self.path)
        self.columns = columns
        self.progress = progress
        self._tmp: str | None = None
        self._fp: TextIO | None = None
        self.writer: Writer | None = None

    def __enter__(self) -> Writer:
        private_dirs(self.path.parent)
        # mkstemp creates the file 0600 and os.replace keeps that: exports are private.
        fd, self._tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".part", dir=self.path.parent)
        self._fp = os.fdopen(fd, "w", encoding="utf-8", newline="")
        self.writer = self.format.open(self._fp, self.columns, progress=self.progress)
        return self.writer

    def __exit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
        assert self._fp is not None and self._tmp is not None and self.writer is not None
        try:
            if exc_type is None:
                self.writer.close()
            self._fp.close()
            if exc_type is None:
                os.replace(self._tmp, self.path)
                self._tmp = None
        finally:
            if self._tmp is not None:
                try:
                    os.unlink(self._tmp)
                except OSError:
                    pass


def export(
    rows: Iterable[Row],
    path: str | os.PathLike[str],
    fmt: str | ExportFormat | None = None,
    columns: Sequence[str] | None = None,
    *,
    progress: ProgressCallback | None = None,
) -> int:
    """Write rows to `path` (format from `fmt` or the extension), atomically; returns the row count."""
    with ExportFile(path, fmt, columns, progress=progress) as writer:
        writer.write(rows)
    return writer.count


async def export_async(
    pages: AsyncIterable[Any],
    path: str | os.PathLike[str],
    fmt: str | ExportFormat | None = None,
    columns: Sequence[str] | None = None,
    *,
    progress: ProgressCallback | None = None,
) -> int:
    """Write rows arriving in batches to `path`; returns the count.

    A batch is an iterable of rows or anything with `.rows` (a report pager's
    `ReportPage`), so `export_async(pager, path)` saves a whole report.
    """
    with ExportFile(path, fmt, columns, progress=progress) as writer:
        async for batch in pages:
            writer.write(getattr(batch, "rows", batch))
    return writer.count


__all__ = [
    "CsvWriter",
    "ExportError",
    "ExportFile",
    "ExportFormat",
    "FORMATS",
    "JsonWriter",
    "JsonlWriter",
    "ProgressCallback",
    "Writer",
    "export",
    "export_async",
    "format_for",
    "write_csv",
    "write_json",
    "write_jsonl",
    "write_rows",
]
