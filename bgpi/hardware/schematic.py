"""The board's schematic, drawn from the profile: `bgpi diag schematic` > hardware/schematic.svg
(on a Pico: ``--board serial:...`` > hardware/schematic-pico.svg).

Four parts on one sheet: the host's pins (the Pi's 40-pin header, or the Pico's) with
every pin's job by its physical number,
one multiplexer with its pull-up, decoupling and reed switches and a table of all of them,
the LED supply and the 74AHCT125 level shifter pin by pin with the chain's order, and the
buttons.  Parts are joined by net names (S0, SIG0, LED DIN, ...) rather than by lines
across the sheet, as a schematic of this size reads best.
"""

from __future__ import annotations

from itertools import groupby

from bgpi.board.locations import describe
from bgpi.board.profile import BUTTON_NAMES, CHANNELS, Profile
from bgpi.hardware.header import HostPins
from bgpi.hardware.svg import Drawing
from bgpi.hardware.wiring import led_labels

STYLE = """
text { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 12px; fill: #111; }
.title { font-size: 20px; font-weight: bold; }
.heading { font-size: 15px; font-weight: bold; }
.small { font-size: 10.5px; }
.note { font-size: 11.5px; fill: #333; }
.pinno { font-size: 10px; font-weight: bold; }
.wire { stroke: #111; stroke-width: 1.4; fill: none; }
.bus { stroke: #111; stroke-width: 3; fill: none; }
.thin { stroke: #666; stroke-width: 0.8; fill: none; }
.part { stroke: #111; stroke-width: 1.4; fill: #fff; }
.chip { stroke: #111; stroke-width: 1.6; fill: #f4f1e8; }
.plate { stroke: #111; stroke-width: 2.4; fill: none; }
.header { stroke: #111; stroke-width: 1.2; fill: #2b2b2b; }
.p3v3 { stroke: #111; fill: #f39c12; } .p5v { stroke: #111; fill: #e74c3c; }
.pgnd { stroke: #111; fill: #555; } .psel { stroke: #111; fill: #3498db; }
.psig { stroke: #111; fill: #27ae60; } .pled { stroke: #111; fill: #9b59b6; }
.pbtn { stroke: #111; fill: #f1c40f; } .pspi { stroke: #111; fill: #bbb; }
.pfree { stroke: #111; fill: #fff; }
.pinno.on { fill: #fff; }
.dot { fill: #111; }
"""

ROW = 26
"""Height of one row of the header map."""


def schematic_svg(profile: Profile, host: HostPins) -> str:
    """The schematic of `profile`'s board wired to `host`, as SVG text."""
    drawing = Drawing(1500, 1560, STYLE)
    drawing.text(30, 36, f"bgpi board schematic: {profile.source}, wired to {host.host}", "title")
    drawing.text(30, 56, f"Generated from the board profile by `bgpi diag schematic`. \"pin\" numbers are "
                         f"physical pins; {host.prefix} numbers are the ones the software and the wiring tables "
                         "use (hardware/wiring.txt, wiring-pico.txt).", "note")
    _header(drawing, host, 30, 90)
    _multiplexer(drawing, profile, host, 760, 90)
    _leds(drawing, profile, host, 30, 770)
    _buttons(drawing, host, 30, 1190)
    return drawing.svg()


# -- the 40-pin header ---------------------------------------------------------------

PIN_CLASSES = {"select": "psel", "signal": "psig", "the": "pled", "SPI0": "pspi", "button": "pbtn"}
"""A header pin's colour, by the first word of its role (`wiring.pin_roles`)."""


SUPPLY_CLASSES = {"3V3": "p3v3", "3V3(OUT)": "p3v3", "5V": "p5v", "VBUS": "p5v", "VSYS": "p5v", "GND": "pgnd"}
"""A supply pin's colour, by its name; others (RUN, 3V3_EN, ADC_VREF) are left free."""


