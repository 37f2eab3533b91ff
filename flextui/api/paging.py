"""Pagers for the services' paging styles.

The services page differently (notes §5): tokens use a 0-based `page` with
`pageSize`; the registry a 1-based `page` with `pageSize` (members:
`page_size`); the beta APIs `page` with `limit`; data reports `pageNumber`
(1-based) with next/previous links. `iterate_pages` covers the numbered
styles: it asks for page after page until a short page says the end has come.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(slots=True)
class Page(Generic[T]):
    """One page of a listing: its items, number, size and, when known, the total."""

    items: list[T]
    number: int
    size: int
    total: int | None = None
    age: float | None = None  # seconds since cached; None when fresh

    @property
    def pages(self) -> int | None:
        if self.total is None:
            return None
        return max(1, -(-self.total // self.size))


async def iterate_pages(
    fetch_page: Callable[[int], Awaitable[list[T]]],
    *,
    first: int,
    page_size: int,
    max_items: int | None = None,
) -> AsyncIterator[list[T]]:
    """Yield pages from `first` on until one is shorter than `page_size` (or `max_items` are seen)."""
    number = first
    seen = 0
    while True:
        items = await fetch_page(number)
        if max_items is not None and seen + len(items) > max_items:
            items = items[: max_items - seen]
        if items:
            yield items
        seen += len(items)
        if len(items) < page_size or (max_items is not None and seen >= max_items):
            return
        number += 1
