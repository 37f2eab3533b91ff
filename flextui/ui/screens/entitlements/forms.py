"""The entitlement area's changes: new entitlement (with any number of line items), more line items, policies, properties, maintenance.

Each form validates every rule inline with the data layer's own models
before anything is sent, and a server error that names a field
(`lineItems[1].startDate`) is shown next to that field. `EntitlementForms`
is mixed into `EntitlementsScreen`: the forms need its tree (to reload
only the node they changed) and its catalogue index (product suggestions).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from textual.suggester import Suggester

from flextui.api import validation as v
from flextui.api.entitlements import (
    AdditionalProperties,
    Entitlement,
    EntitlementCreate,
    ItemsFailed,
    LineItem,
    LineItemPolicies,
    LineItemsCreate,
    MaintenanceLineItemsCreate,
    MutationResult,
)
from flextui.api.errors import ApiError, ReadOnly
from flextui.api.products import MaintenanceProduct, Product, ProductsService
from flextui.api.users import AccountFilter
from flextui.api.validation import MAX_LIMIT
from flextui.render.entitlements import attributes_text, changes_said, policies_text
from flextui.render.words import plural
from flextui.ui.screens.entitlements.accounts import LOOKUP_PAUSE_S
from flextui.ui.screens.entitlements.nodes import Item
from flextui.ui.widgets.forms import TRISTATE, FieldSpec, NameSuggester, Section, SectionedForm, bool_choice, number, section_key, validated


def attribute_list(text: str, path: str, problems: dict[str, str]) -> list[dict[str, str]]:
    """`Name=value; Other=value` → [{name, value}]; a pair without `=` is a problem at `path`."""
    out = []
    for part in (text or "").split(";"):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            problems.setdefault(path, f"write Name=value pairs separated by ; (got {part!r})")
            continue
        out.append({"name": name.strip(), "value": value.strip()})
    return out


def term_problems(body: dict[str, Any], path: str, problems: dict[str, str]) -> None:
    """A line item's date rules (permanent vs expiry, expiry not before start), checked even when other fields are bad."""
    try:
        v.check_term(body.get("startDate") or None, body.get("expiryDate") or None, bool(body.get("isPermanent")))
    except v.FieldProblem as exc:
        problems.setdefault(f"{path}.{exc.field}", exc.message)
    except ValueError:
        pass  # a date that does not parse: the model names it


class CatalogueIndex:
    """Products and maintenance products by name and version, loaded once per screen (cached pages)."""

    def __init__(self) -> None:
        self.products: dict[str, dict[str, Product]] = {}
        self.maintenance: dict[str, dict[str, MaintenanceProduct]] = {}
        self.complete = False
        self.loaded = False
        self.failed = ""  # why it could not be loaded (then no suggestions, and no "loading…")

    @property
    def waiting_note(self) -> str:
        """What a hint says while the catalogue is not there: loading, or why it never will be."""
        return "no suggestions: the catalogue could not be loaded" if self.failed else "loading the catalogue for suggestions…"

    async def load(self, service: ProductsService, max_pages: int = 10) -> None:
        """Read both lists page by page (cached pages first); `complete` says whether every page was read."""
        if self.loaded:
            return
        complete = True
        for target, pager in ((self.products, service.products_page), (self.maintenance, service.maintenance_page)):
            for page_no in range(1, max_pages + 1):
                got = None
                async for got in pager(None, page_no, MAX_LIMIT):
                    pass  # the freshest answer
                assert got is not None
                for item in got.items:
                    target.setdefault(item.product_name, {})[item.version or ""] = item  # type: ignore[index]
                if len(got.items) < MAX_LIMIT:
                    break
            else:
                complete = False
        self.complete = complete
        self.loaded = True

    def names(self) -> list[str]:
        return sorted(self.products)

    def versions(self, name: str) -> list[str]:
        return sorted(self.products.get(name.strip(), {}), reverse=True)

    def find(self, name: str, version: str) -> Product | None:
        return self.products.get(name.strip(), {}).get(version.strip())

    def license_models(self, name: str, version: str) -> list[str]:
        product = self.find(name, version)
        if product is not None:
            return product.license_models
        found: list[str] = []
        for p in self.products.get(name.strip(), {}).values():
            found += [m for m in p.license_models if m not in found]
        return found

    def maintenance_names(self) -> list[str]:
        return sorted(self.maintenance)

    def maintenance_versions(self, name: str) -> list[str]:
        return sorted(self.maintenance.get(name.strip(), {}), reverse=True)


def product_hint(catalogue: CatalogueIndex, name: str, version: str) -> tuple[str, str]:
    """Hints for the product and version fields of a line item."""
    name, version = name.strip(), version.strip()
    if not catalogue.loaded:
        return catalogue.waiting_note, ""
    if not name:
        return f"{len(catalogue.products)} products in the catalogue: type to complete (→ accepts)", ""
    versions = catalogue.versions(name)
    if not versions:
        close = [n for n in catalogue.names() if name.lower() in n.lower()][:4]
        return ("⚠ not in the catalogue" + (f"; did you mean {', '.join(close)}?" if close else "")), ""
    product = catalogue.find(name, version)
    if version and product is None:
        return f"versions: {', '.join(versions)}", f"⚠ {name} has no version {version}: {', '.join(versions)}"
    if product is not None:
        models = ", ".join(product.license_models) or "none"
        state = product.state or ""
        if state and state.upper() != "DEPLOYED":  # "There must be deployed products" (SOAP createSimpleEntitlement)
            state = f"⚠ not deployed ({state.lower()}): the server fails a line item of it"
        return f"versions: {', '.join(versions)}", f"{state} · license models: {models}".strip(" ·")
    return f"versions: {', '.join(versions)}", ""


