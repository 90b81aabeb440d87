"""The simulated Pico: the real firmware on a simulated board, behind a pseudo-terminal.

    python firmware/sim/run.py LINK [--store FILE] [--realtime]

The firmware's serial port is a pty whose device is published as the symlink LINK (as
``/dev/serial/by-id`` names a real Pico), so the host opens it like the real thing.
Standard input takes the hands and the clock, one command a line; replies go to
standard output:

    closed HEX      the reed switches now closed (bit mux*16+channel), from now on
    press I         a short press of button I (the host's i-th button): done at once, or
                    with --realtime held for 50 ms by the clock
    hold I          a long press of button I: likewise, held past the long-press time
    step N          N scan periods pass; replies ``ok SEQ``: the sequence number of the
                    last frame the firmware has sent by then (``ok -`` while unplugged)
    unplug          the USB cable is pulled: the port vanishes, the Pico loses power
    plug            the cable is back: a new port at LINK, the firmware boots again
    leds            replies ``leds`` and the colours last shown, RRGGBB each
    quit

Without --realtime, time passes only by ``step`` (lockstep with a replaying host); with
it, the firmware scans at its configured rate by the clock, as on a Pico.  Runs under
CPython (it needs ptys); the firmware modules it runs are the ones flashed to the Pico.
"""

# ruff: noqa: UP031  (% formatting: MicroPython formats bytes only so; one style for the firmware)

import os
import select
import sys
import time
import tty
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # the simulated machine first, then bgfw

import machine
from bgfw.app import Firmware


class SimPico:
    """The firmware, its simulated board and its pty."""

    def __init__(self, link, store, now):
        self.link = Path(link)
        self.store = store
        self.master = self.slave = None
        self.firmware = None
        self.dropped = 0
        self.plug(now)

    def plug(self, now):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        tmp = self.link.with_name(self.link.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(self.slave))
        tmp.replace(self.link)
        self.firmware = Firmware(self.write, self.store, now)
        self.wire()

    def unplug(self):
        self.link.unlink(missing_ok=True)
        for fd in (self.master, self.slave):
            os.close(fd)
        self.master = self.slave = None
        self.firmware = None

    def wire(self):
        config = self.firmware.config if self.firmware is not None else None
        if config is not None:
            machine.BOARD.wire(config.select, config.signal)

    def write(self, data):
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:  # nobody reads the port: the bytes are lost, as on USB
                self.dropped += len(view)
                return

    def read(self, now):
        if self.master is None:
            return
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return
        if data:
            self.firmware.receive(data, now)
            self.wire()

    def last_seq(self):
        if self.firmware is None:
            return "-"
        return str((self.firmware.tx.seq - 1) % 65536)


def gesture(pico, now, index, long):
    """A press of button `index` from start to end; returns the time after it (ms)."""
    firmware = pico.firmware
    if firmware is None or firmware.config is None or index >= len(firmware.config.buttons):
        return now
    pin = firmware.config.buttons[index]
    steps = [firmware.config.bounce_ms + 1]
    if long:
        steps.append(firmware.config.long_ms)
    machine.BOARD.down.add(pin)
    firmware.buttons_tick(now)
    for step in steps:
        now += step
        firmware.buttons_tick(now)
    machine.BOARD.down.discard(pin)
    firmware.buttons_tick(now)
    now += firmware.config.bounce_ms + 1
    firmware.buttons_tick(now)
    return now


def main(argv):
    realtime = "--realtime" in argv
    store = argv[argv.index("--store") + 1] if "--store" in argv else None
    link = argv[1]
    started = time.monotonic()
    now = 0
    pico = SimPico(link, store, now)
    control = sys.stdin.buffer
    reply = sys.stdout
    pending = b""
    releases = []  # (time, pin) of buttons to let go, by the clock
    due = 0
    while True:
        if realtime:
            now = int((time.monotonic() - started) * 1000)
            hz = pico.firmware.config.hz if pico.firmware is not None and pico.firmware.config else 200
            for release in [release for release in releases if release[0] <= now]:
                releases.remove(release)
                machine.BOARD.down.discard(release[1])
            if now >= due:
                if pico.firmware is not None:
                    pico.firmware.tick(now)
                due = max(due + 1000 // hz, now)
            timeout = max(0.0, (due - now) / 1000)
        else:
            timeout = None
        watched = [control] + ([pico.master] if pico.master is not None else [])
        ready, _, _ = select.select(watched, [], [], timeout)
        if pico.master is not None and pico.master in ready:
            pico.read(now)
        if control not in ready:
            continue
        chunk = os.read(control.fileno(), 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            words = line.decode().split()
            if not words:
                continue
            verb = words[0]
            if verb == "quit":
                return 0
            if verb == "closed":
                machine.BOARD.closed = int(words[1], 16)
            elif verb in ("press", "hold") and realtime:
                # By the clock: down now, up once held long enough; the ticks see it all.
                config = pico.firmware.config if pico.firmware is not None else None
                index = int(words[1])
                if config is not None and index < len(config.buttons):
                    held = config.bounce_ms * 2 + 10 + (config.long_ms if verb == "hold" else 0)
                    machine.BOARD.down.add(config.buttons[index])
                    releases.append((now + held, config.buttons[index]))
            elif verb in ("press", "hold"):
                now = gesture(pico, now, int(words[1]), verb == "hold")
            elif verb == "step":
                hz = pico.firmware.config.hz if pico.firmware is not None and pico.firmware.config else 200
                for _ in range(int(words[1])):
                    pico.read(now)  # what the host sent by now arrives before the scan
                    now += 1000 // hz
                    if pico.firmware is not None:
                        pico.firmware.tick(now)
                reply.write("ok %s\n" % pico.last_seq())
            elif verb == "unplug":
                if pico.master is not None:
                    pico.unplug()
                reply.write("ok\n")
            elif verb == "plug":
                if pico.master is None:
                    pico.plug(now)
                reply.write("ok\n")
            elif verb == "leds":
                lights = pico.firmware.lights if pico.firmware is not None else None
                shown = lights.pixels.shown if lights is not None else []
                reply.write("leds %s\n" % "".join("%02x%02x%02x" % colour for colour in shown))
            else:
                reply.write("error unknown command %s\n" % verb)
            reply.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