def header_jobs(host: HostPins) -> dict[int, tuple[str, str]]:
    """Physical pin -> (its job on this board, its colour class), for every pin of `host`."""
    jobs = {}
    for pin, name in host.header.items():
        number = name.removeprefix(host.prefix)
        if number.isdigit():
            role = host.roles.get(int(number))
            jobs[pin] = (_short(role), PIN_CLASSES[role.split()[0]]) if role else ("-", "pfree")
        elif name == host.supply:
            jobs[pin] = ("multiplexers' VCC, pull-ups", "p3v3")
        elif name == "GND":
            jobs[pin] = ("ground", "pgnd")
        else:
            jobs[pin] = ("leave unconnected", SUPPLY_CLASSES.get(name, "pfree"))
    return jobs


def _short(role: str) -> str:
    """A pin's role (`wiring.pin_roles`) as short as the header map has room for."""
    words = role.split()
    match words[0]:
        case "select":
            return f"{words[1]} (select, all muxes)"
        case "signal":
            return f"SIG{words[-1]} (mux {words[-1]}, 10k pull-up)"
        case "button":
            return f"button {words[1]}"
        case "SPI0":
            return f"{words[0]} {words[1]}: keep free"
        case "the":  # the LED data line
            return "LED data -> 74AHCT125 pin 2 (adapter)"
    return role


def _header(drawing: Drawing, host: HostPins, x: float, y: float) -> None:
    drawing.text(x, y, f"1. {host.title}", "heading")
    drawing.text(x, y + 18, host.orientation, "note")
    jobs = header_jobs(host)
    left, right = x + 330, x + 362
    top = y + 44
    drawing.rect(left - 16, top - 14, right - left + 32, len(host.rows) * ROW + 2, "header", radius=4)
    for row, (left_pin, right_pin) in enumerate(host.rows):
        cy = top + row * ROW
        for pin, px, side in ((left_pin, left, "end"), (right_pin, right, "start")):
            job, cls = jobs[pin]
            drawing.circle(px, cy, 10, cls)
            drawing.text(px, cy + 3.5, str(pin), "pinno on" if cls in ("pgnd", "psel", "psig", "pled") else "pinno",
                         "middle")
            name = host.header[pin]
            if side == "end":
                drawing.text(px - 18, cy + 4, name, "label", "end")
                drawing.text(px - 82, cy + 4, job, "small", "end")
            else:
                drawing.text(px + 18, cy + 4, name, "label")
                drawing.text(px + 82, cy + 4, job, "small")
    drawing.lines(x, top + len(host.rows) * ROW + 14, host.notes, 16, "note")


# -- the multiplexers ----------------------------------------------------------------

MUX_PINS = {"S0": 10, "S1": 11, "S2": 14, "S3": 13,
            **{f"C{channel}": 9 - channel if channel < 8 else 31 - channel for channel in range(16)}}
"""The CD74HC4067's pin of each select input and channel (the chip's own numbers, not a
breakout board's labels): I0..I7 are pins 9..2, I8..I15 pins 23..16."""

def _resistor(drawing: Drawing, x: float, y1: float, y2: float, label: str) -> None:
    """A vertical resistor from (x, y1) to (x, y2), its value beside it."""
    middle = (y1 + y2) / 2
    drawing.line(x, y1, x, middle - 15)
    drawing.rect(x - 5, middle - 15, 10, 30)
    drawing.line(x, middle + 15, x, y2)
    drawing.text(x + 9, middle + 4, label, "small")


def _capacitor(drawing: Drawing, x: float, y1: float, y2: float, label: str, left: bool = False) -> None:
    """A vertical capacitor from (x, y1) to (x, y2), its value beside it (on the `left`)."""
    middle = (y1 + y2) / 2
    drawing.line(x, y1, x, middle - 4)
    drawing.line(x - 10, middle - 4, x + 10, middle - 4, "plate")
    drawing.line(x - 10, middle + 4, x + 10, middle + 4, "plate")
    drawing.line(x, middle + 4, x, y2)
    drawing.text(x - 14 if left else x + 14, middle + 4, label, "small", "end" if left else "start")


