"""One worker thread for the Python-heavy steps of a page: decoding it, storing it, packing it for the grid.

Pages come six at a time. Handed to asyncio's default pool, their decoding,
storing and packing ran in up to six threads at once, and the event loop
(keys, paints, the sockets) waited for the interpreter's lock behind each of
them in turn: a socket read gives the lock up and may wait a switch interval
(5 ms) to get it back, once per busy thread. The work is no faster in six
threads than in one (the lock lets one run at a time), so it goes to one lane,
in order, and the loop competes with one thread, not six
(bench/bench_stalls.py; the numbers are in bench/RESULTS.md).

Reading the page cache stays on the default pool: the lookup before each
request must not queue behind pages being decoded (the request would wait
for them), and SQLite gives the lock up while it reads.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_lane: ThreadPoolExecutor | None = None
_made = threading.Lock()

NAME = "flextui-cpu"


def _executor() -> ThreadPoolExecutor:
    global _lane
    with _made:
        if _lane is None:
            _lane = ThreadPoolExecutor(max_workers=1, thread_name_prefix=NAME)
        return _lane


async def in_lane(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` on the lane's thread (context variables go along, as with `asyncio.to_thread`)."""
    call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_executor(), call)


__all__ = ["NAME", "in_lane"]
