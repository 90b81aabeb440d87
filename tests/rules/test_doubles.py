"""Doubles counted out (`_doubles`, `_bear_off_doubles`, entering in `_from_bar`)
against the full search, with every doubles roll on each self-play position.

The corpus rolls doubles one time in six; trying all six on every position
also reaches the rarer cases: one to three checkers still to come home before
bearing off, steps past the edge from the highest point, and too few steps left
after entering from the bar.
"""

from collections import Counter

from bgpi.rules import movegen
from bgpi.rules.play import Dice
from bgpi.rules.selfplay import corpus


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
            expected = set(movegen._search([0, *own], movegen._kinds(opponent), dice))
            keys = movegen.result_keys(own, opponent, dice)
            assert len(set(keys)) == len(keys), (position, side, dice)
            assert set(keys) == expected, (position, side, dice)
        seen[kind_of_position(own)] += 1
    # Each path met often enough to be trusted.
    assert min(seen.values()) >= 40, seen
    assert len(seen) == 6, seen
