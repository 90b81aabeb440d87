"""The NeoPixel chain: colours in, a frame the power supply can carry out.

Our layer applies the profile's brightness cap and current budget (`limit_frame`, pure)
and hands plain RGB colours to Adafruit's pixel buffer, which encodes them in the chain's
colour order and sends them over SPI (adafruit-circuitpython-neopixel-spi, data on
GPIO10).  That library is imported only when a real chain is opened; the simulator uses
`SimulatedPixels`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, Protocol

from bgpi.board.colours import DARK, Colour
from bgpi.board.profile import LedConfig
from bgpi.exc import HardwareSettingError

MA_PER_CHANNEL = 20.0
"""Current of one colour channel of a WS2812B at full duty: 60 mA for a white pixel."""


def limit_frame(colours: Sequence[Colour], brightness: float,
                budget_ma: float) -> tuple[Colour, ...]:
    """`colours` scaled by `brightness`, then dimmed evenly until within `budget_ma`.

    Channels round down, so the result never exceeds the cap or the budget; hues shift
    at most by that rounding.
    """
    capped = [(math.floor(r * brightness), math.floor(g * brightness),
               math.floor(b * brightness)) for r, g, b in colours]
    # In whole channel steps, so that rounding can never tip the frame over the budget.
    total = sum(map(sum, capped))
    allowed = math.floor(budget_ma * 255 / MA_PER_CHANNEL)
    if total <= allowed:
        return tuple(capped)
    return tuple((r * allowed // total, g * allowed // total, b * allowed // total)
                 for r, g, b in capped)


class Pixels(Protocol):
    """What `Leds` needs of a pixel buffer: Adafruit's PixelBuf has it."""

    def __len__(self) -> int: ...
    def __setitem__(self, index: int, colour: Colour) -> None: ...
    def show(self) -> None: ...


class SimulatedPixels:
    """A chain of pixels in memory: `shown` is the frame of the last `show`."""

    def __init__(self, count: int) -> None:
        self._buffer: MutableSequence[Colour] = [DARK] * count
        self.shown: tuple[Colour, ...] = tuple(self._buffer)
        self.shows = 0

    def __len__(self) -> int:
        return len(self._buffer)

    def __setitem__(self, index: int, colour: Colour) -> None:
        self._buffer[index] = colour

    def show(self) -> None:
        self.shown = tuple(self._buffer)
        self.shows += 1


def open_pixels(config: LedConfig, bus: Any = None) -> Pixels:
    """The real chain, through Adafruit's SPI driver.

    `bus` is the SPI bus to use; None opens the Pi's SPI0 through Blinka's
    ``board.SPI()``.  The library's own brightness stays at 1: `Leds` has already
    applied the profile's cap.
    """
    import neopixel_spi

    if bus is None:
        import board

        bus = board.SPI()
    # The library ships no types; its pixel buffer is a `Pixels`.
    pixels: Pixels = neopixel_spi.NeoPixel_SPI(bus, config.count, pixel_order=config.order,
                                               brightness=1.0, auto_write=False)
    return pixels


class Leds:
    """The board's LED chain: shows frames within the profile's cap and current budget."""

    def __init__(self, config: LedConfig, pixels: Pixels) -> None:
        if len(pixels) != config.count:
            raise HardwareSettingError(f"the pixel buffer has {len(pixels)} pixels, "
                             f"the profile {config.count}")
        self.config = config
        self.pixels = pixels
        self._sent: tuple[Colour, ...] | None = None  # the frame last sent (None: the buffer's is unknown)

    def indices(self, target: str) -> tuple[int, ...]:
        """The LEDs of `target` ("7", "bar:white", "die:1", "turn:black", ...)."""
        return self.config.targets[target]

    def show(self, lit: Mapping[int, Colour]) -> tuple[Colour, ...]:
        """Light LED index -> colour of `lit`, every other LED off; return the frame sent.

        Only the pixels that change are written to the buffer (a real chain's encodes
        each one in Python), and only the lit ones are limited (a dark one draws nothing)."""
        frame = [DARK] * self.config.count
        limited = limit_frame(list(lit.values()), self.config.brightness, self.config.current_budget_ma)
        for index, colour in zip(lit, limited, strict=True):
            frame[index] = colour
        sent = self._sent
        for index, colour in enumerate(frame):
            if sent is None or sent[index] != colour:
                self.pixels[index] = colour
        self._sent = tuple(frame)
        self.pixels.show()
        return self._sent

    def show_targets(self, lit: Mapping[str, Colour]) -> tuple[Colour, ...]:
        """Like `show`, by target name: every LED of each target in its colour."""
        return self.show({index: colour for target, colour in lit.items()
                          for index in self.indices(target)})

    def off(self) -> None:
        """Every LED dark."""
        self.show({})
