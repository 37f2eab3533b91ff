"""What each node of the entitlement tree holds: an account root, an item (entitlement, line item, product, model), an expansion in flight."""

from __future__ import annotations

from dataclasses import dataclass

from flextui.api.entitlements import (
    Entitlement,
    EntitlementAccount,
    LineItem,
    LineItemProduct,
)
from flextui.api.users import Account


@dataclass
class Root:
    """A top-level account: from the users service, or from the accounts of listed entitlements."""

    account_id: str
    name: str | None = None
    account_type: str | None = None
    account: Account | None = None
    ref: EntitlementAccount | None = None


@dataclass
class Item:
    """What a tree node stands for."""

    kind: str  # account | entitlement | line_item | product | license_model | loading | message
    key: str = ""
    account_id: str | None = None
    root: Root | None = None
    entitlement: Entitlement | None = None
    line_item: LineItem | None = None
    product: LineItemProduct | None = None


@dataclass
class Expansion:
    """One lazy load, for the status line, tests and the benchmark."""

    key: str
    started: float
    shown: float | None = None
    finished: float | None = None
    requests_before: int = 0
    requests: int = 0
    from_cache: bool = False

    @property
    def seconds(self) -> float | None:
        return None if self.shown is None else self.shown - self.started
