"""Cached pages asked with an access token belong to that token, not only to the profile's user.

A profile for the customer holding the admin's token (a FLEXTUI_TOKEN left
set, or a misconfigured `token = { env = … }`) stored the admin's
entitlements as the customer's, and `--offline` then showed them to the
customer's own profile (walkthrough 27-b).
"""

from __future__ import annotations

from typing import Any

import pytest

from flextui.api.auth import Credentials, MissingCredential
from flextui.api.cache import PageCache
from flextui.api.entitlements import EntitlementsService
from flextui.api.errors import Offline
from flextui.api.http import Session, token_identity
from flextui.api.tokens import TokensService
from flextui.sim.world import ADMIN, CUSTOMER, World
from tests.conftest import make_session


def as_customer(sim_app: Any, token: str | None, cache: PageCache, **kwargs: Any) -> Session:
    return make_session(sim_app, user=CUSTOMER, token=token, cache=cache, **kwargs)


async def entitlement_ids(session: Session) -> list[str]:
    pages = [page async for page in EntitlementsService(session).list_page(limit=100)]
    return [e.entitlement_id for e in pages[-1].items]


async def test_pages_asked_with_someone_elses_token_are_not_the_users_own(sim_app: Any, world: World, cache: PageCache) -> None:
    admin_token, customer_token = world.seed_token(ADMIN[0]), world.seed_token(CUSTOMER[0])
    async with as_customer(sim_app, admin_token, cache) as mixed:
        admins = await entitlement_ids(mixed)
    async with as_customer(sim_app, customer_token, cache, offline=True) as offline:
        with pytest.raises(Offline):  # the admin's pages were stored: none of them is the customer's
            await entitlement_ids(offline)
    async with as_customer(sim_app, customer_token, cache) as own:
        customers = await entitlement_ids(own)
    assert len(admins) > len(customers) > 0, "the admin's token sees every account's entitlements"
    async with as_customer(sim_app, customer_token, cache, offline=True) as offline:
        assert await entitlement_ids(offline) == customers, "offline, the customer's own pages: not the admin's"
    async with as_customer(sim_app, world.seed_token(ADMIN[0]), cache, offline=True) as offline:
        assert await entitlement_ids(offline) == admins, "the admin token's pages are still there, for that token"


async def test_the_users_own_pages_are_shared_by_what_signs_in_as_the_user(sim_app: Any, world: World, cache: PageCache) -> None:
    """The token API is asked with the password: its pages stay the user's whatever token the profile holds."""
    async with as_customer(sim_app, world.seed_token(ADMIN[0]), cache) as mixed:
        await TokensService(mixed).count(username=CUSTOMER[0])
        listed = [page async for page in TokensService(mixed).list_page(CUSTOMER[0], None, 0, 5)]
    async with as_customer(sim_app, None, cache, offline=True) as offline:
        again = [page async for page in TokensService(offline).list_page(CUSTOMER[0], None, 0, 5)]
        assert [t.name for t in again[-1].items] == [t.name for t in listed[-1].items]
        with pytest.raises(Offline):  # no token here: no token's entitlements either
            await entitlement_ids(offline)


def test_clearing_an_identity_takes_its_tokens_pages_too(cache: PageCache) -> None:
    who = "https://fno.example|customer@acme-robotics.example"
    for profile in (who, f"{who}|token:0123456789ab", f"{who}x", "https://fno.example|someone"):
        cache.put(f"k-{profile}", profile, "entitlements.list", {"a": 1})
    assert cache.clear(who) == 2
    assert cache.get(f"k-{who}x") is not None and cache.get("k-https://fno.example|someone") is not None


def password_not_to_be_had() -> str:
    """A password source that cannot be had (an unset variable), as `secrets._deferred` gives it."""
    raise MissingCredential("profile 'p': the environment variable UNSET_PW is not set (it should hold the password)")


def lacking_password(sim_app: Any, token: str | None, cache: PageCache, **kwargs: Any) -> Session:
    """The customer's profile whose password cannot be had, holding `token`: the token API is asked with the token."""
    session = as_customer(sim_app, token, cache, **kwargs)
    session.credentials = Credentials(CUSTOMER[0], password_not_to_be_had, token)
    return session


async def token_names(session: Session, username: str) -> list[str]:
    pages = [page async for page in TokensService(session).list_page(username, None, 0, 20)]
    return [t.name for t in pages[-1].items]


async def test_the_token_api_asked_with_the_token_because_the_password_cannot_be_had_files_under_the_token(
    sim_app: Any, world: World, cache: PageCache
) -> None:
    """A profile whose password cannot be had asks the token API with its token (`auth_for`): those pages are the
    token's, never the user's. They were filed under the user alone, so the user's own offline session (and any
    session of the user's asked with the password) read the admin token's answers as the customer's."""
    admin_token = world.seed_token(ADMIN[0])
    async with lacking_password(sim_app, admin_token, cache) as fallback:
        admins = await token_names(fallback, ADMIN[0])
        assert fallback.identity_for("tokens.list") == f"{fallback.identity}|{token_identity(admin_token)}"
        assert any("UNSET_PW" in note and "access token" in note for note in fallback.notices), fallback.notices
    assert admins, "the admin's token lists the admin's tokens"
    async with as_customer(sim_app, None, cache, offline=True) as offline:  # the user's own identity: the password's
        with pytest.raises(Offline):
            await token_names(offline, ADMIN[0])
    async with lacking_password(sim_app, admin_token, cache, offline=True) as again:  # the same token, offline: its own
        assert await token_names(again, ADMIN[0]) == admins


async def test_a_token_only_session_and_the_users_password_session_keep_apart(sim_app: Any, world: World, cache: PageCache) -> None:
    """The customer's password and a token the profile holds may be two identities: neither reads the other's pages."""
    async with as_customer(sim_app, None, cache) as by_password:
        own = await token_names(by_password, CUSTOMER[0])
    token_only = make_session(sim_app, user=(CUSTOMER[0], ""), token=world.seed_token(ADMIN[0]), cache=cache, offline=True)
    async with token_only:
        assert token_only.identity_for("tokens.list") != by_password.identity_for("tokens.list")
        with pytest.raises(Offline):
            await token_names(token_only, CUSTOMER[0])
    async with as_customer(sim_app, None, cache, offline=True) as offline:
        assert await token_names(offline, CUSTOMER[0]) == own


async def test_offline_a_password_held_but_not_read_is_the_users_identity(sim_app: Any, cache: PageCache) -> None:
    """Offline the password is never read (`secrets.not_read_offline`): it is not a password that cannot be had, so
    the pages looked for are the user's own (asked online with it), not the token's."""
    from flextui.secrets import not_read_offline

    async with as_customer(sim_app, None, cache) as online:
        own = await token_names(online, CUSTOMER[0])
    async with as_customer(sim_app, "rna_someone", cache, offline=True) as offline:
        offline.credentials = Credentials(CUSTOMER[0], not_read_offline("password"), "rna_someone")
        assert offline.identity_for("tokens.list") == offline.identity
        assert await token_names(offline, CUSTOMER[0]) == own
