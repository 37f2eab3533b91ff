"""The entitlement tree: account → entitlement → line items → product and license model.

Scale first: at large scale there are ~3,000 accounts and 5,000
entitlements, so nothing is loaded before it is looked at. The top level is
one page of accounts (from the users service); an account's entitlements
and an entitlement's line items are loaded when the node is expanded, with a
visible "loading…" child and exactly one request (none when the cache is
fresh; the cached answer first, then the fresh one, when it is older).
Product and license model nodes come with the line item: no request.

Filters on the entitlements themselves (product, status, creation dates)
switch the top level to the accounts of the matching entitlements, read
page by page from the entitlement list (so an expansion there needs no
request at all). Creation dates are not an API filter: they are applied to
the rows of each page, and the pager says how many were hidden.

The changes (forms.py) and the record texts (details.py) are the screen's
other two rooms; the node payloads live in nodes.py so both can name them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static, Tree
from textual.widgets.tree import TreeNode, UnknownNodeID

from flextui import kinds
from flextui.api import validation as v
from flextui.api.entitlements import (
    Entitlement,
    EntitlementFilter,
    EntitlementsService,
    LineItem,
)
from flextui.api.errors import BadRequest, Invalid
from flextui.api.paging import pages_of, served_notes
from flextui.api.users import AccountFilter, UsersService
from flextui.api.validation import MAX_LIMIT
from flextui.kinds import Link
from flextui.render.text import clean
from flextui.render.words import plural
from flextui.ui.appref import flex_app
from flextui.ui.keyhint import bound_key, hint
from flextui.ui.later import after_refresh
from flextui.ui.safety import SafeDispatch
from flextui.ui.screens.base import NOT_LOADED, AreaScreen, filters_key, sort_words
from flextui.ui.screens.entitlements.accounts import AccountNames
from flextui.ui.screens.entitlements.details import entitlement_detail, line_item_detail, product_detail
from flextui.ui.screens.entitlements.forms import CatalogueIndex, EntitlementForms
from flextui.ui.screens.entitlements.nodes import Expansion, Item, Root
from flextui.ui.widgets.record import Body, RecordScreen, state_style, theme_color, when, yes_no
from flextui.ui.widgets.table import natural_key

# =====================================================================================================
# Shared helpers: detail bodies, record modal, model-validated forms (also used by catalog.py, users.py)
# =====================================================================================================


# =====================================================================================================
CATALOGUE_WHERE = "Put the cursor on a line item or its product to open it in the catalogue"

# The catalogue as the forms need it (names and versions to suggest and check)
# =====================================================================================================


# =====================================================================================================
# The tree
# =====================================================================================================

ENT_PAGE = 200  # entitlements per page when the top level comes from the entitlement list
# The entitlement list filter's statuses, each sent as its word (seed 002 §3: draft, deployed, obsolete, and "also …
# active, inactive and obsoleted"; OBSOLETED is the GraphQL State enum's, which has no OBSOLETE).
STATUS_OPTIONS = [
    ("any status", ""),
    ("draft", "DRAFT"),
    ("deployed", "DEPLOYED"),
    ("obsolete", "OBSOLETE"),
    ("obsoleted", "OBSOLETED"),
    ("active", "ACTIVE"),
    ("inactive", "INACTIVE"),
]


def status_options(status: str) -> list[tuple[str, str]]:
    """The Status choices, with `status` among them when it is none of them (`:ent status=retired`): shown as
    typed, and said to be unknown when the list is asked for (a Select refuses a value it does not offer)."""
    if any(value == status for _, value in STATUS_OPTIONS):
        return STATUS_OPTIONS
    return [*STATUS_OPTIONS, (status.lower(), status)]


ARG_KEYS = ("account", "product", "status", "from", "to", "activation")
_ARG_RE = re.compile(r"(?:^|\s)(" + "|".join(ARG_KEYS) + r")=", re.IGNORECASE)


DEFAULT_SORT = ("entitlement_id", "asc")
"""How the tree asks for entitlements unless `:sort` says otherwise."""


def parse_argument(argument: str | None) -> dict[str, str]:
    """`:ent ACCOUNT`, `:ent product=Flex Canvas status=deployed` or `:ent activation=ACT-1` → filter values."""
    text = (argument or "").strip()
    if not text:
        return {}
    matches = list(_ARG_RE.finditer(text))
    if not matches or text[: matches[0].start()].strip():
        return {"account": text}
    out: dict[str, str] = {}
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        out[match.group(1).lower()] = text[match.end() : end].strip()
    return out


@dataclass
class TreeFilters:
    account: str = ""
    product: str = ""
    status: str = ""
    created_from: str = ""
    created_to: str = ""
    activation: str = ""
    """The line item to find (a related jump from a report row): its entitlement is opened and it is selected."""

    @property
    def on_entitlements(self) -> bool:
        """Whether a filter concerns entitlements (then the top level comes from the entitlement list)."""
        return bool(self.product or self.status or self.created_from or self.created_to or self.activation)

    def describe(self) -> str:
        parts = [
            f"{k}={x}"
            for k, x in (
                ("account", self.account),
                ("product", self.product),
                ("status", self.status),
                ("created ≥", self.created_from),
                ("created ≤", self.created_to),
                ("activation", self.activation),
            )
            if x
        ]
        return ", ".join(parts)

    def in_dates(self, ent: Entitlement) -> bool:
        if not (self.created_from or self.created_to):
            return True
        created = ent.created
        if created is None:
            return False
        day = created.astimezone(UTC).date().isoformat()
        return (not self.created_from or day >= self.created_from) and (not self.created_to or day <= self.created_to)


def by_name(roots: Iterable[Root]) -> list[Root]:
    """Accounts by name (else ID), ignoring case, numbers in their order."""
    return sorted(roots, key=lambda r: (natural_key(r.name or r.account_id), natural_key(r.account_id)))


def account_lookup(value: str) -> list[tuple[str, str]]:
    """Which query parameter to try first for "account name or ID" (the other one if nothing matches)."""
    value = value.strip()
    if not value:
        return []
    if re.fullmatch(r"[\w\-.]+", value) and any(ch.isdigit() for ch in value):
        return [("accountId", value), ("accountName", value)]
    return [("accountName", value), ("accountId", value)]


class EntitlementTree(SafeDispatch, Tree[Item]):
    """The tree with → / ← to expand and collapse (or move to the parent)."""

    BINDINGS = [
        Binding("right", "expand_node", "Expand", show=False, id="enttree.expand"),
        Binding("left", "collapse_node", "Collapse", show=False, id="enttree.collapse"),
    ]

    def render_label(self, node: TreeNode[Item], base_style: Style, style: Style) -> Text:
        """A label as wide as the tree allows, ending "…" when it is longer (never cut silently at the edge)."""
        text = super().render_label(node, base_style, style)
        depth = 0
        parent = node.parent
        while parent is not None and not parent.is_root:
            depth += 1
            parent = parent.parent
        if self.show_root:
            depth += 1
        room = self.scrollable_content_region.width - depth * self.guide_depth
        if room > 1 and text.cell_len > room:
            text.truncate(room, overflow="ellipsis")
        return text

    def on_resize(self) -> None:
        """The cursor's line kept in view when the terminal shrinks (it stayed below the fold until the next key)."""
        if self.cursor_line >= 0:
            after_refresh(self, self.scroll_to_line, self.cursor_line, animate=False)

    def move_to(self, node: TreeNode[Item]) -> None:
        """Move the cursor to a node just added (its line is known once the lines are rebuilt)."""
        self._tree_lines  # noqa: B018 - rebuilds the line list now
        self.move_cursor(node)

    def action_expand_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and not node.is_expanded:
            node.expand()
        elif node.children:
            self.cursor_line += 1

    def action_collapse_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None and not node.parent.is_root:
            self.move_cursor(node.parent)


