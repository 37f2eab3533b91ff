"""Report groups and their data models as rows: the catalogue (`flextui report`) and a group's model (`report model`)."""

from __future__ import annotations

from typing import Any

from flextui.api.filters import ReportType


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
