"""The products and packaging service (seed 002, beta): request models with its rules, and its calls.

Product creation follows the seed's ten rules; the client models check the
ones a form can (mandatory name and version, dates and their order, the
upgrade template, feature and part-number formats, a known license
technology and its generator) with `validation.py`, shared with the
simulator. Defaults the server applies (technology, generator, category,
host type) are left to the server but `ProductCreate.effective()` shows a
form what they will be. The server alone knows whether a feature name is
ambiguous or a part number taken; those come back as `Invalid`/`Conflict`
with `.field`.

List envelopes are `{"pagination": {...}, <key>: [...]}` (notes §4.2);
pages are 1-based. Response models ignore unknown fields.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from typing import Annotated, Any, TypeVar
from urllib.parse import quote

from pydantic import AfterValidator, AliasChoices, BaseModel, Field, field_validator, model_validator

from flextui.api import validation as v
from flextui.api.http import Service, Session, answered
from flextui.api.listing import Listing, freshest, records_page
from flextui.api.paging import Page, Pager
from flextui.api.timestamps import lenient_timestamp
from flextui.api.tolerant import Record, created_record, one_record
from flextui.api.validation import (
    DEFAULT_LIMIT,
    FIRST_PAGE,
    MAX_LIMIT,
    DateText,
    FeatureNameText,
    FieldProblem,
    NameText,
    PartNumberText,
    VersionText,
    errors_by_field,
)

__all__ = [
    "FIRST_PAGE",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "errors_by_field",
    "ProductFeatureRef",
    "BundleRef",
    "BundleFeatureRef",
    "FeatureOverrideParams",
    "PRODUCT_NAME_MAX",
    "ProductCreate",
    "MaintenanceCreate",
    "PartNumberCreate",
    "FeatureCreate",
    "FeatureBundleCreate",
    "SuiteProductRef",
    "SuiteCreate",
    "ProductFilter",
    "MaintenanceFilter",
    "PartNumberFilter",
    "FeatureFilter",
    "FeatureBundleFilter",
    "SuiteFilter",
    "Product",
    "MaintenanceProduct",
    "PartNumber",
    "PartNumberOwner",
    "Feature",
    "FeatureBundle",
    "BundleFeature",
    "ProductFeature",
    "ProductBundle",
    "Suite",
    "SuiteProduct",
    "CreatedPartNumbers",
    "ProductsService",
]

Description = Annotated[str, AfterValidator(v.max_length(v.DESCRIPTION_MAX))]

R = TypeVar("R", bound=BaseModel)


_blank_to_none = v.blank_to_none
_Request = v.RequestBody


class _Response(Record):
    """A response body with its creation and last-modified times."""

    @property
    def created(self) -> datetime | None:
        return lenient_timestamp(getattr(self, "creation_date", None))

    @property
    def modified(self) -> datetime | None:
        return lenient_timestamp(getattr(self, "last_modified_date", None))


def _unique(values: Sequence[str], key: str, what: str) -> None:
    try:
        v.check_unique(list(values), what)
    except FieldProblem as exc:
        raise FieldProblem(v.join_path(key, exc.field), exc.message) from None


# -- creating --------------------------------------------------------------------------------------


Count = Annotated[int, AfterValidator(lambda n: v.check_int_range(n, 1))]
FeatureVersion = Annotated[str, AfterValidator(v.check_feature_version)]

# "Name of the product. Maximum length: 128 characters" (the GraphQL product input,
# https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/FeatureBundleInput): products only; other catalogue
# names keep `validation.NAME_MAX`.
PRODUCT_NAME_MAX = 128
ProductNameText = Annotated[str, AfterValidator(v.check_not_blank), AfterValidator(v.max_length(PRODUCT_NAME_MAX))]
# Vendor string, notice and serial number: "Maximum length: 255 characters" (FeatureOverrideParamsInput,
# https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/GroupMaskDataTypeInput).
OVERRIDE_TEXT_MAX = 255
OverrideText = Annotated[str, AfterValidator(v.max_length(OVERRIDE_TEXT_MAX))]
OVERRIDE_CHOICES = ("Yes", "No", "Do_Not_Override")


def _moved(data: Any, old: str, new: str) -> Any:
    """An input dict with `old` (a name the client once sent) read as `new`; anything else as it is."""
    if isinstance(data, dict) and old in data and new not in data:
        data = {(new if key == old else key): value for key, value in data.items()}
    return data


class ProductFeatureRef(_Request):
    """A feature of a new product, sent as `{name, version, count}`: "Feature information for product creation"
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/GroupMaskDataTypeInput: count "minimum value is 1").
    `featureName` (what the client sent before) is taken as `name`. Without a version the server matches the name
    if exactly one feature has it (seed 002, rule 5).
    """

    name: FeatureNameText
    version: FeatureVersion | None = None
    count: Count | None = None

    _blank = field_validator("version", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))

    @model_validator(mode="before")
    @classmethod
    def _old_name(cls, data: Any) -> Any:
        return _moved(data, "featureName", "name")


class BundleRef(_Request):
    """A feature bundle of a new product, sent as `{name, count}`: "Feature bundle information for product creation"
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/GroupMaskDataTypeInput). `featureBundleName` is taken as `name`."""

    name: NameText
    count: Count | None = None

    @model_validator(mode="before")
    @classmethod
    def _old_name(cls, data: Any) -> Any:
        return _moved(data, "featureBundleName", "name")


class BundleFeatureRef(_Request):
    """A feature of a new bundle, sent as `{featureName, quantity, version}`: "Feature within a feature bundle"
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/GroupMaskDataTypeInput: quantity "minimum value is 1").
    `count` (what the client sent before) is taken as `quantity`."""

    feature_name: FeatureNameText = Field(alias="featureName")
    version: FeatureVersion | None = None
    quantity: Count | None = None

    _blank = field_validator("version", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))

    @model_validator(mode="before")
    @classmethod
    def _old_name(cls, data: Any) -> Any:
        return _moved(data, "count", "quantity")


class _Technology(_Request):
    """licenseTechnology, licenseGenerator and usedOnDevice, with rules 2, 3, 6 and 9 (the host type: each body's own)."""

    license_technology: NameText | None = Field(None, alias="licenseTechnology")
    license_generator: str | None = Field(None, alias="licenseGenerator")
    used_on_device: bool | None = Field(None, alias="usedOnDevice")

    _blank_tech = field_validator("license_technology", "license_generator", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))

    def _host_given(self) -> str | None:
        return None

    def effective(self) -> dict[str, Any]:
        """What the server will use after the seed's defaults (rules 2, 3, 6, 9): technology, generator, usedOnDevice, host type.

        Technologies and generators are the tenant's own (the seed: "technologies
        can be custom"), so the client checks neither; an unknown one is the
        server's 400, shown on the field.
        """
        tech = self.license_technology or v.STANDARD_LICENSE_TECHNOLOGY
        used = v.effective_used_on_device(tech, bool(self.used_on_device))
        return {
            "licenseTechnology": tech,
            "licenseGenerator": self.license_generator or f"the server's default for {tech}",
            "usedOnDevice": used,
            "hostType": v.default_host_type(tech, used, self._host_given()),
        }


