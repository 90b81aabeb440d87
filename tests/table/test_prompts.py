"""What the board asks: the prompt of the table in a few situations the scenarios do not
pin down (the order of the dice when only one can be played)."""

from __future__ import annotations

import pytest

from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.rules.position import Side
from bgpi.shell.hands import TableHands
from bgpi.shell.runner import TableRunner
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing

ONE_CHECKER = "/x8AAwD/PwAAAg"  # white's only movable checker plays the 5 or the 2, not both


def rolled(position_id: str, dice: tuple[int, int]) -> Table:
    profile = load_profile()
    table, _ = Table.new(Sensing(profile.geometry), None, position_id, Side.WHITE)
    board = TableRunner(table, open_sim_board(profile), seed=0)
    hands = TableHands(board)
    hands.set_position(table.position)
    board.advance(0.1)
    board.dice.add(*dice)
    board.press("white.turn")
    board.advance(0.1)
    return table


@pytest.mark.parametrize("dice", [(2, 5), (5, 2)])
def test_the_die_that_cannot_be_played_is_shown_second_and_red(dice):
    table = rolled(ONE_CHECKER, dice)
    assert table.lighting().dice == (5, 2)  # the larger die must be played: the 2 is dead
    assert table.prompt().dead_dice == 1 and table.prompt().asks == "move"
