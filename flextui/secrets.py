"""Where passwords and tokens come from: env, OS keyring, a command, or a prompt.

For the TUI, resolved once before it starts (a prompt cannot run inside it);
for a headless command, only when a request needs one (`deferred_credentials`),
so a command is not stopped by a credential it does not use; offline
(`offline_credentials`), only a token at hand without asking anyone (its
value or an environment variable), never the password. Held only in
memory (`api.auth.Credentials`): never written to the config, the cache, logs
or screenshots. A profile may hold a password and an access token, each from
its own source, so one profile reaches every service.
"""

from __future__ import annotations

import getpass
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flextui.api.auth import CredentialName, Credentials, MissingCredential, NotRead, Secret
from flextui.config import APP_NAME, ConfigError, Credential, Profile, SecretSource, config_path
from flextui.context import credential_hint


class SecretError(ConfigError):
    """The secret could not be obtained; the message says how to fix that."""


class NoTerminal(SecretError):
    """A secret to be typed at a prompt, and no terminal to type it at; the message says what to use instead."""


ADHOC_NO_TERMINAL = (
    "a password is needed but there is no terminal to ask: set FLEXTUI_PASSWORD (or FLEXTUI_TOKEN), or configure password = { env = … }"
)
"""What `--url` without a password says with no terminal (its password comes from FLEXTUI_PASSWORD or a prompt)."""


def credential_sources(profile: Profile) -> list[tuple[CredentialName, Credential | None]]:
    """Where the profile's password and access token come from (None: it has none), named as messages name them."""
    return [("password", profile.password_source()), ("access token", profile.token_source())]


def resolve_credentials(profile: Profile, *, interactive: bool | None = None) -> Credentials:
    """The profile's user, password and access token, each from where the profile says."""
    password, token = (
        resolve(profile, source, what, interactive=interactive) if source is not None else None
        for what, source in credential_sources(profile)
    )
    return Credentials(profile.user, password, token)


def credentials_for_tui(profile: Profile) -> tuple[Credentials, list[str]]:
    """Every credential before the TUI starts (a prompt cannot run inside it), and what could not be had.

    One that cannot be had (an unset variable) no longer stops a TUI the other one serves: the token alone
    reaches the entitlement, product and user areas. It is said at start, and a request that needs it fails
    with the same words (MissingCredential, kept by `Credentials`). With none to be had, SecretError: nothing would work.
    """
    credentials = deferred_credentials(profile)
    lacking: list[str] = []
    for what in credentials.kinds:
        try:
            credentials.get(what)
        except MissingCredential as exc:
            lacking.append(exc.message)
    if lacking and len(lacking) == len(credentials.kinds):
        raise SecretError(lacking[0])
    return credentials, lacking


def deferred_credentials(profile: Profile) -> Credentials:
    """The profile's user, password and access token, each got only when a request needs it (the headless commands).

    One that cannot be had fails the command that needs it with MissingCredential (exit 3), saying why and naming
    the config line it comes from (or the line that adds it).
    """
    password, token = (_deferred(profile, source, what) if source is not None else None for what, source in credential_sources(profile))
    return Credentials(profile.user, password, token)


BETA_SERVICE_NAMES = frozenset({"entitlements", "products", "users"})
"""The services asked with the access token whatever else the profile holds (`api.http.BETA_SERVICES`, by name)."""


