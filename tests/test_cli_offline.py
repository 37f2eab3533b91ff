"""`--offline` finds what the same profile (or the same `--url` command line) stored online.

Pages are filed by identity (`Session.identity_for`): the instance and the
user, and for a service asked with an access token the profile holds, that
token's digest. Offline, `cli._make_context` gave the session the user alone
(no token, no password): every beta-API kind said "offline, and nothing
cached for entitlements.list", exit 6, and an ad hoc `--url` with a token
looked for its reports under the token (online they were asked with the
password). The identity rule still holds offline: a profile holding someone
else's token does not see the profile user's pages.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flextui.cli import main
from flextui.sim.world import ADMIN, CUSTOMER, World

COMMANDS = {
    "entitlements": ["get", "entitlements"],
    "products": ["get", "products"],
    "users": ["get", "users"],
    "accounts": ["get", "accounts"],
    "tokens": ["get", "tokens", "--username", ADMIN[0]],
    "reports": ["report", "run", "fulfillment", "--past-days", "3", "--cache-pages"],
}
"""A command of each kind whose pages offline must find: the beta APIs (token), the token API and reports (password)."""


def rows(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 0) -> list[dict[str, Any]]:
    done = main([*argv, "-o", "json"])
    out, err = capsys.readouterr()
    assert done == code, err
    return json.loads(out) if code == 0 else []


def stored_then_offline(capsys: pytest.CaptureFixture[str], who: list[str], kind: str, *, offline_who: list[str] | None = None) -> None:
    online = rows(capsys, [*who, *COMMANDS[kind]])
    assert online, f"{kind}: nothing listed online"
    again = rows(capsys, [*(offline_who or who), "--offline", *COMMANDS[kind]])
    assert again == online, f"{kind}: offline, not the rows stored online"


@pytest.fixture
def two_variable_profile(tmp_path: Path, live_server: str, world: World, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A profile holding a password and an access token, each from an environment variable (the README's)."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.both]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\nregistry_tenant = "{world.tenant_id}"\n'
        'password = { env = "FNO_TEST_PW" }\ntoken = { env = "FNO_TEST_TOKEN" }\n'
    )
    monkeypatch.setenv("FNO_TEST_PW", ADMIN[1])
    monkeypatch.setenv("FNO_TEST_TOKEN", world.seed_token(ADMIN[0]))
    return ["--config", str(cfg), "--profile", "both"]


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_a_profile_reads_back_offline_what_it_stored(
    two_variable_profile: list[str], kind: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    online = rows(capsys, [*two_variable_profile, *COMMANDS[kind]])
    assert online
    monkeypatch.setenv("FNO_TEST_PW", "not-the-password")  # offline reads no password: only whether its variable is set
    assert rows(capsys, [*two_variable_profile, "--offline", *COMMANDS[kind]]) == online


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_an_adhoc_url_reads_back_offline_what_it_stored(
    live_server: str, world: World, kind: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's `--url` line: FLEXTUI_PASSWORD and FLEXTUI_TOKEN both set, online and offline."""
    monkeypatch.setenv("FLEXTUI_PASSWORD", ADMIN[1])
    monkeypatch.setenv("FLEXTUI_TOKEN", world.seed_token(ADMIN[0]))
    stored_then_offline(capsys, ["--url", live_server, "--user", ADMIN[0], "--registry-tenant", str(world.tenant_id)], kind)


