"""Headless registry listers: `flextui get projects|members|artifacts|downloads`.

The registry signs in with a user name and password (traded for a JWT), so
these listers take the whole context (`wants_context = True`) for its
credentials: `context.registry_for(ctx)` keeps one `RegistryService` per
context, so the JWT is fetched once and reused by every screen and lister.

Filters are `--filter KEY=VALUE` (repeatable); each lister names the keys it
knows and refuses others with the list of allowed ones.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from typing import Any

from flextui.api.registry import (
    ARTIFACTS_MAX_PAGE_SIZE,
    DOWNLOADS_MAX_PAGE_SIZE,
    MEMBERS_MAX_PAGE_SIZE,
    PROJECTS_MAX_PAGE_SIZE,
)
from flextui.context import registry_for
from flextui.headless.common import page_size
from flextui.query import date_range, parse_pairs, split_repository
from flextui.render.registry import artifact_row, download_row, member_row, project_row

# -- arguments ----------------------------------------------------------------------------------------


def _target(args: argparse.Namespace) -> str:
    return (getattr(args, "target", None) or "").strip()


def today_utc(ctx: Any) -> date:
    return datetime.fromtimestamp(ctx.now_ms() / 1000, tz=UTC).date()


# -- rows ------------------------------------------------------------------------------------------------


# -- listers -----------------------------------------------------------------------------------------------


async def get_projects(ctx: Any, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Every project, alphabetically; `--filter name=TEXT` keeps names containing TEXT."""
    filters = parse_pairs(getattr(args, "filter", None), ("name",), "projects")
    needle = filters.get("name", "").lower()
    service = registry_for(ctx)
    limit = None if needle else getattr(args, "limit", None)
    async for items in service.iter_projects(page_size(args, PROJECTS_MAX_PAGE_SIZE, default=100), max_items=limit):
        for project in items:
            if needle in project.name.lower():
                yield project_row(project)


async def get_members(ctx: Any, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Members of PROJECT; `--filter user=EMAIL` asks for one (the API's user_id), `role=NAME` narrows locally."""
    project = _target(args)
    if not project:
        raise ValueError("give the project: flextui get members PROJECT")
    filters = parse_pairs(getattr(args, "filter", None), ("user", "role"), "members")
    service = registry_for(ctx)
    role = filters.get("role", "").lower()
    if filters.get("user"):
        member = await service.member(project, filters["user"])
        if member is not None and (not role or (member.role_name or "").lower() == role):
            yield member_row(member)
        return
    async for items in service.iter_members(project, page_size(args, MEMBERS_MAX_PAGE_SIZE, default=100)):
        for member in items:
            if not role or (member.role_name or "").lower() == role:
                yield member_row(member)


async def get_artifacts(ctx: Any, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Artifacts of PROJECT/REPOSITORY, newest push first; `--filter tag=NAME` keeps those tagged NAME."""
    project, repository = split_repository(_target(args))
    filters = parse_pairs(getattr(args, "filter", None), ("tag",), "artifacts")
    service = registry_for(ctx)
    tag = filters.get("tag")
    async for items in service.iter_artifacts(project, repository, page_size(args, ARTIFACTS_MAX_PAGE_SIZE, default=100)):
        for artifact in items:
            if not tag or tag in artifact.tag_names:
                yield artifact_row(artifact)


async def get_downloads(ctx: Any, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """The download log, newest first: `--filter project= user= account= from=YYYY-MM-DD to=YYYY-MM-DD` (default: the last 30 days)."""
    filters = parse_pairs(getattr(args, "filter", None), ("project", "user", "account", "from", "to"), "downloads")
    start, end = date_range(filters.get("from"), filters.get("to"), today_utc(ctx))
    service = registry_for(ctx)
    async for items in service.iter_downloads(
        start,
        end,
        project=filters.get("project") or None,
        username=filters.get("user") or None,
        account=filters.get("account") or None,
        page_size=page_size(args, DOWNLOADS_MAX_PAGE_SIZE, default=100),
    ):
        for entry in items:
            yield download_row(entry)


for _lister in (get_projects, get_members, get_artifacts, get_downloads):
    _lister.wants_context = True  # type: ignore[attr-defined]
