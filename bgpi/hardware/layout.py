"""The board seen from above, drawn from the profile: `bgpi diag layout` > hardware/layout.svg
(the buttons' pins on a Pico: ``--board serial:...`` > hardware/layout-pico.svg).

Where every checker mark and its reed switches go (the multiplexer and channel beside
them), where each LED sits and the order the chain runs through them, the buttons, the
dimensions, and a detail of one slot: the profile's reeds around the mark
(hardware/sensors.md).  Drawn in millimetres at 1:1 (the SVG's size is in mm, with a
100 mm scale bar to check a print by); the board's own page (bgpi/web) uses the same
arrangement: white's home (points 1-6) at the bottom right, seen from white's side,
white's bar half the upper one.
"""

from __future__ import annotations

from bgpi.board.locations import describe
from bgpi.board.pips import PIPS
from bgpi.board.profile import BUTTON_NAMES, CHANNELS, DICE, Geometry, Profile
from bgpi.hardware.header import HostPins
from bgpi.hardware.svg import Drawing

CHECKER = 40.0
"""A checker's diameter (the profile's pitch_mm is the marks' pitch)."""
POINT_WIDTH, FRAME, BAR, TRAY, POINT_LENGTH, GAP = 44.0, 16.0, 56.0, 56.0, 210.0, 70.0
REED_LENGTH, REED_WIDTH = 12.7, 1.8
"""The glass of the reed switch (Littelfuse MDSR-7)."""
PIP_PITCH = 14.0
"""Between a die's pips: 10 mm round LED carriers with 4 mm between them."""
MARGIN_X, MARGIN_TOP = 40.0, 90.0
DEFAULT_GEOMETRY = Geometry()

X_LEFT = MARGIN_X + FRAME
X_BAR = X_LEFT + 6 * POINT_WIDTH
X_RIGHT = X_BAR + BAR
X_TRAY = X_RIGHT + 6 * POINT_WIDTH + FRAME
Y_TOP = MARGIN_TOP + FRAME
Y_MID = Y_TOP + POINT_LENGTH + GAP / 2
Y_BOTTOM = Y_TOP + 2 * POINT_LENGTH + GAP
BOARD_RIGHT = X_TRAY + TRAY + FRAME

STYLE = """
text { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 7px; fill: #111; }
.title { font-size: 13px; font-weight: bold; }
.heading { font-size: 9px; font-weight: bold; }
.note { font-size: 6.5px; fill: #333; }
.tiny { font-size: 4.2px; fill: #1a4f8a; }
.ledno { font-size: 4.2px; fill: #6a1b9a; font-weight: bold; }
.big { font-size: 9px; font-weight: bold; fill: #b03a2e; }
.frame { fill: #8d6e63; stroke: #3e2723; stroke-width: 1; }
.felt { fill: #e8efe4; stroke: #3e2723; stroke-width: 0.6; }
.bar { fill: #a1887f; stroke: #3e2723; stroke-width: 0.6; }
.half { fill: none; stroke: #3e2723; stroke-width: 0.4; stroke-dasharray: 2 2; }
.light { fill: #f5e6c8; stroke: #7a6a50; stroke-width: 0.4; }
.dark { fill: #d7b98e; stroke: #7a6a50; stroke-width: 0.4; }
.seat { fill: none; stroke: #999; stroke-width: 0.4; stroke-dasharray: 1.5 1.5; }
.reed { fill: #cfe3f7; stroke: #1a4f8a; stroke-width: 0.5; }
.led { fill: #e1bee7; stroke: #6a1b9a; stroke-width: 0.6; }
.route { fill: none; stroke: #6a1b9a; stroke-width: 0.7; stroke-dasharray: 3 1.5; }
.button { fill: #f1c40f; stroke: #111; stroke-width: 0.8; }
.mark { fill: none; stroke: #b03a2e; stroke-width: 0.9; }
.dim { fill: none; stroke: #111; stroke-width: 0.4; }
.checker { fill: #fafafa; stroke: #333; stroke-width: 0.8; }
.magnet { fill: #9e9e9e; stroke: #333; stroke-width: 0.5; }
.surface { fill: #d7b98e; stroke: #7a6a50; stroke-width: 0.5; }
.base { fill: #bcaaa4; stroke: #5d4037; stroke-width: 0.5; }
.pcbside { fill: #2e7d32; stroke: #1b5e20; stroke-width: 0.5; }
.markdot { fill: #b03a2e; }
.scale { fill: none; stroke: #111; stroke-width: 0.6; }
"""


