"""Headless data reports: `flextui report list | types [GROUP] | run GROUP`.

`run` checks the filters against the report's data model and the operator
list before sending anything (exit 2 with a message naming the filter), then
streams the pages, fetched several at once, straight to stdout in the format
asked: 100,000 records as CSV never sit in memory as a whole. On a terminal
the running count goes to stderr. API errors propagate to the CLI, which maps
them to exit codes.

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
from flextui.api.filters import FilterError, FilterSet, ReportType
from flextui.api.http import Session
from flextui.api.reports import Repeats, ReportsService, moving_window
from flextui.headless.common import Tally
from flextui.render.export import format_for
from flextui.render.reports import catalogue_row, model_rows
from flextui.render.tableout import TableWriter
from flextui.render.text import clean
from flextui.render.words import plural

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INCOMPLETE = errors.EXIT_INCOMPLETE


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


def build_filters(args: argparse.Namespace, rtype: ReportType, operators: Any) -> FilterSet:
    """The checked FilterSet of the command line; FilterError names the filter at fault."""
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
    writer = TableWriter(out, columns) if fmt == "table" else format_for(fmt).open(out, columns)
    try:
        for row in rows:
            tally.count = writer.write([row])
    except BaseException:
        if isinstance(writer, TableWriter):  # laid out at the end: show the rows read (stderr says it stops there)
            writer.close()
        raise
    return writer.close()


class _Progress:
    """`12,500 of 100,000 records` on stderr, only when stderr is a terminal."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.on = bool(getattr(err, "isatty", lambda: False)())
        self.shown = False

    def show(self, done: int, total: int | None) -> None:
        if self.on:
            of = f" of {total:,}" if total is not None else ""
            self.err.write(f"\r  {done:,}{of} records…")
            self.err.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self.shown = False


async def run_records(ctx: Any, args: argparse.Namespace, out: TextIO, err: TextIO, tally: Tally | None = None) -> int:
    """`report run GROUP`: check, fetch concurrently, stream out; returns the exit code (`tally`: the records written)."""
    service = ReportsService(ctx.session)
    group = await resolve_group(service, args.group)
    rtype = await service.report_type(group)
    operators = await service.op_list()
    try:
        filters = build_filters(args, rtype, operators)
    except FilterError as exc:
        option = OPTION_OF.get(exc.field or "")
        if option is not None:  # the request's own fields come from options: named as typed, and as the API names them
            err.write(f"flextui: {option}: {exc.message}\n")
        else:
            where = f" ({exc.field})" if exc.field else ""
            err.write(f"flextui: bad filter{where}: {exc.message}\n")
        return EXIT_USAGE
    if args.max_records is not None and args.max_records < 1:
        raise UsageError("--max-records must be at least 1")
    if args.past_days is None and args.date_from is None and args.date_to is None:
        err.write("flextui: no --past-days or --date-from given: asking for the past 1 day (the service's default)\n")
    fmt = args.format
    progress = _Progress(err)
    writer = None
    tally = tally or Tally()
    tally.what = "records"
    ctx.session.storing = bool(getattr(args, "cache_pages", False))  # an export's pages: read from the cache, not added
    pager = service.pager(group, filters, max_records=args.max_records)
    repeats = Repeats(group, pages=2, moving=moving_window(filters))
    try:
        async with pager:
            async for page in pager:
                if writer is None:
                    columns = rtype.column_names
                    known = set(columns)
                    for row in page.rows[:50]:
                        columns += [k for k in row if k not in known and not known.add(k)]  # type: ignore[func-returns-value]
                    writer = TableWriter(out, columns) if fmt == "table" else format_for(fmt).open(out, columns)
                writer.write(repeats.fresh(page.rows))
                tally.count = writer.count
                progress.show(tally.count, pager.total_records)
    except BaseException as exc:  # an API error or ctrl+c
        # The document stays unfinished (a JSON array without its `]`): with the error line, it cannot pass for the whole report.
        progress.clear()
        if not tally.count:
            raise
        if isinstance(writer, TableWriter):  # laid out at the end: show the rows read (stderr says it stops there)
            writer.close()
        out.flush()
        if not isinstance(exc, errors.ApiError):  # ctrl+c: the CLI says where it stops, in the same words (exit 130)
            raise
        err.write(f"flextui: {clean(str(exc))}{tally.cut_short()}\n")
        return exc.exit_code
    finally:
        progress.clear()
    if writer is None:
        writer = TableWriter(out, rtype.column_names) if fmt == "table" else format_for(fmt).open(out, rtype.column_names)
    writer.close()
    out.flush()
    total = pager.total_records
    moved = pager.moved_note()
    if not pager.outcome.complete:
        # The records written, not received: a moving window sends some twice, and those were dropped.
        shown = dataclasses.replace(pager.outcome, count=tally.count)
        shown.at_least = max(shown.at_least or 0, tally.count + 1)
        err.write(f"flextui: {shown.describe()}\n")
        if repeats.dropped:
            err.write(f"flextui: {plural(repeats.dropped, 'repeated record')} dropped (the window moved while paging)\n")
        if moved:
            err.write(f"flextui: {moved}\n")
        if pager.unchecked:
            err.write(f"flextui: {pager.unchecked_note()}\n")
        return EXIT_INCOMPLETE
    count = tally.count
    if count == 0:
        err.write(f"no records: {group} with {filters.describe()}\n")
    elif progress.on:
        more = f" of {total:,}" if total is not None and total != count + repeats.dropped else ""
        limit = " (stopped at --max-records)" if more and args.max_records is not None else ""
        err.write(f"{count:,}{more} {group} records{limit}\n")
    if repeats.dropped:
        err.write(f"flextui: {plural(repeats.dropped, 'repeated record')} dropped (the window moved while paging)\n")
    if moved:
        err.write(f"flextui: {moved}\n")
        return EXIT_INCOMPLETE
    unchecked = pager.unchecked_note()
    if unchecked:  # records may be missing and nothing can tell: not an exit that passes for the whole report
        err.write(f"flextui: {count:,} {group} records of {filters.describe()}, read in pages: {unchecked}\n")
        return EXIT_INCOMPLETE
    return EXIT_OK


async def run_report(
    ctx: Any, args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None, tally: Tally | None = None
) -> int:
    """`flextui report ACTION [GROUP] …`; returns the exit code (ApiError propagates); `tally`: the rows or records written."""
    out = out or sys.stdout
    err = err or sys.stderr
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
            return await run_records(ctx, args, out, err, tally)
        raise UsageError(f"unknown report action {args.action!r}: use list, types or run")
    except UsageError as exc:
        err.write(f"flextui: {exc}\n")
        return EXIT_USAGE


__all__ = ["build_filters", "catalogue_row", "get_reports", "model_rows", "resolve_group", "run_records", "run_report"]
