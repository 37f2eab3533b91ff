"""An empty listing has the columns of a full one: a script appending daily CSVs, or reading columns by name or
position, must not break on the day nothing matches."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from flextui import kinds
from flextui.api.reports import ReportsService
from flextui.cli import listable_kinds, main

HELLO = "hello-world-dp"
NOBODY = "nobody@nowhere.example"

CASES: dict[str, tuple[list[str], list[str]]] = {
    "tokens": (["--search", "name=*"], ["--username", NOBODY]),
    "projects": ([], ["--filter", "name=no-such-project"]),
    "artifacts": ([f"{HELLO}/hello-world-image"], [f"{HELLO}/hello-world-image", "--filter", "tag=no-such-tag"]),
    "members": ([HELLO], [HELLO, "--filter", "role=no-such-role"]),
    "downloads": (["--filter", "from=2020-01-01"], ["--filter", "from=2020-01-01", "--filter", f"user={NOBODY}"]),
    "reports": ([], []),  # the catalogue takes no filter: emptied by a service without report groups
    "entitlements": ([], ["--filter", "product=NoSuchProduct"]),
    "line-items": (["ENT-100000"], ["ENT-100000", "--filter", "activationId=NO-SUCH-ACTIVATION"]),
    "products": ([], ["NoSuchProduct"]),
    "features": ([], ["NoSuchFeature"]),
    "feature-bundles": ([], ["NoSuchBundle"]),
    "suites": ([], ["NoSuchSuite"]),
    "part-numbers": ([], ["NoSuchPart"]),
    "maintenance": ([], ["NoSuchMaintenance"]),
    "users": ([], ["--filter", f"userName={NOBODY}"]),
    "accounts": ([], ["--filter", "accountName=NoSuchAccount"]),
}
"""Per kind `flextui get` lists: the arguments that give rows, and those that match nothing."""


async def _no_groups(self: ReportsService, *, force: bool = False) -> list[Any]:
    return []


def _recording_rows(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every row a lister yields, as the row function made it (before the writer picks its columns)."""
    seen: list[dict[str, Any]] = []
    resolve = kinds.Kind.lister_function

    def lister_function(kind: kinds.Kind) -> Any:
        lister = resolve(kind)

        async def recorded(*args: Any) -> AsyncIterator[dict[str, Any]]:
            async for row in lister(*args):
                seen.append(row)
                yield row

        recorded.wants_context = getattr(lister, "wants_context", False)  # type: ignore[attr-defined]
        return recorded

    monkeypatch.setattr(kinds.Kind, "lister_function", lister_function)
    return seen


def _header(capsys: pytest.CaptureFixture[str], fmt: str, kind: str, args: list[str]) -> list[str]:
    assert main(["get", kind, *args, "--demo", "-o", fmt, "--limit", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines, f"{kind} -o {fmt}: no header"
    return lines[0].split(",") if fmt == "csv" else lines[0].split()


def test_every_listable_kind_has_a_case() -> None:
    assert sorted(CASES) == sorted(listable_kinds())


@pytest.mark.parametrize("fmt", ["csv", "table"])
@pytest.mark.parametrize("kind", sorted(CASES))
def test_an_empty_listing_has_the_columns_of_a_full_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, kind: str, fmt: str
) -> None:
    with_rows, matching_nothing = CASES[kind]
    seen = _recording_rows(monkeypatch)
    full = _header(capsys, fmt, kind, with_rows)
    assert seen, f"{kind}: {with_rows} gave no rows"
    assert sorted(full) == sorted(seen[0]), "every field a row carries is a column, and nothing else"
    seen.clear()
    if kind == "reports":
        monkeypatch.setattr(ReportsService, "report_types", _no_groups)
    assert _header(capsys, fmt, kind, matching_nothing) == full
    assert not seen


@pytest.mark.parametrize(("fmt", "empty"), [("json", "[]\n"), ("jsonl", "")])
def test_an_empty_listing_is_an_empty_document_in_json(capsys: pytest.CaptureFixture[str], fmt: str, empty: str) -> None:
    assert main(["get", "tokens", "--username", NOBODY, "--demo", "-o", fmt]) == 0
    done = capsys.readouterr()
    assert done.out == empty and "no rows" in done.err


def test_report_list_without_groups_has_the_columns_of_get_reports(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["report", "list", "--demo", "-o", "csv"]) == 0
    full = capsys.readouterr().out.splitlines()[0]
    monkeypatch.setattr(ReportsService, "report_types", _no_groups)
    assert main(["report", "list", "--demo", "-o", "csv"]) == 0
    assert capsys.readouterr().out.splitlines() == [full]
    assert full.split(",") == list(kinds.get("reports").fields)


@pytest.mark.parametrize("fmt", ["csv", "table"])
def test_a_report_run_without_records_has_its_data_models_columns(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    base = ["report", "run", "fulfillment", "--demo", "--past-days", "30", "-o", fmt]
    assert main([*base, "--max-records", "3"]) == 0
    full = capsys.readouterr().out.splitlines()[0].replace(",", " ").split()
    assert main([*base, "--filter", "accountID $eq nobody"]) == 0
    done = capsys.readouterr()
    assert done.out.splitlines()[0].replace(",", " ").split() == full and "no records" in done.err
