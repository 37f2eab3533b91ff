"""Simulated container registry service (`{base}/registry/api/v1/…`), per seed 001.

The seed and the notes (§2) fix the endpoint list, the snake_case project
list, the camelCase project detail, `{"message": …}` errors, the event status
values, the downloads parameters and Java `Date.toString()` timestamps. Where
they are silent this simulator chooses as follows, so a client must cope:

Authentication
- `GET /authenticate` takes `Authorization: Basic <b64 user:pass>` or
  `Fno <b64 user:pass>` and answers **the bare JWT as text/plain** (set
  `registry_store(world).auth_response = "json"` to get
  `{"token", "expiresAt", "expiresIn"}` instead; clients must accept both).
  It does not look at `x-publisherid`.
- The JWT is a real HS256 JWT (header `{"alg":"HS256","typ":"JWT"}`, payload
  `{"iss","sub","tenant","iat","exp"}`, seconds) signed with a random key per
  world. Lifetime 60 minutes (the Data Access JWT's), changeable for tests
  with `set_jwt_lifetime(world, seconds)`. Time is the world's clock.
- Only active users holding "View and Manage Download Packages" may
  authenticate (others: 403); wrong credentials 401 "Authentication failed…".
- Every other call needs `Authorization: Bearer <JWT>` (missing, malformed,
  forged or expired: 401) and then `x-publisherid` equal to the world's
  tenant ID (missing: 400, different: 403; both messages name the header and
  the expected value). The JWT's user must still hold the permission (403).

Projects, repositories, charts
- Pages are 1-based. `page` defaults to 1 and `pageSize` to 10 everywhere
  (the members default, applied to all lists). Every list allows up to 100
  (Harbor's limit) under `strict-paging`, the default; without it projects
  and downloads allow `pageSize` up to 1000.
  Non-integers and out-of-range values answer 400 naming the parameter. A
  page past the end is an empty array. List answers carry `X-Total-Count`
  (Harbor's header, an extension: the docs show bare arrays only), except
  under `registry-no-total`.
- A project name in a path is taken exactly: with the shared-registry
  tenant prefix (`1107-hello-world-dp`) it is 404, as the docs say to omit
  the prefix (RESTSWContDelivRetrieveArt.htm; this simulator used to drop
  it, more leniently than documented). Unknown project: 404
  `{"message": "Project not found"}`.
- The fixed project `hello-world-dp` reproduces the docs sample (repository
  `hello-world-dp/hello-world-image` with 1 artifact and 3 pulls, chart
  `hello-world-dp/hello-world-chart` 0.1.0) and has the Acme Robotics users
  as members; the others are generated from the world's products.
- Repository and chart names are accepted short (`hello-world-image`), full
  (`hello-world-dp/hello-world-image`), with `/` raw or as `%2F`, and Harbor's
  double encoding `%252F`. The seed's query forms
  `DELETE /projects/{p}/repositories?repository_name=…` and
  `GET /projects/{p}/repositories/artifacts?repository_name=…` work too.
- Chart detail is `{"name","project","fullName","latestVersion","versions":[…]}`
  with versions newest first; each version has the ChartVersion fields
  (`name, version, appVersion, digest, created` ISO, `urls, description,
  apiVersion, home, keywords, maintainers, helmCommand`).
- Deleting a chart or repository answers 200 with an empty body; a second
  delete answers 404 "Chart not found" / "Repository not found".
- Artifacts are Harbor v2 artifacts (snake_case, ISO times with Z, newest push
  first). `withTag` (default true) includes `tags`; `withLabel`,
  `withScanOverview`, `withSignature`, `withImmutableStatus` (default false)
  add `labels`, `scan_overview`, `tags[].signed`, `tags[].immutable`.
  Boolean parameters accept true/false (any case) and nothing else.
- Project detail timestamps use Java MEDIUM ("Aug 4, 2021, 7:00:00 AM", UTC);
  a package without expiry has `expirationDateTimestamp: null`.

Members
- Producers holding the download-package permission (admins with Create
  Impersonated Token are `projectAdmin`/1, others `maintainer`/4) followed by
  the active customer users of every account holding a non-DRAFT,
  non-OBSOLETE entitlement to the project's product (`guest`/3), each group
  sorted by user name. `user_id` matches `entityName` case-insensitively and
  gives a list of zero or one member. `page_size` (snake_case, as documented);
  `pageSize` is accepted as well.

Download log
- `year`, `page` and `pageSize` are required (400 "Bad request format. Missing
  required query parameter(s): …" naming each); `month` is optional (1-12;
  without it the whole year). Entries are newest first; `id`s count up in time
  order; `artifact` is `project/image:tag` or `project/charts/chart-x.y.z.tgz`;
  `account` is, as the docs' sample `"[test_acc1]"` shows ("the account to
  which user belongs", RESTSWContDelivDownLogs.htm), the names of the user's
  accounts as a Java list printed as text: `"[Acme Robotics]"`, and
  `"[Acme Robotics, Nimbus Systems]"` for every fifth customer user, who
  belongs to a second account here (the world's users have one; the log
  gives them another so a client meets the list). Extensions: optional exact
  filters `project`, `username` (case-insensitive) and `account` (any of the
  entry's accounts by ID or name, case-insensitive). Entries span the 400
  days before the world's creation; users are active customer users, each
  account favouring a few projects (not checked against entitlements, so the
  log does not force the entitlement part to be built). No dialect sends a
  bare name: no source shows one (a client reads it anyway).

Event status and secrets
- `/event/{user}/status` needs `entity_type=USER` exactly. Every world user
  has a record (mostly Processed, some In-Progress, a few Cancelled; the seeded
  customer is Processed); anyone else is 404 "No record found!".
- `GET /secret` and `GET /secret/{email}` answer the caller's secret Base64
  encoded, as bare text/plain. Another user's email (case-insensitive
  compare) is 403. `PUT /secret` takes `{"new-password": …}` or the docs'
  `{"existing-secret": b64, "new-secret": …}`; an existing-secret that does
  not match is 400. A missing, null or empty new value (or no body) generates
  a random 16-character secret; otherwise the strength rules apply and the 400
  names every rule broken. The answer is the new secret, Base64, text/plain.

Dialects (pages under docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/)
- Paging of projects, members, artifacts and downloads follows paging.py;
  under `strict-paging` every registry list allows at most 100 per page,
  Harbor's documented `page_size` maximum (the registry takes Harbor's list
  parameters, RESTSWContDelivRetrieveArt.htm).
- `jwt-in-header`: `/authenticate` answers 200 with an empty body and the
  JWT in the response header `Authorization: Bearer <jwt>`
  (RESTSWContDelivAuthentication.htm says only "the response will include a
  JWT").
- `secret-docs-only`: only the docs' forms work: `GET /secret` and `PUT
  /secret` with `{"existing-secret": <Base64 of the current secret>,
  "new-secret": …}` (RESTSWContDelivSecretRetrieve.htm,
  RESTSWContDelivSecretChange.htm); existing-secret is then required. The
  seed's `GET /secret/{user-email}` answers 404 and a body with
  `new-password` answers 400.
- `project-detail-openapi`: `GET /projects/{p}` answers in the form of the
  OpenAPI sample (https://fnoapi-registry.redoc.ly/): `{"artifacts": [every
  artifact of the project as Harbor writes it, keys in alphabetical order:
  annotations, digest, extra_attrs, …, tags], "charts": […],
  "repositories": […]}`, with the docs' repository and chart items and no
  `downloadPackageId` or `name`.
- `reject-encoded-slash` (app.py) refuses `%2F` before routing; in every
  dialect a repository is addressed by its name without the `project/`
  prefix (`/projects/hello-world-dp/repositories/hello-world-image/artifacts`,
  RESTSWContDelivRetrieveArt.htm and RESTSWContDelivDeleteImage.htm), and a
  nested name may arrive with raw slashes (`…/repositories/team/image/artifacts`).
  Outside that dialect the `%2F`-encoded full name still works.
- `members-filter-fuzzy`: `user_id` keeps the members whose `entityName`
  contains it, case-insensitively, as Harbor's member name filter does (the
  docs say only that it "is identical with the entityName field",
  RESTSWContDelivListMembers.htm): asking for ann@… also answers joann@….
- `jwt-expired-403`: a Bearer value that is no JWT, or a JWT that is forged,
  unreadable, expired or of another tenant, is 403 `{"message":
  "Authentication failed"}` (RESTSWContDelivDownLogs.htm lists 403
  "Authentication failed"; a Spring JWT filter answers so). A missing
  Authorization header stays 401; the permission and x-publisherid refusals
  stay 403 with their own messages.
- `secret-history`: `PUT /secret` refuses (400, naming the field) a new
  secret equal to the current one or to one of the last 5, a password
  policy stricter than the documented strength rules (RESTSWContDelivSecretChange.htm).
- `shared-registry-prefix`: `GET /projects` lists every name with the
  tenant ID prefix (`1107-hello-world-dp`), as a shared registry does; paths
  still take the name without it (a prefixed name is 404 in every dialect
  but the next).
- `dedicated-registry-tenant-name`: a dedicated registry, whose names are
  never prefixed (the docs prefix names only "if you are using a shared
  registry", RESTSWContDelivRetrieveArt.htm), where a producer named a
  download package with the tenant ID in front: beside `hello-world-dp` it
  holds `1107-hello-world-dp` (its own package, ID and record, the same
  repository and chart names), listed and addressed by that exact name. A
  client that drops the prefix from a path reads, or deletes from,
  `hello-world-dp` instead. The project lives beside the world's (built on
  first use, `RegistryStore.tenant_named`), so other dialects never see it.
- `artifacts-docs-envelope`: the artifacts list answers the docs' form
  (RESTSWContDelivRetrieveArt.htm): a project object `{id,
  downloadPackageId, version, tenantId, artifacts: [...]}` whose items are
  camelCase with MEDIUM times (`size, pushTime, scanOverview, tags,
  pullTime, labels, references, manifestMediaType`) and, as far as the
  docs' sample goes, no `digest` and no `id`; no X-Total-Count.
- `registry-no-total`: the lists of projects, members, artifacts and downloads
  answer the bare array alone, with no X-Total-Count and no total field, as
  the docs' samples show them (RESTSWContDelivProjRetrieve.htm,
  RESTSWContDelivListMembers.htm, RESTSWContDelivRetrieveArt.htm,
  RESTSWContDelivDownLogs.htm): how many items, and so whether a page
  follows, is not said. It combines with the paging dialects.
- `null-collections` (app.py): empty lists, tags, urls, keywords, charts and
  repositories are `null`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import string
import threading
import zlib
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from flextui.sim.common import SimError, basic_credentials, dialects_of, json_response, read_json, require_object, world_of
from flextui.sim.paging import HARBOR_MAX, Paging, window
from flextui.sim.rules import secret_weaknesses
from flextui.sim.timefmt import iso as iso_string
from flextui.sim.timefmt import java_date as java_date_string
from flextui.sim.timefmt import java_medium as java_medium_string
from flextui.sim.world import CUSTOMER, DAY_MS, PERM_DOWNLOAD_PACKAGES, SimProduct, SimUser, World

MOUNT = "/registry/api/v1"
DEFAULT_JWT_LIFETIME_S = 3600
HELLO = "hello-world-dp"
ACME_ACCOUNT = "101200004242"
MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json"
ROLE_ADMIN = (1, "projectAdmin")
ROLE_MAINTAINER = (4, "maintainer")
ROLE_GUEST = (3, "guest")
EVENT_STATUSES = ("Processed", "In-Progress", "Cancelled")
IMAGE_SUFFIXES = ("server", "worker", "ui", "api", "agent", "db-migrate", "cli", "license-server", "gateway", "scheduler")
VARIANTS = ("lts", "eu", "apac", "beta", "hotfix", "ga", "edge", "dp")
SECRET_ALPHABET = string.ascii_letters + string.digits
SECRET_HISTORY = 5  # `secret-history`: how many earlier secrets may not be used again
PROJECTS_PAGING = Paging("registry", ("pageSize", "page_size"), 10, 1000, documented_max=HARBOR_MAX)
MEMBERS_PAGING = Paging("registry", ("page_size", "pageSize"), 10, HARBOR_MAX, documented_max=HARBOR_MAX)
ARTIFACTS_PAGING = Paging("registry", ("pageSize", "page_size"), 10, HARBOR_MAX, documented_max=HARBOR_MAX)
DOWNLOADS_PAGING = Paging("registry", ("pageSize",), 10, 1000, documented_max=HARBOR_MAX)
DEDICATED_TENANT_NAME = "dedicated-registry-tenant-name"


# -- data ---------------------------------------------------------------------------------


@dataclass
class SimChartVersion:
    version: str
    app_version: str
    digest: str
    created_ms: int
    description: str
    keywords: list[str]
    home: str


@dataclass
class SimChart:
    name: str  # short name, without the project
    score: int
    versions: list[SimChartVersion]  # oldest first


@dataclass
class SimTag:
    id: int
    name: str
    push_ms: int
    pull_ms: int | None
    immutable: bool = False
    signed: bool = False


@dataclass
class SimArtifact:
    id: int
    digest: str
    size: int
    push_ms: int
    pull_ms: int | None
    tags: list[SimTag]
    architecture: str
    version: str


@dataclass
class SimRepository:
    id: int
    name: str  # short name, without the project
    created_ms: int
    pull_count: int
    artifact_count: int
    artifacts: list[SimArtifact] | None = None  # built on first listing


@dataclass
class SimProject:
    project_id: int
    record_id: int
    sys_id: int
    name: str
    package_name: str
    version: str
    product: SimProduct | None
    created_ms: int
    updated_ms: int
    effective_ms: int
    expiration_ms: int | None
    product_line: str
    available: bool
    restricted: bool
    owner: bool
    public: bool
    image_names: list[str]
    chart_names: list[str]
    extra_accounts: frozenset[str] = frozenset()
    repos: dict[str, SimRepository] | None = None  # built on first detail
    charts: dict[str, SimChart] | None = None

    @property
    def word(self) -> str:
        return self.product.name.split()[-1].lower() if self.product else "hello-world"


@dataclass(slots=True)
class SimDownload:
    id: int
    artifact: str
    project: str
    username: str
    account_id: str
    account_name: str
    ms: int
    also: tuple[tuple[str, str], ...] = ()
    """The user's other accounts, (ID, name) each, after the one above."""

    @property
    def accounts(self) -> tuple[tuple[str, str], ...]:
        """Every account of the user, (ID, name) each: their own first."""
        return ((self.account_id, self.account_name), *self.also)

    @property
    def account_names(self) -> tuple[str, ...]:
        return tuple(name for _, name in self.accounts)


