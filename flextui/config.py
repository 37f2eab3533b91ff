"""Profiles and settings: a TOML file under the platformdirs config directory.

A profile names an instance and how to sign in to it. Secrets are never
required in the file: a profile says where its secret comes from (an
environment variable, the OS keyring, a command, or a prompt at start). A
file that does hold a secret must be private (mode 0600); otherwise it is
refused with an explanation, because a password readable by other users of a
shared jump host is a leak. Every error names the file and the line (found
in the text: `config_places`), the field, the value refused (never a secret's),
what it takes, and the fix; an unknown key is offered the known one it is
closest to. Values are validated strictly: `read_only = "yes"` is refused, and
`verify = "no"` too rather than taken as the name of a CA bundle. A bundle that
is not there, cannot be read or holds no certificate is refused when its
profile is used (`tls_verify`), with its line, before anything is sent: not
when the file is read, where one profile's bundle missing on this machine
would stop every other profile and the demo.

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

import difflib
import json
import os
import re
import stat
import tomllib
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from types import UnionType
from typing import TYPE_CHECKING, Any, Literal, Union, get_args, get_origin

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from flextui.config_places import BARE, Key, Places
from flextui.secret_names import is_secret_name

if TYPE_CHECKING:
    import ssl

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

TRUE_WORDS = frozenset({"true", "yes", "y", "on", "1", "t", "enable", "enabled"})
FALSE_WORDS = frozenset({"false", "no", "n", "off", "0", "f", "disable", "disabled"})
"""Words that mean a boolean when written in quotes: refused, with the boolean they mean as the fix."""


class ConfigError(Exception):
    """The config file is wrong; the message names the file, the line, the field and the fix."""


def ca_bundle_path(value: str) -> Path:
    """A profile's `verify` path as TLS will open it: `~` expanded (a `~user` that is not one is left as written)."""
    try:
        return Path(value).expanduser()
    except RuntimeError:
        return Path(value)


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
    secret: SecretSource | None = Field(None, repr=False)
    """Older form: where the one secret named by `auth` comes from."""
    mint_token: bool = False
    """With a password and no token: create a one-hour access token for the beta APIs (deleted on exit); never on a read-only profile."""
    registry_tenant: str | None = None
    """The registry's tenant id for the x-publisherid header."""
    first_page: dict[str, int] = Field(default_factory=dict)
    """Where a service's pages start (0 or 1), when detecting it is not wanted: e.g. { entitlements = 0 }."""
    verify: bool | str = True
    """Verify TLS: true, false, or the path of a CA bundle (`~` is expanded; opened when the profile is used: `tls_verify`)."""
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

    @field_validator("verify")
    @classmethod
    def _verify(cls, value: bool | str) -> bool | str:
        # A quoted word would go to TLS as a file name and fail there, far from the line that says it. Whether the
        # bundle is there is asked when the profile is used (`tls_verify`): it concerns this machine, not the file.
        if isinstance(value, str) and (not value.strip() or value.strip().lower() in TRUE_WORDS | FALSE_WORDS):
            raise PydanticCustomError("verify_word", "a word in quotes where true, false or a path was expected")
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
    _places: Places = PrivateAttr(default_factory=Places)

    @property
    def places(self) -> Places:
        """The file and the line of each of its keys (for messages that say where a value came from)."""
        return self._places

    def profile(self, name: str | None) -> Profile:
        """The profile `name` (given on the command line), else settings.default_profile's, else the only one."""
        default = self.settings.default_profile
        if not name and default and default not in self.profiles:
            raise ConfigError(self._no_default_profile(default))
        name = name or default or (next(iter(self.profiles)) if len(self.profiles) == 1 else None)
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
            raise ConfigError(f"{self.path or config_path()}: {no_profile(name, self.profiles)}")
        return self.profiles[name]

    def _no_default_profile(self, name: str) -> str:
        """settings.default_profile names no profile: its line, the profiles there are, and the one it likely meant."""
        where = self.places.where("settings", "default_profile") or str(self.path or config_path())
        have, meant = profile_meant(name, self.profiles)
        if meant:
            advice = f": did you mean {meant}? fix: default_profile = {toml_value(meant)}"
        else:
            advice = f"; add [profiles.{toml_key(name)}]" + (", or name one of them" if self.profiles else " with its url")
        return f"{where}: settings.default_profile = {toml_value(name)} names no profile {have}{advice}"


