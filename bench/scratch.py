"""A benchmark's scratch folders, removed when its process ends.

Benchmarks write page caches, exports and DuckDB files of tens of megabytes
each; a folder made with a bare `tempfile.mkdtemp` outlived its run, and a few
hundred runs left 18 GB under /tmp. Every benchmark takes its folders here.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile


def scratch_dir(prefix: str = "bench-") -> str:
    """A new private folder that is deleted, with everything in it, when this process exits."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path
