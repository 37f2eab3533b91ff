"""Headless registry listers: `flextui get projects|members|artifacts|downloads`.

The registry signs in with a user name and password (traded for a JWT), so
these listers take the whole context (`wants_context = True`) for its
credentials. `registry_for(ctx)` keeps one `RegistryService` per context, so
the JWT is fetched once and reused by every screen and lister.

Filters are `--filter KEY=VALUE` (repeatable); each lister names the keys it
knows and refuses others with the list of allowed ones.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Iterable
from datetime import date, datetime, timedelta, timezone
from typing import Any

from flextui.api.auth import MissingCredential
from flextui.api.registry import (
    ARTIFACTS_MAX_PAGE_SIZE,
    DOWNLOADS_MAX_PAGE_SIZE,
    MEMBERS_MAX_PAGE_SIZE,
    PROJECTS_MAX_PAGE_SIZE,
    Artifact,
    Download,
    Member,
    Project,
    RegistryService,
)

DEFAULT_DAYS = 30

class RegistryUnavailable(ValueError):
    """Why the registry cannot be used with this profile (no credentials, no tenant)."""


def registry_for(ctx: Any) -> RegistryService:
    """The context's one RegistryService (memoised in ctx.extras["registry"], so the JWT is reused)."""
    service = ctx.extras.get("registry")
    if isinstance(service, RegistryService):
        return service
    try:
        service = RegistryService(ctx.session)
    except (ValueError, MissingCredential) as exc:
        raise RegistryUnavailable(getattr(exc, "message", None) or str(exc)) from None
    ctx.extras["registry"] = service
    return service


def registry_problem(ctx: Any) -> str | None:
    """None when the registry can be used, else the reason (for screens and the CLI)."""
    try:
        registry_for(ctx)
    except RegistryUnavailable as exc:
        return str(exc)
    return None


# -- arguments ----------------------------------------------------------------------------------------


def parse_filters(items: Iterable[str] | None, allowed: Iterable[str], kind: str) -> dict[str, str]:
    """`["project=a", "user=b"]` → {"project": "a", "user": "b"}; unknown keys → ValueError naming the allowed ones."""
    allowed = list(allowed)
    out: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise ValueError(f"--filter {item!r}: write KEY=VALUE; {kind} knows {', '.join(allowed) or 'no filters'}")
        if key not in allowed:
            raise ValueError(f"--filter {key}: {kind} knows {', '.join(allowed) or 'no filters'}")
        out[key] = value.strip()
    return out