def profile_meant(name: str, names: Collection[str]) -> tuple[str, str | None]:
    """`(have: prod, uat)`, and the one of `names` closest to `name` (None: none is close)."""
    by_lower = {known.lower(): known for known in names}
    close = difflib.get_close_matches(name.lower(), by_lower, 1, 0.6)
    return f"(have: {', '.join(names) or 'none'})", by_lower[close[0]] if close else None


def no_profile(name: str, names: Collection[str], what: str = "profile") -> str:
    """`no profile "prdo" (have: prod, uat): did you mean prod?`: a profile named that is not there, said alike
    wherever it is named (--profile, FLEXTUI_PROFILE, `:profile NAME`, the demo's identities as `what`)."""
    have, meant = profile_meant(name, names)
    return f"no {what} {toml_value(name)} {have}" + (f": did you mean {meant}?" if meant else "")


def tls_verify(profile: Profile, places: Places | None = None) -> bool | ssl.SSLContext:
    """What the profile's client checks the server's certificate with: true or false as written, or a TLS context
    holding the certificates of its CA bundle (a file, or a folder of them; `~` expanded).

    Made when the profile is used (the command line's profile, `:profile`), before any prompt and any request, and
    only for the profile that names it: a bundle missing on this machine stops that profile, not the others or the
    demo. The context is made here rather than by httpx from the path (deprecated in httpx 0.28) so that a bundle
    that is not there, cannot be read, or holds no certificate (`verify = "/etc/passwd"`) is told as a config error
    with the file and line, where TLS stopped the first request with a traceback naming neither. `places` says where
    the file sets it (None: no line is named)."""
    if isinstance(profile.verify, bool):
        return profile.verify
    import ssl  # (loaded already by httpx, whose client is made next; not by reading the config)

    bundle = ca_bundle_path(profile.verify)
    otherwise = "or verify = true for the usual certificate authorities"
    try:
        if bundle.is_dir():
            return ssl.create_default_context(capath=str(bundle))
        if bundle.exists() and not bundle.is_file():  # a pipe or a device: opening it could wait for ever
            problem = f"the CA bundle {bundle} is not a file: give the path of a file of certificates, {otherwise}"
        else:
            return ssl.create_default_context(cafile=str(bundle))
    except ssl.SSLError as exc:  # (before OSError, which it is)
        said = re.sub(r"\s*\(_ssl\.c:\d+\)$", "", str(exc.strerror or exc))
        pem = "certificates in PEM form (-----BEGIN CERTIFICATE-----)"
        if exc.reason == "NO_CERTIFICATE_OR_CRL_FOUND":
            problem = (
                f"the CA bundle {bundle} holds no certificate: give a file of {pem} (a DER one converts with "
                f"openssl x509 -inform der -in FILE -out ca.pem), {otherwise}"
            )
        else:
            problem = (
                f"the CA bundle {bundle} could not be read as certificates (OpenSSL: {said}): one in it may be damaged "
                f"or cut short; give a file of {pem}, {otherwise}"
            )
    except FileNotFoundError:
        problem = f"the CA bundle {bundle} was not found: give the path of a file on this machine, {otherwise}"
    except PermissionError:
        problem = (
            f"the CA bundle {bundle} cannot be read by this user (permission denied): let it be read (a CA bundle "
            "holds no secret), or give the path of a copy this user can read"
        )
    except OSError as exc:
        problem = f"the CA bundle {bundle} cannot be read ({exc.strerror or exc}): give the path of a file this user can read, {otherwise}"
    raise ConfigError(_verify_refused(profile, places, problem))


def _verify_refused(profile: Profile, places: Places | None, problem: str) -> str:
    """`config.toml line 9: profiles.prod.verify = "~/ca.pem": PROBLEM`, the value as the file writes it."""
    key = ("profiles", profile.name, "verify")
    where = places.where(*key) if places is not None else ""
    said = f"{'.'.join(toml_key(part) for part in key)} = {toml_value(profile.verify)}: {problem}"
    return f"{where}: {said}" if where else said


SECRET_FIELDS = frozenset(name for name, info in Profile.model_fields.items() if not info.repr)
"""A profile's fields whose values may be secrets (declared `repr=False`): an error never shows what they hold."""

HIDDEN_NOTE = " (the value you wrote: not shown here, as it may be a secret)"


