"""Where the board's wiring meets the Pico, and the CONFIG frame that tells the firmware.

The Pico has its own pin numbers (GP0..GP28), so the profile's Raspberry Pi pins do not
carry over; every board wired to a Pico uses this one pinout (``firmware/README.md``),
and the profile says how many multiplexers, LEDs and which timings.
"""

from __future__ import annotations

from bgpi.board.profile import BUTTON_NAMES, Profile
from bgpi.exc import HeaderPinError, PinoutError
from bgpi.hardware.wiring import board_tables, pin_line

SELECT = (2, 3, 4, 5)
"""GP pins of the select lines S0..S3."""
SIGNAL = tuple(range(6, 16))
"""GP pins of the multiplexers' signal lines, mux 0 first: at most ten multiplexers."""
LED_DATA = 16
BUTTONS = dict(zip(BUTTON_NAMES, (17, 18, 19, 20, 21), strict=True))
"""GP pin of each button."""


PICO_PINS: dict[int, int] = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
    14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}
"""GP number -> the Pico's physical pin (pin 1 at the USB end, counted down one side and up
the other, as on the Pico's own pinout card)."""
PICO_SUPPLIES = {
    "3V3(OUT)": ("the multiplexers' VCC and the pull-ups", (36,)),
    "GND": ("ground: multiplexers, switches, buttons, LED supply", (3, 8, 13, 18, 23, 28, 33, 38)),
    "VBUS": ("not connected: USB powers the Pico, the LEDs have their own supply", (40,)),
}
"""The Pico's supply pins: name -> (what it is for, its physical pins)."""


def pico_pin(gp: int) -> int:
    """The physical pin of GP`gp`; HeaderPinError for a number the Pico does not bring out."""
    if gp not in PICO_PINS:
        raise HeaderPinError(f"GP{gp} is not a pin of the Pico")
    return PICO_PINS[gp]


def muxes(profile: Profile) -> int:
    """The multiplexers of `profile`; PinoutError if the Pico has too few signal pins."""
    count = len(profile.sensors.signal)
    if count > len(SIGNAL):
        raise PinoutError(f"the profile has {count} multiplexers; a Pico has signal pins "
                          f"for {len(SIGNAL)} (GP{SIGNAL[0]}..GP{SIGNAL[-1]})")
    return count


def pico_roles(profile: Profile) -> dict[int, str]:
    """GP pin -> its job on a board of `profile` wired to a Pico (as `wiring.pin_roles` for the Pi)."""
    roles = {pin: f"select S{line}" for line, pin in enumerate(SELECT)}
    roles |= {pin: f"signal of mux {mux}" for mux, pin in enumerate(SIGNAL[:muxes(profile)])}
    roles[LED_DATA] = "the LED data line (to the 74AHCT125)"
    roles |= {BUTTONS[name]: f"button {name}" for name in BUTTON_NAMES}
    return roles


def pico_wiring_tables(profile: Profile) -> str:
    """The wiring tables of `profile` on a Pico: its GP numbers and physical pins, the
    channels and the LED chain (`bgpi diag wiring --board serial:...`)."""
    pins = [pin_line(f"GP{pin}", role, f"Pico pin {pico_pin(pin)}")
            for pin, role in sorted(pico_roles(profile).items())]
    pins += [f"  {name:<7} {job}, Pico pin{'s' if len(physical) > 1 else ''} {', '.join(map(str, physical))}"
             for name, (job, physical) in PICO_SUPPLIES.items()]
    leds = profile.leds
    chain = f"{leds.count} x WS2812B on GP{LED_DATA}, colour order {leds.order}"
    return board_tables(profile, ["Pico pins (GP numbers; the Pi's GPIO numbers of the profile do not apply)", *pins],
                        [f"GP{pin}" for pin in SIGNAL[:muxes(profile)]], chain)


def config_args(profile: Profile) -> str:
    """The argument text of the CONFIG frame for `profile` (PROTOCOL.md).

    Raises PinoutError for a profile with more multiplexers than the Pico has pins for."""
    sensors, leds, buttons = profile.sensors, profile.leds, profile.buttons
    count = muxes(profile)
    words = {
        "sel": ",".join(map(str, SELECT)),
        "sig": ",".join(map(str, SIGNAL[:count])),
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
