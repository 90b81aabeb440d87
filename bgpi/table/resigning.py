"""Resigning at the table: an offer to resign a single game, a gammon or a backgammon,
and the opponent's answer.

No single press resigns: the resigner holds their *cube* (in their turn or the
opponent's, not while a double awaits its answer) to open the offer, steps through
single, gammon and backgammon with *cube* (the dice show the points at stake), and
offers with *turn*; a held *cube* goes back with nothing offered.  The opponent then
accepts with *turn* (the game ends: the offered kind times the cube) or declines with
*cube* (play goes on where it stood).  This is gnubg's resignation: scored as offered,
the Jacoby rule does not reduce it (`GameResult.resign`).

The computer weighs the engine's cubeless chances of the player on roll (`Question.RESIGN`)
as gnubg does, in money-game points (the match score is not weighed): it accepts an offer
worth at least the points it expects from playing on, and before its roll in a race it
offers when it cannot win, the lowest kind its opponent is sure of (a single game when
the opponent cannot win a gammon, a gammon when not a backgammon; a single game while
the Jacoby rule counts gammons as single ones); an offer declined
is not made again this game.  Without the engine's chances it plays on, and declines.

A remote game the other board abandoned (away for `bgpi.remote.peer.CLAIM_SECONDS`:
the link shows `Link.ABANDONED`) may be claimed by the player here: a held *turn* asks,
*turn* again claims (*cube* backs out).  The claim is scored as the other player's
resignation of a backgammon (`CLAIMED`) times the cube, the most a game gives, so
that walking away from a game, or withholding a reveal, never pays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bgpi.rules.cube import Cube
from bgpi.rules.position import Side
from bgpi.rules.result import GameResult, ResultKind
from bgpi.table import events as ev
from bgpi.table.events import Emit
from bgpi.table.phases import Phase
from bgpi.table.requests import Purpose
from bgpi.table.state import TableState

_LEVELS = tuple(ResultKind)
"""What may be resigned, in the order *cube* steps through them."""

OPENS_FROM = (Phase.ROLL, Phase.MOVE, Phase.CHOOSE)
"""The phases in which a held *cube* opens a resignation."""

CLAIMABLE = (Phase.ROLL, Phase.DOUBLED, Phase.MOVE, Phase.CHOOSE, Phase.RESIGNING, Phase.RESIGNED)
"""The phases in which a game the other board abandoned may be claimed: a game under way."""

CLAIMED = ResultKind.BACKGAMMON
"""What a claimed game scores (times the cube)."""

HOPELESS = 1e-4
"""A chance the engine gives that counts as none (its bear-off figures are not exact zeros)."""


def expected_points(chances: Mapping[str, Any], on_roll: bool, gammons: bool = True) -> float:
    """The points per cube the engine's cubeless `chances` of the player on roll promise
    the player asked about (`on_roll`: that player; else the opponent); without
    `gammons` (the Jacoby rule in force) every win is a single game."""
    equity = 2 * chances["win"] - 1
    if gammons:
        equity += (chances["win_gammon"] + chances["win_backgammon"]
                   - chances["lose_gammon"] - chances["lose_backgammon"])
    return float(equity if on_roll else -equity)


def gammons_count(jacoby: bool, cube: Cube) -> bool:
    """Whether a gammon played out counts as one on `cube`: not under the Jacoby rule with
    the cube unturned."""
    return not (jacoby and not cube.turned)


def hopeless(chances: Mapping[str, Any]) -> ResultKind | None:
    """What the player on roll resigns with these chances: nothing while they may win, else
    the least the opponent is sure of."""
    if chances["win"] > HOPELESS:
        return None
    if chances["lose_gammon"] <= HOPELESS:
        return ResultKind.SINGLE
    return ResultKind.GAMMON if chances["lose_backgammon"] <= HOPELESS else ResultKind.BACKGAMMON


class Resigning:
    """The part of the table that handles resignations.

    Reads the game (its cube); changes the phase into and out of resigning, who
    resigns and what (`state.resigner`, `state.resigning`); emits the offer, the
    answer and, after an accepted one, the game's end."""

    def __init__(self, state: TableState, emit: Emit, end_game: Callable[[GameResult], None]) -> None:
        self.state, self.emit, self.end_game = state, emit, end_game

    def open(self, side: Side) -> None:
        """`side` held their *cube*: choose what to resign, a single game first.  What the
        computer asked for meanwhile is dropped: it asks again when play goes on."""
        state = self.state
        wants = state.advice.wants
        if wants is not None and wants.purpose is Purpose.COMPUTER:
            state.advice.wants = None
        if state.turn in state.computers:
            state.wants_roll = None
        state.resign_from = Phase.MOVE if state.phase == Phase.CHOOSE else state.phase
        state.resigner, state.resigning, state.phase = side, ResultKind.SINGLE, Phase.RESIGNING

    def choosing(self, side: Side, kind: str, long: bool,
                 offer: Callable[[Side, ResultKind], None] | None = None) -> None:
        """A press while `state.resigner` chooses what to resign; *turn* offers it (`offer`,
        by default this part's: a chouette offers its own way)."""
        state = self.state
        if side is not state.resigner:
            return
        if kind == "cube" and long:
            self.withdraw()
        elif kind == "cube":
            state.resigning = _LEVELS[(_LEVELS.index(state.resigning) + 1) % len(_LEVELS)]
        else:
            (offer or self.offer)(side, state.resigning)

    def withdraw(self) -> None:
        """The choice of what to resign ends with nothing offered (a held *cube*; the
        dice or the other board's decision arriving meanwhile); nothing while none is made."""
        state = self.state
        if state.phase == Phase.RESIGNING:
            state.phase, state.resigner = state.resign_from, None

    def offer(self, side: Side, kind: ResultKind) -> None:
        """`side` offers to resign `kind`: the opponent answers."""
        self.emit(ev.ResignOffered(side, kind))

    def computer_offers(self, side: Side, chances: Mapping[str, Any] | None) -> bool:
        """Whether the computer, on roll before rolling, offers to resign on the engine's
        `chances` (None: the engine gave none); it offers if so."""
        kind = None if chances is None else hopeless(chances)
        if kind is not None and not self._gammons_count():
            kind = ResultKind.SINGLE  # the Jacoby rule: the opponent is sure of no more
        declined = self.state.declined
        if kind is None or (declined is not None and declined.player is side
                            and _LEVELS.index(kind) <= _LEVELS.index(declined.result)):
            return False
        self.offer(side, kind)
        return True

    def computer_answers(self, side: Side, chances: Mapping[str, Any] | None, on_roll: bool) -> None:
        """The computer answers the offer on the engine's `chances` of the player on roll
        (`on_roll`: the computer is): it accepts what is worth at least playing on."""
        offer = self.state.resignation
        if offer is None:
            return
        accepts = (chances is not None
                   and offer.result.multiplier >= expected_points(chances, on_roll, self._gammons_count()))
        self.answer(side, "turn" if accepts else "cube")

    def _gammons_count(self) -> bool:
        return gammons_count(self.state.setup.settings.jacoby, self.state.current_game().cube)

    def answer(self, side: Side, kind: str) -> None:
        """A press while a resignation is offered: the opponent's *turn* accepts, *cube* declines."""
        offer = self.state.resignation
        if offer is None or side is offer.player:
            return
        if kind == "cube":
            self.emit(ev.ResignDeclined(side))
            return
        self.emit(ev.ResignAccepted(side))
        self.end_game(self.accepted(offer))

    def accepted(self, offer: ev.ResignOffered) -> GameResult:
        """The game's result once `offer` is accepted: the kind offered times the cube,
        whatever the position."""
        return GameResult.resign(offer.player.opponent, offer.result, self.state.current_game().cube.value)

    def claiming(self, side: Side, kind: str, long: bool) -> bool:
        """A press of `side`'s while the other board has abandoned the game: a held *turn*
        asks to claim it, then *turn* claims and *cube* backs out.  Whether the press was
        taken so (False: it does what it does otherwise)."""
        state = self.state
        if state.phase not in CLAIMABLE or (state.claimer is None and not (kind == "turn" and long)):
            return False
        if state.claimer is None:
            state.claimer = side
        elif side is state.claimer and kind == "turn":
            self.claim(side)
        elif side is state.claimer:
            state.claimer = None
        return True

    def claim(self, side: Side) -> None:
        """`side` claims the game the other board abandoned (here, or at the other board):
        it ends as the other player's resignation of `CLAIMED` times the cube."""
        self.withdraw()
        self.emit(ev.Claimed(side, CLAIMED))
        self.end_game(GameResult.resign(side, CLAIMED, self.state.current_game().cube.value))
