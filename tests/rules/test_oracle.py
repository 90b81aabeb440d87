"""The legal plays checked against GNU Backgammon's own move generator.

gnubg (PyPI `gnubg-nn`) is the oracle where docs/rules.md is silent.  For every
position and roll the sets of resulting positions must be equal: ours from the
reference search (`legal_plays`), from the fast path (`legal_results`) and, on a
sample, from the play tree.
"""

from __future__ import annotations

import random

import pytest

from bgpi.rules.movegen import legal_results
from bgpi.rules.play import Dice
from bgpi.rules.playtree import PlayTree
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.rules.selfplay import corpus
from tests.rules.strategies import scatter

gnubg = pytest.importorskip(
    "gnubg_nn",
    reason="GNU Backgammon's generator (PyPI gnubg-nn) has wheels only for CPython 3.11 on x86_64",
)

ROLLS = [Dice(a, b) for a in range(1, 7) for b in range(a, 7)]


def gnubg_results(own, opponent, dice: Dice) -> set[tuple]:
    """gnubg's resulting positions as (own, opponent) counts; no play leaves the position."""
    keys = gnubg.moves([list(opponent), list(own)], dice.first, dice.second)
    found = set()
    for key in keys:
        waiting, moved = gnubg.board_from_position_key(key)
        found.add((tuple(moved), tuple(waiting)))
    return found or {(own, opponent)}


def check(position: Position, side: Side, dice: Dice, tree: bool = False) -> None:
    own, opponent = position.checkers(side), position.checkers(side.opponent)
    expected = gnubg_results(own, opponent, dice)
    fast = set(legal_results(own, opponent, dice))
    assert fast == expected, (position, side, dice)
    full = {
        (play.position.checkers(side), play.position.checkers(side.opponent))
        for play in legal_plays(position, side, dice)
    }
    assert full == expected, (position, side, dice)
    if tree:
        complete = {
            (node.position.checkers(side), node.position.checkers(side.opponent))
            for node in PlayTree(position, side, dice).complete_plays()
        }
        assert complete == expected, (position, side, dice)


def test_six_thousand_self_play_positions():
    for index, (position, side, dice) in enumerate(corpus(6000, seed=2)):
        check(position, side, dice, tree=index % 10 == 0)


def closed_board(rng: random.Random, closed_points: int) -> Position:
    """White on the bar against a black home board with `closed_points` of six points made."""
    black = [0] * 25
    for point in rng.sample(range(1, 7), closed_points):
        black[point - 1] = 2
    spare = 15 - sum(black)
    black[rng.randint(6, 12)] += spare
    white = [0] * 25
    white[24] = rng.randint(1, 4)
    # The rest of white's checkers where black is not.
    for _ in range(15 - white[24]):
        point = rng.randint(1, 18)
        if not black[24 - point]:
            white[point - 1] += 1
    return Position(tuple(white), tuple(black))


@pytest.mark.parametrize("closed_points", [3, 4, 5, 6])
def test_entering_against_closed_and_nearly_closed_boards(closed_points):
    rng = random.Random(closed_points)
    for _ in range(25):
        position = closed_board(rng, closed_points)
        for dice in ROLLS:
            check(position, Side.WHITE, dice, tree=True)


def test_bear_offs_with_every_roll():
    rng = random.Random(7)
    for _ in range(120):
        position = scatter(rng, home_bias=1.0)
        for dice in ROLLS:
            check(position, Side.WHITE, dice, tree=True)


def test_sparse_positions_where_only_one_die_or_part_of_doubles_can_be_played():
    """A few white checkers facing many made points: one die only, the larger die, doubles in part."""
    rng = random.Random(11)
    seen = {"one die of two": 0, "part of doubles": 0}
    for _ in range(300):
        black = [0] * 25
        for point in rng.sample(range(1, 25), 7):
            black[point - 1] = 2
        white = [0] * 25
        while sum(white) < rng.randint(1, 3):
            point = rng.randint(1, 24)
            if not black[24 - point]:
                white[point - 1] += 1
        position = Position(tuple(white), tuple(black))
        for dice in ROLLS:
            check(position, Side.WHITE, dice)
            plays = legal_plays(position, Side.WHITE, dice)
            used = len(plays[0].steps)
            if not dice.is_double and used == 1:
                seen["one die of two"] += 1
            if dice.is_double and 0 < used < 4:
                seen["part of doubles"] += 1
    assert min(seen.values()) >= 100, seen
