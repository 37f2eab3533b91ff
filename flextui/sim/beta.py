"""What the three beta services (entitlements, products, users/accounts) share.

They are one family (seed 002, notes §4): the same `page`/`limit`/`sort_by`/
`sort_order` list parameters, the same error body `{"status": "error",
"message", "field"}` with the field named by its path, the same rule that
only producer (publisher-side) users change anything, and the same
dialects:
- paging (paging.py): 1-based by default, `limit` default 20, at most 500
  (the simulator's choices: neither is documented); `zero-based`,
  `page-zero-is-first`, `page-size-ignored`, `paging-ignored`,
  `page-size-cap-100` and `strict-paging` as for every numbered list.
- `token-only-beta`: only `Bearer rna_…` access tokens are accepted
  (Accessing_the_Entitlement_Management_REST_APIs.htm; common.py).
- `strict-enums`: enums only in their documented spelling (rules.py lists
  each; the services say which field uses which).
- `create-status-only`: a create answers only what the Redocly REST pages
  document: `{"status": "SUCCESS"}` for entitlements and users/accounts,
  `{"message": …, "status": "SUCCESS"}` for products
  (https://fnoapi.redocly.app/apis/rest/fno_api_modernization/entitlement/postentitlement.md,
  …/user-account-service/user/postuser.md, the products pages): a client must
  not expect the created record back.
- `create-status-worded`: the status of a create is free text (the pages
  document it only as `"status": "string"`), here Spring's "201 CREATED": a
  client must take any status that does not say failure as success.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from flextui.sim.common import SimError, authenticate_beta, dialects_of, json_response, read_json
from flextui.sim.paging import Paging, Window, window
from flextui.sim.rules import Body, FieldProblem, read_sort
from flextui.sim.world import SimUser

Handler = Callable[[Request], Awaitable[Response]]
BETA_PAGING = Paging("beta", ("limit",), 20, 500)


def beta_errors(handler: Handler) -> Handler:
    """Answer a `FieldProblem` raised by `handler` with a 400 naming its field."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except FieldProblem as exc:
            raise SimError(400, f"{exc.field or 'body'}: {exc.message}", exc.field or None) from None

    return wrapped


def caller_of(request: Request) -> SimUser:
    """The authenticated caller (only by access token under `token-only-beta`)."""
    return authenticate_beta(request)


def require_producer(caller: SimUser, what: str) -> None:
    if caller.kind != "producer":
        raise SimError(403, f"{what} needs a producer (publisher) user; {caller.username} is a customer user")


def producer_of(request: Request, what: str) -> SimUser:
    """The caller of a change, who must be a producer user (403 otherwise)."""
    caller = caller_of(request)
    require_producer(caller, what)
    return caller


async def read_body(request: Request) -> Body:
    return Body(await read_json(request), "")


def strict_enums(request: Request) -> bool:
    return "strict-enums" in dialects_of(request)


@dataclass(frozen=True)
class ListQuery:
    """A beta list request's page window and sort order."""

    window: Window
    sort_by: str
    descending: bool

    def take(self, items: Sequence[Any]) -> list[Any]:
        return self.window.take(items)


def list_query(request: Request, sort_keys: Sequence[str] = (), default_sort: str = "") -> ListQuery:
    """`page`, `limit`, `sort_by` and `sort_order` of a list request, checked (400 naming the parameter)."""
    paged = window(request.query_params, BETA_PAGING, dialects_of(request))
    sort_by, descending = read_sort(request.query_params, sort_keys, default_sort, strict=strict_enums(request))
    return ListQuery(paged, sort_by, descending)


def page_fields(query: ListQuery, total: int) -> dict[str, int]:
    """The `page`, `limit` and `total` an envelope reports."""
    return {"page": query.window.page, "limit": query.window.size_shown(total), "total": total}


def pagination(query: ListQuery, total: int) -> dict[str, int]:
    """The products service's `pagination` object."""
    limit = query.window.size_shown(total)
    return {"page": query.window.page, "limit": limit, "total": total, "totalPages": max(1, math.ceil(total / limit))}


def created(request: Request, body: dict[str, Any], *, message: str | None = None) -> Response:
    """A 201 create answer: `body`, or only the documented status under `create-status-only`; under
    `create-status-worded` its status in the words a Spring service writes (`HttpStatus.toString()`)."""
    dialects = dialects_of(request)
    status = "201 CREATED" if "create-status-worded" in dialects else "SUCCESS"
    if "create-status-only" in dialects:
        documented: dict[str, Any] = {"status": status} if message is None else {"message": message, "status": status}
        return json_response(documented, 201)
    if "create-status-worded" in dialects:
        return json_response({**body, "status": status}, 201)
    return json_response(body, 201)
