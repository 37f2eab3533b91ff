"""The registry data layer: JWT flow, tolerant models, paging, caching, read-only, secrecy.

Runs against the in-process simulator (and once over real HTTP on loopback).
Request counts come from `Session.requests_sent` and `RegistryAuth.authentications`,
so "no request repeated" and "authenticated once" are measured, not assumed.
"""

from __future__ import annotations

import asyncio
import base64
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from flextui.api.auth import Credentials, MissingCredential
from flextui.api.cache import PageCache
from flextui.api.errors import BadRequest, Forbidden, NotFound, Offline, ReadOnly, ServerError, Unauthorized
from flextui.api.http import RetryPolicy, Service, Session
from flextui.api.registry import (
    Artifact,
    ChartDetail,
    Download,
    EventStatus,
    Project,
    ProjectDetail,
    RegistryAuth,
    RegistryService,
    decode_secret,
    extract_jwt,
    months_between,
    parse_accounts,
    secret_problems,
)
from flextui.api.timestamps import TimestampError, java_date_string, java_medium_string, parse_timestamp
from flextui.sim.app import SIM_BASE_URL
from flextui.sim.faults import FaultPlan
from flextui.sim.registry import HELLO, registry_store, set_jwt_lifetime
from flextui.sim.world import ADMIN, CUSTOMER, PRODUCER, Clock, World

from ..conftest import make_session


def registry(session: Session, world: World, user: tuple[str, str] = PRODUCER, tenant: str | None = None) -> RegistryService:
    return RegistryService(session, *user, tenant_id=tenant or world.tenant_id)


@pytest.fixture
def reg(session: Session, world: World) -> RegistryService:
    return registry(session, world)


async def first(pages: Any) -> Any:
    async for page in pages:
        return page
    raise AssertionError("nothing yielded")


async def collect(pages: Any) -> list[Any]:
    return [page async for page in pages]


# -- timestamps ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Fri Mar 11 09:50:06 UTC 2022", datetime(2022, 3, 11, 9, 50, 6, tzinfo=UTC)),
        ("Tue Dec 14 09:59:23 CET 2021", datetime(2021, 12, 14, 8, 59, 23, tzinfo=UTC)),
        ("Aug 4, 2021, 7:00:00 AM", datetime(2021, 8, 4, 7, 0, tzinfo=UTC)),
        ("Aug 4, 2021, 7:00:00\u202fPM", datetime(2021, 8, 4, 19, 0, tzinfo=UTC)),
        ("Aug 4, 2021 12:05:00 AM", datetime(2021, 8, 4, 0, 5, tzinfo=UTC)),
        ("2021-08-05T11:51:04Z", datetime(2021, 8, 5, 11, 51, 4, tzinfo=UTC)),
        ("2021-08-05T13:51:04.500+02:00", datetime(2021, 8, 5, 11, 51, 4, 500000, tzinfo=UTC)),
        (1628164264000, datetime(2021, 8, 5, 11, 51, 4, tzinfo=UTC)),
        ("1628164264000", datetime(2021, 8, 5, 11, 51, 4, tzinfo=UTC)),
        (None, None),
        ("", None),
    ],
)
def test_parse_timestamp_reads_every_documented_form(value: Any, expected: datetime | None) -> None:
    assert parse_timestamp(value) == expected


def test_parse_timestamp_refuses_nonsense_and_round_trips_the_sim_forms() -> None:
    for bad in ("yesterday", "Fri Mar 11 09:50:06 XYZ 2022", True):
        with pytest.raises(TimestampError):
            parse_timestamp(bad)
    ms = 1_646_992_206_000
    assert java_date_string(ms) == "Fri Mar 11 09:50:06 UTC 2022"
    assert parse_timestamp(java_date_string(ms)).timestamp() * 1000 == ms
    assert parse_timestamp(java_medium_string(ms)).timestamp() * 1000 == ms


def test_models_tolerate_both_casings_and_bad_times() -> None:
    snake = Project.model_validate(
        {"project_id": 1, "name": "a", "repo_count": 2, "chart_count": 3, "creation_time": "Fri Mar 11 09:50:06 UTC 2022"}
    )
    camel = Project.model_validate({"projectId": 1, "name": "a", "repoCount": 2, "chartCount": 3, "creationTime": 1646992206000})
    assert snake == camel
    odd = Artifact.model_validate({"digest": "sha256:x", "push_time": "not a time", "pull_time": "0001-01-01T00:00:00.000Z", "tags": None})
    assert odd.push_time is None and odd.pull_time is None and odd.tags == []
    harbor_list = ChartDetail.from_raw([{"name": "c", "version": "0.2.0"}, {"name": "c", "version": "0.1.0"}], "p", "c")
    assert harbor_list.latest_version == "0.2.0" and [v.version for v in harbor_list.versions] == ["0.2.0", "0.1.0"]
    assert ProjectDetail.model_validate({"downloadPackageId": "p", "version": 2021, "tenantId": 1107}).version == "2021"