@pytest.mark.parametrize("kind", ["entitlements", "tokens", "reports"])
def test_an_adhoc_url_with_a_token_alone_reads_back_offline(
    live_server: str, world: World, kind: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without FLEXTUI_PASSWORD the token API and reports are asked with the token: their pages are the token's."""
    monkeypatch.delenv("FLEXTUI_PASSWORD", raising=False)
    monkeypatch.setenv("FLEXTUI_TOKEN", world.seed_token(ADMIN[0]))
    stored_then_offline(capsys, ["--url", live_server, "--user", ADMIN[0]], kind)


def test_offline_a_profile_holding_someone_elses_token_does_not_see_the_users_pages(
    tmp_path: Path, live_server: str, world: World, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.own]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\ntoken = {{ env = "FNO_TEST_OWN" }}\n'
        f'[profiles.theirs]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\ntoken = {{ env = "FNO_TEST_THEIRS" }}\n'
    )
    monkeypatch.setenv("FNO_TEST_OWN", world.seed_token(ADMIN[0]))
    monkeypatch.setenv("FNO_TEST_THEIRS", world.seed_token(CUSTOMER[0]))  # the customer's token, under the admin's name
    own, theirs = (["--config", str(cfg), "--profile", name] for name in ("own", "theirs"))
    admins = rows(capsys, [*own, "get", "entitlements"])
    assert rows(capsys, [*own, "--offline", "get", "entitlements"]) == admins
    assert main([*theirs, "--offline", "get", "entitlements"]) == 6
    assert f"offline, and nothing cached for entitlements.list as {ADMIN[0]}" in capsys.readouterr().err
    customers = rows(capsys, [*theirs, "get", "entitlements"])
    assert 0 < len(customers) < len(admins), "the customer's token sees the customer's entitlements only"
    assert rows(capsys, [*theirs, "--offline", "get", "entitlements"]) == customers
    assert rows(capsys, [*own, "--offline", "get", "entitlements"]) == admins, "the admin's pages are still the admin's own"


def said(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 0) -> tuple[list[dict[str, Any]], str]:
    """The rows a command wrote (JSON) and what it said on stderr."""
    done = main([*argv, "-o", "json"])
    out, err = capsys.readouterr()
    assert done == code, err
    return (json.loads(out) if code == 0 else []), err


def test_a_password_that_cannot_be_had_is_said_and_the_tokens_answers_are_the_tokens(
    tmp_path: Path, live_server: str, world: World, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The customer's profile, its password's variable unset, holding the admin's token: the token API and reports
    are asked with the token (as the README says), and it says so, naming the variable; what they answer is the
    token's, filed under it. It was filed under the customer alone, silently: the customer's own session (its
    password set again) then read the admin token's answers offline as the customer's."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.mine]\nurl = "{live_server}"\nuser = "{CUSTOMER[0]}"\nregistry_tenant = "{world.tenant_id}"\n'
        'password = { env = "FNO_TEST_PW" }\ntoken = { env = "FNO_TEST_TOKEN" }\n'
    )
    mine = ["--config", str(cfg), "--profile", "mine"]
    monkeypatch.delenv("FNO_TEST_PW", raising=False)
    monkeypatch.setenv("FNO_TEST_TOKEN", world.seed_token(ADMIN[0]))
    admins, err = said(capsys, [*mine, *COMMANDS["tokens"]])
    assert admins and "FNO_TEST_PW is not set" in err and "asked with the profile's access token instead" in err, err
    report, err = said(capsys, [*mine, *COMMANDS["reports"]])
    assert report and "FNO_TEST_PW is not set" in err and "asked with the profile's access token instead" in err, err

    # offline, with the variable as it was: the token's pages, and why they are the ones looked for
    assert rows(capsys, [*mine, "--offline", *COMMANDS["tokens"]]) == admins
    monkeypatch.setenv("FNO_TEST_PW", CUSTOMER[1])  # the customer's own identity: never the admin token's answers
    assert main([*mine, "--offline", *COMMANDS["tokens"]]) == 6
    assert "nothing cached for tokens." in capsys.readouterr().err
    assert main([*mine, "--offline", *COMMANDS["reports"]]) == 6
    capsys.readouterr()

    own, err = said(capsys, [*mine, "get", "tokens", "--username", CUSTOMER[0]])  # asked with the password: the user's
    assert own and "access token instead" not in err, err
    assert rows(capsys, [*mine, "--offline", "get", "tokens", "--username", CUSTOMER[0]]) == own
    monkeypatch.delenv("FNO_TEST_PW")
    _, err = said(capsys, [*mine, "--offline", "get", "tokens", "--username", CUSTOMER[0]], 6)
    assert "offline, FNO_TEST_PW (the password's variable) is not set" in err, err


