"""The simulated access token service (seed 000), driven over HTTP in process.

Each rule of the seed is exercised with input that satisfies it and input that
breaks it. The app is built with the token service only, so these tests do
not depend on the other simulator modules.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

import flextui.sim.app as sim_app_module
from flextui.sim.app import SIM_BASE_URL, in_process_transport
from flextui.sim.tokens import MASK, token_store
from flextui.sim.world import ADMIN, CUSTOMER, DAY_MS, PRODUCER, World

from ..conftest import FIXED_NOW_MS

BASE = "/flexnet/uar/v1"
VALUE_RE = re.compile(r"^rna_[0-9a-f]{44}$")


@pytest.fixture(autouse=True)
def _tokens_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mount only the token service: other simulator modules may be unfinished."""
    monkeypatch.setattr(sim_app_module, "SERVICE_MODULES", ("tokens",))


class Api:
    """Requests to the simulator as a chosen user (Basic) or with a bearer token."""

    def __init__(self, app: Any, world: World) -> None:
        self.app = app
        self.world = world
        self._clients: list[httpx.AsyncClient] = []

    def client(
        self, user: tuple[str, str] | None = ADMIN, *, bearer: str | None = None, headers: dict[str, str] | None = None
    ) -> httpx.AsyncClient:
        hdrs = dict(headers or {})
        if bearer is not None:
            hdrs["Authorization"] = f"Bearer {bearer}"
        auth = httpx.BasicAuth(*user) if user is not None and bearer is None else None
        client = httpx.AsyncClient(transport=in_process_transport(self.app), base_url=SIM_BASE_URL, auth=auth, headers=hdrs)
        self._clients.append(client)
        return client

    async def req(
        self, method: str, path: str, *, user: tuple[str, str] | None = ADMIN, bearer: str | None = None, **kwargs: Any
    ) -> httpx.Response:
        return await self.client(user, bearer=bearer).request(method, BASE + path, **kwargs)

    async def create(self, name: str, expiry: str = "30d", *, user: tuple[str, str] = ADMIN, **fields: Any) -> dict[str, Any]:
        body = {"tokenName": name, "expiryStr": expiry, "username": user[0], **fields}  # as the docs' body (STRICT requires it)
        response = await self.req("POST", "/token", user=user, json=body)
        assert response.status_code == 201, response.text
        return response.json()["responseObject"]

    async def get(self, name: str, *, user: tuple[str, str] = ADMIN) -> httpx.Response:
        return await self.req("GET", "/token/" + name, user=user)

    async def listing(self, *, user: tuple[str, str] = ADMIN, **params: Any) -> list[dict[str, Any]]:
        response = await self.req("GET", "/tokens", user=user, params=params)
        assert response.status_code == 200, response.text
        return response.json()["responseObject"]

    async def search(self, *, user: tuple[str, str] = ADMIN, page: int = 0, pageSize: int = 500, **criteria: Any) -> httpx.Response:
        return await self.req("POST", "/tokens/search", user=user, json={**criteria, "page": page, "pageSize": pageSize})

    async def names(self, **criteria: Any) -> list[str]:
        response = await self.search(**criteria)
        assert response.status_code == 200, response.text
        return [t["tokenName"] for t in response.json()["responseObject"]]

    async def aclose(self) -> None:
        for client in self._clients:
            await client.aclose()


@pytest.fixture
async def api(sim_app: Any, world: World) -> AsyncIterator[Api]:
    a = Api(sim_app, world)
    yield a
    await a.aclose()


def other_privileged(world: World) -> tuple[str, str]:
    user = next(u for u in world.users.values() if u.may_impersonate and u.username != ADMIN[0])
    return user.username, user.password


def assert_error(response: httpx.Response, status: int, fragment: str = "") -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"statusMessage", "responseObject"}
    assert body["responseObject"] is None
    assert fragment.lower() in body["statusMessage"].lower()


# -- create ----------------------------------------------------------------------------


async def test_create_answers_201_with_envelope_and_value(api: Api) -> None:
    response = await api.req(
        "POST", "/token", json={"tokenName": "ci-runner-one", "expiryStr": "30d", "tokenDescription": "CI", "username": ADMIN[0]}
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"statusMessage", "responseObject"}
    assert isinstance(body["statusMessage"], str) and body["statusMessage"]
    token = body["responseObject"]
    assert VALUE_RE.match(token["tokenValue"])
    assert token["tokenName"] == "ci-runner-one"
    assert token["tokenType"] == "NORMAL"
    assert token["username"] == ADMIN[0] and token["tokenCreator"] == ADMIN[0]
    assert token["tokenDescription"] == "CI"
    assert token["expiryStr"] == "30d"
    assert token["tokenIssueMillis"] == FIXED_NOW_MS
    assert token["tokenExpiryMillis"] == FIXED_NOW_MS + 30 * DAY_MS


async def test_every_created_value_is_new(api: Api) -> None:
    values = {(await api.create(f"unique-val-{i}"))["tokenValue"] for i in range(5)}
    assert len(values) == 5
    assert all(VALUE_RE.match(v) for v in values)


async def test_token_value_only_in_create_and_rotate(api: Api) -> None:
    created = await api.create("secret-keeper", "7d")
    value = created["tokenValue"]
    answers = [
        await api.get("secret-keeper"),
        await api.req("GET", "/tokens", params={"username": ADMIN[0]}),
        await api.search(tokenName="secret-keeper"),
        await api.req("POST", "/token/verification", json={"accessToken": value}),
    ]
    for response in answers:
        assert response.status_code == 200, response.text
        assert value not in response.text
        assert "tokenValue" not in response.text
    rotated = await api.req("POST", "/token/secret-keeper/rotation")
    assert rotated.status_code == 200
    new_value = rotated.json()["responseObject"]["tokenValue"]
    assert VALUE_RE.match(new_value) and new_value != value
    again = await api.get("secret-keeper")
    assert new_value not in again.text