def test_secret_rules_and_answer_forms() -> None:
    assert secret_problems("Good-pass1") == []
    assert secret_problems("abc") == ["at least 8 characters (it has 3)", "at least one uppercase letter", "at least one digit"]
    encoded = base64.b64encode(b"MySecr3t").decode()
    for body in (encoded, f'"{encoded}"', f'{{"secret": "{encoded}"}}', f"  {encoded}\n"):
        assert decode_secret(httpx.Response(200, text=body)) == "MySecr3t"
    jwt = "aaa.bbb.ccc"
    for body in (jwt, f'"{jwt}"', f'{{"token": "{jwt}"}}', f'{{"jwt": "{jwt}", "expiresIn": 3600}}', f"Bearer {jwt}"):
        assert extract_jwt(httpx.Response(200, text=body)) == jwt
    assert extract_jwt(httpx.Response(200, text="<html>login</html>")) is None


def test_months_between_runs_newest_first() -> None:
    assert months_between(date(2025, 11, 20), date(2026, 2, 1)) == [(2026, 2), (2026, 1), (2025, 12), (2025, 11)]


# -- the JWT flow ------------------------------------------------------------------------------------------


async def test_authenticates_once_and_reuses_the_jwt(reg: RegistryService, session: Session) -> None:
    session.page_bases.learn(Service.REGISTRY, 1)  # known; detecting it is tested with the dialects
    assert isinstance(reg.auth, RegistryAuth) and session.auth_for(Service.REGISTRY) is reg.auth
    assert not reg.auth.has_jwt
    await reg.projects_page(1, 5)
    await reg.get_project(HELLO)
    await reg.event_status(CUSTOMER[0])
    assert reg.auth.authentications == 1 and reg.auth.has_jwt
    assert session.requests_sent == 3


async def test_concurrent_first_calls_share_one_authentication(reg: RegistryService) -> None:
    await asyncio.gather(*(reg.event_status(CUSTOMER[0]) for _ in range(6)))
    assert reg.auth.authentications == 1


async def test_expired_jwt_is_renewed_once_transparently(reg: RegistryService, session: Session, world: World, clock: Clock) -> None:
    set_jwt_lifetime(world, 60)
    assert await reg.event_status(CUSTOMER[0]) == EventStatus.PROCESSED
    clock.advance(61_000)
    sent = session.requests_sent
    assert await reg.event_status(CUSTOMER[0]) == "Processed"
    assert reg.auth.authentications == 2
    assert session.requests_sent == sent + 1  # the renewal happened inside one request


async def test_renewal_is_tried_only_once(reg: RegistryService, world: World) -> None:
    set_jwt_lifetime(world, 0)  # every JWT is born expired
    with pytest.raises(Unauthorized) as caught:
        await reg.event_status(CUSTOMER[0])
    assert "expired" in caught.value.message
    assert reg.auth.authentications == 2


async def test_bad_credentials_and_customers_are_refused(session: Session, world: World) -> None:
    wrong = registry(session, world, (PRODUCER[0], "wrong"))
    with pytest.raises(Unauthorized) as caught:
        await wrong.projects_page()
    assert "Authentication failed" in caught.value.message and not wrong.auth.has_jwt
    customer = registry(session, world, CUSTOMER)
    with pytest.raises(Forbidden) as refused:
        await customer.projects_page()
    assert "View and Manage Download Packages" in refused.value.message


async def test_wrong_tenant_is_refused_with_the_header_named(session: Session, world: World) -> None:
    other = registry(session, world, tenant="9999")
    with pytest.raises(Forbidden) as caught:
        await other.projects_page()
    assert "x-publisherid" in caught.value.message and world.tenant_id in caught.value.message


async def test_tenant_comes_from_the_session_or_is_required(sim_app: Any, world: World) -> None:
    plain = make_session(sim_app)
    with pytest.raises(ValueError, match="tenant"):
        RegistryService(plain, *PRODUCER)
    with_tenant = make_session(sim_app, registry_tenant=world.tenant_id)
    assert RegistryService(with_tenant, *PRODUCER).tenant_id == world.tenant_id
    await plain.aclose()
    await with_tenant.aclose()