def _hex(rng: Any, bits: int = 256) -> str:
    return f"{rng.getrandbits(bits):0{bits // 4}x}"


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def random_secret(rng: Any, length: int = 16) -> str:
    """A secret meeting the strength rules: an upper, a lower, a digit, then any letters and digits."""
    chars = [rng.choice(string.ascii_uppercase), rng.choice(string.ascii_lowercase), rng.choice(string.digits)]
    chars += [rng.choice(SECRET_ALPHABET) for _ in range(length - 3)]
    rng.shuffle(chars)
    return "".join(chars)


class RegistryStore:
    """The registry part of a world: projects (details built lazily), the download log, secrets, JWTs."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.jwt_lifetime_s = DEFAULT_JWT_LIFETIME_S
        self.auth_response = "text"  # or "json"
        self._jwt_key = secrets.token_bytes(32)
        self._lock = threading.RLock()
        self.projects: dict[str, SimProject] = {}
        self._sorted: list[SimProject] | None = None
        self._secrets: dict[str, str] = {}
        self._secret_history: dict[str, list[str]] = {}
        self._downloads: dict[tuple[int, int], list[SimDownload]] | None = None
        self._entitled: dict[str, set[str]] | None = None
        self._user_index = {name: i + 1 for i, name in enumerate(world.users)}
        self._tenant_named: SimProject | None = None  # `dedicated-registry-tenant-name`: built on first use
        self._generate_projects()

    # -- JWTs ---------------------------------------------------------------------------

    def issue_jwt(self, user: SimUser) -> tuple[str, int]:
        """A signed JWT for `user` and its expiry (epoch seconds)."""
        iat = self.world.now_ms() // 1000
        exp = iat + self.jwt_lifetime_s
        header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
        claims = {"iss": "flextui-sim-registry", "sub": user.username, "tenant": self.world.tenant_id, "iat": iat, "exp": exp}
        payload = _b64url(json.dumps(claims, separators=(",", ":")).encode())
        signature = _b64url(hmac.new(self._jwt_key, f"{header}.{payload}".encode(), hashlib.sha256).digest())
        return f"{header}.{payload}.{signature}", exp

    def verify_jwt(self, token: str) -> dict[str, Any]:
        """The claims of a JWT this store signed and that has not expired, or a 401."""
        parts = token.split(".")
        if len(parts) != 3:
            raise SimError(401, "the Bearer value is not a JWT: get one from GET /registry/api/v1/authenticate")
        expected = _b64url(hmac.new(self._jwt_key, f"{parts[0]}.{parts[1]}".encode(), hashlib.sha256).digest())
        if not hmac.compare_digest(expected, parts[2]):
            raise SimError(401, "the JWT signature is invalid: authenticate again")
        try:
            claims = json.loads(_unb64url(parts[1]))
            exp = int(claims["exp"])
        except (ValueError, KeyError, TypeError, binascii.Error):
            raise SimError(401, "the JWT payload is unreadable: authenticate again") from None
        if self.world.now_ms() >= exp * 1000:
            when = datetime.fromtimestamp(exp, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            raise SimError(401, f"the JWT expired at {when}: authenticate again")
        if claims.get("tenant") != self.world.tenant_id:
            raise SimError(401, "the JWT was issued for another tenant")
        return claims

    # -- projects -------------------------------------------------------------------------

    def _generate_projects(self) -> None:
        world = self.world
        rng = world.rng("registry")
        now = world.created_ms
        now_year = datetime.fromtimestamp(now / 1000, tz=UTC).year
        hello_created = int(datetime(2021, 8, 4, 7, 0, tzinfo=UTC).timestamp() * 1000)
        self._add(
            SimProject(
                project_id=11,
                record_id=369,
                sys_id=8592822,
                name=HELLO,
                package_name="Hello World Download Package",
                version="2021",
                product=None,
                created_ms=hello_created,
                updated_ms=hello_created + DAY_MS + 17_464_000,
                effective_ms=hello_created,
                expiration_ms=int(datetime(2025, 8, 4, 7, 0, tzinfo=UTC).timestamp() * 1000),
                product_line="748232",
                available=False,
                restricted=False,
                owner=False,
                public=False,
                image_names=["hello-world-image"],
                chart_names=["hello-world-chart"],
                extra_accounts=frozenset({ACME_ACCOUNT}),
            )
        )
        target = world.count(20, 40) + 1
        serial = 11
        sys_id = 8592822
        while len(self.projects) < target:
            product = rng.choice(world.products)
            slug = product.name.lower().replace(" ", "-")
            word = product.name.split()[-1].lower()
            year = min(now_year, int(product.version.split(".")[0]) + rng.choice((0, 0, 1, 2)))
            variant = rng.choice(VARIANTS)
            pattern = rng.randrange(5)
            if pattern == 0:
                name, label = f"{slug}-{year}", ""
            elif pattern == 1:
                name, label = f"flexdemo-{word}-{year}", ""
            elif pattern == 2:
                name, label = f"{slug}-{year}-{variant}", variant.upper()
            elif pattern == 3:
                quarter = rng.randint(1, 4)
                name, label = f"{word}-{year}-q{quarter}", f"Q{quarter}"
            else:
                release = rng.randint(1, 9)
                name, label = f"{slug}-{year}-r{release}", f"R{release}"
            if name in self.projects:
                name = f"{name}-{serial + 1}"
                if name in self.projects:
                    continue
            serial += 1
            sys_id += rng.randint(3, 400)
            created = min(now - 2 * DAY_MS, product.created_ms + rng.randrange(0, 300) * DAY_MS) - rng.randrange(DAY_MS)
            span_days = max(1, (now - created) // DAY_MS)
            updated = min(now, created + rng.randrange(0, span_days) * DAY_MS + rng.randrange(DAY_MS))
            effective = created - created % DAY_MS + 7 * 3_600_000
            expiration = None if rng.random() < 0.15 else effective + rng.choice((1, 2, 3, 5)) * 365 * DAY_MS
            images = [f"{word}-{s}" for s in rng.sample(IMAGE_SUFFIXES, rng.choice((0, 1, 1, 2, 2, 3, 3, 4, 5, 6)))]
            charts = rng.sample([word, f"{word}-operator", f"{word}-monitoring"], rng.choice((0, 0, 1, 1, 1, 2, 3)))
            self._add(
                SimProject(
                    project_id=serial if serial != 369 else serial + 10_000,
                    record_id=400 + serial,
                    sys_id=sys_id,
                    name=name,
                    package_name=f"{product.name} {year}{' ' + label if label else ''} Download Package",
                    version=product.version,
                    product=product,
                    created_ms=created,
                    updated_ms=updated,
                    effective_ms=effective,
                    expiration_ms=expiration,
                    product_line=f"{700000 + rng.randrange(100000)}",
                    available=rng.random() < 0.85,
                    restricted=rng.random() < 0.15,
                    owner=rng.random() < 0.7,
                    public=rng.random() < 0.1,
                    image_names=images,
                    chart_names=charts,
                )
            )

    def _add(self, project: SimProject) -> None:
        self.projects[project.name] = project
        self._sorted = None

    def sorted_projects(self) -> list[SimProject]:
        if self._sorted is None:
            self._sorted = sorted(self.projects.values(), key=lambda p: p.name)
        return self._sorted

    def project(self, name: str, dialects: frozenset[str] = frozenset()) -> SimProject:
        """The project a path names, exactly: a tenant-prefixed name is not found (the docs say to omit the prefix),
        except the one project of a dedicated registry named so (`dedicated-registry-tenant-name`)."""
        wanted = unquote(name).strip()
        project = self.projects.get(wanted)
        if project is None and DEDICATED_TENANT_NAME in dialects and wanted == self.tenant_named().name:
            project = self.tenant_named()
        if project is None:
            raise SimError(404, "Project not found")
        return project

    def listed(self, dialects: frozenset[str]) -> list[SimProject]:
        """The projects `GET /projects` lists, sorted by name (with the tenant-named one where the dialect has it)."""
        projects = self.sorted_projects()
        if DEDICATED_TENANT_NAME in dialects:
            projects = sorted([*projects, self.tenant_named()], key=lambda p: p.name)
        return projects

    def tenant_named(self) -> SimProject:
        """`dedicated-registry-tenant-name`'s project `{tenant}-hello-world-dp`: a package of its own whose
        repository and chart have `hello-world-dp`'s names, so a path that lost the prefix finds theirs."""
        with self._lock:
            if self._tenant_named is None:
                hello = self.projects[HELLO]
                self._tenant_named = replace(
                    hello,
                    project_id=10,
                    record_id=368,
                    sys_id=8592821,
                    name=f"{self.world.tenant_id}-{HELLO}",
                    package_name=f"Hello World Download Package ({self.world.tenant_id})",
                    version="2022",
                    image_names=["hello-world-image"],
                    chart_names=["hello-world-chart"],
                    repos=None,
                    charts=None,
                )
            return self._tenant_named

    def repositories(self, project: SimProject) -> dict[str, SimRepository]:
        """The project's repositories, built on first use (image names were fixed at generation)."""
        with self._lock:
            if project.repos is None:
                repos: dict[str, SimRepository] = {}
                for i, image in enumerate(project.image_names):
                    rng = self.world.rng(f"registry.repo.{project.name}/{image}")
                    if project.name == HELLO:
                        count, pulls = 1, 3
                    else:
                        count, pulls = rng.randint(1, 12), rng.randrange(0, 5000)
                    repos[image] = SimRepository(project.project_id * 100 + i + 1, image, project.created_ms, pulls, count)
                project.repos = repos
            return project.repos

    def charts(self, project: SimProject) -> dict[str, SimChart]:
        """The project's charts with their versions, built on first use."""
        with self._lock:
            if project.charts is None:
                charts: dict[str, SimChart] = {}
                for chart in project.chart_names:
                    charts[chart] = self._make_chart(project, chart)
                project.charts = charts
            return project.charts

    def _make_chart(self, project: SimProject, chart: str) -> SimChart:
        rng = self.world.rng(f"registry.chart.{project.name}/{chart}")
        if project.name == HELLO:
            created = int(datetime(2021, 8, 5, 11, 51, 4, tzinfo=UTC).timestamp() * 1000)
            digest = "b60b767e" + _hex(rng, 224)[:-4] + "24cc"
            version = SimChartVersion(
                "0.1.0",
                "1.16.0",
                digest,
                created,
                "A Helm chart for Kubernetes",
                ["hello-world"],
                "https://www.flexdemo.example/hello-world",
            )
            return SimChart(chart, 0, [version])
        product_name = project.product.name if project.product else chart
        versions: list[SimChartVersion] = []
        n = rng.randint(1, 6)
        span = max(DAY_MS, project.updated_ms - project.created_ms)
        minor, patch = 1, 0
        for i in range(n):
            created = project.created_ms + span * i // n + rng.randrange(DAY_MS)
            if rng.random() < 0.4:
                patch += 1
            else:
                minor, patch = minor + (i > 0), 0
            versions.append(
                SimChartVersion(
                    version=f"0.{minor}.{patch}",
                    app_version=f"{project.version}.{i}",
                    digest=_hex(rng),
                    created_ms=min(created, project.updated_ms),
                    description=f"Helm chart for {product_name}" + (" (operator)" if chart.endswith("operator") else ""),
                    keywords=[project.word, "flexdemo", "licensing"],
                    home=f"https://www.flexdemo.example/products/{project.word}",
                )
            )
        return SimChart(chart, rng.randrange(0, 5), versions)

    def artifacts(self, project: SimProject, repo: SimRepository) -> list[SimArtifact]:
        """The repository's artifacts, newest push first, built on first use."""
        with self._lock:
            if repo.artifacts is None:
                rng = self.world.rng(f"registry.artifacts.{project.name}/{repo.name}")
                start = project.created_ms
                span = max(DAY_MS, project.updated_ms - start)
                base = project.version.split(".")[0]
                items: list[SimArtifact] = []
                for i in range(repo.artifact_count):
                    push = start + span * i // max(1, repo.artifact_count) + rng.randrange(3_600_000)
                    pulled = rng.random() < 0.8
                    pull = min(project.updated_ms, push + rng.randrange(0, 30) * DAY_MS) if pulled else None
                    aid = repo.id * 100 + i + 1
                    version = f"{base}.{i // 3}.{i % 3}" if project.name != HELLO else "latest"
                    tags: list[SimTag] = []
                    if project.name == HELLO or rng.random() < 0.9 or i == repo.artifact_count - 1:
                        tags.append(SimTag(aid * 10 + 1, version, push, pull, immutable=rng.random() < 0.2, signed=rng.random() < 0.3))
                    items.append(
                        SimArtifact(
                            id=aid,
                            digest="sha256:" + _hex(rng),
                            size=rng.randint(15, 1500) * 1_048_576 + rng.randrange(1_048_576),
                            push_ms=push,
                            pull_ms=pull,
                            tags=tags,
                            architecture="arm64" if rng.random() < 0.2 else "amd64",
                            version=version,
                        )
                    )
                if items and project.name != HELLO:
                    newest = items[-1]
                    newest.tags.append(SimTag(newest.id * 10 + 2, "latest", newest.push_ms, newest.pull_ms))
                items.reverse()
                repo.artifacts = items
            return repo.artifacts

    def repo_count(self, project: SimProject) -> int:
        return len(project.repos) if project.repos is not None else len(project.image_names)

    def chart_count(self, project: SimProject) -> int:
        return len(project.charts) if project.charts is not None else len(project.chart_names)

    def find_repository(self, project: SimProject, name: str) -> SimRepository:
        repos = self.repositories(project)
        short = _short_name(project, name, self.world.tenant_id)
        repo = repos.get(short)
        if repo is None:
            raise SimError(404, f"Repository not found: {project.name}/{short}")
        return repo

    def delete_repository(self, project: SimProject, name: str) -> None:
        repo = self.find_repository(project, name)
        with self._lock:
            assert project.repos is not None
            del project.repos[repo.name]
            project.image_names.remove(repo.name)
            project.updated_ms = self.world.now_ms()

    def find_chart(self, project: SimProject, name: str) -> SimChart:
        short = _short_name(project, name, self.world.tenant_id)
        chart = self.charts(project).get(short)
        if chart is None:
            raise SimError(404, f"Chart not found: {project.name}/{short}")
        return chart

    def delete_chart(self, project: SimProject, name: str) -> None:
        chart = self.find_chart(project, name)
        with self._lock:
            assert project.charts is not None
            del project.charts[chart.name]
            project.chart_names.remove(chart.name)
            project.updated_ms = self.world.now_ms()

    # -- members ----------------------------------------------------------------------------

    def _entitled_accounts(self, product_name: str) -> set[str]:
        with self._lock:
            if self._entitled is None:
                index: dict[str, set[str]] = {}
                for ent in self.world.entitlements.values():
                    if ent.status in ("DRAFT", "OBSOLETE"):
                        continue
                    for item in ent.line_items:
                        index.setdefault(item.product.name, set()).add(ent.account_id)
                self._entitled = index
            return self._entitled.get(product_name, set())

    def members(self, project: SimProject) -> list[dict[str, Any]]:
        users = self.world.users.values()
        producers = sorted(
            (u for u in users if u.kind == "producer" and u.status == "active" and PERM_DOWNLOAD_PACKAGES in u.permissions),
            key=lambda u: u.username,
        )
        accounts = set(project.extra_accounts)
        if project.product is not None:
            accounts |= self._entitled_accounts(project.product.name)
        customers = sorted(
            (u for u in users if u.kind == "customer" and u.status == "active" and u.account_id in accounts), key=lambda u: u.username
        )
        result = []
        for user in producers + customers:
            role = ROLE_GUEST if user.kind == "customer" else ROLE_ADMIN if user.may_impersonate else ROLE_MAINTAINER
            idx = self._user_index.get(user.username, 0)
            result.append(
                {
                    "id": project.project_id * 100_000 + idx,
                    "projectId": project.project_id,
                    "entityName": user.username,
                    "entityType": "u",
                    "entityId": idx,
                    "roleName": role[1],
                    "roleId": role[0],
                }
            )
        return result

    # -- downloads ----------------------------------------------------------------------------

    def downloads(self, year: int, month: int | None) -> list[SimDownload]:
        """The log entries of a year (or one month of it), newest first."""
        with self._lock:
            if self._downloads is None:
                self._downloads = self._generate_downloads()
        if month is not None:
            return self._downloads.get((year, month), [])
        rows: list[SimDownload] = []
        for m in range(12, 0, -1):
            rows.extend(self._downloads.get((year, m), []))
        return rows

    def _generate_downloads(self) -> dict[tuple[int, int], list[SimDownload]]:
        world = self.world
        rng = world.rng("registry.downloads")
        now = world.created_ms
        customers = [u for u in world.users.values() if u.kind == "customer" and u.status == "active"]
        projects = [p for p in self.projects.values() if p.image_names or p.chart_names]
        favourites: dict[str, list[SimProject]] = {}
        rows: list[tuple[int, str, str, SimUser]] = []
        window = 400 * DAY_MS
        for _ in range(world.count(500)):
            user = rng.choice(customers)
            favs = favourites.get(user.account_id)
            if favs is None:
                favs = favourites[user.account_id] = rng.sample(projects, min(len(projects), rng.randint(1, 4)))
            project = rng.choice(favs)
            ms = now - rng.randrange(window)
            if project.chart_names and (not project.image_names or rng.random() < 0.2):
                chart = rng.choice(project.chart_names)
                artifact = f"{project.name}/charts/{chart}-0.{rng.randint(1, 6)}.{rng.randint(0, 3)}.tgz"
            else:
                image = rng.choice(project.image_names)
                tag = rng.choice(("latest", f"{project.version.split('.')[0]}.{rng.randint(0, 3)}.{rng.randint(0, 2)}"))
                artifact = f"{project.name}/{image}:{tag}"
            rows.append((ms, artifact, project.name, user))
        rows.sort(key=lambda r: r[0])
        also = self._second_accounts(customers)
        by_month: dict[tuple[int, int], list[SimDownload]] = {}
        for i, (ms, artifact, project_name, user) in enumerate(rows):
            when = datetime.fromtimestamp(ms / 1000, tz=UTC)
            account = world.accounts.get(user.account_id)
            entry = SimDownload(
                i + 1,
                artifact,
                project_name,
                user.username,
                user.account_id,
                account.name if account else user.account_id,
                ms,
                also.get(user.username, ()),
            )
            by_month.setdefault((when.year, when.month), []).append(entry)
        for entries in by_month.values():
            entries.reverse()
        return by_month

    def _second_accounts(self, customers: list[SimUser]) -> dict[str, tuple[tuple[str, str], ...]]:
        """Users who belong to a second account too, in the log only: every fifth customer (by user name)
        also belongs to the next customer or partner account after their own (the world's users have one)."""
        accounts = sorted(
            (a for a in self.world.accounts.values() if a.account_type in ("CUSTOMER", "CHANNEL_PARTNER")), key=lambda a: a.account_id
        )
        ids = [a.account_id for a in accounts]
        out: dict[str, tuple[tuple[str, str], ...]] = {}
        for index, user in enumerate(sorted(customers, key=lambda u: u.username)):
            if index % 5 != 2 or len(accounts) < 2:
                continue
            at = ids.index(user.account_id) if user.account_id in ids else -1
            other = accounts[(at + 1) % len(accounts)]
            if other.account_id != user.account_id:
                out[user.username] = ((other.account_id, other.name),)
        return out

    # -- secrets and events ------------------------------------------------------------------

    def secret(self, username: str) -> str:
        with self._lock:
            if username not in self._secrets:
                self._secrets[username] = random_secret(self.world.rng(f"registry.secret.{username}"))
            return self._secrets[username]

    def set_secret(self, username: str, value: str) -> None:
        with self._lock:
            old = self._secrets.get(username)
            if old is not None:
                self._secret_history.setdefault(username, []).append(old)
                del self._secret_history[username][:-SECRET_HISTORY]
            self._secrets[username] = value

    def reused_secret(self, username: str, value: str) -> bool:
        """`secret-history`: whether `value` is the current secret or one of the last SECRET_HISTORY."""
        with self._lock:
            return value == self.secret(username) or value in self._secret_history.get(username, [])

    def event_status(self, entity: str) -> str | None:
        user = self.world.users.get(entity) or next((u for u in self.world.users.values() if u.username.lower() == entity.lower()), None)
        if user is None:
            return None
        if user.username == CUSTOMER[0]:
            return "Processed"
        roll = zlib.crc32(f"{self.world.seed}:{user.username}".encode()) % 10
        return EVENT_STATUSES[2] if roll == 0 else EVENT_STATUSES[1] if roll <= 2 else EVENT_STATUSES[0]


