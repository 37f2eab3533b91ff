"""The one pager against every way a server can page: each item once, bounded requests, honest outcomes.

A `FakeList` is a numbered listing with a chosen misbehaviour (the variants
the vendor's docs and Spring/Harbor servers show: a base of 0 or 1, a page
size capped, ignored, or paging ignored entirely, a strict 400 past the end);
the pager must return every item exactly once in a bounded number of requests,
or say plainly what it could not get.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from flextui.api.errors import Invalid
from flextui.api.paging import Outcome, Page, PageBases, Pager, collect, decide_base, detect_base


@dataclass
class FakeList:
    """A server listing `count` items (0..count-1)."""

    count: int
    base: int = 1
    cap: int | None = None  # sizes above this are answered with this many
    own_size: int | None = None  # the page size parameter is ignored: this size is used
    ignore_paging: bool = False  # every page is the whole list
    ignore_number: bool = False  # every page is the first page
    strict: bool = False  # a page below the base is a 400
    zero_alias: bool = False  # page 0 answers page 1 (1-based servers only)
    total: bool = False  # the answer states the total
    requests: list[tuple[int, int]] = field(default_factory=list)

    async def fetch(self, number: int, size: int) -> Page[int]:
        self.requests.append((number, size))
        items = list(range(self.count))
        if self.ignore_paging:
            return Page(items, number, size, self.count if self.total else None)
        if number < self.base:
            if self.strict:
                raise Invalid(f"page must be at least {self.base}", status=400)
            if self.zero_alias:
                number = self.base
            else:
                return Page([], number, size)
        used = self.own_size or size
        if self.cap is not None:
            used = min(used, self.cap)
        index = 0 if self.ignore_number else number - self.base
        return Page(items[index * used : (index + 1) * used], number, size, self.count if self.total else None)


async def listing(
    fake: FakeList, *, size: int = 50, base: int | None = None, total: int | None = None, **kwargs: object
) -> tuple[list[int], Outcome]:
    pager: Pager[int] = Pager(fake.fetch, size=size, base=base, total=total, key=lambda i: i, **kwargs)  # type: ignore[arg-type]
    items = await collect(pager)
    return items, pager.outcome


@pytest.mark.parametrize("count", [0, 1, 49, 50, 51, 150, 237])
@pytest.mark.parametrize("base", [0, 1])
async def test_every_item_once_with_a_known_base(count: int, base: int) -> None:
    fake = FakeList(count, base=base)
    items, outcome = await listing(fake, base=base)
    assert items == list(range(count)) and outcome.complete and outcome.count == count
    assert len(fake.requests) <= count // 50 + 2  # a full or a short first page costs at most one settling request


@pytest.mark.parametrize(
    "server",
    [
        {"base": 0},
        {"base": 1},
        {"base": 1, "strict": True},
        {"base": 1, "zero_alias": True},
        {"base": 1, "cap": 20},
        {"base": 0, "cap": 20},
        {"base": 1, "own_size": 7},
        {"base": 0, "own_size": 7, "strict": True},
        {"base": 1, "total": True},
        {"base": 1, "cap": 20, "zero_alias": True},
    ],
)
@pytest.mark.parametrize("count", [0, 3, 20, 30, 150])
async def test_an_unknown_base_is_detected_and_every_item_listed_once(server: dict[str, object], count: int) -> None:
    fake = FakeList(count, **server)  # type: ignore[arg-type]
    learned: list[int] = []
    pager: Pager[int] = Pager(fake.fetch, size=50, base=None, key=lambda i: i, on_base=learned.append)
    items = await collect(pager)
    assert items == list(range(count)), fake.requests
    assert pager.outcome.complete
    if count:
        assert learned == [server["base"]]
    size = min(int(server.get("cap") or 50), int(server.get("own_size") or 50))  # type: ignore[call-overload]
    assert len(fake.requests) <= count // size + 4, fake.requests


async def test_a_capped_size_is_not_the_end() -> None:
    fake = FakeList(150, cap=100)
    items, outcome = await listing(fake, size=200, base=1)
    assert items == list(range(150)) and outcome.complete
    assert fake.requests == [(1, 200), (2, 200)]


async def test_a_short_first_page_is_settled_by_one_more_request() -> None:
    fake = FakeList(30)
    items, _ = await listing(fake, size=200, base=1)
    assert items == list(range(30)) and fake.requests == [(1, 200), (2, 200)]


async def test_a_known_total_saves_the_settling_request_and_says_when_pages_end_early() -> None:
    fake = FakeList(30)
    items, outcome = await listing(fake, size=200, base=1, total=30)
    assert items == list(range(30)) and fake.requests == [(1, 200)] and outcome.complete
    short = FakeList(30)
    items, outcome = await listing(short, size=10, base=1, total=45)
    assert items == list(range(30)) and not outcome.complete
    assert outcome.at_least == 45 and "showing 30 of at least 45" in outcome.describe()


async def test_a_server_that_ignores_paging_is_read_once() -> None:
    for count, size in ((120, 50), (30, 50)):
        fake = FakeList(count, ignore_paging=True)
        items, outcome = await listing(fake, size=size, base=1)
        assert items == list(range(count)) and outcome.complete and len(fake.requests) == 2


async def test_a_server_that_ignores_the_page_number_is_reported_not_looped() -> None:
    fake = FakeList(500, ignore_number=True)
    items, outcome = await listing(fake, size=50, base=1)
    assert items == list(range(50)) and len(fake.requests) == 2
    assert not outcome.complete and "ignores the page number" in (outcome.reason or "") and outcome.at_least == 51


async def test_without_a_key_a_repeated_page_still_stops() -> None:
    fake = FakeList(500, ignore_number=True)
    pager: Pager[int] = Pager(fake.fetch, size=50, base=1)
    assert await collect(pager) == list(range(50)) and not pager.outcome.complete


async def test_the_ceiling_stops_any_runaway() -> None:
    fake = FakeList(10_000, own_size=1)
    items, outcome = await listing(fake, size=1, base=1, max_requests=25)
    assert len(fake.requests) == 25 and items == list(range(25))
    assert not outcome.complete and "25 page requests" in (outcome.reason or "")


async def test_a_refusal_past_the_first_page_ends_the_listing() -> None:
    calls: list[int] = []

    async def fetch(number: int, size: int) -> Page[int]:
        calls.append(number)
        if number > 2:
            raise Invalid("page out of range", status=400)
        return Page(list(range((number - 1) * size, number * size)), number, size)

    pager: Pager[int] = Pager(fetch, size=5, base=1)
    assert await collect(pager) == list(range(10)) and pager.outcome.complete and calls == [1, 2, 3]
    with pytest.raises(Invalid):
        await collect(Pager(fetch, size=5, base=3))  # refusing the very first page is an error, not an empty list


async def test_max_items_is_the_callers_limit_not_a_shortfall() -> None:
    fake = FakeList(500)
    items, outcome = await listing(fake, size=50, base=1, max_items=70)
    assert items == list(range(70)) and outcome.complete and len(fake.requests) == 2


async def test_overlapping_pages_list_each_item_once() -> None:
    async def fetch(number: int, size: int) -> Page[int]:
        start = max(0, (number - 1) * size - 2)  # each page repeats the last two of the one before
        return Page(list(range(start, min(start + size, 23))), number, size)

    pager: Pager[int] = Pager(fetch, size=10, base=1, key=lambda i: i)
    assert await collect(pager) == list(range(23))


def test_decide_base() -> None:
    assert decide_base([], []) is None
    assert decide_base([], [1]) == 1
    assert decide_base([1, 2], [1, 2]) == 1
    assert decide_base([1, 2], [3]) == 0
    assert decide_base([1, 2], []) == 0


async def test_detect_base_through_a_probe_and_remember_it() -> None:
    async def strict(number: int) -> list[int]:
        if number == 0:
            raise Invalid("page must be at least 1", status=400)
        return [1]

    assert await detect_base(strict) == 1
    saved: dict[str, int] = {}
    bases = PageBases({}, load=lambda s: saved.get(s), save=saved.__setitem__)
    bases.learn("registry", 0)
    assert saved == {"registry": 0}
    assert PageBases({}, load=lambda s: saved.get(s)).get("registry") == 0
