"""Dialects: the variants of the real services that a client must survive.

The vendor's docs leave many things open or contradict themselves (paging
parameter spellings, page bases, size caps, report links, envelopes, nulls,
auth per service; see notes §6). A client that works against one reading
can break against another, so the simulator can speak each reading on
demand. A dialect is a name; an app gets a set of them
(`create_app(world, dialects=…)`, reachable as `app.state.dialects`) and
handlers read it with `common.dialects_of(request)`: no global state, so two
apps in one process may speak differently.

`DEFAULT` is `STRICT`, the strictest reading of the docs: a client that
survives it survives the real service's strictness. `speaking(names)` adds
variants to it (`flextui sim --dialect zero-based`), or starts from nothing
with `lenient`; an empty set is the old lenient simulator, which some tests
use to check what a lenient server accepts.
Each dialect's rule is described in the docstring of the service module
that implements it, with the vendor page it follows.
"""

from __future__ import annotations

from collections.abc import Iterable

DIALECTS: dict[str, str] = {
    # paging of the numbered lists (tokens, registry, beta APIs)
    "pagesize-lower": "token list honours only the docs-table spelling `pagesize`; `pageSize` is ignored",
    "page-size-ignored": "numbered lists ignore the page-size parameter and answer pages of their own default size",
    "paging-ignored": "numbered lists ignore page and page size and answer the whole list every time",
    "page-size-cap-100": "page sizes above 100 are silently answered with 100 items (Harbor-style cap)",
    "zero-based": "registry and beta lists count pages from 0 (the token API always does)",
    "page-zero-is-first": "1-based lists also answer page 0 with the first page (Spring's one-indexed pageable)",
    "strict-paging": "a page below the first or a page size above the documented maximum is a 400 naming the parameter",
    # data reports
    "links-every-page": "every report answer has header.nextPageURL, also on the last page and beyond",
    "links-none": "report answers carry no page links (body or Link header) and no record/page counts",
    "report-types-documented": "report-types answers the docs' form: a data array of {filterName, dataType} filters",
    "report-names-objects": "report-names answers objects {reportName, description} instead of strings",
    "op-list-map": 'report op-list answers a map of notation to description, {"data": {"$eq": "Exact (equal to)", …}}',
    "op-list-notation": 'report op-list answers {"data": [{"operatorNotation": "$eq", "description": …}]}, no types',
    "window-moves": "a past-N-days report window moves on an hour with every data request, as a live clock does over a long run",
    # shapes
    "null-collections": "empty collections are JSON null (Jackson's default), top-level and nested",
    "create-status-only": "beta create answers carry only the documented {status} or {message, status}",
    "create-status-worded": 'beta create answers say success in words of their own ("status": "201 CREATED")',
    "verify-invalid-404": "token verification answers an unknown, deleted or expired value with 404 and a statusMessage, not 400",
    "verify-valid-flag": (
        "token verification answers 200 with a `valid` flag beside the details: true for a live value, false for an"
        " expired one (its details kept) and for an unknown one (no details), instead of a 4xx"
    ),
    "create-username-required": "token create without `username` is a 400 naming it, for NORMAL tokens too (the OpenAPI marks it required)",
    "mask-partial": 'masked token fields keep part of the value ("cus***@acme-robotics.example", "<masked>") instead of "****"',
    "entitlements-bare-array": "GET /entitlements answers a bare JSON array",
    "entitlements-data-envelope": 'GET /entitlements answers {"data": [...]}',
    "line-item-dates-datetime": "line items answer startDate and expiryDate as date-times, 2025-01-01T00:00:00.000+00:00 (Spring's Jackson)",
    "line-item-dates-epoch": "line items answer startDate and expiryDate as epoch milliseconds (Jackson writing dates as timestamps)",
    "project-detail-openapi": "registry project detail answers the OpenAPI sample's form (artifacts first, no downloadPackageId)",
    "users-no-username": "user records have no userName field",
    # registry
    "jwt-in-header": "registry /authenticate answers 200 with an empty body and the JWT in an Authorization header",
    "secret-docs-only": "registry secret only in the docs' forms: GET /secret, PUT {existing-secret, new-secret}",
    "reject-encoded-slash": "any raw path with %2F or %25 is a 400 before routing (Spring's StrictHttpFirewall)",
    # registry: Harbor's member name filter
    "members-filter-fuzzy": "registry members' user_id matches entityName as a substring (Harbor's fuzzy filter)",
    # registry: an expired or invalid JWT
    "jwt-expired-403": 'registry answers an expired or invalid JWT with 403 {"message": "Authentication failed"}, not 401',
    # registry: secret policy
    "secret-history": "registry PUT /secret refuses a new secret equal to the current one or one of the last 5 (400)",
    # registry: shared registry
    "shared-registry-prefix": "registry project names are listed with the tenant-ID prefix (a shared registry); paths take them without",
    # registry: a dedicated registry where a project's own name begins with the tenant ID
    "dedicated-registry-tenant-name": (
        "a dedicated registry (names as given) that also holds a project named `1107-hello-world-dp` beside `hello-world-dp`"
    ),
    # registry: the docs' artifacts form
    "artifacts-docs-envelope": "registry artifacts answer the docs' form: a project object with camelCase artifacts and no digest",
    # registry: no total (the docs' bare arrays)
    "registry-no-total": "registry lists answer a bare array with no total (no X-Total-Count header, no total field)",
    # auth and enums
    "token-only-beta": "entitlements, products and users/accounts accept only Bearer rna_ access tokens",
    "strict-enums": "enums only in their documented spelling (orderType new_order, status draft, …)",
}

