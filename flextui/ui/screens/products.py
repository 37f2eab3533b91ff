"""The product catalogue: products, features, feature bundles, suites, part numbers, maintenance.

One tab per list, each with the server-side filters the API has (name,
version, state, and any other query parameter as `key=value; …`), pages
with "page N of M" from the pagination total, the `/` client filter, a
detail view and jumps (a product's entitlements). New products show the
defaults the server will apply (technology, generator, category, host type,
state) while they are typed, before anything is sent. The tabbed, paged
list machinery is `TabbedListScreen`'s (tabbed.py), shared with users.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Input, Label, Select

from flextui import kinds
from flextui.api import validation as v
from flextui.api.errors import ReadOnly
from flextui.api.paging import Page, Pager
from flextui.api.products import (
    PRODUCT_NAME_MAX,
    Feature,
    FeatureBundle,
    FeatureBundleFilter,
    FeatureCreate,
    FeatureFilter,
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
from flextui.kinds import Link
from flextui.render.products import bundle_row, feature_row, maintenance_row, part_number_row, product_row, suite_row
from flextui.render.text import clean
from flextui.ui.appref import flex_app
from flextui.ui.screens.everypage import MAX_EVERY_ITEMS
from flextui.ui.screens.tabbed import ListTab, TabbedListScreen, TabState, list_bindings, list_css  # noqa: F401 (TabState: re-exported)
from flextui.ui.widgets.forms import FieldSpec, NameSuggester, SectionedForm, number, validated
from flextui.ui.widgets.record import Body, state_style, when, yes_no
from flextui.ui.widgets.table import ResourceTable


@dataclass(frozen=True)
class Tab(ListTab):
    """One catalogue list: its pane, kind, cached lister, row, noun, and the filter model and filters the toolbar offers."""

    model: type[Any]
    name_key: str
    version_key: str | None
    choice_key: str
    choices: tuple[tuple[str, Any], ...]


def _states(states: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    return (("any state", ""),) + tuple((s.lower(), s) for s in states)


TABS: tuple[Tab, ...] = (
    Tab(
        "products",
        "products",
        "Products",
        "products_page",
        product_row,
        "product",
        ProductFilter,
        "productName",
        "version",
        "state",
        _states(v.PRODUCT_STATES),
    ),
    Tab(
        "features",
        "features",
        "Features",
        "features_page",
        feature_row,
        "feature",
        FeatureFilter,
        "name",
        "version",
        "state",
        _states(v.FEATURE_STATES),
    ),
    Tab(
        "bundles",
        "feature-bundles",
        "Bundles",
        "feature_bundles_page",
        bundle_row,
        "bundle",
        FeatureBundleFilter,
        "name",
        None,
        "state",
        _states(("DRAFT", "DEPLOYED")),
    ),
    Tab(
        "suites",
        "suites",
        "Suites",
        "suites_page",
        suite_row,
        "suite",
        SuiteFilter,
        "suiteName",
        "version",
        "state",
        _states(("DRAFT", "DEPLOYED", "OBSOLETE", "INACTIVE")),
    ),
    Tab(
        "parts",
        "part-numbers",
        "Part numbers",
        "part_numbers_page",
        part_number_row,
        "part number",
        PartNumberFilter,
        "partNumber",
        None,
        "unmappedWithProduct",
        (("mapped or not", ""), ("not mapped to a product", True), ("mapped to a product", False)),
    ),
    Tab(
        "maintenance",
        "maintenance",
        "Maintenance",
        "maintenance_page",
        maintenance_row,
        "maintenance product",
        MaintenanceFilter,
        "productName",
        "version",
        "state",
        _states(("DRAFT", "DEPLOYED", "OBSOLETE")),
    ),
)
TAB_BY_ID = {tab.id: tab for tab in TABS}


def _listed(text: str) -> list[str]:
    """A comma-separated field's entries, trimmed, the empty ones left out."""
    return [part.strip() for part in text.split(",") if part.strip()]


def _counted(entry: str) -> tuple[str, int | str]:
    """ "NAME*3" → ("NAME", 3); "NAME" → ("NAME", 1): a feature's or bundle's count in a product (at least 1,
    https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/GroupMaskDataTypeInput). A count that is not a whole
    number is kept as typed, for the model to name."""
    text, star, count = entry.rpartition("*")
    if not star:
        return entry, 1
    count = count.strip()
    return text.strip(), int(count) if re.fullmatch(r"\d+", count, re.ASCII) else count


