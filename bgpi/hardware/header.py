"""The Raspberry Pi's 40-pin header: what each physical pin is (every Pi since the B+).

The profile names GPIO pins by their BCM numbers; a builder wires by physical pin numbers.
Pin 1 (3V3) has the square pad, at the end of the header away from the USB ports; odd
pins are the inner row, even pins the row at the board's edge (pins 2 and 4: 5 V).
The schematic (`bgpi.hardware.schematic`) draws this map, or a Pico's, from a `HostPins`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bgpi.exc import HeaderPinError

PI_HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22",
    16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25",
    23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7", 27: "GPIO0", 28: "GPIO1", 29: "GPIO5",
    30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}
"""Physical pin -> "3V3", "5V", "GND" or "GPIO<BCM number>"."""


PI_ROWS = tuple((pin, pin + 1) for pin in range(1, 41, 2))
"""The header's pins as drawn, row by row: odd pins on the left, even on the right."""


@dataclass(frozen=True)
class HostPins:
    """Where the board's lines meet its host, for the drawings: the Pi's 40-pin header
    (GPIO numbers) or a Pico (GP numbers).  `wiring.pi_host` and `link.pinout.pico_host`
    make one from a profile."""

    host: str
    """"a Raspberry Pi", "a Raspberry Pi Pico"."""
    title: str
    """The header map's heading, and how it is seen."""
    orientation: str
    """Where pin 1 is."""
    prefix: str
    """"GPIO" or "GP": a pin's name is the prefix and its number."""
    header: Mapping[int, str]
    """Physical pin -> its name ("3V3", "GND", "GPIO17", "GP2", ...)."""
    rows: tuple[tuple[int, int], ...]
    """The physical pins of each drawn row, left and right."""
    roles: Mapping[int, str]
    """Pin number -> its job on the board (`wiring.pin_roles`' words)."""
    select: tuple[int, ...]
    signal: tuple[int, ...]
    led: int
    buttons: Mapping[str, int]
    supply: str
    """The 3.3 V pin's name ("3V3", "3V3(OUT)")."""
    notes: tuple[str, ...] = ()
    """What to know about this host's pins, printed under its map."""

    def physical(self, pin: int) -> int:
        """The physical pin of pin number `pin`; HeaderPinError if the host has none."""
        for physical, name in self.header.items():
            if name == f"{self.prefix}{pin}":
                return physical
        raise HeaderPinError(f"{self.prefix}{pin} is not a pin of {self.host}")

    def where(self, pin: int) -> str:
        """"GPIO17 (pin 11)": a pin's name and its physical pin."""
        return f"{self.prefix}{pin} (pin {self.physical(pin)})"

    def pins_named(self, name: str) -> list[int]:
        """The physical pins of a supply ("3V3", "GND", ...)."""
        return [pin for pin, what in self.header.items() if what == name]