def _reed(drawing: Drawing, x1: float, x2: float, y: float) -> None:
    """A normally open reed switch, horizontal from (x1, y) to (x2, y)."""
    middle = (x1 + x2) / 2
    drawing.line(x1, y, middle - 10, y)
    drawing.line(middle - 10, y, middle + 8, y - 7)
    drawing.line(middle + 10, y, x2, y)
    drawing.rect(middle - 16, y - 9, 32, 14, "thin", radius=7)


def _ground(drawing: Drawing, x: float, y: float) -> None:
    drawing.line(x - 9, y, x + 9, y)
    drawing.line(x - 6, y + 4, x + 6, y + 4)
    drawing.line(x - 3, y + 8, x + 3, y + 8)


def _multiplexer(drawing: Drawing, profile: Profile, host: HostPins, x: float, y: float) -> None:
    sensors = profile.sensors
    drawing.text(x, y, f"2. Multiplexers: {len(sensors.signal)} x CD74HC4067, one a points board, "
                       "each wired like mux 0", "heading")
    rail, ground = y + 40, y + 420
    chip_x, chip_y, chip_w, chip_h = x + 200, y + 120, 170, 250
    drawing.line(x, rail, x + 690, rail, "bus")
    drawing.text(x, rail - 6, f"{host.supply} (pin {' or '.join(map(str, host.pins_named(host.supply)))})", "small")
    drawing.line(x, ground, x + 690, ground, "bus")
    drawing.text(x, ground + 16, "GND (any GND pin)", "small")
    drawing.rect(chip_x, chip_y, chip_w, chip_h, "chip")
    drawing.text(chip_x + chip_w / 2, chip_y + 120, "CD74HC4067", "label", "middle")
    drawing.text(chip_x + chip_w / 2, chip_y + 136, "mux 0", "small", "middle")
    # Supply on top with its decoupling capacitor beside the pin, enable and ground below.
    vcc_x = chip_x + 30
    drawing.line(vcc_x, chip_y, vcc_x, rail)
    drawing.circle(vcc_x, rail, 2.5, "dot")
    drawing.text(vcc_x, chip_y + 14, "VCC 24", "small", "middle")
    _capacitor(drawing, vcc_x - 50, rail, rail + 50, "100 nF at the VCC pin", left=True)
    drawing.circle(vcc_x - 50, rail, 2.5, "dot")
    _ground(drawing, vcc_x - 50, rail + 50)
    for name, px in (("GND 12", chip_x + 30), ("E 15", chip_x + 80)):
        drawing.text(px, chip_y + chip_h - 6, name, "small", "middle")
        drawing.line(px, chip_y + chip_h, px, ground)
        drawing.circle(px, ground, 2.5, "dot")
    # Left side: the four select lines, shared by every multiplexer.
    for line, pin in enumerate(host.select):
        py = chip_y + 40 + line * 40
        drawing.text(chip_x + 6, py + 4, f"{MUX_PINS[f'S{line}']} S{line}", "small")
        drawing.line(chip_x - 40, py, chip_x, py)
        drawing.text(chip_x - 44, py + 4, f"S{line} <- {host.where(pin)}", "small", "end")
    # Right side: the common line with its pull-up, then the channels and their switches.
    sig_y = chip_y + 30
    drawing.text(chip_x + chip_w - 6, sig_y + 4, "SIG (COM) 1", "small", "end")
    pull_x = chip_x + chip_w + 50
    drawing.line(chip_x + chip_w, sig_y, pull_x + 140, sig_y)
    _resistor(drawing, pull_x, rail, sig_y, "10 kOhm, on the points board")
    drawing.circle(pull_x, rail, 2.5, "dot")
    drawing.circle(pull_x, sig_y, 2.5, "dot")
    drawing.text(pull_x + 144, sig_y + 4, f"SIG0 -> {host.where(host.signal[0])}", "small")
    switch_x = chip_x + chip_w + 180
    for row, channel in enumerate((0, 1, 2, CHANNELS - 1)):
        py = chip_y + 80 + row * 42 + (20 if channel == CHANNELS - 1 else 0)
        drawing.text(chip_x + chip_w - 6, py + 4, f"C{channel} {MUX_PINS[f'C{channel}']}", "small", "end")
        drawing.line(chip_x + chip_w, py, switch_x - 40, py)
        _reed(drawing, switch_x - 40, switch_x + 40, py)
        drawing.line(switch_x + 40, py, switch_x + 60, py)
        drawing.line(switch_x + 60, py, switch_x + 60, ground)
        drawing.circle(switch_x + 60, ground, 2.5, "dot")
        switch = sensors.switches[channel]
        drawing.text(switch_x - 40, py - 12, str(switch) if switch else "(not connected)", "small")
    drawing.text(chip_x + chip_w + 20, chip_y + 80 + 3 * 42, "...", "heading")
    drawing.lines(x, chip_y + 196, ["Each channel C0..C15:", "a slot's two reeds,", "in parallel, to GND;",
                                    "closed reads low.",
                                    "E and GND to GND."], 16, "note")
    _mux_table(drawing, profile, host, x, ground + 44)


