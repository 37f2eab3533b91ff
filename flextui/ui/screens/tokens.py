"""The access-token area: list by user/creator with counts, search, detail, and every action.

The list asks `/tokens/count` for the total so the pager can say "page 3 of
12", counted in pages of the size the server answers (`Page.size`: it may cap
or ignore the size asked for, `Listing.page`); pages come from the cache
first (with their age) and then fresh. A search has no count: each of its
pages is settled by the page after it, asked ahead (`TokensService.search_page`),
so `]` is offered only where a next page exists ("more may follow" until that
is known; a `]` pressed meanwhile waits for it: `pages_ahead.Ahead`, as the
registry's lists keep it), and the search's pages are the server's too (its own size, a cap, or all on one page). Rows
expiring within `settings.expiring_days` are marked ⚠, masked rows (values
the caller may not see) are dimmed and marked. New token values are shown
once, in a modal that copies them, and are then dropped: they are never
stored, cached or logged.

The list is listed by its User and Creator fields as applied (enter there,
`u`), as every list is by its filter fields (`AreaScreen.applied_text`, read
here as `applied_user` and `applied_creator`): every request reads those,
never the fields, and the fields show them again when the keys leave them
without enter. `u` on a search's row opens that user's tokens over the
search as a related jump, so escape comes back to the search.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label, Static
from textual.worker import Worker

from flextui import kinds
from flextui.api.intervals import IntervalError, parse_interval
from flextui.api.paging import Page, pages_of, served_notes
from flextui.api.tokens import Token, TokenCreate, TokenSearch, TokensService, TokenUpdate, is_masked
from flextui.kinds import Link
from flextui.render.text import absolute, clean, relative
from flextui.render.words import plural
from flextui.ui.appref import flex_app
from flextui.ui.hidden_keys import RefusedChoices
from flextui.ui.keyhint import bound_key
from flextui.ui.keyhint import hint as keyhint
from flextui.ui.keys import FlexModal
from flextui.ui.later import after_refresh
from flextui.ui.screens.base import NOT_LOADED, NOT_REFRESHED, AreaScreen, filters_key, on_this_page, sorted_here
from flextui.ui.screens.everypage import EveryPageSearch
from flextui.ui.screens.pages_ahead import Ahead
from flextui.ui.widgets.table import ResourceTable

TYPE_OPTIONS = [("NORMAL: for yourself", "NORMAL"), ("IMPERSONATED: for another user", "IMPERSONATED")]
LIFETIME_HINT = "e.g. 30d, 6M, 1y2M3d, 12h (y M d h m; M = months, m = minutes)"


def theme_style(app: Any, name: str, extra: str = "") -> str:
    color = getattr(app.current_theme, name, None) or ""
    return f"{extra} {color}".strip()


class TokensScreen(EveryPageSearch, AreaScreen):
    """List, search and act on access tokens (`/` filters the page; enter there searches every page)."""

    KIND = "tokens"
    NOUN = "token"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {
        "create": "create",
        "rotate": "rotate",
        "edit": "update",
        "delete": "delete",
    }

    BINDINGS = [
        # The footer shows the first ones that fit (keys.KeyFooter); `?` lists them all.
        Binding("x", "list_mode", "List", id="tokens.list"),  # only while a search is shown (check_action); first, the way back
        Binding("n", "create", "New", id="tokens.create"),
        Binding("e", "edit", "Edit", id="tokens.edit"),
        Binding("d,delete", "delete", "Delete", id="tokens.delete"),
        Binding("r", "rotate", "Rotate", id="tokens.rotate"),
        Binding("s", "search", "Search", id="tokens.search"),
        Binding("k", "verify", "Verify", id="tokens.verify"),
        filters_key("tokens"),  # to the User field
        Binding("c", "copy_name", "Copy name", show=False, id="tokens.copy"),
        Binding("u", "user_tokens", "This user's tokens", show=False, id="tokens.user"),
        Binding("right_square_bracket", "page(1)", "Next page", show=False, id="tokens.next_page"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, id="tokens.prev_page"),
        Binding("ctrl+r", "reload", "Refresh from the server", show=False, id="tokens.reload"),
    ]

    def __init__(self, user: str | None = None, creator: str | None = None) -> None:
        """`user`, `creator`: the listing to open on (`u` on a search's row opens one, as `:tokens user=NAME` does);
        neither: the signed-in user's tokens."""
        super().__init__()
        self.opened_on = (user, creator) if user or creator else None
        self.page = 0
        self.total: int | None = None
        self.search: TokenSearch | None = None
        self.tokens: list[Token] = []
        self.served: int | None = None
        """The page size the server answers the list with (`Page.size`; it may cap or ignore the size asked for):
        the list's pages are counted by it."""
        self.whole = False
        """The server answered the list or search whole (`Page.whole`): it is the one page."""
        self.search_shown = 0
        """The search page whose rows are shown (`self.page` is the one asked for)."""
        self.ahead = Ahead(first=0)
        """What is known of the search's pages after the one shown (a search has no count; the list has its total)."""
        self._loading: Worker[Any] | None = None  # the worker loading a page

    @classmethod
    def for_kind(cls, kind: kinds.Kind | None, argument: str | None) -> TokensScreen:
        """`:tokens user=NAME` or `:tokens creator=NAME` (`u` on a search's row opens it, as a related jump); anything
        else: the signed-in user's tokens."""
        key, sep, value = (argument or "").partition("=")
        key, value = key.strip().lower(), value.strip()
        if sep and value and key in ("user", "username"):
            return cls(user=value)
        if sep and value and key in ("creator", "tokencreator"):
            return cls(creator=value)
        return cls()

    @property
    def service(self) -> TokensService:
        return TokensService(self.ctx.session)

    @property
    def page_size(self) -> int:
        """The page size asked for (the server may answer another: `served_size`)."""
        return self.ctx.settings.page_size

    @property
    def served_size(self) -> int:
        """The size of the pages shown as the server answers them (until it has answered: the size asked for)."""
        return self.served or self.page_size

    def list_pages(self) -> int | None:
        """How many pages the list (not a search) has as the server pages it; None before its total is known."""
        if self.whole:
            return 1
        return pages_of(self.total, self.served_size) if self.total is not None else None

    @property
    def applied_user(self) -> str | None:
        """The user the list is listed by: the User field as last applied (enter in the fields, `u`), not as typed since.
        Every request of the list reads these (a page, ctrl+r, a watch, a refresh after a change, a search of every
        page), never the fields: text typed there without enter is no filter."""
        return self.applied_text(self._boxes()[0]).strip() or None

    @property
    def applied_creator(self) -> str | None:
        """The creator the list is listed by (see `applied_user`)."""
        return self.applied_text(self._boxes()[1]).strip() or None

    def compose_body(self) -> ComposeResult:
        user, creator = self.opened_on or (self.ctx.user or None, None)
        with Horizontal(classes="toolbar"):
            yield Label("User")
            yield Input(value=user or "", placeholder="user e-mail", id="q-user", compact=True)
            yield Label("Creator")
            yield Input(value=creator or "", placeholder="creator e-mail", id="q-creator", compact=True)
        yield Label("", id="pager", classes="pager")
        table = ResourceTable(self.kind.columns, cell=self._cell, id="tokens-table")
        table.row_style = self._row_style
        yield table

    def on_mount(self) -> None:
        if self.opened_on is not None:  # once laid out (the signed-in user's e-mail, the usual start, is left as it is)
            after_refresh(self, self._show_starts)  # (not once the screen is gone: its fields are too)
        self.query_one(ResourceTable).focus()
        self.load_page()

    # -- loading ---------------------------------------------------------------------------

    def load_page(self) -> None:
        """Show the current page: the cached one at once when there is one (asked again only once it is stale)."""
        self.refresh_bindings()  # `x` shows while a search is shown
        self._loading = self.run_api(self._load, group="tokens-load", doing="loading tokens", failed=self._load_failed)

    def _load_failed(self, exc: BaseException) -> None:
        """Where the list would be, say it is not (the toast goes by; an empty table read as "no tokens")."""
        self.ahead.wanted = 0  # a `]` waiting to know whether a next page exists: it will not be known
        pager = self.query_one("#pager", Label)
        if self.total is None and not self.tokens:
            pager.update(Text(NOT_LOADED))
        else:
            self._update_pager()
            pager.update(Text(f"{str(pager.render()).strip()} · {NOT_REFRESHED}"))

    def action_reload(self) -> None:
        """ctrl+r: ask the server, whatever the cache holds (within its freshness window it would not be asked)."""
        self.forget_every()
        self.action_reload_fresh()

    @property
    def table(self) -> ResourceTable:  # type: ignore[override]
        return self.query_one(ResourceTable)

    def page_items(self) -> list[Any]:
        return self.tokens

    def many_pages(self) -> bool:
        if self.search is not None:
            return not self.whole and (self.page > 0 or self.ahead.more is not False)
        return self.total is not None and self.total > len(self.tokens)

    def every_pager(self, force: bool) -> Any:
        if self.search is not None:
            return self.service.search_all(self.search)
        return self.service.iterate(self.applied_user, self.applied_creator, force=force)

    async def _load(self, *, force: bool = False) -> None:
        """Show the current page: cached first, then fresh; `force` shows only the fresh answer. The list is the
        applied user's and creator's (`applied_user`), whatever the fields hold now."""
        user, creator = self.applied_user, self.applied_creator
        if self.search is not None:
            pages = self.service.search_page(self.search, self.page, self.page_size, force=force)
        else:
            if not (user or creator):
                self._show_nothing()
                return
            pages = self.service.list_page(user, creator, self.page, self.page_size, force=force)
        async for page in pages:
            if (not force or page.age is None) and not self._show(page):
                return

    def _show(self, page: Page[Token]) -> bool:
        """Show `page`; False when it is not shown: an empty search page past the one shown (`_past_the_last`)."""
        if self.search is not None and not page.items and self.page > self.search_shown:
            self._past_the_last()
            return False
        self.tokens = page.items
        self.total = page.total
        self.served, self.whole = page.size, page.whole
        if page.whole:
            self.page = 0  # every page is the whole list: that is the one page
        if self.search is not None:
            self.search_shown = self.page
            if self.ahead.settled(self.page, page.more):
                self.call_later(self._take_wanted)
        if not self.every_mode:  # the table holds an all-pages search: the page waits until it is left
            self.query_one(ResourceTable).set_rows([self._row(t) for t in page.items])
        self.show_age(page.age)
        self._update_pager()
        self.refresh_bindings()  # rows or none: the footer offers what the row under the cursor (if any) allows
        return True

    def _take_wanted(self) -> None:
        """The `]`s pressed while it was not known whether a next search page exists: one page on, now that it is known
        (the rest wait for that page's answer), or none when this is the last."""
        if self.search is not None and self.ahead.take_wanted():
            self.action_page(1)

    def _past_the_last(self) -> None:
        """A search page asked for (`:page N` past the pages known to exist, or one the search has since lost) is empty:
        the page shown stays, and the pager says which pages exist."""
        asked, self.page = self.page, self.search_shown
        self.ahead.came_back_empty(asked, self.search_shown)
        self.say(f"Page {asked + 1} is past the last page of this search")
        self._update_pager()

    def _show_nothing(self) -> None:
        """No user, no creator, no search: no listing, so nothing of the last one stays to be acted on.

        Else the last listing's rows (other users' tokens, after a search) stay under "Give a user…", with Edit, Delete
        and Rotate still offered on them: a delete there hits a token nobody meant to pick.
        """
        self.tokens = []
        self.total = None
        self.query_one(ResourceTable).set_rows([], keep_cursor=False)
        self.query_one("#pager", Label).update("Give a user or a creator (or both), then press enter.")
        self.show_no_data()
        self.refresh_bindings()

    def _update_pager(self) -> None:
        every = self.every_note()
        if every is not None:
            self.query_one("#pager", Label).update(Text(clean(every)))
            return
        now = self.ctx.now_ms()
        days = self.ctx.settings.expiring_days
        soon = sum(1 for t in self.tokens if t.expires_within(now, days))
        masked = sum(1 for t in self.tokens if t.masked)
        if self.search is not None:
            last = self.ahead.last
            parts = [
                f"search: {self._search_text()}",
                f"page {self.page + 1}" + (f" of {last}" if last else ""),
                f"{len(self.tokens)} shown",
            ]
            parts += served_notes(self.whole, self.served, self.page_size, None)
            if not self.whole:
                parts += self.ahead.notes(self.page)
            one_page = self.whole or last == 1
        else:
            total = self.total or 0
            pages = self.list_pages() or 1
            parts = [f"page {self.page + 1} of {pages}", plural(total, "token")]
            parts += served_notes(self.whole, self.served, self.page_size, self.total)
            one_page = pages == 1
        table = self.query_one(ResourceTable)
        here = sorted_here(table, not one_page)
        if soon:
            here.append(f"⚠ {soon} expiring within {days:g} days")
        if masked:
            here.append(f"⊘ {masked} masked")
        if here:  # the rows shown: of a page of several, not to be read as of the total beside them
            parts += here if one_page else [on_this_page(here)]
        if table.filter_text:
            parts.append(f"filter {table.filter_text!r}: {plural(len(table.visible_rows), 'row')}")
            if self.many_pages():
                parts.append(self.page_filter_note())
        self.query_one("#pager", Label).update(Text(clean(" · ".join(parts))))

    def rows_sorted(self, table: ResourceTable) -> None:
        self._update_pager()

    def _search_text(self) -> str:
        assert self.search is not None
        data = self.search.model_dump(by_alias=True, exclude_none=True, mode="json")
        return ", ".join(f"{k}={v}" for k, v in data.items())

    # -- rows ------------------------------------------------------------------------------

    def _row(self, token: Token) -> dict[str, Any]:
        # the moments as values, so `:sort expires` orders by time, not by the "in 2d" shown
        return {"name": token.name, "token": token, "expires": token.expires, "issued": token.issued}

    def _cell(self, row: dict[str, Any], key: str) -> Text:
        token: Token = row["token"]
        now = self.ctx.now_ms()
        if key == "name":
            text = Text(clean(token.name))
            if token.masked:
                text.append(" ⊘")
            return text
        if key == "type":
            return Text(token.token_type)
        if key == "expires":
            if token.expires_ms is None:
                return Text("")
            label = f"{relative(token.expires_ms, now)} · {absolute(token.expires_ms)}"
            if token.expired(now):
                return Text("expired · " + absolute(token.expires_ms), style=theme_style(self.app, "error"))
            if token.expires_within(now, self.ctx.settings.expiring_days):
                return Text("⚠ " + label, style=theme_style(self.app, "warning", "bold"))
            return Text(label)
        if key == "issued":
            return Text(absolute(token.issued_ms))
        value = {"username": token.username, "creator": token.creator, "description": token.description}.get(key)
        return Text(clean(value or ""), no_wrap=True, overflow="ellipsis")

    def _row_style(self, row: dict[str, Any]) -> str:
        return "dim italic" if row["token"].masked else ""

    def related_links(self) -> list[Link]:
        """j: the token's user (and its creator, when another) in the users area."""
        token = self.selected()
        if token is None:
            return []
        people = dict.fromkeys(
            p for p in (token.username, token.creator) if p and not is_masked(p, partly=True)
        )  # "****": hidden from this user
        return [Link(f"user {person}", "users", f"user={person}") for person in people]

    def raw_record(self) -> Any | None:
        return self.selected()

    def selected(self) -> Token | None:
        row = self.query_one(ResourceTable).current_row()
        return row["token"] if row else None

    def apply_filter(self, text: str) -> None:
        if not self.every_filter(text):
            self.query_one(ResourceTable).set_filter(text)
        self._update_pager()

    # -- query bar ---------------------------------------------------------------------------

    def action_user_tokens(self) -> None:
        """u: the tokens of the user under the cursor; again on the same user: the tokens that user created.

        On a search's row it opens them over the search, as a related jump (`j`) does: escape comes back to the search
        as it was (its criteria, page, rows and cursor), ctrl+f goes forward again. The search has no field to be
        typed again from; the list has its User field, so there `u` lists in place."""
        token = self.selected()
        people = [p for p in ((token.username, token.creator) if token is not None else ()) if p and not is_masked(p, partly=True)]
        if not people:
            masked = token is not None and token.masked
            self.app.notify(
                "This token's user is masked (not yours to see)" if masked else "No token with a user under the cursor", markup=False
            )
            return
        person = people[0]
        if self.search is not None:
            flex_app(self).jump(Link(f"tokens of {person}", "tokens", f"user={person}"))
            self.app.notify(
                f"Tokens of {clean(person)}; u again shows the tokens created by {clean(person)} · escape: back to the search",
                markup=False,
            )
            return
        if self.applied_user == person and not self.applied_creator:
            user, creator, role = None, person, "created by"
        else:
            user, creator, role = person, None, "of"
        self._apply(user, creator)
        other = "the tokens created by" if role == "of" else "the tokens of"
        self.app.notify(f"Tokens {role} {clean(person)}; u again shows {other} {clean(person)}", markup=False)
        self._relist()

    def _boxes(self) -> tuple[Input, Input]:
        return self.query_one("#q-user", Input), self.query_one("#q-creator", Input)

    def _apply(self, user: str | None, creator: str | None) -> None:
        """List by `user` and `creator` from now on (`applied_user`), the fields showing them."""
        user_box, creator_box = self._boxes()
        self.set_filter_text(user_box, user or "")
        self.set_filter_text(creator_box, creator or "")
        self._show_starts()

    def _show_starts(self, *, leaving: bool = False) -> None:
        """A field not being typed in shows its value from the start: a long e-mail set by `u` showed its end, and
        `ben.abara@…` read as `en.abara@…`. `leaving`: the keys are leaving the fields (enter), that one too."""
        for box in self._boxes():
            if leaving or not box.has_focus:
                box.cursor_position = 0

    def filters_entered(self, field: Widget) -> bool:
        """Enter in the User or Creator field: both fields, as typed, are what the list is listed by (AreaScreen
        applied them)."""
        self._relist()
        self.query_one(ResourceTable).focus()
        self._show_starts(leaving=True)
        return True

    def _relist(self) -> None:
        """Another user or creator: another listing, from its first page."""
        self.leave_every()
        self.every = None  # another user or creator: another listing
        self._another(None)

    def _another(self, search: TokenSearch | None) -> None:
        """Another listing (the list, or a search), from its first page: nothing known of its pages yet."""
        self.search = search
        self.ahead.reset()
        self.served, self.whole = None, False
        self.page = self.search_shown = 0
        self.load_page()

    def action_list_mode(self) -> None:
        self.leave_every()
        self.every = None
        if self.search is not None:
            self._another(None)

    def page_position(self) -> tuple[int, int | None] | None:
        """(this page, the last page or None when unknown), counted from 1 (`:page N`)."""
        if self.search is not None:
            return self.page + 1, self.ahead.last  # known once a page has said none follows it
        return self.page + 1, self.list_pages()

    def action_page(self, delta: int) -> None:
        self.leave_every()
        target = self.page + delta
        if target < 0:
            return
        last = self.list_pages()
        if self.search is None and last is not None and target >= last:
            return
        if self.search is not None and delta > 0 and not self._search_may_turn(delta):
            return
        self.page = target
        self.load_page()

    def _search_may_turn(self, delta: int) -> bool:
        """Whether the search page `delta` on may be opened: not past the last page, once known. While it is not known
        whether a page follows the one asked for, the `]` waits for the answer (`Ahead.waits`)."""
        if self.whole or self.ahead.beyond(self.page + delta):
            return False
        loading = self._loading is not None and not self._loading.is_finished
        if self.ahead.waits(delta, loading=loading, page=self.page, shown=self.search_shown):
            self._update_pager()
            return False
        return True

    @on(DataTable.RowSelected, "#tokens-table")
    def _open(self, event: DataTable.RowSelected) -> None:
        token = self.selected()
        if token is not None:
            refused = {action: why for action in ("rotate", "edit", "delete") if (why := self.why_not(action, action))}
            self.app.push_screen(TokenDetailScreen(token, self.ctx.now_ms(), refused), self._after_detail)

    def _may_change(self, token: Token | None) -> bool:
        """Whether rotate, edit and delete can work on `token`: not on a read-only profile, not on a masked token.

        The server masks a token the caller may not view ("its details may be
        returned as masked entries": TokenBasedAuthManTokensList.htm), and such a
        caller may not change it either, so those actions are not offered.
        """
        return token is not None and not self.ctx.read_only and not token.masked

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "list_mode":
            return self.search is not None
        if action in ("rotate", "edit", "delete") and self.is_mounted and not self._may_change(self.selected()):
            return False  # no token under the cursor, or one this caller may not change
        return super().check_action(action, parameters)

    def why_not(self, action: str, description: str) -> str | None:
        if action in ("rotate", "edit", "delete") and self.is_mounted and not self.ctx.read_only:
            token = self.selected()
            if token is None:
                return f"No token here to {action}"
            if token.masked:
                return f"This token is masked (not yours to see): you may not {action} it"
        return super().why_not(action, description)

    @on(DataTable.RowHighlighted, "#tokens-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.refresh_bindings()  # the footer offers what the token under the cursor allows

    def _after_detail(self, action: str | None) -> None:
        if action:
            self.call_later(self.run_action, action)

    # -- actions ----------------------------------------------------------------------------

    def action_search(self) -> None:
        from flextui.ui.widgets.forms import FieldSpec, FormScreen  # the forms load when first opened

        current = self.search
        fields = [
            FieldSpec("tokenName", "Name (* matches anything)", value=(current.name if current else "") or "", errors=("name",)),
            FieldSpec(
                "tokenType",
                "Type",
                kind="select",
                options=[("Any", ""), ("NORMAL", "NORMAL"), ("IMPERSONATED", "IMPERSONATED")],
                value=(current.token_type.value if current and current.token_type else ""),
                errors=("token_type",),
            ),
            FieldSpec("username", "User", value=(current.username if current else "") or ""),
            FieldSpec("tokenCreator", "Creator", value=(current.creator if current else "") or "", errors=("creator",)),
            FieldSpec(
                "expiresBefore",
                "Expires before (from now)",
                placeholder="e.g. 30d",
                hint=LIFETIME_HINT,
                value=(current.expires_before if current else "") or "",
                errors=("expires_before",),
            ),
            FieldSpec(
                "expiresLaterThan",
                "Expires after (from now)",
                placeholder="e.g. 1d",
                value=(current.expires_later_than if current else "") or "",
                errors=("expires_later_than",),
            ),
            FieldSpec(
                "issuedBefore",
                "Issued before (ago)",
                placeholder="e.g. 90d",
                value=(current.issued_before if current else "") or "",
                errors=("issued_before",),
            ),
        ]

        def build(values: dict[str, Any]) -> TokenSearch:
            return TokenSearch.model_validate({k: (v or None) for k, v in values.items()})

        async def send(model: TokenSearch) -> TokenSearch:
            return model

        def done(model: TokenSearch | None) -> None:
            if model is not None:
                self.leave_every()
                self.every = None
                self._another(model)

        self.app.push_screen(FormScreen("Search tokens", fields, build, send, submit_label="Search"), done)

    def user_listed(self) -> str | None:
        """The other user whose tokens are listed, for a new token's "For user": the User filter as applied (never text
        typed there without enter), or a search's exact user (not a `*` pattern); None for the signed-in user's own (an
        IMPERSONATED token acts as someone else; a NORMAL one is the caller's, its field hidden when the profile names
        the user) or when no one user is listed."""
        user = (self.search.username if self.search is not None else self.applied_user) or ""
        if not user or "*" in user or user.casefold() == (self.ctx.user or "").casefold():
            return None
        return user

    def action_create(self) -> None:
        from flextui.ui.widgets.forms import FieldSpec, FormScreen

        if self.ctx.read_only:
            return
        fields = [
            FieldSpec("tokenName", "Name (5–25 characters)", errors=("name",), placeholder="e.g. ci-deploy-prod"),
            FieldSpec("tokenType", "Type", kind="select", options=TYPE_OPTIONS, value="NORMAL", errors=("token_type",)),
            FieldSpec(
                "username",
                "For user (e-mail)",
                value=self.user_listed() or "",
                # A NORMAL token's user is the caller, sent as `username` (`TokenCreate`); asked only when the profile names no user.
                visible_when=lambda v: v.get("tokenType") == "IMPERSONATED" or not self.ctx.user,
                hint="the user the token acts as" if self.ctx.user else "IMPERSONATED: the user it acts as; NORMAL: yours",
            ),
            FieldSpec("tokenDescription", "Description", errors=("description",), hint="required for IMPERSONATED: the reason"),
            FieldSpec("expiryStr", "Lifetime", value="30d", hint=LIFETIME_HINT, errors=("expiry",)),
        ]

        def build(values: dict[str, Any]) -> TokenCreate:
            data = dict(values)
            if data.get("tokenType") != "IMPERSONATED" and self.ctx.user:
                data.pop("username", None)
            return TokenCreate.model_validate(data)

        async def send(model: TokenCreate) -> Any:
            return await self.service.create(model)

        def done(created: Any) -> None:
            if created is not None:
                self._show_value(created, "created")

        self.app.push_screen(FormScreen("New access token", fields, build, send, submit_label="Create"), done)

    def _show_value(self, created: Any, verb: str) -> None:
        from flextui.ui.widgets.dialogs import ValueScreen

        value = created.value
        created.value = ""  # the screen is the only holder from here on
        self.app.push_screen(ValueScreen(f"Token {created.name} {verb}: its value", value, once=True))
        self.say(f"Token {created.name} {verb}")
        self.action_reload_fresh()

    def action_reload_fresh(self) -> None:
        """Ask the server again (after a change), ignoring the cache's freshness window."""
        self.forget_every()
        self._loading = self.run_api(
            lambda: self._load(force=True), group="tokens-load", doing="refreshing tokens", failed=self._load_failed
        )

    @work(group="tokens-action")
    async def action_rotate(self) -> None:
        token = self.selected()
        if token is None or not self._may_change(token):
            return
        done, created = await self.confirm_then(
            f"Rotate token {token.name}?",
            f"A new value replaces the current one, which stops working at once.\n"
            f"Everything else stays: {token.token_type}, user {token.username}, expires {absolute(token.expires_ms)}.",
            "Rotate",
            lambda: self.service.rotate(token.name),
            doing=f"rotating {token.name}",
        )
        if done:
            self._show_value(created, "rotated")

    @work(group="tokens-action")
    async def action_delete(self) -> None:
        token = self.selected()
        if token is None or not self._may_change(token):
            return
        done, _ = await self.confirm_then(
            f"Delete token {token.name}?",
            f"{token.token_type} token for {token.username}, created by {token.creator}, "
            f"expires {absolute(token.expires_ms)}.\nIt stops working at once. This cannot be undone.",
            "Delete",
            lambda: self.service.delete(token.name),
            doing=f"deleting {token.name}",
        )
        if done:
            self.say(f"Token {token.name} deleted")
            self.action_reload_fresh()

    def action_edit(self) -> None:
        from flextui.ui.widgets.forms import FieldSpec, FormScreen

        token = self.selected()
        if token is None or not self._may_change(token):
            return
        issued = absolute(token.issued_ms)
        fields = [
            FieldSpec("tokenName", "Name", value=token.name, errors=("name",)),
            FieldSpec("tokenDescription", "Description", value=token.description or "", errors=("description",)),
            FieldSpec(
                "expiryStr",
                "Lifetime from issue",
                value="",
                placeholder=token.expiry_str or "e.g. 90d",
                hint=f"issued {issued}; leave empty to keep the expiry. " + LIFETIME_HINT,
                errors=("expiry",),
            ),
        ]

        def build(values: dict[str, Any]) -> TokenUpdate:
            change: dict[str, Any] = {}
            if values["tokenName"] != token.name:
                change["tokenName"] = values["tokenName"]
            if values["tokenDescription"] != (token.description or ""):
                change["tokenDescription"] = values["tokenDescription"]
            if values["expiryStr"].strip():
                lifetime = values["expiryStr"].strip()
                try:
                    expiry = parse_interval(lifetime).after_ms(token.issued_ms or self.ctx.now_ms())
                except IntervalError:
                    expiry = None
                if expiry is not None and expiry <= self.ctx.now_ms():
                    raise ValueError(f"{lifetime} after the issue time ({issued}) is already past: choose a longer lifetime")
                change["expiryStr"] = lifetime
            return TokenUpdate.model_validate(change)

        async def send(model: TokenUpdate) -> TokenUpdate:
            await self.service.update(token.name, model)
            return model

        def done(model: TokenUpdate | None) -> None:
            if model is not None:
                self.say(f"Token {model.name or token.name} updated")
                self.action_reload_fresh()

        self.app.push_screen(FormScreen(f"Edit token {token.name}", fields, build, send, submit_label="Save", editing=True), done)

    def action_verify(self) -> None:
        from flextui.ui.widgets.dialogs import MessageScreen
        from flextui.ui.widgets.forms import FieldSpec, FormScreen

        fields = [FieldSpec("value", "Token value (rna_…)", kind="password", hint="paste the value; it is sent to the server only")]

        def build(values: dict[str, Any]) -> str:
            value = values["value"].strip()
            if not value.startswith("rna_") or len(value) < 8:
                raise ValueError("value: token values start with rna_")
            return value

        async def send(value: str) -> Any:
            return await self.service.verify(value)

        def details(t: Token) -> str:
            body = (
                f"Name     {t.name}\nType     {t.token_type}\nUser     {t.username}\nCreator  {t.creator}\n"
                f"Issued   {absolute(t.issued_ms)}\nExpires  {absolute(t.expires_ms)} ({relative(t.expires_ms, self.ctx.now_ms())})"
            )
            if t.masked:
                body += "\n\n⊘ Some details are masked: you may not view this token's owner."
            return body

        def done(result: Any) -> None:
            if result is None:
                return
            named = f"\n\n{details(result.token)}" if result.token is not None else ""
            if result.valid and result.token is not None:
                self.app.push_screen(MessageScreen("✓ The token is valid", details(result.token), tone="good"))
            elif result.valid is None:  # the answer contradicts itself: said as it is, never guessed
                self.app.push_screen(MessageScreen("? Not known whether the token is valid", (result.reason or "") + named))
            else:
                self.app.push_screen(MessageScreen("✗ The token is not valid", (result.reason or "unknown reason") + named, tone="bad"))

        self.app.push_screen(FormScreen("Verify a token", fields, build, send, submit_label="Verify"), done)

    def action_copy_name(self) -> None:
        token = self.selected()
        if token is not None:
            flex_app(self).copy_text(token.name, f"token name {token.name}")


class TokenDetailScreen(RefusedChoices, FlexModal[str | None]):
    """Every field of one token, with its actions."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close", id="token_detail.close"),
        Binding("r", "choose('rotate')", "Rotate", id="token_detail.rotate"),
        Binding("e", "choose('edit')", "Edit", id="token_detail.edit"),
        Binding("d", "choose('delete')", "Delete", id="token_detail.delete"),
        Binding("c", "choose('copy_name')", "Copy name", id="token_detail.copy"),
        Binding("R,shift+r", "raw", "Raw JSON", show=False, id="token_detail.raw"),
    ]

    DEFAULT_CSS = """
    TokenDetailScreen { align: center middle; }
    TokenDetailScreen > Vertical { width: 90; max-width: 98%; height: auto; max-height: 100%; border: thick $primary; background: $surface; padding: 1 2; }
    TokenDetailScreen #detail-title { text-style: bold; margin-bottom: 1; }
    TokenDetailScreen #detail-scroll { height: auto; max-height: 70vh; }
    TokenDetailScreen #detail-hint { color: $text-muted; margin-top: 1; }
    """
    SHRINKS = "#detail-scroll"  # a long description scrolls; the keys line under it always shows

    def __init__(self, token: Token, now_ms: int, refused: dict[str, str] | None = None) -> None:
        """`refused`: rotate, edit or delete → why it is off for this token (a read-only profile, a masked token):
        not offered, and its key says why when pressed (in the words of the list's `why_not`)."""
        super().__init__()
        self.token = token
        self.now_ms = now_ms
        self.refused = dict(refused or {})

    def compose(self) -> ComposeResult:
        t = self.token
        lines = [
            ("Name", t.name),
            ("Type", t.token_type),
            ("User", t.username or ""),
            ("Creator", t.creator or ""),
            ("Description", t.description or ""),
            ("Lifetime", t.expiry_str or ""),
            ("Issued", f"{absolute(t.issued_ms)} ({relative(t.issued_ms, self.now_ms)})"),
            ("Expires", f"{absolute(t.expires_ms)} ({relative(t.expires_ms, self.now_ms)})"),
        ]
        body = Text()
        for label, value in lines:
            body.append(f"{label:<12}", style="bold")
            body.append(clean(value) + "\n")
        if t.masked:
            body.append("\n⊘ Masked: you may not view some details of this token.\n", style="italic")
        if t.expires_within(self.now_ms, 7):
            body.append("\n⚠ Expires within 7 days.\n", style="bold")
        keys = keyhint(  # as bound ([keys] moves them), less what is refused here
            (bound_key(self, "token_detail.rotate"), "rotate"),
            (bound_key(self, "token_detail.edit"), "edit"),
            (bound_key(self, "token_detail.delete"), "delete"),
            (bound_key(self, "token_detail.copy"), "copy name"),
        )
        hint_text = " · ".join(part for part in (keys, "escape close") if part)
        with Vertical():
            yield Label(Text(f"Token {clean(t.name)}"), id="detail-title")
            with VerticalScroll(id="detail-scroll"):
                yield Static(body, id="detail-body")
            yield Label(hint_text, id="detail-hint")

    def action_choose(self, action: str) -> None:
        self.dismiss(action)

    def action_raw(self) -> None:
        """R: this token as the server sent it (a dialog takes the keys: the list's R does not reach it)."""
        from flextui.ui.rawview import show_raw  # loaded when first asked for

        show_raw(self, self.token)
