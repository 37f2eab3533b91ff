"""A token as a flat row (`flextui get tokens`, exports): every field, timestamps to the second."""

from __future__ import annotations

from typing import Any

from flextui.api.tokens import Token
from flextui.render.words import iso


def token_row(token: Token) -> dict[str, Any]:
    return {
        "name": token.name,
        "type": token.token_type,
        "username": token.username,
        "creator": token.creator,
        "description": token.description,
        "expiryStr": token.expiry_str,
        "issued": iso(token.issued),
        "expires": iso(token.expires),
        "masked": token.masked,
    }
