"""One language for keys (ui/keys.py): one meaning a key, a footer that fits, `?` in plain words, ctrl+r asks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding
from textual.keys import _character_to_key
from textual.widgets import DataTable, Input
from textual.widgets._footer import FooterKey

from flextui.ui.app import _binding_classes
from flextui.ui.help import HelpScreen
from flextui.ui.keys import KEY_TABLE, KeyFooter, shown_keys
from flextui.ui.screens.reports.builder import ReportBuilderScreen
from flextui.ui.screens.reports.results import ReportResultsScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.widgets.forms import FormScreen
from tests.ui.conftest import build_app, burst, settle, until

README = Path(__file__).resolve().parents[2] / "README.md"

AREAS = [
    ["tokens"],
    ["projects"],
    ["charts", "hello-world-dp"],
    ["members", "hello-world-dp"],
    ["artifacts", "hello-world-dp/hello-world-image"],
    ["downloads"],
    ["secret"],
    ["reports"],
    ["report", "fulfillment"],
    ["entitlements"],
    ["products"],
    ["features"],
    ["users"],
    ["accounts"],
]


# -- the table ---------------------------------------------------------------------------------------


ARROWS = {"←": "left", "→": "right", "↑": "up", "↓": "down"}


def table_keys() -> dict[str, str]:
    """Textual key name → the KEY_TABLE row (its meaning) that documents it."""
    out: dict[str, str] = {}
    for keys, meaning in KEY_TABLE:
        names = re.findall(r"`([^`]+)`", keys)
        if "arrows" in keys:
            names += ["up", "down", "left", "right"]
        if "…" in keys:
            names = [str(n) for n in range(1, 10)]
        for name in names:
            for arrow, word in ARROWS.items():
                name = name.replace(arrow, word)
            key = _normal(name)
            assert key not in out, f"{name!r} has two rows: {out[key]!r} and {meaning!r}"
            out[key] = meaning
    return out


def _normal(key: str) -> str:
    if len(key) == 1:
        return key if key.isalnum() else _character_to_key(key)
    match = re.fullmatch(r"shift\+([a-z])", key)
    return match.group(1).upper() if match else key  # shift+e is E


def test_every_key_bound_anywhere_has_one_row_of_the_table() -> None:
    documented = table_keys()
    missing = []
    for cls in _binding_classes():
        for binding in cls.__dict__.get("BINDINGS", []):
            if isinstance(binding, Binding):
                missing += [f"{cls.__name__}: {k} ({binding.id})" for k in binding.key.split(",") if _normal(k) not in documented]
    assert not missing, missing


def test_every_binding_has_an_id_and_a_description() -> None:
    for cls in _binding_classes():
        for binding in cls.__dict__.get("BINDINGS", []):
            assert isinstance(binding, Binding) and binding.id and binding.description, (cls.__name__, binding)


def test_the_readme_shows_the_table() -> None:
    text = README.read_text()
    section = text[text.index("### Keys") : text.index("## Using it with your instance")]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| key |")]
    assert rows == [f"| {keys} | {meaning} |" for keys, meaning in KEY_TABLE]


def test_brackets_page_and_braces_sort() -> None:
    """`[`/`]` are pages wherever they are bound; the grids sort with `{`/`}`."""
    meanings = {}
    for cls in _binding_classes():
        for binding in cls.__dict__.get("BINDINGS", []):
            for key in binding.key.split(","):
                meanings.setdefault(key, set()).add(binding.action.split("(")[0])
    assert meanings["left_square_bracket"] == meanings["right_square_bracket"] == {"page"}
    assert meanings["left_curly_bracket"] == {"sort_ascending"} and meanings["right_curly_bracket"] == {"sort_descending"}
    assert meanings["ctrl+r"] <= {"reload", "refresh", "rerun"}


# -- the footer --------------------------------------------------------------------------------------


def footer_fits(app: Any) -> tuple[list[str], int]:
    footer = app.screen.query_one(KeyFooter)
    right = max(key.region.right for key in footer.query(FooterKey))
    return shown_keys(footer), right


@pytest.mark.parametrize("start", AREAS, ids=[" ".join(a) for a in AREAS])
async def test_the_footer_fits_80_columns_with_help_command_and_filter(start: list[str]) -> None:
    app = build_app(start=start)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown, right = footer_fits(app)
        assert right <= 80, shown
        assert shown[0] == "? Keys" and shown[-2:] == [": Command", "/ Filter"]
        assert len(shown) >= 4 or start[0] in ("projects", "artifacts", "reports"), "the screen's own keys come first"


@pytest.mark.parametrize("width", [80, 120])
async def test_the_report_results_footer_fits(width: int) -> None:
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "ctrl+g")
        assert isinstance(app.screen, ReportResultsScreen)
        shown, right = footer_fits(app)
        assert right <= width, shown
        assert {"f Filters", "^s Save…", "g Per day"} <= set(shown)


async def test_while_a_field_has_the_focus_the_footer_offers_no_key_the_field_would_type() -> None:
    """In the results' filter field, `shift+f Frequency` was offered, and pressing it typed an F."""
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "ctrl+g")
        assert isinstance(app.screen, ReportResultsScreen)
        await settle(pilot)
        on_grid = footer_fits(app)[0]
        assert any(key.endswith(" Frequency") for key in on_grid)
        await burst(pilot, "slash")
        assert isinstance(app.focused, Input)
        in_field = footer_fits(app)[0]
        assert in_field, "keys that still work are shown (escape, ctrl+…)"
        typed = {entry.split(" ", 1)[0] for entry in in_field}
        assert not any(key.endswith(" Frequency") or key.endswith(" Stats") for key in in_field), in_field
        assert not typed & {"F", "shift+f", "I", "?", ":", "/", "del", "home", "end"}, in_field
        await burst(pilot, "F")  # what a terminal sends for shift+f
        assert isinstance(app.focused, Input) and app.focused.value.endswith("F"), "what it does there: types"


