"""The terminal draws a checker put down where the game has none in the colour of the
checker that was lifted: black's checker moved during white's turn stays black (`x`)."""

from __future__ import annotations

from bgpi.board.profile import Geometry
from bgpi.rules.position import Position, Side
from bgpi.shell.console import as_read
from bgpi.table.controller import Table
from bgpi.table.inputs import Press, Rolled, Sensed
from bgpi.table.tracker import Sensing


def test_a_black_checker_moved_in_whites_turn_is_drawn_black():
    sensing = Sensing(Geometry())
    table, _ = Table.new(sensing)
    start = Position.start()
    table.handle(Sensed(sensing.of(start)))
    table.handle(Press("white.turn"))
    table.handle(Rolled(3, 1))  # white starts
    counts = dict(zip(sensing.locations, sensing.of(start), strict=True))
    counts[12] -= 1  # one of black's five on point 12 ...
    counts[3] += 1  # ... put down on the empty point 3
    table.handle(Sensed(tuple(counts[location] for location in sensing.locations)))
    assert table.turn is Side.WHITE
    assert as_read(table).at(3) == (Side.BLACK, 1)