async def test_a_failing_authenticate_is_retried_like_a_read_but_deletes_are_not(
    reg: RegistryService, session: Session, faults: FaultPlan
) -> None:
    session.page_bases.learn(Service.REGISTRY, 1)  # known; detecting it is tested with the dialects
    faults.add(r"GET /registry/api/v1/authenticate$", status=503)
    assert (await reg.projects_page(1, 3)).items
    assert reg.auth.authentications == 2 and session.requests_sent == 2
    faults.add(r"DELETE /registry/api/v1/projects/", status=503)
    with pytest.raises(ServerError):
        await reg.delete_chart(HELLO, "hello-world-chart")
    assert session.requests_sent == 3
    assert faults.seen.count("GET /registry/api/v1/authenticate") == 2


async def test_json_authenticate_answer_is_accepted(reg: RegistryService, world: World) -> None:
    registry_store(world).auth_response = "json"
    assert (await reg.projects_page(1, 3)).items


def test_repr_hides_password_and_jwt(reg: RegistryService) -> None:
    reg.auth._jwt = "header.payload.signature"
    text = repr(reg.auth) + repr(reg) + str(vars(reg.auth).get("username"))
    assert PRODUCER[1] not in text and "payload" not in text
    assert base64.b64encode(f"{PRODUCER[0]}:{PRODUCER[1]}".encode()).decode() not in repr(reg.auth)


# -- projects, charts, repositories --------------------------------------------------------------------


