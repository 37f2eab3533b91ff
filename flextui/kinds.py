"""The one registry of resource kinds.

Each kind says its id and aliases (for `:` and the command palette), its
columns, the screen that shows it, the headless lister that prints it (and
every field its rows carry, so an empty listing has the header of a full
one), and what can be done to it. The command bar, the palette, key hints,
help and the read-only rule are all derived from this table, so no screen
can forget a check: an action listed in `MUTATING` is refused on a read-only
profile here, hidden in the UI, and refused again by the data layer before
any request.

Screens and listers are named by dotted path ("module:attr") so this module
stays import-light for the CLI.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import Any

MUTATING = frozenset({"create", "update", "delete", "rotate", "reset", "add", "policies", "properties", "maintenance"})


@dataclass(frozen=True, slots=True)
class Column:
    """A column: the key in a row dict, its title, and a preferred width."""

    key: str
    title: str
    width: int | None = None


@dataclass(frozen=True, slots=True)
class Kind:
    """A resource kind and everything the app derives from it."""

    id: str
    title: str
    aliases: tuple[str, ...]
    service: str
    description: str
    columns: tuple[Column, ...]
    actions: frozenset[str]
    screen: str | None = None
    lister: str | None = None
    argument: str | None = None  # e.g. "PROJECT" for `:charts PROJECT`
    extra: dict[str, Any] = field(default_factory=dict)
    more_fields: tuple[str, ...] = ()
    """The keys the lister's rows carry besides the columns', in the order they follow them (see `fields`);
    tests/test_headless_columns.py keeps them equal to the row function's keys."""

    @property
    def names(self) -> tuple[str, ...]:
        return (self.id, *self.aliases)

    @property
    def fields(self) -> tuple[str, ...]:
        """Every key of a headless listing's rows, the columns' first: its header and objects, with rows or none.

        Declared, not taken from the first row, so a script reading columns by
        name or position sees the same ones on a day without rows.
        """
        return (*(c.key for c in self.columns), *self.more_fields)

    def can(self, action: str, *, read_only: bool) -> bool:
        """Whether `action` is offered for this kind on a profile."""
        if action not in self.actions:
            return False
        return not (read_only and action in MUTATING)

    def screen_class(self) -> Any:
        if self.screen is None:
            raise LookupError(f"{self.id} has no screen")
        return _resolve(self.screen)

    def lister_function(self) -> Any:
        if self.lister is None:
            raise LookupError(f"{self.id} cannot be listed headless")
        return _resolve(self.lister)

    @property
    def has_screen(self) -> bool:
        return self.screen is not None and _module_exists(self.screen.partition(":")[0])

    @property
    def has_lister(self) -> bool:
        return self.lister is not None and _module_exists(self.lister.partition(":")[0])


@dataclass(frozen=True, slots=True)
class Link:
    """A record another record names: shown as `label`, opened as `:kind argument` (a related jump, `j`)."""

    label: str
    kind: str
    argument: str | None


