"""Pilot tests of the tokens area: every action, as a user drives it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Label, Select, TextArea

from flextui.sim.tokens import token_store
from flextui.sim.world import ADMIN, CUSTOMER
from flextui.ui.screens.tokens import TokenDetailScreen, TokensScreen
from flextui.ui.widgets.bars import StatusLine
from flextui.ui.widgets.dialogs import ConfirmScreen, MessageScreen, ValueScreen
from flextui.ui.widgets.forms import FormScreen
from flextui.ui.widgets.table import ResourceTable
from tests.conftest import FIXED_NOW_MS
from tests.ui.conftest import build_app, burst, raw_json_over, screen_of, settle, until, world_of


def table(app: Any) -> ResourceTable:
    return app.screen.query_one(ResourceTable)


def names(app: Any) -> list[str]:
    return [row["name"] for row in table(app).visible_rows]


def pager(app: Any) -> str:
    return str(app.screen.query_one("#pager").render())


async def fill(pilot: Any, field: str, text: str) -> None:
    widget = pilot.app.screen.query_one(f"#field-{field}")
    if isinstance(widget, Select):
        widget.value = text
    else:
        assert isinstance(widget, Input)
        widget.value = text
    await pilot.pause()


async def test_lists_tokens_of_the_signed_in_user_with_count() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TokensScreen)
        store = token_store(world_of(app))
        now = world_of(app).now_ms()
        expected = sorted(t.name for t in store.by_name.values() if t.username == ADMIN[0] and t.expiry_ms > now)
        assert names(app) == expected
        assert f"{len(expected)} tokens" in pager(app)
        assert "page 1 of 1" in pager(app)
        assert "expiring within 7 days" in pager(app)


async def test_the_expiring_count_of_one_page_of_several_says_so() -> None:
    """ "page 1 of 11 · 541 tokens · ⚠ 9 expiring" read as 9 of the 541; the 9 were this page's."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        now = world_of(app).now_ms()
        for page_size, here in ((1000, ""), (4, " on this page")):
            app.ctx.settings.page_size = page_size
            await pilot.press("ctrl+r")
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, TokensScreen)
            soon = sum(1 for t in screen.tokens if t.expires_within(now, 7))
            while not soon:  # to a page with an expiring token
                await pilot.press("right_square_bracket")
                await settle(pilot)
                soon = sum(1 for t in screen.tokens if t.expires_within(now, 7))
            # of a page of several, said as of this page ("⚠ 3 expiring within 7 days on this page", or with the
            # page's other notes: "on this page: ⚠ 3 expiring within 7 days, ⊘ 1 masked")
            assert f"⚠ {soon} expiring within 7 days" in pager(app) and ("on this page" in pager(app)) == bool(here), pager(app)


async def test_expiring_soon_is_marked_and_expired_is_hidden() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        rows = {row["name"]: row for row in table(app).visible_rows}
        soon = [n for n, r in rows.items() if "⚠" in table(app)._cell(r, "expires").plain]
        assert soon, "some of admin's tokens expire within days"
        assert all(not r["token"].expired(world_of(app).now_ms()) for r in rows.values())


async def test_masked_rows_are_marked_for_a_customer() -> None:
    app = build_app(as_user="customer")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        masked = [r for r in table(app).visible_rows if r["token"].masked]
        assert masked, "the customer sees the impersonated token made for them, masked"
        assert "⊘" in table(app)._cell(masked[0], "name").plain
        assert "masked" in pager(app)


