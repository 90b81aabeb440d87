"""The wiring tables of a profile, as `bgpi diag wiring` prints them and hardware/ keeps them
(wiring.txt for the Pi's header; the Pico's are `bgpi.link.pinout.pico_wiring_tables`)."""

from __future__ import annotations

from bgpi.board.locations import describe
from bgpi.board.profile import BUTTON_NAMES, CHANNELS, DICE, LED_DRIVER_PINS, LedConfig, Profile
from bgpi.hardware.header import PI_HEADER, PI_ROWS, HostPins


def led_labels(leds: LedConfig) -> list[str]:
    """What each LED of the chain lights, by index: "point 7", "die:1 pip 3", "(not used)"."""
    labels = ["(not used)"] * leds.count
    for target, indices in leds.targets.items():
        label = describe(int(target)) if target.isdigit() else target
        for pip, index in enumerate(indices):
            labels[index] = f"{label} pip {pip}" if target in DICE else label
    return labels


PIN_NOTES = {"select": " (all multiplexers)", "signal": " (10 kOhm pull-up to 3.3 V)",
             "button": " (to ground)"}
"""What the wiring tables add to a pin's role, by its first word."""


def pin_roles(profile: Profile) -> dict[int, str]:
    """GPIO pin -> its job on the board: "select S0", "signal of mux 2", "button hint", ..."""
    sensors, buttons = profile.sensors, profile.buttons
    roles = {pin: f"select S{line}" for line, pin in enumerate(sensors.select)}
    roles |= {pin: f"signal of mux {mux}" for mux, pin in enumerate(sensors.signal)}
    roles |= LED_DRIVER_PINS[profile.leds.driver]
    roles |= {buttons.pins[name]: f"button {name}" for name in BUTTON_NAMES}
    return roles


SUPPLIES = {
    "3V3": "the multiplexers' VCC and the pull-ups",
    "GND": "ground: multiplexers, switches, buttons, LED supply",
    "5V": "not connected (the LEDs have their own fused supply)",
}
"""The header's supply pins and what each is for."""


PI_NOTES = (
    "The adapter board (hardware/pcb/adapter) plugs onto the header and goes on one way only,",
    "over the Pi. It carries the 74AHCT125, the button filters and three keyed connectors:",
    "J2 the sensor bus (shrouded 2 x 10), J3 the LED data (JST XH 3), J4 the buttons (JST XH 6).",
    "GPIO0 and GPIO1 (pins 27, 28) belong to a HAT's EEPROM: never used. 5 V (pins 2, 4)",
    "goes nowhere: the LEDs have their own supply, which also feeds the 74AHCT125 through J3.",
)


def pi_host(profile: Profile) -> HostPins:
    """Where `profile`'s lines meet the Pi's 40-pin header."""
    sensors = profile.sensors
    return HostPins(
        host="a Raspberry Pi", title="Raspberry Pi 40-pin header (looking down on the pins)",
        orientation="Pin 1 has the square pad, at the end away from the USB ports; even pins are the row "
                    "at the board's edge.",
        prefix="GPIO", header=PI_HEADER, rows=PI_ROWS, roles=pin_roles(profile), select=tuple(sensors.select),
        signal=tuple(sensors.signal), led=profile.leds.pin, buttons=profile.buttons.pins, supply="3V3",
        notes=PI_NOTES)


def pin_line(name: str, role: str, where: str) -> str:
    """One row of a pin table: "  GPIO17  select S0 (all multiplexers), header pin 11"."""
    return f"  {name:<7} {role}{PIN_NOTES.get(role.split()[0], '')}, {where}"


def wiring_tables(profile: Profile) -> str:
    """Pins, multiplexer channels and LED indices of `profile` on the Pi's header, as plain text."""
    leds, host = profile.leds, pi_host(profile)
    pins = [pin_line(f"GPIO{pin}", role, f"header pin {host.physical(pin)}")
            for pin, role in sorted(host.roles.items())]
    pins += [f"  {name:<7} {job}, header pins {', '.join(map(str, host.pins_named(name)))}"
             for name, job in SUPPLIES.items()]
    chain = f"{leds.count} x WS2812B, {leds.driver} on GPIO{leds.pin}, colour order {leds.order}"
    return board_tables(profile, ["GPIO pins (BCM numbers)", *pins], [f"GPIO{pin}" for pin in profile.sensors.signal],
                        chain)


def board_tables(profile: Profile, pins: list[str], signal_names: list[str], chain: str) -> str:
    """The wiring tables: the `pins` table as given, then each multiplexer's channels (its
    signal line named by `signal_names`) and the LED chain (described by `chain`)."""
    sensors, leds = profile.sensors, profile.leds
    lines = [f"Wiring of {profile.source}", "", *pins]
    lines += ["", "Multiplexer channels (CD74HC4067; channel = S0 + 2 S1 + 4 S2 + 8 S3)"]
    for mux in range(len(sensors.signal)):
        lines.append(f"  mux {mux} (signal {signal_names[mux]})")
        for channel in range(CHANNELS):
            switch = sensors.switches[mux * CHANNELS + channel]
            lines.append(f"    channel {channel:>2}: {switch if switch else '(not connected)'}")
    lines += ["", f"LED chain ({chain})"]
    lines += [f"  {index:>3}  {label}" for index, label in enumerate(led_labels(leds))]
    return "\n".join(lines) + "\n"