def looks_secret(name: str) -> bool:
    """Whether a key's name says its value may be a secret (`password`, `token`, `user_password`, `api-key`): an
    error about the key then never shows its value, even where the key is not one flextui knows. The names are
    the data layer's too (`secret_names`: this layer may not import `api`), and a profile's secret fields."""
    return name.lower() in SECRET_FIELDS or is_secret_name(name)


INTERNAL_FIELDS = frozenset({"path", "name"})
"""Fields set by flextui, not written in the file: never offered as "did you mean"."""

ITEM_MAPS = {"keys": "[keys]", "urls": "urls", "first_page": "first_page"}
"""Tables whose keys are the user's (binding ids, services): an error is about one of their items."""

SECRET_WAYS = '{ env = "VAR" }, { keyring = true }, { command = "…" } or { prompt = true }'

UNION_FIELDS = {
    "password": f"the value (only in a private file) or where to get it: {SECRET_WAYS}",
    "token": f"the value (only in a private file) or where to get it: {SECRET_WAYS}",
    "verify": "true, false, or the path of a CA bundle in quotes",
    "keyring": "true, or the keyring's service name in quotes",
}
"""Fields of several types, and what they take: pydantic reports each type it tried, where one line is wanted."""

EXAMPLES = {
    "url": '"https://SITE.flexnetoperations.com"',
    "user": '"me@acme.example"',
    "password": '{ env = "FNO_PASSWORD" }',
    "token": '{ env = "FNO_TOKEN" }',
    "secret": '{ env = "FNO_PASSWORD" }',
    "verify": "true",
    "keyring": "true",
    "env": '"FNO_PASSWORD"',
    "command": '"pass show fno"',
    "proxy": '"http://proxy.internal:3128"',
    "registry_tenant": '"1107"',
    "default_profile": '"prod"',
    "theme": '"textual-dark"',
    "auth": '"basic"',
}
"""A line that works, for a field whose value cannot be made from the one given."""


def _field_path(loc: tuple[Any, ...]) -> Key:
    """`("profiles", "p", "password")` for an error's place, without the type tried after a field of several
    (`str`, `function-after[…]`)."""
    parts: list[str] = []
    for part in loc:
        if parts and parts[-1] in UNION_FIELDS and (part in ("str", "bool") or "[" in str(part)):
            continue
        parts.append(str(part))
    return tuple(parts)


def toml_key(part: str) -> str:
    """A key as TOML writes it: `page_size`, `"tokens.verify"`."""
    return part if part and all(char in BARE for char in part) else json.dumps(part, ensure_ascii=False)


def toml_value(value: Any, limit: int = 60) -> str:
    """A value as the file writes it (`"fifty"`, `-3`, `true`), cut to `limit` characters."""
    if isinstance(value, bool):
        shown = "true" if value else "false"
    elif isinstance(value, str):
        shown = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, float):
        shown = f"{value:g}" if value == value and abs(value) != float("inf") else str(value).lower()
    elif isinstance(value, dict):
        shown = "{ " + ", ".join(f"{toml_key(str(k))} = {toml_value(v, limit)}" for k, v in value.items()) + " }"
    elif isinstance(value, list):
        shown = "[" + ", ".join(toml_value(v, limit) for v in value) + "]"
    else:
        shown = str(value)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,g}"


@dataclass
class _Spot:
    """Where an error is among the config's models: `model`'s field `name` (`info` None: no such field), or an
    item `name` of the map `item_of` (a binding id in [keys], a service in urls)."""

    key: Key
    model: type[BaseModel] | None
    name: str
    info: FieldInfo | None
    item_of: str | None = None
    secret: bool = False
    """Its value may be a secret (a part of a password's table, or a key whose name says so): never shown."""

    @property
    def shown(self) -> str:
        return ".".join(toml_key(part) for part in self.key)


