"""The terminal's words for a chouette: the status line's line, cubes and totals; the
computer's cube decision on a seat's cube."""

from __future__ import annotations

from bgpi.rules.position import Position, Side
from bgpi.shell.console import status
from bgpi.shell.words import tell
from bgpi.table import events as ev
from bgpi.table.inputs import Press, Rolled, Sensed
from bgpi.table.phases import CubeWord
from tests.table.chouettes import SENSING, Hands


def test_the_status_line_says_the_roll_off_then_the_line_the_cubes_and_the_totals():
    hands = Hands(0, {"chouette": {"players": ["Ann", "Bob", "Cat"]}})
    table = hands.table
    assert status(table) == "roll_off, the roll-off"
    hands.handle(Press("white.turn"))
    hands.handle(Rolled(6, 5))  # Ann 6, Bob 5
    hands.handle(Rolled(4, 1))  # Cat 4
    hands.feed(Sensed(SENSING.of(Position.start())))
    hands.handle(Press("white.turn"))
    hands.feed(Rolled(1, 3))  # the team (black) starts
    assert status(table).endswith("box Ann, captain Bob, cubes Bob 1, Cat 1, totals Ann 0, Bob 0, Cat 0")


def test_the_computers_cube_decision_names_the_seat():
    assert tell(ev.ComputerCube(Side.WHITE, CubeWord.DOUBLE, {}, "Ann")) == "The computer (white): double on Ann's cube"
    assert tell(ev.ComputerCube(Side.WHITE, CubeWord.TAKE, {})) == "The computer (white): take"
