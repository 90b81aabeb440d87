"""The board profile: one physical board's geometry, wiring, LED chain and buttons.

A profile is a TOML text (the default one ships as ``bgpi/data/board.toml``, which
documents every key; `bgpi.hardware.profile.load_profile` reads the file).
`parse_profile` validates the whole text before anything touches a pin, and refuses a
bad one with a single `ProfileError` that lists every problem with its place in the
file, so a board builder fixes them all in one go.  Pure: text in, a `Profile` out.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bgpi.board.locations import (
    BARS,
    LOCATIONS,
    POINTS,
    TRAYS,
    Location,
    describe,
    parse_location,
)
from bgpi.board.pips import PIPS
from bgpi.exc import LocationError, ProfileError

CHANNELS = 16
"""Channels of one CD74HC4067 multiplexer: four select lines."""
SELECT_LINES = 4
GPIO_PINS = range(28)
"""BCM numbers of the GPIO pins on the 40-pin header."""
HAT_EEPROM_PINS = (0, 1)
"""ID_SD and ID_SC: the I2C bus of a HAT's EEPROM, which the firmware probes at boot."""

BUTTON_NAMES: tuple[str, ...] = ("white.turn", "white.cube", "black.turn", "black.cube", "hint")
DICE: tuple[str, ...] = ("die:1", "die:2")
"""The two dice on the LED chain, as the profile's ``[leds.map]`` names them: `PIPS` LEDs each."""
TURN_LIGHTS: tuple[str, ...] = ("turn:white", "turn:black")
LED_TARGETS: tuple[str, ...] = (
    *(str(point) for point in POINTS), *BARS, *TRAYS, *DICE, *TURN_LIGHTS,
)
"""Everything the LED chain must light, as the profile's ``[leds.map]`` names it."""
COLOUR_ORDERS: tuple[str, ...] = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")

# Pins a LED driver takes for itself: the data line, and for SPI the rest of SPI0,
# which the kernel's spidev driver claims as soon as SPI is enabled.
LED_DRIVER_PINS: dict[str, dict[int, str]] = {
    "spi": {10: "the LED data line (SPI0 MOSI)", 11: "SPI0 SCLK (claimed with the LED line)",
            9: "SPI0 MISO (claimed with the LED line)", 8: "SPI0 CE0 (claimed with the LED line)",
            7: "SPI0 CE1 (claimed with the LED line)"},
}
DROPPED_LED_DRIVERS = {
    "pwm": "the pwm driver is not supported: it needs root (DMA through /dev/mem), the "
           "service runs unprivileged, and it cannot work on a Pi 5; wire the LED data "
           "line to GPIO10 and use driver = \"spi\"",
}


@dataclass(frozen=True)
class Range:
    """The values a number in a profile may take: `low`..`high`, both included.

    Every number has one, so that no file can ask for a billion LEDs or a scan that
    never ends; NaN and infinities are outside every range.
    """

    low: float
    high: float
    integer: bool = False

    def fault(self, value: Any) -> str | None:
        """Why `value` is refused (None: it is fine)."""
        kinds = (int,) if self.integer else (int, float)
        if type(value) in kinds and self.low <= value <= self.high:
            return None
        kind = "an integer" if self.integer else "a number"
        return f"expected {kind} {self.low:g}..{self.high:g}, got {value!r}"


RANGES: dict[str, Range] = {
    "geometry.point_slots": Range(1, 15, integer=True),
    "geometry.bar_slots": Range(1, 15, integer=True),
    "geometry.tray_slots": Range(1, 15, integer=True),
    "geometry.pitch_mm": Range(30, 60),
    "geometry.first_mark_mm": Range(15, 40),
    "geometry.reeds_mm": Range(-20, 20),  # each offset of each reed
    "sensors.signal": Range(1, 16, integer=True),  # multiplexers: 256 switches at most
    "sensors.settle_us": Range(0, 1000),
    "sensors.scan_hz": Range(10, 1000),
    "sensors.debounce_ms": Range(0, 100),
    "leds.count": Range(1, 1024, integer=True),
    "leds.current_budget_ma": Range(1, 60_000),
    "buttons.long_press_s": Range(0.2, 10),
    "buttons.bounce_ms": Range(0, 500),
}
"""The range of every number in a profile, by its key (for ``sensors.signal``: how many
pins it lists); the default profile documents each.  ``leds.brightness`` is in (0, 1]."""


