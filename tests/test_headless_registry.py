"""Headless registry listers: `flextui get projects|members|artifacts|downloads` in every format."""

from __future__ import annotations

import argparse
import csv
import io
import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from flextui.api.auth import Credentials
from flextui.cli import main
from flextui.context import demo_context, registry_for
from flextui.headless.registry import get_artifacts, get_downloads, get_members, get_projects
from flextui.query import date_range, parse_pairs, split_repository
from flextui.sim.dialects import speaking
from flextui.sim.registry import HELLO, registry_store
from flextui.sim.world import CUSTOMER
from tests.conftest import FIXED_NOW_MS

TODAY = datetime.fromtimestamp(FIXED_NOW_MS / 1000, tz=UTC).date()


def args(target: str | None = None, *filters: str, page_size: int = 200, limit: int | None = None) -> argparse.Namespace:
    return argparse.Namespace(target=target, filter=list(filters), page_size=page_size, limit=limit)


async def collect(rows: Any) -> list[dict[str, Any]]:
    return [row async for row in rows]


@pytest.fixture
async def ctx() -> Any:
    context = demo_context(fixed_now_ms=FIXED_NOW_MS)
    yield context
    await context.aclose()


def world(ctx: Any) -> Any:
    return ctx.extras["world"]


# -- the listers, on a frozen clock ----------------------------------------------------------------------


async def test_projects_all_alphabetically_with_counts_and_one_jwt(ctx: Any) -> None:
    rows = await collect(get_projects(ctx, args(page_size=7)))
    store = registry_store(world(ctx))
    assert [r["name"] for r in rows] == sorted(store.projects)
    hello = next(r for r in rows if r["name"] == HELLO)
    assert hello["repo_count"] == 1 and hello["chart_count"] == 1 and hello["creation_time"].startswith("2021-08-04")
    assert registry_for(ctx).auth.authentications == 1, "seven pages, one authentication"
    assert registry_for(ctx) is registry_for(ctx)
    named = await collect(get_projects(ctx, args(None, "name=HELLO")))
    assert [r["name"] for r in named] == [HELLO]


async def test_members_all_one_user_and_by_role(ctx: Any) -> None:
    everyone = await collect(get_members(ctx, args(HELLO, page_size=500)))  # clamped to the API's 100
    store = registry_store(world(ctx))
    assert [r["entity_name"] for r in everyone] == [m["entityName"] for m in store.members(store.project(HELLO))]
    one = await collect(get_members(ctx, args(HELLO, f"user={CUSTOMER[0].upper()}")))
    assert [(r["entity_name"], r["role_name"]) for r in one] == [(CUSTOMER[0], "guest")]
    assert await collect(get_members(ctx, args(HELLO, "user=nobody@nowhere.example"))) == []
    guests = await collect(get_members(ctx, args(HELLO, "role=guest")))
    assert guests and all(r["role_name"] == "guest" for r in guests)
    with pytest.raises(ValueError, match="give the project"):
        await collect(get_members(ctx, args(None)))


async def test_artifacts_of_a_repository_and_by_tag(ctx: Any) -> None:
    rows = await collect(get_artifacts(ctx, args("compass-2026-q2/compass-server", page_size=4)))
    assert len(rows) == 9 and all(r["digest"].startswith("sha256:") and isinstance(r["size"], int) for r in rows)
    assert rows == sorted(rows, key=lambda r: r["push_time"], reverse=True)
    latest = await collect(get_artifacts(ctx, args("compass-2026-q2/compass-server", "tag=latest")))
    assert len(latest) == 1 and "latest" in latest[0]["tags"].split(",")
    full = await collect(get_artifacts(ctx, args("compass-2026-q2/compass-2026-q2/compass-server")))
    assert [r["digest"] for r in full] == [r["digest"] for r in rows]
    with pytest.raises(ValueError, match="PROJECT/REPOSITORY"):
        await collect(get_artifacts(ctx, args("just-a-project")))


