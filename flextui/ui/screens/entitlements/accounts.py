"""Which account an Account ID names, so the name under the new-entitlement form's field follows what is typed.

The form proposed the cursor's account and showed its name as a fixed hint: an ID typed over it (`999`) still
read "Acme Robotics", and an account that does not exist was found out only by the server, after everything
else had been fixed. `AccountNames` knows the accounts the tree shows; any other ID is asked of the users
service (by the form's screen, once the typing pauses) and what it said is kept for the screen's life.
"""

from __future__ import annotations

from collections.abc import Iterable

from flextui.api import validation as v
from flextui.api.users import Account

LOOKUP_PAUSE_S = 0.4
"""How long the typing must pause before an ID is asked about: one request for `SampleOrg12345`, not one a key."""


class AccountNames:
    """Account ID → name, as far as known: from the tree, or from the users service asked about an ID."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}
        """ID → the account's name ("" when it has none), for the accounts known to exist."""
        self._types: dict[str, str] = {}
        """ID → the account's type, where the tree or the users service said it."""
        self._missing: set[str] = set()
        """IDs the users service does not know."""
        self._unchecked: dict[str, str] = {}
        """ID → why it could not be asked about (the server decides, on submit)."""
        self.asking: str | None = None
        """The ID being asked about now."""

    def learn(self, account_id: str, name: str | None, account_type: str | None = None) -> None:
        """An account known to exist (a root of the tree, an entitlement's owner)."""
        if account_id:
            self._names[account_id] = name or ""
            if account_type:
                self._types[account_id] = account_type

    def type_of(self, account_id: str) -> str | None:
        """The type of the account `account_id` names, if known (the form proposes it for the new entitlement)."""
        return self._types.get(account_id)

    def found(self, account_id: str, accounts: Iterable[Account]) -> None:
        """The users service's answer to a lookup of `account_id` (its accounts whose ID contains it)."""
        exact = [a for a in accounts if a.account_id.casefold() == account_id.casefold()]
        if exact:
            self.learn(account_id, exact[0].account_name, exact[0].account_type)
        else:
            self._missing.add(account_id)

    def unchecked(self, account_id: str, why: str) -> None:
        """The lookup failed: the account is neither known nor known to be missing."""
        self._unchecked[account_id] = why

    def done(self, account_id: str) -> None:
        """A lookup of `account_id` ended (answered, failed or cancelled)."""
        if self.asking == account_id:
            self.asking = None

    def needs_lookup(self, account_id: str) -> bool:
        """Whether `account_id` must be asked about (not empty, not known either way, not being asked about)."""
        return bool(account_id) and account_id != self.asking and not self._settled(account_id)

    def _settled(self, account_id: str) -> bool:
        return account_id == v.DEFAULT_ACCOUNT or account_id in self._names or account_id in self._missing or account_id in self._unchecked

    def problem(self, account_id: str) -> str | None:
        """The inline error for an ID the users service does not know; None otherwise (also while unknown either way)."""
        return f"no account {account_id!r}" if account_id in self._missing else None

    def hint(self, account_id: str) -> str:
        """What goes under the field: the account's name, or what is known of the ID."""
        if not account_id:
            return f"empty: the default account {v.DEFAULT_ACCOUNT}"
        if account_id == v.DEFAULT_ACCOUNT:
            return "the default account"
        if account_id in self._names:
            return self._names[account_id] or f"account {account_id} (it has no name)"
        if account_id in self._unchecked:
            return f"could not check account {account_id} ({self._unchecked[account_id]}): the server will say if it is not there"
        if account_id in self._missing:
            return ""  # the inline error says it
        return f"looking up account {account_id}…"


__all__ = ["LOOKUP_PAUSE_S", "AccountNames"]
