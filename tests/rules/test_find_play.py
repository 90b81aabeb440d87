"""The legal play a notation names (`find_play`), or why there is none."""

import pytest

from bgpi.exc import PlayNotationError
from bgpi.rules.notation import find_play, format_play
from bgpi.rules.play import Dice
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.rules.selfplay import corpus
from tests.rules.boards import position

WHITE = Side.WHITE


@pytest.mark.parametrize(
    ("start", "dice", "notation", "play"),
    [
        (Position.start(), Dice(3, 1), "8/5 6/5", "8/5 6/5"),
        (Position.start(), Dice(3, 1), "6/5 8/5", "8/5 6/5"),  # in any order
        (Position.start(), Dice(3, 1), "24/21/20", "24/20"),  # one checker, written either way
        (Position.start(), Dice(3, 3), "8/5(2) 6/3(2)", "8/5(2) 6/3(2)"),
        (Position.start(), Dice(3, 3), "8/5 8/5 6/3 6/3", "8/5(2) 6/3(2)"),
        # A blot on the 7-point: 13/7*/5 hits it on the way; 13/5 goes over the open 11-point.
        (position({13: 1, 6: 14}, {18: 1, 1: 14}), Dice(6, 2), "13/7*/5", "13/7*/5"),
        (position({13: 1, 6: 14}, {18: 1, 1: 14}), Dice(6, 2), "13/5", "13/5"),
        # A hit may be left out where only one play moves those checkers (the 11-point is closed).
        (position({13: 1, 6: 14}, {18: 1, 14: 2, 1: 12}), Dice(6, 2), "13/5", "13/7*/5"),
        (position({6: 15}, {1: 14}, white_bar=0, black_bar=1), Dice(6, 5), "6/off 6/1", "6/1 6/off"),
        (position({5: 1, 1: 13}, {1: 14}, white_bar=1), Dice(3, 4), "bar/22 5/1", "bar/22 5/1"),
    ],
)
def test_finds_the_play_named(start, dice, notation, play):
    assert format_play(find_play(start, WHITE, dice, notation).steps) == play


@pytest.mark.parametrize(
    ("start", "dice", "notation", "message"),
    [
        (Position.start(), Dice(3, 1), "8/3", "'8/3' is not a legal play of 31 for white"),
        (Position.start(), Dice(3, 1), "", "'' is not a legal play of 31 for white"),
        (Position.start(), Dice(3, 1), "8/5", "'8/5' is not a legal play of 31 for white"),  # the 1 too
        (Position.start(), Dice(3, 1), "8/5*", "'8/5\\*' is not a legal play of 31 for white"),  # no blot
        (Position.start(), Dice(3, 1), "8-5", "move '8-5' is not source/destination"),
        (
            position({13: 1, 6: 14}, {18: 1, 14: 1, 1: 13}),
            Dice(6, 2),
            "13/5",
            "'13/5' names 2 legal plays of 62 for white: '13/7\\*/5' or '13/11\\*/5'",
        ),
    ],
)
def test_says_why_no_play_is_named(start, dice, notation, message):
    with pytest.raises(PlayNotationError, match=message):
        find_play(start, WHITE, dice, notation)


def test_a_roll_that_cannot_be_played_names_the_empty_play():
    blocked = position({6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3}, white_bar=1)  # a closed board
    assert find_play(blocked, WHITE, Dice(6, 5), "").steps == ()


def test_every_play_is_found_by_the_notation_gnubg_writes_for_it():
    for start, side, dice in corpus(1500, seed=5):
        plays = legal_plays(start, side, dice)
        for play in plays:
            assert find_play(start, side, dice, format_play(play.steps), among=plays) is play