class ProductCreate(_Technology):
    """The body of POST /products (rules 1-10 of seed 002), in the documented input's names: `features:
    [{name, version, count}]`, `featureBundles: [{name, count}]`, `hostTypes: [...]` ("List of host types"), a name
    of at most 128 characters (the GraphQL product input, https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/FeatureBundleInput
    and …/GroupMaskDataTypeInput; the REST pages capture no product body). The seed's single `hostType` is taken
    and sent as `hostTypes`.
    """

    product_name: ProductNameText = Field(alias="productName")
    version: VersionText
    description: Description | None = None
    product_category: NameText | None = Field(None, alias="productCategory")
    features: list[ProductFeatureRef] = Field(default_factory=list)
    feature_bundles: list[BundleRef] = Field(default_factory=list, alias="featureBundles")
    host_types: list[NameText] = Field(default_factory=list, alias="hostTypes")
    license_models: list[v.NonBlank] = Field(default_factory=list, alias="licenseModels")
    part_numbers: list[PartNumberText] = Field(default_factory=list, alias="partNumbers")
    auto_deploy: bool = Field(False, alias="autoDeploy")
    start_date: DateText | None = Field(None, alias="startDate")
    end_date: DateText | None = Field(None, alias="endDate")
    upgrade_email_template: Annotated[str, AfterValidator(v.check_upgrade_email_template)] | None = Field(
        None, alias="upgradeEmailTemplate"
    )
    quantity_per_copy: Annotated[int, AfterValidator(v.check_quantity_per_copy)] | None = Field(None, alias="quantityPerCopy")

    _blank = field_validator("product_category", "start_date", "end_date", "upgrade_email_template", mode="before")(
        classmethod(lambda cls, x: _blank_to_none(x))
    )

    @model_validator(mode="before")
    @classmethod
    def _one_host_type(cls, data: Any) -> Any:
        if isinstance(data, dict) and "hostType" in data and "hostTypes" not in data and "host_types" not in data:
            host = _blank_to_none(data["hostType"])
            data = {key: value for key, value in data.items() if key != "hostType"}
            if host is not None:
                data["hostTypes"] = [host]
        return data

    def _host_given(self) -> str | None:
        return ", ".join(self.host_types) or None

    def body(self) -> dict[str, Any]:
        """The JSON body; no `hostTypes` when none is given, so the server's default applies (rule 6: "when not given")."""
        data = super().body()
        if not data.get("hostTypes"):
            data.pop("hostTypes", None)
        return data

    @model_validator(mode="after")
    def _rules(self) -> ProductCreate:
        try:
            v.check_date_order(self.start_date, self.end_date)
        except ValueError as exc:
            raise FieldProblem("endDate", str(exc)) from None
        _unique(self.part_numbers, "partNumbers", "part number")
        _unique(self.host_types, "hostTypes", "host type")
        return self


