"""What the headless listers share: `--filter KEY=VALUE` parsing, paging and timestamps.

`parse_filters` turns `--filter KEY=VALUE` pairs into one of the data layer's
filter models (the entitlements, products and users listers and the TUI's
"more filters" inputs use it): keys are the API's query names
(case-insensitive), unknown keys are refused with the list of allowed ones,
and values are checked by the model, so `status=shipped` fails before any
request with the model's own message.

`pager_rows` yields one flat row per item of a service's pager (the one
bounded `paging.Pager`), so each lister is only its filters, its pager and
its row function.
"""

from __future__ import annotations

import argparse
import types
import typing
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from flextui.api.paging import Pager
from flextui.api.validation import MAX_LIMIT, errors_by_field

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


def page_size(args: argparse.Namespace) -> int:
    size = int(getattr(args, "page_size", 200) or 200)
    if size < 1:
        raise ValueError("--page-size must be at least 1")
    return min(size, MAX_LIMIT)


async def pager_rows(pager: Pager[Any], row: Callable[[Any], dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    """`row(item)` for every item the pager gives (`paging.Pager`: bounded; a shortfall is recorded on the session)."""
    async for items in pager:
        for item in items:
            yield row(item)


def target_filters(args: argparse.Namespace, model: type[M], *, what: str, target_key: str) -> M:
    """The `--filter` pairs as `model`, with TARGET (when given) as the `target_key` filter unless a pair sets it."""
    extra = {target_key: args.target} if getattr(args, "target", None) else None
    return parse_filters(args.filter or [], model, what=what, extra=extra)


def iso(moment: Any) -> str | None:
    """A timestamp to the second (`2024-05-01T12:00:00+00:00`), or None."""
    return moment.isoformat(timespec="seconds") if moment is not None else None
