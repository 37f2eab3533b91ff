"""The entitlement service (seed 002, beta): request models with every seed rule, and its calls.

The request models check what a form can know before sending (ID
characters and lengths, autoGenerate vs a given ID, dates, enums, lengths,
permanent vs expiry) with the rules of
`validation.py`, which the simulator applies too. `errors_by_field` turns
their ValidationError into `{field path: message}` with the same paths the
server puts in an error's `field`, so a form marks the right widget either
way. What only the server knows (product in the catalogue, IDs already
used, account exists) comes back as `Invalid`/`Conflict` with `.field`.

Response models ignore unknown fields and accept both the request names
and the GraphQL names (`isPermanent`/`permanent`, `lineItemStatus`/
`lineItemState`), because the real bodies are undocumented (notes §4).
Pages are 1-based (`FIRST_PAGE`). Lists are cached stale-while-revalidate;
after a mutation, list again with `force=True`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import date, datetime
from typing import Annotated, Any
from urllib.parse import quote

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PrivateAttr,
    field_validator,
    model_validator,
)

from flextui.api import validation as v
from flextui.api.errors import ApiError
from flextui.api.http import Service, Session, answered
from flextui.api.listing import Listing, freshest, records_page
from flextui.api.paging import Page, Pager
from flextui.api.timestamps import lenient_day, lenient_timestamp
from flextui.api.tolerant import Record, one_record, parse_record, says_failure
from flextui.api.validation import DEFAULT_LIMIT, FIRST_PAGE, MAX_LIMIT, DateText, FieldProblem, IdText, NonBlank, errors_by_field

__all__ = [
    "FIRST_PAGE",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "errors_by_field",
    "Attribute",
    "LicenseModelRef",
    "ProductRef",
    "AccountRef",
    "LineItemCreate",
    "EntitlementCreate",
    "PolicyTerm",
    "LineItemPolicies",
    "PropertyLicenseModel",
    "PropertyProduct",
    "PropertyAttribute",
    "LineItemProperties",
    "AdditionalProperties",
    "MaintenanceProductRef",
    "MaintenanceLineItemCreate",
    "EntitlementFilter",
    "LineItemFilter",
    "EntitlementAccount",
    "AttributeValue",
    "Entitlement",
    "LineItemLicenseModel",
    "LineItemProduct",
    "LineItem",
    "ResponseItem",
    "MutationResult",
    "ItemsFailed",
    "item_labels",
    "EntitlementsService",
]

Description = Annotated[str, AfterValidator(v.max_length(v.DESCRIPTION_MAX))]
# Seed 002: "e-mail of the ship-to contact", 0 to 1000 characters (an account's contactEmail is one too).
ShipToEmail = Annotated[str, AfterValidator(v.max_length(v.SHIP_TO_MAX)), AfterValidator(v.check_optional_email)]
ShipToAddress = Annotated[str, AfterValidator(v.check_ship_to_address)]
# Checked in any case, sent in the documented lower case (seed 002: "new_order, renewal_order, …",
# "draft, deployed, obsolete"; https://fnoapi.redocly.app/apis/rest/fno_api_modernization/entitlement/postentitlement.md).
OrderType = Annotated[str, AfterValidator(v.check_order_type), PlainSerializer(str.lower, return_type=str)]
Status = Annotated[str, AfterValidator(v.check_status), PlainSerializer(str.lower, return_type=str)]
# The list filters' statuses, documented lower case and sent as named (seed 002 §3: draft, deployed, obsolete; "also
# … active, inactive and obsoleted"; the GraphQL State enum says OBSOLETED,
# https://fnoapi.redocly.app/apis/graphql/combinedgraphql/queries.md).
StatusFilter = Annotated[str, AfterValidator(v.check_status_filter), PlainSerializer(str.lower, return_type=str)]
Quantity = Annotated[int, AfterValidator(v.check_quantity)]
PerCopy = Annotated[int, AfterValidator(v.check_quantity_per_copy)]
Count = Annotated[int, AfterValidator(lambda n: v.check_int_range(n, 0))]
# Checked in any case, sent as documented: Days, Weeks, Months or Years (PolicyInput,
# https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/PolicyInput.md).
TermUnit = Annotated[str, AfterValidator(v.check_policy_term_unit)]


def _blank_to_none(value: Any) -> Any:
    return None if value == "" else value


class _Request(BaseModel):
    """A request body: JSON names on the wire, Python names in code, no unknown fields.

    Strict, like the server: JSON types only ("5" is not a number, "yes" not a boolean), so
    the client refuses exactly what the simulator refuses.
    """

    model_config = ConfigDict(populate_by_name=True, extra="forbid", strict=True)

    def body(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")


_Response = Record


# -- creating entitlements and line items ---------------------------------------------------------


class Attribute(_Request):
    """A custom attribute: its name and a value as its type wants it: text, a number, a list of texts for a
    multi-valued one, a date as yyyy/MM/dd ("value (object)",
    https://fnoapi.redocly.app/apis/rest/fno_api_modernization/maintenancelineitem/postmaintenancelineitems.md;
    CreateEntitlementInput's "Single Text: "EMEA" … Multi-valued text … Date: "YYYY/MM/DD" … Number: 12345",
    https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/CreateEntitlementInput.md). The forms send text."""

    name: NonBlank
    value: Annotated[Any, AfterValidator(v.check_attribute_value)] = ""


class LicenseModelRef(_Request):
    """A line item product's license model: "licenseModel.licenseModelName (string, required)" when a license model is
    given (https://fnoapi.redocly.app/apis/rest/fno_api_modernization/lineitem/postlineitems.md)."""

    license_model_name: NonBlank = Field(alias="licenseModelName")
    issuer: str | None = None
    serial_number: str | None = Field(None, alias="serialNumber")
    vendor_string: str | None = Field(None, alias="vendorString")
    notice: str | None = None


class ProductRef(_Request):
    """The product a line item grants: name and version (both required), optional license model.

    A line item's `product` is a list ("List of products entitled by this line item", …/lineitem/postlineitems.md;
    "Use the entitledProducts element to specify one or more products",
    https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/WSEntOderSpecifyProd.htm):
    `LineItemCreate` sends one or more, none twice; the forms send one a line item.
    """

    product_name: NonBlank = Field(alias="productName")
    product_version: NonBlank = Field(alias="productVersion")
    license_model: LicenseModelRef | None = Field(None, alias="licenseModel")


class AccountRef(_Request):
    """An account an entitlement belongs to; type and partner tier are always sent (the schema requires them)."""

    account_id: NonBlank = Field(alias="accountId")
    account_name: str | None = Field(None, alias="accountName")
    account_type: Annotated[str, AfterValidator(v.choice(v.ACCOUNT_TYPES))] = Field("CUSTOMER", alias="accountType")
    partner_tier_name: Annotated[str, AfterValidator(v.choice(v.PARTNER_TIERS))] = Field("END_CUSTOMER", alias="partnerTierName")
    is_current_owner: bool = Field(False, alias="isCurrentOwner")
    contact_email: ShipToEmail | None = Field(None, alias="contactEmail")


def _attribute_names(attributes: Sequence[Attribute | PropertyAttribute]) -> None:
    try:
        v.check_attribute_names([a.name for a in attributes])
    except FieldProblem as exc:
        raise FieldProblem(v.join_path("attributes", exc.field), exc.message) from None


def _line_item_rules(item: LineItemCreate | MaintenanceLineItemCreate) -> None:
    """The rules a new line item and a new maintenance line item share: given ID, term, attribute names.

    autoGenerate is always sent, `not activationId` unless the caller said (`validation.auto_generate_for`).
    """
    item.auto_generate = v.auto_generate_for(item.activation_id, item.auto_generate)
    v.check_given_id(item.activation_id, item.auto_generate, "activationId")
    v.check_term(item.start_date, item.expiry_date, item.is_permanent)
    _attribute_names(item.attributes)


class LineItemCreate(_Request):
    """One line item of POST /entitlement or POST /entitlement/{id}/line-items."""

    activation_id: IdText | None = Field(None, alias="activationId")
    auto_generate: bool | None = Field(None, alias="autoGenerate")
    product: list[ProductRef] = Field(alias="product")
    quantity: Quantity = 1
    quantity_per_copy: PerCopy = Field(1, alias="quantityPerCopy")
    is_activatable: bool | None = Field(None, alias="isActivatable")
    is_permanent: bool = Field(False, alias="isPermanent")
    start_date: DateText = Field(alias="startDate")
    expiry_date: DateText | None = Field(None, alias="expiryDate")
    attributes: list[Attribute] = Field(default_factory=list)
    auto_deploy: bool = Field(False, alias="autoDeploy")
    order_type: OrderType = Field(v.DEFAULT_ORDER_TYPE, alias="orderType")
    line_item_status: Status | None = Field(None, alias="lineItemStatus")

    _blank = field_validator("activation_id", "expiry_date", "line_item_status", mode="before")(
        classmethod(lambda cls, x: _blank_to_none(x))
    )

    @field_validator("product")
    @classmethod
    def _products(cls, value: list[ProductRef]) -> list[ProductRef]:
        if not value:
            raise ValueError("is required: give the product name and version")
        seen: set[tuple[str, str]] = set()
        for i, ref in enumerate(value):
            if (ref.product_name, ref.product_version) in seen:
                raise FieldProblem(f"[{i}]", f"{ref.product_name} {ref.product_version} is given twice")
            seen.add((ref.product_name, ref.product_version))
        return value

    @model_validator(mode="after")
    def _rules(self) -> LineItemCreate:
        _line_item_rules(self)
        return self


class EntitlementCreate(_Request):
    """The body of POST /entitlement."""

    entitlement_id: IdText | None = Field(None, alias="entitlementId")
    auto_generate: bool | None = Field(None, alias="autoGenerate")
    description: Description = ""
    allow_portal_login: bool = Field(False, alias="allowPortalLogin")
    ship_to_email: ShipToEmail = Field("", alias="shipToEmail")
    ship_to_address: ShipToAddress = Field("", alias="shipToAddress")
    accounts: list[AccountRef] = Field(default_factory=list)
    line_items: list[LineItemCreate] = Field(alias="lineItems")
    auto_deploy: bool = Field(False, alias="autoDeploy")
    email_template_variation: NonBlank | None = Field(None, alias="emailTemplateVariation")
    attributes: list[Attribute] = Field(default_factory=list)
    status: Status | None = None

    _blank = field_validator("entitlement_id", "email_template_variation", "status", mode="before")(
        classmethod(lambda cls, x: _blank_to_none(x))
    )

    @field_validator("line_items")
    @classmethod
    def _some_items(cls, value: list[LineItemCreate]) -> list[LineItemCreate]:
        if not value:
            raise ValueError("needs at least 1 line item")
        return value

    @model_validator(mode="after")
    def _rules(self) -> EntitlementCreate:
        self.auto_generate = v.auto_generate_for(self.entitlement_id, self.auto_generate)  # always sent: its pages cited there
        v.check_given_id(self.entitlement_id, self.auto_generate, "entitlementId")
        v.check_auto_deploy_status(self.auto_deploy, self.status)
        _attribute_names(self.attributes)
        # Which custom attributes are mandatory is the tenant's choice: the server names a missing one (field "attributes").
        seen: dict[str, str] = {}
        if self.entitlement_id:
            seen[self.entitlement_id] = "entitlementId"
        for i, item in enumerate(self.line_items):
            if item.activation_id:
                if item.activation_id in seen:
                    raise FieldProblem(
                        f"lineItems[{i}].activationId", f"{item.activation_id!r} is already used by {seen[item.activation_id]}"
                    )
                seen[item.activation_id] = f"lineItems[{i}].activationId"
        return self


def _unique_activation_ids(items: Sequence[Any], key: str) -> None:
    seen: set[str] = set()
    for i, item in enumerate(items):
        if item.activation_id:
            if item.activation_id in seen:
                raise FieldProblem(f"{key}[{i}].activationId", f"{item.activation_id!r} is given twice")
            seen.add(item.activation_id)


class LineItemsCreate(_Request):
    """The body of POST /entitlement/{id}/line-items."""

    line_items: list[LineItemCreate] = Field(alias="lineItems", min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> LineItemsCreate:
        _unique_activation_ids(self.line_items, "lineItems")
        return self


# -- policies, properties, maintenance ----------------------------------------------------------------


class PolicyTerm(_Request):
    """Rehosts, returns or repairs: how many are allowed, per how long."""

    allowed_count: Count | None = Field(None, alias="allowedCount")
    policy_term_duration: Count | None = Field(None, alias="policyTermDuration")
    policy_term_unit: TermUnit | None = Field(None, alias="policyTermUnit")

    _blank = field_validator("policy_term_unit", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))

    @model_validator(mode="after")
    def _together(self) -> PolicyTerm:
        if self.policy_term_duration is not None and self.policy_term_unit is None:
            raise FieldProblem("policyTermUnit", "is required with policyTermDuration")
        if self.policy_term_unit is not None and self.policy_term_duration is None:
            raise FieldProblem("policyTermDuration", "is required with policyTermUnit")
        return self


class LineItemPolicies(_Request):
    """The body of PATCH /entitlement/{id}/line-items/{activationId}/policies (at least one field)."""

    rehosts: PolicyTerm | None = None
    returns: PolicyTerm | None = None
    repairs: PolicyTerm | None = None
    extra_activations: Count | None = Field(None, alias="extraActivations")
    cancel_license: bool | None = Field(None, alias="cancelLicense")
    virtual_license: bool | None = Field(None, alias="virtualLicense")
    acpi_generation_id_license: bool | None = Field(None, alias="acpiGenerationIdLicense")

    @model_validator(mode="after")
    def _something(self) -> LineItemPolicies:
        if all(getattr(self, name) is None for name in type(self).model_fields):
            raise ValueError("give at least one policy: rehosts, returns, repairs, extraActivations or a flag")
        return self


class PropertyLicenseModel(_Request):
    name: str | None = None
    issuer: str | None = None
    serial_number: str | None = Field(None, alias="serialNumber")
    vendor_string: str | None = Field(None, alias="vendorString")
    notice: str | None = None
    overdraft: Count | None = None
    max_borrow_interval: str | None = Field(None, alias="maxBorrowInterval")
    auto_provision: bool | None = Field(None, alias="autoProvision")
    grace_period_days: Count | None = Field(None, alias="gracePeriodDays")


class PropertyProduct(_Request):
    """A new product for a line item: name and version together, or a part number."""

    product_name: str | None = Field(None, alias="productName")
    product_version: str | None = Field(None, alias="productVersion")
    part_number: v.PartNumberText | None = Field(None, alias="partNumber")
    license_model: PropertyLicenseModel | None = Field(None, alias="licenseModel")

    _blank = field_validator("product_name", "product_version", "part_number", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))

    @model_validator(mode="after")
    def _pair(self) -> PropertyProduct:
        if bool(self.product_name) != bool(self.product_version):
            raise FieldProblem("productVersion" if self.product_name else "productName", "give productName and productVersion together")
        return self


