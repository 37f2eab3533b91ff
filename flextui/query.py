"""The KEY=VALUE filter grammar and day parsing, shared by `:` arguments, the TUI's filter fields and `--filter`.

`parse_filters` turns `KEY=VALUE` pairs into one of the data layer's filter
models: keys are the API's query names (case-insensitive), unknown keys are
refused with the list of allowed ones, and values are checked by the model,
so `status=shipped` fails before any request with the model's own message.
`parse_pairs` is the plain form for the registry's few string filters;
`parse_day`/`date_range` read the YYYY-MM-DD windows of the download log.
No Textual and no argparse here: the TUI and the CLI both call it.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from flextui.api.users import AccountFilter
from flextui.api.validation import LISTED_ACCOUNT_TYPES, errors_by_field

M = TypeVar("M", bound=BaseModel)


_TRUE = {"true", "yes", "1", "on"}


_FALSE = {"false", "no", "0", "off"}


def _leaf_types(annotation: Any) -> set[Any]:
    """The plain types inside an annotation (Optional, Annotated and list[...] unwrapped; list itself kept)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _leaf_types(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        out: set[Any] = set()
        for arg in typing.get_args(annotation):
            out |= _leaf_types(arg)
        return out
    if origin in (list, Sequence):
        return {list}
    return {annotation}


def filter_keys(model: type[BaseModel]) -> list[str]:
    """The query names a filter model accepts (its aliases)."""
    return sorted(info.alias or name for name, info in model.model_fields.items())


def parse_filters(pairs: Iterable[str], model: type[M], *, what: str, extra: dict[str, Any] | None = None) -> M:
    """`["status=deployed", "accountId=1012"]` → the filter model; ValueError names the bad key or value."""
    known: dict[str, tuple[str, Any]] = {}
    for name, info in model.model_fields.items():
        alias = info.alias or name
        known[alias.lower()] = (alias, info.annotation)
        known[name.lower()] = (alias, info.annotation)
    data: dict[str, Any] = {}
    for pair in pairs:
        pair = pair.strip()
        if not pair:
            continue
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"filter {pair!r}: write KEY=VALUE (keys for {what}: {', '.join(filter_keys(model))})")
        found = known.get(key.strip().lower())
        if found is None:
            raise ValueError(f"unknown filter {key.strip()!r} for {what}; use one of: {', '.join(filter_keys(model))}")
        alias, annotation = found
        data[alias] = _coerce(alias, raw.strip(), _leaf_types(annotation))
    for key, value in (extra or {}).items():
        data.setdefault(key, value)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = errors_by_field(exc)
        raise ValueError("; ".join(f"filter {path}: {message}" if path else message for path, message in problems.items())) from None


def _coerce(key: str, raw: str, kinds: set[Any]) -> Any:
    if bool in kinds:
        lowered = raw.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ValueError(f"filter {key}: must be true or false (got {raw!r})")
    if list in kinds:
        return [part.strip() for part in raw.split(",") if part.strip()]
    return raw


DEFAULT_DAYS = 30


def parse_pairs(items: Iterable[str] | None, allowed: Iterable[str], kind: str) -> dict[str, str]:
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


def split_repository(target: str) -> tuple[str, str]:
    """`PROJECT/REPOSITORY` (the repository may contain more slashes) → (project, repository)."""
    project, sep, repository = target.strip().strip("/").partition("/")
    if not sep or not project or not repository:
        raise ValueError("give PROJECT/REPOSITORY, e.g. hello-world-dp/hello-world-image")
    return project, repository


def account_filter(pairs: list[str], target: str | None = None) -> AccountFilter:
    """An AccountFilter from KEY=VALUE pairs; every account type unless accountType says otherwise (`all` = every type)."""
    cleaned: list[str] = []
    all_types = True
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key.strip().lower() == "accounttype":
            if value.strip().lower() in ("all", "*", ""):
                continue
            all_types = False
        cleaned.append(pair)
    extra: dict[str, Any] = {}
    if all_types:
        extra["accountType"] = list(LISTED_ACCOUNT_TYPES)
    if target:
        extra["accountId"] = target
    return parse_filters(cleaned, AccountFilter, what="accounts", extra=extra)
