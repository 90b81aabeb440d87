"""The computer's players in a chouette (``chouette.computers``, docs/chouette.md).

The computer may sit anywhere in the line, and decides what that place decides, asking
the engine as the computer opponent of a game of two does (`bgpi.table.advice`): the
table asks (`state.advice.wants`), the shell's engine answers.  Each seat's cube is a
money cube of its own, so every cube question holds that seat's cube and its owner in
its Match ID (`TableState.advice_request`'s `seat`):

- **in the box**: its checker play and rolls (as the computer opponent's), and before
  its roll a decision for every seat whose cube it may turn, one question a seat, in line
  order; the doubles it decides on are offered together.  It answers every double of the
  team, and every resignation the captain offers (weighing each seat's cube).
- **in the team**: before the team's roll, a decision on its own cube; its answer to the
  box's double on its cube, and to a resignation the box offers it.  As **captain** it
  also rolls and moves for the team: once the crew has had its chance to double (a person
  of the crew who may double presses the team's *turn* to roll; the computer rolls by
  itself when none may).

Each decision is a ``computer_cube`` naming the seat (journaled: after a power cut the
computer goes on where it stood), followed by the ``seat_double``, ``seat_take``, ...
it makes.  The computer offers no resignation in a chouette (it plays a lost race out)
and joins none the captain offers.  Its answers to a resignation are the game of two's
(`bgpi.table.resigning`): it accepts what is worth at least the points it expects from
playing on, seat by seat (the Jacoby rule counting for each on its own).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bgpi.rules.position import Side
from bgpi.rules.seats import Seats
from bgpi.rules.session import Game
from bgpi.table import events as ev
from bgpi.table.chouette import Chouette
from bgpi.table.events import Emit
from bgpi.table.phases import CubeWord, Phase, RollFor
from bgpi.table.requests import AdviceRequest, Purpose, Question
from bgpi.table.resigning import expected_points, gammons_count
from bgpi.table.seating import Seating
from bgpi.table.state import TableState


def cube_equities(answer: Mapping[str, Any]) -> dict[str, float]:
    """gnubg's cubeful equities of a cube answer, as ``computer_cube`` keeps them."""
    return {key: answer[key] for key in ("no_double", "double_take", "double_drop")}


class ChouetteComputer:
    """The part of the table that makes the decisions of the computer's players.

    Reads the chouette's seats, the phase and the engine's answers; changes what the engine
    is asked (`state.advice.wants`) and the dice asked for its side (`state.wants_roll`);
    emits ``computer_cube`` and has the `Chouette` part double, answer doubles and answer
    resignations as a person's presses would."""

    def __init__(self, state: TableState, chouette: Chouette, emit: Emit) -> None:
        self.state, self.chouette, self.emit = state, chouette, emit

    @property
    def seating(self) -> Seating:
        return self.state.current_chouette()

    # -- asking ----------------------------------------------------------------------------

    def turn(self, game: Game) -> None:
        """Ask for what the computer's players decide next, if anything (the table's own
        guards checked: nothing else asked, no dice wanted, the board as the game)."""
        seats = self.seating.seats
        if not self.seating.computers or seats is None or game.turn is None:
            return
        phase = self.state.phase
        if phase == Phase.ROLL:
            self._before_roll(game, seats, game.turn)
        elif phase == Phase.SEAT_DOUBLED:
            self._doubled(seats)
        elif phase == Phase.SEAT_RESIGNED:
            self._resignation()

    def _decides(self, side: Side, player: str) -> bool:
        """Whether the computer decides on `player`'s cube for `side`: as the box (every
        seat's), or as the seat itself."""
        seating = self.seating
        return (seating.roles.box if side is seating.box_side else player) in seating.computers

    def _before_roll(self, game: Game, seats: Seats, side: Side) -> None:
        """`side` is on roll: the computer's decision on each cube it may turn, one seat at a
        time; then the doubles it chose, together; then its roll, once no person may double."""
        seating, state = self.seating, self.state
        mine = [player for player in seats.may_double(game, side) if self._decides(side, player)]
        undecided = [player for player in mine if player not in seating.decided]
        if undecided:
            state.advice.wants = state.advice_request(Question.CUBE, Purpose.COMPUTER, side, undecided[0])
            return
        doubles = tuple(player for player in mine if seating.decided[player] is CubeWord.DOUBLE)
        if doubles:
            self.chouette.offer_doubles(side, doubles)
        elif side in state.computers and not seating.people_doubling(seats, game, side):
            state.wants_roll = RollFor.TURN

    def _doubled(self, seats: Seats) -> None:
        """A double awaits its answer: the computer's, if the answerer is its player."""
        player, taker = seats.asked(), seats.answerer()
        if player is None or taker is None or not self._decides(taker, player):
            return
        offer = seats.seat(player).cube.offer
        if offer is not None and offer.beaver:
            # The computer doubled because it is ahead: it takes a beaver, as in a game of two.
            self.chouette.answer_double(taker, player, CubeWord.TAKE)
            return
        self.state.advice.wants = self.state.advice_request(Question.CUBE, Purpose.COMPUTER, taker, player)

    def _resignation(self) -> None:
        """A resignation awaits an answer: the computer's, if it is the box answering the
        captain's offer, or a seat of the computer's answering the box's."""
        seating, state = self.seating, self.state
        offer, answering = seating.resignation, self.chouette.answering_resignation()
        if offer is None or not answering:
            return
        side = offer.player.opponent
        if not self._decides(side, answering[0]):
            return
        state.advice.wants = state.advice_request(Question.RESIGN, Purpose.COMPUTER, side, answering[0])

    # -- answers ---------------------------------------------------------------------------

    def cube_advised(self, request: AdviceRequest, answer: Mapping[str, Any]) -> None:
        """The engine's cube advice for `request.seat`'s cube: a double decided before the
        roll, or the answer to the double on offer."""
        state, seat = self.state, request.seat
        seats = self.seating.seats
        if seat is None or seats is None:
            return
        if state.phase == Phase.SEAT_DOUBLED and seats.asked() == seat:
            word = CubeWord(answer["response"])
            self.emit(ev.ComputerCube(request.player, word, cube_equities(answer), seat))
            self.chouette.answer_double(request.player, seat, word)
        elif state.phase in (Phase.ROLL, Phase.SEATS) and request.player is state.turn:
            self.emit(ev.ComputerCube(request.player, CubeWord(answer["action"]), cube_equities(answer), seat))

    def resign_advised(self, request: AdviceRequest, chances: Mapping[str, Any] | None) -> None:
        """The computer answers the resignation on offer for the seats it answers now, on
        the engine's cubeless `chances` of the player on roll (None: it gave none, and the
        computer declines): it accepts what is worth at least playing on, over those seats."""
        state, seating = self.state, self.seating
        offer, seats = seating.resignation, seating.seats
        if state.phase != Phase.SEAT_RESIGNED or offer is None or seats is None:
            return
        answering = self.chouette.answering_resignation()
        on_roll = request.player is state.current_turn()
        jacoby = state.setup.settings.jacoby
        offered = expected = 0.0
        for player in answering:
            cube = seats.seat(player).cube
            offered += offer.result.multiplier * cube.value
            if chances is not None:
                expected += cube.value * expected_points(chances, on_roll, gammons_count(jacoby, cube))
        self.chouette.answer_resignation(request.player, accepts=chances is not None and offered >= expected)
