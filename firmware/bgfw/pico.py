"""The Pico's main loop around the protocol machine (`bgfw.app.Firmware`), and the ways out of it.

The loop reads USB serial, scans every period and feeds a hardware watchdog.  Three ways
lead out, so that a flashed Pico can always be checked and updated (README.md):

- the host's Ctrl-C byte (`BREAK`, never part of a frame: PROTOCOL.md) hands the port to
  MicroPython's REPL, which is how ``mpremote`` gets in;
- the hint button held at plug-in (safe boot) skips the loop altogether;
- an exception is written to `CRASH_LOG` and the Pico resets, so the host's frames are
  never typed into a REPL; a loop that hangs is reset by the watchdog.

Runs under MicroPython only (the RP2040, or the unix port with ``firmware/sim`` in the
tests); the protocol itself is in `bgfw.app`.
"""

import sys

from bgfw.app import Firmware

BREAK = b"\x03"
"""Ctrl-C: the host's order to stop and leave the port to the REPL."""
READ_MAX = 64
"""Bytes taken from the link before the next scan is due."""
SAFE_BOOT_PIN = 21
"""GP21, the hint button of the Pico pinout (``bgpi/link/pinout.py``): held at plug-in,
the board's loop does not start."""
WATCHDOG_MS = 2000
"""The loop feeds the watchdog every scan period (5 ms); a flash write takes some tens of ms."""
CRASH_LOG = "bgfw.log"
"""The last exception that reset the Pico (``mpremote cat :bgfw.log``)."""
WATCHDOG_CTRL_CLEAR = 0x40058000 + 0x3000
"""The RP2040's WATCHDOG CTRL register, atomic bit-clear alias (RP2040 datasheet 2.1.2, 4.7)."""
WATCHDOG_ENABLE = 1 << 30
"""CTRL.ENABLE: cleared, the watchdog stops counting (machine.WDT has no way to stop it)."""


def held_at_boot(machine):
    """True while the safe-boot button is down (pulled up, pressed = low)."""
    button = machine.Pin(SAFE_BOOT_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    return not button.value()


def read_link(stdin, poll):
    """The bytes waiting on the link (at most `READ_MAX`), and whether `BREAK` came.

    Reading stops at `BREAK`: what follows it (mpremote's Ctrl-A for the raw REPL) stays
    in the port for the REPL to read."""
    data = b""
    while True:
        byte = stdin.read(1)
        if byte == BREAK:
            return data, True
        data += byte
        if len(data) >= READ_MAX or not poll.poll(0):
            return data, False


def serve(firmware, stdin, poll, watchdog):
    """Scan, answer the host and feed `watchdog` until the host sends `BREAK`."""
    import time

    now = 0
    last = time.ticks_ms()
    due = 0
    while True:
        watchdog.feed()
        wait = due - now
        if wait > 0 and poll.poll(wait):
            data, stop = read_link(stdin, poll)
            tick = time.ticks_ms()
            now += time.ticks_diff(tick, last)
            last = tick
            firmware.receive(data, now)
            if stop:
                return
            continue
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)
        last = tick
        if now >= due:
            firmware.tick(now)
            period = 1000 // (firmware.config.hz if firmware.config is not None else 200)
            due = max(due + period, now - period)


def log_crash(error, path):
    """Write `error`'s traceback to `path`, unless it is already there (a crash at every
    boot must not wear the flash out)."""
    import io

    text = io.StringIO()
    sys.print_exception(error, text)
    text = text.getvalue()
    try:
        with open(path) as old:
            if old.read() == text:
                return
    except OSError:
        pass
    with open(path, "w") as log:
        log.write(text)


def main(store="bgpi.cfg"):
    """The Pico's program (main.py): safe boot, or the loop until the host asks for the REPL."""
    import select

    import machine
    import micropython

    if held_at_boot(machine):
        machine.Pin("LED", machine.Pin.OUT).on()
        print("bgfw: safe boot (the hint button was held): the REPL is free, the board does not run")
        return
    stdin = sys.stdin.buffer
    poll = select.poll()
    poll.register(stdin, select.POLLIN)
    micropython.kbd_intr(-1)  # from here a Ctrl-C byte is read as BREAK, between frames, not as an interrupt
    try:
        firmware = Firmware(sys.stdout.buffer.write, store)
        watchdog = machine.WDT(timeout=WATCHDOG_MS)
        serve(firmware, stdin, poll, watchdog)
    except Exception as error:  # anything: the REPL must never take the host's frames
        try:
            log_crash(error, CRASH_LOG)
        finally:
            machine.reset()
    machine.mem32[WATCHDOG_CTRL_CLEAR] = WATCHDOG_ENABLE  # the REPL feeds no watchdog
    micropython.kbd_intr(3)
    if firmware.lights is not None:
        firmware.lights.off()
    print("bgfw stopped: the REPL is free (machine.reset() or replugging starts the board again)")
