"""The running profile: its session, who is signed in, and how it is shown.

Built by the CLI before the TUI starts (prompts and config errors happen on
the plain terminal), and shared by the TUI and the headless commands. The
demo context runs the simulator in-process with an in-memory cache, so the
demo leaves nothing on disk.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from flextui.api.auth import Credentials, MissingCredential
from flextui.api.cache import PageCache
from flextui.api.http import Session
from flextui.config import Profile, Settings, cache_path, config_path, tls_verify
from flextui.config_places import Places

if TYPE_CHECKING:
    import ssl

    from flextui.api.registry import RegistryService


@dataclass
class AppContext:
    """What every screen needs to know about the profile in use."""

    profile_name: str
    session: Session
    user: str | None
    read_only: bool = False
    color: str = "none"
    settings: Settings = field(default_factory=Settings)
    keys: dict[str, str] = field(default_factory=dict)
    theme: str | None = None
    demo: bool = False
    places: Places = field(default_factory=Places)
    """The config file read and the line of each key in it, for warnings about what it says (`[keys]`)."""
    theme_from: str = ""
    """Where `theme` was named (`settings.theme in FILE line 3`, `--theme`), for the warning when there is no such theme."""
    now_ms: Callable[[], int] = lambda: int(time.time() * 1000)
    start: list[str] = field(default_factory=list)  # e.g. ["tokens"] or ["charts", "proj"]
    extras: dict[str, Any] = field(default_factory=dict)
    forced_read_only: bool = False
    """`--read-only` on the command line: every profile this session moves to (`:profile`, the demo's identities) is
    read-only too, whatever it says, and none of them mints a token (a POST)."""

    @property
    def credentials(self) -> Credentials | None:
        """The profile's user, password and access token (in memory only; on the session)."""
        return self.session.credentials

    async def aclose(self) -> None:
        await self.session.aclose()

    def with_password(self, password: str) -> AppContext:
        """This profile again, signed out, with a password typed again (`:password`: a wrong one typed at the
        start could only be fixed by quitting). In memory only, for the session; the same cache and identity."""
        creds = self.credentials
        if creds is None or not creds.user:
            raise LookupError("this session signs in without a user name: there is no password to type")
        session = self.session.with_credentials(Credentials(creds.user, password, creds.token))
        return replace(self, session=session, extras=dict(self.extras))  # (`registry_for` makes the new session's own)


def open_cache(max_mb: float | None = None) -> PageCache:
    """The page cache file; `max_mb` its size limit (`Settings.cache_max_mb`; None: only clearing it, no limit applied)."""
    return PageCache(cache_path(), max_bytes=None if max_mb is None else int(max_mb * (1 << 20)))


def credential_hint(profile: Profile, *, can_prompt: bool = True, read_only: bool | None = None) -> Callable[[str], str]:
    """How to add a missing credential to this profile: the config line, or for an ad hoc session the variable.

    Only what can work for the profile is offered: a password comes with a user (without one it signs in as
    nobody), and `mint_token` only where it is not set and could mint: a user, a password it can get (typed
    only when `can_prompt`), not read-only. A `mint_token = true` that a read-only profile (or `--read-only`)
    leaves unused says so: told only to add a token, its user could not tell why minting did not happen.
    """
    read_only = profile.read_only if read_only is None else (read_only or profile.read_only)
    if profile.name == "adhoc" or not profile.name:
        return lambda credential: (
            "give --user and set FLEXTUI_PASSWORD (or answer the prompt)"
            if credential == "password"
            else "set FLEXTUI_TOKEN to an rna_… access token (or name another variable with --token-env)"
        )
    where = f"[profiles.{profile.name}] in {config_path()}"
    user = "" if profile.user else 'user = "…" and '
    password = profile.password_source()
    gettable = password is not None and (can_prompt or isinstance(password, str) or not password.prompt)
    can_mint = bool(profile.user) and gettable and not read_only and not profile.mint_token
    mint = ", or mint_token = true to let flextui create a short-lived one" if can_mint else ""
    if profile.mint_token and read_only:
        mint = " (mint_token is not used: the profile is read-only, and minting a token would change the tenant)"
    return lambda credential: (
        f'add {user}password = {{ env = "FNO_PASSWORD" }} (or keyring / command / prompt) to {where}'
        if credential == "password"
        else f'add token = {{ env = "FNO_TOKEN" }} (an rna_… access token) to {where}{mint}'
    )


def profile_context(
    profile: Profile,
    credentials: Credentials,
    settings: Settings,
    *,
    keys: dict[str, str] | None = None,
    offline: bool = False,
    read_only: bool | None = None,
    cache: PageCache | None = None,
    places: Places | None = None,
    tls: bool | ssl.SSLContext | None = None,
) -> AppContext:
    """A context for a configured (or ad hoc) profile. `read_only=True` (`--read-only`) makes it read-only whatever the
    profile says, and every profile it moves to (`forced_read_only`); `tls`: what `tls_verify` made of its `verify`,
    when the caller asked before its prompts (a CA bundle that cannot be used is told before a password is typed);
    None: asked here."""
    chosen = profile.read_only if read_only is None else (read_only or profile.read_only)
    ro = chosen or offline  # nothing can be changed without the network: the changes are not offered (the title says OFFLINE)
    session = Session(
        profile.url,
        name=profile.name or "adhoc",
        user=profile.user,
        credentials=credentials,
        mint_token=profile.mint_token,
        credential_hint=credential_hint(profile, read_only=chosen),
        read_only=ro,
        overrides=profile.urls,
        verify=tls_verify(profile, places) if tls is None else tls,
        proxy=profile.proxy,
        timeout=profile.timeout,
        cache=cache if cache is not None else open_cache(settings.cache_max_mb),
        offline=offline,
        fresh_seconds=settings.cache_fresh_seconds,
        registry_tenant=profile.registry_tenant,
        page_bases=dict(profile.first_page),
    )
    return AppContext(
        profile.name or "adhoc",
        session,
        profile.user,
        ro,
        profile.color,
        settings,
        keys or {},
        theme=profile.theme or settings.theme,
        places=places or Places(),
        theme_from=(places or Places()).named(*(("profiles", profile.name, "theme") if profile.theme else ("settings", "theme"))),
        forced_read_only=bool(read_only),
    )


def demo_context(
    *,
    seed: int = 7,
    scale: float = 1.0,
    latency_ms: float = 0.0,
    read_only: bool = False,
    as_user: str = "admin",
    settings: Settings | None = None,
    keys: dict[str, str] | None = None,
    fixed_now_ms: int | None = None,
    theme: str | None = None,
    dialects: Any = None,
    faults: Any = None,
    timeout: float = 30.0,
    sim_thread: bool = False,
    places: Places | None = None,
) -> AppContext:
    """A context on the embedded simulator (no port, in-memory cache), speaking `dialects` (default: the strictest reading).

    `faults` (a `sim.faults.FaultPlan`) makes the simulator fail as a real
    network or server does, and `timeout` is the session's deadline for a
    whole answer, as a profile's `timeout`; tests use both. `sim_thread`: the
    simulator answers from a thread of its own, so its work never holds the
    app's event loop (the TUI demo); in the loop (the default), a test can change
    the world between requests without racing a request.
    """
    from flextui.sim.app import create_app
    from flextui.sim.world import Clock, World

    if as_user not in DEMO_USERS:
        raise ValueError(f"demo user must be one of {', '.join(DEMO_USERS)}")
    clock = Clock(fixed_now_ms)
    world = World(seed=seed, scale=scale, clock=clock)
    options: dict[str, Any] = {"latency_ms": latency_ms, "faults": faults}
    if dialects is not None:
        options["dialects"] = dialects
    app = create_app(world, **options)
    settings = settings or Settings()
    return _on_simulator(
        "demo",
        as_user,
        read_only,
        forced_read_only=read_only,
        world=world,
        sim_app=app,
        cache=PageCache(":memory:"),
        settings=settings,
        keys=keys or {},
        theme=theme or settings.theme,
        places=places or Places(),
        theme_from="" if theme else (places or Places()).named("settings", "theme"),
        timeout=timeout,
        now_ms=clock.now_ms,
        sim_thread=sim_thread,
    )


DEMO_USERS = ("admin", "producer", "customer")
"""The simulator's seeded users a demo can sign in as."""

DEMO_IDENTITIES: dict[str, tuple[str, bool, str]] = {
    "demo": ("admin", False, "success"),
    "demo-producer": ("producer", False, "accent"),
    "demo-customer": ("customer", False, "primary"),
    "demo-read-only": ("admin", True, "warning"),
}
"""The demo's profiles (`:profile NAME`): a seeded user, read-only or not, and the title's colour; one world."""


def demo_identity(ctx: AppContext, name: str) -> AppContext:
    """Another of the demo's identities on the same simulator (same world, same clock, same cache), its own session;
    read-only when it is, or when the session is (`flextui demo --read-only`)."""
    as_user, read_only, _ = DEMO_IDENTITIES[name]
    return _on_simulator(
        name,
        as_user,
        read_only or ctx.forced_read_only,
        forced_read_only=ctx.forced_read_only,
        world=ctx.extras["world"],
        sim_app=ctx.extras["sim_app"],
        cache=ctx.session.cache,
        settings=ctx.settings,
        keys=ctx.keys,
        theme=ctx.theme,
        places=ctx.places,
        theme_from=ctx.theme_from,
        timeout=ctx.session.total_timeout,
        now_ms=ctx.now_ms,
        sim_thread=ctx.extras["sim_thread"],
    )


def demo_login(as_user: str) -> tuple[str, str]:
    """The simulator's seeded user name and password for one of DEMO_USERS."""
    from flextui.sim.world import ADMIN, CUSTOMER, PRODUCER

    return {"admin": ADMIN, "producer": PRODUCER, "customer": CUSTOMER}[as_user]


def _on_simulator(
    name: str,
    as_user: str,
    read_only: bool,
    *,
    forced_read_only: bool,
    world: Any,
    sim_app: Any,
    cache: PageCache | None,
    settings: Settings,
    keys: dict[str, str],
    theme: str | None,
    places: Places,
    theme_from: str,
    timeout: float,
    now_ms: Callable[[], int],
    sim_thread: bool,
) -> AppContext:
    """A context signed in as one of the simulator's seeded users (its password and its seeded access token)."""
    from flextui.sim.app import SIM_BASE_URL, in_process_transport

    user, password = demo_login(as_user)
    session = Session(
        SIM_BASE_URL,
        name=name,
        credentials=Credentials(user, password, world.seed_token(user)),
        user=user,
        read_only=read_only,
        transport=in_process_transport(sim_app, threaded=sim_thread),
        cache=cache,
        fresh_seconds=settings.cache_fresh_seconds,
        registry_tenant=world.tenant_id,
        timeout=timeout,
        now_ms=now_ms,
    )
    color = DEMO_IDENTITIES.get(name, ("", False, "success"))[2]
    return AppContext(
        name,
        session,
        user,
        read_only,
        color,
        settings,
        keys,
        theme=theme,
        demo=True,
        places=places,
        theme_from=theme_from,
        now_ms=now_ms,
        extras={"world": world, "sim_app": sim_app, "sim_thread": sim_thread},
        forced_read_only=forced_read_only,
    )


class RegistryUnavailable(ValueError):
    """Why the registry cannot be used with this profile (no credentials, no tenant); `exit_code` as the CLI's
    (3 when a credential is missing, as for every other service; 2 for a tenant ID not given)."""

    def __init__(self, message: str, *, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def registry_for(ctx: AppContext) -> RegistryService:
    """The context's one RegistryService (memoised in ctx.extras["registry"], so the JWT is reused)."""
    from flextui.api.registry import RegistryService  # its models are built when the registry is first used

    service = ctx.extras.get("registry")
    if isinstance(service, RegistryService) and service.session is ctx.session:  # (not a session closed since: `:password`)
        return service
    try:
        service = RegistryService(ctx.session)
    except MissingCredential as exc:
        raise RegistryUnavailable(exc.message or str(exc), exit_code=exc.exit_code) from None
    except ValueError as exc:
        raise RegistryUnavailable(str(exc)) from None
    ctx.extras["registry"] = service
    return service


def registry_problem(ctx: AppContext) -> str | None:
    """None when the registry can be used, else the reason (for screens and the CLI)."""
    try:
        registry_for(ctx)
    except RegistryUnavailable as exc:
        return str(exc)
    return None