class PropertyAttribute(_Request):
    """An attribute in the properties update: the value is free-form, `type` e.g. line_item."""

    name: NonBlank
    value: Any = None
    type: str | None = None


class LineItemProperties(_Request):
    activation_id: NonBlank = Field(alias="activationId")
    order_type: OrderType | None = Field(None, alias="orderType")
    parent_activation_id: str | None = Field(None, alias="parentActivationId")
    deploy: bool | None = None
    product: PropertyProduct | None = None
    attributes: list[PropertyAttribute] | None = None

    _blank = field_validator("order_type", "parent_activation_id", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))

    @model_validator(mode="after")
    def _rules(self) -> LineItemProperties:
        if self.parent_activation_id and self.parent_activation_id == self.activation_id:
            raise FieldProblem("parentActivationId", "a line item cannot be its own parent")
        if self.attributes:
            _attribute_names(self.attributes)
        return self


class AdditionalProperties(_Request):
    """The body of PATCH /entitlement/{id}/additional-properties."""

    line_items: list[LineItemProperties] = Field(alias="lineItems", min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> AdditionalProperties:
        _unique_activation_ids(self.line_items, "lineItems")
        return self


class MaintenanceProductRef(_Request):
    """A maintenance product: its name and version (both required) and, optionally, its part number.

    "maintenanceProductName (string, required) … maintenanceProductVersion (string, required) … partNumber (string)
    Part number associated with maintenance product", and the page's sample sends all three
    (https://fnoapi.redocly.app/apis/rest/fno_api_modernization/maintenancelineitem/postmaintenancelineitems.md).
    """

    maintenance_product_name: NonBlank = Field(alias="maintenanceProductName")
    maintenance_product_version: NonBlank = Field(alias="maintenanceProductVersion")
    part_number: v.PartNumberText | None = Field(None, alias="partNumber")

    _blank = field_validator("part_number", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))


