"""Profiles, secrets and config errors (each names the file, the field and the fix)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from flextui.config import ConfigError, load_config, tls_verify, toml_value
from flextui.secrets import SecretError, resolve_secret


def write(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    os.chmod(path, mode)
    return path


def test_missing_file_is_an_empty_config(tmp_path: Path) -> None:
    config = load_config(tmp_path / "none.toml")
    assert config.profiles == {}
    with pytest.raises(ConfigError, match="flextui demo"):
        config.profile(None)


def test_profile_with_env_secret_and_overrides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(
        tmp_path,
        """
[settings]
default_profile = "prod"
[profiles.prod]
url = "https://acme.flexnetoperations.com/"
user = "me@acme.example"
secret = { env = "FNO_PW" }
read_only = true
color = "red"
[profiles.prod.urls]
registry = "https://registry.example/registry"
""",
        mode=0o644,
    )
    config = load_config(path)
    profile = config.profile(None)
    assert profile.name == "prod" and profile.url == "https://acme.flexnetoperations.com"
    assert profile.read_only and profile.color == "error" and profile.urls["registry"].startswith("https://registry")
    monkeypatch.setenv("FNO_PW", "s3cret")
    assert resolve_secret(profile) == "s3cret"
    monkeypatch.delenv("FNO_PW")
    with pytest.raises(SecretError, match="FNO_PW is not set"):
        resolve_secret(profile)


def test_secret_in_a_readable_file_is_refused(tmp_path: Path) -> None:
    text = '[profiles.p]\nurl = "https://x.example"\nuser = "u"\npassword = "hunter2"\n'
    with pytest.raises(ConfigError, match="chmod 600") as err:
        load_config(write(tmp_path, text, mode=0o644))
    assert "hunter2" not in str(err.value)
    config = load_config(write(tmp_path, text, mode=0o600))
    assert resolve_secret(config.profile("p")) == "hunter2"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('[profiles.p]\nurl = "ftp://x"\n', 'line 2: profiles.p.url = "ftp://x": must start with https://'),
        (
            '[profiles.p]\nurl = "https://x"\ntimeout = -1\n',
            "line 3: profiles.p.timeout = -1 should be a number greater than 0 and at most 600",
        ),
        ('[profiles.p]\nurl = "https://x"\ncolour = "red"\n', "did you mean color?"),
        ('[profiles.p]\nuser = "u"\n', 'line 1: [profiles.p] has no url, which is required: add url = "https://'),
        ('[profiles.p]\nurl = "https://x"\ncolor = "chartreuse"\n', "unknown colour"),
        ('[profiles.p]\nurl = "https://x"\nsecret = { env = "A", prompt = true }\n', "choose one way"),
        ('[profiles.p]\nurl = "https://x"\n[profiles.p.urls]\nregistri = "https://y"\n', "unknown service"),
        ("[profiles.p\n", "not valid TOML"),
    ],
)
def test_config_errors_name_file_and_field(tmp_path: Path, body: str, expected: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(path) in str(err.value) and expected in str(err.value)


def test_every_bad_field_is_named_at_once(tmp_path: Path) -> None:
    """Only the first bad field was reported: a file with five took five rounds of fixing."""
    body = (
        '[settings]\npage_size = 0\n[profiles.p]\nurl = "nope"\ncolour = "red"\npassword = 5\ncolor = "chartreuse"\n'
        '[profiles.q]\nuser = "u"\n'
    )
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    lines = str(err.value).splitlines()
    assert lines[0] == f"{path}: 6 fields are wrong:"
    assert [line.split(":")[0].strip() for line in lines[1:]] == ["line 2", "line 4", "line 5", "line 6", "line 7", "line 8"], (
        "in the file's order"
    )
    assert [line.split(":")[1].split()[0] for line in lines[1:]] == [
        "settings.page_size",
        "profiles.p.url",
        "profiles.p.colour",
        "profiles.p.password",
        "profiles.p.color",
        "[profiles.q]",
    ]
    assert 'fix: url = "https://nope"' in lines[2] and '{ env = "FNO_PASSWORD" }' in lines[4], "each with its fix"
    assert (
        "use one of accent (magenta/purple), error (red/danger), none, primary (blue), secondary (cyan), success (green), warning (yellow/orange)"
        in lines[5]
    )
    assert 'did you mean color? fix: color = "red"' in lines[3] and "has no url, which is required" in lines[6]


def test_a_bad_part_of_a_secret_source_is_named_alone(tmp_path: Path) -> None:
    """`password = { keyring = 5 }` is a source with a bad part, not "Input should be a valid string"."""
    path = write(tmp_path, '[profiles.p]\nurl = "https://x"\npassword = { keyring = 5 }\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value) == (
        f"{path} line 3: profiles.p.password.keyring should be true, or the keyring's service name in quotes;"
        " fix: password = { keyring = true }"
    )


def test_the_readme_names_every_profile_colour_accepted(tmp_path: Path) -> None:
    """`color = "red"` was accepted (as the error cue) where the README named only error, warning, …"""
    import re

    from flextui.config import PROFILE_COLORS

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    start = readme.index('color = "error"')
    documented = set(re.findall(r"[a-z]+", readme[start : readme.index("registry_tenant", start)]))
    assert set(PROFILE_COLORS) <= documented
    for name, cue in PROFILE_COLORS.items():
        assert load_config(write(tmp_path, f'[profiles.p]\nurl = "https://x"\ncolor = "{name}"\n')).profile("p").color == cue


def test_an_unknown_colour_names_every_colour_accepted(tmp_path: Path) -> None:
    """The error listed the cues (error, warning, …) but not the colour names that name them (red, yellow, …)."""
    from flextui.config import PROFILE_COLORS

    path = write(tmp_path, '[profiles.p]\nurl = "https://x"\ncolor = "pink"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "'pink'" in str(err.value) and all(name in str(err.value) for name in PROFILE_COLORS), str(err.value)


def test_unknown_profile_lists_the_known_ones(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[profiles.a]\nurl = "https://a"\n[profiles.b]\nurl = "https://b"\n'))
    with pytest.raises(ConfigError, match="several profiles"):
        config.profile(None)
    with pytest.raises(ConfigError, match="have: a, b"):
        config.profile("c")


TWO_PROFILES = '[profiles.prod]\nurl = "https://a.example"\n[profiles.uat]\nurl = "https://b.example"\n'


@pytest.mark.parametrize(
    ("named", "advice"),
    [
        ("prd", ': did you mean prod? fix: default_profile = "prod"'),
        ("UAT", ': did you mean uat? fix: default_profile = "uat"'),
        ("staging", "; add [profiles.staging], or name one of them"),
    ],
)
def test_a_default_profile_that_names_none_is_told_with_its_line(tmp_path: Path, named: str, advice: str) -> None:
    """`default_profile = "prd"` was told with the file but not the line, and no "did you mean", as no other error was."""
    path = write(tmp_path, f'# profiles\n[settings]\ndefault_profile = "{named}"\n{TWO_PROFILES}')
    config = load_config(path)
    with pytest.raises(ConfigError) as err:
        config.profile(None)
    assert str(err.value) == f'{path} line 3: settings.default_profile = "{named}" names no profile (have: prod, uat){advice}'
    assert config.profile("uat").name == "uat", "a profile named on the command line goes before it"


def test_a_default_profile_in_a_file_without_profiles_says_to_add_it(tmp_path: Path) -> None:
    path = write(tmp_path, '[settings]\ndefault_profile = "prod"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path).profile(None)
    assert (
        str(err.value)
        == f'{path} line 2: settings.default_profile = "prod" names no profile (have: none); add [profiles.prod] with its url'
    )


@pytest.mark.parametrize(("named", "guess"), [("uta", ": did you mean uat?"), ("PROD", ": did you mean prod?"), ("staging", "")])
def test_an_unknown_profile_on_the_command_line_is_offered_the_closest(tmp_path: Path, named: str, guess: str) -> None:
    """`--profile uta` named the profiles there are but not the one most likely meant."""
    path = write(tmp_path, TWO_PROFILES)
    with pytest.raises(ConfigError) as err:
        load_config(path).profile(named)
    assert str(err.value) == f'{path}: no profile "{named}" (have: prod, uat){guess}'


def test_secret_from_command(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[profiles.p]\nurl = "https://a"\nsecret = { command = "echo from-command" }\n'))
    assert resolve_secret(config.profile("p")) == "from-command"
    config = load_config(write(tmp_path, '[profiles.p]\nurl = "https://a"\nsecret = { command = "false" }\n'))
    with pytest.raises(SecretError, match="exited 1"):
        resolve_secret(config.profile("p"))


def test_prompt_without_terminal_names_the_profiles_line_and_what_to_use_instead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It said to set FLEXTUI_PASSWORD, which only `--url` reads: a profile's password comes from its own line."""
    path = write(
        tmp_path, '[profiles.p]\nurl = "https://a"\nuser = "u"\npassword = { prompt = true }\n[profiles.q]\nurl = "https://a"\nuser = "u"\n'
    )
    monkeypatch.setenv("FLEXTUI_CONFIG", str(path))
    config = load_config(path)
    with pytest.raises(SecretError) as asked:
        resolve_secret(config.profile("p"), interactive=False)
    said = str(asked.value)
    assert f"password = {{ prompt = true }} in [profiles.p] in {path}" in said and "no terminal" in said
    assert '{ env = "…" }' in said and "keyring" in said and "command" in said and "FLEXTUI_PASSWORD" not in said
    with pytest.raises(SecretError) as asked:  # nothing configured: the password is asked for; the line that adds one
        resolve_secret(config.profile("q"), interactive=False)
    said = str(asked.value)
    assert 'add password = { env = "FNO_PASSWORD" }' in said and f"[profiles.q] in {path}" in said and "FLEXTUI_PASSWORD" not in said


