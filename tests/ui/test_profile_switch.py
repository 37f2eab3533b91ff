"""Tenants in place (issue 13): `:profile NAME` switches without quitting, and one tenant's data never shows under another.

Two simulators of different seeds stand for two instances; the demo's own identities
(`demo-customer`, `demo-read-only`) share one simulator as profiles of one instance do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Label, OptionList, Select

from flextui.api.auth import Credentials
from flextui.context import DEMO_IDENTITIES, AppContext, demo_context, registry_for
from flextui.ui.profiles import ProfileSource, SecretPrompt
from flextui.ui.screens.registry.projects import ProjectsScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.trail import Link
from flextui.ui.widgets.dialogs import ChoiceScreen
from flextui.ui.widgets.table import ResourceTable
from tests.conftest import FIXED_NOW_MS
from tests.ui.conftest import build_app, burst, command, screen_of, settle, until


def names_listed(app: Any) -> set[str]:
    screen = app.screen
    assert isinstance(screen, TokensScreen)
    return {t.name for t in screen.tokens}


async def tokens_shown(pilot: Any, profile: str) -> set[str]:
    app = pilot.app
    await until(pilot, lambda: app.ctx.profile_name == profile and isinstance(app.screen, TokensScreen) and bool(app.screen.tokens))
    await settle(pilot)
    return names_listed(app)


def other_instance(seed: int) -> ProfileSource:
    """Profiles of two instances: "demo" (seed 7, as the app starts), "other" (another seed: other tokens), "wrong"
    (a wrong password) and "asks" (its secret from a prompt)."""

    async def opener(ctx: AppContext, name: str, ask: Any) -> AppContext:
        other = demo_context(seed=7 if name == "demo" else seed, fixed_now_ms=FIXED_NOW_MS)
        other.profile_name = name
        if name == "wrong":
            creds = other.session.credentials
            assert creds is not None
            other.session.credentials = Credentials(creds.user, "not-the-password", None)
        if name == "asks":
            secret = await ask("Password for the asking profile")
            assert secret is not None
        return other

    return ProfileSource(names=lambda ctx: ["demo", "other", "wrong", "asks"], open=opener)


async def test_two_instances_in_one_session_never_mix() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        first = await tokens_shown(pilot, "demo")
        app.profiles = other_instance(seed=11)
        await command(pilot, "profile other")
        second = await tokens_shown(pilot, "other")
        assert first - {"flextui-demo-admin"} and not (first & second) - {"flextui-demo-admin"}, "none of the first instance's tokens"
        assert "other" in str(app.screen.query_one("#tb-profile", Label).render()), "the title names the profile in use"
        await command(pilot, "profile demo")
        assert await tokens_shown(pilot, "demo") == first, "and back: the first instance's tokens, none of the other's"


async def test_demo_identities_switch_in_place_with_their_badge() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        admin = await tokens_shown(pilot, "demo")
        await command(pilot, "ctx demo-customer")
        customer = await tokens_shown(pilot, "demo-customer")
        assert customer and not customer & admin, "the customer's own tokens, none of the admin's"
        assert app.ctx.user != "admin" and app.ctx.session.credentials is not None
        await command(pilot, "profile demo-read-only")
        await tokens_shown(pilot, "demo-read-only")
        assert app.ctx.read_only and app.screen.query("#tb-ro"), "the READ-ONLY badge follows the profile"
        assert not app.screen.check_action("create", ()), "and nothing can be changed"


async def test_a_failed_sign_in_keeps_the_tenant_in_use() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        before = await tokens_shown(pilot, "demo")
        screen = app.screen
        app.profiles = other_instance(seed=11)
        await command(pilot, "profile wrong")
        await until(pilot, lambda: any("Staying on demo" in str(n.message) for n in app._notifications))
        assert app.ctx.profile_name == "demo" and app.screen is screen and names_listed(app) == before


async def test_a_profile_that_prompts_asks_in_a_dialog_and_escape_stays() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        app.profiles = other_instance(seed=11)
        await command(pilot, "profile asks")
        await until(pilot, lambda: isinstance(app.screen, SecretPrompt))
        app.screen.query_one(Input).value = "s3cret"
        await burst(pilot, "enter")
        await tokens_shown(pilot, "asks")


async def test_the_trail_survives_a_switch() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        app.jump(Link("users", "users", None))
        await settle(pilot)
        await command(pilot, "profile demo-producer")
        await until(pilot, lambda: app.ctx.profile_name == "demo-producer")
        await settle(pilot)
        await burst(pilot, "escape")
        await until(pilot, lambda: isinstance(app.screen, TokensScreen) and app.ctx.profile_name == "demo-producer")


async def picked_texts(pilot: Any) -> list[str]:
    """`:profile` alone: the lines of the list it opens."""
    await command(pilot, "profile")
    await until(pilot, lambda: isinstance(pilot.app.screen, ChoiceScreen))
    options = pilot.app.screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_profile_alone_offers_the_profiles_to_pick_from() -> None:
    """`:profile` listed the names in a toast that went away; now they are a list to pick from, each with its user and
    read-only (it showed only the names: two identities of one tenant looked the same); a configured one, its host too."""
    from flextui.sim.world import ADMIN, PRODUCER

    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        texts = await picked_texts(pilot)
        assert texts[0] == f"demo  ·  {ADMIN[0]}  (in use)" and app.screen.query_one(OptionList).highlighted == 0
        assert f"demo-producer  ·  {PRODUCER[0]}" in texts and f"demo-read-only  ·  {ADMIN[0]}  ·  read-only" in texts
        await burst(pilot, "escape")
        await until(pilot, lambda: isinstance(app.screen, TokensScreen))
        assert app.ctx.profile_name == "demo"
        await command(pilot, "profile")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await burst(pilot, "down", "enter")
        await tokens_shown(pilot, texts[1].split()[0])


async def test_the_profile_list_shows_the_configs_text_literally(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The config's URL and user are shown cleaned and never as markup, and a password written into the URL not at all."""
    from flextui.ui.profiles import config_facts

    cfg = tmp_path / "config.toml"
    cfg.write_text(
        '[profiles.uat]\nurl = "https://me:s3cret@UAT.flexnetoperations.com:8443/"\nuser = "[b]me[/b]\\u001b]52;c;aGk=\\u0007@x.example"\n'
        'read_only = true\n[profiles.prod]\nurl = "https://acme.flexnetoperations.com"\n'
    )
    monkeypatch.setenv("FLEXTUI_CONFIG", str(cfg))
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        app.profiles = ProfileSource(names=lambda ctx: ["demo", "uat", "prod"], facts=lambda ctx: config_facts())
        texts = await picked_texts(pilot)
        assert texts[0] == "demo  (in use)" and texts[2] == "prod  ·  acme.flexnetoperations.com"
        assert texts[1] == "uat  ·  uat.flexnetoperations.com:8443  ·  [b]me[/b]␛]52;c;aGk=␇@x.example  ·  read-only"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_long_host_is_cut_so_each_profile_keeps_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """A long host wrapped its line at 80 columns, its user and read-only on a second; now the host is cut (…)."""
    from flextui.ui.profiles import config_facts

    host = "acme-user-acceptance-testing.eu-central-1.flexnetoperations.example.com"
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.uat]\nurl = "https://{host}"\nuser = "[b]me[/b]@acme.example"\nread_only = true\n'
        '[profiles.prod]\nurl = "https://acme.flexnetoperations.com"\nuser = "me@acme.example"\n'
    )
    monkeypatch.setenv("FLEXTUI_CONFIG", str(cfg))
    app = build_app()
    async with app.run_test(size=size) as pilot:
        await tokens_shown(pilot, "demo")
        app.profiles = ProfileSource(names=lambda ctx: ["demo", "uat", "prod"], facts=lambda ctx: config_facts())
        texts = await picked_texts(pilot)
        await settle(pilot)
        options = app.screen.query_one(OptionList)
        shown = [options.render_line(y).text.strip() for y in range(options.size.height)]
        assert shown == [t for t in shown if t] and len(shown) == 3, f"one line a profile: {shown}"
        start, cut = shown[1].split("…")
        assert start.startswith("uat  ·  acme-user-") and host.startswith(start.removeprefix("uat  ·  "))
        assert cut == "  ·  [b]me[/b]@acme.example  ·  read-only", "the user (literally) and read-only stay whole"
        assert shown[2] == texts[2] == "prod  ·  acme.flexnetoperations.com  ·  me@acme.example", "what fits is not cut"
        assert host in texts[1], "the whole line is still the choice's text"


