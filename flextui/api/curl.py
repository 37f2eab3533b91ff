"""Copy as curl: the request behind what is on screen, as a command anyone can run, without the secret.

When a support engineer hands a problem to a developer or the vendor, the
exact request matters more than a screenshot. `curl_for` turns a logged
exchange (`trace.Exchange`) into a shell command that asks the same thing:
same method, address, body and headers, with the credential replaced by an
environment variable (`$FNO_USER`/`$FNO_PASSWORD` for Basic, `$FNO_TOKEN`
for an access token), never the secret itself. The registry's JWT is fetched
first with the password (its authenticate call), as flextui does.
"""

from __future__ import annotations

import json
import shlex

from flextui.api.trace import Exchange

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
        data = body if isinstance(body, str) else json.dumps(body, separators=(",", ":"), ensure_ascii=True)
        parts += ["-H", shlex.quote("content-type: application/json"), "--data-raw", shlex.quote(data)]
    prefix = ""
    if exchange.service == "registry" and auth.lower().startswith("bearer"):
        tenant = headers.get("x-publisherid", "")
        authenticate = exchange.url.split("/registry/api/v1/", 1)[0] + "/registry/api/v1/authenticate"
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


def environment_note(command: str) -> str:
    """Which variables the command needs, for the line shown next to it."""
    needed = [name for name in ("FNO_USER", "FNO_PASSWORD", "FNO_TOKEN") if f"${name}" in command]
    return "set " + ", ".join(needed) + " first" if needed else "no credentials needed"


__all__ = ["curl_for", "environment_note"]
