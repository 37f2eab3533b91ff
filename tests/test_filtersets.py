"""Saved report filter sets: per profile and group, private file, atomic, careful with bad files."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from flextui.api.filters import Condition, FilterSet
from flextui.config import filters_path
from flextui.filtersets import FilterSetExists, FilterSetFileError, FilterSetStore, check_name


def acme(days: int = 7) -> FilterSet:
    return FilterSet.build(["accountID $sw 1012", "productName $in Flex Gateway,Nova Beacon"], past_days=days, limit_records=2500)


def test_default_path_is_next_to_the_config() -> None:
    assert FilterSetStore().path == filters_path()


def test_save_creates_a_private_file_and_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "filters.json"
    store = FilterSetStore(path)
    saved = store.save("prod", acme(), name="acme last week", group="fulfillment")
    assert saved.name == "acme last week" and saved.group == "fulfillment"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    [loaded] = store.list("prod", "fulfillment")
    assert loaded.conditions == acme().conditions
    assert loaded.past_days == 7 and loaded.limit_records == 2500
    assert loaded.conditions[1] == Condition("productName", "$in", ("Flex Gateway", "Nova Beacon"))
    assert store.get("prod", "fulfillment", "acme last week") == loaded
    raw = json.loads(path.read_text())
    assert list(raw["profiles"]) == ["prod"]
    assert "password" not in path.read_text().lower()


def test_sets_are_per_profile_and_group(tmp_path: Path) -> None:
    store = FilterSetStore(tmp_path / "filters.json")
    store.save("prod", acme(), name="acme", group="fulfillment")
    store.save("uat", acme(3), name="acme", group="fulfillment")
    store.save("prod", FilterSet.build(past_days=1), name="today", group="usage")
    assert [fs.past_days for fs in store.list("prod", "fulfillment")] == [7]
    assert [fs.past_days for fs in store.list("uat", "fulfillment")] == [3]
    assert store.list("uat", "usage") == []
    assert store.list("other", "fulfillment") == []
    assert store.groups("prod") == {"fulfillment": 1, "usage": 1}


def test_overwrite_needs_consent(tmp_path: Path) -> None:
    store = FilterSetStore(tmp_path / "filters.json")
    store.save("prod", acme(7), name="acme", group="fulfillment")
    with pytest.raises(FilterSetExists) as caught:
        store.save("prod", acme(14), name="acme", group="fulfillment")
    assert caught.value.existing.past_days == 7
    assert store.get("prod", "fulfillment", "acme").past_days == 7  # type: ignore[union-attr]
    store.save("prod", acme(14), name="acme", group="fulfillment", overwrite=True)
    assert store.get("prod", "fulfillment", "acme").past_days == 14  # type: ignore[union-attr]


def test_mode_is_private_even_when_the_old_file_was_not(tmp_path: Path) -> None:
    path = tmp_path / "filters.json"
    path.write_text('{"version": 1, "profiles": {}}')
    os.chmod(path, 0o644)
    FilterSetStore(path).save("prod", acme(), name="a", group="fulfillment")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_delete(tmp_path: Path) -> None:
    store = FilterSetStore(tmp_path / "filters.json")
    store.save("prod", acme(), name="a", group="fulfillment")
    store.save("prod", acme(), name="b", group="fulfillment")
    assert store.delete("prod", "fulfillment", "a")
    assert not store.delete("prod", "fulfillment", "a")
    assert [fs.name for fs in store.list("prod", "fulfillment")] == ["b"]
    assert store.delete("prod", "fulfillment", "b")
    assert json.loads((tmp_path / "filters.json").read_text())["profiles"] == {}


def test_a_broken_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "filters.json"
    path.write_text("{not json")
    store = FilterSetStore(path)
    with pytest.raises(FilterSetFileError, match="not valid JSON"):
        store.list("prod", "fulfillment")
    with pytest.raises(FilterSetFileError):
        store.save("prod", acme(), name="a", group="fulfillment")
    assert path.read_text() == "{not json"


def test_unreadable_entries_are_skipped_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "filters.json"
    good = acme().to_dict()
    path.write_text(json.dumps({"version": 1, "profiles": {"prod": {"fulfillment": {"good": good, "bad": {"pastDays": 99}}}}}))
    store = FilterSetStore(path)
    assert [fs.name for fs in store.list("prod", "fulfillment")] == ["good"]
    assert store.problems and store.problems[0].startswith("bad:")


def test_names_are_checked() -> None:
    assert check_name("  acme  ") == "acme"
    for bad in ("", "   ", "x" * 65, "a\x1b[2Jb"):
        with pytest.raises(ValueError):
            check_name(bad)


def test_server_names_with_c1_and_bidi_controls_are_escaped_in_the_file(tmp_path: Path) -> None:
    """Report groups and field names come from the server: `json.dump(ensure_ascii=False)` wrote U+009B (a C1 CSI) and
    U+202E (a bidi override) raw into filters.json, where `cat` or an editor acts on them. Escaped, they read back exact."""
    path = tmp_path / "filters.json"
    group, field = "fulfil\u009b2Jment\u202e", "account\u009b31mID\u202e\u200f"
    store = FilterSetStore(path)
    store.save("prod", FilterSet((Condition(field, "$eq", ("1012 é",)),), past_days=3), name="acme", group=group)
    data = path.read_bytes()
    for raw in ("\u009b", "\u202e", "\u200f"):
        assert raw.encode("utf-8") not in data, f"{raw!r} written raw"
    text = data.decode("utf-8")
    assert not [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F], "no C0 or C1 control, as cat -v shows"
    assert b"\\u009b" in data and b"\\u202e" in data and "é".encode() in data, "escaped, the rest kept readable"
    assert store.groups("prod") == {group: 1}
    [loaded] = store.list("prod", group)
    assert loaded.group == group and loaded.conditions == (Condition(field, "$eq", ("1012 é",)),)
