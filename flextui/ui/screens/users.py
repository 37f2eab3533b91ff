"""Users and accounts: two tabs to browse, filter and inspect, and forms to create either.

The users tab filters by name or e-mail, account (name or ID) and status;
the accounts tab by name or ID and type (every type by default: the
service's own default, CUSTOMER only, would hide partners and publishers).
Any other query parameter goes in "more" as `key=value; …`. New users take
one or more accounts with their roles; both forms check every rule inline
(e-mail, userName equal to the e-mail, two-letter country, time zone and
locale formats, role expiry dates) before anything is sent. The tabbed,
paged list machinery is `TabbedListScreen`'s (tabbed.py), shared with
catalog.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding
from textual.widgets import Input, Label, Select

from flextui import kinds
from flextui.api import validation as v
from flextui.api.errors import ReadOnly
from flextui.api.paging import Page, Pager
from flextui.api.users import Account, AccountCreate, AccountFilter, User, UserCreate, UserFilter, UsersService
from flextui.kinds import Link
from flextui.render.users import account_row, user_row
from flextui.ui.appref import flex_app
from flextui.ui.screens.entitlements.forms import attribute_list
from flextui.ui.screens.entitlements.tree import account_lookup
from flextui.ui.screens.everypage import MAX_EVERY_ITEMS
from flextui.ui.screens.tabbed import ListTab, TabbedListScreen, TabState, list_bindings, list_css  # noqa: F401 (TabState: re-exported)
from flextui.ui.widgets.forms import FieldSpec, NameSuggester, Section, SectionedForm, section_key, validated
from flextui.ui.widgets.record import Body, state_style, when, yes_no
from flextui.ui.widgets.table import ResourceTable

USER_STATUS = [("any status", ""), ("active", "active"), ("inactive", "inactive")]
ACCOUNT_TYPES = [("every type", "")] + [(t.lower().replace("_", " "), t) for t in v.LISTED_ACCOUNT_TYPES]

TABS: tuple[ListTab, ...] = (
    ListTab("users", "users", "Users", "users_page", user_row, "user"),
    ListTab("accounts", "accounts", "Accounts", "accounts_page", account_row, "account"),
)


class UsersScreen(TabbedListScreen):
    """Users and accounts: browse, filter, details, create."""

    KIND = "users"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"create": "create"}
    LIST_TABS = TABS
    TABS_ID = "users-tabs"
    WORKER_GROUP = "users"
    STATE_COLUMN = "status"

    BINDINGS = [
        Binding("n", "create", "New", id="users.create"),
        Binding("u", "account_users", "Users", id="users.account_users"),
        Binding("E,shift+e", "entitlements", "Entitlements", id="users.entitlements"),
        Binding("c", "copy_id", "Copy ID", show=False, id="users.copy"),
        *list_bindings("users", TABS, next_tab="Other tab", prev_tab="Other tab", tab_label="{title} tab"),
    ]

    DEFAULT_CSS = list_css("UsersScreen", "users-tabs")

    def __init__(self, tab: str = "users", account: str | None = None) -> None:
        super().__init__(tab)
        text = (account or "").strip()
        self.initial_user = text[5:].strip() if text.lower().startswith("user=") else ""
        """`:users user=NAME` (a related jump from a token): the users list filtered to that user."""
        self.initial_account = "" if self.initial_user else text
        self.account_names: list[str] = []

    @property
    def tab(self) -> str:
        return self.tab_id

    @property
    def area_title(self) -> str:
        title = "Users" if self.tab == "users" else "Accounts"
        if self.tab != self.initial_tab:
            return title
        if self.initial_user:
            return f"{title} · user {self.initial_user}"
        return f"{title} · account {self.initial_account}" if self.initial_account else title

    @property
    def service(self) -> UsersService:
        return UsersService(self.ctx.session)

    # -- layout --------------------------------------------------------------------------------

    def _pane_widgets(self, tab: str) -> list[Any]:
        account = self.initial_account if tab == self.initial_tab else ""
        if tab == "users":
            bar = [
                Label("User"),
                Input(
                    value=self.initial_user if tab == self.initial_tab else "", placeholder="name or e-mail", id="users-name", compact=True
                ),
                Label("Account"),
                Input(value=account, placeholder="account name or ID", id="users-account", compact=True),
                Label("Status"),
                Select(USER_STATUS, value="", allow_blank=False, id="users-choice", compact=True),
                Label("More"),
                Input(placeholder="key=value; …", id="users-more", compact=True),
            ]
            return self.pane(tab, bar, row_key="user_name")
        bar = [
            Label("Account"),
            Input(value=account, placeholder="account name or ID", id="accounts-name", compact=True),
            Label("Type"),
            Select(ACCOUNT_TYPES, value="", allow_blank=False, id="accounts-choice", compact=True),
            Label("More"),
            Input(placeholder="key=value; …", id="accounts-more", compact=True),
        ]
        return self.pane(tab, bar, row_key="account_id")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "create":
            kind = kinds.get("users" if self.tab == "users" else "accounts")
            return kind.can("create", read_only=self.ctx.read_only)
        if action == "account_users":
            return self.tab == "accounts"
        return super().check_action(action, parameters)

    # -- loading ---------------------------------------------------------------------------------

    def _queries(self, tab: str) -> list[Any]:
        """The filter(s) to try, in order (an "account name or ID" is tried as the likelier one first)."""
        extra: dict[str, Any] = {}
        if tab == "users":
            name = self.applied_text(self.query_one("#users-name", Input)).strip()
            if name:
                extra["displayName" if " " in name else "userName"] = name
            status = self.read_choice(tab)
            if status:
                extra["status"] = status
            account = self.applied_text(self.query_one("#users-account", Input)).strip()
            model: type[Any] = UserFilter
        else:
            kind = self.read_choice(tab)
            extra["accountType"] = [kind] if kind else list(v.LISTED_ACCOUNT_TYPES)
            account = self.applied_text(self.query_one("#accounts-name", Input)).strip()
            model = AccountFilter
        order = account_lookup(account) or [("", "")]
        return self.parse_more(tab, model, tab, [{**extra, **({key: value} if key else {})} for key, value in order])

    def every_pager(self, tab: str, query: Any, force: bool) -> Pager[Any]:
        """Every user or account under the tab's toolbar filters, at the largest page size the API takes."""
        every = self.service.every_user if tab == "users" else self.service.every_account
        return every(query, limit=v.MAX_LIMIT, max_items=MAX_EVERY_ITEMS, force=force)

    def _shown(self, tab: str, page: Page[Any], table: ResourceTable) -> None:
        if tab == "accounts":
            self.account_names = sorted({a.account_name for a in page.items if a.account_name} | set(self.account_names))

    def page_notes(self, tab: str) -> list[str]:
        inactive = sum(1 for u in self.states[tab].items or [] if isinstance(u, User) and not u.active) if tab == "users" else 0
        return [f"{inactive} inactive"] if inactive else []

    # -- detail and jumps -----------------------------------------------------------------------------

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
                b.pairs(
                    [
                        (
                            a.account_name or a.account_id or "?",
                            " · ".join(
                                x
                                for x in (
                                    a.account_id,
                                    a.account_type,
                                    ", ".join(a.roles) or "no roles",
                                    f"until {a.expiry_date}" if a.expiry_date else "",
                                )
                                if x
                            ),
                        )
                    ]
                )
            if item.attributes:
                b.section("Attributes").pairs((x.name, x.value) for x in item.attributes)
            actions = [("c", "copy_id", "copy user name"), ("E", "entitlements", "entitlements of its account")]
        else:
            assert isinstance(item, Account)
            title = f"Account {item.account_name or item.account_id}"
            b.line("Account ID", item.account_id).line("Type", item.account_type).line("Description", item.description)
            b.line("Address", ", ".join(x for x in (item.address1, item.address2, item.city, item.state, item.zipcode, item.country) if x))
            b.line("Region", item.region).line("Parent", item.parent_account_id).line("Visible", yes_no(item.visible))
            b.line("Created", when(item.created, now))
            if item.attributes:
                b.section("Attributes").pairs((x.name, x.value) for x in item.attributes)
            actions = [("u", "account_users", "its users"), ("E", "entitlements", "its entitlements"), ("c", "copy_id", "copy ID")]

        self.show_record(title, b.text, actions)

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
        self.set_filter_text(self.query_one("#users-account", Input), item.account_id)
        self.set_filter_text(self.query_one("#users-name", Input), "")
        self.set_filter_text(self.query_one("#users-more", Input), "")
        with self.prevent(Select.Changed):
            self.query_one("#users-choice", Select).value = ""
        self.states["users"].page = 1
        self.other_listing("users")
        self.states["users"].loaded = True  # loaded just below, with the account filter
        self.action_show_tab("users")
        self.load("users")

    def related_links(self) -> list[Link]:
        """j: a user's accounts' (or an account's) entitlements; an account's users."""
        item = self.selected()
        if isinstance(item, Account):
            return [
                Link(f"entitlements of account {item.account_id}", "entitlements", item.account_id),
                Link(f"users of account {item.account_id}", "users", item.account_id),
            ]
        if isinstance(item, User):
            return [
                Link(f"entitlements of {a.account_id}" + (f" ({a.account_name})" if a.account_name else ""), "entitlements", a.account_id)
                for a in item.accounts
                if a.account_id
            ] + [
                Link(f"account {a.account_id}" + (f" ({a.account_name})" if a.account_name else ""), "accounts", a.account_id)
                for a in item.accounts
                if a.account_id
            ]
        return []

    def action_entitlements(self) -> None:
        account = self._account_id()
        if not account:
            self.say("Put the cursor on an account (or a user) to see its entitlements")
            return
        flex_app(self).jump(Link(f"entitlements of account {account}", "entitlements", account))

    def action_copy_id(self) -> None:
        item = self.selected()
        if isinstance(item, User):
            flex_app(self).copy_text(item.user_name, f"user name {item.user_name}")
        elif isinstance(item, Account):
            flex_app(self).copy_text(item.account_id, f"account ID {item.account_id}")

    # -- creating --------------------------------------------------------------------------------------

    def action_create(self) -> None:
        kind = kinds.get("users" if self.tab == "users" else "accounts")
        if not kind.can("create", read_only=self.ctx.read_only):
            self.report_error(
                ReadOnly(f"profile {self.ctx.profile_name!r} is read-only: creating {kind.title.lower()} is not allowed"), doing="creating"
            )
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
            FieldSpec(
                "status", "Status", kind="select", options=[(s.lower(), s) for s in v.USER_STATUSES], value="Active", errors=("status",)
            ),
            FieldSpec("portalLogin", "May log in (portal)", kind="switch", value=False, errors=("portalLogin",)),
            FieldSpec(
                "userName",
                "User name",
                placeholder="the e-mail address",
                errors=("userName",),
                hint="must equal the e-mail address",
                visible_when=lambda values: bool(values.get("portalLogin")),
            ),
            FieldSpec("phoneNumber", "Phone", errors=("phoneNumber",)),
            FieldSpec("country", "Country", placeholder="two letters, e.g. US", errors=("country",)),
            FieldSpec("locale", "Locale", placeholder="e.g. en_US", errors=("locale",)),
            FieldSpec("timezone", "Time zone", placeholder="e.g. GMT-6.0DST0", errors=("timezone",)),
        ]

        def specs(i: int) -> list[FieldSpec]:
            k = lambda name: section_key("ar", i, name)  # noqa: E731
            p = f"accountRoles[{i}]"
            return [
                FieldSpec(
                    k("accountName"),
                    "Account name",
                    value=prefill if i == 0 else "",
                    errors=(f"{p}.accountName", p),
                    hint="an existing account's name (→ completes)",
                ),
                FieldSpec(k("roles"), "Roles", placeholder="e.g. Portal User, Admin", errors=(f"{p}.roles",)),
                FieldSpec(k("expiryDate"), "Access until", placeholder="YYYY-MM-DD (optional)", errors=(f"{p}.expiryDate",)),
            ]

        section = Section("Account", "ar", specs)

        def build(values: dict[str, Any]) -> UserCreate:
            problems: dict[str, str] = {}
            data: dict[str, Any] = {
                "firstName": values["firstName"],
                "lastName": values["lastName"],
                "emailAddress": values["emailAddress"].strip(),
                "status": values["status"],
                "portalLogin": bool(values["portalLogin"]),
            }
            for key in ("displayName", "phoneNumber", "country", "locale", "timezone"):
                if values[key].strip():
                    data[key] = values[key].strip()
            if values["portalLogin"] and values["userName"].strip():
                data["userName"] = values["userName"].strip()
            roles = []
            for i in range(section.count):
                role: dict[str, Any] = {
                    "accountName": values[section_key("ar", i, "accountName")].strip(),
                    "roles": [r.strip() for r in values[section_key("ar", i, "roles")].split(",") if r.strip()],
                }
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
                    out[section_key("ar", i, "accountName")] = "⚠ no account of that name seen" + (
                        f"; did you mean {', '.join(close)}?" if close else ""
                    )
            return out

        async def send(model: UserCreate) -> User:
            return await self.service.create_user(model)

        def done(user: User | None) -> None:
            if user is None:
                return
            self.say(f"User {user.user_name} created")
            self.load("users", force=True)
            self.open_detail(user)

        self.app.push_screen(
            SectionedForm(
                "New user",
                head,
                build,
                send,
                section=section,
                submit_label="Create",
                hints=hints,
                suggesters=lambda spec: NameSuggester(lambda: self.account_names) if spec.key.endswith("-accountName") else None,
            ),
            done,
        )

    def _create_account(self) -> None:
        fields = [
            FieldSpec(
                "accountId",
                "Account ID",
                errors=("accountId",),
                hint="unique; not only spaces (any characters)",
            ),
            FieldSpec("name", "Name", errors=("name", "accountName")),
            FieldSpec(
                "accountType",
                "Type",
                kind="select",
                options=[(t.lower().replace("_", " "), t) for t in v.CREATABLE_ACCOUNT_TYPES],
                value="CUSTOMER",
                errors=("accountType",),
            ),
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
            data: dict[str, Any] = {
                "accountId": values["accountId"],
                "name": values["name"],
                "accountType": values["accountType"],
                "visible": bool(values["visible"]),
            }
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

        self.app.push_screen(SectionedForm("New account", fields, build, send, submit_label="Create"), done)


__all__ = ["UsersScreen"]
