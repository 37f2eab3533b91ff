"""Related jumps (`j`) and the trail: escape retraces a jump to exactly where the user was, ctrl+f repeats it.

The scripted sessions of issue 13: a report row → its activation's line item in the entitlement
tree → that line item's product in the catalogue → back twice lands on the same report row, with
its filter; a token's user → the accounts → their entitlements.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, OptionList

from flextui.api.users import Account, User
from flextui.kinds import Link
from flextui.render.reports import row_links
from flextui.ui.screens.entitlements.tree import EntitlementsScreen
from flextui.ui.screens.products import ProductsScreen
from flextui.ui.screens.reports.results import ReportResultsScreen
from flextui.ui.screens.tokens import TokensScreen
from flextui.ui.screens.users import UsersScreen
from flextui.ui.trail import Hop, Trail
from flextui.ui.widgets.dialogs import ChoiceScreen
from tests.ui.conftest import build_app, burst, command, screen_of, settle, until

ROW = {"fulfillmentID": "FID-1", "activationID": "ACT-1", "productName": "Nova", "productVersion": "2023.2", "accountID": "1068"}


def test_a_rows_links_start_with_the_cursors_column_alone() -> None:
    assert row_links(ROW, "activationID") == [
        Link("activation ACT-1: its line item in the entitlement tree", "entitlements", "activation=ACT-1")
    ]
    assert row_links(ROW, "productVersion") == [Link("product Nova@2023.2 in the catalogue", "products", "Nova@2023.2")]
    every = row_links(ROW, "fulfillmentID")
    assert [link.kind for link in every] == ["entitlements", "products", "entitlements", "users"], "a menu of the row's links"
    assert row_links({"accountId": "7", "used": 3}, None)[0].argument == "7", "usage spells it accountId"
    assert row_links({"fulfillmentID": "F"}, None) == []


def test_the_trail_goes_back_and_forward_like_a_browser() -> None:
    trail = Trail()
    first, second = (Hop("m", object(), f"place {i}", Link(f"link {i}", "tokens", None)) for i in (1, 2))
    trail.record(first)
    trail.record(second)
    assert [steps for _, steps in trail.entries()] == [-2, -1]
    assert trail.step_back() is second and trail.entries()[-1] == ("link 2", 1)
    trail.record(Hop("m", object(), "place 3", Link("link 3", "tokens", None)))
    assert not trail.forward, "a new jump forgets what was ahead"


def test_going_elsewhere_after_going_back_forgets_what_was_ahead() -> None:
    """ctrl+f after escape and then `:projects` redid the old jump from Projects (and `:history` listed it ahead)."""
    trail = Trail()
    left = object()
    trail.record(Hop("m", left, "place 1", Link("link 1", "tokens", None)))
    trail.step_back()
    trail.ahead_of(left)
    assert trail.entries() == [("link 1", 1)], "still where going back landed: ahead stays"
    assert trail.step_forward("other", object()) is None, "gone elsewhere: nothing ahead"
    assert trail.entries() == []


def test_going_forward_keeps_the_jumps_further_ahead() -> None:
    """Going forward opens the record again (a new screen): the jumps beyond it stay ahead of that screen."""
    trail = Trail()
    start, middle, end = object(), object(), object()
    first, second = Hop("m", start, "place 1", Link("link 1", "tokens", None)), Hop("m", middle, "place 2", Link("link 2", "tokens", None))
    for hop, arrived in ((first, middle), (second, end)):
        trail.record(hop)
        trail.landed(arrived)
    assert trail.step_back() is second and trail.step_back() is first
    assert trail.step_forward("m", start) is first
    again = object()
    trail.landed(again)
    assert trail.entries() == [("place 1  →  link 1", -1), ("link 2", 1)]
    assert trail.step_forward("m", again) is second and second.screen is again
    trail.went_elsewhere()
    assert [steps for _, steps in trail.entries()] == [-2, -1], "going elsewhere keeps what is behind"


async def _results(pilot: Any) -> ReportResultsScreen:
    app = pilot.app
    await settle(pilot)
    app.screen.query_one("#rb-past", Input).value = "30"
    await burst(pilot, "ctrl+g")
    await until(pilot, lambda: isinstance(app.screen, ReportResultsScreen) and app.screen.state != "loading")
    screen = app.screen
    assert isinstance(screen, ReportResultsScreen)
    return screen


async def test_report_row_to_line_item_to_product_and_back_to_the_same_row() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        results = await _results(pilot)
        results.grid.set_filter("ACTIVE")
        await settle(pilot)
        results.grid.move_cursor(row=3, column=[c.name for c in results.grid.model.visible_columns].index("activationID"))
        row = results.grid.current_row()
        assert row is not None
        activation, product = row["activationID"], row["productName"]

        await burst(pilot, "j")
        await until(pilot, lambda: isinstance(app.screen, EntitlementsScreen) and app.screen.filters.activation == activation)
        tree = app.screen
        assert isinstance(tree, EntitlementsScreen)
        await until(pilot, lambda: tree.current() is not None and tree.current().key == f"L:{activation}")

        await burst(pilot, "P")
        await until(pilot, lambda: isinstance(app.screen, ProductsScreen))
        catalogue = app.screen
        assert product in catalogue.area_title or product in str(getattr(catalogue, "initial_name", ""))

        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is tree)
        assert tree.current() is not None and tree.current().key == f"L:{activation}", "the tree as it was left"

        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is results)
        assert results.grid.current_row() == row and results.grid.model.filter_text == "ACTIVE", "the same row, the same filter"

        await burst(pilot, "ctrl+f")
        await until(pilot, lambda: isinstance(app.screen, EntitlementsScreen) and app.screen.filters.activation == activation)


async def test_a_row_naming_several_records_offers_a_menu_and_history_lists_the_trail() -> None:
    app = build_app(start=["reports", "fulfillment"])
    async with app.run_test(size=(120, 40)) as pilot:
        results = await _results(pilot)
        results.grid.move_cursor(row=0, column=0)
        await burst(pilot, "j")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await burst(pilot, "down", "enter")  # the product
        await until(pilot, lambda: isinstance(app.screen, ProductsScreen))
        await burst(pilot, "colon")
        app.screen.query_one("#commandbar", Input).value = "history"
        await burst(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await burst(pilot, "enter")
        await until(pilot, lambda: app.screen is results)


async def test_token_to_user_to_account_to_entitlements_and_all_the_way_back() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        tokens = await screen_of(pilot, TokensScreen)
        await until(pilot, lambda: tokens.selected() is not None)
        user = tokens.selected().username
        assert user

        await burst(pilot, "j")
        if isinstance(app.screen, ChoiceScreen):  # its creator too: the first choice is the user
            await burst(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, UsersScreen) and app.screen.initial_user == user)
        users = app.screen
        await until(pilot, lambda: isinstance(users.selected(), User))
        person = users.selected()
        assert isinstance(person, User) and person.user_name == user and person.accounts
        account = person.accounts[0].account_id

        await burst(pilot, "j")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        options = app.screen.query_one(OptionList)
        choices = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        await burst(pilot, *["down"] * choices.index(next(c for c in choices if c.startswith(f"account {account}"))), "enter")
        await until(
            pilot, lambda: isinstance(app.screen, UsersScreen) and app.screen is not users and isinstance(app.screen.selected(), Account)
        )
        accounts = app.screen

        await burst(pilot, "j")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await burst(pilot, "enter")  # its entitlements
        await until(pilot, lambda: isinstance(app.screen, EntitlementsScreen) and app.screen.filters.account == account)

        for place in (accounts, users, tokens):
            await burst(pilot, "escape")
            await until(pilot, lambda place=place: app.screen is place)
        assert tokens.selected() is not None and tokens.selected().username == user, "the same token under the cursor"


async def test_ctrl_f_after_going_elsewhere_redoes_no_old_jump() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        tokens = await screen_of(pilot, TokensScreen)
        await until(pilot, lambda: tokens.selected() is not None)
        await burst(pilot, "j")
        if isinstance(app.screen, ChoiceScreen):
            await burst(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, UsersScreen))
        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is tokens)
        await burst(pilot, "colon", *"products", "enter")
        products = await screen_of(pilot, ProductsScreen)
        await burst(pilot, "ctrl+f")
        await settle(pilot)
        assert app.screen is products, "no old jump redone from an unrelated place"
        assert "Nothing ahead" in [said.text for said in app.said][-1]


async def test_a_masked_user_is_no_link() -> None:
    app = build_app(as_user="customer")
    async with app.run_test(size=(120, 40)) as pilot:
        tokens = await screen_of(pilot, TokensScreen)
        await until(pilot, lambda: any(t.masked for t in tokens.tokens))
        masked = next(i for i, t in enumerate(tokens.tokens) if t.masked)
        tokens.table.move_cursor(row=masked)
        await settle(pilot)
        assert tokens.selected() is not None and tokens.selected().masked
        assert all("****" not in link.label for link in tokens.related_links()), "a masked user (****) names nobody"
        await burst(pilot, "u")
        assert tokens.query_one("#q-user", Input).value != "****"


def test_a_report_rows_user_is_a_link() -> None:
    assert row_links({"userName": "vera@x.example", "status": "A"}, "userName") == [
        Link("user vera@x.example", "users", "user=vera@x.example")
    ]


async def test_a_download_opens_its_project_and_a_member_its_user() -> None:
    from flextui.ui.screens.registry.downloads import DownloadsScreen
    from flextui.ui.screens.registry.projects import ProjectScreen
    from flextui.ui.widgets.grid import DataGrid

    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        downloads = await screen_of(pilot, DownloadsScreen)
        await burst(pilot, "ctrl+g")
        grid = downloads.query_one("#dl-grid", DataGrid)
        await until(pilot, lambda: grid.row_count > 0)
        grid.focus()
        project = grid.current_row()["project"]
        await burst(pilot, "j")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await burst(pilot, "enter")  # the project
        await until(pilot, lambda: isinstance(app.screen, ProjectScreen) and app.screen.project == project)
        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is downloads)

    app = build_app(start=["members", "hello-world-dp"])
    async with app.run_test(size=(120, 40)) as pilot:
        project_screen = await screen_of(pilot, ProjectScreen)
        await until(pilot, lambda: bool(project_screen.members))
        links = project_screen.related_links()
        assert links and links[0].kind == "users" and links[0].argument.startswith("user=")
        app.jump(links[0])
        await until(pilot, lambda: isinstance(app.screen, UsersScreen) and app.screen.initial_user == links[0].argument[5:])
        await settle(pilot)


async def test_a_download_of_two_accounts_offers_each_accounts_entitlements() -> None:
    """The log's `account` is documented as a Java list printed as text ("[test_acc1]", RESTSWContDelivDownLogs.htm):
    a user of two accounts shows both, readably, and `j` offers each one's entitlements (not "[a, b]" as one name)."""
    from flextui.ui.screens.registry.downloads import DownloadsScreen
    from flextui.ui.widgets.grid import DataGrid

    app = build_app(start=["downloads"])
    async with app.run_test(size=(120, 40)) as pilot:
        downloads = await screen_of(pilot, DownloadsScreen)
        grid = downloads.query_one("#dl-grid", DataGrid)
        await until(pilot, lambda: grid.row_count > 0 and not downloads.fetching)
        at = next(i for i, row in enumerate(grid.model.iter_view_dicts()) if ", " in (row["account"] or ""))
        grid.focus()
        grid.move_cursor(row=at)
        shown = grid.current_row()["account"]
        assert "[" not in shown and "]" not in shown, shown
        first, second = shown.split(", ")
        await burst(pilot, "j")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        options = app.screen.query_one(OptionList)
        listed = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        wanted = [f"account {first}: its entitlements", f"account {second}: its entitlements"]
        assert [text for text in listed if text.startswith("account ")] == wanted, listed
        await burst(pilot, *["down"] * listed.index(wanted[1]), "enter")
        await until(pilot, lambda: isinstance(app.screen, EntitlementsScreen))
        assert app.screen.filters.account == second
        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is downloads)
        assert grid.current_row()["account"] == shown, "back on the same row"


