"""The one list of names that say a value may be a secret, for every layer that must never show or store one.

It exists because two layers need the same answer and may not import each other: the data layer
(`api.cache.is_secret_key`: a server's field or a header, removed before a page is stored, masked in the
request log and in "copy as curl") and the config file's errors (`config.looks_secret`: a key whose value an
error never quotes, `pasword = …` included), which may not import `api` (pyproject's import-linter contracts).
Two lists kept in step by a test drifted apart in what they knew; one list cannot. It imports nothing.

A name is compared lower-cased, with `-` read as `_` (`api-key`, `new-password`): whole (`token`, but not
`tokenId`), or holding a part (`registrySecret`, `userPassword`, `jwtToken`, `x-api-key`). Taking too much
for a secret costs a field in a cached page; taking too little leaks one.
"""

from __future__ import annotations

from functools import lru_cache

SECRET_NAMES = frozenset(
    {
        "password",
        "secret",
        "token",
        "jwt",
        "authorization",
        "access_token",
        "accesstoken",
        "token_value",
        "tokenvalue",
        "keyring",
        "pwd",
        "pass",
        "api_key",
        "apikey",
    }
)
"""Names that are a secret's whole name (lower-cased, `-` as `_`)."""

SECRET_NAME_PARTS = ("passw", "secret", "jwt", "credential", "private_key", "api_key", "apikey")
"""Parts that make any name holding them a secret's (`userPassword`, `passwd`, `registrySecret`, `jwtToken`)."""


@lru_cache(maxsize=4096)
def is_secret_name(name: str) -> bool:
    """Whether `name` (a field, a header, a config key) says its value may be a secret."""
    lowered = name.lower().replace("-", "_")
    return lowered in SECRET_NAMES or any(part in lowered for part in SECRET_NAME_PARTS)


def secret_words() -> tuple[str, ...]:
    """Every text a secret's name holds, as few as cover them all (a word holding another is left out), each
    spelt with `_` and with `-`: a text that holds none of these holds no secret's name (`api.wire`'s byte scan)."""
    words = {*SECRET_NAMES, *SECRET_NAME_PARTS}
    fewest = sorted(word for word in words if not any(other != word and other in word for other in words))
    return tuple(dict.fromkeys(spelt for word in fewest for spelt in (word, word.replace("_", "-"))))
