"""The simulated registry service keeps the seed-001 contract and the choices its docstring records.

Driven over the ASGI app in process with a plain httpx client, so these tests
see exactly the HTTP a real client would: status codes, `{"message"}` bodies,
headers, and the raw shapes (snake_case list, camelCase detail, Harbor
artifacts, Java timestamps).

The app speaks the simulator's default, STRICT: pages of at most 100 and no
`%2F` in a path (a repository is addressed by its short name, or its full
name with raw slashes). Tests named `…lenient_dialect…` check what the reading
without any dialect accepts on top (`lenient_client`).
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from flextui.api.timestamps import parse_timestamp
from flextui.sim.app import SIM_BASE_URL, in_process_transport
from flextui.sim.registry import HELLO, registry_store, set_jwt_lifetime
from flextui.sim.world import ADMIN, CUSTOMER, PRODUCER, Clock, World

R = "/registry/api/v1"
JAVA_DATE = re.compile(
    r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{2}:\d{2}:\d{2} UTC \d{4}$"
)
JAVA_MEDIUM = re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} (AM|PM)$")


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def basic(user: tuple[str, str], scheme: str = "Basic") -> dict[str, str]:
    return {"Authorization": f"{scheme} {b64(':'.join(user))}"}


def claims_of(jwt: str) -> dict[str, Any]:
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


@pytest.fixture
async def client(sim_app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=in_process_transport(sim_app), base_url=SIM_BASE_URL) as c:
        yield c


async def jwt_for(client: httpx.AsyncClient, user: tuple[str, str] = PRODUCER) -> str:
    response = await client.get(f"{R}/authenticate", headers=basic(user))
    assert response.status_code == 200, response.text
    return response.text


@pytest.fixture
async def auth(client: httpx.AsyncClient, world: World) -> dict[str, str]:
    return {"Authorization": f"Bearer {await jwt_for(client)}", "x-publisherid": world.tenant_id}


@pytest.fixture
async def lenient_client(lenient_app: Any) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the same world's simulator speaking no dialect (the lenient reading); `auth` works on it too."""
    async with httpx.AsyncClient(transport=in_process_transport(lenient_app), base_url=SIM_BASE_URL) as c:
        yield c


MAX_PAGE = 100  # the documented (Harbor) page_size maximum the strict default allows


async def every_row(client: httpx.AsyncClient, url: str, auth: dict[str, str], **params: Any) -> list[dict[str, Any]]:
    """Every row of a registry list, read in pages of the documented maximum until X-Total-Count rows have come."""
    rows: list[dict[str, Any]] = []
    page = 1
    while True:
        response = await client.get(url, params={**params, "page": page, "pageSize": MAX_PAGE}, headers=auth)
        assert response.status_code == 200, response.text
        rows += response.json()
        total = int(response.headers["X-Total-Count"])
        if len(rows) >= total or not response.json():
            assert len(rows) == total
            return rows
        page += 1


# -- authentication -----------------------------------------------------------------------------


async def test_authenticate_returns_a_bare_hs256_jwt_for_a_producer(client: httpx.AsyncClient, world: World) -> None:
    response = await client.get(f"{R}/authenticate", headers=basic(PRODUCER))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    header, _, _ = response.text.split(".")
    assert json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4))) == {"alg": "HS256", "typ": "JWT"}
    claims = claims_of(response.text)
    assert claims["sub"] == PRODUCER[0] and claims["tenant"] == world.tenant_id
    assert claims["exp"] - claims["iat"] == 3600
    assert claims["iat"] == world.now_ms() // 1000


async def test_authenticate_accepts_the_fno_scheme_and_can_answer_json(client: httpx.AsyncClient, world: World) -> None:
    fno = await client.get(f"{R}/authenticate", headers=basic(ADMIN, "Fno"))
    assert fno.status_code == 200 and fno.text.count(".") == 2
    registry_store(world).auth_response = "json"
    answer = await client.get(f"{R}/authenticate", headers=basic(ADMIN))
    body = answer.json()
    assert body["token"].count(".") == 2 and body["expiresIn"] == 3600
    assert parse_timestamp(body["expiresAt"]).timestamp() == claims_of(body["token"])["exp"]