def parse_day(text: str, what: str) -> date:
    """A YYYY-MM-DD date, or ValueError naming `what`."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a date; write YYYY-MM-DD") from None


def date_range(from_text: str | None, to_text: str | None, today: date, *, days: int = DEFAULT_DAYS) -> tuple[date, date]:
    """The inclusive range to fetch: defaults to the `days` days ending today; checks the order."""
    end = parse_day(to_text, "to") if to_text else today
    start = parse_day(from_text, "from") if from_text else end - timedelta(days=days - 1)
    if start > end:
        raise ValueError(f"from {start.isoformat()} is after to {end.isoformat()}")
    return start, end


def page_size(args: argparse.Namespace, maximum: int) -> int:
    size = getattr(args, "page_size", None) or 100
    if size < 1:
        raise ValueError("--page-size must be at least 1")
    return min(size, maximum)


def _target(args: argparse.Namespace) -> str:
    return (getattr(args, "target", None) or "").strip()


def _iso(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


def today_utc(ctx: Any) -> date:
    return datetime.fromtimestamp(ctx.now_ms() / 1000, tz=timezone.utc).date()


def split_repository(target: str) -> tuple[str, str]:
    """`PROJECT/REPOSITORY` (the repository may contain more slashes) → (project, repository)."""
    project, sep, repository = target.strip().strip("/").partition("/")
    if not sep or not project or not repository:
        raise ValueError("give PROJECT/REPOSITORY, e.g. hello-world-dp/hello-world-image")
    return project, repository


# -- rows ------------------------------------------------------------------------------------------------


def project_row(p: Project) -> dict[str, Any]:
    return {"name": p.name, "project_id": p.project_id, "repo_count": p.repo_count, "chart_count": p.chart_count,
            "creation_time": _iso(p.created), "update_time": _iso(p.updated)}


def member_row(m: Member) -> dict[str, Any]:
    return {"entity_name": m.entity_name, "role_name": m.role_name, "entity_type": m.entity_type,
            "role_id": m.role_id, "entity_id": m.entity_id, "id": m.id, "project_id": m.project_id}


def artifact_row(a: Artifact) -> dict[str, Any]:
    return {"digest": a.digest, "tags": ",".join(a.tag_names), "size": a.size, "push_time": _iso(a.push_time),
            "pull_time": _iso(a.pull_time), "type": a.type, "media_type": a.media_type, "id": a.id}


def download_row(d: Download) -> dict[str, Any]:
    return {"timestamp": _iso(d.timestamp), "artifact": d.artifact, "username": d.username, "account": d.account,
            "project": d.project, "id": d.id}


# -- listers -----------------------------------------------------------------------------------------------


async def get_projects(ctx: Any, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Every project, alphabetically; `--filter name=TEXT` keeps names containing TEXT."""
    filters = parse_filters(getattr(args, "filter", None), ("name",), "projects")
    needle = filters.get("name", "").lower()
    service = registry_for(ctx)
    limit = None if needle else getattr(args, "limit", None)
    async for items in service.iter_projects(page_size(args, PROJECTS_MAX_PAGE_SIZE), max_items=limit):
        for project in items:
            if needle in project.name.lower():
                yield project_row(project)


async def get_members(ctx: Any, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Members of PROJECT; `--filter user=EMAIL` asks for one (the API's user_id), `role=NAME` narrows locally."""
    project = _target(args)
    if not project:
        raise ValueError("give the project: flextui get members PROJECT")
    filters = parse_filters(getattr(args, "filter", None), ("user", "role"), "members")
    service = registry_for(ctx)
    role = filters.get("role", "").lower()
    if filters.get("user"):
        member = await service.member(project, filters["user"])
        if member is not None and (not role or (member.role_name or "").lower() == role):
            yield member_row(member)
        return
    async for items in service.iter_members(project, page_size(args, MEMBERS_MAX_PAGE_SIZE)):
        for member in items:
            if not role or (member.role_name or "").lower() == role:
                yield member_row(member)


async def get_artifacts(ctx: Any, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Artifacts of PROJECT/REPOSITORY, newest push first; `--filter tag=NAME` keeps those tagged NAME."""
    project, repository = split_repository(_target(args))
    filters = parse_filters(getattr(args, "filter", None), ("tag",), "artifacts")
    service = registry_for(ctx)
    tag = filters.get("tag")
    async for items in service.iter_artifacts(project, repository, page_size(args, ARTIFACTS_MAX_PAGE_SIZE)):
        for artifact in items:
            if not tag or tag in artifact.tag_names:
                yield artifact_row(artifact)


async def get_downloads(ctx: Any, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """The download log, newest first: `--filter project= user= account= from=YYYY-MM-DD to=YYYY-MM-DD` (default: the last 30 days)."""
    filters = parse_filters(getattr(args, "filter", None), ("project", "user", "account", "from", "to"), "downloads")
    start, end = date_range(filters.get("from"), filters.get("to"), today_utc(ctx))
    service = registry_for(ctx)
    async for items in service.iter_downloads(
        start, end, project=filters.get("project") or None, username=filters.get("user") or None,
        account=filters.get("account") or None, page_size=page_size(args, DOWNLOADS_MAX_PAGE_SIZE),
    ):
        for entry in items:
            yield download_row(entry)


for _lister in (get_projects, get_members, get_artifacts, get_downloads):
    _lister.wants_context = True  # type: ignore[attr-defined]
