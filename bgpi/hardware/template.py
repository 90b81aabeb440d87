"""The drilling and routing template: the board at 1:1 on A4 sheets, as a PDF.

Every sheet shows its part of the frame, the points, the checker marks (the rings to
transfer onto the playing surface: hardware/legend.md asks players to put checkers on
them), where each PCB lies with its mounting holes, and the holes for the LEDs and the
buttons.  Sheets overlap by 10 mm and carry registration crosses every 100 mm of the
board's own coordinates (the same cross on two sheets is the same point: lay one over
the other), their row and column, and a 100 mm bar to check that the printer printed at
100 % ("actual size", not "fit to page").  A small PDF writer of its own: lines, circles
and text in millimetres; the same profile gives the same bytes.
"""

from __future__ import annotations

import math

from bgpi.board.profile import Profile
from bgpi.hardware import layout
from bgpi.hardware.boards import bar_slot_board, points_board

A4 = (210.0, 297.0)
PRINTABLE = (190.0, 277.0)
"""The part of an A4 sheet a printer reaches (10 mm margins)."""
OVERLAP = 10.0
PT = 72 / 25.4
"""PDF points per millimetre."""

Shape = tuple[str, tuple[float, ...], str]
"""("line", (x1, y1, x2, y2), ""), ("circle", (x, y, r), ""), ("text", (x, y, size), text)."""


def board_shapes(profile: Profile) -> list[Shape]:
    """Everything on the template, in mm with (0, 0) at the frame's top-left corner."""
    ox, oy = layout.MARGIN_X, layout.Y_TOP - layout.FRAME
    shapes: list[Shape] = []

    def line(x1: float, y1: float, x2: float, y2: float) -> None:
        shapes.append(("line", (x1 - ox, y1 - oy, x2 - ox, y2 - oy), ""))

    def rect(x: float, y: float, w: float, h: float) -> None:
        for a, b in (((x, y), (x + w, y)), ((x + w, y), (x + w, y + h)), ((x + w, y + h), (x, y + h)),
                     ((x, y + h), (x, y))):
            line(*a, *b)

    def circle(x: float, y: float, r: float, cross: bool = False) -> None:
        shapes.append(("circle", (x - ox, y - oy, r), ""))
        if cross:
            line(x - 2, y, x + 2, y)
            line(x, y - 2, x, y + 2)

    def text(x: float, y: float, words: str, size: float = 3.0) -> None:
        shapes.append(("text", (x - ox, y - oy, size), words))

    rect(ox, oy, layout.BOARD_RIGHT - ox, layout.Y_BOTTOM + layout.FRAME - oy)
    for left in (layout.X_LEFT, layout.X_RIGHT):
        rect(left, layout.Y_TOP, 6 * layout.POINT_WIDTH, layout.Y_BOTTOM - layout.Y_TOP)
    rect(layout.X_TRAY, layout.Y_TOP, layout.TRAY, layout.Y_BOTTOM - layout.Y_TOP)
    geometry = profile.geometry
    for point in range(1, 25):
        left, top = layout.point_place(point)
        base = layout.Y_TOP if top else layout.Y_BOTTOM
        tip = base + (layout.POINT_LENGTH if top else -layout.POINT_LENGTH)
        line(left, base, left + layout.POINT_WIDTH / 2, tip)
        line(left + layout.POINT_WIDTH / 2, tip, left + layout.POINT_WIDTH, base)
        text(left + layout.POINT_WIDTH / 2 - 2, base + (8 if top else -4), str(point), 4.0)
        for slot in range(geometry.point_slots):
            x, y, _ = layout.seat(point, slot)
            circle(x, y, layout.CHECKER / 2, cross=True)
    for half in ("bar:white", "bar:black"):
        for slot in range(geometry.bar_slots):
            x, y, _ = layout.seat(half, slot)
            circle(x, y, layout.CHECKER / 2, cross=True)
    # The PCBs: points boards under each three points, bar-slot boards under each bar slot.
    points = points_board(profile)
    for first in (1, 4, 7, 10, 13, 16, 19, 22):
        lefts = [layout.point_place(point)[0] for point in range(first, first + 3)]
        top = layout.point_place(first)[1]
        x = min(lefts) + 0.5
        y = layout.Y_TOP if top else layout.Y_BOTTOM - points.height
        rect(x, y, points.width, points.height)
        text(x + 2, y + (points.height - 4 if top else 6), f"points board, points {first}-{first + 2}", 3.0)
        for hole in points.holes:
            hx = x + (hole.x if top else points.width - hole.x)
            hy = y + (hole.y if top else points.height - hole.y)
            circle(hx, hy, hole.drill / 2, cross=True)
    bar = bar_slot_board(profile)
    for half in ("bar:white", "bar:black"):
        for slot in range(geometry.bar_slots):
            x, y, _ = layout.seat(half, slot)
            rect(x - bar.width / 2, y - bar.height / 2, bar.width, bar.height)
    for places in layout.led_places().values():
        for x, y in places:
            circle(x, y, 2.5, cross=True)
    for name, (x, y) in layout.BUTTON_PLACES.items():
        if ox <= x <= layout.BOARD_RIGHT:
            circle(x, y, 8.0, cross=True)
            text(x + 9, y, f"{name} button, 16 mm hole", 3.0)
    return shapes


