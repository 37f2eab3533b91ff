"""Fixtures and helpers shared by the beta services' tests (products, entitlements, users).

Import what a test module needs: an imported fixture (`_beta_only`, `read_only`)
is collected as if it were defined in that module.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from pydantic import ValidationError

import flextui.sim.app as sim_app_module
from flextui.api.http import Session
from flextui.api.validation import errors_by_field

from .conftest import make_session

Change = Callable[[dict[str, Any]], None]


@pytest.fixture(autouse=True)
def _beta_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mount only the beta services: other simulator modules may be unfinished."""
    monkeypatch.setattr(sim_app_module, "SERVICE_MODULES", ("products", "entitlements", "users"))


@pytest.fixture(name="read_only")
async def read_only_session(sim_app: Any) -> AsyncIterator[Session]:
    """A session on the simulator with a read-only profile."""
    s = make_session(sim_app, read_only=True)
    yield s
    await s.aclose()


def refused(model: type[Any], body: Any) -> dict[str, str]:
    """The `{field path: message}` of the ValidationError `model` raises for `body`."""
    with pytest.raises(ValidationError) as info:
        model.model_validate(body)
    return errors_by_field(info.value)


def _with(**fields: Any) -> Change:
    return lambda body: body.update(fields)


def _without(key: str) -> Change:
    return lambda body: body.pop(key, None)
