"""Simulated entitlement service (`{base}/entitlements-api/v1/…`), per seed 002.

It serves and changes `world.entitlements` itself (the `SimEntitlement` and
`SimLineItem` objects that reports and the registry read), so an entitlement
created here shows up in their data too. Products are looked up in the
products simulator's catalogue, so a product created there can be entitled.
Indexes (by activation ID, account and product) keep filtered lists fast at
scale 100 (5,000 entitlements, ~50,000 line items).

Choices where the seed and the notes are silent, so a client must cope:
- Pages are 1-based (`page` default 1, `limit` default 20, at most 500); a
  bad page, limit, sort_by (entitlement_id | created_on, default
  entitlement_id) or sort_order is a 400 naming the parameter.
- GET /entitlements answers `{"status": "success", "page", "limit",
  "total", "entitlements": [...]}`; each entitlement has entitlementId,
  description, status, shipToEmail, shipToAddress, allowPortalLogin,
  createdOn/updatedOn (ISO 8601), accounts[], attributes[] and
  lineItemCount, but not its line items.
- GET /entitlement/{id}/line-items answers `{"status", "entitlementId",
  "page", "limit", "total", "lineItems": [...]}` in creation order (the
  optional sort_by activation_id | start_date is this simulator's). A line
  item has activationId, lineItemState, orderType, permanent, startDate,
  expiryDate, duration (days), quantity, quantityPerCopy, products[] (one
  product with licenseModel), attributes[], policies, parentActivationId,
  maintenance and createdOn.
- GET /entitlement/{id} (not in the seed) answers `{"status",
  "entitlement"}`, so a client can show one entitlement without listing.
- Filters: activationId, accountId, partNumber, version and status are
  exact (status ignoring case; obsoleted = obsolete: seed 002 names both for
  the list filter, obsolete as a creation status and obsoleted among those
  it "also names", and nothing says they differ); accountName,
  contactEmail (the ship-to e-mail or an account's contact) and product
  (name) are case-insensitive substrings. product, version and partNumber
  must all match the same line item. Line-item filters: activationId and
  startDate exact, productName substring, licenseModelName and status
  ignoring case.
- Mutations answer `{"status": "success", "message", "entitlementId",
  …, "responseItems": [{"activationId", "status", "errorMsg"}]}` (201 for
  creations, 200 for PATCHes); the additional-properties PATCH adds
  `activationIds` and `response` (activation ID → result). A whole request
  is checked before anything changes: one bad item refuses all, except
  for what fails an item on its own: a product (or maintenance product)
  of the catalogue that is not deployed ("There must be deployed products
  and license models", SOAP createSimpleEntitlement,
  https://docs.revenera.com/fno_CURRENT/soapapi/ME-EntitlementOrderService-createSimpleEntitlement.htm).
  That item's response item says `FAILURE` with an errorMsg, the others
  are made, and the answer's status is SOAP's word for it:
  `PARTIAL_FAILURE` (201) when some were made, `FAILURE` (200, nothing
  made: no entitlement either) when none were; under `create-status-only`
  the answer is that status alone, never SUCCESS.
- Errors: 400 naming the field by path (`lineItems[0].startDate`) for
  broken rules and unknown products/accounts; 409 for an ID already used
  by an entitlement or a line item (or twice in one request); 404 for an
  unknown entitlement or line item; 403 when a customer user mutates.
  Customer users see only their own account's entitlements.
- An ID left out (or empty) is generated when autoGenerate is true or left
  out; with autoGenerate false it is a 400 naming the ID ("If you specify
  false, it means you need to pass the ID value": the same backend's SOAP
  createSimpleEntitlement,
  https://docs.revenera.com/fno_CURRENT/soapapi/ME-EntitlementOrderService-createSimpleEntitlement.htm).
  An ID given with autoGenerate true is a 400 naming autoGenerate.
- A line item holds one or more products (`product`, "List of products
  entitled by this line item"; "Use the entitledProducts element to specify
  one or more products",
  https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/WSEntOderSpecifyProd.htm),
  none of them twice; the world's line item keeps the first (reports and
  the registry read it), the store the others, and the list shows them all.
  A licenseModel given needs its licenseModelName ("(string, required)",
  …/lineitem/postlineitems.md). A line item needs an expiryDate unless
  isPermanent is true ("If isPermanent is false, set term or
  expirationDate": the same backend's SOAP type,
  https://docs.revenera.com/fno_CURRENT/soapapi/CT-EntitlementOrderService-tns_expirationTermsDataType.htm;
  the REST line item has no term).
- Custom attribute values are text, a number or a list of texts ("value
  (object)": …/maintenancelineitem/postmaintenancelineitems.md; "Single
  Text … Multi-valued text … Date: "YYYY/MM/DD" … Number: 12345",
  https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/CreateEntitlementInput.md),
  kept and answered as given; true/false or an object is a 400.
- Custom attributes are the tenant's (`World.attribute_definitions`): a
  mandatory one (by default `REGION`, after the vendor's example `REGION` =
  `EMEA`) missing or blank on a new entitlement is a 400 whose message and
  field (`attributes[REGION]`, Spring's form for a keyed entry) name it.
  Names compare ignoring case and are stored as given; attributes the tenant
  has not defined are kept (the docs do not say the service refuses them).
- Status: autoDeploy makes the entitlement and its line items DEPLOYED
  (status, if given, must then be deployed); otherwise the entitlement
  takes `status` (default DRAFT) and each line item its lineItemStatus,
  else DEPLOYED if its own autoDeploy, else the entitlement's status. Line
  items added later default to DRAFT. Obsolete entitlements take no new
  line items (400).
- Without accounts the entitlement belongs to UNKNOWN_ORG_UNIT (an account
  of type UNKNOWN added to the world when first needed); given accounts
  must exist. The owner is the account with isCurrentOwner, else the first.
- Policies: rehosts/returns/repairs each {allowedCount ≥ 0,
  policyTermDuration ≥ 0, policyTermUnit Days|Weeks|Months|Years (any case
  unless strict-enums; stored and answered in that documented spelling,
  PolicyInput: https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/PolicyInput.md),
  duration and unit together}, extraActivations ≥ 0 and three booleans; at
  least one field; merged into the line item's policies.
- Maintenance line items: body `{"maintenanceLineItems": [...]}` (or
  `lineItems`), each with maintenanceProduct {maintenanceProductName and
  maintenanceProductVersion, both "(string, required)", and an optional
  partNumber, which must then be one of that product's: the page's sample
  sends all three,
  https://fnoapi.redocly.app/apis/rest/fno_api_modernization/maintenancelineitem/postmaintenancelineitems.md}
  naming a maintenance product of the catalogue, an optional
  parentActivationId (a non-maintenance line item of the same
  entitlement), and the line item date/ID rules.

Dialects (beta.py has what the three beta services share)
- `entitlements-bare-array`: GET /entitlements answers a bare JSON array of
  entitlements; `entitlements-data-envelope`: `{"data": [...]}`. The list's
  body is not documented (the Redocly page shows `{"status": "string"}`);
  these are the other shapes a Spring controller plausibly returns.
- `create-status-only`: POST /entitlement, …/line-items and
  …/maintenance-line-items answer only `{"status": "SUCCESS"}`, the
  documented response (…/entitlement/postentitlement.md).
- `strict-enums`: `orderType` only new_order, renewal_order, upgrade_order,
  upsell_order or invalid_order (the docs' lower case; the docs' example
  `NEW_ORDER` is refused); `status` and `lineItemStatus` only draft,
  deployed or obsolete; the list filter `status` only draft, deployed,
  obsolete, active, inactive or obsoleted (seed 002), the line-item filter
  only draft, deployed or obsolete; accountType and partnerTierName only in
  their documented upper case; sort_order asc | desc; policyTermUnit only
  Days, Weeks, Months or Years as PolicyInput writes them (DAYS is refused).
  (EntMgmtAPILineItems.htm,
  https://fnoapi.redocly.app/apis/rest/fno_api_modernization/entitlement/postentitlement.md,
  https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/PolicyInput.md)
- `null-collections` (app.py): empty accounts, attributes, lineItems and
  products arrays are `null`.
- `line-item-dates-datetime`, `line-item-dates-epoch`: a line item's
  startDate and expiryDate as a Spring service writes a `Date`: Jackson's
  default date-time `2025-01-01T00:00:00.000+00:00`, or epoch milliseconds
  (UTC midnight). The docs give YYYY-MM-DD, and the beta APIs use ISO 8601
  and epoch milliseconds too (notes §5, §6); GraphQL's LineItem types them
  only as String (https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/LineItemResult).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from flextui.sim import rules as r
from flextui.sim.beta import beta_errors, caller_of, created, list_query, page_fields, producer_of, read_body, strict_enums
from flextui.sim.common import SimError, dialects_of, json_response, world_of
from flextui.sim.products import catalogue
from flextui.sim.rules import Body, FieldProblem
from flextui.sim.timefmt import day_start_ms, parse_ymd
from flextui.sim.timefmt import iso as iso_string
from flextui.sim.world import SimAccount, SimEntitlement, SimLineItem, SimProduct, SimUser, World

MOUNT = "/entitlements-api/v1"
LINE_ITEM_SORT_KEYS = ("activation_id", "start_date")
ENTITLEMENT_SORT_KEYS = ("entitlement_id", "created_on")  # seed 002


class EntitlementStore:
    """The world's entitlements with indexes, plus what the dataclasses have no field for."""

    def __init__(self, world: World, entitlements: dict[str, SimEntitlement]) -> None:
        self.world = world
        self.entitlements = entitlements  # world.entitlements: reports and the registry read the same objects
        self.by_activation: dict[str, tuple[SimEntitlement, SimLineItem]] = {}
        self.by_account: dict[str, list[SimEntitlement]] = {}
        self.by_product: dict[tuple[str, str], list[SimEntitlement]] = {}
        self.accounts: dict[str, list[dict[str, Any]]] = {}  # entitlement id → accounts as given at creation
        self.details: dict[str, dict[str, Any]] = {}  # entitlement id → emailTemplateVariation etc.
        self.license_models: dict[str, dict[str, Any]] = {}  # activation id → licenseModel as given
        # activation id → the line item's further products (product[1:]) with their licenseModels: the world's line
        # items hold one product, which reports and the registry read
        self.more_products: dict[str, list[tuple[SimProduct, dict[str, Any]]]] = {}
        self.rng = world.rng("entitlements.generated")
        self.next_entitlement = 100000 + len(self.entitlements)
        self.next_activation = 1
        for ent in self.entitlements.values():
            self.index(ent)
            self.next_activation += len(ent.line_items)

    def index(self, ent: SimEntitlement) -> None:
        self.by_account.setdefault(ent.account_id, []).append(ent)
        for account in self.accounts.get(ent.entitlement_id, []):
            if account["accountId"] != ent.account_id:
                self.by_account.setdefault(account["accountId"], []).append(ent)
        for li in ent.line_items:
            self.index_item(ent, li)

    def index_item(self, ent: SimEntitlement, li: SimLineItem) -> None:
        self.by_activation[li.activation_id] = (ent, li)
        for product in [li.product, *(p for p, _ in self.more_products.get(li.activation_id, []))]:
            listed = self.by_product.setdefault((product.name, product.version), [])
            # Identity, not ==: entitlements are dataclasses, and == would compare every line item.
            if not listed or (listed[-1] is not ent and not any(e is ent for e in listed)):
                listed.append(ent)

    def id_taken(self, value: str) -> bool:
        return value in self.entitlements or value in self.by_activation

    def new_entitlement_id(self) -> str:
        while True:
            candidate = f"ENT-{self.next_entitlement:06d}"
            self.next_entitlement += 1
            if not self.id_taken(candidate):
                return candidate

    def new_activation_id(self) -> str:
        while True:
            candidate = f"ACT-{self.next_activation:07d}-{self.rng.randrange(16**4):04x}"
            self.next_activation += 1
            if not self.id_taken(candidate):
                return candidate

    def get(self, entitlement_id: str, caller: SimUser) -> SimEntitlement:
        ent = self.entitlements.get(entitlement_id)
        if ent is None or not visible(self, ent, caller):
            raise SimError(404, f"no entitlement {entitlement_id!r}")
        return ent

    def default_account(self) -> SimAccount:
        account = self.world.accounts.get(r.DEFAULT_ACCOUNT)
        if account is None:
            account = SimAccount(r.DEFAULT_ACCOUNT, r.DEFAULT_ACCOUNT, "UNKNOWN", "", "", self.world.now_ms())
            self.world.accounts[r.DEFAULT_ACCOUNT] = account
        return account


