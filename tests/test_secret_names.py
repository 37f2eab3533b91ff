"""The one list of secret names (`flextui.secret_names`), and that every layer that hides secrets reads it."""

from __future__ import annotations

import json

import pytest

from flextui.api.cache import scrub_secrets
from flextui.api.http import redacted
from flextui.api.trace import redact_headers
from flextui.api.wire import may_hold_secrets
from flextui.config import looks_secret
from flextui.secret_names import SECRET_NAME_PARTS, SECRET_NAMES, is_secret_name, secret_words

SERVER_FIELDS = ["tokenValue", "token_value", "accessToken", "access_token", "password", "secret", "new-password", "new-secret"]
SERVER_FIELDS += ["existing-secret", "jwt", "token", "Authorization", "userPassword", "registrySecret", "jwtToken"]
CONFIG_KEYS = ["keyring", "passwd", "pwd", "pass", "api-key", "api_key", "apiKey", "user_password", "private-key", "credentials"]
NOT_SECRETS = ["mint_token", "tokenId", "tokenName", "user", "url", "color", "registry_tenant", "description", "expiry"]


@pytest.mark.parametrize("name", SERVER_FIELDS + CONFIG_KEYS)
def test_a_secrets_name_is_one_to_the_config_the_cache_and_the_request_log(name: str) -> None:
    """One answer everywhere: a name the config hides in its errors is removed from a stored page, and masked in
    the request log's headers and in a logged body (the lists were two, and drifted apart)."""
    assert is_secret_name(name) and looks_secret(name)
    assert scrub_secrets({name: "s3cr3t", "kept": 1}) == {"kept": 1}
    assert redact_headers([(name, "Bearer s3cr3t")]) == {name: "Bearer ***"}
    assert "s3cr3t" not in redacted(json.dumps({name: "s3cr3t"}).encode())


@pytest.mark.parametrize("name", NOT_SECRETS)
def test_a_name_that_only_mentions_a_token_is_not_a_secrets(name: str) -> None:
    assert not is_secret_name(name) and not looks_secret(name)
    assert scrub_secrets({name: "v"}) == {name: "v"}


def test_the_cheap_byte_scan_finds_every_secrets_name() -> None:
    """A page whose bytes mention no secret's name is stored as received (`wire.may_hold_secrets`): the scan is
    made from the same list, so a name the list gains cannot slip past it (both spellings of `_`/`-`, any case)."""
    names = [*SECRET_NAMES, *SECRET_NAME_PARTS, *SERVER_FIELDS, *CONFIG_KEYS]
    spelt = {variant for name in names for variant in (name, name.replace("_", "-"), name.upper(), name.title())}
    missed = [name for name in sorted(spelt) if is_secret_name(name) and not may_hold_secrets(json.dumps({name: 1}).encode())]
    assert missed == []
    assert not may_hold_secrets(b'[{"name": "a", "user": "b", "expiry": "2030-01-01"}]')


def test_the_scans_words_are_few_and_each_is_a_secrets_name_or_part() -> None:
    words = secret_words()
    assert len(words) == len(set(words))
    assert all(is_secret_name(word) or any(part in word.replace("-", "_") for part in SECRET_NAME_PARTS) for word in words)
    assert not any(a != b and a in b for a in words for b in words)  # none holds another: it would never be the one found


def test_the_shared_list_imports_nothing_of_flextui() -> None:
    """The config may not import `api` (pyproject's contracts); the module both read stands beside them both."""
    import ast
    from pathlib import Path

    import flextui.secret_names as module

    tree = ast.parse(Path(module.__file__).read_text())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [alias.name for n in ast.walk(tree) if isinstance(n, ast.Import) for alias in n.names]
    assert [name for name in imported if name.startswith("flextui")] == []


def test_a_name_spelt_in_json_escapes_is_not_missed_by_the_byte_scan() -> None:
    """`"p\\u0061ssword"` is `password` once decoded: the scan cannot see it, so the exact scrub must run."""
    import json as _json

    from flextui.api.cache import scrub_secrets

    body = b'{"data": [{"user": {"p\\u0061ssword": "hunter2"}}]}'
    assert may_hold_secrets(body)
    assert "hunter2" not in _json.dumps(scrub_secrets(_json.loads(body)))