def _times(count: int | None) -> str:
    """A feature's or bundle's count or quantity as shown beside it: "×3"; nothing for 1 (the least there is) or none."""
    return f"×{count}" if count is not None and count != 1 else ""


def _choice_value(tab: Tab, raw: Any) -> Any:
    for _, value in tab.choices:
        if str(value) == str(raw):
            return value
    return ""


class ProductsScreen(TabbedListScreen):
    """Browse, filter and inspect the catalogue; create products and features."""

    KIND = "products"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"create": "create"}
    LIST_TABS = TABS
    TABS_ID = "cat-tabs"
    WORKER_GROUP = "cat"
    FALLBACK_TAB = TABS[0].id

    BINDINGS = [
        Binding("n", "create", "New", id="catalog.create"),
        Binding("E,shift+e", "entitlements", "Entitlements", id="catalog.entitlements"),
        Binding("c", "copy_name", "Copy name", show=False, id="catalog.copy"),
        *list_bindings("catalog", TABS),
    ]

    DEFAULT_CSS = list_css("ProductsScreen", "cat-tabs")

    def __init__(self, tab: str = "products", name: str | None = None) -> None:
        super().__init__(tab)
        self.initial_name, self.initial_version = "", ""
        if name:
            base, sep, version = name.rpartition("@") if "@" in name else (name, "", "")
            self.initial_name, self.initial_version = base.strip(), version.strip() if sep else ""

    @property
    def tab(self) -> Tab:
        return TAB_BY_ID[self.tab_id]

    @property
    def area_title(self) -> str:
        return "Catalogue · " + self.tab.title

    @property
    def service(self) -> ProductsService:
        return ProductsService(self.ctx.session)

    # -- layout --------------------------------------------------------------------------------

    def _pane_widgets(self, tab_id: str) -> list[Any]:
        tab = TAB_BY_ID[tab_id]
        first = tab.id == self.initial_tab
        bar: list[Any] = [
            Label("Name"),
            Input(value=self.initial_name if first else "", placeholder=f"{tab.noun} name", id=f"{tab.id}-name", compact=True),
        ]
        if tab.version_key:
            bar += [
                Label("Version"),
                Input(value=self.initial_version if first else "", placeholder="version", id=f"{tab.id}-version", compact=True),
            ]
        bar += [
            Label("State" if tab.choice_key == "state" else "Mapping"),
            Select([(label, value) for label, value in tab.choices], value="", allow_blank=False, id=f"{tab.id}-choice", compact=True),
            Label("More"),
            Input(placeholder="key=value; …", id=f"{tab.id}-more", compact=True),
        ]
        return self.pane(tab.id, bar)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "create":
            return kinds.get(self.tab.kind).can("create", read_only=self.ctx.read_only) and self.tab.id in ("products", "features")
        if action == "entitlements":
            return self.tab.id in ("products", "parts")
        return super().check_action(action, parameters)

    # -- loading ---------------------------------------------------------------------------------

    def choice_value(self, tab: str, raw: Any) -> Any:
        return _choice_value(TAB_BY_ID[tab], raw)

    def _queries(self, tab_id: str) -> list[Any]:
        tab = TAB_BY_ID[tab_id]
        extra: dict[str, Any] = {}
        name = self.applied_text(self.query_one(f"#{tab.id}-name", Input)).strip()
        if name:
            extra[tab.name_key] = name
        if tab.version_key:
            version = self.applied_text(self.query_one(f"#{tab.id}-version", Input)).strip()
            if version:
                extra[tab.version_key] = version
        choice = self.read_choice(tab.id)
        if choice != "":
            extra[tab.choice_key] = choice
        return self.parse_more(tab.id, tab.model, tab.title.lower(), [extra])

    def every_pager(self, tab: str, query: Any, force: bool) -> Pager[Any]:
        """Every item of a tab under its toolbar's filters, at the largest page size the API takes."""
        kind = TAB_BY_ID[tab].method.removesuffix("_page")
        return self.service.every(kind, query, limit=v.MAX_LIMIT, max_items=MAX_EVERY_ITEMS, force=force)

    def _shown(self, tab: str, page: Page[Any], table: ResourceTable) -> None:
        if tab == self.initial_tab and self.initial_version:
            for index, row in enumerate(table.visible_rows):
                if row.get("version") == self.initial_version:
                    table.move_cursor(row=index, animate=False)
                    break

    # -- detail and jumps ------------------------------------------------------------------------------

    def open_detail(self, item: Any) -> None:
        title, body = self.detail(item)
        actions = [("c", "copy_name", "copy name")]
        if isinstance(item, (Product, PartNumber)):
            actions.insert(0, ("E", "entitlements", "entitlements"))
        if (
            isinstance(item, PartNumber)
            and item.product is not None
            and item.product.name
            and (item.product.type or "product") != "maintenance"
        ):
            actions.insert(0, ("P", "show_product", "its product"))
        self.show_record(title, body, actions)

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
                b.section("Features").pairs((f.feature_name, " ".join(x for x in (f.version, _times(f.count)) if x)) for f in item.features)
            if item.feature_bundles:
                b.section("Feature bundles").pairs((fb.feature_bundle_name, _times(fb.count)) for fb in item.feature_bundles)
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
            b.section(f"Features ({len(item.features)})").pairs(
                (f.feature_name, " ".join(x for x in (f.version, _times(f.quantity)) if x)) for f in item.features
            )
        elif isinstance(item, Suite):
            title = f"Suite {item.suite_name} {item.version or ''}".strip()
            b.title(title)
            b.line("State", item.state, style=state_style(self.app, item.state)).line("Description", item.description)
            b.line("Package", " ".join(x for x in (item.package_name, item.package_version) if x)).line("Part numbers", item.part_numbers)
            b.line("Technology", item.license_technology).line("Generator", item.license_generator).line("Host type", item.host_type)
            b.line("Used on device", yes_no(item.used_on_device)).line("Created", when(item.created, now))
            b.section(f"Products ({len(item.products)})").pairs(
                (
                    f"{p.product_name} {p.version or ''}".strip(),
                    " · ".join(x for x in (f"×{p.quantity}" if p.quantity else "", (p.state or "").lower()) if x),
                )
                for p in item.products
            )
        elif isinstance(item, PartNumber):
            title = f"Part number {item.part_number}"
            b.title(title)
            owner = item.product
            b.line("Description", item.description)
            b.line(
                "Mapped to",
                " ".join(x for x in ((owner.name if owner else None), (owner.version if owner else None)) if x) or "nothing (unmapped)",
            )
            b.line("Kind", owner.type if owner else None).line(
                "License model", item.license_model or (owner.license_model if owner else None)
            )
            b.line("Trial", yes_no(item.trial_availability)).line("Created", when(item.created, now)).line(
                "Modified", when(item.modified, now)
            )
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
        flex_app(self).jump(Link(f"entitlements of product {name}", "entitlements", f"product={name}"))

    def related_links(self) -> list[Link]:
        """j: the entitlements of a product (or of a part number's product)."""
        item = self.selected()
        name = item.product_name if isinstance(item, Product) else None
        if isinstance(item, PartNumber) and item.product is not None:
            name = item.product.name
        return [Link(f"entitlements of product {name}", "entitlements", f"product={name}")] if name else []

    async def action_show_product(self) -> None:
        item = self.selected()
        if not isinstance(item, PartNumber) or item.product is None or not item.product.name:
            return
        await self._mount_tab("products")
        self.set_filter_text(self.query_one("#products-name", Input), item.product.name)
        self.set_filter_text(self.query_one("#products-version", Input), item.product.version or "")
        self.states["products"].page = 1
        self.other_listing("products")
        self.states["products"].loaded = True  # loaded just below, with the name filter
        self.action_show_tab("products")
        self.load("products")

    def action_copy_name(self) -> None:
        row = self.table().current_row()
        if row and row.get("name"):
            flex_app(self).copy_text(str(row["name"]), f"{self.tab.noun} {row['name']}")

    # -- creating -----------------------------------------------------------------------------------------

    def action_create(self) -> None:
        if self.ctx.read_only:
            self.report_error(ReadOnly(f"profile {self.ctx.profile_name!r} is read-only: creating is not allowed"), doing="creating")
            return
        if self.tab.id == "features":
            self._create_feature()
        elif self.tab.id == "products":
            self._create_product()

    def _known(self) -> dict[str, list[str]]:
        """What the tenant's own catalogue uses, from the products page: suggestions, never a closed list.

        License technologies and generators are the tenant's (the seed: technologies
        can be custom), so the form takes free text and suggests what is in use here.
        """
        items = [x for x in (self.states["products"].items or []) if isinstance(x, Product)]
        return {
            "productCategory": sorted({p.product_category for p in items if p.product_category} | {v.DEFAULT_PRODUCT_CATEGORY}),
            "licenseModels": sorted({m for p in items for m in p.license_models}),
            "licenseTechnology": sorted({p.license_technology for p in items if p.license_technology} | {v.STANDARD_LICENSE_TECHNOLOGY}),
            "licenseGenerator": sorted({p.license_generator for p in items if p.license_generator}),
        }

    def _create_product(self) -> None:
        known = self._known()
        categories, models = known["productCategory"], known["licenseModels"]

        def in_use(key: str) -> str:
            return ("in use here: " + ", ".join(known[key])) if known[key] else ""

        fields = [
            FieldSpec("productName", "Product name", errors=("productName",), hint=f"up to {PRODUCT_NAME_MAX} characters"),
            FieldSpec("version", "Version", errors=("version",)),
            FieldSpec("description", "Description", errors=("description",)),
            FieldSpec(
                "productCategory",
                "Category",
                placeholder=f"empty: {v.DEFAULT_PRODUCT_CATEGORY}",
                errors=("productCategory",),
                hint=("known: " + ", ".join(categories)) if categories else "",
            ),
            FieldSpec(
                "licenseTechnology",
                "License technology",
                placeholder=f"empty: the standard ({v.STANDARD_LICENSE_TECHNOLOGY})",
                errors=("licenseTechnology",),
                hint=in_use("licenseTechnology"),
            ),
            FieldSpec(
                "licenseGenerator",
                "License generator",
                placeholder="empty: the technology's generator",
                errors=("licenseGenerator",),
                hint=in_use("licenseGenerator"),
            ),
            FieldSpec(
                "hostTypes", "Host types", placeholder="comma separated; empty: see the defaults below", errors=("hostTypes", "hostType")
            ),
            FieldSpec("usedOnDevice", "Used on a device", kind="switch", value=False, errors=("usedOnDevice",)),
            FieldSpec(
                "licenseModels",
                "License models",
                placeholder="Perpetual, Subscription",
                errors=("licenseModels",),
                hint=("known: " + ", ".join(models)) if models else "comma separated",
            ),
            FieldSpec(
                "features",
                "Features",
                placeholder="NAME, NAME:VERSION or NAME:VERSION*COUNT, …",
                errors=("features",),
                hint="without a version, the one feature of that name is used; the count is 1 unless *COUNT",
            ),
            FieldSpec(
                "featureBundles",
                "Feature bundles",
                placeholder="NAME or NAME*COUNT, …",
                errors=("featureBundles",),
                hint="the count is 1 unless *COUNT",
            ),
            FieldSpec("partNumbers", "Part numbers", placeholder="comma separated; unique across products", errors=("partNumbers",)),
            FieldSpec("startDate", "Start date", placeholder="YYYY-MM-DD", errors=("startDate",)),
            FieldSpec("endDate", "End date", placeholder="YYYY-MM-DD", errors=("endDate",)),
            FieldSpec(
                "upgradeEmailTemplate",
                "Upgrade e-mail template",
                kind="select",
                options=[("not set", ""), ("none (no e-mail)", "none"), ("default template", "default")],
                errors=("upgradeEmailTemplate",),
            ),
            FieldSpec("quantityPerCopy", "Quantity per copy", placeholder="1", errors=("quantityPerCopy",)),
            FieldSpec("autoDeploy", "Deploy now (autoDeploy)", kind="switch", value=False, errors=("autoDeploy",)),
        ]

        def data_of(values: dict[str, Any], problems: dict[str, str]) -> dict[str, Any]:
            data: dict[str, Any] = {
                "productName": values["productName"],
                "version": values["version"],
                "usedOnDevice": bool(values["usedOnDevice"]),
                "autoDeploy": bool(values["autoDeploy"]),
            }
            for key in (
                "description",
                "productCategory",
                "licenseTechnology",
                "licenseGenerator",
                "startDate",
                "endDate",
                "upgradeEmailTemplate",
            ):
                if str(values[key]).strip():
                    data[key] = str(values[key]).strip()
            for key in ("licenseModels", "partNumbers", "hostTypes"):
                parts = _listed(values[key])
                if parts:
                    data[key] = parts
            bundles = []
            for part in _listed(values["featureBundles"]):
                name, count = _counted(part)
                bundles.append({"name": name, "count": count})
            if bundles:
                data["featureBundles"] = bundles
            features = []
            for part in _listed(values["features"]):
                named, count = _counted(part)
                name, sep, version = named.partition(":") if ":" in named else named.partition(" ")
                features.append({"name": name.strip(), **({"version": version.strip()} if version.strip() else {}), "count": count})
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
            for key, what in (("partNumbers", "part number"), ("hostTypes", "host type")):
                try:
                    v.check_unique(data.get(key, []), what)
                except v.FieldProblem as exc:
                    problems.setdefault(key, exc.message)
            return validated(ProductCreate, data, problems)

        def preview(values: dict[str, Any]) -> Text:
            try:
                effective = ProductCreate.model_validate(data_of(values, {})).effective()
            except Exception:
                tech = (values.get("licenseTechnology") or "").strip() or v.STANDARD_LICENSE_TECHNOLOGY
                used = v.effective_used_on_device(tech, bool(values.get("usedOnDevice")))
                effective = {
                    "licenseTechnology": tech,
                    "licenseGenerator": (values.get("licenseGenerator") or "").strip() or f"the server's default for {tech}",
                    "usedOnDevice": used,
                    "hostType": v.default_host_type(tech, used, ", ".join(_listed(values.get("hostTypes") or "")) or None),
                }
            ignored = values.get("usedOnDevice") and effective["licenseTechnology"] != v.STANDARD_LICENSE_TECHNOLOGY
            parts = [
                ("state", "DEPLOYED, with its draft features and bundles" if values.get("autoDeploy") else "DRAFT"),
                ("technology", effective["licenseTechnology"] + ("" if values.get("licenseTechnology") else " (default)")),
                ("generator", effective["licenseGenerator"]),
                ("category", (values.get("productCategory") or "").strip() or f"{v.DEFAULT_PRODUCT_CATEGORY} (default)"),
                (
                    "host types",
                    (effective["hostType"] or "none")
                    + ("" if _listed(values.get("hostTypes") or "") or not effective["hostType"] else " (default)"),
                ),
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
            self.load("products", force=True)
            self.open_detail(product)

        self.app.push_screen(
            SectionedForm(
                "New product",
                fields,
                build,
                send,
                submit_label="Create",
                preview=preview,
                suggesters=lambda spec: NameSuggester(lambda: known[spec.key]) if spec.key in known else None,
            ),
            done,
        )

    def _create_feature(self) -> None:
        fields = [
            FieldSpec("featureName", "Feature name", errors=("featureName",), hint="up to 30 letters, digits, _ and -"),
            FieldSpec(
                "versionFormat",
                "Version format",
                kind="select",
                options=[(f.lower(), f) for f in v.VERSION_FORMATS],
                errors=("versionFormat",),
            ),
            FieldSpec("version", "Version", placeholder="empty: 1.0 for FIXED", errors=("version",)),
            FieldSpec("maxVersion", "Max version", placeholder="YYYY.MM.DD (optional)", errors=("maxVersion",)),
            FieldSpec("description", "Description", errors=("description",)),
            FieldSpec(
                "aggregationType",
                "Aggregation",
                kind="select",
                options=[("not set", "")] + [(a.lower(), a) for a in v.AGGREGATION_TYPES],
                errors=("aggregationType",),
            ),
            FieldSpec(
                "vendorString",
                "Vendor string",
                errors=("featureOverrideParams.vendorString", "featureOverrideParams"),
                hint="sent as featureOverrideParams.vendorString",
            ),
            FieldSpec("autoDeploy", "Deploy now", kind="switch", value=False, errors=("autoDeploy",)),
        ]

        def build(values: dict[str, Any]) -> FeatureCreate:
            data = {k: (x.strip() if isinstance(x, str) else x) for k, x in values.items()}
            data = {k: x for k, x in data.items() if x not in ("", None)}
            data["autoDeploy"] = bool(values["autoDeploy"])
            # POST /features takes the vendor string in featureOverrideParams
            # (https://fnoapi.redocly.app/apis/rest/product/product-service/feature/postfeature.md).
            if "vendorString" in data:
                data["featureOverrideParams"] = {"vendorString": data.pop("vendorString")}
            return validated(FeatureCreate, data)

        async def send(model: FeatureCreate) -> Feature:
            return await self.service.create_feature(model)

        def done(feature: Feature | None) -> None:
            if feature is None:
                return
            self.say(f"Feature {feature.feature_name} {feature.version or ''} created ({(feature.state or 'DRAFT').lower()})")
            self.load("features", force=True)

        self.app.push_screen(SectionedForm("New feature", fields, build, send, submit_label="Create"), done)


__all__ = ["ProductsScreen", "TABS"]