def point_place(point: int) -> tuple[float, bool]:
    """The left edge of `point`'s column and whether it hangs from the top edge."""
    if point <= 6:
        return X_RIGHT + (6 - point) * POINT_WIDTH, False
    if point <= 12:
        return X_LEFT + (12 - point) * POINT_WIDTH, False
    if point <= 18:
        return X_LEFT + (point - 13) * POINT_WIDTH, True
    return X_RIGHT + (point - 19) * POINT_WIDTH, True


def seat(location: object, slot: int, geometry: Geometry = DEFAULT_GEOMETRY) -> tuple[float, float, int]:
    """The mark of `slot` of `location` (a point or a bar half): where a checker's centre
    rests, and the direction towards the middle of the board (+1 down, -1 up)."""
    if isinstance(location, int):
        left, top = point_place(location)
        x = left + POINT_WIDTH / 2
    else:
        x, top = X_BAR + BAR / 2, location == "bar:white"
    edge_offset = geometry.mark(slot)
    return (x, Y_TOP + edge_offset, 1) if top else (x, Y_BOTTOM - edge_offset, -1)


def led_places() -> dict[str, list[tuple[float, float]]]:
    """Where each LED target of the chain sits, its LEDs in the profile's order."""
    places: dict[str, list[tuple[float, float]]] = {}
    for point in range(1, 25):
        left, top = point_place(point)
        places[str(point)] = [(left + POINT_WIDTH / 2, Y_TOP - FRAME / 2 if top else Y_BOTTOM + FRAME / 2)]
    places["bar:white"] = [(X_BAR + BAR / 2, Y_TOP + POINT_LENGTH + 8)]
    places["bar:black"] = [(X_BAR + BAR / 2, Y_BOTTOM - POINT_LENGTH - 8)]
    places["off:white"] = [(X_TRAY + TRAY / 2, Y_BOTTOM - POINT_LENGTH - 7)]
    places["off:black"] = [(X_TRAY + TRAY / 2, Y_TOP + POINT_LENGTH + 7)]
    for number, die in enumerate(DICE):
        centre = X_RIGHT + 3 * POINT_WIDTH + (34 if number else -34)
        spots = ((-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1))
        places[die] = [(centre + dx * PIP_PITCH, Y_MID + dy * PIP_PITCH) for dx, dy in spots[:PIPS]]
    # Each turn light between its player's two buttons (legend.md).
    places["turn:white"] = [(X_RIGHT + 3 * POINT_WIDTH, Y_BOTTOM + FRAME + 22)]
    places["turn:black"] = [(X_LEFT + 3 * POINT_WIDTH, Y_TOP - FRAME - 22)]
    return places


BUTTON_PLACES = {
    "white.turn": (X_RIGHT + 2 * POINT_WIDTH, Y_BOTTOM + FRAME + 22),
    "white.cube": (X_RIGHT + 4 * POINT_WIDTH, Y_BOTTOM + FRAME + 22),
    "black.turn": (X_LEFT + 4 * POINT_WIDTH, Y_TOP - FRAME - 22),
    "black.cube": (X_LEFT + 2 * POINT_WIDTH, Y_TOP - FRAME - 22),
    "hint": (BOARD_RIGHT + 22, Y_MID),
}
"""Where the buttons go: each side's at its own edge, hint at the trays' end (a suggestion:
any place works, the profile says only which pin each is on)."""


DETAIL_Y = Y_BOTTOM + FRAME + 110
"""Where the detail of one slot starts, under the dimensions."""


def layout_svg(profile: Profile, host: HostPins) -> str:
    """The top view of `profile`'s board, its buttons' pins on `host`, as SVG text."""
    drawing = Drawing(BOARD_RIGHT + 125, DETAIL_Y + 190, STYLE, unit="mm")
    drawing.text(MARGIN_X, 24, f"bgpi board layout, seen from above: {profile.source}", "title")
    drawing.text(MARGIN_X, 36, "Generated from the board profile by `bgpi diag layout`. Millimetres, 1:1 (check a "
                               "print with the 100 mm bar). Rings: checker marks; blue: reed switches, labelled "
                               "mux.channel; purple: LED and its index, dashed: the chain's data route.", "note")
    drawing.text(MARGIN_X, 46, "White sits at the bottom edge; black at the top. The order of the reeds' channels and "
                               "the LEDs is the profile's (hardware/wiring.txt); hardware/template.pdf is this at 1:1 "
                               "on A4 sheets.", "note")
    _board(drawing)
    _switches(drawing, profile)
    _leds(drawing, profile)
    _buttons(drawing, host)
    _marks(drawing, profile)
    _dimensions(drawing, profile)
    _detail(drawing, profile, MARGIN_X, DETAIL_Y)
    return drawing.svg()


