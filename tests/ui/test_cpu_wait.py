"""The time the app waited for a CPU (ui/cpu_wait.py), read from the kernel's scheduler statistics."""

from __future__ import annotations

from pathlib import Path

import pytest

from flextui.ui import cpu_wait


def test_the_second_field_of_schedstat_in_seconds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stats = tmp_path / "schedstat"
    stats.write_text("81234567 2500000000 731\n")
    monkeypatch.setattr(cpu_wait, "_SCHEDSTAT", str(stats))
    assert cpu_wait.waited_for_cpu() == 2.5


@pytest.mark.parametrize("text", [None, "", "81234567\n", "81234567 many 3\n"], ids=["no file", "empty", "one field", "not a number"])
def test_unknown_is_nothing_waited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str | None) -> None:
    """Another system or a kernel without schedstats: nothing is taken off the wall clock."""
    stats = tmp_path / "schedstat"
    if text is not None:
        stats.write_text(text)
    monkeypatch.setattr(cpu_wait, "_SCHEDSTAT", str(stats))
    assert cpu_wait.waited_for_cpu() == 0.0
