"""The data layer must not import Textual (the CLI and tests use it without the TUI)."""

from __future__ import annotations

import subprocess
import sys


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
