"""No unexpected error ends the app: it is logged, shown, and the app carries on.

Textual ends an app on any exception that escapes a worker (workers default
to `exit_on_error=True`), a timer, a callback or a message handler: every such
path calls `App._handle_exception`, which exits. flextui is used on live
tenants over SSH, where losing the session (and what was on screen) to one
bad server answer or one bug costs more than the bug. So:

* `FlexApp._handle_exception` asks `survivable(error)`: a worker's failure
  (`WorkerFailed`) and an error raised by a timer's callback, a scheduled
  callback (`call_later`, `call_after_refresh`, `call_next`, a dialog's result
  callback) or an idle handler are reported by `FlexApp.report_unexpected`
  (the traceback to the log file, a readable toast, the screen's status line)
  and the app keeps running. Textual itself carries on after each of these.
* A message handler's error is different: Textual ends that widget's message
  loop after it (the widget would be dead, and a dead focused widget swallows
  every key). `SafeDispatch`, mixed into the app and every flextui screen and
  widget that handles messages, catches the error inside the dispatch, so it
  never reaches that loop: actions run from keys (they run in the app's
  dispatch), `@on` handlers, and callbacks delivered as messages are covered.
* Anything else (a stylesheet that does not parse at start-up, a failure
  while painting) still ends the app as Textual would, with its traceback:
  carrying on there would show a broken screen. That traceback holds no local
  variables (`FlexApp._fatal_error`; Textual's shows them, and a frame's may
  hold a password or a token value).

Every worker keeps Textual's default `exit_on_error=True`, so its failure
reaches this one handler instead of vanishing into an ERROR state;
`AreaScreen.run_api` turns the *expected* failures (`ApiError`) into the
status line before that.
"""

from __future__ import annotations

import sys
from typing import Any

from textual.worker import WorkerFailed

# Who called App._handle_exception, in the installed Textual (8.x), when Textual carries on afterwards.
_CARRIES_ON = {
    "_tick",  # textual/timer.py: a timer's callback; the timer keeps running
    "_flush_next_callbacks",  # textual/message_pump.py: call_next callbacks, incl. dialog result callbacks
}
# In MessagePump._process_messages_loop Textual also calls it for an idle handler (the loop carries on:
# Screen._on_idle runs the call_after_refresh callbacks) and for a message handler (the loop ends).
_LOOP = "_process_messages_loop"


def original(error: BaseException) -> BaseException:
    """The error a worker raised, for a `WorkerFailed`; else the error itself."""
    return error.error if isinstance(error, WorkerFailed) else error


def survivable(error: BaseException, caller: str) -> bool:
    """Whether the app can carry on after `error`, which reached `App._handle_exception` from `caller`."""
    if isinstance(error, WorkerFailed):
        return True
    if caller in _CARRIES_ON:
        return True
    if caller == _LOOP:
        return not _raised_by_dispatch(error)
    return False


def _raised_by_dispatch(error: BaseException) -> bool:
    """True when the error came out of `_dispatch_message` (a handler: the widget's loop ends), not an idle handler."""
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_name == "_process_messages_loop" and tb.tb_next is not None:
            return tb.tb_next.tb_frame.f_code.co_name == "_dispatch_message"
        tb = tb.tb_next
    return True  # unknown shape: assume the worst (Textual's own handling)


def caller_of_handle_exception() -> str:
    """The name of the function that called `App._handle_exception` (call from inside that override)."""
    try:
        return sys._getframe(2).f_code.co_name
    except ValueError:  # pragma: no cover - no such frame
        return ""


class SafeDispatch:
    """Mixin for a MessagePump (the app, a screen, a widget): an exception in one of its handlers is reported
    by the app (`report_unexpected`) and the node keeps processing messages.

    While a handler of such a node runs (an action, a handler, a callback) the app counts it as busy, so
    keys typed meanwhile wait for it (`FlexApp` routes each key only once the previous one has had its effect).
    """

    async def _dispatch_message(self, message: Any) -> None:
        app = _app_of(self)
        if app is not None:
            app._handlers_running += 1
        try:
            await super()._dispatch_message(message)  # type: ignore[misc]
        except Exception as error:
            if app is None or not hasattr(app, "report_unexpected"):
                raise
            app.report_unexpected(error, where=f"{type(self).__name__} handling {type(message).__name__}")
        finally:
            if app is not None:
                app._handlers_running -= 1


def _app_of(node: Any) -> Any:
    try:
        app = node.app
    except Exception:
        return None
    return app if hasattr(app, "_handlers_running") else None


__all__ = ["SafeDispatch", "caller_of_handle_exception", "original", "survivable"]