async def test_x_shows_while_a_search_is_shown() -> None:
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "x List" not in footer_fits(app)[0]
        await burst(pilot, "s", *"ci-*", "ctrl+s")
        assert isinstance(app.screen, TokensScreen) and app.screen.search is not None
        # The footer follows the bindings a refresh later than the search's state: wait for it, not for a time.
        await until(pilot, lambda: "x List" in footer_fits(app)[0])
        assert footer_fits(app)[1] <= 80
        await burst(pilot, "x")
        assert app.screen.search is None
        await until(pilot, lambda: "x List" not in footer_fits(app)[0])


# -- ? -------------------------------------------------------------------------------------------------


def shown_help(app: Any) -> tuple[str, set[str]]:
    """The help on screen: its title and the binding ids it lists."""
    assert isinstance(app.screen, HelpScreen)
    return str(app.screen.query_one("#help-title").render()), {row[3] for row in app.screen.rows}


async def test_help_names_the_screen_and_lists_only_keys_you_can_use_and_remap() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert str(help_screen.query_one("#help-title").render()) == "Keys: Access tokens"
        rows = help_screen.rows
        assert all(ident and not ident.startswith(("app.focus", "screen.copy_text", "_")) for *_, ident in rows)
        assert all(where in ("This screen", "Table", "Everywhere") for _, _, where, _ in rows), {r[2] for r in rows}
        by_id = {ident: (key, what) for key, what, _, ident in rows}
        assert by_id["tokens.verify"] == ("k", "Verify")
        assert "tokens.list" not in by_id, "x only while a search is shown"
        assert {"screen.next_field", "app.quit_anywhere", "app.palette", "tokens.next_page", "tokens.reload"} <= set(by_id)
        assert by_id["tokens.delete"][0] == "d, del"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_help_shows_every_binding_id_whole(size: tuple[int, int]) -> None:
    """At 80 columns the table was wider than the dialog: `tokens.creat`, `screen.show_mess`, the ids one copies into [keys]."""
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await burst(pilot, "question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        widths = [column.get_render_width(table) - 2 * table.cell_padding for column in table.columns.values()]
        assert table.max_scroll_x == 0, "nothing to the right of the dialog's edge"
        assert widths[3] >= max(len(ident) for *_, ident in app.screen.rows), "each id whole"
        assert widths[0] >= max(len(key) for key, *_ in app.screen.rows), "each key whole"


async def test_help_on_a_form_names_the_form() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "n")
        assert isinstance(app.screen, FormScreen)
        app.action_help()  # (`?` in the form's field is a character)
        await settle(pilot)
        title, ids = shown_help(app)
        assert title == "Keys: New access token" and "form.submit" in ids