@dataclass(frozen=True)
class Switch:
    """One reed switch: slot 0 is the outermost under `location`."""

    location: Location
    slot: int

    def __str__(self) -> str:
        return f"{describe(self.location)} slot {self.slot}"


REEDS_PER_SLOT = range(1, 5)
"""How many reeds one slot may have (wired in parallel to its channel)."""


@dataclass(frozen=True)
class Geometry:
    """How many reed switches sit under each location, and where (hardware/sensors.md).

    A location's slots are checker marks `pitch_mm` apart, the first `first_mark_mm` from
    its outer edge.  Each slot has the reeds `reeds_mm` (mm from the mark: along the
    point towards the middle of the board, and across it), all wired in parallel to the
    slot's channel, so the slot reads closed while a checker rests anywhere within about
    18 mm of the mark: the count of a location is its closed slots
    (`bgpi.hardware.frames.CheckerCounter`), and benchmarks/sensing.py gives how often
    that misreads a point.
    """

    point_slots: int = 5
    bar_slots: int = 4
    trays_sensed: bool = False
    tray_slots: int = 15
    pitch_mm: float = 40.0
    first_mark_mm: float = 22.0
    reeds_mm: tuple[tuple[float, float], ...] = ((-4.0, -1.3), (4.0, 1.3))

    def slots(self, location: Location) -> int:
        """The switches under `location`: 0 for a tray that is not sensed."""
        if isinstance(location, int):
            return self.point_slots
        if location in BARS:
            return self.bar_slots
        return self.tray_slots if self.trays_sensed else 0

    def sensed(self) -> tuple[Location, ...]:
        """Every location with switches, in `LOCATIONS` order."""
        return tuple(location for location in LOCATIONS if self.slots(location))

    def mark(self, slot: int) -> float:
        """How far the mark of `slot` is from the location's outer edge, mm.

        >>> Geometry().mark(0), Geometry().mark(4)
        (22.0, 182.0)
        """
        return self.first_mark_mm + slot * self.pitch_mm


@dataclass(frozen=True)
class SensorWiring:
    """The multiplexers: shared select pins, one signal pin each, and what each channel senses.

    Switch *index* ``mux * 16 + channel`` is the bit a frame uses for that channel.
    """

    select: tuple[int, ...]
    """BCM pins of select lines S0..S3, shared by every multiplexer."""
    signal: tuple[int, ...]
    """BCM pin of each multiplexer's common (SIG) line, multiplexer 0 first."""
    switches: tuple[Switch | None, ...]
    """The switch on each index; None for an unconnected channel."""
    settle_us: float = 5.0
    scan_hz: float = 200.0
    debounce_ms: float = 5.0
    """A switch change counts once the switch has read the same for this long."""

    @property
    def size(self) -> int:
        """Indices in a frame: 16 per multiplexer."""
        return len(self.signal) * CHANNELS

    @property
    def debounce_frames(self) -> int:
        """Consecutive frames that must agree: the fewest whose span covers `debounce_ms`.

        n frames span n - 1 scan periods, so 5 ms is 2 frames at 200 Hz and at 100 Hz
        alike, and 0 ms is 1 frame (every frame accepted).
        """
        return 1 + math.ceil(self.debounce_ms * self.scan_hz / 1000 - 1e-9)

    def index(self, switch: Switch) -> int:
        """The frame index of `switch`; ValueError if the board has no such switch."""
        return self.switches.index(switch)

    def connected(self) -> Iterator[tuple[int, Switch]]:
        """(index, switch) for every connected channel, in index order."""
        for index, switch in enumerate(self.switches):
            if switch is not None:
                yield index, switch


