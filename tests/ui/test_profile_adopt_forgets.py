"""`:profile` kept the previous tenant's messages (`!`) and its last copy (ctrl+y): "Copied token name audit-pull-186…"
and the name itself were shown under the next tenant. Nothing of one tenant is shown under the other."""

from __future__ import annotations

from textual.widgets import Static

from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.dialogs import MessageScreen, ValueScreen
from tests.ui.conftest import build_app, burst, command, settle, until


async def test_a_profile_switch_forgets_what_was_said_and_copied() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TokensScreen) and bool(app.screen.tokens))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TokensScreen)
        token = screen.selected()
        assert token is not None
        await burst(pilot, "c")
        await until(pilot, lambda: app.clipboard == token.name)
        assert any(token.name in said.text for said in app.said)

        await command(pilot, "profile demo-customer")
        await until(pilot, lambda: app.ctx.profile_name == "demo-customer" and isinstance(app.screen, TokensScreen))
        await until(pilot, lambda: any("Now on demo-customer" in said.text for said in app.said))
        await settle(pilot)
        assert not any(token.name in said.text for said in app.said), [said.text for said in app.said]
        assert not any(token.name in n.message for n in app._notifications), "no toast of the old tenant lingers"
        assert app.clipboard == ""

        await burst(pilot, "ctrl+y")
        await until(pilot, lambda: any("Nothing copied yet" in n.message for n in app._notifications))
        assert not any(isinstance(s, ValueScreen) for s in app.screen_stack)

        await burst(pilot, "exclamation_mark")
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        shown = str(app.screen.query_one("#message-body", Static).render())
        assert "Now on demo-customer" in shown and token.name not in shown, shown
