"""Dice, steps and plays: the nouns of one turn.

A *step* moves one checker by one die.  A *play* is the steps of one turn, in the
mover's own count (docs/rules.md §1): the bar is point 25, borne off is point 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from bgpi.exc import DiceError
from bgpi.rules.ids import position_id
from bgpi.rules.position import BAR, OFF, Position, Side


@dataclass(frozen=True, slots=True)
class Dice:
    """A roll of two dice.  Doubles give four steps of that number (docs/rules.md §4).

    >>> Dice(3, 1).steps, Dice(5, 5).steps, str(Dice(6, 4))
    ((3, 1), (5, 5, 5, 5), '64')

    :raises DiceError: for a die that does not show 1 to 6.
    """

    first: int
    second: int

    def __post_init__(self) -> None:
        for die in (self.first, self.second):
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise DiceError(f"a die shows 1 to 6, not {die!r}")

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    @property
    def steps(self) -> tuple[int, ...]:
        """The dice to play: two numbers, or four for doubles."""
        return (self.first,) * 4 if self.is_double else (self.first, self.second)

    def __iter__(self) -> Iterator[int]:
        return iter((self.first, self.second))

    def __str__(self) -> str:
        return f"{max(self.first, self.second)}{min(self.first, self.second)}"  # as players write a roll: 61


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die, in the mover's own count.

    `source` is 1..24 or BAR (25); `destination` is 1..24 or OFF (0).  When
    bearing off from below the die's number, `source - destination` is less
    than `die`.  `hit` is True when the step lands on an opposing blot.
    """

    source: int
    destination: int
    die: int
    hit: bool = False

    @property
    def enters(self) -> bool:
        return self.source == BAR

    @property
    def bears_off(self) -> bool:
        return self.destination == OFF


@dataclass(frozen=True, slots=True)
class Play:
    """The steps of one turn and the position they lead to.

    Two plays are the same play when they lead to the same position
    (the steps are one way of getting there).
    """

    side: Side
    steps: tuple[Step, ...]
    position: Position

    @property
    def dice_used(self) -> tuple[int, ...]:
        return tuple(step.die for step in self.steps)

    @property
    def position_id(self) -> str:
        """gnubg's Position ID of the position after the play, the opponent on roll."""
        return position_id(self.position, self.side.opponent)