def channel_runs(profile: Profile, mux: int) -> list[str]:
    """The channels of multiplexer `mux` as runs by location: "C0-C4 point 1 slots 0-4"."""
    switches = profile.sensors.switches[mux * CHANNELS:(mux + 1) * CHANNELS]
    runs = []
    channel = 0
    for location, group in groupby(switches, key=lambda switch: switch.location if switch else None):
        members = list(group)
        slots = [switch.slot for switch in members if switch is not None]
        count = len(members)
        channels = f"C{channel}" if count == 1 else f"C{channel}-C{channel + count - 1}"
        channel += count
        if location is None:
            runs.append(f"{channels} not connected")
        elif len(slots) > 1 and slots == list(range(slots[0], slots[0] + len(slots))):
            runs.append(f"{channels} {describe(location)} slots {slots[0]}-{slots[-1]}")
        else:
            runs.append(f"{channels} {describe(location)} slot{'s' if len(slots) > 1 else ''} "
                        f"{', '.join(map(str, slots))}")
    return runs


def _mux_table(drawing: Drawing, profile: Profile, host: HostPins, x: float, y: float) -> None:
    drawing.text(x, y, "mux", "label")
    drawing.text(x + 34, y, "SIG", "label")
    drawing.text(x + 150, y, "channels (each channel: a slot's reeds to GND)", "label")
    drawing.line(x, y + 6, x + 700, y + 6, "thin")
    row = y + 22
    for mux, pin in enumerate(host.signal):
        drawing.text(x, row, str(mux), "small")
        drawing.text(x + 34, row, host.where(pin), "small")
        runs = channel_runs(profile, mux)
        half = (len(runs) + 1) // 2 if len(", ".join(runs)) > 90 else len(runs)
        row = drawing.lines(x + 150, row, [", ".join(runs[:half]), ", ".join(runs[half:])][:2 if runs[half:] else 1],
                            15, "small") + 4


# -- the LEDs and their power --------------------------------------------------------

SHIFTER_PINS = (
    # pin, name, what it connects to
    (1, "1OE", "GND (gate 1 on)"), (2, "1A", "LED data from {led}"),
    (3, "1Y", "330 Ohm -> first pixel DIN"), (4, "2OE", "5V (gate off)"), (5, "2A", "GND"),
    (6, "2Y", "not connected"), (7, "GND", "GND"),
    (8, "3Y", "not connected"), (9, "3A", "GND"), (10, "3OE", "5V (gate off)"), (11, "4Y", "not connected"),
    (12, "4A", "GND"), (13, "4OE", "5V (gate off)"), (14, "VCC", "5V, 100 nF to GND at the pin"),
)
"""The 74AHCT125 (DIP-14 or SOIC-14) pin by pin: one gate used, the others off."""