@pytest.mark.parametrize(("keys", "help_key"), [({}, "question_mark"), ({"app.help": "f1"}, "f1")], ids=["?", "remapped"])
async def test_help_in_a_dialog_lists_the_dialogs_keys(keys: dict[str, str], help_key: str) -> None:
    """`?` did nothing in a detail dialog (Textual leaves the app's keys out while a dialog is up); remapped to f1,
    help moved on screens while in a dialog `?` stayed and f1 did nothing."""
    app = build_app(keys=keys)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "enter")
        detail = app.screen
        assert type(detail).__name__ == "TokenDetailScreen"
        if help_key != "question_mark":
            await burst(pilot, "question_mark")
            assert app.screen is detail, "? is no longer help"
        await burst(pilot, help_key)
        title, ids = shown_help(app)
        assert title.startswith("Keys: ") and "token_detail.delete" in ids
        await burst(pilot, help_key)
        assert app.screen is detail, "the key that opened help closes it"


# -- ctrl+r, ctrl+c --------------------------------------------------------------------------------------


async def test_ctrl_r_on_tokens_asks_the_server_even_with_a_fresh_cache() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "right_square_bracket", "left_square_bracket")  # page 1 again: from the fresh cache
        before = app.ctx.session.requests_sent
        await burst(pilot, "right_square_bracket", "left_square_bracket")
        assert app.ctx.session.requests_sent == before, "paging back within the freshness window uses the cache"
        await burst(pilot, "ctrl+r")
        assert app.ctx.session.requests_sent > before, "ctrl+r asks the server"


async def test_ctrl_r_in_the_report_builder_refreshes_and_ctrl_g_runs() -> None:
    app = build_app(start=["report", "fulfillment"])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        before = app.ctx.session.requests_sent
        await burst(pilot, "ctrl+r")
        assert isinstance(app.screen, ReportBuilderScreen), "ctrl+r does not run"
        assert app.ctx.session.requests_sent > before
        assert any("fresh from the server" in str(n.message) for n in app._notifications)
        await burst(pilot, "ctrl+g")
        assert isinstance(app.screen, ReportResultsScreen)


async def test_ctrl_c_copies_a_selection_and_otherwise_says_how_to_copy_and_quit() -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "ctrl+c")
        assert app.is_running
        hint = [str(n.message) for n in app._notifications if n.title == "ctrl+c copies"]
        assert hint and "c copies the value under the cursor" in hint[-1] and "To quit: q or ^q" in hint[-1]
        field = app.screen.query_one("#q-user", Input)
        field.focus()
        await settle(pilot)
        field.select_all()
        await burst(pilot, "ctrl+c")
        assert app.clipboard == field.value
        assert any("Copied the selected text" in str(n.message) for n in app._notifications)


@pytest.mark.parametrize("start", [["entitlements"], ["users"], ["products"], ["downloads"]], ids=lambda s: s[0])
async def test_d_where_nothing_can_be_deleted_says_so(start: list[str]) -> None:
    """The keys table gives `d` (delete) to every area; where the API deletes nothing, `d` did nothing and said nothing."""
    app = build_app(start=start)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        await burst(pilot, "d")
        assert app.screen is screen
        said = [str(n.message) for n in app._notifications]
        assert any(s.startswith("d deletes nothing here: the API has no delete for ") and "access tokens" in s for s in said), said
