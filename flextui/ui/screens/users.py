"""Users and accounts: two tabs to browse, filter and inspect, and forms to create either.

The users tab filters by name or e-mail, account (name or ID) and status;
the accounts tab by name or ID and type (every type by default: the
service's own default, CUSTOMER only, would hide partners and publishers).
Any other query parameter goes in "more" as `key=value; …`. New users take
one or more accounts with their roles; both forms check every rule inline
(e-mail, userName equal to the e-mail, two-letter country, time zone and
locale formats, role expiry dates) before anything is sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Input, Label, Select, TabbedContent, TabPane

from flextui import kinds
from flextui.api import validation as v
from flextui.api.errors import Invalid, ReadOnly
from flextui.api.paging import Page
from flextui.api.users import Account, AccountCreate, AccountFilter, User, UserCreate, UserFilter, UsersService
from flextui.headless.entitlements import parse_filters
from flextui.headless.users import account_row, user_row
from flextui.textutil import clean
from flextui.ui.screens.base import AreaScreen
from flextui.ui.screens.entitlements import (
    toolbar as _toolbar,
    BetaForm,
    Body,
    NameSuggester,
    RecordScreen,
    Section,
    account_lookup,
    attribute_list,
    section_key,
    state_style,
    validated,
    when,
    yes_no,
)
from flextui.ui.widgets.bars import TitleBar
from flextui.ui.widgets.forms import FieldSpec
from flextui.ui.widgets.table import ResourceTable

USER_STATUS = [("any status", ""), ("active", "active"), ("inactive", "inactive")]
ACCOUNT_TYPES = [("every type", "")] + [(t.lower().replace("_", " "), t) for t in v.LISTED_ACCOUNT_TYPES]


@dataclass
class TabState:
    page: int = 1
    total: int | None = None
    loaded: bool = False
    items: list[Any] | None = None
    note: str = ""


class UsersScreen(AreaScreen):
    """Users and accounts: browse, filter, details, create."""

    KIND = "users"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"create": "create"}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    BINDINGS = [
        Binding("n", "create", "New", id="users.create"),
        Binding("u", "account_users", "Users", id="users.account_users"),
        Binding("e", "entitlements", "Entitlements", id="users.entitlements"),
        Binding("c", "copy_id", "Copy", show=False, id="users.copy"),
        Binding("f", "focus_filters", "Filters", show=False, id="users.filters"),
        Binding("greater_than_sign", "tab(1)", "Other tab", id="users.next_tab"),
        Binding("less_than_sign", "tab(-1)", "Other tab", show=False, id="users.prev_tab"),
        Binding("1", "show_tab('users')", "Users tab", show=False, id="users.tab1"),
        Binding("2", "show_tab('accounts')", "Accounts tab", show=False, id="users.tab2"),
        Binding("right_square_bracket", "page(1)", "Next", id="users.next_page"),
        Binding("left_square_bracket", "page(-1)", "Prev", id="users.prev_page"),
        Binding("ctrl+r", "reload", "Refresh", show=False, id="users.reload"),
    ]

    DEFAULT_CSS = """
    UsersScreen #users-tabs { height: 1fr; }
    UsersScreen TabPane { padding: 0; }
    UsersScreen .toolbar { margin: 0; }
    UsersScreen.-narrow .toolbar Label { display: none; }
    UsersScreen .toolbar Input.-bad-filter { color: $error; text-style: bold; }
    """

    def __init__(self, tab: str = "users", account: str | None = None) -> None:
        super().__init__()
        self.initial_tab = tab if tab in ("users", "accounts") else "users"
        self.initial_account = (account or "").strip()
        self.states = {"users": TabState(), "accounts": TabState()}
        self.account_names: list[str] = []
        self.applied_choice: dict[str, str] = {}

    @classmethod
    def for_kind(cls, kind: kinds.Kind | None, argument: str | None) -> UsersScreen:
        tab = kind.extra.get("tab", "users") if kind is not None else "users"
        return cls(tab, argument)

    @property
    def tab(self) -> str:
        try:
            return self.query_one("#users-tabs", TabbedContent).active or self.initial_tab
        except Exception:
            return self.initial_tab

    @property
    def area_title(self) -> str:
        title = "Users" if self.tab == "users" else "Accounts"
        return f"{title} · account {self.initial_account}" if self.initial_account and self.tab == self.initial_tab else title

    @property
    def service(self) -> UsersService:
        return UsersService(self.ctx.session)

    @property
    def page_size(self) -> int:
        return min(self.ctx.settings.page_size, v.MAX_LIMIT)

    # -- layout --------------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        # The other tab's widgets are built when it is first shown.
        with TabbedContent(initial=self.initial_tab, id="users-tabs"):
            for tab, title in (("users", "Users"), ("accounts", "Accounts")):
                yield TabPane(title, *(self._pane_widgets(tab) if tab == self.initial_tab else ()), id=tab)

    def _pane_widgets(self, tab: str) -> list[Any]:
        account = self.initial_account if tab == self.initial_tab else ""
        if tab == "users":
            bar = [
                Label("User"), Input(placeholder="name or e-mail", id="users-name", compact=True),
                Label("Account"), Input(value=account, placeholder="account name or ID", id="users-account", compact=True),
                Label("Status"), Select(USER_STATUS, value="", allow_blank=False, id="users-choice", compact=True),
                Label("More"), Input(placeholder="key=value; …", id="users-more", compact=True),
            ]
            table = ResourceTable(kinds.get("users").columns, cell=self._cell, row_key="user_name", id="users-table")
        else:
            bar = [
                Label("Account"), Input(value=account, placeholder="account name or ID", id="accounts-name", compact=True),
                Label("Type"), Select(ACCOUNT_TYPES, value="", allow_blank=False, id="accounts-choice", compact=True),
                Label("More"), Input(placeholder="key=value; … e.g. rootAccountOnly=true", id="accounts-more", compact=True),
            ]
            table = ResourceTable(kinds.get("accounts").columns, cell=self._cell, row_key="account_id", id="accounts-table")
        return [_toolbar(bar), Label("", id=f"{tab}-pager", classes="pager"), table]

    async def _mount_tab(self, tab: str) -> None:
        pane = self.query_one(f"TabPane#{tab}", TabPane)
        if not pane.children:
            await pane.mount_all(self._pane_widgets(tab))

    async def on_mount(self) -> None:
        self._focus_table()
        await self._ensure_loaded(self.tab)

    def show_kind(self, kind: kinds.Kind) -> None:
        self.action_show_tab(kind.extra.get("tab", "users"))

    def action_show_tab(self, tab: str) -> None:
        if tab in self.states:
            self.query_one("#users-tabs", TabbedContent).active = tab
            self._focus_table()

    def action_tab(self, delta: int) -> None:
        self.action_show_tab("accounts" if self.tab == "users" else "users")

    @on(TabbedContent.TabActivated, "#users-tabs")
    async def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.query_one(TitleBar).area = self.area_title
        self.refresh_bindings()
        await self._ensure_loaded(self.tab)
        self._focus_table()

    def _focus_table(self) -> None:
        self.call_after_refresh(lambda: self.table().focus())

    def table(self, tab: str | None = None) -> ResourceTable:
        return self.query_one(f"#{tab or self.tab}-table", ResourceTable)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "create":
            kind = kinds.get("users" if self.tab == "users" else "accounts")
            return kind.can("create", read_only=self.ctx.read_only)
        if action == "account_users":
            return self.tab == "accounts"
        return super().check_action(action, parameters)

    # -- loading ---------------------------------------------------------------------------------

    async def _ensure_loaded(self, tab: str) -> None:
        await self._mount_tab(tab)
        if not self.states[tab].loaded:
            self.load(tab)

    def action_reload(self) -> None:
        self.load(self.tab, force=True)

    def _more(self, tab: str) -> list[str]:
        return [p for p in re.split(r";", self.query_one(f"#{tab}-more", Input).value) if p.strip()]

    def _queries(self, tab: str) -> list[Any]:
        """The filter(s) to try, in order (an "account name or ID" is tried as the likelier one first)."""
        more = self.query_one(f"#{tab}-more", Input)
        try:
            if tab == "users":
                extra: dict[str, Any] = {}
                name = self.query_one("#users-name", Input).value.strip()
                if name:
                    extra["displayName" if " " in name else "userName"] = name
                status = str(self.query_one("#users-choice", Select).value or "")
                self.applied_choice[tab] = status
                if status:
                    extra["status"] = status
                account = self.query_one("#users-account", Input).value.strip()
                order = account_lookup(account) or [("", "")]
                out = [parse_filters(self._more(tab), UserFilter, what="users", extra={**extra, **({key: value} if key else {})}) for key, value in order]
            else:
                extra = {}
                kind = str(self.query_one("#accounts-choice", Select).value or "")
                self.applied_choice[tab] = kind
                extra["accountType"] = [kind] if kind else list(v.LISTED_ACCOUNT_TYPES)
                account = self.query_one("#accounts-name", Input).value.strip()
                order = account_lookup(account) or [("", "")]
                out = [parse_filters(self._more(tab), AccountFilter, what="accounts", extra={**extra, **({key: value} if key else {})}) for key, value in order]
        except ValueError:
            more.set_class(True, "-bad-filter")
            raise
        more.set_class(False, "-bad-filter")
        return out

    def load(self, tab: str, *, force: bool = False) -> None:
        state = self.states[tab]
        state.loaded = True

        async def job() -> None:
            try:
                queries = self._queries(tab)
            except ValueError as exc:
                self.report_error(Invalid(str(exc)), doing=f"filtering {tab}")
                return
            for index, query in enumerate(queries):
                last = index == len(queries) - 1
                lister = self.service.users_page if tab == "users" else self.service.accounts_page
                shown = False
                async for page in lister(query, state.page, self.page_size, force=force):
                    if not page.items and not last:
                        continue
                    self._show(tab, page)
                    shown = bool(page.items)
                if shown:
                    return

        self.run_api(job, group=f"users-{tab}", doing=f"loading {tab}")

    def _show(self, tab: str, page: Page[Any]) -> None:
        state = self.states[tab]
        state.items = page.items
        state.total = page.total
        rows = [{**(user_row(x) if tab == "users" else account_row(x)), "item": x} for x in page.items]
        self.table(tab).set_rows(rows)
        if tab == "accounts":
            self.account_names = sorted({a.account_name for a in page.items if a.account_name} | set(self.account_names))
        if tab == self.tab:
            self.show_age(page.age)
        self._update_pager(tab)

    def _update_pager(self, tab: str) -> None:
        state = self.states[tab]
        total = state.total or 0
        pages = max(1, -(-total // self.page_size))
        noun = "user" if tab == "users" else "account"
        parts = [f"page {state.page} of {pages}", f"{total:,} {noun}{'s' if total != 1 else ''}"]
        if tab == "users":
            active = sum(1 for u in state.items or [] if isinstance(u, User) and not u.active)
            if active:
                parts.append(f"{active} inactive on this page")
        if pages > 1:
            parts.append("] next · [ prev")
        table = self.table(tab)
        if table.filter_text:
            parts.append(f"/{table.filter_text}: {len(table.visible_rows)} of {len(state.items or [])} rows")
        if not total:
            parts = [f"no {noun}s match these filters"]
        self.query_one(f"#{tab}-pager", Label).update(Text(clean(" · ".join(parts))))

    def action_page(self, delta: int) -> None:
        tab = self.tab
        state = self.states[tab]
        target = state.page + delta
        if target < 1 or (state.total is not None and (target - 1) * self.page_size >= max(state.total, 1)):
            return
        state.page = target
        self.load(tab)

    def _cell(self, row: dict[str, Any], key: str) -> Text:
        value = row.get(key)
        text = "yes" if value is True else ("no" if value is False else clean("" if value is None else value))
        style = state_style(self.app, str(value)) if key == "status" else ""
        return Text(text, style=style, no_wrap=True, overflow="ellipsis")

    # -- filters ---------------------------------------------------------------------------------

    @on(Input.Submitted, ".toolbar Input")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        tab = self.tab
        self.states[tab].page = 1
        self.status.error = ""
        self.load(tab)
        self.table(tab).focus()

    @on(Select.Changed, ".toolbar Select")
    def _choice_changed(self, event: Select.Changed) -> None:
        event.stop()
        tab = (event.select.id or "").removesuffix("-choice")
        if tab not in self.states or not self.states[tab].loaded or str(event.value or "") == self.applied_choice.get(tab, ""):
            return  # also the Changed a Select posts when it is mounted
        self.states[tab].page = 1
        self.load(tab)

    def action_focus_filters(self) -> None:
        self.query_one(f"#{self.tab}-name", Input).focus()

    def apply_filter(self, text: str) -> None:
        self.table().set_filter(text)
        self._update_pager(self.tab)

    # -- detail and jumps -----------------------------------------------------------------------------

    def selected(self) -> Any | None:
        row = self.table().current_row()
        return row["item"] if row else None

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        item = self.selected()
        if item is not None:
            self.open_detail(item)

    def open_detail(self, item: Any) -> None:
        now = self.ctx.now_ms()
        b = Body(show_title=False)
        if isinstance(item, User):
            title = f"User {item.display_name or item.user_name}"
            b.line("User name", item.user_name).line("E-mail", item.email_address)
            b.line("Name", " ".join(x for x in (item.first_name, item.last_name) if x))
            b.line("Status", item.status, style=state_style(self.app, item.status)).line("Portal login", yes_no(item.portal_login))
            b.line("Shared", yes_no(item.shared)).line("Phone", item.phone_number).line("Fax", item.fax_number)
            b.line("Address", ", ".join(x for x in (item.street, item.city, item.state, item.zipcode, item.country) if x))
            b.line("Locale", item.locale).line("Time zone", item.timezone).line("Created", when(item.created, now))
            b.section(f"Accounts ({len(item.accounts)})")
            for a in item.accounts:
                b.pairs([(a.account_name or a.account_id or "?", " · ".join(x for x in (a.account_id, a.account_type, ", ".join(a.roles) or "no roles",
                                                                                     f"until {a.expiry_date}" if a.expiry_date else "") if x))])
            if item.attributes:
                b.section("Attributes").pairs((x.name, x.value) for x in item.attributes)
            actions = [("c", "copy_id", "copy user name"), ("e", "entitlements", "entitlements of its account")]
        else:
            assert isinstance(item, Account)
            title = f"Account {item.account_name or item.account_id}"
            b.line("Account ID", item.account_id).line("Type", item.account_type).line("Description", item.description)
            b.line("Address", ", ".join(x for x in (item.address1, item.address2, item.city, item.state, item.zipcode, item.country) if x))
            b.line("Region", item.region).line("Parent", item.parent_account_id).line("Visible", yes_no(item.visible))
            b.line("Created", when(item.created, now))
            if item.attributes:
                b.section("Attributes").pairs((x.name, x.value) for x in item.attributes)
            actions = [("u", "account_users", "its users"), ("e", "entitlements", "its entitlements"), ("c", "copy_id", "copy ID")]

        def chosen(action: str | None) -> None:
            if action:
                self.call_later(self.run_action, action)

        self.app.push_screen(RecordScreen(title, b.text, actions), chosen)

    def _account_id(self) -> str | None:
        item = self.selected()
        if isinstance(item, Account):
            return item.account_id
        if isinstance(item, User) and item.accounts:
            return item.accounts[0].account_id
        return None

    async def action_account_users(self) -> None:
        item = self.selected()
        if not isinstance(item, Account):
            self.say("Put the cursor on an account to list its users")
            return
        await self._mount_tab("users")
        self.query_one("#users-account", Input).value = item.account_id
        self.query_one("#users-name", Input).value = ""
        self.query_one("#users-more", Input).value = ""
        with self.prevent(Select.Changed):
            self.query_one("#users-choice", Select).value = ""
        self.states["users"].page = 1
        self.states["users"].loaded = True  # loaded just below, with the account filter
        self.action_show_tab("users")
        self.load("users")

    def action_entitlements(self) -> None:
        account = self._account_id()
        if not account:
            self.say("Put the cursor on an account (or a user) to see its entitlements")
            return
        self.app.open_kind(kinds.get("entitlements"), account)  # type: ignore[attr-defined]

    def action_copy_id(self) -> None:
        item = self.selected()
        if isinstance(item, User):
            self.app.copy_text(item.user_name, f"user name {item.user_name}")  # type: ignore[attr-defined]
        elif isinstance(item, Account):
            self.app.copy_text(item.account_id, f"account ID {item.account_id}")  # type: ignore[attr-defined]

    # -- creating --------------------------------------------------------------------------------------

    def action_create(self) -> None:
        kind = kinds.get("users" if self.tab == "users" else "accounts")
        if not kind.can("create", read_only=self.ctx.read_only):
            self.report_error(ReadOnly(f"profile {self.ctx.profile_name!r} is read-only: creating {kind.title.lower()} is not allowed"), doing="creating")
            return
        if self.tab == "users":
            self._create_user()
        else:
            self._create_account()

    def _load_account_names(self) -> None:
        if len(self.account_names) > 1:
            return

        async def job() -> None:
            query = AccountFilter.model_validate({"accountType": list(v.LISTED_ACCOUNT_TYPES)})
            async for page in self.service.accounts_page(query, 1, v.MAX_LIMIT):
                self.account_names = sorted({a.account_name for a in page.items if a.account_name} | set(self.account_names))

        self.run_api(job, group="users-names", doing="loading account names")

    def _create_user(self) -> None:
        self._load_account_names()
        prefill = ""
        account_filter = self.query_one("#users-account", Input).value.strip()
        if account_filter:
            for user in self.states["users"].items or []:
                match = next((a for a in user.accounts if account_filter in (a.account_id, a.account_name)), None)
                if match is not None:
                    prefill = match.account_name or ""
                    break
        head = [
            FieldSpec("firstName", "First name", errors=("firstName",)),
            FieldSpec("lastName", "Last name", errors=("lastName",)),
            FieldSpec("emailAddress", "E-mail", errors=("emailAddress",)),
            FieldSpec("displayName", "Display name", placeholder="optional", errors=("displayName",)),
            FieldSpec("status", "Status", kind="select", options=[(s.lower(), s) for s in v.USER_STATUSES], value="Active", errors=("status",)),
            FieldSpec("portalLogin", "May log in (portal)", kind="switch", value=False, errors=("portalLogin",)),
            FieldSpec("userName", "User name", placeholder="the e-mail address", errors=("userName",),
                      hint="must equal the e-mail address", visible_when=lambda values: bool(values.get("portalLogin"))),
            FieldSpec("phoneNumber", "Phone", errors=("phoneNumber",)),
            FieldSpec("country", "Country", placeholder="two letters, e.g. US", errors=("country",)),
            FieldSpec("locale", "Locale", placeholder="e.g. en_US", errors=("locale",)),
            FieldSpec("timezone", "Time zone", placeholder="e.g. GMT-6.0DST0", errors=("timezone",)),
        ]

        def specs(i: int) -> list[FieldSpec]:
            k = lambda name: section_key("ar", i, name)  # noqa: E731
            p = f"accountRoles[{i}]"
            return [
                FieldSpec(k("accountName"), "Account name", value=prefill if i == 0 else "", errors=(f"{p}.accountName", p),
                          hint="an existing account's name (→ completes)"),
                FieldSpec(k("roles"), "Roles", placeholder="e.g. Portal User, Admin", errors=(f"{p}.roles",)),
                FieldSpec(k("expiryDate"), "Access until", placeholder="YYYY-MM-DD (optional)", errors=(f"{p}.expiryDate",)),
            ]

        section = Section("Account", "ar", specs)

        def build(values: dict[str, Any]) -> UserCreate:
            problems: dict[str, str] = {}
            data: dict[str, Any] = {"firstName": values["firstName"], "lastName": values["lastName"],
                                    "emailAddress": values["emailAddress"].strip(), "status": values["status"],
                                    "portalLogin": bool(values["portalLogin"])}
            for key in ("displayName", "phoneNumber", "country", "locale", "timezone"):
                if values[key].strip():
                    data[key] = values[key].strip()
            if values["portalLogin"] and values["userName"].strip():
                data["userName"] = values["userName"].strip()
            roles = []
            for i in range(section.count):
                role: dict[str, Any] = {"accountName": values[section_key("ar", i, "accountName")].strip(),
                                        "roles": [r.strip() for r in values[section_key("ar", i, "roles")].split(",") if r.strip()]}
                if values[section_key("ar", i, "expiryDate")].strip():
                    role["expiryDate"] = values[section_key("ar", i, "expiryDate")].strip()
                roles.append(role)
            data["accountRoles"] = roles
            return validated(UserCreate, data, problems)

        def hints(values: dict[str, Any]) -> dict[str, str]:
            out = {}
            for i in range(section.count):
                name = values.get(section_key("ar", i, "accountName"), "").strip()
                if name and self.account_names and name not in self.account_names:
                    close = [n for n in self.account_names if name.lower() in n.lower()][:4]
                    out[section_key("ar", i, "accountName")] = "⚠ no account of that name seen" + (f"; did you mean {', '.join(close)}?" if close else "")
            return out

        async def send(model: UserCreate) -> User:
            return await self.service.create_user(model)

        def done(user: User | None) -> None:
            if user is None:
                return
            self.say(f"User {user.user_name} created")
            self.load("users", force=True)
            self.open_detail(user)

        self.app.push_screen(BetaForm("New user", head, build, send, section=section, submit_label="Create", hints=hints,
                                      suggesters=lambda spec: NameSuggester(lambda: self.account_names) if spec.key.endswith("-accountName") else None), done)

    def _create_account(self) -> None:
        fields = [
            FieldSpec("accountId", "Account ID", errors=("accountId",), hint="unique; not only spaces, none of ' \" & % ^ ( ) # @ ! ~ / < > ` { } = | ;"),
            FieldSpec("name", "Name", errors=("name", "accountName")),
            FieldSpec("accountType", "Type", kind="select", options=[(t.lower().replace("_", " "), t) for t in v.CREATABLE_ACCOUNT_TYPES],
                      value="CUSTOMER", errors=("accountType",)),
            FieldSpec("description", "Description", errors=("description",)),
            FieldSpec("address1", "Address", errors=("address1",)),
            FieldSpec("address2", "Address (2)", errors=("address2",)),
            FieldSpec("city", "City", errors=("city",)),
            FieldSpec("state", "State", errors=("state",)),
            FieldSpec("zipcode", "Postal code", errors=("zipcode",)),
            FieldSpec("country", "Country", placeholder="two letters, e.g. US", errors=("country",)),
            FieldSpec("region", "Region", errors=("region",)),
            FieldSpec("parentAccountId", "Parent account ID", placeholder="optional", errors=("parentAccountId",)),
            FieldSpec("visible", "Visible", kind="switch", value=True, errors=("visible",)),
            FieldSpec("attributes", "Attributes", placeholder="Name=value; Name=value", errors=("attributes",)),
        ]

        def build(values: dict[str, Any]) -> AccountCreate:
            problems: dict[str, str] = {}
            data: dict[str, Any] = {"accountId": values["accountId"], "name": values["name"], "accountType": values["accountType"],
                                    "visible": bool(values["visible"])}
            for key in ("description", "address1", "address2", "city", "state", "zipcode", "country", "region", "parentAccountId"):
                if values[key].strip():
                    data[key] = values[key].strip()
            attrs = attribute_list(values["attributes"], "attributes", problems)
            if attrs:
                data["attributes"] = attrs
            return validated(AccountCreate, data, problems)

        async def send(model: AccountCreate) -> Account:
            return await self.service.create_account(model)

        def done(account: Account | None) -> None:
            if account is None:
                return
            self.say(f"Account {account.account_id} ({account.account_name}) created")
            self.account_names = sorted(set(self.account_names) | ({account.account_name} if account.account_name else set()))
            self.load("accounts", force=True)
            self.open_detail(account)

        self.app.push_screen(BetaForm("New account", fields, build, send, submit_label="Create"), done)


__all__ = ["UsersScreen"]
