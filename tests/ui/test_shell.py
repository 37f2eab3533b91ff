"""The app shell: OSC 52 clipboard wrapping, key remaps, themes, command bar, help, palette."""

from __future__ import annotations

import base64
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from textual.app import App
from textual.command import CommandList, CommandPalette

from flextui.ui import clipboard
from flextui.ui.help import HelpScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.dialogs import ValueScreen
from tests.ui.conftest import build_app, settle, until


def test_passthrough_wrapping_for_tmux_and_screen() -> None:
    plain = "\x1b]52;c;" + base64.b64encode(b"hello").decode() + "\x07"
    assert clipboard.wrap_passthrough(plain, {}) == plain
    tmux = clipboard.wrap_passthrough(plain, {"TMUX": "/tmp/tmux-0/default,1,0"})
    assert tmux.startswith("\x1bPtmux;\x1b\x1b]52;c;") and tmux.endswith("\x1b\\")
    long = "\x1b]52;c;" + "x" * 200 + "\x07"
    screen = clipboard.wrap_passthrough(long, {"TERM": "screen-256color"})
    assert screen.count("\x1bP") > 1 and all(len(part) <= 80 for part in screen.split("\x1b\\") if part)


def test_the_passthrough_driver_wraps_only_osc52(monkeypatch: Any) -> None:
    from textual.drivers.headless_driver import HeadlessDriver

    written: list[str] = []

    class Recording(HeadlessDriver):
        def write(self, data: str) -> None:
            written.append(data)

    monkeypatch.setenv("TMUX", "/tmp/tmux-0/default,1,0")
    driver_class = clipboard.passthrough_driver(Recording)
    driver = driver_class.__new__(driver_class)
    driver.write("frame\x1b[2J" + "\x1b]52;c;aGk=\x07" + "more")
    assert written == ["frame\x1b[2J\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\more"]


async def test_copy_sends_plain_osc52_by_default_even_inside_tmux(monkeypatch: Any) -> None:
    """tmux 3.3+ forwards a plain OSC 52 with `set -g set-clipboard on`; passthrough it would drop."""
    monkeypatch.setenv("TMUX", "/tmp/tmux-0/default,1,0")
    app = build_app()
    sent: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(App, "copy_to_clipboard", lambda self, text: sent.append(text))  # Textual's: what writes OSC 52
        app.copy_text("hello", "a word")
        await pilot.pause()
        assert sent == ["hello"] and app.clipboard == "hello"
        assert app.get_driver_class().__name__ != "PassthroughLinuxDriver"
        app.ctx.settings.clipboard = "tmux-passthrough"
        assert app.get_driver_class().__name__.startswith("Passthrough")


async def test_copy_falls_back_to_showing_the_value_when_too_large() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.copy_text("y" * 100_000, "a large value")
        await pilot.pause()
        assert isinstance(app.screen, ValueScreen)
        assert "by hand" in str(app.screen.query_one("#value-title").render())


async def test_keymap_from_config_remaps_by_binding_id() -> None:
    app = build_app(keys={"tokens.search": "f"})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await pilot.pause()
        assert type(app.screen).__name__ == "FormScreen"
        assert "Search" in str(app.screen.query_one("#form-title").render())


async def test_unknown_binding_ids_are_reported() -> None:
    app = build_app(keys={"tokens.nope": "z"})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert any("tokens.nope" in str(n.message) for n in app._notifications)


async def test_a_remap_that_takes_another_bindings_key_is_said() -> None:
    """`"tokens.verify" = "q"` quietly took q from Quit on the tokens screen (q then opened Verify)."""
    app = build_app(keys={"tokens.verify": "q", "tokens.create": "d"})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        said = " ".join(str(n.message) for n in app._notifications)
        assert "tokens.verify = q takes q from “Quit” (app.quit)" in said, said
        assert "tokens.create = d takes d from “Delete” (tokens.delete)" in said, said


async def test_themes_bundled_ansi_and_unknown() -> None:
    app = build_app(theme="flextui-dusk")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.theme == "flextui-dusk"
        assert {"ansi-dark", "ansi-light", "flextui-paper"} <= set(app.available_themes)
        app.screen.query_one("#commandbar").open()
        await pilot.press(*"theme ansi-light", "enter")
        await pilot.pause()
        assert app.theme == "ansi-light"
    app = build_app(theme="no-such-theme")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"
        assert any("no-such-theme" in str(n.message) for n in app._notifications)


async def test_command_bar_opens_kinds_and_explains_unknown_words() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("colon", *"frobnicate", "enter")
        await pilot.pause()
        assert any("Unknown command 'frobnicate'" in str(n.message) for n in app._notifications)
        await pilot.press("colon", *"tok", "enter")
        await settle(pilot)
        assert isinstance(app.screen, TokensScreen)
        assert app.screen.focused is not app.screen.query_one("#commandbar")


async def test_help_lists_bindings_with_ids() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        ids = {row[3] for row in app.screen.rows}
        assert {"tokens.create", "tokens.rotate", "app.command", "app.filter"} <= ids


async def test_palette_offers_areas() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"access tok")
        await until(pilot, lambda: CommandPalette.is_open(app) and app.screen.query_one(CommandList).option_count > 0)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TokensScreen)


