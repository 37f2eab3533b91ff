"""The collector is held off while report rows stream in, and always given back."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from flextui.cli import main
from flextui.ui import gcpause
from flextui.ui.gcpause import collector_paused


@pytest.fixture(autouse=True)
def _collector_back() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()


def test_nested_pauses_give_the_collector_back_when_the_last_ends() -> None:
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # a second report loading at the same time
            assert not gc.isenabled()
        assert not gc.isenabled(), "the first load is still streaming"
    assert gc.isenabled()


async def test_an_async_pause_ends_on_an_error_too() -> None:
    gc.enable()
    with pytest.raises(RuntimeError):
        async with collector_paused():
            assert not gc.isenabled()
            raise RuntimeError("a page failed")
    assert gc.isenabled()


def test_a_collector_disabled_by_someone_else_stays_disabled() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_objects_made_during_a_pause_are_still_collected_later() -> None:
    gc.enable()
    with collector_paused():
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
    assert gc.collect() >= 1, "the cycle made while paused is found by a later full collection"


def test_start_up_is_held_until_the_first_data_then_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Launch makes ≈ 90,000 objects that live for the session: no collection scans them while they are made,
    and afterwards they are frozen where no later collection looks."""
    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    gc.enable()
    gcpause.hold_for_start()
    assert not gc.isenabled()
    gcpause.start_done()
    assert gc.isenabled() and frozen == [True]
    gcpause.start_done()  # every screen's first data says so: only the first counts
    assert frozen == [True]


def test_a_report_streaming_when_start_up_ends_gives_the_collector_back_when_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gc, "freeze", lambda: None)
    gc.enable()
    gcpause.hold_for_start()
    with collector_paused():  # `flextui tui report …`: the first screen is a report, loading
        gcpause.start_done()
        assert not gc.isenabled(), "the load still streams"
    assert gc.isenabled()


def test_a_launch_that_never_starts_the_app_gives_the_collector_back() -> None:
    """`flextui demo` without a terminal: the collector held for a start that never came is given back."""
    gc.enable()
    assert main(["demo"]) != 0
    assert gc.isenabled()
