"""The cyclic garbage collector held off while report rows stream in.

A 100k-record report is decoded into 100k dicts (and, until the rows moved into
column stores, became as many row tuples), and every new container is tracked by
the collector until a collection looks at it: while rows stream in, collections
ran about a thousand times and took ≈ 1 s of a 4.6 s load (bench/bench_stalls.py,
`gc.callbacks`), on the event loop as often as not. Records hold no reference
cycles (they are freed by reference counting), so the collector has nothing to
find in them; it is paused for the load and resumed after, where one collection
of the oldest generation, when it next comes, finds whatever cyclic garbage the load left.
Nested pauses (two reports loading) resume when the last one ends, and a
collector someone else disabled stays disabled.

Start-up is held the same way (`hold_for_start` … `start_done`): importing
Textual, pydantic and httpx and building the first screen makes ≈ 90,000
tracked objects, every one of them meant to live for the session, and the
collections that ran over them while they were made cost start-up ≈ 50–100 ms
of CPU (bench/RESULTS.md, start-up). When the first screen has shown its data
they are frozen (`gc.freeze`): moved where no collection looks. The first
report load to end moves them, with its own objects, into the oldest
generation (`gc.unfreeze` cannot tell the two apart), where only a full
collection looks: as they would have been without the freeze, never examined
by the young collections that run all the time.
"""

from __future__ import annotations

import gc
from typing import Any


def hold_for_start() -> None:
    """The collector off until `start_done` (the TUI's launch)."""
    global _start_held
    if gc.isenabled():
        gc.disable()
        _start_held = True


def start_done(*, freeze: bool = True) -> None:
    """The first screen shows its data: what start-up made is frozen, and the collector runs again (once; idempotent).
    `freeze=False`: the app never ran (a usage error): only the collector back."""
    global _start_held
    if not _start_held:
        return
    _start_held = False
    if freeze:
        gc.freeze()
    if collector_paused._depth:  # a load is streaming: the collector comes back when it ends
        collector_paused._was_enabled = True
    else:
        gc.enable()


_start_held = False


class collector_paused:  # noqa: N801 - used like a function: `with collector_paused():`, `async with pager, collector_paused():`
    """Hold off cyclic garbage collection inside the block (reference counting still frees everything acyclic)."""

    _depth = 0
    _was_enabled = True

    def __enter__(self) -> None:
        cls = type(self)
        if cls._depth == 0:
            cls._was_enabled = gc.isenabled()
            gc.disable()
        cls._depth += 1

    def __exit__(self, *exc: Any) -> None:
        cls = type(self)
        cls._depth -= 1
        if cls._depth == 0 and cls._was_enabled:
            gc.freeze()  # what the load made joins the oldest generation unexamined: collecting it now
            gc.unfreeze()  # held the loop ≈ 300 ms; the next full collection, in its own time, looks at it
            gc.enable()

    async def __aenter__(self) -> None:
        self.__enter__()

    async def __aexit__(self, *exc: Any) -> None:
        self.__exit__(*exc)