async def test_update_and_delete_answer_204_with_empty_body(api: Api) -> None:
    await api.create("short-lived", "7d")
    updated = await api.req("PUT", "/token/short-lived", json={"tokenDescription": "changed"})
    assert updated.status_code == 204
    assert updated.content == b""
    assert (await api.get("short-lived")).json()["responseObject"]["tokenDescription"] == "changed"
    deleted = await api.req("DELETE", "/token/short-lived")
    assert deleted.status_code == 204
    assert deleted.content == b""
    assert_error(await api.get("short-lived"), 404)


@pytest.mark.parametrize(("name", "status"), [("abcd", 400), ("abcde", 201), ("a" * 25, 201), ("a" * 26, 400), ("", 400)])
async def test_name_length_5_to_25(api: Api, name: str, status: int) -> None:
    response = await api.req("POST", "/token", json={"tokenName": name, "expiryStr": "1d", "username": ADMIN[0]})
    assert response.status_code == status, response.text
    if status == 400:
        assert "tokenName" in response.json()["statusMessage"]


async def test_name_is_required(api: Api) -> None:
    assert_error(await api.req("POST", "/token", json={"expiryStr": "1d"}), 400, "tokenName")
    assert_error(await api.req("POST", "/token", json={"tokenName": 12345, "expiryStr": "1d"}), 400, "tokenName")


@pytest.mark.parametrize("char", list("*<>+$?.^|%]"))
async def test_name_forbidden_characters(api: Api, char: str) -> None:
    name = f"abc{char}def"
    assert_error(await api.req("POST", "/token", json={"tokenName": name, "expiryStr": "1d"}), 400, "tokenName")
    assert name not in token_store(api.world).by_name


@pytest.mark.parametrize("name", ["abc\\\\\\\\def", "ab&amp;cd", "ab&#60;cd", "tab\there", "new\nline1"])
async def test_name_backslashes_html_and_control_characters_rejected(api: Api, name: str) -> None:
    assert_error(await api.req("POST", "/token", json={"tokenName": name, "expiryStr": "1d"}), 400, "tokenName")


@pytest.mark.parametrize("name", ["abc\\\\\\def", "with [bracket", "under_score-1", "Spaces ok", "caf\u00e9-t\u00f6ken", "a/b/c-slash"])
async def test_name_allowed_characters(api: Api, name: str) -> None:
    await api.create(name, "1d")
    # A slash stays raw in the path: the strict default refuses %2F before routing (see below).
    response = await api.get(name.replace(" ", "%20").replace("[", "%5B"))
    assert response.status_code == 200, response.text
    assert response.json()["responseObject"]["tokenName"] == name


async def test_name_with_a_slash_by_encoded_path_is_refused_by_default(api: Api) -> None:
    await api.create("a/b/c-slash", "1d")
    refused = await api.get("a%2Fb%2Fc-slash")
    assert_error(refused, 400, '"%2F"')
    assert (await api.get("a/b/c-slash")).status_code == 200, "the raw slashes still find it"


async def test_name_with_a_slash_by_encoded_path_in_the_lenient_dialect(lenient_app: Any, world: World) -> None:
    """The lenient dialect (no dialect): the encoded slash reaches the token, as before STRICT was the default."""
    api = Api(lenient_app, world)
    try:
        await api.create("a/b/c-slash", "1d")
        response = await api.get("a%2Fb%2Fc-slash")
        assert response.status_code == 200, response.text
        assert response.json()["responseObject"]["tokenName"] == "a/b/c-slash"
    finally:
        await api.aclose()


async def test_name_unique_conflict_409(api: Api) -> None:
    await api.create("dup-name-1")
    response = await api.req("POST", "/token", json={"tokenName": "dup-name-1", "expiryStr": "1d", "username": ADMIN[0]})
    assert_error(response, 409, "already exists")


async def test_names_are_case_sensitive(api: Api) -> None:
    upper = await api.create("CaseToken", "1d", tokenDescription="upper")
    lower = await api.create("casetoken", "2d", tokenDescription="lower")
    assert upper["tokenValue"] != lower["tokenValue"]
    assert (await api.get("CaseToken")).json()["responseObject"]["tokenDescription"] == "upper"
    assert (await api.get("casetoken")).json()["responseObject"]["tokenDescription"] == "lower"
    assert_error(await api.get("CASETOKEN"), 404)


@pytest.mark.parametrize(
    ("expiry", "days"),
    [("3y 4M 3d", None), ("10m", None), ("10M", None), ("1y2M3d4h5m", None), ("30d", 30)],
)
async def test_expiry_grammar_accepted(api: Api, expiry: str, days: int | None) -> None:
    from flextui.api.intervals import parse_interval

    token = await api.create("grammar-ok", expiry)
    assert token["expiryStr"] == expiry
    assert token["tokenExpiryMillis"] == parse_interval(expiry).after_ms(FIXED_NOW_MS)
    if days is not None:
        assert token["tokenExpiryMillis"] == FIXED_NOW_MS + days * DAY_MS


async def test_expiry_units_case_sensitive_minutes_vs_months(api: Api) -> None:
    minutes = await api.create("ten-minutes", "10m")
    months = await api.create("ten-months1", "10M")
    assert minutes["tokenExpiryMillis"] == FIXED_NOW_MS + 10 * 60_000
    assert months["tokenExpiryMillis"] > FIXED_NOW_MS + 300 * DAY_MS


