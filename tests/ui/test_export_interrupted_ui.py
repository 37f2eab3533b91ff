"""The report export screen, interrupted: nothing under the chosen name looks complete, and the screen says what happened.

The results of a report are exported in chunks (`reports.export.CHUNK`, made
small here) by a thread. The export is held after 0, 1 or N chunks and then
cancelled by the user (the "Cancel export" button), or its writer fails
(an error, a KeyboardInterrupt) after as many. Each time: no file and no
temporary file is left when there was none, a file that was there is left
as it was, the export panel closes, and the status line (or a toast) says
what happened. A view that is not the whole report (a page failed while
loading) is offered under a `-partial` name, with a note that says so.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.widgets import Button, Input, Label

import flextui.ui.screens.reports.export as reports_export
import flextui.ui.screens.reports.results as reports_results
from flextui.render.export import CsvWriter
from flextui.sim.faults import FaultPlan
from flextui.ui.help import help_rows
from flextui.ui.keys import KeyFooter, shown_keys
from flextui.ui.screens.reports.export import ExportScreen, fit_path
from flextui.ui.screens.reports.results import export_destination, fitted
from flextui.ui.widgets.bars import StatusLine
from flextui.ui.widgets.dialogs import ConfirmScreen
from tests.faults import readable
from tests.ui.conftest import build_app, settle, until

SIZE = (120, 40)
NAME = "fulfillment-20261102-1000.csv"
PREVIOUS = "the previous export, complete\n"
AFTER = [0, 1, 4]


async def results(pilot: Any) -> Any:
    app = pilot.app
    await settle(pilot)
    app.screen.query_one("#rb-past", Input).value = "30"
    app.screen.query_one("#rb-limit", Input).value = "500"
    app.screen.query_one("#rb-max", Input).value = ""  # the whole report: an export of it is complete
    await pilot.pause()
    await pilot.press("ctrl+g")
    await until(pilot, lambda: type(app.screen).__name__ == "ReportResultsScreen" and app.screen.state != "loading")
    await settle(pilot)
    return app.screen


async def export_csv(pilot: Any, *, replace: bool = False) -> None:
    app = pilot.app
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(app.screen, ExportScreen))
    await pilot.press("enter")
    if replace:
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        app.screen.query_one("#confirm", Button).press()
    await until(pilot, lambda: type(app.screen).__name__ == "ReportResultsScreen")


def messages(app: Any) -> str:
    return " | ".join(
        [str(app.screen.query_one(StatusLine).error), str(app.screen.query_one(StatusLine).info), *(n.message for n in app._notifications)]
    )


class Hold:
    """Hold the export thread before its chunk number `after + 1` until released."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.calls = 0
        self.reached = threading.Event()
        self.release = threading.Event()

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        real = reports_results.write_snapshot

        def held(snapshot: Any, path: Any, fmt: Any, *, progress: Any = None, cancelled: Any = lambda: False) -> int:
            def check() -> bool:
                self.calls += 1
                if self.calls == self.after + 1:
                    self.reached.set()
                    self.release.wait(10)
                return bool(cancelled())

            return real(snapshot, path, fmt, progress=progress, cancelled=check)

        monkeypatch.setattr(reports_results, "write_snapshot", held)


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reports_export, "CHUNK", 20)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("existing", [False, True], ids=["new", "replacing"])
@pytest.mark.parametrize("after", AFTER)
async def test_cancelled_by_the_user_after_some_chunks(after: int, existing: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    if existing:
        (tmp_path / NAME).write_text(PREVIOUS)
    hold = Hold(after)
    hold.install(monkeypatch)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await results(pilot)
        await export_csv(pilot, replace=existing)
        await until(pilot, hold.reached.is_set)
        assert screen.query_one("#rr-export").display, "the export shows its progress"
        if after:
            assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")], "written to a temporary file meanwhile"
        screen.query_one("#rr-export-cancel", Button).press()
        await pilot.pause()
        hold.release.set()
        await until(pilot, lambda: not screen.query_one("#rr-export").display)
        await settle(pilot)
        said = messages(app)
        expected = f"Export cancelled: ./{NAME} was left as it was" if existing else f"Export cancelled: nothing written to ./{NAME}"
        assert expected in said, said
    assert sorted(p.name for p in tmp_path.iterdir()) == ([NAME] if existing else [])
    if existing:
        assert (tmp_path / NAME).read_text() == PREVIOUS


@pytest.mark.timeout(60)
@pytest.mark.parametrize("stop", ["error", "keyboard"])
@pytest.mark.parametrize("after", AFTER)
async def test_a_writer_failing_after_some_chunks(after: int, stop: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    real_write = CsvWriter.write
    rows = {"n": 0}

    def failing(self: CsvWriter, chunk: list[Any]) -> int:
        room = after * 20 - rows["n"]  # rows written before the disk fills (or ctrl+c comes)
        if room < len(chunk):
            if room > 0:
                real_write(self, chunk[:room])
            raise (OSError(28, "No space left on device") if stop == "error" else KeyboardInterrupt())
        rows["n"] += len(chunk)
        return real_write(self, chunk)

    monkeypatch.setattr(CsvWriter, "write", failing)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await results(pilot)
        await export_csv(pilot)
        await until(pilot, lambda: not screen.query_one("#rr-export").display)
        await settle(pilot)
        assert app.is_running
        error = str(screen.query_one(StatusLine).error)
        reason = "No space left on device" if stop == "error" else "interrupted"
        assert error == f"exporting: {reason}; nothing written to ./{NAME}", error
        assert not readable(error)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.timeout(60)
async def test_a_view_cut_short_by_a_fault_is_offered_as_partial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    plan = FaultPlan()
    app = build_app(start=["reports", "fulfillment"], faults=plan, timeout=1.0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        plan.add(r"^GET /data/api/v1/report/fulfillment$", status=500, times=1000, skip=1)
        screen = await results(pilot)
        assert screen.state == "failed" and screen.grid.row_count == 500
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        dialog = app.screen
        assert dialog.query_one("#export-path", Input).value == "./fulfillment-20261102-1000-partial.csv"
        what = str(dialog.query_one("#export-what").render())
        assert "only the 500 loaded of" in what, what
        await pilot.press("enter")
        await until(pilot, lambda: "Exported 500 rows" in str(screen.query_one(StatusLine).info))
    assert [p.name for p in tmp_path.iterdir()] == ["fulfillment-20261102-1000-partial.csv"]


def footer_keys(app: Any) -> list[str]:
    return shown_keys(app.screen.query_one(KeyFooter))


@contextlib.asynccontextmanager
async def held_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Any, Any, Any, Hold]]:
    """The fulfillment results, exported as CSV into `tmp_path` with the writer held after its first part:
    (app, pilot, results screen, the hold)."""
    monkeypatch.chdir(tmp_path)
    hold = Hold(1)
    hold.install(monkeypatch)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        yield app, pilot, await results(pilot), hold


@pytest.mark.parametrize("key", ["escape", "x"])
async def test_escape_or_x_cancels_a_running_export_and_only_a_further_escape_leaves(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """walk-d #1: escape left the results while the export went on writing the whole file; x did nothing, and `?`
    listed no key that cancels it. Now both cancel it as the button does (nothing left, said in a toast), the footer
    and `?` say so while it runs, and only a further escape leaves the screen."""
    async with held_export(tmp_path, monkeypatch) as (app, pilot, screen, hold):
        assert "Cancel export" not in " ".join(footer_keys(app)), "not while nothing is exported"
        await export_csv(pilot)
        await until(pilot, hold.reached.is_set)
        await until(pilot, lambda: "esc Cancel export" in footer_keys(app))  # (the writer is held: no settle)
        assert ("esc, x", "Cancel export", "This screen", "report_results.cancel_export") in help_rows(app)
        where = str(screen.query_one("#rr-export-where", Label).render())
        assert where.endswith("· escape or x cancels"), where
        await pilot.press(key)
        await pilot.pause()
        assert app.screen is screen, "the first press cancels; it does not leave"
        hold.release.set()
        await until(pilot, lambda: not screen.query_one("#rr-export").display)
        await settle(pilot)
        toasts = [n.message for n in app._notifications]
        assert f"Export cancelled: nothing written to ./{NAME}" in toasts, toasts
        assert list(tmp_path.iterdir()) == [], "nothing left, no temporary file either"
        assert "Cancel export" not in " ".join(footer_keys(app))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is not screen)
        assert type(app.screen).__name__ == "ReportBuilderScreen", "a further escape leaves, as before"
    assert list(tmp_path.iterdir()) == []


async def test_an_export_left_by_f_goes_on_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Leaving the results another way than escape (f, to edit the filters) keeps an export asked for on purpose, and says it."""
    async with held_export(tmp_path, monkeypatch) as (app, pilot, screen, hold):
        rows = screen.grid.row_count
        await export_csv(pilot)
        await until(pilot, hold.reached.is_set)
        await pilot.press("f")
        await until(pilot, lambda: app.screen is not screen)
        hold.release.set()
        await until(pilot, lambda: any(n.message.startswith("Exported") for n in app._notifications))
        toasts = [n.message for n in app._notifications]
        assert f"The export to ./{NAME} goes on: a message says when it has finished" in toasts, toasts
        assert f"Exported {rows:,} rows to ./{NAME} (CSV)" in toasts, toasts
    assert [p.name for p in tmp_path.iterdir()] == [NAME]


def test_an_export_path_is_cut_in_its_middle_keeping_the_file_name() -> None:
    name = "fulfillment-20261102-1000-partial.csv"
    path = f"/home/someone/work/exports/2026/november/{name}"
    assert fit_path(path, 200) == path
    cut = fit_path(path, 60)
    assert cell_len(cut) == 60 and cut.endswith("/" + name) and cut.startswith("/home/") and "…" in cut, cut
    assert fit_path(path, len(name) + 3) == "…/" + name
    short = fit_path(path, 20)
    assert cell_len(short) == 20 and short.endswith(".csv") and "…" in short, short
    line = export_destination(path, "csv", 60, " · escape or x cancels")
    assert cell_len(line) <= 60 and line.startswith("to /home/") and line.endswith(f"/{name} (CSV)"), line
    assert export_destination("./x.csv", "jsonl", 80, " · escape or x cancels") == "to ./x.csv (JSONL) · escape or x cancels"
    assert fitted(["exporting 12,000 of 186,958 rows", "12,000 of 186,958 rows", "12,000 of 186,958"], 20) == "12,000 of 186,958"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
async def test_the_export_progress_shows_the_counts_and_where_the_file_goes(
    size: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """walk-d #2: "exporting 14,000 of 186,958 rows to" (120 columns), "exporting 12,000" (80): the destination was cut
    silently. The counts fit beside the bar; the destination has a row of its own, its folders cut in the middle."""
    folder = tmp_path / "exports-of-the-fulfillment-report" / "for-the-quarterly-review" / "november"
    folder.mkdir(parents=True)
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")  # the file goes elsewhere: shown by its whole path
    hold = Hold(1)
    hold.install(monkeypatch)
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=size, notifications=True) as pilot:
        screen = await results(pilot)
        total = screen.grid.row_count
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        app.screen.query_one("#export-path", Input).value = str(folder / NAME)
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, hold.reached.is_set)
        await until(pilot, lambda: screen.query_one("#rr-export-where", Label).content_size.width > 0)
        await pilot.pause()
        counts_label = screen.query_one("#rr-export-label", Label)
        where_label = screen.query_one("#rr-export-where", Label)
        counts, where = str(counts_label.render()), str(where_label.render())
        assert f"20 of {total:,}" in counts and cell_len(counts) <= counts_label.content_size.width, counts
        assert cell_len(where) <= where_label.content_size.width, where
        assert where.startswith("to /") and f"/{NAME} (CSV)" in where, where
        assert len(str(folder / NAME)) > where_label.content_size.width or "…" not in where
        if size[0] == 80:
            assert "…" in where, "a long folder is cut in its middle, said with …"
        hold.release.set()
        await until(pilot, lambda: not screen.query_one("#rr-export").display)
    assert (folder / NAME).exists()


async def test_an_export_asked_for_while_loading_writes_the_rows_the_dialog_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dialog said "152,500 rows … still loading", the load went on behind it, and the file held every row loaded
    by the time it was sent: the export writes the view the dialog counted."""
    import threading

    monkeypatch.chdir(tmp_path)
    plan = FaultPlan()
    app = build_app(start=["reports", "fulfillment"], faults=plan)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        answer = threading.Event()
        plan.add(r"^GET /data/api/v1/report/fulfillment$", kind="slow", hold=answer, times=1000, skip=1)  # page 2 on waits
        app.screen.query_one("#rb-past", Input).value = "30"
        app.screen.query_one("#rb-limit", Input).value = "100"
        app.screen.query_one("#rb-max", Input).value = ""
        await pilot.press("ctrl+g")
        await until(pilot, lambda: type(app.screen).__name__ == "ReportResultsScreen" and app.screen.grid.row_count == 100)
        screen = app.screen
        assert screen.state == "loading"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen))
        what = str(app.screen.query_one("#export-what").render())
        assert "100 rows" in what and "still loading: the 100 rows loaded so far" in what, what
        answer.set()  # the rest arrives while the dialog is open
        await until(pilot, lambda: screen.state == "done" and screen.grid.row_count > 100, timeout=60)
        await pilot.press("enter")
        await until(pilot, lambda: "Exported 100 rows" in messages(app))
    written = next(tmp_path.iterdir()).read_text().splitlines()
    assert len(written) == 1 + 100, "the header and the rows the dialog counted"
