"""How a game ends and what it is worth (docs/rules.md §7, §8).

A game ends when a player has borne off all 15 checkers, when a double is
dropped, or when a resignation is accepted.  Its worth is the kind of win (single, gammon, backgammon) times the
cube value, with two exceptions: a dropped double scores the cube value before
the double and never a gammon, and under the Jacoby rule (money play) a gammon
or backgammon counts as a single game unless the cube was turned.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bgpi.exc import ResultError
from bgpi.rules.position import CHECKERS, Position, Side

# The winner's home board is the loser's 19- to 24-point in the loser's own
# count: indices 18..23.  Index 24, the bar, lies beyond it and counts too.
_WINNERS_HOME_OR_BAR = slice(18, 25)


class ResultKind(Enum):
    """The kind of win.  The values are the names the table log uses."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def multiplier(self) -> int:
        """How many times the cube value the win is worth: 1, 2 or 3."""
        return _MULTIPLIERS[self]

    @classmethod
    def of(cls, position: Position) -> ResultKind:
        """The kind of win in a finished `position` (docs/rules.md §7).

        Single: the loser has borne off at least one checker.  Gammon: none.
        Backgammon: none, and a checker on the bar or in the winner's home board.
        The winner is whoever has borne off all 15 checkers.

        :raises ResultError: if nobody has.
        """
        loser = _winner(position).opponent
        if position.borne_off(loser):
            return cls.SINGLE
        if any(position.checkers(loser)[_WINNERS_HOME_OR_BAR]):
            return cls.BACKGAMMON
        return cls.GAMMON


_MULTIPLIERS = {ResultKind.SINGLE: 1, ResultKind.GAMMON: 2, ResultKind.BACKGAMMON: 3}


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: who won, how, and for how many points.

    `kind` is the kind of win as it is scored: a gammon that the Jacoby rule
    counts as single is SINGLE here, as GNU Backgammon reports it ("wins a
    single game and 1 point").  `cube` is the cube value the game was decided
    at; `dropped` is True when the loser dropped a double, `resigned` when the
    winner accepted the loser's resignation.
    """

    winner: Side
    kind: ResultKind
    cube: int = 1
    dropped: bool = False
    resigned: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.cube, int) or isinstance(self.cube, bool) or self.cube < 1:
            raise ResultError(f"a cube value is a positive whole number, not {self.cube!r}")
        if self.dropped and self.kind is not ResultKind.SINGLE:
            raise ResultError("a dropped double scores a single game, never a gammon")

    @classmethod
    def of(
        cls,
        position: Position,
        cube: int = 1,
        *,
        jacoby: bool = False,
        cube_turned: bool = False,
    ) -> GameResult:
        """The result of a game that ended in `position` with the cube at `cube`.

        `jacoby` says the Jacoby rule is in force (money play with the setting
        on); it then counts a gammon or backgammon as single unless
        `cube_turned`: a double was taken during the game.  Automatic doubles
        do not turn the cube.

        :raises ResultError: if nobody has borne off all 15 checkers.
        """
        kind = ResultKind.of(position)
        if jacoby and not cube_turned:
            kind = ResultKind.SINGLE
        return cls(_winner(position), kind, cube)

    @classmethod
    def drop(cls, winner: Side, cube: int) -> GameResult:
        """`winner`'s double was dropped with the cube at `cube`, its value before
        the double (docs/rules.md §8): a single game, whatever the position."""
        return cls(winner, ResultKind.SINGLE, cube, dropped=True)

    @classmethod
    def resign(cls, winner: Side, kind: ResultKind, cube: int) -> GameResult:
        """The loser resigned `kind` and `winner` accepted, with the cube at `cube`: the
        kind times the cube, whatever the position.  As GNU Backgammon scores it, the
        Jacoby rule does not reduce a resigned gammon: it counts what was offered."""
        return cls(winner, kind, cube, resigned=True)

    @property
    def loser(self) -> Side:
        return self.winner.opponent

    @property
    def points(self) -> int:
        """What the winner scores: the kind's multiplier times the cube value."""
        return self.kind.multiplier * self.cube


def _winner(position: Position) -> Side:
    winner = position.winner()
    if winner is None:
        raise ResultError(
            f"the game is not over: neither side has borne off all {CHECKERS} checkers"
        )
    return winner
