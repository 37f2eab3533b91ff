"""A toast never loses its last line: the text is cut to the rows a toast shows, as the toast wraps it."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets._toast import Toast

from flextui.ui.app import TOAST_ROWS
from flextui.ui.widgets.bars import fit_rows
from tests.ui.conftest import build_app, burst, command, settle, until

MORE = "… (! shows all)"


def wrapped_rows(text: str, width: int) -> int:
    return len(Text(text).wrap(Console(file=io.StringIO(), width=200), width))


@pytest.mark.parametrize("width", [16, 30, 41, 53, 57])
def test_a_cut_text_fits_the_rows_it_is_given(width: int) -> None:
    """The rows were guessed from the text's length: words that wrap early (a list of theme names) took more rows."""
    texts = [
        "Themes: " + ", ".join(f"theme-name-{n}" for n in range(40)),
        "word " * 200,
        "x" * 500,
        "a line\n" * 12,
    ]
    for text in texts:
        fitted = fit_rows(text, width, TOAST_ROWS)
        assert fitted.endswith(MORE), fitted
        assert wrapped_rows(fitted, max(16, width)) <= TOAST_ROWS, (width, fitted)
    assert fit_rows("short", width, TOAST_ROWS) == "short"


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (61, 20)])
async def test_the_theme_list_toast_keeps_its_last_line(size: tuple[int, int]) -> None:
    """At 80×24 `:theme`'s toast lost its last line, "… (! shows all)", to a row of its own cut off."""
    app = build_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot)
        await command(pilot, "theme")
        await until(pilot, lambda: bool(app.screen.query(Toast)))
        await settle(pilot)
        toast = app.screen.query(Toast).last()
        lines = [line.text for line in toast.render_lines(toast.region.reset_offset)]
        assert lines[-1].rstrip().endswith("(! shows all)") and len(lines) <= TOAST_ROWS, lines


async def test_a_dialog_opened_after_a_toast_is_not_covered_by_it() -> None:
    """At 80x24 a dialog fills the screen: the toast of what came before sat on its buttons for seconds."""
    from flextui.ui.widgets.forms import FormScreen

    app = build_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        app.notify("Token audit-pull-186 updated", timeout=600)  # (a toast that would outlast the test)
        await settle(pilot)
        assert list(app._notifications)
        await burst(pilot, "s")
        assert isinstance(app.screen, FormScreen)
        await until(pilot, lambda: not list(app._notifications))
        assert any("Token audit-pull-186 updated" in said.text for said in app.said), "! keeps it"


async def test_a_dialog_leaves_an_error_toast_to_be_read() -> None:
    from flextui.ui.widgets.forms import FormScreen

    app = build_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        app.notify("503 the server is unavailable", severity="error", timeout=600)
        await settle(pilot)
        await burst(pilot, "s")
        assert isinstance(app.screen, FormScreen)
        assert [n.severity for n in app._notifications] == ["error"]