@pytest.mark.parametrize("expiry", ["3Y", "0d", "", "5", "1w", "1m1d", "1d1d", None, 30, "99999y"])
async def test_expiry_grammar_rejected(api: Api, expiry: Any) -> None:
    body = {"tokenName": "bad-expiry", "expiryStr": expiry}
    assert_error(await api.req("POST", "/token", json=body), 400, "expiryStr")
    assert "bad-expiry" not in token_store(api.world).by_name


async def test_bad_json_and_non_object_bodies(api: Api) -> None:
    assert_error(await api.req("POST", "/token", content=b"{not json", headers={"content-type": "application/json"}), 400, "JSON")
    assert_error(await api.req("POST", "/token", json=["tokenName"]), 400, "object")
    assert_error(await api.req("POST", "/token"), 400, "body")


async def test_bad_token_type(api: Api) -> None:
    assert_error(await api.req("POST", "/token", json={"tokenName": "bad-type1", "expiryStr": "1d", "tokenType": "ROOT"}), 400, "tokenType")


# -- IMPERSONATED ------------------------------------------------------------------------


async def test_impersonated_created_by_privileged_user(api: Api) -> None:
    token = await api.create("support-imp-1", "14d", tokenType="IMPERSONATED", tokenDescription="Case 42", username=CUSTOMER[0])
    assert token["tokenType"] == "IMPERSONATED"
    assert token["username"] == CUSTOMER[0]
    assert token["tokenCreator"] == ADMIN[0]
    assert token["tokenDescription"] == "Case 42"


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"username": CUSTOMER[0]}, "tokenDescription"),
        ({"username": CUSTOMER[0], "tokenDescription": "   "}, "tokenDescription"),
        ({"tokenDescription": "Case 42"}, "username"),
        ({"tokenDescription": "Case 42", "username": "nobody@nowhere.example"}, "no user"),
    ],
)
async def test_impersonated_needs_description_and_known_username(api: Api, fields: dict[str, Any], fragment: str) -> None:
    body = {"tokenName": "imp-missing", "expiryStr": "1d", "tokenType": "IMPERSONATED", **fields}
    assert_error(await api.req("POST", "/token", json=body), 400, fragment)
    assert "imp-missing" not in token_store(api.world).by_name


async def test_impersonated_needs_permissions(api: Api) -> None:
    body = {"tokenName": "imp-by-prod", "expiryStr": "1d", "tokenType": "IMPERSONATED", "tokenDescription": "x", "username": CUSTOMER[0]}
    assert_error(await api.req("POST", "/token", user=PRODUCER, json=body), 400, "Create Impersonated Token")
    assert_error(await api.req("POST", "/token", user=CUSTOMER, json=body), 400, "Create Impersonated Token")
    assert "imp-by-prod" not in token_store(api.world).by_name


async def test_username_ignored_for_normal_tokens(api: Api) -> None:
    token = await api.create("normal-for-other", "1d", username=CUSTOMER[0])
    assert token["username"] == ADMIN[0]
    assert token["tokenCreator"] == ADMIN[0]
    stored = token_store(api.world).by_name["normal-for-other"]
    assert stored.username == ADMIN[0]


# -- update, delete, rotate ----------------------------------------------------------------


async def test_update_only_by_creator_for_normal_tokens(api: Api) -> None:
    await api.create("admins-normal")
    refused = await api.req("PUT", "/token/admins-normal", user=PRODUCER, json={"tokenDescription": "hijack"})
    assert_error(refused, 400, "creator")
    # Privilege does not extend to another user's NORMAL token.
    refused = await api.req("PUT", "/token/admins-normal", user=other_privileged(api.world), json={"tokenDescription": "hijack"})
    assert_error(refused, 400, "creator")
    assert (await api.get("admins-normal")).json()["responseObject"]["tokenDescription"] == ""
    assert (await api.req("PUT", "/token/admins-normal", json={"tokenDescription": "mine"})).status_code == 204


async def test_update_impersonated_by_other_privileged_user(api: Api) -> None:
    await api.create("imp-shared1", "14d", tokenType="IMPERSONATED", tokenDescription="Case 1", username=CUSTOMER[0])
    ok = await api.req("PUT", "/token/imp-shared1", user=other_privileged(api.world), json={"tokenDescription": "Case 1 (taken over)"})
    assert ok.status_code == 204
    assert token_store(api.world).by_name["imp-shared1"].description == "Case 1 (taken over)"
    # The user it was made for is not its creator and not privileged.
    refused = await api.req("PUT", "/token/imp-shared1", user=CUSTOMER, json={"tokenDescription": "mine now"})
    assert_error(refused, 400)
    refused = await api.req("PUT", "/token/imp-shared1", user=PRODUCER, json={"tokenDescription": "mine now"})
    assert_error(refused, 400)
    assert token_store(api.world).by_name["imp-shared1"].description == "Case 1 (taken over)"


async def test_update_impersonated_description_cannot_be_blanked(api: Api) -> None:
    await api.create("imp-desc-1", "14d", tokenType="IMPERSONATED", tokenDescription="Reason", username=CUSTOMER[0])
    assert_error(await api.req("PUT", "/token/imp-desc-1", json={"tokenDescription": "  "}), 400, "tokenDescription")
    assert token_store(api.world).by_name["imp-desc-1"].description == "Reason"


