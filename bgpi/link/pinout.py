"""Where the board's wiring meets the Pico, and the CONFIG frame that tells the firmware.

The Pico has its own pin numbers (GP0..GP28), so the profile's Raspberry Pi pins do not
carry over; every board wired to a Pico uses this one pinout (``firmware/README.md``),
and the profile says how many multiplexers, LEDs and which timings.
"""

from __future__ import annotations

from bgpi.board.profile import BUTTON_NAMES, Profile
from bgpi.exc import PinoutError

SELECT = (2, 3, 4, 5)
"""GP pins of the select lines S0..S3."""
SIGNAL = tuple(range(6, 16))
"""GP pins of the multiplexers' signal lines, mux 0 first: at most ten multiplexers."""
LED_DATA = 16
BUTTONS = dict(zip(BUTTON_NAMES, (17, 18, 19, 20, 21), strict=True))
"""GP pin of each button."""


def config_args(profile: Profile) -> str:
    """The argument text of the CONFIG frame for `profile` (PROTOCOL.md).

    Raises PinoutError for a profile with more multiplexers than the Pico has pins for."""
    sensors, leds, buttons = profile.sensors, profile.leds, profile.buttons
    muxes = len(sensors.signal)
    if muxes > len(SIGNAL):
        raise PinoutError(f"the profile has {muxes} multiplexers; a Pico has signal pins "
                         f"for {len(SIGNAL)} (GP{SIGNAL[0]}..GP{SIGNAL[-1]})")
    words = {
        "sel": ",".join(map(str, SELECT)),
        "sig": ",".join(map(str, SIGNAL[:muxes])),
        "settle": str(round(sensors.settle_us)),
        "hz": str(round(sensors.scan_hz)),
        "deb": str(sensors.debounce_frames),
        "led": str(LED_DATA),
        "n": str(leds.count),
        "order": leds.order,
        "btn": ",".join(str(BUTTONS[name]) for name in BUTTON_NAMES),
        "long": str(round(buttons.long_press_s * 1000)),
        "bounce": str(round(buttons.bounce_ms)),
    }
    return " ".join(f"{key}={value}" for key, value in words.items())
