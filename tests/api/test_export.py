"""The export writers: byte-exact golden files, streaming, progress, the format table.

The golden files in tests/fixtures/export/ were written by these writers and
checked by hand; a change to them is a change of the exported format, which
users' scripts may read, so it must be deliberate (regenerate with
`FLEXTUI_REGEN_GOLDEN=1`).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import flextui.sim.app as sim_app_module
from flextui.api.filters import FilterSet
from flextui.api.http import Session
from flextui.api.reports import ReportsService
from flextui.render.export import (
    FORMATS,
    CsvWriter,
    ExportError,
    ExportFile,
    export,
    export_async,
    format_for,
    write_csv,
    write_json,
    write_jsonl,
    write_rows,
)

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "export"
COLUMNS = ["fulfillmentID", "accountName", "quantity", "used", "isPermanent", "fulfillDate", "expirationDate", "note"]
ROWS: list[dict[str, Any]] = [
    {
        "fulfillmentID": "FID-0000001",
        "accountName": "Acme Robotics",
        "quantity": 5,
        "used": 12.5,
        "isPermanent": False,
        "fulfillDate": "2026-10-30T10:45:30Z",
        "expirationDate": "2027-10-30",
        "note": "plain",
    },
    {
        "fulfillmentID": "FID-0000002",
        "accountName": "Müller, Söhne & Co",
        "quantity": 1,
        "used": 0.0,
        "isPermanent": True,
        "fulfillDate": "2026-10-31T00:00:00Z",
        "expirationDate": None,
        "note": 'says "hi"\non two lines',
    },
    {
        "fulfillmentID": "FID-0000003",
        "accountName": "日本ロボット",
        "quantity": 250,
        "used": 1e-06,
        "isPermanent": False,
        "fulfillDate": "2026-11-01T23:59:59Z",
        "expirationDate": "2026-12-01",
        "note": "=SUM(A1:A3)",
    },
    {
        "fulfillmentID": "FID-0000004",
        "accountName": "",
        "quantity": 0,
        "used": -3,
        "isPermanent": None,
        "fulfillDate": "2026-11-02T09:00:00Z",
        "expirationDate": None,
        "note": " padded ",
    },
]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_golden_files(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / f"report.{fmt}"
    assert export(ROWS, path) == len(ROWS)
    golden = GOLDEN / f"report.{FORMATS[fmt].extension}"
    if os.environ.get("FLEXTUI_REGEN_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(path.read_bytes())
    assert path.read_bytes() == golden.read_bytes()
    # tuples with column names give the same bytes
    again = tmp_path / f"tuples.{fmt}"
    export([tuple(r[c] for c in COLUMNS) for r in ROWS], again, columns=COLUMNS)
    assert again.read_bytes() == golden.read_bytes()


def test_golden_files_read_back() -> None:
    text = (GOLDEN / "report.csv").read_bytes().decode("utf-8")
    assert not text.startswith("\ufeff")
    table = list(csv.reader(io.StringIO(text, newline="")))
    assert table[0] == COLUMNS
    assert table[2][COLUMNS.index("note")] == 'says "hi"\non two lines'
    assert table[3][COLUMNS.index("note")] == "=SUM(A1:A3)", "CSV neutralises nothing"
    assert table[2][COLUMNS.index("isPermanent")] == "true" and table[2][COLUMNS.index("expirationDate")] == ""
    assert json.loads((GOLDEN / "report.json").read_text("utf-8")) == ROWS
    lines = (GOLDEN / "report.jsonl").read_text("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == ROWS


def test_columns_choose_and_order_the_fields() -> None:
    out = io.StringIO()
    write_json(ROWS[:2], out, ["quantity", "fulfillmentID", "missing"])
    assert json.loads(out.getvalue()) == [
        {"quantity": 5, "fulfillmentID": "FID-0000001", "missing": None},
        {"quantity": 1, "fulfillmentID": "FID-0000002", "missing": None},
    ]
    out = io.StringIO()
    write_csv(ROWS[:1], out, ["quantity", "fulfillmentID"])
    assert out.getvalue() == "quantity,fulfillmentID\r\n5,FID-0000001\r\n"


MORE_KEYS = [{"a": 1, "b": 2}, {"a": 3, "b": 4, "y": "y1", "x": "x1"}, {"x": "x2", "a": 5}, {"b": 6, "z": 0, "y": "y3"}]


@pytest.mark.parametrize("paged", [False, True])
def test_every_key_is_kept_or_recorded_as_left_out(paged: bool) -> None:
    """`every_key`: JSON objects carry a row's other keys after the columns, in the order first seen; CSV, whose header
    is out before the rows, records each with the row it was first in; without it, columns are exactly the keys."""
    from flextui.render.tableout import TableWriter

    def written(fmt: str, **kwargs: Any) -> tuple[str, Any]:
        out = io.StringIO()
        writer = TableWriter(out, ["a", "b"], **kwargs) if fmt == "table" else format_for(fmt).open(out, ["a", "b"], **kwargs)
        for part in [MORE_KEYS[:1], MORE_KEYS[1:]] if paged else [MORE_KEYS]:
            writer.write(list(part))
        writer.close()
        return out.getvalue(), writer

    text, _ = written("jsonl", every_key=True)
    assert [list(json.loads(line).items()) for line in text.splitlines()] == [
        [("a", 1), ("b", 2)],
        [("a", 3), ("b", 4), ("y", "y1"), ("x", "x1")],
        [("a", 5), ("b", None), ("x", "x2")],
        [("a", None), ("b", 6), ("y", "y3"), ("z", 0)],
    ]
    text, writer = written("json", every_key=True)
    assert [list(r) for r in json.loads(text)] == [["a", "b"], ["a", "b", "y", "x"], ["a", "b", "x"], ["a", "b", "y", "z"]]
    assert writer.left_out == {}
    text, writer = written("csv", every_key=True)
    assert text.splitlines()[0] == "a,b" and len(text.splitlines()) == 5
    assert writer.left_out == {"y": 2, "x": 2, "z": 4}
    text, writer = written("table", every_key=True)
    assert text.splitlines()[0].split() == ["a", "b", "y", "x", "z"] and writer.left_out == {}
    assert text.splitlines()[2].rstrip() == "1  2" and text.splitlines()[5].split() == ["6", "y3", "0"]
    for fmt in ("json", "csv"):  # the default: the columns, exactly
        text, writer = written(fmt)
        assert "x" not in text and writer.left_out == {}


def test_what_a_writer_remembers_of_more_keys_is_bounded() -> None:
    """A server naming a new field in every record: the writer keeps `MORE_KEYS` of them, not one a row."""
    from flextui.render.export import MORE_KEYS
    from flextui.render.tableout import TableWriter

    rows = [{"a": i, f"k{i}": i} for i in range(MORE_KEYS + 500)]
    csv_writer = format_for("csv").open(io.StringIO(), ["a"], every_key=True)
    csv_writer.write(rows)
    assert len(csv_writer.left_out) == MORE_KEYS and csv_writer.more_left_out
    out = io.StringIO()
    json_writer = format_for("jsonl").open(out, ["a"], every_key=True)
    json_writer.write(rows)
    assert [json.loads(line) for line in out.getvalue().splitlines()] == rows, "JSON still writes every key"
    assert len(json_writer._more) == MORE_KEYS  # type: ignore[attr-defined]
    table = TableWriter(io.StringIO(), ["a"], every_key=True)
    table.write(rows[: MORE_KEYS + 2])
    assert len(table.columns or []) == 1 + MORE_KEYS and list(table.left_out) == [f"k{MORE_KEYS}", f"k{MORE_KEYS + 1}"]


def test_empty_exports_are_valid_documents() -> None:
    for writer, expected in ((write_csv, "a,b\r\n"), (write_json, "[]\n"), (write_jsonl, "")):
        out = io.StringIO()
        assert writer([], out, ["a", "b"]) == 0
        assert out.getvalue() == expected
    out = io.StringIO()
    write_json([], out)
    assert json.loads(out.getvalue()) == []


def test_streaming_100k_rows_with_progress(tmp_path: Path) -> None:
    produced = 0

    def rows() -> Iterator[tuple[int, str, float]]:
        nonlocal produced
        for i in range(100_000):
            produced += 1
            yield (i, f"host-{i:06d}", i / 4)

    seen: list[int] = []

    def progress(count: int) -> None:
        seen.append(count)
        # the writer consumes rows as it goes: never far ahead of what it has written
        assert produced - count <= 1

    path = tmp_path / "big.jsonl"
    assert export(rows(), path, columns=["n", "host", "quarter"], progress=progress) == 100_000
    assert seen[0] == 1000 and seen[-1] == 100_000 and len(seen) == 100
    with path.open(encoding="utf-8") as fp:
        first = json.loads(next(fp))
        last = None
        for last in fp:
            pass
    assert first == {"n": 0, "host": "host-000000", "quarter": 0.0}
    assert json.loads(last) == {"n": 99_999, "host": "host-099999", "quarter": 24999.75}  # type: ignore[arg-type]


def test_progress_reports_the_final_count() -> None:
    seen: list[int] = []
    write_rows(ROWS, io.StringIO(), "csv", progress=seen.append)
    assert seen == [4]


def test_the_format_table() -> None:
    assert set(FORMATS) == {"csv", "json", "jsonl"}
    assert format_for("CSV") is FORMATS["csv"]
    assert format_for("out/fulfillments.JSONL") is FORMATS["jsonl"]
    assert format_for("data.ndjson") is FORMATS["jsonl"]
    assert format_for(".json") is FORMATS["json"]
    with pytest.raises(ExportError, match="unknown export format 'xlsx'"):
        format_for("xlsx")
    with pytest.raises(ExportError, match="report.txt"):
        export(ROWS, "report.txt")


def test_sequence_rows_need_columns_and_the_right_length() -> None:
    with pytest.raises(ExportError, match="need the column names"):
        write_csv([(1, 2)], io.StringIO())
    with pytest.raises(ExportError, match="2 values for 3 columns"):
        write_csv([(1, 2)], io.StringIO(), ["a", "b", "c"])


def test_a_failed_export_leaves_no_file(tmp_path: Path) -> None:
    def rows() -> Iterator[dict[str, Any]]:
        yield ROWS[0]
        raise RuntimeError("network gone")

    target = tmp_path / "out.csv"
    target.write_text("the previous export\n")
    with pytest.raises(RuntimeError):
        export(rows(), target)
    assert target.read_text() == "the previous export\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_writer_written_in_parts(tmp_path: Path) -> None:
    path = tmp_path / "parts.csv"
    with ExportFile(path, columns=COLUMNS) as writer:
        assert isinstance(writer, CsvWriter)
        writer.write(ROWS[:2])
        writer.write(ROWS[2:])
    assert path.read_bytes() == (GOLDEN / "report.csv").read_bytes()


@pytest.fixture
def _reports_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim_app_module, "SERVICE_MODULES", ("tokens", "reports"))


@pytest.mark.usefixtures("_reports_only")
async def test_a_whole_report_exported_from_the_pager(session: Session, tmp_path: Path) -> None:
    service = ReportsService(session)
    fs = FilterSet(past_days=30, limit_records=200)
    model = await service.report_type("fulfillment")
    path = tmp_path / "fulfillments.csv"
    async with service.pager("fulfillment", fs) as pages:
        count = await export_async(pages, path, columns=model.column_names)
    assert count == pages.total_records
    with path.open(newline="", encoding="utf-8") as fp:
        table = list(csv.reader(fp))
    assert table[0] == model.column_names and len(table) == count + 1
    assert table[1:] == [
        ["true" if v is True else "false" if v is False else "" if v is None else str(v) for v in r.values()]
        for r in await service.fetch_all("fulfillment", fs)
    ]
