"""The command palette's provider and the `:` command interpreter, both from the kinds registry."""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from flextui import kinds
from flextui.ui.appref import flex_app

APP_COMMANDS = (
    ("Request log: every request of this session, copy one as curl", "request_log", "L or :log"),
    ("History: the records opened with j, to go back or forward to", "history", ":history"),
    ("Show the last copied value", "show_clipboard", "ctrl+y or :clip"),
    ("Type the password again and sign in with it (this session only)", "retype_password", ":password"),
)
"""Palette entries for the app's own actions: (text, action, how else to reach it)."""


class KindsProvider(Provider):
    """ "Open Access tokens" etc. for every kind with a screen, and the app's own commands (the request log)."""

    def _profiles(self) -> list[tuple[str, Any]]:
        app = flex_app(self)
        try:
            names = app.profile_names()
        except Exception:  # a config that cannot be read: `:profile` says why
            return []
        return [(f"Switch to profile {name}", partial(app.switch_profile, name)) for name in names if name != app.ctx.profile_name]

    async def discover(self) -> Hits:
        for text, action, keys in APP_COMMANDS:
            yield DiscoveryHit(text, partial(self.app.run_action, action), help=keys)
        for text, switch in self._profiles():
            yield DiscoveryHit(text, switch, help=":profile NAME (:ctx)")
        for kind in kinds.navigable():
            if kind.argument and not kind.argument.startswith("["):
                continue
            yield DiscoveryHit(
                f"Open {kind.title}", partial(flex_app(self).go_to_area, kind, None), help=f":{kind.id} — {kind.description}"
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, action, keys in APP_COMMANDS:
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(self.app.run_action, action), help=keys)
        for text, switch in self._profiles():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), switch, help=":profile NAME (:ctx)")
        for kind in kinds.navigable():
            if kind.argument and not kind.argument.startswith("["):
                continue
            text = f"Open {kind.title} (:{kind.id} {' '.join(kind.aliases)})"
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(flex_app(self).go_to_area, kind, None), help=kind.description)


def parse_command(text: str) -> tuple[str, list[str]]:
    parts = text.strip().lstrip(":").split()
    if not parts:
        return "", []
    return parts[0].lower(), parts[1:]


def run_command(app: Any, text: str) -> None:
    """Carry out a `:` command; unknown words get a helpful message."""
    word, args = parse_command(text)
    if not word:
        return
    if word in ("q", "quit", "exit"):
        app.exit()
        return
    if word in ("help", "h", "?"):
        app.action_help()
        return
    if word == "theme":
        if not args:
            app.notify("Themes: " + ", ".join(sorted(app.available_themes)), markup=False, timeout=10)
            return
        if args[0] not in app.available_themes:
            app.notify(f"No theme {args[0]!r}. Try :theme to list them.", severity="error", markup=False)
            return
        app.theme = args[0]
        return
    if word in ("refresh", "r"):
        app.action_refresh()
        return
    if word == "redraw":
        app.action_redraw()
        return
    if word == "clip":
        app.action_show_clipboard()
        return
    if word in ("log", "requests"):
        app.action_request_log()
        return
    if word in ("password", "passwd"):
        app.action_retype_password()
        return
    if word in ("profile", "ctx", "context"):
        try:
            names = app.profile_names()
        except Exception as exc:  # the config cannot be read: say why
            app.notify(f"Profiles: {exc}", severity="error", markup=False)
            return
        if not args:
            app.pick_profile(names)
            return
        if args[0] not in names:
            from flextui.config import no_profile

            said = no_profile(args[0], names)  # `no profile "prdo" (have: prod, uat): did you mean prod?`, as --profile says it
            app.notify(said[:1].upper() + said[1:], severity="error", markup=False)
            return
        app.switch_profile(args[0])
        return
    if word in ("page", "pg"):
        go = getattr(app.screen, "go_to_page", None)
        if not callable(go) or not args or not args[0].isdigit():
            app.notify(":page N shows page N of this list (counted from 1)" if callable(go) else "This screen has no pages", markup=False)
            return
        problem = go(int(args[0]))
        if problem:
            app.notify(problem, severity="warning", markup=False)
        return
    if word == "watch":
        watch = getattr(app.screen, "watch_every", None)
        if not callable(watch):
            app.notify("Nothing to watch on this screen", markup=False)
            return
        if not args:
            watcher = getattr(app.screen, "watcher", None)
            said = f"Watching {watcher.every}: :watch off stops" if watcher else "Not watching: :watch 30 refreshes this list every 30 s"
            app.notify(said, markup=False)
            return
        if args[0].lower() in ("off", "stop", "0"):
            app.notify(watch(None), markup=False)
            return
        from flextui.ui.watch import parse_seconds

        try:
            seconds = parse_seconds(args[0])
        except ValueError as exc:
            app.notify(str(exc), severity="error", markup=False)
            return
        app.notify(watch(seconds), markup=False)
        return
    if word in ("history", "hist"):
        app.action_history()
        return
    if word == "sort":
        sort_screen = getattr(app.screen, "sort_by_words", None)
        if not callable(sort_screen):
            app.notify("Nothing to sort on this screen", markup=False)
            return
        sort_screen(args)
        return
    kind = kinds.lookup(word)
    if kind is None or not kind.has_screen:
        names = ", ".join(k.id for k in kinds.navigable())
        app.notify(
            f"Unknown command {word!r}. Try: {names}, log, sort, page, watch, history, profile, password, theme, help, quit.",
            severity="error",
            markup=False,
        )
        return
    needs = kind.argument and not kind.argument.startswith("[")
    if needs and not args:
        app.notify(f":{kind.id} needs {kind.argument}", severity="error", markup=False)
        return
    app.go_to_area(kind, " ".join(args) or None)
