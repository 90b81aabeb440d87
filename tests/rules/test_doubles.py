"""Doubles counted out (`_doubles`, `_bear_off_doubles`, entering in `_from_bar`)
against the reference search, with every doubles roll on each self-play position.

The corpus rolls doubles one time in six; trying all six on every position
also reaches the rarer cases: one to three checkers still to come home before
bearing off, steps past the edge from the highest point, and too few steps left
after entering from the bar.
"""

import random
from collections import Counter

from bgpi.rules import movegen
from bgpi.rules.play import Dice
from bgpi.rules.selfplay import corpus
from tests.rules.boards import reference_results


def kind_of_position(own) -> str:
    if own[24]:
        return "from the bar"
    outside = sum(own[6:])
    if outside >= 4:
        return "no bearing off"
    return f"bearing off, {outside} to come home" if outside else "bearing off"


def test_every_doubles_roll_finds_what_the_full_search_finds():
    seen = Counter()
    for position, side, _ in corpus(2500, seed=11):
        own, opponent = position.checkers(side), position.checkers(side.opponent)
        for die in range(1, 7):
            dice = Dice(die, die)
            expected = reference_results(own, opponent, dice)
            keys = movegen.result_keys(own, opponent, dice)
            assert len(set(keys)) == len(keys), (position, side, dice)
            assert set(movegen.legal_results(own, opponent, dice)) == expected, (position, side, dice)
        seen[kind_of_position(own)] += 1
    # Each path met often enough to be trusted.
    assert min(seen.values()) >= 40, seen
    assert len(seen) == 6, seen


def test_checkers_coming_down_onto_points_where_one_or_two_of_their_own_wait():
    """Made-up lines of the die's steps, a few checkers a point, with blots and
    made points in the way, sometimes checkers on the bar (fewer steps left):
    the plays where more checkers leave a point than it held, some having come
    from the point above, are counted apart from each point's own (`_movers`'
    extras), and must complete what the reference search finds."""
    rng = random.Random(7)
    with_extras = 0
    for _ in range(3000):
        die = rng.randint(1, 6)
        own = [0] * 25
        for point in range(rng.randint(12, 24), 0, -die):
            if sum(own) < 13 and rng.random() < 0.6:
                own[point - 1] = rng.choice((1, 1, 2, 2, 3, 5))
        if rng.random() < 0.2:
            own[24] = rng.randint(1, 3)
        opponent = [0] * 25
        for point in range(1, 25):
            if not own[point - 1] and rng.random() < 0.3:
                opponent[24 - point] = rng.choice((1, 2))
        board = [0, *own]
        kind = movegen._kinds(tuple(opponent))
        with_extras += any(extras for _, _, extras in movegen._movers(board, kind, die, 4)[0])
        keys = movegen.result_keys(tuple(own), tuple(opponent), Dice(die, die))
        expected = reference_results(tuple(own), tuple(opponent), Dice(die, die))
        assert len(set(keys)) == len(keys), (own, opponent, die)
        assert set(movegen.legal_results(tuple(own), tuple(opponent), Dice(die, die))) == expected, (own, opponent, die)
    assert with_extras >= 500, with_extras


def test_bearing_off_with_every_checker_below_the_die():
    """Then each step bears off from the highest point left (docs/rules.md §6): one
    play, however many checkers (`_bear_off_doubles` counts it out alone)."""
    rng = random.Random(9)
    for _ in range(300):
        die = rng.randint(2, 6)
        own = [0] * 25
        for _ in range(rng.randint(1, 8)):
            own[rng.randrange(die - 1)] += 1
        opponent = [0] * 25
        for point in range(1, 13):
            if not own[point - 1] and rng.random() < 0.3:
                opponent[24 - point] = rng.choice((1, 2))
        keys = movegen.result_keys(tuple(own), tuple(opponent), Dice(die, die))
        expected = reference_results(tuple(own), tuple(opponent), Dice(die, die))
        assert len(keys) == 1, (own, die)
        assert set(movegen.legal_results(tuple(own), tuple(opponent), Dice(die, die))) == expected, (own, opponent, die)