def registry_store(world: World) -> RegistryStore:
    return world.part("registry", RegistryStore)


def set_jwt_lifetime(world: World, seconds: int) -> None:
    """Change how long newly issued JWTs live (tests of expiry and re-authentication)."""
    registry_store(world).jwt_lifetime_s = seconds


def _short_name(project: SimProject, name: str, tenant: str) -> str:
    """`hello-world-dp/hello-world-image`, `hello-world-image`, tenant-prefixed or `%2F`-encoded forms → the short name."""
    name = name.strip()
    for _ in range(2):  # Harbor double-encodes slashes (%252F)
        if "%" in name:
            name = unquote(name)
    for prefix in (f"{project.name}/", f"{tenant}-{project.name}/"):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


# -- rendering ------------------------------------------------------------------------------


def render_project_row(store: RegistryStore, p: SimProject) -> dict[str, Any]:
    return {
        "project_id": p.project_id,
        "name": p.name,
        "repo_count": store.repo_count(p),
        "chart_count": store.chart_count(p),
        "creation_time": java_date_string(p.created_ms),
        "update_time": java_date_string(p.updated_ms),
    }


def render_chart_version(project: SimProject, chart: SimChart, v: SimChartVersion, tenant: str) -> dict[str, Any]:
    return {
        "name": chart.name,
        "version": v.version,
        "appVersion": v.app_version,
        "digest": v.digest,
        "created": iso_string(v.created_ms),
        "urls": [f"{project.name}/charts/{chart.name}-{v.version}.tgz"],
        "description": v.description,
        "apiVersion": "v2",
        "home": v.home,
        "keywords": list(v.keywords),
        "maintainers": [{"name": "FlexDemo Release Engineering", "email": "releases@flexdemo.example"}],
        "helmCommand": f"helm pull oci://registry.flexdemo.example/{tenant}-{project.name}/{chart.name} --version {v.version}",
    }