async def test_delete_only_by_creator(api: Api) -> None:
    await api.create("keep-me-please")
    assert_error(await api.req("DELETE", "/token/keep-me-please", user=PRODUCER), 400, "creator")
    assert_error(await api.req("DELETE", "/token/keep-me-please", user=other_privileged(api.world)), 400)
    assert (await api.get("keep-me-please")).status_code == 200
    await api.create("imp-to-delete", "14d", tokenType="IMPERSONATED", tokenDescription="x", username=CUSTOMER[0])
    assert_error(await api.req("DELETE", "/token/imp-to-delete", user=CUSTOMER), 400)
    assert (await api.req("DELETE", "/token/imp-to-delete", user=other_privileged(api.world))).status_code == 204
    assert "imp-to-delete" not in token_store(api.world).by_name


async def test_unknown_token_404_everywhere(api: Api) -> None:
    for method, path in (
        ("GET", "/token/no-such-token"),
        ("PUT", "/token/no-such-token"),
        ("DELETE", "/token/no-such-token"),
        ("POST", "/token/no-such-token/rotation"),
    ):
        kwargs = {"json": {"tokenDescription": "x"}} if method == "PUT" else {}
        assert_error(await api.req(method, path, **kwargs), 404, "no-such-token")


async def test_expired_token_cannot_be_updated_or_rotated(api: Api) -> None:
    await api.create("expires-soon", "1d")
    api.world.clock.advance(DAY_MS - 1)
    assert (await api.req("PUT", "/token/expires-soon", json={"tokenDescription": "still alive"})).status_code == 204
    api.world.clock.advance(1)  # exactly at expiry: expired
    assert_error(await api.req("PUT", "/token/expires-soon", json={"tokenDescription": "too late"}), 400, "expired")
    assert_error(await api.req("PUT", "/token/expires-soon", json={"expiryStr": "1y"}), 400, "expired")
    assert_error(await api.req("POST", "/token/expires-soon/rotation"), 400, "expired")
    assert token_store(api.world).by_name["expires-soon"].description == "still alive"


async def test_expiry_cannot_be_set_in_the_past(api: Api) -> None:
    created = await api.create("move-expiry", "30d")
    api.world.clock.advance(2 * DAY_MS)
    # The new expiryStr counts from the issue time: 1d after issue is already past.
    assert_error(await api.req("PUT", "/token/move-expiry", json={"expiryStr": "1d"}), 400, "past")
    assert_error(await api.req("PUT", "/token/move-expiry", json={"expiryStr": "2d"}), 400, "past")
    assert_error(await api.req("PUT", "/token/move-expiry", json={"expiryStr": "3Y"}), 400, "expiryStr")
    stored = token_store(api.world).by_name["move-expiry"]
    assert stored.expiry_ms == created["tokenExpiryMillis"]
    assert (await api.req("PUT", "/token/move-expiry", json={"expiryStr": "3d"})).status_code == 204
    got = (await api.get("move-expiry")).json()["responseObject"]
    assert got["tokenExpiryMillis"] == FIXED_NOW_MS + 3 * DAY_MS
    assert got["expiryStr"] == "3d"


async def test_rename(api: Api) -> None:
    created = await api.create("old-name-1", "7d", tokenDescription="keep")
    assert (await api.req("PUT", "/token/old-name-1", json={"tokenName": "new-name-1"})).status_code == 204
    assert_error(await api.get("old-name-1"), 404)
    got = (await api.get("new-name-1")).json()["responseObject"]
    assert got["tokenDescription"] == "keep"
    assert got["tokenIssueMillis"] == created["tokenIssueMillis"]
    # The value still works and now names the renamed token.
    verified = await api.req("POST", "/token/verification", json={"accessToken": created["tokenValue"]})
    assert verified.json()["responseObject"]["tokenName"] == "new-name-1"


async def test_rename_rules(api: Api) -> None:
    await api.create("rename-src1")
    await api.create("rename-dst1")
    assert_error(await api.req("PUT", "/token/rename-src1", json={"tokenName": "rename-dst1"}), 409, "already exists")
    assert_error(await api.req("PUT", "/token/rename-src1", json={"tokenName": "abc"}), 400, "tokenName")
    assert_error(await api.req("PUT", "/token/rename-src1", json={"tokenName": "bad.name1"}), 400, "tokenName")
    assert "rename-src1" in token_store(api.world).by_name
    # Renaming to the same name is a no-op, not a conflict.
    assert (await api.req("PUT", "/token/rename-src1", json={"tokenName": "rename-src1"})).status_code == 204


async def test_update_cannot_change_username_or_type_and_needs_a_change(api: Api) -> None:
    await api.create("fixed-owner")
    assert_error(await api.req("PUT", "/token/fixed-owner", json={"username": CUSTOMER[0]}), 400, "username")
    assert_error(await api.req("PUT", "/token/fixed-owner", json={"tokenType": "IMPERSONATED"}), 400, "tokenType")
    assert_error(await api.req("PUT", "/token/fixed-owner", json={}), 400, "nothing to update")
    # Sending the unchanged values is allowed.
    ok = await api.req("PUT", "/token/fixed-owner", json={"username": ADMIN[0], "tokenType": "NORMAL", "tokenDescription": "d"})
    assert ok.status_code == 204


async def test_rotation_changes_only_the_value(api: Api) -> None:
    created = await api.create("rotate-me-1", "30d", tokenDescription="desc")
    api.world.clock.advance(DAY_MS)
    rotated = (await api.req("POST", "/token/rotate-me-1/rotation")).json()["responseObject"]
    assert rotated["tokenValue"] != created["tokenValue"]
    assert {k: v for k, v in rotated.items() if k != "tokenValue"} == {k: v for k, v in created.items() if k != "tokenValue"}


