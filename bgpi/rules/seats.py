"""A chouette game's seats: each member of the team has a cube of their own against the box
(docs/chouette.md).

The position, whose turn it is and the rolls are one `Game` (`bgpi.rules.session`),
shared by everyone.  Each seat of the team is that game with the seat's own `Cube`: a
money game of its own on the shared position.  A seat doubles, takes, drops and beavers
as a money player does (the shared game's rules say when: before the roll, the cube
centred or one's own, the beaver and cap settings), and a game played out is scored on
each seat's cube, the Jacoby rule counting a gammon only against a seat whose cube was
turned (`Game.result` of the seat's game).  `Seats` holds the team's seats in line order
(the captain the game began with first): who may double whom, who answers which double,
who becomes captain after a drop, and when the game is over.

The box (white here) doubles Bob and Cat before rolling; Bob takes and Cat drops:

>>> from bgpi.rules.session import Game, Session
>>> game = Game(Session(), turn=Side.WHITE)
>>> seats = Seats.begin(Side.WHITE, ("Bob", "Cat"))
>>> seats.may_double(game, Side.WHITE)
('Bob', 'Cat')
>>> seats = seats.double(game, Side.WHITE, "Bob").double(game, Side.WHITE, "Cat")
>>> seats.asked(), seats.answerer().label
('Bob', 'black')
>>> seats = seats.take(game, "Bob").drop(game, "Cat")
>>> seats.seat("Bob").cube, seats.points()
(Cube(value=2, owner=<Side.BLACK: 1>, offer=None), {'Cat': -1})
>>> seats.why_not_double(game, Side.WHITE, "Bob")
'Bob owns their cube: the box may not double it'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum

from bgpi.exc import ChouetteError, CubeError
from bgpi.rules.cube import Cube
from bgpi.rules.position import Position, Side
from bgpi.rules.result import GameResult, ResultKind
from bgpi.rules.session import Game


class SeatEnd(StrEnum):
    """How a seat's game ended."""

    PLAYED = "played"  # the game was played out
    DROPPED = "dropped"  # a double was dropped, by the seat or by the box
    RESIGNED = "resigned"  # a resignation was accepted

    @classmethod
    def of(cls, result: GameResult) -> SeatEnd:
        return cls.DROPPED if result.dropped else cls.RESIGNED if result.resigned else cls.PLAYED


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of the team: its player, its cube against the box, and its result once it
    is settled (`out`): the winner is the box's colour or the team's."""

    player: str
    cube: Cube = field(default_factory=Cube)
    result: GameResult | None = None

    @property
    def out(self) -> bool:
        """Whether the seat's game is over: dropped, resigned, or played out."""
        return self.result is not None


