"""R shows the record under the cursor as JSON in the server's field names, secrets removed, copyable."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flextui.api.tokens import Token
from flextui.ui.rawview import as_sent
from flextui.ui.screens.reports.results import ReportResultsScreen
from flextui.ui.widgets.dialogs import ValueScreen
from tests.ui.conftest import build_app, burst, settle, until


def shown_json(app: Any) -> Any:
    assert isinstance(app.screen, ValueScreen)
    return json.loads(app.screen.query_one("#value-text").text)


def test_a_model_comes_back_in_the_answers_names_without_defaults_or_secrets() -> None:
    raw = {"tokenName": "ci-01", "tokenType": "NORMAL", "userName": "a@b.example", "somethingNew": {"x": 1}, "token": "rna_secret"}
    token = Token.model_validate(raw)
    data = as_sent(token)
    assert data["tokenName"] == "ci-01" and data["somethingNew"] == {"x": 1}, "the server's names, unknown fields kept"
    assert "rna_secret" not in json.dumps(data), "secrets removed"
    assert set(data) <= set(raw), "no field the client only defaulted"


async def test_r_on_a_token_and_on_a_report_row() -> None:
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await burst(pilot, "R")
        data = shown_json(app)
        assert data["tokenName"] == app.screen_stack[-2].selected().name
        await burst(pilot, "escape", "colon", *"report fulfillment", "enter")
        await settle(pilot)
        await burst(pilot, "ctrl+g")
        await until(pilot, lambda: isinstance(app.screen, ReportResultsScreen) and app.screen.state == "done")
        row = app.screen.grid.current_row()
        await burst(pilot, "R")
        data = shown_json(app)
        assert data["fulfillmentID"] == row["fulfillmentID"]


@pytest.mark.parametrize("start", [["entitlements"], ["products"], ["users"], ["projects"], ["downloads"], ["reports"]])
async def test_r_works_on_every_area(start: list[str]) -> None:
    app = build_app(start=start)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await burst(pilot, "R")
        assert isinstance(app.screen, ValueScreen), "every listing shows its record"
        assert shown_json(app)
