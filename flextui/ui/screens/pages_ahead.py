"""What a list without a total knows of the pages after the one shown, as its `]` and pager line need it.

A server's list may come without a total: the registry's (its `X-Total-Count`
is an extension the docs do not show) and every token search (the search
API has no count). The data layer then settles each page by asking the next
one ahead, through the cache (`Listing.page`, built `ahead`), so the page
`]` turns to next is already there: the page comes at once with `Page.more`
None, then settled. A page short of the size asked is no sign of the last
(the server may page by a size of its own), and a server ignoring the page
number answers the same rows for every page: only `Page.more` says whether
a next page exists, and `]` never goes past the one that says none does.

The registry's lists (`PagedRegistryScreen`, a project's members) and the
token search (`TokensScreen`) each kept this by hand, in the same steps under
other names; `Ahead` is those steps once. The registry counts its pages from
1 and the token API from 0: `first` says which, and what `Ahead` says of
pages to the user ("page 3 of 3", "] opens page 4") is counted from 1 either
way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Ahead:
    """What is known of the pages after the one shown, for a list without a total.

    `]` is taken only where a next page exists; one pressed before that is
    known waits for the answer (`wanted`) and is then taken, one page at a
    time, so a burst stops on the last page. Pages are numbered as the screen
    numbers them (from `first`); `last` is counted from 1, as the pager says it.
    """

    first: int = 1
    """The number of a list's first page on its screen: 1 (the registry) or 0 (the token API)."""
    more: bool | None = None
    """Whether a page follows the one shown (`Page.more`); None while the server is being asked."""
    last: int | None = None
    """The last page counted from 1 (how many pages there are), once a page has said none follows it; None: unknown."""
    wanted: int = 0
    """`]`s pressed while it was not known whether a next page exists."""

    def reset(self) -> None:
        """Another listing: nothing known of its pages."""
        self.more = self.last = None
        self.wanted = 0

    def counted(self, page: int) -> int:
        """Page `page` (numbered from `first`) counted from 1, as the user reads it."""
        return page - self.first + 1

    def settled(self, page: int, more: bool | None) -> bool:
        """Page `page` says what follows it (`more`; None: not known yet); True when a waiting `]` may now be taken."""
        self.more = more
        if more is False:
            self.last = self.counted(page)
        elif more and self.last is not None and self.last <= self.counted(page):
            self.last = None  # the list has grown since
        return more is not None and self.wanted > 0

    def came_back_empty(self, asked: int, shown: int) -> None:
        """Page `asked` came back empty while page `shown` stays shown (`:page N` past the last page, or a page the list
        has since lost): when it is the page after `shown`, `shown` is the last. A waiting `]` has nowhere to go."""
        if asked == shown + 1:
            self.settled(shown, False)
        self.wanted = 0

    def beyond(self, page: int) -> bool:
        """Whether page `page` is past the last page, once that is known."""
        return self.last is not None and self.counted(page) > self.last

    def take_wanted(self) -> bool:
        """Whether to take one waiting `]` now (the rest wait for the next page's answer)."""
        wanted, self.wanted = self.wanted, 0
        if wanted and self.more:
            self.wanted = wanted - 1
            return True
        return False

    def waits(self, delta: int, *, loading: bool, page: int, shown: int | None) -> bool:
        """A `]` pressed while what follows page `page` (the page asked for) is not known yet: it is being loaded
        (`loading`) and is not the page shown (`shown`), or is and the page after it is still being asked for. It waits
        for the answer (True), counted in `wanted`."""
        if delta > 0 and loading and (page != shown or self.more is None):
            self.wanted += delta
            return True
        return False

    def notes(self, page: int) -> list[str]:
        """What the pager line says of the pages after `page`: "more may follow" until it is known, "] for more"."""
        if self.more is None:
            following = self.counted(page) + 1
            return [f"more may follow (] opens page {following} if it exists)" if self.wanted else "more may follow"]
        return ["] for more"] if self.more else []
