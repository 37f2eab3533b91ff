"""The simulator app: lazy mounting at the documented prefixes, error shapes, unknown paths."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import httpx

from flextui.sim.app import SERVICE_MOUNTS, SIM_BASE_URL, create_app, error_body, in_process_transport
from flextui.sim.world import ADMIN, World


def test_each_module_mounts_where_the_app_says() -> None:
    for name, prefix in SERVICE_MOUNTS.items():
        assert importlib.import_module(f"flextui.sim.{name}").MOUNT == prefix


async def test_services_load_on_first_use_only(world: World) -> None:
    for name in ("registry", "reports"):
        sys.modules.pop(f"flextui.sim.{name}", None)
    app = create_app(world)
    assert "flextui.sim.registry" not in sys.modules
    async with httpx.AsyncClient(transport=in_process_transport(app), base_url=SIM_BASE_URL, auth=httpx.BasicAuth(*ADMIN)) as client:
        response = await client.get("/flexnet/uar/v1/tokens/count", params={"username": ADMIN[0]})
        assert response.status_code == 200
        assert "flextui.sim.registry" not in sys.modules
        response = await client.get("/nowhere")
        assert response.status_code == 404 and "no such endpoint" in response.json()["message"]


def test_error_shapes_follow_the_service() -> None:
    assert error_body("/flexnet/uar/v1/token", 400, "m") == {"statusMessage": "m", "responseObject": None}
    assert error_body("/registry/api/v1/projects", 404, "m") == {"message": "m"}
    body: dict[str, Any] = error_body("/entitlements-api/v1/entitlement", 400, "m", "lineItems[0].startDate")
    assert body["field"] == "lineItems[0].startDate"


def test_large_scale_has_at_least_20000_tokens_with_every_kind() -> None:
    from flextui.sim.tokens import token_store
    from flextui.sim.world import parse_scale

    world = World(seed=7, scale=parse_scale("large"))
    tokens = list(token_store(world).by_name.values())
    now = world.now_ms()
    assert len(tokens) >= 20_000
    assert {t.token_type for t in tokens} == {"NORMAL", "IMPERSONATED"}
    assert any(t.expiry_ms <= now for t in tokens), "some expired"
    assert any(now < t.expiry_ms <= now + 7 * 86_400_000 for t in tokens), "some expiring within days"
    privileged = [u for u in world.users.values() if u.may_impersonate]
    ordinary = [u for u in world.users.values() if u.kind == "producer" and not u.may_impersonate]
    customers = [u for u in world.users.values() if u.kind == "customer"]
    assert privileged and ordinary and customers
