"""The secrets audit: after one session that handles every kind of secret, no file flextui wrote holds one.

The session is a real profile (a config file, credentials from the
environment, the on-disk page cache, the rotating log at debug level) on the
simulator served over HTTP. In the TUI it creates a token (its value shown
once), copies the value (the clipboard path), tries a screenshot with the
value on screen (refused) and takes one without, verifies a pasted value,
rotates a token, reveals the registry secret, resets it to a chosen and then
a random one, lists projects, the download log, entitlements, products and
users, and exports a report. Then headless commands run with `--debug`,
their stderr redirected to a file, one of them minting a short-lived token
from a password.

Every secret the simulator knows or issued is collected from its world:
every token value (seeded, created, rotated away, minted), each user's
password (and its Basic-auth form), the seeded access tokens, every JWT the
registry signed (and its signature), the registry secrets old and new (and
their Base64 forms). Then every file under the config, cache (the SQLite
file with its -wal and -shm, read while the app's connection is still open
and again after), state (the log and its rotated files) and downloads
(screenshots) directories, and the export, is searched byte by byte: 0
occurrences. Every file flextui wrote is 0600 and every directory 0700.
"""

from __future__ import annotations

import base64
import logging
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input

from flextui.config import config_dir, load_config, log_path
from flextui.context import profile_context
from flextui.files import private_dirs, write_private
from flextui.secrets import resolve_credentials
from flextui.sim import registry as sim_registry
from flextui.sim.registry import registry_store
from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, CUSTOMER, PRODUCER, World
from flextui.ui.app import FlexApp
from flextui.ui.widgets.dialogs import ConfirmScreen, ValueScreen
from flextui.ui.widgets.forms import FormScreen
from tests.ui.conftest import command, settle, until

SIZE = (120, 40)
PASSWORD_VAR = "AUDIT_FNO_PASSWORD"
TOKEN_VAR = "AUDIT_FNO_TOKEN"
CHOSEN_SECRET = "Chosen-Audit-Secret-7"


class Secrets:
    """Every secret value seen, with the forms it travels in."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}  # value -> what it is

    def add(self, value: str | None, what: str) -> None:
        if value and len(value) >= 6:
            self.values.setdefault(value, what)

    def collect(self, world: World, jwts: list[str]) -> None:
        for token in token_store(world).by_name.values():
            self.add(token.value, f"token value of {token.name}")
        for user in world.users.values():
            self.add(user.password, f"password of {user.username}")
            self.add(base64.b64encode(f"{user.username}:{user.password}".encode()).decode(), f"Basic credentials of {user.username}")
        for user, _ in (ADMIN, PRODUCER, CUSTOMER):
            self.add(world.seed_token(user), f"seeded access token of {user}")
        for jwt in jwts:
            self.add(jwt, "a registry JWT")
            self.add(jwt.rsplit(".", 1)[-1], "a registry JWT's signature")
        for user, secret in registry_store(world)._secrets.items():
            self.add_registry_secret(secret, user)

    def add_registry_secret(self, secret: str, user: str) -> None:
        self.add(secret, f"registry secret of {user}")
        self.add(base64.b64encode(secret.encode()).decode(), f"registry secret of {user} (Base64)")

    def pattern(self) -> re.Pattern[bytes]:
        ordered = sorted(self.values, key=len, reverse=True)
        return re.compile(b"|".join(re.escape(v.encode()) for v in ordered))


def files_under(*roots: Path) -> Iterator[Path]:
    for root in roots:
        if root.is_dir():
            for path in sorted(root.rglob("*")):
                if path.is_file():
                    yield path
        elif root.is_file():
            yield root


def leaks(secrets: Secrets, paths: list[Path]) -> list[str]:
    pattern = secrets.pattern()
    found = []
    for path in paths:
        data = path.read_bytes()
        for match in pattern.finditer(data):
            found.append(f"{path}: {secrets.values[match.group().decode()]} at byte {match.start()}")
    return found


async def submit_form(pilot: Any, values: dict[str, str]) -> None:
    for key, value in values.items():
        pilot.app.screen.query_one(f"#field-{key}", Input).value = value
    await pilot.pause()
    await pilot.press("ctrl+s")


async def confirm(pilot: Any) -> None:
    await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
    pilot.app.screen.query_one("#confirm", Button).press()


@pytest.fixture
def minted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every token value the simulator makes from now on (created, rotated, minted: some are gone by the end)."""
    from flextui.sim import tokens as sim_tokens

    made: list[str] = []
    original = sim_tokens.new_value

    def recording() -> str:
        value = original()
        made.append(value)
        return value

    monkeypatch.setattr(sim_tokens, "new_value", recording)
    return made