async def test_a_token_masked_in_words_of_its_own_is_marked_and_not_offered_for_changes() -> None:
    """The docs say only "obfuscated or masked values": "cus***@…" and "<masked>" are masked too, not data."""
    from flextui.sim.dialects import speaking

    app = build_app(as_user="customer", dialects=speaking("mask-partial"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        masked = [r for r in table(app).visible_rows if r["token"].masked]
        assert masked and masked[0]["token"].username == "cus***@acme-robotics.example"
        table(app).move_cursor(row=table(app).visible_rows.index(masked[0]))
        await settle(pilot)
        screen = app.screen
        assert all(not screen.check_action(action, ()) for action in ("delete", "rotate", "edit"))


async def test_create_normal_token_shows_value_once_and_never_caches_it() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        assert isinstance(app.screen, FormScreen)
        await fill(pilot, "tokenName", "ui-created-token")
        await fill(pilot, "expiryStr", "90d")
        await pilot.click("#form-submit")
        await settle(pilot)
        assert isinstance(app.screen, ValueScreen)
        store = token_store(world_of(app))
        created = store.by_name["ui-created-token"]
        shown = app.screen.query_one("#value-text").text
        assert shown == created.value
        assert "shown once" in str(app.screen.query_one("#value-warning").render())
        cache = app.ctx.session.cache
        rows = cache._db.execute("SELECT body FROM pages").fetchall()
        assert rows and all(created.value not in body for (body,) in rows)
        await pilot.press("c")
        assert any("Copied" in str(n.message) for n in app._notifications)
        assert app.clipboard != created.value, "a token value is never kept for ctrl+y"
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, TokensScreen)
        assert "ui-created-token" in names(app)
        await pilot.press("ctrl+y")  # says why nothing is shown (not "Nothing copied yet")
        await until(pilot, lambda: any("last copy was a secret" in str(n.message) for n in app._notifications))
        assert isinstance(app.screen, TokensScreen)


async def test_create_on_a_profile_that_names_no_user_asks_for_the_user() -> None:
    """`username` is required by the strict reading (the simulator's default): a profile that names no user (a token
    only) has none to send, so the new-token form asks for it for NORMAL tokens too, and a create without it is
    refused on that field in the server's words."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.ctx.user = app.ctx.session.user = None  # as a token-only profile without `user = …`
        await burst(pilot, "f", "end", "ctrl+u", "enter")  # …which lists no one's tokens until a user is given
        await pilot.press("n")
        assert isinstance(app.screen, FormScreen)
        assert app.screen.query_one("#row-username").display, "asked for NORMAL tokens when the profile names no user"
        assert app.screen.query_one("#field-username", Input).value == "", "no user listed: none given"
        await fill(pilot, "tokenName", "no-user-profile")
        await pilot.click("#form-submit")
        await settle(pilot)
        assert isinstance(app.screen, FormScreen), "refused: the form stays open"
        assert "username is required" in str(app.screen.query_one("#hint-username").render())
        await fill(pilot, "username", ADMIN[0])
        await pilot.click("#form-submit")
        await settle(pilot)
        assert isinstance(app.screen, ValueScreen)
        sent = [x.request_body for x in app.ctx.session.trace.exchanges if x.method == "POST" and x.url.endswith("/uar/v1/token")]
        assert sent[-1]["username"] == ADMIN[0] and "no-user-profile" in token_store(world_of(app)).by_name


async def test_a_new_tokens_user_is_the_user_whose_tokens_are_listed() -> None:
    """The list filtered to a customer's tokens, `n` then IMPERSONATED: "For user (e-mail)" was empty, to be typed
    again. It is the user the list is filtered by as applied; the signed-in user's own list gives none (an
    IMPERSONATED token acts as someone else)."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await screen_of(pilot, TokensScreen)
        await pilot.press("n")
        await fill(pilot, "tokenType", "IMPERSONATED")
        assert app.screen.query_one("#field-username", Input).value == "", "my own tokens listed: no one to act as"
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot, TokensScreen)
        await burst(pilot, "f", "end", "ctrl+u", *CUSTOMER[0], "enter")
        assert screen.applied_user == CUSTOMER[0]
        await pilot.press("n")
        assert isinstance(app.screen, FormScreen)
        assert not app.screen.query_one("#row-username").display, "NORMAL: the signed-in user's, not asked"
        await fill(pilot, "tokenType", "IMPERSONATED")
        assert app.screen.query_one("#row-username").display
        assert app.screen.query_one("#field-username", Input).value == CUSTOMER[0]
        await fill(pilot, "tokenName", "support-prefilled")
        await fill(pilot, "tokenDescription", "Support case 7")
        await pilot.click("#form-submit")
        await settle(pilot)
        assert isinstance(app.screen, ValueScreen)
        token = token_store(world_of(app)).by_name["support-prefilled"]
        assert token.token_type == "IMPERSONATED" and token.username == CUSTOMER[0]


