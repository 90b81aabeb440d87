"""The board's PCBs, drawn from the profile (hardware/pcb/README.md).

- ``adapter``: a HAT-sized board on the Pi's header.  It carries the 74AHCT125 and the
  LED data out (a keyed 3-pin JST XH: the LED supply's 5 V in for the shifter, ground,
  data), the five buttons' filters (a keyed 6-pin JST XH), and the sensor bus on a
  shrouded, keyed 2 x 10 header: no plug on it can go in the wrong way round.
- ``points``: three points' reed switches (two in parallel a slot, where the profile's
  ``reeds_mm`` puts them), one CD74HC4067 with its pull-up and capacitor, the bus in and
  out (two shrouded 2 x 10 headers: one ribbon with an IDC socket per board), a solder
  jumper per bus line to pick the board's signal line, and a 2-pin input for one bar slot
  on the spare channel.  Eight of them, the four of the top half turned round.
- ``adapter-pico``: the same board for the Pico path: the Pico plugs into two 1 x 20
  sockets where the Pi's header was (its fixed pins, `bgpi.hardware.picopins`), USB to the host.
- ``bar-slot``: one bar slot's two reeds and its 2-pin socket (eight of them).

Which channel each reed is on is the profile's ``[sensors.switches]``: a board takes the
three points whose switches all sit on one multiplexer, slot by slot on channels
0..14, and the bar slot on channel 15; `boards` refuses a profile wired otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping

from bgpi.board.locations import BARS, describe
from bgpi.board.profile import BUTTON_NAMES, CHANNELS, Profile
from bgpi.exc import BgpiError
from bgpi.hardware.header import PI_HEADER
from bgpi.hardware.pcb import Board, Hole, Label, Pad, Part
from bgpi.hardware.picopins import BUTTONS as PICO_BUTTONS
from bgpi.hardware.picopins import LED_DATA, PICO_HEADER, SELECT, SIGNAL

POINT_WIDTH = 44.0
GRID = 0.254
"""Parts sit on the router's grid, so that their pins do (bgpi.hardware.router)."""
POINTS_PER_BOARD = 3
REED_PITCH = 17.78
"""The holes of a formed 12.7 mm reed (Littelfuse MDSR-7): 0.7 in apart."""
REED = "Littelfuse MDSR-7-15-20 (12.7 mm glass, 15-20 AT)"
MUX = "Texas Instruments CD74HC4067M96 (SOIC-24)"
SHIFTER = "Nexperia 74AHCT125D,653 (SOIC-14)"
BOX_HEADER = "Wurth Elektronik 61202021621 (WR-BHD 2x10, shrouded, keyed)"
PI_SOCKET = "Samtec SSQ-120-03-T-D (2x20 socket, 2.54 mm, 8.5 mm high)"
R0805 = {"330": "Yageo RC0805FR-07330RL", "220": "Yageo RC0805FR-07220RL", "10k": "Yageo RC0805FR-0710KL"}
C0805 = "Samsung CL21B104KBCNNNC (100 nF 50 V X7R 0805)"
JST_XH = {2: "JST B2B-XH-A(LF)(SN)", 3: "JST B3B-XH-A(LF)(SN)", 6: "JST B6B-XH-A(LF)(SN)"}
JUMPER = "solder jumper, 2 pads (no part: bridge with solder)"

BUS: tuple[str, ...] = ("3V3", "GND", "S0", "S1", "S2", "S3", "GND", "SIG0", "GND", "SIG1", "SIG2", "GND",
                        "SIG3", "SIG4", "GND", "SIG5", "SIG6", "GND", "SIG7", "GND")
"""The sensor bus, pin by pin (pin 1 first): on the ribbon each signal line runs beside a ground."""


class BoardLayoutError(BgpiError, ValueError):
    """The profile's wiring does not fit the generated boards."""


# -- footprints ------------------------------------------------------------------------

def snap(value: float) -> float:
    """`value` on the grid, mm."""
    return round(round(value / GRID) * GRID, 3)


def _r0805(ref: str, value: str, x: float, y: float, mpn: str) -> Part:
    pads = (Pad("1", -0.95, 0, 1.0, 1.3, shape="roundrect"), Pad("2", 0.95, 0, 1.0, 1.3, shape="roundrect"))
    return Part(ref, value, "0805", mpn, snap(x), snap(y), pads, (2.0, 1.25))


