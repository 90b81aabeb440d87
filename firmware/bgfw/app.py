"""The firmware's protocol state machine, free of any clock or port.

`Firmware.receive` takes bytes from the host, `Firmware.tick` runs one scan period;
both take the time in milliseconds and write frames through the function given.  The
Pico's loop (`bgfw.pico`) and the simulated board (``firmware/sim/run.py``) drive it.
"""

# ruff: noqa: UP031  (% formatting: MicroPython formats bytes only so; one style for the firmware)

from random import getrandbits

from bgfw import VERSION
from bgfw import config as configs
from bgfw.buttons import Buttons
from bgfw.lights import Lights
from bgfw.scan import Debouncer, MuxScanner, frame_hex
from bgfw.wire import PROTOCOL, Receiver, Sender

HEARTBEAT_MS = 500
"""Send a heartbeat after this long without sending anything else."""
HOST_TIMEOUT_MS = 3000
"""Silence from the host this long means it is gone: show the idle pattern."""
PRESS_MEMORY = 16
"""Presses kept for a SYNC to send again (the host asks for those it did not get)."""


class Firmware:
    """One co-processor: switches, buttons and LEDs, and the host link (PROTOCOL.md)."""

    def __init__(self, write, store=None, now=0, boot=None):
        self.tx = Sender(write)
        # Tells the host that the press count began again (hardware-seeded on the RP2040).
        self.boot = boot if boot is not None else getrandbits(32)
        self.rx = Receiver()
        self.store = store
        self.unknown = 0
        self.scans = 0
        self.host = False
        self.heard = now
        self.said = now
        self.hello_at = None
        self.config = None
        self.scanner = self.debouncer = self.buttons = self.lights = None
        self.frame = []
        self.press_no = 0
        self.presses = []  # (number, index, kind), the last PRESS_MEMORY
        saved = configs.load(store)
        if saved is not None:
            try:
                self.apply(saved)
            except (ValueError, OSError):
                self.config = None
        self.hello(now)  # a host listening at boot learns that we restarted

    # -- sending -------------------------------------------------------------------

    def send(self, kind, args, now):
        self.said = now
        return self.tx.send(kind, args)

    def hello(self, now):
        muxes = len(self.frame)
        leds = self.lights.count if self.lights is not None else 0
        self.hello_at = now
        self.send("HELLO", "fw=%s proto=%d muxes=%d leds=%d maxmux=%d boot=%08x"
                  % (VERSION, PROTOCOL, muxes, leds, configs.MAX_MUXES, self.boot), now)

    def state(self, now):
        keys = self.buttons.mask()
        self.send("STATE", "%s keys=%d presses=%d" % (frame_hex(self.debouncer.stable), keys, self.press_no),
                  now)

    # -- the host's frames ---------------------------------------------------------

    def receive(self, data, now):
        """Handle the bytes `data` from the host."""
        for _seq, kind, args in self.rx.feed(data):
            self.heard = now
            handler = HANDLERS.get(kind)
            if handler is None:
                self.unknown += 1
                continue
            if not self.host and kind != "HELLO":
                # We restarted (or timed out) while the host went on: ask it to start over.
                if self.hello_at is None or now - self.hello_at >= HEARTBEAT_MS:
                    self.hello(now)
                continue
            try:
                handler(self, args, now)
            except ValueError as error:
                self.send("ERR", "%s %s" % (kind, error), now)

    def on_hello(self, args, now):
        self.host = True
        self.hello(now)

    def on_config(self, args, now):
        if self.config is None or self.config.text != args:
            new = configs.Config(args)
            self.apply(new)
            configs.save(self.store, new)
        self.send("READY", "muxes=%d leds=%d" % (len(self.frame), self.lights.count), now)

    def on_sync(self, args, now):
        if self.config is None:
            raise ValueError("no CONFIG yet")
        after = int(args) if args else self.press_no
        self.state(now)
        for number, index, kind in self.presses:
            if number > after:
                self.send("BTN", "%d %d %s" % (number, index, kind), now)

    def on_led(self, args, now):
        if self.lights is None:
            raise ValueError("no CONFIG yet")
        offset, _, text = args.partition(" ")
        self.lights.set_hex(int(offset), text)

    def on_show(self, args, now):
        if self.lights is None:
            raise ValueError("no CONFIG yet")
        self.lights.show()

    def on_heartbeat(self, args, now):
        pass

    def on_stats(self, args, now):
        counts = " ".join("%s=%d" % (reason, count) for reason, count in sorted(self.rx.counts.items()))
        self.send("STATS", "%s unknown=%d sent=%d scans=%d" % (counts, self.unknown, self.tx.sent,
                                                               self.scans), now)

    def apply(self, config):
        """Set up the pins of `config` (raises ValueError or OSError for pins it cannot use)."""
        self.scanner = MuxScanner(config.select, config.signal, config.settle_us)
        self.debouncer = Debouncer(len(config.signal), config.debounce)
        self.buttons = Buttons(config.buttons, config.bounce_ms, config.long_ms)
        if self.lights is not None:
            self.lights.off()
        self.lights = Lights(config.led_pin, config.leds, config.order)
        self.frame = [0] * len(config.signal)
        self.config = config

    # -- time ----------------------------------------------------------------------

    def buttons_tick(self, now):
        """Read the buttons at `now` (ms): report what went down or up and each press."""
        found = []
        if self.buttons.update(now, found) and self.host:
            self.send("KEYS", "%d" % self.buttons.mask(), now)
        for index, kind in found:
            self.press_no += 1
            self.presses.append((self.press_no, index, kind))
            if len(self.presses) > PRESS_MEMORY:
                self.presses.pop(0)
            if self.host:
                self.send("BTN", "%d %d %s" % (self.press_no, index, kind), now)

    def tick(self, now):
        """One scan period at `now` (ms): switches, buttons, heartbeat, idle pattern."""
        if self.config is not None:
            self.scans += 1
            self.scanner.scan(self.frame)
            if self.debouncer.update(self.frame) and self.host:
                self.send("SW", frame_hex(self.debouncer.stable), now)
            self.buttons_tick(now)
        if self.host and now - self.heard >= HOST_TIMEOUT_MS:
            self.host = False
        if self.host:
            if now - self.said >= HEARTBEAT_MS:
                self.send("HB", "", now)
        elif self.lights is not None and self.lights.count:
            self.lights.idle(now)


HANDLERS = {
    "HELLO": Firmware.on_hello,
    "CONFIG": Firmware.on_config,
    "SYNC": Firmware.on_sync,
    "LED": Firmware.on_led,
    "SHOW": Firmware.on_show,
    "HB": Firmware.on_heartbeat,
    "STATS": Firmware.on_stats,
}

