"""Every dialect, shown against the lenient reading over HTTP: the variant a client must survive.

`CHECKS` holds one check per name in `DIALECTS`. Each builds two apps on
fresh worlds of the same seed, one speaking no dialect at all (the lenient
reading; `Sim()`, not the simulator's default, which is STRICT) and one
speaking the dialect alone, sends the same requests to both and asserts the
documented difference, so a dialect that stops changing anything fails here.
A test keeps `CHECKS` and `DIALECTS` equal. The checks' first argument is
still called `default`: it is the baseline each dialect departs from.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from flextui.sim.app import SIM_BASE_URL, create_app, in_process_transport
from flextui.sim.dialects import DIALECTS
from flextui.sim.registry import HELLO
from flextui.sim.world import ADMIN, CUSTOMER, PRODUCER, Clock, World

from ..conftest import FIXED_NOW_MS

TOKENS = "/flexnet/uar/v1"
REGISTRY = "/registry/api/v1"
REPORTS = "/data/api/v1/report"
ENTITLEMENTS = "/entitlements-api/v1"
PRODUCTS = "/products-api/v1"
USERS = "/users-accounts-api/v1"
ACME = "101200004242"


def basic(user: tuple[str, str]) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(":".join(user).encode()).decode()}


def line_item(**extra: Any) -> dict[str, Any]:
    return {
        "product": [{"productName": "Flex Designer", "productVersion": "2022.4"}],
        "startDate": "2026-11-01",
        "isPermanent": True,
        **extra,
    }


def entitlement(**extra: Any) -> dict[str, Any]:
    return {"lineItems": [line_item()], "attributes": [{"name": "REGION", "value": "EMEA"}], **extra}


class Sim:
    """An app speaking exactly `dialects` (none: the lenient reading) on a fresh frozen-clock world,
    with a client for each kind of sign-in."""

    def __init__(self, *dialects: str) -> None:
        self.world = World(seed=7, clock=Clock(FIXED_NOW_MS))
        self.app = create_app(self.world, dialects=dialects)
        self.http = httpx.AsyncClient(transport=in_process_transport(self.app), base_url=SIM_BASE_URL)
        self._jwt: str | None = None

    async def req(
        self, method: str, path: str, *, user: tuple[str, str] = ADMIN, bearer: str | None = None, **kwargs: Any
    ) -> httpx.Response:
        """A request with Basic credentials of `user`, or with `bearer` (an access token)."""
        headers = {"Authorization": f"Bearer {bearer}"} if bearer else basic(user)
        return await self.http.request(method, path, headers=headers, **kwargs)

    async def json(self, method: str, path: str, status: int = 200, **kwargs: Any) -> Any:
        response = await self.req(method, path, **kwargs)
        assert response.status_code == status, response.text
        return response.json()

    async def jwt(self) -> str:
        """A registry JWT for PRODUCER, wherever /authenticate puts it (body or header)."""
        if self._jwt is None:
            response = await self.http.get(f"{REGISTRY}/authenticate", headers=basic(PRODUCER))
            assert response.status_code == 200, response.text
            self._jwt = response.headers.get("authorization", "").removeprefix("Bearer ") or response.text
        return self._jwt

    async def registry(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {await self.jwt()}", "x-publisherid": self.world.tenant_id}
        return await self.http.request(method, REGISTRY + path, headers=headers, **kwargs)

    async def aclose(self) -> None:
        await self.http.aclose()


Check = Callable[[Sim, Sim], Awaitable[None]]
CHECKS: dict[str, Check] = {}


def check(name: str) -> Callable[[Check], Check]:
    def register(func: Check) -> Check:
        assert name in DIALECTS, name
        CHECKS[name] = func
        return func

    return register


async def ids(sim: Sim, **params: Any) -> list[str]:
    return [e["entitlementId"] for e in (await sim.json("GET", f"{ENTITLEMENTS}/entitlements", params=params))["entitlements"]]


# -- paging ---------------------------------------------------------------------------------------


@check("pagesize-lower")
async def _pagesize_lower(default: Sim, dialect: Sim) -> None:
    camel = {"tokenCreator": ADMIN[0], "page": 0, "pageSize": 3}
    assert len((await default.json("GET", f"{TOKENS}/tokens", params=camel))["responseObject"]) == 3
    total = (await dialect.json("GET", f"{TOKENS}/tokens/count", params={"tokenCreator": ADMIN[0]}))["responseObject"]
    assert total > 3
    ignored = (await dialect.json("GET", f"{TOKENS}/tokens", params=camel))["responseObject"]
    assert len(ignored) == min(20, total), "pageSize is not read: the server's default size applies"
    lower = {"tokenCreator": ADMIN[0], "page": 0, "pagesize": 3}
    assert len((await dialect.json("GET", f"{TOKENS}/tokens", params=lower))["responseObject"]) == 3


@check("mask-partial")
async def _mask_partial(default: Sim, dialect: Sim) -> None:
    params = {"username": CUSTOMER[0]}
    for sim, user, description in ((default, "****", "****"), (dialect, "cus***@acme-robotics.example", "<masked>")):
        rows = (await sim.json("GET", f"{TOKENS}/tokens", user=CUSTOMER, params=params))["responseObject"]
        impersonated = [r for r in rows if r["tokenType"] == "IMPERSONATED"]
        assert impersonated and all(r["username"] == user and r["tokenDescription"] == description for r in impersonated)


@check("verify-invalid-404")
async def _verify_invalid_404(default: Sim, dialect: Sim) -> None:
    value = {"accessToken": "rna_" + "0" * 44}
    for sim, status in ((default, 400), (dialect, 404)):
        body = await sim.json("POST", f"{TOKENS}/token/verification", status=status, json=value)
        assert "not valid" in body["statusMessage"]


@check("verify-valid-flag")
async def _verify_valid_flag(default: Sim, dialect: Sim) -> None:
    from flextui.sim.tokens import token_store

    def values(sim: Sim) -> tuple[str, str, str]:
        """A live value, an expired one and one that names no token."""
        now = sim.world.now_ms()
        expired = next(t for t in token_store(sim.world).by_name.values() if t.creator == ADMIN[0] and t.expiry_ms <= now)
        return sim.world.seed_token(ADMIN[0]), expired.value, "rna_" + "0" * 44

    live, expired, unknown = values(default)
    shown = (await default.json("POST", f"{TOKENS}/token/verification", json={"accessToken": live}))["responseObject"]
    assert shown["tokenName"] == "flextui-demo-admin" and "valid" not in shown, "the documented 200: details, no flag"
    for value in (expired, unknown):
        assert (
            "not valid"
            in (await default.json("POST", f"{TOKENS}/token/verification", status=400, json={"accessToken": value}))["statusMessage"]
        )

    live, expired, unknown = values(dialect)
    shown = (await dialect.json("POST", f"{TOKENS}/token/verification", json={"accessToken": live}))["responseObject"]
    assert shown["tokenName"] == "flextui-demo-admin" and shown["valid"] is True
    body = await dialect.json("POST", f"{TOKENS}/token/verification", json={"accessToken": expired})
    assert body["responseObject"]["valid"] is False and body["responseObject"]["tokenExpiryMillis"] <= dialect.world.now_ms()
    assert "expired" in body["statusMessage"]
    body = await dialect.json("POST", f"{TOKENS}/token/verification", json={"accessToken": unknown})
    assert body == {"statusMessage": "the token is not valid: unknown or deleted", "responseObject": {"valid": False}}


@check("create-username-required")
async def _create_username_required(default: Sim, dialect: Sim) -> None:
    unnamed = {"tokenName": "no-user-named", "expiryStr": "1d", "tokenType": "NORMAL"}
    created = (await default.json("POST", f"{TOKENS}/token", status=201, json=unnamed))["responseObject"]
    assert created["username"] == ADMIN[0], "the lenient reading: a NORMAL token's user is the caller"
    for username in ({}, {"username": ""}, {"username": "   "}, {"username": None}):
        refused = await dialect.json("POST", f"{TOKENS}/token", status=400, json={**unnamed, **username})
        assert refused["responseObject"] is None and set(refused) == {"statusMessage", "responseObject"}, "the token service's envelope"
        assert refused["statusMessage"].startswith("username is required"), "the message names the field first"
    assert (await dialect.req("POST", f"{TOKENS}/token", json={**unnamed, "username": 7})).status_code == 400
    named = (await dialect.json("POST", f"{TOKENS}/token", status=201, json={**unnamed, "username": CUSTOMER[0]}))["responseObject"]
    assert named["username"] == ADMIN[0], "a NORMAL token's username is still ignored: the caller is its user"


@check("page-size-ignored")
async def _page_size_ignored(default: Sim, dialect: Sim) -> None:
    assert len(await ids(default, limit=5)) == 5
    body = await dialect.json("GET", f"{ENTITLEMENTS}/entitlements", params={"limit": 5})
    assert len(body["entitlements"]) == 20 and body["limit"] == 20
    assert len((await default.registry("GET", "/projects", params={"pageSize": 5})).json()) == 5
    assert len((await dialect.registry("GET", "/projects", params={"pageSize": 5})).json()) == 10, "the registry's own default"


@check("paging-ignored")
async def _paging_ignored(default: Sim, dialect: Sim) -> None:
    assert len(await ids(default, page=2, limit=5)) == 5
    assert await ids(dialect, page=2, limit=5) == sorted(dialect.world.entitlements)
    tokens = (await dialect.json("GET", f"{TOKENS}/tokens", params={"tokenCreator": ADMIN[0], "page": 1, "pageSize": 2}))["responseObject"]
    assert len(tokens) == (await dialect.json("GET", f"{TOKENS}/tokens/count", params={"tokenCreator": ADMIN[0]}))["responseObject"]


@check("page-size-cap-100")
async def _page_size_cap_100(default: Sim, dialect: Sim) -> None:
    params = {"year": 2026, "page": 1, "pageSize": 150}
    assert len((await default.registry("GET", "/downloads", params=params)).json()) == 150
    assert len((await dialect.registry("GET", "/downloads", params=params)).json()) == 100
    assert (await default.req("GET", f"{ENTITLEMENTS}/entitlements", params={"limit": 1000})).status_code == 400
    assert (await dialect.json("GET", f"{ENTITLEMENTS}/entitlements", params={"limit": 1000}))["limit"] == 100


@check("zero-based")
async def _zero_based(default: Sim, dialect: Sim) -> None:
    refused = await default.req("GET", f"{ENTITLEMENTS}/entitlements", params={"page": 0})
    assert refused.status_code == 400 and refused.json()["field"] == "page"
    first = await ids(default, page=1, limit=5)
    assert await ids(dialect, page=0, limit=5) == first
    assert await ids(dialect, page=1, limit=5) == await ids(default, page=2, limit=5)
    assert (await dialect.json("GET", f"{ENTITLEMENTS}/entitlements", params={"page": 0}))["page"] == 0
    assert (await dialect.registry("GET", "/projects", params={"page": 0, "pageSize": 3})).json() == (
        await default.registry("GET", "/projects", params={"page": 1, "pageSize": 3})
    ).json()
    assert (await dialect.registry("GET", "/projects", params={"page": -1})).status_code == 400


@check("page-zero-is-first")
async def _page_zero_is_first(default: Sim, dialect: Sim) -> None:
    assert (await default.req("GET", f"{ENTITLEMENTS}/entitlements", params={"page": 0})).status_code == 400
    first = await ids(default, page=1, limit=5)
    assert await ids(dialect, page=0, limit=5) == first == await ids(dialect, page=1, limit=5)
    assert (await dialect.json("GET", f"{ENTITLEMENTS}/entitlements", params={"page": 0}))["page"] == 1
    assert (await dialect.registry("GET", "/projects", params={"page": 0})).status_code == 200


@check("strict-paging")
async def _strict_paging(default: Sim, dialect: Sim) -> None:
    everything = (await default.registry("GET", "/projects", params={"pageSize": 500})).json()
    assert len(everything) > 10, "the lenient reading allows up to 1000 per page"
    refused = await dialect.registry("GET", "/projects", params={"pageSize": 500})
    assert refused.status_code == 400 and "'pageSize' must be at most 100" in refused.json()["message"]
    assert (await dialect.registry("GET", "/projects", params={"pageSize": 100})).status_code == 200
    below = await dialect.req("GET", f"{ENTITLEMENTS}/entitlements", params={"page": 0})
    assert below.status_code == 400 and below.json()["field"] == "page"


# -- data reports -----------------------------------------------------------------------------------


@check("links-every-page")
async def _links_every_page(default: Sim, dialect: Sim) -> None:
    params = {"pastDays": 30, "limitRecords": 2500}
    only = await default.json("GET", f"{REPORTS}/account", params=params)
    assert only["data"] and only["header"]["nextPageURL"] is None
    last = await dialect.json("GET", f"{REPORTS}/account", params=params)
    assert last["data"] == only["data"] and last["header"]["nextPageURL"]
    beyond = await dialect.json("GET", last["header"]["nextPageURL"].removeprefix(SIM_BASE_URL))
    assert beyond["data"] == [] and beyond["header"]["nextPageURL"], "even past the end"


@check("links-none")
async def _links_none(default: Sim, dialect: Sim) -> None:
    params = {"pastDays": 30, "limitRecords": 1, "mode": "INTERACTIVE"}
    shown = await default.req("GET", f"{REPORTS}/account", params=params)
    assert shown.json()["header"]["nextPageURL"] and shown.json()["header"]["recordCount"] > 1 and 'rel="next"' in shown.headers["link"]
    bare = await dialect.req("GET", f"{REPORTS}/account", params=params)
    assert set(bare.json()) == {"data"} and len(bare.json()["data"]) == 1
    assert "link" not in bare.headers
    csv = await dialect.req("GET", f"{REPORTS}/account", params={**params, "format": "csv"})
    assert "link" not in csv.headers and "x-record-count" not in csv.headers


@check("report-types-documented")
async def _report_types_documented(default: Sim, dialect: Sim) -> None:
    model = await default.json("GET", f"{REPORTS}/report-types/account")
    assert "fields" in model["data"][0]
    documented = await dialect.json("GET", f"{REPORTS}/report-types/account")
    assert documented["data"][:2] == [
        {"filterName": "accountID", "dataType": "String"},
        {"filterName": "accountName", "dataType": "String"},
    ]
    every = await dialect.json("GET", f"{REPORTS}/report-types")
    assert {"reportName": "fulfillment", "filterName": "fulfillmentID", "dataType": "String"} in every["data"]
    assert not any("fields" in item for item in every["data"])


@check("report-names-objects")
async def _report_names_objects(default: Sim, dialect: Sim) -> None:
    assert "fulfillment" in (await default.json("GET", f"{REPORTS}/report-names"))["data"]
    names = (await dialect.json("GET", f"{REPORTS}/report-names"))["data"]
    fulfillment = next(n for n in names if n["reportName"] == "fulfillment")
    assert set(fulfillment) == {"reportName", "description"} and fulfillment["description"]


@check("op-list-map")
async def _op_list_map(default: Sim, dialect: Sim) -> None:
    listed = (await default.json("GET", f"{REPORTS}/op-list"))["data"]
    assert (
        isinstance(listed, list) and {"operator": "$btw", "description": "Between (inclusive of both bounds)"}.items() <= listed[-3].items()
    )
    mapped = (await dialect.json("GET", f"{REPORTS}/op-list"))["data"]
    assert isinstance(mapped, dict) and mapped["$nin"] == "Exclude multiple values" and mapped["$or"].startswith("Joins")
    assert list(mapped)[:3] == ["$eq", "$ne", "$sw"] and all(isinstance(v, str) for v in mapped.values()), "names to words, no types"


@check("op-list-notation")
async def _op_list_notation(default: Sim, dialect: Sim) -> None:
    assert all("operator" in o and "types" in o for o in (await default.json("GET", f"{REPORTS}/op-list"))["data"])
    items = (await dialect.json("GET", f"{REPORTS}/op-list"))["data"]
    assert items[1] == {"operatorNotation": "$ne", "description": "Not equal to"}
    assert all(set(o) == {"operatorNotation", "description"} for o in items), "the vendor table's columns, no types"


@check("window-moves")
async def _window_moves(default: Sim, dialect: Sim) -> None:
    params = {"pastDays": 30, "limitRecords": 50, "mode": "INTERACTIVE"}

    async def counts(sim: Sim, **extra: Any) -> list[int]:
        return [(await sim.json("GET", f"{REPORTS}/fulfillment", params={**params, **extra}))["header"]["recordCount"] for _ in range(3)]

    assert len(set(await counts(default))) == 1, "a still clock: the same count every time"
    moving = await counts(dialect)
    assert moving[0] > moving[1] > moving[2], "records leave the old end of the window, an hour per request"
    fixed = {"dateFrom": "2026-10-10", "dateTo": "2026-10-25"}
    still = await counts(dialect, **fixed)
    assert still[0] > 50 and len(set(still)) == 1, "fixed dates hold still under the moving clock"


# -- shapes ---------------------------------------------------------------------------------------


@check("null-collections")
async def _null_collections(default: Sim, dialect: Sim) -> None:
    assert (await default.json("GET", f"{ENTITLEMENTS}/entitlements", params={"accountId": "NOPE"}))["entitlements"] == []
    assert (await dialect.json("GET", f"{ENTITLEMENTS}/entitlements", params={"accountId": "NOPE"}))["entitlements"] is None
    beyond = await dialect.registry("GET", "/projects", params={"page": 999})
    assert beyond.status_code == 200 and beyond.json() is None, "an empty top-level array is null too"
    for sim, empty in ((default, []), (dialect, None)):
        created = await sim.json("POST", f"{ENTITLEMENTS}/entitlement", 201, json=entitlement())
        items = await sim.json("GET", f"{ENTITLEMENTS}/entitlement/{created['entitlementId']}/line-items")
        assert items["lineItems"][0]["attributes"] == empty, "nested empty arrays as well"


@check("create-status-only")
async def _create_status_only(default: Sim, dialect: Sim) -> None:
    product = {"productName": "Quartz Modeler", "version": "1.0"}
    assert "product" in await default.json("POST", f"{PRODUCTS}/products", 201, json=product)
    assert await dialect.json("POST", f"{PRODUCTS}/products", 201, json=product) == {
        "message": "Product created successfully",
        "status": "SUCCESS",
    }
    assert "entitlementId" in await default.json("POST", f"{ENTITLEMENTS}/entitlement", 201, json=entitlement())
    assert await dialect.json("POST", f"{ENTITLEMENTS}/entitlement", 201, json=entitlement()) == {"status": "SUCCESS"}
    added = await dialect.json("POST", f"{ENTITLEMENTS}/entitlement/ENT-100001/line-items", 201, json={"lineItems": [line_item()]})
    assert added == {"status": "SUCCESS"}
    account = {"accountId": "ORBIT-42", "name": "Orbit Instruments", "accountType": "CUSTOMER"}
    assert await dialect.json("POST", f"{USERS}/accounts", 201, json=account) == {"status": "SUCCESS"}
    assert "ORBIT-42" in dialect.world.accounts, "the record is created all the same"


@check("create-status-worded")
async def _create_status_worded(default: Sim, dialect: Sim) -> None:
    product = {"productName": "Quartz Modeler", "version": "1.0"}
    assert (await default.json("POST", f"{PRODUCTS}/products", 201, json=product))["status"] != "201 CREATED"
    worded = await dialect.json("POST", f"{PRODUCTS}/products", 201, json=product)
    assert worded["status"] == "201 CREATED" and "product" in worded, "the record, its status in words"
    account = {"accountId": "ORBIT-42", "name": "Orbit Instruments", "accountType": "CUSTOMER"}
    assert (await dialect.json("POST", f"{USERS}/accounts", 201, json=account))["status"] == "201 CREATED"


@check("entitlements-bare-array")
async def _entitlements_bare_array(default: Sim, dialect: Sim) -> None:
    assert isinstance(await default.json("GET", f"{ENTITLEMENTS}/entitlements"), dict)
    bare = await dialect.json("GET", f"{ENTITLEMENTS}/entitlements", params={"limit": 5})
    assert isinstance(bare, list) and [e["entitlementId"] for e in bare] == await ids(default, limit=5)


@check("entitlements-data-envelope")
async def _entitlements_data_envelope(default: Sim, dialect: Sim) -> None:
    assert "entitlements" in await default.json("GET", f"{ENTITLEMENTS}/entitlements")
    body = await dialect.json("GET", f"{ENTITLEMENTS}/entitlements", params={"limit": 5})
    assert set(body) == {"data"} and [e["entitlementId"] for e in body["data"]] == await ids(default, limit=5)


async def _line_item_dates(sim: Sim) -> list[tuple[Any, Any]]:
    body = await sim.json("GET", f"{ENTITLEMENTS}/entitlement/ENT-100000/line-items")
    return [(li["startDate"], li["expiryDate"]) for li in body["lineItems"]]


@check("line-item-dates-datetime")
async def _line_item_dates_datetime(default: Sim, dialect: Sim) -> None:
    documented = await _line_item_dates(default)
    assert any(expiry for _, expiry in documented), "an item with an expiry date, to see it written"
    assert await _line_item_dates(dialect) == [
        (f"{start}T00:00:00.000+00:00", expiry and f"{expiry}T00:00:00.000+00:00") for start, expiry in documented
    ]


@check("line-item-dates-epoch")
async def _line_item_dates_epoch(default: Sim, dialect: Sim) -> None:
    def ms(day: str | None) -> int | None:
        return None if day is None else int(datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp() * 1000)

    documented = await _line_item_dates(default)
    assert await _line_item_dates(dialect) == [(ms(start), ms(expiry)) for start, expiry in documented]


@check("project-detail-openapi")
async def _project_detail_openapi(default: Sim, dialect: Sim) -> None:
    docs = (await default.registry("GET", f"/projects/{HELLO}")).json()
    assert docs["downloadPackageId"] == HELLO
    openapi = (await dialect.registry("GET", f"/projects/{HELLO}")).json()
    assert list(openapi)[0] == "artifacts" and "downloadPackageId" not in openapi and "name" not in openapi
    artifact = openapi["artifacts"][0]
    assert list(artifact)[:2] == ["annotations", "digest"] and "extra_attrs" in artifact and artifact["tags"]
    assert openapi["repositories"] == docs["repositories"] and openapi["charts"] == docs["charts"]


@check("users-no-username")
async def _users_no_username(default: Sim, dialect: Sim) -> None:
    assert all("userName" in u for u in (await default.json("GET", f"{USERS}/users"))["users"])
    users = (await dialect.json("GET", f"{USERS}/users"))["users"]
    assert users and not any("userName" in u for u in users) and all(u["emailAddress"] for u in users)
    one = await dialect.json("GET", f"{USERS}/users/{ADMIN[0]}")
    assert "userName" not in one["user"] and one["user"]["emailAddress"] == ADMIN[0]


# -- registry ---------------------------------------------------------------------------------------


@check("jwt-in-header")
async def _jwt_in_header(default: Sim, dialect: Sim) -> None:
    plain = await default.http.get(f"{REGISTRY}/authenticate", headers=basic(PRODUCER))
    assert plain.text.count(".") == 2 and "authorization" not in plain.headers
    answer = await dialect.http.get(f"{REGISTRY}/authenticate", headers=basic(PRODUCER))
    assert answer.status_code == 200 and answer.content == b""
    jwt = answer.headers["authorization"].removeprefix("Bearer ")
    assert jwt.count(".") == 2
    projects = await dialect.http.get(
        f"{REGISTRY}/projects", headers={"Authorization": f"Bearer {jwt}", "x-publisherid": dialect.world.tenant_id}
    )
    assert projects.status_code == 200


@check("secret-docs-only")
async def _secret_docs_only(default: Sim, dialect: Sim) -> None:
    assert (await default.registry("GET", f"/secret/{PRODUCER[0]}")).status_code == 200
    assert (await default.registry("PUT", "/secret", json={"new-password": "Sturdy-Secret-9"})).status_code == 200
    assert (await dialect.registry("GET", f"/secret/{PRODUCER[0]}")).status_code == 404
    seed_form = await dialect.registry("PUT", "/secret", json={"new-password": "Sturdy-Secret-9"})
    assert seed_form.status_code == 400 and "existing-secret" in seed_form.json()["message"]
    current = (await dialect.registry("GET", "/secret")).text
    assert (await dialect.registry("PUT", "/secret", json={"new-secret": "Sturdy-Secret-9"})).status_code == 400, (
        "existing-secret is required"
    )
    changed = await dialect.registry("PUT", "/secret", json={"existing-secret": current, "new-secret": "Docs-Form-42"})
    assert changed.status_code == 200 and base64.b64decode(changed.text).decode() == "Docs-Form-42"
    random = await dialect.registry("PUT", "/secret", json={"existing-secret": changed.text, "new-secret": ""})
    assert random.status_code == 200 and base64.b64decode(random.text).decode() != "Docs-Form-42"


@check("reject-encoded-slash")
async def _reject_encoded_slash(default: Sim, dialect: Sim) -> None:
    encoded = f"/projects/{HELLO}/repositories/{HELLO}%2Fhello-world-image/artifacts"
    assert (await default.registry("GET", encoded)).status_code == 200
    refused = await dialect.http.get(REGISTRY + encoded)  # refused before routing, so before authentication
    assert refused.status_code == 400 and '"%2F"' in refused.json()["message"]
    assert (await dialect.http.get(f"{TOKENS}/token/a%2fb", headers=basic(ADMIN))).status_code == 400, "every service, either case"
    assert (await dialect.http.get(f"{TOKENS}/token/a%252Fb", headers=basic(ADMIN))).status_code == 400, "an encoded percent too"
    documented = await dialect.registry("GET", f"/projects/{HELLO}/repositories/hello-world-image/artifacts")
    assert documented.status_code == 200 and len(documented.json()) == 1


@check("members-filter-fuzzy")
async def _members_filter_fuzzy(default: Sim, dialect: Sim) -> None:
    everyone = (await default.registry("GET", f"/projects/{HELLO}/members", params={"page_size": 100})).json()
    name = everyone[-1]["entityName"]
    part = name.split("@")[1]  # a domain several members share
    assert (await default.registry("GET", f"/projects/{HELLO}/members", params={"user_id": part})).json() == []
    fuzzy = (await dialect.registry("GET", f"/projects/{HELLO}/members", params={"user_id": part, "page_size": 100})).json()
    assert len(fuzzy) > 1 and all(part in m["entityName"] for m in fuzzy)
    exact = (await dialect.registry("GET", f"/projects/{HELLO}/members", params={"user_id": name})).json()
    assert name in [m["entityName"] for m in exact]


@check("jwt-expired-403")
async def _jwt_expired_403(default: Sim, dialect: Sim) -> None:
    for sim, status in ((default, 401), (dialect, 403)):
        forged = await sim.http.get(f"{REGISTRY}/projects", headers={"Authorization": "Bearer a.b.c", "x-publisherid": sim.world.tenant_id})
        assert forged.status_code == status, forged.text
    assert forged.json()["message"] == "Authentication failed"
    assert (await dialect.registry("GET", "/projects")).status_code == 200
    other = await dialect.http.get(
        f"{REGISTRY}/projects", headers={"Authorization": f"Bearer {await dialect.jwt()}", "x-publisherid": "9999"}
    )
    assert other.status_code == 403 and "x-publisherid" in other.json()["message"], "a real refusal keeps its own words"


@check("secret-history")
async def _secret_history(default: Sim, dialect: Sim) -> None:
    for sim in (default, dialect):
        current = (await sim.registry("GET", "/secret")).text
        same = await sim.registry("PUT", "/secret", json={"existing-secret": current, "new-secret": base64.b64decode(current).decode()})
        if sim is default:
            assert same.status_code == 200
        else:
            assert same.status_code == 400 and "new-secret" in same.json()["message"] and "last 5" in same.json()["message"]
    first = base64.b64decode((await dialect.registry("GET", "/secret")).text).decode()
    changed = await dialect.registry("PUT", "/secret", json={"existing-secret": _b64(first), "new-secret": "Fresh-Secret-1"})
    assert changed.status_code == 200
    back = await dialect.registry("PUT", "/secret", json={"existing-secret": changed.text, "new-secret": first})
    assert back.status_code == 400, "an earlier secret may not come back"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@check("shared-registry-prefix")
async def _shared_registry_prefix(default: Sim, dialect: Sim) -> None:
    tenant = dialect.world.tenant_id
    plain = [r["name"] for r in (await default.registry("GET", "/projects", params={"pageSize": 100})).json()]
    listed = [r["name"] for r in (await dialect.registry("GET", "/projects", params={"pageSize": 100})).json()]
    assert listed == [f"{tenant}-{n}" for n in plain]
    assert (await dialect.registry("GET", f"/projects/{listed[0]}")).status_code == 404, "a path takes the name without the prefix"
    assert (await dialect.registry("GET", f"/projects/{plain[0]}")).status_code == 200


@check("dedicated-registry-tenant-name")
async def _dedicated_registry_tenant_name(default: Sim, dialect: Sim) -> None:
    named = f"{dialect.world.tenant_id}-{HELLO}"
    plain = [r["name"] for r in (await default.registry("GET", "/projects", params={"pageSize": 100})).json()]
    listed = [r["name"] for r in (await dialect.registry("GET", "/projects", params={"pageSize": 100})).json()]
    assert listed == sorted([named, *plain]), "names as given (a dedicated registry), one more project"
    assert (await default.registry("GET", f"/projects/{named}")).status_code == 404
    own, hello = [(await dialect.registry("GET", f"/projects/{name}")).json() for name in (named, HELLO)]
    assert own["downloadPackageId"] == named and hello["downloadPackageId"] == HELLO and own["id"] != hello["id"]
    assert [r["repositoryName"] for r in own["repositories"]] == [f"{named}/hello-world-image"], "the same repository name as HELLO's"
    assert (await dialect.registry("DELETE", f"/projects/{named}/repositories/hello-world-image")).status_code == 200
    assert (await dialect.registry("GET", f"/projects/{named}/repositories/hello-world-image/artifacts")).status_code == 404
    assert (await dialect.registry("GET", f"/projects/{HELLO}/repositories/hello-world-image/artifacts")).status_code == 200


@check("artifacts-docs-envelope")
async def _artifacts_docs_envelope(default: Sim, dialect: Sim) -> None:
    path = f"/projects/{HELLO}/repositories/hello-world-image/artifacts"
    harbor = (await default.registry("GET", path)).json()
    assert isinstance(harbor, list) and harbor[0]["digest"].startswith("sha256:")
    docs = (await dialect.registry("GET", path)).json()
    assert docs["downloadPackageId"] == HELLO and docs["tenantId"] == dialect.world.tenant_id
    item = docs["artifacts"][0]
    assert "digest" not in item and "id" not in item and item["size"] == harbor[0]["size"]
    assert item["pushTime"].endswith(("AM", "PM")) and item["tags"][0]["name"] == "latest" and item["manifestMediaType"]


@check("registry-no-total")
async def _registry_no_total(default: Sim, dialect: Sim) -> None:
    lists = [
        ("/projects", {"page": 1, "pageSize": 5}),
        (f"/projects/{HELLO}/members", {"page": 1, "page_size": 5}),
        (f"/projects/{HELLO}/repositories/hello-world-image/artifacts", {"page": 1, "pageSize": 5}),
        ("/downloads", {"year": 2026, "month": 5, "page": 1, "pageSize": 5}),
    ]
    for path, params in lists:
        counted = await default.registry("GET", path, params=params)
        assert int(counted.headers["x-total-count"]) >= len(counted.json()) > 0, path
        bare = await dialect.registry("GET", path, params=params)
        assert bare.status_code == 200 and "x-total-count" not in bare.headers, path
        assert bare.json() == counted.json() and isinstance(bare.json(), list), "the same bare array, and no total in it"


# -- auth and enums ---------------------------------------------------------------------------------


@check("token-only-beta")
async def _token_only_beta(default: Sim, dialect: Sim) -> None:
    assert (await default.req("GET", f"{ENTITLEMENTS}/entitlements")).status_code == 200
    for path in (f"{ENTITLEMENTS}/entitlements", f"{PRODUCTS}/products", f"{USERS}/users"):
        refused = await dialect.req("GET", path)
        assert refused.status_code == 401 and "access token is required" in refused.json()["message"], path
        assert (await dialect.req("GET", path, bearer=dialect.world.seed_token(ADMIN[0]))).status_code == 200, path
    assert (await dialect.req("GET", f"{TOKENS}/tokens/count", params={"username": ADMIN[0]})).status_code == 200, "tokens keep Basic"
    assert (await dialect.req("GET", f"{REPORTS}/report-names")).status_code == 200, "data reports keep Basic"


@check("strict-enums")
async def _strict_enums(default: Sim, dialect: Sim) -> None:
    upper = entitlement(lineItems=[line_item(orderType="NEW_ORDER")])
    await default.json("POST", f"{ENTITLEMENTS}/entitlement", 201, json=upper)
    refused = await dialect.json("POST", f"{ENTITLEMENTS}/entitlement", 400, json=upper)
    assert refused["field"] == "lineItems[0].orderType" and "new_order" in refused["message"]
    await dialect.json("POST", f"{ENTITLEMENTS}/entitlement", 201, json=entitlement(lineItems=[line_item(orderType="renewal_order")]))
    assert (await dialect.json("POST", f"{ENTITLEMENTS}/entitlement", 400, json=entitlement(status="DRAFT")))["field"] == "status"
    assert (await default.req("GET", f"{USERS}/accounts", params={"accountType": "UNKNOWN"})).status_code == 200
    unknown = await dialect.json("GET", f"{USERS}/accounts", 400, params={"accountType": "UNKNOWN"})
    assert unknown["field"] == "accountType"
    assert (await dialect.json("GET", f"{USERS}/accounts", 400, params={"accountType": "customer"}))["field"] == "accountType"
    assert (await dialect.req("GET", f"{USERS}/accounts", params={"accountType": "CUSTOMER,SELF_REGISTERED"})).status_code == 200
    # policyTermUnit: "Valid types are Days, Weeks, Months, Years" (PolicyInput); any case is read leniently, and
    # both answer the documented spelling
    ent = next(e for e in default.world.entitlements.values() if e.status != "OBSOLETE" and e.line_items)
    path = f"{ENTITLEMENTS}/entitlement/{ent.entitlement_id}/line-items/{ent.line_items[0].activation_id}/policies"
    upper = {"rehosts": {"allowedCount": 2, "policyTermDuration": 30, "policyTermUnit": "DAYS"}}
    assert (await default.json("PATCH", path, json=upper))["policies"]["rehosts"]["policyTermUnit"] == "Days"
    refused = await dialect.json("PATCH", path, 400, json=upper)
    assert refused["field"] == "rehosts.policyTermUnit" and "Days" in refused["message"]
    documented = {"rehosts": {"allowedCount": 2, "policyTermDuration": 30, "policyTermUnit": "Days"}}
    assert (await dialect.json("PATCH", path, json=documented))["policies"]["rehosts"]["policyTermUnit"] == "Days"


# -- the table ------------------------------------------------------------------------------------


def test_every_dialect_has_a_check() -> None:
    assert set(CHECKS) == set(DIALECTS)


@pytest.mark.parametrize("name", sorted(DIALECTS))
async def test_dialect_shows_its_difference(name: str) -> None:
    default, dialect = Sim(), Sim(name)
    try:
        await CHECKS[name](default, dialect)
    finally:
        await default.aclose()
        await dialect.aclose()


# -- choosing dialects ------------------------------------------------------------------------------


def test_parse_dialects_takes_commas_and_iterables() -> None:
    from flextui.sim.dialects import DEFAULT, STRICT, parse_dialects

    assert parse_dialects("zero-based, links-none") == {"zero-based", "links-none"}
    assert parse_dialects(["zero-based", "strict-enums,null-collections"]) == {"zero-based", "strict-enums", "null-collections"}
    assert parse_dialects("") == frozenset(), "no dialect: the lenient reading"
    assert DEFAULT == STRICT, "the default is the strictest reading of the docs"
    assert parse_dialects(STRICT) == STRICT and STRICT <= DIALECTS.keys()
    assert STRICT == {"strict-paging", "reject-encoded-slash", "token-only-beta", "strict-enums", "create-username-required"}


async def test_an_app_speaks_strict_unless_told_otherwise() -> None:
    from flextui.sim.dialects import STRICT

    world = World(seed=7, clock=Clock(FIXED_NOW_MS))
    app = create_app(world)
    assert app.state.dialects == STRICT
    assert create_app(world, dialects=()).state.dialects == frozenset(), "an empty set is no dialect, not the default"
    async with httpx.AsyncClient(transport=in_process_transport(app), base_url=SIM_BASE_URL) as http:
        basic_beta = await http.get(f"{ENTITLEMENTS}/entitlements", headers=basic(ADMIN))
        assert basic_beta.status_code == 401, "token-only-beta"
        bearer = {"Authorization": f"Bearer {world.seed_token(ADMIN[0])}"}
        upper = await http.get(f"{ENTITLEMENTS}/entitlements", headers=bearer, params={"status": "DEPLOYED"})
        assert upper.status_code == 400 and upper.json()["field"] == "status", "strict-enums"
        assert (await http.get(f"{ENTITLEMENTS}/entitlements", headers=bearer, params={"status": "deployed"})).status_code == 200
        assert (await http.get(f"{ENTITLEMENTS}/entitlements", headers=bearer, params={"page": 0})).status_code == 400, "strict-paging"
        encoded = await http.get(f"{REGISTRY}/projects/{HELLO}/repositories/{HELLO}%2Fhello-world-image/artifacts")
        assert encoded.status_code == 400, "reject-encoded-slash"
        unnamed = await http.post(f"{TOKENS}/token", headers=basic(ADMIN), json={"tokenName": "no-user-named", "expiryStr": "1d"})
        assert unnamed.status_code == 400 and unnamed.json()["statusMessage"].startswith("username"), "create-username-required"


def test_parse_dialects_names_unknown_and_contradicting_names() -> None:
    from flextui.sim.dialects import parse_dialects

    with pytest.raises(ValueError) as info:
        parse_dialects("zero-based,bogus,nope")
    message = str(info.value)
    assert "bogus" in message and "nope" in message and "pagesize-lower" in message and "strict-enums" in message
    with pytest.raises(ValueError, match="contradict"):
        parse_dialects("entitlements-bare-array,entitlements-data-envelope")
    with pytest.raises(ValueError, match="contradict"):
        parse_dialects("verify-invalid-404,verify-valid-flag")  # a refusal's status, or no refusal at all
    with pytest.raises(ValueError):
        create_app(World(), dialects={"bogus"})


async def test_two_apps_in_one_process_speak_their_own_dialects() -> None:
    plain, zero = Sim(), Sim("zero-based")
    try:
        assert plain.app.state.dialects == frozenset() and zero.app.state.dialects == {"zero-based"}
        assert zero.app.starlette.state.dialects is zero.app.state.dialects
        assert (await plain.req("GET", f"{ENTITLEMENTS}/entitlements", params={"page": 0})).status_code == 400
        assert (await zero.req("GET", f"{ENTITLEMENTS}/entitlements", params={"page": 0})).status_code == 200
        assert (await plain.req("GET", f"{ENTITLEMENTS}/entitlements", params={"page": 0})).status_code == 400, "unchanged"
    finally:
        await plain.aclose()
        await zero.aclose()


@pytest.mark.parametrize("name", ["", "pagesize-lower", "strict-paging", "strict-enums", "paging-ignored"])
async def test_unknown_query_parameters_are_ignored(name: str) -> None:
    sim = Sim(*([name] if name else []))
    try:
        assert (await sim.req("GET", f"{ENTITLEMENTS}/entitlements", params={"bogus": "1", "pageNumber": "x"})).status_code == 200
        assert (await sim.req("GET", f"{TOKENS}/tokens", params={"username": ADMIN[0], "size": "x"})).status_code == 200
        assert (await sim.registry("GET", "/projects", params={"per_page": "x"})).status_code == 200
    finally:
        await sim.aclose()


async def test_paging_dialects_combine() -> None:
    sim = Sim("strict-paging", "page-size-cap-100")
    try:
        refused = await sim.req("GET", f"{ENTITLEMENTS}/entitlements", params={"limit": 101})
        assert refused.status_code == 400 and refused.json()["field"] == "limit", "strict turns the cap into a 400"
        assert (await sim.json("GET", f"{ENTITLEMENTS}/entitlements", params={"limit": 100}))["limit"] == 100
    finally:
        await sim.aclose()
    sim = Sim("zero-based", "page-size-ignored")
    try:
        body = await sim.json("GET", f"{ENTITLEMENTS}/entitlements", params={"page": 1, "limit": 3})
        assert body["page"] == 1 and body["limit"] == 20 and body["entitlements"][0]["entitlementId"] == "ENT-100020"
    finally:
        await sim.aclose()


async def test_pagesize_lower_keeps_the_unpaged_token_list() -> None:
    sim = Sim("pagesize-lower")
    try:
        params = {"tokenCreator": ADMIN[0]}
        count = (await sim.json("GET", f"{TOKENS}/tokens/count", params=params))["responseObject"]
        assert len((await sim.json("GET", f"{TOKENS}/tokens", params=params))["responseObject"]) == count
        bad = await sim.req("GET", f"{TOKENS}/tokens", params={**params, "pagesize": "many"})
        assert bad.status_code == 400 and "pagesize" in bad.json()["statusMessage"]
        ignored = await sim.req("GET", f"{TOKENS}/tokens", params={**params, "pageSize": "many"})
        assert ignored.status_code == 200, "an ignored parameter is not even read"
    finally:
        await sim.aclose()


async def test_token_search_paging_in_dialects() -> None:
    body = {"tokenName": "*", "page": 0, "pageSize": 3}
    for dialects, expected in (((), 3), (("page-size-ignored",), 20), (("paging-ignored",), None)):
        sim = Sim(*dialects)
        try:
            found = (await sim.json("POST", f"{TOKENS}/tokens/search", json=body))["responseObject"]
            everything = (await sim.json("POST", f"{TOKENS}/tokens/search", json={**body, "pageSize": 1000}))["responseObject"]
            assert len(found) == (expected if expected is not None else len(everything))
            assert (await sim.req("POST", f"{TOKENS}/tokens/search", json={"tokenName": "*", "page": 0})).status_code == 400, (
                "still required"
            )
        finally:
            await sim.aclose()


@pytest.mark.parametrize(
    "dialects", [(), ("reject-encoded-slash",), ("strict-paging", "reject-encoded-slash", "token-only-beta", "strict-enums")]
)
async def test_repositories_by_documented_short_and_nested_names(dialects: tuple[str, ...]) -> None:
    from flextui.sim.registry import SimRepository, registry_store

    sim = Sim(*dialects)
    try:
        store = registry_store(sim.world)
        project = store.project(HELLO)
        repos = store.repositories(project)
        repos["team/tools"] = SimRepository(9901, "team/tools", project.created_ms, 0, 2)  # the world has no nested name
        project.image_names.append("team/tools")
        short = await sim.registry("GET", f"/projects/{HELLO}/repositories/hello-world-image/artifacts")
        assert short.status_code == 200 and len(short.json()) == 1
        nested = await sim.registry("GET", f"/projects/{HELLO}/repositories/team/tools/artifacts")
        assert nested.status_code == 200 and len(nested.json()) == 2
        assert nested.json()[0]["repository_name"] == f"{HELLO}/team/tools"
        full = await sim.registry("GET", f"/projects/{HELLO}/repositories/{HELLO}/team/tools/artifacts")
        assert full.status_code == 200, "the full name with raw slashes, too"
        assert (await sim.registry("DELETE", f"/projects/{HELLO}/repositories/team/tools")).status_code == 200
        assert "team/tools" not in store.repositories(project)
        encoded = await sim.registry("GET", f"/projects/{HELLO}/repositories/{HELLO}%2Fhello-world-image/artifacts")
        assert encoded.status_code == (400 if "reject-encoded-slash" in dialects else 200)
    finally:
        await sim.aclose()


async def test_strict_reading_as_a_whole() -> None:
    from flextui.sim.dialects import STRICT

    sim = Sim(*STRICT)
    try:
        token = sim.world.seed_token(PRODUCER[0])
        created = await sim.req(
            "POST", f"{ENTITLEMENTS}/entitlement", bearer=token, json=entitlement(lineItems=[line_item(orderType="new_order")])
        )
        assert created.status_code == 201, created.text
        assert (await sim.req("GET", f"{ENTITLEMENTS}/entitlements", bearer=token, params={"limit": 500})).status_code == 200
        assert (await sim.registry("GET", "/projects", params={"pageSize": 101})).status_code == 400
        assert (await sim.req("GET", f"{REPORTS}/account", params={"pastDays": 3})).status_code == 200
    finally:
        await sim.aclose()