async def _history(pilot: Any) -> list[str]:
    """`:history` as listed (then closed again): each place, ◀ behind or ▶ ahead."""
    app = pilot.app
    behind = app.screen
    await command(pilot, "history")
    if not isinstance(app.screen, ChoiceScreen):
        return []
    options = app.screen.query_one(OptionList)
    listed = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    await burst(pilot, "escape")
    await until(pilot, lambda: app.screen is behind)
    return listed


async def _two_jumps_and_back(pilot: Any) -> tuple[TokensScreen, str]:
    """A token → its user → the entitlements of the user's account, then escape twice: back on the token, two ahead.
    The account's id, for the entitlements screen."""
    app = pilot.app
    tokens = await screen_of(pilot, TokensScreen)
    await until(pilot, lambda: tokens.selected() is not None)
    await burst(pilot, "j")
    if isinstance(app.screen, ChoiceScreen):  # its creator too: the first choice is the user
        await burst(pilot, "enter")
    await until(pilot, lambda: isinstance(app.screen, UsersScreen) and isinstance(app.screen.selected(), User))
    users = app.screen
    person = users.selected()
    assert isinstance(person, User) and person.accounts
    account = person.accounts[0].account_id
    assert account
    await burst(pilot, "j")
    await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
    options = app.screen.query_one(OptionList)
    choices = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    await burst(pilot, *["down"] * choices.index(next(c for c in choices if c.startswith(f"entitlements of {account}"))), "enter")
    await until(pilot, lambda: isinstance(app.screen, EntitlementsScreen) and app.screen.filters.account == account)
    for place in (users, tokens):
        await burst(pilot, "escape")
        await until(pilot, lambda place=place: app.screen is place)  # type: ignore[misc]
    return tokens, account


