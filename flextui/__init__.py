"""flextui: a terminal explorer for the FlexNet Operations REST APIs.

Only the version lives here so that `flextui --version` and importing the data
layer never pay for Textual.

Two things are done on import. First, httpx's own command-line tool (`httpx._main`,
which imports click, pygments and rich's progress bars: about 80 ms of every
start) is marked as unavailable, which httpx documents as fine (its package
falls back to a stub `main`). flextui never uses that tool.

Second, pydantic's plugins are off unless the environment says otherwise
(`PYDANTIC_DISABLE_PLUGINS`): a plugin sees every value a model validates,
and ours carry passwords and token values (flextui's secrets never go to a
log, and a plugin is typically an observability exporter); finding plugins
also scanned every installed package's metadata at start-up (≈ 15 ms, 2 MB).
"""

import os
import sys

if "httpx" not in sys.modules:
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]  # None in sys.modules: "cannot be imported"

PLUGINS_SWITCHED_OFF = "PYDANTIC_DISABLE_PLUGINS" not in os.environ
"""Whether flextui set PYDANTIC_DISABLE_PLUGINS (programs it runs, a credential command, get the environment as it was)."""
if PLUGINS_SWITCHED_OFF:
    os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"

__version__ = "0.1.0"