def _soic(ref: str, value: str, x: float, y: float, pins: int, row: float, mpn: str, body: tuple[float, float],
          pad_length: float) -> Part:
    """A SOIC, pin 1 at the top left, pins down the left and back up the right."""
    half = pins // 2
    top = -(half - 1) * 1.27 / 2
    pads = [Pad(str(n + 1), -row, top + n * 1.27, pad_length, 0.6, shape="roundrect") for n in range(half)]
    pads += [Pad(str(pins - n), row, top + n * 1.27, pad_length, 0.6, shape="roundrect") for n in range(half)]
    return Part(ref, value, f"SOIC-{pins}", mpn, snap(x), snap(y), tuple(pads), body)


def _header(ref: str, value: str, x: float, y: float, columns: int, rows: int, mpn: str,
            body: tuple[float, float], first_row_odd: bool = True) -> Part:
    """A 2.54 mm pin header or socket centred on (x, y), `columns` along x, `rows` (1 or 2)
    along y; pins numbered column by column (1, 2 across the rows), pin 1 square."""
    pads = []
    left, top = -(columns - 1) * 1.27, -(rows - 1) * 1.27
    for column in range(columns):
        for row in range(rows):
            number = column * rows + row + 1 if first_row_odd else column * rows + (rows - row)
            pads.append(Pad(str(number), left + column * 2.54, top + row * 2.54, 1.7, 1.7, 1.0,
                            "rect" if number == 1 else "circle"))
    return Part(ref, value, f"PinHeader_{rows}x{columns}_P2.54mm", mpn, snap(x), snap(y), tuple(pads), body, smd=False)


def _jst_xh(ref: str, pins: int, x: float, y: float) -> Part:
    left = -(pins - 1) * 1.25
    pads = tuple(Pad(str(n + 1), left + n * 2.5, 0, 1.7, 2.0, 1.0, "rect" if n == 0 else "circle")
                 for n in range(pins))
    return Part(ref, f"JST XH {pins}-pin", f"JST_XH_B{pins}B-XH-A", JST_XH[pins], snap(x), snap(y), pads,
                (2.5 * pins + 2.4, 5.75), smd=False)


def _reed(ref: str, x: float, y: float) -> Part:
    """A reed lying along y, its leads bent down into holes `REED_PITCH` apart."""
    pads = (Pad("1", 0, -REED_PITCH / 2, 1.6, 1.6, 0.8), Pad("2", 0, REED_PITCH / 2, 1.6, 1.6, 0.8))
    return Part(ref, "reed 15-20 AT", "Reed_MDSR-7_formed_17.78mm", REED, snap(x), snap(y), pads, (1.8, 12.7),
                smd=False)


def _jumper(ref: str, x: float, y: float) -> Part:
    pads = (Pad("1", 0, -0.75, 1.2, 1.0, shape="rect"), Pad("2", 0, 0.75, 1.2, 1.0, shape="rect"))
    return Part(ref, "jumper (do not place)", "SolderJumper_2_Open", JUMPER, snap(x), snap(y), pads, (1.6, 2.8),
                placed=False)


# -- the adapter board -----------------------------------------------------------------

HAT = (65.0, 56.5)
HAT_HOLES = ((3.5, 3.5), (61.5, 3.5), (3.5, 52.5), (61.5, 52.5))
HEADER_CENTRE = (32.5, 3.5)
"""The Pi's 40-pin header on a HAT: centred between the top holes, its pin 1 at the left
of the inner row (odd pins the inner row; pins 2 and 4, 5 V, at the board's edge)."""


PICO_SOCKETS = "2 x Samtec SSQ-120-03-T-S (1x20 sockets, 2.54 mm) for a Raspberry Pi Pico (SC0915) with pins"