def render_project_detail(store: RegistryStore, p: SimProject) -> dict[str, Any]:
    tenant = store.world.tenant_id
    repos = store.repositories(p)
    charts = store.charts(p)
    publisher = store.world.accounts.get("FLEXDEMO")
    producer = f"{publisher.name} ({publisher.account_id})" if publisher else "FlexDemo Software (FLEXDEMO)"
    return {
        "id": p.record_id,
        "downloadPackageId": p.name,
        "sysDownloadPackageId": p.sys_id,
        "downloadPackageName": p.package_name,
        "version": p.version,
        "effectiveDateTimestamp": java_medium_string(p.effective_ms),
        "expirationDateTimestamp": java_medium_string(p.expiration_ms) if p.expiration_ms is not None else None,
        "downloadPackageAvailability": p.available,
        "downloadPackageProducer": producer,
        "productLine": p.product_line,
        "owner": p.owner,
        "restrictedDownloadPackage": p.restricted,
        "supportsDockerImagesAndHelmCharts": bool(repos) and bool(charts),
        "tenantId": tenant,
        "repositories": render_repository_items(store, p),
        "charts": render_chart_items(store, p),
    }


def render_repository_items(store: RegistryStore, p: SimProject) -> list[dict[str, Any]]:
    """The project detail's `repositories` items (the docs sample's fields)."""
    return [
        {
            "pullCount": r.pull_count,
            "artifactCount": r.artifact_count,
            "projectId": p.project_id,
            "repositoryName": f"{p.name}/{r.name}",
            "projectPublic": p.public,
        }
        for r in store.repositories(p).values()
    ]