async def test_rotation_only_by_creator(api: Api) -> None:
    created = await api.create("rotate-mine1")
    assert_error(await api.req("POST", "/token/rotate-mine1/rotation", user=PRODUCER), 400, "creator")
    assert token_store(api.world).by_name["rotate-mine1"].value == created["tokenValue"]


# -- list and count ----------------------------------------------------------------------------


async def test_list_and_count_need_username_or_creator(api: Api) -> None:
    assert_error(await api.req("GET", "/tokens"), 400, "username or tokenCreator")
    assert_error(await api.req("GET", "/tokens/count"), 400, "username or tokenCreator")
    assert_error(await api.req("GET", "/tokens", params={"username": ""}), 400)


async def test_list_others_forbidden_for_non_privileged(api: Api) -> None:
    for path in ("/tokens", "/tokens/count"):
        assert_error(await api.req("GET", path, user=PRODUCER, params={"username": ADMIN[0]}), 400, "cannot access tokens for other users")
        assert_error(await api.req("GET", path, user=PRODUCER, params={"tokenCreator": ADMIN[0]}), 400, "other users")
        assert (await api.req("GET", path, user=PRODUCER, params={"username": PRODUCER[0]})).status_code == 200
    # A privileged caller may list anyone's.
    rows = await api.listing(username=PRODUCER[0])
    assert rows and all(r["username"] == PRODUCER[0] for r in rows)


@pytest.mark.parametrize(
    "params",
    [{"username": ADMIN[0]}, {"tokenCreator": ADMIN[0]}, {"username": CUSTOMER[0], "tokenCreator": ADMIN[0]}, {"username": CUSTOMER[0]}],
)
async def test_count_matches_list_length(api: Api, params: dict[str, str]) -> None:
    rows = await api.listing(**params)
    count = await api.req("GET", "/tokens/count", params=params)
    assert count.status_code == 200
    assert count.json()["responseObject"] == len(rows)
    assert len(rows) > 0
    for row in rows:
        if "username" in params:
            assert row["username"] == params["username"]
        if "tokenCreator" in params:
            assert row["tokenCreator"] == params["tokenCreator"]


async def test_list_both_criteria_combined_with_and(api: Api) -> None:
    both = {r["tokenName"] for r in await api.listing(username=CUSTOMER[0], tokenCreator=ADMIN[0])}
    by_user = {r["tokenName"] for r in await api.listing(username=CUSTOMER[0])}
    by_creator = {r["tokenName"] for r in await api.listing(tokenCreator=ADMIN[0])}
    assert both == by_user & by_creator
    assert both  # the seeded support-case token


async def test_list_excludes_expired(api: Api) -> None:
    now = api.world.now_ms()
    expired = [t.name for t in token_store(api.world).by_name.values() if t.username == ADMIN[0] and t.expiry_ms <= now]
    assert expired  # the seeded "Expired last week" token
    listed = {r["tokenName"] for r in await api.listing(username=ADMIN[0])}
    assert not listed & set(expired)
    await api.create("gone-tomorrow", "1d")
    assert "gone-tomorrow" in {r["tokenName"] for r in await api.listing(username=ADMIN[0])}
    before = (await api.req("GET", "/tokens/count", params={"username": ADMIN[0]})).json()["responseObject"]
    api.world.clock.advance(DAY_MS)
    assert "gone-tomorrow" not in {r["tokenName"] for r in await api.listing(username=ADMIN[0])}
    after = (await api.req("GET", "/tokens/count", params={"username": ADMIN[0]})).json()["responseObject"]
    assert after < before


async def test_list_paging_page_and_page_size(api: Api) -> None:
    for i in range(7):
        await api.create(f"page-tok-{i}", "30d")
    everything = [r["tokenName"] for r in await api.listing(tokenCreator=ADMIN[0])]
    assert everything == sorted(everything)
    assert len(everything) >= 7
    first = [r["tokenName"] for r in await api.listing(tokenCreator=ADMIN[0], page=0, pageSize=3)]
    second = [r["tokenName"] for r in await api.listing(tokenCreator=ADMIN[0], page=1, pageSize=3)]
    assert first == everything[:3]
    assert second == everything[3:6]
    lower = [r["tokenName"] for r in await api.listing(tokenCreator=ADMIN[0], page=1, pagesize=3)]
    assert lower == second
    beyond = await api.listing(tokenCreator=ADMIN[0], page=1000, pageSize=3)
    assert beyond == []


@pytest.mark.parametrize(
    ("params", "field"),
    [({"pageSize": 0}, "pageSize"), ({"page": -1}, "page"), ({"page": "x"}, "page"), ({"pagesize": "many"}, "pagesize")],
)
async def test_list_paging_bad_values(api: Api, params: dict[str, Any], field: str) -> None:
    assert_error(await api.req("GET", "/tokens", params={"username": ADMIN[0], **params}), 400, field)


# -- search ------------------------------------------------------------------------------------


async def test_search_needs_a_criterion(api: Api) -> None:
    assert_error(await api.search(), 400, "at least one criterion")
    assert_error(await api.search(tokenType="NORMAL"), 400, "at least one criterion")
    assert (await api.search(tokenName="*")).status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"tokenName": "*"}, "page"),
        ({"tokenName": "*", "page": 0}, "pageSize"),
        ({"tokenName": "*", "pageSize": 10}, "page"),
        ({"tokenName": "*", "page": 0, "pageSize": 0}, "pageSize"),
        ({"tokenName": "*", "page": -1, "pageSize": 10}, "page"),
        ({"tokenName": "*", "page": "0", "pageSize": 10}, "page"),
        ({"tokenName": "*", "page": True, "pageSize": 10}, "page"),
        ({"tokenName": "*", "page": 0, "pageSize": 10, "tokenType": "ROOT"}, "tokenType"),
        ({"tokenName": 5, "page": 0, "pageSize": 10}, "tokenName"),
        ({"tokenCreator": ["a"], "page": 0, "pageSize": 10}, "tokenCreator"),
    ],
)
async def test_search_body_rules(api: Api, body: dict[str, Any], field: str) -> None:
    assert_error(await api.req("POST", "/tokens/search", json=body), 400, field)


