"""Paging of the numbered lists, in every dialect, in one place.

The numbered lists are the token list and search, the registry's projects,
members, artifacts and downloads, and every list of the beta APIs. Each
declares a `Paging` (its family, parameter names, default and maximum size);
`window(values, paging, dialects)` reads the page and size a request asks
for and answers which slice of the list to return. Data reports page their
own way (`pageNumber`, `limitRecords`, links) in reports.py.

Default behaviour (what every list did before dialects existed):
- Tokens count pages from 0 (notes §1.4), the registry and the beta APIs
  from 1 (the registry members' documented `page` default 1; the beta APIs'
  base is not documented). A page below the first is a 400 naming the
  parameter; a page past the end is an empty list.
- A size must be at least 1 and at most the list's maximum (400 otherwise):
  registry projects and downloads 1000, members and artifacts 100 (Harbor's
  limit), beta lists 500; the token list has none. Sizes default to 10
  (registry, the members' documented default), 20 (tokens, beta lists).
- The token list without any paging parameter answers every match.
- Unknown query parameters are ignored in every dialect, as Spring does.

Dialects (the pages they follow are cited in the services' docstrings):
- `page-size-ignored`: the size parameter is not read; each list answers
  pages of its own default size (10 in the registry, 20 elsewhere).
- `paging-ignored`: neither parameter is read; the whole list every time.
- `page-size-cap-100`: a size above 100 is answered with 100 items, silently
  (Harbor caps `page_size` at 100), instead of the list's own maximum.
- `zero-based`: registry and beta lists count pages from 0.
- `page-zero-is-first`: 1-based lists also take page 0 as the first page
  (Spring Data's one-indexed pageable resolves 0 to page 1).
- `strict-paging`: the size limit is the documented one: Harbor's 100 for
  every registry list (its `page_size` maximum; the registry takes Harbor's
  paging parameters, notes §2.9); lists without a documented maximum keep
  their own. With `page-size-cap-100` the cap becomes a 400 above 100.
  Pages below the first are a 400 in every dialect already.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from flextui.sim.common import SimError

T = TypeVar("T")
HARBOR_MAX = 100


def _token_problem(name: str, text: str) -> SimError:
    return SimError(400, f"{name} {text}", name)


def _registry_problem(name: str, text: str) -> SimError:
    return SimError(400, f"Bad request format. Query parameter '{name}' {text}", name)


def _beta_problem(name: str, text: str) -> SimError:
    return SimError(400, f"{name}: {text}", name)


PROBLEMS: dict[str, Callable[[str, str], SimError]] = {"tokens": _token_problem, "registry": _registry_problem, "beta": _beta_problem}


@dataclass(frozen=True)
class Paging:
    """How one numbered list pages by default."""

    family: str  # tokens | registry | beta: the page base and the error wording
    size_names: tuple[str, ...]  # the size parameter's names, the first present wins
    default_size: int
    max_size: int | None  # above it: 400 (None: no limit)
    documented_max: int | None = None  # the limit under strict-paging (None: max_size)
    page_name: str = "page"
    whole_without_params: bool = False  # no page and no size: the whole list (the token list)
    json_body: bool = False  # values come from a JSON body: only JSON integers are numbers

    def problem(self, name: str, text: str) -> SimError:
        return PROBLEMS[self.family](name, text)


@dataclass(frozen=True)
class Window:
    """The slice of a list one request answers."""

    page: int  # the page answered, counted as the list counts
    size: int | None  # None: the whole list
    offset: int = 0

    def take(self, items: Sequence[T]) -> list[T]:
        if self.size is None:
            return list(items)
        return list(items[self.offset : self.offset + self.size])

    def size_shown(self, total: int) -> int:
        """The page size to report in an envelope (the whole list's length when unpaged)."""
        return self.size if self.size is not None else max(total, 1)


def first_page(paging: Paging, dialects: frozenset[str]) -> int:
    return 0 if paging.family == "tokens" or "zero-based" in dialects else 1


def _number(values: Mapping[str, Any], name: str, paging: Paging) -> int | None:
    raw = values.get(name)
    if raw is None or raw == "":
        return None
    if paging.json_body:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise paging.problem(name, f"must be a whole number (got {raw!r})")
        return raw
    try:
        return int(str(raw).strip())
    except ValueError:
        raise paging.problem(name, f"must be a whole number (got {raw!r})") from None


def _size(values: Mapping[str, Any], paging: Paging, dialects: frozenset[str]) -> int | None:
    """The size asked for (None when none is), checked against the dialect's limit."""
    name = next((n for n in paging.size_names if values.get(n) not in (None, "")), None)
    if name is None:
        return None
    size = _number(values, name, paging)
    assert size is not None
    if size < 1:
        raise paging.problem(name, f"must be at least 1 (got {size})")
    strict = "strict-paging" in dialects
    limit = (paging.documented_max or paging.max_size) if strict else paging.max_size
    if "page-size-cap-100" in dialects:
        if not strict:
            return min(size, HARBOR_MAX)
        limit = min(limit or HARBOR_MAX, HARBOR_MAX)
    if limit is not None and size > limit:
        raise paging.problem(name, f"must be at most {limit} (got {size})")
    return size


def window(values: Mapping[str, Any], paging: Paging, dialects: frozenset[str]) -> Window:
    """The page a request asks for in `values` (query parameters or a JSON body), in `dialects`."""
    first = first_page(paging, dialects)
    if "paging-ignored" in dialects:
        return Window(first, None)
    page = _number(values, paging.page_name, paging)
    lowest = 0 if first == 1 and "page-zero-is-first" in dialects else first
    if page is not None and page < lowest:
        raise paging.problem(paging.page_name, f"must be at least {lowest} (got {page})")
    if "page-size-ignored" in dialects:
        size = paging.default_size
    else:
        asked = _size(values, paging, dialects)
        if asked is None and page is None and paging.whole_without_params:
            return Window(first, None)
        size = asked if asked is not None else paging.default_size
    answered = max(page if page is not None else first, first)
    return Window(answered, size, (answered - first) * size)