def render_chart_items(store: RegistryStore, p: SimProject) -> list[dict[str, Any]]:
    """The project detail's `charts` items: each chart with its newest version."""
    tenant = store.world.tenant_id
    return [
        {"score": c.score, "name": f"{p.name}/{c.name}", "chart": render_chart_version(p, c, c.versions[-1], tenant)}
        for c in store.charts(p).values()
    ]


def render_project_openapi(store: RegistryStore, p: SimProject) -> dict[str, Any]:
    """The project detail in the OpenAPI sample's form: every artifact first, then the docs' arrays."""
    opts = {"withTag": True, "withLabel": False, "withScanOverview": False, "withSignature": False, "withImmutableStatus": False}
    artifacts = [
        dict(sorted(render_artifact(p, repo, a, opts).items())) for repo in store.repositories(p).values() for a in store.artifacts(p, repo)
    ]
    return {"artifacts": artifacts, "charts": render_chart_items(store, p), "repositories": render_repository_items(store, p)}


def render_artifact(p: SimProject, repo: SimRepository, a: SimArtifact, opts: dict[str, bool]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": a.id,
        "type": "IMAGE",
        "media_type": MEDIA_TYPE,
        "manifest_media_type": MEDIA_TYPE,
        "project_id": p.project_id,
        "repository_id": repo.id,
        "repository_name": f"{p.name}/{repo.name}",
        "digest": a.digest,
        "size": a.size,
        "push_time": iso_string(a.push_ms),
        "pull_time": iso_string(a.pull_ms) if a.pull_ms is not None else None,
        "icon": "",
        "annotations": {"org.opencontainers.image.version": a.version, "org.opencontainers.image.vendor": "FlexDemo Software"},
        "extra_attrs": {
            "architecture": a.architecture,
            "os": "linux",
            "created": iso_string(a.push_ms - 3_600_000),
            "author": "releases@flexdemo.example",
        },
    }
    if opts["withTag"]:
        tags = []
        for t in a.tags:
            tag: dict[str, Any] = {
                "id": t.id,
                "repository_id": repo.id,
                "artifact_id": a.id,
                "name": t.name,
                "push_time": iso_string(t.push_ms),
                "pull_time": iso_string(t.pull_ms) if t.pull_ms is not None else None,
            }
            if opts["withImmutableStatus"]:
                tag["immutable"] = t.immutable
            if opts["withSignature"]:
                tag["signed"] = t.signed
            tags.append(tag)
        body["tags"] = tags
    if opts["withLabel"]:
        body["labels"] = []
    if opts["withScanOverview"]:
        body["scan_overview"] = {
            "application/vnd.security.vulnerability.report; version=1.1": {
                "scan_status": "Success",
                "severity": ("None", "Low", "Medium", "High")[a.id % 4],
                "complete_percent": 100,
                "summary": {"total": a.id % 4 * 3, "fixable": a.id % 4},
            }
        }
    return body