def _resolve(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


@functools.cache
def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


C = Column
KINDS: tuple[Kind, ...] = (
    Kind(
        "tokens",
        "Access tokens",
        ("token", "tok", "at"),
        "tokens",
        "Access tokens by user or creator; search, create, rotate, edit, delete, verify",
        (
            C("name", "Name", 25),
            C("type", "Type", 12),
            C("expires", "Expires", 27),
            C("username", "User", 28),
            C("creator", "Creator", 28),
            C("issued", "Issued", 16),
            C("description", "Description", 30),
        ),
        frozenset({"list", "search", "get", "create", "update", "delete", "rotate", "verify", "export"}),
        screen="flextui.ui.screens.tokens:TokensScreen",
        lister="flextui.headless.tokens:get_tokens",
        more_fields=("expiryStr", "masked"),
    ),
    Kind(
        "projects",
        "Registry projects",
        ("project", "proj", "registry"),
        "registry",
        "Container registry projects (download packages) with repositories, charts and members",
        (
            C("name", "Project", 26),
            C("repo_count", "Repos", 5),
            C("chart_count", "Charts", 6),
            C("creation_time", "Created", 10),
            C("update_time", "Updated", 22),
        ),
        frozenset({"list", "get", "export"}),
        screen="flextui.ui.screens.registry.projects:ProjectsScreen",
        lister="flextui.headless.registry:get_projects",
        more_fields=("project_id",),
    ),
    Kind(
        "charts",
        "Helm charts",
        ("chart",),
        "registry",
        "Helm charts of a registry project",
        (
            C("name", "Chart", 28),
            C("version", "Latest", 10),
            C("app_version", "App version", 12),
            C("created", "Created", 16),
            C("description", "Description", 40),
        ),
        frozenset({"list", "get", "delete"}),
        screen="flextui.ui.screens.registry.projects:ProjectScreen",
        argument="PROJECT",
    ),
    Kind(
        "repositories",
        "Repositories",
        ("repos", "repo", "images"),
        "registry",
        "Image repositories of a registry project",
        (C("name", "Repository", 34), C("artifact_count", "Artifacts", 9), C("pull_count", "Pulls", 8), C("public", "Access", 8)),
        frozenset({"list", "delete"}),
        screen="flextui.ui.screens.registry.projects:ProjectScreen",
        argument="PROJECT",
    ),
    Kind(
        "artifacts",
        "Artifacts",
        ("artifact",),
        "registry",
        "Artifacts (tags, digests, sizes) of a repository",
        (
            C("digest", "Digest", 12),
            C("tags", "Tags", 16),
            C("size", "Size", 9),
            C("push_time", "Pushed (UTC)", 16),
            C("pull_time", "Pulled (UTC)", 16),
        ),
        frozenset({"list", "export"}),
        screen="flextui.ui.screens.registry.projects:ArtifactsScreen",
        lister="flextui.headless.registry:get_artifacts",
        more_fields=("type", "media_type", "id"),
        argument="PROJECT/REPOSITORY",
    ),
    Kind(
        "members",
        "Project members",
        ("member",),
        "registry",
        "Who can pull from a registry project",
        (C("entity_name", "Member", 40), C("role_name", "Role", 18), C("entity_type", "Type", 6)),
        frozenset({"list", "export"}),
        screen="flextui.ui.screens.registry.projects:ProjectScreen",
        lister="flextui.headless.registry:get_members",
        more_fields=("role_id", "entity_id", "id", "project_id"),
        argument="PROJECT",
    ),
    Kind(
        "downloads",
        "Download log",
        ("download", "dl"),
        "registry",
        "End customers' downloads across projects, per day",
        (C("timestamp", "When", 20), C("artifact", "Artifact", 36), C("username", "User", 28), C("accounts", "Accounts", 20)),
        frozenset({"list", "export"}),
        screen="flextui.ui.screens.registry.downloads:DownloadsScreen",
        lister="flextui.headless.registry:get_downloads",
        more_fields=("project", "id", "account"),  # account: the field as the server sent it ("[a, b]")
    ),
    Kind(
        "secret",
        "Registry secret",
        ("secrets", "event", "events"),
        "registry",
        "Your registry secret: reveal, copy, reset; event status",
        (),
        frozenset({"get", "reset"}),
        screen="flextui.ui.screens.registry.secret:SecretScreen",
    ),
    Kind(
        "reports",
        "Data reports",
        ("report", "rep", "data"),
        "data",
        "Report catalogue, filter builder, 100k-row results, statistics and export",
        (C("name", "Report", 20), C("columns", "Columns", 8), C("filters", "Filters", 40)),
        frozenset({"list", "run", "export"}),
        screen="flextui.ui.screens.reports.catalogue:ReportsScreen",
        lister="flextui.headless.reports:get_reports",
        more_fields=("dateField", "description"),
        argument="[GROUP [CONDITION; …]]",
    ),
    Kind(
        "entitlements",
        "Entitlements",
        ("ent", "entitlement", "ents"),
        "entitlements",
        "Entitlement tree: account → entitlement → line items → products; create, add items, policies, properties",
        (
            C("entitlement_id", "Entitlement", 16),
            C("account", "Account", 24),
            C("status", "Status", 10),
            C("line_items", "Items", 6),
            C("created", "Created", 12),
        ),
        frozenset({"list", "get", "create", "add", "policies", "properties", "maintenance", "export"}),
        screen="flextui.ui.screens.entitlements.tree:EntitlementsScreen",
        lister="flextui.headless.entitlements:get_entitlements",
        more_fields=(
            "account_id",
            "description",
            "ship_to_email",
            "ship_to_address",
            "allow_portal_login",
            "accounts",
            "attributes",
            "created_on",
            "updated_on",
        ),
        argument="[ACCOUNT | product=NAME status=S]",
    ),
    Kind(
        "line-items",
        "Line items",
        ("lineitems", "li"),
        "entitlements",
        "Line items of an entitlement",
        (
            C("activation_id", "Activation ID", 22),
            C("product", "Product", 24),
            C("version", "Version", 10),
            C("quantity", "Qty", 6),
            C("start_date", "Start", 10),
            C("expiry_date", "Expiry", 10),
            C("state", "State", 10),
        ),
        frozenset({"list", "export"}),
        lister="flextui.headless.entitlements:get_line_items",
        more_fields=(
            "entitlement_id",
            "part_number",
            "license_model",
            "quantity_per_copy",
            "permanent",
            "order_type",
            "maintenance",
            "parent_activation_id",
            "policies",
            "attributes",
        ),
        argument="ENTITLEMENT",
    ),
    Kind(
        "products",
        "Products",
        ("product", "prod", "catalog", "catalogue"),
        "products",
        "The product catalogue",
        (
            C("name", "Product", 24),
            C("version", "Version", 10),
            C("state", "State", 10),
            C("license_technology", "Technology", 18),
            C("category", "Category", 20),
            C("part_numbers", "Part numbers", 20),
        ),
        frozenset({"list", "get", "create", "export"}),
        screen="flextui.ui.screens.products:ProductsScreen",
        lister="flextui.headless.products:get_products",
        more_fields=(
            "license_models",
            "features",
            "feature_bundles",
            "license_generator",
            "host_type",
            "used_on_device",
            "start_date",
            "end_date",
            "description",
            "created",
            "modified",
        ),
        argument="[NAME[@VERSION]]",
    ),
    Kind(
        "features",
        "Features",
        ("feature", "feat"),
        "products",
        "Licensed features",
        (
            C("name", "Feature", 26),
            C("version", "Version", 10),
            C("state", "State", 10),
            C("version_format", "Format", 10),
            C("aggregation", "Aggregation", 11),
            C("description", "Description", 30),
        ),
        frozenset({"list", "get", "create", "export"}),
        screen="flextui.ui.screens.products:ProductsScreen",
        lister="flextui.headless.products:get_features",
        more_fields=("max_version", "vendor_string", "created", "modified"),
        argument="[NAME]",
        extra={"tab": "features"},
    ),
    Kind(
        "feature-bundles",
        "Feature bundles",
        ("bundles", "bundle"),
        "products",
        "Feature bundles",
        (C("name", "Bundle", 24), C("state", "State", 10), C("features", "Features", 44), C("description", "Description", 30)),
        frozenset({"list", "get", "export"}),
        screen="flextui.ui.screens.products:ProductsScreen",
        lister="flextui.headless.products:get_feature_bundles",
        more_fields=("created", "modified"),
        argument="[NAME]",
        extra={"tab": "bundles"},
    ),
    Kind(
        "suites",
        "Suites",
        ("suite",),
        "products",
        "Product suites",
        (
            C("name", "Suite", 22),
            C("version", "Version", 10),
            C("state", "State", 10),
            C("products", "Products", 40),
            C("part_numbers", "Part numbers", 16),
        ),
        frozenset({"list", "get", "export"}),
        screen="flextui.ui.screens.products:ProductsScreen",
        lister="flextui.headless.products:get_suites",
        more_fields=("package", "license_technology", "host_type", "description", "created"),
        argument="[NAME]",
        extra={"tab": "suites"},
    ),
    Kind(
        "part-numbers",
        "Part numbers",
        ("partnumbers", "parts", "pn"),
        "products",
        "Part numbers",
        (
            C("name", "Part number", 20),
            C("product", "Product", 28),
            C("license_model", "License model", 14),
            C("type", "Type", 12),
            C("description", "Description", 30),
        ),
        frozenset({"list", "get", "export"}),
        screen="flextui.ui.screens.products:ProductsScreen",
        lister="flextui.headless.products:get_part_numbers",
        more_fields=("trial", "created"),
        argument="[PART]",
        extra={"tab": "parts"},
    ),
    Kind(
        "maintenance",
        "Maintenance products",
        ("maint",),
        "products",
        "Maintenance products",
        (
            C("name", "Maintenance", 24),
            C("version", "Version", 10),
            C("state", "State", 10),
            C("part_numbers", "Part numbers", 20),
            C("description", "Description", 30),
        ),
        frozenset({"list", "get", "export"}),
        screen="flextui.ui.screens.products:ProductsScreen",
        lister="flextui.headless.products:get_maintenance",
        more_fields=("created",),
        argument="[NAME]",
        extra={"tab": "maintenance"},
    ),
    Kind(
        "users",
        "Users",
        ("user", "usr"),
        "users",
        "Users and their accounts",
        (C("user_name", "User", 34), C("display_name", "Name", 20), C("account", "Account", 24), C("status", "Status", 8)),
        frozenset({"list", "get", "create", "export"}),
        screen="flextui.ui.screens.users:UsersScreen",
        lister="flextui.headless.users:get_users",
        more_fields=("email", "account_ids", "roles", "portal_login", "locale", "timezone", "created"),
        argument="[ACCOUNT]",
        extra={"tab": "users"},
    ),
    Kind(
        "accounts",
        "Accounts",
        ("account", "acct", "orgs"),
        "users",
        "Customer, partner and publisher accounts",
        (
            C("account_id", "Account ID", 14),
            C("name", "Name", 28),
            C("account_type", "Type", 16),
            C("country", "Country", 7),
            C("city", "City", 16),
        ),
        frozenset({"list", "get", "create", "export"}),
        screen="flextui.ui.screens.users:UsersScreen",
        lister="flextui.headless.users:get_accounts",
        more_fields=("region", "parent_account_id", "visible", "description", "attributes", "created"),
        argument="[ACCOUNT]",
        extra={"tab": "accounts"},
    ),
)

_BY_NAME: dict[str, Kind] = {name: kind for kind in KINDS for name in kind.names}


def lookup(word: str) -> Kind | None:
    """The kind called `word` (id or alias, case-insensitive)."""
    return _BY_NAME.get(word.strip().lower())


def get(kind_id: str) -> Kind:
    return next(kind for kind in KINDS if kind.id == kind_id)


def navigable() -> list[Kind]:
    """Kinds whose screens exist in this build (the command bar offers these)."""
    return [kind for kind in KINDS if kind.has_screen]
