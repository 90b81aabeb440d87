"""A chouette at the table (`TableState.chouette`): its settings, the roll-off, the line and
the chairs, the seats of the game in progress, a resignation on offer and the score
sheet's totals, and what the chouette's part of the table is in the middle of.

Committed events change it through `TableState.apply` (`apply`), live and when the journal
is read back, so a chouette resumed after a power cut is the chouette that was
interrupted: a cube round goes on at the seat being asked, a resignation at the seat
answering.  What is not journaled is a choice not yet made (seats being chosen, a drop
asked once, the result being shown): after a power cut it is asked again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from bgpi.exc import ChouetteError, NoGameError
from bgpi.rules.chouette import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ChouetteSettings,
    Roles,
    RollOff,
    roles,
    seat_chairs,
    why_not_name,
)
from bgpi.rules.cube import Cube
from bgpi.rules.position import Side
from bgpi.rules.result import ResultKind
from bgpi.rules.seats import Seats
from bgpi.rules.session import Game
from bgpi.table import events as ev
from bgpi.table.phases import CubeWord, Phase


class WalkFor(StrEnum):
    """What seats are being chosen for."""

    DOUBLE = "double"  # whose cubes the box doubles, or which of the team double the box
    RESIGN = "resign"  # which seats join the captain's resignation


@dataclass
class Walk:
    """Choosing seats, one after the other (phase seats): `side` says yes or no for each of
    `seats` in turn; `at` is the seat asked, `marked` the seats chosen so far, `back_to`
    the phase a choice given up goes back to, `result` what the captain resigns."""

    side: Side
    purpose: WalkFor
    seats: tuple[str, ...]
    back_to: Phase
    result: ResultKind = ResultKind.SINGLE
    at: int = 0
    marked: tuple[str, ...] = ()

    @property
    def current(self) -> str:
        return self.seats[self.at]


@dataclass
class Seating:
    """One chouette session's state at the table."""

    settings: ChouetteSettings
    roll_off: RollOff | None  # until the roll-off has placed everyone
    line: tuple[str, ...] = ()
    chairs: dict[str, int] = field(default_factory=dict)  # each player's chair, the point lit for them
    totals: dict[str, int] = field(default_factory=dict)  # the score sheet's running totals
    seats: Seats | None = None  # the game in progress
    last: ev.ChouetteOver | None = None  # the last game's end, shown until the next game starts
    rotation_due: bool = False  # the last game is over, the line it gives not yet set
    resignation: ev.SeatResignOffered | None = None  # the offer awaiting its answers
    answered: tuple[str, ...] = ()  # the seats that have answered it
    computers: frozenset[str] = frozenset()  # the players the computer plays (none once its engine is gone)
    decided: dict[str, CubeWord] = field(default_factory=dict)  # the computer's cube decisions this turn, a seat each
    # The chouette part's own, not journaled:
    walk: Walk | None = None  # seats being chosen (phase seats)
    drop_asked: float | None = None  # board time of a first press of drop, awaiting the second
    shown: int = 0  # whose result the dice show (phase results), an index into last.points
    refused: ev.Rejected | None = None  # the last press refused, lit until the next press

    @classmethod
    def begin(cls, settings: ChouetteSettings) -> Seating:
        """A new chouette: everyone rolls off first."""
        return cls(settings, RollOff.of(settings.players), chairs=seat_chairs({}, settings.players),
                   computers=frozenset(settings.computers))

    @property
    def roles(self) -> Roles:
        """Who is box, captain, crew and partner in the line now."""
        return roles(self.line, self.settings.box_partner)

    @property
    def box_side(self) -> Side:
        return self.settings.box_side

    @property
    def captain(self) -> str:
        """The captain now: of the game in progress, else the line's."""
        return self.seats.captain if self.seats is not None else self.roles.captain

    def computer_sides(self) -> frozenset[Side]:
        """The colours whose rolls and checker play the computer makes now: the box's while
        the computer is the box, the team's while it is the captain."""
        if not self.computers or len(self.line) < MIN_PLAYERS:
            return frozenset()
        sides = {self.box_side} if self.roles.box in self.computers else set()
        if self.captain in self.computers:
            sides.add(self.box_side.opponent)
        return frozenset(sides)

    def people(self, players: tuple[str, ...]) -> tuple[str, ...]:
        """Those of `players` the computer does not play."""
        return tuple(player for player in players if player not in self.computers)

    def people_doubling(self, seats: Seats, game: Game, side: Side) -> tuple[str, ...]:
        """The seats whose cube a person may double for `side` now: for the box every seat
        it may double (none while the computer is the box); for the team the people's own
        (the computer's seats decide for themselves)."""
        able = seats.may_double(game, side)
        if side is self.box_side:
            return () if self.roles.box in self.computers else able
        return self.people(able)

    def current_seats(self) -> Seats:
        """The seats of the game in progress.  Raises NoGameError when there is none."""
        if self.seats is None:
            raise NoGameError("no chouette game is in progress")
        return self.seats

    def seat_line(self, line: tuple[str, ...]) -> None:
        """The line is now `line`: chairs for newcomers, a total on the sheet for each.
        Raises ChouetteError for a line no chouette can have (a damaged journal's)."""
        roles(line)  # three players at least
        if len(line) > MAX_PLAYERS or len(set(line)) != len(line) or any(map(why_not_name, line)):
            raise ChouetteError(f"no chouette has the line {', '.join(map(str, line))}")
        self.line, self.rotation_due = line, False
        self.chairs = seat_chairs(self.chairs, line)
        for player in line:
            self.totals.setdefault(player, 0)

    def begin_game(self, game: Game) -> None:
        """A game starts: a seat for each member of the team, each with the game's cube
        (centred, or a practice position's)."""
        cube = game.cube
        self.seats = Seats.begin(self.box_side, self.roles.team, Cube(cube.value, cube.owner),
                                 self.settings.box_takes_half)
        self.last, self.resignation, self.answered = None, None, ()
        self.decided.clear()

    def opened(self, cube: int) -> None:
        """The opening roll, its ties having turned every seat's cube to `cube` (automatic doubles)."""
        seats = self.current_seats()
        self.seats = replace(seats, seats=tuple(replace(seat, cube=Cube(cube)) for seat in seats))

    def to_answer(self) -> str | None:
        """The seat whose answer to the resignation on offer is awaited: the next of the box's
        offer in line (each seat answers for itself); None when the captain offered (the box
        answers once for all) or no offer is made."""
        offer = self.resignation
        if offer is None or offer.player is not self.box_side:
            return None
        return next((seat for seat in offer.seats if seat not in self.answered), None)
