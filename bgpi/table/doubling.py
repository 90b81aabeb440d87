"""Cube actions at the table: offering a double, and the answer to one.

Offers are made with a *cube* button before rolling; the player doubled answers with
*turn* (take), *cube* twice (drop) or a held *cube* (beaver, where enabled).  One press
never ends a game: the first press of *cube* asks (`drop_asked`), a second one within
`DROP_CONFIRM` seconds of board time drops, and *turn* or the time running out goes back
to the question.  What is allowed is the rules' business (`bgpi.rules.cube`,
`bgpi.rules.session`); a refusal becomes a `rejected` event with the rules' own reason.
"""

from __future__ import annotations

from collections.abc import Callable

from bgpi.exc import CubeError
from bgpi.rules.position import Side
from bgpi.rules.result import GameResult
from bgpi.table import events as ev
from bgpi.table.events import Emit
from bgpi.table.state import Board, TableState

DROP_CONFIRM = 3.0
"""Seconds of board time in which a second press of *cube* confirms a drop."""


class Doubling:
    """The part of the table that handles the cube.

    Reads the game (its cube) and board time; changes the drop's question
    (`state.drop_asked`); emits the cube actions and, after a drop, the game's end."""

    def __init__(self, state: TableState, board: Board, emit: Emit,
                 end_game: Callable[[GameResult], None]) -> None:
        self.state, self.board, self.emit, self.end_game = state, board, emit, end_game

    def answer(self, side: Side, kind: str, long: bool) -> None:
        """`side` pressed a `kind` button (turn or cube; `long`: held) while doubled."""
        if side is not self.state.taker():
            return
        if kind == "turn":
            if self.state.drop_asked is not None:
                self._keep_question(side)
            else:
                self.take(side)
        elif long:
            self.beaver(side)
        elif self.state.drop_asked is None:
            self.state.drop_asked = self.board.now
            self.emit(ev.DropAsked(side, f"press {side.label}.cube again to drop, {side.label}.turn to go back"))
        else:
            self.drop(side)

    def _keep_question(self, side: Side) -> None:
        """The drop was not confirmed: back to take or drop."""
        self.state.drop_asked = None
        self.emit(ev.DropCancelled(side))

    def check_drop_time(self) -> None:
        asked = self.state.drop_asked
        if asked is not None and self.board.now - asked + 1e-9 >= DROP_CONFIRM:
            self._keep_question(self.state.taker())

    def deadlines(self) -> list[float]:
        return [] if self.state.drop_asked is None else [self.state.drop_asked + DROP_CONFIRM]

    def double(self, side: Side) -> None:
        try:
            offered = self.state.current_game().double(side).cube.offered_value
        except CubeError as refusal:
            self.emit(ev.Rejected(side, str(refusal)))
            return
        if (late := self.too_late(side)) is not None:
            self.emit(ev.Rejected(side, late))
            return
        self.emit(ev.Double(side, offered))

    def too_late(self, side: Side) -> str | None:
        """Why `side` may not double now though the cube allows it: the dice are asked for
        (in a remote game both boards make them, which takes a while; once asked, they come)."""
        if self.state.wants_roll is None:
            return None
        return f"{side.label} has asked for the dice: too late to double"

    def take(self, side: Side) -> None:
        self.emit(ev.Take(side, self.state.current_game().cube.offered_value))

    def beaver(self, side: Side) -> None:
        game = self.state.current_game()
        reason = game.why_not_beaver(side)
        if reason is not None:
            self.emit(ev.Rejected(side, reason))
            return
        self.emit(ev.Beaver(side, game.beaver(side).cube.offered_value))

    def drop(self, side: Side) -> None:
        game = self.state.current_game()
        result = game.drop(side)
        self.emit(ev.Drop(side, game.cube.value))
        self.end_game(result)
