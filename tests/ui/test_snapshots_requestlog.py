"""Snapshots of the request log at 80×24 and 120×40 (its exchanges fixed: real ones carry the time and durations)."""

from __future__ import annotations

from typing import Any

import pytest

from flextui.api.trace import Exchange
from flextui.ui.screens.requestlog import RequestLogScreen
from tests.ui.conftest import build_app, settle

SIZES = [(80, 24), (120, 40)]
BASE = "http://sim.flextui.invalid"

EXCHANGES = [
    Exchange(
        "2026-11-02T10:00:01.000+00:00",
        "GET",
        f"{BASE}/flexnet/operations/api/v1/users/tokens/count?userName=admin%40flexdemo.example",
        "tokens",
        200,
        41.0,
        0,
        12,
        request_headers={"authorization": "Basic ***", "accept": "application/json"},
        response_headers={"content-type": "application/json"},
        response_body={"count": 10},
    ),
    Exchange(
        "2026-11-02T10:00:01.050+00:00",
        "GET",
        f"{BASE}/flexnet/operations/api/v1/users/tokens?userName=admin%40flexdemo.example&pageSize=50",
        "tokens",
        200,
        63.0,
        0,
        2_481,
        request_headers={"authorization": "Basic ***"},
        response_body=[{"tokenName": "ci-runner-01"}],
    ),
    Exchange(
        "2026-11-02T10:00:07.200+00:00",
        "GET",
        f"{BASE}/registry/api/v1/projects?page=1&page_size=100",
        "registry",
        503,
        12.0,
        0,
        0,
        decision="retry 2/3",  # as `Session` words it
        request_headers={"authorization": "Bearer ***", "x-publisherid": "flexdemo"},
    ),
    Exchange(
        "2026-11-02T10:00:08.400+00:00",
        "GET",
        f"{BASE}/registry/api/v1/projects?page=1&page_size=100",
        "registry",
        200,
        88.0,
        0,
        9_120,
        request_headers={"authorization": "Bearer ***", "x-publisherid": "flexdemo"},
        response_body=[{"name": "hello-world-dp"}],
    ),
    Exchange("2026-11-02T10:00:09.000+00:00", "GET", "cache:reports.types", "data", None, 0.0, decision="cached"),
]


async def _open_log(pilot: Any) -> None:
    await settle(pilot)
    trace = pilot.app.ctx.session.trace
    trace.exchanges.clear()
    trace.exchanges.extend(EXCHANGES)
    pilot.app.clear_notifications()
    await pilot.press("L")
    await settle(pilot)
    assert isinstance(pilot.app.screen, RequestLogScreen)


class TestRequestLogSnapshots:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_log_with_a_retry_and_a_cached_answer(self, snap_compare: Any, size: tuple[int, int]) -> None:
        assert snap_compare(build_app(), terminal_size=size, run_before=_open_log)