def _spot(key: Key) -> _Spot:
    model: type[BaseModel] = Config
    secret = False
    index = 0
    while True:
        name = key[index]
        info = model.model_fields.get(name)
        last = index == len(key) - 1
        if info is None or name in INTERNAL_FIELDS:  # a key that is not one: its name may still say it holds a secret
            return _Spot(key, model, name, None, secret=secret or looks_secret(name))
        secret = secret or not info.repr
        if last:
            return _Spot(key, model, name, info, secret=secret)
        if name in ITEM_MAPS:
            return _Spot(key, None, key[-1], info, item_of=name, secret=secret)
        if name == "profiles":
            if index + 1 == len(key) - 1:  # the profile's table itself (`[profiles]` with `password = "…"` in it too)
                return _Spot(key, None, key[-1], info, item_of=name, secret=secret or looks_secret(key[-1]))
            model, index = Profile, index + 2
            continue
        children: dict[str, type[BaseModel]] = {
            "settings": Settings,
            "password": SecretSource,
            "token": SecretSource,
            "secret": SecretSource,
        }
        child = children.get(name)
        if child is None:
            return _Spot(key, None, key[-1], None, secret=secret or looks_secret(key[-1]))
        model, index = child, index + 1


def _bounds(info: FieldInfo) -> tuple[float | None, bool, float | None, bool]:
    """The lowest and highest values a number may take, each with whether it is allowed itself."""
    low = high = None
    low_in = high_in = True
    for rule in info.metadata:
        if getattr(rule, "ge", None) is not None:
            low = rule.ge
        if getattr(rule, "gt", None) is not None:
            low, low_in = rule.gt, False
        if getattr(rule, "le", None) is not None:
            high = rule.le
        if getattr(rule, "lt", None) is not None:
            high, high_in = rule.lt, False
    return low, low_in, high, high_in


def _number_words(info: FieldInfo, whole: bool) -> str:
    low, low_in, high, high_in = _bounds(info)
    what = "a whole number" if whole else "a number"
    if low is not None and high is not None and low_in and high_in:
        return f"{what} from {_number(low)} to {_number(high)}"
    limits = []
    if low is not None:
        limits.append(f"of {_number(low)} or more" if low_in else f"greater than {_number(low)}")
    if high is not None:
        limits.append(f"at most {_number(high)}" if high_in else f"less than {_number(high)}")
    return " ".join([what, " and ".join(limits)]) if limits else what


def _number_fix(info: FieldInfo, value: Any, whole: bool) -> str:
    """A number the field takes: the one given when it only had quotes around it, the nearest limit when it was
    past one, else the default."""
    low, low_in, high, high_in = _bounds(info)
    default = info.default if isinstance(info.default, int | float) else (low if low is not None and low_in else 1)
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str):
        try:
            number = float(value.strip().replace(",", "").replace("_", ""))
        except ValueError:
            number = None
    if number is None or number != number or abs(number) == float("inf"):
        number = default
    elif high is not None and (number > high or (number == high and not high_in)):
        number = high if high_in else default
    elif low is not None and (number < low or (number == low and not low_in)):
        number = low if low_in else default
    if whole and number != int(number):
        number = default
    return f"{number:.0f}" if number == int(number) else f"{number:g}"


def _literal_choices(info: FieldInfo) -> tuple[str, ...]:
    for arg in (info.annotation, *get_args(info.annotation)):
        if get_origin(arg) is Literal:
            return tuple(str(choice) for choice in get_args(arg))
    return ()


def _plain_type(info: FieldInfo) -> Any:
    """The field's type without `None`: `str | None` → str."""
    args = [arg for arg in get_args(info.annotation) if arg is not type(None)]
    return args[0] if get_origin(info.annotation) in (Union, UnionType) and len(args) == 1 else info.annotation


def _expects(spot: _Spot, value: Any) -> tuple[str, str | None]:
    """What the place takes, in words, and a value for it that would be right (None: no one value fits)."""
    name, info = spot.name, spot.info
    if spot.item_of == "keys":
        return 'the key or keys in quotes, e.g. "v" or "ctrl+v,f5"', _quoted(value, '"v"')
    if spot.item_of == "urls":
        return 'an address in quotes, e.g. "https://acme.flexnetoperations.com/registry"', None
    if spot.item_of == "first_page":
        return "0 or 1 (where that service's pages start)", "0"
    if info is None:
        return "a value", None
    if name == "verify":
        return UNION_FIELDS[name], _bool_fix(value) or EXAMPLES[name]
    if (spot.model is Profile and name in ("password", "token")) or (spot.model is SecretSource and name == "keyring"):
        return UNION_FIELDS[name], EXAMPLES[name]
    if spot.model is Profile and name == "secret":
        return f"where to get the secret: {SECRET_WAYS}", EXAMPLES["secret"]
    kind = _plain_type(info)
    if kind is bool:
        return "true or false (without quotes)", _bool_fix(value) or ("true" if info.default is True else "false")
    if kind in (int, float):
        return _number_words(info, whole=kind is int), _number_fix(info, value, whole=kind is int)
    if choices := _literal_choices(info):
        given = str(value).strip().lower()
        close = [choice for choice in choices if given and choice.startswith(given)] or difflib.get_close_matches(given, choices, 1, 0.5)
        fix = close[0] if close else (str(info.default) if info.default in choices else choices[0])
        return "one of " + ", ".join(json.dumps(choice) for choice in choices), json.dumps(fix)
    if kind is str:
        return "text in quotes", _quoted(value, EXAMPLES.get(name)) if not spot.secret else EXAMPLES.get(name)
    if name == "settings":
        return "the [settings] table", None
    if name == "profiles":
        return "profile tables ([profiles.NAME])", None
    return "a value of another kind", EXAMPLES.get(name)


