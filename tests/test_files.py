"""Files flextui writes are private: each folder it creates 0700, each file 0600, whatever the umask."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from flextui.files import open_private, private_dirs, write_private


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_missing_folder_is_0700_and_existing_ones_are_left(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        os.chmod(tmp_path, 0o755)
        target = private_dirs(tmp_path / "a" / "b" / "c")
    finally:
        os.umask(old)
    assert target.is_dir()
    assert [mode(tmp_path / p) for p in ("a", "a/b", "a/b/c")] == [0o700] * 3
    assert mode(tmp_path) == 0o755, "a folder that was there is not changed"


def test_files_are_0600_from_the_start_and_existing_ones_are_made_private(tmp_path: Path) -> None:
    old = os.umask(0o000)
    try:
        path = write_private(tmp_path / "new" / "x.svg", "<svg/>")
        assert mode(path) == 0o600 and mode(path.parent) == 0o700 and path.read_text() == "<svg/>"
        loose = tmp_path / "loose.log"
        loose.write_text("old\n")
        os.chmod(loose, 0o644)
        os.close(open_private(loose, append=True))
        assert mode(loose) == 0o600 and loose.read_text() == "old\n"
    finally:
        os.umask(old)
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["x.svg"], "no temporary file left behind"