def offline_credentials(profile: Profile) -> tuple[Credentials, list[tuple[frozenset[str], str]]]:
    """What `--offline` finds the profile's cached pages by, with nothing sent and nothing asked; and what it cannot find.

    Pages are filed by identity (`Session.identity_for`): the instance and the user, and for a service asked with an
    access token the profile holds, that token's digest too (someone else's token never files their pages under this
    user). Offline must build the identity the same profile had online, or it finds nothing:

    - the access token, where it is at hand without asking anyone or anything: its value in the file, or an
      environment variable (unset: none, as online, where it could not be had either). One from the keyring, a
      command or a prompt is not got offline (the keyring may ask to be unlocked, a command may ask for a passphrase
      or reach a server, a prompt asks you): the pages asked with it are not found, and the list returned says so
      (with the services it concerns, by name).
    - the password is never read nor asked for: only that the profile has one, since the token API and data
      reports are then asked with it and file their pages under the user alone. Getting it fails (`NotRead`);
      nothing offline would send it. One from an environment variable that is not set (its value is not read)
      could not be had online either, where those two were asked with the access token instead, their pages
      filed under the token (`Session.identity_for`): offline looks for those too, as the same command line
      with the same variables did online, and says so (naming the variable).
    """
    token: str | None = None
    unfound: list[tuple[frozenset[str], str]] = []
    source = profile.token_source()
    if isinstance(source, str):
        token = source
    elif source is not None and source.env:
        token = os.environ.get(source.env) or None
    password: Secret | None = None
    held = profile.password_source()
    if held is not None and not isinstance(held, str) and held.env and not os.environ.get(held.env) and token:
        unfound.append(
            (
                frozenset({"tokens", "data"}),
                f"offline, {held.env} (the password's variable) is not set: the token API's and reports' pages are looked "
                "for as asked with the access token, as they are online without the password; those asked with the "
                f"password are found with {held.env} set (its value is not read offline)",
            )
        )
    elif held is not None:
        password = not_read_offline("password")
    if source is not None and not isinstance(source, str) and not source.env:
        how = "the keyring" if source.keyring else "its command" if source.command else "a prompt"
        line = _config_line(profile, source, "access token")
        services = BETA_SERVICE_NAMES if password else BETA_SERVICE_NAMES | {"tokens", "data"}
        said = (
            f"offline, the access token is not got from {how}{f' ({line})' if line else ''}: the pages asked with it "
            "(entitlements, products, users" + ("" if password else ", tokens, reports") + ") are not found in the cache; "
            'to read them offline, give the token in an environment variable instead (token = { env = "…" })'
        )
        unfound.append((services, said))
    return Credentials(profile.user, password, token), unfound


def not_read_offline(what: CredentialName) -> Secret:
    """A credential the session has, but does not read offline: it says so if anything asks for it (`NotRead`: the
    pages looked for are those asked with it online, not those of a credential that could not be had)."""

    def refuse() -> str:
        raise NotRead(f"offline, the {what} is not read (nothing is sent)")

    return refuse


def _deferred(profile: Profile, source: Credential, what: CredentialName) -> Secret:
    if isinstance(source, str):
        return source

    def get() -> str:
        try:
            with interruptible():
                return resolve(profile, source, what)
        except NoTerminal as exc:  # (it names the line already)
            raise MissingCredential(str(exc)) from None
        except SecretError as exc:
            raise MissingCredential(f"{exc}; {_line_of(profile, source, what)}") from None

    return get


_getting = 0
"""How many `interruptible` gets the main thread is inside (a prompt or a command holding the event loop)."""


def credential_being_got() -> bool:
    """Whether the main thread is getting a credential (`interruptible`): a handler that ends the run by cancelling
    its task would wait for it to end (cli.py's SIGHUP/SIGTERM handler ends it at once instead, by raising)."""
    return _getting > 0


@contextmanager
def interruptible() -> Iterator[None]:
    """ctrl+c interrupts what runs inside (a prompt, a credential command) at once.

    A deferred credential is got inside a request, on the event loop, where asyncio's own SIGINT handler only
    cancels the task at its next await: a prompt waiting in `getpass` (or a command, up to its timeout) kept
    the terminal, and only a second ctrl+c got through. (SIGHUP and SIGTERM: `credential_being_got`.)
    """
    global _getting
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    _getting += 1
    try:
        yield
    finally:
        _getting -= 1
        signal.signal(signal.SIGINT, before)


def _config_line(profile: Profile, source: SecretSource, what: str) -> str | None:
    """The config line a credential comes from, with its place (`password = { env = "X" }` in [profiles.P] in FILE);
    None when the profile gives none (its password is then asked for)."""
    field = "token" if what == "access token" else "password"
    if getattr(profile, field) is None:
        if profile.secret is None:
            return None
        field = "secret"
    # the source's kind, not its value: a command line can hold a secret (a vault token in a curl header)
    given = ", ".join(
        f"{key} = …" if key == "command" else f"{key} = {json.dumps(value)}"
        for key, value in source.model_dump(exclude_defaults=True).items()
    )
    return f"{field} = {{ {given} }} in [profiles.{profile.name}] in {config_path()}"


def _line_of(profile: Profile, source: SecretSource, what: CredentialName) -> str:
    """The config line a credential comes from, or (none given: the password is asked for) the line that adds it."""
    line = _config_line(profile, source, what)
    return credential_hint(profile)(what) if line is None else f"it comes from {line}"