@pytest.mark.parametrize(
    ("headers", "status", "phrase"),
    [
        ({}, 401, "Basic"),
        ({"Authorization": "Bearer abc"}, 401, "Basic"),
        (basic((PRODUCER[0], "wrong")), 401, "Authentication failed"),
        (basic(CUSTOMER), 403, "View and Manage Download Packages"),
    ],
)
async def test_authenticate_refusals(client: httpx.AsyncClient, headers: dict[str, str], status: int, phrase: str) -> None:
    response = await client.get(f"{R}/authenticate", headers=headers)
    assert response.status_code == status
    assert phrase in response.json()["message"]


async def test_calls_need_a_valid_bearer_jwt(client: httpx.AsyncClient, world: World) -> None:
    tenant = {"x-publisherid": world.tenant_id}
    missing = await client.get(f"{R}/projects", headers=tenant)
    assert missing.status_code == 401 and "Bearer" in missing.json()["message"]
    basic_only = await client.get(f"{R}/projects", headers={**tenant, **basic(PRODUCER)})
    assert basic_only.status_code == 401
    jwt = await jwt_for(client)
    head, payload, sig = jwt.split(".")
    forged_claims = {**claims_of(jwt), "sub": ADMIN[0]}
    forged = base64.urlsafe_b64encode(json.dumps(forged_claims).encode()).rstrip(b"=").decode()
    for bad in ("not-a-jwt", f"{head}.{forged}.{sig}", f"{head}.{payload}.{sig[:-2]}xx"):
        response = await client.get(f"{R}/projects", headers={**tenant, "Authorization": f"Bearer {bad}"})
        assert response.status_code == 401, bad
        assert response.json()["message"]


async def test_x_publisherid_is_required_and_must_be_the_tenant(client: httpx.AsyncClient, world: World) -> None:
    bearer = {"Authorization": f"Bearer {await jwt_for(client)}"}
    missing = await client.get(f"{R}/projects", headers=bearer)
    assert missing.status_code == 400
    assert "x-publisherid" in missing.json()["message"] and world.tenant_id in missing.json()["message"]
    wrong = await client.get(f"{R}/projects", headers={**bearer, "x-publisherid": "9999"})
    assert wrong.status_code == 403
    message = wrong.json()["message"]
    assert "x-publisherid" in message and "9999" in message and f"expected {world.tenant_id}" in message


async def test_jwt_expires_after_its_lifetime(client: httpx.AsyncClient, world: World, clock: Clock) -> None:
    set_jwt_lifetime(world, 120)
    headers = {"Authorization": f"Bearer {await jwt_for(client)}", "x-publisherid": world.tenant_id}
    assert (await client.get(f"{R}/projects", headers=headers)).status_code == 200
    clock.advance(119_000)
    assert (await client.get(f"{R}/projects", headers=headers)).status_code == 200
    clock.advance(1_000)
    expired = await client.get(f"{R}/projects", headers=headers)
    assert expired.status_code == 401 and "expired" in expired.json()["message"]
    fresh = {"Authorization": f"Bearer {await jwt_for(client)}", "x-publisherid": world.tenant_id}
    assert (await client.get(f"{R}/projects", headers=fresh)).status_code == 200


# -- projects -----------------------------------------------------------------------------------------