async def test_profile_alone_with_only_the_one_in_use_says_so() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await tokens_shown(pilot, "demo")
        app.profiles = ProfileSource(names=lambda ctx: ["demo"], open=other_instance(seed=11).open)
        await command(pilot, "profile")
        await until(pilot, lambda: any("Only demo, in use" in str(n.message) for n in app._notifications))
        assert isinstance(app.screen, TokensScreen)


async def test_a_report_query_stays_with_the_identity_that_made_it() -> None:
    """Left in the builder, admin's conditions showed under the producer after `:profile`, and were gone on return."""
    from flextui.ui.screens.reports.builder import ReportBuilderScreen

    async def builder() -> ReportBuilderScreen:
        await command(pilot, "report fulfillment")
        await until(pilot, lambda: isinstance(app.screen, ReportBuilderScreen) and app.screen.is_mounted)
        await settle(pilot)
        return app.screen

    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        screen = await builder()
        screen.query_one("#rb-field", Select).value = "accountID"
        screen.query_one("#rb-op", Select).value = "$sw"
        screen.query_one("#rb-value", Input).value = "1012"
        await settle(pilot)
        assert screen.add_pending() and len(screen.conditions) == 1
        await command(pilot, "profile demo-producer")  # from inside the builder
        await until(pilot, lambda: app.ctx.profile_name == "demo-producer")
        assert (await builder()).conditions == [], "not the admin's query"
        await command(pilot, "profile demo")
        await until(pilot, lambda: app.ctx.profile_name == "demo")
        assert [str(c) for c in (await builder()).conditions] == [str(c) for c in screen.conditions], "kept for the session"


