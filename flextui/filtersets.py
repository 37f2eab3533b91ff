"""Saved report filter sets: named per profile and report group, in one private JSON file.

A support engineer who asks "fulfillments of account 1012… in the last 7
days" every week saves the question once and loads it by name. The sets
live in `config.filters_path()` (next to the config file), one object per
profile, so a set saved while signed in to `prod` is not offered on `uat`:

    {"version": 1,
     "profiles": {"prod": {"fulfillment": {"acme last week": {FilterSet.to_dict()}}}}}

A filter set holds no secret (conditions, dates, page size), yet the file is
still written private (0600, directory 0700), atomically (a temporary file
renamed over the old one), so a crash never leaves half a file. A file that
cannot be read is never overwritten: saving refuses with a message naming
the file, so nobody loses their sets to a typo made by hand. Entries that no
longer parse are skipped and listed in `problems`.

No Textual import: the headless commands and tests use it too.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from flextui.api.filters import FilterError, FilterSet
from flextui.config import filters_path
from flextui.files import private_dirs
from flextui.render.text import clean, json_dumps

FILE_VERSION = 1
MAX_NAME = 64


class FilterSetFileError(Exception):
    """The saved-sets file cannot be read or written; the message names it and the fix."""


class FilterSetExists(Exception):
    """A set of that name exists (save again with overwrite=True to replace it)."""

    def __init__(self, existing: FilterSet) -> None:
        super().__init__(f"a filter set named {existing.name!r} exists")
        self.existing = existing


def check_name(name: str) -> str:
    """A set's name, stripped; ValueError when empty, too long or holding control characters."""
    text = (name or "").strip()
    if not text:
        raise ValueError("name: give the filter set a name")
    if len(text) > MAX_NAME:
        raise ValueError(f"name: at most {MAX_NAME} characters (this one has {len(text)})")
    if clean(text) != text:
        raise ValueError("name: no control characters, please")
    return text


class FilterSetStore:
    """Read and write the saved filter sets of every profile (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else filters_path()
        self.problems: list[str] = []

    # -- the file --------------------------------------------------------------------

    def _read(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {"version": FILE_VERSION, "profiles": {}}
        except OSError as exc:
            raise FilterSetFileError(f"{self.path}: cannot read the saved filter sets: {exc.strerror}") from None
        try:
            raw = json.loads(text) if text.strip() else {}
        except ValueError as exc:
            raise FilterSetFileError(f"{self.path} is not valid JSON ({exc}); fix it or move it away. Nothing was changed.") from None
        if not isinstance(raw, dict) or not isinstance(raw.get("profiles", {}), dict):
            raise FilterSetFileError(f'{self.path}: expected an object with "profiles"; fix it or move it away. Nothing was changed.')
        raw.setdefault("version", FILE_VERSION)
        raw.setdefault("profiles", {})
        return raw

    def _write(self, data: dict[str, Any]) -> None:
        folder = self.path.parent
        try:
            private_dirs(folder)
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)  # mode 0600
        except OSError as exc:
            raise FilterSetFileError(f"{self.path}: cannot write the saved filter sets: {exc.strerror}") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fp:
                # (report groups and field names come from the server: C1 and bidi controls escaped, not written raw)
                fp.write(json_dumps(data, indent=2, sort_keys=True) + "\n")
                fp.flush()
                os.fsync(fp.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except OSError as exc:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise FilterSetFileError(f"{self.path}: cannot write the saved filter sets: {exc.strerror}") from None

    # -- reading -----------------------------------------------------------------------

    def _sets(self, raw: dict[str, Any], profile: str, group: str) -> dict[str, Any]:
        groups = raw["profiles"].get(profile)
        if not isinstance(groups, dict):
            return {}
        sets = groups.get(group)
        return sets if isinstance(sets, dict) else {}

    def list(self, profile: str, group: str) -> list[FilterSet]:
        """The sets saved for a report group on a profile, by name (unreadable ones in `problems`)."""
        self.problems = []
        out: list[FilterSet] = []
        for name, body in self._sets(self._read(), profile, group).items():
            try:
                fs = FilterSet.from_dict(body)
            except (FilterError, TypeError, ValueError) as exc:
                self.problems.append(f"{name}: {exc}")
                continue
            out.append(FilterSet.from_dict({**fs.to_dict(), "name": name, "group": group}))
        return sorted(out, key=lambda fs: (fs.name or "").casefold())

    def groups(self, profile: str) -> dict[str, int]:
        """How many sets each report group has on a profile."""
        groups = self._read()["profiles"].get(profile)
        if not isinstance(groups, dict):
            return {}
        return {g: len(s) for g, s in groups.items() if isinstance(s, dict) and s}

    def get(self, profile: str, group: str, name: str) -> FilterSet | None:
        body = self._sets(self._read(), profile, group).get(name.strip())
        if body is None:
            return None
        try:
            fs = FilterSet.from_dict(body)
        except (FilterError, TypeError, ValueError):
            return None
        return FilterSet.from_dict({**fs.to_dict(), "name": name.strip(), "group": group})

    def exists(self, profile: str, group: str, name: str) -> bool:
        return name.strip() in self._sets(self._read(), profile, group)

    # -- writing -----------------------------------------------------------------------

    def save(
        self, profile: str, filters: FilterSet, *, name: str | None = None, group: str | None = None, overwrite: bool = False
    ) -> FilterSet:
        """Save `filters` under `name` (or its own name) for its group; FilterSetExists unless `overwrite`."""
        name = check_name(name if name is not None else filters.name or "")
        group = group or filters.group
        if not group:
            raise ValueError("a filter set is saved for a report group; none was given")
        raw = self._read()
        sets = raw["profiles"].setdefault(profile, {})
        if not isinstance(sets, dict):
            sets = raw["profiles"][profile] = {}
        by_name = sets.setdefault(group, {})
        if not isinstance(by_name, dict):
            by_name = sets[group] = {}
        if name in by_name and not overwrite:
            existing = self.get(profile, group, name)
            raise FilterSetExists(existing if existing is not None else FilterSet(name=name, group=group))
        saved = FilterSet.from_dict({**filters.to_dict(), "name": name, "group": group})
        by_name[name] = saved.to_dict()
        raw["version"] = FILE_VERSION
        self._write(raw)
        return saved

    def delete(self, profile: str, group: str, name: str) -> bool:
        """Remove a saved set; False when there was none."""
        raw = self._read()
        groups = raw["profiles"].get(profile)
        if not isinstance(groups, dict) or not isinstance(groups.get(group), dict) or name not in groups[group]:
            return False
        del groups[group][name]
        if not groups[group]:
            del groups[group]
        if not groups:
            del raw["profiles"][profile]
        self._write(raw)
        return True


__all__ = ["FilterSetExists", "FilterSetFileError", "FilterSetStore", "MAX_NAME", "check_name"]
