"""Every file flextui writes is private: files 0600, the directories it creates 0700.

Why: what flextui writes holds production data (exports of customer
records, screenshots of token lists, logs naming users, saved filter sets,
the page cache), often on a shared jump host where the default umask leaves
new files readable by every account. So files are created with mode 0600
from the first byte (not chmod-ed afterwards, which leaves a window), and each
missing directory on the way is made 0700 (`Path.mkdir(parents=True,
mode=…)` applies the mode to the last one only).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dirs(folder: str | os.PathLike[str]) -> Path:
    """Create `folder` and any missing parents, each 0700; existing ones are left as they are."""
    path = Path(folder)
    missing: list[Path] = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=DIR_MODE)
        except FileExistsError:  # made by someone else meanwhile
            continue
        os.chmod(directory, DIR_MODE)  # mkdir's mode is masked by the umask
    return path


def open_private(path: str | os.PathLike[str], *, append: bool = False) -> int:
    """A file descriptor to write `path`, created 0600 (an existing file is made 0600 too)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(path, flags, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
    except OSError:  # not ours to change (e.g. a file another user owns): it stays as it was
        pass
    return fd


def write_private(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> Path:
    """Write `text` to `path` atomically, as a 0600 file (its folder is created 0700 when missing)."""
    target = Path(path)
    private_dirs(target.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)  # mkstemp: 0600
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as fp:
            fp.write(text)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target


__all__ = ["DIR_MODE", "FILE_MODE", "open_private", "private_dirs", "write_private"]
