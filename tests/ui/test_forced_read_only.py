"""`--read-only` holds for the whole session: `:profile` (and the palette's "Switch to profile") to a profile that is not
read-only kept the command line's flag no more; the badge went, `n e d r` came back, and `d` `y` sent a DELETE.
A `mint_token` profile switched to under it would have minted a token (a POST)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from flextui.api.auth import Credentials, MissingCredential
from flextui.config import Profile, Settings
from flextui.context import demo_context, demo_identity, profile_context
from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, World
from flextui.ui.app import FlexApp
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.dialogs import ConfirmScreen
from tests.ui.conftest import build_app, burst, command, settle, until, world_of


def changes_sent(*sessions: Any) -> list[str]:
    """Every request but a read (GET) that these sessions sent, as `METHOD URL`."""
    return [f"{e.method} {e.url}" for s in sessions for e in s.trace.exchanges if e.method not in ("GET", "HEAD")]


async def refuses_every_change(pilot: Any, world: World) -> None:
    """On the tokens screen: the badge shows, `n r e d` (and `d` `y`) say it is read-only, and nothing is changed."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, TokensScreen) and bool(app.screen.tokens))
    await settle(pilot)
    assert app.ctx.read_only and app.ctx.session.read_only and not app.ctx.session.mint_token
    assert "READ-ONLY" in str(app.screen.query_one("#tb-ro").render()), "the badge follows the session"
    bindings = {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}
    assert not {"create", "rotate", "edit", "delete"} & bindings, bindings
    before = set(token_store(world).by_name)
    app.clear_notifications()
    for key in ("n", "r", "e", "d", "y"):
        await burst(pilot, key)
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen), key
    await until(pilot, lambda: "This profile is read-only: delete is off" in [n.message for n in app._notifications])
    assert set(token_store(world).by_name) == before, "nothing deleted"


async def test_demo_read_only_stays_read_only_on_every_identity() -> None:
    """`flextui demo --read-only`, then `:profile demo-producer`: the producer is read-only too."""
    app = build_app(read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TokensScreen) and bool(app.screen.tokens))
        first = app.ctx.session
        await command(pilot, "profile demo-producer")
        await until(pilot, lambda: app.ctx.profile_name == "demo-producer")
        await until(pilot, lambda: any("Now on demo-producer" in said.text for said in app.said))
        assert any("Now on demo-producer as producer" in said.text and "(read-only)" in said.text for said in app.said)
        await refuses_every_change(pilot, world_of(app))
        await command(pilot, "profile demo")  # and back: still read-only (the admin's own identity is not)
        await until(pilot, lambda: app.ctx.profile_name == "demo")
        await refuses_every_change(pilot, world_of(app))
        assert not changes_sent(first, app.ctx.session)


def test_the_demos_identities_under_read_only_are_read_only() -> None:
    ctx = demo_context(read_only=True)
    for name in ("demo", "demo-producer", "demo-customer"):
        other = demo_identity(ctx, name)
        assert other.read_only and other.session.read_only and other.forced_read_only, name
    assert not demo_identity(demo_context(), "demo-producer").read_only, "without --read-only, the identity says"


def harbor_config(tmp_path: Path, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A profile `harbor` on the simulator over HTTP, as its admin, that mints a token for the beta APIs."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[profiles.harbor]\nurl = "{url}"\nuser = "{ADMIN[0]}"\npassword = {{ env = "FNO_TEST_HARBOR" }}\nmint_token = true\n')
    monkeypatch.setenv("FLEXTUI_CONFIG", str(cfg))
    monkeypatch.setenv("FNO_TEST_HARBOR", ADMIN[1])


def read_only_start(url: str) -> Any:
    """`flextui --read-only --profile sim`: a profile that is not read-only, made so by the command line."""
    profile = Profile(name="sim", url=url, user=ADMIN[0])
    return profile_context(profile, Credentials(ADMIN[0], ADMIN[1], None), Settings(), read_only=True)


async def test_profile_switch_under_read_only_refuses_every_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, live_server: str, world: World
) -> None:
    """`flextui --read-only --profile sim`, then `:profile harbor`: `d` `y` sent `DELETE /flexnet/uar/v1/token/… → 204`."""
    harbor_config(tmp_path, live_server, monkeypatch)
    ctx = read_only_start(live_server)
    ctx.start = ["tokens"]
    app = FlexApp(ctx)
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await refuses_every_change(pilot, world)
        first = app.ctx.session
        await command(pilot, "profile harbor")
        await until(pilot, lambda: app.ctx.profile_name == "harbor")
        await refuses_every_change(pilot, world)
        assert not changes_sent(first, app.ctx.session)


async def test_a_profile_that_mints_mints_nothing_under_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, live_server: str, world: World
) -> None:
    """`mint_token = true` on a profile opened under `--read-only`: the beta APIs are not given a minted token (its
    creation is a POST); they say the token is missing, and nothing is sent to mint one."""
    from flextui.api.entitlements import EntitlementsService
    from flextui.ui.profiles import open_profile, sign_in

    harbor_config(tmp_path, live_server, monkeypatch)
    first = read_only_start(live_server)

    async def ask(title: str) -> str | None:
        raise AssertionError(f"asked: {title}")

    before = set(token_store(world).by_name)
    harbor = await open_profile(first, "harbor", ask)
    try:
        await sign_in(harbor)
        with pytest.raises(MissingCredential):
            try:
                await EntitlementsService(harbor.session).list()
            finally:
                assert not changes_sent(harbor.session) and set(token_store(world).by_name) == before, changes_sent(harbor.session)
        assert harbor.read_only and harbor.session.read_only and harbor.forced_read_only and not harbor.session.mint_token
    finally:
        await harbor.aclose()
        await first.aclose()


async def test_an_opener_that_forgets_read_only_is_refused_before_signing_in() -> None:
    """The app checks what any opener made (tests give their own): under `--read-only`, a context that can change
    things is closed unused (nothing sent, nothing minted) and the session stays where it is."""
    from flextui.ui.profiles import ProfileSource

    made: list[Any] = []

    async def opener(ctx: Any, name: str, ask: Any) -> Any:
        made.append(demo_context())
        return made[-1]

    app = build_app(read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TokensScreen) and bool(app.screen.tokens))
        app.profiles = ProfileSource(names=lambda ctx: ["demo", "other"], open=opener)
        await command(pilot, "profile other")
        await until(pilot, lambda: any("Staying on demo: other would not be read-only" in said.text for said in app.said))
        assert app.ctx.profile_name == "demo" and app.ctx.read_only and made and made[0].session.requests_sent == 0


def test_the_profile_list_under_read_only_says_every_profile_is() -> None:
    from flextui.ui.profiles import profile_facts

    facts = profile_facts(demo_context(read_only=True))
    assert facts and all(said.count("read-only") == 1 for said in facts.values()), facts
    assert "read-only" not in profile_facts(demo_context())["demo-producer"]
