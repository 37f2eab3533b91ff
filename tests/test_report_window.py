"""A "past N days" report paged by offset while its window moves: repeats dropped, a changed count said.

The simulator's `window-moves` dialect moves its clock an hour per data request, as a live
service's does over a long run: records leave the old end of a rolling window, the rest shift
back a few places, and a page asked by number then starts past records never handed over.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from flextui.api.reports import Repeats, moved_note
from flextui.cli import build_parser
from flextui.context import demo_context
from flextui.headless.reports import run_report
from flextui.sim.dialects import speaking
from tests.conftest import FIXED_NOW_MS


def _rows(*ids: str) -> list[dict[str, Any]]:
    return [{"fulfillmentID": i} for i in ids]


def test_every_key_is_remembered_by_default() -> None:
    repeats = Repeats("fulfillment")
    assert repeats.fresh(_rows("a", "b")) == _rows("a", "b")
    assert repeats.fresh(_rows("c")) == _rows("c")
    assert repeats.fresh(_rows("a", "d", "d")) == _rows("d"), "seen two pages ago, and twice in one page"
    assert repeats.dropped == 2


def test_a_bounded_memory_catches_the_shift_across_one_page_boundary() -> None:
    repeats = Repeats("fulfillment", pages=2)
    assert repeats.fresh(_rows("a", "b", "c")) == _rows("a", "b", "c")
    assert repeats.fresh(_rows("c", "d", "e")) == _rows("d", "e"), "the last of page 1 again at the start of page 2"
    assert repeats.fresh(_rows("f", "a")) == _rows("f", "a"), "page 1's keys are forgotten: memory does not grow with rows"
    assert repeats.dropped == 1


def test_rows_without_their_key_are_kept_and_keyed_rows_still_compared() -> None:
    repeats = Repeats("entitlement")  # keyed by two columns
    first = [{"entitlementID": "E1", "activationID": "A1"}, {"entitlementID": "E1", "activationID": "A2"}]
    assert repeats.fresh(first) is first, "a page without repeats is handed over as it is"
    second = [{"entitlementID": "E1", "activationID": None}, {"entitlementID": "E1", "activationID": "A2"}, {"activationID": "A3"}]
    assert repeats.fresh(second) == [second[0], second[2]], "no key: kept; a key seen: dropped"
    third = [{"entitlementID": "E1", "activationID": "A3"}, {"entitlementID": "E2", "activationID": "A1"}]
    assert repeats.fresh(third) is third and repeats.dropped == 1


def test_a_group_without_a_key_passes_every_row() -> None:
    repeats = Repeats("product-feature", pages=2)
    rows = [{"productName": "p"}, {"productName": "p"}]
    assert repeats.fresh(rows) is rows and repeats.dropped == 0


def test_a_bounded_memory_holds_at_least_a_page() -> None:
    with pytest.raises(ValueError):
        Repeats("fulfillment", pages=0)


def test_the_moved_note_names_both_counts_and_the_way_out() -> None:
    assert moved_note(None) is None
    note = moved_note((45_391, 45_380))
    assert note is not None and "45,391 → 45,380" in note and "dateFrom/dateTo" in note


async def _run(dialect: str | None, *argv: str) -> tuple[int, list[dict[str, Any]], str]:
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, dialects=speaking(dialect) if dialect else None)
    out, err = io.StringIO(), io.StringIO()
    try:
        args = build_parser().parse_args(["report", "run", "fulfillment", "--limit-records", "200", "-o", "jsonl", *argv])
        code = await run_report(ctx, args, out=out, err=err)
        return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()
    finally:
        await ctx.aclose()


async def test_a_moving_window_ends_with_exit_8_and_says_why() -> None:
    code, still, _ = await _run(None, "--past-days", "30")
    assert code == 0 and len(still) > 600, "the same run on a still clock is whole"
    code, rows, err = await _run("window-moves", "--past-days", "30")
    assert code == 8, err
    assert "the count changed while paging" in err and "dateFrom/dateTo hold still" in err
    ids = [r["fulfillmentID"] for r in rows]
    assert len(ids) == len(set(ids)), "no record written twice"
    assert len(rows) < len(still), "records left the window while paging"
    first = err.split("the count changed while paging (")[1].split(" → ")[0]
    assert f"of at least {first}" not in err, "the first count is no longer how many there are: never said to be the floor"


async def test_fixed_dates_hold_still_under_the_same_clock() -> None:
    code, rows, err = await _run("window-moves", "--date-from", "2026-10-10", "--date-to", "2026-10-25")
    assert code == 0, err
    assert len(rows) > 400, "several pages, asked while the clock moved"
    assert "count changed" not in err


async def test_a_moving_window_read_in_pages_without_counts_is_never_said_to_be_whole() -> None:
    """No page links and no counts (`links-none`): records the moving window shifts past a page boundary are
    skipped and nothing can count them, so the run must not pass for the whole report (it exited 0)."""
    code, still, _ = await _run(None, "--past-days", "30")
    code, rows, err = await _run("links-none,window-moves", "--past-days", "30")
    assert len(rows) < len(still), "records were skipped, and no count tells how many"
    assert code == 8, err
    assert f"{len(rows):,} fulfillment records of last 30 days, read in pages" in err
    assert "no count from the server to check a moving window against: records may be missing; dateFrom/dateTo hold still" in err
    code, rows, err = await _run("links-none,window-moves", "--past-days", "30", "--limit-records", "2500")
    assert code == 0 and "no count" not in err, "one page is one answer: nothing moved between pages"
    code, rows, err = await _run("links-none,window-moves", "--date-from", "2026-10-10", "--date-to", "2026-10-25")
    assert code == 0 and len(rows) > 400 and "no count" not in err, "fixed dates hold still: nothing to check"


def test_a_window_that_holds_still_keeps_every_row_of_a_key_seen_twice() -> None:
    """dateFrom/dateTo cannot move: a device seen twice there is two rows of it (one a line item, as the docs'
    device filters suggest), not one record repeated, and both are kept; a moving window drops the repeat."""
    from flextui.api.reports import Repeats

    first = [{"deviceID": "D1", "activationID": "A1"}, {"deviceID": "D2", "activationID": "A2"}]
    second = [{"deviceID": "D2", "activationID": "A3"}, {"deviceID": "D3", "activationID": "A4"}]
    still = Repeats("device", moving=False)
    assert still.fresh(first) == first and still.fresh(second) == second and still.dropped == 0
    moving = Repeats("device")
    assert moving.fresh(first) == first and moving.fresh(second) == second[1:] and moving.dropped == 1