async def test_project_pages_and_full_iteration(reg: RegistryService, world: World) -> None:
    store = registry_store(world)
    page = await reg.projects_page(2, 10)
    assert page.number == 2 and page.total == len(store.projects) and page.pages == -(-len(store.projects) // 10)
    assert [p.name for p in page.items] == sorted(store.projects)[10:20]
    assert all(isinstance(p.created, datetime) and p.created.tzinfo for p in page.items)
    names = [p.name async for items in reg.iter_projects(page_size=7) for p in items]
    assert names == sorted(store.projects)
    limited = [p async for items in reg.iter_projects(page_size=7, max_items=9) for p in items]
    assert len(limited) == 9


async def test_revisiting_a_page_sends_nothing_within_freshness(reg: RegistryService, session: Session) -> None:
    fresh = await collect(reg.list_projects(1, 20))
    assert [p.age for p in fresh] == [None]
    sent = session.requests_sent
    again = await collect(reg.list_projects(1, 20))
    assert len(again) == 1 and again[0].age is not None and again[0].items == fresh[0].items
    await collect(reg.members_page(HELLO))
    await collect(reg.members_page(HELLO))
    async for _ in reg.iter_projects(page_size=20, max_items=20):
        pass
    assert session.requests_sent == sent + 1  # only the members page, once
    forced = await collect(reg.list_projects(1, 20, force=True))
    assert [p.age is not None for p in forced] == [True, False]
    assert session.requests_sent == sent + 2


async def test_project_detail_chart_and_delete(reg: RegistryService, world: World) -> None:
    detail = await reg.get_project(HELLO)
    assert detail.name == HELLO and detail.tenant_id == world.tenant_id
    assert detail.effective == datetime(2021, 8, 4, 7, tzinfo=UTC)
    assert [r.name for r in detail.repositories] == ["hello-world-dp/hello-world-image"]
    assert detail.repositories[0].short_name == "hello-world-image"
    assert detail.charts[0].latest is not None and detail.charts[0].latest.version == "0.1.0"
    chart = await reg.get_chart(HELLO, detail.charts[0].name)
    assert chart.name == "hello-world-chart" and chart.latest_version == "0.1.0" and chart.versions[0].created
    await reg.delete_chart(HELLO, "hello-world-chart")
    with pytest.raises(NotFound):
        await reg.get_chart(HELLO, "hello-world-chart", force=True)
    assert (await reg.get_project(HELLO, force=True)).charts == []
    with pytest.raises(NotFound) as caught:
        await reg.get_project("no-such-project")
    assert caught.value.message == "Project not found"


async def test_artifacts_pages_and_repository_delete(reg: RegistryService, world: World) -> None:
    store = registry_store(world)
    project, repo = next((p, r) for p in store.sorted_projects() for r in store.repositories(p).values() if r.artifact_count >= 4)
    full_name = f"{project.name}/{repo.name}"
    page = await first(reg.artifacts_page(project.name, full_name, 1, 3, with_immutable_status=True))
    assert page.total == repo.artifact_count and len(page.items) == 3
    assert all(a.digest.startswith("sha256:") and a.push_time for a in page.items)
    assert "latest" in page.items[0].tag_names and all(t.immutable is not None for a in page.items for t in a.tags)
    everything = [a async for items in reg.iter_artifacts(project.name, full_name, page_size=3) for a in items]
    assert [a.id for a in everything[:3]] == [a.id for a in page.items] and len(everything) == repo.artifact_count
    untagged = await first(reg.artifacts_page(project.name, repo.name, with_tag=False))
    assert all(a.tags == [] for a in untagged.items)
    await reg.delete_repository(project.name, full_name)
    with pytest.raises(NotFound):
        await first(reg.artifacts_page(project.name, full_name, force=True))
    assert full_name not in [r.name for r in (await reg.get_project(project.name, force=True)).repositories]


@pytest.mark.parametrize("repository", ["../../victim/repositories/img", "..", ".", "a/../b"])
async def test_a_name_of_dots_is_never_sent_as_a_path_step(reg: RegistryService, world: World, repository: str) -> None:
    """httpx (and every server) resolves `.` and `..` segments: a confirmed delete of this repository would reach
    another project's. Refused before any request."""
    project = registry_store(world).sorted_projects()[0]
    await reg.get_project(project.name)
    sent = reg.session.requests_sent
    with pytest.raises(BadRequest, match="only dots"):
        await reg.delete_repository(project.name, repository)
    assert reg.session.requests_sent == sent


async def test_members_paged_and_filtered(reg: RegistryService, world: World) -> None:
    members = [m async for items in reg.iter_members(HELLO, page_size=4) for m in items]
    names = [m.entity_name for m in members]
    assert CUSTOMER[0] in names and PRODUCER[0] in names and len(names) == len(set(names))
    page = await first(reg.members_page(HELLO, 2, 4))
    assert [m.entity_name for m in page.items] == names[4:8] and page.total == len(names)
    one = await reg.member(HELLO, CUSTOMER[0])
    assert one is not None and one.entity_name == CUSTOMER[0] and one.role_name == "guest"
    assert await reg.member(HELLO, "nobody@nowhere.example") is None
    with pytest.raises(ValueError):
        await first(reg.members_page(HELLO, 1, 500))


# -- downloads, events, secrets ------------------------------------------------------------------------


async def test_downloads_page_and_range_iteration(reg: RegistryService, world: World) -> None:
    page = await first(reg.downloads_page(2026, 10, 1, 20))
    assert page.items and all(isinstance(d, Download) and d.timestamp and d.timestamp.month == 10 for d in page.items)
    start, end = date(2026, 6, 15), date(2026, 9, 10)
    rows = [d async for items in reg.iter_downloads(start, end, page_size=25) for d in items]
    store = registry_store(world)
    expected = [d for y in (2026,) for d in store.downloads(y, None) if start <= datetime.fromtimestamp(d.ms / 1000, tz=UTC).date() <= end]
    assert [d.id for d in rows] == [d.id for d in expected]
    stamps = [d.timestamp for d in rows]
    assert stamps == sorted(stamps, reverse=True)
    user = rows[0].username
    assert user is not None
    mine = [d async for items in reg.iter_downloads(date(2025, 1, 1), end, username=user) for d in items]
    assert mine and all(d.username == user for d in mine)
    with pytest.raises(ValueError):
        await first(reg.downloads_page(2026, 13))
    with pytest.raises(ValueError):
        async for _ in reg.iter_downloads(end, start):
            pass


# The docs' sample entry ("Downloading Logs", RESTSWContDelivDownLogs.htm), and the same user in two accounts.
DOCS_DOWNLOADS = [
    {
        "id": 1234,
        "artifact": "test1_id/abcd-123:blue",
        "username": "registryserviceuser@revenera.com",
        "account": "[test_acc1]",
        "timestamp": "Fri Mar 11 09:50:06 UTC 2022",
    },
    {
        "id": 1235,
        "artifact": "test1_id/abcd-123:green",
        "username": "registryserviceuser@revenera.com",
        "account": "[test_acc1, test_acc2]",
        "timestamp": "Fri Mar 11 09:51:06 UTC 2022",
    },
]


@pytest.mark.parametrize(
    ("sent", "accounts"),
    [
        ("[test_acc1]", ("test_acc1",)),  # the docs' sample: a Java list printed as text
        ("[test_acc1, test_acc2]", ("test_acc1", "test_acc2")),
        (" [ test_acc1 ,test_acc2 ] ", ("test_acc1", "test_acc2")),
        (["test_acc1", "test_acc2"], ("test_acc1", "test_acc2")),  # a JSON array
        ('["Acme, Inc.", "Nimbus"]', ("Acme, Inc.", "Nimbus")),  # a JSON array as text
        ([{"accountId": "A1", "accountName": "Acme"}, {"accountId": "N1"}], ("Acme", "N1")),
        ("Acme Robotics", ("Acme Robotics",)),  # a bare name
        (101200004242, ("101200004242",)),
        ("[]", ()),
        ("", ()),
        (None, ()),
        ("[a, a, b]", ("a", "b")),
    ],
)
def test_download_account_is_read_as_its_accounts(sent: Any, accounts: tuple[str, ...]) -> None:
    d = Download.model_validate({"id": 1, "account": sent})
    assert d.accounts == accounts
    assert isinstance(d.account, str) or d.account is None, "the field is kept as text, as sent"
    assert all(d.matches_account(a.upper()) for a in accounts)
    assert not d.matches_account("test_acc") and not d.matches_account("[test_acc1]" if accounts else "x")


def test_an_account_name_with_a_comma_in_the_java_form_is_still_found_whole() -> None:
    d = Download.model_validate({"account": "[Acme, Inc.]"})
    assert d.accounts == ("Acme", "Inc.") and parse_accounts("[Acme, Inc.]") == d.accounts, "the Java form cannot tell"
    assert d.matches_account("Acme, Inc.") and d.matches_account("inc.")


async def test_the_docs_download_log_filters_by_any_of_its_accounts() -> None:
    """Served the docs' sample (a server that ignores the simulator's `account` parameter), each account finds its
    entries: `[test_acc1]` and `[test_acc1, test_acc2]` both name test_acc1; only the second names test_acc2."""

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/authenticate"):
            return httpx.Response(200, text="aaa.bbb.ccc")
        if request.url.path.endswith("/downloads"):
            month = request.url.params.get("month")
            return httpx.Response(200, json=DOCS_DOWNLOADS if month == "03" and request.url.params.get("page") == "1" else [])
        return httpx.Response(404)

    session = Session(
        "https://x.flexnetoperations.com",
        transport=httpx.MockTransport(handler),
        credentials=Credentials("u@x.com", "pw"),
        registry_tenant="1107",
    )
    service = RegistryService(session)

    async def ids(account: str | None) -> list[int | None]:
        return [d.id async for items in service.iter_downloads(date(2022, 3, 1), date(2022, 3, 31), account=account) for d in items]

    assert await ids(None) == [1234, 1235]
    assert await ids("test_acc1") == [1234, 1235]
    assert await ids("TEST_ACC2") == [1235]
    assert await ids("test_acc") == []
    await session.aclose()


async def test_simulated_downloads_name_accounts_in_the_docs_form_and_filter_by_either(reg: RegistryService, world: World) -> None:
    start, end = date(2025, 11, 1), date(2026, 11, 1)
    rows = [d async for items in reg.iter_downloads(start, end) for d in items]
    assert rows and all(d.account and d.account.startswith("[") and d.account.endswith("]") for d in rows), "the documented form"
    two = next(d for d in rows if len(d.accounts) == 2)
    for account in two.accounts:
        theirs = [d async for items in reg.iter_downloads(start, end, account=account) for d in items]
        assert two.id in {d.id for d in theirs} and all(account in d.accounts for d in theirs)
        assert [d.id for d in theirs] == [d.id for d in rows if account in d.accounts]


async def test_event_status(reg: RegistryService) -> None:
    assert await reg.event_status(CUSTOMER[0]) == EventStatus.PROCESSED
    with pytest.raises(NotFound) as caught:
        await reg.event_status("ghost@nowhere.example")
    assert caught.value.message == "No record found!"


async def test_secret_get_and_reset(reg: RegistryService, session: Session) -> None:
    secret = await reg.get_secret()
    assert secret_problems(secret) == [] and secret == await reg.get_secret(PRODUCER[0])
    with pytest.raises(Forbidden):
        await reg.get_secret("admin@flexdemo.example")
    assert await reg.reset_secret("Chosen-Secret-7") == "Chosen-Secret-7"
    assert await reg.get_secret() == "Chosen-Secret-7"
    random_one = await reg.reset_secret()
    assert random_one != "Chosen-Secret-7" and secret_problems(random_one) == []
    sent = session.requests_sent
    with pytest.raises(ValueError, match="uppercase"):
        await reg.reset_secret("weakpass1")
    assert session.requests_sent == sent


async def test_offline_reads_the_cached_pages_without_a_password(sim_app: Any, world: World, cache: PageCache) -> None:
    """Offline, the CLI gives the session a user and no password (none is asked for, not even by a prompt), and the
    registry refused to start without one: no listing was read from the cache. Its pages belong to the identity."""
    online = make_session(sim_app, user=PRODUCER, cache=cache, registry_tenant=world.tenant_id)
    cached = await RegistryService(online).projects_page(1, 10)
    await online.aclose()
    offline = Session(
        SIM_BASE_URL, user=PRODUCER[0], credentials=Credentials(PRODUCER[0]), cache=cache, offline=True, registry_tenant=world.tenant_id
    )
    reg = RegistryService(offline)
    try:
        assert reg.auth is None, "offline there is no JWT to trade a password for"
        assert [p.name for p in (await reg.projects_page(1, 10)).items] == [p.name for p in cached.items]
        with pytest.raises(Offline, match=f"nothing cached for registry.members as {PRODUCER[0]}"):
            await collect(reg.members_page(HELLO))
        assert offline.requests_sent == 0
    finally:
        await offline.aclose()


def test_online_the_registry_still_needs_the_password(sim_app: Any, world: World) -> None:
    session = make_session(sim_app, registry_tenant=world.tenant_id)
    session.credentials = Credentials(ADMIN[0])
    with pytest.raises(MissingCredential, match="trades a user name and password for a JWT"):
        RegistryService(session)


async def test_read_only_refuses_changes_before_sending(sim_app: Any, world: World) -> None:
    session = make_session(sim_app, read_only=True)
    reg = registry(session, world)
    for change in (
        reg.delete_chart(HELLO, "hello-world-chart"),
        reg.delete_repository(HELLO, "hello-world-dp/hello-world-image"),
        reg.reset_secret(),
        reg.reset_secret("Given-Secret-1"),
    ):
        with pytest.raises(ReadOnly):
            await change
    assert session.requests_sent == 0 and reg.auth.authentications == 0
    assert (await reg.get_project(HELLO)).charts  # reads still work, and nothing was deleted
    await session.aclose()


async def test_jwt_and_secrets_never_reach_the_cache_file(sim_app: Any, world: World, tmp_path: Path) -> None:
    cache = PageCache(tmp_path / "cache.sqlite3")
    session = make_session(sim_app, cache=cache)
    reg = registry(session, world)
    await collect(reg.list_projects(1, 50))
    await reg.get_project(HELLO)
    await collect(reg.members_page(HELLO))
    await collect(reg.downloads_page(2026, 10))
    await collect(reg.artifacts_page(HELLO, "hello-world-image"))
    old_secret = await reg.get_secret()
    new_secret = await reg.reset_secret("Never-Cached-77")
    jwt = reg.auth._jwt
    assert jwt and cache.stats()[session.identity] >= 5
    cache.close()
    await session.aclose()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("cache.sqlite3"))
    assert HELLO.encode() in stored  # the pages are there…
    for secret in (jwt, jwt.split(".")[2], old_secret, new_secret, PRODUCER[1]):
        assert secret.encode() not in stored  # …and the secrets are not
        assert base64.b64encode(secret.encode()) not in stored


# -- over real HTTP --------------------------------------------------------------------------------------


async def test_over_loopback_http(live_server: str, world: World) -> None:
    session = Session(live_server, user=PRODUCER[0], retry=RetryPolicy(attempts=2, backoff=0.001), registry_tenant=world.tenant_id)
    reg = RegistryService(session, *PRODUCER)
    try:
        page = await reg.projects_page(1, 5)
        assert len(page.items) == 5 and page.total == len(registry_store(world).projects)
        artifacts = await first(reg.artifacts_page(HELLO, "hello-world-dp/hello-world-image"))
        assert artifacts.items[0].tag_names == ["latest"]
        chart = await reg.get_chart(HELLO, "hello-world-dp/hello-world-chart")
        assert chart.latest_version == "0.1.0"
        assert await reg.reset_secret("Loopback-Secret-1") == await reg.get_secret()
        await reg.delete_repository(HELLO, "hello-world-dp/hello-world-image")
        assert (await reg.get_project(HELLO, force=True)).repositories == []
        assert reg.auth.authentications == 1
    finally:
        await session.aclose()