@pytest.fixture
def jwts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every JWT the registry signs from now on."""
    issued: list[str] = []
    original = sim_registry.RegistryStore.issue_jwt

    def recording(self: Any, user: Any) -> tuple[str, int]:
        token, exp = original(self, user)
        issued.append(token)
        return token, exp

    monkeypatch.setattr(sim_registry.RegistryStore, "issue_jwt", recording)
    return issued


@pytest.mark.timeout(300)
async def test_no_file_flextui_writes_holds_a_secret(
    world: World, jwts: list[str], minted: list[str], live_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets = Secrets()
    secrets.collect(world, jwts)  # the seeded ones, before anything changes them
    home = Path(os.environ["XDG_CONFIG_HOME"]).parent
    downloads = home / "Downloads"
    exports = home / "exports"
    monkeypatch.setattr("flextui.ui.app.user_downloads_path", lambda: downloads)
    private_dirs(exports)
    monkeypatch.chdir(exports)
    monkeypatch.setenv(PASSWORD_VAR, ADMIN[1])
    monkeypatch.setenv(TOKEN_VAR, world.seed_token(ADMIN[0]))
    config = config_dir() / "config.toml"
    write_private(
        config,
        f"""
[settings]
default_profile = "audit"

[profiles.audit]
url = "{live_server}"
user = "{ADMIN[0]}"
password = {{ env = "{PASSWORD_VAR}" }}
token = {{ env = "{TOKEN_VAR}" }}
registry_tenant = "{world.tenant_id}"