class MaintenanceCreate(_Request):
    """The body of POST /maintenance."""

    product_name: NameText = Field(alias="productName")
    version: VersionText
    description: Description | None = None
    part_numbers: list[PartNumberText] = Field(default_factory=list, alias="partNumbers")
    auto_deploy: bool = Field(False, alias="autoDeploy")

    @model_validator(mode="after")
    def _rules(self) -> MaintenanceCreate:
        _unique(self.part_numbers, "partNumbers", "part number")
        return self


class PartNumberCreate(_Request):
    """One part number of POST /part-numbers; productName and productVersion go together."""

    part_number: PartNumberText = Field(alias="partNumber")
    description: Description | None = None
    product_name: str | None = Field(None, alias="productName")
    product_version: str | None = Field(None, alias="productVersion")
    license_model: str | None = Field(None, alias="licenseModel")
    trial_availability: bool | None = Field(None, alias="trialAvailability")

    _blank = field_validator("product_name", "product_version", "license_model", mode="before")(
        classmethod(lambda cls, x: _blank_to_none(x))
    )

    @model_validator(mode="after")
    def _pair(self) -> PartNumberCreate:
        if bool(self.product_name) != bool(self.product_version):
            raise FieldProblem("productVersion" if self.product_name else "productName", "give productName and productVersion together")
        return self


class PartNumbersCreate(_Request):
    part_numbers: list[PartNumberCreate] = Field(alias="partNumbers", min_length=1)

    @model_validator(mode="after")
    def _rules(self) -> PartNumbersCreate:
        try:
            v.check_unique([p.part_number for p in self.part_numbers], "part number")
        except FieldProblem as exc:
            raise FieldProblem(f"partNumbers{exc.field}.partNumber", exc.message) from None
        return self


class FeatureOverrideParams(_Request):
    """`featureOverrideParams` of POST /features: "DTO for specifying feature override parameters"
    (https://fnoapi.redocly.app/apis/rest/product/product-service/feature/postfeature.md); the texts at most 255
    characters, counted and reusable Yes, No or Do_Not_Override (FeatureOverrideParamsInput,
    https://fnoapi.redocly.app/apis/graphql/fno-schema/inputs/GroupMaskDataTypeInput). dupGroup is not offered."""

    vendor_string: OverrideText | None = Field(None, alias="vendorString")
    notice: OverrideText | None = None
    serial_number: OverrideText | None = Field(None, alias="serialNumber")
    borrowable: bool | None = None
    counted: Annotated[str, AfterValidator(v.choice(OVERRIDE_CHOICES))] | None = None
    reusable: Annotated[str, AfterValidator(v.choice(OVERRIDE_CHOICES))] | None = None

    _blank = field_validator("vendor_string", "notice", "serial_number", "counted", "reusable", mode="before")(
        classmethod(lambda cls, x: _blank_to_none(x))
    )


