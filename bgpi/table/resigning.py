"""Resigning at the table: an offer to resign a single game, a gammon or a backgammon,
and the opponent's answer.

No single press resigns: the resigner holds their *cube* (in their turn or the
opponent's, not while a double awaits its answer) to open the offer, steps through
single, gammon and backgammon with *cube* (the dice show the points at stake), and
offers with *turn*; a held *cube* goes back with nothing offered.  The opponent then
accepts with *turn* (the game ends: the offered kind times the cube) or declines with
*cube* (play goes on where it stood).  This is gnubg's resignation: scored as offered,
the Jacoby rule does not reduce it (`GameResult.resign`).
"""

from __future__ import annotations

from collections.abc import Callable

from bgpi.rules.position import Side
from bgpi.rules.result import GameResult, ResultKind
from bgpi.table import events as ev
from bgpi.table.events import Emit
from bgpi.table.phases import Phase
from bgpi.table.state import TableState

_LEVELS = tuple(ResultKind)
"""What may be resigned, in the order *cube* steps through them."""

OPENS_FROM = (Phase.ROLL, Phase.MOVE, Phase.CHOOSE)
"""The phases in which a held *cube* opens a resignation."""


class Resigning:
    """The part of the table that handles resignations.

    Reads the game (its cube); changes the phase into and out of resigning, who
    resigns and what (`state.resigner`, `state.resigning`); emits the offer, the
    answer and, after an accepted one, the game's end."""

    def __init__(self, state: TableState, emit: Emit, end_game: Callable[[GameResult], None]) -> None:
        self.state, self.emit, self.end_game = state, emit, end_game

    def open(self, side: Side) -> None:
        """`side` held their *cube*: choose what to resign, a single game first."""
        state = self.state
        state.resign_from = Phase.MOVE if state.phase == Phase.CHOOSE else state.phase
        state.resigner, state.resigning, state.phase = side, ResultKind.SINGLE, Phase.RESIGNING

    def choosing(self, side: Side, kind: str, long: bool) -> None:
        """A press while `state.resigner` chooses what to resign."""
        state = self.state
        if side is not state.resigner:
            return
        if kind == "cube" and long:
            state.phase, state.resigner = state.resign_from, None
        elif kind == "cube":
            state.resigning = _LEVELS[(_LEVELS.index(state.resigning) + 1) % len(_LEVELS)]
        else:
            self.emit(ev.ResignOffered(side, state.resigning))

    def answer(self, side: Side, kind: str) -> None:
        """A press while a resignation is offered: the opponent's *turn* accepts, *cube* declines."""
        offer = self.state.resignation
        if offer is None or side is offer.player:
            return
        if kind == "cube":
            self.emit(ev.ResignDeclined(side))
            return
        self.emit(ev.ResignAccepted(side))
        self.end_game(GameResult.resign(side, offer.result, self.state.current_game().cube.value))

