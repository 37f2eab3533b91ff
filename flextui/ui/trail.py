"""Where a support engineer has been: the trail of related jumps, for escape (back), ctrl+f (forward) and `:history`.

A jump (`j` on a record that names another) leaves one area for another, or stacks a
screen in the same one. Areas are Textual modes and keep their screen stacks, so the
place left behind is the screen object itself: going back shows it again with its
filter, sort, cursor and scroll exactly as they were, at no cost. A hop remembers what
was opened (kind and argument), so going forward opens it again even after going back
popped it. Like a browser's, the trail keeps what is behind when the user goes elsewhere
(a `:` command, enter on a row) and forgets only what is ahead; a new jump forgets what is
ahead too. The trail survives a profile switch: going back to a place of the old tenant
opens its area on the new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flextui.kinds import Link


@dataclass
class Hop:
    """One jump: the place left (its area and screen) and where it went."""

    mode: str
    screen: Any
    left: str
    """The place left, in words (the screen's title when the jump was made)."""
    link: Link
    arrived: Any = None
    """The screen the jump showed (None once it has been closed)."""
    area: str = ""
    """The kind of the area left: after a profile switch closed it, going back opens it again on the new tenant."""


class Trail:
    """Back and forward stacks of hops (newest last)."""

    LIMIT = 100

    def __init__(self) -> None:
        self.back: list[Hop] = []
        self.forward: list[Hop] = []
        self.here: Any = None
        """The screen the latest move along the trail (a jump, back, forward) landed on: while the user is on it,
        what is ahead is still ahead."""

    def record(self, hop: Hop) -> None:
        """A new jump: it goes on the back stack, and what was ahead is forgotten (as in a browser)."""
        self.back.append(hop)
        del self.back[: -self.LIMIT]
        self.forward.clear()

    def leaving(self, screen: Any) -> Hop | None:
        """The hop that showed `screen` last, when going back from it should retrace that hop."""
        return self.back[-1] if self.back and self.back[-1].arrived is screen else None

    def landed(self, screen: Any) -> None:
        """A move along the trail shows `screen`: what is ahead stays ahead while the user is there."""
        self.here = screen

    def went_elsewhere(self) -> None:
        """The user opened a place themselves (a `:` area): what was ahead is forgotten, what is behind stays."""
        self.forward.clear()
        self.here = None

    def step_back(self) -> Hop | None:
        """The latest jump, undone: it is the first one ahead (the place it left is where this lands)."""
        if not self.back:
            return None
        hop = self.back.pop()
        self.forward.append(hop)
        self.here = hop.screen
        return hop

    def ahead_of(self, screen: Any) -> None:
        """Forget what is ahead unless `screen` is the place the latest move along the trail landed on: once the user
        has gone elsewhere (`:projects`, enter on a row), going forward would redo an old jump from an unrelated place.
        What is behind stays (as in a browser)."""
        if self.forward and screen is not self.here:
            self.forward.clear()

    def step_forward(self, mode: str, screen: Any) -> Hop | None:
        """The hop last gone back from, made again from `screen` (in area `mode`): it is the latest jump once more, and
        the hops ahead of it stay ahead (the caller says where it landed: `landed`)."""
        self.ahead_of(screen)
        if not self.forward:
            return None
        hop = self.forward.pop()
        hop.mode, hop.screen = mode, screen
        self.back.append(hop)
        return hop

    def entries(self) -> list[tuple[str, int]]:
        """The trail in words, oldest first: (text, steps) where steps < 0 goes back that many, > 0 forward."""
        out = [(f"{hop.left}  →  {hop.link.label}", -(len(self.back) - i)) for i, hop in enumerate(self.back)]
        out += [(f"{hop.link.label}", i + 1) for i, hop in enumerate(reversed(self.forward))]
        return out


__all__ = ["Hop", "Link", "Trail"]
