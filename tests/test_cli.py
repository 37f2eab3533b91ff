"""The command line: version, help, info, no-terminal guard, headless token listing, exit codes."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from flextui import __version__
from flextui.cli import main
from flextui.sim.registry import HELLO
from flextui.sim.world import ADMIN, World


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLEXTUI_")}
    return subprocess.run([sys.executable, "-m", "flextui", *args], input=stdin, capture_output=True, text=True, timeout=60, env=env)


def test_version_and_help() -> None:
    done = run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"flextui {__version__}"
    done = run("--help")
    assert done.returncode == 0 and "flextui demo" in done.stdout and "Exit codes" in done.stdout


def test_get_help_names_every_kind_it_lists(capsys: pytest.CaptureFixture[str]) -> None:
    """The help named 10 kinds where 16 could be listed (its error named all of them)."""
    from flextui import kinds

    with pytest.raises(SystemExit):
        main(["get", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    listed = [kind.id for kind in kinds.KINDS if kind.has_lister]
    assert len(listed) > 10 and all(kind in shown for kind in listed), shown


def test_without_a_terminal_the_tui_explains_and_exits() -> None:
    for args in (("demo",), ()):
        done = run(*args)
        assert done.returncode == 2
        assert "ssh -t" in done.stderr and "flextui get" in done.stderr


def test_info_names_the_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert "config file:" in out and "cache file:" in out and "log file:" in out
    assert os.environ["XDG_CONFIG_HOME"] in out


def test_info_and_cache_clear_show_the_configs_text_cleaned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`info` printed a profile's user as written in the config: an escape sequence in it reached the terminal."""
    cfg = tmp_path / "config.toml"
    cfg.write_text('[profiles.p]\nurl = "https://x.example"\nuser = "me\\u001b]0;owned\\u0007@x.example"\n')
    assert main(["--config", str(cfg), "info"]) == 0
    out = capsys.readouterr().out
    assert "me␛]0;owned␇@x.example" in out and "\x1b" not in out and "\x07" not in out
    assert main(["--config", str(cfg), "cache", "clear", "--profile", "p"]) == 0
    out = capsys.readouterr().out
    assert "as me␛]0;owned␇@x.example" in out and "\x1b" not in out


def test_info_names_the_saved_filter_sets_file(capsys: pytest.CaptureFixture[str]) -> None:
    """It named every file flextui writes but the saved report filter sets."""
    from flextui.config import filters_path

    assert main(["info"]) == 0
    assert f"filter sets: {filters_path()}" in capsys.readouterr().out


