"""The page cache: stale-while-revalidate through the token service, privacy, and robustness."""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import flextui.sim.app as sim_app_module
from flextui.api.cache import PageCache, cache_key, scrub_secrets
from flextui.api.errors import Invalid, Offline, Unauthorized, Unreachable
from flextui.api.http import Session
from flextui.api.tokens import TokenCreate, TokenSearch, TokensService
from flextui.sim.world import ADMIN, PRODUCER

from ..conftest import make_session


@pytest.fixture(autouse=True)
def _tokens_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mount only the token service: other simulator modules may be unfinished."""
    monkeypatch.setattr(sim_app_module, "SERVICE_MODULES", ("tokens",))


def file_bytes(path: str | Path) -> bytes:
    """The database and its WAL, as they are on disk."""
    data = b""
    for suffix in ("", "-wal", "-shm"):
        side = Path(str(path) + suffix)
        if side.exists():
            data += side.read_bytes()
    return data


def age_everything(path: str, seconds: float) -> None:
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE pages SET stored_at = stored_at - ?", (seconds,))
    db.close()


async def pages_of(svc: TokensService, **kwargs: Any) -> list[Any]:
    return [p async for p in svc.list_page(ADMIN[0], None, 0, 5, **kwargs)]


# -- stale-while-revalidate ----------------------------------------------------------------------


async def test_first_visit_fetches_and_stores(session: Session, cache: PageCache) -> None:
    svc = TokensService(session)
    pages = await pages_of(svc)
    assert len(pages) == 1
    assert pages[0].age is None
    assert session.requests_sent == 2  # count and list
    assert cache.stats() == {session.identity: 1} and session.identity == "http://sim.flextui.invalid|admin@flexdemo.example"


async def test_revisit_within_fresh_seconds_sends_nothing(session: Session) -> None:
    svc = TokensService(session)
    fresh = (await pages_of(svc))[0]
    sent = session.requests_sent
    again = await pages_of(svc)
    assert len(again) == 1
    assert again[0].age is not None and again[0].age < session.fresh_seconds
    assert [t.name for t in again[0].items] == [t.name for t in fresh.items]
    assert again[0].total == fresh.total
    assert session.requests_sent == sent


async def test_stale_page_first_with_age_then_fresh(session: Session, cache: PageCache) -> None:
    svc = TokensService(session)
    first = (await pages_of(svc))[0]
    age_everything(cache.path, 120)
    await svc.create(TokenCreate(tokenName="aaaa-first-now", expiryStr="1d"))  # sorts first
    sent = session.requests_sent
    pages = await pages_of(svc)
    assert len(pages) == 2
    stale, fresh = pages
    assert stale.age is not None and 120 <= stale.age < 130
    assert [t.name for t in stale.items] == [t.name for t in first.items]
    assert fresh.age is None
    assert fresh.items[0].name == "aaaa-first-now"
    assert fresh.total == first.total + 1
    assert session.requests_sent == sent + 2
    # The fresh answer replaced the stored one.
    third = await pages_of(svc)
    assert len(third) == 1 and third[0].items[0].name == "aaaa-first-now"


async def test_force_refreshes_within_fresh_seconds(session: Session) -> None:
    svc = TokensService(session)
    await pages_of(svc)
    sent = session.requests_sent
    pages = await pages_of(svc, force=True)
    assert [p.age is None for p in pages] == [False, True]
    assert session.requests_sent == sent + 2


async def test_fresh_seconds_zero_always_revalidates(sim_app: Any, cache: PageCache) -> None:
    session = make_session(sim_app, cache=cache, fresh_seconds=0)
    try:
        svc = TokensService(session)
        await pages_of(svc)
        pages = await pages_of(svc)
        assert [p.age is None for p in pages] == [False, True]
        assert session.requests_sent == 4
    finally:
        await session.aclose()


async def test_search_page_is_cached_per_criteria(session: Session) -> None:
    svc = TokensService(session)
    criteria = TokenSearch(tokenCreator=ADMIN[0])
    first = [p async for p in svc.search_page(criteria, 0, 3)]  # page 0, and page 1 asked ahead (is there one?)
    again = [p async for p in svc.search_page(criteria, 0, 3)]
    assert first[0].age is None and again[0].age is not None and session.requests_sent == 2
    other = [p async for p in svc.search_page(criteria, 1, 3)]  # asked ahead just now: only page 2 is asked
    assert other[0].age is not None and session.requests_sent == 3
    another = [p async for p in svc.search_page(TokenSearch(tokenCreator=ADMIN[0], tokenType="NORMAL"), 0, 3)]
    assert another[0].age is None and session.requests_sent == 5, "other criteria: other pages"
    assert [t.name for t in again[0].items] == [t.name for t in first[0].items]
    assert {t.name for t in other[0].items}.isdisjoint(t.name for t in first[0].items)


async def test_offline_answers_from_cache_and_misses_raise(sim_app: Any, session: Session, cache: PageCache) -> None:
    await pages_of(TokensService(session))
    age_everything(cache.path, 3600)  # old, but offline there is nothing better
    offline = make_session(sim_app, cache=cache, offline=True)
    try:
        svc = TokensService(offline)
        pages = await pages_of(svc)
        assert len(pages) == 1 and pages[0].age is not None and pages[0].age >= 3600
        assert pages[0].items
        with pytest.raises(Offline):
            [p async for p in svc.list_page(ADMIN[0], None, 1, 5)]
        with pytest.raises(Offline):
            [p async for p in svc.search_page(TokenSearch(tokenName="*"), 0, 5)]
        with pytest.raises(Offline):
            await svc.get("anything")
        assert offline.requests_sent == 0
    finally:
        await offline.aclose()


async def test_offline_without_a_cache_raises(sim_app: Any) -> None:
    offline = make_session(sim_app, offline=True)
    try:
        with pytest.raises(Offline):
            [p async for p in TokensService(offline).list_page(ADMIN[0], None, 0, 5)]
    finally:
        await offline.aclose()


async def test_identities_do_not_share_pages(sim_app: Any, session: Session, cache: PageCache) -> None:
    """Pages belong to instance + user, not to a profile name: another user sees only what they stored."""
    await pages_of(TokensService(session))
    other = make_session(sim_app, cache=cache, name="default", user=PRODUCER)
    shown: list[Any] = []
    try:
        with pytest.raises(Invalid):  # the producer may not list the admin's tokens: the server says so...
            async for page in TokensService(other).list_page(ADMIN[0], None, 0, 5):
                shown.append(page)
        assert shown == [], "...and the admin's cached list was never shown"
        own = [p async for p in TokensService(other).list_page(PRODUCER[0], None, 0, 5)]
        assert len(own) == 1 and own[0].age is None
    finally:
        await other.aclose()
    assert set(cache.stats()) == {session.identity, other.identity} and session.identity != other.identity


async def test_a_failed_sign_in_shows_nothing_cached(sim_app: Any, session: Session, cache: PageCache) -> None:
    await pages_of(TokensService(session))
    wrong = make_session(sim_app, cache=cache, user=(ADMIN[0], "wrong-password"))
    shown: list[Any] = []
    try:
        with pytest.raises(Unauthorized):
            async for page in TokensService(wrong).list_page(ADMIN[0], None, 0, 5):
                shown.append(page)
    finally:
        await wrong.aclose()
    assert shown == []


async def test_an_unreachable_server_falls_back_to_this_identitys_cache(
    sim_app: Any, session: Session, cache: PageCache, faults: Any
) -> None:
    await pages_of(TokensService(session))
    again = make_session(sim_app, cache=cache)
    faults.add(r"/flexnet/", drop=True, times=20)
    shown: list[Any] = []
    try:
        with pytest.raises(Unreachable):
            async for page in TokensService(again).list_page(ADMIN[0], None, 0, 5):
                shown.append(page)
    finally:
        await again.aclose()
    assert len(shown) == 1 and shown[0].age is not None, "the cached page, with its age, then the error"


# -- privacy -------------------------------------------------------------------------------------


async def test_cache_file_is_private(session: Session, cache: PageCache) -> None:
    await pages_of(TokensService(session))
    for suffix in ("", "-wal", "-shm"):
        side = cache.path + suffix
        if os.path.exists(side):
            assert stat.S_IMODE(os.stat(side).st_mode) == 0o600, side


def test_new_cache_directory_is_private(tmp_path: Path) -> None:
    path = tmp_path / "fresh-dir" / "cache.sqlite3"
    cache = PageCache(path)
    cache.put("k", "p", "op", {"a": 1})
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    cache.close()


def test_every_missing_folder_on_the_way_is_private(tmp_path: Path) -> None:
    """A fresh machine has no ~/.cache yet: each folder the cache makes is 0700, not only the last (the secrets audit found ~/.cache 0755)."""
    old = os.umask(0o022)
    try:
        path = tmp_path / "cache-home" / "flextui" / "pages.sqlite3"
        PageCache(path).close()
    finally:
        os.umask(old)
    for folder in (path.parent, path.parent.parent):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700, folder


def test_existing_loose_file_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "loose.sqlite3"
    PageCache(path).close()
    os.chmod(path, 0o644)
    PageCache(path).close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


async def test_secrets_never_reach_the_file(session: Session, cache: PageCache) -> None:
    svc = TokensService(session)
    created = await svc.create(TokenCreate(tokenName="cached-secret-1", expiryStr="30d", tokenDescription="marker-description"))
    await pages_of(svc)
    [p async for p in svc.search_page(TokenSearch(tokenName="cached-*"), 0, 5)]
    raw = {
        "statusMessage": "Successful",
        "responseObject": {"tokenName": "cached-secret-1", "tokenValue": created.value, "description": "kept-field"},
        "password": ADMIN[1],
        "nested": [{"Secret": "s3cr3t-value-1", "jwt": "eyJhbGciOi.jwt-value.sig"}, {"registrySecret": "s3cr3t-value-2"}],
        "auth": {"accessToken": "rna_access_token_value", "new-password": "pw-value-2", "userPassword": "pw-value-3"},
    }

    async def fetch() -> Any:
        return raw

    value = await session.cached_value("tokens.created", {}, fetch)
    assert value["responseObject"]["tokenValue"] == created.value  # the caller still gets it once
    stored = cache.get(cache_key(session.identity, "tokens.created", {}))
    assert stored is not None and "tokenValue" not in stored[0]["responseObject"]
    data = file_bytes(cache.path)
    assert b"cached-secret-1" in data and b"kept-field" in data  # the pages are there...
    for secret in (
        created.value,
        ADMIN[1],
        "s3cr3t-value-1",
        "s3cr3t-value-2",
        "jwt-value",
        "rna_access_token_value",
        "pw-value-2",
        "pw-value-3",
    ):
        assert secret.encode() not in data, secret  # ...but no secret is


def test_scrub_secrets() -> None:
    value = {
        "tokenName": "keep",
        "TokenValue": "x",
        "token": "x",
        "PASSWORD": "x",
        "secret": "x",
        "clientSecret": "x",
        "jwt": "x",
        "idJwt": "x",
        "Authorization": "x",
        "items": [{"tokenValue": "x", "tokenCreator": "keep"}, "plain", 3],
        "nested": {"existing-secret": "x", "inner": {"access_token": "x", "username": "keep"}},
    }
    assert scrub_secrets(value) == {
        "tokenName": "keep",
        "items": [{"tokenCreator": "keep"}, "plain", 3],
        "nested": {"inner": {"username": "keep"}},
    }
    assert scrub_secrets([1, "a", None]) == [1, "a", None]
    assert value["TokenValue"] == "x"  # a copy: the caller's value is untouched


# -- robustness ------------------------------------------------------------------------------------


def test_corrupt_file_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    path.write_bytes(b"this is not a database \x00\xff" * 200)
    cache = PageCache(path)
    assert cache.available
    assert cache.get("missing") is None
    cache.put("k", "p", "op", {"a": 1})
    assert cache.get("k")[0] == {"a": 1}  # type: ignore[index]
    assert path.read_bytes().startswith(b"SQLite format 3\x00")
    cache.close()


def damaged_cache_survives(path: Path, damage: Callable[[int], bytes]) -> None:
    """A cache of 200 pages, all but its first 4 KB replaced by `damage(length)`: each read then works or is a
    miss (never an exception), and the cache stores again."""
    cache = PageCache(path)
    for i in range(200):
        cache.put(f"k{i}", "p", "op", {"filler": "x" * 500, "i": i})
    cache.close()
    data = bytearray(path.read_bytes())
    assert len(data) > 20_000
    data[4096:] = damage(len(data) - 4096)  # keep the header page, ruin the rest
    path.write_bytes(bytes(data))
    cache = PageCache(path)
    for i in range(200):
        got = cache.get(f"k{i}")
        assert got is None or got[0]["i"] == i
    cache.put("after", "p", "op", {"ok": True})
    assert cache.get("after") == ({"ok": True}, pytest.approx(time.time(), abs=60))
    cache.close()


def test_damaged_pages_are_rebuilt(tmp_path: Path) -> None:
    damaged_cache_survives(tmp_path / "cache.sqlite3", os.urandom)


@pytest.mark.parametrize("seed", [45, 148, 272])
def test_damage_that_is_not_utf_8_is_rebuilt_too(tmp_path: Path, seed: int) -> None:
    """A damaged file whose text sqlite quotes back was not UTF-8: Python's UnicodeDecodeError is no sqlite3.Error,
    escaped the rebuild and ended the app at launch (`test_damaged_pages_are_rebuilt`, with random damage, met it
    about once in a hundred runs; these seeds are such damage, every time)."""
    import random

    damaged_cache_survives(tmp_path / "cache.sqlite3", random.Random(seed).randbytes)


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """Another connection to the cache file, closed at the end."""
    path = tmp_path / "shared.sqlite3"
    seed = PageCache(path)
    seed.put("k", "p", "op", {"seeded": True})
    seed.close()
    db = sqlite3.connect(path, isolation_level=None, timeout=0.05)
    yield db
    db.close()


def test_locked_database_skips_writes_without_raising(tmp_path: Path, holder: sqlite3.Connection) -> None:
    cache = PageCache(tmp_path / "shared.sqlite3", busy_timeout_ms=50)
    holder.execute("BEGIN EXCLUSIVE")
    cache.put("k2", "p", "op", {"written": True})  # skipped: another writer holds the lock
    assert cache.get("k") is not None  # WAL readers are not blocked
    assert cache.available
    holder.execute("COMMIT")
    assert cache.get("k2") is None, "the write was skipped, not queued behind the lock"
    assert cache.get("k2") is None
    cache.put("k2", "p", "op", {"written": True})
    assert cache.get("k2")[0] == {"written": True}  # type: ignore[index]
    cache.close()


def test_locked_at_open_runs_without_cache_and_keeps_the_file(
    tmp_path: Path, holder: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PageCache, "reopen_seconds", 0.0)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO pages(key, profile, op, stored_at, body) VALUES ('held', 'p', 'op', 1.0, '\"by the holder\"')")
    holder.execute("COMMIT")  # exclusive locking mode keeps the lock after the commit
    path = tmp_path / "shared.sqlite3"
    cache = PageCache(path, busy_timeout_ms=50)
    assert not cache.available
    assert cache.disabled_reason and "busy" in cache.disabled_reason
    assert cache.get("k") is None
    cache.put("mine", "p", "op", {"x": 1})
    assert cache.clear() == 0 and cache.stats() == {}
    assert path.exists()
    holder.close()  # the other instance goes away
    assert cache.get("held") == ("by the holder", 1.0)  # its data survived, and the cache came back
    assert cache.get("k")[0] == {"seeded": True}  # type: ignore[index]
    assert cache.available and cache.disabled_reason is None
    cache.close()


def test_unwritable_location_disables_the_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    cache = PageCache(blocker / "cache.sqlite3")
    assert not cache.available and cache.disabled_reason
    assert cache.get("k") is None
    cache.put("k", "p", "op", {"a": 1})
    assert cache.clear() == 0
    assert cache.stats() == {}


async def test_session_works_without_a_usable_cache(sim_app: Any, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    session = make_session(sim_app, cache=PageCache(blocker / "c.sqlite3"))
    try:
        pages = await pages_of(TokensService(session))
        assert len(pages) == 1 and pages[0].items
    finally:
        await session.aclose()


def test_clear_by_profile(cache: PageCache) -> None:
    cache.put(cache_key("a", "op", {"n": 1}), "a", "op", [1])
    cache.put(cache_key("a", "op", {"n": 2}), "a", "op", [2])
    cache.put(cache_key("b", "op", {"n": 1}), "b", "op", [3])
    assert cache.stats() == {"a": 2, "b": 1}
    assert cache.clear("a") == 2
    assert cache.stats() == {"b": 1}
    assert cache.get(cache_key("a", "op", {"n": 1})) is None
    assert cache.get(cache_key("b", "op", {"n": 1}))[0] == [3]  # type: ignore[index]
    assert cache.clear("nobody") == 0
    assert cache.clear() == 1
    assert cache.stats() == {}


def test_put_replaces_and_keeps_stored_at(cache: PageCache) -> None:
    cache.put("k", "p", "op", {"v": 1}, stored_at=1000.0)
    assert cache.get("k") == ({"v": 1}, 1000.0)
    cache.put("k", "p", "op", {"v": 2})
    value, stored_at = cache.get("k")  # type: ignore[misc]
    assert value == {"v": 2} and abs(stored_at - time.time()) < 60


def test_cache_key() -> None:
    assert cache_key("p", "op", {"a": 1, "b": 2}) == cache_key("p", "op", {"b": 2, "a": 1})
    assert cache_key("p", "op", {"a": 1}) != cache_key("q", "op", {"a": 1})
    assert cache_key("p", "op", {"a": 1}) != cache_key("p", "op2", {"a": 1})
    assert cache_key("p", "op", {"a": 1}) != cache_key("p", "op", {"a": 2})


def test_memory_cache() -> None:
    cache = PageCache(":memory:")
    cache.put("k", "p", "op", {"a": [1, 2]})
    assert cache.get("k")[0] == {"a": [1, 2]}  # type: ignore[index]
    cache.close()
    assert cache.get("k") is None


# -- a cache that cannot be written keeps what it holds ------------------------------------------------


def test_a_full_disk_keeps_the_pages_and_stops_writing(tmp_path: Path) -> None:
    told: list[str] = []
    cache = PageCache(tmp_path / "full.sqlite3")
    cache.on_problem = told.append
    for n in range(5):
        cache.put(f"k{n}", "me", "op", {"n": n, "pad": "x" * 2000})
    assert cache._db is not None
    pages = cache._db.execute("PRAGMA page_count").fetchone()[0]
    cache._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is now full
    for n in range(5, 40):
        cache.put(f"k{n}", "me", "op", {"n": n, "pad": "y" * 4000})
    assert all(cache.get(f"k{n}") is not None for n in range(5)), "nothing that was there is deleted"
    assert cache.write_problem == "the disk is full" and len(told) == 1, "said once"
    assert cache.clear() == 0 and cache.disabled_reason == "the disk is full", "clearing a file that cannot be written says so"
    assert cache.get("k0") is not None
    cache.close()


def test_a_read_only_file_is_read_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ro.sqlite3"
    first = PageCache(path)
    first.put("k", "me", "op", {"kept": True})
    first.close()
    real_open = os.open

    def refuse_writing(file: Any, flags: int, *args: Any) -> int:
        if str(file) == str(path) and flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, flags, *args)

    monkeypatch.setattr(os, "open", refuse_writing)
    cache = PageCache(path)
    hit = cache.get("k")
    assert hit is not None and hit[0] == {"kept": True}, "what it holds is still read"
    assert cache.write_problem and "read-only" in cache.write_problem
    cache.put("k2", "me", "op", {})
    assert cache.get("k2") is None
    cache.close()


async def test_offline_names_why_the_cache_could_not_answer(sim_app: Any, tmp_path: Path) -> None:
    locked = PageCache(":memory:")
    locked._disable("cache busy: database is locked")
    s = make_session(sim_app, cache=locked, offline=True)
    try:
        with pytest.raises(Offline, match="database is locked"):
            await pages_of(TokensService(s))
    finally:
        await s.aclose()


async def test_two_instances_three_identities_never_see_each_others_pages(world: Any, cache: PageCache) -> None:
    """Each of three users on each of two instances lists the same thing; offline, each sees only what it stored."""
    from flextui.api.auth import Credentials
    from flextui.api.http import Session
    from flextui.sim.app import create_app, in_process_transport
    from flextui.sim.world import CUSTOMER, World

    other_world = World(seed=8, scale=1.0, clock=world.clock)  # another tenant: other tokens
    instances = {"http://one.flextui.invalid": create_app(world), "http://two.flextui.invalid": create_app(other_world)}
    people = (ADMIN, PRODUCER, CUSTOMER)

    def session(url: str, who: tuple[str, str], *, offline: bool = False) -> Session:
        app = instances[url]
        return Session(url, credentials=Credentials(*who), transport=in_process_transport(app), cache=cache, offline=offline)

    seen: dict[tuple[str, str], list[str]] = {}
    for url in instances:
        for who in people:
            async with session(url, who) as s:
                pages = [p async for p in TokensService(s).list_page(who[0], None, 0, 50)]
                seen[(url, who[0])] = [t.name for t in pages[-1].items]
    assert len(set(cache.stats())) == 6, "six identities, six sets of pages"
    assert seen[("http://one.flextui.invalid", ADMIN[0])] != seen[("http://two.flextui.invalid", ADMIN[0])]
    for url in instances:
        for who in people:
            async with session(url, who, offline=True) as s:
                pages = [p async for p in TokensService(s).list_page(who[0], None, 0, 50)]
                assert [t.name for t in pages[-1].items] == seen[(url, who[0])] and pages[-1].age is not None
                other = next(p for p in people if p != who)
                with pytest.raises(Offline):  # another user's listing is not there for this identity, even offline
                    [p async for p in TokensService(s).list_page(other[0], None, 0, 50)]


def test_a_clean_page_is_stored_as_received_and_one_that_may_hold_a_secret_is_scrubbed(tmp_path: Path) -> None:
    from flextui.api.wire import Wire

    cache = PageCache(tmp_path / "wire.sqlite3")
    clean = b'{"header":{"pageNumber":1},"data":[{"a":1,"b":"x"},{"a":2,"b":"y"}]}'
    cache.put("clean", "me", "reports.page", Wire(clean, {"url": "u", "requested": 1}))
    got = cache.get("clean")
    assert got is not None and isinstance(got[0], Wire) and got[0].body == clean and got[0].meta["url"] == "u"
    dirty = b'{"data":[{"a":1,"userPassword":"hunter2"},{"a":2,"nested":{"jwt":"e.y.j"}}]}'
    cache.put("dirty", "me", "reports.page", Wire(dirty, {"url": "u"}))
    stored = cache.get("dirty")
    assert stored is not None and not isinstance(stored[0], Wire), "re-encoded after scrubbing"
    assert stored[0] == {"data": [{"a": 1}, {"a": 2, "nested": {}}]}
    assert b"hunter2" not in file_bytes(cache.path) and b"e.y.j" not in file_bytes(cache.path)
    cache.close()


async def test_the_cache_is_read_and_written_off_the_event_loop(
    session: Session, cache: PageCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache's one connection serialises its users: a read on the loop waited behind a page being written."""
    import threading

    loop_thread = threading.get_ident()
    threads: list[tuple[str, int]] = []
    get, put = PageCache.get, PageCache.put_packed
    monkeypatch.setattr(PageCache, "get", lambda self, *a, **k: threads.append(("get", threading.get_ident())) or get(self, *a, **k))
    monkeypatch.setattr(PageCache, "put_packed", lambda self, *a, **k: threads.append(("put", threading.get_ident())) or put(self, *a, **k))
    svc = TokensService(session)
    await pages_of(svc)
    await pages_of(svc)  # the second visit is answered from the cache
    assert {"get", "put"} <= {op for op, _ in threads}
    assert all(thread != loop_thread for _, thread in threads), threads