def _no_terminal(profile: Profile, source: SecretSource, what: str) -> str:
    """Why a profile's prompt cannot be asked without a terminal, naming its config line and what to use there instead."""
    line = _config_line(profile, source, what)
    if line is None:
        hint = credential_hint(profile, can_prompt=False)(what)
        return f"profile {profile.name!r} gives no {what}, so it is asked at a prompt, and there is no terminal to ask: {hint}"
    return (
        f"profile {profile.name!r} asks for its {what} at a prompt ({line}), and there is no terminal to ask: "
        'without one, use { env = "…" }, { keyring = true } or { command = "…" } there instead'
    )


def resolve_secret(profile: Profile, *, interactive: bool | None = None) -> str:
    """The profile's one secret (older form): its access token with auth = "token", else its password."""
    source = profile.token_source() if profile.auth == "token" else profile.password_source()
    what = "access token" if profile.auth == "token" else "password"
    if source is None:
        raise SecretError(f"profile {profile.name!r} has no {what}")
    return resolve(profile, source, what, interactive=interactive)


def resolve(profile: Profile, source: Credential, what: str, *, interactive: bool | None = None) -> str:
    """One secret from its source: the value itself, an environment variable, the keyring, a command or a prompt."""
    if isinstance(source, str):
        return source
    if source.env:
        value = os.environ.get(source.env)
        if not value:
            raise SecretError(f"profile {profile.name!r}: the environment variable {source.env} is not set (it should hold the {what})")
        return value
    if source.keyring:
        return _from_keyring(profile, source, what)
    if source.command:
        return _from_command(profile, source, what)
    return prompt_secret(
        f"{what.capitalize()} for {profile.user or profile.name} at {profile.url}: ",
        interactive=interactive,
        no_terminal=_no_terminal(profile, source, what),
    )


def _from_keyring(profile: Profile, source: SecretSource, what: str) -> str:
    try:
        import keyring  # type: ignore[import-not-found]
    except ImportError:
        raise SecretError(
            f"profile {profile.name!r} reads its {what} from the OS keyring, but the keyring package is not installed: "
            "pip install 'flextui[keyring]', or use { env = … } / { prompt = true }"
        ) from None
    service = source.keyring if isinstance(source.keyring, str) else APP_NAME
    account = profile.user or profile.name
    # A token sits under "USER:token" so a password can share the service; the older one-secret form used USER.
    accounts = [f"{account}:token", account] if what == "access token" else [account]
    value = next((found for name in accounts if (found := keyring.get_password(service, name))), None)
    if not value:
        raise SecretError(f"profile {profile.name!r}: no {what} in the keyring for service {service!r}, user {account!r}")
    return value


def _their_env() -> dict[str, str]:
    """The environment a credential command gets: the user's, without what flextui set for itself."""
    import flextui

    env = dict(os.environ)
    if flextui.PLUGINS_SWITCHED_OFF:
        env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    return env


def _from_command(profile: Profile, source: SecretSource, what: str) -> str:
    assert source.command is not None
    try:
        done = subprocess.run(shlex.split(source.command), capture_output=True, text=True, timeout=30, check=False, env=_their_env())
    except subprocess.TimeoutExpired:  # (its text would hold the command line, which can hold a secret)
        raise SecretError(f"profile {profile.name!r}: the {what} command gave no answer within 30 s") from None
    except OSError as exc:
        raise SecretError(f"profile {profile.name!r}: the {what} command could not be run: {exc.strerror or type(exc).__name__}") from None
    if done.returncode != 0 or not done.stdout.strip():
        raise SecretError(f"profile {profile.name!r}: the {what} command exited {done.returncode} without printing the {what}")
    return done.stdout.strip().splitlines()[0]


def prompt_secret(prompt: str, *, interactive: bool | None = None, no_terminal: str = ADHOC_NO_TERMINAL) -> str:
    """The secret typed at the terminal; without one, NoTerminal says `no_terminal` (where the prompt comes from, what instead)."""
    if interactive is None:
        interactive = sys.stdin.isatty()
    if not interactive:
        raise NoTerminal(no_terminal)
    value = getpass.getpass(prompt)
    if not value:
        raise SecretError("no password given")
    return value