async def test_keys_typed_while_signing_in_go_to_the_profile_signed_in_to() -> None:
    """`:profile x⏎:reports⏎` in one burst: the `:` was lost and `reports` ran as the old token list's keys."""
    import asyncio

    from flextui.ui.screens.reports.catalogue import ReportsScreen

    slow = other_instance(seed=11)

    async def opener(ctx: AppContext, name: str, ask: Any) -> AppContext:
        await asyncio.sleep(0.3)  # a real sign-in's round trips
        return await slow.open(ctx, name, ask)

    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        app.profiles = ProfileSource(names=slow.names, open=opener)
        await burst(pilot, "colon", *"profile other", "enter", "colon", *"reports", "enter")
        await until(pilot, lambda: app.ctx.profile_name == "other" and isinstance(app.screen, ReportsScreen))
        assert len(app.screen_stack) == 1, "no token dialog opened on the way"


async def test_a_refused_password_can_be_typed_again_without_quitting() -> None:
    """A wrong password typed at the start (`--url` asks for it) left only quitting: ctrl+r sent it again."""
    app = build_app()
    creds = app.ctx.session.credentials
    assert creds is not None and creds.password
    app.ctx.session.credentials = Credentials(creds.user, "typo", creds.token)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await until(pilot, lambda: ":password types it again" in screen.query_one("#st-error", Label).full)
        await command(pilot, "password")
        prompt = await screen_of(pilot, SecretPrompt)
        prompt.query_one(Input).value = creds.password
        await burst(pilot, "enter")
        assert await tokens_shown(pilot, "demo"), "signed in with the password typed again: the tokens are listed"
        new = app.ctx.session.credentials
        assert new is not None and (new.user, new.password) == (creds.user, creds.password) and app.screen is not screen
        statuses = [e.status for e in app.ctx.session.trace.exchanges]
        assert 401 in statuses and 200 in statuses, f"the request log keeps the refused sign-in and the one after: {statuses}"


