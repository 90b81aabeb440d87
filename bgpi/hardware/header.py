"""The Raspberry Pi's 40-pin header: what each physical pin is (every Pi since the B+).

The profile names GPIO pins by their BCM numbers; a builder wires by physical pin numbers.
Pin 1 (3V3) has the square pad, at the end of the header away from the USB ports; odd
pins are the inner row, even pins the row at the board's edge (pins 2 and 4: 5 V).
The schematic (`bgpi.hardware.schematic`) draws this map.
"""

from __future__ import annotations

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


def header_pin(gpio: int) -> int:
    """The physical pin of GPIO `gpio` (BCM number); HeaderPinError if the header has none."""
    for pin, name in PI_HEADER.items():
        if name == f"GPIO{gpio}":
            return pin
    raise HeaderPinError(f"GPIO{gpio} is not on the 40-pin header")


def pins_named(name: str) -> list[int]:
    """The physical pins of a supply: "3V3", "5V" or "GND"."""
    return [pin for pin, what in PI_HEADER.items() if what == name]
