"""The async data layer: plain Python over httpx, usable from the TUI, the CLI and tests.

Nothing here may import Textual or `flextui.ui`; a test enforces it so the
headless CLI stays fast and the layer stays testable on its own.
"""

from flextui.api.errors import (
    ApiError,
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Offline,
    RateLimited,
    ReadOnly,
    ServerError,
    Unauthorized,
    Unreachable,
)

__all__ = [
    "ApiError",
    "Conflict",
    "Forbidden",
    "Invalid",
    "NotFound",
    "Offline",
    "RateLimited",
    "ReadOnly",
    "ServerError",
    "Unauthorized",
    "Unreachable",
]
