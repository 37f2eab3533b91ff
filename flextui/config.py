"""Profiles and settings: a TOML file under the platformdirs config directory.

A profile names an instance and how to sign in to it. Secrets are never
required in the file: a profile says where its secret comes from (an
environment variable, the OS keyring, a command, or a prompt at start). A
file that does hold a secret must be private (mode 0600); otherwise it is
refused with an explanation, because a password readable by other users of a
shared jump host is a leak. Every error names the file, the field, and the fix.

Example (`flextui info` prints the path)::

    [settings]
    default_profile = "prod"
    theme = "flextui-dusk"

    [keys]                       # binding id = keys (see `?` in the app)
    "tokens.create" = "n"

    [profiles.prod]
    url = "https://acme.flexnetoperations.com"
    user = "me@acme.example"
    password = { env = "FNO_PASSWORD" }  # or { keyring = true }, { command = "pass show fno" }, { prompt = true }
    token = { env = "FNO_TOKEN" }        # an rna_… access token: the beta APIs need one
    read_only = true
    color = "error"

One profile reaches every service: the registry trades the password for a
JWT, the beta APIs take the access token, tokens and reports take either
(`flextui.api.auth`). The older form `auth = "basic" | "token"` with
`secret = {…}` still works: it names what the one secret is.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

APP_NAME = "flextui"
SERVICES = ("tokens", "registry", "data", "entitlements", "products", "users")
PROFILE_COLORS = {
    "error": "error",
    "red": "error",
    "danger": "error",
    "warning": "warning",
    "yellow": "warning",
    "orange": "warning",
    "success": "success",
    "green": "success",
    "primary": "primary",
    "blue": "primary",
    "accent": "accent",
    "magenta": "accent",
    "purple": "accent",
    "secondary": "secondary",
    "cyan": "secondary",
    "none": "none",
}


class ConfigError(Exception):
    """The config file is wrong; the message names the file, the field and the fix."""


def config_dir() -> Path:
    return Path(os.environ.get("FLEXTUI_CONFIG_DIR") or platformdirs.user_config_dir(APP_NAME))


def config_path() -> Path:
    return Path(os.environ.get("FLEXTUI_CONFIG") or config_dir() / "config.toml")


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir(APP_NAME))


def cache_path() -> Path:
    return cache_dir() / "pages.sqlite3"


def log_path() -> Path:
    return Path(platformdirs.user_state_dir(APP_NAME)) / "flextui.log"


def filters_path() -> Path:
    """Saved report filter sets (per profile inside the file)."""
    return config_dir() / "filters.json"


class SecretSource(BaseModel):
    """Where a profile's password or token comes from (exactly one way)."""

    model_config = ConfigDict(extra="forbid")

    env: str | None = None
    """Name of an environment variable holding the secret."""
    keyring: bool | str = False
    """Read it from the OS keyring (service "flextui", or the given service name), user = the profile's user."""
    command: str | None = None
    """A shell command whose first output line is the secret (e.g. `pass show fno/prod`)."""
    prompt: bool = False
    """Ask for it when the app starts."""

    @model_validator(mode="after")
    def _one(self) -> SecretSource:
        chosen = [name for name in ("env", "keyring", "command", "prompt") if getattr(self, name)]
        if len(chosen) > 1:
            raise ValueError(f"choose one way to get the secret, not {' and '.join(chosen)}")
        return self


Credential = str | SecretSource
"""A password or token: the value itself (only in a private file), or where to get it."""


