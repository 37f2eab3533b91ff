"""Tenants in place: `:profile NAME` (`:ctx`) opens another profile's session and the app moves to it.

The new profile is signed in before anything changes (a wrong password keeps the tenant you
are on, and says why); a profile whose secret comes from a prompt asks in a dialog, never on
the terminal under the TUI. The demo offers its seeded users as profiles (`demo`,
`demo-producer`, `demo-customer`, `demo-read-only`) on its one simulator. Everything shown for
the old tenant is discarded by the app (its areas are closed); the page cache is keyed by
identity, so nothing of one tenant can show under the other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from rich.cells import cell_len, set_cell_size
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from flextui.api.auth import Credentials
from flextui.context import DEMO_IDENTITIES, AppContext, demo_identity, demo_login, profile_context
from flextui.render.text import clean
from flextui.ui.guard import safe
from flextui.ui.keys import FlexModal
from flextui.ui.widgets.dialogs import Fitted

Ask = Callable[[str], Awaitable[str | None]]
"""Ask the user for a secret (the dialog's title): the value, or None when they cancel."""


class SwitchCancelled(Exception):
    """The user closed the password dialog: stay where you are."""


class SecretPrompt(FlexModal[str | None]):
    """A password or access token for a profile, masked; never logged, kept only by the new session."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="secret_prompt.cancel")]
    DEFAULT_CSS = """
    SecretPrompt { align: center middle; }
    SecretPrompt > Vertical { width: 72; max-width: 95%; height: auto; border: thick $primary; background: $surface; padding: 1 2; }
    SecretPrompt #secret-title { text-style: bold; width: 100%; margin-bottom: 1; }
    SecretPrompt #secret-note { color: $text-muted; margin-top: 1; width: 100%; }
    """

    def __init__(self, title: str) -> None:
        super().__init__()
        self._title = title
        self.shows_secret = True

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(safe(self._title, lines=False), id="secret-title")
            yield Input(password=True, id="secret-value", max_length=4096)
            yield Label("enter signs in · escape stays on this profile", id="secret-note")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value or None)


def profile_names(ctx: AppContext) -> list[str]:
    """The profiles `:profile` can switch to: the demo's identities in the demo, else the config's."""
    if ctx.demo and "sim_app" in ctx.extras:
        return list(DEMO_IDENTITIES)
    from flextui.config import load_config

    return list(load_config().profiles)


Facts = dict[str, list[str]]
"""What `:profile`'s list says beside each profile's name: its URL's host, its user, `read-only` when it is."""


def profile_facts(ctx: AppContext) -> Facts:
    """Each profile's facts, for the ones `profile_names` offers (the demo's identities in the demo); under
    `--read-only`, every one is read-only (as it will be opened)."""
    facts = demo_facts(ctx) if ctx.demo and "sim_app" in ctx.extras else config_facts()
    if ctx.forced_read_only:
        return {name: said if "read-only" in said else [*said, "read-only"] for name, said in facts.items()}
    return facts


def demo_facts(ctx: AppContext) -> Facts:
    """The demo's identities: each its seeded user (their host, the one simulator, would only repeat on every line)."""
    return {name: facts_of(None, demo_login(as_user)[0], read_only) for name, (as_user, read_only, _) in DEMO_IDENTITIES.items()}


def config_facts() -> Facts:
    """The config's profiles (none when it cannot be read: `:profile` says why, reading their names)."""
    from flextui.config import ConfigError, load_config

    try:
        profiles = load_config().profiles
    except ConfigError:
        return {}
    return {name: facts_of(host_of(profile.url), profile.user, profile.read_only) for name, profile in profiles.items()}


def facts_of(host: str | None, user: str | None, read_only: bool) -> list[str]:
    return [fact for fact in (host, user, "read-only" if read_only else None) if fact]


def host_of(url: str) -> str:
    """A URL's host and port: never a `user:password@` written into it."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:  # (a port that is not one: the host alone)
        port = None
    return f"{parts.hostname}:{port}" if parts.hostname and port else parts.hostname or ""


SEPARATOR = "  ·  "
NARROWEST = 12
"""Cells a fact is cut to at the least (with its ellipsis): `read-only` never is, a host keeps its start."""


def choice_text(name: str, facts: list[str], *, in_use: bool, width: int | None = None) -> str:
    """One line of `:profile`'s list: `uat  ·  uat.example.com  ·  me@x.example  ·  read-only`, `(in use)` after it;
    cleaned. In `width` cells the facts are cut to fit, the first first (a long host wrapped the line, pushing its
    user and read-only onto a second); the name is never cut."""
    name, facts = clean(name), [clean(fact) for fact in facts]
    end = "  (in use)" if in_use else ""
    if width is not None:
        over = cell_len(name + end) + len(SEPARATOR) * len(facts) + sum(map(cell_len, facts)) - width
        for index, fact in enumerate(facts):
            if over > 0 and (cut := min(over, cell_len(fact) - NARROWEST)) > 0:
                facts[index] = set_cell_size(fact, cell_len(fact) - cut - 1) + "…"
                over -= cut
    return SEPARATOR.join([name, *facts]) + end


def choice(name: str, facts: list[str], *, in_use: bool) -> Fitted:
    """`choice_text` for the list, made for the width it is drawn at."""
    return Fitted(lambda width: choice_text(name, facts, in_use=in_use, width=width))


async def open_profile(ctx: AppContext, name: str, ask: Ask) -> AppContext:
    """A signed-out context for profile `name` (secrets from where the profile says; a prompt asks with `ask`)."""
    if ctx.demo and "sim_app" in ctx.extras:
        if name not in DEMO_IDENTITIES:
            from flextui.config import no_profile

            raise LookupError(no_profile(name, DEMO_IDENTITIES, "demo profile"))
        return demo_identity(ctx, name)
    from flextui.config import load_config, tls_verify
    from flextui.secrets import credential_sources, offline_credentials, resolve

    config = load_config()
    profile = config.profile(name)  # (one not there: its file, the profiles there are, and the closest)
    tls = tls_verify(profile, config.places)  # a CA bundle that cannot be used is told before a password is asked for
    if ctx.session.offline:  # `--offline` stays offline: the other profile's cached pages, no secret asked for
        return profile_context(
            profile,
            offline_credentials(profile)[0],  # (the identity they were stored under: its token, if at hand)
            ctx.settings,
            keys=ctx.keys,
            cache=ctx.session.cache,
            offline=True,
            read_only=ctx.forced_read_only or None,
            places=config.places,
            tls=tls,
        )
    secrets: dict[str, str | None] = {}
    for what, source in credential_sources(profile):
        if source is None:
            secrets[what] = None
        elif not isinstance(source, str) and source.prompt:
            value = await ask(f"{what.capitalize()} for {profile.user or name} at {profile.url}")
            if value is None:
                raise SwitchCancelled
            secrets[what] = value
        else:  # an environment variable, the keyring or a command (which may take a while): off the loop
            secrets[what] = await asyncio.to_thread(resolve, profile, source, what, interactive=False)
    credentials = Credentials(profile.user, secrets["password"], secrets["access token"])
    return profile_context(
        profile,
        credentials,
        ctx.settings,
        keys=ctx.keys,
        cache=ctx.session.cache,
        read_only=ctx.forced_read_only or None,  # `--read-only` holds for every profile of the session (no token minted)
        places=config.places,
        tls=tls,
    )


async def sign_in(ctx: AppContext) -> None:
    """Prove the new profile's credentials with one small request (an `ApiError` says why not); offline, there is
    nothing to prove them to."""
    from flextui.api.tokens import TokensService

    if ctx.session.offline:
        return

    await TokensService(ctx.session).count(username=ctx.user)


Opener = Callable[[AppContext, str, Ask], Awaitable[AppContext]]


@dataclass
class ProfileSource:
    """Which profiles there are, what the list says of each, and how one is opened (tests give one with a second simulator)."""

    names: Callable[[AppContext], list[str]] = profile_names
    open: Opener = open_profile
    facts: Callable[[AppContext], Facts] = profile_facts


__all__ = [
    "Ask",
    "Facts",
    "Opener",
    "ProfileSource",
    "SecretPrompt",
    "SwitchCancelled",
    "choice",
    "choice_text",
    "config_facts",
    "open_profile",
    "profile_facts",
    "profile_names",
    "sign_in",
]
