"""Cached pages asked with an access token belong to that token, not only to the profile's user.

A profile for the customer holding the admin's token (a FLEXTUI_TOKEN left
set, or a misconfigured `token = { env = … }`) stored the admin's
entitlements as the customer's, and `--offline` then showed them to the
customer's own profile (walkthrough 27-b).
"""

from __future__ import annotations

from typing import Any

import pytest

from flextui.api.cache import PageCache
from flextui.api.entitlements import EntitlementsService
from flextui.api.errors import Offline
from flextui.api.http import Session
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
