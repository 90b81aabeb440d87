"""Advice at the table: the hint button, and a computer opponent.

The core never calls an engine: it asks, as it asks for dice.  `wants_advice` holds
an `AdviceRequest` (`bgpi.table.requests`: what is asked, for whom, the position and
match IDs, the session's Jacoby and beaver rules); the shell asks the engine and hands
the answer back as an `Advised` input, which becomes a journaled event:

- ``hint``: the best play of the roll (`move`, and `position_id` after it, encoded for
  the player who rolls next, as in ``play``), or cube advice (`advice`: "double",
  "no double", "too good", "take", "drop" or "beaver"); ``hint_off`` hides it;
- ``computer_play``: the computer's play, which the human then moves on the board;
- ``computer_cube``: the computer's cube decision, followed by its ``double``,
  ``take``, ``drop`` or ``beaver``;
- the computer's resignation (``resign_offered``, before its roll in a race) or its
  answer to one (``resign_accepted``, ``resign_declined``), weighed by the `Resigning`.

In a chouette the computer's players decide their cubes and resignations through the
`ChouetteComputer` (`bgpi.table.chouette_computer`); their checker play is asked here.

A hinted play shows one step at a time with the `hint` role (`bgpi.table.view`): the
checker to move blinks, its landing point stays lit.  A human's hint is dropped as soon
as the board leaves its way; the computer's play must be followed (another placement
is `rejected`) and commits itself once it stands on the board (`bgpi.table.turn`).
Cube advice lights the asked player's bar half: steady for yes (double, take; both
halves for a beaver), blinking for no (no double, too good, drop).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bgpi.board.locations import LOCATIONS, checkers_on
from bgpi.rules.ids import position_from_id, position_id
from bgpi.rules.position import Side
from bgpi.rules.session import Game
from bgpi.table import events as ev
from bgpi.table.chouette_computer import ChouetteComputer, cube_equities
from bgpi.table.doubling import Doubling
from bgpi.table.events import Emit
from bgpi.table.phases import CubeWord, Phase, RollFor
from bgpi.table.requests import AdviceRequest, Purpose, Question
from bgpi.table.resigning import Resigning
from bgpi.table.state import Board, TableState
from bgpi.table.turn import FollowingTurn

RETRY = 2.0
"""Seconds of board time before the computer asks the engine again after a failure."""
GIVE_UP = 3
"""The engine's failures in a row after which the computer's side is played by hand
(an engine installed but broken would otherwise stall the game for good)."""
NO_ENGINE_SECONDS = 2.0
"""Seconds of board time the 'no engine' look shows after a hint press."""


class Advising:
    """The part of the table that asks for advice and acts on the answers.

    Reads the game, the phase and board time; changes what is asked and shown
    (`state.advice`) and the dice asked for the computer (`state.wants_roll`); emits
    ``hint``, ``hint_off``, ``coach``, ``computer_play`` and ``computer_cube``, and
    has the computer's cube actions made by the `Doubling`, its resignations by the
    `Resigning` and its play committed by the `FollowingTurn` once the board shows it."""

    def __init__(self, state: TableState, board: Board, follower: FollowingTurn, doubling: Doubling,
                 resigning: Resigning, emit: Emit, chouette: ChouetteComputer | None = None) -> None:
        self.state, self.board, self.emit = state, board, emit
        self.follower, self.doubling, self.resigning = follower, doubling, resigning
        self.chouette = chouette

    # -- asking --------------------------------------------------------------------

    def hint_pressed(self) -> None:
        state, phase = self.state, self.state.phase
        if phase in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED) and state.asked() in state.elsewhere:
            # ... and its play stays lit
            reason = "the computer is deciding" if state.asked() in state.computers else \
                "the other board's player is deciding"
        elif state.advice.hint is not None:
            self.emit(ev.HintOff())
            return
        elif phase == Phase.MOVE and state.trouble.mismatch is None:
            state.advice.wants = state.advice_request(Question.PLAYS, Purpose.HINT)
            return
        elif phase == Phase.DOUBLED or (phase == Phase.ROLL and state.current_game().may_double(state.current_turn())):
            state.advice.wants = state.advice_request(Question.CUBE, Purpose.HINT)
            return
        elif phase == Phase.ROLL:
            reason = state.current_game().why_not_double(state.current_turn()) or ""
        else:
            reason = "a hint needs a roll to play or a cube to decide"
        self.emit(ev.Rejected(None, f"no hint now: {reason}"))

    def check_hint_failed(self) -> None:
        """The 'no engine' look ends after a moment, as a hint hidden (`hint_off`)."""
        failed = self.state.advice.hint_failed
        if failed is not None and self.board.now - failed + 1e-9 >= NO_ENGINE_SECONDS:
            self.emit(ev.HintOff())

    def deadlines(self) -> list[float]:
        advice, found = self.state.advice, []
        if advice.hint_failed is not None:
            found.append(advice.hint_failed + NO_ENGINE_SECONDS)
        if advice.failed is not None and self._has_computer():
            found.append(advice.failed + RETRY)
        return found

    def _has_computer(self) -> bool:
        """Whether the engine plays anyone in this session (now)."""
        seating = self.state.chouette
        return bool(self.state.setup.computers or (seating is not None and seating.computers))

    def computer_unavailable(self) -> None:
        """The computer's engine is missing (`ComputerUnavailable`): both sides are played
        by hand, the "no engine" look shown as after a hint that found none."""
        state = self.state
        state.setup = replace(state.setup, computers=frozenset())
        if state.chouette is not None:
            state.chouette.computers = frozenset()
        state.advice.hint_failed = self.board.now

    def computer_turn(self) -> None:
        """Ask for what the computer needs next, if anything (after every input)."""
        state = self.state
        if not self._has_computer() or state.advice.wants or state.wants_roll or state.trouble.mismatch is not None:
            return
        failed = state.advice.failed
        if failed is not None and self.board.now - failed + 1e-9 < RETRY:
            return
        game = state.game
        if game is None or game.turn is None:
            return
        if self.chouette is not None:
            self._chouette_turn(game)
            return
        offer = game.cube.offer
        side = self._computer_asked(game)
        if side not in state.setup.computers:
            return
        if state.phase == Phase.RESIGNED:
            state.advice.wants = state.advice_request(Question.RESIGN, Purpose.COMPUTER, side)
        elif state.phase == Phase.ROLL and not state.position.contact():
            state.advice.wants = state.advice_request(Question.RESIGN, Purpose.COMPUTER)  # hopeless?
        elif state.phase == Phase.ROLL:
            self._before_roll(side)
        elif state.phase == Phase.DOUBLED and offer is not None:
            if offer.beaver:
                self.doubling.take(side)  # the computer doubled because it is ahead: it takes a beaver
            else:
                state.advice.wants = state.advice_request(Question.CUBE, Purpose.COMPUTER)
        elif state.phase == Phase.MOVE and state.advice.hint is None:
            state.advice.wants = state.advice_request(Question.PLAYS, Purpose.COMPUTER)

    def _chouette_turn(self, game: Game) -> None:
        """The computer's players in a chouette: the checker play of its side here, the
        rest theirs."""
        assert self.chouette is not None
        if self.state.phase != Phase.MOVE:
            self.chouette.turn(game)
        elif game.turn in self.state.computers and self.state.advice.hint is None:
            self.state.advice.wants = self.state.advice_request(Question.PLAYS, Purpose.COMPUTER)

    def _computer_asked(self, game: Game) -> Side:
        """Who decides now: the opponent of a resigner, the taker of a double, else the player on turn."""
        state, offer = self.state, game.cube.offer
        if state.phase == Phase.RESIGNED and state.resignation is not None:
            return state.resignation.player.opponent
        return offer.taker if state.phase == Phase.DOUBLED and offer is not None else state.current_turn()

    def _before_roll(self, side: Side) -> None:
        """The computer on roll, not resigning: its cube decision, or its roll."""
        if self.state.current_game().may_double(side):
            self.state.advice.wants = self.state.advice_request(Question.CUBE, Purpose.COMPUTER)
        else:
            self.state.wants_roll = RollFor.TURN

    # -- answers ---------------------------------------------------------------------

    def advised(self, request: AdviceRequest, answer: Mapping[str, Any] | None, error: str | None) -> None:
        """The engine's answer to `request` (or why there is none)."""
        advice = self.state.advice
        if request != advice.wants:
            return  # asked before the table moved on
        advice.wants = None
        if request.question == Question.RESIGN:
            chances = None if error is not None else answer
            if self.chouette is not None:
                self.chouette.resign_advised(request, chances)
            else:
                self._resign_advised(request.player, chances)
            return
        if error is not None or answer is None:
            if request.purpose == Purpose.HINT:
                advice.hint_failed = self.board.now
            self.emit(ev.Rejected(None, str(error)))
            if request.purpose == Purpose.COMPUTER:
                self._computer_failed(request.player, str(error))
            return
        advice.failed, advice.failures = None, 0
        if request.purpose == Purpose.COACH:
            self._coach_advised(request, answer)
        elif request.question == Question.PLAYS:
            self._play_advised(request.purpose, answer)
        elif request.purpose == Purpose.HINT:
            self.emit(ev.CubeHint(request.player, self._cube_word(answer), cube_equities(answer)))
        elif self.chouette is not None:
            self.chouette.cube_advised(request, answer)
        else:
            self._computer_cube(answer)

    def _computer_failed(self, side: Side, error: str) -> None:
        """The engine failed the computer (playing `side`): it asks again after a while,
        and after `GIVE_UP` failures in a row its side is played by hand."""
        advice = self.state.advice
        advice.failed, advice.failures = self.board.now, advice.failures + 1
        if advice.failures >= GIVE_UP:
            self.emit(ev.ComputerStopped(side, error))

    def _resign_advised(self, side: Side, chances: Mapping[str, Any] | None) -> None:
        """The computer's resignation weighed on the engine's chances (None: it gave none)."""
        state = self.state
        if state.phase == Phase.RESIGNED:
            self.resigning.computer_answers(side, chances, side is state.current_turn())
        elif state.phase == Phase.ROLL and not self.resigning.computer_offers(side, chances):
            self._before_roll(side)

    def _cube_word(self, answer: Mapping[str, Any]) -> CubeWord:
        """The engine's advice for the decision asked: the answer to a double, or the double."""
        return CubeWord(answer["response"] if self.state.phase == Phase.DOUBLED else answer["action"])

    def _play_advised(self, purpose: Purpose, answer: Mapping[str, Any]) -> None:
        side, dice = self.state.current_turn(), self.state.current_roll().dice
        after = position_from_id(answer["position_id"], side)
        shown = ev.Hint if purpose == Purpose.HINT else ev.ComputerPlay
        self.emit(shown(side, (dice.first, dice.second), answer["move"], position_id(after, side.opponent),
                        answer["equity"]))
        if purpose == Purpose.COMPUTER:
            self.follower.follow_plan()  # a roll that cannot be played commits at once

    def _coach_advised(self, request: AdviceRequest, answer: Mapping[str, Any]) -> None:
        """Show the better play where the play made lost more than the coach's threshold."""
        coach = self.state.setup.coach
        if coach is None or answer["loss"] <= coach:
            return
        mover = request.player
        before = position_from_id(request.position_id, mover)
        better = position_from_id(answer["position_id"], mover)
        changed = [location for location in LOCATIONS
                   if checkers_on(better, location) != checkers_on(before, location)]
        self.emit(ev.Coach(
            mover, str(request.played), answer["move"], answer["loss"],
            tuple(loc for loc in changed if checkers_on(better, loc) < checkers_on(before, loc)),
            tuple(loc for loc in changed if checkers_on(better, loc) > checkers_on(before, loc)),
        ))

    def _computer_cube(self, answer: Mapping[str, Any]) -> None:
        side = self.state.asked()  # the doubler before the roll, the taker when doubled
        if side not in self.state.setup.computers:
            return
        doubled = self.state.phase == Phase.DOUBLED
        word = self._cube_word(answer)
        self.emit(ev.ComputerCube(side, word, cube_equities(answer)))
        if not doubled:
            if word == CubeWord.DOUBLE:
                self.doubling.double(side)
            else:
                self.state.wants_roll = RollFor.TURN
        elif word == CubeWord.DROP:
            self.doubling.drop(side)
        elif word == CubeWord.BEAVER and self.state.current_game().why_not_beaver(side) is None:
            self.doubling.beaver(side)
        else:
            self.doubling.take(side)

