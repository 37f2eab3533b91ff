"""Where passwords and tokens come from: env, OS keyring, a command, or a prompt.

Resolved once, before the TUI starts (a prompt cannot run inside it), and held
only in memory: never written to the config, the cache, logs or screenshots.
"""

from __future__ import annotations

import getpass
import os
import shlex
import subprocess
import sys

from flextui.config import APP_NAME, ConfigError, Profile


class SecretError(ConfigError):
    """The secret could not be obtained; the message says how to fix that."""


def resolve_secret(profile: Profile, *, interactive: bool | None = None) -> str:
    """The profile's password (basic) or token (token auth)."""
    if profile.auth == "basic" and profile.password:
        return profile.password
    if profile.auth == "token" and profile.token:
        return profile.token
    source = profile.secret
    what = "access token" if profile.auth == "token" else "password"
    if source.env:
        value = os.environ.get(source.env)
        if not value:
            raise SecretError(f"profile {profile.name!r}: the environment variable {source.env} is not set (it should hold the {what})")
        return value
    if source.keyring:
        try:
            import keyring  # type: ignore[import-not-found]
        except ImportError:
            raise SecretError(
                f"profile {profile.name!r} reads its {what} from the OS keyring, but the keyring package is not installed: "
                "pip install 'flextui[keyring]', or use secret = { env = … } / { prompt = true }"
            ) from None
        service = source.keyring if isinstance(source.keyring, str) else APP_NAME
        value = keyring.get_password(service, profile.user or profile.name)
        if not value:
            raise SecretError(f"profile {profile.name!r}: no {what} in the keyring for service {service!r}, user {profile.user or profile.name!r}")
        return value
    if source.command:
        try:
            done = subprocess.run(shlex.split(source.command), capture_output=True, text=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SecretError(f"profile {profile.name!r}: the secret command failed: {exc}") from None
        if done.returncode != 0 or not done.stdout.strip():
            raise SecretError(f"profile {profile.name!r}: the secret command exited {done.returncode} without printing the {what}")
        return done.stdout.strip().splitlines()[0]
    return prompt_secret(f"{what.capitalize()} for {profile.user or profile.name} at {profile.url}: ", interactive=interactive)


def prompt_secret(prompt: str, *, interactive: bool | None = None) -> str:
    if interactive is None:
        interactive = sys.stdin.isatty()
    if not interactive:
        raise SecretError("a password is needed but there is no terminal to ask: set FLEXTUI_PASSWORD (or FLEXTUI_TOKEN), or configure secret = { env = … }")
    value = getpass.getpass(prompt)
    if not value:
        raise SecretError("no password given")
    return value