@pytest.mark.parametrize(("user", "prefilled"), [(CUSTOMER[0], CUSTOMER[0]), ("cust*", "")])
async def test_a_new_tokens_user_is_a_searchs_exact_user_not_its_pattern(user: str, prefilled: str) -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot, TokensScreen)
        await pilot.press("s")
        await fill(pilot, "username", user)
        await pilot.click("#form-submit")
        await until(pilot, lambda: app.screen is screen and screen.search is not None and screen.search.username == user)
        await pilot.press("n")
        await fill(pilot, "tokenType", "IMPERSONATED")
        assert app.screen.query_one("#field-username", Input).value == prefilled


async def test_a_new_normal_tokens_user_is_the_one_listed_when_the_profile_names_none() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await screen_of(pilot, TokensScreen)
        app.ctx.user = app.ctx.session.user = None  # as a token-only profile without `user = …`
        await burst(pilot, "f", "end", "ctrl+u", *CUSTOMER[0], "enter")
        assert screen.applied_user == CUSTOMER[0]
        await pilot.press("n")
        assert isinstance(app.screen, FormScreen)
        assert app.screen.query_one("#row-username").display and app.screen.query_one("#field-username", Input).value == CUSTOMER[0]


async def test_create_validates_inline_before_any_request() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sent = app.ctx.session.requests_sent
        await pilot.press("n")
        await fill(pilot, "tokenName", "abc")
        await fill(pilot, "expiryStr", "3w")
        hint = app.screen.query_one("#hint-tokenName")
        assert "5 to 25" in str(hint.render())
        assert "cannot read" in str(app.screen.query_one("#hint-expiryStr").render())
        await pilot.click("#form-submit")
        await settle(pilot)
        assert isinstance(app.screen, FormScreen), "the form stays open with the input kept"
        assert app.screen.query_one("#field-tokenName", Input).value == "abc"
        assert app.ctx.session.requests_sent == sent


async def submit_form(pilot: Any, key: str, **fields: str) -> None:
    """Open a form with `key`, fill `fields`, submit, and wait for what follows."""
    await settle(pilot)
    await pilot.press(key)
    for field, text in fields.items():
        await fill(pilot, field, text)
    await pilot.click("#form-submit")
    await settle(pilot)


async def submit_new_impersonated(pilot: Any, name: str) -> None:
    """`n`, `name`, type IMPERSONATED (its user field shows), submit: the form stays open with what is wrong."""
    await settle(pilot)
    await pilot.press("n")
    await fill(pilot, "tokenName", name)
    await fill(pilot, "tokenType", "IMPERSONATED")
    assert pilot.app.screen.query_one("#row-username").display
    await pilot.click("#form-submit")
    await settle(pilot)
    assert isinstance(pilot.app.screen, FormScreen)


async def test_impersonated_needs_description_and_user() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await submit_new_impersonated(pilot, "support-case-42")
        assert "description" in str(app.screen.query_one("#hint-tokenDescription").render()).lower()
        await fill(pilot, "tokenDescription", "Support case 42")
        await fill(pilot, "username", CUSTOMER[0])
        await pilot.click("#form-submit")
        await settle(pilot)
        assert isinstance(app.screen, ValueScreen)
        token = token_store(world_of(app)).by_name["support-case-42"]
        assert token.token_type == "IMPERSONATED" and token.username == CUSTOMER[0] and token.creator == ADMIN[0]


