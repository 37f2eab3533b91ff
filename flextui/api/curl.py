"""Copy as curl: the request behind what is on screen, as a command anyone can run, without the secret.

When a support engineer hands a problem to a developer or the vendor, the
exact request matters more than a screenshot. `curl_for` turns a logged
exchange (`trace.Exchange`) into a shell command that asks the same thing:
same method, address, body and headers, with the credential replaced by an
environment variable (`$FNO_USER`/`$FNO_PASSWORD` for Basic, `$FNO_TOKEN`
for an access token), never the secret itself. The registry's JWT is fetched
first with the password (its authenticate call), as flextui does. A secret in
the body (the value `POST /token/verification` checks) was not logged
(`trace.REMOVED`): the command takes it from a variable named after its field
(`$FNO_ACCESS_TOKEN`), and the note beside it says to set that too, so the
copy repeats the request rather than asking about nothing.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from flextui.api.trace import REMOVED, Exchange
from flextui.secret_names import is_secret_name

KEPT_HEADERS = ("x-publisherid", "accept")


def curl_for(exchange: Exchange, *, user_env: str = "FNO_USER", password_env: str = "FNO_PASSWORD", token_env: str = "FNO_TOKEN") -> str:
    """A curl command (bash) that repeats `exchange`'s request with the credential taken from the environment."""
    headers = {name.lower(): value for name, value in exchange.request_headers.items()}
    auth = headers.get("authorization", "")
    parts = ["curl", "-sS", "-X", exchange.method, shlex.quote(exchange.url)]
    for name in KEPT_HEADERS:
        if name in headers:
            parts += ["-H", shlex.quote(f"{name}: {headers[name]}")]
    body = exchange.request_body
    if body not in (None, ""):
        if isinstance(body, str):
            quoted = shlex.quote(body)
        else:
            quoted = shlex.quote(json.dumps(_placeholders(body), separators=(",", ":"), ensure_ascii=True))
            # In single quotes: close them, the variable in double quotes, open them again.
            quoted = re.sub(r"@@(FNO_[A-Z0-9_]+)@@", lambda m: f"'\"${m.group(1)}\"'", quoted)
        parts += ["-H", shlex.quote("content-type: application/json"), "--data-raw", quoted]
    prefix = ""
    if exchange.service == "registry" and auth.lower().startswith("bearer"):
        tenant = headers.get("x-publisherid", "")
        authenticate = exchange.url.split("/api/v1/", 1)[0] + "/api/v1/authenticate"  # the registry's base, whatever it is
        tenant_header = ["-H", shlex.quote(f"x-publisherid: {tenant}")] if tenant else []
        prefix = (
            " ".join(["JWT=$(curl", "-sS", "-u", f'"${user_env}:${password_env}"', *tenant_header, shlex.quote(authenticate)]) + ") && "
        )
        parts += ["-H", '"Authorization: Bearer $JWT"']
    elif auth.lower().startswith("bearer"):
        parts += ["-H", f'"Authorization: Bearer ${token_env}"']
    elif auth.lower().startswith("basic"):
        parts += ["-u", f'"${user_env}:${password_env}"']
    return prefix + " ".join(parts)


def secret_variable(field: str) -> str:
    """The variable a removed secret is taken from: `accessToken` → `FNO_ACCESS_TOKEN`."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", field)
    return "FNO_" + (re.sub(r"[^A-Za-z0-9]+", "_", words).strip("_").upper() or "SECRET")


def _placeholders(value: Any) -> Any:
    """The logged body with each removed secret as a marker `curl_for` turns into its variable."""
    if isinstance(value, dict):
        return {
            k: f"@@{secret_variable(str(k))}@@" if v == REMOVED and is_secret_name(str(k)) else _placeholders(v) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_placeholders(v) for v in value]
    return value


def environment_note(command: str) -> str:
    """Which variables the command needs, for the line shown next to it."""
    needed = list(dict.fromkeys(re.findall(r"\$(FNO_[A-Z0-9_]+)", command)))
    return "set " + ", ".join(needed) + " first" if needed else "no credentials needed"


__all__ = ["curl_for", "environment_note"]