def _leds(drawing: Drawing, profile: Profile, host: HostPins, x: float, y: float) -> None:
    leds = profile.leds
    drawing.text(x, y, f"3. LEDs: {leds.count} x WS2812B on their own fused 5 V supply, data through a "
                       "74AHCT125", "heading")
    # The supply: jack, fuse, the 5 V bus and ground bus, the bulk capacitor at the first pixel.
    top, bottom = y + 50, y + 150
    drawing.rect(x, top - 10, 90, bottom - top + 20, "part", radius=4)
    drawing.lines(x + 8, top + 14, ["5 V 4 A", "supply", "DC jack", "(LEDs only)"], 16, "small")
    drawing.line(x + 90, top, x + 130, top)
    drawing.rect(x + 130, top - 7, 40, 14, "part", radius=2)
    drawing.line(x + 130, top, x + 170, top, "thin")
    drawing.text(x + 122, top - 12, "fuse T3.15A", "small")
    drawing.line(x + 170, top, x + 700, top, "bus")
    drawing.line(x + 90, bottom, x + 700, bottom, "bus")
    drawing.text(x + 200, top - 8, "5 V bus, at least 0.5 mm2 (20 AWG); feed it at 2-3 points of the chain", "small")
    drawing.text(x + 180, bottom + 16, "GND bus, the same wire; joined to the host's GND at one point", "small")
    _capacitor(drawing, x + 200, top, bottom, "1000 uF 10 V", left=True)
    for dot_y in (top, bottom):
        drawing.circle(x + 200, dot_y, 2.5, "dot")
    # The first pixels of the chain.
    pixel_y = top + 28
    for n in range(3):
        px = x + 480 + n * 70
        drawing.rect(px, pixel_y, 54, 44, "part", radius=3)
        drawing.text(px + 27, pixel_y + 19, f"LED {n}", "small", "middle")
        drawing.text(px + 27, pixel_y + 33, "WS2812B", "small", "middle")
        drawing.line(px + 12, top, px + 12, pixel_y)
        drawing.line(px + 42, pixel_y + 44, px + 42, bottom)
        drawing.circle(px + 12, top, 2.5, "dot")
        drawing.circle(px + 42, bottom, 2.5, "dot")
        if n:
            drawing.line(px - 16, pixel_y + 22, px, pixel_y + 22)
    drawing.text(x + 694, pixel_y + 20, f"... LED {leds.count - 1}", "small")
    drawing.text(x + 694, pixel_y + 34, "DOUT -> DIN", "small")
    drawing.text(x + 456, pixel_y + 16, "DIN", "small")
    # The level shifter, pin by pin.
    chip_x, chip_y = x + 180, y + 200
    drawing.rect(chip_x, chip_y, 110, 7 * 24 + 10, "chip")
    drawing.text(chip_x + 55, chip_y - 8, "74AHCT125", "label", "middle")
    for pin, name, net in SHIFTER_PINS:
        left = pin <= 7
        row = pin - 1 if left else 14 - pin
        py = chip_y + 17 + row * 24
        text = net.format(led=host.where(host.led))
        if left:
            drawing.line(chip_x - 20, py, chip_x, py)
            drawing.text(chip_x + 6, py + 4, f"{pin} {name}", "small")
            drawing.text(chip_x - 24, py + 4, text, "small", "end")
        else:
            drawing.line(chip_x + 110, py, chip_x + 130, py)
            drawing.text(chip_x + 104, py + 4, f"{name} {pin}", "small", "end")
            drawing.text(chip_x + 134, py + 4, text, "small")
    # 1Y to the first pixel through the resistor, close to the pixel.
    din_y = pixel_y + 22
    drawing.line(x + 370, din_y, x + 480, din_y)
    drawing.rect(x + 400, din_y - 6, 34, 12)
    drawing.text(x + 396, din_y + 20, "330 Ohm", "small")
    drawing.text(x + 366, din_y - 4, "from 74AHCT125", "small", "end")
    drawing.text(x + 366, din_y + 10, "pin 3 (1Y)", "small", "end")
    _chain(drawing, profile, x + 720, y + 200)