async def test_every_mistake_of_a_new_impersonated_token_is_shown_at_the_first_submit() -> None:
    """A short name, no user, no reason: three mistakes took three submits to see."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await submit_new_impersonated(pilot, "ab")
        hint = {key: str(app.screen.query_one(f"#hint-{key}").render()) for key in ("tokenName", "tokenDescription", "username")}
        assert "5 to 25" in hint["tokenName"]
        assert "description" in hint["tokenDescription"].lower() and "need" in hint["tokenDescription"]
        assert "user they are for" in hint["username"]
        assert "3 fields need fixing" in str(app.screen.query_one("#form-error").render())


async def test_server_error_is_shown_next_to_its_field() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        existing = names(app)[0]
        await pilot.press("n")
        await fill(pilot, "tokenName", existing)
        await pilot.click("#form-submit")
        await settle(pilot)
        assert isinstance(app.screen, FormScreen)
        assert "already exists" in str(app.screen.query_one("#hint-tokenName").render())
        assert app.screen.query_one("#field-tokenName", Input).value == existing


async def test_rotate_confirms_then_shows_new_value() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        name = names(app)[0]
        old = token_store(world_of(app)).by_name[name].value
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert name in str(app.screen.query_one("#confirm-title").render())
        await pilot.press("escape")
        await settle(pilot)
        assert token_store(world_of(app)).by_name[name].value == old
        await pilot.press("r")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(pilot)
        assert isinstance(app.screen, ValueScreen)
        new = token_store(world_of(app)).by_name[name].value
        assert new != old and app.screen.query_one("#value-text").text == new


async def test_delete_confirmation_names_the_token() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        name = names(app)[0]
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert name in str(app.screen.query_one("#confirm-title").render())
        assert "cannot be undone" in str(app.screen.query_one("#confirm-body").render())
        await pilot.press("enter")  # focus is on Cancel: enter must not delete
        await settle(pilot)
        assert name in token_store(world_of(app)).by_name
        await pilot.press("d")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(pilot)
        assert name not in token_store(world_of(app)).by_name
        assert name not in names(app)


async def test_deleting_a_token_leaves_the_cursor_where_it_was_on_the_next_one() -> None:
    """A reload after a delete put the cursor on the first row: on a long list, the place was lost."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        before = names(app)
        assert len(before) >= 5
        for _ in range(3):
            await pilot.press("down")
        await settle(pilot)
        assert table(app).cursor_row == 3
        await pilot.press("d")
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)
        assert names(app) == before[:3] + before[4:]
        assert table(app).cursor_row == 3 and table(app).current_row()["name"] == before[4], "the next token, in the same place"


async def test_edit_renames_and_changes_description() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        name = names(app)[0]
        await pilot.press("e")
        await pilot.pause()
        await fill(pilot, "tokenName", "renamed-token")
        await fill(pilot, "tokenDescription", "new words")
        await pilot.click("#form-submit")
        await settle(pilot)
        store = token_store(world_of(app)).by_name
        assert name not in store and store["renamed-token"].description == "new words"
        assert "renamed-token" in names(app)


async def test_tabbing_into_a_filled_field_adds_to_it_rather_than_replacing_it() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        description = app.screen.query_one("#field-tokenDescription", Input)
        before = description.value
        assert before, "a token with a description"
        await pilot.press("tab")
        await settle(pilot)
        assert app.focused is description
        await pilot.press("space", "v", "2")
        assert description.value == before + " v2"


async def test_a_field_pointed_at_as_wrong_is_fixed_not_replaced_and_a_proposal_is_replaced() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await submit_form(pilot, "n", tokenName="ab")
        name = app.screen.query_one("#field-tokenName", Input)
        assert app.focused is name
        await pilot.press("c", "d", "e")
        assert name.value == "abcde", "the wrong value is the user's own: extended"
        lifetime = app.screen.query_one("#field-expiryStr", Input)
        lifetime.focus()
        await settle(pilot)
        await pilot.press("9", "0", "d")
        assert lifetime.value == "90d", "the form's proposal (30d): replaced by what is typed"


async def test_editing_a_description_of_several_lines_keeps_its_line_breaks() -> None:
    """The field shows a newline as ⏎ and a tab as ␉; appending to it saved those pictures in their place."""
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        name = names(app)[0]
        token_store(world_of(app)).by_name[name].description = "line one\nline two\twith tab"
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        description = app.screen.query_one("#field-tokenDescription", Input)
        assert description.value == "line one⏎line two␉with tab"
        description.focus()
        await pilot.press("end", "space", "v", "2")
        await pilot.click("#form-submit")
        await settle(pilot)
        assert not isinstance(app.screen, FormScreen)
        assert token_store(world_of(app)).by_name[name].description == "line one\nline two\twith tab v2"


async def test_edit_refuses_a_lifetime_already_past() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        old_rows = [r for r in table(app).visible_rows if r["token"].issued_ms < world_of(app).now_ms() - 5 * 86_400_000]
        table(app).move_cursor(row=table(app).visible_rows.index(old_rows[0]))
        sent = app.ctx.session.requests_sent
        await pilot.press("e")
        await pilot.pause()
        await fill(pilot, "expiryStr", "1h")
        await pilot.click("#form-submit")
        await settle(pilot)
        assert isinstance(app.screen, FormScreen)
        assert "already past" in str(app.screen.query_one("#form-error").render())
        assert app.ctx.session.requests_sent == sent