def render_artifacts_docs(store: RegistryStore, p: SimProject, items: list[dict[str, Any]]) -> dict[str, Any]:
    """`artifacts-docs-envelope`: the docs' answer, a project object around the page's artifacts (no total)."""
    return {"id": p.record_id, "downloadPackageId": p.name, "version": p.version, "tenantId": store.world.tenant_id, "artifacts": items}


def render_artifact_docs(a: SimArtifact, opts: dict[str, bool]) -> dict[str, Any]:
    """An artifact as the docs' sample shows it: camelCase, MEDIUM times, no `digest` and no `id`."""
    body: dict[str, Any] = {
        "size": a.size,
        "pushTime": java_medium_string(a.push_ms),
        "scanOverview": {},
        "tags": [
            {
                "name": t.name,
                "pushTime": java_medium_string(t.push_ms),
                "pullTime": java_medium_string(t.pull_ms) if t.pull_ms is not None else None,
            }
            for t in a.tags
        ]
        if opts["withTag"]
        else [],
        "pullTime": java_medium_string(a.pull_ms) if a.pull_ms is not None else None,
        "labels": [],
        "references": [],
        "manifestMediaType": MEDIA_TYPE,
    }
    return body


def java_list(items: tuple[str, ...]) -> str:
    """A Java list printed as text (`List.toString()`): `[a, b]`."""
    return "[" + ", ".join(items) + "]"


