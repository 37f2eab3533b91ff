"""Every screen, dialog and toast against a hostile server: nothing raw reaches the terminal.

The app runs on the simulator behind `tests.hostile.HostileTransport` (OSC 52,
ESC[2J, OSC 8, OSC 0, C1 CSI, NUL and bidi controls in every free-text value,
a 100 KB string in one value a response), with `RecordingDriver`: Textual's
headless driver, except that the app renders for it as for a terminal, and
every byte it is given to write is kept. That is the terminal stream. Each
test drives an area (lists, details, confirmations, toasts, dialogs) and then
counts, in the stream: OSC sequences, the payload's ESC[2J, C1 characters,
bidi controls and NUL (all 0), and checks the hostile text was on screen,
cleaned (`␛]52;c;`). `app.guard.caught` is the terminal guard's count of
lines that still held a control character when rendered: 0 means every
entry point cleaned its text and the guard never had to act.
"""

from __future__ import annotations

import base64
import json
import re
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.drivers.headless_driver import HeadlessDriver

from flextui.context import demo_context
from flextui.ui.app import FlexApp
from flextui.ui.widgets.dialogs import ConfirmScreen, MessageScreen, ValueScreen
from tests.conftest import FIXED_NOW_MS
from tests.hostile import BIG, PAYLOAD, SUFFIX, TEXTUAL_OSC, install, raw_findings, raw_findings_in_data, where
from tests.ui.conftest import command, settle, until

SIZE = (120, 40)
SHOWN = "␛]52;c;SE9TVElMRQ==␇␛[2J"  # the payload as the sanitiser shows it


class RecordingDriver(HeadlessDriver):
    """A driver that keeps what the app writes to the terminal (the app renders for it: not headless)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.written: list[str] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        self.written.append(data)


def hostile_app(monkeypatch: pytest.MonkeyPatch, start: list[str], *, fail_paths: tuple[str, ...] = (), **kwargs: Any) -> FlexApp:
    install(monkeypatch, fail_paths=fail_paths)
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, **kwargs)
    ctx.start = start
    return FlexApp(ctx, driver_class=RecordingDriver)


def stream(app: FlexApp) -> str:
    driver = app._driver
    assert isinstance(driver, RecordingDriver)
    return "".join(driver.written)


async def run(app: FlexApp, steps: Callable[[Any], Awaitable[None]], *, expect_shown: bool = True) -> str:
    async with app.run_test(headless=False, size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await steps(pilot)
        await settle(pilot)
        text = stream(app)
        caught, samples = app.guard.caught, list(app.guard.samples)
    assert text, "the app wrote to the terminal"
    assert raw_findings(text, allow_osc=TEXTUAL_OSC) == {}, (
        f"raw control characters in the terminal stream: {where(text, allow_osc=TEXTUAL_OSC)}"
    )
    assert caught == 0, f"text that reached the screen without passing the sanitiser: {samples[:5]}"
    if expect_shown:
        assert SHOWN in text, "the hostile text was on screen, shown literally"
    return text


async def press(pilot: Any, *keys: str) -> None:
    """Press keys and let the app settle; remembers which screens were shown (`seen`)."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)
        seen(pilot.app).add(type(pilot.app.screen).__name__)


def seen(app: Any) -> set[str]:
    if not hasattr(app, "_seen_screens"):
        app._seen_screens = set()
    return app._seen_screens


# -- tokens ------------------------------------------------------------------------------------------


async def test_tokens_list_detail_and_confirmations(monkeypatch: pytest.MonkeyPatch) -> None:
    app = hostile_app(monkeypatch, ["tokens"])

    async def steps(pilot: Any) -> None:
        from flextui.ui.screens.tokens import TokenDetailScreen
        from flextui.ui.widgets.table import ResourceTable

        table = app.screen.query_one(ResourceTable)
        assert " ␛]52;c;" in table._cell(table.visible_rows[0], "type").plain, "the Type column is cleaned"
        await press(pilot, "enter")
        assert isinstance(app.screen, TokenDetailScreen)
        await press(pilot, "escape")
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmScreen)
        body = str(app.screen.query_one("#confirm-body").render())
        assert SHOWN in body and "This cannot be undone" in body, "the confirmation names the token, literally"
        await press(pilot, "escape")
        await press(pilot, "r")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "escape")
        await press(pilot, "s")  # the search form shows the current (hostile-free) criteria
        await press(pilot, "escape")
        await press(pilot, "e")  # the edit form, filled with the token's hostile name and description
        await press(pilot, "escape")
        assert {"TokenDetailScreen", "ConfirmScreen", "FormScreen"} <= seen(app)

    await run(app, steps)


