"""The simulator is the real services' stand-in, not the client's mirror: it imports nothing of the client.

If it shared the client's rules, a rule the client gets wrong would be wrong
on both sides and no test could see it. The AST of every module under
flextui/sim is read (imports, relative imports, and import_module calls with
a literal name), and a fresh interpreter imports every module and looks at
what got loaded.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import flextui.sim

FORBIDDEN = ("flextui.api", "flextui.ui", "flextui.headless")
SIM_ROOT = Path(flextui.sim.__file__).parent


def _module_of(path: Path) -> str:
    parts = path.relative_to(SIM_ROOT.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(module: str, node: ast.ImportFrom, path: Path) -> str:
    """The absolute name an `ImportFrom` refers to (relative imports resolved against `module`)."""
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imported_names(path: Path) -> list[tuple[int, str]]:
    """(line, module name) of every import in the file, including `import_module("…")` with a literal."""
    module = _module_of(path)
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node, path)
            found += [(node.lineno, base)] + [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__"):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def _forbidden(name: str) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)


def test_no_simulator_module_imports_the_client() -> None:
    files = sorted(SIM_ROOT.rglob("*.py"))
    assert len(files) >= 10, "the walk found the simulator's modules"
    offences = [f"{path.relative_to(SIM_ROOT)}:{line}: {name}" for path in files for line, name in imported_names(path) if _forbidden(name)]
    assert not offences, "the simulator imports the client:\n" + "\n".join(offences)


def test_the_walk_sees_relative_and_dynamic_imports(tmp_path: Path) -> None:
    sample = SIM_ROOT / "common.py"
    names = {name for _, name in imported_names(sample)}
    assert "flextui.sim.world" in names and "flextui.sim.world.SimUser" in names
    relative = ast.ImportFrom(module="api", names=[ast.alias("x")], level=2)
    assert _resolve("flextui.sim.rules", relative, SIM_ROOT / "rules.py") == "flextui.api"
    assert _forbidden("flextui.api.validation") and _forbidden("flextui.ui") and not _forbidden("flextui.apis")


def test_importing_every_simulator_module_loads_no_client_module() -> None:
    code = (
        "import sys, pkgutil, importlib, flextui.sim as sim;"
        "[importlib.import_module('flextui.sim.' + m.name) for m in pkgutil.iter_modules(sim.__path__)];"
        f"bad = sorted(m for m in sys.modules if m.startswith({FORBIDDEN!r}));"
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"client modules loaded by the simulator: {done.stdout} {done.stderr}"