def render_download(d: SimDownload) -> dict[str, Any]:
    """A log entry as the docs' sample shows it: `account` is the user's account names as a Java list printed
    as text, `"[test_acc1]"` (RESTSWContDelivDownLogs.htm), two accounts `"[a, b]"`."""
    return {
        "id": d.id,
        "artifact": d.artifact,
        "username": d.username,
        "account": java_list(d.account_names),
        "timestamp": java_date_string(d.ms),
    }


# -- request helpers ------------------------------------------------------------------------


def _caller(request: Request) -> SimUser:
    """The JWT's user, after checking the Bearer JWT and then x-publisherid."""
    world = world_of(request)
    store = registry_store(world)
    header = request.headers.get("authorization", "").strip()
    if not header:
        raise SimError(
            401,
            "Unauthorized: the Authorization header is missing; send 'Authorization: Bearer <JWT>' with a JWT from GET /registry/api/v1/authenticate",
        )
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise SimError(
            401, "Unauthorized: the Authorization header must be 'Bearer <JWT>' (get the JWT from GET /registry/api/v1/authenticate)"
        )
    try:
        claims = store.verify_jwt(value.strip())
    except SimError as exc:
        if "jwt-expired-403" in dialects_of(request):  # a Spring JWT filter's Http403ForbiddenEntryPoint
            raise SimError(403, "Authentication failed") from exc
        raise
    user = world.users.get(str(claims.get("sub")))
    if user is None or user.status != "active":
        raise SimError(401, "Unauthorized: the JWT's user is unknown or inactive")
    if PERM_DOWNLOAD_PACKAGES not in user.permissions:
        raise SimError(403, f"user {user.username} lacks the permission '{PERM_DOWNLOAD_PACKAGES}'")
    publisher = request.headers.get("x-publisherid")
    if publisher is None or not publisher.strip():
        raise SimError(
            400, f"the request header x-publisherid is required: send the tenant ID of this registry (x-publisherid: {world.tenant_id})"
        )
    if publisher.strip() != world.tenant_id:
        raise SimError(
            403, f"the request header x-publisherid {publisher.strip()!r} does not match this registry's tenant: expected {world.tenant_id}"
        )
    return user


def _int(request: Request, *names_: str, default: int | None = None, minimum: int = 1, maximum: int | None = None) -> int | None:
    """An integer query parameter under any of `names_` (first wins), validated."""
    for name in names_:
        raw = request.query_params.get(name)
        if raw is None:
            continue
        try:
            value = int(raw.strip())
        except ValueError:
            raise SimError(400, f"Bad request format. Query parameter '{name}' must be a whole number (got {raw!r})", name) from None
        if value < minimum:
            raise SimError(400, f"Bad request format. Query parameter '{name}' must be at least {minimum} (got {value})", name)
        if maximum is not None and value > maximum:
            raise SimError(400, f"Bad request format. Query parameter '{name}' must be at most {maximum} (got {value})", name)
        return value
    return default


def _bool(request: Request, name: str, default: bool) -> bool:
    snake = "with_" + name[4:].replace("Status", "_status").replace("Overview", "_overview").lower() if name.startswith("with") else name
    raw = request.query_params.get(name, request.query_params.get(snake))
    if raw is None or raw == "":
        return default
    low = raw.strip().lower()
    if low not in ("true", "false"):
        raise SimError(400, f"Bad request format. Query parameter '{name}' must be true or false (got {raw!r})", name)
    return low == "true"


NO_TOTAL = "registry-no-total"


def _list_response(request: Request, items: list[Any], total: int) -> Response:
    """A list answer: a bare array with Harbor's `X-Total-Count`, or, under `registry-no-total`, the bare array alone."""
    if NO_TOTAL in dialects_of(request):
        return json_response(items)
    return json_response(items, headers={"X-Total-Count": str(total)})


def _text(value: str) -> Response:
    return PlainTextResponse(value)


def _b64(value: str) -> str:
    return base64.b64encode(value.encode("utf-8")).decode("ascii")


# -- handlers -------------------------------------------------------------------------------


async def authenticate_jwt(request: Request) -> Response:
    world = world_of(request)
    store = registry_store(world)
    header = request.headers.get("authorization", "").strip()
    if not header:
        raise SimError(401, "Unauthorized: send 'Authorization: Basic <base64 of user:password>' (or 'Fno <…>')")
    creds = basic_credentials(header) or basic_credentials(header, "fno")
    if creds is None:
        raise SimError(
            401, "Unauthorized: the Authorization header must be 'Basic <base64 of user:password>' or 'Fno <base64 of user:password>'"
        )
    user = world.authenticate(*creds)
    if user is None:
        raise SimError(401, "Authentication failed: wrong user name or password, or the user is inactive")
    if PERM_DOWNLOAD_PACKAGES not in user.permissions:
        raise SimError(403, f"user {user.username} cannot use the registry service: the permission '{PERM_DOWNLOAD_PACKAGES}' is required")
    token, exp = store.issue_jwt(user)
    if "jwt-in-header" in dialects_of(request):
        return Response(status_code=200, headers={"Authorization": f"Bearer {token}"})
    if store.auth_response == "json":
        return json_response({"token": token, "expiresAt": iso_string(exp * 1000), "expiresIn": store.jwt_lifetime_s})
    return _text(token)


async def list_projects(request: Request) -> Response:
    _caller(request)
    store = registry_store(world_of(request))
    page = window(request.query_params, PROJECTS_PAGING, dialects_of(request))
    projects = store.listed(dialects_of(request))
    rows = [render_project_row(store, p) for p in page.take(projects)]
    if "shared-registry-prefix" in dialects_of(request):
        for row in rows:
            row["name"] = f"{store.world.tenant_id}-{row['name']}"
    return _list_response(request, rows, len(projects))


async def get_project(request: Request) -> Response:
    _caller(request)
    store = registry_store(world_of(request))
    project = store.project(request.path_params["project"], dialects_of(request))
    if "project-detail-openapi" in dialects_of(request):
        return json_response(render_project_openapi(store, project))
    return json_response(render_project_detail(store, project))


async def get_chart(request: Request) -> Response:
    _caller(request)
    store = registry_store(world_of(request))
    project = store.project(request.path_params["project"], dialects_of(request))
    chart = store.find_chart(project, request.path_params["chart"])
    tenant = store.world.tenant_id
    return json_response(
        {
            "name": chart.name,
            "project": project.name,
            "fullName": f"{project.name}/{chart.name}",
            "latestVersion": chart.versions[-1].version,
            "versions": [render_chart_version(project, chart, v, tenant) for v in reversed(chart.versions)],
        }
    )


async def delete_chart(request: Request) -> Response:
    _caller(request)
    store = registry_store(world_of(request))
    project = store.project(request.path_params["project"], dialects_of(request))
    store.delete_chart(project, request.path_params["chart"])
    return Response(status_code=200)


async def list_members(request: Request) -> Response:
    _caller(request)
    store = registry_store(world_of(request))
    project = store.project(request.path_params["project"], dialects_of(request))
    page = window(request.query_params, MEMBERS_PAGING, dialects_of(request))
    members = store.members(project)
    user_id = request.query_params.get("user_id")
    if user_id:
        wanted = user_id.strip().lower()
        if "members-filter-fuzzy" in dialects_of(request):
            members = [m for m in members if wanted in m["entityName"].lower()]
        else:
            members = [m for m in members if m["entityName"].lower() == wanted]
    return _list_response(request, page.take(members), len(members))