def template_pdf(profile: Profile) -> bytes:
    """The template, tiled over as many A4 sheets as it takes."""
    shapes = board_shapes(profile)
    width = layout.BOARD_RIGHT - layout.MARGIN_X
    height = layout.Y_BOTTOM + layout.FRAME - (layout.Y_TOP - layout.FRAME)
    step_x, step_y = PRINTABLE[0] - OVERLAP, PRINTABLE[1] - OVERLAP
    columns, rows = math.ceil((width - OVERLAP) / step_x), math.ceil((height - OVERLAP) / step_y)
    pages = []
    for row in range(rows):
        for column in range(columns):
            pages.append(_page(shapes, column * step_x, row * step_y, f"bgpi template: row {row + 1} of {rows}, "
                               f"column {column + 1} of {columns}; print at 100 %"))
    return _pdf(pages)


def _page(shapes: list[Shape], x0: float, y0: float, title: str) -> str:
    """One sheet's content stream: the board's window at (x0, y0), 1:1."""
    margin = (A4[0] - PRINTABLE[0]) / 2

    def at(x: float, y: float) -> tuple[float, float]:
        """Board mm to PDF points (PDF's y runs up)."""
        return (margin + x - x0) * PT, (A4[1] - margin - (y - y0)) * PT

    ops = ["q", f"{_n(margin * PT)} {_n(margin * PT)} {_n(PRINTABLE[0] * PT)} {_n(PRINTABLE[1] * PT)} re W n",
           "0.3 w"]
    for kind, values, words in shapes:
        if kind == "line":
            (ax, ay), (bx, by) = at(values[0], values[1]), at(values[2], values[3])
            ops.append(f"{_n(ax)} {_n(ay)} m {_n(bx)} {_n(by)} l S")
        elif kind == "circle":
            ops.append(_circle(*at(values[0], values[1]), values[2] * PT))
        else:
            x, y = at(values[0], values[1])
            ops.append(f"BT /F1 {_n(values[2] * PT)} Tf {_n(x)} {_n(y)} Td ({_escape(words)}) Tj ET")
    # Registration crosses every 100 mm of the board, in the window and its overlap.
    ops.append("0.6 w")
    for gx in range(0, 800, 100):
        for gy in range(0, 600, 100):
            if x0 - 1 <= gx <= x0 + PRINTABLE[0] + 1 and y0 - 1 <= gy <= y0 + PRINTABLE[1] + 1:
                cx, cy = at(gx, gy)
                ops.append(f"{_n(cx - 6 * PT)} {_n(cy)} m {_n(cx + 6 * PT)} {_n(cy)} l S "
                           f"{_n(cx)} {_n(cy - 6 * PT)} m {_n(cx)} {_n(cy + 6 * PT)} l S")
                ops.append(_circle(cx, cy, 3 * PT))
                ops.append(f"BT /F1 {_n(2.5 * PT)} Tf {_n(cx + 1 * PT)} {_n(cy + 1 * PT)} Td "
                           f"(+{gx},{gy}) Tj ET")
    ops.append("Q")
    # The title and the 100 mm bar sit in the margin, outside the board's window.
    bar_x, bar_y = margin * PT, (margin - 5) * PT
    ops += [f"BT /F1 {_n(3 * PT)} Tf {_n(margin * PT)} {_n((A4[1] - margin + 3) * PT)} Td ({_escape(title)}) Tj ET",
            "0.8 w", f"{_n(bar_x)} {_n(bar_y)} m {_n(bar_x + 100 * PT)} {_n(bar_y)} l S",
            *(f"{_n(bar_x + t * 10 * PT)} {_n(bar_y)} m {_n(bar_x + t * 10 * PT)} {_n(bar_y + 2 * PT)} l S"
              for t in range(11)),
            f"BT /F1 {_n(2.5 * PT)} Tf {_n(bar_x + 102 * PT)} {_n(bar_y)} Td (100 mm: measure it) Tj ET"]
    return "\n".join(ops)


def _circle(x: float, y: float, r: float) -> str:
    k = 0.5523 * r
    return (f"{_n(x + r)} {_n(y)} m {_n(x + r)} {_n(y + k)} {_n(x + k)} {_n(y + r)} {_n(x)} {_n(y + r)} c "
            f"{_n(x - k)} {_n(y + r)} {_n(x - r)} {_n(y + k)} {_n(x - r)} {_n(y)} c "
            f"{_n(x - r)} {_n(y - k)} {_n(x - k)} {_n(y - r)} {_n(x)} {_n(y - r)} c "
            f"{_n(x + k)} {_n(y - r)} {_n(x + r)} {_n(y - k)} {_n(x + r)} {_n(y)} c S")


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _pdf(pages: list[str]) -> bytes:
    """A PDF of `pages` (content streams) on A4, with Helvetica as /F1."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for content in pages:
        stream = content.encode("latin-1")
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{content}\nendstream")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_n(A4[0] * PT)} {_n(A4[1] * PT)}] "
                       f"/Resources << /Font << /F1 3 0 R >> >> /Contents {len(objects)} 0 R >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
