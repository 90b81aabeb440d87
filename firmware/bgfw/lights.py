"""The NeoPixel chain, through MicroPython's `neopixel` module.

`neopixel.NeoPixel.write` sends the bits with `machine.bitstream`: the CPU times each bit
itself with interrupts off, 1.25 us a bit, so a frame of the default 44 pixels holds the
Pico still for about 1.3 ms (44 x 24 bits); USB keeps the bytes that arrive meanwhile.

The host sends finished colours (its brightness cap and current budget already
applied); the firmware only places them in the chain's colour order.  Without a host it
shows the idle pattern: one dim pixel walking the chain, so a board that is on but not
connected is seen to be alive.
"""

# ruff: noqa: UP031  (% formatting: MicroPython formats bytes only so; one style for the firmware)

from machine import Pin
from neopixel import NeoPixel

IDLE_COLOUR = (0, 0, 24)
IDLE_STEP_MS = 120


class Lights:
    """`count` pixels on `pin`, `order` one of "RGB", "GRB", ... (the pixels' byte order)."""

    def __init__(self, pin, count, order):
        self.count = count
        self.pixels = NeoPixel(Pin(pin, Pin.OUT), count)
        # neopixel.NeoPixel.ORDER[i]: where colour component i (r, g, b) goes in a pixel.
        self.pixels.ORDER = tuple(order.index("RGB"[i]) for i in range(3)) + (3,)
        self.idle_at = -1

    def set_hex(self, offset, text):
        """Set pixels from `offset` on to the colours in `text`, 6 hex digits each (RRGGBB).

        Raises ValueError for text that is not whole colours or runs past the chain."""
        if len(text) % 6 or offset < 0 or offset + len(text) // 6 > self.count:
            raise ValueError("LED %d+%d outside 0..%d" % (offset, len(text) // 6, self.count - 1))
        pixels = self.pixels
        for index in range(len(text) // 6):
            start = index * 6
            pixels[offset + index] = (int(text[start:start + 2], 16), int(text[start + 2:start + 4], 16),
                                      int(text[start + 4:start + 6], 16))

    def show(self):
        self.pixels.write()
        self.idle_at = -1

    def off(self):
        self.pixels.fill((0, 0, 0))
        self.pixels.write()

    def idle(self, now):
        """Advance the idle pattern to `now` (ms); writes the chain only when it moves."""
        step = int(now // IDLE_STEP_MS) % self.count
        if step == self.idle_at:
            return
        self.idle_at = step
        self.pixels.fill((0, 0, 0))
        self.pixels[step] = IDLE_COLOUR
        self.pixels.write()
