"""Shared fixtures: a frozen-clock world, its simulator, and sessions against it.

The environment is cleaned before anything imports Textual, whose constants
are read at import time (NO_COLOR or TEXTUAL_THEME would change snapshots).
Caches, config and keyrings live in temporary directories: no test touches
the user's files or the internet.
"""

from __future__ import annotations

import os

for _var in (
    "NO_COLOR",
    "TEXTUAL_THEME",
    "TEXTUAL_COLOR_SYSTEM",
    "TEXTUAL_ANIMATIONS",
    "TEXTUAL_FPS",
    "FORCE_COLOR",
    "FLEXTUI_PASSWORD",
    "FLEXTUI_TOKEN",
    "FLEXTUI_PROFILE",
    "FLEXTUI_CONFIG",
):
    os.environ.pop(_var, None)

import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from flextui.api.auth import Credentials
from flextui.api.cache import PageCache
from flextui.api.http import RetryPolicy, Session
from flextui.sim.app import SIM_BASE_URL, create_app, in_process_transport
from flextui.sim.faults import FaultPlan
from flextui.sim.tokens import SimToken, new_value, token_store
from flextui.sim.world import ADMIN, CUSTOMER, DAY_MS, PRODUCER, Clock, World

FIXED_NOW_MS = int(datetime(2026, 11, 2, 10, 0, tzinfo=UTC).timestamp() * 1000)


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point config, cache and state directories at a temporary home."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    # `flextui --config X` sets FLEXTUI_CONFIG for its process; in-process CLI tests must not leak it.
    monkeypatch.setenv("FLEXTUI_CONFIG", str(home / "config" / "flextui" / "config.toml"))


@pytest.fixture(autouse=True)
def _flextui_logger_restored() -> Iterator[None]:
    """In-process CLI runs set the flextui logger's level and handler; each test gets it back as it was."""
    import logging

    logger = logging.getLogger("flextui")
    handlers, level = list(logger.handlers), logger.level
    yield
    logger.handlers[:] = handlers
    logger.setLevel(level)


@pytest.fixture
def clock() -> Clock:
    return Clock(FIXED_NOW_MS)


@pytest.fixture
def world(clock: Clock) -> World:
    return World(seed=7, scale=1.0, clock=clock)


def more_tokens(world: World, username: str, count: int) -> None:
    """`count` more live NORMAL tokens of `username` (`paging-0001`, …): a token list longer than the seeded world
    gives one user (ADMIN has 9 at scale 1, 56 at scale 10), for servers that page it their own way."""
    store = token_store(world)
    issue = world.now_ms() - DAY_MS
    for n in range(1, count + 1):
        store.add(SimToken(f"paging-{n:04d}", "NORMAL", username, username, "", issue, issue + 365 * DAY_MS, "1y", new_value()))


@pytest.fixture
def faults() -> FaultPlan:
    return FaultPlan()


@pytest.fixture
def sim_app(world: World, faults: FaultPlan) -> Any:
    return create_app(world, faults=faults)


@pytest.fixture
def cache(tmp_path: Path) -> PageCache:
    return PageCache(tmp_path / "cache.sqlite3")


_SEEDED: Any = object()


def make_session(
    app: Any, *, user: tuple[str, str] = ADMIN, cache: PageCache | None = None, token: str | None = _SEEDED, **kwargs: Any
) -> Session:
    """A session on the in-process simulator as `user` (fast retries for tests).

    A seeded user signing in with their right password also holds their
    seeded access token, as a real profile would: the beta APIs take only that.
    `token` gives the session another one (someone else's), or None.
    """
    kwargs.setdefault("retry", RetryPolicy(attempts=3, backoff=0.001))
    world: World = app.state.world
    kwargs.setdefault("now_ms", world.now_ms)  # the world's time, as the demo's session reads it
    if token is _SEEDED:
        token = world.seed_token(user[0]) if user in (ADMIN, PRODUCER, CUSTOMER) else None
    return Session(
        SIM_BASE_URL,
        credentials=Credentials(user[0], user[1], token),
        user=user[0],
        transport=in_process_transport(app),
        cache=cache,
        **kwargs,
    )


BETA_PREFIXES = ("/entitlements-api/", "/products-api/", "/users-accounts-api/")


class SimAuth(httpx.Auth):
    """How a seeded user signs in to the simulator: the access token for the beta APIs (they take
    nothing else), the password elsewhere. Anyone else (a wrong password) sends Basic everywhere."""

    def __init__(self, app: Any, user: tuple[str, str]) -> None:
        world: World = app.state.world
        self.basic = httpx.BasicAuth(*user)
        self.token = world.seed_token(user[0]) if user in (ADMIN, PRODUCER, CUSTOMER) else None

    def auth_flow(self, request: httpx.Request) -> Any:
        if self.token and request.url.path.startswith(BETA_PREFIXES):
            request.headers["Authorization"] = f"Bearer {self.token}"
            yield request
        else:
            yield from self.basic.auth_flow(request)


def sim_auth(app: Any, user: tuple[str, str] = ADMIN) -> httpx.Auth:
    return SimAuth(app, user)


@pytest.fixture
async def session(sim_app: Any, cache: PageCache) -> AsyncIterator[Session]:
    s = make_session(sim_app, cache=cache)
    yield s
    await s.aclose()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def live_server(world: World) -> Iterator[str]:
    """The simulator over real HTTP on loopback; yields its base URL."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(create_app(world), host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("simulator did not start")
        time.sleep(0.01)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)
