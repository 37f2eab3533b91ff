"""Headless data reports: `flextui report list | types [GROUP] | run GROUP`.

`run` checks the filters against the report's data model and the operator
list before sending anything (exit 2 with a message naming the filter; the
operator list is asked for only when there are conditions, and one that
fails or cannot be read leaves the documented operators in its place, said
on stderr), then streams the pages, fetched several at once, straight to
stdout in the format asked: 100,000 records as CSV never sit in memory as a
whole. On a terminal
the running count goes to stderr. API errors propagate to the CLI, which maps
them to exit codes.

The columns are the data model's; a record's other fields are kept too: JSON
objects carry them after the model's (in the order first seen), the table
grows a column. A CSV header is written before the rows, so it has the model's
columns and the other fields of the first page; a field first seen later is
left out, and stderr names it, where it came first and what keeps it (exit 9).
Every line said on stderr passes the sanitiser (`common.Stderr`).

    flextui report run fulfillment --filter 'accountID $sw 10' --past-days 7 --format csv --demo > out.csv
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import AsyncIterator
from typing import Any, TextIO

from flextui import kinds
from flextui.api import errors
from flextui.api.filters import FilterError, FilterSet, OperatorList, ReportType
from flextui.api.http import Session
from flextui.api.reports import Repeats, ReportsService, moving_window
from flextui.headless.common import Stderr, Tally
from flextui.render.export import MORE_KEYS, Writer, format_for
from flextui.render.reports import catalogue_row, model_rows
from flextui.render.tableout import TableWriter
from flextui.render.words import plural

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INCOMPLETE = errors.EXIT_INCOMPLETE
EXIT_FIELDS_LEFT_OUT = 9
"""`report run` wrote every record, but fields it had no column for are not in it (CSV: first seen after its header was
written; the table: beyond `MORE_KEYS` added columns); stderr names them."""


class UsageError(Exception):
    """Bad input on the command line: printed as `flextui: <message>`, exit 2."""


async def resolve_group(service: ReportsService, name: str | None) -> str:
    """The group as the service spells it (case-insensitive); UsageError naming the groups otherwise."""
    if not name:
        raise UsageError("name a report group, e.g. flextui report run fulfillment (flextui report list shows them)")
    names = await service.report_names()
    if name in names:
        return name
    folded = {n.casefold(): n for n in names}
    if name.casefold() in folded:
        return folded[name.casefold()]
    raise UsageError(f"no report group {name!r}; the groups are: {', '.join(names)}")


async def get_reports(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """The catalogue as rows (also `flextui get reports`)."""
    for rtype in await ReportsService(session).report_types():
        yield catalogue_row(rtype)


OPTION_OF = {"pastDays": "--past-days", "dateFrom": "--date-from", "dateTo": "--date-to", "limitRecords": "--limit-records"}
"""The option that gives each of a report request's own fields (a `FilterError` names the field)."""


def build_filters(args: argparse.Namespace, rtype: ReportType, operators: OperatorList | None) -> FilterSet:
    """The checked FilterSet of the command line; FilterError names the filter at fault (`operators` None: the
    documented ones, for a run with no conditions needs none)."""
    return FilterSet.build(
        args.filter or (),
        past_days=args.past_days,
        date_from=args.date_from,
        date_to=args.date_to,
        limit_records=args.limit_records,
        report=rtype,
        operators=operators,
    )


def _emit_rows(rows: list[dict[str, Any]], fmt: str, out: TextIO, tally: Tally, columns: list[str] | None = None) -> int:
    """`list` and `types`: the rows in a format, each counted in `tally` once written (ctrl+c says where they stop).

    `columns`, when known without rows (`list`: the reports kind's fields, as `get reports`), else the first row's keys.
    """
    columns = columns or (list(rows[0]) if rows else [])
    writer = _open(fmt, out, columns)
    try:
        for row in rows:
            tally.count = writer.write([row])
    except BaseException:
        if isinstance(writer, TableWriter):  # laid out at the end: show the rows read (stderr says it stops there)
            writer.close()
        raise
    return writer.close()


