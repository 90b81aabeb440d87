"""The house rules: each package of `bgpi` imports only the layers beneath it.

The pure core (`rules`, `board`, `table`) never imports the shell (pins, files, clocks,
processes): that is what lets the same core run on the Pi, in the simulator and in
these tests.  A new package must be placed in `ALLOWED` before it can be imported.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bgpi"

CORE = ("rules", "board", "table", "records")
ALLOWED: dict[str, set[str]] = {
    "rules": {"rules"},
    "board": {"rules", "board"},
    "hardware": {"rules", "board", "hardware"},
    "table": {"rules", "board", "table"},
    "records": {"rules", "board", "table", "records"},
    "engine": {"rules", "engine"},
    "link": {"rules", "board", "hardware", "link"},
    "shell": {"rules", "board", "hardware", "table", "records", "engine", "link", "shell"},
    "remote": {"rules", "board", "table", "records", "shell", "remote"},
    "web": {"rules", "board", "hardware", "table", "records", "engine", "link", "shell", "remote", "web"},
    "cli": {"rules", "board", "hardware", "table", "records", "engine", "link", "shell", "remote", "web", "cli"},
}
"""Package -> the packages it may import (itself included)."""

SHELL_LIBRARIES = ("gpiozero", "serial", "neopixel_spi", "neopixel", "board", "lgpio", "RPi",
                   "aiohttp", "bgpi.hardware", "bgpi.shell", "bgpi.cli", "bgpi.engine", "bgpi.link",
                   "bgpi.web")
"""What a core module must not load, even indirectly."""


def _imports(path: Path) -> set[str]:
    """Every `bgpi.*` module `path` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # `from bgpi.shell import script` imports the module bgpi.shell.script
            submodules = {f"{node.module}.{alias.name}" for alias in node.names}
            found.update({name for name in submodules if _is_module(name)} or {node.module})
    return {name for name in found if name.startswith("bgpi.")}


def _is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or path.is_dir()


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (PACKAGE / parts[1]).is_dir() else None


def _modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if path.parent != PACKAGE)


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_imports_point_down_the_layers(path: Path) -> None:
    package = path.relative_to(PACKAGE).parts[0]
    assert package in ALLOWED, f"new package bgpi/{package}/: place it in ALLOWED first"
    wrong = []
    for module in _imports(path):
        target = _package(module)
        if target is None or target in ALLOWED[package]:
            continue
        wrong.append(module)
    assert not wrong, f"bgpi/{package}/ may not import {sorted(wrong)}"


def test_the_core_loads_nothing_of_the_shell() -> None:
    core = [f"bgpi.{'.'.join(path.relative_to(PACKAGE).with_suffix('').parts)}"
            for path in _modules() if path.relative_to(PACKAGE).parts[0] in CORE
            and path.name != "__init__.py"]
    probe = (
        "import importlib, sys\n"
        f"for name in {core!r}: importlib.import_module(name)\n"
        f"print('\\n'.join(m for m in sys.modules if m.split('.')[0] in {SHELL_LIBRARIES!r}"
        f" or m.startswith({SHELL_LIBRARIES!r})))\n"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert loaded.stdout.split() == []
