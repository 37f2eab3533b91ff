"""The page cache's size limit: what was used longest ago goes first.

Without one the cache only grew: a 100,000-record report run in the TUI adds
≈ 60 MB of pages and ≈ 13 MB of kept grid columns, every filter set and limit
its own, and jump hosts have small home quotas. The limit is on the bytes the
SQLite file uses (its pages less its free list: O(1) to ask, and a freed page
is reused before the file grows), so the file stays near the limit instead of
shrinking and growing; `flextui cache clear` gives the space back.

What goes: pages and kept sets (`derived_sets`, a report's grid columns) by the
time they were last used (stored, or read: `PageCache` notes reads in memory
and writes them with the next store, so a read never waits on a write lock).
A page that goes takes the kept sets made from it along (they can never be
valid again). The newest pages go last, so only a single run larger than the
limit loses its own first pages; such a run is shown, but revisited from the
server.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

TRIM_TO = 0.9
"""Trimming stops under this share of the limit, so the next pages do not trim again at once."""

BATCH = 16


def used_bytes(db: sqlite3.Connection) -> int:
    """Bytes of the database in use: its pages less those on the free list (the file's size, less what it would reuse)."""
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    return int((pages - free) * page_size)


def note_uses(db: sqlite3.Connection, pages: Mapping[str, float], sets: Mapping[str, float]) -> None:
    """Write when pages and kept sets were last read (noted in memory since the last store)."""
    if pages:
        db.executemany("UPDATE pages SET used_at = ? WHERE key = ?", [(at, key) for key, at in pages.items()])
    if sets:
        db.executemany("UPDATE derived_sets SET used_at = ? WHERE key = ?", [(at, key) for key, at in sets.items()])


def trim(db: sqlite3.Connection, limit: int) -> int:
    """Drop what was used longest ago until the database uses less than `TRIM_TO` of `limit` bytes
    (nothing while it is under `limit`); returns how many pages and kept sets went."""
    used = used_bytes(db)
    if used <= limit:
        return 0
    dropped = 0
    while used > limit * TRIM_TO:
        oldest = db.execute(
            "SELECT kind, key FROM ("
            " SELECT 0 AS kind, key, coalesce(used_at, stored_at) AS at FROM pages"
            " UNION ALL SELECT 1 AS kind, key, coalesce(used_at, stored_at) AS at FROM derived_sets"
            ") ORDER BY at LIMIT ?",
            (BATCH,),
        ).fetchall()
        if not oldest:
            break
        for kind, key in oldest:  # each its own statement: the connection is shared by threads, no transaction spans them
            if kind == 0:
                db.execute("DELETE FROM pages WHERE key = ?", (key,))
                made_from = db.execute("SELECT key FROM derived_sets WHERE instr(sources, ?) > 0", (f'"{key}"',)).fetchall()
                for (derived,) in made_from:
                    drop_set(db, derived)
            else:
                drop_set(db, key)
            dropped += 1
            used = used_bytes(db)
            if used <= limit * TRIM_TO:
                break
    return dropped


def drop_set(db: sqlite3.Connection, key: str) -> None:
    db.execute("DELETE FROM derived_sets WHERE key = ?", (key,))
    db.execute("DELETE FROM derived_parts WHERE key = ?", (key,))


__all__ = ["BATCH", "TRIM_TO", "drop_set", "note_uses", "trim", "used_bytes"]