async def test_tokens_delete_and_rotate_toasts_and_new_value(monkeypatch: pytest.MonkeyPatch) -> None:
    app = hostile_app(monkeypatch, ["tokens"])

    async def steps(pilot: Any) -> None:
        await press(pilot, "d")
        await pilot.click("#confirm")
        await settle(pilot)
        assert any(SHOWN in n.message for n in app._notifications), "the 'deleted' toast names the token, cleaned"
        await press(pilot, "r")
        await pilot.click("#confirm")
        await settle(pilot)
        await until(pilot, lambda: isinstance(app.screen, ValueScreen))
        assert app.screen.shows_secret
        await press(pilot, "escape")

    await run(app, steps)


async def test_an_untouched_hostile_field_is_saved_as_the_server_gave_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.sim.tokens import token_store
    from flextui.ui.widgets.forms import FormScreen

    app = hostile_app(monkeypatch, ["tokens"])

    async def steps(pilot: Any) -> None:
        token = app.screen.selected()
        await press(pilot, "e")
        form = app.screen
        assert isinstance(form, FormScreen)
        field = form.query_one("#field-tokenName")
        assert field.value.endswith(" ␛]52;c;SE9TVElMRQ==␇␛[2J␛]8;;http://evil.example␛\\link␛]8;;␛\\␛]0;pwned␇\ufffd31m␀" + "\ufffd" * 8)
        assert form.values()["tokenName"] == token.name, "shown cleaned, given back exact"
        form.query_one("#field-tokenDescription").value = "changed"
        await settle(pilot)
        await press(pilot, "ctrl+s")
        assert not isinstance(app.screen, FormScreen)
        store = token_store(app.ctx.extras["world"])
        names = set(store.by_name)
        assert token.name.removesuffix(SUFFIX) in names, "the name was not changed to its cleaned form"
        assert store.by_name[token.name.removesuffix(SUFFIX)].description == "changed", "the change was saved"
        assert not any("␛" in name or "\ufffd" in name for name in names)

    await run(app, steps)


@pytest.mark.unexpected_errors
async def test_error_toasts_and_status_line(monkeypatch: pytest.MonkeyPatch) -> None:
    app = hostile_app(monkeypatch, ["tokens"], fail_paths=("/tokens",))

    async def steps(pilot: Any) -> None:
        assert any("the server refuses" in n.message for n in app._notifications), "the server's error was shown"
        screen = app.screen
        screen.report_error(RuntimeError("unexpected" + PAYLOAD + BIG), doing="loading" + SUFFIX)
        screen.say("done with" + SUFFIX)
        app.notify("[/] markup" + PAYLOAD, title="title" + PAYLOAD, severity="warning")
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert any("while loading ␛]52" in said.text for said in app.said), "kept whole and cleaned for `!`"
        assert not any("\x1b" in said.text or "\u202e" in said.text for said in app.said)
        assert all(len(m) <= 4096 for m in messages), "a 100 KB message is cut"
        assert any("[/] markup␛]52" in m for m in messages), "never markup: brackets stay"

    await run(app, steps)


async def test_dialogs_clean_what_they_are_given(monkeypatch: pytest.MonkeyPatch) -> None:
    app = hostile_app(monkeypatch, ["tokens"])

    async def steps(pilot: Any) -> None:
        app.push_screen(ConfirmScreen("Delete" + SUFFIX + "?", "first line" + PAYLOAD + "\nsecond line" + BIG))
        await settle(pilot)
        await press(pilot, "escape")
        app.push_screen(ConfirmScreen("Delete?", "Token " + BIG + "\nThis cannot be undone."))
        await settle(pilot)
        assert str(app.screen.query_one("#confirm-body").render()).endswith("\nThis cannot be undone."), "a 100 KB name cannot hide it"
        await press(pilot, "escape")
        app.push_screen(MessageScreen("Title" + PAYLOAD, "body" + PAYLOAD + "\nmore"))
        await settle(pilot)
        await press(pilot, "escape")
        app.push_screen(ValueScreen("Value of" + SUFFIX, "value" + PAYLOAD + "\nline 2"))
        await settle(pilot)
        assert "value␛]52" in app.screen.query_one("TextArea").text
        await press(pilot, "escape")

    await run(app, steps)


# -- registry ----------------------------------------------------------------------------------------


