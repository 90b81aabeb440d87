"""The move generator's fast paths against its full search, on many self-play positions.

`result_keys` counts the common cases out directly (two dice, doubles, entering
from the bar); `_search` tries every step in every order.  Both name each
result by the same key, so they must give the same keys.
"""

from collections import Counter

from bgpi.rules import movegen
from bgpi.rules.selfplay import corpus


def kind_of_roll(own, dice) -> str:
    doubles = "doubles" if dice.is_double else "two dice"
    if own[24]:
        return f"{doubles} from the bar"
    return f"{doubles}, bearing off" if sum(own[6:]) < (4 if dice.is_double else 2) else doubles


def test_the_fast_paths_find_what_the_full_search_finds():
    seen = Counter()
    for position, side, dice in corpus(20000, seed=3):
        own, opponent = position.checkers(side), position.checkers(side.opponent)
        keys = movegen.result_keys(own, opponent, dice)
        expected = set(movegen._search([0, *own], movegen._kinds(opponent), dice))
        assert len(set(keys)) == len(keys), (position, side, dice)
        assert set(keys) == expected, (position, side, dice)
        seen[kind_of_roll(own, dice)] += 1
    # Each path met often enough to be trusted.
    assert min(seen.values()) >= 500, seen
    assert len(seen) == 6, seen