[profiles.minting]
url = "{live_server}"
user = "{ADMIN[0]}"
password = {{ env = "{PASSWORD_VAR}" }}
mint_token = true
registry_tenant = "{world.tenant_id}"
""",
    )
    written_by_the_test = {config.resolve()}

    # The TUI, as `flextui --debug` runs it: the rotating private log (small, so it rotates), at debug level.
    from flextui.cli import _setup_logging

    root = logging.getLogger("flextui")
    saved_handlers, saved_level = root.handlers[:], root.level
    _setup_logging(True, to_file=True)
    root.handlers[0].maxBytes = 1500  # type: ignore[attr-defined]
    loaded = load_config()
    profile = loaded.profile("audit")
    ctx = profile_context(profile, resolve_credentials(profile), loaded.settings)
    ctx.start = ["tokens"]
    app = FlexApp(ctx)
    shots: list[str | None] = []
    try:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await settle(pilot)
            # a new token: its value shown once, copied, a screenshot refused while it shows
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, FormScreen))
            await submit_form(pilot, {"tokenName": "audit-created-1", "expiryStr": "30d", "tokenDescription": "made by the audit"})
            await until(pilot, lambda: isinstance(app.screen, ValueScreen))
            created = app.screen.query_one("#value-text").text
            assert created.startswith("rna_")
            await pilot.press("c")
            await pilot.pause()
            assert any("Copied" in n.message for n in app._notifications)
            shots.append(app.deliver_screenshot())
            assert shots[-1] is None, "no screenshot with a token value on screen"
            await pilot.press("escape")
            await settle(pilot)
            shots.append(app.deliver_screenshot())
            assert shots[-1] is not None
            # verify a pasted value
            await pilot.press("k")
            await until(pilot, lambda: isinstance(app.screen, FormScreen))
            field = next(iter(app.screen.specs)).key
            await submit_form(pilot, {field: created})
            await settle(pilot)
            while app.screen is not app.screen_stack[0] and len(app.screen_stack) > 1:
                await pilot.press("escape")
                await settle(pilot)
            # rotate one
            secrets.collect(world, jwts)
            await pilot.press("r")
            await confirm(pilot)
            await until(pilot, lambda: isinstance(app.screen, ValueScreen))
            await pilot.press("c")
            await pilot.press("escape")
            await settle(pilot)
            # the registry secret: revealed, a screenshot refused, reset to a chosen one and to a random one
            await command(pilot, "secret")
            await pilot.press("v")
            await settle(pilot)
            assert getattr(app.screen, "revealed", False)
            shots.append(app.deliver_screenshot())
            assert shots[-1] is None, "no screenshot with the registry secret on screen"
            await pilot.press("c")
            await settle(pilot)
            secrets.collect(world, jwts)
            for chosen in (CHOSEN_SECRET, ""):
                await pilot.press("r")
                await until(pilot, lambda: isinstance(app.screen, FormScreen))
                values = {"secret": chosen, "repeat": chosen} if chosen else {}
                await submit_form(pilot, values)
                await confirm(pilot)
                await until(pilot, lambda: isinstance(app.screen, ValueScreen))
                secrets.collect(world, jwts)
                await pilot.press("c")
                await pilot.press("escape")
                await settle(pilot)
            secrets.add_registry_secret(CHOSEN_SECRET, ADMIN[0])
            # the other areas, so the cache holds their pages
            for area in ("projects", "downloads", "entitlements", "products", "users", "tokens"):
                await command(pilot, area)
            # a report, exported
            await command(pilot, "report fulfillment")
            app.screen.query_one("#rb-past", Input).value = "7"
            await pilot.pause()
            await pilot.press("ctrl+g")
            await until(pilot, lambda: type(app.screen).__name__ == "ReportResultsScreen" and app.screen.state != "loading", timeout=30)
            await pilot.press("ctrl+s")
            await until(pilot, lambda: type(app.screen).__name__ == "ExportScreen")
            await pilot.press("enter")
            await until(pilot, lambda: any(p.suffix == ".csv" for p in exports.iterdir()), timeout=30)
            await settle(pilot)
            shots.append(app.deliver_screenshot())
            assert shots[-1] is not None
        # the app has gone; its session (and the cache connection, with its -wal and -shm) is still open
        secrets.collect(world, jwts)
        roots = [home / "config", home / "cache", home / "state", home / "data", downloads, exports]
        open_files = list(files_under(*roots))
        assert any(p.name.endswith("-wal") for p in open_files), "the cache's write-ahead log is part of the audit"
        found = leaks(secrets, open_files)
    finally:
        await ctx.aclose()
        ctx.session.cache.close()
        for handler in root.handlers:
            handler.close()
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)

    # headless, `--debug`, stderr into a file
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLEXTUI_PROFILE")}
    env["FLEXTUI_CONFIG"] = str(config)
    state = log_path().parent
    headless_log = state / "headless-debug.log"
    outputs = state / "headless-stdout.txt"
    runs = [
        ["--profile", "audit", "--debug", "get", "tokens", "--username", ADMIN[0]],
        ["--profile", "audit", "--debug", "get", "tokens", "--search", "name=audit*", "-o", "json"],
        ["--profile", "audit", "--debug", "get", "projects"],
        ["--profile", "audit", "--debug", "get", "entitlements", "--limit", "5"],
        ["--profile", "audit", "--debug", "report", "run", "fulfillment", "--past-days", "3", "-o", "csv"],
        ["--profile", "minting", "--debug", "get", "products", "--limit", "5"],
    ]
    with headless_log.open("ab") as err, outputs.open("ab") as out:
        for argv in runs:
            done = subprocess.run([sys.executable, "-m", "flextui", *argv], env=env, stdout=out, stderr=err, timeout=120)
            assert done.returncode == 0, (argv, headless_log.read_text(errors="replace")[-2000:])
    written_by_the_test |= {headless_log.resolve(), outputs.resolve()}
    assert " DEBUG " in headless_log.read_text() or " INFO " in headless_log.read_text(), "--debug logged to the file"

    secrets.collect(world, jwts)
    for value in minted:  # created, rotated away, minted for the beta APIs and deleted on exit
        secrets.add(value, "a token value the simulator made during the session")
    assert len(jwts) >= 2, "the TUI and the headless runs signed in to the registry"
    assert len(minted) >= 4, "created, rotated, minted (and the rotation's old value is kept from before)"
    every = list(files_under(*roots))
    names = {p.name for p in every}
    assert {"pages.sqlite3", "flextui.log", "flextui.log.1"} <= names, [(p.name, p.stat().st_size) for p in every]
    assert any(p.suffix == ".svg" for p in every) and any(p.suffix == ".csv" for p in every)
    found += leaks(secrets, every)
    assert not found, "secrets in files:\n" + "\n".join(found[:40])
    # the audit would have seen them: what it looks for holds every kind, and the search finds a planted one
    kinds = set(secrets.values.values())
    assert created in secrets.values and CHOSEN_SECRET in secrets.values and world.seed_token(ADMIN[0]) in secrets.values
    assert any(k.startswith("a registry JWT") for k in kinds) and any(k.startswith("password of") for k in kinds)
    assert sum(1 for k in secrets.values.values() if k.startswith(f"registry secret of {ADMIN[0]}")) >= 6, (
        "the secret as revealed, chosen and random, plain and Base64"
    )
    planted = tmp_path / "planted.txt"
    planted.write_bytes(b"x" + created.encode() + b"y" + base64.b64encode(CHOSEN_SECRET.encode()) + b"z" + jwts[-1].encode())
    assert len(leaks(secrets, [planted])) == 3

    wrong_modes = []
    for path in every:
        if path.resolve() in written_by_the_test:
            continue
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode != 0o600:
            wrong_modes.append(f"{path}: {oct(mode)}")
    for root_dir in roots:
        for folder in [root_dir, *(p for p in root_dir.rglob("*") if p.is_dir())] if root_dir.is_dir() else []:
            mode = stat.S_IMODE(folder.stat().st_mode)
            if mode != 0o700:
                wrong_modes.append(f"{folder}/: {oct(mode)}")
    assert not wrong_modes, "not private:\n" + "\n".join(wrong_modes)
    assert shots[0] is None and shots[2] is None and shots[1] and shots[3]
