"""Typed errors for every way a request can fail.

Screens and the CLI catch `ApiError` and show `str(error)`: each subclass
carries a message a support engineer can act on, never a stack trace. The
CLI maps each class to its own exit code, and the codes tell a script the
truth: 2 only for the user's own bad usage (a request the client refused to
build), 1 for a server that refused a well-formed request (400, 409, other
4xx) or sent an answer the client cannot read, 3 auth, 4 not found, 5
server or rate limit, 6 unreachable, 7 read-only, 8 a listing cut short.
"""

from __future__ import annotations


class ApiError(Exception):
    """Base class: `message` is readable, `status` the HTTP status if any.

    `str()` puts the status before the message, unless the message is `worded`: a sentence that says the status
    itself, with the service and the request (`http.Session.request` words the failures it gives up on).
    """

    exit_code = 1
    worded = False

    def __init__(self, message: str, *, status: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field

    def __str__(self) -> str:
        prefix = f"{self.status} " if self.status and not self.worded else ""
        return f"{prefix}{self.message}"


class Unauthorized(ApiError):
    """401: the credentials were refused or have expired."""

    exit_code = 3
    password_refused = False
    """The request carried the profile's password (Basic, or minting a token with it): typing it again may help."""


class Forbidden(ApiError):
    """403: authenticated, but not allowed to do this."""

    exit_code = 3


class NotFound(ApiError):
    """404: the named thing does not exist."""

    exit_code = 4


class Invalid(ApiError):
    """400/422 (and other 4xx): the server refused the request; `field` names the field when known."""

    exit_code = 1


class Conflict(ApiError):
    """409: the request clashes with existing data (a duplicate name)."""

    exit_code = 1


class Unreadable(ApiError):
    """The answer could not be read (not JSON, absurdly nested, empty where data was due)."""

    exit_code = 1


class BadRequest(ApiError):
    """The request could not even be built from what the user gave (a 100 KB name, say): the user's own bad input."""

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


EXIT_INCOMPLETE = 8
"""The exit code of a headless listing that printed what it could but was cut short (stderr says why)."""


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


class NotStored(LookupError):
    """A cache-only read found nothing stored (not an error for the user: the caller asks the server instead)."""