async def test_a_trace_file_goes_on_across_profile_switches() -> None:
    """`--trace FILE` was written by the first session only: after `:profile` (or `:password`) nothing more reached it."""
    written: list[str] = []
    app = build_app()
    app.ctx.session.trace.writers.append(lambda exchange: written.append(exchange.url))
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        before = len(written)
        assert before
        await command(pilot, "profile demo-producer")
        await tokens_shown(pilot, "demo-producer")
        await until(pilot, lambda: len(written) > before)
        assert app.ctx.session.trace.writers[0] is not None and len(app.ctx.session.trace.writers) == 1, "handed on, not doubled"


async def test_the_registry_works_after_the_password_is_typed_again() -> None:
    """The registry's service was kept from the session `:password` replaced and closed: every registry request
    then failed ("the client has been closed") until another profile was opened."""
    app = build_app(start=["projects"])
    creds = app.ctx.session.credentials
    assert creds is not None and creds.password
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ProjectsScreen) and app.screen.query_one(ResourceTable).row_count > 0)
        old = app.ctx
        await command(pilot, "password")
        prompt = await screen_of(pilot, SecretPrompt)
        prompt.query_one(Input).value = creds.password
        await burst(pilot, "enter")
        await until(pilot, lambda: app.ctx is not old and isinstance(app.screen, ProjectsScreen))
        await burst(pilot, "ctrl+r")
        screen = app.screen
        await until(pilot, lambda: screen.query_one(ResourceTable).row_count > 0 and not screen.status.error)
        assert registry_for(app.ctx).session is app.ctx.session and old.session.client.is_closed


async def test_a_sign_in_that_fails_leaves_the_caches_problems_with_the_session_in_use() -> None:
    """The session made for a sign-in that failed took the shared cache's problems with it: a full disk then
    went unsaid."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        await command(pilot, "password")
        prompt = await screen_of(pilot, SecretPrompt)
        prompt.query_one(Input).value = "not-the-password"
        await burst(pilot, "enter")
        await until(pilot, lambda: any("Staying on demo" in said.text for said in app.said))
        cache = app.ctx.session.cache
        assert cache is not None and cache.on_problem == app.ctx.session._cache_problem


async def test_a_project_screen_is_opened_again_with_its_project_and_tab() -> None:
    """From a project's screen, `:profile` opened the area with no project: "The registry cannot be used with this
    profile" for a profile that can, and `:projects` afterwards kept coming back to that empty screen."""
    from flextui.sim.registry import HELLO
    from flextui.ui.screens.registry.projects import ProjectScreen

    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        await command(pilot, f"charts {HELLO}")
        await until(pilot, lambda: isinstance(app.screen, ProjectScreen) and app.screen.tab == "charts")
        await command(pilot, "profile demo-producer")
        await until(pilot, lambda: app.ctx.profile_name == "demo-producer" and isinstance(app.screen, ProjectScreen))
        screen = app.screen
        await settle(pilot)
        assert screen.project == HELLO and screen.tab == "charts", (screen.project, screen.tab)
        assert not screen.query_one("#reg-problem").display and not screen.status.error, screen.status.error
        await command(pilot, "projects")
        await until(pilot, lambda: isinstance(app.screen, ProjectsScreen))


