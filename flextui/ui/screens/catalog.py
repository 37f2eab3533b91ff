"""The product catalogue: products, features, feature bundles, suites, part numbers, maintenance.

One tab per list, each with the server-side filters the API has (name,
version, state, and any other query parameter as `key=value; …`), pages
with "page N of M" from the pagination total, the `/` client filter, a
detail view and jumps (a product's entitlements). New products show the
defaults the server will apply (technology, generator, category, host type,
state) while they are typed, before anything is sent.
"""

from __future__ import annotations

import re
from collections.abc import Callable
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
from flextui.api.products import (
    Feature,
    FeatureBundle,
    FeatureCreate,
    FeatureFilter,
    FeatureBundleFilter,
    MaintenanceFilter,
    MaintenanceProduct,
    PartNumber,
    PartNumberFilter,
    Product,
    ProductCreate,
    ProductFilter,
    ProductsService,
    Suite,
    SuiteFilter,
)
from flextui.headless.entitlements import parse_filters
from flextui.headless.products import bundle_row, feature_row, maintenance_row, part_number_row, product_row, suite_row
from flextui.textutil import clean
from flextui.ui.screens.base import AreaScreen
from flextui.ui.screens.entitlements import BetaForm, toolbar as _toolbar, Body, NameSuggester, RecordScreen, number, state_style, validated, when, yes_no
from flextui.ui.widgets.bars import TitleBar
from flextui.ui.widgets.forms import FieldSpec
from flextui.ui.widgets.table import ResourceTable


@dataclass(frozen=True)
class Tab:
    """One catalogue list: its pane, kind, cached lister, filter model and the filters the toolbar offers."""

    id: str
    kind: str
    title: str
    method: str
    model: type[Any]
    name_key: str
    version_key: str | None
    choice_key: str
    choices: tuple[tuple[str, Any], ...]
    row: Callable[[Any], dict[str, Any]]
    noun: str


