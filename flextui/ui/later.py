"""Deferred work that never outlives the screen or widget that asked for it.

`call_after_refresh` does not keep a callback with the node that asked: Textual
hands it to the screen in front (`MessagePump._on_invoke_later` →
`app.screen._invoke_later`), which runs it at its own next idle. A screen that
is not in front (resized while another area was shown) and is then replaced
has its callback run after it was torn down, when its widgets are gone: the
report results' count line raised "NoMatches '#rr-count' on
ReportResultsScreen()" that way. A timer's callback runs in the timer's own
task, and a screen's timers stop only once the screen's messages close, after
its widgets were removed.

`after_refresh(node, callback)` is `node.call_after_refresh(callback)` whose
callback does nothing once `node` is gone (removed, closing, or no longer
linked to the app); `while_alive(node, callback)` is that callback, for a
timer. What the callback would have drawn is of a screen nobody sees again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from textual.message_pump import MessagePump


def gone(node: MessagePump) -> bool:
    """Whether `node` (a widget, a screen) has been removed or is being removed: it or a node above it is closing
    or closed, or it is no longer linked to the app."""
    current: MessagePump | None = node
    while current is not None:
        if current._closing or current._closed:
            return True
        if current.is_dom_root:
            return False
        current = current._parent
    return True


def while_alive(node: MessagePump, callback: Callable[..., Any]) -> Callable[..., Any]:
    """`callback`, but it does nothing once `node` is gone."""

    @wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        if gone(node):
            return None
        return callback(*args, **kwargs)

    return run


def after_refresh(node: MessagePump, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    """`node.call_after_refresh(callback, *args, **kwargs)`, dropped if `node` is gone by the time it would run."""
    return node.call_after_refresh(while_alive(node, callback), *args, **kwargs)