class Profile(BaseModel):
    """One FlexNet Operations instance and how to reach it."""

    model_config = ConfigDict(extra="forbid")

    name: str = ""
    """The profile's name (the table's key in the file)."""
    url: str
    """The instance address, e.g. https://acme.flexnetoperations.com (service paths are added)."""
    urls: dict[str, str] = Field(default_factory=dict)
    """Per-service base URL overrides: tokens, registry, data, entitlements, products, users."""
    user: str | None = None
    """The user name (e-mail): for the password, the registry, and minting a token."""
    password: Credential | None = Field(None, repr=False)
    """The password: a source ({ env = … }, { keyring = true }, { command = … }, { prompt = true }), or the value in a private (0600) file."""
    token: Credential | None = Field(None, repr=False)
    """An `rna_…` access token, the same ways: the beta (entitlement, product, user) APIs require one."""
    auth: Literal["basic", "token"] | None = None
    """Older form: what `secret` holds (basic: the password; token: an access token)."""
    secret: SecretSource | None = None
    """Older form: where the one secret named by `auth` comes from."""
    mint_token: bool = False
    """With a password and no token: create a one-hour access token for the beta APIs (deleted on exit); never on a read-only profile."""
    registry_tenant: str | None = None
    """The registry's tenant id for the x-publisherid header."""
    first_page: dict[str, int] = Field(default_factory=dict)
    """Where a service's pages start (0 or 1), when detecting it is not wanted: e.g. { entitlements = 0 }."""
    verify: bool | str = True
    """Verify TLS: true, false, or a path to a CA bundle."""
    proxy: str | None = None
    """An HTTP(S) proxy URL."""
    timeout: float = Field(30.0, gt=0, le=600)
    """Seconds before a request is given up."""
    read_only: bool = False
    """Refuse every change (create, update, delete, rotate, reset)."""
    color: str = "none"
    """A colour cue for the header: error, warning, success, primary, accent, secondary or none (or a colour that
    names one: red, yellow, green, … in PROFILE_COLORS)."""
    theme: str | None = None
    """A theme for this profile (overrides the global one)."""

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with https:// (or http:// for a local simulator)")
        return value.rstrip("/")

    @field_validator("urls")
    @classmethod
    def _urls(cls, value: dict[str, str]) -> dict[str, str]:
        for key in value:
            if key not in SERVICES:
                raise ValueError(f"unknown service {key!r}; use {', '.join(SERVICES)}")
        return value

    @field_validator("first_page")
    @classmethod
    def _first_page(cls, value: dict[str, int]) -> dict[str, int]:
        for key, base in value.items():
            if key not in SERVICES:
                raise ValueError(f"unknown service {key!r}; use {', '.join(SERVICES)}")
            if base not in (0, 1):
                raise ValueError(f"{key}: pages start at 0 or 1 (got {base})")
        return value

    @model_validator(mode="after")
    def _one_way(self) -> Profile:
        if self.secret is not None and self.auth == "token" and self.token is not None:
            raise ValueError('give the access token once: token = … or auth = "token" with secret = …, not both')
        if self.secret is not None and self.auth != "token" and self.password is not None:
            raise ValueError("give the password once: password = … or secret = …, not both")
        return self

    def password_source(self) -> Credential | None:
        """Where the password comes from (None: this profile has none)."""
        if self.password is not None:
            return self.password
        if self.auth != "token" and self.secret is not None:
            return self.secret
        if self.token is None and self.auth != "token":
            return SecretSource(prompt=True)  # no credential configured at all: ask for the password
        return None

    def token_source(self) -> Credential | None:
        """Where the access token comes from (None: this profile has none)."""
        if self.token is not None:
            return self.token
        if self.auth == "token":
            return self.secret or SecretSource(prompt=True)
        return None

    @field_validator("color")
    @classmethod
    def _color(cls, value: str) -> str:
        if value.lower() not in PROFILE_COLORS:
            roles = sorted(set(PROFILE_COLORS.values()))
            names = ", ".join(f"{role} ({'/'.join(n for n, r in PROFILE_COLORS.items() if r == role and n != role)})" for role in roles)
            raise ValueError(f"unknown colour {value!r}; use one of {names}".replace(" ()", ""))
        return PROFILE_COLORS[value.lower()]

    @property
    def holds_secret(self) -> bool:
        return isinstance(self.password, str) or isinstance(self.token, str)


class Settings(BaseModel):
    """Settings that are not per profile."""

    model_config = ConfigDict(extra="forbid")

    default_profile: str | None = None
    """The profile used when --profile is not given."""
    theme: str = "textual-dark"
    """The theme: one of flextui's (themes/) or Textual's, e.g. ansi-dark, ansi-light, nord."""
    cache_fresh_seconds: float = Field(60.0, ge=0)
    """Within this many seconds a cached page is shown without asking the server again."""
    cache_max_mb: float = Field(1024.0, ge=16)
    """The page cache's size limit in MB: over it, what was used longest ago goes first (`api/cache_limit.py`)."""
    page_size: int = Field(50, ge=1, le=1000)
    """Rows per page in resource lists."""
    expiring_days: float = Field(7.0, gt=0)
    """Tokens expiring within this many days are marked."""
    clipboard: Literal["osc52", "tmux-passthrough", "show"] = "osc52"
    """osc52: copy through the terminal (tmux: set -g set-clipboard on); tmux-passthrough: wrap it for tmux's
    allow-passthrough instead; show: always show the value to select by hand."""


