"""One worker thread for the Python-heavy steps of a page (decoding it, checking it for the cache, packing it
for the grid), and one for SQLite's writes of pages.

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
for them), and SQLite gives the lock up while it reads. Writing a page has a
thread of its own for the same reason: SQLite holds no lock while it writes,
so the lane goes on with the next page meanwhile.
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

NAME = "flextui-cpu"
WRITER_NAME = "flextui-cache-writer"


class _Lane:
    """One thread, made on first use; calls run on it in the order given."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._pool: ThreadPoolExecutor | None = None
        self._made = threading.Lock()

    def _executor(self) -> ThreadPoolExecutor:
        with self._made:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
            return self._pool

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._executor(), call)


_PAGE_WORK = _Lane(NAME)
_CACHE_WRITES = _Lane(WRITER_NAME)


async def in_lane(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` on the lane's thread (context variables go along, as with `asyncio.to_thread`)."""
    return await _PAGE_WORK.run(fn, *args, **kwargs)


async def in_cache_writer(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` on the page cache's writer thread: SQLite's share of storing a page.

    SQLite gives the interpreter's lock up while it writes (≈ 7 ms for a 1.5 MB page), so the write runs
    beside the lane's next page on the other core; in the lane, the lane waited for it (bench/RESULTS.md).
    """
    return await _CACHE_WRITES.run(fn, *args, **kwargs)


__all__ = ["NAME", "WRITER_NAME", "in_cache_writer", "in_lane"]
