"""The move generator's fast paths against the reference search, on many self-play
positions and on made-up home boards.

`result_keys` counts every kind of roll out directly (two dice, doubles,
entering from the bar, bearing off), each result once; the reference
(`bgpi.rules.reference`) tries every step in every order.  They must find
the same results.
"""

import random
from collections import Counter

from bgpi.rules import movegen
from bgpi.rules.play import Dice
from bgpi.rules.selfplay import corpus
from tests.rules.boards import reference_results


def assert_same_as_the_search(own, opponent, dice) -> None:
    keys = movegen.result_keys(own, opponent, dice)
    expected = reference_results(own, opponent, dice)
    assert len(set(keys)) == len(keys), (own, opponent, dice)
    assert set(movegen.legal_results(own, opponent, dice)) == expected, (own, opponent, dice)


def kind_of_roll(own, dice) -> str:
    doubles = "doubles" if dice.is_double else "two dice"
    if own[24]:
        return f"{doubles} from the bar"
    return f"{doubles}, bearing off" if sum(own[6:]) < (4 if dice.is_double else 2) else doubles


def test_the_fast_paths_find_what_the_full_search_finds():
    seen = Counter()
    for position, side, dice in corpus(20000, seed=3):
        own, opponent = position.checkers(side), position.checkers(side.opponent)
        assert_same_as_the_search(own, opponent, dice)
        seen[kind_of_roll(own, dice)] += 1
    # Each path met often enough to be trusted.
    assert min(seen.values()) >= 500, seen
    assert len(seen) == 6, seen


def test_bearing_off_with_two_dice_finds_what_the_full_search_finds():
    """Home boards of every shape, some with one checker still to come home,
    against blots and made points: the highest point below both dice, one, or
    neither, with one checker on it or more."""
    rng = random.Random(5)
    for _ in range(1500):
        own = [0] * 25
        for _ in range(rng.randint(1, 14)):
            own[rng.randrange(6)] += 1
        if rng.random() < 0.4:
            own[rng.randrange(6, 18)] += 1
        opponent = [0] * 25
        for point in range(1, 13):
            if not own[point - 1] and rng.random() < 0.3:
                opponent[24 - point] = min(rng.choice((1, 2, 3)), 15 - sum(opponent))
        opponent[0] += 15 - sum(opponent)
        for a in range(1, 7):
            for b in range(a + 1, 7):
                assert_same_as_the_search(tuple(own), tuple(opponent), Dice(a, b))



def _counts(points: dict[int, int]) -> tuple[int, ...]:
    """A side's 25 counts (its points 1..24, then its bar) from {point: checkers}."""
    return tuple(points.get(point, 0) for point in range(1, 26))


def test_one_die_when_no_play_of_two_dice_uses_both():
    """All home, one checker still to come home, or more, and no play uses
    both dice: the larger die if it can be played, else the smaller, else no step."""
    unit = movegen._UNIT  # unit[location]: one checker there, 0 off
    # The opponent's points are numbered from its side: its point 25 - p is the mover's point p.
    cases = [
        # The last checker bears off with the larger die (either would).
        (_counts({2: 1}), _counts({1: 15}), Dice(5, 3), {unit[0] - unit[2]}),
        # The 6 is blocked, and the 4 cannot be followed by the 6 (points 6 and 2 held).
        (_counts({12: 1, 1: 14}), _counts({19: 2, 23: 2, 1: 11}), Dice(6, 4), {unit[8] - unit[12]}),
        # All home, the 4 blocked from every point (points 2 and 1 held): the 3, two ways.
        (
            _counts({6: 1, 5: 1, 3: 13}), _counts({23: 2, 24: 2, 1: 11}), Dice(4, 3),
            {unit[3] - unit[6], unit[0] - unit[3]},
        ),
        # Nothing moves (points 7 and 6 held).
        (_counts({12: 1, 1: 14}), _counts({18: 2, 19: 2, 1: 11}), Dice(6, 5), {0}),
        # Two outside, points 8 and 2 held: the 6 only (13 to 7, and no 5 after it).
        (_counts({13: 2, 1: 13}), _counts({17: 2, 23: 2, 1: 11}), Dice(6, 5), {unit[7] - unit[13]}),
        # Two outside, points 7 and 2 held: the 6 cannot be played, so the 5 (13 to 8).
        (_counts({13: 2, 1: 13}), _counts({18: 2, 23: 2, 1: 11}), Dice(6, 5), {unit[8] - unit[13]}),
    ]
    for own, opponent, dice, expected in cases:
        assert_same_as_the_search(own, opponent, dice)
        assert set(movegen.result_keys(own, opponent, dice)) == expected, (own, dice)