async def test_search_paging(api: Api) -> None:
    for i in range(5):
        await api.create(f"srch-page-{i}")
    all_names = await api.names(tokenName="srch-page-*")
    assert all_names == [f"srch-page-{i}" for i in range(5)]
    assert await api.names(tokenName="srch-page-*", page=0, pageSize=2) == all_names[:2]
    assert await api.names(tokenName="srch-page-*", page=2, pageSize=2) == all_names[4:]
    assert await api.names(tokenName="srch-page-*", page=3, pageSize=2) == []


async def test_search_wildcard_on_name(api: Api) -> None:
    for name in ("zz-find-one", "zz-find-two", "zz-other-1", "ZZ-FIND-UP"):
        await api.create(name)
    assert await api.names(tokenName="zz-find-*") == ["zz-find-one", "zz-find-two"]
    assert await api.names(tokenName="*find*") == ["zz-find-one", "zz-find-two"]  # case sensitive
    assert await api.names(tokenName="*FIND*") == ["ZZ-FIND-UP"]
    assert await api.names(tokenName="zz-*-one") == ["zz-find-one"]
    # Without an asterisk the name must match exactly, and case matters.
    assert await api.names(tokenName="zz-find-one") == ["zz-find-one"]
    assert await api.names(tokenName="zz-find") == []
    assert await api.names(tokenName="ZZ-FIND-ONE") == []


@pytest.mark.parametrize("pattern", ["zz-*-on?", "zz-find-[o]ne*", "*find-o[!x]e", "zz-find-on?"])
async def test_search_only_asterisk_is_a_wildcard(api: Api, pattern: str) -> None:
    await api.create("zz-find-one")
    await api.create("zz-find-on?x".replace("?", "_"))
    assert await api.names(tokenName=pattern) == []
    assert await api.names(tokenName="zz-*-one") == ["zz-find-one"]


async def test_search_wildcard_on_creator(api: Api) -> None:
    await api.create("by-admin-01")
    await api.create("by-prod-01", user=PRODUCER)
    names = await api.names(tokenCreator="*@flexdemo.example", tokenName="by-*")
    assert names == ["by-admin-01", "by-prod-01"]
    assert await api.names(tokenCreator="admin@*", tokenName="by-*") == ["by-admin-01"]
    response = await api.search(tokenCreator="*@flexdemo.example")
    creators = {t["tokenCreator"] for t in response.json()["responseObject"]}
    assert creators and all(c.endswith("@flexdemo.example") for c in creators)


async def test_search_by_type_and_username(api: Api) -> None:
    response = await api.search(username=CUSTOMER[0], tokenType="IMPERSONATED")
    rows = response.json()["responseObject"]
    assert rows and all(r["tokenType"] == "IMPERSONATED" and r["username"] == CUSTOMER[0] for r in rows)
    assert "Support case investigation" in {r["tokenDescription"] for r in rows}


async def test_search_expiry_windows(api: Api) -> None:
    for name, life in (("win-2d", "2d"), ("win-10d", "10d"), ("win-40d", "40d")):
        await api.create(name, life)
    assert await api.names(tokenName="win-*", expiresBefore="5d") == ["win-2d"]
    assert await api.names(tokenName="win-*", expiresLaterThan="5d") == ["win-10d", "win-40d"]
    assert await api.names(tokenName="win-*", expiresBefore="30d", expiresLaterThan="5d") == ["win-10d"]
    assert await api.names(tokenName="win-*", expiresBefore="1M") == ["win-10d", "win-2d"]


@pytest.mark.parametrize(("before", "later"), [("5d", "30d"), ("5d", "5d"), ("1M", "31d")])
async def test_search_expires_before_must_exceed_later_than(api: Api, before: str, later: str) -> None:
    # November has 30 days, so from 2 November "1M" is 30 days: not after 31 days.
    assert_error(await api.search(tokenName="*", expiresBefore=before, expiresLaterThan=later), 400, "expiresBefore must be greater")


@pytest.mark.parametrize("field", ["expiresBefore", "expiresLaterThan", "issuedBefore"])
async def test_search_interval_fields_use_the_grammar(api: Api, field: str) -> None:
    assert_error(await api.search(**{field: "3Y"}), 400, field)
    assert (await api.search(**{field: "3y 4M"})).status_code == 200


async def test_search_issued_before(api: Api) -> None:
    await api.create("issued-early", "1y")
    api.world.clock.advance(2 * DAY_MS)
    await api.create("issued-late1", "1y")
    assert await api.names(tokenName="issued-*", issuedBefore="1d") == ["issued-early"]
    assert await api.names(tokenName="issued-*", issuedBefore="3d") == []
    assert await api.names(tokenName="issued-*") == ["issued-early", "issued-late1"]


async def test_search_excludes_expired(api: Api) -> None:
    await api.create("srch-expire", "1d")
    assert await api.names(tokenName="srch-expire") == ["srch-expire"]
    api.world.clock.advance(DAY_MS)
    assert await api.names(tokenName="srch-expire") == []


