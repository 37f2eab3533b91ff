"""A key whose action is not offered says why nothing happens.

A key hidden from the footer (its screen's `check_action` says False: a change on
a read-only profile, a delete with nothing to delete), or greyed there (None: an
export with no rows), is passed on by Textual as if it were not bound, so `d` or `n` pressed from habit did nothing and said
nothing. A screen or dialog hands its unbound keys to `say_why_hidden` with its
reasons (`why_not`), and the first binding of the key that has one says it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from textual.actions import parse
from textual.screen import Screen


def say_why_hidden(screen: Screen[Any], event: events.Key, why_not: Callable[[str, str], str | None]) -> None:
    """Say `why_not(action, description)` for a key of `screen` whose binding is hidden now, as `[keys]` placed
    the bindings; never for a key a field types or another binding takes."""
    if _taken(screen, event):
        return
    bindings = screen._bindings.copy()
    if screen.app._keymap:
        bindings.apply_keymap(screen.app._keymap)
    for binding in bindings.key_to_bindings.get(event.key, []):
        why = why_not(binding.action, binding.description.lower())
        if why:
            screen.app.notify(why, markup=False)
            event.stop()
            return


def say_unbound(screen: Screen[Any], event: events.Key, key: str, said: str) -> None:
    """Say `said` for `key` pressed where nothing on `screen` binds it (no field types it, no binding takes it,
    hidden or not): a key the README gives every area (`d`, delete) must not do nothing silently."""
    if event.key != key or event._stop_propagation or _taken(screen, event):
        return
    bindings = screen._bindings.copy()
    if screen.app._keymap:
        bindings.apply_keymap(screen.app._keymap)
    if bindings.key_to_bindings.get(event.key):
        return
    screen.app.notify(said, markup=False)
    event.stop()


def _taken(screen: Screen[Any], event: events.Key) -> bool:
    """Whether the focused field types the key, or an offered binding takes it."""
    focused = screen.focused
    if focused is not None and focused.check_consume_key(event.key, event.character):
        return True
    active = screen.active_bindings.get(event.key)
    return active is not None and active.enabled  # (a disabled one, greyed in the footer, does nothing either)


class RefusedChoices:
    """A dialog's `choose(ACTION)` keys less the refused ones (`refused`: action → why it is off here, in the words
    of the screen's `why_not`): not offered, and each says why when pressed. Mixed in before the dialog's screen class."""

    refused: dict[str, str]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action == "choose" and parameters and parameters[0] in self.refused)

    def on_key(self, event: events.Key) -> None:
        assert isinstance(self, Screen)
        say_why_hidden(self, event, self._refusal)

    def _refusal(self, action: str, _description: str) -> str | None:
        _namespace, name, parameters = parse(action)
        return self.refused.get(str(parameters[0])) if name == "choose" and parameters else None


__all__ = ["RefusedChoices", "say_unbound", "say_why_hidden"]