def _open(fmt: str, out: TextIO, columns: list[str], *, every_key: bool = False) -> Writer:
    """The writer of a format (`table` or an export format) on `out`."""
    if fmt == "table":
        return TableWriter(out, columns, every_key=every_key)
    return format_for(fmt).open(out, columns, every_key=every_key)


def header_columns(rtype: ReportType, first: list[dict[str, Any]], fmt: str) -> list[str]:
    """The columns a run starts with: the data model's, then (CSV: its header is written before the rows) the other
    keys of the first page, as first seen. The other formats take a key when it comes (`Writer(every_key=True)`)."""
    columns = list(rtype.column_names)
    if fmt == "csv":
        known = set(columns)
        for row in first:
            if not known.issuperset(row):
                for key in row:
                    if key not in known:
                        known.add(key)
                        columns.append(key)
    return columns


@dataclasses.dataclass
class LeftOut:
    """The fields an output had no column for (CSV: first seen after its header was written), with where each came first."""

    fmt: str
    pages: dict[str, int] = dataclasses.field(default_factory=dict)
    """Each such field and the page it was first seen on."""

    def note(self, writer: Writer | None, page: int) -> None:
        """After a page is written: the fields the writer left out for the first time were on `page`."""
        if writer is not None and len(writer.left_out) > len(self.pages):
            for key in writer.left_out:
                self.pages.setdefault(key, page)

    def describe(self, writer: Writer | None, group: str) -> str:
        """What to say of them ("" when none)."""
        if writer is None or not writer.left_out:
            return ""
        named = [
            f"{key} (first in record {number:,}, page {self.pages.get(key, '?')})"
            for key, number in list(writer.left_out.items())[:SHOWN_FIELDS]
        ]
        more = len(writer.left_out) - len(named)
        if writer.more_left_out:
            named.append("and more fields")
        elif more > 0:
            named.append(f"and {plural(more, 'more field')}")
        one = len(writer.left_out) == 1 and not writer.more_left_out
        fields = "a field" if one else f"{len(writer.left_out):,}{'+' if writer.more_left_out else ''} fields"
        why = "first seen after the CSV header was written" if self.fmt == "csv" else f"beyond the table's {MORE_KEYS:,} added columns"
        return (
            f"{fields} of the {group} records {why} {'is' if one else 'are'} not in the output: "
            f"{', '.join(named)}; -o jsonl or -o json writes every field of every record"
        )


SHOWN_FIELDS = 10
"""The left-out fields named one by one; more are counted."""