class EntitlementForms:
    """The entitlements screen's changes: new entitlement, line items, policies, properties and maintenance, each a form that checks every rule inline before a request and reloads only the node it changed."""

    def _refuse(self, what: str) -> bool:
        """True (and a message) on a read-only profile: the action is hidden there, and refused if reached anyway."""
        if self.ctx.read_only:
            self.report_error(ReadOnly(f"profile {self.ctx.profile_name!r} is read-only: {what} is not allowed"), doing=what)
            return True
        return False

    def _today(self) -> date:
        return datetime.fromtimestamp(self.ctx.now_ms() / 1000, tz=UTC).date()

    @staticmethod
    async def _done_or_partly(call: Awaitable[MutationResult]) -> MutationResult:
        """`call`'s answer. Items failed and nothing was done: `ItemsFailed` goes to the form, which stays open with
        everything typed and says which failed and why. Some were done (`partial`): the answer, its `failures` said
        by `_said_done` (the form closes: sending it again would repeat what was done)."""
        try:
            return await call
        except ItemsFailed as exc:
            if not exc.partial:
                raise
            return exc.result

    def _said_done(self, done: str, result: MutationResult, noun: str, asked: str) -> None:
        """`done` as a passing message; with failed items, what was done and what failed (each with the server's
        words) as an error that stays on the status line: a partial success never reads as a success. An answer that
        says only that something failed (PARTIAL_FAILURE, no items) says what was `asked`, and that some of it was done."""
        if not result.failures:
            self.say(done)
        elif not result.items:
            self.report_error(ApiError(f"{asked}: {'; '.join(result.failures)}: some of it was done, not all (the tree shows what)"))
        else:
            failed = f"{plural(len(result.failures), noun)} failed" if result.failed else "the server said something failed"
            self.report_error(ApiError(f"{done}; but {failed}: " + "; ".join(result.failures)))

    def _load_catalogue(self) -> None:
        if self.catalogue.loaded:
            return

        async def job() -> None:
            self.catalogue.failed = ""
            await self.catalogue.load(ProductsService(self.ctx.session))
            recheck()

        def recheck() -> None:
            form = self.app.screen
            if isinstance(form, SectionedForm):
                form.call_after_refresh(form.recheck)

        def failed(exc: BaseException) -> None:
            self.catalogue.failed = str(exc) or type(exc).__name__
            recheck()

        self.run_api(job, group="ent-catalogue", doing="loading the catalogue for suggestions", failed=failed)

    def _line_item_specs(self, path: str) -> Callable[[int], list[FieldSpec]]:
        today = self._today()

        def specs(i: int) -> list[FieldSpec]:
            k = lambda name: section_key("li", i, name)  # noqa: E731
            p = f"{path}[{i}]"
            return [
                FieldSpec(
                    k("productName"),
                    "Product",
                    errors=(f"{p}.product[0].productName", f"{p}.product", f"{p}.product[0]"),
                    placeholder="name from the catalogue",
                ),
                FieldSpec(k("productVersion"), "Version", errors=(f"{p}.product[0].productVersion",)),
                FieldSpec(k("licenseModel"), "License model", errors=(f"{p}.product[0].licenseModel",), placeholder="optional"),
                FieldSpec(k("quantity"), "Quantity (copies)", value="1", errors=(f"{p}.quantity",)),
                FieldSpec(k("startDate"), "Start date", value=today.isoformat(), errors=(f"{p}.startDate",), placeholder="YYYY-MM-DD"),
                FieldSpec(k("isPermanent"), "Permanent (no expiry)", kind="switch", value=False, errors=(f"{p}.isPermanent",)),
                FieldSpec(
                    k("expiryDate"),
                    "Expiry date",
                    value=(today + timedelta(days=365)).isoformat(),
                    errors=(f"{p}.expiryDate",),
                    placeholder="YYYY-MM-DD",
                    visible_when=lambda values, i=i: not values.get(section_key("li", i, "isPermanent")),
                ),
                FieldSpec(
                    k("activationId"), "Activation ID", placeholder="empty: generated", errors=(f"{p}.activationId", f"{p}.autoGenerate")
                ),
                FieldSpec(
                    k("orderType"),
                    "Order type",
                    kind="select",
                    options=[(o.lower(), o) for o in v.ORDER_TYPES],
                    value=v.DEFAULT_ORDER_TYPE,
                    errors=(f"{p}.orderType",),
                ),
                FieldSpec(k("attributes"), "Attributes", placeholder="Name=value; Name=value", errors=(f"{p}.attributes",)),
            ]

        return specs

    def _line_item_body(self, values: dict[str, Any], i: int, path: str, problems: dict[str, str]) -> dict[str, Any]:
        k = lambda name: values.get(section_key("li", i, name))  # noqa: E731
        p = f"{path}[{i}]"
        product: dict[str, Any] = {"productName": (k("productName") or "").strip(), "productVersion": (k("productVersion") or "").strip()}
        if (k("licenseModel") or "").strip():
            product["licenseModel"] = {"licenseModelName": k("licenseModel").strip()}
        if self.catalogue.loaded and self.catalogue.complete and product["productName"] and product["productVersion"]:
            if self.catalogue.find(product["productName"], product["productVersion"]) is None:
                versions = self.catalogue.versions(product["productName"])
                if versions:
                    problems.setdefault(
                        f"{p}.product[0].productVersion",
                        f"{product['productName']} has no version {product['productVersion']} (versions: {', '.join(versions)})",
                    )
                else:
                    problems.setdefault(f"{p}.product[0].productName", f"no product {product['productName']} in the catalogue")
        body: dict[str, Any] = {
            "product": [product],
            "quantity": number(values, section_key("li", i, "quantity"), f"{p}.quantity", problems, default=1),
            "startDate": (k("startDate") or "").strip(),
            "isPermanent": bool(k("isPermanent")),
            "orderType": k("orderType") or v.DEFAULT_ORDER_TYPE,
            "attributes": attribute_list(k("attributes") or "", f"{p}.attributes", problems),
        }
        if not body["isPermanent"]:
            body["expiryDate"] = (k("expiryDate") or "").strip()
        if (k("activationId") or "").strip():
            body["activationId"] = k("activationId").strip()
        term_problems(body, p, problems)
        return body

    def _line_item_hints(self, values: dict[str, Any], count: int) -> dict[str, str]:
        out: dict[str, str] = {}
        for i in range(count):
            name = values.get(section_key("li", i, "productName"), "")
            version = values.get(section_key("li", i, "productVersion"), "")
            first, second = product_hint(self.catalogue, name, version)
            out[section_key("li", i, "productName")] = first
            if second:
                out[section_key("li", i, "productVersion")] = second
            models = self.catalogue.license_models(name, version) if name else []
            if models:
                out[section_key("li", i, "licenseModel")] = "license models: " + ", ".join(models)
        return out

    def _line_item_suggester(self, form_ref: list[SectionedForm]) -> Callable[[FieldSpec], Suggester | None]:
        def choose(spec: FieldSpec) -> Suggester | None:
            if not spec.key.startswith("li") or "-" not in spec.key:
                return None
            index, _, name = spec.key[2:].partition("-")
            if name == "productName":
                return NameSuggester(self.catalogue.names)
            if name == "productVersion":
                return NameSuggester(
                    lambda: self.catalogue.versions(form_ref[0].value_of(section_key("li", int(index), "productName")) if form_ref else "")
                )
            if name == "licenseModel":
                return NameSuggester(
                    lambda: self.catalogue.license_models(
                        form_ref[0].value_of(section_key("li", int(index), "productName")) if form_ref else "",
                        form_ref[0].value_of(section_key("li", int(index), "productVersion")) if form_ref else "",
                    )
                )
            return None

        return choose

    def action_create(self) -> None:
        if self._refuse("creating an entitlement"):
            return
        self._load_catalogue()
        root = self._account_of(self.current())
        account_types = [(t.lower().replace("_", " "), t) for t in v.ACCOUNT_TYPES]
        head = [
            FieldSpec("entitlementId", "Entitlement ID", placeholder="empty: generated", errors=("entitlementId", "autoGenerate")),
            FieldSpec(
                "accountId",
                "Account ID",
                value=root.account_id if root and root.account_id != v.DEFAULT_ACCOUNT else "",
                errors=("accounts[0].accountId", "accounts[0]", "accounts"),
            ),  # its hint, the account's name, follows the field (`_account_hint`)
            FieldSpec(
                "accountType",
                "Account type",
                kind="select",
                options=account_types,
                value=(root.account_type if root and root.account_type in v.ACCOUNT_TYPES else "CUSTOMER"),
                errors=("accounts[0].accountType",),
                visible_when=lambda values: bool(values.get("accountId", "").strip()),
            ),
            FieldSpec(
                "partnerTier",
                "Partner tier",
                kind="select",
                options=[(t.lower().replace("_", " "), t) for t in v.PARTNER_TIERS],
                value="END_CUSTOMER",
                errors=("accounts[0].partnerTierName",),
                visible_when=lambda values: bool(values.get("accountId", "").strip()),
            ),
            FieldSpec("description", "Description", errors=("description",)),
            FieldSpec(
                "attributes",
                "Custom attributes",
                placeholder="Name=value; Name=value",
                errors=("attributes", *(f"attributes[{n}]" for n in range(40))),
                hint=self._attributes_hint(),
            ),
            FieldSpec("shipToEmail", "Ship-to e-mail", errors=("shipToEmail",)),
            FieldSpec("shipToAddress", "Ship-to address", errors=("shipToAddress",), hint="letters, digits, spaces, _ and - only"),
            FieldSpec(
                "status",
                "Status",
                kind="select",
                options=[("draft (default)", ""), ("deployed", "DEPLOYED"), ("obsolete", "OBSOLETE")],
                errors=("status",),
            ),
            FieldSpec("autoDeploy", "Deploy now (autoDeploy)", kind="switch", value=False, errors=("autoDeploy",)),
            FieldSpec("allowPortalLogin", "Portal login with the ID", kind="switch", value=False, errors=("allowPortalLogin",)),
            FieldSpec("emailTemplateVariation", "E-mail template", placeholder="optional", errors=("emailTemplateVariation",)),
        ]
        section = Section("Line item", "li", self._line_item_specs("lineItems"))
        form_ref: list[SectionedForm] = []

        def build(values: dict[str, Any]) -> EntitlementCreate:
            problems: dict[str, str] = {}
            attributes = attribute_list(values["attributes"], "attributes", problems)
            data: dict[str, Any] = {
                "description": values["description"],
                "shipToEmail": values["shipToEmail"].strip(),
                "shipToAddress": values["shipToAddress"],
                "autoDeploy": bool(values["autoDeploy"]),
                "allowPortalLogin": bool(values["allowPortalLogin"]),
                "attributes": attributes,
                "lineItems": [self._line_item_body(values, i, "lineItems", problems) for i in range(section.count)],
            }
            for key in ("entitlementId", "emailTemplateVariation", "status"):
                if str(values[key]).strip():
                    data[key] = str(values[key]).strip()
            unknown = self.account_names.problem(values["accountId"].strip())
            if unknown:
                problems.setdefault("accounts[0].accountId", unknown)
            if values["accountId"].strip():
                data["accounts"] = [
                    {
                        "accountId": values["accountId"].strip(),
                        "accountType": values["accountType"],
                        "partnerTierName": values["partnerTier"],
                        "isCurrentOwner": True,
                    }
                ]
            # Rules across fields run in the model only once every field is valid: check them here too, so all show at once.
            try:
                v.check_auto_deploy_status(data["autoDeploy"], data.get("status"))
            except v.FieldProblem as exc:
                problems.setdefault(exc.field, exc.message)
            seen: dict[str, str] = {}
            for index, item in enumerate(data["lineItems"]):
                given = item.get("activationId")
                if given and given in seen:
                    problems.setdefault(f"lineItems[{index}].activationId", f"{given!r} is already used by {seen[given]}")
                elif given:
                    seen[given] = f"line item {index + 1}"
            return validated(EntitlementCreate, data, problems)

        sent_items = [0]

        async def send(model: EntitlementCreate) -> MutationResult:
            result = await self._done_or_partly(self.service.create(model))
            # The documented answer is only {status}: what was sent names the entitlement then (and its items, when the
            # answer says nothing of them).
            result.entitlement_id = result.entitlement_id or model.entitlement_id
            if not result.items:
                result.activation_ids = result.activation_ids or [li.activation_id for li in model.line_items if li.activation_id]
            sent_items[0] = len(model.line_items) if not result.items else len(result.done)
            return result

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            count = len(result.activation_ids) or sent_items[0]
            name = result.entitlement_id or "(its ID generated by the server)"
            ids = f" ({', '.join(result.activation_ids)})" if result.failures and result.activation_ids else ""
            asked = f"Creating the entitlement with {plural(sent_items[0], 'line item')}"
            self._said_done(f"Entitlement {name} created with {plural(count, 'line item')}{ids}", result, "line item", asked)
            account = result.entitlement.owner.account_id if result.entitlement and result.entitlement.owner else None
            self._after_change(account, None, select=f"E:{result.entitlement_id}" if result.entitlement_id else None)

        form = SectionedForm(
            "New entitlement",
            head,
            build,
            send,
            section=section,
            submit_label="Create",
            suggesters=self._line_item_suggester(form_ref),
            hints=lambda values: {**self._line_item_hints(values, section.count), **self._account_hint(values, form_ref)},
        )
        form_ref.append(form)
        self.app.push_screen(form, done)

    def _account_hint(self, values: dict[str, Any], form_ref: list[SectionedForm]) -> dict[str, str]:
        """The name of the account the Account ID field names now (asked of the users service when the tree does not
        show it), not of the account the form was opened on; and its type proposed, unless the user chose one."""
        names = self.account_names
        for root in self.roots:
            names.learn(root.account_id, root.name, root.account_type)
        account_id = str(values.get("accountId") or "").strip()
        if form_ref and names.needs_lookup(account_id):
            self._look_up_account(account_id, form_ref[0])
        account_type = names.type_of(account_id)
        if form_ref and account_type in v.ACCOUNT_TYPES:
            form_ref[0].follow("accountType", account_type)
        return {"accountId": names.hint(account_id)}

    def _look_up_account(self, account_id: str, form: SectionedForm) -> None:
        """Ask the users service about `account_id` once the typing pauses (a key typed meanwhile asks about its own ID
        instead); a failure is said under the field only: the server decides on submit."""
        names = self.account_names
        names.asking = account_id

        async def job() -> None:
            try:
                await asyncio.sleep(LOOKUP_PAUSE_S)
                query = AccountFilter.model_validate({"accountId": account_id, "accountType": list(v.LISTED_ACCOUNT_TYPES)})
                try:
                    page = await self.users.accounts(query, 1, MAX_LIMIT)
                except ApiError as exc:
                    names.unchecked(account_id, str(exc))
                else:
                    names.found(account_id, page.items)
            finally:
                names.done(account_id)  # also when a later key cancelled it: the ID may be asked about again
            form.recheck()

        self.run_worker(job(), group="ent-account-lookup", exclusive=True, description=f"looking up account {account_id}")

    def _entitlement_of(self, item: Item | None) -> Entitlement | None:
        return item.entitlement if item is not None else None

    def _attributes_hint(self) -> str:
        """The tenant decides its custom attributes (and which are mandatory): name the ones in use here."""
        names = sorted(
            {
                a.name
                for node in self.node_index.values()
                if isinstance(node.data, Item) and (ent := self._entitlement_of(node.data)) is not None
                for a in ent.attributes
            }
        )
        seen = (
            ("in use here: " + ", ".join(names[:8]) + ("…" if len(names) > 8 else ""))
            if names
            else "the tenant decides which are mandatory"
        )
        return f"{seen}; a missing mandatory one is named by the server"

    def action_add_items(self) -> None:
        if self._refuse("adding line items"):
            return
        ent = self._entitlement_of(self.current())
        if ent is None:
            self.say("Put the cursor on an entitlement (or one of its line items) to add line items to it")
            return
        self._load_catalogue()
        section = Section("Line item", "li", self._line_item_specs("lineItems"))
        form_ref: list[SectionedForm] = []

        def build(values: dict[str, Any]) -> LineItemsCreate:
            problems: dict[str, str] = {}
            items = [self._line_item_body(values, i, "lineItems", problems) for i in range(section.count)]
            return validated(LineItemsCreate, {"lineItems": items}, problems)

        async def send(model: LineItemsCreate) -> MutationResult:
            asked[:] = [f"Adding {plural(len(model.line_items), 'line item')} to {ent.entitlement_id}"]
            return await self._done_or_partly(self.service.add_line_items(ent.entitlement_id, model.line_items))

        asked: list[str] = []

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            ids = result.activation_ids
            said = f"{plural(len(ids), 'line item')} added to {ent.entitlement_id}: {', '.join(ids)}"
            self._said_done(said, result, "line item", asked[0])
            self._after_change(None, ent.entitlement_id, select=f"L:{ids[0]}" if ids else None)

        form = SectionedForm(
            f"Add line items to {ent.entitlement_id}",
            [],
            build,
            send,
            section=section,
            submit_label="Add",
            suggesters=self._line_item_suggester(form_ref),
            hints=lambda values: self._line_item_hints(values, section.count),
        )
        form_ref.append(form)
        self.app.push_screen(form, done)

    def _line_item_or_say(self, what: str) -> tuple[Entitlement, LineItem] | None:
        item = self.current()
        if item is None or item.line_item is None or item.entitlement is None:
            self.say(f"Put the cursor on a line item to {what}")
            return None
        return item.entitlement, item.line_item

    def action_policies(self) -> None:
        if self._refuse("changing line item policies"):
            return
        found = self._line_item_or_say("change its policies")
        if found is None:
            return
        ent, li = found
        current = li.policies or {}
        # The documented units (Days, Weeks, Months, Years: PolicyInput); what the server holds is preselected in
        # whatever case it answers ("DAYS" is Days), and a unit it holds that is none of them is shown as it is.
        units = [("—", "")] + [(u.lower(), u) for u in v.POLICY_TERM_UNITS]
        fields: list[FieldSpec] = []
        for kind in v.POLICY_KINDS:
            now = current.get(kind) if isinstance(current.get(kind), dict) else {}
            title = kind.capitalize()
            held = now.get("policyTermUnit")
            held_text = str(held).strip() if held is not None else ""
            unit_now = v.policy_term_unit(held) or held_text
            unit_options = units
            if unit_now not in ("", *v.POLICY_TERM_UNITS):
                unit_options = [*units, (f"{held_text} (not a documented unit)", held_text)]
            fields += [
                FieldSpec(
                    f"{kind}-count",
                    f"{title} allowed",
                    value=str(now.get("allowedCount", "") if now.get("allowedCount") is not None else ""),
                    errors=(f"{kind}.allowedCount", kind),
                    placeholder="count",
                ),
                FieldSpec(
                    f"{kind}-duration",
                    f"{title} per",
                    value=str(now.get("policyTermDuration", "") if now.get("policyTermDuration") is not None else ""),
                    errors=(f"{kind}.policyTermDuration",),
                    placeholder="term length",
                ),
                FieldSpec(
                    f"{kind}-unit",
                    f"{title} term unit",
                    kind="select",
                    options=unit_options,
                    value=unit_now,
                    errors=(f"{kind}.policyTermUnit",),
                ),
            ]
        extra_now = current.get("extraActivations")
        fields.append(
            FieldSpec(
                "extraActivations", "Extra activations", value="" if extra_now is None else str(extra_now), errors=("extraActivations",)
            )
        )
        for flag, label in (
            ("cancelLicense", "Cancel license"),
            ("virtualLicense", "Virtual license"),
            ("acpiGenerationIdLicense", "ACPI generation ID"),
        ):
            now_flag = current.get(flag)
            fields.append(
                FieldSpec(
                    flag,
                    label,
                    kind="select",
                    options=TRISTATE,
                    value="" if now_flag is None else ("true" if now_flag else "false"),
                    errors=(flag,),
                )
            )

        def build(values: dict[str, Any]) -> LineItemPolicies:
            problems: dict[str, str] = {}
            data: dict[str, Any] = {}
            for kind in v.POLICY_KINDS:
                entry: dict[str, Any] = {}
                count = number(values, f"{kind}-count", f"{kind}.allowedCount", problems)
                duration = number(values, f"{kind}-duration", f"{kind}.policyTermDuration", problems)
                if count is not None:
                    entry["allowedCount"] = count
                if duration is not None:
                    entry["policyTermDuration"] = duration
                if values[f"{kind}-unit"]:
                    entry["policyTermUnit"] = values[f"{kind}-unit"]
                if entry:
                    data[kind] = entry
            extra = number(values, "extraActivations", "extraActivations", problems)
            if extra is not None:
                data["extraActivations"] = extra
            for flag in ("cancelLicense", "virtualLicense", "acpiGenerationIdLicense"):
                chosen = bool_choice(values[flag])
                if chosen is not None:
                    data[flag] = chosen
            return validated(LineItemPolicies, data, problems)

        async def send(model: LineItemPolicies) -> MutationResult:
            return await self._done_or_partly(self.service.set_policies(ent.entitlement_id, li.activation_id, model))

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            said = f"Policies of {li.activation_id} saved: {policies_text(result.policies or {}) or 'none'}"
            self._said_done(said, result, "item", f"Changing the policies of {li.activation_id}")
            self._after_change(None, ent.entitlement_id, select=f"L:{li.activation_id}")

        self.app.push_screen(
            SectionedForm(f"Policies of line item {li.activation_id}", fields, build, send, submit_label="Save", editing=True), done
        )

    def action_properties(self) -> None:
        if self._refuse("updating line item properties"):
            return
        found = self._line_item_or_say("update its properties")
        if found is None:
            return
        ent, li = found
        self._load_catalogue()
        product = li.product
        model = product.license_model if product else None
        p = "lineItems[0]"
        pp = f"{p}.product"
        lm = f"{pp}.licenseModel"
        fields = [
            FieldSpec(
                "orderType",
                "Order type",
                kind="select",
                options=[(f"unchanged ({(li.order_type or '').lower()})", "")] + [(o.lower(), o) for o in v.ORDER_TYPES],
                errors=(f"{p}.orderType",),
            ),
            FieldSpec(
                "parentActivationId",
                "Parent activation ID",
                placeholder=li.parent_activation_id or "none",
                errors=(f"{p}.parentActivationId",),
            ),
            FieldSpec(
                "deploy", "Deploy it now", kind="switch", value=False, errors=(f"{p}.deploy",), hint=f"now {(li.state or '?').lower()}"
            ),
            FieldSpec(
                "productName", "New product", placeholder=(product.product_name or "") if product else "", errors=(f"{pp}.productName", pp)
            ),
            FieldSpec(
                "productVersion",
                "New version",
                placeholder=(product.product_version or "") if product else "",
                errors=(f"{pp}.productVersion",),
            ),
            FieldSpec(
                "partNumber", "or part number", placeholder=(product.part_number or "") if product else "", errors=(f"{pp}.partNumber",)
            ),
            FieldSpec("lmName", "License model", placeholder=(model.license_model_name or "") if model else "", errors=(f"{lm}.name", lm)),
            FieldSpec("issuer", "Issuer", placeholder=(model.issuer or "") if model else "", errors=(f"{lm}.issuer",)),
            FieldSpec("serialNumber", "Serial number", errors=(f"{lm}.serialNumber",)),
            FieldSpec("vendorString", "Vendor string", errors=(f"{lm}.vendorString",)),
            FieldSpec("notice", "Notice", errors=(f"{lm}.notice",)),
            FieldSpec("overdraft", "Overdraft", errors=(f"{lm}.overdraft",)),
            FieldSpec("maxBorrowInterval", "Max borrow interval", errors=(f"{lm}.maxBorrowInterval",)),
            FieldSpec("autoProvision", "Auto provision", kind="select", options=TRISTATE, errors=(f"{lm}.autoProvision",)),
            FieldSpec("gracePeriodDays", "Grace period (days)", errors=(f"{lm}.gracePeriodDays",)),
            FieldSpec(
                "attributes",
                "Attributes",
                placeholder="Name=value; Name=value",
                errors=(f"{p}.attributes",),
                hint=("now " + attributes_text(li.attributes)) if li.attributes else "set or add line item attributes",
            ),
        ]

        def build(values: dict[str, Any]) -> AdditionalProperties:
            problems: dict[str, str] = {}
            entry: dict[str, Any] = {"activationId": li.activation_id}
            if values["orderType"]:
                entry["orderType"] = values["orderType"]
            if values["parentActivationId"].strip():
                entry["parentActivationId"] = values["parentActivationId"].strip()
            if values["deploy"]:
                entry["deploy"] = True
            prod: dict[str, Any] = {}
            for key in ("productName", "productVersion", "partNumber"):
                if values[key].strip():
                    prod[key] = values[key].strip()
            model_body: dict[str, Any] = {}
            for key, name in (
                ("lmName", "name"),
                ("issuer", "issuer"),
                ("serialNumber", "serialNumber"),
                ("vendorString", "vendorString"),
                ("notice", "notice"),
                ("maxBorrowInterval", "maxBorrowInterval"),
            ):
                if values[key].strip():
                    model_body[name] = values[key].strip()
            for key in ("overdraft", "gracePeriodDays"):
                got = number(values, key, f"{lm}.{key}", problems)
                if got is not None:
                    model_body[key] = got
            if bool_choice(values["autoProvision"]) is not None:
                model_body["autoProvision"] = bool_choice(values["autoProvision"])
            if model_body:
                prod["licenseModel"] = model_body
            if prod:
                entry["product"] = prod
            attrs = attribute_list(values["attributes"], f"{p}.attributes", problems)
            if attrs:
                entry["attributes"] = [{**a, "type": "line_item"} for a in attrs]
            if len(entry) == 1 and not problems:
                raise ValueError("change at least one property")
            return validated(AdditionalProperties, {"lineItems": [entry]}, problems)

        sent: list[str] = []

        async def send(model: AdditionalProperties) -> MutationResult:
            sent[:] = changes_said(model.model_dump(by_alias=True, exclude_none=True)["lineItems"][0])
            return await self._done_or_partly(self.service.update_properties(ent.entitlement_id, model))

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            updated = result.response_for(li.activation_id).get("updated")
            what = ", ".join(sent) if sent else ", ".join(updated or [])  # the values set, not only "licenseModel"
            said = f"{li.activation_id} updated" + (f": {what}" if what else "")
            self._said_done(said, result, "line item", f"Updating {li.activation_id}")
            self._after_change(None, ent.entitlement_id, select=f"L:{li.activation_id}")

        self.app.push_screen(
            SectionedForm(
                f"Properties of line item {li.activation_id}",
                fields,
                build,
                send,
                submit_label="Update",
                editing=True,
                suggesters=lambda spec: NameSuggester(self.catalogue.names) if spec.key == "productName" else None,
            ),
            done,
        )

    def action_maintenance(self) -> None:
        if self._refuse("adding maintenance line items"):
            return
        item = self.current()
        ent = self._entitlement_of(item)
        if ent is None:
            self.say("Put the cursor on an entitlement or a line item to add maintenance to it")
            return
        self._load_catalogue()
        parent = item.line_item.activation_id if item is not None and item.line_item is not None and not item.line_item.maintenance else ""
        today = self._today()
        path = "maintenanceLineItems"

        def specs(i: int) -> list[FieldSpec]:
            k = lambda name: section_key("mi", i, name)  # noqa: E731
            p = f"{path}[{i}]"
            mp = f"{p}.maintenanceProduct"
            return [
                FieldSpec(
                    k("name"), "Maintenance product", errors=(f"{mp}.maintenanceProductName", mp), placeholder="name from the catalogue"
                ),
                FieldSpec(k("version"), "Version", errors=(f"{mp}.maintenanceProductVersion",)),
                FieldSpec(k("partNumber"), "Part number", errors=(f"{mp}.partNumber",), placeholder="optional: one of the product's"),
                FieldSpec(
                    k("parent"),
                    "Parent activation ID",
                    value=parent if i == 0 else "",
                    errors=(f"{p}.parentActivationId",),
                    hint="the line item it maintains (optional)",
                ),
                FieldSpec(k("quantity"), "Quantity", value="1", errors=(f"{p}.quantity",)),
                FieldSpec(k("startDate"), "Start date", value=today.isoformat(), errors=(f"{p}.startDate",)),
                FieldSpec(k("isPermanent"), "Permanent (no expiry)", kind="switch", value=False, errors=(f"{p}.isPermanent",)),
                FieldSpec(
                    k("expiryDate"),
                    "Expiry date",
                    value=(today + timedelta(days=365)).isoformat(),
                    errors=(f"{p}.expiryDate",),
                    visible_when=lambda values, i=i: not values.get(section_key("mi", i, "isPermanent")),
                ),
                FieldSpec(
                    k("activationId"), "Activation ID", placeholder="empty: generated", errors=(f"{p}.activationId", f"{p}.autoGenerate")
                ),
            ]

        section = Section("Maintenance item", "mi", specs)
        form_ref: list[SectionedForm] = []

        def build(values: dict[str, Any]) -> MaintenanceLineItemsCreate:
            problems: dict[str, str] = {}
            items = []
            for i in range(section.count):
                k = lambda name, i=i: values.get(section_key("mi", i, name))  # noqa: E731
                p = f"{path}[{i}]"
                product = {
                    "maintenanceProductName": (k("name") or "").strip(),
                    "maintenanceProductVersion": (k("version") or "").strip(),
                    "partNumber": (k("partNumber") or "").strip(),
                }
                body: dict[str, Any] = {
                    "maintenanceProduct": {x: y for x, y in product.items() if y},
                    "quantity": number(values, section_key("mi", i, "quantity"), f"{p}.quantity", problems, default=1),
                    "startDate": (k("startDate") or "").strip(),
                    "isPermanent": bool(k("isPermanent")),
                }
                if not body["isPermanent"]:
                    body["expiryDate"] = (k("expiryDate") or "").strip()
                for key, name in (("parent", "parentActivationId"), ("activationId", "activationId")):
                    if (k(key) or "").strip():
                        body[name] = k(key).strip()
                term_problems(body, p, problems)
                items.append(body)
            return validated(MaintenanceLineItemsCreate, {"maintenanceLineItems": items}, problems)

        async def send(model: MaintenanceLineItemsCreate) -> MutationResult:
            asked[:] = [f"Adding {plural(len(model.line_items), 'maintenance line item')} to {ent.entitlement_id}"]
            return await self._done_or_partly(self.service.add_maintenance_line_items(ent.entitlement_id, model.line_items))

        asked: list[str] = []

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            ids = result.activation_ids
            said = f"{plural(len(ids), 'maintenance line item')} added to {ent.entitlement_id}: {', '.join(ids)}"
            self._said_done(said, result, "maintenance item", asked[0])
            self._after_change(None, ent.entitlement_id, select=f"L:{ids[0]}" if ids else None)

        def hints(values: dict[str, Any]) -> dict[str, str]:
            out = {}
            for i in range(section.count):
                name = values.get(section_key("mi", i, "name"), "").strip()
                if not self.catalogue.loaded:
                    out[section_key("mi", i, "name")] = self.catalogue.waiting_note
                elif name and name in self.catalogue.maintenance:
                    out[section_key("mi", i, "name")] = "versions: " + ", ".join(self.catalogue.maintenance_versions(name))
                elif name:
                    out[section_key("mi", i, "name")] = "⚠ no such maintenance product; known: " + ", ".join(
                        self.catalogue.maintenance_names()[:6]
                    )
                else:
                    out[section_key("mi", i, "name")] = "known: " + ", ".join(self.catalogue.maintenance_names()[:6])
                version = values.get(section_key("mi", i, "version"), "").strip()
                found = self.catalogue.maintenance.get(name, {}).get(version) if name and version else None
                if found is not None and found.part_numbers:
                    out[section_key("mi", i, "partNumber")] = "its part numbers: " + ", ".join(found.part_numbers[:6])
            return out

        def suggest(spec: FieldSpec) -> Suggester | None:
            index, _, name = spec.key[2:].partition("-")
            if name == "name":
                return NameSuggester(self.catalogue.maintenance_names)
            if name == "version":
                return NameSuggester(
                    lambda: self.catalogue.maintenance_versions(
                        form_ref[0].value_of(section_key("mi", int(index), "name")) if form_ref else ""
                    )
                )
            if name == "partNumber":
                return NameSuggester(lambda: self._maintenance_parts(form_ref[0], int(index)) if form_ref else [])
            return None

        form = SectionedForm(
            f"Maintenance line items for {ent.entitlement_id}",
            [],
            build,
            send,
            section=section,
            submit_label="Add",
            suggesters=suggest,
            hints=hints,
        )
        form_ref.append(form)
        self.app.push_screen(form, done)

    def _maintenance_parts(self, form: SectionedForm, index: int) -> list[str]:
        """The part numbers of the maintenance product section `index` names (for its Part number field)."""
        name = str(form.value_of(section_key("mi", index, "name")) or "").strip()
        version = str(form.value_of(section_key("mi", index, "version")) or "").strip()
        found = self.catalogue.maintenance.get(name, {}).get(version)
        return list(found.part_numbers) if found is not None else []

    def _after_change(self, account_id: str | None, entitlement_id: str | None, *, select: str | None = None) -> None:
        """Reload, fresh, what a change touched: an entitlement's line items and its account's entitlements (counts changed)."""
        self._select_after = select
        if entitlement_id is not None:
            node = self.node_index.get(f"E:{entitlement_id}")
            if node is not None and node.data is not None:
                account_id = account_id or node.data.account_id
            self._reload_node(f"E:{entitlement_id}")
        if account_id is None:
            return
        if self.filters.on_entitlements:
            gen = self.generation
            self.run_api(lambda: self._entitlement_roots(gen, True), group="ent-roots", doing="refreshing entitlements")
        elif not self._reload_node(f"A:{account_id}"):
            self.expanded.add(f"A:{account_id}")
            self._auto_expand = account_id
            self.action_load(force=True)

    def _reload_node(self, key: str) -> bool:
        """Load a node's children again, fresh, and show them (expanding it); False when the node is not in the tree."""
        node = self.node_index.get(key)
        if node is None or node.data is None or not self._attached(node):
            return False
        item = node.data
        if item.kind == "account" and item.account_id is not None:
            self.ent_children.pop(item.account_id, None)
        elif item.kind == "entitlement" and item.entitlement is not None:
            self.li_children.pop(item.entitlement.entitlement_id, None)
        else:
            return False
        self.expanded.add(key)
        self._start_load(node, item, force=True)
        if not node.is_expanded:
            node.expand()  # the handler sees the load under way: no second request
        return True
