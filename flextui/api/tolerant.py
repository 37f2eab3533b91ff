"""Tolerant reading: take what the server sends in any documented form, and degrade gracefully.

The beta APIs document their answers only as placeholders (`{"status"}` or
`{"message", "status"}`: https://fnoapi.redocly.app/apis/rest/fno_api_modernization/entitlement/postentitlement.md,
https://fnoapi.redocly.app/apis/rest/user-accounts/user-account-service/user/postuser.md);
list envelopes and page bases are not documented at all, and a Jackson
service writes an empty collection as `null`
(https://docs.revenera.com/fno_CURRENT/webservicesintegration/Content/helplibrary/EntMgmtAPIIntro.htm
labels the APIs beta). So what the client reads, it reads loosely:

- `Record` is the base of every response model: unknown fields are kept
  (`model_extra`, for the raw view), and a JSON `null` is the field's
  default (an empty list for a collection), never a validation error.
- `list_items` finds the records in a bare array, in the documented or
  GraphQL envelope key, or in the usual generic keys (`data`, `items`,
  `content`, `results`, `responseObject`); a key holding `null` is an empty
  list, an answer with no list (an error body sent with 200, `{}`) is
  `Unreadable`, never "no items".
- `one_record` finds the one record of a single-record read (a detail, a
  verification) under its envelope key or as the answer itself; an answer
  that holds none of the record's fields (an error body sent with 200, `{}`,
  text, `null`) is `Unreadable`, never an empty record. Both say why in the
  same words (`not_held`).
- `parse_records` turns each item into its model; an item that does not fit
  becomes an *unreadable* record (`unreadable(record)` gives the reason, the
  raw JSON is kept), so one bad row never fails a page.
- `Accepted` reads a create answer that carries only a status: success is
  reported as success (the caller re-reads the object if it needs it).

Writing stays strict: request models (`validation.RequestBody`) refuse
unknown fields and send enums exactly as documented.
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from flextui.api.errors import ApiError, Unreadable

M = TypeVar("M", bound=BaseModel)

GENERIC_LIST_KEYS = ("data", "items", "content", "results", "responseObject", "records", "list")
TOTAL_KEYS = ("total", "totalElements", "totalCount", "totalRecords", "totalItems", "count", "recordCount")

_UNREADABLE = "__flextui_unreadable__"
_RAW = "__flextui_raw__"


class Record(BaseModel):
    """A response model: JSON or Python names, unknown fields kept, `null` read as the field's default."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    @model_validator(mode="before")
    @classmethod
    def _nulls_are_defaults(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and any(value is None for value in data.values()):
            return {key: value for key, value in data.items() if value is not None}
        return data


def list_items(raw: Any, *keys: str, null_is_empty: bool = True) -> list[Any]:
    """The records of a list answer: a bare array, or the array under `keys` or a generic key.

    A list is empty only when the answer says so: a known key holds `[]` or
    `null` (Jackson's empty collection, notes §6), or, where a bare array is
    the form (`null_is_empty`: the registry's lists, notes §2.2, §2.4; the
    `null-collections` dialect nulls a top-level `[]` too), the answer is
    `null`. Anything else raises `Unreadable`: an object with no known list
    key (`{}`, an error body `{"status": "error", "message": …}` sent with
    200, which the vendor's placeholder schemas do not rule out), text, a
    number; and an empty list beside a status or message that says failure
    (`failure_said`). Listing it as "no items" would tell the user there are
    none. A list that holds items is read whatever its status says.

    The message starts "the server's answer" (`ANSWER`): the session names the
    service and the request (`http.Session.cached`); the server's words are
    quoted as sent, for whoever shows them to clean.
    """
    if isinstance(raw, list):
        return raw
    if raw is None and null_is_empty:
        return []
    found = _locate(raw, keys) if isinstance(raw, Mapping) else _ABSENT
    if isinstance(found, list) and found:
        return found
    noun = f'"{keys[0]}" list' if len(keys) == 1 else "list"
    if found is _ABSENT or failure_said(raw) is not None:
        raise not_held(noun, raw)
    return []


ANSWER = "the server's answer"
"""How a message about an answer begins when the reader does not know whose answer to what (`http.Session` names them)."""

_ABSENT = object()


def _locate(raw: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    """The list under the first known key that holds one; None when a known key holds only null (or an
    envelope of an empty list); `_ABSENT` when no known key is there."""
    empty = False
    for key in (*keys, *GENERIC_LIST_KEYS):
        if key not in raw:
            continue
        value = raw[key]
        if isinstance(value, list):
            return value
        if value is None:
            empty = True
        elif isinstance(value, Mapping) and key in GENERIC_LIST_KEYS:  # {"data": {"items": [...]}}
            nested = _locate(value, keys)
            if isinstance(nested, list) and nested:
                return nested
            empty = empty or nested is not _ABSENT
    return None if empty else _ABSENT


SAID_KEYS = ("status", "statusCode", "statusMessage", "error", "errorMessage", "message")
"""Where an answer says how the request went: the beta services' `{status, message}`, the token service's
`statusMessage` (notes §1.3), Spring's error body `{status, error, message}`."""


def _said(raw: Any) -> list[str]:
    if not isinstance(raw, Mapping):
        return []
    return [str(v).strip() for key in SAID_KEYS if isinstance(v := raw.get(key), (str, int)) and not isinstance(v, bool) and str(v).strip()]


def said_text(raw: Any) -> str | None:
    """What an answer says of how the request went (its status, message, …, joined), cut at 200 characters."""
    said = _said(raw)
    if not said:
        return None
    text = ": ".join(dict.fromkeys(said))
    return text if len(text) <= 200 else text[:199] + "…"


def failure_said(raw: Any) -> str | None:
    """What an answer says, when its status or message says the request failed (`says_failure`); None otherwise."""
    return said_text(raw) if any(says_failure(text) for text in _said(raw)) else None


def not_held(noun: str, raw: Any) -> Unreadable:
    """The error for an answer that holds no `noun` (a list, a record), in the server's words where it has any:
    what its status or message says when that is a failure ('… says "error: boom" and holds no users list'),
    else what it says at all ('… holds no token; it says "Successful"'), else what it is ('… holds no
    entitlement: it is an empty object'). Its message starts with `ANSWER`, for the session to name the service
    and the request; the server's words are quoted as sent, for whoever shows them to clean."""
    said = failure_said(raw)
    if said is not None:
        return Unreadable(f'{ANSWER} says "{said}" and holds no {noun}')
    said = said_text(raw)
    if said is not None:
        return Unreadable(f'{ANSWER} holds no {noun}; it says "{said}"')
    return Unreadable(f"{ANSWER} holds no {noun}: it is {describe(raw)}")


def describe(raw: Any) -> str:
    """An answer that is not what was due, in words ("an empty object", 'the text "hello"'): no raw JSON dump."""
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return f"the value {str(raw).lower()}"
    if isinstance(raw, (int, float)):
        return f"the number {raw}"
    if isinstance(raw, str):
        return f'the text "{raw[:80]}{"…" if len(raw) > 80 else ""}"' if raw else "empty"
    if isinstance(raw, Mapping):
        if not raw:
            return "an empty object"
        names = [str(k)[:40] for k in list(raw)[:6]]
        more = ", …" if len(raw) > 6 else ""
        return f"an object with {', '.join(names)}{more}"
    if isinstance(raw, list):
        return f"a list of {len(raw)}"
    return type(raw).__name__


def record_keys(model: type[BaseModel]) -> set[str]:
    """Every name a field of `model` is read under (its name, alias and validation aliases)."""
    names: set[str] = set()
    for name, info in model.model_fields.items():
        names.update({name, info.alias or name})
        choices = getattr(info.validation_alias, "choices", None) or (
            [info.validation_alias] if isinstance(info.validation_alias, str) else []
        )
        names.update(str(c) for c in choices)
    return names


def _holds(body: Mapping[str, Any], model: type[BaseModel]) -> bool:
    """Whether `body` holds any of `model`'s fields besides those an error body has too: a record's `status`
    (an entitlement's, a user's) does not make `{"status": "error", "message": "boom"}` one."""
    return bool(body.keys() & (record_keys(model) - set(SAID_KEYS)))


def record_body(raw: Any, model: type[BaseModel], noun: str, *keys: str) -> Mapping[str, Any]:
    """The object an answer due to describe one `noun` holds: under the first of `keys` (its envelope: the token
    service's `responseObject`, a beta service's `{"status": …, "entitlement": {…}}`) that holds a record, else
    the answer itself. An answer where none holds any of `model`'s fields (an error body sent with 200, `{}`,
    text, null) is `Unreadable` (`not_held`): read as a record, it would show an empty one that looks complete.
    A body that holds the record's fields is read whatever its status says."""
    if isinstance(raw, Mapping):
        for body in (*(raw.get(key) for key in keys), raw):
            if isinstance(body, Mapping) and _holds(body, model):
                return body
    raise not_held(noun, raw)


def one_record(model: type[M], raw: Any, noun: str, *keys: str) -> M:
    """The one `noun` of a single-record answer as `model` (`record_body`, then `parse_record`: a record that
    partly fits is kept, marked unreadable); `Unreadable` when the answer holds none."""
    return parse_record(model, record_body(raw, model, noun, *keys))


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def list_total(raw: Any) -> int | None:
    """The total a list answer states, wherever it is (`pagination`, `page`, Spring's `totalElements`, …)."""
    if not isinstance(raw, Mapping):
        return None
    for holder in (raw.get("pagination"), raw.get("page"), raw.get("header"), raw):
        if isinstance(holder, Mapping):
            for key in TOTAL_KEYS:
                total = _int(holder.get(key))
                if total is not None:
                    return total
    return None


def list_more(raw: Any) -> bool | None:
    """Whether the answer says another page exists (Spring's `last`, a `hasMore`/`hasNext` flag); None if silent."""
    if not isinstance(raw, Mapping):
        return None
    for holder in (raw.get("pagination"), raw.get("page"), raw):
        if isinstance(holder, Mapping):
            if isinstance(holder.get("last"), bool):
                return not holder["last"]
            for key in ("hasMore", "hasNext", "more"):
                if isinstance(holder.get(key), bool):
                    return bool(holder[key])
    return None


def _placeholder(annotation: Any) -> Any:
    """A harmless value of a required field's type, for a record that could not be read."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _placeholder(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(annotation)
        if type(None) in args:
            return None
        return _placeholder(args[0])
    if annotation is str:
        return "‹unreadable›"
    if annotation in (int, float):
        return 0
    if annotation is bool:
        return False
    if origin in (list, tuple, set) or annotation in (list, tuple, set):
        return []
    if origin is dict or annotation is dict:
        return {}
    return None


def parse_record(model: type[M], raw: Any) -> M:
    """`raw` as `model`; when it does not fit, an unreadable record holding what could be read."""
    if isinstance(raw, Mapping):
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            return _salvage(model, dict(raw), exc)
    return _unreadable(model, {}, raw, f"not an object: {type(raw).__name__}")


def _salvage(model: type[M], data: dict[str, Any], exc: ValidationError) -> M:
    """Drop the fields that broke the model (placeholders for required ones) and mark the record."""
    reason = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'record'}: {e['msg']}" for e in exc.errors()[:3])
    cleaned = dict(data)
    for _ in range(3):
        bad = {str(e["loc"][0]) for e in exc.errors() if e.get("loc")}
        for name, info in model.model_fields.items():
            names = {name, info.alias or name}
            choices = getattr(info.validation_alias, "choices", None) or (
                [info.validation_alias] if isinstance(info.validation_alias, str) else []
            )
            names.update(str(c) for c in choices)
            if names & bad or (info.is_required() and not names & cleaned.keys()):
                for n in names:
                    cleaned.pop(n, None)
                if info.is_required():
                    cleaned[name] = _placeholder(info.annotation)
        try:
            record = model.model_validate(cleaned)
            break
        except ValidationError as again:
            exc = again
    else:
        return _unreadable(model, cleaned, data, reason)
    object.__setattr__(record, "__pydantic_extra__", {**(record.__pydantic_extra__ or {}), _UNREADABLE: reason, _RAW: data})
    return record


def _unreadable(model: type[M], fields: dict[str, Any], raw: Any, reason: str) -> M:
    values = {
        name: (fields.get(name) if name in fields else _placeholder(info.annotation))
        for name, info in model.model_fields.items()
        if info.is_required()
    }
    record = model.model_construct(**values)
    object.__setattr__(record, "__pydantic_extra__", {_UNREADABLE: reason, _RAW: raw})
    return record


def parse_records(model: type[M], items: Iterable[Any]) -> list[M]:
    """Every item as `model`; items that do not fit are kept as unreadable records, never dropped."""
    return [parse_record(model, item) for item in items if item is not None]


def unreadable(record: BaseModel) -> str | None:
    """Why a record could not be read (None for a good one)."""
    extra = record.__pydantic_extra__ or {}
    reason = extra.get(_UNREADABLE)
    return reason if isinstance(reason, str) else None


def raw_of(record: BaseModel) -> Any:
    """The record as the server sent it when it was unreadable, else its fields (with unknown ones)."""
    extra = record.__pydantic_extra__ or {}
    if _RAW in extra:
        return extra[_RAW]
    return record.model_dump(mode="json", by_alias=True)


def extras(record: BaseModel) -> dict[str, Any]:
    """The fields the server sent that the model does not name (shown in detail views)."""
    return {k: v for k, v in (record.__pydantic_extra__ or {}).items() if k not in (_UNREADABLE, _RAW)}


class Accepted(Record):
    """A create or change answer: the documented `{status}` / `{message, status}`, or more."""

    status: str | None = None
    message: str | None = None

    @property
    def failed(self) -> bool:
        """A status that says the server did not do it (`says_failure`)."""
        return says_failure(self.status)


_FAILURE_WORDS = re.compile(
    r"fail|error|invalid|denied|refused|reject|forbidden|unauthori[sz]ed|not[ _-]?found|conflict|already[ _-]?exist"
    r"|unsuccess|not[ _-]?(?:created|allowed|permitted|done|saved|updated|accepted)|bad[ _-]?request|duplicate"
    r"|unprocessable|time[ _-]?d?[ _-]?out|abort|exception|unable|cannot|can'?t|could[ _-]?not"
)
_NO_FAILURE = re.compile(r"\b(?:no|0|zero|without)[ _-]+(?:errors?|failures?)\b")
"""A count or absence of failures ("Created with 0 errors"): not a word of failure."""
_STATUS_CODE = re.compile(r"\s*([1-5]\d\d)\b")


def says_failure(status: object) -> bool:
    """Whether a create or change answer's `status` says the server did not do it.

    The beta services document that status only as `"status": "string"`
    (https://fnoapi.redocly.app/apis/rest/user-accounts/user-account-service/user/postuser.md,
    …/fno_api_modernization/entitlement/postentitlement.md, the products
    pages), with "SUCCESS" in their samples. Real answers word it their own
    way: Spring's "201 CREATED", "Created successfully", an echoed user's
    "Active". Taking any word but a few as failure told the user a create had
    failed when it had been done, and a retry then met "already exists". So a
    status is failure only when it says so: an HTTP code of 400 or more, or a
    word of failure ("UNSUCCESSFUL", "NOT_CREATED", "DUPLICATE", "timed out"; "0 errors" is
    not one); anything else (and none) is success.
    """
    word = str(status or "").strip().lower()
    if not word:
        return False
    code = _STATUS_CODE.match(word)
    if code is not None:
        return int(code.group(1)) >= 400
    return _FAILURE_WORDS.search(_NO_FAILURE.sub(" ", word)) is not None


def created_record(model: type[M], raw: Any, key: str, sent: Mapping[str, Any], what: str) -> M:
    """The record a create answer describes, or (a documented `{status}`-only answer) the record as sent.

    A status that says the server failed raises `ApiError` with its message;
    any other answer is success, so a retry cannot hit "already exists" after
    the server did create the object.
    """
    accepted = parse_record(Accepted, raw if isinstance(raw, Mapping) else {})
    if accepted.failed:
        raise ApiError(f"{what}: the server answered {accepted.status}" + (f": {accepted.message}" if accepted.message else ""))
    body = raw.get(key, raw) if isinstance(raw, Mapping) else raw
    if isinstance(body, Mapping):
        try:
            return model.model_validate(body)
        except ValidationError:
            pass
    return parse_record(model, dict(sent))


def short_json(value: Any, limit: int = 300) -> str:
    """A compact one-line JSON rendering (for messages about an answer), cut at `limit`."""
    try:
        text = json.dumps(value, ensure_ascii=True, default=str)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
