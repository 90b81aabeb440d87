"""Sides and positions: where every checker is.

A side counts the points from its own home board, as the players do (docs/rules.md §1):
its 1-point is deepest in its home, its 24-point is the opponent's 1-point.  A
`Position` keeps each side's checkers in that side's own count, the layout GNU
Backgammon uses, so the legal-play generator never has to flip numbers.

The physical board, files and logs use absolute numbering, which is white's count:
white's point n is absolute point n, black's point n is absolute point 25 - n.

>>> start = Position.start()
>>> start.at(24), start.at(1), start.pips(Side.WHITE)
((<Side.WHITE: 0>, 2), (<Side.BLACK: 1>, 2), 167)
>>> absolute_point(Side.BLACK, 6), start.checkers(Side.BLACK)[5]
(19, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from bgpi.exc import PositionError, SideError

CHECKERS = 15
POINTS = 24
HOME = 6  # the highest point of a side's home board, in its own count: 1..6
BAR = 25  # the bar in a side's own count: "point 25", entering moves down from it
OFF = 0  # borne off: "point 0"


class Side(IntEnum):
    """The two players.  White is GNU Backgammon's player 0, black its player 1."""

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Side:
        return Side(1 - self)

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Side:
        """The side named 'white' or 'black', in any case.

        :raises SideError: for any other name.
        """
        try:
            return cls[text.upper()]
        except KeyError:
            raise SideError(f"unknown side {text!r}: expected 'white' or 'black'") from None


def absolute_point(side: Side, point: int) -> int:
    """The absolute (white's-count) number of `side`'s own point 1..24."""
    return point if side is Side.WHITE else 25 - point


def own_point(side: Side, absolute: int) -> int:
    """`side`'s own number for absolute point 1..24 (its own inverse)."""
    return absolute_point(side, absolute)


Checkers = tuple[int, ...]
"""One side's checkers, 25 counts in its own count: [i] is point i + 1, [24] the bar."""


@dataclass(frozen=True, slots=True)
class Position:
    """Where all 30 checkers stand: on points, on the bar, or borne off.

    `white` and `black` are 25 counts each, in the side's own count (index i is
    point i + 1, index 24 the bar).  Borne-off checkers are not stored: they are
    the ones missing from 15.  A Position is a value: immutable and hashable.
    """

    white: Checkers
    black: Checkers

    @classmethod
    def start(cls) -> Position:
        """The starting position (docs/rules.md §2): 24×2, 13×5, 8×3, 6×5 for each side."""
        side = [0] * 25
        for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
            side[point - 1] = count
        return cls(tuple(side), tuple(side))

    @classmethod
    def of(cls, mover: Side, own: Checkers, opponent: Checkers) -> Position:
        """Build from the mover's and the opponent's checkers."""
        return cls(own, opponent) if mover is Side.WHITE else cls(opponent, own)

    @classmethod
    def from_absolute(
        cls,
        points: dict[int, tuple[Side, int]],
        bar: dict[Side, int] | None = None,
    ) -> Position:
        """Build from absolute points {1..24: (side, count)} and bar counts.

        :raises PositionError: if a point is off the board or a side would have more than 15 checkers.
        """
        sides = {Side.WHITE: [0] * 25, Side.BLACK: [0] * 25}
        for absolute, (side, count) in points.items():
            if not 1 <= absolute <= POINTS:
                raise PositionError(f"point {absolute} is not on the board (1..24)")
            sides[side][own_point(side, absolute) - 1] += count
        for side, count in (bar or {}).items():
            sides[side][24] += count
        position = cls(tuple(sides[Side.WHITE]), tuple(sides[Side.BLACK]))
        problems = position.problems()
        if problems:
            raise PositionError("; ".join(problems))
        return position

    def checkers(self, side: Side) -> Checkers:
        """`side`'s 25 counts in its own count."""
        return self.white if side is Side.WHITE else self.black

    def on_bar(self, side: Side) -> int:
        return self.checkers(side)[24]

    def borne_off(self, side: Side) -> int:
        return CHECKERS - sum(self.checkers(side))

    def pips(self, side: Side) -> int:
        """The pip count: how far `side` still has to move (the bar counts 25)."""
        return sum(count * (i + 1) for i, count in enumerate(self.checkers(side)))

    def contact(self) -> bool:
        """Whether a checker may still hit or block one of the other side's (False: a race).
        The sides' rearmost checkers, in their own counts, are apart by less than the board."""
        rearmost = [max((i + 1 for i, count in enumerate(self.checkers(side)) if count), default=0)
                    for side in Side]
        return sum(rearmost) > POINTS + 1

    def at(self, absolute: int) -> tuple[Side | None, int]:
        """Who holds absolute point 1..24 and with how many checkers."""
        white = self.white[absolute - 1]
        black = self.black[24 - absolute]
        if white:
            return Side.WHITE, white
        if black:
            return Side.BLACK, black
        return None, 0

    def all_home(self, side: Side) -> bool:
        """True when every checker of `side` not yet borne off is in its home board."""
        return not any(self.checkers(side)[HOME:])

    def problems(self) -> list[str]:
        """Why this position cannot occur in a game: [] when it can."""
        found = []
        for side in Side:
            own = self.checkers(side)
            if len(own) != 25:
                found.append(f"{side.label} has {len(own)} locations, expected 25")
                continue
            if any(count < 0 for count in own):
                found.append(f"{side.label} has a negative checker count")
            if sum(own) > CHECKERS:
                found.append(f"{side.label} has {sum(own)} checkers, more than {CHECKERS}")
        if not found:
            for absolute in range(1, POINTS + 1):
                if self.white[absolute - 1] and self.black[24 - absolute]:
                    found.append(f"point {absolute} holds both colours")
        return found

    def winner(self) -> Side | None:
        """The side that has borne off all 15 checkers, if any."""
        for side in Side:
            if not any(self.checkers(side)):
                return side
        return None