class FeatureCreate(_Request):
    """The body of POST /features (https://fnoapi.redocly.app/apis/rest/product/product-service/feature/postfeature.md).

    The vendor string goes in `featureOverrideParams.vendorString`, where the page puts it: the client sent it at
    the top, where the service need not look. A top-level `vendorString` given to this model is moved there.
    """

    feature_name: FeatureNameText = Field(alias="featureName")
    version_format: Annotated[str, AfterValidator(v.check_version_format)] = Field(alias="versionFormat")
    version: FeatureVersion | None = None
    max_version: Annotated[str, AfterValidator(v.check_max_version)] | None = Field(None, alias="maxVersion")
    description: Description | None = None
    aggregation_type: Annotated[str, AfterValidator(v.check_aggregation_type)] | None = Field(None, alias="aggregationType")
    feature_override_params: FeatureOverrideParams | None = Field(None, alias="featureOverrideParams")
    auto_deploy: bool = Field(False, alias="autoDeploy")

    _blank = field_validator("version", "max_version", "aggregation_type", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))

    @model_validator(mode="before")
    @classmethod
    def _vendor_string_nested(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not ({"vendorString", "vendor_string"} & data.keys()):
            return data
        data = dict(data)
        given = [data.pop(key) for key in ("vendorString", "vendor_string") if key in data]
        vendor = next((x for x in given if x is not None), None)
        key = next((k for k in ("featureOverrideParams", "feature_override_params") if k in data), "featureOverrideParams")
        params = data.get(key)
        if isinstance(params, FeatureOverrideParams):
            params = params.model_dump(by_alias=True, exclude_none=True)
        if _blank_to_none(vendor) is None:
            return data
        if params is None:
            data[key] = {"vendorString": vendor}
        elif isinstance(params, dict) and params.get("vendorString") is None:
            data[key] = {**params, "vendorString": vendor}
        else:
            raise FieldProblem("vendorString", "give the vendor string once, in featureOverrideParams.vendorString")
        return data

    @property
    def vendor_string(self) -> str | None:
        return self.feature_override_params.vendor_string if self.feature_override_params else None


class FeatureBundleCreate(_Request):
    """The body of POST /feature-bundles (at least one feature), its features `{featureName, quantity, version}`."""

    feature_bundle_name: NameText = Field(alias="featureBundleName")
    description: Description | None = None
    features: list[BundleFeatureRef] = Field(min_length=1)
    auto_deploy: bool = Field(False, alias="autoDeploy")


class SuiteProductRef(_Request):
    product_name: v.NonBlank = Field(alias="productName")
    version: v.NonBlank
    quantity: Annotated[int, AfterValidator(lambda n: v.check_int_range(n, 1))] = 1


class SuiteCreate(_Technology):
    """The body of POST /suites (at least one product)."""

    suite_name: NameText = Field(alias="suiteName")
    host_type: NameText | None = Field(None, alias="hostType")
    version: VersionText
    description: Description | None = None
    products: list[SuiteProductRef] = Field(min_length=1)
    part_numbers: list[PartNumberText] = Field(default_factory=list, alias="partNumbers")
    package_name: str | None = Field(None, alias="packageName")
    package_version: str | None = Field(None, alias="packageVersion")
    auto_deploy: bool = Field(False, alias="autoDeploy")

    _blank_host = field_validator("host_type", mode="before")(classmethod(lambda cls, x: _blank_to_none(x)))

    def _host_given(self) -> str | None:
        return self.host_type

    @model_validator(mode="after")
    def _rules(self) -> SuiteCreate:
        _unique(self.part_numbers, "partNumbers", "part number")
        return self


# -- filters ---------------------------------------------------------------------------------------


class _Filter(_Request):
    sort_order: Annotated[str, AfterValidator(v.check_sort_order)] | None = None

    @field_validator("*", mode="before")
    @classmethod
    def _blank(cls, value: Any) -> Any:
        return value.strip() or None if isinstance(value, str) else value

    def params(self) -> dict[str, Any]:
        data = self.body()
        return {k: (str(x).lower() if isinstance(x, bool) else x) for k, x in data.items()}


ProductSort = Annotated[str, AfterValidator(v.choice(v.PRODUCT_SORT_KEYS))]
MaintenanceSort = Annotated[str, AfterValidator(v.choice(("productName", "version", "creationDate")))]
PartNumberSort = Annotated[str, AfterValidator(v.choice(v.PART_NUMBER_SORT_KEYS))]
FeatureSort = Annotated[str, AfterValidator(v.choice(v.FEATURE_SORT_KEYS))]
BundleSort = Annotated[str, AfterValidator(v.choice(("name", "creationDate")))]
SuiteSort = Annotated[str, AfterValidator(v.choice(v.SUITE_SORT_KEYS))]
Since = Annotated[str, AfterValidator(lambda s: _since(s))] | None


def _since(value: str) -> str:
    try:
        v.read_since_param({"x": value}, "x")
    except FieldProblem as exc:
        raise ValueError(exc.message) from None
    return value


class ProductFilter(_Filter):
    product_name: str | None = Field(None, alias="productName")
    version: str | None = None
    state: Annotated[str, AfterValidator(v.choice(v.PRODUCT_STATES))] | None = None
    license_technology: str | None = Field(None, alias="licenseTechnology")
    product_category: str | None = Field(None, alias="productCategory")
    part_number: str | None = Field(None, alias="partNumber")
    feature_name: str | None = Field(None, alias="featureName")
    license_model: str | None = Field(None, alias="licenseModel")
    creation_date: Since = Field(None, alias="creationDate")
    last_modified_date: Since = Field(None, alias="lastModifiedDate")
    sort_by: ProductSort | None = None


class MaintenanceFilter(_Filter):
    product_name: str | None = Field(None, alias="productName")
    version: str | None = None
    state: str | None = None
    part_number: str | None = Field(None, alias="partNumber")
    sort_by: MaintenanceSort | None = None


class PartNumberFilter(_Filter):
    part_number: str | None = Field(None, alias="partNumber")
    product_name: str | None = Field(None, alias="productName")
    license_model: str | None = Field(None, alias="licenseModel")
    creation_date: Since = Field(None, alias="creationDate")
    last_modified_date: Since = Field(None, alias="lastModifiedDate")
    unmapped_with_product: bool | None = Field(None, alias="unmappedWithProduct")
    unmapped_with_license_model: bool | None = Field(None, alias="unmappedWithLicenseModel")
    sort_by: PartNumberSort | None = None


class FeatureFilter(_Filter):
    name: str | None = None
    version: str | None = None
    version_format: Annotated[str, AfterValidator(v.check_version_format)] | None = Field(None, alias="versionFormat")
    state: Annotated[str, AfterValidator(v.choice(v.FEATURE_STATES))] | None = None
    creation_date: Since = Field(None, alias="creationDate")
    last_modified_date: Since = Field(None, alias="lastModifiedDate")
    vendor_auth_string: str | None = Field(None, alias="vendorAuthString")
    sort_by: FeatureSort | None = None


class FeatureBundleFilter(_Filter):
    name: str | None = None
    state: str | None = None
    feature_name: str | None = Field(None, alias="featureName")
    sort_by: BundleSort | None = None


class SuiteFilter(_Filter):
    suite_name: str | None = Field(None, alias="suiteName")
    version: str | None = None
    description: str | None = None
    part_number: str | None = Field(None, alias="partNumber")
    # Documented lower case (https://fnoapi.redocly.app/apis/rest/fno_api_modernization/suite/getsuites_1.md).
    state: Annotated[str, AfterValidator(v.choice(("draft", "deployed", "obsolete", "inactive")))] | None = None
    package_name: str | None = Field(None, alias="packageName")
    package_version: str | None = Field(None, alias="packageVersion")
    host_type: str | None = Field(None, alias="hostType")
    license_technology: str | None = Field(None, alias="licenseTechnology")
    license_generator: str | None = Field(None, alias="licenseGenerator")
    used_on_device: bool | None = Field(None, alias="usedOnDevice")
    creation_date: Since = Field(None, alias="creationDate")
    last_modified_date: Since = Field(None, alias="lastModifiedDate")
    sort_by: SuiteSort | None = None


# -- responses -------------------------------------------------------------------------------------


def _names(value: Any, key: str) -> Any:
    """Lists the server may give as strings or as objects: objects become their `key` string."""
    if not isinstance(value, list):
        return []
    return [item.get(key) if isinstance(item, dict) else item for item in value if item is not None]


class ProductFeature(_Response):
    """A feature of a product: `{count, name, version}`, "Represents a feature entity in a product context"
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/FeatureBundleFeatureResponseDTO); `featureName` read too."""

    feature_name: str = Field(validation_alias=AliasChoices("name", "featureName"))
    version: str | None = None
    count: int | None = None


class ProductBundle(_Response):
    """A feature bundle of a product: `{count, name}`, "Represents a feature bundle entity in a product context"
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/FeatureBundleFeatureResponseDTO); also read as
    `{featureBundleName}` or a bare name (`Product` makes a string `{"name": …}`)."""

    feature_bundle_name: str = Field(validation_alias=AliasChoices("name", "featureBundleName"))
    count: int | None = None


def _bundle_refs(value: Any) -> Any:
    """A product's featureBundles as objects: a bare name becomes `{"name": …}`; nulls are left out."""
    if not isinstance(value, list):
        return []
    return [{"name": item} if isinstance(item, str) else item for item in value if item is not None]


class Product(_Response):
    product_name: str = Field(validation_alias=AliasChoices("productName", "name"))
    version: str | None = None
    description: str | None = None
    state: str | None = None
    license_technology: str | None = Field(None, alias="licenseTechnology")
    license_generator: str | None = Field(None, alias="licenseGenerator")
    product_category: str | None = Field(None, alias="productCategory")
    host_type: str | None = Field(None, alias="hostType")
    host_types: list[str] = Field(default_factory=list, alias="hostTypes")
    used_on_device: bool | None = Field(None, alias="usedOnDevice")
    license_models: list[str] = Field(default_factory=list, alias="licenseModels")
    features: list[ProductFeature] = Field(default_factory=list)
    feature_bundles: list[ProductBundle] = Field(default_factory=list, alias="featureBundles")
    part_numbers: list[str] = Field(default_factory=list, alias="partNumbers")
    start_date: str | None = Field(None, alias="startDate")
    end_date: str | None = Field(None, alias="endDate")
    upgrade_email_template: str | None = Field(None, validation_alias=AliasChoices("upgradeEmailTemplate", "upgradeEmailTemplateVarName"))
    quantity_per_copy: int | None = Field(None, alias="quantityPerCopy")
    creation_date: Any = Field(None, validation_alias=AliasChoices("creationDate", "createdDate", "createdOn"))
    last_modified_date: Any = Field(None, validation_alias=AliasChoices("lastModifiedDate", "updatedOn"))

    _bundles = field_validator("feature_bundles", mode="before")(classmethod(lambda cls, x: _bundle_refs(x)))
    _parts = field_validator("part_numbers", mode="before")(classmethod(lambda cls, x: _names(x, "partNumber")))
    _models = field_validator("license_models", "host_types", mode="before")(classmethod(lambda cls, x: _names(x, "name")))

    @property
    def bundle_names(self) -> list[str]:
        return [b.feature_bundle_name for b in self.feature_bundles]


class MaintenanceProduct(_Response):
    product_name: str = Field(validation_alias=AliasChoices("productName", "maintenanceProductName", "name"))
    version: str | None = Field(None, validation_alias=AliasChoices("version", "maintenanceProductVersion"))
    description: str | None = None
    state: str | None = None
    part_numbers: list[str] = Field(default_factory=list, alias="partNumbers")
    creation_date: Any = Field(None, validation_alias=AliasChoices("creationDate", "createdDate", "createdOn"))
    last_modified_date: Any = Field(None, alias="lastModifiedDate")

    _parts = field_validator("part_numbers", mode="before")(classmethod(lambda cls, x: _names(x, "partNumber")))


class PartNumberOwner(_Response):
    name: str | None = None
    version: str | None = None
    license_model: str | None = Field(None, alias="licenseModel")
    type: str | None = None


class PartNumber(_Response):
    part_number: str = Field(validation_alias=AliasChoices("partNumber", "name"))
    description: str | None = None
    product: PartNumberOwner | None = None
    license_model: str | None = Field(None, alias="licenseModel")
    trial_availability: bool | None = Field(None, alias="trialAvailability")
    creation_date: Any = Field(None, validation_alias=AliasChoices("creationDate", "createdDate"))
    last_modified_date: Any = Field(None, alias="lastModifiedDate")

    @property
    def mapped(self) -> bool:
        return self.product is not None and bool(self.product.name)


class Feature(_Response):
    """A feature. Its vendor string is read at the top (`vendorString`) or where POST /features puts it,
    `featureOverrideParams.vendorString` (https://fnoapi.redocly.app/apis/rest/product/product-service/feature/postfeature.md)."""

    feature_name: str = Field(validation_alias=AliasChoices("featureName", "name"))
    version: str | None = None
    version_format: str | None = Field(None, alias="versionFormat")
    max_version: str | None = Field(None, alias="maxVersion")
    description: str | None = None
    aggregation_type: str | None = Field(None, alias="aggregationType")
    vendor_string: str | None = Field(None, alias="vendorString")
    state: str | None = None
    creation_date: Any = Field(None, alias="creationDate")
    last_modified_date: Any = Field(None, alias="lastModifiedDate")

    @model_validator(mode="before")
    @classmethod
    def _override_params(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("vendorString") is None:
            params = data.get("featureOverrideParams")
            if isinstance(params, dict) and params.get("vendorString") is not None:
                return {**data, "vendorString": params["vendorString"]}
        return data


class BundleFeature(_Response):
    """A feature in a bundle, in each documented form
    (https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/FeatureBundleFeatureResponseDTO): `{featureName,
    quantity, state, version}` (FeatureBundleFeatureResponse, a bundle's `featureList`) and `{name, quantity, state,
    version}` (FeatureBundleFeatureResponseDTO, the bundle list's `features`); `count` (the SOAP API's word) read too."""

    feature_name: str = Field(validation_alias=AliasChoices("featureName", "name"))
    version: str | None = None
    quantity: int | None = Field(None, validation_alias=AliasChoices("quantity", "count"))
    state: str | None = None


class FeatureBundle(_Response):
    """A feature bundle: the list's `{featureBundleName, features: […], …}` (FeatureBundleResponseDTO) or one bundle's
    `{featureBundleName, featureList: […], …}` (FeatureBundleGet,
    https://fnoapi.redocly.app/apis/graphql/fno-schema/objects/FeatureBundleFeatureResponseDTO)."""

    feature_bundle_name: str = Field(validation_alias=AliasChoices("featureBundleName", "name"))
    description: str | None = None
    state: str | None = None
    features: list[BundleFeature] = Field(default_factory=list, validation_alias=AliasChoices("features", "featureList"))
    creation_date: Any = Field(None, alias="creationDate")
    last_modified_date: Any = Field(None, alias="lastModifiedDate")


class SuiteProduct(_Response):
    product_name: str = Field(validation_alias=AliasChoices("productName", "name"))
    version: str | None = None
    quantity: int | None = None
    state: str | None = None


class Suite(_Response):
    suite_name: str = Field(validation_alias=AliasChoices("suiteName", "name"))
    version: str | None = None
    description: str | None = None
    state: str | None = None
    part_numbers: list[str] = Field(default_factory=list, alias="partNumbers")
    products: list[SuiteProduct] = Field(default_factory=list)
    package_name: str | None = Field(None, alias="packageName")
    package_version: str | None = Field(None, alias="packageVersion")
    host_type: str | None = Field(None, alias="hostType")
    license_technology: str | None = Field(None, alias="licenseTechnology")
    license_generator: str | None = Field(None, alias="licenseGenerator")
    used_on_device: bool | None = Field(None, alias="usedOnDevice")
    creation_date: Any = Field(None, validation_alias=AliasChoices("creationDate", "createdOn"))
    last_modified_date: Any = Field(None, alias="lastModifiedDate")

    _parts = field_validator("part_numbers", mode="before")(classmethod(lambda cls, x: _names(x, "partNumber")))


class CreatedPartNumbers(_Response):
    status: str | None = None
    message: str | None = None
    results: list[dict[str, Any]] = Field(default_factory=list)
    part_numbers: list[PartNumber] = Field(default_factory=list, alias="partNumbers")


# The list endpoints: path, envelope key, response model, identity of an item.
_LISTS: dict[str, tuple[str, str, type[Any], Callable[[Any], Any]]] = {
    "products": ("/v1/products", "productList", Product, lambda p: (p.product_name, p.version)),
    "maintenance": ("/v1/maintenance", "maintenanceList", MaintenanceProduct, lambda p: (p.product_name, p.version)),
    "part_numbers": ("/v1/part-numbers", "partNumbers", PartNumber, lambda p: p.part_number),
    "features": ("/v1/features", "features", Feature, lambda f: (f.feature_name, f.version)),
    "feature_bundles": ("/v1/feature-bundles", "featureBundles", FeatureBundle, lambda b: b.feature_bundle_name),
    "suites": ("/v1/suites", "suiteList", Suite, lambda s: (s.suite_name, s.version)),
}


class ProductsService:
    """The products and packaging service's calls over a `Session` (page numbers count from 1 here; `Listing` maps them).

    Each list has a fresh form (`products`, `features`, …), a cached
    stale-while-revalidate form (`products_page`, `features_page`, …), and
    `every(kind)` for all of it.
    """

    def __init__(self, session: Session) -> None:
        self.session = session

    def _listing(self, kind: str, filters: _Filter | None) -> Listing[Any]:
        path, key, model, ident = _LISTS[kind]
        params = filters.params() if filters else {}
        return Listing(
            self.session,
            Service.PRODUCTS,
            f"products.{kind}",
            params,
            lambda number, size: self.session.get_json(Service.PRODUCTS, path, params={**params, "page": number, "limit": size}),
            lambda raw, number, size: records_page(raw, key, model, number, size),
            item_key=ident,
        )

    async def _list(self, kind: str, filters: _Filter | None, page: int, limit: int) -> Page[Any]:
        v.check_page(page)
        v.check_limit(limit)
        return await freshest(self._listing(kind, filters).page(page, limit, force=True))

    def _cached(self, kind: str, filters: _Filter | None, page: int, limit: int, force: bool) -> AsyncIterator[Page[Any]]:
        v.check_page(page)
        v.check_limit(limit)
        return self._listing(kind, filters).page(page, limit, force=force)

    def every(
        self, kind: str, filters: _Filter | None = None, limit: int = 200, max_items: int | None = None, *, force: bool = False
    ) -> Pager[Any]:
        """Every item of one list (`kind`: products, maintenance, part_numbers, features, feature_bundles, suites); `force`: each page asked again."""
        v.check_limit(limit)
        return self._listing(kind, filters).every(limit, what=kind.replace("_", " "), max_items=max_items, force=force)

    # -- lists --

    async def products(self, filters: ProductFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT) -> Page[Product]:
        return await self._list("products", filters, page, limit)

    def products_page(
        self, filters: ProductFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT, *, force: bool = False
    ) -> AsyncIterator[Page[Product]]:
        return self._cached("products", filters, page, limit, force)

    async def maintenance(
        self, filters: MaintenanceFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT
    ) -> Page[MaintenanceProduct]:
        return await self._list("maintenance", filters, page, limit)

    def maintenance_page(
        self, filters: MaintenanceFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT, *, force: bool = False
    ) -> AsyncIterator[Page[MaintenanceProduct]]:
        return self._cached("maintenance", filters, page, limit, force)

    async def part_numbers(
        self, filters: PartNumberFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT
    ) -> Page[PartNumber]:
        return await self._list("part_numbers", filters, page, limit)

    def part_numbers_page(
        self, filters: PartNumberFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT, *, force: bool = False
    ) -> AsyncIterator[Page[PartNumber]]:
        return self._cached("part_numbers", filters, page, limit, force)

    async def features(self, filters: FeatureFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT) -> Page[Feature]:
        return await self._list("features", filters, page, limit)

    def features_page(
        self, filters: FeatureFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT, *, force: bool = False
    ) -> AsyncIterator[Page[Feature]]:
        return self._cached("features", filters, page, limit, force)

    async def feature_bundles(
        self, filters: FeatureBundleFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT
    ) -> Page[FeatureBundle]:
        return await self._list("feature_bundles", filters, page, limit)

    def feature_bundles_page(
        self, filters: FeatureBundleFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT, *, force: bool = False
    ) -> AsyncIterator[Page[FeatureBundle]]:
        return self._cached("feature_bundles", filters, page, limit, force)

    async def suites(self, filters: SuiteFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT) -> Page[Suite]:
        return await self._list("suites", filters, page, limit)

    def suites_page(
        self, filters: SuiteFilter | None = None, page: int = FIRST_PAGE, limit: int = DEFAULT_LIMIT, *, force: bool = False
    ) -> AsyncIterator[Page[Suite]]:
        return self._cached("suites", filters, page, limit, force)

    async def get_suite(self, name: str, version: str) -> Suite:
        """One suite (GET /v1/suites/{name}/{version}: the seed's).

        Its answer is `{"suite": {…}}` (notes §4.2, from the GraphQL schema) or the suite bare; the REST pages
        document this service's answers only as `{"message": "string", "status": "string"}`
        (https://fnoapi.redocly.app/apis/rest/product/product-service/suite/getsuites_1). An answer holding no
        suite (an error body sent with 200, `{}`, text, `null`) is `Unreadable` in the server's words
        (`tolerant.one_record`), never a suite "‹unreadable›" with nothing in it.
        """
        path = f"/v1/suites/{quote(name, safe='')}/{quote(version, safe='')}"
        raw = await self.session.get_json(Service.PRODUCTS, path)
        return answered(lambda body: one_record(Suite, body, "suite", "suite"), raw)

    # -- creating --

    async def _create(self, path: str, spec: _Request, key: str, model: type[R], what: str) -> R:
        """Create, and return the created record: the answer's, or (a `{message, status}` answer) the one sent."""
        self.session.check_writable(what)
        body = spec.body()
        raw = await self.session.send_json(Service.PRODUCTS, "POST", path, json_body=body)
        return created_record(model, raw, key, body, what)

    async def create_product(self, spec: ProductCreate) -> Product:
        return await self._create("/v1/products", spec, "product", Product, f"creating product {spec.product_name} {spec.version}")

    async def create_maintenance(self, spec: MaintenanceCreate) -> MaintenanceProduct:
        return await self._create(
            "/v1/maintenance", spec, "maintenance", MaintenanceProduct, f"creating maintenance product {spec.product_name}"
        )

    async def create_feature(self, spec: FeatureCreate) -> Feature:
        return await self._create("/v1/features", spec, "feature", Feature, f"creating feature {spec.feature_name}")

    async def create_feature_bundle(self, spec: FeatureBundleCreate) -> FeatureBundle:
        return await self._create(
            "/v1/feature-bundles", spec, "featureBundle", FeatureBundle, f"creating feature bundle {spec.feature_bundle_name}"
        )

    async def create_suite(self, spec: SuiteCreate) -> Suite:
        return await self._create("/v1/suites", spec, "suite", Suite, f"creating suite {spec.suite_name} {spec.version}")

    async def create_part_numbers(self, items: Sequence[PartNumberCreate]) -> CreatedPartNumbers:
        self.session.check_writable("creating part numbers")
        body = PartNumbersCreate.model_validate({"partNumbers": list(items)}).body()
        raw = await self.session.send_json(Service.PRODUCTS, "POST", "/v1/part-numbers", json_body=body)
        return created_record(CreatedPartNumbers, raw if isinstance(raw, dict) else {}, "", {}, "creating part numbers")