async def test_search_normal_tokens_need_same_creator_and_username(api: Api) -> None:
    bad = await api.search(tokenType="NORMAL", tokenCreator=ADMIN[0], username=CUSTOMER[0])
    assert_error(bad, 400, "must be the same")
    same = await api.search(tokenType="NORMAL", tokenCreator=ADMIN[0], username=ADMIN[0])
    assert same.status_code == 200 and same.json()["responseObject"]
    imp = await api.search(tokenType="IMPERSONATED", tokenCreator=ADMIN[0], username=CUSTOMER[0])
    assert imp.status_code == 200
    assert "Support case investigation" in {t["tokenDescription"] for t in imp.json()["responseObject"]}


async def test_search_others_forbidden_for_non_privileged(api: Api) -> None:
    assert_error(await api.search(user=PRODUCER, tokenCreator=ADMIN[0]), 400, "other users")
    assert_error(await api.search(user=PRODUCER, username=ADMIN[0]), 400, "other users")
    # A wildcard search is allowed but shows only the caller's own tokens.
    response = await api.search(user=PRODUCER, tokenName="*")
    rows = response.json()["responseObject"]
    assert rows
    assert all(PRODUCER[0] in (r["username"], r["tokenCreator"]) for r in rows)


# -- masking ---------------------------------------------------------------------------------


async def test_customer_sees_impersonated_tokens_masked(api: Api) -> None:
    rows = await api.listing(user=CUSTOMER, username=CUSTOMER[0])
    impersonated = [r for r in rows if r["tokenType"] == "IMPERSONATED"]
    normal = [r for r in rows if r["tokenType"] == "NORMAL"]
    assert impersonated and normal
    for row in impersonated:
        assert row["username"] == MASK == "****"
        assert row["tokenCreator"] == MASK
        assert row["tokenDescription"] == MASK
        assert isinstance(row["tokenExpiryMillis"], int) and row["tokenName"] != MASK
    assert "Portal automation" in {r["tokenDescription"] for r in normal}
    assert all(r["username"] == CUSTOMER[0] for r in normal)
    # The creator sees the same token in clear.
    admin_rows = {r["tokenName"]: r for r in await api.listing(username=CUSTOMER[0])}
    for row in impersonated:
        assert admin_rows[row["tokenName"]]["tokenDescription"] not in (MASK, "")
        assert admin_rows[row["tokenName"]]["username"] == CUSTOMER[0]


async def test_customer_search_masks_and_get_masks(api: Api) -> None:
    response = await api.search(user=CUSTOMER, tokenName="*", tokenType="IMPERSONATED")
    rows = response.json()["responseObject"]
    assert rows and all(r["tokenDescription"] == MASK and r["tokenCreator"] == MASK for r in rows)
    name = rows[0]["tokenName"]
    got = (await api.get(name, user=CUSTOMER)).json()["responseObject"]
    assert got["tokenDescription"] == MASK
    clear = (await api.get(name)).json()["responseObject"]
    assert clear["tokenDescription"] != MASK


# -- verify ----------------------------------------------------------------------------------


async def test_verify_valid_token(api: Api) -> None:
    created = await api.create("verify-me-1", "7d", tokenDescription="v")
    response = await api.req("POST", "/token/verification", json={"accessToken": created["tokenValue"]})
    assert response.status_code == 200
    got = response.json()["responseObject"]
    assert got["tokenName"] == "verify-me-1" and got["tokenDescription"] == "v"
    assert "tokenValue" not in got
    # Surrounding whitespace from a paste is tolerated.
    again = await api.req("POST", "/token/verification", json={"accessToken": "  " + created["tokenValue"] + "\n"})
    assert again.status_code == 200


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"accessToken": "rna_" + "0" * 44}, "not valid"),
        ({"accessToken": "abc"}, "rna_"),
        ({"accessToken": ""}, "accessToken"),
        ({}, "accessToken"),
        ({"accessToken": 12}, "accessToken"),
    ],
)
async def test_verify_invalid_inputs(api: Api, body: dict[str, Any], fragment: str) -> None:
    assert_error(await api.req("POST", "/token/verification", json=body), 400, fragment)


async def test_verify_expired_deleted_and_rotated(api: Api) -> None:
    expiring = await api.create("verify-exp1", "1d")
    deleted = await api.create("verify-del1", "30d")
    rotated = await api.create("verify-rot1", "30d")
    assert (await api.req("DELETE", "/token/verify-del1")).status_code == 204
    assert_error(await api.req("POST", "/token/verification", json={"accessToken": deleted["tokenValue"]}), 400, "not valid")
    new_value = (await api.req("POST", "/token/verify-rot1/rotation")).json()["responseObject"]["tokenValue"]
    assert_error(await api.req("POST", "/token/verification", json={"accessToken": rotated["tokenValue"]}), 400, "not valid")
    assert (await api.req("POST", "/token/verification", json={"accessToken": new_value})).status_code == 200
    assert (await api.req("POST", "/token/verification", json={"accessToken": expiring["tokenValue"]})).status_code == 200
    api.world.clock.advance(DAY_MS)
    assert_error(await api.req("POST", "/token/verification", json={"accessToken": expiring["tokenValue"]}), 400, "expired")


async def test_verify_impersonated_masked_unless_creator(api: Api) -> None:
    created = await api.create("verify-imp1", "7d", tokenType="IMPERSONATED", tokenDescription="Reason", username=CUSTOMER[0])
    body = {"accessToken": created["tokenValue"]}
    mine = (await api.req("POST", "/token/verification", json=body)).json()["responseObject"]
    assert mine["tokenDescription"] == "Reason" and mine["username"] == CUSTOMER[0]
    for user in (other_privileged(api.world), CUSTOMER):
        theirs = (await api.req("POST", "/token/verification", user=user, json=body)).json()["responseObject"]
        assert theirs["tokenName"] == "verify-imp1"
        assert theirs["tokenDescription"] == MASK and theirs["username"] == MASK and theirs["tokenCreator"] == MASK