def _dimension(drawing: Drawing, start: tuple[float, float], end: tuple[float, float], label: str) -> None:
    """A dimension line from `start` to `end` (level or upright) with end ticks and its length."""
    (x1, y1), (x2, y2) = start, end
    drawing.line(x1, y1, x2, y2, "dim")
    level = y1 == y2
    for x, y in (start, end):
        drawing.line(x, y - 3, x, y + 3, "dim") if level else drawing.line(x - 3, y, x + 3, y, "dim")
    if level:
        drawing.text((x1 + x2) / 2, y1 - 2, label, "note", "middle")
    else:
        drawing.text(x1 + 3, (y1 + y2) / 2 + 2, label, "note")


def _dimensions(drawing: Drawing, profile: Profile) -> None:
    """The frame, the points, the bar, the trays, the marks, and a 100 mm scale bar."""
    below = Y_BOTTOM + FRAME + 44
    _dimension(drawing, (MARGIN_X, below + 14), (BOARD_RIGHT, below + 14),
               f"frame {BOARD_RIGHT - MARGIN_X:g} mm (the frame itself {FRAME:g} mm wide)")
    _dimension(drawing, (X_LEFT, below), (X_BAR, below), f"6 points x {POINT_WIDTH:g} = {6 * POINT_WIDTH:g} mm")
    _dimension(drawing, (X_BAR, below), (X_RIGHT, below), f"bar {BAR:g}")
    _dimension(drawing, (X_RIGHT, below), (X_TRAY - FRAME, below), f"6 points x {POINT_WIDTH:g} mm")
    _dimension(drawing, (X_TRAY, below), (X_TRAY + TRAY, below), f"tray {TRAY:g}")
    right = BOARD_RIGHT + 86
    _dimension(drawing, (right + 14, Y_TOP - FRAME), (right + 14, Y_BOTTOM + FRAME),
               f"{Y_BOTTOM - Y_TOP + 2 * FRAME:g}")
    _dimension(drawing, (right - 14, Y_TOP), (right - 14, Y_TOP + POINT_LENGTH), f"point {POINT_LENGTH:g}")
    _dimension(drawing, (right - 14, Y_TOP + POINT_LENGTH), (right - 14, Y_BOTTOM - POINT_LENGTH), f"{GAP:g}")
    # The marks of point 1, in the frame beside it.
    geometry = profile.geometry
    x = X_TRAY - FRAME / 2
    _dimension(drawing, (x, Y_BOTTOM), (x, Y_BOTTOM - geometry.mark(0)), f"{geometry.mark(0):g}")
    _dimension(drawing, (x, Y_BOTTOM - geometry.mark(0)), (x, Y_BOTTOM - geometry.mark(1)), f"{geometry.pitch_mm:g}")
    # The scale bar: 100 mm in 10 mm steps.
    bar_x, bar_y = X_RIGHT + 110, 62.0
    drawing.line(bar_x, bar_y, bar_x + 100, bar_y, "scale")
    for tick in range(11):
        drawing.line(bar_x + tick * 10, bar_y, bar_x + tick * 10, bar_y - (4 if tick % 5 == 0 else 2), "scale")
    drawing.text(bar_x, bar_y + 7, "0", "note", "middle")
    drawing.text(bar_x + 100, bar_y + 7, "100 mm: measure it on a print", "note")


def _board(drawing: Drawing) -> None:
    drawing.rect(MARGIN_X, Y_TOP - FRAME, BOARD_RIGHT - MARGIN_X, Y_BOTTOM - Y_TOP + 2 * FRAME, "frame", radius=6)
    for left in (X_LEFT, X_RIGHT):
        drawing.rect(left, Y_TOP, 6 * POINT_WIDTH, Y_BOTTOM - Y_TOP, "felt")
    drawing.rect(X_BAR, Y_TOP, BAR, Y_BOTTOM - Y_TOP, "bar")
    drawing.line(X_BAR, Y_MID, X_BAR + BAR, Y_MID, "half")
    for tray_y in (Y_TOP, Y_BOTTOM - POINT_LENGTH):
        drawing.rect(X_TRAY, tray_y, TRAY, POINT_LENGTH, "felt")
    for point in range(1, 25):
        left, top = point_place(point)
        base = Y_TOP if top else Y_BOTTOM
        tip = base + (POINT_LENGTH - 6 if top else 6 - POINT_LENGTH)
        drawing.path([(left, base), (left + POINT_WIDTH, base), (left + POINT_WIDTH / 2, tip)],
                     "dark" if point % 2 == 0 else "light", closed=True)
        label_y = Y_TOP - FRAME - 4 if top else Y_BOTTOM + FRAME + 9
        drawing.text(left + POINT_WIDTH / 2, label_y, str(point), "heading", "middle")
    drawing.text(X_TRAY + TRAY / 2, Y_TOP + POINT_LENGTH / 2, "off:black", "note", "middle")
    drawing.text(X_TRAY + TRAY / 2, Y_BOTTOM - POINT_LENGTH / 2, "off:white", "note", "middle")