async def test_registry_projects_project_members_and_downloads(monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui import kinds

    app = hostile_app(monkeypatch, ["projects"])

    async def steps(pilot: Any) -> None:
        await press(pilot, "enter")  # a project: its repositories, charts, members
        for key in ("1", "2", "3", "u", "escape", "escape"):  # u: the member field; escape leaves it, then the project
            await press(pilot, key)
        app.open_kind(kinds.get("charts"), "compass-2026-q2")
        await settle(pilot)
        for key in ("enter", "escape", "d", "escape"):  # a chart's detail, the delete confirmation
            await press(pilot, key)
        app.open_kind(kinds.get("repositories"), "compass-2026-q2")
        await settle(pilot)
        await press(pilot, "d", "escape")
        app.open_kind(kinds.get("members"), "hello-world-dp")
        await settle(pilot)
        app.open_kind(kinds.get("artifacts"), "hello-world-dp/hello-world-image")
        await settle(pilot)
        app.open_kind(kinds.get("downloads"), None)
        await settle(pilot)
        app.screen.query_one("#dl-from").value = "2020-01-01"
        for key in ("ctrl+g", "t", "t", "g", "g"):
            await press(pilot, key)
        assert {"ProjectsScreen", "ProjectScreen", "ChartDetailScreen", "ConfirmScreen", "DownloadsScreen"} <= seen(app)

    await run(app, steps)


async def test_registry_secret_revealed_refuses_screenshots(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    app = hostile_app(monkeypatch, ["secret"])

    async def steps(pilot: Any) -> None:
        await press(pilot, "v")
        assert app.secret_on_screen(), "a revealed registry secret is a secret on screen"
        assert app.deliver_screenshot(path=str(tmp_path)) is None
        assert list(tmp_path.iterdir()) == []
        await press(pilot, "v")
        assert not app.secret_on_screen()

    await run(app, steps, expect_shown=False)


# -- reports -----------------------------------------------------------------------------------------


async def test_reports_catalogue_builder_and_results(monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.ui.screens.reports.results import ReportResultsScreen

    app = hostile_app(monkeypatch, ["reports"])

    async def steps(pilot: Any) -> None:
        from flextui.ui.screens.reports.builder import ReportBuilderScreen
        from flextui.ui.widgets.table import ResourceTable

        app.screen.query_one(ResourceTable).move_cursor(row=6)  # fulfillment
        await press(pilot, "enter")
        assert isinstance(app.screen, ReportBuilderScreen)
        app.screen.query_one("#rb-past").value = "30"
        await settle(pilot)
        await press(pilot, "ctrl+g")
        await until(pilot, lambda: isinstance(app.screen, ReportResultsScreen) and app.screen.state != "loading")
        await settle(pilot)
        # frequency, statistics, per-day chart, columns, a row's detail and one of its values, a cell's value
        for key in ("F", "escape", "I", "escape", "g", "escape", "C", "escape", "enter", "v", "escape", "escape", "v", "escape"):
            await press(pilot, key)
        assert {"FrequencyScreen", "StatsScreen", "ChartScreen", "ColumnChooserScreen", "RowDetailScreen", "ValueScreen"} <= seen(app)

    await run(app, steps)


# -- copies ---------------------------------------------------------------------------------------------

_COPIED = re.compile(r"\x1b\]52;c;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)")


def copies(text: str) -> tuple[list[str], str]:
    """The texts sent to the clipboard (OSC 52, decoded), and the stream without them."""
    return [base64.b64decode(m.group(1)).decode("utf-8") for m in _COPIED.finditer(text)], _COPIED.sub("", text)


async def test_copies_hold_nothing_a_terminal_acts_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """`c`, a raw view's `c` and a report row's `Y` put into the clipboard what the screen shows, not the server's
    escapes (an OSC 52 inside a name, copied whole, would act when pasted into a terminal)."""
    from flextui.ui.screens.reports.results import ReportResultsScreen

    app = hostile_app(monkeypatch, ["tokens"])
    async with app.run_test(headless=False, size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "c", "R")
        assert isinstance(app.screen, ValueScreen)
        await press(pilot, "c", "escape")
        await command(pilot, "report fulfillment")
        app.screen.query_one("#rb-past").value = "30"
        await press(pilot, "ctrl+g")
        await until(pilot, lambda: isinstance(app.screen, ReportResultsScreen) and app.screen.state != "loading")
        await press(pilot, "down", "Y")  # (not the first row: its 100 KB value is too large for a terminal's clipboard)
        sent, rest = copies(stream(app))
    assert len(sent) == 3, f"three copies: {[text[:40] for text in sent]}"
    name, raw, row = sent
    for text in sent:
        assert raw_findings_in_data(text) == {}, f"raw control characters copied: {text[:200]!r}"
    assert SHOWN in name, "the name as the screen shows it"
    assert json.loads(raw)["tokenName"].endswith(SUFFIX), "a raw view's copy is JSON that reads back as the server sent it"
    assert any(isinstance(v, str) and v.endswith(SUFFIX) for v in json.loads(row).values()), "and so is a row's"
    assert app.last_copied == row
    assert raw_findings(rest, allow_osc=TEXTUAL_OSC) == {}


# -- entitlements, catalogue, users ---------------------------------------------------------------------


async def test_entitlements_tree_records_and_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    app = hostile_app(monkeypatch, ["entitlements"])

    async def steps(pilot: Any) -> None:
        for key in ("right", "down", "right", "down", "right", "down", "i", "escape"):
            await press(pilot, key)
        for key in ("down", "down", "right", "down", "i", "escape", "p", "escape", "e", "escape", "m", "escape"):
            await press(pilot, key)
        assert {"RecordScreen", "SectionedForm"} <= seen(app)

    await run(app, steps)


@pytest.mark.parametrize("start", [["products"], ["features"], ["suites"], ["users"], ["accounts"]])
async def test_catalogue_and_users_lists_and_records(monkeypatch: pytest.MonkeyPatch, start: list[str]) -> None:
    app = hostile_app(monkeypatch, start)

    async def steps(pilot: Any) -> None:
        for key in ("enter", "escape", "down", "enter", "escape", "right_square_bracket"):
            await press(pilot, key)
        assert "RecordScreen" in seen(app)

    await run(app, steps)


# -- screenshots -------------------------------------------------------------------------------------


async def test_no_screenshot_while_a_token_value_is_shown(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    app = hostile_app(monkeypatch, ["tokens"])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        app.push_screen(ValueScreen("Token t created: its value", "rna_secretvalue", once=True))
        await settle(pilot)
        app.action_screenshot(path=str(tmp_path))
        await settle(pilot)
        assert list(tmp_path.iterdir()) == [], "nothing written while the value is shown"
        assert any("No screenshot taken" in n.message for n in app._notifications)
        await press(pilot, "escape", "escape")  # a value shown once, not copied: the second Escape closes it
        saved = app.deliver_screenshot(path=str(tmp_path / "shots"))
        assert saved is not None
        path = Path(saved)
        assert path.parent == tmp_path / "shots" and path.suffix == ".svg"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert "rna_secretvalue" not in path.read_text("utf-8")
        await settle(pilot)
        assert any("Saved screenshot" in n.message for n in app._notifications)


async def test_the_palette_screenshot_command_is_refused_with_a_secret(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("flextui.ui.app.user_downloads_path", lambda: tmp_path)
    app = hostile_app(monkeypatch, ["tokens"])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        app.push_screen(ValueScreen("Token t created: its value", "rna_secretvalue", once=True))
        await settle(pilot)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        commands["Screenshot"].callback()
        await until(pilot, lambda: any("No screenshot taken" in n.message for n in app._notifications))
        await settle(pilot)
        assert list(tmp_path.iterdir()) == []
        assert any("No screenshot taken" in n.message for n in app._notifications)
        await press(pilot, "escape", "escape")
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        commands["Screenshot"].callback()
        await until(pilot, lambda: any(tmp_path.iterdir()))
        await settle(pilot)
        files = list(tmp_path.iterdir())
        assert len(files) == 1 and stat.S_IMODE(files[0].stat().st_mode) == 0o600


def test_an_unreadable_records_raw_json_in_a_detail_holds_no_unsafe_character() -> None:
    """The detail of a record that could not be read shows the JSON the server sent: its text is the server's."""
    from rich.text import Text

    from flextui.api.tolerant import Record, parse_record
    from flextui.render.text import UNSAFE
    from flextui.ui.screens.tabbed import TabbedListScreen

    class Thing(Record):
        name: str

    hostile = "\x1b]52;c;cm0gLXJmIH4=\x07\u202eevil\x9b31m\u2066"
    item = parse_record(Thing, {"name": ["not", "text"], "note": hostile, hostile: 1})
    shown = TabbedListScreen.with_raw(item, Text("body")).plain
    assert "As the server sent it" in shown and "evil" in shown
    assert UNSAFE.search(shown.replace("\n", "")) is None, repr(shown)  # (its own line breaks are the layout)