def adapter(profile: Profile, pico: bool = False) -> Board:
    """The adapter board on the Pi's header, or (`pico`) the same board carrying a Pico."""
    name = "adapter-pico" if pico else "adapter"
    host = "a Raspberry Pi Pico (plugged in, USB to the host)" if pico else "the Pi's header"
    board = Board(name, f"bgpi {name}: {host} to the sensor bus, the LED data and the buttons", *HAT, quantity=1)
    select: tuple[int, ...]
    signal: tuple[int, ...]
    button_pins: Mapping[str, int]
    if pico:
        # The Pico seen from above with its USB socket to the left: pins 1..20 along the
        # lower row from the USB end, 40..21 along the upper row.
        socket = board.add(Part("U2", "Raspberry Pi Pico (on two 1x20 sockets)", "RaspberryPi_Pico_Socketed",
                                PICO_SOCKETS, HEADER_CENTRE[0], 11.0,
                                tuple(Pad(str(pin), ((pin - 1) if pin <= 20 else (40 - pin)) * 2.54 - 24.13,
                                          8.89 if pin <= 20 else -8.89, 1.7, 1.7, 1.0,
                                          "rect" if pin == 1 else "circle") for pin in PICO_HEADER),
                                (51.0, 21.0), smd=False))
        names, prefix, supply = PICO_HEADER, "GP", "3V3(OUT)"
        select, signal, led, button_pins = SELECT, SIGNAL, LED_DATA, PICO_BUTTONS
    else:
        # The Pi's pins 1, 3, 5 ... run along the inner row, 2, 4, 6 ... along the edge.
        socket = board.add(Part("J1", "Raspberry Pi header (2x20 socket, under the board)", "PinSocket_2x20_P2.54mm",
                                PI_SOCKET, *HEADER_CENTRE,
                                tuple(Pad(str(pin), (pin - 1) // 2 * 2.54 - 24.13, 1.27 if pin % 2 else -1.27, 1.7,
                                          1.7, 1.0, "rect" if pin == 1 else "circle") for pin in PI_HEADER),
                                (51.0, 5.1), smd=False))
        names, prefix, supply = PI_HEADER, "GPIO", "3V3"
        select, signal = profile.sensors.select, profile.sensors.signal
        led, button_pins = profile.leds.pin, profile.buttons.pins
    for x, y in HAT_HOLES:
        board.holes.append(Hole(x, y, 2.75))
    gpio = {int(pin_name[len(prefix):]): pin for pin, pin_name in names.items()
            if pin_name.startswith(prefix) and pin_name[len(prefix):].isdigit()}

    def pi(gpio_pin: int) -> tuple[Part, str]:
        return socket, str(gpio[gpio_pin])

    board.connect("GND", *((socket, str(pin)) for pin, pin_name in names.items() if pin_name == "GND"))
    board.connect("3V3", *((socket, str(pin)) for pin, pin_name in names.items() if pin_name == supply))
    # The sensor bus.
    bus = board.add(_header("J2", "sensor bus (2x10 shrouded)", 21.0, 44.0, 10, 2, BOX_HEADER, (33.1, 8.9)))
    for bus_pin, net in enumerate(BUS, start=1):
        board.connect(net, (bus, str(bus_pin)))
    for line, gpio_pin in enumerate(select):
        board.connect(f"S{line}", pi(gpio_pin))
    for mux, gpio_pin in enumerate(signal[:8]):
        board.connect(f"SIG{mux}", pi(gpio_pin))
    # The level shifter: gate 1 from the LED pin to the first pixel; the others off.
    shifter = board.add(_soic("U1", "74AHCT125", 56.0, 28.0, 14, 2.7, SHIFTER, (3.9, 8.65), 1.55))
    led_out = board.add(_jst_xh("J3", 3, 57.0, 44.0))
    series = board.add(_r0805("R1", "330", 51.0, 38.5, R0805["330"]))
    decoupling = board.add(_r0805("C1", "100n", 56.0, 35.5, C0805))
    board.connect("LED_DATA_3V3", pi(led), (shifter, "2"))
    board.connect("LED_DATA_5V", (shifter, "3"), (series, "1"))
    board.connect("LED_DIN", (series, "2"), (led_out, "3"))
    board.connect("5V_LED", (led_out, "1"), (shifter, "14"), (shifter, "4"), (shifter, "10"), (shifter, "13"),
                  (decoupling, "2"))
    board.connect("GND", (led_out, "2"), (shifter, "7"), (shifter, "1"), (shifter, "5"), (shifter, "9"),
                  (shifter, "12"), (decoupling, "1"))
    # The buttons: GPIO - 220 Ohm - the button's wire, 100 nF to ground there.
    buttons = board.add(_jst_xh("J4", 6, 43.0, 52.0))
    first, step = (25.0, 4.0) if pico else (14.0, 5.0)
    for n, button in enumerate(BUTTON_NAMES):
        resistor = board.add(_r0805(f"R{n + 2}", "220", 39.5, first + n * step, R0805["220"]))
        capacitor = board.add(_r0805(f"C{n + 2}", "100n", 45.0, first + n * step, C0805))
        board.connect(f"BTN_{button}", pi(button_pins[button]), (resistor, "1"))
        board.connect(f"BTN_{button}_F", (resistor, "2"), (capacitor, "1"), (buttons, str(n + 1)))
        board.connect("GND", (capacitor, "2"))
    board.connect("GND", (buttons, "6"))
    if pico:
        board.labels.append(Label(5.5, 11.0, "USB", 1.0))
    board.labels += [Label(20.0, 30.0 if pico else 12.0, f"bgpi {name}", 1.5), Label(21.0, 50.3, "SENSOR BUS"),
                     Label(57.0, 48.5, "5V GND DIN", 0.9),
                     Label(43.0, 46.0, " ".join(name.replace("white.", "W").replace("black.", "B")
                                                for name in BUTTON_NAMES) + " GND", 0.7)]
    return board


