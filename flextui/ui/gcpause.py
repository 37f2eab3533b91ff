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
"""

from __future__ import annotations

import gc
from typing import Any


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