def _on_user(app: Any) -> bool:
    return isinstance(app.screen, UsersScreen) and isinstance(app.screen.selected(), User)


async def test_ctrl_f_goes_forward_along_every_jump_escape_went_back_from() -> None:
    """walk27-a item 1: after escape twice, ctrl+f opened the user and forgot the entitlements beyond it."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        tokens, account = await _two_jumps_and_back(pilot)
        token = tokens.selected()
        assert token is not None
        assert [p[:2] for p in await _history(pilot)] == ["▶ ", "▶ "], "both jumps ahead"

        await burst(pilot, "ctrl+f")
        await until(pilot, lambda: _on_user(app))
        users = app.screen
        listed = await _history(pilot)
        assert [p[:2] for p in listed] == ["◀ ", "▶ "] and listed[1].startswith(f"▶ entitlements of {account}"), listed

        await burst(pilot, "ctrl+f")
        await until(pilot, lambda: isinstance(app.screen, EntitlementsScreen) and app.screen.filters.account == account)
        assert [p[:2] for p in await _history(pilot)] == ["◀ ", "◀ "], "both jumps behind again"

        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is users)
        await burst(pilot, "escape")
        await until(pilot, lambda: app.screen is tokens)
        back_on = tokens.selected()
        assert back_on is not None and back_on.username == token.username, "the same token under the cursor"
        assert [p[:2] for p in await _history(pilot)] == ["▶ ", "▶ "]


async def test_history_goes_to_the_entry_picked_ahead_or_behind() -> None:
    """walk27-a item 1: picking the second entry ahead opened the first one and forgot the rest."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        tokens, account = await _two_jumps_and_back(pilot)
        await command(pilot, "history")
        await burst(pilot, "down", "enter")  # the second one ahead
        await until(pilot, lambda: isinstance(app.screen, EntitlementsScreen) and app.screen.filters.account == account)
        await settle(pilot)
        assert isinstance(app.screen, EntitlementsScreen) and app.screen.filters.account == account, "there, and no further"
        listed = await _history(pilot)
        assert [p[:2] for p in listed] == ["◀ ", "◀ "] and f"→  entitlements of {account}" in listed[1], listed

        await command(pilot, "history")
        await burst(pilot, "up", "enter")  # the first one behind: the token the trail began on
        await until(pilot, lambda: app.screen is tokens)
        await settle(pilot)
        assert [p[:2] for p in await _history(pilot)] == ["▶ ", "▶ "], "back where the trail began, both ahead"

        await burst(pilot, "ctrl+f", "ctrl+f")
        await until(pilot, lambda: isinstance(app.screen, EntitlementsScreen) and app.screen.filters.account == account)