# -- the sensor boards -----------------------------------------------------------------

def _board_points(profile: Profile) -> list[tuple[int, list[int], str]]:
    """(mux, its three points in the board's order, its bar slot) for each multiplexer,
    read from the profile; BoardLayoutError if the channels are not laid out that way."""
    sensors = profile.sensors
    boards = []
    for mux in range(len(sensors.signal)):
        switches = sensors.switches[mux * CHANNELS:(mux + 1) * CHANNELS]
        points: list[int] = []
        for channel, switch in enumerate(switches[:CHANNELS - 1]):
            slot = channel % profile.geometry.point_slots
            if switch is None or not isinstance(switch.location, int) or switch.slot != slot:
                raise BoardLayoutError(f"mux {mux} channel {channel}: the points board puts slot {slot} of a "
                                       f"point there, the profile has {switch or 'nothing'}")
            if slot == 0:
                points.append(switch.location)
        bar = switches[CHANNELS - 1]
        if bar is None or bar.location not in BARS:
            raise BoardLayoutError(f"mux {mux} channel 15: the points board takes a bar slot there")
        boards.append((mux, points, str(bar)))
    return boards


def points_board(profile: Profile) -> Board:
    geometry = profile.geometry
    if geometry.point_slots * POINTS_PER_BOARD != CHANNELS - 1:
        raise BoardLayoutError(f"a points board has {POINTS_PER_BOARD} points of 5 slots; the profile has "
                               f"{geometry.point_slots} slots a point")
    _board_points(profile)
    width, height = POINTS_PER_BOARD * POINT_WIDTH - 1.0, 242.0
    board = Board("points", "bgpi points board: three points' reeds and their multiplexer", width, height,
                  quantity=len(profile.sensors.signal))
    board.holes += [Hole(5.0, 5.0, 3.2), Hole(width - 5.0, 5.0, 3.2), Hole(5.0, 200.0, 3.2),
                    Hole(width - 5.0, 200.0, 3.2)]
    mux = board.add(_soic("U1", "CD74HC4067", width / 2, 224.0, 24, 4.65, MUX, (7.5, 15.4), 2.0))
    pull_up = board.add(_r0805("R1", "10k", width / 2 - 14.0, 214.0, R0805["10k"]))
    decoupling = board.add(_r0805("C1", "100n", width / 2 + 11.0, 214.0, C0805))
    bus_in = board.add(_header("J1", "bus in (2x10 shrouded)", 20.0, 236.0, 10, 2, BOX_HEADER, (33.1, 8.9)))
    bus_out = board.add(_header("J2", "bus out (2x10 shrouded)", width - 20.0, 236.0, 10, 2, BOX_HEADER,
                                (33.1, 8.9)))
    bar = board.add(_jst_xh("J3", 2, width / 2 + 16.0, 236.0))
    # Channels: slot s of the board's point p on I(5p + s); I0..I7 are pins 9..2, I8..I15 pins 23..16.
    channel_pin = {channel: str(9 - channel) if channel < 8 else str(31 - channel) for channel in range(CHANNELS)}
    reed_number = 1
    for position in range(POINTS_PER_BOARD):
        x = POINT_WIDTH / 2 - 0.5 + position * POINT_WIDTH
        board.labels.append(Label(x, 3.0, f"point {'ABC'[position]}", 1.5))
        for slot in range(geometry.point_slots):
            mark = geometry.mark(slot)
            net = f"CH{position * geometry.point_slots + slot}"
            board.labels.append(Label(x - 9.0, mark, f"{'ABC'[position]}{slot}", 1.0))
            for along, across in geometry.reeds_mm:
                reed = board.add(_reed(f"SW{reed_number}", x + across, mark + along))
                reed_number += 1
                # The lead nearer the mark carries the channel, the other goes to ground.
                near, far = ("2", "1") if along < 0 else ("1", "2")
                board.connect(net, (reed, near))
                board.connect("GND", (reed, far))
            board.connect(net, (mux, channel_pin[position * geometry.point_slots + slot]))
    board.connect("CH15", (mux, channel_pin[15]), (bar, "1"))
    board.connect("GND", (bar, "2"), (mux, "12"), (mux, "15"), (decoupling, "1"))
    board.connect("3V3", (mux, "24"), (decoupling, "2"), (pull_up, "1"))
    board.connect("COM", (mux, "1"), (pull_up, "2"))
    for select, mux_pin in (("S0", "10"), ("S1", "11"), ("S2", "14"), ("S3", "13")):
        board.connect(select, (mux, mux_pin))
    for bus_pin, net in enumerate(BUS, start=1):
        board.connect(net, (bus_in, str(bus_pin)), (bus_out, str(bus_pin)))
    for signal in range(8):
        jumper = board.add(_jumper(f"JP{signal + 1}", width / 2 - 30.0 + signal * 4.5 + (24.0 if signal >= 4 else 0.0),
                                   205.0))
        board.connect(f"SIG{signal}", (jumper, "1"))
        board.connect("COM", (jumper, "2"))
    board.labels += [Label(width / 2, 198.5, "close ONE jumper: JP1 for mux 0 ... JP8 for mux 7", 1.0),
                     Label(20.0, 228.3, "BUS IN"), Label(width - 20.0, 228.3, "BUS OUT"),
                     Label(bar.x, 240.3, "BAR SLOT", 1.0)]
    return board


