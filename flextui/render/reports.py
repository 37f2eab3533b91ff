"""Report groups, their data models and their records as rows: the catalogue (`flextui report`), a group's
model (`report model`), and a report's pages packed for the grid (`RowPacker`, `grid_columns`)."""

from __future__ import annotations

import operator
import re
from typing import Any

from flextui.api.filters import ReportType
from flextui.kinds import Link
from flextui.render.table import Column


def catalogue_row(rtype: ReportType) -> dict[str, Any]:
    """One report group as a row: name, column and filter counts, the date column."""
    return {
        "name": rtype.group,
        "columns": len(rtype.columns),
        "filters": ", ".join(f.name for f in rtype.filters),
        "dateField": rtype.date_field,
        "description": rtype.description,
    }


def model_rows(rtype: ReportType, *, with_group: bool = False) -> list[dict[str, Any]]:
    """The data model of a group, one row per column (with the filter that tests it, if any)."""
    by_column = {f.column: f for f in rtype.filters}
    rows = []
    for col in rtype.columns:
        filt = by_column.get(col.name)
        row: dict[str, Any] = {"group": rtype.group} if with_group else {}
        row.update(
            {
                "column": col.name,
                "type": col.type,
                "filter": filt.name if filt else None,
                "operators": " ".join(filt.operators) if filt else None,
                "description": col.description,
            }
        )
        rows.append(row)
    return rows


GRID_TYPES = {"integer": "int", "number": "float", "boolean": "bool"}

TIME_TYPES = frozenset({"date", "datetime"})
"""Data model types that are times: the documented Java types Date and DateTime (and the aliases `api.filters` reads)."""

TIME_NAME = re.compile(r"(?:Time|Date|Millis|Timestamp)$|(?:^|_)(?:time|date|millis|timestamp)$")
"""A column name that says it is a time: camelCase `usageTime`, `lastSyncDate`, `createdMillis`; snake_case `event_time`."""


class RowPacker:
    """Page dicts → tuples (or columns) in column order (a record without a column gets None there).

    `itemgetter` does the reshaping in C: about 2 ms a 2,500-record page. Repeated
    values are shared by the grid's column stores (`render/columns.Pooled`), which
    keep each distinct value once, so the packer no longer pools them itself.
    """

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)
        self._row = operator.itemgetter(*self.names) if len(self.names) > 1 else None

    def columns(self, rows: list[dict[str, Any]]) -> list[list[Any]]:
        """The rows column by column (what the grid's stores take)."""
        if not rows or self._row is None:
            return [[row.get(name) for row in rows] for name in self.names]
        try:  # every record has every column (the usual case): one C-level call a row, then a transpose in C
            return list(map(list, zip(*map(self._row, rows), strict=True)))  # half the time of a pass a column
        except KeyError:
            return [[row.get(name) for row in rows] for name in self.names]

    def pack(self, rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        """The rows as tuples in column order."""
        return list(zip(*self.columns(rows), strict=True))


def epoch_hint(name: str, rtype: Any) -> str:
    """Whether a report column may hold epoch milliseconds, and on what evidence (`render.table.Column.epoch_hint`).

    The data model first: a column (or the filter on it) whose stated type is a time (Date, DateTime: the types
    report-types documents), the report's own date column (`dateField`, which places a record in time), or one its
    description says counts epoch milliseconds → "stated". Failing that, a column whose name says it is a time
    (`…Time`, `…Date`, `…Millis`, `…Timestamp`) and that the model does not call text → "named". Either way the
    values decide (`GridModel`): only whole numbers in a plausible range are read as times (for "named", 2000 to
    2100), so a count or an id is never shown as a date, and a date sent as text stays as it was sent.
    """
    if rtype is None:
        return "named" if TIME_NAME.search(name) else ""
    model_col = rtype.column(name)
    filt = rtype.filter(name)
    stated = {t.type for t in (model_col, filt) if t is not None}
    description = (model_col.description if model_col is not None else "").casefold()
    if stated & TIME_TYPES or rtype.date_field == name or ("epoch" in description and "milli" in description):
        return "stated"
    if TIME_NAME.search(name) and not stated - {"integer", "number"}:
        return "named"
    return ""


def grid_columns(names: list[str], rtype: Any) -> list[Column]:
    """Grid columns for the report's columns: numbers typed (right-aligned, numeric sort), the rest text; a column
    that may count epoch milliseconds marked so (`epoch_hint`): its values decide whether it shows UTC times."""
    out = []
    for name in names:
        model_col = rtype.column(name) if rtype is not None else None
        ctype = GRID_TYPES.get(model_col.type, "str") if model_col is not None else "auto"
        out.append(Column(name, ctype, epoch_hint=epoch_hint(name, rtype)))  # type: ignore[arg-type]
    return out


def _named(row: dict[str, Any], *names: str) -> tuple[str, str] | None:
    """(column, text) of the first of `names` the row has a value for, whatever the case of its key."""
    lowered = {k.lower(): k for k in row}
    for name in names:
        key = lowered.get(name.lower())
        value = row.get(key) if key is not None else None
        if value not in (None, ""):
            return key or name, str(value)
    return None


def row_links(row: dict[str, Any], column: str | None = None) -> list[Link]:
    """The records a report row names (`j` on the results): the cursor's column's own first, alone.

    Activation → its line item in the entitlement tree; product (and version) → the catalogue;
    account → its entitlements and its users; user → that user. Columns are matched by name in any case, as the
    groups spell them differently (accountID in most, accountId in usage).
    """
    links: dict[str, list[Link]] = {}
    found = _named(row, "activationID", "activationId")
    if found:
        links[found[0]] = [Link(f"activation {found[1]}: its line item in the entitlement tree", "entitlements", f"activation={found[1]}")]
    found = _named(row, "productName", "product")
    if found:
        version = _named(row, "productVersion", "version")
        argument = found[1] + (f"@{version[1]}" if version else "")
        links[found[0]] = [Link(f"product {argument} in the catalogue", "products", argument)]
        if version:
            links[version[0]] = links[found[0]]
    found = _named(row, "accountID", "accountId", "account")
    if found:
        links[found[0]] = [
            Link(f"account {found[1]}: its entitlements", "entitlements", found[1]),
            Link(f"account {found[1]}: its users", "users", found[1]),
        ]
    found = _named(row, "userName", "username", "user")
    if found:
        links[found[0]] = [Link(f"user {found[1]}", "users", f"user={found[1]}")]
    if column is not None and column in links:
        return links[column]
    out: list[Link] = []
    for group in links.values():
        out += [link for link in group if link not in out]
    return out