async def test_verify_valid_and_invalid_values() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await submit_form(pilot, "k", value=token_store(world_of(app)).by_name[names(app)[0]].value)
        assert isinstance(app.screen, MessageScreen)
        assert "valid" in str(app.screen.query_one("#message-title").render())
        assert names(app.screen_stack[-2])[0] if False else True
        await pilot.press("escape")
        await pilot.press("k")
        await fill(pilot, "value", "rna_" + "0" * 44)
        await pilot.click("#form-submit")
        await settle(pilot)
        assert "not valid" in str(app.screen.query_one("#message-title").render())


def message(app: Any) -> tuple[str, str]:
    """The title and body of the message shown."""
    return str(app.screen.query_one("#message-title").render()), str(app.screen.query_one("#message-body").render())


async def verify_value(pilot: Any, value: str) -> None:
    """`k`, the value, ctrl+s: until the verdict shows."""
    await settle(pilot)
    await pilot.press("k")
    await until(pilot, lambda: isinstance(pilot.app.screen, FormScreen))
    pilot.app.screen.query_one("#field-value", Input).value = value
    await pilot.pause()
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(pilot.app.screen, MessageScreen))


async def test_verify_says_an_expired_token_answered_with_200_is_not_valid() -> None:
    """A 200 with the token's details and an expiry already past showed "✓ The token is valid"."""
    import json

    from flextui.sim.faults import FaultPlan

    plan = FaultPlan()
    expired = {"tokenName": "old-ci-token", "tokenType": "NORMAL", "username": ADMIN[0], "tokenExpiryMillis": FIXED_NOW_MS - 86_400_000}
    body = json.dumps({"statusMessage": "Successful", "responseObject": expired}).encode()
    fault = plan.add(r"^POST /flexnet/uar/v1/token/verification$", status=200, body=body, times=1000)
    app = build_app(faults=plan)
    async with app.run_test(size=(120, 40)) as pilot:
        await verify_value(pilot, "rna_" + "a" * 44)
        title, said = message(app)
        assert fault.hits == 1
        assert "✗ The token is not valid" in title, title
        assert said.startswith("not valid (expired 2026-11-01 10:00 UTC)"), said
        assert "old-ci-token" in said, "the token the server named"


async def test_verify_against_a_validity_flag_shows_the_servers_verdict() -> None:
    """`verify-valid-flag`: an expired value is a 200 with `valid: false`: not valid. A flag that says valid over an
    expiry already past is not a verdict either way: the message says the answer contradicts itself."""
    import json

    from flextui.sim.dialects import speaking
    from flextui.sim.faults import FaultPlan

    plan = FaultPlan()
    app = build_app(dialects=speaking("verify-valid-flag"), faults=plan)
    async with app.run_test(size=(120, 40)) as pilot:
        world = world_of(app)
        expired = next(t for t in token_store(world).by_name.values() if t.creator == ADMIN[0] and t.expiry_ms <= world.now_ms())
        await verify_value(pilot, expired.value)
        title, said = message(app)
        assert "✗ The token is not valid" in title and "valid: false" in said and expired.name in said, (title, said)
        await pilot.press("escape")

        await verify_value(pilot, world.seed_token(ADMIN[0]))
        assert "✓ The token is valid" in message(app)[0]
        await pilot.press("escape")

        lying = {"tokenName": expired.name, "tokenType": "NORMAL", "tokenExpiryMillis": expired.expiry_ms, "valid": True}
        body = json.dumps({"statusMessage": "Successful", "responseObject": lying}).encode()
        plan.add(r"^POST /flexnet/uar/v1/token/verification$", status=200, body=body, times=1000)
        await verify_value(pilot, expired.value)
        title, said = message(app)
        assert title.startswith("? Not known whether the token is valid"), title
        assert said.startswith("the answer says valid: true, but the token expired"), said