async def test_downloads_default_range_and_every_filter(ctx: Any) -> None:
    store = registry_store(world(ctx))

    def expected(start: date, end: date, account: str | None = None, **match: str) -> list[int]:
        out = []
        for year in range(end.year, start.year - 1, -1):  # newest first, as the log is
            for d in store.downloads(year, None):
                day = datetime.fromtimestamp(d.ms / 1000, tz=UTC).date()
                if start <= day <= end and all(str(getattr(d, k)).lower() == v.lower() for k, v in match.items()):
                    if account is None or account in d.account_names:
                        out.append(d.id)
        return out

    last30 = await collect(get_downloads(ctx, args()))
    assert [r["id"] for r in last30] == expected(TODAY - timedelta(days=29), TODAY)
    assert ["timestamp", "artifact", "username", "accounts", "project", "id", "account"] == list(last30[0])
    start, end = TODAY - timedelta(days=399), TODAY - timedelta(days=100)
    window = await collect(get_downloads(ctx, args(None, f"from={start}", f"to={end}")))
    assert [r["id"] for r in window] == expected(start, end)
    sample = window[0]
    by_project = await collect(get_downloads(ctx, args(None, f"from={start}", f"to={end}", f"project={sample['project']}")))
    assert [r["id"] for r in by_project] == expected(start, end, project=sample["project"])
    by_user = await collect(get_downloads(ctx, args(None, f"from={start}", f"to={end}", f"user={sample['username'].upper()}")))
    assert [r["id"] for r in by_user] == expected(start, end, username=sample["username"])
    # an account is any of an entry's accounts: the server sends them as a Java list printed as text, "[a, b]"
    two = next(r for r in window if len(r["accounts"]) == 2)
    assert two["account"] == f"[{two['accounts'][0]}, {two['accounts'][1]}]", "the field as sent, last"
    for account in two["accounts"]:
        by_account = await collect(get_downloads(ctx, args(None, f"from={start}", f"to={end}", f"account={account}")))
        assert [r["id"] for r in by_account] == expected(start, end, account=account) and two["id"] in {r["id"] for r in by_account}


def test_filter_and_date_parsing() -> None:
    assert parse_pairs(["Project=a", "user= b "], ("project", "user"), "downloads") == {"project": "a", "user": "b"}
    with pytest.raises(ValueError, match="downloads knows project, user"):
        parse_pairs(["colour=red"], ("project", "user"), "downloads")
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_pairs(["project"], ("project",), "downloads")
    assert date_range(None, None, TODAY) == (TODAY - timedelta(days=29), TODAY)
    assert date_range("2026-01-01", "2026-01-31", TODAY) == (date(2026, 1, 1), date(2026, 1, 31))
    with pytest.raises(ValueError, match="is after"):
        date_range("2026-02-01", "2026-01-31", TODAY)
    with pytest.raises(ValueError, match="not a date"):
        date_range("2026-02-30", None, TODAY)
    assert split_repository("p/a/b") == ("p", "a/b")


async def test_token_profiles_and_missing_tenants_are_told_why(ctx: Any) -> None:
    tenant = ctx.session.registry_tenant
    ctx.session.registry_tenant = None
    with pytest.raises(ValueError, match="tenant ID"):
        await collect(get_projects(ctx, args()))
    ctx.session.registry_tenant = tenant
    ctx.session.credentials = Credentials(ctx.user, None, "rna_" + "0" * 44)  # an access token and no password
    with pytest.raises(ValueError, match="password") as info:
        await collect(get_projects(ctx, args()))
    assert "JWT" in str(info.value) and "FNO_PASSWORD" in str(info.value) or "FLEXTUI_PASSWORD" in str(info.value)
    assert ctx.session.requests_sent == 0


# -- through the command line, every format ----------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "get", "projects", "--demo", "--format", "json", "--limit", "3")
    data = json.loads(out)
    assert code == 0 and len(data) == 3 and list(data[0])[:5] == ["name", "repo_count", "chart_count", "creation_time", "update_time"]
    code, out, _ = run(capsys, "get", "members", HELLO, "--demo", "-o", "jsonl")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and CUSTOMER[0] in [r["entity_name"] for r in lines]
    code, out, _ = run(capsys, "get", "artifacts", f"{HELLO}/hello-world-image", "--demo", "-o", "csv")
    table = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(table) == 1 and table[0]["tags"] == "latest" and table[0]["digest"].startswith("sha256:")
    code, out, _ = run(capsys, "get", "downloads", "--demo", "--filter", "from=2020-01-01", "--limit", "5")
    assert code == 0 and out.splitlines()[0].split() == ["timestamp", "artifact", "username", "accounts", "project", "id", "account"]
    assert len(out.splitlines()) == 2 + 5


