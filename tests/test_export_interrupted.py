"""Exports that never look complete when interrupted: the writers, a report pager failing midway, the CLI.

An export is written to a temporary file beside the chosen path and renamed
onto it only once the document is finished (`export.ExportFile`), so an
export interrupted at any point (after 0, 1 or N pages) by an error in the
rows' source (a fault mid-stream), an error in a writer, a KeyboardInterrupt
or a cancelled task leaves nothing under the chosen name: no file when there
was none, the previous file untouched when there was one, and no temporary
file either. The error reaches the caller (who says what happened).

`flextui report run` writes to stdout, which the shell opens: it cannot be
renamed, so a report cut short keeps its JSON unclosed, says on stderr that
the output is incomplete and where it stops, and exits non-zero (130 for
ctrl+c).
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import signal
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import flextui.context as context
from flextui.api.errors import ServerError
from flextui.api.reports import ReportsService
from flextui.cli import main
from flextui.render.export import FORMATS, ExportError, ExportFile, export, export_async
from flextui.sim.faults import FaultPlan
from flextui.sim.world import ADMIN
from tests.conftest import FIXED_NOW_MS, make_session

PAGE = [{"id": i, "name": f"row {i}", "n": i * 1.5} for i in range(5)]
AFTER = [0, 1, 4]  # pages written before the interruption
PREVIOUS = "the previous export, complete\n"


class Boom(Exception):
    """The rows' source failed (a fault mid-stream)."""


def pages(after: int, stop: BaseException) -> Iterator[list[dict[str, Any]]]:
    for _ in range(after):
        yield PAGE
    raise stop


def rows(after: int, stop: BaseException) -> Iterator[dict[str, Any]]:
    for page in pages(after, stop):
        yield from page


async def async_pages(after: int, stop: BaseException) -> AsyncIterator[list[dict[str, Any]]]:
    for page in pages(after, stop):
        await asyncio.sleep(0)
        yield page