async def test_an_offline_session_opens_another_profile_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under `--offline`, `:profile other` built the other profile online: it asked for its password and signed in."""
    from flextui.config import Profile, Settings
    from flextui.context import profile_context
    from flextui.ui.profiles import open_profile, sign_in

    cfg = tmp_path / "config.toml"
    cfg.write_text('[profiles.other]\nurl = "https://other.example"\nuser = "me@x.example"\npassword = { prompt = true }\n')
    monkeypatch.setenv("FLEXTUI_CONFIG", str(cfg))
    first = profile_context(
        Profile(name="first", url="https://first.example", user="a@x.example"), Credentials("a@x.example"), Settings(), offline=True
    )

    async def ask(title: str) -> str | None:
        raise AssertionError(f"asked offline: {title}")

    other = await open_profile(first, "other", ask)
    try:
        assert other.session.offline and other.profile_name == "other" and other.user == "me@x.example"
        await sign_in(other)
        assert other.session.requests_sent == 0
    finally:
        await other.aclose()
        await first.aclose()


async def test_offline_another_profile_is_opened_as_the_identity_its_pages_were_stored_under(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline, `:profile other` gave the other profile its user alone: its entitlements, filed online under its token's
    digest too (`Session.identity_for`), were not found, and its reports were looked for as asked with no password."""
    from flextui.api.http import Session
    from flextui.config import Profile, Settings
    from flextui.context import profile_context
    from flextui.ui.profiles import open_profile

    cfg = tmp_path / "config.toml"
    cfg.write_text(
        '[profiles.other]\nurl = "https://other.example"\nuser = "me@x.example"\n'
        'password = { prompt = true }\ntoken = { env = "FNO_TEST_OTHER_TOKEN" }\n'
    )
    monkeypatch.setenv("FLEXTUI_CONFIG", str(cfg))
    monkeypatch.setenv("FNO_TEST_OTHER_TOKEN", "rna_" + "2" * 44)
    first = profile_context(
        Profile(name="first", url="https://first.example", user="a@x.example"), Credentials("a@x.example"), Settings(), offline=True
    )

    async def ask(title: str) -> str | None:
        raise AssertionError(f"asked offline: {title}")

    other = await open_profile(first, "other", ask)
    online = Session("https://other.example", user="me@x.example", credentials=Credentials("me@x.example", "pw", "rna_" + "2" * 44))
    try:
        for op in ("entitlements.list", "reports.names", "tokens.list"):
            assert other.session.identity_for(op) == online.identity_for(op), op
    finally:
        await online.aclose()
        await other.aclose()
        await first.aclose()


async def test_report_results_reopen_as_the_groups_builder_on_the_new_tenant() -> None:
    """A run is not sent again to another tenant unasked: `:profile` from a report's results opens its filter builder."""
    from flextui.ui.screens.reports.builder import ReportBuilderScreen
    from flextui.ui.screens.reports.results import ReportResultsScreen

    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReportBuilderScreen) and app.screen.is_mounted)
        await settle(pilot)
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: isinstance(app.screen, ReportResultsScreen) and app.screen.state != "loading")
        await command(pilot, "profile demo-producer")
        await until(pilot, lambda: app.ctx.profile_name == "demo-producer" and isinstance(app.screen, ReportBuilderScreen))
        assert app.screen.group == "fulfillment"


async def test_a_profile_whose_theme_does_not_exist_says_so_and_where(tmp_path: Path) -> None:
    """The profile's theme was passed over without a word when it named no theme."""
    from flextui.config import load_config

    path = tmp_path / "config.toml"
    path.write_text('[settings]\ntheme = "bogus"\n', encoding="utf-8")
    config = load_config(path)

    async def opener(ctx: AppContext, name: str, ask: Any) -> AppContext:
        other = demo_context(seed=11, fixed_now_ms=FIXED_NOW_MS, settings=config.settings, places=config.places)
        other.profile_name = name
        return other

    app = build_app(theme="nord")
    async with app.run_test(size=(120, 40)) as pilot:
        await tokens_shown(pilot, "demo")
        app.profiles = ProfileSource(names=lambda ctx: ["demo", "other"], open=opener)
        await command(pilot, "profile other")
        await tokens_shown(pilot, "other")
        said = [str(n.message) for n in app._notifications]
        assert f"no theme 'bogus' (settings.theme in {path} line 2); keeping nord (see :theme for the list)" in said, said
        assert app.theme == "nord"