async def test_project_list_is_sorted_snake_case_and_paged_from_one(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    store = registry_store(world)
    first = await client.get(f"{R}/projects", params={"page": 1, "pageSize": 15}, headers=auth)
    second = await client.get(f"{R}/projects", params={"page": 2, "pageSize": 15}, headers=auth)
    assert first.status_code == second.status_code == 200
    assert int(first.headers["X-Total-Count"]) == len(store.projects) >= 40
    rows = first.json() + second.json()
    assert len(rows) == 30 and isinstance(first.json(), list)
    names = [r["name"] for r in rows]
    assert names == sorted(store.projects)[:30]
    assert set(rows[0]) == {"project_id", "name", "repo_count", "chart_count", "creation_time", "update_time"}
    for row in rows:
        assert JAVA_DATE.match(row["creation_time"]) and JAVA_DATE.match(row["update_time"])
        assert parse_timestamp(row["creation_time"]) <= parse_timestamp(row["update_time"])
    default = await client.get(f"{R}/projects", headers=auth)
    assert [r["name"] for r in default.json()] == names[:10]
    beyond = await client.get(f"{R}/projects", params={"page": 999, "pageSize": 50}, headers=auth)
    assert beyond.status_code == 200 and beyond.json() == []


@pytest.mark.parametrize(
    ("params", "phrase"),
    [
        ({"page": "0"}, "'page' must be at least 1"),
        ({"page": "x"}, "'page' must be a whole number"),
        ({"pageSize": "101"}, "'pageSize' must be at most 100"),
    ],
)
async def test_project_list_rejects_bad_paging(
    client: httpx.AsyncClient, auth: dict[str, str], params: dict[str, str], phrase: str
) -> None:
    response = await client.get(f"{R}/projects", params=params, headers=auth)
    assert response.status_code == 400 and phrase in response.json()["message"]


async def test_lenient_dialect_allows_pages_up_to_1000(lenient_client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    """The lenient dialect (no dialect): projects and downloads take pageSize up to 1000, the STRICT default 100."""
    store = registry_store(world)
    rows = (await lenient_client.get(f"{R}/projects", params={"pageSize": 1000}, headers=auth)).json()
    assert [r["name"] for r in rows] == sorted(store.projects)
    refused = await lenient_client.get(f"{R}/projects", params={"pageSize": "1001"}, headers=auth)
    assert refused.status_code == 400 and "'pageSize' must be at most 1000" in refused.json()["message"]
    year = await lenient_client.get(f"{R}/downloads", params={"year": 2026, "page": 1, "pageSize": 1000}, headers=auth)
    assert len(year.json()) == int(year.headers["X-Total-Count"]) == len(store.downloads(2026, None)) > MAX_PAGE
    # Artifacts and members keep Harbor's 100 in every dialect.
    members = await lenient_client.get(f"{R}/projects/{HELLO}/members", params={"page_size": 101}, headers=auth)
    assert members.status_code == 400 and "page_size" in members.json()["message"]


async def test_strict_default_allows_pages_up_to_100(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    for url, params in ((f"{R}/projects", {}), (f"{R}/downloads", {"year": 2026, "page": 1})):
        assert (await client.get(url, params={**params, "pageSize": MAX_PAGE}, headers=auth)).status_code == 200, url
        refused = await client.get(url, params={**params, "pageSize": 1000}, headers=auth)
        assert refused.status_code == 400 and "'pageSize' must be at most 100" in refused.json()["message"], url


async def test_project_detail_follows_the_docs_sample(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    response = await client.get(f"{R}/projects/{HELLO}", headers=auth)
    assert response.status_code == 200
    body = response.json()
    assert body["downloadPackageId"] == HELLO and body["id"] == 369 and body["sysDownloadPackageId"] == 8592822
    assert body["effectiveDateTimestamp"] == "Aug 4, 2021, 7:00:00 AM"
    assert body["expirationDateTimestamp"] == "Aug 4, 2025, 7:00:00 AM"
    assert body["tenantId"] == world.tenant_id
    assert body["repositories"] == [
        {"pullCount": 3, "artifactCount": 1, "projectId": 11, "repositoryName": "hello-world-dp/hello-world-image", "projectPublic": False}
    ]
    chart = body["charts"][0]
    assert chart["name"] == "hello-world-dp/hello-world-chart" and chart["score"] == 0
    assert chart["chart"]["digest"].startswith("b60b767e") and chart["chart"]["digest"].endswith("24cc")
    assert chart["chart"]["created"] == "2021-08-05T11:51:04Z"
    assert chart["chart"]["urls"] == ["hello-world-dp/charts/hello-world-chart-0.1.0.tgz"]
    assert {"name", "version", "apiVersion", "home", "keywords", "description"} <= set(chart["chart"])
    prefixed = await client.get(f"{R}/projects/{world.tenant_id}-{HELLO}", headers=auth)
    assert prefixed.status_code == 404, "the docs say to omit the shared-registry prefix in paths: a prefixed name is not found"


async def test_generated_project_detail_matches_its_list_row(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    rows = await every_row(client, f"{R}/projects", auth)
    row = next(r for r in rows if r["repo_count"] >= 2 and r["chart_count"] >= 1)
    body = (await client.get(f"{R}/projects/{row['name']}", headers=auth)).json()
    assert len(body["repositories"]) == row["repo_count"] and len(body["charts"]) == row["chart_count"]
    assert all(r["repositoryName"].startswith(row["name"] + "/") for r in body["repositories"])
    assert JAVA_MEDIUM.match(body["effectiveDateTimestamp"])
    assert body["supportsDockerImagesAndHelmCharts"] is True


async def test_unknown_project_is_404_with_message(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    for path in (
        "/projects/no-such",
        "/projects/no-such/members",
        "/projects/no-such/charts/x",
        "/projects/no-such/repositories/x/artifacts",
        "/projects/no-such/repositories/no-such/x/artifacts",
    ):
        response = await client.get(R + path, headers=auth)
        assert response.status_code == 404 and response.json() == {"message": "Project not found"}, path


# -- charts -------------------------------------------------------------------------------------------


async def test_chart_detail_lists_every_version(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    store = registry_store(world)
    project = next(p for p in store.sorted_projects() if p.chart_names)
    chart = project.chart_names[0]
    short = await client.get(f"{R}/projects/{project.name}/charts/{chart}", headers=auth)
    full = await client.get(f"{R}/projects/{project.name}/charts/{project.name}/{chart}", headers=auth)
    assert short.status_code == full.status_code == 200 and short.json() == full.json()
    body = short.json()
    assert body["name"] == chart and body["project"] == project.name
    versions = body["versions"]
    assert len(versions) == len(store.charts(project)[chart].versions) >= 1
    assert body["latestVersion"] == versions[0]["version"]
    created = [parse_timestamp(v["created"]) for v in versions]
    assert created == sorted(created, reverse=True)
    for v in versions:
        assert re.fullmatch(r"[0-9a-f]{64}", v["digest"]) and v["urls"] and "appVersion" in v


async def test_delete_chart_removes_it(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    path = f"{R}/projects/{HELLO}/charts/hello-world-chart"
    deleted = await client.delete(path, headers=auth)
    assert deleted.status_code == 200 and deleted.content == b""
    assert (await client.get(path, headers=auth)).status_code == 404
    again = await client.delete(path, headers=auth)
    assert again.status_code == 404 and "Chart not found" in again.json()["message"]
    detail = (await client.get(f"{R}/projects/{HELLO}", headers=auth)).json()
    assert detail["charts"] == [] and detail["supportsDockerImagesAndHelmCharts"] is False
    rows = await every_row(client, f"{R}/projects", auth)
    assert next(r for r in rows if r["name"] == HELLO)["chart_count"] == 0


# -- members --------------------------------------------------------------------------------------------


async def test_members_are_producers_and_entitled_customers(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    response = await client.get(f"{R}/projects/{HELLO}/members", params={"page_size": 100}, headers=auth)
    members = response.json()
    names = [m["entityName"] for m in members]
    assert int(response.headers["X-Total-Count"]) == len(members)
    assert ADMIN[0] in names and PRODUCER[0] in names and CUSTOMER[0] in names
    assert set(members[0]) == {"id", "projectId", "entityName", "entityType", "entityId", "roleName", "roleId"}
    assert all(m["projectId"] == 11 and m["entityType"] == "u" for m in members)
    roles = {m["entityName"]: m["roleName"] for m in members}
    assert roles[ADMIN[0]] == "projectAdmin" and roles[PRODUCER[0]] == "maintainer" and roles[CUSTOMER[0]] == "guest"
    acme = {u.username for u in world.users.values() if u.account_id == world.users[CUSTOMER[0]].account_id and u.status == "active"}
    assert {n for n in names if not n.endswith("@flexdemo.example")} == acme


async def test_members_page_and_user_filter(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    url = f"{R}/projects/{HELLO}/members"
    everyone = (await client.get(url, params={"page_size": 100}, headers=auth)).json()
    default = (await client.get(url, headers=auth)).json()
    assert default == everyone[:10]
    second = (await client.get(url, params={"page": 2, "page_size": 3}, headers=auth)).json()
    assert second == everyone[3:6]
    one = (await client.get(url, params={"user_id": CUSTOMER[0].upper()}, headers=auth)).json()
    assert [m["entityName"] for m in one] == [CUSTOMER[0]]
    assert (await client.get(url, params={"user_id": "nobody@x.example"}, headers=auth)).json() == []
    bad = await client.get(url, params={"page_size": "101"}, headers=auth)
    assert bad.status_code == 400 and "page_size" in bad.json()["message"]


async def test_generated_project_members_follow_entitlements(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    store = registry_store(world)
    project = next(p for p in store.sorted_projects() if p.product is not None)
    accounts = {
        e.account_id
        for e in world.entitlements.values()
        if e.status not in ("DRAFT", "OBSOLETE") and any(li.product.name == project.product.name for li in e.line_items)
    }
    members = (await client.get(f"{R}/projects/{project.name}/members", params={"page_size": 100}, headers=auth)).json()
    customers = [world.users[m["entityName"]] for m in members if m["roleName"] == "guest"]
    assert all(u.account_id in accounts for u in customers)
    expected = {u.username for u in world.users.values() if u.kind == "customer" and u.status == "active" and u.account_id in accounts}
    assert {u.username for u in customers} == expected


# -- repositories and artifacts ----------------------------------------------------------------------


async def test_artifacts_accept_every_repository_name_form(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    """Every form the strict default takes; the `%2F`-encoded path forms are refused before routing."""
    base = f"{R}/projects/{HELLO}/repositories"
    forms = [
        f"{base}/{HELLO}/hello-world-image/artifacts",
        f"{base}/hello-world-image/artifacts",
        f"{base}/artifacts?repository_name={HELLO}%2Fhello-world-image",  # %2F in the query, not the path
        f"{base}/artifacts?repository_name=hello-world-image",
    ]
    answers = []
    for url in forms:
        response = await client.get(url, headers=auth)
        assert response.status_code == 200, url
        answers.append(response.json())
    assert all(a == answers[0] for a in answers)
    [artifact] = answers[0]
    assert artifact["type"] == "IMAGE" and artifact["digest"].startswith("sha256:") and artifact["size"] > 0
    assert [t["name"] for t in artifact["tags"]] == ["latest"]
    assert parse_timestamp(artifact["push_time"]) is not None
    missing = await client.get(f"{base}/artifacts", headers=auth)
    assert missing.status_code == 400 and "repository" in missing.json()["message"]
    unknown = await client.get(f"{base}/nope/artifacts", headers=auth)
    assert unknown.status_code == 404 and "Repository not found" in unknown.json()["message"]
    for encoded in (f"{base}/{HELLO}%2Fhello-world-image/artifacts", f"{base}/{HELLO}%252Fhello-world-image/artifacts"):
        refused = await client.get(encoded, headers=auth)
        assert refused.status_code == 400 and "potentially malicious" in refused.json()["message"], encoded


async def test_lenient_dialect_accepts_every_repository_and_chart_name_form(
    lenient_client: httpx.AsyncClient, auth: dict[str, str], world: World
) -> None:
    """The lenient dialect (no dialect): the full name `%2F`-encoded or Harbor's double `%252F` works too."""
    base = f"{R}/projects/{HELLO}/repositories"
    forms = [
        f"{base}/{HELLO}%2Fhello-world-image/artifacts",
        f"{base}/{HELLO}/hello-world-image/artifacts",
        f"{base}/hello-world-image/artifacts",
        f"{base}/{HELLO}%252Fhello-world-image/artifacts",
        f"{base}/artifacts?repository_name={HELLO}%2Fhello-world-image",
        f"{base}/artifacts?repository_name=hello-world-image",
    ]
    answers = []
    for url in forms:
        response = await lenient_client.get(url, headers=auth)
        assert response.status_code == 200, url
        answers.append(response.json())
    assert all(a == answers[0] for a in answers) and len(answers[0]) == 1
    unknown = await lenient_client.get(f"{base}/{HELLO}%2Fnope/artifacts", headers=auth)
    assert unknown.status_code == 404 and "Repository not found" in unknown.json()["message"]
    no_project = await lenient_client.get(f"{R}/projects/no-such/repositories/no-such%2Fx/artifacts", headers=auth)
    assert no_project.status_code == 404 and no_project.json() == {"message": "Project not found"}
    short = await lenient_client.get(f"{R}/projects/{HELLO}/charts/hello-world-chart", headers=auth)
    full = await lenient_client.get(f"{R}/projects/{HELLO}/charts/{HELLO}%2Fhello-world-chart", headers=auth)
    assert short.status_code == full.status_code == 200 and short.json() == full.json()
    store = registry_store(world)
    project = next(p for p in store.sorted_projects() if len(p.image_names) >= 1)
    first = project.image_names[0]
    by_encoded_path = await lenient_client.delete(f"{R}/projects/{project.name}/repositories/{project.name}%2F{first}", headers=auth)
    assert by_encoded_path.status_code == 200 and by_encoded_path.content == b""
    assert first not in store.repositories(project)


async def test_artifacts_are_paged_newest_first_with_harbor_flags(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    store = registry_store(world)
    project, repo = next((p, r) for p in store.sorted_projects() for r in store.repositories(p).values() if r.artifact_count >= 5)
    url = f"{R}/projects/{project.name}/repositories/{repo.name}/artifacts"
    everything = await client.get(url, params={"pageSize": 100}, headers=auth)
    items = everything.json()
    assert len(items) == repo.artifact_count == int(everything.headers["X-Total-Count"])
    pushed = [parse_timestamp(a["push_time"]) for a in items]
    assert pushed == sorted(pushed, reverse=True)
    assert "latest" in [t["name"] for t in items[0]["tags"]]
    page2 = (await client.get(url, params={"page": 2, "pageSize": 2}, headers=auth)).json()
    assert [a["id"] for a in page2] == [a["id"] for a in items[2:4]]
    bare = (await client.get(url, params={"withTag": "false"}, headers=auth)).json()
    assert all("tags" not in a for a in bare) and all("labels" not in a for a in bare)
    rich = (
        await client.get(
            url,
            params={"withImmutableStatus": "TRUE", "withSignature": "true", "withLabel": "true", "withScanOverview": "true"},
            headers=auth,
        )
    ).json()
    tagged = [t for a in rich for t in a["tags"]]
    assert tagged and all("immutable" in t and "signed" in t for t in tagged)
    assert all(a["labels"] == [] and "scan_overview" in a for a in rich)
    bad = await client.get(url, params={"withTag": "yes"}, headers=auth)
    assert bad.status_code == 400 and "withTag" in bad.json()["message"]


async def test_delete_repository_by_path_and_by_query(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    store = registry_store(world)
    project = next(p for p in store.sorted_projects() if len(p.image_names) >= 2)
    first, second = project.image_names[:2]
    before = len(project.image_names)
    by_path = await client.delete(f"{R}/projects/{project.name}/repositories/{first}", headers=auth)
    assert by_path.status_code == 200 and by_path.content == b""
    by_query = await client.delete(
        f"{R}/projects/{project.name}/repositories", params={"repository_name": f"{project.name}/{second}"}, headers=auth
    )
    assert by_query.status_code == 200
    detail = (await client.get(f"{R}/projects/{project.name}", headers=auth)).json()
    names = [r["repositoryName"] for r in detail["repositories"]]
    assert f"{project.name}/{first}" not in names and f"{project.name}/{second}" not in names
    assert len(names) == before - 2
    again = await client.delete(f"{R}/projects/{project.name}/repositories/{project.name}/{first}", headers=auth)
    assert again.status_code == 404 and "Repository not found" in again.json()["message"]
    gone = await client.get(f"{R}/projects/{project.name}/repositories/{first}/artifacts", headers=auth)
    assert gone.status_code == 404


# -- downloads -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "phrase"),
    [
        ({"page": 1, "pageSize": 10}, "Missing required query parameter: year"),
        ({"year": 2026}, "Missing required query parameters: page, pageSize"),
        ({"year": 2026, "month": 13, "page": 1, "pageSize": 10}, "'month' must be at most 12"),
        ({"year": 2026, "month": 0, "page": 1, "pageSize": 10}, "'month' must be at least 1"),
        ({"year": "twenty", "page": 1, "pageSize": 10}, "'year' must be a whole number"),
    ],
)
async def test_downloads_validate_their_parameters(
    client: httpx.AsyncClient, auth: dict[str, str], params: dict[str, Any], phrase: str
) -> None:
    response = await client.get(f"{R}/downloads", params=params, headers=auth)
    assert response.status_code == 400
    message = response.json()["message"]
    assert message.startswith("Bad request format.") and phrase in message


async def test_downloads_are_a_bare_newest_first_array(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    response = await client.get(f"{R}/downloads", params={"year": 2026, "month": 10, "page": 1, "pageSize": MAX_PAGE}, headers=auth)
    rows = response.json()
    assert isinstance(rows, list) and rows and int(response.headers["X-Total-Count"]) == len(rows), "the whole month on one page"
    assert set(rows[0]) == {"id", "artifact", "username", "account", "timestamp"}
    times = [parse_timestamp(r["timestamp"]) for r in rows]
    assert all(JAVA_DATE.match(r["timestamp"]) for r in rows)
    assert all(t.year == 2026 and t.month == 10 for t in times)
    assert times == sorted(times, reverse=True)
    assert [r["id"] for r in rows] == sorted((r["id"] for r in rows), reverse=True)
    assert all("/" in r["artifact"] and r["username"] in world.users for r in rows)
    store = registry_store(world)
    total = sum(len(store.downloads(y, None)) for y in range(2024, 2027))
    assert total == world.count(500)
    page = (await client.get(f"{R}/downloads", params={"year": 2026, "month": 10, "page": 2, "pageSize": 5}, headers=auth)).json()
    assert page == rows[5:10]


async def test_downloads_filters_and_whole_year(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    url = f"{R}/downloads"
    year = await every_row(client, url, auth, year=2026)
    assert len(year) > MAX_PAGE, "the whole year spans several pages"
    sample = year[0]
    by_user = await every_row(client, url, auth, year=2026, username=sample["username"].upper())
    assert by_user and all(r["username"] == sample["username"] for r in by_user)
    assert len(by_user) == sum(r["username"] == sample["username"] for r in year)
    by_account = await every_row(client, url, auth, year=2026, account=names(sample)[0])
    assert by_account and all(names(sample)[0] in names(r) for r in by_account)
    project = sample["artifact"].split("/")[0]
    by_project = await every_row(client, url, auth, year=2026, project=project)
    assert by_project and all(r["artifact"].startswith(project + "/") for r in by_project)
    future = (await client.get(url, params={"year": 2030, "page": 1, "pageSize": 10}, headers=auth)).json()
    assert future == []


def names(row: dict[str, Any]) -> list[str]:
    """The account names of a log entry's `account`, a Java list printed as text: "[a, b]" → ["a", "b"]."""
    text = row["account"]
    assert text.startswith("[") and text.endswith("]"), text
    return [part.strip() for part in text[1:-1].split(",")]


async def test_download_accounts_are_the_docs_java_list(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    """The docs' sample has "account": "[test_acc1]" (RESTSWContDelivDownLogs.htm): the user's accounts as a Java list
    printed as text; a user of two accounts is "[a, b]", and the `account` filter finds the entry by either (name or ID)."""
    url = f"{R}/downloads"
    year = await every_row(client, url, auth, year=2026)
    assert all(re.fullmatch(r"\[[^\[\],]+(, [^\[\],]+)*\]", r["account"]) for r in year), "every entry in the documented form"
    two = next(r for r in year if len(names(r)) == 2)
    assert sum(len(names(r)) == 2 for r in year) < len(year) / 2, "most users have one account"
    second = names(two)[1]
    second_id = next(a.account_id for a in world.accounts.values() if a.name == second)
    for wanted in (second, second_id.lower()):
        found = await every_row(client, url, auth, year=2026, account=wanted)
        assert two in found and all(second in names(r) for r in found)


# -- events and secrets ---------------------------------------------------------------------------------


async def test_event_status_rules(client: httpx.AsyncClient, auth: dict[str, str], world: World) -> None:
    ok = await client.get(f"{R}/event/{CUSTOMER[0]}/status", params={"entity_type": "USER"}, headers=auth)
    assert ok.status_code == 200 and ok.json() == {"status": "Processed"}
    statuses = set()
    for user in list(world.users)[:60]:
        response = await client.get(f"{R}/event/{user}/status", params={"entity_type": "USER"}, headers=auth)
        statuses.add(response.json()["status"])
    assert statuses <= {"Processed", "In-Progress", "Cancelled"} and len(statuses) >= 2
    for params in ({}, {"entity_type": "GROUP"}):
        bad = await client.get(f"{R}/event/{CUSTOMER[0]}/status", params=params, headers=auth)
        assert bad.status_code == 400 and bad.json() == {"message": "Invalid Entity_Type. Supported types: [USER]"}
    unknown = await client.get(f"{R}/event/ghost@nowhere.example/status", params={"entity_type": "USER"}, headers=auth)
    assert unknown.status_code == 404 and unknown.json() == {"message": "No record found!"}


async def test_secret_is_the_callers_own_base64(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    plain = await client.get(f"{R}/secret", headers=auth)
    mine = await client.get(f"{R}/secret/{PRODUCER[0]}", headers=auth)
    assert plain.status_code == mine.status_code == 200
    assert plain.headers["content-type"].startswith("text/plain") and plain.text == mine.text
    secret = base64.b64decode(plain.text).decode()
    assert len(secret) >= 8 and any(c.isupper() for c in secret) and any(c.islower() for c in secret) and any(c.isdigit() for c in secret)
    other = await client.get(f"{R}/secret/{ADMIN[0]}", headers=auth)
    assert other.status_code == 403 and PRODUCER[0] in other.json()["message"]


@pytest.mark.parametrize(
    ("value", "rules"),
    [
        ("Ab1", ["at least 8 characters (it has 3)"]),
        ("alllowercase1", ["at least one uppercase letter"]),
        ("ALLUPPERCASE1", ["at least one lowercase letter"]),
        ("NoDigitsHere", ["at least one digit"]),
        ("short", ["at least 8 characters (it has 5)", "at least one uppercase letter", "at least one digit"]),
    ],
)
async def test_put_secret_names_every_broken_rule(client: httpx.AsyncClient, auth: dict[str, str], value: str, rules: list[str]) -> None:
    before = (await client.get(f"{R}/secret", headers=auth)).text
    response = await client.put(f"{R}/secret", json={"new-password": value}, headers=auth)
    assert response.status_code == 400
    message = response.json()["message"]
    for rule in rules:
        assert rule in message
    all_rules = ["8 characters", "uppercase", "lowercase", "digit"]
    assert sum(r in message for r in all_rules) == len(rules)
    assert (await client.get(f"{R}/secret", headers=auth)).text == before


async def test_put_secret_sets_given_or_random(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    given = await client.put(f"{R}/secret", json={"new-password": "Sturdy-Secret-9"}, headers=auth)
    assert given.status_code == 200 and base64.b64decode(given.text).decode() == "Sturdy-Secret-9"
    assert (await client.get(f"{R}/secret", headers=auth)).text == given.text
    seen = set()
    for body in ({"new-password": ""}, {}, None):
        response = (
            await client.put(f"{R}/secret", json=body, headers=auth) if body is not None else await client.put(f"{R}/secret", headers=auth)
        )
        assert response.status_code == 200
        secret = base64.b64decode(response.text).decode()
        assert len(secret) == 16 and any(c.isupper() for c in secret) and any(c.isdigit() for c in secret)
        seen.add(secret)
    assert len(seen) == 3
    current = base64.b64decode((await client.get(f"{R}/secret", headers=auth)).text).decode()
    docs_form = await client.put(f"{R}/secret", json={"existing-secret": b64(current), "new-secret": "Docs-Form-42"}, headers=auth)
    assert docs_form.status_code == 200 and base64.b64decode(docs_form.text).decode() == "Docs-Form-42"
    wrong = await client.put(f"{R}/secret", json={"existing-secret": b64("nope"), "new-secret": "Other-Form-42"}, headers=auth)
    assert wrong.status_code == 400 and "existing-secret" in wrong.json()["message"]


# -- scale and determinism ---------------------------------------------------------------------------------


def test_generation_is_deterministic() -> None:
    a, b = World(seed=3, clock=Clock(1_790_000_000_000)), World(seed=3, clock=Clock(1_790_000_000_000))
    sa, sb = registry_store(a), registry_store(b)
    assert [p.name for p in sa.sorted_projects()] == [p.name for p in sb.sorted_projects()]
    name = sa.sorted_projects()[5].name
    pa, pb = sa.project(name), sb.project(name)
    assert [(r.name, r.artifact_count) for r in sa.repositories(pa).values()] == [
        (r.name, r.artifact_count) for r in sb.repositories(pb).values()
    ]
    assert [d.artifact for d in sa.downloads(2026, None)] == [d.artifact for d in sb.downloads(2026, None)]
    other = registry_store(World(seed=4, clock=Clock(1_790_000_000_000)))
    assert [p.name for p in other.sorted_projects()] != [p.name for p in sa.sorted_projects()]


def test_large_scale_is_big() -> None:
    """2,000+ projects and 50,000+ downloads at scale 100 (how fast: bench/bench_sim_scale.py)."""
    world = World(seed=7, scale=100, clock=Clock(1_790_000_000_000))
    store = registry_store(world)
    assert len(store.projects) >= 2000 and len(set(store.projects)) == len(store.projects)
    total = sum(len(store.downloads(y, None)) for y in range(2023, 2027))
    assert total >= 50_000
