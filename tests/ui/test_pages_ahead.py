"""`Ahead` (ui/screens/pages_ahead.py), the one keeper of what a list without a total knows of its next pages: the
registry's lists count their pages from 1, the token search from 0, and both read the same to the user."""

from __future__ import annotations

import pytest

from flextui.ui.screens.pages_ahead import Ahead


@pytest.mark.parametrize("first", [0, 1])
def test_the_same_pages_read_the_same_counted_from_0_or_1(first: int) -> None:
    ahead = Ahead(first=first)
    one, three = first, first + 2
    assert ahead.notes(one) == ["more may follow"]
    assert not ahead.waits(1, loading=False, page=one, shown=one), "nothing being asked: `]` is not held"
    assert ahead.waits(1, loading=True, page=one, shown=one), "page 1 shown, what follows it still asked for"
    assert ahead.notes(one) == ["more may follow (] opens page 2 if it exists)"]
    assert ahead.settled(one, True), "known now: the `]` that waited may be taken"
    assert ahead.take_wanted() and ahead.wanted == 0 and not ahead.take_wanted()
    assert ahead.notes(one) == ["] for more"] and ahead.last is None and not ahead.beyond(three)

    assert not ahead.settled(three, False), "no `]` waiting"
    assert ahead.last == 3 and ahead.notes(three) == [], "the last page, counted from 1 whatever the numbering"
    assert ahead.beyond(first + 3) and not ahead.beyond(three)

    ahead.settled(three, True)  # the list has grown since
    assert ahead.last is None and not ahead.beyond(first + 3)


@pytest.mark.parametrize("first", [0, 1])
def test_a_page_past_the_one_shown_that_came_back_empty(first: int) -> None:
    ahead = Ahead(first=first)
    ahead.waits(2, loading=True, page=first + 1, shown=first)
    assert ahead.wanted == 2
    ahead.came_back_empty(first + 1, first)
    assert ahead.last == 1 and ahead.more is False and ahead.wanted == 0, "the next page is empty: the one shown is the last"
    ahead.reset()
    ahead.came_back_empty(first + 5, first)  # `:page 6`: nothing known of the pages between
    assert ahead.last is None and ahead.more is None


def test_a_burst_of_next_page_keys_stops_on_the_last_page() -> None:
    ahead = Ahead(first=0)
    ahead.waits(3, loading=True, page=0, shown=0)
    assert ahead.settled(0, True) and ahead.take_wanted() and ahead.wanted == 2, "one page on; the rest wait for its answer"
    ahead.settled(1, False)
    assert not ahead.take_wanted() and ahead.wanted == 0, "the last page: the rest are dropped"