@dataclass(frozen=True)
class LedConfig:
    """The NeoPixel chain and what each LED lights."""

    driver: str
    """"spi": the data line on GPIO10 (SPI0 MOSI); no root needed, any Pi."""
    order: str
    """The order the pixels expect the colour bytes in, e.g. "GRB" for WS2812B."""
    count: int
    brightness: float
    """Cap on every channel, 0 < brightness <= 1."""
    current_budget_ma: float
    """No frame may draw more than this; see `bgpi.hardware.leds.limit_frame`."""
    targets: Mapping[str, tuple[int, ...]]
    """LED indices of each of `LED_TARGETS`; a die's seven in pip order."""

    @property
    def pin(self) -> int:
        """The BCM pin of the data line."""
        return 10


@dataclass(frozen=True)
class ButtonConfig:
    """Button pins by name (`BUTTON_NAMES`); a press held `long_press_s` is a long press."""

    pins: Mapping[str, int]
    long_press_s: float = 1.0
    bounce_ms: float = 20.0


@dataclass(frozen=True)
class Profile:
    """One physical board, as validated by `parse_profile`."""

    source: str
    geometry: Geometry
    sensors: SensorWiring
    leds: LedConfig
    buttons: ButtonConfig


def parse_profile(text: str, source: str = "<profile>") -> Profile:
    """Validate the TOML `text` of a profile; `source` names it in messages."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(source, [f"syntax error: {error}"]) from None
    reader = _Reader(document, _KeyLines(text))
    profile = reader.profile(source)
    if reader.problems:
        raise ProfileError(source, reader.problems)
    assert profile is not None
    return profile


Path_ = tuple[str | int, ...]
"""Where a value sits in the document: table keys and array indices."""


def _format_path(path: Path_) -> str:
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            key = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else f'"{part}"'
            text += f".{key}" if text else key
    return text


class _KeyLines:
    """Line numbers of the keys and table headers of a TOML text, for messages.

    Understands the plain layout profiles use (``[table]``, ``[[array]]``, ``key = ...``);
    a key it cannot place is reported by its path alone.
    """

    def __init__(self, text: str) -> None:
        self.lines: dict[Path_, int] = {}
        table: Path_ = ()
        arrays: dict[Path_, int] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if header := re.fullmatch(r"\[\[\s*([^\]]+?)\s*\]\]\s*(#.*)?", stripped):
                name = self._keys(header[1])
                arrays[name] = arrays.get(name, -1) + 1
                table = (*name, arrays[name])
            elif header := re.fullmatch(r"\[\s*([^\]]+?)\s*\]\s*(#.*)?", stripped):
                table = self._keys(header[1])
            elif key := re.match(r'("[^"]*"|[A-Za-z0-9_-]+)\s*=', stripped):
                table_key = (*table, key[1].strip('"'))
                self.lines.setdefault(table_key, number)
                continue
            else:
                continue
            self.lines.setdefault(table, number)

    @staticmethod
    def _keys(dotted: str) -> Path_:
        return tuple(part.strip().strip('"') for part in dotted.split("."))

    def line(self, path: Path_) -> int | None:
        """The line of `path`, or of the nearest enclosing key whose line is known."""
        for end in range(len(path), 0, -1):
            if (number := self.lines.get(path[:end])) is not None:
                return number
        return None


_MISSING = object()


class _Reader:
    """Turns the parsed document into a Profile, collecting problems instead of stopping."""

    def __init__(self, document: dict[str, Any], lines: _KeyLines) -> None:
        self.document = document
        self.lines = lines
        self._problems: list[tuple[int, str]] = []

    @property
    def problems(self) -> list[str]:
        """Every problem found, in the order of the file."""
        return [text for _, text in sorted(self._problems, key=lambda problem: problem[0])]

    def problem(self, path: Path_, message: str) -> None:
        line = self.lines.line(path)
        place = _format_path(path) or "top level"
        if line is not None:
            place = f"line {line}, {place}"
        self._problems.append((line or 0, f"{place}: {message}"))

    # -- typed access ------------------------------------------------------------------

    def table(self, path: Path_, known: tuple[str, ...] | None, required: bool = True) -> dict[str, Any]:
        """The table at `path`, complaining about keys not in `known` (None: any key)."""
        value: Any = self.document
        for part in path:
            value = value.get(part, _MISSING) if isinstance(value, dict) else _MISSING
        if value is _MISSING:
            if required:
                self.problem(path, "missing table")
            return {}
        if not isinstance(value, dict):
            self.problem(path, "expected a table")
            return {}
        if known is not None:
            for key in value:
                if key not in known:
                    self.problem((*path, key), f"unknown key (expected one of {', '.join(known)})")
        return value

    def value(self, table: dict[Any, Any], path: Path_, check: Callable[[Any], str | None],
              default: Any = _MISSING) -> Any:
        """table[path[-1]] if `check` finds no fault in it (it returns the fault's text)."""
        value = table.get(path[-1], default)
        if value is _MISSING:
            self.problem(path, "missing")
            return None
        if (fault := check(value)) is not None:
            self.problem(path, fault)
            return None
        return value

    def number(self, table: dict[Any, Any], path: Path_, default: Any = _MISSING) -> Any:
        """A number within its range in `RANGES`."""
        return self.value(table, path, RANGES[_format_path(path)].fault, default)

    # -- sections ----------------------------------------------------------------------

    def profile(self, source: str) -> Profile | None:
        self.table((), ("geometry", "sensors", "leds", "buttons"))
        geometry = self.geometry()
        sensors = self.sensors(geometry)
        leds = self.leds()
        buttons = self.buttons()
        self.check_pins(sensors, leds, buttons)
        if self.problems or sensors is None or leds is None or buttons is None:
            return None
        return Profile(source, geometry, sensors, leds, buttons)

    def geometry(self) -> Geometry:
        path = ("geometry",)
        table = self.table(path, ("point_slots", "bar_slots", "trays_sensed", "tray_slots", "pitch_mm",
                                  "first_mark_mm", "reeds_mm"), required=False)
        defaults = Geometry()
        values = {
            key: self.number(table, (*path, key), getattr(defaults, key))
            for key in ("point_slots", "bar_slots", "tray_slots", "pitch_mm", "first_mark_mm")
        }
        trays = self.value(table, (*path, "trays_sensed"), _boolean, defaults.trays_sensed)
        reeds = self.value(table, (*path, "reeds_mm"), _reed_offsets, [list(reed) for reed in defaults.reeds_mm])
        if None in values.values() or trays is None or reeds is None:
            return defaults
        return Geometry(values["point_slots"], values["bar_slots"], trays, values["tray_slots"],
                        float(values["pitch_mm"]), float(values["first_mark_mm"]),
                        tuple((float(along), float(across)) for along, across in reeds))

    def sensors(self, geometry: Geometry) -> SensorWiring | None:
        path = ("sensors",)
        table = self.table(path, ("select", "signal", "settle_us", "scan_hz",
                                  "debounce_ms", "switches"))
        select = self.value(table, (*path, "select"), _pin_list)
        if select is not None and len(select) != SELECT_LINES:
            self.problem((*path, "select"), f"a CD74HC4067 needs {SELECT_LINES} select pins "
                                            f"(S0..S3), got {len(select)}")
            select = None
        signal = self.value(table, (*path, "signal"), _pin_list)
        if signal is not None and (fault := RANGES["sensors.signal"].fault(len(signal))):
            self.problem((*path, "signal"), f"multiplexers: {fault}")
            signal = None
        settle = self.number(table, (*path, "settle_us"), 5.0)
        scan_hz = self.number(table, (*path, "scan_hz"), 200.0)
        if settle is not None and scan_hz is not None and CHANNELS * settle >= 1e6 / scan_hz:
            self.problem((*path, "settle_us"), f"{CHANNELS} channels x {settle:g} us do not fit "
                                               f"in a frame at scan_hz = {scan_hz:g} "
                                               f"({1e6 / scan_hz:g} us)")
            settle = None
        debounce = self.number(table, (*path, "debounce_ms"), 5.0)
        switches = self.switches(geometry, len(signal) if signal is not None else None)
        if switches is None or None in (select, signal, settle, scan_hz, debounce):
            return None
        return SensorWiring(tuple(select), tuple(signal), switches, float(settle),
                            float(scan_hz), float(debounce))

    def switches(self, geometry: Geometry, muxes: int | None) -> tuple[Switch | None, ...] | None:
        path = ("sensors", "switches")
        table = self.table(path, None)
        by_channel: dict[tuple[int, int], Switch] = {}
        fine = True
        for key, entries in table.items():
            entry_path = (*path, key)
            try:
                location = parse_location(key)
            except LocationError as error:
                self.problem(entry_path, str(error))
                fine = False
                continue
            slots = geometry.slots(location)
            if slots == 0:
                self.problem(entry_path, f"{describe(location)} is not sensed "
                                         "(geometry.trays_sensed = false)")
                fine = False
                continue
            if not isinstance(entries, list):
                self.problem(entry_path, "expected a list of [mux, channel] pairs, "
                                         "slot 0 (outer edge) first")
                fine = False
                continue
            if len(entries) != slots:
                self.problem(entry_path, f"{len(entries)} switches, but {describe(location)} "
                                         f"has {slots} slots")
                fine = False
            for slot, entry in enumerate(entries):
                wired_to = self.channel(entry, (*entry_path, slot), muxes)
                if wired_to is None:
                    fine = False
                    continue
                switch = Switch(location, slot)
                if (other := by_channel.get(wired_to)) is not None:
                    self.problem((*entry_path, slot), f"mux {wired_to[0]} channel {wired_to[1]} "
                                                      f"is already {other}")
                    fine = False
                    continue
                by_channel[wired_to] = switch
        for location in geometry.sensed():
            if _location_key(location) not in table:
                self.problem(path, f"{describe(location)} has no switches")
                fine = False
        if not fine or muxes is None:
            return None
        wired: list[Switch | None] = [None] * (muxes * CHANNELS)
        for (mux, channel), switch in by_channel.items():
            wired[mux * CHANNELS + channel] = switch
        return tuple(wired)

    def channel(self, entry: Any, path: Path_, muxes: int | None) -> tuple[int, int] | None:
        if not (isinstance(entry, list) and len(entry) == 2
                and all(type(part) is int for part in entry)):
            self.problem(path, f"expected [mux, channel], got {entry!r}")
            return None
        mux, channel = entry
        fine = True
        if muxes is not None and not 0 <= mux < muxes:
            self.problem(path, f"mux {mux} does not exist (sensors.signal lists {muxes}: "
                               f"0..{muxes - 1})")
            fine = False
        if not 0 <= channel < CHANNELS:
            self.problem(path, f"channel {channel} does not exist (0..{CHANNELS - 1})")
            fine = False
        return (mux, channel) if fine else None

    def leds(self) -> LedConfig | None:
        path = ("leds",)
        table = self.table(path, ("driver", "order", "count", "brightness",
                                  "current_budget_ma", "map"))
        driver = self.value(table, (*path, "driver"), _led_driver, "spi")
        order = self.value(table, (*path, "order"), _one_of(COLOUR_ORDERS), "GRB")
        count = self.number(table, (*path, "count"))
        brightness = self.value(table, (*path, "brightness"), _fraction, 1.0)
        budget = self.number(table, (*path, "current_budget_ma"))
        targets = self.led_map(count)
        if targets is None or None in (driver, order, count, brightness, budget):
            return None
        return LedConfig(driver, order, count, float(brightness), float(budget), targets)

    def led_map(self, count: int | None) -> dict[str, tuple[int, ...]] | None:
        path = ("leds", "map")
        table = self.table(path, LED_TARGETS)
        targets: dict[str, tuple[int, ...]] = {}
        owner: dict[int, str] = {}
        fine = True
        for target, value in table.items():
            if target not in LED_TARGETS:
                fine = False
                continue
            entry_path = (*path, target)
            indices = [value] if type(value) is int else value
            if not (isinstance(indices, list) and indices
                    and all(type(index) is int for index in indices)):
                self.problem(entry_path, "expected an LED index or a list of them")
                fine = False
                continue
            if target in DICE and len(indices) != PIPS:
                self.problem(entry_path, f"a die has {PIPS} pips, got {len(indices)} LEDs")
                fine = False
            for position, index in enumerate(indices):
                place = entry_path if type(value) is int else (*entry_path, position)
                if count is not None and not 0 <= index < count:
                    self.problem(place, f"LED {index} is out of range (leds.count = {count}: "
                                        f"0..{count - 1})")
                    fine = False
                elif index in owner:
                    self.problem(place, f"LED {index} already lights {owner[index]}")
                    fine = False
                owner.setdefault(index, target)
            targets[target] = tuple(indices)
        for target in LED_TARGETS:
            if target not in table:
                self.problem(path, f"{_describe_target(target)} has no LED")
                fine = False
        return targets if fine else None

    def buttons(self) -> ButtonConfig | None:
        path = ("buttons",)
        table = self.table(path, ("long_press_s", "bounce_ms", "pins"))
        long_press = self.number(table, (*path, "long_press_s"), 1.0)
        bounce = self.number(table, (*path, "bounce_ms"), 20.0)
        pins_path = (*path, "pins")
        pins_table = self.table(pins_path, BUTTON_NAMES)
        pins = {name: self.value(pins_table, (*pins_path, name), _pin)
                for name in BUTTON_NAMES}
        if None in (long_press, bounce) or None in pins.values():
            return None
        return ButtonConfig(pins, float(long_press), float(bounce))

    def check_pins(self, sensors: SensorWiring | None, leds: LedConfig | None,
                   buttons: ButtonConfig | None) -> None:
        """Every GPIO pin has one job: complain about each pin named twice."""
        users: dict[int, str] = {}
        if leds is not None:
            users.update(LED_DRIVER_PINS[leds.driver])
        claims: list[tuple[int, Path_, str]] = []
        document_sensors = self.document.get("sensors", {})
        for role, prefix in (("select", "select line S"), ("signal", "signal line of mux ")):
            pins = document_sensors.get(role) if isinstance(document_sensors, dict) else None
            if isinstance(pins, list):
                claims += [(pin, ("sensors", role, i), f"{prefix}{i}")
                           for i, pin in enumerate(pins) if type(pin) is int]
        if buttons is not None:
            claims += [(pin, ("buttons", "pins", name), f"button {name}")
                       for name, pin in buttons.pins.items()]
        for pin, path, role in claims:
            if pin in users:
                self.problem(path, f"GPIO{pin} is already {users[pin]}")
            else:
                users[pin] = role


def _location_key(location: Location) -> str:
    return str(location)


def _describe_target(target: str) -> str:
    return f"point {target}" if target.isdigit() else target


def _boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"expected true or false, got {value!r}"


def _reed_offsets(value: Any) -> str | None:
    expected = (f"expected {REEDS_PER_SLOT.start}..{REEDS_PER_SLOT.stop - 1} pairs [along, across] "
                f"(mm from the mark), got {value!r}")
    if not (isinstance(value, list) and len(value) in REEDS_PER_SLOT
            and all(isinstance(pair, list) and len(pair) == 2 for pair in value)):
        return expected
    faults = [fault for pair in value for part in pair if (fault := RANGES["geometry.reeds_mm"].fault(part))]
    return f"reed offsets: {faults[0]}" if faults else None


def _fraction(value: Any) -> str | None:
    return (None if type(value) in (int, float) and 0 < value <= 1
            else f"expected a number in (0, 1], got {value!r}")


def _pin(value: Any) -> str | None:
    if type(value) is int and value in HAT_EEPROM_PINS:
        return (f"GPIO{value} is reserved for the HAT EEPROM (ID_SD/ID_SC, read by the "
                "firmware at boot): use another pin")
    return (None if type(value) is int and value in GPIO_PINS
            else f"expected a GPIO pin number 2..27 (BCM), got {value!r}")


def _pin_list(value: Any) -> str | None:
    if not isinstance(value, list) or not value:
        return f"expected a list of GPIO pin numbers, got {value!r}"
    faults = [fault for pin in value if (fault := _pin(pin)) is not None]
    return faults[0] if faults else None


def _led_driver(value: Any) -> str | None:
    return DROPPED_LED_DRIVERS.get(value) or _one_of(tuple(LED_DRIVER_PINS))(value)


def _one_of(choices: tuple[str, ...]) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if value in choices else f"expected one of {', '.join(choices)}, got {value!r}"
    return check
