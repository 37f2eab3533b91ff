"""The data layer must not import Textual (the CLI and tests use it without the TUI)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_importing_the_data_layer_loads_no_textual() -> None:
    code = (
        "import sys, flextui.api, flextui.api.tokens, flextui.api.http, flextui.api.cache, flextui.kinds, flextui.config;"
        "import pkgutil, importlib, flextui.api as api;"
        "[importlib.import_module('flextui.api.' + m.name) for m in pkgutil.iter_modules(api.__path__)];"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith(('textual.', 'flextui.ui')));"
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"textual imported by the data layer: {done.stdout} {done.stderr}"


def test_the_layer_contracts_hold() -> None:
    """`lint-imports` checks the contracts in pyproject.toml (api, headless, ui, sim, render): see docs/ARCHITECTURE.md."""
    script = Path(sys.executable).with_name("lint-imports")  # installed with the test extra, beside this Python
    done = subprocess.run([str(script), "--no-cache"], capture_output=True, text=True, timeout=300, cwd=Path(__file__).parents[1])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_the_package_root_imports_nothing_heavy() -> None:
    """`import flextui` (the version, `flextui --version`) loads no Textual, httpx, pydantic or rich."""
    code = (
        "import sys, flextui;"
        "heavy = sorted(m for m, mod in sys.modules.items() if mod is not None and m.split('.')[0] in ('textual', 'httpx', 'pydantic', 'rich', 'starlette'));"
        "print(','.join(heavy)); sys.exit(1 if heavy else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"import flextui loads: {done.stdout}"
