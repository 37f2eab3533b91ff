"""Key hints written from the bindings, so a hint cannot name a key that does nothing.

A hint typed by hand drifts: the report column chooser said `a: show all`
while its binding was `*`, and no typed hint follows a key moved in the
config's `[keys]`. `bound_key` reads a key from the node that binds it, as the
keymap left it and as the footer shows it, and says nothing of an action the
node does not offer now (its `check_action`, e.g. a change on a read-only
profile); `hint` joins the keys found into one line.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.actions import parse
from textual.dom import DOMNode


def bound_key(node: DOMNode, which: str, *, prefer: str = "") -> str | None:
    """The key `node` binds to `which` (a binding id, or else an action name such as a widget's "select"),
    as shown in the footer: its first, or `prefer` when that is one of them (a list toggles with enter and
    space; space is the one people know); None when it binds none or does not offer the action now."""
    bindings = node._bindings.copy()
    keymap = node.app._keymap
    if keymap:
        bindings.apply_keymap(keymap)
    found = []
    for key, binding in bindings:
        _namespace, action, parameters = parse(binding.action)
        if which not in (binding.id, binding.action, action):
            continue
        if node.check_action(action, parameters) is False:
            return None
        found.append((key, binding))
    if not found:
        return None
    _key, binding = next(((k, b) for k, b in found if k == prefer), found[0])
    return node.app.get_key_display(binding)


def hint(*entries: tuple[str | None | Sequence[str | None], str], between: str = " ") -> str:
    """`key words · key words …` of the entries whose key is bound (`bound_key` gave one); an entry of several keys
    shows them joined by "/" (all of them, or it is left out), a modifier they share written once ("shift+↑/↓")."""
    parts = []
    for keys, words in entries:
        found = [keys] if keys is None or isinstance(keys, str) else list(keys)
        if found and all(found):
            parts.append(f"{_joined([k for k in found if k])}{between}{words}")
    return " · ".join(parts)


def _joined(keys: list[str]) -> str:
    modifiers = {key.rpartition("+")[0] for key in keys}
    if len(keys) > 1 and len(modifiers) == 1 and (shared := modifiers.pop()):
        return shared + "+" + "/".join(key.rpartition("+")[2] for key in keys)
    return "/".join(keys)


__all__ = ["bound_key", "hint"]