def left_behind(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0


STOPS: dict[str, Any] = {
    "fault": lambda: Boom("503 the server failed midway"),
    "keyboard": lambda: KeyboardInterrupt(),
    "cancelled": lambda: asyncio.CancelledError(),
}


@pytest.mark.parametrize("existing", [False, True], ids=["new", "replacing"])
@pytest.mark.parametrize("stop", list(STOPS))
@pytest.mark.parametrize("after", AFTER)
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_an_interrupted_export_leaves_nothing_that_looks_complete(fmt: str, after: int, stop: str, existing: bool, tmp_path: Path) -> None:
    target = tmp_path / f"out.{fmt}"
    if existing:
        target.write_text(PREVIOUS)
    error = STOPS[stop]()
    with pytest.raises(type(error)):
        export(rows(after, error), target, columns=["id", "name", "n"])
    assert left_behind(tmp_path) == ([target.name] if existing else []), "no temporary file, and nothing new under the name"
    if existing:
        assert target.read_text() == PREVIOUS, "the previous file is untouched"


@pytest.mark.parametrize("stop", list(STOPS))
@pytest.mark.parametrize("after", AFTER)
@pytest.mark.parametrize("fmt", sorted(FORMATS))
async def test_an_interrupted_async_export_leaves_nothing(fmt: str, after: int, stop: str, tmp_path: Path) -> None:
    target = tmp_path / f"out.{fmt}"
    error = STOPS[stop]()
    with pytest.raises(type(error)):
        await export_async(async_pages(after, error), target)
    assert left_behind(tmp_path) == []


async def test_a_cancelled_export_task_leaves_nothing(tmp_path: Path) -> None:
    started = asyncio.Event()

    async def endless() -> AsyncIterator[list[dict[str, Any]]]:
        while True:
            yield PAGE
            started.set()
            await asyncio.sleep(0.01)

    task = asyncio.create_task(export_async(endless(), tmp_path / "out.csv"))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert left_behind(tmp_path) == []


@pytest.mark.parametrize("after", AFTER)
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_an_error_in_a_writer_leaves_nothing(fmt: str, after: int, tmp_path: Path) -> None:
    """A row that does not fit the columns (a writer error) after `after` good pages."""
    target = tmp_path / f"out.{fmt}"
    target.write_text(PREVIOUS)

    def bad_rows() -> Iterator[tuple[Any, ...]]:
        for _ in range(after):
            yield from (tuple(r.values()) for r in PAGE)
        yield (1, 2)

    with pytest.raises(ExportError, match="2 values for 3 columns"):
        export(bad_rows(), target, columns=["id", "name", "n"])
    assert left_behind(tmp_path) == [target.name] and target.read_text() == PREVIOUS


@pytest.mark.parametrize("where", ["finish", "flush"])
def test_a_full_disk_at_the_end_leaves_nothing_and_no_open_file(where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last write (the document's end, or the flush when the file closes) fails: the error is raised, nothing kept, no descriptor leaked."""

    def full(*args: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    target = tmp_path / "out.json"
    before = open_fds()
    with monkeypatch.context() as patch:
        if where == "finish":
            patch.setattr(FORMATS["json"].writer, "finish", full)
            with pytest.raises(OSError, match="No space left"):
                export(PAGE, target)
        else:
            with pytest.raises(OSError, match="No space left"):
                with ExportFile(target) as writer:
                    writer.write(PAGE)
                    patch.setattr(writer.fp, "close", _failing_close(writer.fp))
    assert left_behind(tmp_path) == []
    assert open_fds() == before, "the temporary file's descriptor is closed"


def _failing_close(fp: Any) -> Any:
    real_close = fp.close

    def close() -> None:
        real_close()
        raise OSError(errno.ENOSPC, "No space left on device")

    return close


def test_a_successful_export_is_renamed_into_place_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text(PREVIOUS)
    assert export([r for _ in range(3) for r in PAGE], target) == 15
    assert len(json.loads(target.read_text())) == 15 and left_behind(tmp_path) == ["out.json"]


# -- a report pager failing midway ----------------------------------------------------------------------


@pytest.mark.parametrize("after", AFTER)
async def test_a_report_export_hit_by_a_fault_midway_leaves_nothing(after: int, world: Any, tmp_path: Path) -> None:
    from flextui.api.filters import FilterSet
    from flextui.sim.app import create_app

    plan = FaultPlan()
    plan.add(r"^GET /data/api/v1/report/fulfillment$", status=500, times=1000, skip=after)
    session = make_session(create_app(world, faults=plan))
    target = tmp_path / "fulfillments.csv"
    try:
        service = ReportsService(session)
        model = await service.report_type("fulfillment")
        async with service.pager("fulfillment", FilterSet(past_days=30, limit_records=50), concurrency=1) as pager:
            with pytest.raises(ServerError):
                await export_async(pager, target, columns=model.column_names)
    finally:
        await session.aclose()
    assert left_behind(tmp_path) == []


# -- the CLI: stdout cannot be renamed, so it says so --------------------------------------------------------

RUN = ["report", "run", "fulfillment", "--past-days", "30", "--limit-records", "50", "--max-records", "400", "--demo"]


def _install(monkeypatch: pytest.MonkeyPatch, plan: FaultPlan) -> None:
    from flextui.api.http import RetryPolicy

    original = context.demo_context

    def with_faults(**kwargs: Any) -> Any:
        ctx = original(faults=plan, timeout=1.0, fixed_now_ms=FIXED_NOW_MS, **kwargs)
        ctx.session.retry = RetryPolicy(attempts=2, backoff=0.01)
        return ctx

    monkeypatch.setattr(context, "demo_context", with_faults)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("fmt", ["json", "csv", "jsonl"])
@pytest.mark.parametrize("after", AFTER)
def test_report_run_cut_short_says_so_and_never_closes_its_json(
    after: int, fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = FaultPlan()
    first_pages = "|".join(str(n) for n in range(1, after + 1)) or "0"  # pages from 1
    plan.add(r"^GET /data/api/v1/report/fulfillment$", query=rf"(^|&)pageNumber=(?!({first_pages})(&|$))", status=503, times=1000)
    _install(monkeypatch, plan)
    code = main([*RUN, "-o", fmt])
    out, err = capsys.readouterr()
    assert code == 5
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("flextui: the data reports service is unavailable: 503 "), err
    if after:
        assert f"the output is incomplete: it stops after {after * 50:,} records" in lines[0]
        if fmt == "json":
            assert out.startswith("[") and not out.rstrip().endswith("]")
        else:
            assert len(out.splitlines()) == after * 50 + (1 if fmt == "csv" else 0)
    else:
        assert out == ""


def _interrupt_report_after(monkeypatch: pytest.MonkeyPatch, after: int, stop: Any) -> None:
    """Pages 1…after are fetched as usual; the next one meets `stop()` (ctrl+c as Python raises it, or as asyncio.run sees it)."""
    fetch_page = ReportsService.fetch_page

    async def interrupted(self: ReportsService, group: str, filters: Any, page: int = 1, **kwargs: Any) -> Any:
        if page > after:
            stop()
            await asyncio.sleep(0)  # where the main task, cancelled by asyncio.run's SIGINT handler, stops
        return await fetch_page(self, group, filters, page, **kwargs)

    monkeypatch.setattr(ReportsService, "fetch_page", interrupted)
    _install(monkeypatch, FaultPlan())


def _raise_keyboard_interrupt() -> None:
    raise KeyboardInterrupt


def _sigint() -> None:
    signal.raise_signal(signal.SIGINT)


CTRL_C = {"KeyboardInterrupt": _raise_keyboard_interrupt, "SIGINT": _sigint}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("how", list(CTRL_C))
@pytest.mark.parametrize("fmt", ["json", "table"])
@pytest.mark.parametrize("after", AFTER)
def test_report_run_interrupted_by_ctrl_c_says_how_far_it_got(
    after: int, fmt: str, how: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ctrl+c said only "interrupted: what was printed is incomplete"; a failure midway said where the output stops."""
    if how == "SIGINT" and (
        threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        pytest.skip("asyncio.run handles SIGINT only in the main thread with Python's own handler")
    _interrupt_report_after(monkeypatch, after, CTRL_C[how])
    code = main([*RUN, "-o", fmt])
    out, err = capsys.readouterr()
    assert code == 130
    if not after:
        assert err.strip().splitlines() == ["flextui: interrupted before any records were written"]
        assert out == ""
        return
    if fmt == "json":
        assert out.startswith("[") and not out.rstrip().endswith("]"), "the JSON stays unclosed"
        written = len(json.loads(out + "]"))
    else:  # a table is laid out at the end: the rows read are shown, under its two header lines
        written = len(out.splitlines()) - 2
    assert written >= 50 and written % 50 == 0, "whole pages, as the pages came (later ones are fetched ahead)"
    assert err.strip().splitlines() == [f"flextui: interrupted; the output is incomplete: it stops after {written:,} records"]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("after", [0, 3])
def test_a_listing_interrupted_by_ctrl_c_says_how_far_it_got(
    after: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`get` says it in the same words as `report run` (and as a failure midway)."""
    import flextui.headless.tokens as headless_tokens

    row = headless_tokens.token_row
    written = [0]

    def interrupted(token: Any) -> dict[str, Any]:
        if written[0] == after:
            raise KeyboardInterrupt
        written[0] += 1
        return row(token)

    monkeypatch.setattr(headless_tokens, "token_row", interrupted)
    code = main(["get", "tokens", "--demo", "--username", ADMIN[0], "-o", "csv"])
    out, err = capsys.readouterr()
    assert code == 130
    if after:
        assert err.strip().splitlines() == [f"flextui: interrupted; the output is incomplete: it stops after {after} rows"]
        assert len(out.splitlines()) == after + 1
    else:
        assert err.strip().splitlines() == ["flextui: interrupted before any rows were written"]


class _StopsAfter:
    """Standard output that takes `rows` lines, then meets ctrl+c (as a reader that holds the pipe and the user who gives up)."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        if len(self.lines) == self.rows:
            raise KeyboardInterrupt
        self.lines.append(text)
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("action", ["list", "types"])
def test_report_list_and_types_interrupted_by_ctrl_c_say_how_far_they_got(
    action: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Their rows were not counted: ctrl+c after some said "interrupted before any rows were written"."""
    out = _StopsAfter(2)
    monkeypatch.setattr("sys.stdout", out)
    code = main(["report", action, "--demo", "-o", "jsonl"])
    err = capsys.readouterr().err
    assert code == 130 and len(out.lines) == 2
    assert err.strip().splitlines() == ["flextui: interrupted; the output is incomplete: it stops after 2 rows"]