def test_without_a_terminal_a_missing_credential_is_told_only_what_can_work_for_its_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`auth = "token"` without a user was told to set mint_token, which needs a user and a password."""
    path = write(
        tmp_path,
        '[profiles.tok]\nurl = "https://a"\nauth = "token"\n'
        '[profiles.mints]\nurl = "https://a"\nuser = "u"\nauth = "token"\npassword = { env = "FNO_PW" }\n'
        '[profiles.ro]\nurl = "https://a"\nuser = "u"\nauth = "token"\npassword = { env = "FNO_PW" }\nread_only = true\n'
        '[profiles.typed]\nurl = "https://a"\nuser = "u"\nauth = "token"\npassword = { prompt = true }\n'
        '[profiles.nobody]\nurl = "https://a"\n',
    )
    monkeypatch.setenv("FLEXTUI_CONFIG", str(path))
    monkeypatch.setenv("FNO_PW", "pw")
    config = load_config(path)

    def said(name: str) -> str:
        with pytest.raises(SecretError) as asked:
            resolve_secret(config.profile(name), interactive=False)  # (the older form's one secret: its token, or its password)
        return str(asked.value)

    for name in ("tok", "ro", "typed"):  # no user; read-only (never mints); its password typed too, and no terminal
        assert f'add token = {{ env = "FNO_TOKEN" }} (an rna_… access token) to [profiles.{name}]' in said(name)
        assert "mint_token" not in said(name), name
    assert "or mint_token = true" in said("mints"), "a user and a password it can get: minting can work"
    assert 'add user = "…" and password = { env = "FNO_PASSWORD" }' in said("nobody"), "a password without a user signs in as nobody"


def test_a_read_only_profile_that_would_mint_says_why_it_did_not(tmp_path: Path) -> None:
    """`mint_token = true` on a read-only profile (or with --read-only) was told only to add a token."""
    from flextui.context import credential_hint

    config = load_config(
        write(
            tmp_path,
            '[profiles.romint]\nurl = "https://a"\nuser = "u"\npassword = "pw"\nmint_token = true\nread_only = true\n'
            '[profiles.mint]\nurl = "https://a"\nuser = "u"\npassword = "pw"\nmint_token = true\n',
        )
    )
    for name, read_only in (("romint", None), ("mint", True)):
        said = credential_hint(config.profile(name), read_only=read_only)("token")
        assert 'add token = { env = "FNO_TOKEN" }' in said, said
        assert "mint_token is not used: the profile is read-only" in said, said
    assert "mint_token" not in credential_hint(config.profile("mint"))("token"), "it mints: nothing to say of it"


# -- one profile, every service: a password and an access token ------------------------------------------


def test_a_profile_holds_a_password_and_a_token_each_from_its_own_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.secrets import resolve_credentials

    config = load_config(
        write(
            tmp_path,
            """