def test_download_accounts_read_in_every_format_and_kept_as_sent(capsys: pytest.CaptureFixture[str]) -> None:
    """`account` is documented as a Java list printed as text ("[test_acc1]", RESTSWContDelivDownLogs.htm): `accounts`
    lists the accounts it names (a table "a, b", json an array, csv the array as JSON), `account` is kept as sent."""
    code, out, _ = run(capsys, "get", "downloads", "--demo", "--filter", "from=2020-01-01", "-o", "json")
    two = next(r for r in json.loads(out) if len(r["accounts"]) == 2)
    first, second = two["accounts"]
    assert code == 0 and two["account"] == f"[{first}, {second}]" and "[" not in first + second
    code, out, _ = run(capsys, "get", "downloads", "--demo", "--filter", "from=2020-01-01", "-o", "csv")
    row = next(r for r in csv.DictReader(io.StringIO(out)) if r["id"] == str(two["id"]))
    assert code == 0 and json.loads(row["accounts"]) == [first, second] and row["account"] == two["account"]
    code, out, _ = run(capsys, "get", "downloads", "--demo", "--filter", "from=2020-01-01", "--filter", f"account={second}")
    line = next(line for line in out.splitlines() if f" {two['id']} " in line)
    assert code == 0 and f"{first}, {second}" in line


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["get", "downloads", "--demo", "--filter", "colour=red"], "downloads knows project, user, account, from, to"),
        (["get", "downloads", "--demo", "--filter", "from=2026-13-01"], "not a date"),
        (["get", "downloads", "--demo", "--filter", "from=2026-02-01", "--filter", "to=2026-01-01"], "is after"),
        (["get", "members", "--demo"], "give the project"),
        (["get", "artifacts", HELLO, "--demo"], "PROJECT/REPOSITORY"),
        (["get", "projects", "--demo", "--filter", "owner=me"], "projects knows name"),
    ],
)
def test_mistakes_exit_2_with_the_reason(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_unknown_project_exits_4(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "get", "members", "no-such-project", "--demo")
    assert code == 4 and "Project not found" in err


# -- the real variants (walk-c 2, 9, 10): what `flextui get` prints against them ----------------------------------------


def test_get_members_by_user_prints_only_that_user_on_a_fuzzy_filtering_server(capsys: pytest.CaptureFixture[str]) -> None:
    demo = ["--demo", "--sim-dialect", "members-filter-fuzzy", "-o", "jsonl"]
    code, out, _ = run(capsys, "get", "members", HELLO, *demo)
    names = [json.loads(line)["entity_name"] for line in out.splitlines()]
    partial = names[-1][1:]  # a substring of a member's name that is nobody's name
    assert partial not in names
    code, out, _ = run(capsys, "get", "members", HELLO, "--filter", f"user={partial}", *demo)
    assert code == 0 and out.strip() == "", "another member's access is not printed as this user's"
    code, out, _ = run(capsys, "get", "members", HELLO, "--filter", f"user={names[-1]}", *demo)
    assert [json.loads(line)["entity_name"] for line in out.splitlines()] == [names[-1]]


def test_shared_registry_names_are_printed_as_listed_and_work_as_targets(capsys: pytest.CaptureFixture[str]) -> None:
    demo = ["--demo", "--sim-dialect", "shared-registry-prefix", "-o", "jsonl"]
    code, out, _ = run(capsys, "get", "projects", *demo)
    names = [json.loads(line)["name"] for line in out.splitlines()]
    assert code == 0 and f"1107-{HELLO}" in names
    code, out, err = run(capsys, "get", "artifacts", f"1107-{HELLO}/hello-world-image", *demo)
    assert code == 0 and len(out.splitlines()) == 1, err
    code, out, err = run(capsys, "get", "members", f"1107-{HELLO}", *demo)
    assert code == 0 and CUSTOMER[0] in out, err


async def test_dedicated_registry_project_named_with_the_tenant_prefix_is_the_one_listed() -> None:
    """`get artifacts 1107-hello-world-dp/…` on a dedicated registry that also has `hello-world-dp`: that project's artifacts."""
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, dialects=speaking("dedicated-registry-tenant-name"))
    try:
        store = registry_store(world(ctx))
        named = f"{store.world.tenant_id}-{HELLO}"
        own = store.tenant_named()
        rows = await collect(get_artifacts(ctx, args(f"{named}/hello-world-image")))
        expected = [a.digest for a in store.artifacts(own, store.repositories(own)["hello-world-image"])]
        assert [r["digest"] for r in rows] == expected and len(expected) > 1
        names = [r["name"] for r in await collect(get_projects(ctx, args()))]
        assert names[0] == named and HELLO in names, "listed as named"
    finally:
        await ctx.aclose()


