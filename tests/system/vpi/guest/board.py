"""A stand-in for Blinka's `board` on the virtual Pi: x86 has no SPI controller.

`board.SPI()` gives a bus that takes what `neopixel_spi` writes and drops it, so the
LEDs open as on a Pi and everything past them (pins, table, journal) runs for real.
"""


class SPI:
    """The bus as adafruit_bus_device's SPIDevice uses it."""

    frequency = 0

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, baudrate: int = 100000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        self.frequency = baudrate

    def write(self, buffer: bytes, start: int = 0, end: int | None = None) -> None:
        pass
