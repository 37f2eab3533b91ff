"""flextui's own themes, read from TOML files in `themes/` (the format users copy).

Users add their own in `<config dir>/themes/*.toml`; the same loader reads both.
"""

from __future__ import annotations

import logging
import tomllib
from pathlib import Path

from textual.theme import Theme

from flextui.config import config_dir

log = logging.getLogger("flextui.themes")

THEME_FIELDS = ("primary", "secondary", "warning", "error", "success", "accent", "foreground", "background", "surface", "panel", "boost")


def theme_dirs() -> list[Path]:
    here = Path(__file__).resolve().parent.parent
    return [here / "_themes", here.parent / "themes", config_dir() / "themes"]


def load_theme(path: Path) -> Theme:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    if "name" not in data or "primary" not in data:
        raise ValueError(f"{path}: a theme needs at least name and primary")
    kwargs = {key: data[key] for key in THEME_FIELDS if key in data}
    return Theme(name=str(data["name"]), dark=bool(data.get("dark", True)), variables=dict(data.get("variables", {})), **kwargs)


def bundled_themes() -> list[Theme]:
    themes: dict[str, Theme] = {}
    for folder in theme_dirs():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                theme = load_theme(path)
            except (OSError, ValueError, tomllib.TOMLDecodeError, TypeError) as exc:
                log.warning("skipping theme %s: %s", path, exc)
                continue
            themes[theme.name] = theme
    return list(themes.values())