def _states(states: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    return (("any state", ""),) + tuple((s.lower(), s) for s in states)


TABS: tuple[Tab, ...] = (
    Tab("products", "products", "Products", "products_page", ProductFilter, "productName", "version", "state", _states(v.PRODUCT_STATES), product_row, "product"),
    Tab("features", "features", "Features", "features_page", FeatureFilter, "name", "version", "state", _states(v.FEATURE_STATES), feature_row, "feature"),
    Tab("bundles", "feature-bundles", "Bundles", "feature_bundles_page", FeatureBundleFilter, "name", None, "state", _states(("DRAFT", "DEPLOYED")), bundle_row, "bundle"),
    Tab("suites", "suites", "Suites", "suites_page", SuiteFilter, "suiteName", "version", "state", _states(("DRAFT", "DEPLOYED", "OBSOLETE", "INACTIVE")), suite_row, "suite"),
    Tab("parts", "part-numbers", "Part numbers", "part_numbers_page", PartNumberFilter, "partNumber", None, "unmappedWithProduct",
        (("mapped or not", ""), ("not mapped to a product", True), ("mapped to a product", False)), part_number_row, "part number"),
    Tab("maintenance", "maintenance", "Maintenance", "maintenance_page", MaintenanceFilter, "productName", "version", "state",
        _states(("DRAFT", "DEPLOYED", "OBSOLETE")), maintenance_row, "maintenance product"),
)
TAB_BY_ID = {tab.id: tab for tab in TABS}


@dataclass
class TabState:
    page: int = 1
    total: int | None = None
    loaded: bool = False
    items: list[Any] | None = None


def _choice_value(tab: Tab, raw: Any) -> Any:
    for _, value in tab.choices:
        if str(value) == str(raw):
            return value
    return ""


class CatalogScreen(AreaScreen):
    """Browse, filter and inspect the catalogue; create products and features."""

    KIND = "products"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"create": "create"}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    BINDINGS = [
        Binding("n", "create", "New", id="catalog.create"),
        Binding("e", "entitlements", "Entitlements", id="catalog.entitlements"),
        Binding("c", "copy_name", "Copy name", show=False, id="catalog.copy"),
        Binding("f", "focus_filters", "Filters", show=False, id="catalog.filters"),
        Binding("greater_than_sign", "tab(1)", "Next tab", id="catalog.next_tab"),
        Binding("less_than_sign", "tab(-1)", "Prev tab", show=False, id="catalog.prev_tab"),
        Binding("right_square_bracket", "page(1)", "Next", id="catalog.next_page"),
        Binding("left_square_bracket", "page(-1)", "Prev", id="catalog.prev_page"),
        Binding("ctrl+r", "reload", "Refresh", show=False, id="catalog.reload"),
        *[Binding(str(i + 1), f"show_tab('{tab.id}')", tab.title, show=False, id=f"catalog.tab{i + 1}") for i, tab in enumerate(TABS)],
    ]

    DEFAULT_CSS = """
    CatalogScreen #cat-tabs { height: 1fr; }
    CatalogScreen TabPane { padding: 0; }
    CatalogScreen .toolbar { margin: 0; }
    CatalogScreen.-narrow .toolbar Label { display: none; }
    CatalogScreen .toolbar Input.-bad-filter { color: $error; text-style: bold; }
    """

    def __init__(self, tab: str = "products", name: str | None = None) -> None:
        super().__init__()
        self.initial_tab = tab if tab in TAB_BY_ID else "products"
        self.initial_name, self.initial_version = "", ""
        if name:
            base, sep, version = name.rpartition("@") if "@" in name else (name, "", "")
            self.initial_name, self.initial_version = base.strip(), version.strip() if sep else ""
        self.states = {tab.id: TabState() for tab in TABS}
        self.applied_choice: dict[str, Any] = {}

    @classmethod
    def for_kind(cls, kind: kinds.Kind | None, argument: str | None) -> CatalogScreen:
        tab = kind.extra.get("tab", "products") if kind is not None else "products"
        return cls(tab, argument)

    @property
    def tab(self) -> Tab:
        try:
            active = self.query_one("#cat-tabs", TabbedContent).active
        except Exception:
            active = self.initial_tab
        return TAB_BY_ID.get(active, TABS[0])

    @property
    def area_title(self) -> str:
        return "Catalogue · " + self.tab.title

    @property
    def service(self) -> ProductsService:
        return ProductsService(self.ctx.session)

    @property
    def page_size(self) -> int:
        return min(self.ctx.settings.page_size, v.MAX_LIMIT)

    # -- layout --------------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        # Only the first tab's widgets are built now; each other tab builds its own when first shown.
        with TabbedContent(initial=self.initial_tab, id="cat-tabs"):
            for tab in TABS:
                yield TabPane(tab.title, *(self._pane_widgets(tab) if tab.id == self.initial_tab else ()), id=tab.id)

    def _pane_widgets(self, tab: Tab) -> list[Any]:
        first = tab.id == self.initial_tab
        bar: list[Any] = [
            Label("Name"),
            Input(value=self.initial_name if first else "", placeholder=f"{tab.noun} name", id=f"{tab.id}-name", compact=True),
        ]
        if tab.version_key:
            bar += [Label("Version"), Input(value=self.initial_version if first else "", placeholder="version", id=f"{tab.id}-version", compact=True)]
        bar += [
            Label("State" if tab.choice_key == "state" else "Mapping"),
            Select([(label, value) for label, value in tab.choices], value="", allow_blank=False, id=f"{tab.id}-choice", compact=True),
            Label("More"),
            Input(placeholder="key=value; …", id=f"{tab.id}-more", compact=True),
        ]
        return [
            _toolbar(bar),
            Label("", id=f"{tab.id}-pager", classes="pager"),
            ResourceTable(kinds.get(tab.kind).columns, cell=self._cell, id=f"{tab.id}-table"),
        ]

    async def _mount_tab(self, tab: Tab) -> None:
        pane = self.query_one(f"TabPane#{tab.id}", TabPane)
        if not pane.children:
            await pane.mount_all(self._pane_widgets(tab))

    async def on_mount(self) -> None:
        self._focus_table()
        await self._ensure_loaded(self.tab)

    def show_kind(self, kind: kinds.Kind) -> None:
        """The app switched here for a kind: show its tab."""
        self.action_show_tab(kind.extra.get("tab", "products"))

    def action_show_tab(self, tab_id: str) -> None:
        if tab_id in TAB_BY_ID:
            self.query_one("#cat-tabs", TabbedContent).active = tab_id
            self._focus_table()

    def action_tab(self, delta: int) -> None:
        ids = [t.id for t in TABS]
        index = (ids.index(self.tab.id) + delta) % len(ids)
        self.action_show_tab(ids[index])

    @on(TabbedContent.TabActivated, "#cat-tabs")
    async def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        tab = self.tab
        self.query_one(TitleBar).area = self.area_title
        self.refresh_bindings()
        await self._ensure_loaded(tab)
        self._focus_table()

    def _focus_table(self) -> None:
        self.call_after_refresh(lambda: self.table().focus())

    def table(self, tab: Tab | None = None) -> ResourceTable:
        return self.query_one(f"#{(tab or self.tab).id}-table", ResourceTable)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "create":
            return kinds.get(self.tab.kind).can("create", read_only=self.ctx.read_only) and self.tab.id in ("products", "features")
        if action == "entitlements":
            return self.tab.id in ("products", "parts")
        return super().check_action(action, parameters)

    # -- loading ---------------------------------------------------------------------------------

    async def _ensure_loaded(self, tab: Tab) -> None:
        await self._mount_tab(tab)
        if not self.states[tab.id].loaded:
            self.load(tab)

    def action_reload(self) -> None:
        self.load(self.tab, force=True)

    def _filters(self, tab: Tab) -> Any:
        more = self.query_one(f"#{tab.id}-more", Input)
        extra: dict[str, Any] = {}
        name = self.query_one(f"#{tab.id}-name", Input).value.strip()
        if name:
            extra[tab.name_key] = name
        if tab.version_key:
            version = self.query_one(f"#{tab.id}-version", Input).value.strip()
            if version:
                extra[tab.version_key] = version
        choice = _choice_value(tab, self.query_one(f"#{tab.id}-choice", Select).value)
        self.applied_choice[tab.id] = choice
        if choice != "":
            extra[tab.choice_key] = choice
        try:
            filters = parse_filters([p for p in re.split(r";", more.value) if p.strip()], tab.model, what=tab.title.lower(), extra=extra)
        except ValueError:
            more.set_class(True, "-bad-filter")
            raise
        more.set_class(False, "-bad-filter")
        return filters

    def load(self, tab: Tab, *, force: bool = False) -> None:
        state = self.states[tab.id]
        state.loaded = True

        async def job() -> None:
            try:
                filters = self._filters(tab)
            except ValueError as exc:
                self.report_error(Invalid(str(exc)), doing=f"filtering {tab.title.lower()}")
                return
            pages = getattr(self.service, tab.method)(filters, state.page, self.page_size, force=force)
            async for page in pages:
                self._show(tab, page)

        self.run_api(job, group=f"cat-{tab.id}", doing=f"loading {tab.title.lower()}")

    def _show(self, tab: Tab, page: Page[Any]) -> None:
        state = self.states[tab.id]
        state.items = page.items
        state.total = page.total
        table = self.table(tab)
        table.set_rows([{**tab.row(item), "item": item} for item in page.items])
        if tab.id == self.initial_tab and self.initial_version:
            for index, row in enumerate(table.visible_rows):
                if row.get("version") == self.initial_version:
                    table.move_cursor(row=index, animate=False)
                    break
        if tab.id == self.tab.id:
            self.show_age(page.age)
        self._update_pager(tab)

    def _update_pager(self, tab: Tab) -> None:
        state = self.states[tab.id]
        total = state.total or 0
        pages = max(1, -(-total // self.page_size))
        shown = len(state.items or [])
        plural = tab.noun + ("s" if total != 1 and not tab.noun.endswith("s") else "")
        parts = [f"page {state.page} of {pages}", f"{total:,} {plural}"]
        if pages > 1:
            parts.append("] next · [ prev")
        table = self.table(tab)
        if table.filter_text:
            parts.append(f"/{table.filter_text}: {len(table.visible_rows)} of {shown} rows")
        if not total:
            parts = [f"no {plural} match these filters"]
        self.query_one(f"#{tab.id}-pager", Label).update(Text(clean(" · ".join(parts))))

    def action_page(self, delta: int) -> None:
        tab = self.tab
        state = self.states[tab.id]
        target = state.page + delta
        if target < 1 or (state.total is not None and (target - 1) * self.page_size >= max(state.total, 1)):
            return
        state.page = target
        self.load(tab)

    def _cell(self, row: dict[str, Any], key: str) -> Text:
        value = row.get(key)
        text = "yes" if value is True else ("no" if value is False else clean("" if value is None else value))
        style = state_style(self.app, str(value)) if key == "state" else ""
        return Text(text, style=style, no_wrap=True, overflow="ellipsis")

    # -- filters ------------------------------------------------------------------------------------

    @on(Input.Submitted, ".toolbar Input")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        tab = self.tab
        self.states[tab.id].page = 1
        self.status.error = ""
        self.load(tab)
        self.table(tab).focus()

    @on(Select.Changed, ".toolbar Select")
    def _choice_changed(self, event: Select.Changed) -> None:
        event.stop()
        tab = TAB_BY_ID.get((event.select.id or "").removesuffix("-choice"))
        if tab is None or not self.states[tab.id].loaded or _choice_value(tab, event.value) == self.applied_choice.get(tab.id, ""):
            return  # also the Changed a Select posts when it is mounted
        self.states[tab.id].page = 1
        self.load(tab)

    def action_focus_filters(self) -> None:
        self.query_one(f"#{self.tab.id}-name", Input).focus()

    def apply_filter(self, text: str) -> None:
        tab = self.tab
        self.table(tab).set_filter(text)
        self._update_pager(tab)

    # -- detail and jumps ------------------------------------------------------------------------------

    def selected(self) -> Any | None:
        row = self.table().current_row()
        return row["item"] if row else None

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        item = self.selected()
        if item is None:
            return
        self.open_detail(item)

    def open_detail(self, item: Any) -> None:
        title, body = self.detail(item)
        actions = [("c", "copy_name", "copy name")]
        if isinstance(item, (Product, PartNumber)):
            actions.insert(0, ("e", "entitlements", "entitlements"))
        if isinstance(item, PartNumber) and item.product is not None and item.product.name and (item.product.type or "product") != "maintenance":
            actions.insert(0, ("p", "show_product", "its product"))

        def chosen(action: str | None) -> None:
            if action:
                self.call_later(self.run_action, action)

        self.app.push_screen(RecordScreen(title, body, actions), chosen)

    def detail(self, item: Any) -> tuple[str, Text]:
        now = self.ctx.now_ms()
        b = Body(show_title=False)
        if isinstance(item, Product):
            title = f"Product {item.product_name} {item.version or ''}".strip()
            b.title(title)
            b.line("State", item.state, style=state_style(self.app, item.state)).line("Description", item.description)
            b.line("Category", item.product_category).line("Technology", item.license_technology).line("Generator", item.license_generator)
            b.line("Host type", item.host_type or ", ".join(item.host_types)).line("Used on device", yes_no(item.used_on_device))
            b.line("License models", item.license_models).line("Part numbers", item.part_numbers)
            b.line("Valid", " → ".join(x for x in (item.start_date, item.end_date) if x))
            b.line("Upgrade e-mail", item.upgrade_email_template).line("Qty per copy", item.quantity_per_copy)
            b.line("Created", when(item.created, now)).line("Modified", when(item.modified, now))
            if item.features:
                b.section("Features").pairs((f.feature_name, " ".join(x for x in (f.version, f"×{f.count}" if f.count else "") if x)) for f in item.features)
            if item.feature_bundles:
                b.section("Feature bundles").pairs((name, "") for name in item.feature_bundles)
        elif isinstance(item, Feature):
            title = f"Feature {item.feature_name} {item.version or ''}".strip()
            b.title(title)
            b.line("State", item.state, style=state_style(self.app, item.state)).line("Version format", item.version_format)
            b.line("Max version", item.max_version).line("Aggregation", item.aggregation_type).line("Vendor string", item.vendor_string)
            b.line("Description", item.description).line("Created", when(item.created, now)).line("Modified", when(item.modified, now))
        elif isinstance(item, FeatureBundle):
            title = f"Feature bundle {item.feature_bundle_name}"
            b.title(title)
            b.line("State", item.state, style=state_style(self.app, item.state)).line("Description", item.description)
            b.line("Created", when(item.created, now)).line("Modified", when(item.modified, now))
            b.section(f"Features ({len(item.features)})").pairs((f.feature_name, " ".join(x for x in (f.version, f"×{f.count}" if f.count else "") if x)) for f in item.features)
        elif isinstance(item, Suite):
            title = f"Suite {item.suite_name} {item.version or ''}".strip()
            b.title(title)
            b.line("State", item.state, style=state_style(self.app, item.state)).line("Description", item.description)
            b.line("Package", " ".join(x for x in (item.package_name, item.package_version) if x)).line("Part numbers", item.part_numbers)
            b.line("Technology", item.license_technology).line("Generator", item.license_generator).line("Host type", item.host_type)
            b.line("Used on device", yes_no(item.used_on_device)).line("Created", when(item.created, now))
            b.section(f"Products ({len(item.products)})").pairs(
                (f"{p.product_name} {p.version or ''}".strip(), " · ".join(x for x in (f"×{p.quantity}" if p.quantity else "", (p.state or "").lower()) if x))
                for p in item.products)
        elif isinstance(item, PartNumber):
            title = f"Part number {item.part_number}"
            b.title(title)
            owner = item.product
            b.line("Description", item.description)
            b.line("Mapped to", " ".join(x for x in ((owner.name if owner else None), (owner.version if owner else None)) if x) or "nothing (unmapped)")
            b.line("Kind", owner.type if owner else None).line("License model", item.license_model or (owner.license_model if owner else None))
            b.line("Trial", yes_no(item.trial_availability)).line("Created", when(item.created, now)).line("Modified", when(item.modified, now))
        elif isinstance(item, MaintenanceProduct):
            title = f"Maintenance product {item.product_name} {item.version or ''}".strip()
            b.title(title)
            b.line("State", item.state, style=state_style(self.app, item.state)).line("Description", item.description)
            b.line("Part numbers", item.part_numbers).line("Created", when(item.created, now)).line("Modified", when(item.modified, now))
        else:
            title = "Record"
            b.title(str(item))
        return title, b.text

    def action_entitlements(self) -> None:
        item = self.selected()
        name = None
        if isinstance(item, Product):
            name = item.product_name
        elif isinstance(item, PartNumber) and item.product is not None:
            name = item.product.name
        if not name:
            self.say("Put the cursor on a product (or a mapped part number) to list its entitlements")
            return
        self.app.open_kind(kinds.get("entitlements"), f"product={name}")  # type: ignore[attr-defined]

    async def action_show_product(self) -> None:
        item = self.selected()
        if not isinstance(item, PartNumber) or item.product is None or not item.product.name:
            return
        await self._mount_tab(TAB_BY_ID["products"])
        self.query_one("#products-name", Input).value = item.product.name
        self.query_one("#products-version", Input).value = item.product.version or ""
        self.states["products"].page = 1
        self.states["products"].loaded = True  # loaded just below, with the name filter
        self.action_show_tab("products")
        self.load(TAB_BY_ID["products"])

    def action_copy_name(self) -> None:
        row = self.table().current_row()
        if row and row.get("name"):
            self.app.copy_text(str(row["name"]), f"{self.tab.noun} {row['name']}")  # type: ignore[attr-defined]

    # -- creating -----------------------------------------------------------------------------------------

    def action_create(self) -> None:
        if self.ctx.read_only:
            self.report_error(ReadOnly(f"profile {self.ctx.profile_name!r} is read-only: creating is not allowed"), doing="creating")
            return
        if self.tab.id == "features":
            self._create_feature()
        elif self.tab.id == "products":
            self._create_product()

    def _known(self) -> tuple[list[str], list[str]]:
        """Categories and license models seen on the products page (suggestions)."""
        items = [x for x in (self.states["products"].items or []) if isinstance(x, Product)]
        categories = sorted({p.product_category for p in items if p.product_category} | {v.DEFAULT_PRODUCT_CATEGORY})
        models = sorted({m for p in items for m in p.license_models})
        return categories, models

    def _create_product(self) -> None:
        categories, models = self._known()
        technologies = [(f"default ({v.STANDARD_LICENSE_TECHNOLOGY})", "")] + [(t, t) for t in v.LICENSE_GENERATORS]
        fields = [
            FieldSpec("productName", "Product name", errors=("productName",)),
            FieldSpec("version", "Version", errors=("version",)),
            FieldSpec("description", "Description", errors=("description",)),
            FieldSpec("productCategory", "Category", placeholder=f"empty: {v.DEFAULT_PRODUCT_CATEGORY}", errors=("productCategory",),
                      hint=("known: " + ", ".join(categories)) if categories else ""),
            FieldSpec("licenseTechnology", "License technology", kind="select", options=technologies, errors=("licenseTechnology",)),
            FieldSpec("licenseGenerator", "License generator", placeholder="empty: the technology's generator", errors=("licenseGenerator",)),
            FieldSpec("hostType", "Host type", placeholder="empty: see the defaults below", errors=("hostType",)),
            FieldSpec("usedOnDevice", "Used on a device", kind="switch", value=False, errors=("usedOnDevice",)),
            FieldSpec("licenseModels", "License models", placeholder="Perpetual, Subscription", errors=("licenseModels",),
                      hint=("known: " + ", ".join(models)) if models else "comma separated"),
            FieldSpec("features", "Features", placeholder="NAME or NAME:VERSION, …", errors=("features",),
                      hint="without a version, the one feature of that name is used"),
            FieldSpec("featureBundles", "Feature bundles", placeholder="comma separated", errors=("featureBundles",)),
            FieldSpec("partNumbers", "Part numbers", placeholder="comma separated; unique across products", errors=("partNumbers",)),
            FieldSpec("startDate", "Start date", placeholder="YYYY-MM-DD", errors=("startDate",)),
            FieldSpec("endDate", "End date", placeholder="YYYY-MM-DD", errors=("endDate",)),
            FieldSpec("upgradeEmailTemplate", "Upgrade e-mail template", kind="select",
                      options=[("not set", ""), ("none (no e-mail)", "none"), ("default template", "default")], errors=("upgradeEmailTemplate",)),
            FieldSpec("quantityPerCopy", "Quantity per copy", placeholder="1", errors=("quantityPerCopy",)),
            FieldSpec("autoDeploy", "Deploy now (autoDeploy)", kind="switch", value=False, errors=("autoDeploy",)),
        ]

        def data_of(values: dict[str, Any], problems: dict[str, str]) -> dict[str, Any]:
            data: dict[str, Any] = {"productName": values["productName"], "version": values["version"],
                                    "usedOnDevice": bool(values["usedOnDevice"]), "autoDeploy": bool(values["autoDeploy"])}
            for key in ("description", "productCategory", "licenseTechnology", "licenseGenerator", "hostType", "startDate", "endDate", "upgradeEmailTemplate"):
                if str(values[key]).strip():
                    data[key] = str(values[key]).strip()
            for key in ("licenseModels", "featureBundles", "partNumbers"):
                parts = [p.strip() for p in values[key].split(",") if p.strip()]
                if parts:
                    data[key] = [{"featureBundleName": p} for p in parts] if key == "featureBundles" else parts
            features = []
            for part in (p.strip() for p in values["features"].split(",")):
                if not part:
                    continue
                name, sep, version = part.partition(":") if ":" in part else part.partition(" ")
                features.append({"featureName": name.strip(), **({"version": version.strip()} if version.strip() else {})})
            if features:
                data["features"] = features
            per_copy = number(values, "quantityPerCopy", "quantityPerCopy", problems)
            if per_copy is not None:
                data["quantityPerCopy"] = per_copy
            return data

        def build(values: dict[str, Any]) -> ProductCreate:
            problems: dict[str, str] = {}
            data = data_of(values, problems)
            # The model checks these rules only once every field is valid: check them here so all show at once.
            try:
                v.check_date_order(data.get("startDate"), data.get("endDate"))
            except ValueError as exc:
                if "calendar" not in str(exc) and "YYYY" not in str(exc):
                    problems.setdefault("endDate", str(exc))
            try:
                v.check_unique(data.get("partNumbers", []), "part number")
            except v.FieldProblem as exc:
                problems.setdefault("partNumbers", exc.message)
            tech = data.get("licenseTechnology") or v.STANDARD_LICENSE_TECHNOLOGY
            if data.get("licenseGenerator") and tech in v.LICENSE_GENERATORS:
                try:
                    v.check_license_generator(data["licenseGenerator"], tech)
                except ValueError as exc:
                    problems.setdefault("licenseGenerator", str(exc))
            return validated(ProductCreate, data, problems)

        def preview(values: dict[str, Any]) -> Text:
            try:
                effective = ProductCreate.model_validate(data_of(values, {})).effective()
            except Exception:
                tech = values.get("licenseTechnology") or v.STANDARD_LICENSE_TECHNOLOGY
                used = v.effective_used_on_device(tech, bool(values.get("usedOnDevice")))
                effective = {"licenseTechnology": tech, "licenseGenerator": values.get("licenseGenerator") or v.LICENSE_GENERATORS.get(tech, "?"),
                             "usedOnDevice": used, "hostType": v.default_host_type(tech, used, values.get("hostType") or None)}
            ignored = values.get("usedOnDevice") and effective["licenseTechnology"] != v.STANDARD_LICENSE_TECHNOLOGY
            parts = [
                ("state", "DEPLOYED, with its draft features and bundles" if values.get("autoDeploy") else "DRAFT"),
                ("technology", effective["licenseTechnology"] + ("" if values.get("licenseTechnology") else " (default)")),
                ("generator", effective["licenseGenerator"] + ("" if values.get("licenseGenerator") else " (from the technology)")),
                ("category", (values.get("productCategory") or "").strip() or f"{v.DEFAULT_PRODUCT_CATEGORY} (default)"),
                ("host type", (effective["hostType"] or "none") + ("" if values.get("hostType") or not effective["hostType"] else " (default)")),
                ("used on device", yes_no(effective["usedOnDevice"]) + (" (ignored: not the standard technology)" if ignored else "")),
            ]
            text = Text("The server will apply: ", style="bold")
            for index, (label, value) in enumerate(parts):
                if index:
                    text.append(" · ", style="dim")
                text.append(f"{label} ", style="bold")
                text.append(clean(value))
            return text

        async def send(model: ProductCreate) -> Product:
            return await self.service.create_product(model)

        def done(product: Product | None) -> None:
            if product is None:
                return
            self.say(f"Product {product.product_name} {product.version or ''} created ({(product.state or 'DRAFT').lower()})")
            self.load(TAB_BY_ID["products"], force=True)
            self.open_detail(product)

        self.app.push_screen(BetaForm("New product", fields, build, send, submit_label="Create", preview=preview,
                                      suggesters=lambda spec: NameSuggester(lambda: categories) if spec.key == "productCategory" else None), done)

    def _create_feature(self) -> None:
        fields = [
            FieldSpec("featureName", "Feature name", errors=("featureName",), hint="up to 30 letters, digits, _ and -"),
            FieldSpec("versionFormat", "Version format", kind="select", options=[(f.lower(), f) for f in v.VERSION_FORMATS], errors=("versionFormat",)),
            FieldSpec("version", "Version", placeholder="empty: 1.0 for FIXED", errors=("version",)),
            FieldSpec("maxVersion", "Max version", placeholder="YYYY.MM.DD (optional)", errors=("maxVersion",)),
            FieldSpec("description", "Description", errors=("description",)),
            FieldSpec("aggregationType", "Aggregation", kind="select", options=[("not set", "")] + [(a.lower(), a) for a in v.AGGREGATION_TYPES],
                      errors=("aggregationType",)),
            FieldSpec("vendorString", "Vendor string", errors=("vendorString",)),
            FieldSpec("autoDeploy", "Deploy now", kind="switch", value=False, errors=("autoDeploy",)),
        ]

        def build(values: dict[str, Any]) -> FeatureCreate:
            data = {k: (x.strip() if isinstance(x, str) else x) for k, x in values.items()}
            data = {k: x for k, x in data.items() if x not in ("", None)}
            data["autoDeploy"] = bool(values["autoDeploy"])
            return validated(FeatureCreate, data)

        async def send(model: FeatureCreate) -> Feature:
            return await self.service.create_feature(model)

        def done(feature: Feature | None) -> None:
            if feature is None:
                return
            self.say(f"Feature {feature.feature_name} {feature.version or ''} created ({(feature.state or 'DRAFT').lower()})")
            self.load(TAB_BY_ID["features"], force=True)

        self.app.push_screen(BetaForm("New feature", fields, build, send, submit_label="Create"), done)


__all__ = ["CatalogScreen", "TABS"]