async def test_status_line_age_keeps_ticking(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import time as time_module

    from flextui.ui.widgets.bars import StatusLine

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        status = app.screen.query_one(StatusLine)
        assert str(status.query_one("#st-age").render()) == "fresh"
        later = time_module.monotonic() + 180
        monkeypatch.setattr("flextui.ui.widgets.bars.time.monotonic", lambda: later)
        status._tick()
        assert str(status.query_one("#st-age").render()) == "fetched 3 min ago"
        status.set_age(120)
        assert str(status.query_one("#st-age").render()) == "cached 2 min ago"


async def test_a_passing_message_leaves_the_status_line_and_an_error_stays(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """ "Token x updated" stayed on the status line for the rest of the session, under every later key."""
    import time as time_module

    from flextui.ui.widgets.bars import TOLD_LINGERS, StatusLine

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        status = screen.query_one(StatusLine)
        screen.say("Token audit-pull-186 updated")
        assert status.message == ("info", "Token audit-pull-186 updated")
        soon = time_module.monotonic() + TOLD_LINGERS / 2
        monkeypatch.setattr("flextui.ui.widgets.bars.time.monotonic", lambda: soon)
        status._tick()
        assert status.message == ("info", "Token audit-pull-186 updated"), "it stays a while"
        later = soon + TOLD_LINGERS
        monkeypatch.setattr("flextui.ui.widgets.bars.time.monotonic", lambda: later)
        status._tick()
        assert status.message == ("", ""), "then it goes"
        assert any("Token audit-pull-186 updated" in said.text for said in app.said), "! still has it"
        status.error = "503 the server is unavailable"
        status._tick()
        assert status.message == ("error", "503 the server is unavailable"), "an error stays until something replaces it"


def test_logs_never_hold_secrets(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import asyncio
    import logging

    from flextui.api.tokens import TokenCreate, TokensService
    from flextui.cli import _setup_logging
    from flextui.config import log_path
    from flextui.context import demo_context
    from flextui.sim.world import ADMIN

    _setup_logging(True, to_file=True)

    async def run() -> str:
        ctx = demo_context()
        created = await TokensService(ctx.session).create(TokenCreate(tokenName="log-check-token", expiryStr="1d"))
        await TokensService(ctx.session).verify(created.value)
        await ctx.aclose()
        return created.value

    value = asyncio.run(run())
    for handler in logging.getLogger("flextui").handlers:
        handler.flush()
    text = log_path().read_text()
    assert "POST /uar/v1/token" in text
    assert value not in text and ADMIN[1] not in text
    assert oct(log_path().stat().st_mode & 0o777) == "0o600"
    logging.getLogger("flextui").handlers[:] = []


def test_an_offline_profile_offers_no_change() -> None:
    """`--offline` looked like a live session: New, Edit, Delete and Rotate offered, a delete confirmed before failing."""
    from flextui.api.auth import Credentials
    from flextui.api.cache import PageCache
    from flextui.config import Profile, Settings
    from flextui.context import profile_context

    profile = Profile(name="prod", url="https://acme.flexnetoperations.com", user="me@acme.example")
    ctx = profile_context(profile, Credentials("me@acme.example", "pw", None), Settings(), offline=True, cache=PageCache(":memory:"))
    assert ctx.read_only and ctx.session.offline


async def test_offline_says_offline_and_a_change_key_says_it_needs_the_network() -> None:
    app = build_app(read_only=True)  # as profile_context makes an offline session: read-only
    app.ctx.session.offline = True
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        assert str(app.screen.query_one("#tb-ro").render()) == "OFFLINE"
        await pilot.press("d")
        await until(pilot, lambda: any("needs the network" in str(n.message) for n in app._notifications))
        assert isinstance(app.screen, TokensScreen)


async def test_config_warnings_in_the_tui_name_the_file_and_line(tmp_path: Path) -> None:
    """`theme = "bogus"` said only "no theme 'bogus'; using textual-dark", and the `[keys]` warnings named neither
    the file nor the line: with several config files about (FLEXTUI_CONFIG, --config), which one, and where?"""
    from flextui.config import load_config

    path = tmp_path / "config.toml"
    path.write_text(
        '[settings]\ntheme = "bogus"\n\n[keys]\n"tokens.verify" = "q"\n"tokens.verfy" = "v"\n"nonexistent.binding" = "z"\n',
        encoding="utf-8",
    )
    config = load_config(path)
    app = build_app(settings=config.settings, keys=config.keys, places=config.places)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await until(pilot, lambda: len(app._notifications) >= 3)
        said = [str(n.message) for n in app._notifications]
        assert f"no theme 'bogus' (settings.theme in {path} line 2); using textual-dark (see :theme for the list)" in said, said
        assert (
            f"Unknown binding ids in [keys] of {path}: line 7: nonexistent.binding, line 6: tokens.verfy (did you mean tokens.verify?)"
            " (press ? for the list)" in said
        ), said
        assert f"In [keys] of {path}: line 5: tokens.verify = q takes q from “Quit” (app.quit) there" in said, said
        assert app.theme == "textual-dark"


def test_a_value_is_copied_as_the_one_line_the_screen_shows_and_a_body_with_its_lines() -> None:
    """A name "proj\\nrm -rf ~" shows as `proj⏎rm -rf ~`; copied with its line break, a shell it was pasted into ran
    the second line. A body of several lines (a selection, curl, JSON) keeps its line breaks."""
    app = SimpleNamespace(is_running=False)  # not sent: `text` is what would have been
    one = clipboard.copy(app, "proj\nrm -rf ~\r\x1b]52;c;eA==\x07")
    assert one.text.startswith("proj⏎rm -rf ~") and not {"\n", "\r", "\x1b", "\x07"} & set(one.text), repr(one.text)
    body = clipboard.copy(app, 'curl \\\n  -H "x: \x1b[2J"', lines=True)
    assert body.text.splitlines()[0] == "curl \\" and "\x1b" not in body.text