async def test_going_elsewhere_keeps_the_trail_behind_and_forgets_what_is_ahead() -> None:
    """walk27-a item 5: `:history` after a `:` command lists the jumps behind (ahead is gone, as in a browser)."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        tokens, _ = await _two_jumps_and_back(pilot)
        await burst(pilot, "ctrl+f")
        await until(pilot, lambda: _on_user(app))
        assert [p[:2] for p in await _history(pilot)] == ["◀ ", "▶ "]

        await command(pilot, "projects")
        assert not isinstance(app.screen, UsersScreen)
        listed = await _history(pilot)
        assert [p[:2] for p in listed] == ["◀ "] and listed[0].startswith("◀ Access tokens"), listed
        await burst(pilot, "ctrl+f")
        await settle(pilot)
        assert "Nothing ahead" in [said.text for said in app.said][-1]

        await command(pilot, "history")
        await burst(pilot, "enter")
        await until(pilot, lambda: app.screen is tokens)
        assert [p[:2] for p in await _history(pilot)] == ["▶ "]

        await command(pilot, "tokens")  # the same place, opened with `:`: going elsewhere all the same
        assert app.screen is tokens
        await burst(pilot, "ctrl+f")
        await settle(pilot)
        assert app.screen is tokens and "Nothing ahead" in [said.text for said in app.said][-1]
        assert await _history(pilot) == []