def _bool_fix(value: Any) -> str | None:
    """The boolean a value not written as one means (`"yes"`, `"off"`, `1`), as TOML writes it; None: it means none."""
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        return "true" if value.strip().lower() in TRUE_WORDS else "false"
    if isinstance(value, int | float) and not isinstance(value, bool) and value in (0, 1):
        return "true" if value else "false"
    return None


def _quoted(value: Any, otherwise: str | None) -> str | None:
    """The value given, in quotes (`5` → `"5"`): what a text field given a number or a word most likely meant."""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return json.dumps(str(value), ensure_ascii=False)
    return otherwise


def _fix_line(spot: _Spot, fix: str) -> str:
    """`page_size = 50`; a secret source's part in its inline table: `password = { keyring = true }`."""
    if spot.model is SecretSource and len(spot.key) >= 2:
        return f"{toml_key(spot.key[-2])} = {{ {toml_key(spot.name)} = {fix} }}"
    return f"{toml_key(spot.name)} = {fix}"


def _known_names(model: type[BaseModel]) -> list[str]:
    return [name for name in model.model_fields if name not in INTERNAL_FIELDS]


def _unknown(spot: _Spot, value: Any) -> str:
    """`colr` is not a field: did you mean `color`? (or: `color` is a profile's, not a setting).

    The fix line shows the value written, except where it may be a secret: the key's name says so (`user_password`)
    or the key offered is a secret's (`pasword`: did you mean password?); then `password = "…"`, as a secret is
    never shown in an error."""
    model = spot.model or Config
    what = {Settings: "a setting", Profile: "a profile field", SecretSource: "a way to get a secret", Config: "a table"}.get(
        model, "a field"
    )
    said = f"{spot.shown} is not {what}"

    def written(right: str) -> tuple[str | None, str]:
        """The value for `right = …` in the fix, and a note when it is not shown (None: no value fits on the line: a
        table, a list, a part of a secret's table)."""
        if isinstance(value, dict | list) or model is SecretSource:
            return None, ""
        if spot.secret or looks_secret(right):
            return ('"…"' if isinstance(value, str) else "…"), HIDDEN_NOTE
        return toml_value(value), ""

    close = difflib.get_close_matches(spot.name.lower(), _known_names(model), 1, 0.6)
    if close:
        right = close[0]
        shown, note = written(right)
        fix = f" fix: {toml_key(right)} = {shown}{note}" if shown is not None else ""
        return f"{said}: did you mean {right}?{fix}"
    elsewhere: dict[type[BaseModel], tuple[type[BaseModel], str]] = {
        Settings: (Profile, "[profiles.NAME]"),
        Profile: (Settings, "[settings]"),
        Config: (Settings, "[settings]"),
    }
    if model in elsewhere:
        other, table = elsewhere[model]
        close = difflib.get_close_matches(spot.name.lower(), _known_names(other), 1, 0.6)
        if not close and model is Config:
            other, table = Profile, "[profiles.NAME]"
            close = difflib.get_close_matches(spot.name.lower(), _known_names(other), 1, 0.6)
        if close:
            right = close[0]
            shown, note = written(right)
            line = f"{toml_key(right)} = {shown}" if shown is not None else toml_key(right)
            if right == spot.name:
                return f"{said}: {right} goes under {table}; fix: move {line} there{note}"
            return f"{said}: did you mean {right}, which goes under {table}? fix: move {line} there{note}"
    return f"{said}: remove it, or use one of {', '.join(_known_names(model))}"