@dataclass(frozen=True, slots=True)
class Seats:
    """The team's seats in one game, in line order, and who is captain now.

    `together` are the seats whose doubles the box is answering, offered together in one
    round by the team; with `takes_half` (the club's option) the box must take at least
    half of them, and the captain's, when there are two or more.
    """

    box_side: Side
    seats: tuple[Seat, ...]
    captain: str
    takes_half: bool = False
    together: tuple[str, ...] = ()

    @classmethod
    def begin(cls, box_side: Side, players: tuple[str, ...], cube: Cube | None = None,
              takes_half: bool = False) -> Seats:
        """A game's seats, each with `cube` (centred by default), the first player captain."""
        return cls(box_side, tuple(Seat(player, cube or Cube()) for player in players), players[0], takes_half)

    @property
    def team_side(self) -> Side:
        return self.box_side.opponent

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def seat(self, player: str) -> Seat:
        """`player`'s seat.  :raises ChouetteError: when they have none in this game."""
        for seat in self.seats:
            if seat.player == player:
                return seat
        raise ChouetteError(f"{player!r} has no seat in this game")

    @property
    def in_game(self) -> tuple[str, ...]:
        """The seats still in the game, in line order."""
        return tuple(seat.player for seat in self.seats if not seat.out)

    @property
    def over(self) -> bool:
        """Whether every seat is settled: the game is over."""
        return not self.in_game

    def game_of(self, game: Game, player: str) -> Game:
        """`player`'s own game: the shared game with the seat's cube.  A money game, so
        its Match ID (`Game.match_key`) is what an engine needs to weigh this seat's cube."""
        return replace(game, cube=self.seat(player).cube)

    def _replaced(self, new: Seat) -> Seats:
        """These seats with `new` in its player's place; the doubles offered together are
        forgotten once none is on offer."""
        seats = tuple(new if seat.player == new.player else seat for seat in self.seats)
        together = self.together if any(seat.cube.offer for seat in seats) else ()
        return replace(self, seats=seats, together=together)

    # -- doubling ------------------------------------------------------------------------

    def why_not_double(self, game: Game, side: Side, player: str) -> str | None:
        """Why `side` (the box's colour or the team's) may not double `player`'s cube now,
        or None if it may: the shared game says when (before the roll, on one's turn), the
        seat's cube whether (centred or one's own, below the cap)."""
        seat = self.seat(player)
        if seat.out:
            return f"{player} is out of this game"
        reason = replace(game, cube=Cube()).why_not_double(side)  # the turn and the roll
        if reason is not None:
            return reason
        cube = seat.cube
        if cube.offer is not None:
            return f"{player}'s cube is on offer: it must be answered first"
        if cube.owner is side.opponent:
            return (f"the box owns {player}'s cube" if side is self.team_side
                    else f"{player} owns their cube: the box may not double it")
        limit = game.session.settings.cube_limit
        if cube.value * 2 > limit:
            return f"{player}'s cube is at its cap of {limit}"
        return None

    def may_double(self, game: Game, side: Side) -> tuple[str, ...]:
        """The seats whose cube `side` may double now, in line order."""
        return tuple(seat.player for seat in self.seats if self.why_not_double(game, side, seat.player) is None)

    def double(self, game: Game, side: Side, player: str) -> Seats:
        """`side` doubles `player`'s cube.  A team's doubles offered before the box answers
        any of them are offered together.  :raises CubeError: with the reason if it may not."""
        reason = self.why_not_double(game, side, player)
        if reason is not None:
            raise CubeError(reason)
        seat = self.seat(player)
        seats = self._replaced(replace(seat, cube=seat.cube.double(side)))
        if side is self.team_side:
            seats = replace(seats, together=(*self.together, player))
        return seats

    # -- answering -------------------------------------------------------------------------

    def asked(self) -> str | None:
        """The seat whose double is answered now: the first in line with one on offer."""
        return next((seat.player for seat in self.seats if seat.cube.offer is not None), None)

    def answerer(self) -> Side | None:
        """Who answers the double asked (`asked`): the box's colour or the team's."""
        player = self.asked()
        if player is None:
            return None
        offer = self.seat(player).cube.offer
        assert offer is not None
        return offer.taker

    def take(self, game: Game, player: str) -> Seats:
        """The double on `player`'s cube is taken.  :raises CubeError: when none is on offer."""
        cube = self._answered(game, player).take(self._taker(player)).cube
        return self._replaced(replace(self.seat(player), cube=cube))

    def why_not_beaver(self, game: Game, player: str) -> str | None:
        """Why the double on `player`'s cube may not be beavered (the session's beavers, the
        cap, a beaver already), or None."""
        taker = self.answerer() if self.asked() == player else None
        if taker is None:
            return f"no double on {player}'s cube to beaver"
        return self.game_of(game, player).why_not_beaver(taker)

    def beaver(self, game: Game, player: str) -> Seats:
        """The double on `player`'s cube is beavered.  :raises CubeError: when it may not be."""
        cube = self._answered(game, player).beaver(self._taker(player)).cube
        return self._replaced(replace(self.seat(player), cube=cube))

    def why_not_drop(self, player: str) -> str | None:
        """Why the box may not drop the double on `player`'s cube (the club's option: the box
        takes at least half of the doubles offered together, and the captain's), or None."""
        together = self.together
        if not self.takes_half or len(together) < 2 or player not in together:
            return None
        if player == self.captain:
            return f"the box must take the captain's double ({player}) when several come together"
        must_take = (len(together) + 1) // 2
        dropped = sum(1 for name in together if (result := self.seat(name).result) is not None
                      and result.winner is self.team_side)
        if dropped + 1 > len(together) - must_take:
            return f"the box must take at least {must_take} of the {len(together)} doubles offered together"
        return None

    def drop(self, game: Game, player: str) -> Seats:
        """The double on `player`'s cube is dropped: the seat is settled at the cube before it.
        :raises CubeError: when none is on offer."""
        result = self._answered(game, player).drop(self._taker(player))
        seat = self.seat(player)
        return self._replaced(replace(seat, cube=replace(seat.cube, offer=None), result=result))

    def _answered(self, game: Game, player: str) -> Game:
        if self.asked() != player:
            raise CubeError(f"no double on {player}'s cube is being answered")
        return self.game_of(game, player)

    def _taker(self, player: str) -> Side:
        offer = self.seat(player).cube.offer
        assert offer is not None
        return offer.taker

    # -- the captain, resignations, the end ---------------------------------------------

    def next_captain(self) -> str | None:
        """Who becomes captain now: when the captain is out and seats are still in, the
        first of them in line; else None (the captain stays, or the game is over)."""
        if not self.seat(self.captain).out or self.over:
            return None
        return self.in_game[0]

    def resigned(self, player: str, resigner: Side, kind: ResultKind) -> Seats:
        """`resigner`'s resignation of `kind` was accepted for `player`'s seat: settled at
        the kind times its cube (as gnubg scores a resignation, the Jacoby rule aside)."""
        seat = self.seat(player)
        if seat.out:
            raise ChouetteError(f"{player} is out of this game")
        return self._replaced(replace(seat, result=GameResult.resign(resigner.opponent, kind, seat.cube.value)))

    def played_out(self, game: Game, position: Position) -> Seats:
        """The game ended in `position`: every seat still in is scored on its own cube."""
        seats = self
        for player in self.in_game:
            seats = seats._replaced(replace(self.seat(player), result=self.game_of(game, player).result(position)))
        return seats

    def points(self) -> dict[str, int]:
        """Each settled seat's points: what it won from the box (less than 0: lost to it)."""
        return {seat.player: seat.result.points if seat.result.winner is self.team_side else -seat.result.points
                for seat in self.seats if seat.result is not None}