def _switches(drawing: Drawing, profile: Profile) -> None:
    """Each slot's mark (a ring: where a checker rests) and its reeds, labelled mux.channel."""
    sensors, geometry = profile.sensors, profile.geometry
    for index, switch in enumerate(sensors.switches):
        if switch is None or not (isinstance(switch.location, int) or str(switch.location).startswith("bar")):
            continue
        x, y, inward = seat(switch.location, switch.slot, geometry)
        drawing.circle(x, y, CHECKER / 2 - 1, "seat")
        drawing.circle(x, y, 1.2, "markdot")
        for along, across in geometry.reeds_mm:
            _reed(drawing, x + across, y + inward * along, 1.0)
        drawing.text(x + 4, y + 1.5, f"{index // CHANNELS}.{index % CHANNELS}", "tiny")


def _reed(drawing: Drawing, x: float, y: float, zoom: float) -> None:
    """A reed's glass lying along the point, centred on (x, y)."""
    drawing.rect(x - REED_WIDTH * zoom / 2, y - REED_LENGTH * zoom / 2, REED_WIDTH * zoom, REED_LENGTH * zoom, "reed",
                 radius=0.5 * zoom)


def _leds(drawing: Drawing, profile: Profile) -> None:
    leds = profile.leds
    places = led_places()
    spots: dict[int, tuple[float, float]] = {}
    for target, indices in leds.targets.items():
        for index, spot in zip(indices, places[target], strict=False):
            spots[index] = spot
    order = [spots[index] for index in sorted(spots)]
    first = order[0]
    drawing.path([(first[0] + 30, first[1] + 18), (first[0] + 6, first[1] + 3)], "route")
    drawing.text(first[0] + 31, first[1] + 22, "DIN from the 74AHCT125 (330 Ohm)", "note")
    drawing.path(route(order), "route")
    for index, (x, y) in sorted(spots.items()):
        drawing.circle(x, y, 3.6, "led")
        drawing.text(x, y + 1.5, str(index), "ledno", "middle")


EDGE_ROWS = (Y_TOP - FRAME / 2, Y_BOTTOM + FRAME / 2)
"""The LED rows in the frame along the top and bottom edges."""


