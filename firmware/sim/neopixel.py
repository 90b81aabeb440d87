"""A simulated `neopixel` module with the MicroPython class's interface.

`NeoPixel.shown` holds the colours of the last `write` as (r, g, b) tuples, read back
through `ORDER` exactly as the real chain would decode its bytes.
"""


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.shown = [(0, 0, 0)] * n
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        offset = index * self.bpp
        for component in range(self.bpp):
            self.buf[offset + self.ORDER[component]] = colour[component]

    def __getitem__(self, index):
        offset = index * self.bpp
        return tuple(self.buf[offset + self.ORDER[component]] for component in range(self.bpp))

    def fill(self, colour):
        for index in range(self.n):
            self[index] = colour

    def write(self):
        self.shown = [self[index] for index in range(self.n)]
        self.writes += 1
