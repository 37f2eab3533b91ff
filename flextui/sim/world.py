"""The simulator's deterministic world: users, accounts, products, and each service's data.

Everything is generated from `seed` and `scale`, so two worlds with the same
pair are equal, and tests can name the data they expect. Core entities that
several services share (accounts, users, the product catalogue) live here;
each service module builds its own part lazily through `World.part`, so the
demo pays only for what it opens. Times are relative to the world's clock at
creation, so "expiring within days" stays true on any date; a frozen clock
makes snapshots repeatable.

The world is also the tenant: it defines the custom attributes its records
carry (`attribute_definitions`: `REGION` is mandatory on entitlements, after
the vendor's example `REGION` = `EMEA`; names compare ignoring case, and the
generated entitlements spell it `Region`, as records imported before the
definition was tightened would) and the license technologies its catalogue
offers (`license_technologies`, each with its generators). These are data,
not rules: a test or a demo may change them.

Each seeded user (ADMIN, PRODUCER, CUSTOMER) has one live NORMAL access token
named `flextui-demo-<role>`, whose value `seed_token(username)` derives from
the seed, so the demo and `flextui sim` can sign in to services that take
only access tokens (the `token-only-beta` dialect). The token is issued when
its value is first asked for: from then on the token service lists it like
any token the user created, and a world nobody signs in with that way lists
exactly the generated tokens (the snapshots of the token screens rely on it).

Scale is linear: at 1 the demo has a few hundred of each thing; `--scale
large` (100) gives ≥20,000 tokens, ≥2,000 registry projects, ≥50,000
download-log entries, ≥100,000 fulfillment/usage records and ≥5,000
entitlements.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flextui.sim import names
from flextui.sim.rules import AttributeDefinition, LicenseTechnology
from flextui.sim.timefmt import ymd as _ymd

T = TypeVar("T")

PERM_CREATE_IMPERSONATED = "Create Impersonated Token"
PERM_MANAGE_USERS = "View and Manage Users"
PERM_MANAGE_CUSTOMER_USERS = "View and Manage Customer Users"
PERM_MANAGE_PARTNER_USERS = "View and Manage Partner Users"
PERM_DATA_API = "Data Api"
PERM_DOWNLOAD_PACKAGES = "View and Manage Download Packages"
MANAGE_USER_PERMS = frozenset({PERM_MANAGE_USERS, PERM_MANAGE_CUSTOMER_USERS, PERM_MANAGE_PARTNER_USERS})

DAY_MS = 86_400_000

SCALE_PRESETS = {"small": 0.2, "default": 1.0, "large": 100.0}


def parse_scale(text: str | float) -> float:
    """A scale from a number or a preset name (small, default, large)."""
    if isinstance(text, (int, float)):
        value = float(text)
    elif text in SCALE_PRESETS:
        value = SCALE_PRESETS[text]
    else:
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"scale must be a number or one of {', '.join(SCALE_PRESETS)}") from None
    if not 0 < value <= 1000:
        raise ValueError("scale must be above 0 and at most 1000")
    return value


class Clock:
    """Milliseconds since the epoch; frozen when `fixed_ms` is given (snapshots, tests)."""

    def __init__(self, fixed_ms: int | None = None) -> None:
        self.fixed_ms = fixed_ms

    def now_ms(self) -> int:
        return self.fixed_ms if self.fixed_ms is not None else int(time.time() * 1000)

    def advance(self, ms: int) -> None:
        """Move a frozen clock forward (tests of expiry)."""
        if self.fixed_ms is None:
            raise RuntimeError("only a frozen clock can be advanced")
        self.fixed_ms += ms


@dataclass
class SimUser:
    """A platform user the simulator knows, with a password and permissions."""

    username: str
    password: str
    first_name: str
    last_name: str
    account_id: str
    permissions: frozenset[str] = frozenset()
    kind: str = "customer"  # producer | customer
    status: str = "active"
    created_ms: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def display_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def may_impersonate(self) -> bool:
        return PERM_CREATE_IMPERSONATED in self.permissions and bool(self.permissions & MANAGE_USER_PERMS)


@dataclass
class SimAccount:
    """A customer, partner or publisher organisation."""

    account_id: str
    name: str
    account_type: str
    city: str
    country: str
    created_ms: int
    parent_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class SimProduct:
    """A catalogue product (name + version), shared by entitlements, registry and reports."""

    name: str
    version: str
    part_number: str
    license_model: str
    features: list[tuple[str, str]]
    created_ms: int


@dataclass
class SimLineItem:
    """A line item: an activatable grant of one product under a license model."""

    activation_id: str
    product: SimProduct
    quantity: int
    start_date: str  # YYYY-MM-DD
    expiry_date: str | None  # None when permanent
    order_type: str
    state: str  # DRAFT DEPLOYED OBSOLETE ACTIVE INACTIVE
    created_ms: int
    quantity_per_copy: int = 1
    attributes: dict[str, str] = field(default_factory=dict)
    policies: dict[str, Any] = field(default_factory=dict)
    parent_activation_id: str | None = None
    maintenance: bool = False


@dataclass
class SimEntitlement:
    """An entitlement owned by an account, holding line items."""

    entitlement_id: str
    account_id: str
    status: str  # DRAFT DEPLOYED OBSOLETE ACTIVE INACTIVE
    created_ms: int
    updated_ms: int
    description: str
    ship_to_email: str
    ship_to_address: str
    line_items: list[SimLineItem] = field(default_factory=list)
    attributes: dict[str, str] = field(default_factory=dict)
    allow_portal_login: bool = False


# The seeded users whose credentials `flextui sim` prints and the demo logs in as.
ADMIN = ("admin@flexdemo.example", "Admin-pass-1")
PRODUCER = ("producer@flexdemo.example", "Producer-pass-1")
CUSTOMER = ("customer@acme-robotics.example", "Customer-pass-1")
PUBLISHER_ACCOUNT = "FLEXDEMO"
SEED_TOKEN_NAMES: dict[str, str] = {
    ADMIN[0]: "flextui-demo-admin",
    PRODUCER[0]: "flextui-demo-producer",
    CUSTOMER[0]: "flextui-demo-customer",
}

DEFAULT_ATTRIBUTES: tuple[AttributeDefinition, ...] = (
    AttributeDefinition("REGION", "entitlement", mandatory=True, description="sales region, e.g. EMEA (the vendor's example)"),
    AttributeDefinition("SalesOrder", "entitlement", description="the order the entitlement fulfils"),
    AttributeDefinition("CostCenter", "line_item", description="who pays for the line item"),
)

STANDARD_TECHNOLOGY = "FlexNet Licensing"
DEFAULT_TECHNOLOGIES: tuple[LicenseTechnology, ...] = (
    LicenseTechnology(STANDARD_TECHNOLOGY, ("FlexNet Licensing Generator",), standard=True),
    LicenseTechnology("FlexNet Embedded", ("FlexNet Embedded Generator",)),
    LicenseTechnology("Custom Licensing", ("Custom Key Generator",)),
)


def seed_token_value(seed: int, username: str) -> str:
    """`rna_` and 44 hex digits derived from the world seed and the user (the docs' value format)."""
    return "rna_" + hashlib.sha256(f"flextui-sim:{seed}:access-token:{username}".encode()).hexdigest()[:44]


class World:
    """All the simulator's data for one seed and scale."""

    def __init__(self, seed: int = 7, scale: float = 1.0, clock: Clock | None = None, tenant_id: str = "1107") -> None:
        self.seed = seed
        self.scale = scale
        self.clock = clock or Clock()
        self.created_ms = self.clock.now_ms()
        self.tenant_id = tenant_id
        self._parts: dict[str, Any] = {}
        self._lock = threading.RLock()
        self.accounts: dict[str, SimAccount] = {}
        self.users: dict[str, SimUser] = {}
        self.products: list[SimProduct] = []
        self.attribute_definitions: list[AttributeDefinition] = list(DEFAULT_ATTRIBUTES)
        self.license_technologies: list[LicenseTechnology] = list(DEFAULT_TECHNOLOGIES)
        self.seed_token_users: list[str] = []  # whose seeded token has been issued, in order
        self._build_core()

    def rng(self, name: str) -> random.Random:
        """A random generator private to one part of the world."""
        return random.Random(f"{self.seed}:{name}")

    def count(self, base: float, minimum: int = 1) -> int:
        """`base` things per unit of scale (at least `minimum`)."""
        return max(minimum, int(round(base * self.scale)))

    def part(self, name: str, build: Callable[[World], T]) -> T:
        """A service's data, built on first use."""
        with self._lock:
            if name not in self._parts:
                self._parts[name] = build(self)
            return self._parts[name]

    def now_ms(self) -> int:
        return self.clock.now_ms()

    def seed_token(self, username: str) -> str:
        """The value of the live access token seeded for ADMIN, PRODUCER or CUSTOMER (derived from the seed).

        The first call issues the token: the token service lists it from then on.
        """
        if username not in SEED_TOKEN_NAMES:
            raise KeyError(f"no seeded access token for {username!r}: only {', '.join(SEED_TOKEN_NAMES)} have one")
        with self._lock:
            if username not in self.seed_token_users:
                self.seed_token_users.append(username)
                store = self._parts.get("tokens")
                if store is not None:  # already built: add it now (else the store adds it when built)
                    store.issue_seed_token(username)
        return seed_token_value(self.seed, username)

    @property
    def standard_technology(self) -> LicenseTechnology:
        """The tenant's standard license technology (seed 002 rules 2, 6 and 9)."""
        return next((t for t in self.license_technologies if t.standard), self.license_technologies[0])

    # -- core -----------------------------------------------------------------

    def _build_core(self) -> None:
        rng = self.rng("core")
        now = self.created_ms
        publisher = SimAccount(PUBLISHER_ACCOUNT, "FlexDemo Software", "PUBLISHER", "Austin", "US", now - 900 * DAY_MS)
        self.accounts[publisher.account_id] = publisher
        used_names: set[str] = set()
        used_ids: set[str] = {PUBLISHER_ACCOUNT}
        acme = SimAccount("101200004242", "Acme Robotics", "CUSTOMER", "Austin", "US", now - 800 * DAY_MS)
        self.accounts[acme.account_id] = acme
        used_names.add(acme.name)
        used_ids.add(acme.account_id)
        n_accounts = self.count(30, 12)
        types = ["CUSTOMER"] * 8 + ["CHANNEL_PARTNER", "SELF_REGISTERED"]
        while len(self.accounts) < n_accounts + 1:
            name = f"{rng.choice(names.COMPANY_A)} {rng.choice(names.COMPANY_B)}"
            if name in used_names:
                name = f"{name} {rng.choice(names.CITIES)}"
                if name in used_names:
                    continue
            used_names.add(name)
            account_id = f"10{rng.randrange(10**10):010d}"
            if account_id in used_ids:
                continue
            used_ids.add(account_id)
            idx = rng.randrange(len(names.CITIES))
            self.accounts[account_id] = SimAccount(
                account_id,
                name,
                rng.choice(types),
                names.CITIES[idx],
                names.COUNTRIES[idx],
                now - rng.randrange(30, 1500) * DAY_MS,
            )

        def add_user(email: str, password: str, first: str, last: str, account: str, perms: frozenset[str], kind: str) -> None:
            self.users[email] = SimUser(
                email, password, first, last, account, perms, kind, created_ms=now - rng.randrange(10, 900) * DAY_MS
            )

        producer_perms = frozenset({PERM_DATA_API, PERM_DOWNLOAD_PACKAGES})
        add_user(*ADMIN, "Avery", "Admin", PUBLISHER_ACCOUNT, producer_perms | {PERM_CREATE_IMPERSONATED, PERM_MANAGE_USERS}, "producer")
        add_user(*PRODUCER, "Parker", "Producer", PUBLISHER_ACCOUNT, producer_perms, "producer")
        add_user(*CUSTOMER, "Casey", "Customer", acme.account_id, frozenset(), "customer")
        # More producer staff, a few of them privileged.
        for i in range(self.count(6, 4)):
            first, last = rng.choice(names.FIRST_NAMES), rng.choice(names.LAST_NAMES)
            email = f"{first.lower()}.{last.lower()}{i}@flexdemo.example"
            perms = producer_perms | ({PERM_CREATE_IMPERSONATED, PERM_MANAGE_CUSTOMER_USERS} if i % 3 == 0 else frozenset())
            add_user(email, f"Pw-{rng.randrange(10**8)}", first, last, PUBLISHER_ACCOUNT, perms, "producer")
        for account in list(self.accounts.values())[1:]:
            domain = account.name.lower().replace(" ", "-") + ".example"
            for _ in range(rng.randint(1, 4)):
                first, last = rng.choice(names.FIRST_NAMES), rng.choice(names.LAST_NAMES)
                email = f"{first.lower()}.{last.lower()}@{domain}"
                if email in self.users:
                    continue
                add_user(email, f"Pw-{rng.randrange(10**8)}", first, last, account.account_id, frozenset(), "customer")
                if rng.random() < 0.1:
                    self.users[email].status = "inactive"

        for i in range(max(20, self.count(0.2, 20) + 20)):
            word = names.PRODUCT_WORDS[i % len(names.PRODUCT_WORDS)]
            prefix = names.PRODUCT_PREFIX[(i // len(names.PRODUCT_WORDS)) % len(names.PRODUCT_PREFIX)]
            name = f"{prefix} {word}"
            for v in range(rng.randint(1, 3)):
                version = f"{2022 + v}.{rng.randint(1, 4)}"
                feats = [(f"{word.upper()}_{f}", "1.0") for f in ("CORE", "PRO", "API", "EXPORT")[: rng.randint(1, 4)]]
                self.products.append(
                    SimProduct(
                        name,
                        version,
                        f"PN-{word[:3].upper()}-{i:03d}{v}",
                        rng.choice(["Perpetual", "Subscription", "Trial", "Concurrent", "Metered"]),
                        feats,
                        now - rng.randrange(100, 1400) * DAY_MS,
                    )
                )

    # -- entitlements (shared by the entitlement service, reports and the registry) --

    @property
    def entitlements(self) -> dict[str, SimEntitlement]:
        """Entitlements by id, in creation order (built on first use)."""
        return self.part("core.entitlements", _build_entitlements)

    # -- lookups --------------------------------------------------------------

    def authenticate(self, username: str, password: str) -> SimUser | None:
        user = self.users.get(username)
        if user is None or user.password != password or user.status != "active":
            return None
        return user

    @property
    def customers(self) -> list[SimAccount]:
        return [a for a in self.accounts.values() if a.account_type != "PUBLISHER"]


def ymd(ms: int) -> str:
    """Epoch milliseconds as YYYY-MM-DD (UTC)."""
    return _ymd(ms)


def _build_entitlements(world: World) -> dict[str, SimEntitlement]:
    """About 50 entitlements per unit of scale, each with 1-20 line items."""
    rng = world.rng("entitlements")
    now = world.created_ms
    customers = world.customers
    result: dict[str, SimEntitlement] = {}
    statuses = ["DEPLOYED"] * 7 + ["DRAFT", "OBSOLETE", "INACTIVE"]
    states = {"DEPLOYED": "DEPLOYED", "DRAFT": "DRAFT", "OBSOLETE": "OBSOLETE", "INACTIVE": "INACTIVE"}
    orders = ["NEW_ORDER"] * 6 + ["RENEWAL_ORDER", "UPGRADE_ORDER", "UPSELL_ORDER"]
    serial = 0
    for i in range(world.count(50, 30)):
        account = customers[0] if i < 3 else rng.choice(customers)
        created = now - rng.randrange(1, 700) * DAY_MS - rng.randrange(DAY_MS)
        status = rng.choice(statuses)
        ent = SimEntitlement(
            entitlement_id=f"ENT-{100000 + i:06d}",
            account_id=account.account_id,
            status=status,
            created_ms=created,
            updated_ms=min(now, created + rng.randrange(0, 60) * DAY_MS),
            description=rng.choice(
                ["", "Annual subscription", "Perpetual licence with maintenance", "Trial extension", "Enterprise agreement"]
            ),
            ship_to_email=f"licensing@{account.name.lower().replace(' ', '-')}.example",
            ship_to_address=f"{rng.randint(1, 999)} Main Street {account.city}",
            attributes={"Region": rng.choice(["AMER", "EMEA", "APAC"]), "SalesOrder": f"SO-{rng.randrange(10**6):06d}"},
            allow_portal_login=rng.random() < 0.5,
        )
        n_items = rng.choice([1, 1, 2, 2, 3, 4, 5, 8, 12, 20]) if world.scale <= 10 else rng.randint(1, 20)
        for _ in range(n_items):
            serial += 1
            product = rng.choice(world.products)
            start = created + rng.randrange(0, 10) * DAY_MS
            permanent = product.license_model == "Perpetual" or rng.random() < 0.15
            ent.line_items.append(
                SimLineItem(
                    activation_id=f"ACT-{serial:07d}-{rng.randrange(16**4):04x}",
                    product=product,
                    quantity=rng.choice([1, 1, 5, 10, 25, 50, 100, 250]),
                    start_date=ymd(start),
                    expiry_date=None if permanent else ymd(start + rng.choice([30, 90, 365, 730]) * DAY_MS),
                    order_type=rng.choice(orders),
                    state=states[status] if rng.random() < 0.9 else rng.choice(["DRAFT", "DEPLOYED"]),
                    created_ms=start,
                    attributes={"CostCenter": f"CC-{rng.randrange(1000):03d}"},
                )
            )
        result[ent.entitlement_id] = ent
    return result