class Config(BaseModel):
    """The whole config file."""

    model_config = ConfigDict(extra="forbid")

    settings: Settings = Field(default_factory=lambda: Settings())
    profiles: dict[str, Profile] = Field(default_factory=dict)
    keys: dict[str, str] = Field(default_factory=dict)
    path: Path | None = None

    def profile(self, name: str | None) -> Profile:
        name = name or self.settings.default_profile or (next(iter(self.profiles)) if len(self.profiles) == 1 else None)
        if name is None:
            where = self.path or config_path()
            if not self.profiles:
                raise ConfigError(
                    f'no profiles in {where}: add one, e.g.\n\n[profiles.prod]\nurl = "https://SITE.flexnetoperations.com"\n'
                    'user = "you@example.com"\n\nor try the simulator with `flextui demo`, or pass --url and --user.'
                )
            raise ConfigError(
                f"{where}: several profiles ({', '.join(self.profiles)}); choose one with --profile or settings.default_profile"
            )
        if name not in self.profiles:
            raise ConfigError(f"{self.path or config_path()}: no profile {name!r} (have: {', '.join(self.profiles) or 'none'})")
        return self.profiles[name]


UNION_FIELDS = {
    "password": 'the value (only in a private file) or where to get it: { env = "VAR" }, { keyring = true }, { command = "…" } or { prompt = true }',
    "token": 'the value (only in a private file) or where to get it: { env = "VAR" }, { keyring = true }, { command = "…" } or { prompt = true }',
    "verify": "true, false, or the path of a CA bundle",
    "keyring": "true, or the keyring's service name",
}
"""Fields of several types, and what they take: pydantic reports each type it tried, where one line is wanted."""


def _field_path(loc: tuple[Any, ...]) -> str:
    """`profiles.p.password` for an error's place, without the type tried after a field of several (`str`, `function-after[…]`)."""
    parts: list[str] = []
    for part in loc:
        if parts and parts[-1] in UNION_FIELDS and (part in ("str", "bool") or "[" in str(part)):
            continue
        parts.append(str(part))
    return ".".join(parts)


def _problems(exc: ValidationError) -> list[str]:
    """Every bad field once, as `field X: what is wrong (the fix)`, in the order the settings are defined."""
    by_field: dict[str, list[Any]] = {}
    for error in exc.errors():
        by_field.setdefault(_field_path(error["loc"]), []).append(error)
    # `password = { keyring = 5 }` is a source with a bad part, not a string that is not one: the part is named alone.
    return [_problem(where, errors) for where, errors in by_field.items() if not _has_bad_part(where, by_field)]


def _has_bad_part(where: str, fields: dict[str, list[Any]]) -> bool:
    return where.rsplit(".", 1)[-1] in UNION_FIELDS and any(other.startswith(where + ".") for other in fields)


def _problem(where: str, errors: list[Any]) -> str:
    specific = [e for e in errors if e["type"] == "value_error"] or errors  # a validator's own words say more than a type
    first = specific[0]
    msg = first["msg"].removeprefix("Value error, ")
    last = where.rsplit(".", 1)[-1]
    if len(errors) > 1 and first["type"] != "value_error" and last in UNION_FIELDS:
        msg = f"must be {UNION_FIELDS[last]}"
    hint = {"extra_forbidden": " (unknown field: check its spelling, or remove it)", "missing": " (required: add it)"}.get(
        first["type"], ""
    )
    return f"field {where}: {msg}{hint}"


def load_config(path: Path | None = None) -> Config:
    """Read and check the config file; a missing file is an empty config."""
    path = path or config_path()
    if not path.exists():
        return Config(path=path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it: {exc.strerror}") from None
    profiles = raw.get("profiles", {})
    if isinstance(profiles, dict):
        for name, body in profiles.items():
            if isinstance(body, dict):
                body.setdefault("name", name)
    try:
        config = Config.model_validate({**raw, "path": path})
    except ValidationError as exc:
        problems = _problems(exc)
        if len(problems) == 1:
            raise ConfigError(f"{path}: {problems[0]}") from None
        listed = "".join(f"\n  {problem}" for problem in problems)
        raise ConfigError(f"{path}: {len(problems)} fields are wrong:{listed}") from None
    holders = [p.name for p in config.profiles.values() if p.holds_secret]
    if holders:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            raise ConfigError(
                f"{path} holds a secret (profile {', '.join(holders)}) but other users can read it (mode {mode:o}). "
                f'Run `chmod 600 {path}`, or move the secret out: password = {{ env = "FNO_PASSWORD" }}, '
                '{ keyring = true }, { command = "…" } or { prompt = true }.'
            )
    return config
