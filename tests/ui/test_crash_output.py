"""A crash flextui cannot carry on from (a failure while painting) printed Textual's traceback with every frame's local
variables (`show_locals=True`): a password, a token value or a server's answer held in one went to the terminal's
scrollback. The traceback is printed without them."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from flextui.ui.app import FlexApp
from tests.ui.conftest import build_app, settle, until

SECRET = "rna_" + "LOCALSECRET" * 4  # (built when run: the traceback's source lines do not show it)


class PaintsNothing(Static):
    """A widget whose painting fails, with a secret in a local variable (as a frame handling credentials would)."""

    def render(self) -> Any:
        held = SECRET
        raise RuntimeError(f"painting failed ({len(held)})")


async def test_a_crash_prints_no_local_variable(capsys: pytest.CaptureFixture[str]) -> None:
    app = build_app()
    with pytest.raises(RuntimeError, match="painting failed"):
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await app.screen.mount(PaintsNothing("x"))
            await until(pilot, lambda: not app.is_running)
    printed = capsys.readouterr()
    shown = printed.err + printed.out
    assert "RuntimeError: painting failed" in shown and "in render" in shown, "the traceback is still printed"
    assert SECRET not in shown and "locals" not in shown, shown[-3000:]


def test_flextui_replaces_textuals_fatal_error() -> None:
    """The override is of the method Textual's handler calls (a Textual that renamed it would print locals again)."""
    import inspect

    from textual.app import App

    assert "self._fatal_error()" in inspect.getsource(App._handle_exception)
    assert FlexApp._fatal_error is not App._fatal_error
