"""Counted nouns: "1 row", "2 rows", "12,500 rows", one spelling for every message and label.

Messages are built in many places; a count written by hand there came out
"1 rows" more than once, so every count of things goes through `plural`.
"""

from __future__ import annotations

from typing import Any


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n` and the noun that agrees with it; `many` for irregular plurals ("entries")."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


__all__ = ["plural"]


def iso(moment: Any) -> str | None:
    """A timestamp to the second (`2024-05-01T12:00:00+00:00`), or None."""
    return moment.isoformat(timespec="seconds") if moment is not None else None
