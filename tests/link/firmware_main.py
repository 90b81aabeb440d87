"""The Pico's program (`bgfw.pico.main`) under MicroPython's unix port, one case a run.

    micropython firmware_main.py FIRMWARE_DIR repl|safe|crash|boot-crash [LEFT]  < what the host sends

The simulated `machine` (FIRMWARE_DIR/sim) stands in for the RP2040's pins, watchdog and
reset; `micropython.kbd_intr` is recorded.  LEFT (hex) is what the REPL must find
unread on the port after `repl`.  The firmware's frames go to standard output,
then "main checks passed: CASE" (``tests/link/test_firmware.py`` reads both).
"""

# ruff: noqa: E402  (the path is set before the firmware is imported)

import sys

FIRMWARE, CASE = sys.argv[1], sys.argv[2]
LEFT = bytes.fromhex(sys.argv[3]) if len(sys.argv) > 3 else b""
sys.path.insert(0, FIRMWARE)
sys.path.insert(0, FIRMWARE + "/sim")


class Keyboard:
    """Stands in for the `micropython` module: which interrupt characters were set."""

    set = []

    @staticmethod
    def kbd_intr(char):
        Keyboard.set.append(char)


sys.modules["micropython"] = Keyboard

import machine
from bgfw import config, pico
from bgfw.app import Firmware


def check_repl():
    """The host's frames are answered until Ctrl-C; the REPL gets the rest, unwatched."""
    pico.main("bgpi.cfg")
    left = sys.stdin.buffer.read()
    assert left == LEFT, left  # what mpremote sent after the first Ctrl-C reaches the REPL
    stopped = machine.BOARD.stopped
    assert machine.BOARD.watchdog is None and stopped is not None, "the watchdog still runs"
    assert stopped.timeout == pico.WATCHDOG_MS and stopped.feeds >= 1, (stopped.timeout, stopped.feeds)
    assert Keyboard.set == [-1, 3], Keyboard.set  # Ctrl-C interrupts again in the REPL
    assert machine.BOARD.resets == 0


def check_safe():
    """The hint button held at plug-in: no loop, no watchdog, Ctrl-C left as it is."""
    machine.BOARD.down.add(pico.SAFE_BOOT_PIN)
    pico.main("bgpi.cfg")
    assert machine.BOARD.watchdog is None and machine.BOARD.stopped is None
    assert Keyboard.set == [], Keyboard.set
    assert machine.BOARD.pins["LED"].driven == 1  # the Pico's own LED says so


def check_crash():
    """An exception in the loop is logged and the Pico resets."""

    def fail(self, now):
        raise RuntimeError("the scan failed")

    Firmware.tick = fail
    try:
        pico.main("bgpi.cfg")
    except machine.Reset:
        print("reset")
    assert machine.BOARD.resets == 1
    with open(pico.CRASH_LOG) as log:
        text = log.read()
    assert "RuntimeError: the scan failed" in text, text


def check_crash_at_boot():
    """An exception before the loop (reading the saved CONFIG) resets the Pico too."""

    def fail(path):
        raise RuntimeError("the flash is unreadable")

    config.load = fail
    try:
        pico.main("bgpi.cfg")
    except machine.Reset:
        print("reset")
    assert machine.BOARD.resets == 1 and machine.BOARD.watchdog is None
    with open(pico.CRASH_LOG) as log:
        text = log.read()
    assert "RuntimeError: the flash is unreadable" in text, text


{"repl": check_repl, "safe": check_safe, "crash": check_crash, "boot-crash": check_crash_at_boot}[CASE]()
print("main checks passed: " + CASE)