def entitlement_store(world: World) -> EntitlementStore:
    # World.part holds a non-reentrant lock while building, so the builder must not call
    # world.entitlements (another part): fetch it first and hand it in.
    shared = world.entitlements
    return world.part("entitlements", lambda w: EntitlementStore(w, shared))


def visible(store: EntitlementStore, ent: SimEntitlement, caller: SimUser) -> bool:
    if caller.kind == "producer":
        return True
    if ent.account_id == caller.account_id:
        return True
    return any(a["accountId"] == caller.account_id for a in store.accounts.get(ent.entitlement_id, []))


# -- rendering ----------------------------------------------------------------------------------


def render_accounts(store: EntitlementStore, ent: SimEntitlement) -> list[dict[str, Any]]:
    given = store.accounts.get(ent.entitlement_id)
    if given is not None:
        return [dict(a) for a in given]
    account = store.world.accounts.get(ent.account_id)
    return [
        {
            "accountId": ent.account_id,
            "accountName": account.name if account else None,
            "accountType": account.account_type if account else None,
            "partnerTierName": "END_CUSTOMER",
            "isCurrentOwner": True,
            "contactEmail": ent.ship_to_email or None,
        }
    ]


def render_attributes(attributes: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": k, "value": value} for k, value in attributes.items()]


def render_entitlement(store: EntitlementStore, ent: SimEntitlement) -> dict[str, Any]:
    details = store.details.get(ent.entitlement_id, {})
    return {
        "entitlementId": ent.entitlement_id,
        "description": ent.description,
        "status": ent.status,
        "shipToEmail": ent.ship_to_email,
        "shipToAddress": ent.ship_to_address,
        "allowPortalLogin": ent.allow_portal_login,
        "emailTemplateVariation": details.get("emailTemplateVariation"),
        "createdOn": iso_string(ent.created_ms),
        "updatedOn": iso_string(ent.updated_ms),
        "accounts": render_accounts(store, ent),
        "attributes": render_attributes(ent.attributes),
        "lineItemCount": len(ent.line_items),
    }


def _duration_days(li: SimLineItem) -> int | None:
    if li.expiry_date is None:
        return None
    return (parse_ymd(li.expiry_date) - parse_ymd(li.start_date)).days


def line_item_day(day: str | None, dialects: frozenset[str] | set[str]) -> str | int | None:
    """A line item's date as the dialect writes it: YYYY-MM-DD (documented), Spring's Jackson date-time
    (`line-item-dates-datetime`) or epoch milliseconds at UTC midnight (`line-item-dates-epoch`)."""
    if day is None:
        return None
    if "line-item-dates-epoch" in dialects:
        return day_start_ms(parse_ymd(day))
    if "line-item-dates-datetime" in dialects:
        return f"{day}T00:00:00.000+00:00"
    return day


def render_line_item(
    store: EntitlementStore, ent: SimEntitlement, li: SimLineItem, dialects: frozenset[str] | set[str] = frozenset()
) -> dict[str, Any]:
    model = {"licenseModelName": li.product.license_model}
    model.update(store.license_models.get(li.activation_id, {}))
    return {
        "activationId": li.activation_id,
        "entitlementId": ent.entitlement_id,
        "lineItemState": li.state,
        "orderType": li.order_type,
        "permanent": li.expiry_date is None,
        "startDate": line_item_day(li.start_date, dialects),
        "expiryDate": line_item_day(li.expiry_date, dialects),
        "duration": _duration_days(li),
        "quantity": li.quantity,
        "quantityPerCopy": li.quantity_per_copy,
        "products": [
            {
                "productName": li.product.name,
                "productVersion": li.product.version,
                "partNumber": li.product.part_number or None,
                "quantity": li.quantity,
                "licenseModel": model,
            },
            *(
                {
                    "productName": more.name,
                    "productVersion": more.version,
                    "partNumber": more.part_number or None,
                    "quantity": li.quantity,
                    "licenseModel": {"licenseModelName": more.license_model, **more_model},
                }
                for more, more_model in store.more_products.get(li.activation_id, [])
            ),
        ],
        "attributes": render_attributes(li.attributes),
        "policies": li.policies,
        "parentActivationId": li.parent_activation_id,
        "maintenance": li.maintenance,
        "createdOn": iso_string(li.created_ms),
    }


def result_items(activation_ids: list[str]) -> list[dict[str, Any]]:
    return [{"activationId": a, "status": "success", "errorMsg": None} for a in activation_ids]


def planned_results(planned: list[PlannedItem], ids: list[str | None]) -> list[dict[str, Any]]:
    """One LineItemResponseItem `{activationId, status, errorMsg}` per planned item, in request order: a failed one
    says FAILURE and why (its activationId is the one given, if any)."""
    return [
        {"activationId": plan.activation_id, "status": "FAILURE", "errorMsg": plan.failure}
        if plan.failure
        else {"activationId": made, "status": "success", "errorMsg": None}
        for plan, made in zip(planned, ids)
    ]


def overall(planned: list[PlannedItem]) -> str:
    """The answer's status as SOAP's StatusType words it when items failed: PARTIAL_FAILURE (some done) or FAILURE
    (none), https://docs.revenera.com/fno_CURRENT/soapapi/ME-EntitlementOrderService-createSimpleEntitlement.htm."""
    failed = sum(1 for plan in planned if plan.failure)
    return "success" if not failed else ("FAILURE" if failed == len(planned) else "PARTIAL_FAILURE")


def answer_items(request: Request, body: dict[str, Any], planned: list[PlannedItem]) -> Response:
    """A create answer: `created` when every item was made; with failed items their status as it is (201 when some
    were made, 200 when none), never SUCCESS, also under `create-status-only` (then only the status)."""
    status = overall(planned)
    if status == "success":
        return created(request, body)
    code = 200 if status == "FAILURE" else 201
    if "create-status-only" in dialects_of(request):
        return json_response({"status": status}, code)
    return json_response({**body, "status": status}, code)


def not_deployed(what: str, name: str, version: str, state: str) -> str | None:
    """Why a line item of this product fails (None when it is deployed): "There must be deployed products and license
    models" to entitle them (https://docs.revenera.com/fno_CURRENT/soapapi/ME-EntitlementOrderService-createSimpleEntitlement.htm)."""
    if state.upper() == "DEPLOYED":
        return None
    return f"{what} {name} version {version} is not deployed (it is {state.lower()}): deploy it before entitling it"


# -- listing ------------------------------------------------------------------------------------


def _candidates(store: EntitlementStore, q: Any, caller: SimUser) -> list[SimEntitlement]:
    """Entitlements that may match, narrowed by the indexes (the caller's account first)."""
    world = store.world
    sets: list[list[SimEntitlement]] = []
    if caller.kind != "producer":
        sets.append(store.by_account.get(caller.account_id, []))
    if q.get("activationId"):
        found = store.by_activation.get(q["activationId"])
        sets.append([found[0]] if found else [])
    if q.get("accountId"):
        sets.append(store.by_account.get(q["accountId"], []))
    if q.get("accountName"):
        needle = q["accountName"].lower()
        ids = [a.account_id for a in world.accounts.values() if needle in a.name.lower()]
        sets.append([e for i in ids for e in store.by_account.get(i, [])])
    product, version, part = q.get("product"), q.get("version"), q.get("partNumber")
    if product or version or part:
        keys = [
            key
            for key, ents in store.by_product.items()
            if (not product or product.lower() in key[0].lower()) and (not version or key[1] == version)
        ]
        matched: list[SimEntitlement] = []
        for key in keys:
            for ent in store.by_product[key]:
                if part and not any(
                    li.product.part_number == part and (li.product.name, li.product.version) == key for li in ent.line_items
                ):
                    continue
                matched.append(ent)
        sets.append(matched)
    if not sets:
        return list(store.entitlements.values())
    smallest = min(sets, key=len)
    others = [{id(e) for e in s} for s in sets if s is not smallest]
    seen: set[int] = set()
    out = []
    for ent in smallest:
        if id(ent) in seen or not all(id(ent) in o for o in others):
            continue
        seen.add(id(ent))
        out.append(ent)
    return out


@beta_errors
async def list_entitlements(request: Request) -> Response:
    caller = caller_of(request)
    store = entitlement_store(world_of(request))
    q = request.query_params
    params = list_query(request, ENTITLEMENT_SORT_KEYS, "entitlement_id")
    status = r.query_choice(q, "status", r.ENTITLEMENT_STATUS_FILTER.rule(strict_enums(request)))
    items = _candidates(store, q, caller)
    if status:
        items = [e for e in items if e.status == status]
    if q.get("contactEmail"):
        needle = q["contactEmail"].lower()
        items = [
            e
            for e in items
            if needle in e.ship_to_email.lower()
            or any(needle in (a.get("contactEmail") or "").lower() for a in store.accounts.get(e.entitlement_id, []))
        ]
    if params.sort_by == "created_on":
        items.sort(key=lambda e: (e.created_ms, e.entitlement_id), reverse=params.descending)
    else:
        items.sort(key=lambda e: e.entitlement_id, reverse=params.descending)
    shown = [render_entitlement(store, e) for e in params.take(items)]
    dialects = dialects_of(request)
    if "entitlements-bare-array" in dialects:
        return json_response(shown)
    if "entitlements-data-envelope" in dialects:
        return json_response({"data": shown})
    return json_response({"status": "success", **page_fields(params, len(items)), "entitlements": shown})


async def get_entitlement(request: Request) -> Response:
    caller = caller_of(request)
    store = entitlement_store(world_of(request))
    ent = store.get(request.path_params["entitlement_id"], caller)
    return json_response({"status": "success", "entitlement": render_entitlement(store, ent)})


@beta_errors
async def list_line_items(request: Request) -> Response:
    caller = caller_of(request)
    store = entitlement_store(world_of(request))
    ent = store.get(request.path_params["entitlement_id"], caller)
    q = request.query_params
    params = list_query(request, LINE_ITEM_SORT_KEYS, "")
    strict = strict_enums(request)
    status = r.query_choice(q, "status", (r.LINE_ITEM_STATUS if strict else r.LINE_ITEM_STATUS_FILTER_LENIENT).rule(strict))
    start = r.query_choice(q, "startDate", r.ymd_date)
    items = ent.line_items
    if q.get("activationId"):
        items = [li for li in items if li.activation_id == q["activationId"]]
    if q.get("productName"):
        needle = q["productName"].lower()
        items = [li for li in items if needle in li.product.name.lower()]
    if start:
        items = [li for li in items if li.start_date == start]
    if q.get("licenseModelName"):
        wanted = q["licenseModelName"].lower()
        items = [
            li
            for li in items
            if str(store.license_models.get(li.activation_id, {}).get("licenseModelName") or li.product.license_model).lower() == wanted
        ]
    if status:
        items = [li for li in items if li.state == status]
    if params.sort_by == "activation_id":
        items = sorted(items, key=lambda li: li.activation_id, reverse=params.descending)
    elif params.sort_by == "start_date":
        items = sorted(items, key=lambda li: (li.start_date, li.activation_id), reverse=params.descending)
    return json_response(
        {
            "status": "success",
            "entitlementId": ent.entitlement_id,
            **page_fields(params, len(items)),
            "lineItems": [render_line_item(store, ent, li, dialects_of(request)) for li in params.take(items)],
        }
    )


# -- reading request bodies ---------------------------------------------------------------------


@dataclass
class PlannedItem:
    """A line item checked and ready to add (its ID may still need generating)."""

    path: str
    activation_id: str | None
    product: SimProduct
    license_model: dict[str, Any]
    quantity: int
    quantity_per_copy: int
    start_date: str
    expiry_date: str | None
    order_type: str
    state: str | None
    auto_deploy: bool
    attributes: dict[str, str] = field(default_factory=dict)
    parent_activation_id: str | None = None
    maintenance: bool = False
    failure: str | None = None  # why this item fails on its own (the others are made): its product is not deployed
    more_products: list[tuple[SimProduct, dict[str, Any]]] = field(default_factory=list)  # product[1:], each with its model


def read_id(body: Body, key: str) -> str | None:
    """An entitlement or activation ID (None when left out or empty): given, autoGenerate must be false; autoGenerate
    false, it must be given (`rules.id_agrees_with_autogenerate`)."""
    value = body.text(key, rule=r.entity_id, blank_is_none=True)
    auto = body.flag("autoGenerate") if body.has("autoGenerate") else None
    body.apply("", value, lambda x: r.id_agrees_with_autogenerate(x, auto, key))
    return value


def read_attributes(body: Body, key: str = "attributes", *, free_values: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    items = body.objects(key)
    names = [item.text("name", required=True) for item in items]
    body.apply(key, names, r.attribute_names_unique)
    for item, name in zip(items, names):
        if free_values:
            value = item.obj.get("value")
            item.text("type")
            out[name] = value if isinstance(value, str) else json.dumps(value)
        else:
            value = item.obj.get("value")
            out[name] = "" if value is None else item.apply("value", value, r.attribute_value)
    return out


def read_dates(body: Body) -> tuple[str, str | None]:
    start = body.text("startDate", required=True, rule=r.ymd_date)
    expiry = body.text("expiryDate", rule=r.ymd_date, blank_is_none=True)
    permanent = body.flag("isPermanent")
    body.apply("", expiry, lambda e: r.line_item_term(start, e, permanent))
    return start, expiry


def read_product(cat: Any, p: Body) -> tuple[SimProduct, dict[str, Any], str | None]:
    """One entry of a line item's `product`: the catalogue's product, its licenseModel as given (licenseModelName
    "(string, required)" when a licenseModel is given: …/lineitem/postlineitems.md), and why it fails the line item
    (not deployed) or None."""
    name = p.text("productName", required=True)
    version = p.text("productVersion", required=True)
    product = cat.product(name, version)
    if product is None:
        known = cat.versions_of(name)
        hint = f" (versions: {', '.join(known)})" if known else ""
        raise p.problem("productName", f"no product {name} version {version} in the catalogue{hint}")
    listed = cat.products.get((name, version))
    failure = not_deployed("Product", name, version, listed.state) if listed is not None else None
    model: dict[str, Any] = {}
    lm = p.object("licenseModel")
    if lm is not None:
        model["licenseModelName"] = lm.text("licenseModelName", required=True)
        for key in ("issuer", "serialNumber", "vendorString", "notice"):
            value = lm.text(key)
            if value is not None:
                model[key] = value
    return product, model, failure


def read_line_item(store: EntitlementStore, item: Body, strict: bool = False) -> PlannedItem:
    cat = catalogue(store.world)
    activation_id = read_id(item, "activationId")
    entries = item.objects("product", required=True, min_items=1)
    read = [read_product(cat, p) for p in entries]
    seen: set[tuple[str, str]] = set()
    for index, (product, _, _) in enumerate(read):
        if (product.name, product.version) in seen:
            raise FieldProblem(f"{item.at('product')}[{index}]", f"{product.name} {product.version} is given twice")
        seen.add((product.name, product.version))
    product, model, _ = read[0]
    failure = next((f for _, _, f in read if f), None)
    quantity = item.number("quantity", default=1, rule=r.int32(0))
    per_copy = item.number("quantityPerCopy", default=1, rule=r.int32(1))
    start, expiry = read_dates(item)
    item.flag("isActivatable")
    return PlannedItem(
        path=item.path,
        activation_id=activation_id,
        product=product,
        license_model=model,
        quantity=quantity,
        quantity_per_copy=per_copy,
        start_date=start,
        expiry_date=expiry,
        order_type=item.text("orderType", rule=r.ORDER_TYPE.rule(strict), blank_is_none=True) or r.DEFAULT_ORDER_TYPE,
        state=item.text("lineItemStatus", rule=r.LINE_ITEM_STATUS.rule(strict), blank_is_none=True),
        auto_deploy=item.flag("autoDeploy"),
        attributes=read_attributes(item),
        failure=failure,
        more_products=[(p, m) for p, m, _ in read[1:]],
    )


def check_new_ids(store: EntitlementStore, named: list[tuple[str, str]]) -> None:
    """409 for an ID already used by an entitlement or line item, or used twice in the request."""
    seen: set[str] = set()
    for path, value in named:
        if value in seen:
            raise SimError(409, f"{path}: {value!r} is used twice in this request", path)
        if store.id_taken(value):
            raise SimError(409, f"{path}: {value!r} is already used by an entitlement or line item (IDs are unique across both)", path)
        seen.add(value)


def add_items(
    store: EntitlementStore, ent: SimEntitlement, planned: list[PlannedItem], default_state: str, force_deploy: bool = False
) -> list[str | None]:
    """Make the planned items that do not fail; their activation IDs in request order (None for a failed one)."""
    now = store.world.now_ms()
    ids: list[str | None] = []
    for plan in planned:
        if plan.failure:
            ids.append(None)
            continue
        activation_id = plan.activation_id or store.new_activation_id()
        if force_deploy or (plan.state is None and plan.auto_deploy):
            state = "DEPLOYED"
        else:
            state = plan.state or default_state
        li = SimLineItem(
            activation_id=activation_id,
            product=plan.product,
            quantity=plan.quantity,
            start_date=plan.start_date,
            expiry_date=plan.expiry_date,
            order_type=plan.order_type,
            state=state,
            created_ms=now,
            quantity_per_copy=plan.quantity_per_copy,
            attributes=plan.attributes,
            parent_activation_id=plan.parent_activation_id,
            maintenance=plan.maintenance,
        )
        if plan.license_model:
            store.license_models[activation_id] = plan.license_model
        if plan.more_products:
            store.more_products[activation_id] = plan.more_products
        ent.line_items.append(li)
        store.index_item(ent, li)
        ids.append(activation_id)
    ent.updated_ms = now
    return ids


# -- mutations ----------------------------------------------------------------------------------


def _producer_store(request: Request, doing: str) -> tuple[SimUser, World, EntitlementStore]:
    """The signed-in producer, the world and its entitlement store, for a change; 403 for anyone else."""
    caller = producer_of(request, doing)
    world = world_of(request)
    return caller, world, entitlement_store(world)


@beta_errors
async def create_entitlement(request: Request) -> Response:
    caller, world, store = _producer_store(request, "creating an entitlement")
    body = await read_body(request)
    entitlement_id = read_id(body, "entitlementId")
    strict = strict_enums(request)
    description = body.text("description", rule=r.at_most(r.DESCRIPTION_MAX)) or ""
    ship_to_email = body.text("shipToEmail", rule=r.at_most(r.SHIP_TO_MAX)) or ""
    ship_to_address = body.text("shipToAddress", rule=r.ship_to_address) or ""
    allow_login = body.flag("allowPortalLogin")
    template = body.text("emailTemplateVariation", rule=r.not_blank, blank_is_none=True)
    auto_deploy = body.flag("autoDeploy")
    status = body.text("status", rule=r.ENTITLEMENT_STATUS.rule(strict), blank_is_none=True)
    body.apply("", status, lambda st: r.status_agrees_with_auto_deploy(auto_deploy, st))
    accounts: list[dict[str, Any]] = []
    for item in body.objects("accounts"):
        account_id = item.text("accountId", required=True)
        account = world.accounts.get(account_id)
        if account is None:
            raise item.problem("accountId", f"no account {account_id!r}")
        accounts.append(
            {
                "accountId": account_id,
                "accountName": item.text("accountName") or account.name,
                "accountType": item.text("accountType", required=True, rule=r.ACCOUNT_TYPE.rule(strict)),
                "partnerTierName": item.text("partnerTierName", required=True, rule=r.PARTNER_TIER.rule(strict)),
                "isCurrentOwner": item.flag("isCurrentOwner"),
                "contactEmail": item.text("contactEmail", rule=r.at_most(r.SHIP_TO_MAX)),
            }
        )
    attributes = read_attributes(body)
    body.apply("attributes", attributes, lambda given: r.mandatory_attributes_present(given, world.attribute_definitions, "entitlement"))
    planned = [read_line_item(store, item, strict) for item in body.objects("lineItems", required=True, min_items=1)]
    named = [("entitlementId", entitlement_id)] if entitlement_id else []
    named += [(f"{p.path}.activationId", p.activation_id) for p in planned if p.activation_id]
    check_new_ids(store, named)
    if overall(planned) == "FAILURE":  # no line item can be made: no entitlement either (the docs advise against empty ones)
        return answer_items(
            request, {"message": "No line item could be created", "responseItems": planned_results(planned, [None] * len(planned))}, planned
        )

    if not accounts:
        owner = store.default_account()
        accounts_given = None
    else:
        owners = [a for a in accounts if a["isCurrentOwner"]] or accounts[:1]
        owner = world.accounts[owners[0]["accountId"]]
        accounts_given = accounts
    now = world.now_ms()
    ent_status = "DEPLOYED" if auto_deploy else (status or "DRAFT")
    ent = SimEntitlement(
        entitlement_id=entitlement_id or store.new_entitlement_id(),
        account_id=owner.account_id,
        status=ent_status,
        created_ms=now,
        updated_ms=now,
        description=description,
        ship_to_email=ship_to_email,
        ship_to_address=ship_to_address,
        attributes=attributes,
        allow_portal_login=allow_login,
    )
    if accounts_given is not None:
        store.accounts[ent.entitlement_id] = accounts_given
    if template is not None:
        store.details[ent.entitlement_id] = {"emailTemplateVariation": template}
    store.entitlements[ent.entitlement_id] = ent
    store.index(ent)
    ids = add_items(store, ent, planned, ent_status, force_deploy=auto_deploy)
    made = [i for i in ids if i]
    return answer_items(
        request,
        {
            "status": "success",
            "message": "Entitlement created successfully",
            "entitlementId": ent.entitlement_id,
            "entitlement": render_entitlement(store, ent),
            "activationIds": made,
            "responseItems": planned_results(planned, ids),
        },
        planned,
    )


def _writable_entitlement(request: Request, caller: SimUser, store: EntitlementStore) -> SimEntitlement:
    ent = store.get(request.path_params["entitlement_id"], caller)
    if ent.status == "OBSOLETE":
        raise SimError(400, f"entitlement {ent.entitlement_id} is obsolete: it takes no new line items")
    return ent


@beta_errors
async def add_line_items(request: Request) -> Response:
    caller, _, store = _producer_store(request, "adding line items")
    ent = _writable_entitlement(request, caller, store)
    body = await read_body(request)
    strict = strict_enums(request)
    planned = [read_line_item(store, item, strict) for item in body.objects("lineItems", required=True, min_items=1)]
    check_new_ids(store, [(f"{p.path}.activationId", p.activation_id) for p in planned if p.activation_id])
    ids = add_items(store, ent, planned, "DRAFT")
    made = [i for i in ids if i]
    return answer_items(
        request,
        {
            "status": "success",
            "message": f"{len(made)} line item{'s' if len(made) != 1 else ''} created",
            "entitlementId": ent.entitlement_id,
            "activationIds": made,
            "responseItems": planned_results(planned, ids),
        },
        planned,
    )


def _line_item(store: EntitlementStore, ent: SimEntitlement, activation_id: str, field_name: str | None = None) -> SimLineItem:
    found = store.by_activation.get(activation_id)
    if found is None or found[0] is not ent:
        raise SimError(404, f"no line item {activation_id!r} in entitlement {ent.entitlement_id}", field_name)
    return found[1]


@beta_errors
async def set_policies(request: Request) -> Response:
    caller, world, store = _producer_store(request, "configuring line item policies")
    ent = store.get(request.path_params["entitlement_id"], caller)
    li = _line_item(store, ent, request.path_params["activation_id"])
    body = await read_body(request)
    change: dict[str, Any] = {}
    for kind in r.POLICY_KINDS:
        policy = body.object(kind)
        if policy is None:
            continue
        entry: dict[str, Any] = {}
        allowed = policy.number("allowedCount", rule=r.int32(0))
        duration = policy.number("policyTermDuration", rule=r.int32(0))
        unit = policy.text("policyTermUnit", rule=r.POLICY_TERM_UNIT.rule(strict_enums(request)), blank_is_none=True)
        if duration is not None and unit is None:
            raise policy.problem("policyTermUnit", "is required with policyTermDuration")
        if unit is not None and duration is None:
            raise policy.problem("policyTermDuration", "is required with policyTermUnit")
        for key, value in (("allowedCount", allowed), ("policyTermDuration", duration), ("policyTermUnit", unit)):
            if value is not None:
                entry[key] = value
        change[kind] = entry
    extra = body.number("extraActivations", rule=r.int32(0))
    if extra is not None:
        change["extraActivations"] = extra
    for flag in ("cancelLicense", "virtualLicense", "acpiGenerationIdLicense"):
        if body.has(flag):
            change[flag] = body.flag(flag)
    if not change:
        raise FieldProblem("", "give at least one policy: rehosts, returns, repairs, extraActivations or a flag")
    for key, value in change.items():
        if isinstance(value, dict):
            li.policies[key] = {**li.policies.get(key, {}), **value}
        else:
            li.policies[key] = value
    ent.updated_ms = world.now_ms()
    return json_response(
        {
            "status": "success",
            "message": "Line item policies configured",
            "entitlementId": ent.entitlement_id,
            "activationId": li.activation_id,
            "policies": li.policies,
            "responseItems": result_items([li.activation_id]),
        }
    )


@beta_errors
async def update_properties(request: Request) -> Response:
    caller, world, store = _producer_store(request, "updating line item properties")
    cat = catalogue(world)
    ent = store.get(request.path_params["entitlement_id"], caller)
    body = await read_body(request)
    strict = strict_enums(request)
    plans: list[tuple[SimLineItem, dict[str, Any]]] = []
    seen: set[str] = set()
    for item in body.objects("lineItems", required=True, min_items=1):
        activation_id = item.text("activationId", required=True)
        if activation_id in seen:
            raise item.problem("activationId", f"{activation_id!r} is given twice")
        seen.add(activation_id)
        li = _line_item(store, ent, activation_id, item.at("activationId"))
        change: dict[str, Any] = {}
        order = item.text("orderType", rule=r.ORDER_TYPE.rule(strict), blank_is_none=True)
        if order:
            change["orderType"] = order
        parent = item.text("parentActivationId", blank_is_none=True)
        if parent is not None:
            if parent == activation_id:
                raise item.problem("parentActivationId", "a line item cannot be its own parent")
            if parent not in store.by_activation:
                raise item.problem("parentActivationId", f"no line item {parent!r}")
            change["parentActivationId"] = parent
        if item.flag("deploy"):
            change["deploy"] = True
        product = item.object("product")
        if product is not None:
            name = product.text("productName", blank_is_none=True)
            version = product.text("productVersion", blank_is_none=True)
            part = product.text("partNumber", blank_is_none=True, rule=r.part_number)
            target = None
            if name or version:
                if not (name and version):
                    raise product.problem("productVersion" if name else "productName", "give productName and productVersion together")
                target = cat.product(name, version)
                if target is None:
                    raise product.problem("productName", f"no product {name} version {version} in the catalogue")
                if part and target.part_number != part:
                    raise product.problem("partNumber", f"{part!r} is not the part number of {name} {version}")
            elif part:
                target = cat.product_by_part_number(part)
                if target is None:
                    raise product.problem("partNumber", f"no product with part number {part!r}")
            if target is not None:
                change["product"] = target
            lm = product.object("licenseModel")
            if lm is not None:
                model: dict[str, Any] = {}
                for key in ("name", "issuer", "serialNumber", "vendorString", "notice", "maxBorrowInterval"):
                    value = lm.text(key)
                    if value is not None:
                        model["licenseModelName" if key == "name" else key] = value
                for key in ("overdraft", "gracePeriodDays"):
                    number = lm.number(key, rule=r.int32(0))
                    if number is not None:
                        model[key] = number
                if lm.has("autoProvision"):
                    model["autoProvision"] = lm.flag("autoProvision")
                change["licenseModel"] = model
        if item.has("attributes"):
            change["attributes"] = read_attributes(item, free_values=True)
        plans.append((li, change))
    now = world.now_ms()
    response: dict[str, Any] = {}
    for li, change in plans:
        if "orderType" in change:
            li.order_type = change["orderType"]
        if "parentActivationId" in change:
            li.parent_activation_id = change["parentActivationId"]
        if change.get("deploy"):
            li.state = "DEPLOYED"
        if "product" in change:
            old = (li.product.name, li.product.version)
            li.product = change["product"]
            store.index_item(ent, li)
            if not any((x.product.name, x.product.version) == old for x in ent.line_items):
                store.by_product[old] = [e for e in store.by_product.get(old, []) if e is not ent]
        if "licenseModel" in change:
            store.license_models[li.activation_id] = {**store.license_models.get(li.activation_id, {}), **change["licenseModel"]}
        if "attributes" in change:
            li.attributes.update(change["attributes"])
        response[li.activation_id] = {"status": "success", "updated": sorted(change)}
    ent.updated_ms = now
    ids = [li.activation_id for li, _ in plans]
    return json_response(
        {
            "status": "success",
            "message": "Line item properties updated",
            "entitlementId": ent.entitlement_id,
            "activationIds": ids,
            "response": response,
            "responseItems": result_items(ids),
        }
    )


@beta_errors
async def add_maintenance_line_items(request: Request) -> Response:
    caller, world, store = _producer_store(request, "adding maintenance line items")
    cat = catalogue(world)
    ent = _writable_entitlement(request, caller, store)
    body = await read_body(request)
    strict = strict_enums(request)
    key = "maintenanceLineItems" if body.has("maintenanceLineItems") or not body.has("lineItems") else "lineItems"
    planned: list[PlannedItem] = []
    for item in body.objects(key, required=True, min_items=1):
        activation_id = read_id(item, "activationId")
        mp = item.object("maintenanceProduct", required=True)
        assert mp is not None
        name = mp.text("maintenanceProductName", required=True)
        version = mp.text("maintenanceProductVersion", required=True)
        part = mp.text("partNumber", blank_is_none=True, rule=r.part_number)
        product = cat.maintenance_product(name, version)
        if product is None:
            raise mp.problem("maintenanceProductName", f"no maintenance product {name} version {version}")
        if part and cat.maintenance_product(None, None, part) is not product:
            # the part number names another product (or none): refused, never silently dropped
            raise mp.problem("partNumber", f"part number {part!r} is not one of {name} version {version}")
        listed = cat.maintenance.get((product.name, product.version))
        failure = not_deployed("Maintenance product", product.name, product.version, listed.state) if listed is not None else None
        parent = item.text("parentActivationId", blank_is_none=True)
        if parent is not None:
            found = store.by_activation.get(parent)
            if found is None or found[0] is not ent or found[1].maintenance:
                raise item.problem("parentActivationId", f"no (non-maintenance) line item {parent!r} in entitlement {ent.entitlement_id}")
        start, expiry = read_dates(item)
        planned.append(
            PlannedItem(
                path=item.path,
                activation_id=activation_id,
                product=product,
                license_model={},
                quantity=item.number("quantity", default=1, rule=r.int32(0)),
                quantity_per_copy=1,
                start_date=start,
                expiry_date=expiry,
                order_type=item.text("orderType", rule=r.ORDER_TYPE.rule(strict), blank_is_none=True) or r.DEFAULT_ORDER_TYPE,
                state=None,
                auto_deploy=item.flag("autoDeploy"),
                attributes=read_attributes(item),
                parent_activation_id=parent,
                maintenance=True,
                failure=failure,
            )
        )
    check_new_ids(store, [(f"{p.path}.activationId", p.activation_id) for p in planned if p.activation_id])
    ids = add_items(store, ent, planned, "DRAFT")
    made = [i for i in ids if i]
    return answer_items(
        request,
        {
            "status": "success",
            "message": f"{len(made)} maintenance line item{'s' if len(made) != 1 else ''} created",
            "entitlementId": ent.entitlement_id,
            "activationIds": made,
            "responseItems": planned_results(planned, ids),
        },
        planned,
    )


def routes(world: World) -> list[BaseRoute]:
    entitlement_store(world)  # build now so the first request is not the slow one
    return [
        Route("/entitlement", create_entitlement, methods=["POST"]),
        Route("/entitlements", list_entitlements, methods=["GET"]),
        Route("/entitlement/{entitlement_id}", get_entitlement, methods=["GET"]),
        Route("/entitlement/{entitlement_id}/line-items", list_line_items, methods=["GET"]),
        Route("/entitlement/{entitlement_id}/line-items", add_line_items, methods=["POST"]),
        Route("/entitlement/{entitlement_id}/line-items/{activation_id}/policies", set_policies, methods=["PATCH"]),
        Route("/entitlement/{entitlement_id}/additional-properties", update_properties, methods=["PATCH"]),
        Route("/entitlement/{entitlement_id}/maintenance-line-items", add_maintenance_line_items, methods=["POST"]),
    ]
