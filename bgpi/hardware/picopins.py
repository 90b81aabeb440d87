"""The Pico's pins: its physical header and the GP pin of each of the board's lines.

The Pico has its own pin numbers (GP0..GP28), so the profile's Raspberry Pi pins do not
carry over: every board wired to a Pico uses this one pinout (``firmware/README.md``).
`bgpi.link.pinout` tells the firmware; the adapter-pico board (`bgpi.hardware.boards`)
is wired by it.
"""

from __future__ import annotations

from bgpi.board.profile import BUTTON_NAMES

SELECT = (2, 3, 4, 5)
"""GP pins of the select lines S0..S3."""
SIGNAL = tuple(range(6, 16))
"""GP pins of the multiplexers' signal lines, mux 0 first: at most ten multiplexers."""
LED_DATA = 16
BUTTONS = dict(zip(BUTTON_NAMES, (17, 18, 19, 20, 21), strict=True))
"""GP pin of each button."""


PICO_HEADER: dict[int, str] = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND", 9: "GP6", 10: "GP7",
    11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13", 18: "GND", 19: "GP14",
    20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND",
    29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "GND", 34: "GP28", 35: "ADC_VREF", 36: "3V3(OUT)",
    37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
"""The Pico's physical pins: pin 1 at the USB end, 1-20 down one side and 21-40 back up the
other, as on its pinout card (pin 33 is AGND, a ground like the others)."""