def bar_slot_board(profile: Profile) -> Board:
    """One bar slot: its reeds around the mark, a 2-pin socket to a points board's J3."""
    geometry = profile.geometry
    alongs = [along for along, _ in geometry.reeds_mm]
    height = max(alongs) - min(alongs) + 2 * 12.0 + 8.0
    board = Board("bar-slot", "bgpi bar slot: one bar slot's reeds", 16.0, height,
                  quantity=2 * profile.geometry.bar_slots)
    mark = 12.0 - min(alongs)
    for number, (along, across) in enumerate(geometry.reeds_mm, start=1):
        reed = board.add(_reed(f"SW{number}", 8.0 + across, mark + along))
        near, far = ("2", "1") if along < 0 else ("1", "2")
        board.connect("CH", (reed, near))
        board.connect("GND", (reed, far))
    socket = board.add(_jst_xh("J1", 2, 6.75, height - 3.5))
    board.connect("CH", (socket, "1"))
    board.connect("GND", (socket, "2"))
    board.labels.append(Label(3.0, mark, "mark", 0.8))
    return board


def boards(profile: Profile) -> list[Board]:
    """The PCB designs of `profile`'s board."""
    return [adapter(profile), adapter(profile, pico=True), points_board(profile), bar_slot_board(profile)]


def board_map(profile: Profile) -> list[str]:
    """Which points and bar slot each points board senses: its jumper and where it goes."""
    lines = []
    for mux, points, bar in _board_points(profile):
        half = "top half (black's side), as drawn" if points[0] > 12 else "bottom half (white's side), turned round"
        names = ", ".join(f"{'ABC'[n]} = {describe(point)}" for n, point in enumerate(points))
        lines.append(f"mux {mux}: close JP{mux + 1}; {half}; {names}; J3 = {bar}")
    return lines