[profiles.both]
url = "https://x.example"
user = "me@x.example"
password = { env = "FNO_PW" }
token = { command = "echo rna_abc" }
mint_token = true
first_page = { entitlements = 0 }
""",
            mode=0o644,
        )
    )
    profile = config.profile("both")
    monkeypatch.setenv("FNO_PW", "pw")
    creds = resolve_credentials(profile)
    assert (creds.user, creds.password, creds.token) == ("me@x.example", "pw", "rna_abc")
    assert "pw" not in repr(creds) and "rna_abc" not in repr(creds) and creds.kinds == ["password", "access token"]
    assert profile.mint_token and profile.first_page == {"entitlements": 0}


def test_the_older_one_secret_form_still_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.secrets import resolve_credentials

    config = load_config(
        write(
            tmp_path,
            """
[profiles.tok]
url = "https://x.example"
auth = "token"
secret = { env = "FNO_TOKEN" }
[profiles.basic]
url = "https://x.example"
user = "u"
secret = { env = "FNO_PW" }
""",
            mode=0o644,
        )
    )
    monkeypatch.setenv("FNO_TOKEN", "rna_t")
    monkeypatch.setenv("FNO_PW", "p")
    tok = resolve_credentials(config.profile("tok"))
    assert tok.token == "rna_t" and tok.password is None
    basic = resolve_credentials(config.profile("basic"))
    assert basic.password == "p" and basic.token is None
    with pytest.raises(SecretError):  # nothing configured at all: the password is asked for, and there is no terminal
        resolve_credentials(
            load_config(write(tmp_path, '[profiles.p]\nurl = "https://x.example"\nuser = "u"\n')).profile("p"), interactive=False
        )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('password = "a"\nsecret = { env = "X" }', "password once"),
        ('auth = "token"\ntoken = "t"\nsecret = { env = "X" }', "access token once"),
        ("first_page = { registry = 2 }", "0 or 1"),
        ("first_page = { ledger = 0 }", "unknown service"),
    ],
)
def test_credential_mistakes_name_the_field(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as err:
        load_config(write(tmp_path, f'[profiles.p]\nurl = "https://x.example"\nuser = "u"\n{body}\n'))
    assert "profiles.p" in str(err.value)


def test_a_token_in_a_readable_file_is_refused_without_showing_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="chmod 600") as err:
        load_config(write(tmp_path, '[profiles.p]\nurl = "https://x.example"\ntoken = "rna_secretvalue"\n', mode=0o640))
    assert "rna_secretvalue" not in str(err.value)


def test_the_tui_starts_on_the_credential_it_can_have_and_says_which_it_cannot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unset password variable stopped the TUI (exit 2), though the token alone reaches most areas."""
    from flextui.api.auth import MissingCredential
    from flextui.secrets import credentials_for_tui

    config = load_config(
        write(
            tmp_path,
            '[profiles.p]\nurl = "https://x.example"\nuser = "u"\npassword = { env = "FNO_UNSET_PW" }\ntoken = { env = "FNO_TOKEN" }\n',
        )
    )
    monkeypatch.delenv("FNO_UNSET_PW", raising=False)
    monkeypatch.setenv("FNO_TOKEN", "rna_t")
    creds, lacking = credentials_for_tui(config.profile("p"))
    assert creds.token == "rna_t" and len(lacking) == 1 and "FNO_UNSET_PW is not set" in lacking[0]
    with pytest.raises(MissingCredential, match="FNO_UNSET_PW is not set"):  # a request that needs it says the same
        _ = creds.password
    monkeypatch.delenv("FNO_TOKEN")
    with pytest.raises(SecretError, match="is not set"):  # none to be had: nothing would work
        credentials_for_tui(config.profile("p"))