def route(spots: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The chain's wire through `spots` in order: along the frame or the middle, then
    across; from one edge row to the other it runs down the nearest side of the frame."""
    path = spots[:1]
    for (x1, y1), (x2, y2) in zip(spots, spots[1:], strict=False):
        if y1 in EDGE_ROWS and y2 in EDGE_ROWS and y1 != y2:
            side = MARGIN_X + FRAME / 2 if x1 < X_BAR else X_TRAY - FRAME / 2
            path += [(side, y1), (side, y2)]
        else:
            path.append((x2, y1))
        path.append((x2, y2))
    return path


def _buttons(drawing: Drawing, host: HostPins) -> None:
    pins = host.buttons
    for name in BUTTON_NAMES:
        x, y = BUTTON_PLACES[name]
        drawing.circle(x, y, 6, "button")
        drawing.text(x + 9, y - 1, name, "note")
        drawing.text(x + 9, y + 7, host.where(pins[name]), "note")


def _marks(drawing: Drawing, profile: Profile) -> None:
    """Point 1, its slot 0 and the bar halves, called out."""
    x, y, _ = seat(1, 0, profile.geometry)
    drawing.circle(x, y, CHECKER / 2 + 1, "mark")
    drawing.path([(x + 22, y + 4), (BOARD_RIGHT + 4, Y_BOTTOM + FRAME + 24)], "mark")
    drawing.text(BOARD_RIGHT + 6, Y_BOTTOM + FRAME + 30, f"{describe(1)}, slot 0:", "big")
    drawing.text(BOARD_RIGHT + 6, Y_BOTTOM + FRAME + 40, "the outer edge", "note")
    for half, label_y in (("bar:white", Y_TOP + POINT_LENGTH - 18), ("bar:black", Y_BOTTOM - POINT_LENGTH + 24)):
        drawing.text(X_BAR + BAR / 2, label_y, half, "big", "middle")
    drawing.text(X_BAR + BAR / 2, Y_TOP + 6.5, "slot 0", "note", "middle")
    drawing.text(X_BAR + BAR / 2, Y_BOTTOM - 2.5, "slot 0", "note", "middle")
    geometry = profile.geometry
    drawing.text(MARGIN_X, Y_BOTTOM + FRAME + 34, f"{geometry.point_slots} marks a point, {geometry.bar_slots} a bar "
                                                   f"half, slot 0 at the outer edge, {geometry.pitch_mm:g} mm apart; "
                                                   "mark them on the playing surface (template.pdf).", "note")


def _detail(drawing: Drawing, profile: Profile, x: float, y: float) -> None:
    """One slot, magnified: the reeds around the mark (top view) and the stack (side view)."""
    zoom = 2.5
    reeds = profile.geometry.reeds_mm
    offsets = ", ".join(f"{along:+g} along, {across:+g} across" for along, across in reeds)
    drawing.text(x, y, f"One slot, 2.5 x: {len(reeds)} reeds along the point around the mark ({offsets} mm),",
                 "heading")
    drawing.text(x, y + 11, "in parallel on the slot's channel: each covers the other's dead zone, so the slot reads "
                            "closed while a checker rests within about 18 mm of the mark.", "heading")
    cx, cy = x + 70, y + 80
    drawing.circle(cx, cy, CHECKER / 2 * zoom, "seat")
    drawing.circle(cx, cy, 3 * zoom, "magnet")
    drawing.line(cx - 8, cy, cx + 8, cy, "dim")
    drawing.line(cx, cy - 8, cx, cy + 8, "dim")
    for along, across in reeds:
        _reed(drawing, cx + across * zoom, cy + along * zoom, zoom)
        drawing.line(cx + 30, cy + along * zoom, cx + 60, cy + along * zoom, "dim")
        drawing.text(cx + 62, cy + along * zoom + 2, f"{along:+g} mm", "note")
    drawing.text(cx - 52, cy - 44, f"checker, {CHECKER:g} mm; the mark", "note")
    drawing.text(cx + 14, cy - 12, "magnet 6 x 2 mm", "note")
    drawing.text(cx - 20, cy + CHECKER / 2 * zoom + 8, "towards the middle of the board: +", "note")
    # The stack, side view, 2.5 x as well.
    sx, base = x + 250, y + 110
    surface, pcb = 3.0 * zoom, 1.6 * zoom
    drawing.text(sx, y + 34, "Side view:", "heading")
    drawing.rect(sx, base - surface, 260, surface, "surface")
    drawing.rect(sx, base + REED_WIDTH * zoom, 260, pcb, "pcbside")
    drawing.rect(sx, base + REED_WIDTH * zoom + pcb, 260, 18, "base")
    drawing.rect(sx + 100, base, REED_LENGTH * zoom, REED_WIDTH * zoom, "reed", radius=2)
    checker_left = sx + 100 + REED_LENGTH * zoom / 2 - CHECKER / 2 * zoom
    thick = 8 * zoom
    drawing.rect(checker_left, base - surface - thick, CHECKER * zoom, thick, "checker", radius=3)
    centre = checker_left + CHECKER / 2 * zoom
    drawing.rect(centre - 3 * zoom, base - surface - 2 * zoom, 6 * zoom, 2 * zoom, "magnet")
    drawing.text(checker_left + 4, base - surface - thick - 4, "checker (the same pole of its magnet down)", "note")
    drawing.text(sx + 264, base - 1, "playing surface, 3 mm", "note")
    drawing.text(sx + 264, base + 6, "reed on the points board, touching it", "note")
    drawing.text(sx + 264, base + 14, "points board (1.6 mm) on the base", "note")
    notes = ["magnet in a recess in the checker's underside, flush: 6.2 mm across, 2.0-2.2 mm deep, glued;",
             "every magnet the same pole down. The reeds' axis 4 mm under the magnet. Build one point",
             "first and map it with `bgpi diag sensors` (hardware/sensors.md)."]
    drawing.lines(sx, base + 40, notes, 10, "note")