# -- authentication ----------------------------------------------------------------------------


@pytest.mark.parametrize("user", [(ADMIN[0], "wrong-password"), ("nobody@nowhere.example", "x"), (ADMIN[0], "")])
async def test_basic_auth_bad_credentials_401(api: Api, user: tuple[str, str]) -> None:
    response = await api.req("GET", "/tokens", user=user, params={"username": ADMIN[0]})
    assert_error(response, 401)
    assert "basic" in response.headers.get("www-authenticate", "").lower()


async def test_no_or_unknown_authorization_401(api: Api) -> None:
    assert_error(await api.req("GET", "/tokens", user=None, params={"username": ADMIN[0]}), 401, "authentication required")
    client = api.client(None, headers={"Authorization": "Digest abc"})
    assert_error(await client.get(BASE + "/tokens", params={"username": ADMIN[0]}), 401)
    assert_error(await api.req("GET", "/tokens", bearer="not-a-token", params={"username": ADMIN[0]}), 401)
    assert_error(await api.req("GET", "/tokens", bearer="rna_" + "f" * 44, params={"username": ADMIN[0]}), 401)


async def test_bearer_token_authenticates_as_its_user(api: Api) -> None:
    created = await api.create("bearer-tok-1", "30d")
    value = created["tokenValue"]
    listed = await api.req("GET", "/tokens", bearer=value, params={"username": ADMIN[0]})
    assert listed.status_code == 200
    made = await api.req("POST", "/token", bearer=value, json={"tokenName": "made-by-bearer", "expiryStr": "1d", "username": ADMIN[0]})
    assert made.status_code == 201
    assert made.json()["responseObject"]["tokenCreator"] == ADMIN[0]


async def test_bearer_impersonated_token_acts_as_the_customer(api: Api) -> None:
    created = await api.create("bearer-imp-1", "30d", tokenType="IMPERSONATED", tokenDescription="support", username=CUSTOMER[0])
    value = created["tokenValue"]
    assert (await api.req("GET", "/tokens", bearer=value, params={"username": CUSTOMER[0]})).status_code == 200
    assert_error(await api.req("GET", "/tokens", bearer=value, params={"username": ADMIN[0]}), 400, "other users")


async def test_bearer_stops_working_after_delete(api: Api) -> None:
    value = (await api.create("bearer-del-1", "30d"))["tokenValue"]
    assert (await api.req("GET", "/tokens/count", bearer=value, params={"username": ADMIN[0]})).status_code == 200
    assert (await api.req("DELETE", "/token/bearer-del-1")).status_code == 204
    assert_error(await api.req("GET", "/tokens/count", bearer=value, params={"username": ADMIN[0]}), 401)


async def test_bearer_stops_working_after_expiry(api: Api) -> None:
    value = (await api.create("bearer-exp-1", "10m"))["tokenValue"]
    api.world.clock.advance(9 * 60_000)
    assert (await api.req("GET", "/tokens/count", bearer=value, params={"username": ADMIN[0]})).status_code == 200
    api.world.clock.advance(60_000)
    assert_error(await api.req("GET", "/tokens/count", bearer=value, params={"username": ADMIN[0]}), 401)


async def test_bearer_stops_working_after_rotation(api: Api) -> None:
    old = (await api.create("bearer-rot-1", "30d"))["tokenValue"]
    new = (await api.req("POST", "/token/bearer-rot-1/rotation", bearer=old)).json()["responseObject"]["tokenValue"]
    assert_error(await api.req("GET", "/tokens/count", bearer=old, params={"username": ADMIN[0]}), 401)
    assert (await api.req("GET", "/tokens/count", bearer=new, params={"username": ADMIN[0]})).status_code == 200


# -- strings from the server ---------------------------------------------------------------------


async def test_markup_and_control_characters_round_trip_literally(api: Api) -> None:
    description = "[/] \x1b[2J [bold red]x[/] <script>alert(1)</script> \u202e"
    await api.create("markup-desc", "7d", tokenDescription=description)
    got = await api.get("markup-desc")
    assert got.json()["responseObject"]["tokenDescription"] == description
    raw = json.loads(got.content)  # the JSON escape is undone by the decoder, nothing else changed
    assert raw["responseObject"]["tokenDescription"] == description
    rows = await api.listing(username=ADMIN[0])
    assert {r["tokenName"]: r for r in rows}["markup-desc"]["tokenDescription"] == description
    await api.req("PUT", "/token/markup-desc", json={"tokenDescription": description + " again"})
    assert (await api.get("markup-desc")).json()["responseObject"]["tokenDescription"] == description + " again"


async def test_description_length_limit(api: Api) -> None:
    assert_error(
        await api.req("POST", "/token", json={"tokenName": "long-desc1", "expiryStr": "1d", "tokenDescription": "x" * 2001}),
        400,
        "tokenDescription",
    )
    assert (
        await api.req(
            "POST", "/token", json={"tokenName": "long-desc2", "expiryStr": "1d", "tokenDescription": "x" * 2000, "username": ADMIN[0]}
        )
    ).status_code == 201


async def test_unknown_endpoint_uses_token_error_shape(api: Api) -> None:
    assert_error(await api.req("GET", "/nothing-here"), 404, "no such endpoint")