def _run_kind(label: str) -> str:
    """What LEDs in one run share: "point" for "point 7", "die:1 pip" for "die:1 pip 3"."""
    return label.rsplit(" ", 1)[0] if label.startswith("point ") or " pip " in label else label


def chain_runs(profile: Profile) -> list[str]:
    """The LED chain in index order, in runs: "0-23  points 1-24", "28-34  die:1 pips 0-6"."""
    runs = []
    index = 0
    for kind, group in groupby(led_labels(profile.leds), key=_run_kind):
        members = list(group)
        span = str(index) if len(members) == 1 else f"{index}-{index + len(members) - 1}"
        index += len(members)
        numbers = [int(label.rsplit(" ", 1)[1]) for label in members] if kind != members[0] else []
        if len(members) > 1 and numbers and numbers == list(range(numbers[0], numbers[0] + len(members))):
            runs.append(f"{span}  {kind}s {numbers[0]}-{numbers[-1]}")
        else:
            runs.append(f"{span}  {', '.join(members)}")
    return runs


def _chain(drawing: Drawing, profile: Profile, x: float, y: float) -> None:
    drawing.text(x, y, "The chain, in order (hardware/layout.svg draws its route):", "label")
    end = drawing.lines(x, y + 20, chain_runs(profile), 16, "small")
    notes = [
        f"Colour order {profile.leds.order}; the software caps the current at "
        f"{round(profile.leds.current_budget_ma)} mA.",
        "Never power the pixels from the host's 5 V pin or over the ribbon.",
        "The shifter sits on the adapter board: its J3 takes the LED supply's 5 V",
        "and GND (the grounds' one join) and sends the data to the first pixel.",
    ]
    drawing.lines(x, end + 10, notes, 16, "note")


# -- the buttons ---------------------------------------------------------------------

def _buttons(drawing: Drawing, host: HostPins, x: float, y: float) -> None:
    pins = host.buttons
    drawing.text(x, y, "4. Buttons: momentary, normally open, to GND (on the adapter board's J4)", "heading")
    line_y, ground = y + 40, y + 120
    drawing.text(x, line_y - 8, "GPIO (internal pull-up)", "small")
    drawing.line(x, line_y, x + 60, line_y)
    drawing.rect(x + 60, line_y - 6, 34, 12)
    drawing.text(x + 58, line_y + 22, "220 Ohm", "small")
    drawing.line(x + 94, line_y, x + 250, line_y)
    drawing.circle(x + 150, line_y, 2.5, "dot")
    _capacitor(drawing, x + 150, line_y, ground, "100 nF")
    drawing.line(x + 250, line_y, x + 250, line_y + 20)
    drawing.line(x + 250, line_y + 20, x + 262, line_y + 50)
    drawing.line(x + 250, line_y + 56, x + 250, ground)
    drawing.line(x + 238, line_y + 34, x + 256, line_y + 34, "thin")
    drawing.text(x + 270, line_y + 44, "button", "small")
    drawing.line(x + 150, ground, x + 250, ground)
    _ground(drawing, x + 200, ground)
    rows = [f"{name:<11} {host.where(pins[name])}" for name in BUTTON_NAMES]
    end = drawing.lines(x, ground + 36, rows, 16, "small")
    supply = ", ".join(map(str, host.pins_named(host.supply)))
    end = drawing.lines(x, end + 8, [f"Power pins: {host.supply} on {supply}; "
                                     f"GND on {', '.join(map(str, host.pins_named('GND')))}."], 16, "note")
    drawing.lines(x, end + 4, [
        "220 Ohm keeps a pressed line low even against a fixed pull-up: GPIO3 (the hint button, I2C's",
        "SCL) has the Pi's 1.8 kOhm, so a press reads 3.3 V x 220 / 2020 = 0.36 V, under the 0.8 V a",
        "Pi guarantees as low (1 kOhm would leave 1.18 V: never pressed). The resistor protects the",
        "pin from static on the button's wire; the 100 nF filters what the wire picks up.",
    ], 16, "note")