class MaintenanceLineItemCreate(_Request):
    """One item of POST /entitlement/{id}/maintenance-line-items."""

    activation_id: IdText | None = Field(None, alias="activationId")
    auto_generate: bool | None = Field(None, alias="autoGenerate")
    maintenance_product: MaintenanceProductRef = Field(alias="maintenanceProduct")
    parent_activation_id: str | None = Field(None, alias="parentActivationId")
    quantity: Quantity = 1
    is_permanent: bool = Field(False, alias="isPermanent")
    start_date: DateText = Field(alias="startDate")
    expiry_date: DateText | None = Field(None, alias="expiryDate")
    attributes: list[Attribute] = Field(default_factory=list)
    auto_deploy: bool = Field(False, alias="autoDeploy")
    order_type: OrderType = Field(v.DEFAULT_ORDER_TYPE, alias="orderType")

    _blank = field_validator("activation_id", "expiry_date", "parent_activation_id", mode="before")(
        classmethod(lambda cls, x: _blank_to_none(x))
    )

    @model_validator(mode="after")
    def _rules(self) -> MaintenanceLineItemCreate:
        _line_item_rules(self)
        return self


class MaintenanceLineItemsCreate(_Request):
    line_items: list[MaintenanceLineItemCreate] = Field(alias="maintenanceLineItems", min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> MaintenanceLineItemsCreate:
        _unique_activation_ids(self.line_items, "maintenanceLineItems")
        return self


# -- filters ------------------------------------------------------------------------------------------


class EntitlementFilter(_Request):
    """Query of GET /entitlements (besides page and limit)."""

    activation_id: str | None = Field(None, alias="activationId")
    account_id: str | None = Field(None, alias="accountId")
    account_name: str | None = Field(None, alias="accountName")
    contact_email: str | None = Field(None, alias="contactEmail")
    product: str | None = None
    version: str | None = None
    part_number: str | None = Field(None, alias="partNumber")
    status: StatusFilter | None = None
    sort_by: Annotated[str, AfterValidator(v.choice(v.ENTITLEMENT_SORT_KEYS))] | None = None
    sort_order: Annotated[str, AfterValidator(v.check_sort_order)] | None = None

    @field_validator("*", mode="before")
    @classmethod
    def _blank(cls, value: Any) -> Any:
        return value.strip() or None if isinstance(value, str) else value

    def params(self) -> dict[str, Any]:
        return self.body()


class LineItemFilter(_Request):
    """Query of GET /entitlement/{id}/line-items (besides page and limit)."""

    activation_id: str | None = Field(None, alias="activationId")
    product_name: str | None = Field(None, alias="productName")
    start_date: DateText | None = Field(None, alias="startDate")
    license_model_name: str | None = Field(None, alias="licenseModelName")
    status: StatusFilter | None = None

    @field_validator("*", mode="before")
    @classmethod
    def _blank(cls, value: Any) -> Any:
        return value.strip() or None if isinstance(value, str) else value

    def params(self) -> dict[str, Any]:
        return self.body()


# -- responses ----------------------------------------------------------------------------------------


class EntitlementAccount(_Response):
    account_id: str | None = Field(None, alias="accountId")
    account_name: str | None = Field(None, alias="accountName")
    account_type: str | None = Field(None, alias="accountType")
    partner_tier_name: str | None = Field(None, alias="partnerTierName")
    is_current_owner: bool | None = Field(None, validation_alias=AliasChoices("isCurrentOwner", "currentOwner"))
    contact_email: str | None = Field(None, alias="contactEmail")


class AttributeValue(_Response):
    name: str
    value: Any = None


class Entitlement(_Response):
    """An entitlement as the list (and the simulator's single read) shows it, without line items."""

    entitlement_id: str = Field(alias="entitlementId")
    description: str | None = None
    status: str | None = None
    ship_to_email: str | None = Field(None, alias="shipToEmail")
    ship_to_address: str | None = Field(None, alias="shipToAddress")
    allow_portal_login: bool | None = Field(None, alias="allowPortalLogin")
    email_template_variation: str | None = Field(None, alias="emailTemplateVariation")
    created_on: Any = Field(None, alias="createdOn")
    updated_on: Any = Field(None, alias="updatedOn")
    accounts: list[EntitlementAccount] = Field(default_factory=list)
    attributes: list[AttributeValue] = Field(default_factory=list)
    line_item_count: int | None = Field(None, alias="lineItemCount")

    @property
    def created(self) -> datetime | None:
        return lenient_timestamp(self.created_on)

    @property
    def updated(self) -> datetime | None:
        return lenient_timestamp(self.updated_on)

    @property
    def owner(self) -> EntitlementAccount | None:
        owners = [a for a in self.accounts if a.is_current_owner]
        candidates = owners or self.accounts
        return candidates[0] if candidates else None

    def attribute(self, name: str) -> Any:
        return next((a.value for a in self.attributes if a.name == name), None)


class LineItemLicenseModel(_Response):
    license_model_name: str | None = Field(None, validation_alias=AliasChoices("licenseModelName", "name"))
    issuer: str | None = None
    serial_number: str | None = Field(None, alias="serialNumber")
    vendor_string: str | None = Field(None, alias="vendorString")
    notice: str | None = None


class LineItemProduct(_Response):
    product_name: str | None = Field(None, alias="productName")
    product_version: str | None = Field(None, validation_alias=AliasChoices("productVersion", "version"))
    part_number: str | None = Field(None, alias="partNumber")
    quantity: int | None = None
    license_model: LineItemLicenseModel | None = Field(None, alias="licenseModel")

    @field_validator("license_model", mode="before")
    @classmethod
    def _model_name(cls, value: Any) -> Any:
        return {"licenseModelName": value} if isinstance(value, str) else value


class LineItem(_Response):
    """A line item as listed. `start_date` and `expiry_date` are read in any form a service writes a date (YYYY-MM-DD,
    an ISO 8601 date-time such as Spring's `2025-01-01T00:00:00.000+00:00`, epoch milliseconds: notes §5, §6) and
    kept as the day, YYYY-MM-DD; a value that is no date is kept as its text (`starts`/`expires` are then None)."""

    activation_id: str = Field(alias="activationId")
    entitlement_id: str | None = Field(None, alias="entitlementId")
    state: str | None = Field(None, validation_alias=AliasChoices("lineItemState", "lineItemStatus", "status"))
    order_type: str | None = Field(None, alias="orderType")
    permanent: bool | None = Field(None, validation_alias=AliasChoices("permanent", "isPermanent"))
    start_date: str | None = Field(None, alias="startDate")
    expiry_date: str | None = Field(None, alias="expiryDate")
    duration: int | None = None
    quantity: int | None = None
    quantity_per_copy: int | None = Field(None, alias="quantityPerCopy")
    products: list[LineItemProduct] = Field(default_factory=list, validation_alias=AliasChoices("products", "product"))
    attributes: list[AttributeValue] = Field(default_factory=list)
    policies: dict[str, Any] = Field(default_factory=dict)
    parent_activation_id: str | None = Field(None, alias="parentActivationId")
    maintenance: bool = False
    created_on: Any = Field(None, alias="createdOn")

    @field_validator("products", mode="before")
    @classmethod
    def _listed(cls, value: Any) -> Any:
        return [value] if isinstance(value, dict) else value or []

    @field_validator("start_date", "expiry_date", mode="before")
    @classmethod
    def _day(cls, value: Any) -> Any:
        if value is None or value == "":
            return None
        day = lenient_day(value)
        return day.isoformat() if day is not None else str(value)

    @property
    def starts(self) -> date | None:
        return lenient_day(self.start_date)

    @property
    def expires(self) -> date | None:
        return lenient_day(self.expiry_date)

    @field_validator("policies", mode="before")
    @classmethod
    def _policies(cls, value: Any) -> Any:
        return value if isinstance(value, dict) else {}

    @property
    def product(self) -> LineItemProduct | None:
        return self.products[0] if self.products else None


class ResponseItem(_Response):
    """One item's result in a mutation's answer: `{activationId, errorMsg, status}` (GraphQL LineItemResponseItem and
    LineItemResult, https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/LineItemResponseItem); `index` is the
    request item's position when the answer gives it (the `{index, result}` form)."""

    activation_id: str | None = Field(None, alias="activationId")
    status: str | None = None
    error_msg: str | None = Field(None, validation_alias=AliasChoices("errorMsg", "errorMessage"))
    index: int | None = None

    @property
    def failed(self) -> bool:
        return says_failure(self.status) or (bool(self.error_msg) and not self.status)


def _response_entries(response: Any) -> list[ResponseItem]:
    """The per-item results in `response`: LineItemGraphQLResponse's `[{index, result: LineItemResult}]` ("List of
    line item creation results", https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/LineItemResult), or a
    map of activation ID to result (`{"ACT-1": {"status": …}}`, the additional-properties answer as seed 002 gives
    it: "response (map of names to objects)")."""
    out: list[ResponseItem] = []
    if isinstance(response, list):
        for position, entry in enumerate(response):
            if not isinstance(entry, dict):
                continue
            result: dict[str, Any] = entry["result"] if isinstance(entry.get("result"), dict) else entry
            index = entry.get("index")
            item = parse_record(ResponseItem, {key: val for key, val in result.items() if key != "index"})
            item.index = index if isinstance(index, int) and not isinstance(index, bool) else position
            out.append(item)
    elif isinstance(response, dict):
        for key, value in response.items():
            if isinstance(value, dict):
                out.append(parse_record(ResponseItem, {**value, "activationId": key}))
    return out


class MutationResult(_Response):
    """What a mutation answered: status, the IDs it touched, per-item results.

    Per-item results come as `responseItems` (LineItemResponse) or as `response` (LineItemGraphQLResponse's list of
    `{index, result}`, or the properties answer's map by activation ID): `items` reads either. `failed` are the
    items whose status says failure, each with the server's errorMsg; `done` the others. `activation_ids`, when the
    answer has none, are the done items' IDs.
    """

    status: str | None = None
    message: str | None = None
    entitlement_id: str | None = Field(None, alias="entitlementId")
    activation_ids: list[str] = Field(default_factory=list, alias="activationIds")
    response_items: list[ResponseItem] = Field(default_factory=list, alias="responseItems")
    entitlement: Entitlement | None = None
    policies: dict[str, Any] | None = None
    response: dict[str, Any] | list[Any] | None = None
    _failures: list[str] = PrivateAttr(default_factory=list)

    @property
    def failures(self) -> list[str]:
        """Each failed item named, with the server's errorMsg (set by `mutation_result`, which raised `ItemsFailed`)."""
        return self._failures

    @model_validator(mode="after")
    def _ids_from_items(self) -> MutationResult:
        if not self.activation_ids:
            self.activation_ids = [i.activation_id for i in self.done if i.activation_id]
        return self

    @property
    def items(self) -> list[ResponseItem]:
        return self.response_items or _response_entries(self.response)

    @property
    def failed(self) -> list[ResponseItem]:
        return [item for item in self.items if item.failed]

    @property
    def done(self) -> list[ResponseItem]:
        return [item for item in self.items if not item.failed]

    def response_for(self, activation_id: str) -> dict[str, Any]:
        """What the `response` map says of one activation ID ({} when it says nothing, or is the list form)."""
        found = self.response.get(activation_id) if isinstance(self.response, dict) else None
        return found if isinstance(found, dict) else {}


class ItemsFailed(ApiError):
    """A mutation's answer says items failed: `failures` names each ("line item 2 (Flex Lens 2024.2): Product … is
    not deployed"), `result` is the whole answer (`result.done`: what was done). `partial`: something was done
    all the same (some items, or the entitlement itself), so sending the same request again would repeat it."""

    def __init__(self, message: str, *, result: MutationResult, failures: list[str], partial: bool) -> None:
        super().__init__(message)
        self.result = result
        self.failures = failures
        self.partial = partial


def _check_paging(page: int, limit: int) -> None:
    v.check_page(page)
    v.check_limit(limit)


def item_labels(items: Sequence[LineItemCreate | MaintenanceLineItemCreate], noun: str = "line item") -> list[str]:
    """How each item of a request is named in a failure: its activation ID, else its place and product."""
    labels = []
    for i, item in enumerate(items):
        if item.activation_id:
            labels.append(item.activation_id)
            continue
        if isinstance(item, LineItemCreate):
            product = item.product[0] if item.product else None
            what = f"{product.product_name} {product.product_version}" if product else ""
            if len(item.product) > 1:
                what += f" and {len(item.product) - 1} more"
        else:
            mp = item.maintenance_product
            what = f"{mp.maintenance_product_name} {mp.maintenance_product_version}"
        labels.append(f"{noun} {i + 1}" + (f" ({what})" if what else ""))
    return labels


def _failure_text(item: ResponseItem, position: int, labels: Sequence[str], count: int) -> str:
    index = item.index if item.index is not None else (position if count == len(labels) else None)
    if index is not None and 0 <= index < len(labels):
        label = labels[index]
        if item.activation_id and item.activation_id not in label:
            label += f" ({item.activation_id})"
    else:
        label = item.activation_id or "an item"
    return f"{label}: {item.error_msg or item.status or 'failed'}"


def mutation_result(raw: Any, what: str, labels: Sequence[str] = (), *, made: bool = False) -> MutationResult:
    """A mutation's answer, which the docs show only as `{status}`: success unless it says otherwise.

    A status of failure with no per-item results raises `ApiError`. Per-item results (`MutationResult.items`) with
    any failure, or beside a status of failure, raise `ItemsFailed` naming every failed item with its errorMsg
    (`labels`: how the request's items are named, by position), `partial` when some were done or `made` (the
    answer names the entitlement it created): a partial success is never returned as a success.
    """
    result = parse_record(MutationResult, raw if isinstance(raw, dict) else {})
    items = result.items
    if says_failure(result.status) and not items:
        said = f"the server answered {result.status}" + (f": {result.message}" if result.message else "")
        if "partial" in str(result.status).lower():  # some done, which is not said (SOAP's PARTIAL_FAILURE, no items)
            result._failures = [f"{said}, naming no item"]
            raise ItemsFailed(f"{what}: {said}, naming no item: some were done", result=result, failures=result._failures, partial=True)
        raise ApiError(f"{what}: {said}")
    failed = result.failed
    if not failed and not says_failure(result.status):
        return result
    failures = [_failure_text(item, position, labels, len(items)) for position, item in enumerate(items) if item.failed]
    if not failures:  # a status of failure whose items all say success: which failed is not said
        failures = [f"the server answered {result.status}" + (f": {result.message}" if result.message else "") + ", naming no item"]
    done = [i.activation_id or "an item" for i in result.done]
    partial = bool(done) or made
    count = f"{len(failed)} of {len(items)}" if failed else "some"
    message = f"{what}: {count} failed: " + "; ".join(failures)
    if done:
        message += f" (done: {', '.join(done)})"
    elif made:
        message += " (the entitlement was created all the same)"
    result._failures = failures
    raise ItemsFailed(message, result=result, failures=failures, partial=partial)


class EntitlementsService:
    """The entitlement service's calls over a `Session` (page numbers count from 1 here; `Listing` maps them)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    @staticmethod
    def _path(entitlement_id: str, *rest: str) -> str:
        return "/v1/entitlement/" + "/".join(quote(part, safe="") for part in (entitlement_id, *rest))

    # -- reads --

    async def _list_raw(self, params: dict[str, Any]) -> Any:
        return await self.session.get_json(Service.ENTITLEMENTS, "/v1/entitlements", params=params)

    def _entitlements(self, filters: EntitlementFilter | None) -> Listing[Entitlement]:
        params = filters.params() if filters else {}
        return Listing(
            self.session,
            Service.ENTITLEMENTS,
            "entitlements.list",
            params,
            lambda number, size: self._list_raw({**params, "page": number, "limit": size}),
            lambda raw, number, size: records_page(raw, "entitlements", Entitlement, number, size),
            item_key=lambda e: e.entitlement_id,
        )

    async def list(self, filters: EntitlementFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT) -> Page[Entitlement]:
        """One page of entitlements, fresh from the server."""
        _check_paging(page, limit)
        result: Page[Entitlement] = await freshest(self._entitlements(filters).page(page, limit, force=True))
        return result

    def list_page(
        self, filters: EntitlementFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT, *, force: bool = False
    ) -> AsyncIterator[Page[Entitlement]]:
        """A page of entitlements: the cached one first (with its age), then the fresh one."""
        _check_paging(page, limit)
        return self._entitlements(filters).page(page, limit, force=force)

    def iterate(self, filters: EntitlementFilter | None = None, limit: int = 200, max_items: int | None = None) -> Pager[Entitlement]:
        """Every matching entitlement, page by page (for exports), through the one bounded pager."""
        _check_paging(FIRST_PAGE, limit)
        return self._entitlements(filters).every(limit, what="entitlements", max_items=max_items)

    async def get(self, entitlement_id: str) -> Entitlement:
        """One entitlement (GET /v1/entitlement/{id}: the simulator's; the seed lists no single read).

        Its answer is `{"status": …, "entitlement": {…}}` or the entitlement bare: the vendor documents no single
        read, and its pages give every answer of this service only as `{"status": "string"}`
        (https://fnoapi.redocly.app/apis/rest/fno_api_modernization/entitlement), the record's fields being the
        GraphQL Entitlement's (notes §4.1). An answer holding none (an error body sent with 200, whose `status`
        is an entitlement's field too; `{}`, text, `null`) is `Unreadable` in the server's words
        (`tolerant.one_record`), never an entitlement "‹unreadable›" with nothing in it.
        """
        raw = await self.session.get_json(Service.ENTITLEMENTS, self._path(entitlement_id))
        return answered(lambda body: one_record(Entitlement, body, "entitlement", "entitlement"), raw)

    def _line_items(self, entitlement_id: str, filters: LineItemFilter | None) -> Listing[LineItem]:
        params = filters.params() if filters else {}
        path = self._path(entitlement_id, "line-items")
        return Listing(
            self.session,
            Service.ENTITLEMENTS,
            "entitlements.line_items",
            {"entitlement": entitlement_id, **params},
            lambda number, size: self.session.get_json(Service.ENTITLEMENTS, path, params={**params, "page": number, "limit": size}),
            lambda raw, number, size: records_page(raw, "lineItems", LineItem, number, size),
            item_key=lambda li: li.activation_id,
        )

    async def line_items(
        self, entitlement_id: str, filters: LineItemFilter | None = None, page: int = FIRST_PAGE, limit: int = MAX_LIMIT
    ) -> Page[LineItem]:
        """One page of an entitlement's line items, fresh (all of them with the default limit, on most servers)."""
        _check_paging(page, limit)
        result: Page[LineItem] = await freshest(self._line_items(entitlement_id, filters).page(page, limit, force=True))
        return result

    def line_items_page(
        self,
        entitlement_id: str,
        filters: LineItemFilter | None = None,
        page: int = FIRST_PAGE,
        limit: int = MAX_LIMIT,
        *,
        force: bool = False,
    ) -> AsyncIterator[Page[LineItem]]:
        """`line_items`, cached first then fresh: one request per fresh answer."""
        _check_paging(page, limit)
        return self._line_items(entitlement_id, filters).page(page, limit, force=force)

    def all_line_items(
        self, entitlement_id: str, filters: LineItemFilter | None = None, *, total: int | None = None, limit: int = MAX_LIMIT
    ) -> Pager[LineItem]:
        """Every line item of an entitlement (`total`, when the entitlement says it, saves the confirming request)."""
        return self._line_items(entitlement_id, filters).every(limit, what=f"line items of {entitlement_id}", total=total)

    # -- mutations --

    # Each raises `ItemsFailed` when the answer says an item failed (`mutation_result`): check `.partial` for what was
    # done all the same.

    async def create(self, spec: EntitlementCreate) -> MutationResult:
        self.session.check_writable("creating an entitlement")
        raw = await self.session.send_json(Service.ENTITLEMENTS, "POST", "/v1/entitlement", json_body=spec.body())
        made = isinstance(raw, dict) and bool(raw.get("entitlementId")) and not says_failure(raw.get("status"))
        return mutation_result(raw, "creating the entitlement", item_labels(spec.line_items), made=made)

    async def add_line_items(self, entitlement_id: str, items: Sequence[LineItemCreate]) -> MutationResult:
        self.session.check_writable(f"adding line items to {entitlement_id}")
        body = LineItemsCreate.model_validate({"lineItems": list(items)}).body()
        raw = await self.session.send_json(Service.ENTITLEMENTS, "POST", self._path(entitlement_id, "line-items"), json_body=body)
        return mutation_result(raw, f"adding line items to {entitlement_id}", item_labels(items))

    async def set_policies(self, entitlement_id: str, activation_id: str, policies: LineItemPolicies) -> MutationResult:
        self.session.check_writable(f"changing the policies of {activation_id}")
        path = self._path(entitlement_id, "line-items", activation_id, "policies")
        raw = await self.session.send_json(Service.ENTITLEMENTS, "PATCH", path, json_body=policies.body())
        return mutation_result(raw, f"changing the policies of {activation_id}", [activation_id])

    async def update_properties(self, entitlement_id: str, update: AdditionalProperties) -> MutationResult:
        self.session.check_writable(f"updating line item properties of {entitlement_id}")
        path = self._path(entitlement_id, "additional-properties")
        raw = await self.session.send_json(Service.ENTITLEMENTS, "PATCH", path, json_body=update.body())
        labels = [li.activation_id for li in update.line_items]
        return mutation_result(raw, f"updating line item properties of {entitlement_id}", labels)

    async def add_maintenance_line_items(self, entitlement_id: str, items: Sequence[MaintenanceLineItemCreate]) -> MutationResult:
        self.session.check_writable(f"adding maintenance line items to {entitlement_id}")
        body = MaintenanceLineItemsCreate.model_validate({"maintenanceLineItems": list(items)}).body()
        raw = await self.session.send_json(
            Service.ENTITLEMENTS, "POST", self._path(entitlement_id, "maintenance-line-items"), json_body=body
        )
        return mutation_result(raw, f"adding maintenance line items to {entitlement_id}", item_labels(items, "maintenance item"))