def test_get_tokens_in_each_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["get", "tokens", "--demo", "--username", ADMIN[0], "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and all(r["username"] == ADMIN[0] for r in rows)
    assert "tokenValue" not in rows[0] and "value" not in rows[0]
    assert main(["get", "tokens", "--demo", "--username", ADMIN[0], "-o", "jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["name"] for line in lines] == [r["name"] for r in rows]
    assert main(["get", "tokens", "--demo", "--username", ADMIN[0], "-o", "csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["name"] for r in table] == [r["name"] for r in rows]
    assert main(["get", "tokens", "--demo", "--username", ADMIN[0]]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("name") and rows[0]["name"] in out


def test_no_rows_is_an_empty_document_in_each_format(capsys: pytest.CaptureFixture[str]) -> None:
    """A script reading the CSV of an empty listing gets its header (it got nothing at all), JSON an empty array."""
    nobody = "nobody@nowhere.example"
    assert main(["get", "tokens", "--demo", "--username", nobody, "-o", "csv"]) == 0
    done = capsys.readouterr()
    assert done.out.splitlines() == ["name,type,expires,username,creator,issued,description,expiryStr,masked"]
    assert list(csv.DictReader(io.StringIO(done.out))) == [] and "no rows" in done.err
    assert main(["get", "tokens", "--demo", "--username", nobody, "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_get_tokens_search_and_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["get", "tokens", "--demo", "--search", "name=ci-*,type=NORMAL", "-o", "json", "--limit", "2"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 2 and all(r["name"].startswith("ci-") and r["type"] == "NORMAL" for r in rows)


def test_get_one_token_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    """`flextui get tokens NAME`: the token's details (GET /uar/v1/token/{name}), one row in the listing's columns."""
    assert main(["get", "tokens", "flextui-demo-admin", "--demo", "-o", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["username"], r["type"]) for r in rows] == [("flextui-demo-admin", ADMIN[0], "NORMAL")]
    assert main(["get", "tokens", "no-such-token", "--demo"]) == 4
    assert "no token named 'no-such-token'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["get", "tokens", "--demo"], 2, "--username or --creator"),
        (["get", "tokens", "flextui-demo-admin", "--demo", "--username", ADMIN[0]], 2, "or --username, --creator or --search, not both"),
        (["get", "tokens", "--demo", "--search", "colour=red"], 2, "--search colour=red: write KEY=VALUE"),
        (["get", "nonsense", "--demo"], 2, "cannot list"),
        (["get", "tokens", "--demo", "--username", "someone@else.example", "--sim-seed", "7"], 0, ""),
        (["get", "tokens"], 2, "no profiles"),
    ],
)
def test_exit_codes(capsys: pytest.CaptureFixture[str], args: list[str], code: int, message: str) -> None:
    assert main(args) == code
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("search", "error"),
    [
        ("name=ci-*,type=WEIRD", "--search type=WEIRD: the type is NORMAL or IMPERSONATED"),
        ("expiresBefore=30x", "--search expiresBefore=30x: cannot read '30x': use numbers with the units y M d h m"),
        ("type=NORMAL", "--search type=NORMAL: give at least one of name, user, creator, expires before/after or issued before"),
    ],
)
def test_a_bad_search_is_one_line_naming_its_key(capsys: pytest.CaptureFixture[str], search: str, error: str) -> None:
    """A criterion the search model refuses printed pydantic's whole ValidationError, its docs URL included."""
    assert main(["get", "tokens", "--demo", "--search", search]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"flextui: {error}") and err.count("\n") == 1, err
    assert "pydantic" not in err and "validation error" not in err


def test_an_unknown_search_key_names_the_short_forms_the_readme_uses(capsys: pytest.CaptureFixture[str]) -> None:
    """The README writes `name=` and `type=`; the error listed only tokenName, tokenType, … (walk27-a 13)."""
    assert main(["get", "tokens", "--demo", "--search", "bogus=1"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "flextui: --search bogus=1: write KEY=VALUE with the keys name (tokenName), type (tokenType), user (username),"
        " creator (tokenCreator), expiresBefore, expiresAfter (expiresLaterThan), issuedBefore\n"
    )
    with pytest.raises(SystemExit):
        main(["get", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "the keys name, type, user, creator, expiresBefore, expiresAfter, issuedBefore" in shown, shown
    assert "tokenName, tokenType, username, tokenCreator, expiresLaterThan" in shown, shown


def test_username_and_creator_complete_a_search(capsys: pytest.CaptureFixture[str]) -> None:
    """--username was added after the search was checked: `type=NORMAL` alone was refused as naming no criterion."""
    assert main(["get", "tokens", "--demo", "--search", "type=NORMAL", "--username", ADMIN[0], "-o", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and all(r["type"] == "NORMAL" and r["username"] == ADMIN[0] for r in rows)


def test_control_characters_never_reach_the_terminal(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.sim import tokens as sim_tokens

    original = sim_tokens.TokenStore._generate

    def poisoned(self: sim_tokens.TokenStore) -> None:
        original(self)
        for token in self.by_name.values():
            token.description = "[/] \x1b[2J"

    monkeypatch.setattr(sim_tokens.TokenStore, "_generate", poisoned)
    assert main(["get", "tokens", "--demo", "--username", ADMIN[0]]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "[/] ␛[2J" in out


def test_profile_errors_name_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[profiles.x]\nurl = "nope"\n')
    assert main(["--config", str(cfg), "get", "tokens", "--username", "u"]) == 2
    err = capsys.readouterr().err
    assert str(cfg) in err and "profiles.x.url" in err


def _profile(tmp_path: Path, url: str) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[profiles.local]\nurl = "{url}"\nuser = "{ADMIN[0]}"\nsecret = {{ env = "FNO_TEST_PW" }}\n')
    return cfg


def test_profile_over_http_then_offline_from_cache(
    tmp_path: Path, live_server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = _profile(tmp_path, live_server)
    monkeypatch.setenv("FNO_TEST_PW", ADMIN[1])
    assert main(["--config", str(cfg), "get", "tokens", "--username", ADMIN[0], "-o", "json"]) == 0
    online = json.loads(capsys.readouterr().out)
    assert online
    monkeypatch.delenv("FNO_TEST_PW")
    assert main(["--config", str(cfg), "--offline", "get", "tokens", "--username", ADMIN[0], "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == online
    assert main(["--config", str(cfg), "--offline", "get", "tokens", "--creator", ADMIN[0], "-o", "json"]) == 6
    assert "offline" in capsys.readouterr().err
    assert main(["--config", str(cfg), "cache", "clear", "--all"]) == 0
    assert "removed" in capsys.readouterr().out
    assert main(["--config", str(cfg), "--offline", "get", "tokens", "--username", ADMIN[0]]) == 6


@pytest.mark.parametrize("password_offline", [True, False], ids=["password-still-set", "password-unset"])
def test_offline_registry_lists_from_the_cache(
    tmp_path: Path,
    live_server: str,
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    password_offline: bool,
) -> None:
    """`--offline get projects` exited 3 asking for the password the profile had (offline, none is got): the registry
    set up its JWT flow before the cache was read. Its pages belong to the identity, as every other kind's do."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.local]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\npassword = {{ env = "FNO_TEST_PW" }}\n'
        f'registry_tenant = "{world.tenant_id}"\n'
    )
    monkeypatch.setenv("FNO_TEST_PW", ADMIN[1])
    profile = ["--config", str(cfg)]
    assert main([*profile, "get", "projects", "--limit", "2", "-o", "json"]) == 0
    online = json.loads(capsys.readouterr().out)
    assert len(online) == 2
    if not password_offline:
        monkeypatch.delenv("FNO_TEST_PW")
    assert main([*profile, "--offline", "get", "projects", "--limit", "2", "-o", "json"]) == 0
    done = capsys.readouterr()
    assert json.loads(done.out) == online, done.err
    assert main([*profile, "--offline", "get", "members", HELLO]) == 6
    assert f"offline, and nothing cached for registry.members as {ADMIN[0]}" in capsys.readouterr().err
    assert main([*profile, "cache", "clear", "--all"]) == 0
    capsys.readouterr()
    assert main([*profile, "--offline", "get", "projects"]) == 6
    assert "offline, and nothing cached for registry.projects" in capsys.readouterr().err


def test_wrong_password_exits_3(
    tmp_path: Path, live_server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = _profile(tmp_path, live_server)
    monkeypatch.setenv("FNO_TEST_PW", "wrong")
    assert main(["--config", str(cfg), "get", "tokens", "--username", ADMIN[0]]) == 3
    assert "401" in capsys.readouterr().err


def test_adhoc_url_with_password_from_env(live_server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FLEXTUI_PASSWORD", ADMIN[1])
    assert main(["--url", live_server, "--user", ADMIN[0], "get", "tokens", "--username", ADMIN[0], "-o", "jsonl"]) == 0
    assert capsys.readouterr().out.count("\n") >= 3


def test_adhoc_url_without_a_scheme_says_what_it_needs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """It said only "For further information visit https://errors.pydantic.dev/…"."""
    monkeypatch.setenv("FLEXTUI_PASSWORD", "x")
    assert main(["--url", "127.0.0.1:18765", "--user", "a@b.example", "get", "projects"]) == 2
    err = capsys.readouterr().err
    assert "--url 127.0.0.1:18765: must start with https://" in err and "pydantic" not in err


def test_a_registry_command_without_a_password_exits_3_as_every_missing_credential(
    live_server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A token-only profile's `get projects` exited 2 (usage) where a missing token for entitlements exits 3."""
    monkeypatch.delenv("FLEXTUI_PASSWORD", raising=False)
    monkeypatch.setenv("FLEXTUI_TOKEN", "rna_" + "0" * 44)
    assert main(["--url", live_server, "--registry-tenant", "1107", "get", "projects"]) == 3
    assert "has no password" in capsys.readouterr().err


def test_a_command_gets_only_the_credentials_it_uses(
    tmp_path: Path, live_server: str, world: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unset password variable stopped `get entitlements`, which takes only the access token."""
    ran = tmp_path / "password-command-ran"
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.unset]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\nregistry_tenant = "{world.tenant_id}"\n'
        'password = { env = "FNO_TEST_UNSET_PW" }\ntoken = { env = "FNO_TEST_TOKEN" }\n'
        f'[profiles.command]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\n'
        f'password = {{ command = "sh -c \'touch {ran}; echo {ADMIN[1]}\'" }}\ntoken = {{ env = "FNO_TEST_TOKEN" }}\n'
    )
    monkeypatch.delenv("FNO_TEST_UNSET_PW", raising=False)
    monkeypatch.setenv("FNO_TEST_TOKEN", world.seed_token(ADMIN[0]))
    for profile in ("unset", "command"):
        assert main(["--config", str(cfg), "--profile", profile, "get", "entitlements", "-o", "json"]) == 0, capsys.readouterr().err
        assert json.loads(capsys.readouterr().out)
    assert not ran.exists(), "the password's command is not run for a command that does not use the password"
    assert main(["--config", str(cfg), "--profile", "unset", "get", "projects"]) == 3
    err = capsys.readouterr().err
    assert "FNO_TEST_UNSET_PW is not set" in err and f'password = {{ env = "FNO_TEST_UNSET_PW" }} in [profiles.unset] in {cfg}' in err
    assert main(["--config", str(cfg), "--profile", "command", "get", "tokens", "--username", ADMIN[0], "-o", "json"]) == 0
    assert ran.exists() and json.loads(capsys.readouterr().out), "a command that uses the password gets it"


def test_without_a_terminal_a_prompt_says_where_it_comes_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A profile's `{ prompt = true }` with no terminal said to set FLEXTUI_PASSWORD, which only `--url` reads."""
    cfg = tmp_path / "config.toml"
    cfg.write_text('[profiles.uat]\nurl = "https://uat.flexnetoperations.com"\nuser = "me@x.example"\npassword = { prompt = true }\n')
    monkeypatch.setattr("sys.stdin", io.StringIO())
    monkeypatch.delenv("FLEXTUI_PASSWORD", raising=False)
    monkeypatch.delenv("FLEXTUI_TOKEN", raising=False)
    assert main(["--config", str(cfg), "--profile", "uat", "get", "tokens", "--username", "u"]) == 3
    err = capsys.readouterr().err
    assert f"password = {{ prompt = true }} in [profiles.uat] in {cfg}" in err and '{ env = "…" }' in err and "keyring" in err
    assert "FLEXTUI_PASSWORD" not in err and err.count("[profiles.uat]") == 1
    assert main(["--url", "https://uat.flexnetoperations.com", "--user", "me@x.example", "get", "tokens", "--username", "u"]) == 2
    assert "FLEXTUI_PASSWORD" in capsys.readouterr().err, "--url's password does come from FLEXTUI_PASSWORD"


def test_cache_clear_of_an_instance_needs_its_user(capsys: pytest.CaptureFixture[str]) -> None:
    """`cache clear --url U` without --user cleared nothing and said "removed 0 cached pages of U as " (exit 0)."""
    assert main(["cache", "clear", "--url", "https://acme.flexnetoperations.com"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--user" in err and "removed" not in err


def test_cache_clear_of_a_user_needs_the_instance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`cache clear --user X` without --url ignored --user and cleared the default profile's pages."""
    cfg = tmp_path / "config.toml"
    cfg.write_text('[settings]\ndefault_profile = "p"\n[profiles.p]\nurl = "https://acme.flexnetoperations.com"\nuser = "a@b.example"\n')
    for argv in (["cache", "clear", "--user", "x@y.example"], ["--user", "x@y.example", "cache", "clear"]):
        assert main(["--config", str(cfg), *argv]) == 2
        out, err = capsys.readouterr()
        assert out == "" and "--url" in err and "removed" not in err


@pytest.mark.parametrize(
    ("argv", "given"),
    [
        (["cache", "clear", "--all", "--profile", "p"], "--profile"),
        (["--profile", "p", "cache", "clear", "--all"], "--profile"),
        (["cache", "clear", "--all", "--url", "https://acme.flexnetoperations.com", "--user", "a@b.example"], "--url and --user"),
        (["cache", "clear", "--all", "--user", "a@b.example"], "--user"),
    ],
)
def test_cache_clear_all_refuses_an_identity(capsys: pytest.CaptureFixture[str], argv: list[str], given: str) -> None:
    """`cache clear --all --profile P` ignored --profile and cleared every profile's pages."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, "nothing cleared; one line says why"
    assert f"--all clears every identity's pages, so {given} make" in err


@pytest.mark.parametrize(
    ("argv", "given"),
    [
        (["get", "tokens", "--demo", "--profile", "prod"], "--profile"),
        (["--profile", "prod", "get", "tokens", "--demo"], "--profile"),
        (["get", "tokens", "--demo", "--url", "https://acme.flexnetoperations.com", "--user", "a@b.example"], "--url and --user"),
        (["report", "list", "--demo", "--token-env", "T", "--registry-tenant", "1107"], "--token-env and --registry-tenant"),
    ],
)
def test_the_demo_refuses_an_instance_or_identity(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], given: str
) -> None:
    """`get tokens --demo --profile prod` ignored --profile and listed the simulator's tokens as if they were prod's."""
    monkeypatch.setenv("FLEXTUI_PASSWORD", "x")
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, "nothing listed; one line says why"
    assert f"flextui: {given} {'does' if ' and ' not in given else 'do'} not apply with --demo" in err


def test_cache_clear_help_says_what_it_clears_without_flags(capsys: pytest.CaptureFixture[str]) -> None:
    """It said "(of --profile, or all)": without flags it clears the default profile's pages; --all clears every profile's."""
    with pytest.raises(SystemExit):
        main(["cache", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "or all)" not in shown and "default profile" in shown and "--all" in shown


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The argparse error `argv` is refused with (exit 2), as a user sees it."""
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    "argv", [["sim", "--latency", "-5"], ["get", "tokens", "--demo", "--sim-latency", "-5"], ["sim", "--latency", "nan"]]
)
def test_a_negative_latency_is_refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """`sim --latency -5` was accepted."""
    assert "latency: must be at least 0" in _usage_error(capsys, *argv)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--url", "https://x.example", "report", "run", "fulfillment", "--sim-dialect", "links-none"], "--sim-dialect needs --demo"),
        (["get", "tokens", "--username", "u", "--sim-scale", "2"], "--sim-scale needs --demo"),
        (["-p", "prod", "get", "products", "--sim-seed", "7", "--sim-latency", "0"], "--sim-seed and --sim-latency need --demo"),
    ],
)
def test_a_simulator_option_without_demo_is_refused(capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    """`report run … --sim-dialect links-none` without --demo was ignored (exit 0): the profile was asked as if it spoke it."""
    err = _usage_error(capsys, *argv)
    assert said in err and "embedded simulator" in err


def test_simulator_options_with_demo_are_taken(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["get", "tokens", "--demo", "--sim-scale", "2", "--sim-seed", "7", "--username", ADMIN[0], "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("port", ["-1", "0", "70000", "http"])
def test_a_port_out_of_range_is_refused(capsys: pytest.CaptureFixture[str], port: str) -> None:
    """`sim --port -1` (or 70000) said "cannot listen" and exited 6, as if the machine were at fault."""
    assert "argument --port: must be" in _usage_error(capsys, "sim", "--port", port)


def test_sim_offers_only_what_a_server_uses(capsys: pytest.CaptureFixture[str]) -> None:
    """`sim --help` offered --read-only and --theme (the demo's options), which mean nothing for a server."""
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    sim_help = capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    demo_help = capsys.readouterr().out
    for option in ("--read-only", "--theme"):
        assert option not in sim_help and option in demo_help
    assert "unrecognized arguments: --read-only" in _usage_error(capsys, "sim", "--read-only")


@pytest.mark.parametrize("argv", [["--dialect", "bogus"], ["--scale", "0"], ["--latency", "-1"]])
def test_the_demo_checks_its_arguments_before_asking_for_a_terminal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """`demo --dialect bogus` without a terminal said it needs an interactive terminal, and only then refused the argument."""
    err = _usage_error(capsys, "demo", *argv)
    assert f"argument {argv[0]}:" in err and "interactive terminal" not in err


def test_sim_command_serves_and_prints_credentials() -> None:
    import socket
    import time

    import httpx

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLEXTUI_")}
    proc = subprocess.Popen([sys.executable, "-m", "flextui", "sim", "--port", str(port)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(10)]
        banner = "".join(lines)
        assert f"http://127.0.0.1:{port}" in banner and ADMIN[0] in banner and ADMIN[1] in banner
        assert "x-publisherid: 1107" in banner
        deadline = time.time() + 10
        while True:
            try:
                response = httpx.get(
                    f"http://127.0.0.1:{port}/flexnet/uar/v1/tokens/count", params={"username": ADMIN[0]}, auth=ADMIN, timeout=2
                )
                break
            except httpx.TransportError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        assert response.status_code == 200 and response.json()["responseObject"] > 0
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_target_may_follow_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["get", "members", "--demo", "-o", "json", "hello-world-dp"]) == 0
    assert json.loads(capsys.readouterr().out)
    with pytest.raises(SystemExit):
        main(["get", "members", "--demo", "hello-world-dp", "surplus"])


def test_a_closed_pipe_is_not_an_error() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLEXTUI_")}
    done = subprocess.run(
        f"{sys.executable} -m flextui get tokens --demo --search 'name=*' -o jsonl | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.stdout.count("\n") == 1
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


@pytest.mark.parametrize(
    "argv", [["info"], ["cache", "clear", "--all"], ["--help"], ["get", "--help"], ["sim", "--list-dialects"], ["report", "list", "--demo"]]
)
def test_every_command_that_prints_ends_quietly_when_its_reader_has_gone(argv: list[str]) -> None:
    """`flextui info | head -1` ended in a BrokenPipeError traceback (only `get` said nothing and exited 0)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLEXTUI_")}
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first byte: every write meets a closed pipe
    try:
        done = subprocess.run(
            [sys.executable, "-m", "flextui", *argv], stdout=write, stderr=subprocess.PIPE, text=True, timeout=60, env=env
        )
    finally:
        os.close(write)
    assert done.returncode == 0 and "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_global_options_work_after_the_command_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from flextui.cli import build_parser

    parser = build_parser()
    after = parser.parse_args(["demo", "--theme", "nord", "--read-only"])
    before = parser.parse_args(["--theme", "nord", "--read-only", "demo"])
    assert after.theme == before.theme == "nord" and after.read_only and before.read_only
    assert parser.parse_args(["--theme", "nord", "demo"]).theme == "nord", "a value before the command survives"
    cfg = tmp_path / "c.toml"
    cfg.write_text('[profiles.x]\nurl = "nope"\n')
    assert main(["get", "tokens", "--username", "u", "--config", str(cfg)]) == 2
    assert str(cfg) in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["--theme", "nord", "sim"],
        ["--read-only", "sim"],
        ["--config", "c.toml", "sim", "--port", "8765"],
        ["--profile", "p", "demo"],
        ["--url", "https://x.example", "demo"],
        ["--read-only", "info"],
        ["--theme", "nord", "cache", "clear"],
        ["--debug", "cache", "clear", "--all"],
        ["--theme", "nord", "get", "tokens", "--demo"],
        ["-p", "p", "--trace", "t.jsonl", "info"],
    ],
)
def test_an_option_before_a_command_that_does_not_use_it_is_refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """`flextui --theme nord sim` and `flextui --read-only sim` were accepted and ignored (after `sim` they are refused)."""
    option = argv[0].replace("-p", "--profile") if argv[0] == "-p" else argv[0]
    command = next(word for word in argv[1:] if word in ("sim", "demo", "info", "cache", "get"))
    assert f"{option} does not apply to `flextui {command}`" in _usage_error(capsys, *argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["--profile", "prod"],
        ["--profile", "prod", "tui", "charts", "my-project"],
        ["--url", "https://x.flexnetoperations.com", "--user", "me@x.example", "--registry-tenant", "1107"],
        ["--profile", "prod", "--offline"],
        ["--read-only", "tui"],
        ["--theme", "nord", "--read-only", "--debug", "--trace", "t.jsonl", "--config", "c.toml", "demo"],
        ["demo", "--theme", "nord"],
        ["--profile", "p", "--read-only", "--offline", "get", "tokens", "--username", "u"],
        ["--url", "https://x.example", "--user", "u", "--token-env", "T", "report", "run", "fulfillment"],
        ["--config", "c.toml", "info"],
        ["--profile", "P", "cache", "clear"],
        ["--url", "https://x.example", "--user", "X", "cache", "clear"],
        ["cache", "clear", "--all"],
        ["sim", "--port", "8765"],
    ],
)
def test_options_a_command_uses_are_taken_before_it(argv: list[str]) -> None:
    """README's examples, and each command with the options it uses given before it."""
    from flextui.cli import parse_args

    args = parse_args(argv)
    assert (args.command or "tui") in {"tui", "demo", "get", "report", "info", "cache", "sim"}


def test_each_command_offers_the_options_it_takes(capsys: pytest.CaptureFixture[str]) -> None:
    """`info --help` offered --theme, --read-only, --offline…, which it ignored."""
    with pytest.raises(SystemExit):
        main(["info", "--help"])
    shown = capsys.readouterr().out
    assert "--config" in shown and not any(option in shown for option in ("--theme", "--read-only", "--offline", "--profile"))
    assert "unrecognized arguments: --theme" in _usage_error(capsys, "info", "--theme", "nord")


def _on_a_terminal(*args: str, env: dict[str, str] | None = None, stderr_to_file: bool = False) -> tuple[int, str, str]:
    """Run flextui with stdin and stdout on a pty (as a user's terminal); stderr on the pty too, or into a file."""
    import pty
    import select
    import subprocess
    import sys
    import tempfile

    master, slave = pty.openpty()
    with tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "flextui", *args],
            stdin=slave,
            stdout=slave,
            stderr=err_file if stderr_to_file else slave,
            env={**os.environ, "TERM": "xterm-256color", **(env or {})},
            close_fds=True,
        )
        os.close(slave)
        seen = b""
        while True:
            ready, _, _ = select.select([master], [], [], 30)
            if not ready:
                proc.kill()
                break
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        code = proc.wait(timeout=30)
        os.close(master)
        err_file.seek(0)
        return code, seen.decode(errors="replace"), err_file.read().decode(errors="replace")


def test_redirected_standard_error_is_refused_where_the_user_can_see_it() -> None:
    code, terminal, err = _on_a_terminal("demo", stderr_to_file=True)
    assert code == 2
    assert "standard error" in terminal and "redirected" in terminal, "said on the terminal, not only into the file"
    assert "\x1b[?1049h" not in err, "no screen was drawn into the file"


def test_a_dumb_terminal_is_refused_with_the_fix() -> None:
    code, terminal, _ = _on_a_terminal("demo", env={"TERM": "dumb"})
    assert code == 2 and "TERM='dumb'" in terminal and "TERM=xterm-256color" in terminal


def test_a_hundred_kilobyte_argument_is_a_one_line_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["get", "tokens", "--demo", "--username", "u" * 100_000])
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1 and len(err) < 400


def test_the_tui_demo_keeps_its_simulator_off_the_apps_loop() -> None:
    """`flextui demo` answers from the simulator's own thread (the TUI must not wait on it); headless `--demo` need not."""
    from flextui.cli import build_parser, make_context
    from flextui.context import demo_identity

    parser = build_parser()
    tui = make_context(parser.parse_args(["demo"]), demo=True)
    assert tui.extras["sim_thread"] and demo_identity(tui, "demo-producer").extras["sim_thread"]
    headless = make_context(parser.parse_args(["get", "tokens", "--demo", "--username", ADMIN[0]]), demo=True)
    assert not headless.extras["sim_thread"]


@pytest.mark.parametrize(("given", "seen"), [(None, "__all__"), ("", "")])
def test_pydantic_plugins_are_off_unless_the_environment_says(given: str | None, seen: str) -> None:
    """A pydantic plugin sees every value a model validates (passwords, token values): off unless asked for."""
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if given is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = given
    code = "import os, flextui; print(repr(os.environ.get('PYDANTIC_DISABLE_PLUGINS')))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == repr(seen)


def test_a_password_that_cannot_be_had_falls_back_to_the_token_where_the_service_takes_one(
    tmp_path: Path, live_server: str, world: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tokens API takes a password or a token: an unset password variable stopped `get tokens` with exit 3."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.unset]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\n'
        'password = { env = "FNO_TEST_UNSET_PW" }\ntoken = { env = "FNO_TEST_TOKEN" }\n'
    )
    monkeypatch.delenv("FNO_TEST_UNSET_PW", raising=False)
    monkeypatch.setenv("FNO_TEST_TOKEN", world.seed_token(ADMIN[0]))
    assert main(["--config", str(cfg), "--profile", "unset", "get", "tokens", "--username", ADMIN[0], "-o", "json"]) == 0, (
        capsys.readouterr().err
    )
    assert json.loads(capsys.readouterr().out)


def test_a_credential_command_is_named_by_its_kind_never_its_text(
    tmp_path: Path, live_server: str, world: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command line can hold a secret (a vault token in a curl header); the exit-3 message copied it to stderr."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.cmd]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\nregistry_tenant = "{world.tenant_id}"\n'
        'password = { command = "false --secret-hunter2" }\n'
    )
    assert main(["--config", str(cfg), "--profile", "cmd", "get", "projects"]) == 3
    err = capsys.readouterr().err
    assert "hunter2" not in err and "password = { command = … } in [profiles.cmd]" in err, err


def test_ctrl_c_at_a_credential_command_stops_it_at_once(tmp_path: Path, live_server: str, world: Any) -> None:
    """A credential got inside a request (headless) ran on the event loop, where asyncio's SIGINT handler only
    cancels the task at its next await: the first ctrl+c left a prompt (or a command) running."""
    finished = tmp_path / "finished"
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.slow]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\nregistry_tenant = "{world.tenant_id}"\n'
        f"password = {{ command = \"sh -c 'kill -INT $PPID; sleep 3; touch {finished}; echo pw'\" }}\n"
    )
    done = run("--config", str(cfg), "--profile", "slow", "get", "projects")
    assert done.returncode == 130, done.stderr
    assert "interrupted" in done.stderr and not finished.exists(), "the command was stopped, not waited for"


@pytest.mark.parametrize(
    ("verify", "said"), [('"yes"', "fix: verify = true"), ('"/no/such/corp-ca.pem"', "the CA bundle /no/such/corp-ca.pem was not found")]
)
def test_a_wrong_verify_is_a_config_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], verify: str, said: str
) -> None:
    """A `verify` that names no file (`"yes"` too) raised FileNotFoundError from TLS, with no file or line named."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[profiles.p]\nurl = "https://acme.flexnetoperations.com"\nuser = "a@b.example"\nverify = {verify}\n')
    assert main(["--config", str(cfg), "get", "tokens", "--username", "a@b.example"]) == 2
    err = capsys.readouterr().err
    assert f"{cfg} line 4: profiles.p.verify = {verify}" in err and said in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--profile", "prdo"], ': no profile "prdo" (have: prod, uat): did you mean prod?'),
        (
            [],
            ' line 2: settings.default_profile = "prd" names no profile (have: prod, uat): did you mean prod? fix: default_profile = "prod"',
        ),
    ],
)
def test_a_profile_that_is_not_there_is_offered_the_closest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    """`--profile prdo` and `default_profile = "prd"` named the file, not the line, nor the profile meant."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        '[settings]\ndefault_profile = "prd"\n[profiles.prod]\nurl = "https://a.example"\n[profiles.uat]\nurl = "https://b.example"\n'
    )
    assert main(["--config", str(cfg), *argv, "get", "tokens", "--username", "a@b.example"]) == 2
    assert f"{cfg}{said}" in capsys.readouterr().err


def test_a_bundle_missing_from_one_profile_stops_only_that_profile(
    tmp_path: Path, live_server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CA bundle not on this machine in one profile refused the whole file: the other profiles and the demo too."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        '[profiles.corp]\nurl = "https://acme.flexnetoperations.com"\nuser = "a@b.example"\nverify = "/no/such/corp-ca.pem"\n'
        f'[profiles.local]\nurl = "{live_server}"\nuser = "{ADMIN[0]}"\npassword = {{ env = "FNO_TEST_PW" }}\n'
    )
    monkeypatch.setenv("FNO_TEST_PW", ADMIN[1])
    assert main(["--config", str(cfg), "--profile", "local", "get", "tokens", "--username", ADMIN[0], "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert main(["--config", str(cfg), "get", "tokens", "--demo", "--username", ADMIN[0], "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert main(["--config", str(cfg), "--profile", "corp", "get", "tokens", "--username", "a@b.example"]) == 2
    err = capsys.readouterr().err
    assert f'{cfg} line 4: profiles.corp.verify = "/no/such/corp-ca.pem": the CA bundle /no/such/corp-ca.pem was not found' in err


def test_a_file_that_is_no_ca_bundle_is_a_config_error_not_a_traceback(tmp_path: Path) -> None:
    """`verify = "/etc/passwd"` (a file, but no certificates) stopped the command with an SSLError traceback as the
    client was made, and a warning that httpx deprecates a path; it is a config error, exit 2, naming the line."""
    bundle = tmp_path / "passwd"
    bundle.write_text("root:x:0:0:root:/root:/bin/bash\n")
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[profiles.p]\nurl = "https://acme.flexnetoperations.com"\nuser = "a@b.example"\nverify = "{bundle}"\n')
    done = run("--config", str(cfg), "get", "tokens", "--username", "a@b.example")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"flextui: {cfg} line 4: profiles.p.verify = "), done.stderr
    assert f"the CA bundle {bundle} holds no certificate" in done.stderr
    assert "Traceback" not in done.stderr and "Warning" not in done.stderr and done.stdout == ""


def test_a_misspelt_password_key_is_told_without_the_password(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`pasword = "…"` printed the password in its fix (`fix: password = "<the password>"`), on the terminal and in
    whatever a support ticket pastes of it: `info` and every command say it without the value."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        '[settings]\npassword = "Hunter2-SuperSecret"\n[profiles.p]\nurl = "https://a.example"\npasword = "Hunter2-SuperSecret"\n'
    )
    cfg.chmod(0o600)
    assert main(["--config", str(cfg), "info"]) == 2
    assert main(["--config", str(cfg), "get", "tokens", "--username", "a@b.example"]) == 2
    said = capsys.readouterr()
    assert "Hunter2" not in said.out + said.err, said
    assert said.out.count('did you mean password? fix: password = "…"') == 1 and 'move password = "…" there' in said.err
