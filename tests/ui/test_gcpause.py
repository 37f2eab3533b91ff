"""The collector is held off while report rows stream in, and always given back."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

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