async def test_search_by_name_pattern() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await submit_form(pilot, "s", tokenName="ci-deploy*")
        shown = names(app)
        assert shown and all(n.startswith("ci-deploy") for n in shown)
        assert "search: tokenName=ci-deploy*" in pager(app)
        await pilot.press("x")
        await settle(pilot)
        assert "page 1 of" in pager(app)


async def test_page_past_the_end_of_a_search_is_refused_once_the_end_is_known() -> None:
    """`:page 5` past a search's last page showed an empty "page 5 · 0 shown" (a plain list says it is past the last)."""
    app = build_app()
    app.ctx.settings.page_size = 3
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await submit_form(pilot, "s", tokenName="*")
        screen = app.screen
        assert isinstance(screen, TokensScreen)
        while screen.ahead.more:  # `]` is offered: the page after this one exists
            before = screen.page
            await pilot.press("right_square_bracket")
            await until(pilot, lambda before=before: screen.search_shown != before and screen.ahead.more is not None)
            await settle(pilot)
        position = screen.page_position()
        assert screen.tokens and position == (screen.page + 1, screen.page + 1), "on the last page, known to be the last"
        last = position[1]
        assert screen.go_to_page(last + 2) == f"Page {last + 2} is past the last one ({last})"


async def test_a_search_page_asked_past_its_last_is_not_shown() -> None:
    """`:page 4` of a search whose last page is not known yet (70 matches at 50 a page: page 2 is known to exist) asks
    for it; found empty, it is not shown: the page shown stays, and says so. Before, it showed "page 4 · 0 shown"."""
    from tests.conftest import more_tokens

    app = build_app()
    app.ctx.settings.page_size = 50
    more_tokens(world_of(app), ADMIN[0], 60)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await submit_form(pilot, "s", username=ADMIN[0])
        screen = app.screen
        assert isinstance(screen, TokensScreen)
        first = names(app)
        assert len(first) == 50 and screen.page_position() == (1, None) and "] for more" in pager(app), pager(app)
        assert screen.go_to_page(4) is None
        await settle(pilot)
        assert screen.page == 0 and names(app) == first and "page 1 · 50 shown · ] for more" in pager(app), pager(app)
        assert any("Page 4 is past the last page of this search" in str(n.message) for n in app._notifications)
        assert screen.go_to_page(2) is None
        await settle(pilot)
        assert screen.page_position() == (2, 2) and len(names(app)) == 20, pager(app)
        assert screen.go_to_page(3) == "Page 3 is past the last one (2)"


async def test_filter_and_inverse_filter() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        everything = names(app)
        first = everything[0]
        await pilot.press("slash")
        await pilot.press(*first)
        await pilot.pause()
        assert names(app) == [first]
        bar = app.screen.query_one("#filterbar", Input)
        bar.value = "!" + first
        await pilot.pause()
        assert first not in names(app) and len(names(app)) == len(everything) - 1
        await pilot.press("escape")
        await pilot.pause()
        assert names(app) == everything


async def test_read_only_hides_and_refuses_changes() -> None:
    app = build_app(read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "READ-ONLY" in str(app.screen.query_one("#tb-ro").render())
        before = dict(token_store(world_of(app)).by_name)
        for key in ("n", "r", "e", "d"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, TokensScreen), key
        assert token_store(world_of(app)).by_name.keys() == before.keys()
        said = [n.message for n in app._notifications]
        assert "This profile is read-only: delete is off" in said and "This profile is read-only: new is off" in said, said
        bindings = {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}
        assert not {"create", "rotate", "edit", "delete"} & bindings

        app.clear_notifications()
        await pilot.press("enter")  # the detail: its change keys say why too (they said nothing)
        await until(pilot, lambda: isinstance(app.screen, TokenDetailScreen))
        assert "r rotate" not in str(app.screen.query_one("#detail-hint").render())
        await pilot.press("d")
        await until(pilot, lambda: "This profile is read-only: delete is off" in [n.message for n in app._notifications])
        assert isinstance(app.screen, TokenDetailScreen) and token_store(world_of(app)).by_name.keys() == before.keys()


async def test_detail_view_and_its_actions() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        name = names(app)[0]
        table(app).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TokenDetailScreen)
        body = str(app.screen.query_one("#detail-body").render())
        assert name in body and "Expires" in body
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)