def test_each_config_error_names_its_line_the_value_what_is_expected_and_the_fix(tmp_path: Path) -> None:
    """The walkthrough's file: each field was named with pydantic's words ("Input should be a valid integer, unable
    to parse string as an integer"), no line, no value, no fix, no "did you mean"; `read_only = "yes"` passed as true."""
    path = write(
        tmp_path,
        "[settings]\n"
        'page_size = "fifty"\n'
        "expiring_days = -3\n"
        'colour = "red"\n'
        "[profiles.uat]\n"
        'url = "https://acme-uat.example.com"\n'
        'user = "me@acme.example"\n'
        "password = { prompt = true }\n"
        'timeout = "thirty"\n'
        'colr = "error"\n'
        'read_only = "yes"\n'
        "[keys]\n"
        '"tokens.verify" = 5\n',
    )
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value).splitlines() == [
        f"{path}: 7 fields are wrong:",
        '  line 2: settings.page_size = "fifty" should be a whole number from 1 to 1,000; fix: page_size = 50',
        "  line 3: settings.expiring_days = -3 should be a number greater than 0; fix: expiring_days = 7",
        '  line 4: settings.colour is not a setting: did you mean color, which goes under [profiles.NAME]? fix: move color = "red" there',
        '  line 9: profiles.uat.timeout = "thirty" should be a number greater than 0 and at most 600; fix: timeout = 30',
        '  line 10: profiles.uat.colr is not a profile field: did you mean color? fix: color = "error"',
        '  line 11: profiles.uat.read_only = "yes" should be true or false (without quotes); fix: read_only = true',
        '  line 13: keys."tokens.verify" = 5 should be the key or keys in quotes, e.g. "v" or "ctrl+v,f5"; fix: "tokens.verify" = "5"',
    ]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('read_only = "yes"', 'line 3: profiles.p.read_only = "yes" should be true or false (without quotes); fix: read_only = true'),
        ('mint_token = "off"', "fix: mint_token = false"),
        ("mint_token = 1", "profiles.p.mint_token = 1 should be true or false (without quotes); fix: mint_token = true"),
        (
            'password = { prompt = "yes" }',
            "line 3: profiles.p.password.prompt should be true or false (without quotes); fix: password = { prompt = true }",
        ),
        ('timeout = "45"', 'profiles.p.timeout = "45" should be a number greater than 0 and at most 600; fix: timeout = 45'),
        ("timeout = 9000", "fix: timeout = 600"),
        ("registry_tenant = 1107", 'line 3: profiles.p.registry_tenant = 1107 should be text in quotes; fix: registry_tenant = "1107"'),
        ('auth = "basik"', 'should be one of "basic", "token"; fix: auth = "basic"'),
        ("first_page = { registri = 0 }", "line 3: profiles.p.first_page: unknown service 'registri'; use tokens"),
    ],
)
def test_values_of_the_wrong_kind_are_refused_with_the_line_that_works(tmp_path: Path, body: str, expected: str) -> None:
    """`read_only = "yes"` was taken as true, `timeout = "45"` as 45: a quoted value is now refused, and the fix says
    the same value as TOML writes it."""
    path = write(tmp_path, f'[profiles.p]\nurl = "https://x.example"\n{body}\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert expected in str(err.value) and str(path) in str(err.value), str(err.value)


@pytest.mark.parametrize(
    ("word", "fix"),
    [
        ("yes", "true"),
        ("true", "true"),
        ("1", "true"),
        ("on", "true"),
        ("No", "false"),
        ("false", "false"),
        ("0", "false"),
        ("off", "false"),
    ],
)
def test_verify_in_quotes_is_refused_with_the_boolean_it_means(tmp_path: Path, word: str, fix: str) -> None:
    """`verify = "yes"` was taken as the path of a CA bundle: TLS failed on a file named yes, far from the line."""
    path = write(tmp_path, f'[profiles.p]\nurl = "https://x.example"\nverify = "{word}"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value) == (
        f'{path} line 3: profiles.p.verify = "{word}" should be true, false, or the path of a CA bundle in quotes; fix: verify = {fix}'
    )


@pytest.mark.parametrize("given", ["~/no-such-ca.pem", "/no/such/dir/corp-ca.pem", "no-such-ca.pem"])
def test_a_ca_bundle_that_is_not_there_is_refused_with_its_line_when_its_profile_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    """A CA bundle that does not exist stopped the first command with a traceback (FileNotFoundError, no file named);
    then it stopped the whole file at load, the profiles that name no bundle and the demo too."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    path = write(
        tmp_path,
        f'[settings]\npage_size = 20\n[profiles.p]\nurl = "https://x.example"\nverify = "{given}"\n'
        '[profiles.q]\nurl = "https://y.example"\n',
    )
    config = load_config(path)
    assert tls_verify(config.profile("q"), config.places) is True, "another profile is not stopped by p's bundle"
    with pytest.raises(ConfigError) as err:
        tls_verify(config.profile("p"), config.places)
    looked_at = str(Path(given).expanduser())
    assert str(err.value).startswith(f'{path} line 5: profiles.p.verify = "{given}": the CA bundle {looked_at} was not found'), str(
        err.value
    )
    assert "verify = true" in str(err.value)
    with pytest.raises(ConfigError) as err:
        tls_verify(config.profile("p"))
    assert str(err.value).startswith(f'profiles.p.verify = "{given}": the CA bundle {looked_at} was not found'), "no file: no line"


@pytest.mark.filterwarnings("error::DeprecationWarning")  # httpx 0.28 deprecates a path for verify: it is given a context
def test_every_verify_that_worked_still_loads_and_a_bundle_under_home_reaches_tls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """true, false, a bundle's path and a folder of them still load; `~` is expanded, so TLS is given the certificates
    of the file meant, in a context made here (a path given to httpx 0.28 warned that it is deprecated)."""
    import shutil
    import ssl

    import certifi

    from flextui.api.auth import Credentials
    from flextui.api.cache import PageCache
    from flextui.config import Settings
    from flextui.context import profile_context

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    shutil.copy(certifi.where(), tmp_path / "corp-ca.pem")
    certificates = ssl.create_default_context(cafile=certifi.where()).cert_store_stats()["x509_ca"]
    forms: dict[str, bool | int | None] = {"true": True, "false": False, '"~/corp-ca.pem"': certificates, '"corp-ca.pem"': certificates}
    forms |= {json.dumps(str(tmp_path / "corp-ca.pem")): certificates, json.dumps(str(tmp_path)): None}  # (a folder: read at need)
    for written, taken in forms.items():
        profile = load_config(write(tmp_path, f'[profiles.p]\nurl = "https://x.example"\nverify = {written}\n')).profile("p")
        made = tls_verify(profile)
        if isinstance(taken, bool):
            assert made is taken, written
            continue
        assert isinstance(made, ssl.SSLContext) and made.verify_mode == ssl.CERT_REQUIRED and made.check_hostname, written
        assert taken is None or made.cert_store_stats()["x509_ca"] == taken, written
    profile = load_config(write(tmp_path, '[profiles.p]\nurl = "https://x.example"\nverify = "~/corp-ca.pem"\n')).profile("p")
    ctx = profile_context(profile, Credentials("u"), Settings(), cache=PageCache(":memory:"))
    assert ctx.session.client is not None


def _first_certificate() -> str:
    import re

    import certifi

    found = re.search(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----\n", Path(certifi.where()).read_text(), re.S)
    assert found is not None
    return found.group(0)


@pytest.mark.parametrize(
    ("shape", "said"),
    [
        ("not certificates", "holds no certificate: give a file of certificates in PEM form (-----BEGIN CERTIFICATE-----)"),
        ("empty", "holds no certificate"),
        ("DER", "holds no certificate: give a file of certificates in PEM form (-----BEGIN CERTIFICATE-----) (a DER one converts with"),
        ("cut short", "could not be read as certificates (OpenSSL: [X509] PEM lib): one in it may be damaged or cut short"),
        ("unreadable", "cannot be read by this user (permission denied): let it be read (a CA bundle holds no secret)"),
        ("a pipe", "is not a file: give the path of a file of certificates"),
    ],
)
def test_a_ca_bundle_tls_cannot_use_is_a_config_error_with_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: str, said: str
) -> None:
    """A bundle that is there but is no bundle (`verify = "/etc/passwd"`, a DER file, one cut short, one this user may not
    read) stopped the client's creation with an SSLError or PermissionError traceback naming neither file nor line; a
    pipe waited for ever."""
    import ssl

    bundle = tmp_path / "corp-ca.pem"
    if shape == "not certificates":
        bundle.write_text("root:x:0:0:root:/root:/bin/bash\n")
    elif shape == "empty":
        bundle.write_text("")
    elif shape == "DER":
        bundle.write_bytes(ssl.PEM_cert_to_DER_cert(_first_certificate()))
    elif shape == "cut short":
        bundle.write_text(_first_certificate() + _first_certificate()[:400])
    elif shape == "unreadable":
        bundle.write_text(_first_certificate())
        bundle.chmod(0)
        if os.geteuid() == 0:  # root reads it all the same: the refusal another user gets

            def refused(**_: object) -> ssl.SSLContext:
                raise PermissionError(13, "Permission denied")

            monkeypatch.setattr(ssl, "create_default_context", refused)
    else:
        os.mkfifo(bundle)
    path = write(tmp_path, f'[profiles.p]\nurl = "https://x.example"\nverify = {json.dumps(str(bundle))}\n')
    config = load_config(path)
    with pytest.raises(ConfigError) as err:
        tls_verify(config.profile("p"), config.places)
    told = str(err.value)
    assert told.startswith(f"{path} line 3: profiles.p.verify = {toml_value(str(bundle))}: the CA bundle {bundle} {said}"), told
    assert told.endswith(("or verify = true for the usual certificate authorities", "or give the path of a copy this user can read"))


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[setting]\npage_size = 5\n", "line 1: setting is not a table: did you mean settings?"),
        ("[settings]\npage_sise = 5\n", "line 2: settings.page_sise is not a setting: did you mean page_size? fix: page_size = 5"),
        ('[settings]\nclipboard = "tmux"\n', 'fix: clipboard = "tmux-passthrough"'),
        ('theme = "nord"\n', 'line 1: theme is not a table: theme goes under [settings]; fix: move theme = "nord" there'),
        (
            '[profiles.p]\nurl = "https://x"\nsecret = { evn = "X" }\n',
            "line 3: profiles.p.secret.evn is not a way to get a secret: did you mean env?",
        ),
        (
            '[profiles.p]\nurl = "https://x"\npage_size = 20\n',
            "line 3: profiles.p.page_size is not a profile field: page_size goes under [settings]; fix: move page_size = 20 there",
        ),
        ('[profiles.p]\nurl = "https://x"\nfirst_page = { registri = 0 }\n', "(did you mean registry?)"),
    ],
)
def test_an_unknown_key_close_to_a_known_one_is_offered_it(tmp_path: Path, body: str, expected: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert expected in str(err.value), str(err.value)


@pytest.mark.parametrize(
    "body",
    [
        "password = 12345678",
        'password = { value = "hunter2" }',
        'token = ["rna_hunter2"]',
        'password = "hunter2"\nsecret = { env = "X" }',
        'secret = { value = "hunter2" }',
        'token = { env = "X", valeu = "hunter2" }',
    ],
)
def test_a_secret_in_a_wrong_place_is_never_shown(tmp_path: Path, body: str) -> None:
    """Each error shows the value it refuses, except a password's or token's (`repr=False` fields), whatever its
    shape, in its words or in its fix."""
    path = write(tmp_path, f'[profiles.p]\nurl = "https://x.example"\n{body}\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "profiles.p" in str(err.value) and "line " in str(err.value)
    assert "hunter2" not in str(err.value) and "12345678" not in str(err.value), str(err.value)


SECRET = "Hunter2-SuperSecret"
NOT_SHOWN = "(the value you wrote: not shown here, as it may be a secret)"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            f'[profiles.p]\nurl = "https://x.example"\npasword = "{SECRET}"\n',
            f'line 3: profiles.p.pasword is not a profile field: did you mean password? fix: password = "…" {NOT_SHOWN}',
        ),
        (
            f'[profiles.p]\nurl = "https://x.example"\ntokn = "{SECRET}"\n',
            f'line 3: profiles.p.tokn is not a profile field: did you mean token? fix: token = "…" {NOT_SHOWN}',
        ),
        (
            f'[profiles.p]\nurl = "https://x.example"\nuser_password = "{SECRET}"\n',
            f'line 3: profiles.p.user_password is not a profile field: did you mean password? fix: password = "…" {NOT_SHOWN}',
        ),
        ('[profiles.p]\nurl = "https://x.example"\npasword = 12345678\n', f"did you mean password? fix: password = … {NOT_SHOWN}"),
        (
            f'[settings]\npassword = "{SECRET}"\n',
            f'line 2: settings.password is not a setting: password goes under [profiles.NAME]; fix: move password = "…" there {NOT_SHOWN}',
        ),
        (
            f'[settings]\npasswords = "{SECRET}"\n',
            "line 2: settings.passwords is not a setting: did you mean password, which goes under [profiles.NAME]? "
            f'fix: move password = "…" there {NOT_SHOWN}',
        ),
        (f'[settings]\ntoken = "{SECRET}"\n', f'fix: move token = "…" there {NOT_SHOWN}'),
        (
            f'password = "{SECRET}"\n',
            f'line 1: password is not a table: password goes under [profiles.NAME]; fix: move password = "…" there {NOT_SHOWN}',
        ),
        (f'secret = "{SECRET}"\n', f'fix: move secret = "…" there {NOT_SHOWN}'),
        (f'[profiles.p]\nurl = "https://x.example"\n[profiles.p.password]\nenv = "X"\nvalu = "{SECRET}"\n', "profiles.p.password.valu"),
        (f'[profiles.p]\nurl = "https://x.example"\n[profiles.p.extra]\npassword = "{SECRET}"\n', "profiles.p.extra is not"),
        (f'[profiles]\nurl = "https://x.example"\npassword = "{SECRET}"\n', "line 3: profiles.password should be"),
    ],
)
def test_a_secret_under_a_key_that_is_not_one_is_never_shown(tmp_path: Path, body: str, said: str) -> None:
    """`pasword = "…"` was told as "did you mean password? fix: password = <the password>", and `password` under
    [settings] or at the top as "fix: move password = <the password> there": a key that is not one is no secret
    field, so its value was shown, though the key offered (or its own name) says it is a password."""
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert SECRET not in str(err.value) and "12345678" not in str(err.value), str(err.value)
    assert said in str(err.value), str(err.value)


def test_a_key_not_named_as_a_secret_still_shows_its_value_in_the_fix(tmp_path: Path) -> None:
    """Only what may be a secret is hidden: a misspelt `mint_token` or `user` keeps the value written in its fix."""
    path = write(tmp_path, '[profiles.p]\nurl = "https://x.example"\nmint_tokn = true\nusr = "me@x.example"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "fix: mint_token = true" in str(err.value) and 'fix: user = "me@x.example"' in str(err.value), str(err.value)


def test_lines_are_found_in_inline_tables_dotted_keys_and_past_multi_line_strings() -> None:
    from flextui.config_places import key_lines

    text = (
        "# a comment = 1\n"  # 1
        "[settings]\n"  # 2
        'theme = """\n'  # 3
        "page_size = 5\n"  # 4: inside a string
        '[profiles.fake]"""\n'  # 5
        "page_size = 7  # = 8\n"  # 6
        '[ profiles . "u a t" ]\n'  # 7
        "password = { env = 'A',\n"  # 8
        '  command = "x" }\n'  # 9 (an inline table over lines is not TOML 1.0, but costs nothing)
        'urls.registry = "https://r"\n'  # 10
        "[keys]\n"  # 11
        '"tokens.verify" = "v"\n'  # 12
        "'app.help' = \"f1\"\n"  # 13
    )
    lines = key_lines(text)
    assert lines[("settings", "theme")] == 3 and lines[("settings", "page_size")] == 6
    assert ("profiles", "fake") not in lines
    assert lines[("profiles", "u a t")] == 7 and lines[("profiles", "u a t", "password", "env")] == 8
    assert lines[("profiles", "u a t", "password", "command")] == 9
    assert lines[("profiles", "u a t", "urls", "registry")] == 10 and lines[("profiles", "u a t", "urls")] == 10
    assert lines[("keys", "tokens.verify")] == 12 and lines[("keys", "app.help")] == 13


