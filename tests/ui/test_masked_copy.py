"""A value typed into a masked field (a token value in `k` verify) is a secret: copied from there it went to the
clipboard and was kept for ctrl+y, whose dialog showed it and a screenshot then saved it. It still reaches the
clipboard (a pasted token can be copied back), but ctrl+y never shows it, and no screenshot is taken while a masked
field holds a value."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.dialogs import ValueScreen
from flextui.ui.widgets.forms import FormScreen
from tests.ui.conftest import build_app, burst, settle, until

SECRET = "rna_SECRETVALUE" + "x" * 30


async def test_a_masked_fields_value_copied_is_never_kept_for_ctrl_y() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TokensScreen) and bool(app.screen.tokens))
        await burst(pilot, "k")
        await until(pilot, lambda: isinstance(app.screen, FormScreen) and bool(app.screen.query("#field-value")))
        field = app.screen.query_one("#field-value", Input)
        assert field.password
        field.focus()
        field.value = SECRET
        await settle(pilot)
        app.clear_notifications()
        await burst(pilot, "shift+home", "ctrl+c")
        await until(pilot, lambda: any("Copied the selected text" in n.message for n in app._notifications))
        copied = [n.message for n in app._notifications if "Copied the selected text" in n.message]
        assert "ctrl+y" not in copied[-1], "a secret's toast offers no ctrl+y"
        assert app.clipboard == "" and SECRET not in app.last_copied
        await burst(pilot, "ctrl+y")
        await until(pilot, lambda: any("The last copy was a secret" in n.message for n in app._notifications))
        assert not any(isinstance(screen, ValueScreen) for screen in app.screen_stack)


async def test_no_screenshot_while_a_masked_field_holds_a_value(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("flextui.ui.app.user_downloads_path", lambda: tmp_path)
    app = build_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TokensScreen) and bool(app.screen.tokens))
        await burst(pilot, "k")
        await until(pilot, lambda: isinstance(app.screen, FormScreen) and bool(app.screen.query("#field-value")))
        field = app.screen.query_one("#field-value", Input)
        field.value = SECRET
        await settle(pilot)
        assert app.secret_on_screen()
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        commands["Screenshot"].callback()
        await until(pilot, lambda: any("No screenshot taken" in n.message for n in app._notifications))
        with pytest.raises(PermissionError):
            app.save_screenshot(path=str(tmp_path))
        assert list(tmp_path.iterdir()) == []
        field.value = ""  # emptied: nothing secret is left on screen
        await settle(pilot)
        assert not app.secret_on_screen()
        saved = app.deliver_screenshot()
        assert saved is not None and SECRET not in Path(saved).read_text("utf-8")