class EntitlementsScreen(EntitlementForms, AreaScreen):
    """Accounts, their entitlements, line items and products, loaded as they are expanded."""

    KIND = "entitlements"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {
        "create": "create",
        "add_items": "add",
        "policies": "policies",
        "properties": "properties",
        "maintenance": "maintenance",
    }
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    BINDINGS = [
        # The footer shows the first ones that fit (keys.KeyFooter); `?` lists them all.
        Binding("n", "create", "New", id="entitlements.create"),
        Binding("a", "add_items", "Add items", id="entitlements.add"),
        Binding("e", "properties", "Edit", id="entitlements.properties"),
        Binding("p", "policies", "Policies", id="entitlements.policies"),
        Binding("m", "maintenance", "Maint.", id="entitlements.maintenance"),
        Binding("u", "users", "Users", id="entitlements.users"),
        Binding("P,shift+p", "catalogue", "Product", id="entitlements.catalogue"),
        Binding("i", "details", "Details", id="entitlements.details"),
        Binding("c", "copy_id", "Copy ID", show=False, id="entitlements.copy"),
        filters_key("entitlements"),
        Binding("x", "clear_filters", "Clear filters", show=False, id="entitlements.clear"),
        Binding("right_square_bracket", "page(1)", "Next page", show=False, id="entitlements.next_page"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, id="entitlements.prev_page"),
        Binding("ctrl+r", "reload", "Refresh from the server", show=False, id="entitlements.reload"),
    ]

    DEFAULT_CSS = """
    EntitlementsScreen #ent-main { height: 1fr; }
    EntitlementsScreen #ent-tree { width: 1fr; height: 1fr; scrollbar-size-horizontal: 0; }
    EntitlementsScreen #ent-detail { width: 40%; height: 1fr; border-left: solid $primary-darken-2; padding: 0 1; }
    EntitlementsScreen.-narrow #ent-main { layout: vertical; }
    EntitlementsScreen.-narrow #ent-detail { width: 1fr; height: 8; border-left: none; border-top: solid $primary-darken-2; }
    EntitlementsScreen.-narrow .toolbar Label { display: none; }
    EntitlementsScreen .toolbar Input.-bad-filter { color: $error; text-style: bold; }
    """

    def __init__(self, initial: dict[str, str] | None = None) -> None:
        super().__init__()
        initial = initial or {}
        self.initial = initial
        self.filters = TreeFilters(
            initial.get("account", ""),
            initial.get("product", ""),
            (initial.get("status", "") or "").upper(),
            initial.get("from", ""),
            initial.get("to", ""),
            initial.get("activation", ""),
        )
        self.page = 1
        self.total: int | None = None
        self.served: int | None = None
        """The page size the server answered (`Page.size`; it may cap or ignore the size asked for): pages are counted by it."""
        self.whole = False
        """The server answered its whole list (`Page.whole`): it is the one page."""
        self.served_entitlements = False
        """Whether `served` and `whole` are of the entitlements list (else of the accounts list)."""
        self.roots: list[Root] = []
        self.ent_children: dict[str, list[Entitlement]] = {}
        self.ent_total: dict[str, int | None] = {}
        self.li_children: dict[str, list[LineItem]] = {}
        self.expanded: set[str] = set()
        self.expanding: set[str] = set()  # keys of nodes whose children are on their way (not `loading`: Textual's overlay)
        self.generation = 0
        self.force_generation: int | None = None  # a ctrl+r reload: expansions in it skip the cache too
        self.client_filter = ""
        self.expansions: list[Expansion] = []
        self.catalogue = CatalogueIndex()
        self.account_names = AccountNames()
        self.node_index: dict[str, TreeNode[Item]] = {}
        self._select_after: str | None = None
        self._awaited: list[str] | None = None
        """The cursor's node and its parents' keys while it waits on `_parked` for its node to load again."""
        self._parked: str | None = None
        self._auto_expand: str | None = initial.get("account") or None
        self._detail_key: str | None = None
        self.hidden_by_date = 0
        self._opened = -1  # the load generation whose few accounts were opened
        self.sort: tuple[str, str] = DEFAULT_SORT
        self.local_sort: tuple[str, str] | None = None
        """The sort asked for when the service refused it: applied here, to each account's loaded entitlements."""
        """How the server sorts entitlements (`:sort`): sort_by and sort_order, as the Entitlements API takes them."""

    @classmethod
    def for_kind(cls, kind: kinds.Kind | None, argument: str | None) -> EntitlementsScreen:
        return cls(parse_argument(argument))

    @property
    def area_title(self) -> str:
        described = self.filters.describe() if self.initial else ""
        return f"{self.kind.title} · {described}" if described else self.kind.title

    # -- services -------------------------------------------------------------------------------

    @property
    def service(self) -> EntitlementsService:
        return EntitlementsService(self.ctx.session)

    @property
    def users(self) -> UsersService:
        return UsersService(self.ctx.session)

    @property
    def page_size(self) -> int:
        return min(self.ctx.settings.page_size, MAX_LIMIT)

    @property
    def tree(self) -> EntitlementTree:
        return self.query_one(EntitlementTree)

    # -- layout -------------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        f = self.filters
        with Horizontal(classes="toolbar"):
            yield Label("Account")
            yield Input(value=f.account, placeholder="account name/ID", id="f-account", compact=True)
            yield Label("Product")
            yield Input(value=f.product, placeholder="product name", id="f-product", compact=True)
            yield Label("Status")
            yield Select(status_options(f.status), value=f.status, allow_blank=False, id="f-status", compact=True)
            yield Label("Created")
            yield Input(value=f.created_from, placeholder="from YYYY-MM-DD", id="f-from", compact=True)
            yield Input(value=f.created_to, placeholder="to YYYY-MM-DD", id="f-to", compact=True)
        yield Label("", id="pager", classes="pager")
        with Horizontal(id="ent-main"):
            tree = EntitlementTree(Text("accounts"), id="ent-tree")
            tree.show_root = False
            tree.guide_depth = 3
            yield tree
            with VerticalScroll(id="ent-detail"):
                yield Static(Text("Move the cursor onto a node to see its details.", style="dim"), id="ent-detail-body")

    def on_mount(self) -> None:
        self.tree.focus()
        self.action_load()

    # -- loading the top level ----------------------------------------------------------------------

    def action_load(self, force: bool = False) -> None:
        """(Re)load the top level for the current filters and page."""
        self.generation += 1
        self.force_generation = self.generation if force else None
        self.expanding.clear()
        self.ent_children.clear()
        self.ent_total.clear()
        self.li_children.clear()
        self.query_one("#pager", Label).update(Text("loading…", style="dim"))
        gen = self.generation

        def failed(exc: BaseException) -> None:
            if gen == self.generation:  # (not a load a newer one replaced)
                self.query_one("#pager", Label).update(Text(NOT_LOADED))

        self.run_api(
            lambda: self._load_roots(force),
            group="ent-roots",
            doing="loading entitlements" if self.filters.on_entitlements else "loading accounts",
            failed=failed,
        )

    def action_reload(self) -> None:
        """Fresh from the server (ctrl+r): the top level and whatever is expanded."""
        self.action_load(force=True)

    async def _load_roots(self, force: bool) -> None:
        gen = self.generation
        try:
            if self.filters.on_entitlements:
                await self._entitlement_roots(gen, force)
            else:
                await self._account_roots(gen, force)
        except BadRequest as exc:
            if not self._sort_refused(exc):
                raise
            await self._load_roots(force)

    def _sort_refused(self, exc: BadRequest) -> bool:
        """A service that refuses the sort asked for: the entitlements are sorted here instead (each list as loaded)."""
        if self.sort == DEFAULT_SORT:
            return False
        self.local_sort, self.sort = self.sort, DEFAULT_SORT
        self.say(f"The service would not sort ({clean(str(exc))}): sorted here, each account's loaded entitlements")
        return True

    def _in_order(self, ents: list[Entitlement]) -> list[Entitlement]:
        if self.local_sort is None:
            return ents
        key, order = self.local_sort
        if key == "created_on":
            return sorted(ents, key=lambda e: (e.created is None, e.created.timestamp() if e.created else 0.0), reverse=order == "desc")
        return sorted(ents, key=lambda e: natural_key(e.entitlement_id), reverse=order == "desc")

    async def _account_roots(self, gen: int, force: bool) -> None:
        order = account_lookup(self.filters.account) or [("", "")]
        for index, (key, value) in enumerate(order):
            last = index == len(order) - 1
            # GET /accounts documents accountId, accountName, accountType[], rootAccountOnly, page and limit
            # (…/account/getaccountsbyfilterandpagination.md): no sort, so none is sent; each page is sorted here.
            query: dict[str, Any] = {"accountType": list(v.LISTED_ACCOUNT_TYPES)}
            if key:
                query[key] = value
            shown = False
            async for page in self.users.accounts_page(AccountFilter.model_validate(query), self.page, self.page_size, force=force):
                if gen != self.generation:
                    return
                if not page.items and not last:
                    continue
                self.total = page.total
                self.served, self.whole, self.served_entitlements = page.size, page.whole, self.filters.on_entitlements
                if page.whole:
                    self.page = 1  # every page is the whole list: that is the one page
                self.roots = by_name([Root(a.account_id, a.account_name, a.account_type, account=a) for a in page.items])
                self.hidden_by_date = 0
                if len(self.roots) == 1:
                    self._auto_expand = self.roots[0].account_id  # one account: show what it holds at once
                self._render_tree()
                self.show_age(page.age)
                shown = bool(page.items)
            if shown:
                return

    async def _entitlement_roots(self, gen: int, force: bool) -> None:
        f = self.filters
        if f.status:
            try:
                v.check_status_filter(f.status)
            except ValueError as exc:
                raise Invalid(f"status: {str(exc).lower()}") from None  # the words as the list filter takes them
        base: dict[str, Any] = {
            "product": f.product or None,
            "status": f.status or None,
            "activationId": f.activation or None,
            "sort_by": self.sort[0],
            "sort_order": self.sort[1],
        }
        order = account_lookup(f.account) or [("", "")]
        for index, (key, value) in enumerate(order):
            last = index == len(order) - 1
            query = dict(base)
            if key:
                query[key] = value
            shown = False
            async for page in self.service.list_page(EntitlementFilter.model_validate(query), self.page, ENT_PAGE, force=force):
                if gen != self.generation:
                    return
                if not page.items and not last:
                    continue
                self.total = page.total
                self.served, self.whole, self.served_entitlements = page.size, page.whole, self.filters.on_entitlements
                if page.whole:
                    self.page = 1  # every page is the whole list: that is the one page
                self._group(page.items)
                if len(self.roots) <= 3 and self._opened != gen:  # a few accounts: open them once (their entitlements are here)
                    self._opened = gen
                    self.expanded.update(f"A:{r.account_id}" for r in self.roots)
                    if f.activation:  # the line item asked for: its entitlement open, the cursor on it once it is there
                        self.expanded.update(f"E:{e.entitlement_id}" for e in page.items)
                        self._select_after = f"L:{f.activation}"
                self._render_tree()
                self.show_age(page.age)
                shown = bool(page.items)
            if shown:
                return

    def _group(self, entitlements: list[Entitlement]) -> None:
        roots: dict[str, Root] = {}
        children: dict[str, list[Entitlement]] = {}
        hidden = 0
        for ent in entitlements:
            if not self.filters.in_dates(ent):
                hidden += 1
                continue
            owner = ent.owner
            account_id = owner.account_id if owner and owner.account_id else v.DEFAULT_ACCOUNT
            if account_id not in roots:
                roots[account_id] = Root(
                    account_id, owner.account_name if owner else None, owner.account_type if owner else None, ref=owner
                )
            children.setdefault(account_id, []).append(ent)
        self.roots = by_name(roots.values())
        self.ent_children = children
        self.ent_total = {k: len(x) for k, x in children.items()}
        self.hidden_by_date = hidden

    # -- rendering ------------------------------------------------------------------------------------

    def _matches(self, *texts: Any) -> bool:
        needle = self.client_filter
        inverse = needle.startswith("!")
        needle = (needle[1:] if inverse else needle).strip().lower()
        if not needle:
            return True
        found = any(needle in clean(t).lower() for t in texts if t)
        return found != inverse

    def _root_matches(self, root: Root) -> bool:
        if self._matches(root.account_id, root.name, root.account_type):
            return True
        return any(self._ent_matches(e) for e in self.ent_children.get(root.account_id, []))

    def _ent_matches(self, ent: Entitlement) -> bool:
        texts: list[Any] = [ent.entitlement_id, ent.description, ent.status]
        for li in self.li_children.get(ent.entitlement_id, []):
            texts += [li.activation_id] + [p.product_name for p in li.products]
        return self._matches(*texts)

    def visible_roots(self) -> list[Root]:
        return [r for r in self.roots if self._root_matches(r)]

    def _cursor_chain(self) -> list[str]:
        """The cursor's node's key, then its parents' (a line item, its entitlement, its account)."""
        chain: list[str] = []
        node = self.tree.cursor_node
        while node is not None and node.data is not None:
            chain.append(node.data.key)
            node = node.parent
        return chain

    def _render_tree(self) -> None:
        tree = self.tree
        chain = self._cursor_chain()
        if self._awaited is not None and chain[:1] == [self._parked]:  # (still) waiting for its node: render again
            chain = self._awaited
        tree.root.remove_children()  # not tree.clear(): it restarts node IDs, and stale nodes would then alias new ones
        self.node_index = {}
        for root in self.visible_roots():
            key = f"A:{root.account_id}"
            node = tree.root.add(self._account_label(root), Item("account", key, root.account_id, root=root), allow_expand=True)
            self.node_index[key] = node
            if key in self.expanded or (self._auto_expand and self._auto_expand in (root.account_id, root.name)):
                self._fill(node)
                node.expand()
        self._auto_expand = None
        self._restore_cursor([self._select_after] if self._select_after else chain)
        self._update_pager()

    def _restore_cursor(self, chain: list[str]) -> None:
        """The cursor back on the first of `chain` shown (its node, else its nearest parent). On a parent while the
        node's own rows load (a refresh, a `:watch` tick), it waits there for them (`_awaited`): left on its line
        number, it stood on another account's rows, and `n` proposed that account."""
        tree = self.tree
        self._awaited = self._parked = None
        for depth, key in enumerate(chain):
            node = self.node_index.get(key)
            if node is not None and self._attached(node):
                tree.move_to(node)
                if key == self._select_after:
                    self._select_after = None
                if depth and key in self.expanded:  # its rows are on their way (or were: `_loaded` gives up if not)
                    self._awaited, self._parked = chain, key
                break
        else:
            if tree.cursor_line < 0 and tree.root.children:
                tree.cursor_line = 0
        after_refresh(self, self._show_detail)

    def _attached(self, node: TreeNode[Item]) -> bool:
        try:
            return self.tree.get_node_by_id(node.id) is node
        except UnknownNodeID:
            return False

    def _fill(self, node: TreeNode[Item]) -> None:
        """Add a node's children from what is loaded (a "loading…" marker when it is on its way)."""
        item = node.data
        assert item is not None
        node.remove_children()
        if item.kind == "account":
            assert item.account_id is not None
            ents = self.ent_children.get(item.account_id)
            if ents is None:
                self._marker(node, "loading…" if item.key in self.expanding else "not loaded: collapse and expand to load")
                return
            root_matches = item.root is not None and self._matches(item.account_id, item.root.name)
            shown = [e for e in self._in_order(ents) if self.filters.in_dates(e) and (root_matches or self._ent_matches(e))]
            for ent in shown:
                key = f"E:{ent.entitlement_id}"
                child = node.add(
                    self._entitlement_label(ent), Item("entitlement", key, item.account_id, entitlement=ent), allow_expand=True
                )
                self.node_index[key] = child
                if key in self.expanded:
                    self._fill(child)
                    child.expand()
            hidden = len(ents) - len(shown)
            total = self.ent_total.get(item.account_id)
            if not ents:
                self._marker(node, "no entitlements" + (" matching the filters" if self.filters.product or self.filters.status else ""))
            elif hidden:
                self._marker(node, f"{hidden} more hidden by the filters")
            if total is not None and total > len(ents):
                self._marker(node, f"… {total - len(ents)} more: narrow with the filters, or `flextui get entitlements {item.account_id}`")
        elif item.kind == "entitlement":
            assert item.entitlement is not None
            ent_id = item.entitlement.entitlement_id
            items = self.li_children.get(ent_id)
            if items is None:
                self._marker(node, "loading…" if item.key in self.expanding else "not loaded: collapse and expand to load")
                return
            for li in items:
                key = f"L:{li.activation_id}"
                child = node.add(
                    self._line_item_label(li),
                    Item("line_item", key, item.account_id, entitlement=item.entitlement, line_item=li),
                    allow_expand=True,
                )
                self.node_index[key] = child
                if key in self.expanded:
                    self._fill(child)
                    child.expand()
            if not items:
                self._marker(node, "no line items")
            total = item.entitlement.line_item_count
            if total is not None and total > len(items):
                self._marker(node, f"… {total - len(items)} more: `flextui get line-items {ent_id}`")
        elif item.kind == "line_item":
            li = item.line_item
            assert li is not None
            for index, product in enumerate(li.products):
                pkey = f"P:{li.activation_id}:{index}"
                label = Text.assemble(
                    ("product ", "dim"), (clean(product.product_name or "?"), "bold"), " ", clean(product.product_version or "")
                )
                if product.part_number:
                    label.append(f" · {clean(product.part_number)}", style="dim")
                leaf = node.add_leaf(
                    label, Item("product", pkey, item.account_id, entitlement=item.entitlement, line_item=li, product=product)
                )
                self.node_index[pkey] = leaf
                model = product.license_model
                if model is not None and model.license_model_name:
                    mkey = f"M:{li.activation_id}:{index}"
                    mlabel = Text.assemble(("license model ", "dim"), clean(model.license_model_name))
                    if model.issuer:
                        mlabel.append(f" · {clean(model.issuer)}", style="dim")
                    leaf2 = node.add_leaf(
                        mlabel, Item("license_model", mkey, item.account_id, entitlement=item.entitlement, line_item=li, product=product)
                    )
                    self.node_index[mkey] = leaf2
            if not li.products:
                self._marker(node, "no product")

    def _marker(self, node: TreeNode[Item], text: str) -> None:
        node.add_leaf(Text(text, style="dim italic"), Item("loading" if text == "loading…" else "message"))

    # labels

    def _account_label(self, root: Root) -> Text:
        label = Text.assemble((clean(root.name or root.account_id), "bold"))
        count = self.ent_total.get(root.account_id)
        if count is not None and root.account_id in self.ent_children:  # before the ID: a narrow tree cuts the end ("…")
            label.append(f" · {plural(count, 'entitlement')}", style="dim")
        if root.name:
            label.append(f"  {clean(root.account_id)}", style="dim")
        if root.account_type and root.account_type != "CUSTOMER":
            label.append(f"  {clean(root.account_type).lower()}", style="italic dim")
        return label

    def _entitlement_label(self, ent: Entitlement) -> Text:
        label = Text.assemble((clean(ent.entitlement_id), "bold"), "  ")
        label.append(clean((ent.status or "?").lower()), style=state_style(self.app, ent.status))
        if ent.line_item_count is not None:
            label.append(f" · {plural(ent.line_item_count, 'item')}", style="dim")
        if ent.description:
            label.append(" · " + clean(ent.description))
        return label

    def _line_item_label(self, li: LineItem) -> Text:
        label = Text.assemble((clean(li.activation_id), "bold"), "  ")
        label.append(clean((li.state or "?").lower()), style=state_style(self.app, li.state))
        label.append(" · ")
        product = li.product
        if li.maintenance:
            label.append("maint. ", style="italic")
        if product is not None:
            label.append(clean(f"{product.product_name or '?'} {product.product_version or ''}".strip()))
            if len(li.products) > 1:
                label.append(f" +{plural(len(li.products) - 1, 'product')}", style="dim")
        if li.quantity is not None:
            label.append(f" ×{li.quantity}")
        label.append_text(self._term(li))
        return label

    def _term(self, li: LineItem) -> Text:
        if li.permanent:
            return Text(" · permanent", style="dim")
        if not li.expiry_date:
            return Text("")
        expiry = li.expires  # whatever form the server wrote it in (a date-time, epoch milliseconds)
        if expiry is None:
            return Text(f" · until {clean(li.expiry_date)}")
        today = datetime.fromtimestamp(self.ctx.now_ms() / 1000, tz=UTC).date()
        days = (expiry - today).days
        if days < 0:
            return Text(f" · expired {li.expiry_date}", style=theme_color(self.app, "error"))
        if days <= self.ctx.settings.expiring_days * 4:
            return Text(f" · ⚠ expires in {days}d ({li.expiry_date})", style=f"bold {theme_color(self.app, 'warning')}")
        return Text(f" · until {li.expiry_date}", style="dim")

    @property
    def asked_size(self) -> int:
        """The page size asked for: entitlements' own, or the accounts'."""
        return ENT_PAGE if self.filters.on_entitlements else self.page_size

    @property
    def served_size(self) -> int:
        """The page size as the server answers it (the size asked for until it has answered)."""
        return (self.served if self.served_entitlements == self.filters.on_entitlements else None) or self.asked_size

    def _update_pager(self) -> None:
        f = self.filters
        total = self.total or 0
        size = self.served_size
        if f.on_entitlements:
            pages = 1 if self.whole else pages_of(total, size)
            first = (self.page - 1) * size + 1 if total else 0
            last = min(self.page * size, total)
            parts = [f"entitlements {first}–{last} of {total:,} matching {f.describe()}", plural(len(self.roots), "account")]
            if self.hidden_by_date:
                parts.append(f"{self.hidden_by_date} of this page created outside the dates")
        else:
            pages = 1 if self.whole else pages_of(total, size)
            first = (self.page - 1) * size + 1 if total else 0
            last = min(self.page * size, total)
            parts = [f"accounts {first}–{last} of {total:,}" + (f" matching {f.account!r}" if f.account else "")]
            if pages > 1:  # the service sorts nothing (its list takes no sort): each page is in name order, not the whole
                parts.append("each page sorted by name")
        parts.append(f"page {self.page} of {pages}")
        parts += served_notes(self.whole, self.served, self.asked_size, self.total)
        if pages > 1:
            parts.append("] next · [ prev")
        if self.client_filter:
            parts.append(f"/{self.client_filter}: {len(self.visible_roots())} shown")
            if pages > 1:
                parts.append("on this page · enter asks the server for every page by account")
        if not total:
            parts = ["nothing matches " + (f.describe() or "") + (" · x clears the filters" if f.describe() else "")]
        self.query_one("#pager", Label).update(Text(clean(" · ".join(parts))))

    # -- lazy loading on expansion ----------------------------------------------------------------------

    @on(Tree.NodeExpanded, "#ent-tree")
    def _expanded(self, event: Tree.NodeExpanded[Item]) -> None:
        node = event.node
        item = node.data
        if item is None or item.kind not in ("account", "entitlement", "line_item") or not self._attached(node):
            return
        self.expanded.add(item.key)
        if item.kind == "account":
            assert item.account_id is not None
            if item.account_id in self.ent_children or item.key in self.expanding:
                if not node.children:
                    self._fill(node)
                return
            self._start_load(node, item)
        elif item.kind == "entitlement":
            assert item.entitlement is not None
            if item.entitlement.entitlement_id in self.li_children or item.key in self.expanding:
                if not node.children:
                    self._fill(node)
                return
            self._start_load(node, item)
        elif not node.children:
            self._fill(node)

    @on(Tree.NodeCollapsed, "#ent-tree")
    def _collapsed(self, event: Tree.NodeCollapsed[Item]) -> None:
        item = event.node.data
        if item is not None and self._attached(event.node):
            self.expanded.discard(item.key)
            if item.kind in ("account", "entitlement") and item.key not in self.expanding:
                loaded = self.ent_children if item.kind == "account" else self.li_children
                ident = item.account_id if item.kind == "account" else (item.entitlement.entitlement_id if item.entitlement else "")
                if ident not in loaded:
                    event.node.remove_children()  # a failed load: expanding again retries

    def _start_load(self, node: TreeNode[Item], item: Item, *, force: bool = False) -> None:
        gen = self.generation
        force = force or self.force_generation == gen
        self.expanding.add(item.key)
        record = Expansion(item.key, time.perf_counter(), requests_before=self.ctx.session.requests_sent)
        self.expansions.append(record)
        node.remove_children()
        self._marker(node, "loading…")

        async def job() -> None:
            try:
                if item.kind == "account":
                    assert item.account_id is not None
                    account_id = item.account_id

                    async def fill() -> None:
                        query = EntitlementFilter(accountId=account_id, sort_by=self.sort[0], sort_order=self.sort[1])
                        async for page in self.service.list_page(query, 1, MAX_LIMIT, force=force):
                            if gen != self.generation:
                                return
                            self.ent_children[account_id] = page.items
                            self.ent_total[account_id] = page.total
                            self._loaded(item.key, record, page.age)

                    try:
                        await fill()
                    except BadRequest as exc:
                        if not self._sort_refused(exc):
                            raise
                        await fill()
                else:
                    assert item.entitlement is not None
                    ent_id = item.entitlement.entitlement_id
                    async for page in self.service.line_items_page(ent_id, None, 1, MAX_LIMIT, force=force):
                        if gen != self.generation:
                            return
                        self.li_children[ent_id] = page.items
                        self._loaded(item.key, record, page.age)
            except Exception:
                if gen == self.generation:
                    self.expanding.discard(item.key)
                    target = self.node_index.get(item.key)
                    if target is not None and self._attached(target):
                        target.remove_children()
                        self._marker(target, "✗ failed to load: collapse and expand to retry (error below)")
                raise
            finally:
                record.finished = time.perf_counter()
                record.requests = self.ctx.session.requests_sent - record.requests_before
                if gen == self.generation:
                    self.expanding.discard(item.key)

        what = (
            f"entitlements of {item.account_id}"
            if item.kind == "account"
            else f"line items of {item.entitlement.entitlement_id if item.entitlement else '?'}"
        )
        self.run_api(job, group=f"expand-{item.key}", doing=f"loading {what}")

    def _loaded(self, key: str, record: Expansion, age: float | None) -> None:
        if record.shown is None:
            record.shown = time.perf_counter()
            record.from_cache = age is not None
        node = self.node_index.get(key)
        if node is None or not self._attached(node):
            return
        item = node.data
        assert item is not None
        self.expanding.discard(key)
        if item.kind == "account" and item.root is not None:
            node.set_label(self._account_label(item.root))
        cursor = self.tree.cursor_node
        cursor_key = cursor.data.key if cursor is not None and cursor.data is not None else None
        self._fill(node)
        # the cursor may stand where the marker was (enter, then down, before the answer): it is now on a child,
        # with no highlight event from the tree, so the detail pane is shown again after the refresh
        after_refresh(self, self._show_detail)
        if cursor_key and cursor_key in self.node_index and cursor_key != key:
            target = self.node_index[cursor_key]
            if self._attached(target):
                self.tree.move_to(target)
        if self._select_after and self._select_after in self.node_index:
            self.tree.move_to(self.node_index[self._select_after])
            if not self.expanding:  # a change reloads an entitlement and its account: the last one in places the cursor
                self._select_after = None
        elif self._awaited is not None:
            if cursor_key == self._parked:
                parked_rows_came = key == self._parked
                self._restore_cursor(self._awaited)  # nearer its node, or on it
                if parked_rows_came and self._parked == key:
                    self._awaited = self._parked = None  # its parent's rows came, and it is not among them
            else:
                self._awaited = self._parked = None  # the user moved meanwhile: the cursor is theirs
        self._show_detail()

    def forget_children(self) -> None:
        """Drop what expansions loaded (the session cache keeps it) and collapse everything."""
        self.generation += 1
        self.ent_children.clear()
        self.ent_total.clear()
        self.li_children.clear()
        self.expanding.clear()
        self.expanded.clear()
        if self.filters.on_entitlements:
            self.action_load()
        else:
            self._render_tree()

    # -- detail ------------------------------------------------------------------------------------

    @on(Tree.NodeHighlighted, "#ent-tree")
    def _highlighted(self, event: Tree.NodeHighlighted[Item]) -> None:
        self._show_detail()
        self.refresh_bindings()  # the footer offers what the row under the cursor allows

    ROW_ACTIONS: ClassVar[dict[str, tuple[str, bool]]] = {
        "add_items": ("Adding line items", False),
        "maintenance": ("Adding a maintenance line item", False),
        "policies": ("Changing policies", True),
        "properties": ("Editing a line item", True),
    }
    """Actions on the row under the cursor: what they do, and whether they need a line item (else an entitlement)."""

    def _cursor_allows(self, action: str) -> bool:
        if action not in self.ROW_ACTIONS:
            return True
        item = self.current()
        if self.ROW_ACTIONS[action][1]:
            return item is not None and item.line_item is not None and item.entitlement is not None
        return self._entitlement_of(item) is not None

    ON_A_ROW: ClassVar[frozenset[str]] = frozenset({"users", "catalogue", "details", "copy_id"})
    """Reads of the row under the cursor: greyed while nothing is listed (a load that failed, a filter matching nothing)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.is_mounted and not self._cursor_allows(action):
            return False
        if self.is_mounted and action in self.ON_A_ROW and self.current() is None:
            return None
        if self.is_mounted and action == "catalogue" and self._product_link() is None:
            return None  # (greyed on an account or an entitlement: P opens a line item's product)
        return super().check_action(action, parameters)

    def why_not(self, action: str, description: str) -> str | None:
        if self.is_mounted and action in self.ON_A_ROW and self.current() is None:
            return f"Nothing is listed here: {description} needs a row under the cursor"
        if self.is_mounted and action == "catalogue" and self._product_link() is None:
            return CATALOGUE_WHERE
        if self.is_mounted and not self.ctx.read_only and not self._cursor_allows(action):
            doing, line_item = self.ROW_ACTIONS[action]
            return f"{doing}: put the cursor on {'a line item' if line_item else 'an entitlement or one of its line items'}"
        # the footer's short words ("Maint.") are not the reason's: what the key does, in full
        return super().why_not(action, self.ROW_ACTIONS[action][0].lower() if action in self.ROW_ACTIONS else description)

    def raw_record(self) -> Any | None:
        item = self.current()
        if item is None:
            return None
        return {
            "account": (item.root.account or item.root.ref) if item.root else None,
            "entitlement": item.entitlement,
            "line_item": item.line_item,
            "product": item.product,
        }.get(item.kind)

    def current(self) -> Item | None:
        node = self.tree.cursor_node
        return node.data if node is not None else None

    def _show_detail(self) -> None:
        try:
            body = self.query_one("#ent-detail-body", Static)
        except Exception:
            return
        item = self.current()
        text = self.detail_text(item) if item is not None else None
        body.update(text or Text("Move the cursor onto a node to see its details.", style="dim"))

    def detail_text(self, item: Item, *, show_title: bool = True) -> Text | None:
        now = self.ctx.now_ms()
        if item.kind == "account" and item.root is not None:
            return self._account_detail(item.root, show_title=show_title)
        if item.kind == "entitlement" and item.entitlement is not None:
            return entitlement_detail(
                item.entitlement, now, self.li_children.get(item.entitlement.entitlement_id), show_title=show_title
            ).text
        if item.kind == "line_item" and item.line_item is not None:
            policies = bound_key(self, "entitlements.policies")
            return line_item_detail(item.line_item, item.entitlement, now, show_title=show_title, policies_key=policies).text
        if item.kind in ("product", "license_model") and item.product is not None:
            catalogue = bound_key(self, "entitlements.catalogue")
            return product_detail(item.product, item.line_item, show_title=show_title, catalogue_key=catalogue).text
        return None

    def _account_detail(self, root: Root, *, show_title: bool = True) -> Text:
        b = Body(show_title=show_title)
        b.title(f"Account {root.name or root.account_id}")
        b.line("Account ID", root.account_id).line("Type", root.account_type)
        a = root.account
        if a is not None:
            address = ", ".join(x for x in (a.address1, a.address2, a.city, a.state, a.zipcode, a.country) if x)
            b.line("Description", a.description).line("Address", address).line("Region", a.region)
            b.line("Parent", a.parent_account_id).line("Visible", yes_no(a.visible)).line("Created", when(a.created, self.ctx.now_ms()))
            if a.attributes:
                b.section("Attributes").pairs((x.name, x.value) for x in a.attributes)
        elif root.ref is not None:
            b.line("Partner tier", root.ref.partner_tier_name).line("Contact", root.ref.contact_email)
        ents = self.ent_children.get(root.account_id)
        if ents is not None:
            states: dict[str, int] = {}
            for e in ents:
                states[(e.status or "?").lower()] = states.get((e.status or "?").lower(), 0) + 1
            b.line("Entitlements", f"{len(ents)}" + (f" ({', '.join(f'{n} {s}' for s, n in sorted(states.items()))})" if states else ""))
        keys = hint(
            (bound_key(self, "entitlements.users"), "users of this account"),
            (bound_key(self, "entitlements.copy"), "copy the ID"),
            (bound_key(self, "entitlements.create"), "new entitlement for it"),
        )
        if keys:
            b.note("\n" + keys)
        return b.text

    # -- client filter -----------------------------------------------------------------------------------

    def apply_filter(self, text: str) -> None:
        self.client_filter = text
        self._render_tree()

    def search_all(self, text: str) -> None:
        """Enter in the filter bar when the roots span several pages: the server filters every page by account."""
        text = text.strip()
        per_page = self.served_size
        if not text or text.startswith("!") or (self.total or 0) <= per_page:
            return
        self.set_filter_text(self.query_one("#f-account", Input), text)
        self._apply_query()

    # -- query bar ------------------------------------------------------------------------------------------

    def _read_filters(self) -> TreeFilters | None:
        """The filter bar as applied (`applied_text`: text typed without enter is no filter), or None when refused."""

        def applied(wid: str) -> str:
            return self.applied_text(self.query_one(wid, Input)).strip()

        values = TreeFilters(
            applied("#f-account"),
            applied("#f-product"),
            str(self.query_one("#f-status", Select).value or ""),
            applied("#f-from"),
            applied("#f-to"),
        )
        bad = []
        for wid, value in (("#f-from", values.created_from), ("#f-to", values.created_to)):
            widget = self.query_one(wid, Input)
            ok = True
            if value:
                try:
                    v.parse_ymd(value)
                except ValueError as exc:
                    ok = False
                    bad.append(f"created {'from' if wid == '#f-from' else 'to'}: {exc}")
            widget.set_class(not ok, "-bad-filter")
        if not bad and values.created_from and values.created_to and values.created_to < values.created_from:
            bad.append("created to: must not be before created from")
        if bad:
            self.report_error(Invalid("; ".join(bad)), doing="filters")
            return None
        return values

    def _apply_query(self) -> bool:
        """The filter bar applied and the tree read again by it (the focus in the tree); False when it is refused."""
        values = self._read_filters()
        if values is None:
            return False
        if values == self.filters and self._has_data:
            self.tree.focus()
            return True
        self.filters = values
        self.retitle()  # the header named the filters the screen was opened with ("activation=…")
        self.page = 1
        self.expanded.clear()
        self.status.error = ""
        self.action_load()
        self.tree.focus()
        return True

    def filters_entered(self, field: Widget) -> bool:
        """Enter in a filter field, or a status chosen (AreaScreen has applied the bar): the tree read by them; refused:
        the field keeps the focus."""
        return self._apply_query()

    @on(Select.Changed, "#f-status")
    def _status_changed(self, event: Select.Changed) -> None:
        event.stop()
        if str(event.value or "") != self.filters.status:  # (also the Changed a Select posts when it is mounted)
            self.enter_filters(event.select)  # as enter does: the text typed beside it too (the keys go to the tree)

    def first_filter(self) -> Widget | None:
        return self.query_one("#f-account", Input)

    def action_clear_filters(self) -> None:
        for wid in ("#f-account", "#f-product", "#f-from", "#f-to"):
            self.set_filter_text(self.query_one(wid, Input), "")
        self.query_one("#f-status", Select).value = ""
        self._apply_query()

    SORT_NAMES: ClassVar[dict[str, str]] = {
        "entitlement": "entitlement_id",
        "entitlement_id": "entitlement_id",
        "id": "entitlement_id",
        "created": "created_on",
        "created_on": "created_on",
        "date": "created_on",
    }

    def watch_every(self, seconds: float | None) -> str:
        """As a list's, but the tree is read again without marks: `+` and `~` are a list's rows' (README)."""
        said = super().watch_every(seconds)
        if seconds is None or self.watcher is None:
            return said
        return f"Watching {self.area_title}: read again every {seconds:g} s, the cursor kept (+ and ~ marks are for lists)"

    def sort_by_words(self, words: list[str]) -> None:
        """`:sort entitlement|created [desc]`: the Entitlements API sorts its lists (GET /entitlements takes sort_by and
        sort_order asc | desc besides page and limit: docs.revenera.com EntMgmtAPIIntro.htm and
        EntMgmtAPISimpleEntitlements.htm, via ../shared/api-notes.md §4), so every page comes in that order, not only this one."""
        name, descending = sort_words(words)
        key = self.SORT_NAMES.get(name.casefold().replace(" ", "_"), None) if name else "entitlement_id"
        if key is None:
            self.app.notify(f"The service sorts entitlements by entitlement or created, not {name!r}", severity="error", markup=False)
            return
        self.sort = (key, "desc" if descending else "asc")
        self.local_sort = None
        self.generation += 1  # what is loaded came in the old order: every expanded account asks again
        self.ent_children.clear()
        self.ent_total.clear()
        self.expanding.clear()
        self.action_load()
        order = "newest first" if key == "created_on" and descending else ("descending" if descending else "ascending")
        self.say(f"Entitlements sorted by the server: {key} {order}")

    def page_position(self) -> tuple[int, int | None] | None:
        """(this page, the last page or None when unknown), counted from 1 (`:page N`)."""
        return self.page, (1 if self.whole else pages_of(self.total, self.served_size) if self.total is not None else None)

    def action_page(self, delta: int) -> None:
        target = self.page + delta
        last = self.page_position()
        if target < 1 or (last is not None and last[1] is not None and target > last[1]):
            return
        self.page = target
        self.action_load()

    # -- jumps and copying ---------------------------------------------------------------------------------

    def _account_of(self, item: Item | None) -> Root | None:
        if item is None or item.account_id is None:
            return None
        return next((r for r in self.roots if r.account_id == item.account_id), Root(item.account_id))

    def _users_link(self) -> Link | None:
        root = self._account_of(self.current())
        return Link(f"users of account {root.account_id}", "users", root.account_id) if root is not None else None

    def _product_link(self) -> Link | None:
        item = self.current()
        product = item.product if item is not None else None
        if product is None and item is not None and item.line_item is not None:
            product = item.line_item.product
        if product is None or not product.product_name:
            return None
        argument = product.product_name + (f"@{product.product_version}" if product.product_version else "")
        return Link(f"product {argument} in the catalogue", "products", argument)

    def related_links(self) -> list[Link]:
        """j: a line item's (or product's) product in the catalogue, the account's users."""
        return [link for link in (self._product_link(), self._users_link()) if link is not None]

    def _jump(self, link: Link | None, otherwise: str) -> None:
        if link is None:
            self.say(otherwise)
        else:
            flex_app(self).jump(link)

    def action_users(self) -> None:
        self._jump(self._users_link(), "Put the cursor on an account (or anything in it) to list its users")

    def action_catalogue(self) -> None:
        self._jump(self._product_link(), CATALOGUE_WHERE)

    def action_copy_id(self) -> None:
        item = self.current()
        if item is None:
            return
        if item.kind == "account" and item.account_id:
            value, what = item.account_id, "account ID"
        elif item.kind == "entitlement" and item.entitlement is not None:
            value, what = item.entitlement.entitlement_id, "entitlement ID"
        elif item.line_item is not None:
            value, what = item.line_item.activation_id, "activation ID"
        else:
            return
        flex_app(self).copy_text(value, f"{what} {value}")

    def action_details(self) -> None:
        item = self.current()
        if item is None:
            return
        text = self.detail_text(item, show_title=False)
        if text is None:
            return
        actions: list[tuple[str, str, str]] = []
        if item.kind == "account":
            title = f"Account {item.account_id}"
            actions = [("u", "users", "users"), ("c", "copy_id", "copy ID"), ("n", "create", "new entitlement")]
        elif item.kind == "entitlement":
            title = f"Entitlement {item.entitlement.entitlement_id if item.entitlement else ''}"
            actions = [("c", "copy_id", "copy ID"), ("a", "add_items", "add line items"), ("m", "maintenance", "maintenance item")]
        elif item.kind in ("product", "license_model") and item.product is not None:
            title = f"Product {item.product.product_name or ''} {item.product.product_version or ''}".strip()
            actions = [("P", "catalogue", "catalogue"), ("c", "copy_id", "copy activation ID")]
        else:
            li = item.line_item
            title = f"Line item {li.activation_id if li else ''}"
            actions = [("P", "catalogue", "catalogue"), ("c", "copy_id", "copy ID")]
            actions += [("p", "policies", "policies"), ("e", "properties", "edit"), ("m", "maintenance", "maintenance item")]
        # A change this profile cannot make is not offered; its key says why, as the tree's own key does.
        refused = {action: why for _, action, label in actions if self.ctx.read_only and (why := self.why_not(action, label))}

        def chosen(action: str | None) -> None:
            if action:
                self.call_later(self.run_action, action)

        self.app.push_screen(RecordScreen(title, text, actions, refused, record=self.raw_record()), chosen)


__all__ = ["EntitlementsScreen", "EntitlementTree", "parse_argument"]