def test_a_key_whose_line_is_not_found_is_named_without_a_line(tmp_path: Path) -> None:
    """An array of tables is not followed: no line is given rather than a wrong one."""
    path = write(tmp_path, '[[profiles]]\nurl = "https://x"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value) == f"{path}: profiles should be profile tables ([profiles.NAME])"


def test_the_readme_config_example_loads_with_strict_types(tmp_path: Path) -> None:
    """Strict booleans and numbers refuse `"yes"` and `"30"`; every form the README shows still loads (its CA bundle
    is one on the reader's machine: here a file that exists)."""
    import re

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(\[settings\].*?)```", readme, re.S)
    assert example is not None
    bundle = tmp_path / "corp-ca.pem"
    bundle.write_text("")
    text = example.group(1).replace('verify = "/etc/ssl/corp-ca.pem"', f"verify = {json.dumps(str(bundle))}")
    assert text != example.group(1), "the README's example names a CA bundle"
    config = load_config(write(tmp_path, text))
    assert config.settings.page_size == 50 and config.profile("prod").read_only and config.profile("uat").timeout == 30
    assert config.profile("uat").verify == str(bundle) and config.profile("prod").verify is True
    assert config.places.line("profiles", "uat", "timeout") == text[: text.index("timeout =")].count("\n") + 1
