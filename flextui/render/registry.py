"""Registry records (projects, members, artifacts, downloads) as flat rows for the CLI and exports."""

from __future__ import annotations

from typing import Any

from flextui.api.registry import (
    Artifact,
    Download,
    Member,
    Project,
)
from flextui.api.tolerant import unreadable
from flextui.render.words import iso


def project_row(p: Project) -> dict[str, Any]:
    return {
        "name": p.name,
        "project_id": p.project_id,
        "repo_count": p.repo_count,
        "chart_count": p.chart_count,
        "creation_time": iso(p.created),
        "update_time": iso(p.updated),
    }


def member_row(m: Member) -> dict[str, Any]:
    return {
        "entity_name": m.entity_name,
        "role_name": m.role_name,
        "entity_type": m.entity_type,
        "role_id": m.role_id,
        "entity_id": m.entity_id,
        "id": m.id,
        "project_id": m.project_id,
    }


def artifact_row(a: Artifact) -> dict[str, Any]:
    return {
        "digest": a.digest,
        "tags": ",".join(a.tag_names),
        "size": a.size,
        "push_time": iso(a.push_time),
        "pull_time": iso(a.pull_time),
        "type": a.type,
        "media_type": a.media_type,
        "id": a.id,
        **({"unreadable": reason} if (reason := unreadable(a)) else {}),  # said, never passed off as a good record
    }


def download_row(d: Download) -> dict[str, Any]:
    """An entry of the log: `accounts` the accounts it names (a list: "a, b" in a table, an array in JSON and CSV),
    `account` the field as the server sent it (documented as a list printed as text, `"[test_acc1]"`)."""
    return {
        "timestamp": iso(d.timestamp),
        "artifact": d.artifact,
        "username": d.username,
        "accounts": list(d.accounts),
        "project": d.project,
        "id": d.id,
        "account": d.account,
    }