def test_docs_form_artifacts_are_all_printed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "get", "artifacts", "compass-2026-q2/compass-server", "--demo", "-o", "jsonl")
    harbor = [json.loads(line) for line in out.splitlines()]
    code, out, err = run(
        capsys, "get", "artifacts", "compass-2026-q2/compass-server", "--demo", "--sim-dialect", "artifacts-docs-envelope", "-o", "jsonl"
    )
    docs = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(docs) == len(harbor) == 9, err
    assert [d["tags"] for d in docs] == [h["tags"] for h in harbor] and not any("unreadable" in d for d in docs)


# -- a registry that sends no total (the docs' bare arrays) -------------------------------------------------------------

NO_TOTAL_DIALECTS = ["", "page-size-cap-100", "page-size-ignored", "paging-ignored"]


def _no_total_listing(kind: str, ctx: Any, size: int) -> tuple[Any, list[Any], Any]:
    """(rows of `flextui get KIND`, every item's identity as the simulator holds it, a row's identity)."""
    from tests.api.test_registry_no_total import MONTH, PROJECT, REPOSITORY, YEAR, grow

    store = registry_store(world(ctx))
    grow(world(ctx))
    project = store.project(PROJECT)
    if kind == "projects":
        return get_projects(ctx, args(page_size=size)), sorted(store.projects), lambda r: r["name"]
    if kind == "members":
        return (
            get_members(ctx, args(PROJECT, page_size=size)),
            [m["entityName"] for m in store.members(project)],
            lambda r: r["entity_name"],
        )
    if kind == "artifacts":
        every = [a.digest for a in store.artifacts(project, store.repositories(project)[REPOSITORY])]
        return get_artifacts(ctx, args(f"{PROJECT}/{REPOSITORY}", page_size=size)), every, lambda r: r["digest"]
    last = (date(YEAR, MONTH + 1, 1) - timedelta(days=1)).isoformat()
    rows = get_downloads(ctx, args(None, f"from={YEAR}-{MONTH:02d}-01", f"to={last}", page_size=size))
    return rows, [d.id for d in store.downloads(YEAR, MONTH)], lambda r: r["id"]


@pytest.mark.parametrize("size", [7, 15, 100])
@pytest.mark.parametrize("dialect", NO_TOTAL_DIALECTS)
@pytest.mark.parametrize("kind", ["projects", "members", "artifacts", "downloads"])
async def test_every_item_once_from_a_registry_without_a_total(kind: str, dialect: str, size: int) -> None:
    """`flextui get projects|members|artifacts|downloads` against a server sending no total, paging as asked, by a size of
    its own (10), capping at 100 or ignoring paging: each item once, no shortfall, and no endless paging."""
    ctx = demo_context(fixed_now_ms=FIXED_NOW_MS, dialects=speaking(",".join(filter(None, ["registry-no-total", dialect]))))
    try:
        rows, every, key = _no_total_listing(kind, ctx, size)
        session = ctx.session
        before = session.requests_sent
        got = [key(row) for row in await collect(rows)]
        spent = session.requests_sent - before
        assert len(every) > 30 and len(got) == len(set(got)) and sorted(got, key=repr) == sorted(every, key=repr), (len(got), len(every))
        assert not session.shortfalls, [o.describe() for o in session.shortfalls]
        served = len(every) if dialect == "paging-ignored" else 10 if dialect == "page-size-ignored" else size
        pages = -(-len(every) // served)
        # each page once, one more to find the end, and the refused page 0 that finds where pages start
        assert spent <= pages + 2, f"{spent} requests for {pages} pages"
    finally:
        await ctx.aclose()


def test_get_projects_from_a_registry_without_a_total_paging_by_its_own_size(capsys: pytest.CaptureFixture[str]) -> None:
    demo = ["--demo", "-o", "jsonl", "--page-size", "15"]
    code, out, err = run(capsys, "get", "projects", *demo, "--sim-dialect", "registry-no-total,page-size-ignored")
    names = [json.loads(line)["name"] for line in out.splitlines()]
    assert code == 0 and names == sorted(set(names)) and len(names) == 41, err
