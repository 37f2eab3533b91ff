"""A report run's grid kept beside its stored pages, so that revisiting it shows its rows at once.

Why: the stored pages alone make a revisit decode every page and pool every
value again (≈ 2.5 s for 100,000 rows on a 2-core jump host, issue 12); the
grid's column stores, written as they are (`render.columns_file`), read back
in a fraction of that, a column at a time. The page cache keeps them valid only while each page
they were made from is still the page stored (`ReportsService.keep_view`),
so a refresh, a rerun or another instance that stores a page again makes
them a miss, and the pages are read as before.

What a revisit needs besides the rows travels with them: the columns (the
data model's and any the records added), how many records came and in how
many pages, the server's counts, the run's state, where loading the rest
resumes, and the repeats it dropped
(a limited run's record keys are rebuilt from the rows, so loading the rest
still drops repeats; a finished one is never resumed).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flextui.api.reports import RECORD_KEYS, Repeats
from flextui.render.columns import Store
from flextui.render.columns_file import read_columns, write_columns

__all__ = ["KEEP_AT_MOST", "KeptRun", "keep_parts"]

KEEP_AT_MOST = 2_000_000
"""Rows above which a run is not kept (≈ 135 B a row in the cache: 2 million rows, about a quarter of the
page cache's limit for one kept set, `MAX_DERIVED`); such a run revisits from its pages."""


@dataclass
class KeptRun:
    """A past run as read back: its stores and the facts the results screen shows with them."""

    names: list[str]
    stores: list[Store]
    count: int
    received: int
    pages: int
    total: int | None
    total_pages: int | None
    state: str
    resume_at: tuple[int, int]
    """Where loading the rest resumes (a page cut short by a record limit is asked for again, past its rows)."""
    repeats: Repeats

    @classmethod
    def read(cls, parts: list[bytes], group: str, known: list[str]) -> KeptRun:
        """The run `keep_parts` wrote (in a worker thread); `ValueError` if it is damaged or made for other columns."""
        stores, count, facts = read_columns(parts)
        names = facts.get("names")
        if not isinstance(names, list) or len(names) != len(stores) or names[: len(known)] != known:
            raise ValueError("kept for other columns")
        if not all(isinstance(name, str) for name in names) or len(set(names)) != len(names):
            raise ValueError("column names that are not distinct texts")
        resume_at = facts.get("resume_at")
        if (
            not isinstance(resume_at, list)
            or len(resume_at) != 2
            or not all(type(n) is int and n >= 0 for n in resume_at)
            or resume_at[0] < 1
        ):
            raise ValueError("bad resume_at")
        received, pages, dropped = (_number(facts, name) for name in ("received", "pages", "dropped"))
        total, total_pages = (_number(facts, name, missing=True) for name in ("total", "total_pages"))
        state = facts.get("state")
        if state not in ("done", "limited") or received < count or pages < 1:
            raise ValueError("bad facts")
        repeats = Repeats(group)
        keys = RECORD_KEYS.get(group, ())
        if state == "limited" and keys and all(key in names for key in keys):  # only a limited run is resumed
            repeats.remember(zip(*(stores[names.index(key)].slice(0, count) for key in keys), strict=True), dropped)
        else:
            repeats.remember((), dropped)
        return cls(names, stores, count, received, pages, total, total_pages, state, (resume_at[0], resume_at[1]), repeats)


def _number(facts: dict[str, Any], name: str, *, missing: bool = False) -> int | None:
    value = facts.get(name)
    if (type(value) is int and value >= 0) or (missing and value is None):
        return value
    raise ValueError(f"bad {name}")


def keep_parts(
    stores: list[Store],
    count: int,
    *,
    names: list[str],
    received: int,
    pages: int,
    total: int | None,
    total_pages: int | None,
    state: str,
    resume_at: list[int],
    dropped: int,
) -> Iterator[bytes]:
    """A finished run's first `count` rows and facts as parts for `KeptRun.read`, made as they are asked for
    (by the page cache's writer, in a worker thread); `Unstorable` at once if a column would not read back."""
    facts: dict[str, Any] = {
        "names": names,
        "received": received,
        "pages": pages,
        "total": total,
        "total_pages": total_pages,
        "state": state,
        "resume_at": resume_at,
        "dropped": dropped,
    }
    return write_columns(stores, count, facts)
