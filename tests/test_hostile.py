"""Hostile server strings never reach a terminal or a file raw: the CLI in every format, exports, errors, the log.

The simulator answers through `tests.hostile.HostileTransport`, which appends
an OSC 52 clipboard write, a screen wipe, an OSC 8 link, a window retitle, the
C1 CSI, NUL and bidi controls to every free-text value (and a 100 KB string
to one value a response). Every `flextui get` lister and `flextui report run`
runs in each format; stdout, stderr and written files are counted for raw
ESC, OSC, C1, bidi and NUL: the count must be 0. JSON keeps the data exact
(escapes, not stand-ins), so the payload reads back whole.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from flextui.cli import main, print_error
from flextui.logs import file_handler
from flextui.render.export import FORMATS, export
from flextui.render.tableout import TableWriter
from flextui.sim.world import ADMIN
from tests.hostile import BIG, PAYLOAD, SUFFIX, install, raw_findings, raw_findings_in_data, where

FORMAT_NAMES = ["table", "csv", "json", "jsonl"]
ACME = "101200004242"
HELLO = "hello-world-dp"

LISTINGS: list[list[str]] = [
    ["get", "tokens", "--username", ADMIN[0]],
    ["get", "tokens", "--search", "name=*"],
    ["get", "projects"],
    ["get", "members", HELLO],
    ["get", "artifacts", f"{HELLO}/hello-world-image"],
    ["get", "downloads", "--filter", "from=2020-01-01", "--limit", "20"],
    ["get", "reports"],
    ["get", "entitlements", ACME, "--limit", "10"],
    ["get", "line-items", "ENT-100000"],
    ["get", "products", "--limit", "10"],
    ["get", "features", "--limit", "10"],
    ["get", "feature-bundles", "--limit", "10"],
    ["get", "suites", "--limit", "10"],
    ["get", "part-numbers", "--limit", "10"],
    ["get", "maintenance", "--limit", "10"],
    ["get", "users", ACME, "--limit", "10"],
    ["get", "accounts", "--limit", "10"],
    ["report", "list"],
    ["report", "types", "fulfillment"],
    ["report", "run", "fulfillment", "--past-days", "30", "--max-records", "200"],
]


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
@pytest.mark.parametrize("argv", LISTINGS, ids=lambda argv: " ".join(argv[:3]))
def test_cli_output_holds_no_raw_control(
    argv: list[str], fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    transports = install(monkeypatch)
    code = main([*argv, "--demo", "--format", fmt])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert transports and transports[0].poisoned, "the hostile server answered"
    assert out.strip(), "rows were printed"
    assert raw_findings_in_data(out) == {}, f"stdout of {' '.join(argv)} -o {fmt}"
    assert raw_findings_in_data(err) == {}, f"stderr of {' '.join(argv)} -o {fmt}"
    if fmt in ("json", "jsonl"):
        rows = json.loads(out) if fmt == "json" else [json.loads(line) for line in out.splitlines()]
        strings = _strings(rows)
        assert any(s.endswith(SUFFIX) for s in strings), "JSON keeps the server's text exact (escaped, not replaced)"
    if fmt == "csv":
        table = list(csv.reader(io.StringIO(out, newline="")))
        assert len(table) > 1


def test_cli_error_message_from_a_hostile_server(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, fail_paths=["/tokens"])
    code = main(["get", "tokens", "--demo", "--username", ADMIN[0]])
    out, err = capsys.readouterr()
    assert code != 0
    assert "the server refuses" in err
    assert raw_findings_in_data(err) == {} and raw_findings_in_data(out) == {}


IDENTIFIER_ERRORS: list[tuple[tuple[str, ...], list[str], str]] = [
    (("groups",), ["run", "fulfillment"], "flextui: no report group 'fulfillment'; the groups are: account ␛]52;c;"),
    (("groups",), ["types", "fulfillment"], "flextui: no report group 'fulfillment'; the groups are: account ␛]52;c;"),
    (("filters",), ["run", "fulfillment", "--filter", "bogus $eq 1"], "bogus is not a filter of the fulfillment ␛]52;c;"),
    (("operators",), ["run", "fulfillment", "--filter", "accountID $zz 1"], "unknown operator '$zz' (the operators are $eq ␛]52;c;"),
    (("operators",), ["run", "fulfillment", "--filter", "accountID $eq 1"], "unknown operator '$eq' (the operators are $eq ␛]52;c;"),
]


@pytest.mark.parametrize(
    ("identifiers", "argv", "said"), IDENTIFIER_ERRORS, ids=lambda v: " ".join(v) if isinstance(v, (list, tuple)) else ""
)
def test_report_errors_naming_hostile_identifiers_are_cleaned(
    identifiers: tuple[str, ...], argv: list[str], said: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Group, filter and operator names come from the server: the messages that list them pass the sanitiser (review50)."""
    transports = install(monkeypatch, identifiers=identifiers)
    code = main(["report", *argv, "--demo"])
    out, err = capsys.readouterr()
    assert transports and transports[0].poisoned
    assert code == 2, err
    assert said in err, err[:600]
    assert raw_findings_in_data(err) == {}, where(err)
    assert out == ""


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
@pytest.mark.parametrize("action", [["types", "fulfillment"], ["run", "fulfillment", "--past-days", "30", "--max-records", "200"]])
def test_report_output_with_hostile_identifiers_is_inert(
    action: list[str], fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model and operators whose names carry attacks: the records and the model are still written, inert."""
    install(monkeypatch, identifiers=["filters", "operators"])
    code = main(["report", *action, "--demo", "--format", fmt])
    out, err = capsys.readouterr()
    assert code in (0, 9), err[:600]
    assert out.strip()
    assert raw_findings_in_data(out) == {}, where(out)
    assert raw_findings_in_data(err) == {}, where(err)


def test_headless_writes_text_to_a_stream_only_through_stderr_say() -> None:
    """Nothing in `flextui/headless/` writes text to a stream but `common.Stderr` (the sanitiser's one door): rows go
    through the writers of `render/`, which take rows, not text."""
    import ast

    import flextui.headless

    folder = Path(flextui.headless.__file__).parent
    found: list[str] = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        door = {id(node) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) and cls.name == "Stderr" for node in ast.walk(cls)}
        for node in ast.walk(tree):
            if id(node) in door or not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id == "print":
                found.append(f"{path.name}:{node.lineno} print()")
            if isinstance(func, ast.Attribute) and func.attr in ("write", "writelines") and node.args:
                arg = node.args[0]
                if isinstance(arg, (ast.JoinedStr, ast.Constant, ast.BinOp)) or (
                    isinstance(func.value, ast.Attribute) and func.value.attr in ("stderr", "stdout")
                ):
                    found.append(f"{path.name}:{node.lineno} {ast.unparse(node)[:80]}")
    assert found == []


def test_cli_error_printer_cleans_what_it_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    print_error(RuntimeError("bad" + PAYLOAD + BIG))
    err = capsys.readouterr().err
    assert err.startswith("flextui: bad␛]52;c;") and raw_findings_in_data(err) == {}
    assert len(err) < 5000, "a 100 KB message is cut"


HOSTILE_ROWS = [
    {"name": "tok" + SUFFIX, "description": "line one\nline two" + PAYLOAD, "n": 1, "flag": True, "none": None},
    {"name": "big" + BIG, "description": "\ud800 lone surrogate \U000e0041 tag", "n": 2, "flag": False, "none": None},
]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_exports_are_inert_exact_and_private(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / "new" / "deeper" / f"out.{fmt}"
    assert export(HOSTILE_ROWS, path) == 2
    text = path.read_text("utf-8")
    assert raw_findings_in_data(text) == {}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for folder in (path.parent, path.parent.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    if fmt == "json":
        assert json.loads(text) == HOSTILE_ROWS, "JSON escapes: the data reads back exact"
    elif fmt == "jsonl":
        assert [json.loads(line) for line in text.splitlines()] == HOSTILE_ROWS
    else:
        table = list(csv.DictReader(io.StringIO(text, newline="")))
        assert table[0]["description"].startswith("line one\nline two␛]52;c;"), "line breaks kept, controls shown"
        assert len(table[1]["name"]) == len("big" + BIG), "CSV is not cut"


def test_table_writer_is_inert() -> None:
    out = io.StringIO()
    writer = TableWriter(out, ["name", "description"])
    writer.write(HOSTILE_ROWS)
    writer.close()
    assert raw_findings_in_data(out.getvalue()) == {}
    assert "tok ␛]52;c;" in out.getvalue()


def test_the_log_is_cleaned_private_and_rotated(tmp_path: Path) -> None:
    path = tmp_path / "state" / "flextui.log"
    handler = file_handler(path, max_bytes=4000, backups=2)
    logger = logging.getLogger("flextui.test-hostile")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    try:
        logger.warning("token %s deleted", "evil" + PAYLOAD + "\nforged INFO line")
        try:
            raise ValueError("boom" + PAYLOAD)
        except ValueError:
            logger.exception("while deleting %s", "evil" + PAYLOAD)
        first = path.read_text("utf-8")
        assert raw_findings_in_data(first) == {}
        assert "token evil␛]52;c;SE9TVElMRQ==␇␛[2J" in first
        assert "⏎forged INFO line" in first, "a newline in data cannot forge a log line"
        assert "Traceback (most recent call last):\n" in first, "tracebacks keep their line breaks"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        for i in range(200):
            logger.info("filler record %d %s", i, "x" * 100)
        logger.info("big %s", BIG)
        files = sorted(p.name for p in path.parent.iterdir())
        assert files == ["flextui.log", "flextui.log.1", "flextui.log.2"], "rotated, with two backups"
        for name in files:
            file = path.parent / name
            assert stat.S_IMODE(file.stat().st_mode) == 0o600, name
            text = file.read_text("utf-8")
            assert len(text) < 21_000, "a 100 KB argument is cut"
            assert raw_findings_in_data(text) == {}
    finally:
        handler.close()
        logger.handlers[:] = []


def test_cli_logging_setup_uses_the_private_rotating_log(monkeypatch: pytest.MonkeyPatch) -> None:
    from flextui.cli import _setup_logging
    from flextui.config import log_path

    root = logging.getLogger("flextui")
    saved = root.handlers[:], root.level
    try:
        _setup_logging(False, to_file=True)
        logging.getLogger("flextui.ui").warning("name %s", "x" + PAYLOAD)
        for handler in root.handlers:
            handler.flush()
        path = log_path()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert raw_findings_in_data(path.read_text("utf-8")) == {} and "name x␛]52;c;" in path.read_text("utf-8")
        assert type(root.handlers[0]).__name__ == "PrivateRotatingFileHandler"
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers[:], level = saved
        root.setLevel(level)
    assert os.environ.get("XDG_STATE_HOME"), "the log went to the test's temporary home"


def test_raw_findings_sees_every_payload_class() -> None:
    found = raw_findings(PAYLOAD)
    assert set(found) == {"OSC (ESC ])", "ESC [2J", "payload OSC 52", "payload OSC 8 URL", "payload OSC 0", "C1", "bidi", "NUL"}