def _repository_param(request: Request) -> str:
    name = (
        request.path_params.get("repository") or request.query_params.get("repository_name") or request.query_params.get("repositoryName")
    )
    if not name:
        raise SimError(
            400,
            "Bad request format. The repository name is required: /projects/{project}/repositories/{repository_name} or ?repository_name=…",
            "repository_name",
        )
    return name


async def delete_repository(request: Request) -> Response:
    _caller(request)
    store = registry_store(world_of(request))
    project = store.project(request.path_params["project"], dialects_of(request))
    store.delete_repository(project, _repository_param(request))
    return Response(status_code=200)


async def list_artifacts(request: Request) -> Response:
    _caller(request)
    store = registry_store(world_of(request))
    project = store.project(request.path_params["project"], dialects_of(request))
    repo = store.find_repository(project, _repository_param(request))
    page = window(request.query_params, ARTIFACTS_PAGING, dialects_of(request))
    opts = {
        "withTag": _bool(request, "withTag", True),
        "withLabel": _bool(request, "withLabel", False),
        "withScanOverview": _bool(request, "withScanOverview", False),
        "withSignature": _bool(request, "withSignature", False),
        "withImmutableStatus": _bool(request, "withImmutableStatus", False),
    }
    artifacts = store.artifacts(project, repo)
    if "artifacts-docs-envelope" in dialects_of(request):
        return json_response(render_artifacts_docs(store, project, [render_artifact_docs(a, opts) for a in page.take(artifacts)]))
    return _list_response(request, [render_artifact(project, repo, a, opts) for a in page.take(artifacts)], len(artifacts))


async def list_downloads(request: Request) -> Response:
    _caller(request)
    store = registry_store(world_of(request))
    missing = [name for name in ("year", "page", "pageSize") if not request.query_params.get(name)]
    if missing:
        noun = "parameter" if len(missing) == 1 else "parameters"
        raise SimError(400, f"Bad request format. Missing required query {noun}: {', '.join(missing)}", missing[0])
    year = _int(request, "year", minimum=1970, maximum=9999)
    month = _int(request, "month", minimum=1, maximum=12)
    page = window(request.query_params, DOWNLOADS_PAGING, dialects_of(request))
    assert year is not None
    rows = store.downloads(year, month)
    project = request.query_params.get("project")
    username = request.query_params.get("username")
    account = request.query_params.get("account")
    if project:
        wanted_project = project.strip().removeprefix(f"{store.world.tenant_id}-")
        rows = [r for r in rows if r.project == wanted_project]
    if username:
        wanted_user = username.strip().lower()
        rows = [r for r in rows if r.username.lower() == wanted_user]
    if account:
        wanted_account = account.strip().lower()
        rows = [r for r in rows if any(wanted_account in (i.lower(), n.lower()) for i, n in r.accounts)]
    return _list_response(request, [render_download(r) for r in page.take(rows)], len(rows))


async def event_status(request: Request) -> Response:
    _caller(request)
    store = registry_store(world_of(request))
    if request.query_params.get("entity_type") != "USER":
        raise SimError(400, "Invalid Entity_Type. Supported types: [USER]", "entity_type")
    status = store.event_status(unquote(request.path_params["entity"]))
    if status is None:
        raise SimError(404, "No record found!")
    return json_response({"status": status})


async def get_secret(request: Request) -> Response:
    caller = _caller(request)
    store = registry_store(world_of(request))
    email = request.path_params.get("email")
    if email is not None and "secret-docs-only" in dialects_of(request):
        raise SimError(404, "no such endpoint: GET /secret/{user-email}; the registry secret is read with GET /secret")
    if email is not None and unquote(email).strip().lower() != caller.username.lower():
        raise SimError(403, f"you can only read your own registry secret: you are logged in as {caller.username}")
    return _text(_b64(store.secret(caller.username)))


async def put_secret(request: Request) -> Response:
    caller = _caller(request)
    store = registry_store(world_of(request))
    body = await read_json(request, required=False)
    body = {} if body is None else require_object(body)
    if "secret-docs-only" in dialects_of(request):
        _docs_form_only(body)
    existing = body.get("existing-secret")
    if existing not in (None, ""):
        if not isinstance(existing, str):
            raise SimError(400, "existing-secret must be a string (the current secret, Base64-encoded)", "existing-secret")
        try:
            current = base64.b64decode(existing.strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            raise SimError(400, "existing-secret is not valid Base64: send the current secret Base64-encoded", "existing-secret") from None
        if not hmac.compare_digest(current, store.secret(caller.username)):
            raise SimError(400, "existing-secret does not match your current registry secret", "existing-secret")
    key = "new-password" if "new-password" in body else "new-secret"
    new = body.get(key)
    if new is None or new == "":
        new = random_secret(secrets.SystemRandom())
    elif not isinstance(new, str):
        raise SimError(400, f"{key} must be a string", key)
    else:
        problems = secret_weaknesses(new)
        if problems:
            raise SimError(400, f"the new secret is too weak: it must have {'; '.join(problems)}", key)
        if "secret-history" in dialects_of(request) and store.reused_secret(caller.username, new):
            raise SimError(400, f"{key} must differ from the current secret and the last {SECRET_HISTORY} secrets", key)
    store.set_secret(caller.username, new)
    return _text(_b64(new))


def _docs_form_only(body: dict[str, Any]) -> None:
    """`secret-docs-only`: the body must be the docs' `{existing-secret, new-secret}`."""
    if "new-password" in body:
        raise SimError(
            400,
            'Bad request format. Unknown field \'new-password\': send {"existing-secret": <Base64 of the current secret>, "new-secret": …}',
            "new-password",
        )
    if body.get("existing-secret") in (None, ""):
        raise SimError(
            400, "Bad request format. 'existing-secret' is required: the current registry secret, Base64-encoded", "existing-secret"
        )


def routes(world: World) -> list[BaseRoute]:
    registry_store(world)  # projects now, so the first request is not the slow one; details stay lazy
    return [
        Route("/authenticate", authenticate_jwt, methods=["GET"]),
        Route("/projects", list_projects, methods=["GET"]),
        Route("/projects/{project}/members", list_members, methods=["GET"]),
        Route("/projects/{project}/charts/{chart:path}", get_chart, methods=["GET"]),
        Route("/projects/{project}/charts/{chart:path}", delete_chart, methods=["DELETE"]),
        Route("/projects/{project}/repositories/artifacts", list_artifacts, methods=["GET"]),
        Route("/projects/{project}/repositories", delete_repository, methods=["DELETE"]),
        Route("/projects/{project}/repositories/{repository:path}/artifacts", list_artifacts, methods=["GET"]),
        Route("/projects/{project}/repositories/{repository:path}", delete_repository, methods=["DELETE"]),
        Route("/projects/{project}", get_project, methods=["GET"]),
        Route("/downloads", list_downloads, methods=["GET"]),
        Route("/event/{entity:path}/status", event_status, methods=["GET"]),
        Route("/secret", get_secret, methods=["GET"]),
        Route("/secret", put_secret, methods=["PUT"]),
        Route("/secret/{email:path}", get_secret, methods=["GET"]),
    ]
