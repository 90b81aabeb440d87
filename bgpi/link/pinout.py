"""Where the board's wiring meets the Pico, and the CONFIG frame that tells the firmware.

The Pico has its own pin numbers (GP0..GP28), so the profile's Raspberry Pi pins do not
carry over; every board wired to a Pico uses one pinout (`bgpi.hardware.picopins`,
``firmware/README.md``), and the profile says how many multiplexers, LEDs and which
timings.
"""

from __future__ import annotations

from bgpi.board.profile import BUTTON_NAMES, Profile
from bgpi.exc import PinoutError
from bgpi.hardware.header import HostPins
from bgpi.hardware.picopins import BUTTONS, LED_DATA, PICO_HEADER, SELECT, SIGNAL
from bgpi.hardware.wiring import board_tables, pin_line

PICO_ROWS = tuple((pin, 41 - pin) for pin in range(1, 21))
"""The Pico seen from above, USB at the top: pins 1-20 down the left, 40-21 down the right."""
PICO_SUPPLIES = {
    "3V3(OUT)": "the multiplexers' VCC and the pull-ups",
    "GND": "ground: multiplexers, switches, buttons, LED supply",
    "VBUS": "not connected: USB powers the Pico, the LEDs have their own supply",
}
"""The Pico's supply pins in the wiring tables, and what each is for."""
PICO_NOTES = (
    "USB powers the Pico: VBUS, VSYS, 3V3_EN and RUN stay unconnected.",
    "Every pin is 3.3 V: never 5 V on any of them.",
    "Power off (unplug USB and the LED supply) before plugging.",
)


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


def pico_host(profile: Profile) -> HostPins:
    """Where `profile`'s lines meet a Pico (the drawings' `HostPins`)."""
    return HostPins(
        host="a Raspberry Pi Pico", title="Raspberry Pi Pico (from above, USB at the top)",
        orientation="Pin 1 is by the USB socket, marked by the square pad; GP numbers are the Pico's own.",
        prefix="GP", header=PICO_HEADER, rows=PICO_ROWS, roles=pico_roles(profile), select=SELECT,
        signal=SIGNAL[:muxes(profile)], led=LED_DATA, buttons=BUTTONS, supply="3V3(OUT)", notes=PICO_NOTES)


def pico_wiring_tables(profile: Profile) -> str:
    """The wiring tables of `profile` on a Pico: its GP numbers and physical pins, the
    channels and the LED chain (`bgpi diag wiring --board serial:...`)."""
    host = pico_host(profile)
    pins = [pin_line(f"GP{pin}", role, f"Pico pin {host.physical(pin)}") for pin, role in sorted(host.roles.items())]
    for name, job in PICO_SUPPLIES.items():
        physical = host.pins_named(name)
        pins.append(f"  {name:<7} {job}, Pico pin{'s' if len(physical) > 1 else ''} {', '.join(map(str, physical))}")
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
