"""An answer as it came off the wire: its bytes, and what its headers said.

A 2,500-row report page is 1.5 MB of JSON. Decoding it, scrubbing it for
secrets and encoding it again for the page cache cost the client several
times what the decoding alone does (bench/bench_page_cpu.py). So a page that
holds no secret is stored as the bytes received (`Wire`), and the JSON is
decoded once, with the fastest decoder at hand, when a page is shown. A
byte-level test (`may_hold_secrets`) decides whether scrubbing is needed at
all: only a body that mentions a secret-bearing name is decoded and scrubbed
before it is stored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from flextui.secret_names import is_secret_name, secret_words

try:
    import orjson

    def _fast_loads(data: bytes | str) -> Any:
        return orjson.loads(data)

    _FAST_ERRORS: tuple[type[BaseException], ...] = (orjson.JSONDecodeError,)
except ImportError:  # pragma: no cover - orjson is a dependency; the stdlib still works without it

    def _fast_loads(data: bytes | str) -> Any:
        return json.loads(data)

    _FAST_ERRORS = ()

# A body that mentions none of these cannot hold a field that the cache would remove (`is_secret_name`).
SECRET_WORDS = tuple(word.encode() for word in secret_words())


def loads(data: bytes | str) -> Any:
    """JSON from bytes: orjson (about twice as fast as the stdlib on report pages), the stdlib where orjson refuses.

    orjson refuses integers beyond 64 bits and nesting beyond 1,024 levels;
    the stdlib reads the first and fails on the second, so a real answer with
    a 20-digit number still reads and a hostile one still fails.
    """
    try:
        return _fast_loads(data)
    except _FAST_ERRORS:
        return json.loads(data)


def flat_rows_without_secrets(wire: Wire) -> bool:
    """Whether a decoded list page is flat rows whose distinct keys name no secret (so its bytes may be stored).

    Every `{` and `[` in the bytes is accounted for by the rows, the envelope
    and its header (strings holding brackets only make this answer no, which
    is safe), and the keys of all rows together are checked once.
    """
    value = wire.value
    rows = value.get("data") if isinstance(value, dict) else value
    if not isinstance(rows, list) or not all(type(row) is dict for row in rows):
        return False
    if wire.body.count(b"{") > len(rows) + 3 or wire.body.count(b"[") > 2:
        return False  # something nested: the exact scrub decides
    keys: set[str] = set()
    keys.update(*rows)
    if isinstance(value, dict):
        keys.update(value)
        header = value.get("header")
        if isinstance(header, dict):
            keys.update(header)
    return not any(is_secret_name(str(key)) for key in keys)


def may_hold_secrets(body: bytes) -> bool:
    r"""Whether a body could hold a secret-bearing field (a cheap byte scan; a miss is certain, a hit is only possible).

    Lower-casing once and searching plain substrings is about 14× faster than
    one case-insensitive regular expression over a 1.5 MB page. A body holding
    a JSON `\u` escape may spell a name in escapes (`"p\u0061ssword"`), which no
    byte scan sees: it is "possible", and the exact scrub decides.
    """
    if b"\\u" in body:
        return True
    lowered = body.lower()
    return any(word in lowered for word in SECRET_WORDS)


@dataclass
class Wire:
    """An answer's bytes and its header facts (`meta`); `value` is the decoded JSON once someone needed it."""

    body: bytes
    meta: dict[str, Any] = field(default_factory=dict)
    _value: Any = field(default=None, repr=False)
    _decoded: bool = field(default=False, repr=False)

    @property
    def value(self) -> Any:
        return self.decode(self.body) if self.body.strip() else None

    def decode(self, body: bytes) -> Any:
        """`loads(body)`, decoded once for this answer's own bytes: the page cache decodes a page to check it
        for secrets, then the page is parsed (`http.decode_body(…, reader=wire.decode)`), from the same value.
        Two decodes were ≈ 4 ms of a 1.5 MB page's ≈ 30 ms of client work (bench/RESULTS.md)."""
        if body is not self.body:
            return loads(body)
        if not self._decoded:
            self._value = loads(body)
            self._decoded = True
        return self._value