def _problems(exc: ValidationError, places: Places) -> list[tuple[int | None, str]]:
    """Every bad field once, with its line, as `settings.page_size = "fifty" should be …; fix: page_size = 50`, in
    the order of the file's lines."""
    by_field: dict[Key, list[Any]] = {}
    for error in exc.errors():
        by_field.setdefault(_field_path(error["loc"]), []).append(error)
    # `password = { keyring = 5 }` is a source with a bad part, not a string that is not one: the part is named alone.
    found = [_problem(key, errors, places) for key, errors in by_field.items() if not _has_bad_part(key, by_field)]
    return sorted(found, key=lambda problem: problem[0] if problem[0] is not None else 1 << 30)


def _has_bad_part(key: Key, fields: dict[Key, list[Any]]) -> bool:
    return key[-1] in UNION_FIELDS and any(len(other) > len(key) and other[: len(key)] == key for other in fields)


def _problem(key: Key, errors: list[Any], places: Places) -> tuple[int | None, str]:
    spot = _spot(key)
    specific = [e for e in errors if e["type"] == "value_error"] or errors  # a validator's own words say more than a type
    first = specific[0]
    value = first.get("input")
    line = places.line(*key)
    if first["type"] == "missing":
        parent = ".".join(toml_key(part) for part in key[:-1])
        where = f"[{parent}]" if parent else "the file"
        return places.line(*key[:-1]), f"{where} has no {spot.name}, which is required: add {spot.name} = {EXAMPLES.get(spot.name, '…')}"
    if first["type"] == "extra_forbidden":
        return line, _unknown(spot, value)
    show = not spot.secret and not isinstance(value, dict | list)
    named = f"{spot.shown} = {toml_value(value)}" if show else spot.shown
    if first["type"] == "value_error":
        msg = first["msg"].removeprefix("Value error, ")
        if spot.name in ("urls", "first_page") and isinstance(value, dict):  # the line of the service that is wrong
            bad = [service for service in value if service not in SERVICES]
            line = places.line(*key, bad[0]) if bad else line
            if bad and (close := difflib.get_close_matches(bad[0], SERVICES, 1, 0.6)):
                msg += f" (did you mean {close[0]}?)"
            return line, f"{spot.shown}: {msg}"
        fix = _validated_fix(spot.name, value) if show else None
        return line, f"{named}: {msg}" + (f"; fix: {spot.name} = {fix}" if fix else "")
    words, fix = _expects(spot, value)
    fix_line = f"; fix: {_fix_line(spot, fix)}" if fix else ""
    return line, f"{named} should be {words}{fix_line}"


def _validated_fix(name: str, value: Any) -> str | None:
    """A value a validator's field would take, made from the one refused."""
    if name == "url" and isinstance(value, str) and value.strip():
        rest = value.strip().split("://", 1)[-1]
        return json.dumps(f"https://{rest}") if rest else None
    if name == "color" and isinstance(value, str):
        close = difflib.get_close_matches(value.lower(), PROFILE_COLORS, 1, 0.5)
        return json.dumps(close[0] if close else "none")
    return None


def load_config(path: Path | None = None) -> Config:
    """Read and check the config file; a missing file is an empty config."""
    path = path or config_path()
    if not path.exists():
        return Config(path=path)
    try:
        text = path.read_text(encoding="utf-8")
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it: {exc.strerror}") from None
    profiles = raw.get("profiles", {})
    if isinstance(profiles, dict):
        for name, body in profiles.items():
            if isinstance(body, dict):
                body.setdefault("name", name)
    places = Places.read(path, text)
    try:
        # Strict: TOML values have types, and `read_only = "yes"` (lax: true) or `page_size = "50"` is a mistake
        # to be told, not a guess to be made.
        config = Config.model_validate({**raw, "path": path}, strict=True)
    except ValidationError as exc:
        problems = _problems(exc, places)
        if len(problems) == 1:
            line, problem = problems[0]
            raise ConfigError(f"{path} line {line}: {problem}" if line else f"{path}: {problem}") from None
        listed = "".join(f"\n  line {line}: {problem}" if line else f"\n  {problem}" for line, problem in problems)
        raise ConfigError(f"{path}: {len(problems)} fields are wrong:{listed}") from None
    config._places = places
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
