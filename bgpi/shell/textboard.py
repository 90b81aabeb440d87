"""The board drawn as text, in absolute numbering (white's home 1–6 at the bottom right).

White's checkers are `o`, black's `x`.  A stack taller than five shows its count
in the fifth row.  `marks` puts one character per location on the line between
the halves (the simulator shows LED roles there).
"""

from __future__ import annotations

from collections.abc import Mapping

from bgpi.rules.position import Position, Side

_SYMBOL = {Side.WHITE: "o", Side.BLACK: "x"}
_ROWS = 5
_TOP = list(range(13, 25))
_BOTTOM = list(range(12, 0, -1))


def _cell(position: Position, point: int, row: int) -> str:
    side, count = position.at(point)
    if side is None or count <= row:
        return " . " if row == 0 else "   "
    if row == _ROWS - 1 and count > _ROWS:
        return f"{count:^3}"
    return f" {_SYMBOL[side]} "


def _line(cells: list[str]) -> str:
    return "|" + "".join(cells[:6]) + "|" + "".join(cells[6:]) + "|"


def draw(position: Position, marks: Mapping[int | str, str] | None = None,
         game: Position | None = None) -> list[str]:
    """The lines of the drawing; `marks` maps a location (1..24, "bar:white", ...) to one
    character.  `game`: the game's position, when the board shows another (a checker in
    hand, a mismatch): the status lines count the game's pips, bar and borne-off checkers,
    and say how many checkers the board does not show."""
    marks = marks or {}
    lines = [" " + "".join(f"{p:^3}" for p in _TOP[:6]) + " " + "".join(f"{p:^3}" for p in _TOP[6:])]
    lines.append("+" + "-" * 18 + "+" + "-" * 18 + "+")
    for row in range(_ROWS):
        lines.append(_line([_cell(position, point, row) for point in _TOP]))
    bar = "  ".join(
        f"bar {side.label} {_SYMBOL[side]}{position.on_bar(side)}" for side in Side
    )
    mark_row = [f" {marks.get(point, ' ')} " for point in _TOP]
    lines.append(_line(mark_row) + f"  {bar}")
    mark_row = [f" {marks.get(point, ' ')} " for point in _BOTTOM]
    lines.append(_line(mark_row) + "  " + "  ".join(
        f"{location} {marks[location]}" for location in sorted(marks, key=str) if isinstance(location, str)
    ))
    for row in reversed(range(_ROWS)):
        lines.append(_line([_cell(position, point, row) for point in _BOTTOM]))
    lines.append("+" + "-" * 18 + "+" + "-" * 18 + "+")
    lines.append(" " + "".join(f"{p:^3}" for p in _BOTTOM[:6]) + " " + "".join(f"{p:^3}" for p in _BOTTOM[6:]))
    counted = game or position
    for side in Side:
        unseen = sum(counted.checkers(side)) - sum(position.checkers(side))
        away = f", {unseen} not on the board" if unseen > 0 else ""
        lines.append(
            f"{side.label} ({_SYMBOL[side]}): pips {counted.pips(side)}, "
            f"on the bar {counted.on_bar(side)}, borne off {counted.borne_off(side)}{away}"
        )
    return lines