def test_offline_a_token_from_a_command_is_not_got_and_that_is_said(
    tmp_path: Path, live_server: str, world: World, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline nothing is run or asked: a token (or a password) from a command stays where it is, and a miss says why."""
    ran = tmp_path / "ran"
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.cmd]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\n'
        f"password = {{ command = \"sh -c 'touch {ran}; echo {ADMIN[1]}'\" }}\n"
        f"token = {{ command = \"sh -c 'touch {ran}; echo {world.seed_token(ADMIN[0])}'\" }}\n"
    )
    profile = ["--config", str(cfg), "--profile", "cmd"]
    assert rows(capsys, [*profile, "get", "entitlements"]) and rows(capsys, [*profile, *COMMANDS["tokens"]])
    ran.unlink()
    assert main([*profile, "--offline", "get", "entitlements"]) == 6
    err = capsys.readouterr().err
    assert "nothing cached for entitlements.list" in err
    assert f"offline, the access token is not got from its command (token = {{ command = … }} in [profiles.cmd] in {cfg})" in err
    assert rows(capsys, [*profile, "--offline", *COMMANDS["tokens"]]), "the token API's pages were asked with the password"
    assert not ran.exists(), "offline, neither command was run"


def test_offline_credentials_get_nothing_that_asks() -> None:
    from flextui.api.auth import MissingCredential
    from flextui.config import Profile
    from flextui.secrets import offline_credentials

    profile = Profile.model_validate(
        {"name": "p", "url": "https://a.example", "user": "u@a.example", "password": {"prompt": True}, "token": {"keyring": True}}
    )
    creds, unfound = offline_credentials(profile)
    assert creds.holds("password") and not creds.holds("access token")
    with pytest.raises(MissingCredential, match="offline, the password is not read"):
        _ = creds.password
    assert len(unfound) == 1 and "not got from the keyring" in unfound[0][1] and "entitlements" in unfound[0][0]
    plain = Profile.model_validate({"name": "p", "url": "https://a.example", "user": "u@a.example", "token": "rna_" + "1" * 44})
    creds, unfound = offline_credentials(plain)
    assert creds.token == "rna_" + "1" * 44 and not creds.holds("password") and unfound == []


def test_cache_clear_of_a_token_only_profile_clears_its_tokens_pages(
    tmp_path: Path, live_server: str, world: World, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A profile with no user files its pages under its token (`Session.identity`); `cache clear --profile` cleared
    the instance with no user instead: nothing ("removed 0 cached pages"), and the pages stayed readable offline."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.bare]\nurl = "{live_server}"\ntoken = {{ env = "FNO_TEST_TOKEN" }}\n'
        f'[profiles.other]\nurl = "{live_server}"\ntoken = {{ env = "FNO_TEST_OTHER" }}\n'
    )
    monkeypatch.setenv("FNO_TEST_TOKEN", world.seed_token(ADMIN[0]))
    monkeypatch.setenv("FNO_TEST_OTHER", world.seed_token(CUSTOMER[0]))
    bare, other = (["--config", str(cfg), "--profile", name] for name in ("bare", "other"))
    assert rows(capsys, [*bare, "get", "entitlements"]) and rows(capsys, [*other, "get", "entitlements"])
    assert main([*bare, "cache", "clear"]) == 0
    out = capsys.readouterr().out
    assert "removed 0" not in out and "as token:" in out, out
    assert main([*bare, "--offline", "get", "entitlements"]) == 6
    capsys.readouterr()
    assert rows(capsys, [*other, "--offline", "get", "entitlements"]), "another token's pages at the instance stay"
    monkeypatch.delenv("FNO_TEST_TOKEN")
    assert main([*bare, "cache", "clear"]) == 2
    assert "FNO_TEST_TOKEN" in capsys.readouterr().err