async def run_records(ctx: Any, args: argparse.Namespace, out: TextIO, err: Stderr, tally: Tally | None = None) -> int:
    """`report run GROUP`: check, fetch concurrently, stream out; returns the exit code (`tally`: the records written)."""
    service = ReportsService(ctx.session)
    group = await resolve_group(service, args.group)
    rtype = await service.report_type(group)
    operators = None  # a run with no conditions never asks for (or waits on) the operator list
    if args.filter:
        operators = await service.op_list()
        if operators.notice:
            err.say(operators.notice)
    try:
        filters = build_filters(args, rtype, operators)
    except FilterError as exc:
        option = OPTION_OF.get(exc.field or "")
        if option is not None:  # the request's own fields come from options: named as typed, and as the API names them
            err.say(f"{option}: {exc.message}")
        else:
            where = f" ({exc.field})" if exc.field else ""
            err.say(f"bad filter{where}: {exc.message}")
        return EXIT_USAGE
    if args.max_records is not None and args.max_records < 1:
        raise UsageError("--max-records must be at least 1")
    if args.past_days is None and args.date_from is None and args.date_to is None:
        err.say("no --past-days or --date-from given: asking for the past 1 day (the service's default)")
    same_day = filters.same_day_note()
    if same_day:
        err.say(same_day)
    fmt = args.format
    writer: Writer | None = None
    left_out = LeftOut(fmt)
    tally = tally or Tally()
    tally.what = "records"
    ctx.session.storing = bool(getattr(args, "cache_pages", False))  # an export's pages: read from the cache, not added
    pager = service.pager(group, filters, max_records=args.max_records)
    repeats = Repeats(group, pages=2, moving=moving_window(filters))
    try:
        async with pager:
            async for page in pager:
                if writer is None:
                    writer = _open(fmt, out, header_columns(rtype, page.rows, fmt), every_key=True)
                writer.write(repeats.fresh(page.rows))
                left_out.note(writer, page.number)
                tally.count = writer.count
                err.count(tally.count, pager.total_records)
    except BaseException as exc:  # an API error or ctrl+c
        # The document stays unfinished (a JSON array without its `]`): with the error line, it cannot pass for the whole report.
        err.clear()
        if not tally.count:
            raise
        if isinstance(writer, TableWriter):  # laid out at the end: show the rows read (stderr says it stops there)
            writer.close()
        out.flush()
        fields_note = left_out.describe(writer, group)
        if not isinstance(exc, errors.ApiError):  # ctrl+c: the CLI says where it stops, in the same words (exit 130)
            if fields_note:
                err.say(fields_note)
            raise
        err.say(f"{exc}{tally.cut_short()}")
        if fields_note:
            err.say(fields_note)
        return exc.exit_code
    finally:
        err.clear()
    if writer is None:
        writer = _open(fmt, out, header_columns(rtype, [], fmt), every_key=True)
    writer.close()
    out.flush()
    fields_note = left_out.describe(writer, group)
    total = pager.total_records
    moved = pager.moved_note()
    if not pager.outcome.complete:
        # The records written, not received: a moving window sends some twice, and those were dropped.
        shown = dataclasses.replace(pager.outcome, count=tally.count)
        shown.at_least = max(shown.at_least or 0, tally.count + 1)
        err.say(shown.describe())
        if repeats.dropped:
            err.say(f"{plural(repeats.dropped, 'repeated record')} dropped (the window moved while paging)")
        if moved:
            err.say(moved)
        if pager.unchecked:
            err.say(pager.unchecked_note())
        if fields_note:
            err.say(fields_note)
        return EXIT_INCOMPLETE
    count = tally.count
    if count == 0:
        err.say(f"no records: {group} with {filters.describe()}", prefix="")
    elif err.tty:
        more = f" of {total:,}" if total is not None and total != count + repeats.dropped else ""
        limit = " (stopped at --max-records)" if more and args.max_records is not None else ""
        err.say(f"{count:,}{more} {group} records{limit}", prefix="")
    if repeats.dropped:
        err.say(f"{plural(repeats.dropped, 'repeated record')} dropped (the window moved while paging)")
    if fields_note:
        err.say(fields_note)
    if moved:
        err.say(moved)
        return EXIT_INCOMPLETE
    unchecked = pager.unchecked_note()
    if unchecked:  # records may be missing and nothing can tell: not an exit that passes for the whole report
        err.say(f"{count:,} {group} records of {filters.describe()}, read in pages: {unchecked}")
        return EXIT_INCOMPLETE
    return EXIT_FIELDS_LEFT_OUT if fields_note else EXIT_OK


async def run_report(
    ctx: Any, args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None, tally: Tally | None = None
) -> int:
    """`flextui report ACTION [GROUP] …`; returns the exit code (ApiError propagates); `tally`: the rows or records written.

    Everything said on `err` goes through `Stderr.say`: the sanitiser (group, field and operator names come from the server).
    """
    out = out or sys.stdout
    said = Stderr(err or sys.stderr)
    tally = tally or Tally()
    service = ReportsService(ctx.session)
    try:
        if args.action == "list":
            rows = [catalogue_row(t) for t in await service.report_types()]
            _emit_rows(rows, args.format, out, tally, list(kinds.get("reports").fields))
            return EXIT_OK
        if args.action == "types":
            if args.group:
                group = await resolve_group(service, args.group)
                rows = model_rows(await service.report_type(group))
            else:
                rows = [row for t in await service.report_types() for row in model_rows(t, with_group=True)]
            _emit_rows(rows, args.format, out, tally)
            return EXIT_OK
        if args.action == "run":
            return await run_records(ctx, args, out, said, tally)
        raise UsageError(f"unknown report action {args.action!r}: use list, types or run")
    except UsageError as exc:
        said.say(exc)
        return EXIT_USAGE


__all__ = ["build_filters", "catalogue_row", "get_reports", "model_rows", "resolve_group", "run_records", "run_report"]