async def test_server_strings_never_parsed_as_markup() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        store = token_store(world_of(app))
        token = store.by_name[names(app)[0]]
        token.description = "[/] \x1b[2J [bold]x[/bold]"
        app.screen.action_reload_fresh()
        await settle(pilot)
        row = next(r for r in table(app).visible_rows if r["name"] == token.name)
        assert table(app)._cell(row, "description").plain == "[/] ␛[2J [bold]x[/bold]"
        text = app.export_screenshot()
        assert "\x1b[2J" not in text


async def test_network_fault_is_reported_not_fatal() -> None:
    from flextui.sim.faults import FaultPlan

    app = build_app()
    plan = FaultPlan()
    app.ctx.extras["sim_app"].plan = plan
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plan.add(r"GET /flexnet/uar/v1/tokens", drop=True, times=10)
        app.screen.action_reload_fresh()
        await settle(pilot)
        assert app.is_running
        assert "cannot reach" in str(app.screen.query_one(StatusLine).error)
        assert "✗ not refreshed · ctrl+r tries again" in pager(app), "the rows shown are older than asked"


async def test_a_first_load_that_fails_says_so_where_the_list_would_be() -> None:
    """A token list that could not be loaded (a closed port, a wrong password) left a blank pager over an empty table:
    once the toast had gone it read as "no tokens"."""
    from flextui.sim.faults import FaultPlan

    app = build_app()
    plan = FaultPlan()
    plan.add(r"GET /flexnet/uar/v1/tokens", drop=True, times=10)
    app.ctx.extras["sim_app"].plan = plan
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "✗ not loaded · ctrl+r tries again · ! shows why" in pager(app))
        assert names(app) == []


async def test_paging_with_brackets() -> None:
    app = build_app()
    app.ctx.settings.page_size = 3
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first = names(app)
        assert len(first) == 3 and "page 1 of" in pager(app)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "page 2 of" in pager(app) and names(app) != first
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert names(app) == first


async def test_a_retry_after_is_counted_down_and_escape_stops_waiting() -> None:
    """A server asking to wait (429 + Retry-After) is shown as a countdown; escape gives the wait up, and nothing more is sent."""
    import asyncio

    from flextui.sim.faults import FaultPlan

    app = build_app()
    plan = FaultPlan()
    app.ctx.extras["sim_app"].plan = plan
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plan.add(r"GET /flexnet/uar/v1/tokens$", status=429, retry_after=20, times=5)
        app.screen.action_reload_fresh()
        status = app.screen.query_one(StatusLine)
        for _ in range(200):  # until the first answer has come and the wait begun (a condition, not a fixed pause)
            if status.waiting:
                break
            await asyncio.sleep(0.02)
        assert status.waiting
        text = str(status.query_one("#st-activity").render())
        assert "server busy (429): retrying in" in text and "escape cancels" in text
        seen = len(plan.seen)
        await pilot.press("escape")
        await settle(pilot)
        assert not status.waiting and app.is_running
        assert any("Stopped waiting" in str(n.message) for n in app._notifications)
        assert len(plan.seen) == seen, "the retry was not sent"
        assert isinstance(app.screen, type(app.screen)) and app.screen.query_one(StatusLine) is status, "escape did not leave the screen"


async def test_a_masked_token_offers_no_change_the_caller_cannot_make() -> None:
    """A customer sees some tokens masked (they may not view them, so may not change them): no rotate, edit or delete."""
    from flextui.ui.widgets.dialogs import ConfirmScreen

    app = build_app(as_user="customer")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        rows = table(app).visible_rows
        masked = [i for i, r in enumerate(rows) if r["token"].masked]
        plain = [i for i, r in enumerate(rows) if not r["token"].masked]
        assert masked and plain, "the customer's list holds both"
        table(app).move_cursor(row=masked[0])
        await settle(pilot)
        for action in ("rotate", "edit", "delete"):
            assert app.screen.check_action(action, ()) is False, action
        offered = {b.binding.action for b in app.screen.active_bindings.values() if b.binding.show}
        assert not offered & {"rotate", "edit", "delete"}, offered
        await pilot.press("d")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen), "nothing to confirm: the delete is not offered"
        table(app).move_cursor(row=plain[0])
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen), "their own token can be deleted"


