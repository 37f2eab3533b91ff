"""The page cache's size limit: over it, what was used longest ago goes first (`api/cache_limit.py`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from flextui.api import cache_limit
from flextui.api.cache import WAL_BYTES, PageCache

MB = 1 << 20
BODY = "x" * 200_000  # a page of ≈ 200 KB (four of the file's 64 KB pages)
CHECKED_EVERY = 1 * MB  # the size is checked after each 1 MB stored (or a twentieth of the limit, if more)


def fill(cache: PageCache, first: int, last: int, *, at: float = 1_000.0) -> None:
    """Pages `first`..`last`-1, each stored a second after the one before (from `at`)."""
    for n in range(first, last):
        cache.put(f"p{n}", "me", "tokens.list", {"data": BODY, "n": n}, stored_at=at + n)


def used(cache: PageCache) -> int:
    return cache_limit.used_bytes(cache._connection())


def held(cache: PageCache, count: int) -> set[int]:
    return {n for n in range(count) if cache.get(f"p{n}") is not None}


def test_over_the_limit_the_pages_used_longest_ago_go_and_a_page_read_lately_stays(tmp_path: Path) -> None:
    cache = PageCache(tmp_path / "pages.sqlite3", max_bytes=2 * MB)
    fill(cache, 0, 9)  # ≈ 1.8 MB: under the limit
    assert cache.get("p0") is not None  # read after p1..p8 were stored
    fill(cache, 9, 14)  # ≈ 2.8 MB stored in all
    assert used(cache) <= 2 * MB + CHECKED_EVERY, "the file stays within a check of its limit"
    kept = held(cache, 14)
    assert 0 in kept, "read lately: kept although stored first"
    assert not {1, 2, 3, 4, 5} & kept, "stored first and not read since: gone first"
    assert {11, 12, 13} <= kept, "the newest pages stay"
    cache.close()


def test_a_page_that_goes_takes_the_kept_sets_made_from_it(tmp_path: Path) -> None:
    cache = PageCache(tmp_path / "pages.sqlite3", max_bytes=2 * MB)
    fill(cache, 0, 3)
    stamps = cache.stamps(["p0", "p1"])
    assert cache.put_derived("grid-of-p0-p1", "me", stamps, [b"columns"])
    assert cache.get_derived("grid-of-p0-p1") is not None
    fill(cache, 3, 20, at=2_000.0)
    assert cache.get("p0") is None and cache.get("p19") is not None
    rows = cache._connection().execute("SELECT count(*) FROM derived_sets").fetchone()[0]
    parts = cache._connection().execute("SELECT count(*) FROM derived_parts").fetchone()[0]
    assert (rows, parts) == (0, 0), "a set made from a page that went can never be valid again: its space is given back"
    cache.close()


def test_without_a_limit_nothing_goes_and_a_lowered_limit_applies_at_the_first_store(tmp_path: Path) -> None:
    path = tmp_path / "pages.sqlite3"
    unlimited = PageCache(path)
    fill(unlimited, 0, 20)
    assert held(unlimited, 20) == set(range(20))
    unlimited.close()
    limited = PageCache(path, max_bytes=2 * MB)
    assert held(limited, 20) == set(range(20)), "opening drops nothing"
    fill(limited, 20, 21, at=2_000.0)
    assert used(limited) <= 2 * MB, "checked at the first store"
    assert 20 in held(limited, 21)
    limited.close()


def test_a_read_writes_nothing_and_its_use_is_written_with_the_next_store(tmp_path: Path) -> None:
    """A read never waits for a write lock (another instance may hold one): its use is noted in memory."""
    cache = PageCache(tmp_path / "pages.sqlite3", max_bytes=2 * MB)
    fill(cache, 0, 2)
    statements: list[str] = []
    cache._connection().set_trace_callback(statements.append)
    assert cache.get("p0") is not None
    assert statements and all(s.lstrip().upper().startswith("SELECT") for s in statements), statements
    cache._connection().set_trace_callback(None)
    cache._written = 2 * MB  # the next store checks the size
    fill(cache, 2, 3)
    used_at = cache._connection().execute("SELECT used_at FROM pages WHERE key = 'p0'").fetchone()[0]
    assert used_at is not None and used_at > 1_000.0 + 2
    cache.close()


def test_a_file_from_before_the_limit_gains_its_columns_and_keeps_its_pages(tmp_path: Path) -> None:
    path = tmp_path / "pages.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE pages (key TEXT PRIMARY KEY, profile TEXT NOT NULL, op TEXT NOT NULL, stored_at REAL NOT NULL,"
        " body TEXT NOT NULL, meta TEXT);"
        "CREATE TABLE derived_sets (key TEXT PRIMARY KEY, profile TEXT NOT NULL, stored_at REAL NOT NULL,"
        " sources TEXT NOT NULL, parts INTEGER NOT NULL);"
        "INSERT INTO pages VALUES ('old', 'me', 'tokens.list', 5.0, '{\"a\": 1}', NULL);"
    )
    db.commit()
    db.close()
    cache = PageCache(path, max_bytes=2 * MB)
    for table in ("pages", "derived_sets"):
        columns = {row[1] for row in cache._connection().execute(f"PRAGMA table_info({table})")}
        assert "used_at" in columns, table
    assert cache._connection().execute("SELECT body FROM pages WHERE key = 'old'").fetchone() == ('{"a": 1}',), "kept as it was"
    fill(cache, 0, 14)
    assert cache.get("old") is None, "stored longest ago, never read since the limit came: gone first"
    assert cache.get("p13") is not None
    cache.close()


def test_the_write_ahead_log_stays_bounded(tmp_path: Path) -> None:
    """SQLite's default let the log reach 64 MB (1,000 of our 64 KB pages) beside a file kept under its limit."""
    path = tmp_path / "pages.sqlite3"
    cache = PageCache(path)
    fill(cache, 0, 120)  # ≈ 24 MB stored
    wal = Path(str(path) + "-wal")
    assert wal.exists() and wal.stat().st_size <= WAL_BYTES + MB, "folded into the file and cut back at its bound"
    assert held(cache, 120) == set(range(120)), "nothing lost on the way"
    cache.close()
