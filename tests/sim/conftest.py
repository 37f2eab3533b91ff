"""Fixtures of the simulator's own tests.

`sim_app` (tests/conftest.py) speaks the simulator's default, STRICT: the
strictest reading of the vendor docs. A test that checks what the lenient
reading accepts (enums in any case, `%2F`-encoded repository names, pages of
up to 1000) says so in its name and uses `lenient_app`, the same world with
no dialect at all.
"""

from __future__ import annotations

from typing import Any

import pytest

from flextui.sim.app import create_app
from flextui.sim.faults import FaultPlan
from flextui.sim.world import World

LENIENT: frozenset[str] = frozenset()
"""No dialect: the lenient reading the simulator answered before STRICT became its default."""


@pytest.fixture
def lenient_app(world: World, faults: FaultPlan) -> Any:
    """The simulator on the test's world speaking no dialect (the lenient reading)."""
    return create_app(world, faults=faults, dialects=LENIENT)
