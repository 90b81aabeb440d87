"""Advice at the table: the hint button, and a computer opponent.

The core never calls an engine: it asks, as it asks for dice.  `wants_advice` holds
a request (`advice_request`: what is asked, for whom, the position and match IDs,
the session's Jacoby and beaver rules); the shell asks the engine and hands the
answer back as an `Advised` input, which becomes a journaled event:

- ``hint``: the best play of the roll (`move`, and `position_id` after it, encoded for
  the player who rolls next, as in ``play``), or cube advice (`advice`: "double",
  "no double", "too good", "take", "drop" or "beaver"); ``hint_off`` hides it;
- ``computer_play``: the computer's play, which the human then moves on the board;
- ``computer_cube``: the computer's cube decision, followed by its ``double``,
  ``take``, ``drop`` or ``beaver``.

A hinted play shows one step at a time with the `hint` role: the checker to move
blinks, its landing point stays lit.  A human's hint is dropped as soon as the board
leaves its way; the computer's play must be followed (another placement is
`rejected`) and commits itself once it stands on the board.  Cube advice lights the
asked player's bar half: steady for yes (double, take; both halves for a beaver),
blinking for no (no double, too good, drop).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bgpi.board.locations import (
    BARS,
    LOCATIONS,
    TRAYS,
    Location,
    bar,
    checkers_on,
    location_of,
)
from bgpi.rules.ids import match_id, position_from_id, position_id
from bgpi.rules.position import Side
from bgpi.table import events as ev
from bgpi.table.phases import CubeWord, Phase, RollFor
from bgpi.table.requests import AdviceRequest, Purpose, Question
from bgpi.table.turn import steps_between

RETRY = 2.0
"""Seconds of board time before the computer asks the engine again after a failure."""
NO_ENGINE_SECONDS = 2.0
"""Seconds of board time the 'no engine' look shows after a hint press."""



class Advising:
    """The part of `Table` that asks for advice and acts on the answers."""

    # -- asking --------------------------------------------------------------------

    def advice_request(self, question: Question, purpose: Purpose) -> AdviceRequest:
        """A request for the engine, in the IDs of the player on roll (the doubler, when doubled)."""
        dice = (self.dice.first, self.dice.second) if question == Question.PLAYS else (0, 0)
        return AdviceRequest(question, purpose, self._asked(), position_id(self.position, self.turn),
                             match_id(self.game.match_key(dice)), self.settings.jacoby, self.settings.beavers)

    def _asked(self) -> Side:
        """Who decides now: the taker of a double, else the player whose turn it is."""
        return self.game.cube.offer.taker if self.phase == Phase.DOUBLED else self.turn

    def coach_request(self) -> AdviceRequest | None:
        """The coach's question about the play being committed (None when not coaching
        this player): the roll's best play and what the play made loses against it."""
        if self.coach is None or self.turn is self.computer:
            return None
        return self.advice_request(Question.PLAYS, Purpose.COACH)

    def _hint_pressed(self) -> None:
        phase = self.phase
        if self.computer is not None and phase in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED) \
                and self._asked() is self.computer:
            reason = "the computer is deciding"  # and its play stays lit
        elif self.hint is not None:
            self._emit(ev.HintOff())
            return
        elif phase == Phase.MOVE and self.mismatch is None:
            self.wants_advice = self.advice_request(Question.PLAYS, Purpose.HINT)
            return
        elif phase == Phase.DOUBLED or (phase == Phase.ROLL and self.game.may_double(self.turn)):
            self.wants_advice = self.advice_request(Question.CUBE, Purpose.HINT)
            return
        elif phase == Phase.ROLL:
            reason = self.game.why_not_double(self.turn)
        else:
            reason = "a hint needs a roll to play or a cube to decide"
        self._emit(ev.Rejected(None, f"no hint now: {reason}"))

    def _check_hint_failed(self) -> None:
        """The 'no engine' look ends after a moment, as a hint hidden (`hint_off`)."""
        if self.hint_failed is not None and self.now - self.hint_failed + 1e-9 >= NO_ENGINE_SECONDS:
            self._emit(ev.HintOff())

    def _computer_turn(self) -> None:
        """Ask for what the computer needs next, if anything (after every input)."""
        side = self.computer
        if side is None or self.wants_advice or self.wants_roll or self.mismatch is not None:
            return
        if self.advice_failed is not None and self.now - self.advice_failed + 1e-9 < RETRY:
            return
        if self.phase == Phase.ROLL and self.turn is side:
            if self.game.may_double(side):
                self.wants_advice = self.advice_request(Question.CUBE, Purpose.COMPUTER)
            else:
                self.wants_roll = RollFor.TURN
        elif self.phase == Phase.DOUBLED and self.game.cube.offer.taker is side:
            if self.game.cube.offer.beaver:
                # The computer doubled because it is ahead: it takes a beaver.
                self._emit(ev.Take(side, self.game.cube.offered_value))
            else:
                self.wants_advice = self.advice_request(Question.CUBE, Purpose.COMPUTER)
        elif self.phase == Phase.MOVE and self.turn is side and self.hint is None:
            self.wants_advice = self.advice_request(Question.PLAYS, Purpose.COMPUTER)

    # -- answers ---------------------------------------------------------------------

    def _advised(self, request: AdviceRequest, answer: Mapping[str, Any] | None, error: str | None) -> None:
        if request != self.wants_advice:
            return  # asked before the table moved on
        self.wants_advice = None
        if error is not None or answer is None:
            if request.purpose == Purpose.COMPUTER:
                self.advice_failed = self.now
            elif request.purpose == Purpose.HINT:
                self.hint_failed = self.now
            self._emit(ev.Rejected(None, str(error)))
            return
        self.advice_failed = None
        if request.purpose == Purpose.COACH:
            self._coach_advised(request, answer)
        elif request.question == Question.PLAYS:
            self._play_advised(request.purpose, answer)
        elif request.purpose == Purpose.HINT:
            word = CubeWord(answer["response"] if self.phase == Phase.DOUBLED else answer["action"])
            self._emit(ev.CubeHint(request.player, word, _cube_equities(answer)))
        else:
            self._computer_cube(answer)

    def _play_advised(self, purpose: Purpose, answer: Mapping[str, Any]) -> None:
        side = self.turn
        after = position_from_id(answer["position_id"], side)
        shown = ev.Hint if purpose == Purpose.HINT else ev.ComputerPlay
        self._emit(shown(side, (self.dice.first, self.dice.second), answer["move"],
                         position_id(after, side.opponent), answer["equity"]))
        if purpose == Purpose.COMPUTER:
            self._follow_plan()  # a roll that cannot be played commits at once

    def _coach_advised(self, request: AdviceRequest, answer: Mapping[str, Any]) -> None:
        """Show the better play where the play made lost more than the coach's threshold."""
        if answer["loss"] <= self.coach:
            return
        mover = request.player
        before = position_from_id(request.position_id, mover)
        better = position_from_id(answer["position_id"], mover)
        changed = [location for location in LOCATIONS
                   if checkers_on(better, location) != checkers_on(before, location)]
        self._emit(ev.Coach(
            mover, str(request.played), answer["move"], answer["loss"],
            tuple(loc for loc in changed if checkers_on(better, loc) < checkers_on(before, loc)),
            tuple(loc for loc in changed if checkers_on(better, loc) > checkers_on(before, loc)),
        ))

    def _computer_cube(self, answer: Mapping[str, Any]) -> None:
        side = self.computer
        doubled = self.phase == Phase.DOUBLED
        word = CubeWord(answer["response"] if doubled else answer["action"])
        self._emit(ev.ComputerCube(side, word, _cube_equities(answer)))
        if not doubled:
            if word == CubeWord.DOUBLE:
                self._double(side)
            else:
                self.wants_roll = RollFor.TURN
        elif word == CubeWord.DROP:
            self._drop(side)
        elif word == CubeWord.BEAVER and self.game.why_not_beaver(side) is None:
            self._beaver(side)
        else:
            self._emit(ev.Take(side, self.game.cube.offered_value))

    # -- following a hinted play ---------------------------------------------------------

    def _on_the_way(self, node) -> bool:
        """Whether the hinted play can still be reached from `node`."""
        return self.hinted is not None and steps_between(self.tree, node, self.hinted) is not None

    def _followed(self) -> None:
        """The board moved on: commit the computer's play once it stands there, and drop
        a human's hint the board has left."""
        if self.following:
            self._follow_plan()
        elif self.hinted is not None and not self._on_the_way(self.node):
            self.hint = self.hinted = None

    def _follow_plan(self) -> None:
        """Commit the computer's play once the board can show it with nothing in hand (a
        checker put in a tray without switches reads as lifted until then)."""
        if not self.following or self.hinted is None or self.seen is None:
            return
        tracker = self.tracker
        if any(reading.node == self.hinted and reading.settled
               for reading in tracker.explain(self.seen) if tracker.plausible(reading)):
            self._commit(self.hinted)

    def hint_roles(self) -> tuple[dict[Location, str], set[Location]]:
        """The `hint` roles now, and which of them blink (the checker to move, or a 'no')."""
        hint = self.hint
        if hint is None and self.hint_failed is not None:
            # No engine answered the hint button: all four corners of the bar and trays
            # blink blue for a moment, a look no advice ever has.
            corners = {*BARS, *TRAYS}
            return dict.fromkeys(corners, "hint"), corners
        if hint is None and self.coached is not None:
            # The better play, flashed where the play made lost too much: its checkers' points.
            coached = self.coached
            return ({**dict.fromkeys(coached.from_, "hint"), **dict.fromkeys(coached.to, "hint")},
                    set(coached.from_) - set(coached.to))
        if hint is None:
            return {}, set()
        if isinstance(hint, ev.CubeHint):
            sides = tuple(Side) if hint.advice == CubeWord.BEAVER else (hint.player,)
            roles = {bar(side): "hint" for side in sides}
            return roles, set() if hint.advice.yes else set(roles)
        if self.phase != Phase.MOVE or self.node is None or not self._on_the_way(self.node):
            return {}, set()
        steps = steps_between(self.tree, self.node, self.hinted)
        if not steps:
            return {}, set()
        side = self.turn
        source, destination = location_of(side, steps[0].source), location_of(side, steps[0].destination)
        return {source: "hint", destination: "hint"}, {source}


def _cube_equities(answer: Mapping[str, Any]) -> dict[str, float]:
    return {key: answer[key] for key in ("no_double", "double_take", "double_drop")}