@pytest.mark.parametrize("bundle", ["missing", "no certificates"])
async def test_a_profile_whose_ca_bundle_cannot_be_used_is_told_before_its_password_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundle: str
) -> None:
    """`:profile corp` with a CA bundle not on this machine, or one that holds no certificate: said with the file and
    line, no password asked for, nothing sent; the config's other profile still opens (a missing bundle once refused
    the whole file, and one of no certificates came out of the opener as an SSLError)."""
    from flextui.config import ConfigError, Profile, Settings
    from flextui.context import profile_context
    from flextui.ui.profiles import open_profile

    path = tmp_path / "corp-ca.pem"
    if bundle == "no certificates":
        path.write_text("root:x:0:0:root:/root:/bin/bash\n")
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        '[profiles.corp]\nurl = "https://corp.example"\nuser = "me@x.example"\npassword = { prompt = true }\n'
        f'verify = "{path}"\n[profiles.plain]\nurl = "https://plain.example"\nuser = "me@x.example"\n'
        'password = { env = "FNO_TEST_PW" }\n'
    )
    monkeypatch.setenv("FLEXTUI_CONFIG", str(cfg))
    monkeypatch.setenv("FNO_TEST_PW", "pw")
    first = profile_context(Profile(name="first", url="https://first.example", user="a@x.example"), Credentials("a@x.example"), Settings())

    async def ask(title: str) -> str | None:
        raise AssertionError(f"asked before the bundle was checked: {title}")

    try:
        with pytest.raises(ConfigError) as err:
            await open_profile(first, "corp", ask)
        said = str(err.value)
        assert said.startswith(f"{cfg} line 5: profiles.corp.verify = ") and f"the CA bundle {path} " in said, said
        assert ("was not found" if bundle == "missing" else "holds no certificate") in said, said
        assert first.session.requests_sent == 0
        plain = await open_profile(first, "plain", ask)
        assert plain.profile_name == "plain" and plain.session.requests_sent == 0
        await plain.aclose()
    finally:
        await first.aclose()


async def test_a_profile_name_that_is_not_there_is_offered_the_closest() -> None:
    """`:profile prdo` said "No profile 'prdo'. Profiles: demo, prod, uat", where --profile says which one was meant."""
    app = build_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await tokens_shown(pilot, "demo")
        app.profiles = ProfileSource(names=lambda ctx: ["demo", "prod", "uat"], open=other_instance(seed=11).open)
        await command(pilot, "profile prdo")
        said = 'No profile "prdo" (have: demo, prod, uat): did you mean prod?'
        await until(pilot, lambda: any(said == str(n.message) for n in app._notifications))
        assert app.ctx.profile_name == "demo" and isinstance(app.screen, TokensScreen)


async def test_opening_a_profile_that_is_not_there_names_the_closest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The opener made its own "no profile 'prdo' (have: …)" (the demo's too), without the one most likely meant."""
    from flextui.config import ConfigError, Profile, Settings
    from flextui.context import profile_context
    from flextui.ui.profiles import open_profile

    async def ask(title: str) -> str | None:
        raise AssertionError(f"asked: {title}")

    cfg = tmp_path / "config.toml"
    cfg.write_text('[profiles.prod]\nurl = "https://a.example"\n[profiles.uat]\nurl = "https://b.example"\n')
    monkeypatch.setenv("FLEXTUI_CONFIG", str(cfg))
    first = profile_context(Profile(name="first", url="https://first.example", user="a@x.example"), Credentials("a@x.example"), Settings())
    demo = demo_context(seed=11, fixed_now_ms=FIXED_NOW_MS)
    try:
        with pytest.raises(ConfigError) as err:
            await open_profile(first, "prdo", ask)
        assert str(err.value) == f'{cfg}: no profile "prdo" (have: prod, uat): did you mean prod?'
        with pytest.raises(LookupError) as missing:
            await open_profile(demo, "demo-produser", ask)
        have = ", ".join(DEMO_IDENTITIES)
        assert str(missing.value) == f'no demo profile "demo-produser" (have: {have}): did you mean demo-producer?'
    finally:
        await first.aclose()
        await demo.aclose()