STRICT: frozenset[str] = frozenset({"strict-paging", "reject-encoded-slash", "token-only-beta", "strict-enums", "create-username-required"})
"""The dialects that together make the strictest reading of the docs."""

DEFAULT: frozenset[str] = STRICT
"""What the simulator speaks unless told otherwise: the strictest reading of the docs."""

EXCLUSIVE: tuple[frozenset[str], ...] = (
    frozenset({"entitlements-bare-array", "entitlements-data-envelope"}),
    frozenset({"line-item-dates-datetime", "line-item-dates-epoch"}),
    frozenset({"links-every-page", "links-none"}),
    frozenset({"op-list-map", "op-list-notation"}),
    frozenset({"zero-based", "page-zero-is-first"}),
    frozenset({"verify-invalid-404", "verify-valid-flag"}),
    frozenset({"shared-registry-prefix", "dedicated-registry-tenant-name"}),
)
"""Pairs that contradict each other: at most one of each may be chosen."""


def parse_dialects(text: str | Iterable[str]) -> frozenset[str]:
    """The dialects named in `text` ("a,b" or an iterable of names, each of which may hold commas).

    Blank names are skipped, so "" is no dialect. An unknown name, or two
    names that contradict each other, raise ValueError saying which.
    """
    parts = [text] if isinstance(text, str) else list(text)
    names = frozenset(name.strip() for part in parts for name in part.split(",") if name.strip())
    unknown = sorted(names - DIALECTS.keys())
    if unknown:
        raise ValueError(f"unknown dialect{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}: choose from {', '.join(DIALECTS)}")
    for pair in EXCLUSIVE:
        if pair <= names:
            raise ValueError(f"the dialects {' and '.join(sorted(pair))} contradict each other: choose one")
    return names


LENIENT = "lenient"
"""Not a dialect: in `speaking`, it drops the strict default (`--dialect lenient,zero-based`)."""

# A strict rule a named variant overrides: asking for a page-size variant means the size is not refused.
_OVERRIDES: dict[str, frozenset[str]] = {
    "page-size-cap-100": frozenset({"strict-paging"}),
    "page-size-ignored": frozenset({"strict-paging"}),
    "paging-ignored": frozenset({"strict-paging"}),
}


def speaking(text: str | Iterable[str] | None) -> frozenset[str]:
    """What a simulator asked for `text` speaks: the strict default plus the named variants.

    `lenient` among the names starts from nothing instead; a named variant
    that a strict rule would contradict (a silent page-size cap) replaces it.
    """
    if not text:
        return DEFAULT
    parts = [text] if isinstance(text, str) else list(text)
    names = {name.strip() for part in parts for name in part.split(",") if name.strip()}
    base = frozenset() if LENIENT in names else DEFAULT
    named = parse_dialects(names - {LENIENT})
    dropped = frozenset().union(*(_OVERRIDES.get(name, frozenset()) for name in named))
    return parse_dialects((base - dropped) | named)
