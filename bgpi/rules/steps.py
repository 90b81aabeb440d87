"""One step of one die: where a checker may land, and when it may bear off.

These are the two rules of a single step (docs/rules.md §4-§6), written once for every
coding of the legal plays: the reference search (`bgpi.rules.reference`) and the play
tree (`bgpi.rules.playtree`) ask both for each step; the counted-out results
(`bgpi.rules.movegen`) read the landing table for a whole board at once, and count the
bear-offs out from the same rule (a die bears off from below its number only from the
highest point), checked against the reference.

>>> LANDING[0] == OPEN, LANDING[1] == BLOT, LANDING[5] == CLOSED
(True, True, True)
>>> bears_off(3, 3, highest=5), bears_off(3, 5, highest=3), bears_off(3, 5, highest=4)
(True, True, False)
"""

from __future__ import annotations

from bgpi.rules.position import HOME

# What a checker landing on a point meets, by the opponent's checkers there (docs/rules.md §4, §5).
OPEN = 0  # none: the checker lands
BLOT = 1  # one: the checker lands and hits it, which goes to the bar
CLOSED = 2  # two or more: the point is closed to the checker

LANDING = bytes([OPEN, BLOT] + [CLOSED] * 254)
"""LANDING[count]: what a landing meets where the opponent has `count` checkers.
Bytes, so that `bytes.translate` reads a whole board's opponent in one call."""


def bears_off(source: int, die: int, highest: int) -> bool:
    """Whether a checker on `source` may bear off with `die` (docs/rules.md §6).

    `highest` is the highest point, in the mover's own count, that holds one of its
    checkers (25 while one is on the bar).  Bearing off needs every checker home;
    then a die bears off a checker from the point of its number, or, when no checker
    stands higher, from the highest point below that number.
    """
    return highest <= HOME and (source == die or source == highest < die)
