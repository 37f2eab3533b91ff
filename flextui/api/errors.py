"""Typed errors for every way a request can fail.

Screens and the CLI catch `ApiError` and show `str(error)`: each subclass
carries a message a support engineer can act on, never a stack trace. The
CLI maps each class to its own exit code.
"""

from __future__ import annotations


class ApiError(Exception):
    """Base class: `message` is readable, `status` the HTTP status if any."""

    exit_code = 1

    def __init__(self, message: str, *, status: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field

    def __str__(self) -> str:
        prefix = f"{self.status} " if self.status else ""
        return f"{prefix}{self.message}"


class Unauthorized(ApiError):
    """401: the credentials were refused or have expired."""

    exit_code = 3


class Forbidden(ApiError):
    """403: authenticated, but not allowed to do this."""

    exit_code = 3


class NotFound(ApiError):
    """404: the named thing does not exist."""

    exit_code = 4


class Invalid(ApiError):
    """400/422: the request broke a rule; `field` names the field when known."""

    exit_code = 2


class Conflict(ApiError):
    """409: the request clashes with existing data (a duplicate name)."""

    exit_code = 2


class RateLimited(ApiError):
    """429 after the retries ran out; `retry_after` in seconds."""

    exit_code = 5

    def __init__(self, message: str, *, retry_after: float | None = None, status: int | None = 429) -> None:
        super().__init__(message, status=status)
        self.retry_after = retry_after


class ServerError(ApiError):
    """5xx: the server failed."""

    exit_code = 5


class Unreachable(ApiError):
    """The server could not be reached: DNS, refused, TLS, timeout."""

    exit_code = 6


class Offline(Unreachable):
    """Offline mode was asked for and the cache holds no answer."""


class ReadOnly(ApiError):
    """A mutating call on a read-only profile; refused before any request."""

    exit_code = 7


def from_status(status: int, message: str, *, retry_after: float | None = None, field: str | None = None) -> ApiError:
    """The error class for an HTTP status."""
    if status == 401:
        return Unauthorized(message, status=status)
    if status == 403:
        return Forbidden(message, status=status)
    if status == 404:
        return NotFound(message, status=status)
    if status == 409:
        return Conflict(message, status=status, field=field)
    if status == 429:
        return RateLimited(message, retry_after=retry_after)
    if status >= 500:
        return ServerError(message, status=status)
    return Invalid(message, status=status, field=field)
