"""What screens and widgets may ask of the running app, typed: `flex_app(node)`.

Textual types `node.app` as a plain `App`; flextui's screens also need its
context, its copy and open-area actions and its error reporter. A Protocol
names exactly those (so a screen depends on what it uses, not on app.py,
which imports the screens), and `flex_app` gives it without a type ignore.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from flextui.context import AppContext
    from flextui.kinds import Kind, Link
    from flextui.ui.clipboard import CopyResult
    from flextui.ui.said import SaidLog


class FlexAppAPI(Protocol):
    """The part of `FlexApp` that screens, dialogs and widgets use."""

    ctx: AppContext
    said: SaidLog

    def copy_text(self, text: str, what: str, *, sensitive: bool = False, lines: bool = False) -> None: ...

    def send_to_clipboard(self, text: str, *, sensitive: bool = False, lines: bool = False) -> CopyResult: ...

    def open_kind(self, kind: Kind, argument: str | None, *, stack: bool = False) -> None: ...

    def go_to_area(self, kind: Kind, argument: str | None) -> None: ...

    def jump(self, link: Link) -> None: ...

    def switch_profile(self, name: str) -> None: ...

    def command_next(self) -> None: ...

    def profile_names(self) -> list[str]: ...

    def report_unexpected(self, error: BaseException, *, doing: str = "", where: str = "") -> None: ...


def flex_app(node: Any) -> FlexAppAPI:
    """The FlexApp running `node` (a widget, a screen, a command provider), as `FlexAppAPI`."""
    return cast("FlexAppAPI", node.app)


__all__ = ["FlexAppAPI", "flex_app"]