async def test_a_shown_once_value_copied_by_selecting_it_is_not_kept_and_closes_at_once() -> None:
    """Selected and copied with ctrl+c, the token value was kept for ctrl+y and the dialog still said "Not copied"."""
    app = build_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await fill(pilot, "tokenName", "selected-copy")
        await pilot.click("#form-submit")
        await until(pilot, lambda: isinstance(app.screen, ValueScreen))
        value = token_store(world_of(app)).by_name["selected-copy"].value
        area = app.screen.query_one("#value-text", TextArea)
        area.focus()
        area.select_all()
        await pilot.press("ctrl+c")
        await until(pilot, lambda: any("Copied" in str(n.message) for n in app._notifications))
        assert app.clipboard != value, "a token value is never kept for ctrl+y"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TokensScreen))


def holds_no_token(app: Any) -> None:
    """The screen shows no listing: no token held, no row, nothing selected, no change offered, and what to do said."""
    screen = app.screen
    assert isinstance(screen, TokensScreen)
    assert screen.tokens == [] and table(app).visible_rows == [] and screen.selected() is None
    for action in ("rotate", "edit", "delete"):
        assert screen.check_action(action, ()) is False, action
    offered = {b.binding.action for b in screen.active_bindings.values() if b.binding.show}
    assert not offered & {"rotate", "edit", "delete"}, offered
    assert "Give a user or a creator" in pager(app)
    age = screen.status.query_one("#st-age", Label)
    assert not age.display and "fresh" not in str(age.render()), 'no listing, so no age: not "fresh"'


async def test_no_user_and_no_creator_leaves_no_token_on_screen() -> None:
    """Clearing the User field (or leaving a search with it empty) kept the last listing's rows, and d deleted one of them."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert names(app)
        user = app.screen.query_one("#q-user", Input)
        user.focus()
        user.value = ""
        await pilot.press("enter")
        await settle(pilot)
        holds_no_token(app)
        await submit_form(pilot, "s", tokenName="*")
        assert names(app), "the search shows every user's tokens"
        await pilot.press("x")
        await settle(pilot)
        holds_no_token(app)
        before = dict(token_store(world_of(app)).by_name)
        await pilot.press("d")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen), "no token to delete"
        assert "No token here to delete" in [n.message for n in app._notifications]
        assert token_store(world_of(app)).by_name.keys() == before.keys()


async def test_f_goes_to_the_first_filter_field() -> None:
    """The README's `f` (to the filter fields) did nothing here, though the screen filters by user and creator."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.focused is table(app)
        assert any(b.binding.id == "tokens.filters" for b in app.screen.active_bindings.values()), "listed by `?`, remappable"
        await pilot.press("f")
        await settle(pilot)
        assert app.screen.focused is app.screen.query_one("#q-user", Input)


async def test_r_in_the_detail_shows_the_tokens_raw_json() -> None:
    """R did nothing in the detail dialog, though it shows a record everywhere else."""
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        token = app.screen.selected()
        await pilot.press("enter")
        await settle(pilot)
        assert (await raw_json_over(pilot, TokenDetailScreen))["tokenName"] == token.name


async def test_the_token_dialogs_hint_names_its_keys_as_bound() -> None:
    """The detail dialog's hint was typed by hand: after `[keys]` moved rotate it still said `r rotate`."""
    app = build_app(keys={"token_detail.rotate": "t"})
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        dialog = await screen_of(pilot, TokenDetailScreen)
        said = str(dialog.query_one("#detail-hint", Label).render())
        assert said.startswith("t rotate · e edit · d delete · c copy name") and "r rotate" not in said, said


async def test_u_says_in_words_what_pressing_it_again_shows() -> None:
    """u: the tokens of the user under the cursor; the toast says what u shows next, not "(u again: of)"."""
    app = build_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        # (the list starts on the signed-in user's tokens: u on one of them goes to those the user created)
        assert f"Tokens created by {ADMIN[0]}; u again shows the tokens of {ADMIN[0]}" in said, said
        app.clear_notifications()
        await pilot.press("u")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert f"Tokens of {ADMIN[0]}; u again shows the tokens created by {ADMIN[0]}" in said, said
        assert not any("u again:" in text for text in said)
